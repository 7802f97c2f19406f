"""The model's side of an isolated check: ``python -m nqueens_cp.checking.child IN OUT``.

Everything the user's model does runs here, in a process of its own that the
checker (:mod:`.isolate`) started in a session of its own, in a scratch
folder, with limits: the model's import, ``FUNC(n)``, its solver's
enumeration, a generator command, MiniZinc, clingo.  The checker asks and
this process answers, one JSON object a line, on two pipes that nothing
else writes to (the model's own prints go to a file the checker reads as
output, never as an answer):

- ``{"op": "load", ...}``: read the model (``{"loaded": {name, tool}}``);
- ``{"op": "instance", "n": N}``: the model at N (``{"instance": {kind, domain, numbered}}``);
- ``{"op": "solutions", "seconds": S}``: each solution ``{"raw": [...]}``, then ``{"end": true}``;
- ``{"op": "why" | "determined", "raw": [...], "seconds": S}``: the reason, or whether it is determined;
- ``{"op": "close"}``: the instance freed.

Any failure is ``{"error": {kind, message, detail}}``.  The checker reads
all of it as untrusted input: a model that patches this module can only
make its own answers wrong, and a wrong answer is a wrong model.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

FLUSH_SECONDS = 0.05  # the most a solution waits in the buffer before the checker sees it


class Channel:
    """One JSON object a line, each way."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._in = os.fdopen(read_fd, "r", encoding="utf-8")
        self._out = os.fdopen(write_fd, "w", encoding="utf-8", buffering=1 << 16)
        self._flushed = time.monotonic()

    def receive(self) -> dict[str, Any] | None:
        line = self._in.readline()
        return json.loads(line) if line else None

    def send(self, message: dict[str, Any], flush: bool = True) -> None:
        self._out.write(json.dumps(message, separators=(",", ":")) + "\n")
        now = time.monotonic()
        if flush or now - self._flushed > FLUSH_SECONDS:
            self._out.flush()
            self._flushed = now


def _deadline(request: dict[str, Any]) -> float | None:
    seconds = request.get("seconds")
    return None if seconds is None else time.monotonic() + float(seconds)


def _plain(raw: Any, kind: str) -> list[Any]:
    """A solution as JSON: ints, or [row, column] pairs of ints (numpy's and bools made ints)."""
    if kind == "columns":
        return [int(v) for v in raw]
    return [[int(r), int(c)] for r, c in raw]


def _failure(error: BaseException, user: Any, n: int | None) -> dict[str, Any]:
    """An error as the checker reads it: its kind, one line, the detail."""
    from ..errors import EngineUnavailableError, InvalidInputError, TimeLimitReached
    from .forms import ModelError

    if isinstance(error, TimeLimitReached):
        return {"kind": "time", "message": str(error), "detail": ""}
    if isinstance(error, EngineUnavailableError):
        return {"kind": "unavailable", "message": str(error), "detail": ""}
    if isinstance(error, InvalidInputError):
        return {"kind": "usage", "message": str(error), "detail": ""}
    if isinstance(error, MemoryError):
        return {"kind": "memory", "message": "the model ran out of memory" + (f" at N={n}" if n else ""),
                "detail": ""}
    if isinstance(error, ModelError):
        return {"kind": "memory" if error.memory else "model", "message": str(error), "detail": error.detail}
    from .python import user_traceback

    text = str(error).strip().splitlines()
    said = f"{type(error).__name__}" + (f": {text[0]}" if text else "")
    where = getattr(user, "name", "the model")
    tool = getattr(user, "tool", "") or "the model"
    message = (f"{tool} failed on {where} at N={n}: {said}" if n is not None else f"{where} failed: {said}")
    return {"kind": "model", "message": message, "detail": user_traceback(error, getattr(user, "path", ""))}


