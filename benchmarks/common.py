"""Side-by-side timing: run commands alternately in one session, report medians and ratios.

Speed is measured here, never asserted in tests: on a shared 2-core machine
only ratios measured in the same run mean anything.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


# A whole part of a count by quarters, in a process of its own (parts.py, parts_record.py): its argv the
# count's N and the part's index in join.parts(N); the quarters' table built first, on one of its row sets,
# before any clock.  What it prints is the caller's, after this.
PART_PROGRAM = ("import sys\nfrom nqueens_cp.counting import join\n"
                "n, index = map(int, sys.argv[1:3])\npart = join.parts(n)[index]\n"
                "join.count_part(n, part._replace(last=part.first + 1))  # (the quarters' table, before the clock)\n")


def part_indices(parser: Any) -> None:
    """The --parts option of the scripts that count whole parts."""
    parser.add_argument("--parts", required=True, help="the parts' indices in join.parts(N), comma-separated")


def bytecode(root: Path = ROOT) -> None:
    """Compile the package's bytecode under ``root`` once, as a regular install
    does.  With PYTHONDONTWRITEBYTECODE set (as on the machine of these
    measurements) every timed run would compile its modules from source
    again, about 0.02 s a start that a user's install does not pay (0.17 s a
    `count` from another checkout: versions.py compiles that one too)."""
    import compileall

    compileall.compile_dir(root / "nqueens_cp", quiet=1)


bytecode()


@dataclass
class Side:
    """One contender: a command, and a check that its output is right."""

    name: str
    command: Sequence[str]
    check: Callable[[str], bool]
    times: list[float] = field(default_factory=list)
    stderr: str = ""  # the last run's

    def run(self) -> None:
        start = time.perf_counter()
        result = subprocess.run(list(self.command), capture_output=True, text=True, cwd=ROOT)
        self.times.append(time.perf_counter() - start)
        self.stderr = result.stderr
        if not self.check(result.stdout):
            raise SystemExit(f"{self.name}: wrong output (exit {result.returncode}):\n{result.stdout[-500:]}{result.stderr[-500:]}")


def nqueens(*args: str) -> list[str]:
    return [PYTHON, "-m", "nqueens_cp", *args]


def alternate(sides: Sequence[Side], repeat: int) -> None:
    """Run every side once per round, ``repeat`` rounds, alternating the order."""
    for round_ in range(repeat):
        for side in (sides if round_ % 2 == 0 else reversed(sides)):
            side.run()
            print(f"  round {round_ + 1}: {side.name:<28} {side.times[-1]:8.3f} s", file=sys.stderr, flush=True)


def report(title: str, sides: Sequence[Side], reference: Side) -> None:
    print(f"\n{title}")
    ref = statistics.median(reference.times)
    for side in sides:
        med = statistics.median(side.times)
        print(f"  {side.name:<30} median {med:8.3f} s  (min {min(side.times):.3f}, max {max(side.times):.3f}, "
              f"n={len(side.times)})  ratio to {reference.name}: {med / ref:5.2f}x")


def last_line_is(value: int) -> Callable[[str], bool]:
    return lambda out: out.strip().splitlines()[-1:] == [str(value)]


def prints_full_set(n: int) -> Callable[[str], bool]:
    """A check that output lines ('--format line') are exactly every solution of n-queens."""
    from nqueens_cp.engines import get_engine

    truth = set(get_engine("bitmask").search(n))

    def check(out: str) -> bool:
        lines = out.splitlines()
        return len(lines) == len(truth) and {tuple(map(int, line.split())) for line in lines} == truth

    return check


def listed_windows(n: int, parts: int, window: int, rng: Any) -> Iterator[tuple[Any, list[tuple[Any, Any]]]]:
    """For each of ``parts`` parts of a count of an odd n by quarters drawn by ``rng``, a window of
    at most ``window`` of its row sets at a random place, listed by the compiled kernel
    (``kernel.join_list``): (the part, [(east keys, west keys) for each row set], NumPy arrays of
    their own).  An odd N's join has one pair of lists a row set; what the benchmarks that study
    the join's lists (telling_bits.py, greedy_bits.py, dense_lanes.py) read."""
    import numpy as np

    from nqueens_cp import kernel
    from nqueens_cp.counting import join

    keys = np.zeros(1 << 24, dtype=np.uint64)
    jobs = np.zeros(kernel.JOB_WORDS * 4096, dtype=np.uint64)
    for part in rng.sample(join.parts(n), parts):
        start = rng.randrange(part.first, max(part.first + 1, part.last - window))
        listed = kernel.join_list(n, part.x, part.y, start, min(part.last, start + window), keys, jobs)
        lists = []
        for j in range(listed.jobs):
            east, east_count, west, west_count, _ = (int(v) for v in jobs[kernel.JOB_WORDS * j:kernel.JOB_WORDS * (j + 1)])
            lists.append((keys[east:east + east_count].copy(), keys[west:west + west_count].copy()))
        yield part, lists


def dense_joins(n: int, width: int, parts: int, window: int, every: int, rng: Any) -> Iterator[tuple[Any, Any, list[int]]]:
    """The joins of :func:`listed_windows` (every ``every``-th row set of each window) whose longer
    list's buckets join.c keeps dense (the shorter list of 512 keys or more: join.h's
    JOIN_DENSE_LIST), each as (the shorter list's keys' bits, the longer's: one row a key, one
    column a bit of the ``width``-bit window; the window's bits from the most telling down, as
    join.c orders them, by the product of the two lists' counts of each): what dense_lanes.py and
    sorted_buckets.py put in buckets."""
    import numpy as np

    for _, lists in listed_windows(n, parts, window, rng):
        for p, q in lists[::every]:
            if len(p) > len(q):
                p, q = q, p
            if len(p) < 512:
                continue
            p_bits, q_bits = (((keys[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)
                              for keys in (p, q))
            yield p_bits, q_bits, [int(b) for b in np.argsort(-(p_bits.sum(0) * q_bits.sum(0)), kind="stable")]


def window_arguments(parser: Any, parts: int, window: int, seed: int, every: int | None = None) -> None:
    """The arguments of a benchmark that reads :func:`listed_windows`: N (an odd N from 17 to 25,
    checked by :func:`odd_width`), the parts drawn, the row sets a window, the seed; and, where
    ``every`` is given, --every (every so many of a window's row sets taken)."""
    parser.add_argument("n", type=int, nargs="?", default=23)
    parser.add_argument("--parts", type=int, default=parts)
    parser.add_argument("--window", type=int, default=window, help="row sets listed a part, at most")
    parser.add_argument("--seed", type=int, default=seed)
    if every is not None:
        parser.add_argument("--every", type=int, default=every, help="every so many of a window's row sets taken")


def odd_width(parser: Any, n: int) -> int:
    """The width of an odd N's keys (both kinds of diagonals of the window), or a usage error for
    another N: an even N's ids have its two long diagonals on top, which these studies leave out."""
    if n % 2 == 0 or not 17 <= n <= 25:
        parser.error("N: an odd N from 17 to 25 (an even N's ids have its long diagonals on top)")
    return 2 * (2 * (n // 2) - 1)
