"""The one interface every engine implements."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from ..board import Solution, check_placements
from ..errors import EngineUnavailableError, InvalidInputError, TimeLimitReached


class Engine:
    """A way of finding N-queens solutions.

    Subclasses implement :meth:`_search`, a generator that yields solutions
    and fills a statistics dict as it goes, and may implement :meth:`_count`
    when they can count faster than they enumerate.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    requires: ClassVar[str | None] = None  # top-level module the engine imports lazily
    # When set, _search yields only the survivors of the symmetry-breaking
    # constraints and Search expands them back to the full set.
    symmetry_breaking: bool = False

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """None when the engine can run here, else why not (found without importing)."""
        if cls.requires and importlib.util.find_spec(cls.requires) is None:
            return f"needs the Python package providing '{cls.requires}'"
        return None

    def split_rows(self, n: int) -> int:
        """Rows fixed per sub-problem when a search of n-queens is split across
        processes: two rows (about n*n tasks) balance the cores best."""
        return 2

    def preload(self) -> None:
        """Import the solver package now, so that its cost can be timed apart from the search."""

    def search(self, n: int, fixed: Mapping[int, int] | None = None, limit: int | None = None,
               time_limit: float | None = None) -> Search:
        """All solutions of n-queens that honour ``fixed`` (row -> column), lazily.

        ``limit`` stops after that many solutions.  ``time_limit`` (seconds,
        counted from the first request for a solution) ends the search early;
        ``Search.timed_out`` then says so.  Nothing is computed until the
        result is iterated or counted.
        """
        placed = check_placements(n, fixed)
        if limit is not None and (type(limit) is not int or limit < 1):
            raise InvalidInputError(f"limit must be a positive integer, got {limit!r}")
        if self.symmetry_breaking and placed:
            raise InvalidInputError("symmetry breaking cannot be combined with fixed placements")
        reason = self.unavailable_reason()
        if reason:
            raise EngineUnavailableError(f"engine '{self.name}' is unavailable: {reason}")
        if time_limit is not None and not time_limit > 0:
            raise InvalidInputError(f"time limit must be positive, got {time_limit!r}")
        return Search(self, n, placed, limit, time_limit)

    # -- for subclasses -------------------------------------------------------

    def _search(self, n: int, fixed: dict[int, int], limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        """Yield solutions; raise TimeLimitReached once ``time.monotonic()`` passes ``deadline``."""
        raise NotImplementedError

    def _count(self, n: int, fixed: dict[int, int], stats: dict[str, Any]) -> int | None:
        """A faster count than enumerating, or None to enumerate."""
        return None

    def __repr__(self) -> str:
        return f"<engine {self.name}>"


class Search(Iterator[Solution]):
    """An iterator over one engine's solutions, with the engine's statistics.

    ``stats`` holds what the engine knows (nodes, branches, conflicts...)
    once the search has ended or been closed; some engines fill it as they go.  Close it, or use it as a context manager,
    to stop a search early and free native solver memory at once.
    """

    def __init__(self, engine: Engine, n: int, fixed: dict[int, int], limit: int | None,
                 time_limit: float | None = None) -> None:
        self.engine = engine
        self.n = n
        self.fixed = fixed
        self.limit = limit
        self.time_limit = time_limit
        self.timed_out = False
        self.stats: dict[str, Any] = {}
        self.produced = 0
        self._it: Iterator[Solution] | None = None
        self._raw: Iterator[Solution] | None = None
        self._done = False

    def __next__(self) -> Solution:
        if self._done:
            raise StopIteration
        if self._it is None:
            self._it = self._start()
        try:
            solution = next(self._it)
        except StopIteration:
            self._done = True
            raise
        except TimeLimitReached:
            self._done = True
            self.timed_out = True
            raise StopIteration from None
        self.produced += 1
        if self.limit is not None and self.produced >= self.limit:
            self.close()
        return solution

    def _start(self) -> Iterator[Solution]:
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        if not self.engine.symmetry_breaking:
            return self.engine._search(self.n, self.fixed, self.limit, self.stats, deadline)
        from ..symmetry import expand

        # The engine's own limit would count survivors, not solutions: leave it to us.
        self._raw = self.engine._search(self.n, self.fixed, None, self.stats, deadline)
        return expand(self._raw)

    def count(self) -> int:
        """How many solutions remain (all of them on a fresh search)."""
        if self._it is None and self.limit is None and self.time_limit is None:
            fast = self.engine._count(self.n, self.fixed, self.stats)
            if fast is not None:
                self._done = True
                return fast
        return sum(1 for _ in self)

    def close(self) -> None:
        self._done = True
        for it in (self._it, self._raw):
            close = getattr(it, "close", None)
            if close is not None:
                close()

    def __enter__(self) -> Search:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
