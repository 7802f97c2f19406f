"""Counts you do not have to trust: a certificate for every count and
enumeration of the CNF, and a checker that needs none of the producer's code.

**Producing** (:func:`certify`).  The CNF F of the question (any variant that
places pieces, pre-placed queens, blocked squares, any encoding) is
enumerated with blocking clauses over the cells, as the ``sat`` engine does,
on CaDiCaL with its DRAT proof logging on (and the inprocessing that would
bring deleted clauses back off: :data:`PROOF_SAFE`).  The k boards found
are written one a line as they come, and after the last call, which finds
no more, the solver's proof.  The last call proves F ∧ ¬B₁ ∧ … ∧ ¬B_k
unsatisfiable; the proof also holds every clause learnt on the way, each
derived from F and the blocking clauses of its time, so it refutes the
whole formula.

**Checking** (:func:`verify`), trusting nothing in the directory:

1. the manifest names every file with its size and SHA-256: each is there
   and unchanged (a certificate is written in a temporary directory and
   renamed whole: a missing manifest is a certificate never finished);
2. F is made again from the question, with this package's encoder, and
   must be the file byte for byte;
3. every board passes the independent validator (``Variant.is_solution``,
   which no engine uses) and keeps the question's placements and blocked
   squares; no board comes twice;
4. every board is a model of F: its cells fixed, a SAT solver (MiniSat, not
   the CaDiCaL that made the proof) completes the auxiliary variables, and
   the full assignment is checked clause by clause by substitution here (a
   solver's "satisfiable" is not trusted either);
5. drat-trim checks the proof against F plus one blocking clause a board.

Then F has exactly k models on the cells.  The symmetry classes follow from
the boards by canonical form, with no symmetry breaking in the solver.
What is trusted: that the encoder states the question (the cross-checks
against every other paradigm and OEIS cover it, and step 2 ties the file to
it), drat-trim, the validator, and this checker.  docs/certificates.md says
more.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import InvalidInputError, NQueensError
from .model.board import Solution, check_placements
from .model.variants import PLAIN, VARIANTS, Variant, from_spec, get

FORMAT = "nqueens-cp certificate 1"
QUESTION, FORMULA, BOARDS, PROOF, MANIFEST = "question.json", "formula.cnf", "boards.txt", "proof.drat", \
    "manifest.json"
FILES = (QUESTION, FORMULA, BOARDS, PROOF)
WITNESS = "witness.txt"
LRAT = "proof.lrat"  # optional (--lrat): the proof as drat-trim checked it, in LRAT
OPTIMUM_FILES = (QUESTION, WITNESS, FORMULA, PROOF)
SOLVER = "cadical195"  # the proof-logging enumerator (the fastest here, docs/cnf.md)
# CaDiCaL's inprocessing that removes clauses onto its extension stack (variable elimination,
# equivalent literals, blocked, covered and conditioned clauses) brings them back when a later
# clause touches their variables, and in a DRAT proof they then reappear as lemmas that do not
# follow: drat-trim rejected the enumeration's proof at N = 12 with these on.  Off, the one
# incremental solver's proof refutes F and every blocking clause (every test checks it).
PROOF_SAFE = {"elim": 0, "decompose": 0, "block": 0, "cover": 0, "condition": 0}
CHECK_SOLVER = "minisat22"  # completes each board's auxiliary variables in verify: another solver
BATCH = 512  # boards a step of the substitution check


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


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found: ``certified`` and the count, or the first
    thing that failed (``reason``)."""

    directory: str
    certified: bool
    reason: str = ""
    n: int | None = None
    variant: str = ""
    count: int | None = None
    classes: int | None = None
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)
    optimum: int | None = None  # a certificate of an optimum: the fewest queens

    def __str__(self) -> str:
        if not self.certified:
            return f"not certified: {self.reason}"
        if self.optimum is not None:
            queens = "1 queen" if self.optimum == 1 else f"{self.optimum} queens"
            return f"certified: {queens} for {self.variant} of N = {self.n} (the witness answers it; " \
                f"{self.optimum - 1} cannot: proof checked by drat-trim)"
        classes = f"{self.classes:,} classes" if self.classes is not None else "no classes: the square's " \
            "symmetries do not all keep this question"
        what = "" if self.variant == PLAIN.name else f" of {self.variant}"
        return f"certified: {self.count:,} solutions{what} of N = {self.n} ({classes}; " \
            f"CNF {self.details.get('encoding')}, proof checked by drat-trim)"

    def to_dict(self) -> dict[str, Any]:
        return {"certificate": self.directory, "certified": self.certified, "reason": self.reason, "n": self.n,
                "variant": self.variant, "count": self.count, "classes": self.classes, "optimum": self.optimum,
                "seconds": round(self.seconds, 6), **self.details}