def serve(channel: Channel, loader: Any, first: dict[str, Any] | None = None, network: str = "open") -> None:
    """Answer the checker until it says goodbye or goes away (``first``: a request already read)."""
    user: Any = None
    instance: Any = None
    n: int | None = None
    while True:
        request, first = (first or channel.receive()), None
        if request is None or request.get("op") == "bye":
            return
        op = request.get("op")
        try:
            if op == "load":
                user = loader(request)
                channel.send({"loaded": {"name": user.name, "tool": user.tool, "network": network}})
            elif op == "instance":
                n = int(request["n"])
                instance = user.instance(n)
                domain = instance.domain
                channel.send({"instance": {"kind": instance.kind, "numbered": bool(instance.numbered),
                                           "domain": None if domain is None else [int(domain[0]), int(domain[1])]}})
            elif op == "solutions":
                kind = instance.kind
                for raw in instance.solutions(_deadline(request)):
                    channel.send({"raw": _plain(raw, kind)}, flush=False)
                domain = instance.domain  # (a MiniZinc model's is known once its flattening is traced)
                channel.send({"end": True, "domain": None if domain is None else [int(domain[0]), int(domain[1])],
                              "notes": [str(note)[:500] for note in instance.notes[:20]]})
            elif op == "why":
                raw = _raw(request["raw"], instance.kind)
                channel.send({"reason": instance.why(raw, _deadline(request)).to_dict()})
            elif op == "determined":
                raw = _raw(request["raw"], instance.kind)
                told = instance.determined(raw, _deadline(request))
                channel.send({"determined": None if told is None else
                              {"determined": bool(told.determined), "example": str(told.example)}})
            elif op == "optimize":
                value, proved, raw, objective = instance.optimize(_deadline(request))
                channel.send({"optimum": {"value": value, "proved": bool(proved), "objective": objective,
                                          "raw": None if raw is None else _plain(raw, instance.kind)}})
            elif op == "close":
                if instance is not None:
                    instance.close()
                instance = None
                channel.send({"closed": True})
            else:
                channel.send({"error": {"kind": "internal", "message": f"unknown request {op!r}", "detail": ""}})
        except BaseException as error:  # noqa: BLE001 - the model's failure, however it comes, is an answer
            channel.send({"error": _failure(error, user, n if op != "load" else None)})
            if isinstance(error, (SystemExit, KeyboardInterrupt)) or op == "load":
                return


def _raw(value: list[Any], kind: str) -> tuple[Any, ...]:
    return tuple(value) if kind == "columns" else tuple((r, c) for r, c in value)


def confine(limits: dict[str, Any]) -> str:
    """The limits this process and all it starts run under: memory (an
    address-space limit: ``memory`` and ``thread_room`` more than this process
    has mapped already, its interpreter and the solvers the zygote imported,
    which are no part of the model's use), file size, no core files, no
    network where the machine allows it.  Returns whether the network is
    'cut' or 'open'."""
    import resource

    def cap(which: int, value: int) -> None:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass

    if limits.get("memory"):
        from .. import machine

        # (over what is mapped already: a limit set as if the process were empty once left a forked model no
        # room at all where the solvers' libraries map more, a thread pool's stacks and buffers on many cores)
        cap(resource.RLIMIT_AS, (machine.mapped() or 0) + int(limits["memory"]) + int(limits.get("thread_room") or 0))
    if limits.get("file_size"):
        cap(resource.RLIMIT_FSIZE, int(limits["file_size"]))
    cap(resource.RLIMIT_CORE, 0)
    if limits.get("network") is False and _no_network():
        return "cut"
    return "open"


def _no_network() -> bool:
    """A network namespace of this process's own (nothing but a loopback that
    is down): unshare(CLONE_NEWNET), or with a user namespace where this user
    may not.  False where neither is allowed."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    for flags in (0x40000000, 0x40000000 | 0x10000000):  # CLONE_NEWNET; with CLONE_NEWUSER
        if libc.unshare(flags) == 0:
            return True
    return False


def main(argv: list[str], function: Any = None) -> None:
    """The child's life: the first request (the model and the limits), the
    limits set, then answers until the checker is done.  ``function``: a
    model given as a function, in a fork of the checker that has it."""
    read_fd, write_fd = int(argv[0]), int(argv[1])
    from .. import stopping

    stopping.die_with_parent()
    channel = Channel(read_fd, write_fd)
    first = channel.receive()
    if first is None:
        os._exit(0)
    network = confine(first.get("limits", {}))

    def loader(request: dict[str, Any]) -> Any:
        from .reading import load

        return load(function if function is not None else request.get("model"), request.get("var"),
                    request.get("generator"), request.get("data"), request.get("ignore_objective") is True,
                    request.get("optimizing") is True)

    try:
        serve(channel, loader, first, network)
    finally:
        try:
            channel._out.flush()
        except OSError:
            pass
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)  # (a native solver's static destructors can abort as the interpreter ends)


if __name__ == "__main__":
    main(sys.argv[1:])
