"""Checking a certificate: :func:`verify`, the five steps of the package's
docstring.  It imports nothing of the producer (:mod:`.make`): only the
format, the encoders that state the question, the validator and drat-trim."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import scratch
from ..errors import InvalidInputError, NQueensError
from ..model.board import Solution
from ..model.position import check_placements
from ..model.variants import PLAIN, VARIANTS, Variant, from_spec, get
from .check_optimum import check_optimum
from .evidence import (bounded, check_hashes, check_proof_kind, made_again, nothing_else, read_json,
                       refutes)
from .format import Refused as _Refused
from .format import (BOARDS, FILES, FORMAT, FORMULA, LRAT, MANIFEST, QUESTION,
                     part_name, question_record, read_boards, sha256_of, write_blocked)

CHECK_SOLVER = "minisat22"  # completes each board's auxiliary variables in verify: another solver
BATCH = 512  # boards a step of the substitution check


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
                f"{self.optimum - 1} cannot: proof checked by {self.checkers})"
        classes = f"{self.classes:,} classes" if self.classes is not None else "no classes: the square's " \
            "symmetries do not all keep this question"
        what = "" if self.variant == PLAIN.name else f" of {self.variant}"
        return f"certified: {self.count:,} solutions{what} of N = {self.n} ({classes}; " \
            f"CNF {self.details.get('encoding')}, proof checked by {self.checkers})"

    @property
    def checkers(self) -> str:
        """Which checkers ran on the proof, and what each proved."""
        if "lrat-check" in self.details.get("checkers", ()):
            return "drat-trim, and its LRAT form by lrat-check, which derives the empty clause"
        return "drat-trim"

    def to_dict(self) -> dict[str, Any]:
        return {"certificate": self.directory, "certified": self.certified, "reason": self.reason, "n": self.n,
                "variant": self.variant, "count": self.count, "classes": self.classes, "optimum": self.optimum,
                "seconds": round(self.seconds, 6), **self.details}


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
        manifest = read_json(root / MANIFEST, "the manifest (a certificate never finished has none)")
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise _Refused(f"{MANIFEST}: not a certificate of this format ({FORMAT!r})")
        if manifest.get("kind") == "optimum":
            n, variant, size = check_optimum(root, manifest, details, timeout)
            return Verification(where, True, "", n, str(variant), seconds=time.perf_counter() - start,
                                details=details, optimum=size)
        check = _check_split if "parts" in manifest else _check_one
        n, variant, placed, count, canonical_boards = check(root, manifest, details, timeout)
        classes = None if canonical_boards is None else len(canonical_boards)
    except _Refused as refusal:
        return Verification(where, False, str(refusal), seconds=time.perf_counter() - start, details=details)
    except OSError as error:  # (a file that cannot be read: unreadable, a directory in its place, ...)
        return Verification(where, False, f"cannot read {error.filename or 'a file'}: {error.strerror or error}",
                            seconds=time.perf_counter() - start, details=details)
    return Verification(where, True, "", n, str(variant), count, classes, time.perf_counter() - start, details)


def _classes(n: int, variant: Variant, placed: Any) -> set[Solution] | None:
    """Where every symmetry of the square keeps the question at this N (its
    placements too), an empty set for the boards' canonical forms, filled as
    the boards are read (once): the certificate's classes; else None."""
    from ..model.symmetry import ALL, kept

    return set() if kept(n, variant.families, variant.offsets, placed.items(), placed.blocked) == ALL else None


