"""Output discipline for the command line: whole writes that Ctrl-C cannot
cut, progress on a terminal only, and a failed stdout (a full disk, a closed
descriptor, a reader gone) reported in one line instead of a traceback."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from ..errors import EngineUnavailableError, InvalidInputError, NQueensError, TimeLimitReached

EXIT_OK = 0
EXIT_FAILURE = 1  # a check failed, a file is bad or unwritable, a solver failed; solve: proven none
EXIT_USAGE = 2  # the command line is wrong
EXIT_UNKNOWN = 3  # solve, count: the time limit came before an answer
EXIT_MODEL = 4  # check: the user's model failed (it does not load, raised, exited, crashed, ran out of memory)
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
EXIT_TERMINATED = 143  # SIGTERM (128 + SIGTERM)
EXIT_HUNG_UP = 129  # SIGHUP (128 + SIGHUP): the terminal closed
EXIT_BROKEN_PIPE = 141  # the reader went away (128 + SIGPIPE), as for a C tool

BOARD_MAX_N = 64  # wider boards are unreadable; use --format line or json


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Terminated(BaseException):
    """SIGTERM or SIGHUP (the terminal closed), raised where the program is,
    so that clean-ups run (a temporary file or folder removed, a solver's
    process ended) before it exits 143 or 129."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


AGAIN = 1.0  # seconds after a stop's signal within which another is part of the same stop


class _Stop:
    """When the command's stop began: the last signal that raised, or None."""

    began: float | None = None


def _raising() -> bool:
    """Whether a signal that came now is to raise: not where one raised less than AGAIN seconds
    ago.  Its exception is then on its way out through the clean-ups, and a second, raised inside
    one, cut it short: SIGHUP and Ctrl-C together (a closing terminal, Ctrl-C pressed twice) ended
    one `count 18 -j 2` in five in a traceback, "release unlocked lock" from a lock's `with` in
    concurrent.futures.  Later than that it raises again: one that Python lost (an exception in
    a finalizer is printed and dropped) does not leave the command deaf."""
    now = time.monotonic()
    if _Stop.began is not None and now - _Stop.began < AGAIN:
        return False
    _Stop.began = now
    return True


def _terminate(signum: int, frame: object) -> None:
    if _raising():
        raise Terminated(signum)


class CtrlC:
    """Ctrl-C that waits for the current write to finish, so no line comes out cut or twice."""

    writing = False
    pending = False

    @classmethod
    def handler(cls, signum: int, frame: object) -> None:
        if cls.writing:
            cls.pending = True
        elif _raising():
            raise KeyboardInterrupt

    @classmethod
    def write(cls, out: TextIO, text: str) -> None:
        cls.writing = True
        try:
            out.write(text)
        finally:
            cls.writing = False
        if cls.pending:
            cls.pending = False
            if _raising():
                raise KeyboardInterrupt


def solution_text(fmt: str, n: int, index: int, solution: tuple[int, ...]) -> str:
    from ..model.board import render

    if fmt == "board":
        return f"Solution {index}:\n{render(solution)}\n\n"
    if fmt == "line":
        return " ".join(map(str, solution)) + "\n"
    # json.dumps's own output for these integers, written without the json module (start-up)
    return f'{{"n": {n}, "index": {index}, "solution": [{", ".join(map(str, solution))}]}}\n'


STREAM_CHUNK = 1 << 16  # queens a write when a board is streamed


def write_solution(fmt: str, n: int, index: int, solution: Sequence[int]) -> None:
    """One solution to stdout as :func:`solution_text` writes it; a large one
    streamed in pieces of STREAM_CHUNK queens, so that the text of a hundred
    million queens is never held whole."""
    if len(solution) <= STREAM_CHUNK or fmt == "board":
        CtrlC.write(sys.stdout, solution_text(fmt, n, index, tuple(solution)))
        return
    head, tail = ("", "\n") if fmt == "line" else (f'{{"n": {n}, "index": {index}, "solution": [', "]}\n")
    stream_values(head, " " if fmt == "line" else ", ", solution, tail)


def stream_values(head: str, separator: str, values: Sequence[int], tail: str) -> None:
    """``head``, the values joined by ``separator``, then ``tail``, to stdout
    a piece at a time."""
    CtrlC.write(sys.stdout, head)
    for start in range(0, len(values), STREAM_CHUNK):
        CtrlC.write(sys.stdout, (separator if start else "") + separator.join(map(str, values[start:start + STREAM_CHUNK])))
    CtrlC.write(sys.stdout, tail)


