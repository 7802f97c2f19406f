"""Making certificates: :func:`certify` (a count, or a list) and
:func:`certify_optimum` (an optimum).  Nothing here is used by the checker,
:mod:`.check`, which trusts none of it."""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import scratch
from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from ..model.board import Solution
from ..model.position import check_placements
from ..model.variants import PLAIN, Variant, get
from .format import (BOARDS, FILES, FORMAT, FORMULA, LRAT, MANIFEST, PROOF, PROOF_KINDS, QUESTION,
                     part_name, question_record, read_boards, sha256_of, write_blocked)

SOLVER = "cadical195"  # the proof-logging enumerator (the fastest here, docs/cnf.md)

# CaDiCaL's inprocessing that removes clauses onto its extension stack (variable elimination,
# equivalent literals, blocked, covered and conditioned clauses) brings them back when a later
# clause touches their variables, and in a DRAT proof they then reappear as lemmas that do not
# follow: drat-trim rejected the enumeration's proof at N = 12 with these on.  Off, the one
# incremental solver's proof refutes F and every blocking clause (every test checks it).
PROOF_SAFE = {"elim": 0, "decompose": 0, "block": 0, "cover": 0, "condition": 0}


@dataclass(frozen=True)
class Certified:
    """What :func:`certify` wrote: the count and where its certificate is."""

    directory: str
    n: int
    variant: str
    count: int
    seconds: float
    proof_bytes: int
    stats: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "variant": self.variant, "count": self.count, "certificate": self.directory,
                "seconds": round(self.seconds, 6), "proof_bytes": self.proof_bytes, "stats": self.stats}


def certify(n: int, directory: str | os.PathLike[str], *, variant: str | Variant | None = None,
            fixed: Mapping[int, int] | None = None, blocked: Any = None, encoding: str = "pairwise",
            time_limit: float | None = None, jobs: int | None = None, split: bool | None = None,
            lrat: bool = False, executor: Any = None,
            on_board: Callable[[Solution], None] | None = None,
            notify: Callable[[str], None] | None = None) -> Certified:
    """Count the boards of the question by the CNF and write a certificate of
    the count into ``directory`` (which must not exist yet: it appears whole
    when done, or not at all).  From N = SPLIT_MIN_N (or with ``split``
    true; false: never), as ``count`` splits its search, the count is split
    on the column of row 0 (unless a queen is pre-placed there): one
    certificate a column in ``part-C/``, counted on ``jobs`` processes
    (None: the cores; smaller enumerations are faster even on one core); :func:`verify`
    checks each and that the parts cover the question.  ``on_board(board)``
    is told each board (as it is found; split, a part's when the part ends).
    ``executor`` (a Dask scheduler's address, 'local:N', or an executor)
    runs the parts as tasks instead: each certifies its part where it runs
    and sends the files back (a worker that dies has its part run again).
    With ``lrat``, drat-trim checks each proof as it is made and the
    certificate keeps what it checked as LRAT (``proof.lrat``), for a
    formally verified LRAT checker; :func:`verify` then runs lrat-check too.
    Past ``time_limit`` seconds, TimeLimitReached and no certificate.
    ``notify(note)`` is told, before any work, of a certificate that would
    take hours (:func:`advice`)."""
    from ..execution.workers import check_jobs
    from ..execution.plan import SPLIT_MIN_N
    from ..model.cnf import amo_encoding, check_size

    variant = get(variant if variant is not None else PLAIN)
    if not variant.places:
        raise InvalidInputError(f"{variant.title} asks for an optimum: its certificate is optimum --certificate "
                                "(certify_optimum)")
    placed = check_placements(n, fixed, blocked)
    jobs = check_jobs(jobs)
    amo_encoding(encoding)  # an unknown encoding, refused before any work
    # (and a CNF too large to build: count 200 --certificate D built 13 million clauses a part, each part
    # deaf to its time limit until it had; 27 s for --time-limit 5)
    check_size("a certificate", n, encoding, variant=variant, advice="")
    target, parent = new_directory(directory)
    if notify is not None:
        for note in advice(n, variant, jobs, time_limit):
            notify(note)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    start = time.perf_counter()
    try:
        with partial(target, parent) as work:
            if executor is not None and 0 in placed:
                raise InvalidInputError("a certificate splits on row 0 to run on a cluster: row 0 holds a "
                                        "pre-placed queen, so there is nothing to split")
            if executor is not None or (n >= SPLIT_MIN_N if split is None else split) and n > 1 and 0 not in placed:
                count, stats = _certify_split(work, n, variant, placed, encoding, deadline, jobs, on_board, lrat,
                                              executor)
            else:
                count, stats = _certify_whole(work, n, variant, placed, encoding, deadline, on_board, lrat)
            publish(work, target)
    except TimeLimitReached as stop:
        if str(stop):
            raise
        raise TimeLimitReached(f"the time limit of {time_limit:g} s came before the certificate was complete: "
                               "no certificate written") from None
    proof_bytes = sum(path.stat().st_size for path in target.rglob(PROOF))
    return Certified(str(target), n, variant.name, count, time.perf_counter() - start, proof_bytes, stats)


