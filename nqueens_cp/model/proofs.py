"""Certified "none": DRAT proofs of unsatisfiability, written beside their CNF and checked.

The ``sat`` engine's ``proof`` option asks the solver (CaDiCaL by default,
through python-sat's ``with_proof``) to log a DRAT proof.  When the CNF is
unsatisfiable, two files are written, atomically: the proof, and beside it
the exact CNF it refutes (DIMACS, as ``nqueens-cp dimacs`` writes it), so
that anyone can recheck the pair with any DRAT checker.

The toolkit checks them itself with **drat-trim** (Heule, Hunt and Wetzler;
the reference DRAT checker, used to validate the SAT Competition's UNSAT
answers), run as a separate program: it shares no code with the solver that
wrote the proof.  It comes from Debian's package ``drat-trim`` (trixie and
later; .ci/run takes it from trixie on bookworm).  No DRAT checker is
published on PyPI.  Without drat-trim on the PATH a proof is written but
reported as not checked.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import NQueensError

CHECKER = "drat-trim"
PROOF_SOLVERS = ("cadical195", "cadical153", "cadical103", "glucose3", "glucose4", "glucose42", "lingeling",
                 "maplechrono", "maplecm", "maplesat", "gluecard3", "gluecard4")


@dataclass(frozen=True)
class ProofCheck:
    """What the checker said: 'verified', 'rejected' or 'unchecked' (no checker here)."""

    status: str
    checker: str
    detail: str

    @property
    def verified(self) -> bool:
        return self.status == "verified"


def cnf_beside(proof: str | Path) -> Path:
    """Where the CNF of a proof goes: proof.drat -> proof.cnf; any other name gets .cnf added."""
    path = Path(proof)
    return path.with_suffix(".cnf") if path.suffix == ".drat" else path.with_name(path.name + ".cnf")


def ours(cnf: str | Path) -> bool:
    """Whether a proof may write its CNF at ``cnf``: nothing is there, or a
    CNF this package wrote (its first line names it), which a proof run
    again replaces.  Anything else is the user's, and is never overwritten."""
    try:
        with open(cnf, encoding="ascii", errors="replace") as handle:
            return handle.readline().startswith("c nqueens n=")
    except FileNotFoundError:
        return True
    except OSError:
        return False


def write_proof(path: str | Path, lines: Iterable[str]) -> int:
    """Write proof lines to ``path`` atomically; the number of lines written."""
    from ..files import atomic_write

    written = 0

    def write(temporary: str) -> None:
        nonlocal written
        with open(temporary, "w", encoding="ascii") as handle:
            for line in lines:
                handle.write(line + "\n")
                written += 1

    atomic_write(str(path), write)
    return written


def check_proof(cnf: str | Path, proof: str | Path, timeout: float | None = None) -> ProofCheck:
    """Check a DRAT proof of ``cnf`` with drat-trim (a separate process)."""
    program = shutil.which(CHECKER)
    if program is None:
        return ProofCheck("unchecked", CHECKER, "drat-trim is not installed (Debian package drat-trim)")
    for path in (cnf, proof):
        if not Path(path).is_file():
            raise NQueensError(f"cannot check a proof: {path} is not a file")
    try:
        result = subprocess.run([program, str(cnf), str(proof)], capture_output=True, text=True, timeout=timeout,
                                check=False)
    except subprocess.TimeoutExpired:
        return ProofCheck("unchecked", CHECKER, f"drat-trim took longer than {timeout:g} s")
    verdict = next((line[2:].strip() for line in result.stdout.splitlines() if line.startswith("s ")), "")
    if result.returncode == 0 and verdict == "VERIFIED":
        return ProofCheck("verified", CHECKER, "s VERIFIED")
    if verdict == "NOT VERIFIED" or result.returncode == 1:
        return ProofCheck("rejected", CHECKER, f"s {verdict or 'NOT VERIFIED'}")
    raise NQueensError(f"drat-trim failed (exit {result.returncode}): "
                       f"{(result.stderr or result.stdout).strip().splitlines()[-1:] or ['no output']}")


