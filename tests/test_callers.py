"""What callers pass: NumPy's integers and arrays from a notebook, standard input,
an empty or unwritable certificate path (issue 52's items that are done; each
test failed before its fix)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import nqueens_cp as nq
from conftest import CLI, program, run_process
from nqueens_cp import TOTAL


def test_numpy_arrays_and_integers_are_taken_wherever_an_int_or_a_sequence_is() -> None:
    board = np.array([0, 4, 7, 5, 2, 6, 1, 3])
    assert nq.is_solution(board, 8) and nq.is_solution(board.astype(np.int32), 8)  # was False
    assert nq.model.variants.VARIANTS["toroidal"].is_solution(np.array([0, 2, 4, 1, 3]), 5)
    assert nq.count(8, fixed={np.int64(0): np.int64(0)}) == 4  # was "column np.int64(0) is off the 8x8 board"
    assert nq.count(8, blocked=[(np.int64(0), np.int64(0))]) == 88
    assert nq.count(10, jobs=np.int64(2)) == TOTAL[10]  # was "jobs must be a positive integer"
    assert len(list(nq.solutions(8, limit=np.int64(3)))) == 3
    assert nq.solve(12, "cpsat", seed=np.int64(5)).status is nq.Status.SOLVED
    assert nq.solve(14, jobs=np.int64(2)).status is nq.Status.SOLVED


def test_what_is_not_a_whole_number_is_still_refused() -> None:
    assert not nq.is_solution((0, 4, 7, 5, 2, 6, 1, True), 8)
    assert not nq.is_solution(np.array([0.0, 4, 7, 5, 2, 6, 1, 3]), 8)
    assert not nq.is_solution(np.array([True, False]), 2)
    for keywords in ({"jobs": True}, {"jobs": np.float64(2)}, {"fixed": {0: 1.0}}, {"fixed": {0: np.True_}}):
        with pytest.raises(nq.InvalidInputError):
            nq.count(8, **keywords)


def test_decode_names_standard_input_as_such(tmp_path) -> None:
    picosat = program("picosat", "Debian package 'picosat'")
    cnf = tmp_path / "q6.cnf"
    assert subprocess.run([*CLI, "dimacs", "6", "-o", str(cnf)]).returncode == 0
    answer = subprocess.run([picosat, str(cnf)], capture_output=True, text=True).stdout
    edited = cnf.read_text().replace("c nqueens n=6", "c nqueens n=7")
    for argv, stdin in ((["-", str(tmp_path / "a.out")], edited), ([str(tmp_path / "e.cnf"), "-"], answer)):
        (tmp_path / "a.out").write_text(answer)
        (tmp_path / "e.cnf").write_text(edited)
        run = subprocess.run([*CLI, "decode", *argv], input=stdin, capture_output=True, text=True)
        name = "stdin" if argv[0] == "-" else argv[0]
        assert run.returncode == 1 and run.stderr == f"nqueens-cp decode: {name}: maps 36 cells, a 7x7 board " \
            "has 49\n", run.stderr  # was "None: maps ..."


@pytest.mark.parametrize("command", [["count", "8"], ["enumerate", "6"], ["optimum", "5"]])
def test_an_empty_or_unwritable_certificate_path_is_a_usage_error_before_any_work(command, tmp_path) -> None:
    for path, said in (("", "a certificate goes into a directory named by a path, got ''"),
                       ("/proc/c", "cannot write the certificate /proc/c: ")):
        run = subprocess.run([*CLI, *command, "--certificate", path], capture_output=True, text=True, cwd=tmp_path,
                             timeout=120)
        assert (run.returncode, run.stdout) == (2, ""), (command, path, run.stdout, run.stderr)
        assert run.stderr.count("\n") == 1 and said in run.stderr, run.stderr  # '' printed 92 and exit 0
    assert not list(tmp_path.iterdir())


# --- memory: one line, never a traceback (issue 52) -------------------------------------------

def _capped(bytes_: int):
    """For subprocess's preexec_fn: the child's address space held to ``bytes_`` (prlimit --as)."""
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (bytes_, bytes_))

    return cap


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an address-space limit as Linux keeps it")
@pytest.mark.parametrize(("argv", "said"), [
    # a worker's MemoryError, 60 lines: the quarters' table of N = 25 is 4.9 GB in each process
    (["count", "25", "--memory", "1T"], "more than this machine's"),
    (["count", "25"], "its address-space limit leaves (ulimit -v)"),
    # NumPy's allocation error, 32 lines
    (["solve", "999999999", "-e", "minconflicts", "-f", "summary"], "available here"),
    (["solve", "400000000", "-e", "minconflicts", "-f", "summary", "--time-limit", "20"], "available here"),
    # the range expanded into a list, 47 lines
    (["crosscheck", "1-100000000"], "names 100,000,000 sizes, more than the 1,000,000 one command takes"),
])
def test_what_a_process_may_not_hold_is_refused_before_the_work(argv: list[str], said: str) -> None:
    from nqueens_cp import machine

    if "1T" in argv and (machine.physical_memory() or 0) > 1 << 40:
        pytest.skip("this machine has more than 1 TB")
    done = run_process(*argv, preexec_fn=_capped(4_000_000_000), timeout=60)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_memory_error_anywhere_is_one_line_and_exit_1(capsys) -> None:
    """Where memory runs out anyway (another process took it meanwhile), the
    MemoryError (NumPy's, or a worker's sent back) is one line."""
    from nqueens_cp.cli.terminal import run_command

    def handler(args: object) -> int:
        raise MemoryError("Unable to allocate 2.82 EiB for an array with shape (3256153323631825747,)\nand more")

    assert run_command(handler, None, "nqueens-cp count") == 1
    assert capsys.readouterr().err == ("nqueens-cp count: out of memory: Unable to allocate 2.82 EiB for an array "
                                       "with shape (3256153323631825747,) (a smaller N, fewer --jobs, or more "
                                       "memory)\n")


def test_a_second_signal_within_a_moment_of_the_first_is_part_of_the_same_stop(monkeypatch, capsys) -> None:
    """A closing terminal's SIGHUP and a Ctrl-C right behind it: the second, raised while the first's
    exception went out through the clean-ups, cut them short (a traceback in one `count 18 -j 2` in
    five, test_signals).  Within AGAIN seconds it is not raised; later it is, so that a first one
    Python lost (in a finalizer) does not leave the command deaf."""
    import signal

    from nqueens_cp.cli import terminal

    clock = [1000.0]
    monkeypatch.setattr(terminal.time, "monotonic", lambda: clock[0])

    def stopped(after: float) -> object:
        def handler(args: object) -> int:
            try:
                terminal._terminate(signal.SIGHUP, None)
            finally:  # (the clean-ups of the first stop, where the second signal comes)
                clock[0] += after
                terminal.CtrlC.handler(signal.SIGINT, None)
            return 0
        return handler

    assert run_command_said(stopped(terminal.AGAIN / 2), capsys) == (129, "nqueens-cp: hung up\n")
    assert run_command_said(stopped(terminal.AGAIN), capsys) == (130, "nqueens-cp: interrupted\n")


def run_command_said(handler: object, capsys) -> tuple[int, str]:
    from nqueens_cp.cli.terminal import run_command

    code = run_command(handler, None, "nqueens-cp count")  # type: ignore[arg-type]
    return code, capsys.readouterr().err


def test_a_certificate_stopped_by_its_time_limit_says_so(tmp_path, cli) -> None:
    """It printed exactly 'nqueens-cp count: unknown: ' (nothing after the colon)."""
    code, out, err = cli("count", 14, "--certificate", tmp_path / "D", "--time-limit", "0.1", "-j", "1")
    assert (code, out) == (3, "")
    assert err == ("nqueens-cp: note: a certificate of N=14 puts each of its 365,596 boards through a SAT solver: at "
                   "about 1,000 a second here it would take about 6 minutes; --time-limit 0.1 s will stop it first\n"
                   # (over a minute: said before it starts)
                   "nqueens-cp count: unknown: the time limit of 0.1 s came before the certificate was complete: "
                   "no certificate written\n")
    assert list(tmp_path.iterdir()) == []


# --- a seed makes a run reproducible (issue 52) ------------------------------------------------

@pytest.mark.parametrize("engine", nq.names(option="seed", takes_fixed=True))
def test_the_same_seed_gives_the_same_board_run_to_run(engine: str) -> None:
    """CP-SAT's portfolio gave different boards for solve 30 --place P --seed 5
    (whichever worker finished first): with a seed its solve runs one worker.
    Each run is a process of its own, as a user's two runs are."""
    argv = ["solve", "30", "--place", "0:3,5:9", "--seed", "5", "-e", engine, "-f", "line"]
    runs = [run_process(*argv, timeout=120) for _ in range(3)]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    boards = {run.stdout for run in runs}
    assert len(boards) == 1, boards
    board = tuple(int(c) for c in boards.pop().split())
    assert nq.is_solution(board, 30) and board[0] == 3 and board[5] == 9


