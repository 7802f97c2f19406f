"""What every search returns: a lazy stream of solutions (:class:`Search`),
with its statistics, its limit and its time limit; and the checks of both.

An engine makes one from a producer (a generator of solutions that fills a
statistics dict) and, optionally, a counter that counts without listing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import InvalidInputError, SearchExhaustedError, SearchFinishedError, TimeLimitReached
from ..model.board import Solution


def check_limit(limit: int | None) -> int | None:
    """The limit as an int (any integer type, NumPy's too), checked positive."""
    from ..model.board import whole

    if limit is not None and (whole(limit) is None or whole(limit) < 1):  # type: ignore[operator]
        raise InvalidInputError(f"limit must be a positive integer, got {limit!r}")
    return None if limit is None else whole(limit)


MAX_TIME_LIMIT = 1e9  # seconds (31 years): beyond, the clocks and timeouts of the platform overflow


def check_time_limit(time_limit: float | None) -> None:
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit <= MAX_TIME_LIMIT):
        raise InvalidInputError(f"time limit must be a positive number of seconds up to {MAX_TIME_LIMIT:g}, "
                                f"got {time_limit!r}")


def count_cut_short(time_limit: float | None) -> TimeLimitReached:
    """What a count ended by its time limit raises: a partial number is not the count."""
    return TimeLimitReached(f"the time limit of {time_limit:g} s came before the count was complete")


Producer = Callable[[dict[str, Any], "float | None"], Iterator[Solution]]
Counter = Callable[[dict[str, Any], "float | None"], "int | None"]


class Search(Iterator[Solution]):
    """A lazy stream of solutions, with statistics: what every search returns.

    ``stats`` holds what the engine knows (nodes, branches, conflicts...)
    once the search has ended or been closed; some engines fill it as they
    go.  ``timed_out`` says the time limit ended it early.  A search runs
    once: iterating or counting it again after it has finished is an error.
    Close it, or use it as a context manager, to stop it early and free
    native solver memory at once.
    """

    def __init__(self, label: str, produce: Producer, limit: int | None = None, time_limit: float | None = None,
                 counter: Counter | None = None) -> None:
        self.label = label
        self.limit = limit
        self.time_limit = time_limit
        self.timed_out = False
        self.stats: dict[str, Any] = {}
        self.produced = 0
        self._produce = produce
        self.counter = counter  # a faster count than enumerating, if any: (stats, deadline) -> int | None
        self._it: Iterator[Solution] | None = None
        self._state = "new"  # new, running, finished, closed

    def __iter__(self) -> Search:
        if self._state in ("finished", "closed"):
            raise SearchFinishedError(f"this search has {self._state} ({self.produced} solutions): "
                                      "start a new one to go through the solutions again")
        return self

    def __next__(self) -> Solution:
        if self._state in ("finished", "closed"):
            raise SearchExhaustedError(f"this search has {self._state} ({self.produced} solutions): start a new "
                                       "one to go through the solutions again")
        if self._it is None:
            self._state = "running"
            deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
            self._it = self._produce(self.stats, deadline)
        try:
            solution = next(self._it)
        except StopIteration:
            self._state = "finished"
            raise
        except TimeLimitReached:
            self._state = "finished"
            self.timed_out = True
            raise StopIteration from None
        self.produced += 1
        if self.limit is not None and self.produced >= self.limit:
            self.close()
            self._state = "finished"
        return solution

    def count(self) -> int:
        """How many solutions there are (at most ``limit``), on a fresh search.

        Raises :class:`TimeLimitReached` when the time limit ends the count:
        a partial number is not the count.
        """
        if self._state != "new":
            said = {"running": "is already running", "finished": "has finished", "closed": "was closed"}[self._state]
            raise SearchFinishedError(f"count() needs a fresh search; this one {said} after {self.produced} "
                                      f"solution{'' if self.produced == 1 else 's'}")
        if self.limit is None and self.counter is not None:
            self._state = "running"
            deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
            try:
                fast = self.counter(self.stats, deadline)
            except TimeLimitReached:
                self._state = "finished"
                self.timed_out = True
                raise count_cut_short(self.time_limit) from None
            if fast is not None:
                self._state = "finished"
                self.produced = fast
                return fast
            self._state = "new"
        total = sum(1 for _ in self)
        if self.timed_out:
            raise TimeLimitReached(f"the time limit of {self.time_limit:g} s came after {total} solutions, "
                                   "before the count was complete")
        return total

    def close(self) -> None:
        """Stop the search and free what it holds; a closed search yields nothing more."""
        if self._state != "finished":
            self._state = "closed"
        close = getattr(self._it, "close", None)
        if close is not None:
            close()

    @property
    def finished(self) -> bool:
        return self._state in ("finished", "closed")

    def __enter__(self) -> Search:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        limits = (f" limit={self.limit}" if self.limit is not None else "") + \
                 (f" time_limit={self.time_limit:g}s" if self.time_limit is not None else "")
        timed = ", timed out" if self.timed_out else ""
        return f"<Search {self.label}{limits}: {self.produced} solutions, {self._state}{timed}>"
