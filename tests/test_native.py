"""engines/native.py, the one way an engine runs a solver written in C: the
solver on a thread of its own, its boards streamed, stopped when the
consumer stops, its errors raised on the caller's thread."""

from __future__ import annotations

import functools
import threading
import time

import pytest

from nqueens_cp.engines import native
from nqueens_cp.errors import NQueensError


class FakeSolver:
    """A solver that reports boards from its own thread until it is asked to stop."""

    def __init__(self, boards: int, deaf: bool = False) -> None:
        self.boards, self.deaf = boards, deaf
        self.stop_asked = threading.Event()
        self.release = threading.Event()  # (what alone ends a deaf one: the test's clean-up)
        self.thread: threading.Thread | None = None

    def solve(self, handover) -> str:
        self.thread = threading.current_thread()
        for k in range(self.boards):
            if self.stop_asked.is_set() and not self.deaf:
                return "stopped"
            handover.add((k,))
        handover.flush()
        if self.deaf:  # (a solver that will not stop when asked)
            self.release.wait()
        return "done"

    def stop(self) -> None:
        self.stop_asked.set()


def test_every_board_comes_through_and_the_run_says_what_the_solver_returned() -> None:
    solver = FakeSolver(1000)
    stream = native.stream(solver.solve, solver.stop, "fake")
    boards = []
    try:
        while True:
            boards.append(next(stream))
    except StopIteration as end:
        run = end.value
    assert boards == [(k,) for k in range(1000)] and run.result == "done" and run.handover.found == 1000
    assert solver.thread is not None and solver.thread is not threading.current_thread()


def test_a_consumer_that_stops_stops_the_solver_and_its_thread() -> None:
    solver = FakeSolver(10**7)
    stream = native.stream(solver.solve, solver.stop, "fake")
    assert [next(stream) for _ in range(5)] == [(k,) for k in range(5)]
    stream.close()
    assert solver.stop_asked.is_set() and solver.thread is not None and not solver.thread.is_alive()


def test_what_the_solver_raises_is_raised_here_naming_it() -> None:
    def broken(handover):
        handover.add((0,))
        raise RuntimeError("out of licences")

    with pytest.raises(NQueensError, match="fake failed: out of licences"):
        list(native.stream(broken, lambda: None, "fake"))


def test_a_deadline_ends_the_stream_and_a_solver_that_will_not_stop_is_left_after_patience(monkeypatch) -> None:
    monkeypatch.setattr(native, "PATIENCE", 0.3)
    solver = FakeSolver(3, deaf=True)
    stream = native.stream(solver.solve, solver.stop, "fake", deadline=time.monotonic() + 0.2)
    try:
        boards = []
        while True:
            boards.append(next(stream))
    except StopIteration as end:
        run = end.value
    try:
        assert boards == [(0,), (1,), (2,)] and run.handover.timed_out and solver.stop_asked.is_set()
        assert solver.thread is not None and solver.thread.is_alive()  # left to end on its daemon thread
    finally:
        solver.release.set()
        if solver.thread is not None:
            solver.thread.join()


def test_one_call_is_stopped_past_its_deadline_and_returns_what_it_has() -> None:
    stop = threading.Event()

    def solve() -> str:
        stop.wait()
        return "stopped with the best found"

    assert native.call(solve, stop.set, "fake", deadline=time.monotonic() + 0.1, grace=0.0) == \
        "stopped with the best found"


def test_a_ctrl_c_while_the_solver_thread_starts_stops_the_solver(monkeypatch) -> None:
    """A Ctrl-C that landed while Thread.start() waited for the new thread raised there, before
    the stream's try: the solver ran on unstopped, CP-SAT's statistics then raised 'solve() has not
    been called' in place of the KeyboardInterrupt, and at exit its running threads aborted the
    process ('terminate called without an active exception', once in CI)."""
    started = threading.Thread.start

    def start_then_ctrl_c(thread: threading.Thread) -> None:
        started(thread)
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", start_then_ctrl_c)
    for kind in ("stream", "call"):
        solver = FakeSolver(10**8)
        with pytest.raises(KeyboardInterrupt):
            if kind == "stream":
                next(native.stream(solver.solve, solver.stop, "fake"))
            else:
                native.call(functools.partial(solver.solve, Nowhere()), solver.stop, "fake")
        assert solver.stop_asked.is_set() and solver.thread is not None and not solver.thread.is_alive(), kind


class Nowhere:
    """Where a call's boards go (a call has no handover: no one reads them)."""

    def add(self, board) -> None:
        pass

    def flush(self) -> None:
        pass
