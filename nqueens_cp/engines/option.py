"""An engine's own keyword (and command-line flag), as data: its type, default,
choices, help, and what each choice needs installed.

Two engines may give the same name to options that mean different things
(``solver``: a python-sat solver for sat, a CPMpy solver for cpmpy): each
engine checks the value against its own :class:`Option`, and the command
line's one flag lists each engine's meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..errors import InvalidInputError
from ..model.board import whole

SEED_MAX = 2**31 - 1  # OR-Tools' random_seed is a signed 32-bit integer; minconflicts takes the same range


class Option(NamedTuple):
    """One engine-specific keyword (and CLI flag): its type, default, choices and help."""

    name: str
    help: str
    kind: type = str
    default: Any = None
    choices: tuple[str, ...] | None = None
    low: int | None = None
    high: int | None = None
    solve_only: bool = False  # a flag of solve (and the batches that solve), not of enumerate or count
    solve_help: str | None = None  # what it means for solve, where that differs
    optimum: bool = False  # a flag of optimum too (the domination questions): ignored there otherwise, so refused
    # choice -> the Python modules it needs beyond the engine's own ``requires`` (checked
    # per value, without importing: a choice whose package is missing is one line, not a crash)
    needs: Mapping[str, tuple[str, ...]] = {}

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def check(self, engine: str, value: Any) -> Any:
        """The value if it is valid for this option, else InvalidInputError naming the option."""
        where = f"engine {engine}: option {self.name}"
        if value is None and self.default is None:
            return None  # not set
        if self.kind is bool:
            if type(value) is not bool:
                raise InvalidInputError(f"{where} takes True or False, got {value!r}")
        elif self.kind is int:
            number = whole(value)  # (NumPy's integers too)
            if number is None or (self.low is not None and number < self.low) or \
                    (self.high is not None and number > self.high):
                raise InvalidInputError(f"{where} takes an integer from {self.low} to {self.high}, got {value!r}")
            return number
        elif self.choices is not None and value not in self.choices:
            raise InvalidInputError(f"{where}: unknown value {value!r} (choose from {', '.join(self.choices)})")
        elif self.kind is str and (type(value) is not str or not value):
            raise InvalidInputError(f"{where} takes a non-empty string, got {value!r}")
        return value

    def missing(self, value: Any) -> list[str]:
        """The Python modules ``value`` needs that are not installed (found without importing)."""
        import importlib.util

        return [module for module in self.needs.get(value, ()) if importlib.util.find_spec(module) is None]


SYMMETRY_BREAKING = Option(
    "symmetry_breaking", "add the first-row lex-leader constraints of all 8 symmetries and expand the "
    "survivors' orbits: the output is still the exact full set", kind=bool, default=False,
    solve_help="add the first-row lex-leader constraints of all 8 symmetries: fewer boards to search, "
    "and the solution found is one whose first row no symmetry makes less")
SEED = Option("seed", f"random seed, 0..{SEED_MAX}: the same seed gives the same board (cpsat's solve then runs "
              "one worker unless told to run more: a portfolio's board is whichever worker finishes "
              "first; an optimum's witness too may differ, never its value)", kind=int, low=0, high=SEED_MAX)