# --- producing -------------------------------------------------------------------------

def certify(n: int, directory: str | os.PathLike[str], *, variant: str | Variant | None = None,
            fixed: Mapping[int, int] | None = None, blocked: Any = None, encoding: str = "pairwise",
            time_limit: float | None = None, jobs: int | None = None, split: bool | None = None,
            lrat: bool = False, executor: Any = None,
            on_board: Callable[[Solution], None] | None = None) -> Certified:
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
    Past ``time_limit`` seconds, TimeLimitReached and no certificate."""
    from .execution.parallel import check_jobs
    from .execution.plan import SPLIT_MIN_N
    from .model.cnf import _amo

    question = get(variant if variant is not None else PLAIN)
    if question.question != "place":
        raise InvalidInputError(f"{question.title} asks for an optimum: its certificate is optimum --certificate "
                                "(certify_optimum)")
    placed = check_placements(n, fixed, blocked)
    jobs = check_jobs(jobs)
    _amo(encoding)  # an unknown encoding, refused before any work
    target, parent = _new_directory(directory)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    start = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=parent))
    try:
        if executor is not None and 0 in placed:
            raise InvalidInputError("a certificate splits on row 0 to run on a cluster: row 0 holds a pre-placed "
                                    "queen, so there is nothing to split")
        if executor is not None or (n >= SPLIT_MIN_N if split is None else split) and n > 1 and 0 not in placed:
            count, stats = _certify_split(work, n, question, placed, encoding, deadline, jobs, on_board, lrat,
                                          executor)
        else:
            count, stats = _certify_whole(work, n, question, placed, encoding, deadline, on_board, lrat)
        _publish(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    proof_bytes = sum(path.stat().st_size for path in target.rglob(PROOF))
    return Certified(str(target), n, question.name, count, time.perf_counter() - start, proof_bytes, stats)


def _new_directory(directory: str | os.PathLike[str]) -> tuple[Path, Path]:
    """(the certificate's directory, its parent), refused in one line unless
    it is new (or empty) and its parent a directory."""
    target = Path(directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise InvalidInputError(f"{target} exists: a certificate goes into a new directory (or an empty one)")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidInputError(f"{parent} is not a directory: cannot write the certificate there")
    return target, parent


def _publish(work: Path, target: Path) -> None:
    """The finished certificate under its name, at once (a rename)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(work, 0o777 & ~umask)  # (mkdtemp's directory is the owner's only)
    if target.exists():
        target.rmdir()  # (empty, checked before)
    os.rename(work, target)


def _certify_whole(work: Path, n: int, question: Variant, placed: Any, encoding: str, deadline: float | None,
                   on_board: Callable[[Solution], None] | None = None, lrat: bool = False) -> tuple[int, dict[str, Any]]:
    """One certificate into ``work``: the enumeration, its boards and its proof."""
    from pysat.solvers import Solver

    from .engines.sat import _run_solver
    from .model.cnf import encode
    from .model.dimacs import write_dimacs_file

    start = time.perf_counter()
    cnf = encode(n, encoding, placed, variant=question)
    cells, count = n * n, 0
    write_dimacs_file(str(work / FORMULA), n, encoding, placed, variant=question)
    _write_json(work / QUESTION, question_record(n, question, placed, encoding))
    with open(work / BOARDS, "w", encoding="ascii") as boards, \
            Solver(name=SOLVER, bootstrap_with=cnf.clauses, with_proof=True) as solver:
        solver.configure(PROOF_SAFE)
        while _run_solver(solver, deadline):
            true_cells = [v for v in solver.get_model()[:cells] if v > 0]
            board = tuple((v - 1) % n for v in true_cells)
            boards.write(" ".join(map(str, board)) + "\n")
            count += 1
            if on_board is not None:
                on_board(board)
            solver.add_clause([-v for v in true_cells])
        stats = dict(solver.accum_stats(), enumerate_s=round(time.perf_counter() - start, 6))
        _copy_proof(solver, work / PROOF)
    if lrat:
        with tempfile.TemporaryDirectory(prefix="nqueens-lrat-") as scratch:
            _write_blocked(work, Path(scratch) / "blocked.cnf", count)
            _keep_lrat(Path(scratch) / "blocked.cnf", work)
    names = FILES + ((LRAT,) if lrat else ())
    _write_json(work / MANIFEST, {"format": FORMAT, "count": count, "solver": SOLVER, "proof": "DRAT",
                                  "files": {name: _describe(work / name) for name in names}})
    return count, stats


def _keep_lrat(formula: Path, work: Path) -> None:
    """drat-trim on the proof just made, keeping the LRAT it checked; a
    rejected proof is the solver's defect, and no certificate."""
    from .model.proofs import drat_to_lrat

    check = drat_to_lrat(formula, work / PROOF, work / LRAT)
    if not check.verified:
        raise NQueensError(f"drat-trim did not accept the solver's proof ({check.detail}): no certificate")


def _part(work: str, n: int, question: Variant, placed: Any, encoding: str, deadline: float | None,
          column: int, lrat: bool = False) -> int:
    """One part of a split certificate (in a worker process): row 0's queen on ``column``."""
    part = Path(work) / part_name(n, column)
    part.mkdir()
    return _certify_whole(part, n, question, placed.with_queens({0: column}), encoding, deadline, None, lrat)[0]


def part_name(n: int, column: int) -> str:
    return f"part-{column:0{len(str(n - 1))}d}"


def _certify_split(work: Path, n: int, question: Variant, placed: Any, encoding: str, deadline: float | None,
                   jobs: int, on_board: Callable[[Solution], None] | None,
                   lrat: bool = False, executor: Any = None) -> tuple[int, dict[str, Any]]:
    """A certificate a column of row 0 (its blocked squares apart: the CNF has
    them false), counted on ``jobs`` processes; the top manifest lists the parts."""
    columns = [c for c in range(n) if (0, c) not in placed.blocked]
    _write_json(work / QUESTION, question_record(n, question, placed, encoding))
    counts: dict[int, int] = {}
    if executor is not None:
        _run_tasks(work, n, question, placed, encoding, deadline, executor, columns, counts, on_board, lrat)
    elif jobs == 1:  # in this process, one part after the other
        for c in columns:
            counts[c] = _part(str(work), n, question, placed, encoding, deadline, c, lrat)
            _tell(work / part_name(n, c), n, on_board)
    else:
        _run_parts(work, n, question, placed, encoding, deadline, jobs, columns, counts, on_board, lrat)
    parts = {part_name(n, c): {"column": c, "count": counts[c],
                               "manifest_sha256": _sha256(work / part_name(n, c) / MANIFEST)} for c in columns}
    _write_json(work / MANIFEST, {"format": FORMAT, "count": sum(counts.values()), "split": "row 0",
                                  "parts": parts, "files": {QUESTION: _describe(work / QUESTION)}})
    return sum(counts.values()), {"parts": len(columns), "jobs": jobs}


def _part_files(n: int, question: Variant, placed: Any, encoding: str, seconds: float | None, column: int,
                lrat: bool) -> tuple[int, dict[str, bytes]]:
    """One part certified where a cluster's task runs, in a temporary
    directory there: (its count, its files' contents), for the client to write."""
    with tempfile.TemporaryDirectory(prefix="nqueens-part-", dir=_worker_directory()) as scratch:
        deadline = None if seconds is None else time.monotonic() + seconds
        count = _part(scratch, n, question, placed, encoding, deadline, column, lrat)
        part = Path(scratch) / part_name(n, column)
        return count, {path.name: path.read_bytes() for path in part.iterdir()}


def _worker_directory() -> str | None:
    """A Dask worker's own directory (removed with the worker, or with a
    local cluster's scratch even after the worker is killed), else None."""
    try:
        from distributed import get_worker

        return str(get_worker().local_directory)
    except (ImportError, ValueError, AttributeError):  # (ValueError: not in a worker)
        return None


def _run_tasks(work: Path, n: int, question: Variant, placed: Any, encoding: str, deadline: float | None,
               executor: Any, columns: list[int], counts: dict[int, int],
               on_board: Callable[[Solution], None] | None, lrat: bool) -> None:
    """The parts as tasks of a Dask cluster (or any executor), their files
    written here as they come back, told in column order."""
    from concurrent.futures import TimeoutError as FutureTimeout  # (not the builtin one before Python 3.11)

    from .errors import TimeLimitReached
    from .execution.pools import using

    left = None if deadline is None else max(0.001, deadline - time.monotonic())  # (clocks differ across machines)
    with using(executor) as pool:
        futures = {c: pool.submit(_part_files, n, question, placed, encoding, left, c, lrat) for c in columns}
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


def _run_parts(work: Path, n: int, question: Variant, placed: Any, encoding: str, deadline: float | None, jobs: int,
               columns: list[int], counts: dict[int, int], on_board: Callable[[Solution], None] | None,
               lrat: bool) -> None:
    """The parts on ``jobs`` forked processes, told in column order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        futures = {c: pool.submit(_part, str(work), n, question, placed, encoding, deadline, c, lrat)
                   for c in columns}
        try:
            for c in columns:
                counts[c] = futures[c].result()
                _tell(work / part_name(n, c), n, on_board)
        except BaseException:
            _cancel(futures.values())
            raise


def _tell(part: Path, n: int, on_board: Callable[[Solution], None] | None) -> None:
    """A finished part's boards, to ``on_board``."""
    if on_board is not None:
        for _, board in _boards(part / BOARDS, n):
            on_board(board)


def _cancel(futures: Any) -> None:
    """The parts not started yet, cancelled (a failure or Ctrl-C ends the certificate)."""
    for future in futures:
        future.cancel()


@dataclass(frozen=True)
class CertifiedOptimum:
    """What :func:`certify_optimum` wrote: the optimum and where its certificate is."""

    directory: str
    optimum: Any  # engines.optimum.Optimum: proved, its witness validated
    seconds: float
    proof_bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.optimum.to_dict(), "certificate": self.directory, "certify_seconds": round(self.seconds, 6),
                "proof_bytes": self.proof_bytes}