LRAT_CHECKER = "lrat-check"  # Debian's drat-trim package ships it beside drat-trim


def drat_to_lrat(cnf: str | Path, proof: str | Path, lrat: str | Path, timeout: float | None = None) -> ProofCheck:
    """Check a DRAT proof with drat-trim and keep what it checked as LRAT
    (``-L``): every lemma with the clauses it follows from, which a formally
    verified checker can recheck without search."""
    program = shutil.which(CHECKER)
    if program is None:
        return ProofCheck("unchecked", CHECKER, "drat-trim is not installed (Debian package drat-trim)")
    try:
        result = subprocess.run([program, str(cnf), str(proof), "-L", str(lrat)], capture_output=True, text=True,
                                timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return ProofCheck("unchecked", CHECKER, f"drat-trim took longer than {timeout:g} s")
    verdict = next((line[2:].strip() for line in result.stdout.splitlines() if line.startswith("s ")), "")
    return ProofCheck("verified" if result.returncode == 0 and verdict == "VERIFIED" else "rejected", CHECKER,
                      f"s {verdict or 'NOT VERIFIED'}")


def lrat_refutes(cnf: str | Path, lrat: str | Path) -> str | None:
    """None when the LRAT proof (text form) derives the empty clause from
    ``cnf``, else why not: lrat-check says "c VERIFIED" also of a proof that
    derives nothing (a line "1 0 0"), so what it proved is read here.  Each
    addition is a new clause (an id beyond the formula's clauses, rising),
    justified by hints to earlier clauses; one of them is empty and has hints.
    Whether each hint really implies its clause is lrat-check's to check."""
    with open(cnf, encoding="ascii", errors="replace") as handle:
        clauses = next((int(line.split()[3]) for line in handle if line.startswith("p cnf ")), None)
    if clauses is None:
        return "the formula has no 'p cnf' header"
    last, empty = clauses, None
    with open(lrat, encoding="ascii", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            words = line.split()
            if not words or words[0] == "c":
                continue
            try:
                step = int(words[0])
                if words[1] == "d":
                    continue  # a deletion: derives nothing
                numbers = [int(word) for word in words[1:]]
                zero = numbers.index(0)
            except (ValueError, IndexError):
                return f"line {number} is not an LRAT step"
            hints = numbers[zero + 1:-1]
            if step <= last or numbers[-1] != 0:
                return f"line {number} does not add a new clause (id {step}, after {last})"
            if any(abs(hint) >= step or hint == 0 for hint in hints):
                return f"line {number} names a clause that is not before it"
            last = step
            if zero == 0 and hints:
                empty = number
                break
    return None if empty is not None else "it never derives the empty clause"


def check_lrat(cnf: str | Path, lrat: str | Path, timeout: float | None = None) -> ProofCheck:
    """Check an LRAT proof of ``cnf`` with lrat-check (a separate process, no search: each
    lemma names its antecedents)."""
    program = shutil.which(LRAT_CHECKER)
    if program is None:
        return ProofCheck("unchecked", LRAT_CHECKER, "lrat-check is not installed (Debian package drat-trim)")
    try:
        result = subprocess.run([program, str(cnf), str(lrat)], capture_output=True, text=True, timeout=timeout,
                                check=False)
    except subprocess.TimeoutExpired:
        return ProofCheck("unchecked", LRAT_CHECKER, f"lrat-check took longer than {timeout:g} s")
    said = (result.stdout + result.stderr).splitlines()
    if result.returncode == 0 and "c VERIFIED" in said:
        return ProofCheck("verified", LRAT_CHECKER, "c VERIFIED")
    return ProofCheck("rejected", LRAT_CHECKER, next((line for line in said if "FAIL" in line or "NOT" in line),
                                                     said[-1] if said else f"exit {result.returncode}"))
