"""A user's model is untrusted code: each hostile model of the grading issue, checked.

Run in the checker's process, one ``os._exit(0)`` made ``check`` exit 0 with
no output, one monkeypatch made every later model "agree", a print landed in
the JSON stream, a loop ignored --time-limit.  Each case here failed so
before the model got a process of its own (nqueens_cp.checking.isolate);
after each, nothing the model started is running and nothing is on disk.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.checking import ModelError

from conftest import CLI, still_running

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open") or not os.path.isdir("/proc"),
                                reason="waits on pidfds and reads Linux's /proc")

WITHIN = 30.0  # seconds for a killed process to be gone, on a busy machine (well under one here)

# A right CP-SAT model, and one without its anti-diagonals (wrong from N = 2 on); HERE is the test's folder.
MODEL = '''
import os
from ortools.sat.python import cp_model

HERE = {here!r}


def build(n, anti=True):
    m = cp_model.CpModel()
    q = [m.NewIntVar(0, n - 1, f"q{{i}}") for i in range(n)]
    m.AddAllDifferent(q)
    m.AddAllDifferent([q[i] + i for i in range(n)])
    if anti:
        m.AddAllDifferent([q[i] - i for i in range(n)])
    return m, q


def note_pid(name):
    with open(os.path.join(HERE, name), "w") as handle:
        handle.write(str(os.getpid()))
'''


def model_file(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(MODEL.format(here=str(tmp_path)) + textwrap.dedent(body))
    return path


def pids_noted(tmp_path: Path) -> list[int]:
    return [int(p.read_text()) for p in tmp_path.glob("*.pid") if p.read_text().strip()]


def gone(pids: list[int], seconds: float = WITHIN) -> list[int]:
    """Of ``pids``, those still running after waiting up to ``seconds`` for each to end."""
    return still_running(pids, seconds)


def run_check(tmp_path: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """``check`` as a real process, its temporary folder one of the test's own (empty again after)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir(exist_ok=True)
    return subprocess.run([*CLI, "check", *argv], capture_output=True, text=True, timeout=timeout, cwd=tmp_path,
                          env={**os.environ, "TMPDIR": str(scratch)})


def nothing_left(tmp_path: Path) -> None:
    assert gone(pids_noted(tmp_path)) == [], "a process the model started is still running"
    scratch = tmp_path / "tmp"
    assert not scratch.exists() or list(scratch.iterdir()) == [], "the model's folder is left on disk"


@pytest.mark.parametrize(("body", "said"), [
    ("def model(n):\n    note_pid('m.pid')\n    os._exit(0)\n", "exited with code 0 before it answered"),
    ("import sys\ndef model(n):\n    sys.exit(0)\n", "raised SystemExit"),
    ("def model(n):\n    raise KeyboardInterrupt\n", "KeyboardInterrupt"),
    ("import signal\ndef model(n):\n    note_pid('m.pid')\n    os.kill(os.getpid(), signal.SIGSEGV)\n",
     "killed by SIGSEGV"),
], ids=["os._exit", "sys.exit", "KeyboardInterrupt", "crash"])
def test_a_model_that_exits_or_crashes_is_the_models_failure_exit_4(tmp_path: Path, body: str, said: str) -> None:
    model_file(tmp_path, "m", body)
    done = run_check(tmp_path, "m.py:model", "4-6")
    assert done.returncode == 4, done.stderr
    assert said in done.stderr and done.stdout == ""
    frames = [line for line in done.stderr.splitlines() if line.lstrip().startswith('File "')]
    assert all(str(tmp_path / "m.py") in line for line in frames), "a traceback shows the model's frames, never ours"
    nothing_left(tmp_path)


def test_a_python_loop_over_check_survives_a_model_that_exits_and_goes_on(tmp_path: Path) -> None:
    model_file(tmp_path, "bad", "def model(n):\n    os._exit(0)\n")
    model_file(tmp_path, "good", "def model(n):\n    return build(n)\n")
    verdicts = []
    for name in ("bad", "good", "bad", "good"):
        try:
            verdicts.append(nq.check(f"{tmp_path}/{name}.py:model", "1-6").ok)
        except ModelError as error:
            verdicts.append(str(error))
    assert verdicts[1] is True and verdicts[3] is True
    assert "exited with code 0" in verdicts[0] and verdicts[0] == verdicts[2]


