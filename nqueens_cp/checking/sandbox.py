"""The model's process, and the one way to talk to it (:class:`Sandbox`): see :mod:`.isolate`.

Started in a session of its own, in a fresh scratch folder (its working
directory, ``HOME`` and ``TMPDIR``), with a clean environment, stdin from
/dev/null and its stdout and stderr in a file; it answers on a pipe of its
own, one JSON object a line, read here as untrusted input.  Ended with every
process it started: its session, and any still carrying its environment's
marker (one that left the session); by the watchdog if the checker itself
is killed outright.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from ..errors import EngineUnavailableError, InvalidInputError, TimeLimitReached
from .forms import ModelError
from .zygote import zygote

DEFAULT_MEMORY = 2 << 30  # the model's memory unless told: 2 GiB protects a class's machine
THREAD_ROOM = 256 << 20  # address space beyond --memory for the solver's threads' stacks (8 MiB each)
FILE_SIZE = 256 << 20  # the largest file the model may write (its captured output too)
OUTPUT_KEPT = 4096  # bytes of the model's output kept from its start, and as many from its end
GRACE = 1.0  # seconds past the deadline for the model's tool to stop on its own, before it is killed
MAX_LINE = 8 << 20  # the longest answer line read from the model's process
MARKER = "NQUEENS_CP_SANDBOX"


@dataclass(frozen=True)
class Limits:
    """What the model's process may use: ``memory`` in bytes (None: no limit),
    ``network`` (False: cut where the machine allows)."""

    memory: int | None = DEFAULT_MEMORY
    network: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"memory": self.memory, "thread_room": THREAD_ROOM,
                "file_size": FILE_SIZE, "network": self.network}


def parse_size(text: Any) -> int | None:
    """A memory size: bytes as an int, or '2G', '512M', '1.5g', '100000K'; 'none' or 0 for no limit."""
    if text is None:
        return DEFAULT_MEMORY
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise InvalidInputError(f"memory: a size in bytes, or '2G', got {text!r}")
        return text or None
    word = str(text).strip().lower()
    if word in ("none", "0", "unlimited"):
        return None
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    scale = units.get(word[-1:].rstrip("b") or word[-2:-1], 1)
    number = word.rstrip("b").rstrip("kmgt")
    try:
        value = float(number) * scale
    except ValueError:
        raise InvalidInputError(f"memory: a size such as 2G, 512M or 100000K (or 'none'), got {text!r}") from None
    if value < 64 << 20:
        raise InvalidInputError(f"memory: {text!r} is too little for a solver (64M at least), or 'none'")
    return int(value)


def output_of(path: str) -> str:
    """The file's text, its first and last OUTPUT_KEPT bytes where it is longer."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size <= 2 * OUTPUT_KEPT:
                data = handle.read()
            else:
                head = handle.read(OUTPUT_KEPT)
                handle.seek(size - OUTPUT_KEPT)
                data = head + f"\n... ({size - 2 * OUTPUT_KEPT:,} bytes left out) ...\n".encode() + handle.read()
    except OSError:
        return ""
    return data.decode("utf-8", "replace")


