"""What a certificate is on disk, shared by the producer (:mod:`.make`) and
the checker (:mod:`.check`): the files' names, the question as a record, the
CNF of an optimum's "one fewer", and the readers of boards and hashes."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..model.board import Solution
from ..model.variants import Variant

FORMAT = "nqueens-cp certificate 1"
QUESTION, FORMULA, BOARDS, PROOF, MANIFEST = "question.json", "formula.cnf", "boards.txt", "proof.drat", \
    "manifest.json"
FILES = (QUESTION, FORMULA, BOARDS, PROOF)
WITNESS = "witness.txt"
LRAT = "proof.lrat"  # optional (--lrat): the proof as drat-trim checked it, in LRAT
OPTIMUM_FILES = (QUESTION, WITNESS, FORMULA, PROOF)
PROOF_KINDS = {False: "DRAT", True: "DRAT+LRAT"}  # the manifest's "proof", by whether it keeps proof.lrat


class Refused(Exception):
    """The first thing a certificate gets wrong (the checker's verdict)."""


def part_name(n: int, column: int) -> str:
    """The directory of a split certificate's part: row 0's queen on ``column``."""
    return f"part-{column:0{len(str(n - 1))}d}"


def question_record(n: int, variant: Variant, placed: Any, encoding: str) -> dict[str, Any]:
    """The question as the certificate states it."""
    return {"n": n, "variant": str(variant), "family": variant.spec, "encoding": encoding,
            "placed": sorted([r, c] for r, c in placed.items()),
            "blocked": sorted([r, c] for r, c in getattr(placed, "blocked", ()))}


def optimum_record(n: int, variant: Variant, size: int) -> dict[str, Any]:
    """The question of an optimum as the certificate states it."""
    return {"n": n, "variant": str(variant), "family": variant.spec, "independent": variant.independent,
            "optimum": size, "fewer": "at most optimum - 1 queens, Sinz's sequential counter (python-sat CardEnc)"}


def write_cnf(target: Any, n: int, variant: Variant, bound: int, nvars: int, clauses: list[list[int]]) -> None:
    """The CNF of "at most ``bound`` queens answer it" (model.domination.fewer's) as DIMACS,
    to ``target``: a path, or a text stream."""
    if not hasattr(target, "write"):
        with open(target, "w", encoding="ascii") as stream:
            write_cnf(stream, n, variant, bound, nvars, clauses)
        return
    target.write(f"c nqueens {variant} n={n}: at most {bound} queens, every square covered"
                 f"{', none attacking another' if variant.independent else ''}; cell (r, c) is r*{n} + c + 1\n")
    target.write(f"p cnf {nvars} {len(clauses)}\n")
    for clause in clauses:
        target.write(" ".join(map(str, clause)) + " 0\n")


def sha256_of(path: Path) -> str:
    """A file's SHA-256, read a MiB at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_boards(path: Path, n: int) -> Iterator[tuple[int, Solution]]:
    with open(path, encoding="ascii", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            try:
                board = tuple(int(word) for word in line.split())
            except ValueError:
                raise Refused(f"{BOARDS} line {number}: not a board (columns in whole numbers)") from None
            yield number, board


def write_blocked(root: Path, path: Path, count: int) -> None:
    """F as written, its header's clause count raised by one blocking clause a board."""
    with open(root / FORMULA, encoding="ascii") as source, open(path, "w", encoding="ascii") as out:
        for line in source:
            if line.startswith("p cnf "):
                _, _, nvars, nclauses = line.split()
                line = f"p cnf {nvars} {int(nclauses) + count}\n"
            out.write(line)
        for _, board in read_boards(root / BOARDS, 0):
            n = len(board)
            out.write(" ".join(str(-(r * n + c + 1)) for r, c in enumerate(board)) + " 0\n")