def test_a_model_that_patches_the_toolkit_changes_no_verdict(tmp_path: Path) -> None:
    """The patches reach the model's own process, never the checker's: a wrong model stays wrong,
    and the next one is judged on its own."""
    model_file(tmp_path, "patcher", """
        import nqueens_cp.checking.run as run
        from nqueens_cp.model.question import Question
        from nqueens_cp.checking import run as again
        run._check_one = lambda *args, **kwargs: (_ for _ in ()).throw(SystemExit(0))
        Question.is_solution = lambda self, board: True
        again.check = lambda *a, **k: None

        def model(n):
            return build(n, anti=False)
        """)
    model_file(tmp_path, "wrong", "def model(n):\n    return build(n, anti=False)\n")
    first = nq.check(f"{tmp_path}/patcher.py:model", "1-6")
    assert not first.ok and first.first_difference.n == 2  # (0 1 at N = 2: the queens share an anti-diagonal)
    assert first.first_difference.extra_count > 0  # (the question's validator, not the patched one)
    later = nq.check(f"{tmp_path}/wrong.py:model", "1-6")
    assert not later.ok and later.first_difference.n == 2
    from nqueens_cp.checking import run
    from nqueens_cp.model.question import question

    assert run.check is nq.check and not question(4).is_solution((0, 1, 2, 3))


def test_what_a_model_prints_never_reaches_the_json_stream(tmp_path: Path) -> None:
    model_file(tmp_path, "chatty", """
        print('{"n": 99, "agrees": true}')

        def model(n):
            print('{"n": 98, "agrees": true}', flush=True)
            import sys
            print("on stderr", file=sys.stderr)
            return build(n)
        """)
    done = run_check(tmp_path, "chatty.py:model", "4-5", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["n"] for line in done.stdout.splitlines()] == [4, 5]
    assert "printed 5 lines (--verbose shows them)" in done.stderr
    shown = run_check(tmp_path, "chatty.py:model", "4", "--verbose")
    assert '  | {"n": 99, "agrees": true}' in shown.stderr and "  | on stderr" in shown.stderr
    report = nq.check(f"{tmp_path}/chatty.py:model", 4)
    assert report.output.splitlines() == ['{"n": 99, "agrees": true}', '{"n": 98, "agrees": true}', "on stderr"]


@pytest.mark.parametrize("body", [
    "while True:\n    pass\n\ndef model(n):\n    return build(n)\n",
    "def model(n):\n    note_pid('m.pid')\n    while True:\n        pass\n",
    "import time\ndef model(n):\n    note_pid('m.pid')\n    time.sleep(3600)\n",
], ids=["loop-at-import", "loop-in-function", "sleep"])
def test_the_time_limit_covers_the_models_own_code(tmp_path: Path, body: str) -> None:
    model_file(tmp_path, "slow", body)
    done = run_check(tmp_path, "slow.py:model", "4", "--time-limit", "2")
    assert done.returncode == 3, done.stderr
    assert "time limit of 2 s came" in done.stderr
    nothing_left(tmp_path)


def test_the_time_limit_covers_a_generator_that_hangs(tmp_path: Path) -> None:
    (tmp_path / "gen.py").write_text("import os, sys, time\n"
                                     f"open(os.path.join({str(tmp_path)!r}, 'g.pid'), 'w').write(str(os.getpid()))\n"
                                     "time.sleep(3600)\n")
    done = run_check(tmp_path, "--generator", f"{sys.executable} gen.py {{n}}", "4", "--time-limit", "2")
    assert done.returncode == 3, done.stderr
    nothing_left(tmp_path)


