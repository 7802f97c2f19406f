"""One fixture for every engine, derived from the engines' own capabilities; reference sets computed once."""

from __future__ import annotations

import multiprocessing.util
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import pytest

from nqueens_cp import engine_class, get_engine, names, scratch
from nqueens_cp.cli.main import main
from nqueens_cp.model.position import Position

CLI = [sys.executable, "-m", "nqueens_cp"]
ROOT = Path(__file__).resolve().parent.parent

# A suite started in the background by a shell (`&`) inherits Ctrl-C ignored, one started by nohup
# SIGHUP ignored (POSIX), and so would every command it starts: the commands keep a signal they were
# started with ignored (as they should: test_signals), and every test that sends them one would fail.
# The suite's processes take both as a terminal's Python does, and the commands they start with them.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if hasattr(signal, "SIGHUP") and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

# Nothing a run leaves behind goes unseen: the suite and every process it starts
# write their temporary files into a folder of the suite's own (pytest's tmp_path
# too), and at the end the folder holds nothing but pytest's, and the working tree
# nothing new (pytest_sessionfinish).
# The suite runs in a process a core (pytest-xdist, pyproject's addopts): each has
# a folder of its own, side by side in the machine's temporary folder (a worker inherits
# the TMPDIR set here by the process that started it, so the first one is passed on).
# A run that fails keeps its folder (pytest's tmp_path, to look into); one killed keeps
# what it had: named for its process (nqueens_cp.scratch), each is removed by the next
# run once its process has ended.
_MACHINE_TMP = os.environ.setdefault("NQUEENS_SUITE_MACHINE_TMP", tempfile.gettempdir())
SUITE_TMP = scratch.make("nqueens-suite-", _MACHINE_TMP)
os.environ["TMPDIR"] = tempfile.tempdir = SUITE_TMP


_FINISHED_CLEAN: list[bool] = []  # the session ended with nothing left behind (pytest_sessionfinish)


def pytest_configure(config: pytest.Config) -> None:
    """The package's bytecode, compiled once before the suite's processes start, as pip compiles
    a regular install's.  An editable install (the README's) leaves that to each first import,
    which PYTHONDONTWRITEBYTECODE (set on the machines this suite runs on, CI's included) turns
    into every import: each of the suite's 1,089 Python processes compiled the modules it
    imported from source again (a process that imports the engines, the checker and compare:
    0.63 s against 0.48 s with the bytecode there).  Two runs from no bytecode, one after the
    other: 811 CPU-seconds without this, 794 with it, within this machine's drift.  compileall
    writes it whatever that variable says; __pycache__ is ignored by git."""
    # The test modules too: pytest keeps each one's assertion-rewritten bytecode beside it unless
    # sys.dont_write_bytecode (that variable) says not to, and then rewrote all 48 in each of the
    # suite's processes and each pytest a test starts: 6.7 s against 2.3 s a collection, read back.
    sys.dont_write_bytecode = False
    if hasattr(config, "workerinput"):
        return  # (a pytest-xdist worker: the process that started it has compiled it)
    import compileall

    compileall.compile_dir(ROOT / "nqueens_cp", quiet=2)


def _remove_suite_tmp() -> None:
    if not os.path.isdir(SUITE_TMP):
        return
    if _FINISHED_CLEAN:  # (pytest's own folder, which its exit may make again after the session has ended)
        for name in os.listdir(SUITE_TMP):
            if name.startswith("pytest-of-"):
                shutil.rmtree(os.path.join(SUITE_TMP, name), ignore_errors=True)
    if not os.listdir(SUITE_TMP):
        os.rmdir(SUITE_TMP)


# Removed at the very end, once empty: after multiprocessing's own exit handler has removed this
# process's folder in it (its finalizer at priority -100; this one runs after it, whichever of the
# two modules was imported first: an atexit handler registered here ran before multiprocessing's
# where a plugin had imported it first, and left the folder behind, empty).
multiprocessing.util.Finalize(None, _remove_suite_tmp, exitpriority=-200)


def _tree_status() -> set[str]:
    """The working tree's untracked files (empty outside a git checkout); changes
    to tracked files are left out: a developer may edit while the suite runs."""
    try:
        found = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
    except OSError:
        return set()
    return {line for line in found.stdout.splitlines() if line.startswith("??")} if found.returncode == 0 else set()


TREE_BEFORE = _tree_status()
SESSION_START = time.time()
# Files the suite never writes: an editor's swap, backup and lock files, and the benchmarks'
# outputs (no test runs a benchmark, and a developer may run one beside the suite).
NOT_OURS = re.compile(r"(^|/)(\.#[^/]*|#[^/]*#|[^/]*~|\.[^/]*\.sw[a-p]|4913)$|^benchmarks/")