# Boards a second one process certifies (found, blocked, proved), about: N = 13's 73,712 in
# 35 s on 2 cores (count 13 --certificate D); the rate falls as N grows.
RATE = 1e3


def advice(n: int, variant: Variant, jobs: int, time_limit: float | None = None) -> list[str]:
    """A note for a certificate that would take more than a minute: each of
    its boards goes through a SAT solver (found, blocked, its proof logged),
    at about :data:`RATE` a second a process.  Estimated from the plain
    count (known to N = 27); questions whose count is not known get none."""
    from ..known import TOTAL
    from ..estimates import LONG_SECONDS, duration

    boards = TOTAL.get(n) if variant.is_plain else None
    if boards is None:
        return []
    seconds = boards / (RATE * jobs)
    if seconds <= LONG_SECONDS:
        return []
    stop = f"; --time-limit {time_limit:g} s will stop it first" if time_limit and time_limit < seconds else ""
    return [f"a certificate of N={n} puts each of its {boards:,} boards through a SAT solver: at about "
            f"{RATE * jobs:,.0f} a second here it would take {duration(math.log10(seconds))}{stop}"]


def new_directory(directory: str | os.PathLike[str]) -> tuple[Path, Path]:
    """(the certificate's directory, its parent), refused in one line unless
    it is new (or empty) and its parent a directory."""
    if not isinstance(directory, (str, os.PathLike)) or not str(directory):
        raise InvalidInputError(f"a certificate goes into a directory named by a path, got {directory!r}")
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InvalidInputError(f"{target} exists: a certificate goes into a new directory (or an empty one)")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidInputError(f"{parent} is not a directory: cannot write the certificate there")
    try:  # (where it will be made, before any work: access() says yes for root on a read-only mount)
        os.rmdir(tempfile.mkdtemp(prefix=f".{target.name}.probe-", dir=parent))
    except OSError as error:
        raise InvalidInputError(f"cannot write the certificate {target}: {error.strerror or error}") from None
    return target, parent


@contextmanager
def partial(target: Path, parent: Path) -> Iterator[Path]:
    """The certificate's folder while it is made, ``.D.partial-*`` beside ``D``:
    removed if the block fails (its success renames it, :func:`publish`); by
    the watchdog if this process is killed outright; and by the next
    certificate made there if even the watchdog cannot (:mod:`nqueens_cp.scratch`)."""
    from .. import stopping

    with stopping.watchdog() as guard:
        work = Path(scratch.make(f".{target.name}.partial-", parent, before=guard.folder))
        try:
            yield work
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise


def publish(work: Path, target: Path) -> None:
    """The finished certificate under its name, at once (a rename)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(work, 0o777 & ~umask)  # (mkdtemp's directory is the owner's only)
    if target.exists():
        target.rmdir()  # (empty, checked before)
    os.rename(work, target)


def _certify_whole(work: Path, n: int, variant: Variant, placed: Any, encoding: str, deadline: float | None,
                   on_board: Callable[[Solution], None] | None = None, lrat: bool = False) -> tuple[int, dict[str, Any]]:
    """One certificate into ``work``: the enumeration, its boards and its proof."""
    from pysat.solvers import Solver

    from ..engines.sat import run_solver
    from ..model.cnf import encode
    from ..model.dimacs import write_dimacs_file

    start = time.perf_counter()
    cnf = encode(n, encoding, placed, variant=variant)
    cells, count = n * n, 0
    write_dimacs_file(str(work / FORMULA), n, encoding, placed, variant=variant)
    write_json(work / QUESTION, question_record(n, variant, placed, encoding))
    with open(work / BOARDS, "w", encoding="ascii") as boards, \
            Solver(name=SOLVER, bootstrap_with=cnf.clauses, with_proof=True) as solver:
        solver.configure(PROOF_SAFE)
        while run_solver(solver, deadline):
            true_cells = [v for v in solver.get_model()[:cells] if v > 0]
            board = tuple((v - 1) % n for v in true_cells)
            boards.write(" ".join(map(str, board)) + "\n")
            count += 1
            if on_board is not None:
                on_board(board)
            solver.add_clause([-v for v in true_cells])
        stats = dict(solver.accum_stats(), enumerate_s=round(time.perf_counter() - start, 6))
        copy_proof(solver, work / PROOF)
    if lrat:
        with scratch.folder("nqueens-lrat-") as folder:
            write_blocked(work, Path(folder) / "blocked.cnf", count)
            keep_lrat(Path(folder) / "blocked.cnf", work)
    names = FILES + ((LRAT,) if lrat else ())
    write_json(work / MANIFEST, {"format": FORMAT, "count": count, "solver": SOLVER, "proof": PROOF_KINDS[lrat],
                                  "files": {name: describe(work / name) for name in names}})
    return count, stats


def keep_lrat(formula: Path, work: Path) -> None:
    """drat-trim on the proof just made, keeping the LRAT it checked; a
    rejected proof is the solver's defect, and no certificate."""
    from ..model.proofs import drat_to_lrat

    check = drat_to_lrat(formula, work / PROOF, work / LRAT)
    if not check.verified:
        raise NQueensError(f"drat-trim did not accept the solver's proof ({check.detail}): no certificate")


def _part(work: str, n: int, variant: Variant, placed: Any, encoding: str, deadline: float | None,
          column: int, lrat: bool = False) -> int:
    """One part of a split certificate (in a worker process): row 0's queen on ``column``."""
    part = Path(work) / part_name(n, column)
    part.mkdir()
    return _certify_whole(part, n, variant, placed.with_queens({0: column}), encoding, deadline, None, lrat)[0]


def _certify_split(work: Path, n: int, variant: Variant, placed: Any, encoding: str, deadline: float | None,
                   jobs: int, on_board: Callable[[Solution], None] | None,
                   lrat: bool = False, executor: Any = None) -> tuple[int, dict[str, Any]]:
    """A certificate a column of row 0 (its blocked squares apart: the CNF has
    them false), counted on ``jobs`` processes; the top manifest lists the parts."""
    columns = [c for c in range(n) if (0, c) not in placed.blocked]
    write_json(work / QUESTION, question_record(n, variant, placed, encoding))
    counts: dict[int, int] = {}
    if executor is not None:
        _run_tasks(work, n, variant, placed, encoding, deadline, executor, columns, counts, on_board, lrat)
    elif jobs == 1:  # in this process, one part after the other
        for c in columns:
            counts[c] = _part(str(work), n, variant, placed, encoding, deadline, c, lrat)
            _tell(work / part_name(n, c), n, on_board)
    else:
        _run_parts(work, n, variant, placed, encoding, deadline, jobs, columns, counts, on_board, lrat)
    parts = {part_name(n, c): {"column": c, "count": counts[c],
                               "manifest_sha256": sha256_of(work / part_name(n, c) / MANIFEST)} for c in columns}
    write_json(work / MANIFEST, {"format": FORMAT, "count": sum(counts.values()), "split": "row 0",
                                  "parts": parts, "files": {QUESTION: describe(work / QUESTION)}})
    return sum(counts.values()), {"parts": len(columns), "jobs": jobs}