def test_a_model_that_fills_memory_fails_within_its_limit(tmp_path: Path) -> None:
    model_file(tmp_path, "hog", "def model(n):\n    hoard = bytearray(8 << 30)\n    return build(n)\n")
    done = run_check(tmp_path, "hog.py:model", "4", "--memory", "512M")
    assert done.returncode == 4, done.stderr
    assert "out of memory" in done.stderr
    nothing_left(tmp_path)


def test_what_a_model_forks_is_ended_with_it_even_outside_its_session(tmp_path: Path) -> None:
    model_file(tmp_path, "forks", """
        import time
        for name in ("plain", "escaped"):
            noted, done = os.pipe()
            if os.fork() == 0:
                if name == "escaped":
                    os.setsid()  # (out of the model's session: its keeper, a subreaper, still has it)
                note_pid(name + '.pid')
                os.close(done)
                time.sleep(3600)
            os.close(done)
            os.read(noted, 1)  # (its end: the pid is written)

        def model(n):
            return build(n)
        """)
    reader_ready = tmp_path / "escaped.pid"
    done = run_check(tmp_path, "forks.py:model", "4-6")
    assert done.returncode == 0, done.stderr
    assert reader_ready.exists() and (tmp_path / "plain.pid").exists()
    nothing_left(tmp_path)


def test_a_model_changes_neither_our_folder_nor_our_environment(tmp_path: Path) -> None:
    model_file(tmp_path, "mover", """
        os.chdir("/")
        os.environ["PATH"] = "/nowhere"

        def model(n):
            return build(n)
        """)
    cwd, path = os.getcwd(), os.environ.get("PATH")
    assert nq.check(f"{tmp_path}/mover.py:model", "1-6").ok
    assert os.getcwd() == cwd and os.environ.get("PATH") == path
    model_file(tmp_path, "next", "import shutil\nassert shutil.which('sh'), 'no PATH'\n\n"
                                 "def model(n):\n    assert os.getcwd() != '/'\n    return build(n)\n")
    assert nq.check(f"{tmp_path}/next.py:model", "1-6").ok