def certify_optimum(n: int, directory: str | os.PathLike[str], variant: str | Variant = "domination",
                    engine: str = "bitmask", *, time_limit: float | None = None, lrat: bool = False,
                    **options: Any) -> CertifiedOptimum:
    """The fewest queens that answer a domination question, with a
    certificate: the witness (any engine finds it; it is validated, here and
    by :func:`verify`) and a DRAT proof that one queen fewer cannot do it
    (the CNF of :func:`~nqueens_cp.model.domination.fewer`, refuted by
    CaDiCaL).  ``lrat`` as for :func:`certify`.  TimeLimitReached when the
    engine or the proof is not done in ``time_limit`` seconds; then no
    certificate."""
    from pysat.solvers import Solver

    from .engines import get_engine
    from .engines.sat import _run_solver
    from .errors import TimeLimitReached
    from .model.domination import fewer

    question = get(variant)
    if question.question != "optimum":
        raise InvalidInputError(f"{question.title} asks for boards of N queens: use count --certificate")
    target, parent = _new_directory(directory)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    start = time.perf_counter()
    found = get_engine(engine, question, **options).optimum(n, time_limit)
    if not found.proved:
        raise TimeLimitReached(f"no proved optimum within {time_limit:g} s: no certificate")
    size = found.size
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.partial-", dir=parent))
    try:
        nvars, clauses = fewer(n, question, size - 1)
        _write_json(work / QUESTION, _optimum_record(n, question, size))
        (work / WITNESS).write_text("".join(f"{r} {c}\n" for r, c in found.queens), encoding="ascii")
        _write_cnf(work / FORMULA, n, question, size - 1, nvars, clauses)
        with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
            if _run_solver(solver, deadline):
                raise NQueensError(f"engine {engine} said {size} queens are the fewest for {question.title} of "
                                   f"N = {n}, but {size - 1} do: a defect of the engine")
            _copy_proof(solver, work / PROOF)
        if lrat:
            _keep_lrat(work / FORMULA, work)
        names = OPTIMUM_FILES + ((LRAT,) if lrat else ())
        _write_json(work / MANIFEST, {"format": FORMAT, "kind": "optimum", "optimum": size, "solver": SOLVER,
                                      "proof": "DRAT", "files": {name: _describe(work / name) for name in names}})
        _publish(work, target)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return CertifiedOptimum(str(target), found, time.perf_counter() - start, (target / PROOF).stat().st_size)


