"""Where the work runs, checked before any: how many worker processes (the
jobs asked, or the cores), and what runs the sub-problems elsewhere (an
executor, a Dask ``Client``, or a Dask scheduler's address, its form
checked here and its greeting by :mod:`.pools`)."""

from __future__ import annotations

import os
import re
from typing import Any

from ..errors import InvalidInputError
from ..model.board import whole

LOCAL_WORKERS_MAX = 256  # 'local:N': more single-threaded workers than this on one machine is a mistake
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?[A-Za-z0-9.\-_\[\]:]+:\d{1,5}|inproc://\S+")

def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_executor(executor: Any) -> list[str]:
    """Refuse what cannot run sub-problems: an executor is a
    ``concurrent.futures.Executor``, a Dask ``Client``, a Dask scheduler's
    address, or None.  The notes it is worth: a local cluster of more
    workers than cores."""
    if isinstance(executor, str):
        check_scheduler(executor)
        kind, _, workers = executor.partition(":")
        cores = default_jobs()
        if kind == "local" and workers and int(workers) > cores:
            return [f"a local cluster of {workers} workers on the {cores} cores here: each worker is a process, "
                    "all started before any work, and more than one a core only adds overhead"]
    elif executor is not None:
        from concurrent.futures import Executor  # only when one is given: start-up

        if not (isinstance(executor, Executor) or dask_kind(executor) == "Client"):
            raise InvalidInputError(f"executor must be a concurrent.futures.Executor, a Dask Client or a Dask "
                                    f"scheduler's address, got {executor!r}")
    return []


def check_jobs(jobs: int | None) -> int:
    """The number of worker processes asked for (None: the cores), checked."""
    if jobs is None:
        return default_jobs()
    count = whole(jobs)
    if count is None or count < 1:
        raise InvalidInputError(f"jobs must be a positive integer, got {jobs!r}")
    return count


def dask_kind(executor: object) -> str | None:
    """'Client' or 'ClientExecutor' for a Dask client or Dask's executor on one, else None
    (read from the type, so that nothing imports Dask to ask)."""
    kind = type(executor)
    if kind.__module__.startswith("distributed.") and kind.__name__ in ("Client", "ClientExecutor"):
        return kind.__name__
    return None


def check_scheduler(spec: str) -> None:
    """Refuse a --scheduler that cannot name a Dask cluster, before any work:
    'local', 'local:N' (1 <= N <= 256) or a scheduler's address (tcp://HOST:PORT)."""
    kind, colon, workers = spec.partition(":")
    if kind == "local":
        if colon and not (workers.isdigit() and 1 <= int(workers) <= LOCAL_WORKERS_MAX):
            raise InvalidInputError(f"a local cluster is 'local' or 'local:N' with N from 1 to {LOCAL_WORKERS_MAX}, "
                                    f"got '{spec}'")
    elif not _ADDRESS.fullmatch(spec):
        raise InvalidInputError(f"--scheduler takes a Dask scheduler's address (tcp://HOST:PORT), 'local' or "
                                f"'local:N', got '{spec}'")
    elif spec.startswith(("tls://", "wss://")):  # (Dask raised "TLS expects a ssl_context": a traceback)
        raise InvalidInputError(f"--scheduler {spec}: a scheduler behind TLS needs Dask's certificates "
                                "(distributed.security.Security); connect a Client with them and pass it as executor")
