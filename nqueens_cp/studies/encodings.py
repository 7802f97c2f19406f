"""The at-most-one encodings side by side on one N: sizes from the
formulas and the clauses, and the sat engine's time to enumerate with each
(``nqueens-cp encodings``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engines import get_engine
from ..known import TOTAL
from ..model.cnf import clauses, size
from ..model.encodings import ENCODINGS

LITERALS_MAX_CLAUSES = 10**7  # beyond, the table shows no literal count


@dataclass
class EncodingTable:
    """The at-most-one encodings side by side on one N (``nqueens-cp encodings``)."""

    n: int
    solver: str
    rows: list[dict[str, Any]]
    problem: str | None = None  # the counts disagree with each other or with A000170

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "solver": self.solver, "rows": self.rows, "problem": self.problem}


def compare_encodings(n: int, solver: str | None = None, count: bool = True,
                      progress: Callable[[str], None] | None = None) -> EncodingTable:
    """Variables, clauses and literals of every encoding (clauses streamed, none
    held), and with ``count`` the sat engine's time to enumerate every solution,
    the counts checked against each other and OEIS A000170."""
    chosen: str = get_engine("sat", **({"solver": solver} if solver else {})).settings["solver"]  # default filled in
    rows = []
    for name in ENCODINGS:
        if progress:
            progress(f"encodings: N={n} {name}")
        nvars, nclauses = size(n, name)  # (from the cost formulas: no clause is made)
        # Literals are counted off the clauses themselves, streamed: only where
        # that takes seconds, not hours (a pairwise CNF of N = 10,000 has 10^12).
        literals = sum(len(clause) for clause in clauses(n, name)) if nclauses <= LITERALS_MAX_CLAUSES else None
        row: dict[str, Any] = {"encoding": name, "variables": nvars, "clauses": nclauses, "literals": literals}
        if count:
            start = time.perf_counter()
            row["solutions"] = get_engine("sat", solver=chosen, encoding=name).search(n).count()
            row["seconds"] = round(time.perf_counter() - start, 3)
        rows.append(row)
    table = EncodingTable(n, chosen, rows)
    counts = {row["solutions"] for row in rows if "solutions" in row}
    expected = TOTAL.get(n)
    if len(counts) > 1 or (counts and expected is not None and counts != {expected}):
        table.problem = f"encodings disagree on N={n}: counts {sorted(counts)}, published {expected}"
    return table