def _part_files(n: int, variant: Variant, placed: Any, encoding: str, seconds: float | None, column: int,
                lrat: bool) -> tuple[int, dict[str, bytes]]:
    """One part certified where a cluster's task runs, in a temporary
    directory there: (its count, its files' contents), for the client to write."""
    with scratch.folder("nqueens-part-", _worker_directory()) as folder:
        deadline = None if seconds is None else time.monotonic() + seconds
        count = _part(folder, n, variant, placed, encoding, deadline, column, lrat)
        part = Path(folder) / part_name(n, column)
        return count, {path.name: path.read_bytes() for path in part.iterdir()}


def _worker_directory() -> str | None:
    """A Dask worker's own directory (removed with the worker, or with a
    local cluster's scratch even after the worker is killed), else None."""
    try:
        from distributed import get_worker

        return str(get_worker().local_directory)
    except (ImportError, ValueError, AttributeError):  # (ValueError: not in a worker)
        return None


def _run_tasks(work: Path, n: int, variant: Variant, placed: Any, encoding: str, deadline: float | None,
               executor: Any, columns: list[int], counts: dict[int, int],
               on_board: Callable[[Solution], None] | None, lrat: bool) -> None:
    """The parts as tasks of a Dask cluster (or any executor), their files
    written here as they come back, told in column order."""
    from concurrent.futures import TimeoutError as FutureTimeout  # (not the builtin one before Python 3.11)

    from ..execution.pools import using

    left = None if deadline is None else max(0.001, deadline - time.monotonic())  # (clocks differ across machines)
    with using(executor, deadline) as pool:
        futures = {c: pool.submit(_part_files, n, variant, placed, encoding, left, c, lrat) for c in columns}
        try:
            for c in columns:
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic()) + 5.0
                try:
                    counts[c], files = futures[c].result(timeout=timeout)
                except (TimeoutError, FutureTimeout):
                    raise TimeLimitReached from None
                part = work / part_name(n, c)
                part.mkdir()
                for name, data in files.items():
                    (part / name).write_bytes(data)
                _tell(part, n, on_board)
        except BaseException:
            _cancel(futures.values())
            raise


def _run_parts(work: Path, n: int, variant: Variant, placed: Any, encoding: str, deadline: float | None, jobs: int,
               columns: list[int], counts: dict[int, int], on_board: Callable[[Solution], None] | None,
               lrat: bool) -> None:
    """The parts on ``jobs`` worker processes, told in column order.  The
    house's pool (:func:`~nqueens_cp.execution.pools.stream`): its workers
    leave Ctrl-C, SIGTERM and SIGHUP to this process, which stops them at
    once when the certificate ends early.  (A pool of its own here waited
    for every running part to finish: SIGTERM to the process group left
    the command running for minutes, its workers in CaDiCaL.)"""
    from contextlib import closing

    from ..execution import pools

    calls = [(_part, str(work), n, variant, placed, encoding, deadline, c, lrat) for c in columns]
    with closing(pools.stream(calls, jobs, 2 * jobs, processes=True)) as results:
        for c, count in zip(columns, results):
            counts[c] = count
            _tell(work / part_name(n, c), n, on_board)


def _tell(part: Path, n: int, on_board: Callable[[Solution], None] | None) -> None:
    """A finished part's boards, to ``on_board``."""
    if on_board is not None:
        for _, board in read_boards(part / BOARDS, n):
            on_board(board)


def _cancel(futures: Any) -> None:
    """The parts not started yet, cancelled (a failure or Ctrl-C ends the certificate)."""
    for future in futures:
        future.cancel()


def copy_proof(solver: Any, path: Path) -> None:
    """The solver's DRAT proof (python-sat keeps CaDiCaL's in a temporary
    file, binary DRAT) copied to ``path`` a block at a time: never held whole."""
    from pysat.solvers import pysolvers

    inner = solver.solver
    pysolvers.flushpr(inner.prfp)
    inner.prfile.seek(0)
    with open(path, "wb") as out:
        shutil.copyfileobj(inner.prfile, out, 1 << 20)


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="ascii")


def describe(path: Path) -> dict[str, Any]:
    return {"bytes": path.stat().st_size, "sha256": sha256_of(path)}
