"""Loaded by each worker of a local Dask cluster as it starts (Dask's
'preload', see :func:`nqueens_cp.execution.cluster.dask_executor`).

Ctrl-C at a terminal goes to the whole process group, the workers of a
local cluster included.  A worker that takes it prints a page of tracebacks
while this package's process, which owns the cluster, is already shutting it
down; so the workers ignore it, and Ctrl-C stays the parent's to handle.
So with SIGHUP (the terminal closed): the parent takes it as SIGTERM.
"""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    if threading.current_thread() is threading.main_thread():  # (only there can a handler change)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
