"""Solutions found on a solver's own thread, streamed to the caller.

CP-SAT and clingo report solutions through a callback on the thread that
runs the solver.  The callback adds each solution here; they travel to the
consumer in small batches (a thread switch per solution would cost more than
finding it: 3.5x for clingo at N = 12), and a consumer that stops reading
holds the solver back instead of letting solutions pile up.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

from ..model.board import Solution

BATCH = 256  # solutions per hand-over ...
FLUSH_SECONDS = 0.05  # ... or fewer, when they come slowly
_WAIT = 0.1  # seconds the consumer waits at a time, so that Ctrl-C and the deadline are seen


class Handover:
    """The batches between a solver's callback (:meth:`add`, :meth:`finish`)
    and the consumer (:meth:`receive`); :meth:`cancel` ends both sides."""

    def __init__(self) -> None:
        self._queue: queue.Queue = queue.Queue(maxsize=4)
        self.cancelled = threading.Event()
        self._batch: list[Solution] = []
        self._flushed = time.monotonic()
        self.found = 0
        self.timed_out = False

    def add(self, solution: Solution) -> None:
        """On the solver's thread: one more solution."""
        self._batch.append(solution)
        self.found += 1
        now = time.monotonic()
        if len(self._batch) >= BATCH or now - self._flushed > FLUSH_SECONDS:
            self.flush(now)

    def flush(self, now: float | None = None) -> None:
        if self._batch:
            self._send(self._batch)
            self._batch = []
        self._flushed = time.monotonic() if now is None else now

    def finish(self) -> None:
        """On the solver's thread, when it has stopped: the last batch, then the end."""
        self.flush()
        self._send(None)

    def _send(self, item: list[Solution] | None) -> None:
        while not self.cancelled.is_set():
            try:
                self._queue.put(item, timeout=_WAIT)
                return
            except queue.Full:
                pass

    def receive(self, deadline: float | None = None) -> Iterator[Solution]:
        """On the consumer's thread: the solutions as they come, until the
        solver finishes; returns early with ``timed_out`` set once ``deadline``
        (``time.monotonic()``) passes."""
        self.timed_out = False
        while True:
            if deadline is not None and time.monotonic() > deadline:
                self.timed_out = True
                return
            try:
                batch = self._queue.get(timeout=_WAIT)
            except queue.Empty:
                continue
            if batch is None:
                return
            yield from batch

    def cancel(self) -> None:
        self.cancelled.set()
