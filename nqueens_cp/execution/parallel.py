"""The sub-problems of split searches, and what a worker runs for each.

Nothing here decides anything (:mod:`.plan` does): it fixes the first rows
to every non-attacking prefix, and runs one prefix as an independent
sub-search through an engine's public :meth:`Engine.subproblem`, wherever
:mod:`.pools` sends it (a local process pool, this process, or a
cluster's), which hands results back in prefix order, so that the output is
the same whatever the number of workers.  Solutions travel back as one
integer key each (:func:`board.pack`), 64-bit for N <= 16.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from array import array
from collections.abc import Callable, Iterable
from typing import Any

from ..model.board import Position, Solution, is_solution, pack
from ..model.variants import PLAIN, Variant
from .. import stopping
from ..errors import InvalidInputError, TimeLimitReached

KEY_MAX_N = 16  # n**n < 2**64: a solution's key fits an unsigned 64-bit word


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_jobs(jobs: int | None) -> int:
    """The number of worker processes asked for (None: the cores), checked."""
    if jobs is not None and (type(jobs) is not int or jobs < 1):
        raise InvalidInputError(f"jobs must be a positive integer, got {jobs!r}")
    return jobs or default_jobs()


def prefixes(n: int, fixed: dict[int, int], rows: int, mirror: bool = False,
             variant: Variant = PLAIN) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) for every placement of the first rows in which no two
    pieces attack each other by ``variant``'s relation, and that honours
    ``fixed`` (a :class:`Position`'s blocked squares too; each prefix is a
    Position that keeps them).  With ``mirror``, only first-row columns left of
    the centre are kept, with weight 2 (the centre column, odd n, weight 1)."""
    rows = min(rows, n)
    position = fixed if isinstance(fixed, Position) else Position(fixed)
    found: list[tuple[dict[int, int], int]] = []

    def extend(prefix: dict[int, int]) -> None:
        row = len(prefix)
        if row == rows:
            weight = 1
            if mirror:
                first = prefix[0]
                if 2 * first > n - 1:
                    return
                weight = 1 if 2 * first == n - 1 else 2
            found.append((position.with_queens(prefix), weight))
            return
        for col in position.columns(row, n):
            if not any(variant.attacks(n, (r, c), (row, col)) for r, c in prefix.items()):
                prefix[row] = col
                extend(prefix)
                del prefix[row]

    extend({})
    return found


def mirror_image(solution: Solution) -> Solution:
    last = len(solution) - 1
    return tuple([last - c for c in solution])


def merge_stats(total: dict[str, Any], part: dict[str, Any], additive: Iterable[str]) -> None:
    """Add a sub-problem's statistics to the total: counters add up, the rest
    (model size, solver name) is kept from the first sub-problem."""
    additive = set(additive)
    for key, value in part.items():
        if key in additive:
            total[key] = total.get(key, 0) + value
        else:
            total.setdefault(key, value)
    total["subproblems"] = total.get("subproblems", 0) + 1


# --- in the workers -----------------------------------------------------------------

def init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # A pool stopping its workers (pools.shutdown): the worker dies at once, and nothing of
    # the parent's runs (its clean-up handlers, inherited by the fork); but what the worker's
    # search started and registered (a solver's child process, a temporary folder) goes with it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    stopping.worker()
    _die_with_parent()
    # A forked worker holds a copy of the parent's unwritten stdout buffer,
    # which multiprocessing would flush when the worker exits: drop it.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115


def _die_with_parent() -> None:
    """A worker in the compiled loop cannot be interrupted: if the parent is
    killed outright (SIGKILL, no clean-up), the kernel kills the worker too
    (Linux's PR_SET_PDEATHSIG; elsewhere nothing is done)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def wall_deadline(deadline: float | None) -> float | None:
    """A monotonic deadline as wall-clock time, which every process of the machine shares."""
    return None if deadline is None else time.time() + (deadline - time.monotonic())


def _remaining(deadline: float | None) -> float | None:
    """Seconds left until a wall-clock ``deadline`` (time.time(): the same on every process of a machine)."""
    return None if deadline is None else max(deadline - time.time(), 1e-3)


def part_keys(engine: Any, n: int, prefix: dict[int, int], weight: int,
              deadline: float | None = None) -> tuple[Any, Solution | None, dict[str, Any], bool]:
    """One sub-problem's solutions as packed keys (each followed by its mirror
    image's when ``weight`` is 2), the first board that fails the independent
    validator, the statistics, and whether the deadline cut it short."""
    with engine.subproblem(n, prefix, time_limit=_remaining(deadline)) as search:
        keys, invalid = packed(search, n, mirrored=weight == 2, valid=engine.variant.is_solution)
    data = keys.tobytes() if isinstance(keys, array) else keys
    return data, invalid, search.stats, search.timed_out


def part_count(engine: Any, n: int, prefix: dict[int, int],
               deadline: float | None = None) -> tuple[int, dict[str, Any], bool]:
    """One sub-problem's count, its statistics, and whether the deadline cut it short."""
    search = engine.subproblem(n, prefix, time_limit=_remaining(deadline))
    try:
        found = search.count()
    except TimeLimitReached:
        return 0, search.stats, True
    return found, search.stats, False


def packed(solutions: Iterable[Solution], n: int, mirrored: bool = False,
           valid: Callable[[Solution, int], bool] = is_solution) -> tuple[Any, Solution | None]:
    """Every solution as one integer key (and, if ``mirrored``, its mirror image
    after it), with the first board that fails the independent validator
    (``valid``: a variant's own, :meth:`~nqueens_cp.model.variants.Variant.is_solution`).
    The keys are a 64-bit array for n <= 16, where they fit, else a list."""
    keys: Any = array("Q") if n <= KEY_MAX_N else []
    invalid = None
    for solution in solutions:
        if invalid is None and not valid(solution, n):
            invalid = solution
        keys.append(pack(solution, n))
        if mirrored:
            keys.append(pack(mirror_image(solution), n))
    return keys, invalid


def unpacked_keys(data: Any) -> Iterable[int]:
    if isinstance(data, bytes):
        block = array("Q")
        block.frombytes(data)
        return block
    return data


LOCAL_WORKERS_MAX = 256  # 'local:N': more single-threaded workers than this on one machine is a mistake
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?[A-Za-z0-9.\-_\[\]:]+:\d{1,5}|inproc://\S+")


def check_scheduler(spec: str) -> None:
    """Refuse a --scheduler that cannot name a Dask cluster, before any work:
    'local', 'local:N' (1 <= N <= 256) or a scheduler's address (tcp://HOST:PORT)."""
    kind, colon, workers = spec.partition(":")
    if kind == "local":
        if colon and not (workers.isdigit() and 1 <= int(workers) <= LOCAL_WORKERS_MAX):
            raise InvalidInputError(f"a local cluster is 'local' or 'local:N' with N from 1 to {LOCAL_WORKERS_MAX}, "
                                    f"got '{spec}'")
    elif not _ADDRESS.fullmatch(spec):
        raise InvalidInputError(f"--scheduler takes a Dask scheduler's address (tcp://HOST:PORT), 'local' or "
                                f"'local:N', got '{spec}'")


