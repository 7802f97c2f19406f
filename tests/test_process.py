"""The CLI as a real process: pipes that close early, Ctrl-C, the console entry."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from nqueens_cp import is_solution

CLI = [sys.executable, "-m", "nqueens_cp"]


@pytest.mark.parametrize("engine", ["bitmask", "cpsat", "sat"])
def test_head_closing_the_pipe_is_quiet(engine: str) -> None:
    shell = f"{' '.join(CLI)} enumerate 11 --engine {engine} | head -1"
    result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], capture_output=True, text=True, timeout=120)
    assert result.stderr == ""
    assert len(result.stdout.splitlines()) == 1 and result.stdout.startswith("Solution 1:")
    assert result.returncode in (0, 141)  # 141 = 128 + SIGPIPE, as for a C tool


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("engine", ["bitmask", "cpsat", "sat", "backtrack"])
def test_ctrl_c_exits_130_with_output_intact(engine: str, jobs: str) -> None:
    # N=13 is split into sub-problems (in worker processes with --jobs 2): the
    # first arrives in about a second, the whole run would take much longer.
    n = 13
    proc = subprocess.Popen(
        [*CLI, "enumerate", str(n), "--engine", engine, "--format", "line", "--jobs", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,  # unbuffered: readline takes one line, no more
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the search is under way
    proc.send_signal(signal.SIGINT)
    rest, err_bytes = proc.communicate(timeout=60)  # workers must not outlive the parent
    output, err = (first + rest).decode(), err_bytes.decode()
    assert proc.returncode == 130
    assert err.strip().endswith("interrupted") and "Traceback" not in err
    lines = output.splitlines()
    assert output.endswith("\n"), "no half-written line"
    assert all(is_solution(tuple(map(int, line.split())), n) for line in lines)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_crosscheck_cleanly(jobs: str) -> None:
    # All four engines share one pool; stopping it mid-stream once made
    # Python 3.11's pool thread raise (futures cancelled twice).
    proc = subprocess.Popen([*CLI, "crosscheck", "13", "--jobs", jobs], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(2.5)  # well into the search: the whole run takes about half a minute
    proc.send_signal(signal.SIGINT)
    _, err_bytes = proc.communicate(timeout=60)
    err = err_bytes.decode()
    assert proc.returncode == 130
    assert err.strip().endswith("interrupted") and "Traceback" not in err and "Exception" not in err


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