class Sandbox:
    """The model's process, and the one way to talk to it.  Use as a context
    manager: leaving it ends the process and all it started, and removes its
    folder."""

    def __init__(self, request: dict[str, Any], limits: Limits, function: Callable[..., Any] | None = None) -> None:
        from .. import scratch, stopping

        self.limits = limits
        self._stack = ExitStack()
        self._buffer = b""
        self._to_child = self._from_child = -1
        self._ended: list[int] = []
        self.returncode: int | None = None
        try:
            self._guard = self._stack.enter_context(stopping.watchdog())
            self.folder = scratch.make("nqueens-model-", before=self._guard.folder)
            self._stack.callback(_remove, self.folder)
            self.output_text: str | None = None  # what it printed, read as it ends (its folder then goes)
            self._stack.callback(self._keep_output)
            work, tmp = os.path.join(self.folder, "work"), os.path.join(self.folder, "tmp")
            os.mkdir(work)
            os.mkdir(tmp)
            self.output_path = os.path.join(self.folder, "output")
            self.marker = f"{MARKER}={os.path.basename(self.folder)}"  # (its name begins with this process's pid)
            self._guard.marker(self.marker)
            env = _environment(work, tmp, self.marker)
            self._start(env, work, function)
            self._stack.callback(self._end)
            self._send({**request, "op": "load", "limits": limits.to_dict()})
        except BaseException:
            self._stack.close()
            raise

    def _start(self, env: dict[str, str], work: str, function: Callable[..., Any] | None) -> None:
        to_child, self._to_child = os.pipe()
        self._from_child, from_child = os.pipe()
        output = os.open(self.output_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            launcher = zygote() if function is None else None
            if launcher is not None:
                try:
                    self._process: Any = launcher.launch({"cwd": work, "env": env}, (to_child, from_child, output))
                except OSError:  # (a zygote that died meanwhile: the interpreter is started as below)
                    launcher = None
            if function is None and launcher is None:
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "nqueens_cp.checking.child", str(to_child), str(from_child)],
                    pass_fds=(to_child, from_child), cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=output,
                    stderr=output, start_new_session=True)
            elif function is not None:
                self._process = _forked(function, to_child, from_child, output, env, work,
                                        (self._to_child, self._from_child))
        finally:
            for fd in (to_child, from_child, output):
                os.close(fd)
        self.pid = self._process.pid
        self._guard.session(self.pid)
        with _live_lock:
            _live.add(self)
        try:  # readable once the process has ended (a process it forked may keep the answers' pipe open)
            self._ended = [os.pidfd_open(self.pid)]
        except (AttributeError, OSError):
            self._ended = []

    # -- talking ------------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message) + "\n").encode()
        try:
            while data:
                data = data[os.write(self._to_child, data):]
        except OSError:  # (EPIPE: the child is gone; what it said, or how it died, is read next)
            pass

    def ask(self, message: dict[str, Any], deadline: float | None) -> dict[str, Any]:
        """Send a request and read the first answer."""
        if deadline is not None:
            message = {**message, "seconds": max(deadline - time.monotonic(), 0.001)}
        self._send(message)
        return self.receive(deadline)

    def receive(self, deadline: float | None) -> dict[str, Any]:
        """The next answer: a JSON object.  An error answer is raised as ours
        (the model's failure, a time limit); the model's process ending
        without an answer is the model's failure, said with how it ended;
        past ``deadline`` (and a grace for its tool to stop on its own) the
        process is killed and TimeLimitReached raised."""
        while b"\n" not in self._buffer:
            if self._from_child < 0:  # (ended already: a time limit, a failure)
                raise ModelError("the model's process has ended", output=self.output())
            wait = None if deadline is None else deadline + GRACE - time.monotonic()
            if wait is not None and wait <= 0:
                self._end()
                raise TimeLimitReached
            ready, _, _ = select.select([self._from_child, *self._ended], [], [], wait)
            if self._from_child in ready:
                chunk = os.read(self._from_child, 1 << 16)
            elif ready:  # the process has ended: what it wrote before is still in the pipe, then nothing
                ready, _, _ = select.select([self._from_child], [], [], 0)
                chunk = os.read(self._from_child, 1 << 16) if ready else b""
            else:
                continue
            if not chunk:  # (a process it forked may hold the pipe open: its end is the child's own)
                raise self._died()
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE and b"\n" not in self._buffer:
                self._end()
                raise ModelError(f"the model's process answered a line of over {MAX_LINE:,} bytes: not an answer "
                                 "the checker asked for", output=self.output())
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self._end()
            raise ModelError("the model's process answered something that is not the checker's protocol "
                             f"({line[:60]!r})", output=self.output())
        if "error" in answer:
            raise self._error(answer["error"])
        return answer

    def _error(self, said: Any) -> Exception:
        if not isinstance(said, dict):
            said = {}
        kind = said.get("kind")
        message = str(said.get("message") or "the model failed")[:2000]
        detail = str(said.get("detail") or "")[:20000]
        if kind == "time":
            return TimeLimitReached(message)
        if kind == "usage":
            return InvalidInputError(message)
        if kind == "unavailable":
            return EngineUnavailableError(message)
        return ModelError(message, detail, memory=kind == "memory", output=self.output())

    def _died(self) -> ModelError:
        """The model's process closed its pipe without an answer: how it ended, in one line."""
        self._end()
        code = self.returncode
        output = self.output()
        if code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else f"signal {-code}"
            memory = any(word in output for word in ("bad_alloc", "MemoryError", "Cannot allocate memory",
                                                     "out of memory"))
            if -code == getattr(signal, "SIGXFSZ", -1):
                return ModelError(f"the model's process wrote a file of over {FILE_SIZE >> 20} MiB and was stopped "
                                  "(SIGXFSZ)", output=output)
            return ModelError(f"the model's process was killed by {name}" + (" (out of memory)" if memory else ""),
                              _tail(output), memory=memory, output=output)
        how = f"exited with code {code}" if code is not None else "closed the checker's pipe"
        return ModelError(f"the model's process {how} before it answered (sys.exit or os._exit in the model?)",
                          _tail(output), output=output)

    def output(self) -> str:
        """What the model printed so far, bounded."""
        return self.output_text if self.output_text is not None else output_of(self.output_path)

    def _keep_output(self) -> None:
        self.output_text = output_of(self.output_path)

    # -- ending -------------------------------------------------------------------------------------

    def _end(self) -> None:
        """The model's process and everything it started, gone; its pipes closed."""
        if not hasattr(self, "_process"):
            return
        if self.returncode is None:
            self.returncode = self._process.poll()
        from .. import processes

        for _ in range(2):  # (a process forking as it is killed: its child is caught by the second pass)
            pids = {self.pid, *processes.in_session(self.pid), *processes.marked(self.marker)}
            if self.returncode is not None:
                pids.discard(self.pid)
            if not pids:
                break
            processes.kill_all(pids)
        if self.returncode is None:
            self.returncode = self._process.wait()
        for fd in (self._to_child, self._from_child, *self._ended):
            try:
                os.close(fd)
            except OSError:
                pass
        self._to_child = self._from_child = -1
        self._ended = []

    def close(self) -> None:
        if self._to_child >= 0:
            self._send({"op": "bye"})
        self._stack.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_live: weakref.WeakSet[Sandbox] = weakref.WeakSet()  # this process's sandboxes still running (end_every_sandbox)
