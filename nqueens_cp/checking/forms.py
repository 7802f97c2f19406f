"""The forms a user's model comes in, and the one interface each is read through.

A model is read by its own tool (CP-SAT, CPMpy, PySAT, MiniZinc, clingo) and
handed to :mod:`nqueens_cp.checking.run` as an :class:`Instance` per N: its
solutions as the model states them (``raw``: columns by row in the model's
own numbering, or the squares that hold a queen), and, for one board, the
reason the model excludes it (:meth:`Instance.why`) and whether the model's
other variables are determined by it (:meth:`Instance.determined`).  Nothing
here compares boards: that is the check's, through the question's validator.

The forms (docs/checking.md):

- ``PATH.py:FUNC`` (or the function itself, from Python): ``FUNC(n)`` returns
  ``(model, board)``, the model an OR-Tools ``CpModel``, a CPMpy ``Model`` or
  a PySAT ``CNF``;
- ``PATH.mzn`` (MiniZinc, ``n`` given as data), ``PATH.lp`` (clingo, ``n`` a
  constant);
- DIMACS: ``PATH-{n}.cnf`` (a file per N), or a generator command;
- a CP-SAT model exported as protobuf text, ``PATH-{n}.pbtxt`` (a file per N).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError, NQueensError

COLUMNS, SQUARES = "columns", "squares"  # what a raw solution is: columns by row, or the queens' squares


# What a model given from Python returns (the form every tool's reader checks).
EXPECTED = ("(model, board): the model a CpModel, a CPMpy Model or a PySAT CNF; the board a list of n integer "
            "variables (the column of each row's queen) or an n x n grid of 0/1 variables (variable ids for a CNF)")


class ModelError(NQueensError):
    """The user's model is wrong in a way that stops the check (it does not
    load, returns the wrong shape, names a variable it lacks).  ``detail`` is
    what the user's own tool said at length (their traceback, MiniZinc's
    messages), printed above the one line; ``memory`` that the model ran out
    of memory; ``output`` what the model printed (bounded), where it ran in
    a process of its own."""

    def __init__(self, message: str, detail: str = "", *, memory: bool = False, output: str = "") -> None:
        super().__init__(message)
        self.detail = detail
        self.memory = memory
        self.output = output


@dataclass(frozen=True)
class Reason:
    """Why the model excludes a board, in the model's own terms: ``text`` says
    it in one line; ``parts`` are the constraints or clauses, one a line
    (a MiniZinc location and its source, a CP-SAT constraint's index, a
    clause's number and literals)."""

    text: str
    parts: tuple[str, ...] = ()
    accepted: bool = False  # the model accepts the board: its solver's enumeration missed it
    # where each part was written, where known: {file, line, source} (checking.sites), else None
    sites: tuple[dict[str, Any] | None, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        sites = list(self.sites) + [None] * (len(self.parts) - len(self.sites))
        return {"text": self.text, "parts": list(self.parts), "accepted": self.accepted, "sites": sites}


@dataclass(frozen=True)
class Determined:
    """Whether the board fixes every other variable of the model; where it does
    not, ``example`` names one that can take two values."""

    determined: bool
    example: str = ""


class Instance:
    """The user's model at one N, read by its tool."""

    kind = COLUMNS
    domain: tuple[int, int] | None = None  # the declared values of a column board (lowest, highest)
    notes: list[str] = []  # what the tool said of the model that explains a mistake (clingo's warnings), once read

    @property
    def numbered(self) -> bool:
        """Whether the raw boards carry the model's own numbers (0- or 1-based), not grid positions."""
        return self.kind == COLUMNS

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        """Every solution's board as the model states it: a column a row
        (COLUMNS) or the squares holding a queen, sorted (SQUARES).  Past
        ``deadline`` it raises TimeLimitReached."""
        raise NotImplementedError

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        """Why the model has no solution with this board (``raw`` as
        :meth:`solutions` gives one)."""
        raise NotImplementedError

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        """Whether fixing this board leaves one solution (None: cannot tell)."""
        raise NotImplementedError

    def optimize(self, deadline: float | None) -> tuple[int | None, bool, tuple[Any, ...] | None, int | None]:
        """An optimisation model's best: (its objective's value, whether its solver proved it, its board as
        :meth:`solutions` states one, None where it has none; the objective again where known)."""
        raise ModelError("an optimisation check (--variant domination, independent) reads CP-SAT and CPMpy models "
                         "from Python and MiniZinc models (solve minimize) so far: this form cannot be")

    def close(self) -> None:
        """Free what the tool holds."""


def objective_refused(where: str, sense: str) -> ModelError:
    """One rule for a model with an objective, in every form: a placement question's boards are all of a
    model's solutions, which an objective would cut short."""
    return ModelError(f"{where}: the model has an objective ({sense}): check compares all of a model's boards, "
                      "and an objective asks for the best one; take it out, or give --ignore-objective to check "
                      "its feasible boards")


def objective_missing(where: str, how: str) -> ModelError:
    """The other side of the rule: an optimisation question checks a model's objective, which it lacks
    (``how``: how the model's form states one)."""
    return ModelError(f"{where}: the model has no objective: an optimisation check asks for its best board ({how})")


class UserModel:
    """A model as the user gave it: ``instance(n)`` reads it at N; ``ignore_objective``: enumerate
    the feasible boards of a model that has one (else refused, :func:`objective_refused`)."""

    name = "model"
    tool = ""
    ignore_objective = False
    optimizing = False  # an optimisation question: the objective is what is checked, not refused

    def instance(self, n: int) -> Instance:
        raise NotImplementedError


class FilePerN(UserModel):
    """A model written as one file per N: the path with ``{n}`` where N goes
    (``{n:02}`` pads), read whole for each N by :meth:`text`."""

    example = "queens-{n}.cnf"

    def __init__(self, template: str) -> None:
        if "{n" not in template:
            raise InvalidInputError(f"{template}: put {{n}} in the path where N goes (one file per N), e.g. "
                                    f"{self.example}")
        self.template = self.name = template

    def text(self, n: int) -> tuple[str, str]:
        """(the path of N's file, its text)."""
        try:
            path = self.template.format(n=n)
        except (ValueError, KeyError, IndexError) as error:
            raise InvalidInputError(f"{self.template}: cannot put N in the path ({error})") from None
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                return path, handle.read()
        except OSError as error:
            raise ModelError(f"cannot read {path}: {error.strerror or error}") from None


def source_line(path: str, line: int) -> str:
    """Line ``line`` (1-based) of a file, stripped, or '' where it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, 1):
                if number == line:
                    return text.strip()
    except OSError:
        pass
    return ""