def _check_one(root: Path, manifest: dict[str, Any], details: dict[str, Any], timeout: float | None,
               classes: Any = "whole") -> tuple[int, Variant, Any, int, set[Solution] | None]:
    """The five steps of one certificate (the module's docstring); ``classes``
    the split's set of canonical boards for a part (None: not counted), or
    "whole": a certificate of its own, which decides from its question."""
    from ..model.dimacs import write_dimacs

    check_hashes(root, manifest, FILES, (LRAT,))
    check_proof_kind(manifest)
    count = manifest.get("count")
    if type(count) is not int or count < 0:
        raise _Refused(f"{MANIFEST}: the count is not a whole number")
    n, variant, placed, encoding = _read_question(root)
    if classes == "whole":
        classes = _classes(n, variant, placed)
    details.update(encoding=encoding, n=n)
    bounded(root, n, count)
    try:
        made_again(root, lambda stream: write_dimacs(stream, n, encoding, placed, variant=variant),
                    "the CNF of the question")
    except (InvalidInputError, NQueensError) as error:
        raise _Refused(f"{QUESTION}: the question cannot be encoded ({error})") from None
    boards = time.perf_counter()
    _check_boards(root, n, variant, placed, encoding, count, classes)
    proof = time.perf_counter()
    _check_proof(root, count, timeout, LRAT in manifest["files"])
    details["checkers"] = ["drat-trim", "lrat-check"] if LRAT in manifest["files"] else ["drat-trim"]
    details["boards_s"] += round(proof - boards, 6)
    details["drat_trim_s"] += round(time.perf_counter() - proof, 6)
    return n, variant, placed, count, classes


def _check_split(root: Path, manifest: dict[str, Any], details: dict[str, Any],
                 timeout: float | None) -> tuple[int, Variant, Any, int, set[Solution] | None]:
    """A certificate split on row 0: the question; each part a certificate
    of the question with row 0's queen on its column; the parts' columns
    exactly those of row 0 not blocked; the counts summed."""
    check_hashes(root, manifest, (QUESTION,), folders=None)
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
    nothing_else(root, {QUESTION, MANIFEST, *parts})
    total, classes = 0, _classes(n, variant, placed)  # (the whole question's: each part's boards join it)
    for name, part in sorted(parts.items()):
        c = part["column"]
        if name != part_name(n, c) or not (root / name / MANIFEST).is_file():
            raise _Refused(f"{MANIFEST}: part {name} (column {c}) is missing")
        if sha256_of(root / name / MANIFEST) != part.get("manifest_sha256"):
            raise _Refused(f"{name}/{MANIFEST} is not the one the manifest describes")
        inner = read_json(root / name / MANIFEST, "a part's manifest")
        if not isinstance(inner, dict) or inner.get("format") != FORMAT or "parts" in inner:
            raise _Refused(f"{name}/{MANIFEST}: not a certificate of this format")
        try:
            got = _check_one(root / name, inner, details, timeout, classes)
        except _Refused as refusal:
            raise _Refused(f"{name}: {refusal}") from None
        if question_record(n, variant, placed.with_queens({0: c}), encoding) != \
                read_json(root / name / QUESTION, "a part's question"):
            raise _Refused(f"{name}: not the question with row 0's queen on column {c}")
        if got[3] != part.get("count"):
            raise _Refused(f"{name}: {got[3]:,} boards, the manifest says {part.get('count')}")
        total += got[3]
    if total != manifest.get("count"):
        raise _Refused(f"{MANIFEST}: the parts hold {total:,} boards, the manifest says {manifest.get('count')}")
    details.update(parts=len(parts), encoding=encoding, n=n)
    return n, variant, placed, total, classes


def _read_question(root: Path) -> tuple[int, Variant, Any, str]:
    record = read_json(root / QUESTION, "the question")
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


def _check_boards(root: Path, n: int, variant: Variant, placed: Any, encoding: str, count: int,
                  classes: set[Solution] | None = None) -> None:
    """Steps 3 and 4: every board valid, kept, distinct, a model of F; read
    once, each board's canonical form into ``classes`` where it is counted."""
    from ..model.board import canonical
    from ..model.cnf import encode

    cnf = encode(n, encoding, placed, variant=variant)
    seen: set[Solution] = set()
    batch: list[tuple[int, Solution]] = []
    checker = _ModelCheck(cnf)
    try:
        for number, board in read_boards(root / BOARDS, n):
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
            if classes is not None:
                classes.add(canonical(board))
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
    with scratch.folder("nqueens-verify-") as folder:
        formula = Path(folder) / "blocked.cnf"
        write_blocked(root, formula, count)
        refutes(formula, root, "the CNF with the boards blocked", timeout, lrat)
