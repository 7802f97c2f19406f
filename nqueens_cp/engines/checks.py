"""What an engine refuses, and why, in one line each: its N, its question, its
limits, its options, whether it can run here.  The half of
:class:`~nqueens_cp.engines.base.Engine` that decides before anything is
searched; a refusal of a question names the engines that answer it (read
from the registry, which knows engines only by their capabilities)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import EngineUnavailableError, InvalidInputError
from ..model.position import Position, check_placements
from ..model.variants import PLAIN, Variant
from .capabilities import Capabilities
from .registry import answering
from .search import check_limit, check_time_limit


class Checks(Capabilities):
    """The checks every engine runs before it searches; an engine with checks of
    its own extends :meth:`check_search` and :meth:`check_decision`."""

    symmetry_breaking: bool = False  # set by the option of that name, where an engine has it
    variant: Variant = PLAIN  # the question this engine answers (set on construction)

    @classmethod
    def refusal(cls, variant: Variant) -> str:
        """Why this engine does not answer ``variant``, and which engines do (one line)."""
        return f"engine {cls.name} does not answer {variant.title}: it cannot express {cls.cannot_express(variant)} " \
            f"(it answers: {', '.join(cls.questions())}); engines that do: {', '.join(answering(variant)) or 'none'}"

    def check_usable(self) -> None:
        """EngineUnavailableError where the engine, or a value of its options, cannot run here."""
        reason = self.unavailable_reason()
        if reason:
            raise EngineUnavailableError(f"engine '{self.name}' is unavailable: {reason}")
        for option in self.options:
            missing = option.missing(getattr(self, option.name))
            if missing:
                raise EngineUnavailableError(
                    f"engine '{self.name}': {option.flag} {getattr(self, option.name)} needs the Python package"
                    f"{'s' * (len(missing) > 1)} providing {' and '.join(map(repr, missing))}, not installed here")

    def check(self, n: int, fixed: Mapping[int, int] | None = None, limit: int | None = None,
              time_limit: float | None = None, part: bool = False) -> Position:
        """The placements, checked, as a :class:`Position` if :meth:`search` (or,
        with ``part``, :meth:`subproblem`) would take these arguments; else
        InvalidInputError or EngineUnavailableError saying why.  Nothing is searched."""
        placed = check_placements(n, fixed)
        self.check_search(n, placed, limit, time_limit, part)
        return placed

    def check_solve(self, n: int, fixed: Mapping[int, int] | None = None,
                    time_limit: float | None = None) -> Position:
        """The placements, checked, if :meth:`solve` would take these arguments;
        else InvalidInputError or EngineUnavailableError saying why."""
        placed = check_placements(n, fixed)
        self.check_decision(n, placed, time_limit)
        return placed

    def check_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None,
                     part: bool = False) -> None:
        """What is the engine's own to refuse in a search of a question whose
        placements are already checked (:func:`~nqueens_cp.model.question.question`
        checked them once): its N, its question, its limits, its options.  An
        engine with checks of its own extends this (and :meth:`check_decision`)."""
        self._own_checks(n, placed, time_limit, part, limit=limit, listing=True)

    def check_decision(self, n: int, placed: Position, time_limit: float | None) -> None:
        """:meth:`check_search` for a decision (:meth:`solve`)."""
        self._own_checks(n, placed, time_limit)

    def _own_checks(self, n: int, placed: Position, time_limit: float | None, part: bool = False,
                    limit: int | None = None, listing: bool = False) -> None:
        self.check_n(n)
        if not self.variant.places:
            raise InvalidInputError(f"{self.variant.title} asks for an optimum, not for boards of N queens: "
                                    f"use optimum (nqueens_cp.optimum)")
        if self.symmetry_breaking and not self.variant.symmetric_at(n):  # (it states all 8 symmetries)
            raise InvalidInputError(f"symmetry breaking states the 8 symmetries of the square, and "
                                    f"{self.variant.title} keeps only {', '.join(self.variant.symmetries_at(n))} "
                                    f"at N={n}")
        if listing and not self.enumerates and not self.counts_only:
            raise InvalidInputError(f"engine {self.name} finds one solution and cannot enumerate: use solve")
        if not listing and not self.solves:
            raise InvalidInputError(f"engine {self.name} counts solutions without finding one: use count")
        check_limit(limit)
        check_time_limit(time_limit)
        if placed and not self.takes_fixed:  # (a split search's parts too: such an engine is never split)
            raise InvalidInputError(f"engine {self.name} {'searches' if listing else 'solves'} plain N only: it "
                                    "cannot take pre-placed queens or blocked squares")
        if self.symmetry_breaking and placed and not part:
            raise InvalidInputError("symmetry breaking cannot be combined with fixed placements")
        self.check_usable()

    def check_listing_options(self) -> None:
        """Refuse an option of solve only, set, when the engine is asked to list or
        count (the plan of a search, not the searches a solve makes of its own)."""
        self.check_options(lambda option: not option.solve_only or option.name in self.checks_itself,
                            "listing or counting")

    def check_options(self, applies: Any, what: str) -> None:
        """Refuse an option set to other than its default that does not apply to ``what``
        (``applies(option)`` false): the engine would ignore it."""
        for option in self.options:
            if not applies(option) and getattr(self, option.name) != option.default:
                takes = ", ".join(o.flag for o in self.options if applies(o)) or "none"
                raise InvalidInputError(f"option {option.name} ({option.flag}) does not apply to {what} "
                                        f"(engine {self.name}'s options there: {takes})")

    def refuses(self, n: int) -> str | None:
        """Why this engine refuses a board of size n for its question (beyond the
        largest N it serves), or None: what a study asks before it runs one."""
        try:
            self.check_n(n)
        except InvalidInputError as error:
            return str(error)
        return None

    def check_n(self, n: int) -> None:
        if self.max_n is not None and n > self.max_n:
            raise InvalidInputError(f"engine {self.name} serves N <= {self.max_n}, got N={n} "
                                    f"({self.max_n_why or self.summary})")