def emit(solutions: Iterable[tuple[int, ...]], fmt: str, n: int, flush: bool = False) -> int:
    """Write solutions to stdout, one whole write each (flushed with ``flush``,
    for input that arrives slowly); returns how many."""
    count = 0
    for count, solution in enumerate(solutions, 1):
        CtrlC.write(sys.stdout, solution_text(fmt, n, count, solution))
        if flush:
            sys.stdout.flush()
    return count


def summarize(fmt: str, summary: str) -> None:
    """The board format is for people: its summary ends stdout.  The others are data: stderr."""
    if fmt == "board":
        CtrlC.write(sys.stdout, summary + "\n")
    else:
        sys.stdout.flush()
        say(summary)


def check_board(fmt: str, n: int) -> None:
    if fmt == "board" and n > BOARD_MAX_N:
        raise InvalidInputError(f"boards wider than {BOARD_MAX_N} are unreadable; use --format line or json")


class Progress:
    """Progress on a terminal's stderr: done of all, rate, time left.  Nothing on a pipe."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.start = time.monotonic()
        self.shown = False
        self.origin: tuple[int, float] | None = None  # (done, when) at the first report: the rate's start
        self.share0: float | None = None  # the share of the work done at the first report, where known

    @classmethod
    def make(cls, what: str) -> Progress | None:
        return cls(what) if sys.stderr.isatty() else None

    def __call__(self, done: int, total: int, share: float | None = None) -> None:
        """``done`` of ``total``; the rate and the time left are measured from
        the first report (a count reports what it restored from a checkpoint
        before it starts, which is not speed).  ``share``: the share of the
        work done where the tasks' costs are known (they go out longest
        first), which the time left is said from instead of the tasks."""
        now = time.monotonic()
        if self.origin is None:
            self.origin = (done, now)
            self.share0 = share
        elapsed = now - self.origin[1]
        rate = (done - self.origin[0]) / elapsed if elapsed > 0 else 0.0
        if share is not None and self.share0 is not None and share > self.share0 and done < total:
            left = f", about {elapsed * (1 - share) / (share - self.share0):.0f} s left"
        else:
            left = f", about {(total - done) / rate:.0f} s left" if rate and done < total else ""
        sys.stderr.write(f"\r\033[K{self.what}: {done}/{total} sub-problems, {rate:.1f}/s{left}")
        sys.stderr.flush()
        self.shown = True

    def standing(self, standing: Any) -> None:
        """A search for an optimum (an :class:`~nqueens_cp.engines.optimum.Standing`):
        the bound proved, the best found, the nodes, the time."""
        best = f"{standing.best} found" if standing.best is not None else "none found yet"
        nodes = f", {standing.nodes:,} nodes" if standing.nodes else ""
        self.text(f"{self.what}: at least {standing.bound} proved, {best}{nodes}, "
                  f"{time.monotonic() - self.start:.0f} s")

    def text(self, message: str) -> None:
        sys.stderr.write(f"\r\033[K{message}")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def resuming(path: str, progress: Progress | None, prog: str) -> Callable[..., None]:
    """A count's progress where it keeps a checkpoint at ``path``: the count's first report, made
    before any work (what the file held, every record of it checked), said once as a note where
    the file held some, so that a resumed count says so on a pipe too; every report passed on to
    ``progress`` (a terminal's), if any."""
    first = [True]

    def report(done: int, total: int, share: float | None = None) -> None:
        if first[0]:
            first[0] = False
            if done:
                work = f", about {share:.0%} of the work by their estimated costs" if share is not None else ""
                left = "nothing is left to count" if done == total else f"counting the other {total - done}"
                say(f"{prog}: note: resuming from {path}: {done} of the count's {total} sub-problems are recorded "
                    f"there{work}; {left}")
        if progress:
            progress(done, total, share)

    return report


def solutions_word(count: int, unique: bool = False) -> str:
    return f"{count}{' fundamental' if unique else ''} solution" + ("" if count == 1 else "s")


def finish(code: int, where: str) -> int:
    """Flush stdout now, so that a failed write is reported (one line, exit 1), not lost at exit."""
    if sys.stdout is None:  # started with stdout closed: nothing was written to it
        return code
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE if code == EXIT_OK else code
    except OSError as error:
        silence_stdout()
        reason = "stdout is closed" if error.errno == errno.EBADF else error.strerror or str(error)
        say(f"{where}: cannot write output: {reason}")
        return EXIT_FAILURE
    return code


def silence_stdout() -> None:
    """After stdout has failed, point it at /dev/null so that the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _ours_to_default() -> None:
    """In a child forked from the command: the command's own handlers (which raise into whatever runs) put
    back to the signals' default actions.  A pool's worker sets its own in its initializer, but a stop
    that came before it, while multiprocessing started the worker, raised Terminated there and printed a
    traceback (`count 16 -e cpmpy --time-limit 1`, once, four commands at a time)."""
    for signum in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):
        with contextlib.suppress(ValueError):  # (not the main thread: leave signals alone)
            if signal.getsignal(signum) in (CtrlC.handler, _terminate):
                signal.signal(signum, signal.SIG_DFL)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_ours_to_default)


def _take_signals() -> dict[int, Any]:
    """Ctrl-C, SIGTERM and SIGHUP handled by the command (its clean exits, 130, 143 and 129): each
    signal's handler before, to put back.  One that the command was started with ignored stays
    ignored, as whoever started it asked (POSIX's convention, and Python's own for Ctrl-C): ``nohup``
    ignores SIGHUP, so that a long count outlives its terminal, and a script's ``cmd &`` ignores
    Ctrl-C, so that the one meant for the script's foreground leaves it running (both ended it,
    "hung up" and "interrupted", before 2026-11-29).  Its child processes inherit it ignored.
    Nothing is taken outside the main thread (where Python cannot set a handler)."""
    wanted = [(signal.SIGINT, CtrlC.handler), (signal.SIGTERM, _terminate)]
    if hasattr(signal, "SIGHUP"):
        wanted.append((signal.SIGHUP, _terminate))
    taken: dict[int, Any] = {}
    try:
        for signum, handler in wanted:
            before = signal.getsignal(signum)
            if before is not signal.SIG_IGN:
                signal.signal(signum, handler)
                if before is not None:  # (None: set outside Python, which cannot put it back)
                    taken[signum] = before
    except ValueError:  # not the main thread: leave signals alone
        pass
    return taken


def run_command(handler: Callable[[Any], int], args: Any, where: str) -> int:
    """Run one command and turn everything that can go wrong into one line on
    stderr and its exit code: Ctrl-C, a reader gone, a failed write, a user
    mistake, a time limit, any other failure of ours."""
    taken = _take_signals()
    try:
        return finish(handler(args), where)
    except Terminated as stop:
        silence_stdout()
        hung_up = stop.signum != signal.SIGTERM
        try:
            say(f"{where.split()[0]}: {'hung up' if hung_up else 'terminated'}")
        except OSError:  # (the terminal is gone: nobody to tell)
            pass
        return EXIT_HUNG_UP if hung_up else EXIT_TERMINATED
    except KeyboardInterrupt:
        CtrlC.writing = True  # a second Ctrl-C must not cut the flush short
        finish(EXIT_OK, where)
        say(f"{where.split()[0]}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except MemoryError as error:  # (NumPy's allocation errors are MemoryErrors; so is a worker's, sent back)
        finish(EXIT_OK, where)
        said = str(error).split("\n")[0]
        say(f"{where}: out of memory{': ' + said if said else ''} (a smaller N, fewer --jobs, or more memory)")
        return EXIT_FAILURE
    except ImportError as error:  # a package that cannot load here (under an address-space cap: "failed to map
        finish(EXIT_OK, where)     # segment from shared object"), said in one line, not a traceback
        lines = str(error).strip().splitlines()
        say(f"{where}: cannot load {error.name or 'a package'}" + (f": {lines[0]}" if lines else "")
            + " (too little memory for it? see ulimit -v)")
        return EXIT_FAILURE
    except OSError as error:  # a write to stdout failed: a full disk, a closed descriptor
        silence_stdout()
        say(f"{where}: cannot write output: {error.strerror or error}")
        return EXIT_FAILURE
    except (InvalidInputError, TimeLimitReached, NQueensError) as error:
        finish(EXIT_OK, where)
        usage = isinstance(error, (InvalidInputError, EngineUnavailableError))  # asked for what cannot be
        kind, code = ((" error:", EXIT_USAGE) if usage else
                      (" unknown:", EXIT_UNKNOWN) if isinstance(error, TimeLimitReached) else ("", EXIT_FAILURE))
        said = str(error) or ("the time limit came first" if isinstance(error, TimeLimitReached) else
                              type(error).__name__)  # (never a colon with nothing after it)
        say(f"{where}:{kind} {said}")
        return code
    finally:
        CtrlC.writing = CtrlC.pending = False
        _Stop.began = None
        for signum, previous in taken.items():
            signal.signal(signum, previous)