_live_lock = threading.Lock()


def end_every_sandbox() -> None:
    """Kill the model's process of every sandbox this process has running (a
    grade stopped by Ctrl-C: the checks under way in its threads then fail
    at once, and each one's own clean-up ends the rest and removes its
    folder)."""
    from .. import processes

    with _live_lock:
        running = list(_live)
    for sandbox in running:
        if sandbox.returncode is None:
            processes.kill_all([sandbox.pid, *processes.in_session(sandbox.pid)])


def _remove(folder: str) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def _tail(output: str, lines: int = 20) -> str:
    return "\n".join(output.rstrip().splitlines()[-lines:])


def _environment(work: str, tmp: str, marker: str) -> dict[str, str]:
    """The model's environment: a clean one, not a copy of ours."""
    package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    name, _, value = marker.partition("=")
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": work, "TMPDIR": tmp, "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8", "PYTHONPATH": package_root, "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONUNBUFFERED": "1", name: value}
    return env


def _forked(function: Callable[..., Any], to_child: int, from_child: int, output: int, env: dict[str, str],
            work: str, parents: tuple[int, int]) -> Any:
    """A model given as a function (a notebook's, a script's): run in a fork of
    this process, which has it already, under a keeper as the zygote's
    (:func:`.zygote.keep`), made the same model's process
    (:func:`.zygote.become`)."""
    from .zygote import Launched, become, keep

    status_read, status_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the keeper: never returns
        try:
            for fd in (*parents, status_read):
                os.close(fd)
            os.setsid()  # (a terminal's Ctrl-C is the checker's to handle)
            keep(status_write, lambda: become({"cwd": work, "env": env}, to_child, from_child, output, function),
                 (to_child, from_child, output))
        finally:
            os._exit(0)
    os.close(status_write)
    return Launched(status_read, keeper=pid)