# --- long work says so; compare's rows stream (issue 52) -------------------------------------

def test_compare_prints_each_row_as_it_is_measured() -> None:
    """Its 13 rows arrived together, 20 ms apart, after 6 s of work."""
    process = subprocess.Popen([*CLI, "compare", "4", "30", "--engines", "backtrack", "--time-limit", "5"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        header, first = process.stdout.readline(), process.stdout.readline()
        still_measuring = process.poll() is None  # N = 30 runs to its time limit of 5 s
        rest, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert header.split()[:4] == ["n", "engine", "count", "agrees"]
    assert first.split()[:4] == ["4", "backtrack", "2", "yes"] and still_measuring
    assert rest.split()[:2] == ["30", "backtrack"] and "timeout after 5 s" in rest
    assert process.returncode == 0, err


@pytest.mark.parametrize(("argv", "said"), [
    (["compare", "4", "--repeat", "1000000", "--engines", "bitmask"],
     "1,000,000 measurements, each a fresh process of about 0.3 s before its search: about 3.5 days at the least"),
    (["compare", "1-100000", "--engines", ",".join(nq.preset("core")[:2])],
     "200,000 measurements"),
    (["sample", "12", "-k", "100000"], "100,000 boards take about"),
    (["sample", "16"], "the first of N=16 about"),  # (its one draw took 4 to 9 s in silence)
    (["count", "20", "--certificate", "D"], "a certificate of N=20 puts each of its 39,029,188,884 boards through"),
])
def test_long_work_says_so_before_it_starts(argv: list[str], said: str, tmp_path) -> None:
    """Each ran on with no word (minutes to months); the note comes before the
    work, which the time limit (or a closed pipe) then stops."""
    process = subprocess.Popen([*CLI, *argv, *(["--time-limit", "1"] if argv[0] != "sample" else [])],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        note = process.stderr.readline()
    finally:
        process.kill()
        process.communicate()
    assert note.startswith("nqueens-cp: note: ") and said in note, note