def _optimum_record(n: int, variant: Variant, size: int) -> dict[str, Any]:
    return {"n": n, "variant": variant.name, "family": variant.spec, "independent": variant.independent,
            "optimum": size, "fewer": "at most optimum - 1 queens, Sinz's sequential counter (python-sat CardEnc)"}


def _write_cnf(path: Path, n: int, variant: Variant, bound: int, nvars: int, clauses: list[list[int]]) -> None:
    with open(path, "w", encoding="ascii") as out:
        out.write(f"c nqueens {variant.name} n={n}: at most {bound} queens, every square covered"
                  f"{', none attacking another' if variant.independent else ''}; cell (r, c) is r*{n} + c + 1\n")
        out.write(f"p cnf {nvars} {len(clauses)}\n")
        for clause in clauses:
            out.write(" ".join(map(str, clause)) + " 0\n")


def _check_optimum(root: Path, manifest: dict[str, Any], details: dict[str, Any],
                   timeout: float | None) -> tuple[int, Variant, int]:
    """A certificate of an optimum k: the files; the question; the witness,
    k distinct squares that answer it (the validator); the CNF of k - 1
    queens made again and equal; its refutation by drat-trim."""
    from .model.domination import fewer

    _check_hashes(root, manifest, OPTIMUM_FILES, (LRAT,))
    record = _read_json(root / QUESTION, "the question")
    try:
        n, size, name, spec = record["n"], record["optimum"], record["variant"], record["family"]
        variant = get(name)
        if variant.question != "optimum" or variant.spec != spec or type(n) is not int or n < 1 or \
                type(size) is not int or size < 1:
            raise ValueError("not a domination question of this package")
    except (KeyError, TypeError, ValueError, InvalidInputError) as error:
        raise _Refused(f"{QUESTION}: not a question ({error})") from None
    if _optimum_record(n, variant, size) != record or manifest.get("optimum") != size:
        raise _Refused(f"{QUESTION}: not a question as this package states one, or not the manifest's optimum")
    try:
        witness = [tuple(int(word) for word in line.split()) for line in
                   (root / WITNESS).read_text(encoding="ascii").splitlines()]
    except (ValueError, UnicodeDecodeError):
        raise _Refused(f"{WITNESS}: not squares (row and column in whole numbers, one a line)") from None
    if len(witness) != size or any(len(square) != 2 for square in witness) or \
            not variant.is_dominating([(square[0], square[1]) for square in witness], n):
        raise _Refused(f"{WITNESS}: not {size} distinct squares whose queens answer {variant.title} on N = {n}")
    _made_again(root, lambda path: _write_cnf(path, n, variant, size - 1, *fewer(n, variant, size - 1)),
                f"the CNF of {size - 1} queens")
    proof = time.perf_counter()
    _refutes(root / FORMULA, root, f"{size - 1} queens", timeout, LRAT in manifest["files"])
    details["drat_trim_s"] = round(time.perf_counter() - proof, 6)
    details.update(n=n)
    return n, variant, size


