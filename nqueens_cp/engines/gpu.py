"""The count by symmetry classes, or by quarters, on an NVIDIA GPU, through CuPy.

The same decomposition as the bitmask engine's count (one board per class of
the eight symmetries; corner and inner families; the tie squares; S180 and
S90 searched apart as a check), its sub-boards split deeper into work items
and searched by ``nqueens_cp/kernel/gpu.cu``: the items whose solutions are
classed by their turns with the CPU kernel's own walk (``queens.h``), the
rest by a count-only loop (:mod:`nqueens_cp.counting.gpu`).  It counts
plain N, nothing else.  The walk alone was verified on an NVIDIA H200 (issue 54): every count from
N = 1 to 21 is A000170's and A002562's; the figures are in
docs/counting.md.  The count-only loop has run on CPU threads only, so the
engine is marked experimental until a GPU gives the same (issue 66).

With ``method="quarters"`` (``--method quarters``) it counts by joining
quarters instead: the parts and numbers of :mod:`nqueens_cp.counting.join`,
their halves listed on the host (or the device) and joined on the device
(:mod:`nqueens_cp.counting.gpu_join`, issue 66); only when asked, until a
device has measured where it beats the walk.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInputError
from ..counting import classes
from ..counting.classes import SubBoard, Values
from ..counting import join
from ..counting.join import Part
from ..model.position import Position
from .base import Engine


class GpuEngine(Engine):
    name = "gpu"
    summary = ("the count by symmetry classes (or, asked, by quarters) on an NVIDIA GPU (CuPy, NVRTC); its walk "
               "verified on an H200 for N = 1 to 21")
    # Remove in the commit that records a run of benchmarks/gpu_machine.sh on a GPU with the
    # count-only loop giving every published count (issue 66), as issue 54's did for the walk.
    experimental = ("engine gpu is experimental: its count-only loop and its join of quarters (issue 66) have not "
                    "yet run on a GPU; their counts are checked against the CPU kernel's on CPU threads only")
    requires = "cupy"
    install = "pip install 'nqueens-cp[gpu]' (CuPy) on a machine with an NVIDIA GPU"
    paradigm = "backtracking"
    enumerates = False
    counts_only = True
    solves = False
    takes_fixed = False
    counts_classes = True
    counts_quarters = True  # with --method quarters only (quarters_from None): not yet measured on a device
    # A task is a launch, and a launch lasts as long as its slowest thread:
    # up to N = 22 (the targets' sizes, minutes at most) a count is one
    # launch, which the simulation of benchmarks/gpu_schedule.py finds 2.5x
    # as busy as a launch per 1,024 sub-boards at N = 18 on an H100's threads;
    # beyond, tasks of 1,024 sub-boards, so that a checkpoint records
    # progress now and then and a cluster's GPUs share the count.
    sub_boards_per_task = 1024
    forks_workers = False  # CUDA: a worker forked from a process that has used it cannot (issue 54)
    one_launch_max_n = 22
    statistics = ("nodes", "kernel", "sub_boards", "total", "fundamental")
    additive = frozenset({"nodes"})
    effort = "nodes"
    count_rate = 4e9  # solutions a second at N = 20 and 21 on an H200 (benchmarks/gpu.py, 2026-11-26)
    # Every N by classes, the smallest too (N = 4 and 5 are one and four work
    # items; 1 to 3, none: the tallies alone), so that a run on a GPU checks
    # the whole table from N = 1.
    classes_from = 1
    max_n = 62
    max_n_why = "the count by classes works on 64-bit words"

    def task_size(self, n: int) -> int | None:
        return (len(classes.sub_boards(n)) or 1) if n <= self.one_launch_max_n else self.sub_boards_per_task

    def count_sub_boards(self, n: int, chunk: list[SubBoard]) -> Values:
        """The task of a count by classes on this process's GPU."""
        from ..counting import gpu

        return gpu.count_sub_boards(n, chunk)

    def count_part(self, n: int, part: Part, cap: int) -> join.Values:
        """A part of a count by quarters, its join on this process's GPU (its
        lists are the device's: ``cap``, the CPU's memory bound, is not read)."""
        from ..counting import gpu_join

        return gpu_join.count_part(n, part)

    def quarters_working_bytes(self, n: int, cap: int) -> int:
        """The host's side of a part joined on the device (whatever ``cap``)."""
        from ..counting import gpu_join

        return gpu_join.host_bytes()

    @classmethod
    def unavailable_reason(cls) -> str | None:
        import glob

        reason = super().unavailable_reason()
        if reason is None and not glob.glob("/dev/nvidia[0-9]*"):
            return f"no NVIDIA GPU here (no /dev/nvidia0; {cls.install})"
        return reason

    def check_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None,
                     part: bool = False) -> None:
        super().check_search(n, placed, limit, time_limit, part)
        if placed:
            raise InvalidInputError("engine gpu counts plain N only: no pre-placed queens or blocked squares")

    def stream(self, n: int, placed: Position, limit: int | None, stats: dict[str, Any],
               deadline: float | None) -> Any:
        raise InvalidInputError("engine gpu counts solutions without listing them: use count")

    def own_count(self, n: int, placed: Position, stats: dict[str, Any], deadline: float | None) -> int:
        raise InvalidInputError("engine gpu counts by symmetry classes or by quarters only (plain N)")
