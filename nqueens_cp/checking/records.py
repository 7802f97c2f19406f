"""The records a check and a grade give: one N checked (:class:`NCheck`), a
whole check (:class:`CheckReport`), one submission graded (:class:`Graded`)
and a class (:class:`GradeReport`).  Plain data with its JSON; the text
(:mod:`.report`) and the pages (:mod:`.page`, :mod:`.feedback`) that render
them sit above this room and read it, and so do the loop (:mod:`.run`) and
the grading (:mod:`.grading`) that fill them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model.board import Solution
from ..model.variants import Square
from .forms import Reason
from .optimum import OptimumCheck


@dataclass
class NCheck:
    """One N: the model's boards against the reference's."""

    n: int
    agrees: bool
    boards: int  # the model's distinct boards (one queen a row, every column on the board), right or wrong
    reference: int  # the reference's boards
    solutions: int  # the solutions the model's solver reported, repeats and non-boards included
    duplicates: int  # solutions that repeat a board the solver had already given
    missing: list[Solution]  # boards the question accepts and the model lacks, smallest first (at most --show)
    missing_count: int
    extra: list[Solution]  # boards the model gives and the question forbids, smallest first
    extra_count: int
    not_boards: list[tuple[Square, ...]]  # solutions that are no board: their queens' squares, 0-based
    not_boards_count: int
    why: Reason | None  # why the model excludes the smallest missing board
    attack: str | None  # why the question forbids the smallest extra board (or the first non-board)
    determined: bool | None  # whether a board fixes every other variable of the model
    undetermined: str  # where it does not: a variable that takes two values
    seconds: float  # the model's enumeration
    reference_seconds: float
    base: int | None  # the model's first column: 0 or 1 (None for a grid of cells)
    held_all: bool = True  # every wrong board was held: extra_count is exact

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "agrees": self.agrees, "boards": self.boards, "reference": self.reference,
                "missing": [list(b) for b in self.missing], "missing_count": self.missing_count,
                "extra": [list(b) for b in self.extra], "extra_count": self.extra_count,
                "not_boards": [[list(s) for s in b] for b in self.not_boards], "not_boards_count": self.not_boards_count,
                "why": self.why.to_dict() if self.why else None, "attack": self.attack,
                "determined": self.determined, "undetermined": self.undetermined or None,
                "solutions": self.solutions, "duplicates": self.duplicates,
                "seconds": round(self.seconds, 6), "reference_seconds": round(self.reference_seconds, 6),
                "base": self.base}


@dataclass
class CheckReport:
    """A whole check: the model, the question, one :class:`NCheck` per N checked."""

    model: str
    tool: str
    variant: str
    rows: list[NCheck | OptimumCheck] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    output: str = ""  # what the model printed, bounded (its first and last few KB), where it ran isolated
    form: str = ""  # the form it was read in (checking.reading.FORMS)

    @property
    def ok(self) -> bool:
        return all(row.agrees for row in self.rows)

    @property
    def first_difference(self) -> NCheck | OptimumCheck | None:
        return next((row for row in self.rows if not row.agrees), None)

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "tool": self.tool, "form": self.form, "variant": self.variant, "ok": self.ok,
                "rows": [row.to_dict() for row in self.rows], "notes": self.notes, "output": self.output}

    def _repr_html_(self) -> str:
        """The check as a page in a notebook (the page ``check --html`` writes)."""
        from .page import check_page

        return check_page(self)


@dataclass
class Graded:
    """One submission's record."""

    submission: str
    form: str
    verdict: str
    score: float
    first_wrong: int | None
    records: list[dict[str, Any]]
    seconds: float
    message: str = ""
    output: str = ""
    sizes: list[int] = field(default_factory=list)  # SPEC's N, in order (the score's denominator)
    report: Any = field(default=None, repr=False, compare=False)  # the CheckReport, for its page (not recorded)

    @property
    def gradable(self) -> bool:
        """Whether the model could be read at all (an autograder's 'gradable')."""
        return bool(self.records) or self.verdict in ("right", "wrong", "time limit")

    def to_dict(self) -> dict[str, Any]:
        return {"submission": self.submission, "form": self.form, "verdict": self.verdict,
                "score": round(self.score, 6), "first_wrong": self.first_wrong, "records": self.records,
                "seconds": round(self.seconds, 3), "message": self.message, "output": self.output}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Graded:
        """A record read back from a results file (the resumed ones)."""
        return cls(str(data["submission"]), str(data.get("form", "")), str(data["verdict"]), float(data["score"]),
                   data.get("first_wrong"), list(data.get("records") or []), float(data.get("seconds", 0.0)),
                   str(data.get("message", "")), str(data.get("output", "")))


@dataclass
class GradeReport:
    """A class graded: every submission's record, in the folder's order; ``resumed``: those read back."""

    records: list[Graded]
    resumed: list[str]