def question_record(n: int, variant: Variant, placed: Any, encoding: str) -> dict[str, Any]:
    """The question as the certificate states it."""
    return {"n": n, "variant": variant.name, "family": variant.spec, "encoding": encoding,
            "placed": sorted([r, c] for r, c in placed.items()),
            "blocked": sorted([r, c] for r, c in getattr(placed, "blocked", ()))}


def _copy_proof(solver: Any, path: Path) -> None:
    """The solver's DRAT proof (python-sat keeps CaDiCaL's in a temporary
    file, binary DRAT) copied to ``path`` a block at a time: never held whole."""
    from pysat.solvers import pysolvers

    inner = solver.solver
    pysolvers.flushpr(inner.prfp)
    inner.prfile.seek(0)
    with open(path, "wb") as out:
        shutil.copyfileobj(inner.prfile, out, 1 << 20)


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="ascii")


def _describe(path: Path) -> dict[str, Any]:
    return {"bytes": path.stat().st_size, "sha256": _sha256(path)}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- checking ----------------------------------------------------------------------------

class _Refused(Exception):
    """The first thing a certificate gets wrong."""


def verify(directory: str | os.PathLike[str], timeout: float | None = None) -> Verification:
    """Check a certificate (see the module's docstring), trusting nothing in
    it; the :class:`Verification` says "certified" with the count and its
    classes, or names the first thing that fails.  A split certificate: each
    part as a certificate, and that the parts are the question's columns of
    row 0, each once."""
    start = time.perf_counter()
    where = str(directory)
    details: dict[str, Any] = {"boards_s": 0.0, "drat_trim_s": 0.0}
    try:
        root = Path(directory)
        if not root.is_dir():
            raise _Refused(f"{root} is not a directory")
        manifest = _read_json(root / MANIFEST, "the manifest (a certificate never finished has none)")
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise _Refused(f"{MANIFEST}: not a certificate of this format ({FORMAT!r})")
        if manifest.get("kind") == "optimum":
            n, variant, size = _check_optimum(root, manifest, details, timeout)
            return Verification(where, True, "", n, variant.name, seconds=time.perf_counter() - start,
                                details=details, optimum=size)
        check = _check_split if "parts" in manifest else _check_one
        n, variant, placed, count, boards = check(root, manifest, details, timeout)
        classes = None
        if variant.symmetric and not placed:  # every symmetry of the square keeps the question
            from .model.board import canonical

            classes = len({canonical(board) for path in boards for _, board in _boards(path, n)})
    except _Refused as refusal:
        return Verification(where, False, str(refusal), seconds=time.perf_counter() - start, details=details)
    except OSError as error:  # (a file that cannot be read: unreadable, a directory in its place, ...)
        return Verification(where, False, f"cannot read {error.filename or 'a file'}: {error.strerror or error}",
                            seconds=time.perf_counter() - start, details=details)
    return Verification(where, True, "", n, variant.name, count, classes, time.perf_counter() - start, details)


