"""The CLI as a real process: pipes that close early, Ctrl-C, the console entry."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import pytest

from conftest import CLI, STACKS, run_process, stacks_of_a_stuck_process, usable
from nqueens_cp import DEFAULT_ENGINE, engine_class, is_solution, names

# The command line's own behaviour (a closed pipe, Ctrl-C, the first boards at once) runs one path for every
# engine that searches in Python; what differs is the engine's stream, held in-process for every engine by
# tests/test_engines.py (test_streams_first_solution_of_a_board_too_big_to_enumerate, through the plan the
# command line runs).  As processes: every engine with a solver or a compiled search of its own, and the first
# of the tutorial backtrackers for the six (their rows were a third of this file's time).
_ENUMERATING = names(enumerates=True)
PROCESS_ENGINES = [name for name in _ENUMERATING if engine_class(name).group != "classic"] + \
    [name for name in _ENUMERATING if engine_class(name).group == "classic"][:1]


@pytest.mark.parametrize("engine", PROCESS_ENGINES)
def test_head_closing_the_pipe_is_quiet(engine: str) -> None:
    usable(engine)
    shell = f"{' '.join(CLI)} enumerate 11 --engine {engine} | head -1"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, timeout=120)
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == 1 and result.stdout.startswith("Solution 1:")
    assert result.returncode in (0, 141)  # 141 = 128 + SIGPIPE, as for a C tool


@pytest.mark.parametrize("engine, jobs", [*((name, "2") for name in PROCESS_ENGINES),
                                         (DEFAULT_ENGINE, "1"), (PROCESS_ENGINES[-1], "1")])
def test_ctrl_c_exits_130_with_output_intact(engine: str, jobs: str) -> None:
    """Every engine on the pool (--jobs 2: its sub-problems in worker processes); one job, the parent alone,
    is the same path whichever engine searches: the default and a Python backtracker."""
    usable(engine)
    # N=13 is split into sub-problems (in worker processes with --jobs 2): the
    # first arrives in about a second, the whole run would take much longer.
    n = 13
    proc = subprocess.Popen(
        [*CLI, "enumerate", str(n), "--engine", engine, "--format", "line", "--jobs", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,  # unbuffered: readline takes one line, no more
        **STACKS,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the search is under way
    proc.send_signal(signal.SIGINT)
    rest, err_bytes = _ended(proc)  # workers must not outlive the parent
    output, err = (first + rest).decode(), err_bytes.decode()
    assert proc.returncode == 130, f"exit {proc.returncode}, stderr:\n{err}"
    assert err.strip().endswith("interrupted") and "Traceback" not in err, err
    lines = output.splitlines()
    assert output.endswith("\n"), "no half-written line"
    assert all(is_solution(tuple(map(int, line.split())), n) for line in lines)


def _ended(proc: subprocess.Popen) -> tuple[bytes, bytes]:
    """Its output once it has ended, within a minute of the Ctrl-C; else the failure says where
    it and its workers were stuck (once, under load, the backtrack row on two jobs neither
    ended nor said "interrupted" in 60 s; not seen again in the runs since)."""
    try:
        return proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("still running 60 s after Ctrl-C; each thread of it and its workers:\n"
                    + stacks_of_a_stuck_process(proc))


def test_a_stuck_process_tells_where_it_and_its_children_are() -> None:
    """What _ended says when a run does not end: the stacks of the process and of its child."""
    script = ("import subprocess, sys, time\n"
              "child = subprocess.Popen([sys.executable, '-c', 'import time\\nprint(flush=True)\\ntime.sleep(600)'], "
              "stdout=subprocess.PIPE); child.stdout.readline()\n"
              "print('up', flush=True)\n"
              "time.sleep(600)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, **STACKS)
    assert proc.stdout is not None and proc.stdout.readline() == b"up\n"  # (both are running)
    said = stacks_of_a_stuck_process(proc)
    assert proc.returncode == -signal.SIGABRT
    # each one's stack, at its line of <string> (its sleep, or the print just before it as it returns)
    assert said.count("Fatal Python error: Aborted") == 2 and said.count("Current thread") == 2
    assert said.count('File "<string>", line') == 2, said


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_crosscheck_cleanly(jobs: str) -> None:
    # All engines share one pool; stopping it mid-stream once made
    # Python 3.11's pool thread raise (futures cancelled twice).  The row of
    # N=9 says the search is under way; N=13 then takes half a minute.
    proc = subprocess.Popen([*CLI, "crosscheck", "9", "13", "--jobs", jobs], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0, **STACKS)
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(3)]  # two header lines, then the row of N=9
    assert lines[2].split()[0] == b"9"
    proc.send_signal(signal.SIGINT)
    rest, err_bytes = _ended(proc)
    err = err_bytes.decode()
    assert proc.returncode == 130
    assert err.strip().endswith("interrupted") and "Traceback" not in err and "Exception" not in err
    assert b"13 " not in rest, "N=13 was interrupted, not finished"


def test_module_entry_point_runs() -> None:
    result = subprocess.run([*CLI, "count", "6"], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, "4\n", "")


def test_bad_input_never_prints_a_traceback() -> None:
    for argv in (["enumerate", "0"], ["enumerate", "x"], ["count", "8", "--engine", "nope"], ["crosscheck", "9-2"]):
        result = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and result.stdout == ""
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.skipif(os.name != "posix", reason="uses POSIX signals")
def test_console_script_is_installed() -> None:
    from shutil import which

    script = which("nqueens-cp", path=os.path.dirname(sys.executable))
    if script is None:
        pytest.skip("package not installed with its console script (run the README's install)")
    result = subprocess.run([script, "count", "8"], capture_output=True, text=True, timeout=60)
    assert result.stdout == "92\n"


FAILED_WRITES = [
    ("count 8 > /dev/full", "No space left on device"),
    ("enumerate 8 -f json > /dev/full", "No space left on device"),
    ("enumerate 8 > /dev/full", "No space left on device"),
    ("engines --format json > /dev/full", "No space left on device"),
    ("--help > /dev/full", "No space left on device"),
    ("enumerate 8 -f line >&-", "stdout is closed"),
    ("count 8 >&-", "stdout is closed"),
]


@pytest.mark.parametrize("redirect, reason", FAILED_WRITES, ids=[r for r, _ in FAILED_WRITES])
def test_a_failed_write_to_stdout_is_one_line_and_exit_1(redirect: str, reason: str) -> None:
    command, _, target = redirect.partition(" >")
    shell = f"{' '.join(CLI)} {command} >{target}"
    result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and reason in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command, expected, code", [
    ("count 8", "92\n", 0),
    ("enumerate 6 -f line", "1 3 5 0 2 4\n2 5 1 4 0 3\n3 0 4 1 5 2\n4 2 0 5 3 1\n", 0),
    ("count 8 --time-limit x", "", 2),
])
def test_with_stderr_closed_the_data_and_exit_code_are_unchanged(command: str, expected: str, code: int) -> None:
    """(The summary and notes go nowhere; before, they went into the data on stdout.)"""
    result = subprocess.run(["bash", "-c", f"{' '.join(CLI)} {command} 2>&-"], capture_output=True, text=True,
                            timeout=60)
    assert (result.returncode, result.stdout) == (code, expected)


@pytest.mark.parametrize("engine, fmt", [*((name, "line") for name in PROCESS_ENGINES), (DEFAULT_ENGINE, "json")])
def test_the_first_solutions_of_a_big_board_come_at_once(engine: str, fmt: str) -> None:
    """The format is the command line's (one engine writes JSON); the stream is each engine's."""
    usable(engine)
    # 20-queens has 39 billion solutions (17-queens, for the slow tutorial engines, 96 million): only a
    # streaming search prints one and lets head close the pipe (the timeout is a hang guard, not a speed test).
    n = 20 if engine_class(engine).first_solution_max_n >= 30 else 17
    shell = f"{' '.join(CLI)} enumerate {n} -e {engine} -f {fmt} | head -1"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, timeout=120)
    line = result.stdout.strip()
    solution = tuple(map(int, line.split())) if fmt == "line" else tuple(__import__("json").loads(line)["solution"])
    assert is_solution(solution, n)
    assert "Traceback" not in result.stderr


def test_enumerate_17_unique_and_count_17_unique_do_not_crash() -> None:
    result = subprocess.run(["bash", "-o", "pipefail", "-c", f"{' '.join(CLI)} enumerate 17 --unique -f line | head -2"],
                            capture_output=True, text=True, timeout=120)
    lines = result.stdout.splitlines()
    from nqueens_cp.model.symmetry import is_canonical

    assert len(lines) == 2 and all(is_canonical(tuple(map(int, line.split()))) for line in lines)
    assert "Traceback" not in result.stderr
    for n, method in ((17, "walk"), (19, "quarters")):  # (both take longer than a second)
        result = run_process("count", str(n), "--unique", "--method", method, "--time-limit", "1")
        assert result.returncode == 3 and result.stdout == "" and "unknown" in result.stderr


def test_hopeless_runs_say_so() -> None:
    result = run_process("count", "24", "--time-limit", "1", "--method", "walk")  # (quarters: tables of 5 GB)
    assert "note: N=24 has 2.3e+14 solutions" in result.stderr and "days to count them" in result.stderr
    assert result.returncode == 3
    assert "unknown: the time limit of 1 s came before the count was complete" in result.stderr
    result = run_process("enumerate", "64", "-k", "1", "-f", "line", "--time-limit", "1")
    assert "'solve 64 --engine bitmask' gives a board now" in result.stderr
    # the limit came before the board asked for: unknown, exit 3 (it was 0, "0 solutions")
    assert result.returncode == 3 and result.stdout == "" and "stopped at --time-limit 1 s" in result.stderr


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on the workers' exit through Linux pidfds")
def test_workers_do_not_outlive_a_killed_parent() -> None:
    """The compiled search cannot be interrupted; a parent killed outright
    must not leave workers counting for hours.  Every wait here is on the
    event itself: progress on a terminal (a task is done, so the workers
    run), then each worker's exit (a pidfd becomes readable)."""
    import pty
    import select

    master, terminal = pty.openpty()
    proc = subprocess.Popen([*CLI, "count", "19", "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=terminal)
    os.close(terminal)
    try:
        seen = b""
        while not re.search(rb"count 19: [1-9]\d*/", seen):  # (0/N comes before the workers start)
            ready, _, _ = select.select([master], [], [], 120)
            assert ready, f"no progress within 120 s: {seen!r}"
            seen += os.read(master, 4096)
        with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as children:
            workers = [int(pid) for pid in children.read().split()]
        assert len(workers) == 2
        exits = {os.pidfd_open(pid) for pid in workers}
        proc.kill()
        proc.wait(timeout=30)
        while exits:
            ready, _, _ = select.select(list(exits), [], [], 30)
            assert ready, "a worker outlived its parent by 30 s"
            exits -= set(ready)
            for fd in ready:
                os.close(fd)
    finally:
        proc.kill()
        os.close(master)
