"""A solver written in C or C++ run on a thread of its own: how every engine
that hands its search to one (CP-SAT, clingo, CPMpy's solvers) starts it,
streams what it finds, and stops it.

- The solver's call runs on a daemon thread; the caller's thread only waits,
  in short slices.  Ctrl-C and SIGTERM are delivered to the main thread, so
  they are taken at once, and they never land inside a solver's Python
  wrapper (a solve called from the main thread held both for its whole
  length: CP-SAT's solve 3000 ignored them for 20 s).
- Solutions the solver reports through a callback travel in batches
  (:class:`~nqueens_cp.engines.handover.Handover`): a consumer that stops
  reading holds the solver back instead of letting solutions pile up.
- When the consumer stops (enough solutions, a closed pipe, Ctrl-C, the time
  limit), ``stop()`` is asked until the thread ends (a stop asked before the
  solver has started is lost, so it is asked again), for at most
  ``patience`` seconds: a solver that cannot be stopped (building a model in
  pure Python) is left to end on its daemon thread.
- What the solver raised is raised here, as NQueensError naming the solver.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator
from typing import Any

from ..errors import NQueensError
from ..model.board import Solution

PATIENCE = 5.0  # seconds a stopped solver is waited for before it is left to end on its own
_ASK_EVERY = 0.05  # seconds between two requests to stop


class Run:
    """One call of a native solver on its thread: what it returned
    (``result``), what it raised (``error``), and for a stream its
    :class:`~nqueens_cp.engines.handover.Handover` (``found``, ``timed_out``)."""

    def __init__(self, call: Callable[[], Any], name: str, handover: Any = None) -> None:
        self.handover = handover
        self.result: Any = None
        self.error: BaseException | None = None
        self.finished = False
        self.name = name

        def run() -> None:
            try:
                self.result = call()
                self.finished = True
            except BaseException as exc:  # noqa: BLE001 - raised on the caller's thread by raise_error
                self.error = exc
            finally:
                if handover is not None:
                    handover.finish()  # (the last batch, then the end)

        self.thread = threading.Thread(target=run, name=f"{name}-solver", daemon=True)

    def stop(self, stop: Callable[[], None], patience: float = PATIENCE) -> None:
        """Ask ``stop()`` until the thread ends, for at most ``patience`` seconds."""
        give_up = time.monotonic() + patience
        while self.thread.is_alive() and time.monotonic() < give_up:
            try:
                stop()
            except Exception:  # noqa: BLE001 - (the solve ended meanwhile: nothing to stop)
                pass
            self.thread.join(_ASK_EVERY)

    def raise_error(self) -> None:
        if self.error is not None:
            raise NQueensError(f"{self.name} failed: {self.error}") from self.error


def call(solve: Callable[[], Any], stop: Callable[[], None], name: str, deadline: float | None = None,
         grace: float = 0.5, patience: float = float("inf")) -> Any:
    """``solve()`` on a thread of its own, waited for until ``deadline``
    (``time.monotonic()``) plus ``grace`` (a solver that does not look at the
    clock in every phase is stopped then), or until a signal ends the wait;
    stopped, it returns what it has.  A call that ``stop`` cannot end (a
    grounding) is left to end on its daemon thread after ``patience`` seconds."""
    run = Run(solve, name)
    try:  # (the start inside: see stream)
        run.thread.start()
        run.thread.join(None if deadline is None else max(deadline + grace - time.monotonic(), 0.0))
    finally:  # past the deadline, or a signal came: stopped before anything goes on
        run.stop(stop, patience=patience)
    run.raise_error()
    return run.result


def stream(solve: Callable[[Any], Any], stop: Callable[[], None], name: str,
           deadline: float | None = None) -> Generator[Solution, None, Any]:
    """The solutions that ``solve(handover)`` reports (``handover.add(board)``
    from its callback), as they come, the solver on a thread of its own.
    Past ``deadline`` the stream ends with ``handover.timed_out`` set.  Its
    return value (``yield from``) is the :class:`Run`, with ``handover``."""
    from .handover import Handover  # here: listing the engines (every command line) should not import queue

    handover = Handover()
    run = Run(lambda: solve(handover), name, handover)
    try:  # the start inside: a Ctrl-C that lands while start() waits for the thread must stop it too
        run.thread.start()
        yield from handover.receive(deadline)
    finally:
        handover.cancel()
        run.stop(stop)
    run.raise_error()
    return run
