"""The package's exceptions: one root, so callers can catch everything we raise."""

from __future__ import annotations


class NQueensError(Exception):
    """Root of every error nqueens_cp raises on purpose."""


class InvalidInputError(NQueensError, ValueError):
    """The caller asked a malformed question (bad N, placement off the board,
    an unknown keyword or an option the engine does not take...)."""


class EngineUnavailableError(NQueensError):
    """An engine's solver package is not installed."""


class TimeLimitReached(NQueensError):
    """A search stopped at its time limit before it finished."""


class WorkerLostError(NQueensError):
    """A worker process of a split search died in the middle of its work (killed by
    the system for memory, or by a user): what it held is lost, and the search stops."""


class SearchFinishedError(NQueensError):
    """A finished or closed search was iterated or counted again."""


class SearchExhaustedError(SearchFinishedError, StopIteration):
    """``next()`` on a search that has already ended.

    It is a StopIteration too, so the iterator protocol holds (an ended
    iterator keeps raising it; ``next(search, default)`` gives the default),
    while the message says what happened and what to do."""