def written_by_the_suite(new: Iterable[str], root: Path = ROOT, since: float | None = None) -> list[str]:
    """Of the untracked files that appeared (git status lines '?? path'), those the
    suite could have written: written since it started, and none of NOT_OURS."""
    since = SESSION_START if since is None else since
    found = []
    for line in sorted(new):
        path = line[3:].strip('"')
        try:
            recent = (root / path).stat().st_mtime >= since - 1
        except OSError:
            recent = True  # (gone again: still a sign)
        if recent and not NOT_OURS.search(path):
            found.append(line)
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    import multiprocessing.process

    # (multiprocessing's folder of this process, removed when it exits)
    own = os.path.basename(multiprocessing.process.current_process()._config.get("tempdir") or "")
    left = sorted(name for name in os.listdir(SUITE_TMP) if not name.startswith("pytest-of-") and name != own)
    new = written_by_the_suite(_tree_status() - TREE_BEFORE)
    if left or new:
        print(f"\nleft behind by the suite: in the temporary directory {left}, in the working tree {new}",
              file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        _FINISHED_CLEAN.append(True)
        for name in os.listdir(SUITE_TMP):
            if name != own:
                shutil.rmtree(os.path.join(SUITE_TMP, name), ignore_errors=True)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): three processes for two cores, and so on.  A part of the
    suite's time is spent waiting (a model's time limit, a process's start, a cluster's scheduler, a
    browser): with a process a core the two cores here were busy 166% of the run (386 s), with three
    processes 174% (334 s).  PYTEST_XDIST_AUTO_NUM_WORKERS still says how many, as pytest-xdist's own."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + (cores + 1) // 2


# The tests that take tens of seconds (measured with --durations): they start first, so
# that the processes of the suite (pytest-xdist) end together, not one of them on a long
# test at the end while the other cores wait.
LONG_FIRST = ("tests/test_tour.py::", "tests/test_signals.py::test_every_engine_stops_at",
              "tests/test_limits.py::test_every_engine_keeps_the_time_limit",
              "tests/test_kernel.py::test_the_c_searches_run_clean")


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))  # (a stable sort: the rest keep their order)


def _signal_state() -> tuple[object, ...]:
    """This process's signal handlers and its main thread's blocked set."""
    import signal
    handled = tuple(signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)))
    return handled + (frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, [])),)


@pytest.fixture(autouse=True)
def leaves_signals_as_found():
    """A call into the library (the command line's main included) leaves the
    caller's signal handlers and signal mask as it found them: a notebook's
    Ctrl-C must still interrupt the next cell."""
    before = _signal_state()
    yield
    assert _signal_state() == before, "the test left this process's signal handlers or mask changed"


# --- the soaks -----------------------------------------------------------------------
# A table of every engine against every case costs the suite most where it says least:
# the suite's own run holds each engine to a draw of the cases (each engine its own draw,
# so that between them the engines hold every case) and the whole table waits behind the
# marker `soak` (pyproject's addopts leave it out).  `python benchmarks/soak.py` runs the
# soaks with NQUEENS_SOAK=K: the marked tables, and K times the property tests' draws
# (tests/test_members.py), drawn afresh.
SOAK = int(os.environ.get("NQUEENS_SOAK", "1"))
soak = pytest.mark.soak


def cpu_flags() -> set[str] | None:
    """The CPU's feature flags as Linux's /proc/cpuinfo names them (its first processor's), or None
    where they cannot be read (another system)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    return set(text.split("\n\nprocessor")[0].split())


def drawn(cases: list, budget: int, key: str, keys: list[str]) -> list:
    """About ``budget`` of ``cases`` for ``key``, one of ``keys`` (the engines of a
    table), in their order: the cases dealt round the keys first, so that between
    them the keys hold every case, then the hand filled by a draw seeded by the
    key; every case in a soak."""
    if SOAK > 1 or budget >= len(cases):
        return list(cases)
    hand = set(range(keys.index(key), len(cases), len(keys)))
    rest = [index for index in range(len(cases)) if index not in hand]
    hand |= set(random.Random(key).sample(rest, max(0, budget - len(hand))))
    return [case for index, case in enumerate(cases) if index in hand]


def usable(name: str) -> str:
    """The engine's name, or a skip saying why it is unavailable here."""
    reason = engine_class(name).unavailable_reason()
    if reason:
        pytest.skip(f"engine {name} {reason}")
    return name


@pytest.fixture(params=names(enumerates=True))
def engine_name(request: pytest.FixtureRequest) -> str:
    """Every engine that enumerates (and so counts and cross-checks)."""
    return usable(request.param)


@pytest.fixture
def engine(engine_name: str):
    return get_engine(engine_name)


@pytest.fixture(params=names(solves=True))
def any_engine_name(request: pytest.FixtureRequest) -> str:
    """Every engine that solves, those that only find one solution included."""
    return usable(request.param)


