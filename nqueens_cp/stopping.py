"""What a worker process cleans up when its pool stops it (SIGTERM).

A pool stops its workers at once (Ctrl-C, ``| head``, a time limit), with
SIGTERM's default action: one in the compiled search could not run a Python
handler until its task ended.  A search that starts something the kernel
would not take away with the worker (a solver's child process, a temporary
folder) registers its clean-up for as long as it runs (:func:`registered`);
in a worker, SIGTERM then runs the clean-ups and exits (:func:`stop`).  In
any other process (the command line has its own SIGTERM handling) a
registration does nothing but keep a dict entry.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_CLEANUPS: dict[int, Callable[[], None]] = {}
_worker = False


def worker() -> None:
    """This process is a pool's worker (``execution.parallel.init_worker``)."""
    global _worker
    _worker = True


@contextmanager
def registered(cleanup: Callable[[], None]) -> Iterator[None]:
    """Run ``cleanup`` if this worker is stopped within the block."""
    key = id(cleanup)
    _CLEANUPS[key] = cleanup
    handle = _worker and threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop) if handle else None
    try:
        yield
    finally:
        _CLEANUPS.pop(key, None)
        if handle:
            signal.signal(signal.SIGTERM, previous)


def stop(signum: int, frame: object) -> None:
    """SIGTERM in a worker with clean-ups registered: run them all, then exit."""
    for cleanup in list(_CLEANUPS.values()):
        try:
            cleanup()
        except Exception:  # noqa: BLE001 - the others still run, and the process exits anyway
            pass
    os._exit(128 + signum)