def _check_one(root: Path, manifest: dict[str, Any], details: dict[str, Any],
               timeout: float | None) -> tuple[int, Variant, Any, int, list[Path]]:
    """The five steps of one certificate (the module's docstring)."""
    from .model.dimacs import write_dimacs_file

    _check_hashes(root, manifest, FILES, (LRAT,))
    count = manifest.get("count")
    if type(count) is not int or count < 0:
        raise _Refused(f"{MANIFEST}: the count is not a whole number")
    n, variant, placed, encoding = _read_question(root)
    details.update(encoding=encoding, n=n)
    try:
        _made_again(root, lambda path: write_dimacs_file(str(path), n, encoding, placed, variant=variant),
                    "the CNF of the question")
    except (InvalidInputError, NQueensError) as error:
        raise _Refused(f"{QUESTION}: the question cannot be encoded ({error})") from None
    boards = time.perf_counter()
    _check_boards(root, n, variant, placed, encoding, count)
    proof = time.perf_counter()
    _check_proof(root, count, timeout, LRAT in manifest["files"])
    details["boards_s"] += round(proof - boards, 6)
    details["drat_trim_s"] += round(time.perf_counter() - proof, 6)
    return n, variant, placed, count, [root / BOARDS]


def _made_again(root: Path, write: Callable[[Path], Any], what: str) -> None:
    """The certificate's CNF must be what ``write(path)`` makes from the
    question, byte for byte (made in a temporary directory: the certificate's
    own is only read)."""
    with tempfile.TemporaryDirectory(prefix="nqueens-verify-") as scratch:
        made = Path(scratch) / FORMULA
        write(made)
        if _sha256(made) != _sha256(root / FORMULA):
            raise _Refused(f"{FORMULA} is not {what} (made again here, it differs)")


def _check_split(root: Path, manifest: dict[str, Any], details: dict[str, Any],
                 timeout: float | None) -> tuple[int, Variant, Any, int, list[Path]]:
    """A certificate split on row 0: the question; each part a certificate
    of the question with row 0's queen on its column; the parts' columns
    exactly those of row 0 not blocked; the counts summed."""
    _check_hashes(root, manifest, (QUESTION,))
    n, variant, placed, encoding = _read_question(root)
    if 0 in placed:
        raise _Refused(f"{MANIFEST}: split on row 0, which holds a pre-placed queen")
    parts = manifest["parts"]
    if not isinstance(parts, dict):
        raise _Refused(f"{MANIFEST}: the parts are not a table")
    wanted = {c for c in range(n) if (0, c) not in placed.blocked}
    columns = {part.get("column") for part in parts.values() if isinstance(part, dict)}
    if columns != wanted or len(parts) != len(wanted):
        raise _Refused(f"{MANIFEST}: the parts are not each column of row 0 once (missing "
                       f"{sorted(wanted - columns)[:3]}, extra {sorted(str(c) for c in columns - wanted)[:3]})")
    total, boards = 0, []
    for name, part in sorted(parts.items()):
        c = part["column"]
        if name != part_name(n, c) or not (root / name / MANIFEST).is_file():
            raise _Refused(f"{MANIFEST}: part {name} (column {c}) is missing")
        if _sha256(root / name / MANIFEST) != part.get("manifest_sha256"):
            raise _Refused(f"{name}/{MANIFEST} is not the one the manifest describes")
        inner = _read_json(root / name / MANIFEST, "a part's manifest")
        if not isinstance(inner, dict) or inner.get("format") != FORMAT or "parts" in inner:
            raise _Refused(f"{name}/{MANIFEST}: not a certificate of this format")
        try:
            got = _check_one(root / name, inner, details, timeout)
        except _Refused as refusal:
            raise _Refused(f"{name}: {refusal}") from None
        if question_record(n, variant, placed.with_queens({0: c}), encoding) != \
                _read_json(root / name / QUESTION, "a part's question"):
            raise _Refused(f"{name}: not the question with row 0's queen on column {c}")
        if got[3] != part.get("count"):
            raise _Refused(f"{name}: {got[3]:,} boards, the manifest says {part.get('count')}")
        total += got[3]
        boards += got[4]
    if total != manifest.get("count"):
        raise _Refused(f"{MANIFEST}: the parts hold {total:,} boards, the manifest says {manifest.get('count')}")
    details.update(parts=len(parts), encoding=encoding, n=n)
    return n, variant, placed, total, boards


