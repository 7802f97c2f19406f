"""What the fork server of the worker pools loads first (:func:`.pools._start_method`):
the one change a worker's start needs before any of our code runs in it.

A pool closed by Ctrl-C or SIGTERM while it was starting a worker removes its
semaphores; the worker, forked from the fork server, then rebuilds its task
queue's from their names, finds them gone, and printed a page ending in
``SemLock._rebuild ... FileNotFoundError`` now and then after the command's
own one line.  The fork server reports a worker's failed start through
``sys.excepthook``; in the fork server alone (this module is imported nowhere
else), that hook drops this one failure, which only a closing pool causes,
and hands any other to Python's.
"""

from __future__ import annotations

import sys
from types import TracebackType


def _closing_pool(kind: type[BaseException], traceback: TracebackType | None) -> bool:
    """Whether the failure is a worker rebuilding a semaphore its pool has removed."""
    if not issubclass(kind, FileNotFoundError):
        return False
    while traceback is not None:
        code = traceback.tb_frame.f_code
        if code.co_name == "__setstate__" and code.co_filename.replace("\\", "/").endswith(
                "multiprocessing/synchronize.py"):
            return True
        traceback = traceback.tb_next
    return False


def _hook(kind: type[BaseException], value: BaseException, traceback: TracebackType | None) -> None:
    if not _closing_pool(kind, traceback):
        sys.__excepthook__(kind, value, traceback)


sys.excepthook = _hook