def test_the_model_has_no_network_unless_asked(tmp_path: Path) -> None:
    """A model that connects to a port on 127.0.0.1 is right only when it cannot."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        port = server.getsockname()[1]
        model_file(tmp_path, "net", f"""
            import socket

            def model(n):
                try:
                    socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
                except OSError:
                    return build(n)
                return build(n, anti=False)
            """)
        cut = nq.check(f"{tmp_path}/net.py:model", "4-5")
        if cut.notes and "cut its network" in cut.notes[0]:
            pytest.skip(cut.notes[0])
        assert cut.ok
        assert not nq.check(f"{tmp_path}/net.py:model", "4-5", network=True).ok


def test_a_function_from_python_runs_isolated_too(tmp_path: Path) -> None:
    from ortools.sat.python import cp_model

    def right(n):
        m = cp_model.CpModel()
        q = [m.NewIntVar(0, n - 1, f"q{i}") for i in range(n)]
        m.AddAllDifferent(q)
        m.AddAllDifferent([q[i] + i for i in range(n)])
        m.AddAllDifferent([q[i] - i for i in range(n)])
        print("built", n)
        return m, q

    def leaves(n):
        os._exit(0)

    report = nq.check(right, "1-8")
    assert report.ok and [row.boards for row in report.rows] == [1, 0, 0, 2, 10, 4, 40, 92]
    assert report.output.split() == [word for n in range(1, 9) for word in ("built", str(n))]
    with pytest.raises(ModelError, match="exited with code 0"):
        nq.check(leaves, 4)
    assert nq.check(right, 6, isolate=False).ok


def test_the_checker_killed_outright_leaves_no_generator_running_and_no_folder(tmp_path: Path) -> None:
    """SIGKILL to check alone, while the model's generator runs: its watchdog ends the
    sandbox's processes and removes its folder."""
    fifo = tmp_path / "started"
    os.mkfifo(fifo)
    (tmp_path / "gen.py").write_text(f"import os, time\nwith open({str(fifo)!r}, 'w') as f:\n"
                                     "    f.write(str(os.getpid()))\ntime.sleep(3600)\n")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    checker = subprocess.Popen([*CLI, "check", "--generator", f"{sys.executable} gen.py {{n}}", "4"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
                               env={**os.environ, "TMPDIR": str(scratch)})
    try:
        with open(fifo) as started:  # (opens once the generator runs and opens it to write)
            generator = int(started.read())
        assert list(scratch.iterdir()), "the sandbox works in a folder of its own"
        checker.send_signal(signal.SIGKILL)
        checker.communicate()
    finally:
        if checker.poll() is None:
            checker.kill()
            checker.communicate()
    assert gone([generator]) == []
    deadline = time.monotonic() + WITHIN  # (the watchdog removes the folder just after the kill)
    while list(scratch.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(scratch.iterdir()) == []


def test_ctrl_c_of_the_checker_is_130_and_ends_the_model(tmp_path: Path) -> None:
    fifo = tmp_path / "started"
    os.mkfifo(fifo)
    model_file(tmp_path, "waits", f"""
        import time

        def model(n):
            note_pid('m.pid')
            with open({str(fifo)!r}, 'w') as f:
                f.write('go')
            time.sleep(3600)
        """)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    checker = subprocess.Popen([*CLI, "check", "waits.py:model", "4"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env={**os.environ, "TMPDIR": str(scratch)})
    try:
        with open(fifo) as started:
            assert started.read() == "go"
        checker.send_signal(signal.SIGINT)
        _, err = checker.communicate(timeout=60)
    finally:
        if checker.poll() is None:
            checker.kill()
            checker.communicate()
    assert checker.returncode == 130, err
    assert err.strip().splitlines()[-1] == "nqueens-cp: interrupted"
    nothing_left(tmp_path)


def test_the_checker_killed_outright_ends_what_the_model_forked_out_of_its_session(tmp_path: Path) -> None:
    """A process the model forked and moved to a session of its own, with nothing exec'd that
    would carry the sandbox's marker: its keeper, a subreaper, ends it when the checker dies."""
    fifo = tmp_path / "started"
    os.mkfifo(fifo)
    model_file(tmp_path, "escapes", f"""
        import time
        noted, done = os.pipe()
        if os.fork() == 0:
            os.setsid()
            note_pid('escaped.pid')
            os.close(done)
            time.sleep(3600)
        os.close(done)
        os.read(noted, 1)  # (its end: the pid is written)

        def model(n):
            with open({str(fifo)!r}, 'w') as f:
                f.write('go')
            time.sleep(3600)
        """)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    checker = subprocess.Popen([*CLI, "check", "escapes.py:model", "4"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, cwd=tmp_path, env={**os.environ, "TMPDIR": str(scratch)})
    try:
        with open(fifo) as started:
            assert started.read() == "go"
        escaped = int((tmp_path / "escaped.pid").read_text())
        checker.kill()
        checker.wait()
    finally:
        if checker.poll() is None:
            checker.kill()
            checker.wait()
    assert gone([escaped]) == []


def test_the_memory_limit_counts_from_what_the_models_process_has_mapped_as_it_starts() -> None:
    """A limit set as if the process were empty left a forked model no room at all where the process it is
    forked from maps much already (a solver's thread pool on many cores): every model failed, right or wrong.
    Here this process maps 3 GiB more (reserved, never touched) before a function's model is forked."""
    import mmap

    from ortools.sat.python import cp_model

    def right(n):
        m = cp_model.CpModel()
        q = [m.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
        m.add_all_different(q)
        m.add_all_different([q[i] + i for i in range(n)])
        m.add_all_different([q[i] - i for i in range(n)])
        return m, q

    def hoards(n):
        bytearray(1 << 30)
        return right(n)

    reserved = mmap.mmap(-1, 3 << 30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0))
    try:
        assert nq.check(right, "1-6", memory="512M").ok
        with pytest.raises(ModelError, match="out of memory"):  # (the limit still holds what the model adds)
            nq.check(hoards, 4, memory="512M")
    finally:
        reserved.close()