@pytest.fixture(params=[*((name, False) for name in names(enumerates=True)),
                        *((name, True) for name in names(option="symmetry_breaking"))],
                ids=lambda p: p[0] + ("+sb" if p[1] else ""))
def enumerator(request: pytest.FixtureRequest):
    """Every enumerating engine, and those with symmetry breaking with it on."""
    name, sb = request.param
    usable(name)
    return get_engine(name, **({"symmetry_breaking": True} if sb else {}))


def affordable(engine: str, n: int, seconds: float = 0.5) -> None:
    """Skip a test that would enumerate N with a slow engine for longer than
    ``seconds`` (by the engine's own rate); smaller N cover that engine."""
    from nqueens_cp import TOTAL

    rate = engine_class(engine).enumeration_rate
    if rate and TOTAL.get(n, 0) / rate > seconds:
        pytest.skip(f"engine {engine} would take about {TOTAL[n] / rate:.0f} s for N={n}; smaller N cover it")


@lru_cache(maxsize=None)
def reference(n: int, fixed: tuple[tuple[int, int], ...] = ()) -> frozenset[tuple[int, ...]]:
    """The oracle's solution set: the textbook backtracker."""
    return frozenset(get_engine("backtrack").search(n, dict(fixed)))


def honours(board: tuple[int, ...], placed: Position | dict[int, int]) -> bool:
    """The board keeps every pre-placed queen and leaves every blocked square empty."""
    return all(board[r] == c for r, c in placed.items()) \
        and not any((r, c) in getattr(placed, "blocked", ()) for r, c in enumerate(board))


def expected(n: int, placed: Position | None = None) -> frozenset[tuple[int, ...]]:
    """The oracle's boards that honour ``placed``."""
    return frozenset(b for b in reference(n) if not placed or honours(b, placed))


BIN = Path(sys.executable).parent  # where pip put clingo's and z3's programs


def program(name: str, how: str) -> str:
    """The path of an external program, or a skip saying how to install it."""
    found = shutil.which(name) or shutil.which(name, path=str(BIN))
    if found is None:
        pytest.skip(f"{name} is not installed ({how}; .ci/run installs it)")
    return found


def run_program(command: list[object], ok: tuple[int, ...] = (0,)) -> str:
    """An external program's stdout; its exit code must be one of ``ok``."""
    result = subprocess.run([str(word) for word in command], capture_output=True, text=True, timeout=300)
    assert result.returncode in ok, result.stderr[-2000:]
    return result.stdout


def cli_file(cli, path: Path, *argv: object) -> Path:
    """``path``, written by the CLI command ``argv -o path`` (which must succeed)."""
    code, _, err = cli(*argv, "-o", path)
    assert code == 0, err
    return path


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process: (exit code, stdout, stderr)."""

    def run(*argv: object) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def command_line(pid: int) -> bytes:
    """The process's command line as /proc holds it (its arguments, each ended by a NUL), or b"" once it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def process_tree(root: int) -> list[int]:
    """The process and its descendants, now."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                    parents[int(name)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        found += frontier
    return found


def stacks_of_a_stuck_process(process: subprocess.Popen, seconds: float = 10) -> str:
    """Where a process that should have ended is stuck: every thread's traceback of it and of
    its children, for the failure's message.  Started with ``STACKS`` (PYTHONFAULTHANDLER=1),
    each writes them on SIGABRT to its stderr (a pool's workers to the parent's) and dies; the
    children are sent it first, one at a time, each once the one before has ended (sent at once,
    a child's stack and its parent's, written to the same stderr, came interleaved under load).
    What the process wrote to stderr is returned, its last 6,000 characters."""
    for pid in reversed(process_tree(process.pid)):
        try:
            os.kill(pid, signal.SIGABRT)
        except ProcessLookupError:
            continue
        if pid != process.pid:
            still_running([pid], seconds)
    try:
        _, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    text = err.decode(errors="replace") if isinstance(err, bytes) else err or ""
    return text[-6000:]


def _no_core_files() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # (SIGABRT would leave a core file where the core limit allows)


# Popen's arguments for a process that SIGABRT makes show where each of its threads is (and its children's):
# Popen(..., **STACKS).
STACKS = {"env": {**os.environ, "PYTHONFAULTHANDLER": "1"}, "preexec_fn": _no_core_files}


def still_running(pids: list[int], seconds: float) -> list[int]:
    """Of ``pids``, those still running (not zombies) after waiting up to ``seconds`` for each to end."""
    deadline = time.monotonic() + seconds
    left = []
    for pid in pids:
        try:
            handle = os.pidfd_open(pid)
        except OSError:
            continue
        try:
            ready, _, _ = select.select([handle], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                left.append(pid)
        finally:
            os.close(handle)
    return left


def run_process(*argv: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """The CLI as a real process."""
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=timeout, **kwargs)