def _check_hashes(root: Path, manifest: dict[str, Any], names: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    files = manifest.get("files")
    if isinstance(files, dict):
        names += tuple(name for name in optional if name in files)
    if not isinstance(files, dict) or sorted(files) != sorted(names):
        raise _Refused(f"{MANIFEST}: it must describe exactly {', '.join(names)}")
    for name in names:
        path = root / name
        if not path.is_file():
            raise _Refused(f"{name} is missing")
        said = files[name]
        if not isinstance(said, dict) or path.stat().st_size != said.get("bytes") or _sha256(path) != said.get("sha256"):
            raise _Refused(f"{name} is not the file the manifest describes (size or SHA-256 differ)")


def _read_question(root: Path) -> tuple[int, Variant, Any, str]:
    record = _read_json(root / QUESTION, "the question")
    try:
        n, encoding = record["n"], record["encoding"]
        name, spec = record["variant"], record["family"]
        variant = get(name) if name in VARIANTS and get(name).spec == spec else from_spec(name, spec)
        placed = check_placements(n, {r: c for r, c in record["placed"]}, [tuple(s) for s in record["blocked"]])
        if len(placed) != len(record["placed"]):
            raise _Refused(f"{QUESTION}: two placements in one row")
    except _Refused:
        raise
    except (KeyError, TypeError, ValueError, InvalidInputError) as error:
        raise _Refused(f"{QUESTION}: not a question ({error})") from None
    if question_record(n, variant, placed, encoding) != record:
        raise _Refused(f"{QUESTION}: not a question as this package states one")
    return n, variant, placed, encoding


def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="ascii"))
    except FileNotFoundError:
        raise _Refused(f"{path.name} is missing: {what}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _Refused(f"{path.name} cannot be read as JSON ({error})") from None


def _boards(path: Path, n: int) -> Iterator[tuple[int, Solution]]:
    with open(path, encoding="ascii", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            try:
                board = tuple(int(word) for word in line.split())
            except ValueError:
                raise _Refused(f"{BOARDS} line {number}: not a board (columns in whole numbers)") from None
            yield number, board


def _check_boards(root: Path, n: int, variant: Variant, placed: Any, encoding: str, count: int) -> None:
    """Steps 3 and 4: every board valid, kept, distinct, a model of F."""
    from .model.cnf import encode

    cnf = encode(n, encoding, placed, variant=variant)
    seen: set[Solution] = set()
    batch: list[tuple[int, Solution]] = []
    checker = _ModelCheck(cnf)
    try:
        for number, board in _boards(root / BOARDS, n):
            if not variant.is_solution(board, n):
                raise _Refused(f"{BOARDS} line {number}: not a board of {variant.title} for N = {n}")
            broken = placed.broken_by(board)
            if broken is not None:
                what, (r, c) = broken
                raise _Refused(f"{BOARDS} line {number}: " + (f"the pre-placed queen at {r}:{c} is not there"
                                                              if what == "moved" else f"a queen on the blocked square {r}:{c}"))
            if board in seen:
                raise _Refused(f"{BOARDS} line {number}: a board listed twice")
            seen.add(board)
            batch.append((number, board))
            if len(batch) == BATCH:
                checker.check(batch)
                batch = []
        checker.check(batch)
    finally:
        checker.close()
    if len(seen) != count:
        raise _Refused(f"{BOARDS} holds {len(seen):,} boards, the manifest says {count:,}")


class _ModelCheck:
    """Step 4: each board a model of F.  The cells fixed as assumptions,
    MiniSat completes the auxiliary variables (where the encoding has any);
    the full assignment is then checked against every clause by
    substitution, in NumPy, a batch of boards at a time."""

    def __init__(self, cnf: Any) -> None:
        import numpy as np
        from pysat.solvers import Solver

        self.n, self.nvars = cnf.n, cnf.nvars
        width = max((len(clause) for clause in cnf.clauses), default=1)
        # Clause matrix, padded with variable 0, which every assignment holds false (a padded slot
        # never satisfies its clause).
        self.variables = np.zeros((len(cnf.clauses), width), dtype=np.int64)
        self.negated = np.zeros((len(cnf.clauses), width), dtype=bool)
        for i, clause in enumerate(cnf.clauses):
            self.variables[i, :len(clause)] = [abs(lit) for lit in clause]
            self.negated[i, :len(clause)] = [lit < 0 for lit in clause]
        # (an encoding without auxiliary variables needs no completing: the cells are the assignment)
        self.solver = Solver(name=CHECK_SOLVER, bootstrap_with=cnf.clauses) if self.nvars > self.n ** 2 else None

    def check(self, batch: list[tuple[int, Solution]]) -> None:
        import numpy as np

        if not batch:
            return
        n = self.n
        values = np.zeros((len(batch), self.nvars + 1), dtype=bool)
        for row, (number, board) in enumerate(batch):
            cells = {r * n + c + 1 for r, c in enumerate(board)}
            if self.solver is None:
                values[row, list(cells)] = True
                continue
            assumptions = [v if v in cells else -v for v in range(1, n * n + 1)]
            if not self.solver.solve(assumptions=assumptions):
                raise _Refused(f"{BOARDS} line {number}: not a model of {FORMULA} (no assignment of the "
                               "auxiliary variables completes it)")
            model = self.solver.get_model()
            values[row, [lit for lit in model if 0 < lit <= self.nvars]] = True
        satisfied = (values[:, self.variables] != self.negated).any(axis=2)  # boards x clauses
        bad = np.flatnonzero(~satisfied.all(axis=1))
        if len(bad):
            raise _Refused(f"{BOARDS} line {batch[bad[0]][0]}: not a model of {FORMULA} (a clause is false)")

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()


def _check_proof(root: Path, count: int, timeout: float | None, lrat: bool = False) -> None:
    """Step 5: F plus a blocking clause a board, refuted by the proof
    (drat-trim), and by its LRAT form where the certificate keeps one (lrat-check)."""
    with tempfile.TemporaryDirectory(prefix="nqueens-verify-") as scratch:
        formula = Path(scratch) / "blocked.cnf"
        _write_blocked(root, formula, count)
        _refutes(formula, root, "the CNF with the boards blocked", timeout, lrat)


def _refutes(formula: Path, root: Path, what: str, timeout: float | None, lrat: bool) -> None:
    """The proof (and its LRAT form, ``lrat``) refutes ``formula``, or _Refused."""
    from .model.proofs import check_lrat, check_proof

    try:
        check = check_proof(formula, root / PROOF, timeout)
    except NQueensError as error:
        raise _Refused(f"{PROOF}: drat-trim could not check it ({error})") from None
    if check.status == "unchecked":
        raise _Refused(f"{PROOF} was not checked: {check.detail}")
    if not check.verified:
        raise _Refused(f"{PROOF} does not refute {what}: drat-trim says {check.detail}")
    if lrat:
        check = check_lrat(formula, root / LRAT, timeout)
        if not check.verified:
            raise _Refused(f"{LRAT} does not refute {what}: lrat-check says {check.detail}")


def _write_blocked(root: Path, path: Path, count: int) -> None:
    """F as written, its header's clause count raised by one blocking clause a board."""
    with open(root / FORMULA, encoding="ascii") as source, open(path, "w", encoding="ascii") as out:
        for line in source:
            if line.startswith("p cnf "):
                _, _, nvars, nclauses = line.split()
                line = f"p cnf {nvars} {int(nclauses) + count}\n"
            out.write(line)
        for _, board in _boards(root / BOARDS, 0):
            n = len(board)
            out.write(" ".join(str(-(r * n + c + 1)) for r, c in enumerate(board)) + " 0\n")
