"""Split searches give exactly the sequential sets, in one order whatever the jobs, limit or caller."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator

import pytest

import nqueens_cp as nq
from conftest import affordable, reference, usable
from nqueens_cp import TOTAL, engine_class, is_solution, names
from nqueens_cp.execution import execute, parallel, pools
from nqueens_cp.execution import plan as planning


def test_prefixes_cover_the_first_rows() -> None:
    found = parallel.prefixes(6, {}, 2)
    assert all(len(p) == 2 and w == 1 for p, w in found)
    assert {(p[0], p[1]) for p, _ in found} == {(a, b) for a in range(6) for b in range(6) if abs(a - b) > 1}
    mirrored = parallel.prefixes(7, {}, 1, mirror=True)
    assert mirrored == [({0: 0}, 2), ({0: 1}, 2), ({0: 2}, 2), ({0: 3}, 1)]
    assert parallel.prefixes(6, {1: 3}, 2) == [({0: 0, 1: 3}, 1), ({0: 1, 1: 3}, 1), ({0: 5, 1: 3}, 1)]
    # placements below the prefix rows travel with every prefix
    assert parallel.prefixes(6, {4: 2}, 1) == [({0: c, 4: 2}, 1) for c in range(6)]


@pytest.mark.parametrize("n", range(1, 12))
def test_every_subproblem_split_gives_exactly_the_sequential_set(enumerator, n: int, monkeypatch) -> None:
    affordable(enumerator.name, n)
    monkeypatch.setattr(planning, "SPLIT_MIN_N", 1)
    expected = reference(n)
    found = []
    for prefix, weight in execute.subproblems(planning.plan(n, enumerator)):
        part = list(enumerator.subproblem(n, prefix))
        found += part + ([parallel.mirror_image(s) for s in part] if weight == 2 else [])
    assert len(found) == len(set(found)) == TOTAL[n]
    assert set(found) == expected


_ENUMERATING = names(enumerates=True)
# The order is the pool's (pools.in_order), whichever engine fills it: every engine with a solver or a
# compiled search of its own, with symmetry breaking where it has it, and the first tutorial backtracker for
# the six (four seconds each, a Python search like backtrack's), at N = 11; the default at 12 as well.
ORDERED = [(name, {}) for name in _ENUMERATING if engine_class(name).group != "classic"] + \
    [(name, {}) for name in _ENUMERATING if engine_class(name).group == "classic"][:1] + \
    [(name, {"symmetry_breaking": True}) for name in names(option="symmetry_breaking")]
ORDER_ROWS = [*((name, options, 11) for name, options in ORDERED), (nq.DEFAULT_ENGINE, {}, 12)]


@pytest.mark.parametrize("name, options, n", ORDER_ROWS,
                         ids=[f"{name}{'+sb' if options else ''}-{n}" for name, options, n in ORDER_ROWS])
def test_one_order_whatever_the_jobs_and_limit(name: str, options: dict, n: int) -> None:
    usable(name)
    affordable(name, n, seconds=1.2)
    one = list(nq.solutions(n, name, jobs=1, **options))
    two = list(nq.solutions(n, name, jobs=2, **options))
    assert one == two, "output order must not depend on the number of jobs"
    assert len(two) == TOTAL[n] and all(is_solution(s, n) for s in two)
    first = list(nq.solutions(n, name, jobs=2, limit=7, **options))
    assert first == one[:7], "a limit gives the first solutions of the same order"
    assert nq.count(n, name, jobs=2, **options) == TOTAL[n]


def test_fixed_placements_split() -> None:
    fixed = {0: 3, 5: 1}
    expected = reference(11, tuple(fixed.items()))
    for engine in ("sat", "bitmask"):
        found = list(nq.solutions(11, engine, fixed, jobs=2))
        assert set(found) == set(expected) and len(found) == len(expected)
        assert nq.count(11, engine, fixed, jobs=2) == len(expected)


def test_statistics_are_merged() -> None:
    search = nq.solutions(11, "sat", jobs=2)
    assert search.count() == 2680
    assert search.stats["conflicts"] > 0 and search.stats["subproblems"] > 10 and search.stats["variables"] == 121


def test_a_split_search_is_a_full_search() -> None:
    search = nq.solutions(12, jobs=2)
    assert "split on its first 2 rows, mirror-halved (each mirror image validated), on up to 2 worker processes" \
        in repr(search) and "new" in repr(search)
    head = list(itertools.islice(search, 3))
    search.close()
    assert len(head) == 3 and "closed" in repr(search)
    with pytest.raises(nq.SearchFinishedError):
        list(search)
    with pytest.raises(nq.SearchFinishedError):
        search.count()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_timed_out_count_is_never_passed_off_as_the_count(jobs: int) -> None:
    search = nq.solutions(16, "backtrack", time_limit=0.3, jobs=jobs)
    with pytest.raises(nq.TimeLimitReached, match="before the count was complete"):
        search.count()
    assert search.timed_out
    with pytest.raises(nq.TimeLimitReached):
        nq.count(15, "sat", time_limit=0.3, jobs=jobs)


def test_a_timed_out_enumeration_says_so() -> None:
    search = nq.solutions(14, "cpsat", time_limit=0.5, jobs=2)
    found = list(search)
    assert search.timed_out and len(found) < TOTAL[14]
    assert all(is_solution(s, 14) for s in found)


def test_enumeration_of_large_n_streams_at_once() -> None:
    # N = 17..20 are not split across processes: the first solutions come at once.
    for n in (17, 20):
        with nq.solutions(n) as search:
            first = list(itertools.islice(search, 3))
        assert len(first) == 3 and all(is_solution(s, n) for s in first)


def test_api_takes_every_cli_option() -> None:
    assert nq.count(14, jobs=2) == TOTAL[14]
    assert len(list(nq.solutions(8, time_limit=1))) == 92
    assert nq.count(8, unique=True) == 12
    assert nq.count(12, unique=True, jobs=2) == 1787
    assert nq.count(9, "sat", symmetry_breaking=True, encoding="ladder", solver="minisat22") == 352
    assert nq.solve(8, fixed={0: 0, 1: 2}).status is nq.Status.NONE
    for bad in (dict(no_such_option=1), dict(jobs=0), dict(jobs=1.5), dict(unique="yes"), dict(executor=3),
                dict(solver="minisat22")):
        with pytest.raises(nq.InvalidInputError):
            nq.count(8, **bad)


def test_unique_gives_canonical_solutions_in_the_same_order_as_the_cli(cli) -> None:
    from nqueens_cp.model.symmetry import is_canonical

    found = list(nq.solutions(12, unique=True, jobs=2))
    assert len(found) == 1787 and all(is_canonical(s) for s in found)
    code, out, _ = cli("enumerate", 12, "--unique", "-f", "line")
    assert code == 0 and [tuple(map(int, line.split())) for line in out.splitlines()] == found
    assert list(nq.solutions(12, unique=True, limit=5)) == found[:5]


def test_an_executor_can_be_given() -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        assert nq.count(12, executor=pool) == 14200
        assert len(list(nq.solutions(11, "sat", executor=pool))) == 2680


def test_cli_jobs_do_not_change_the_output(cli) -> None:
    outputs = []
    for jobs in ("1", "2", "3"):
        code, out, _ = cli("enumerate", "11", "--engine", "sat", "--format", "line", "--jobs", jobs)
        assert code == 0
        outputs.append(out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0].splitlines()) == 2680
    for jobs in ("1", "2"):
        assert cli("count", "12", "--engine", "sat", "--jobs", jobs)[1] == "14200\n"


def test_too_many_jobs_are_named(cli) -> None:
    code, out, err = cli("count", "12", "--jobs", "1000")
    assert code == 0 and out == "14200\n"
    assert "jobs=1000 is more than the" in err


def test_jobs_must_be_positive(cli) -> None:
    code, _, err = cli("count", "8", "--jobs", "0")
    assert code == 2 and "argument --jobs/-j: must be a positive integer, got '0'" in err


def test_the_api_is_safe_to_call_from_threads_with_engines_mixed() -> None:
    """Counts and searches from a thread pool, declarative and hand-written
    engines side by side, split (pooled) and whole: each gives its own right
    answer, and nothing deadlocks (workers forked from a process whose other
    threads hold locks used to)."""
    from concurrent.futures import ThreadPoolExecutor

    import nqueens_cp as nq

    asks = [(8, "cpsat"), (11, "cpsat"), (12, "bitmask"), (9, "sat"), (13, "bitmask"), (10, "backtrack")]
    with ThreadPoolExecutor(3) as pool:
        counts = list(pool.map(lambda ask: nq.count(*ask), asks))
        firsts = list(pool.map(lambda n: next(iter(nq.solutions(n, "bitmask", limit=1))), [8, 12, 20]))
    assert counts == [TOTAL[n] for n, _ in asks]
    assert all(is_solution(board, len(board)) for board in firsts)


def test_a_pool_stopped_mid_flight_leaves_no_manager_thread_behind() -> None:
    """After Ctrl-C, shutdown(abort=True) ends the workers and joins the
    pool's manager thread, and CPython's exit hook has nothing left to wake:
    a live one raced that hook ("Exception ignored ... Bad file descriptor")."""
    import concurrent.futures.process as process
    import time
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(2)
    for _ in range(4):
        pool.submit(time.sleep, 60)
    thread = pool._executor_manager_thread  # (made by the first submit)
    pools.shutdown(pool, abort=True)
    assert thread is not None and not thread.is_alive() and thread not in process._threads_wakeups


def _deaf_to_sigterm(ready: int) -> None:
    """A worker that SIGTERM does not end (as one it reaches inside an at-fork hook): it says so, then waits."""
    import os
    import signal
    import time

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.write(ready, b"1")
    time.sleep(120)  # (the work it never finishes: shutdown must not wait for it)


def test_a_worker_that_outlives_its_terminate_is_killed_and_the_pool_closes(monkeypatch) -> None:
    """solve 20 --jobs 2 hung in the suite: a worker SIGTERM reached as it started lived on, and the
    pool's manager thread (then Python's exit) waited for it for good."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    monkeypatch.setattr(pools, "TERMINATE_SECONDS", 0.5)
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    read, write = os.pipe()
    try:
        pid = pool.submit(os.getpid).result()
        pool.submit(_deaf_to_sigterm, write)
        assert os.read(read, 1) == b"1"  # it ignores SIGTERM now
        thread = pool._executor_manager_thread
        pools.shutdown(pool, abort=True)
    finally:
        os.close(read)
        os.close(write)
    assert thread is not None and not thread.is_alive()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def _squared_or(i: int, then: str = "") -> tuple[int, int]:
    """A worker's call for the forked stream: its square, or a failure of the kind asked."""
    import os
    import signal

    if then == "raise":
        raise ValueError(f"call {i} raised")
    if then == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if then == "wait":
        signal.pause()  # (until the stream ends it)
    return i, i * i


def _forked(calls: list[tuple], workers: int = 2, deadline: float | None = None) -> list[tuple[int, tuple]]:
    return list(pools.forked_as_finished(calls, workers, deadline))


def _children() -> set[int]:
    import os

    me = os.getpid()
    with open(f"/proc/{me}/task/{me}/children") as listed:
        return set(map(int, listed.read().split()))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the forked stream runs where workers fork (Linux)")
def test_the_forked_stream_gives_every_call_once_and_leaves_no_worker() -> None:
    """A count on its own pool: each call's result numbered as the call went out, every one once,
    whatever order the workers finish in; the workers are gone when the stream ends."""
    before = _children()
    for workers in (1, 2, 3):
        found = _forked([(_squared_or, i) for i in range(40)], workers)
        assert sorted(found) == [(k, (k, k * k)) for k in range(40)]
        assert _children() == before
    assert _forked([], 2) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the forked stream runs where workers fork (Linux)")
def test_the_forked_stream_raises_a_workers_failure_and_ends_the_others() -> None:
    before = _children()
    with pytest.raises(ValueError, match="call 5 raised"):
        _forked([(_squared_or, i, "raise" if i == 5 else "") for i in range(20)])
    assert _children() == before
    # a worker killed outright (as the out-of-memory killer does): one error that says so, not a hang
    with pytest.raises(nq.WorkerLostError, match=r"died in the middle of its work, and the search stopped \(killed "
                       r"by SIGKILL, as the system's out-of-memory killer does\)"):
        _forked([(_squared_or, i, "die" if i == 3 else "") for i in range(20)])
    assert _children() == before
    # a deadline that comes first: the time limit, and the worker still waiting is ended
    with pytest.raises(nq.TimeLimitReached):
        _forked([(_squared_or, 0, "wait")], 1, deadline=0.0)
    assert _children() == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the forked stream runs where workers fork (Linux)")
def test_a_forked_stream_closed_early_ends_its_workers() -> None:
    before = _children()
    results = pools.forked_as_finished([(_squared_or, 0), (_squared_or, 1, "wait"), (_squared_or, 2, "wait")], 2)
    assert next(results) == (0, (0, 0))  # the other worker waits in its call
    assert len(_children() - before) == 2
    results.close()
    assert _children() == before


def _released_by(gate: int) -> str:
    """A forked worker's call that returns once a byte comes through ``gate``."""
    import os

    os.read(gate, 1)
    return "done"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the forked stream runs where workers fork (Linux)")
def test_a_forked_worker_whose_stream_let_go_ends_quietly(capfd) -> None:
    """The parent lets go of a worker's pipe (a stream closed early, or failed) while the worker's
    call runs: the call ends, its result has nowhere to go, and the worker returns at once, with
    nothing on stderr (a traceback there would reach the user's terminal before its SIGTERM)."""
    import multiprocessing
    import os

    gate, opened = os.pipe()
    worker, here = pools._started(multiprocessing.get_context("fork"), [])  # (as the stream starts each)
    here.send((0, _released_by, (gate,)))
    here.close()  # the stream lets go, the call still running
    os.write(opened, b"x")
    worker.join(60)
    os.close(gate)
    os.close(opened)
    alive = worker.is_alive()
    if alive:
        worker.kill()
        worker.join()
    assert not alive and worker.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err


# In a process of its own: one thread, as a count's own pool needs to fork its workers (a thread an
# earlier test left in the suite's process makes it start them from a fork server instead).
_OWN_POOL = """
import os, signal
import nqueens_cp as nq
from nqueens_cp.execution import pools

made, used, killed = [], [], []
pools.make_executor = lambda *a, **k: made.append(a)
forked = pools.forked_as_finished
pools.forked_as_finished = lambda *a, **k: used.append(a) or forked(*a, **k)
print(nq.count(16, jobs=2), nq.count(12, jobs=2, method="walk"), len(used), len(made))

def children():
    me = os.getpid()
    with open(f"/proc/{me}/task/{me}/children") as listed:
        return set(map(int, listed.read().split()))

def kill_one(done, total):
    if done and not killed:  # the first part is back: the others are under way
        killed.append(min(children()))
        os.kill(killed[0], signal.SIGKILL)

try:
    nq.count(16, jobs=2, progress=kill_one)
except nq.WorkerLostError as error:
    print(error)
print(len(killed), sorted(children()))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the forked stream runs where workers fork (Linux)")
def test_a_count_on_its_own_pool_takes_the_forked_stream_and_a_worker_killed_stops_it(cli, monkeypatch) -> None:
    """The count's own pool is the forked stream (no process pool made), and counts exactly.  A
    process pool's worker killed (by the out-of-memory killer) gave a traceback ("BrokenProcessPool:
    A process in the process pool was terminated abruptly"); now the count stops and says what
    happened, and leaves no worker."""
    import subprocess

    ran = subprocess.run([sys.executable, "-c", _OWN_POOL], capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        f"{TOTAL[16]} {TOTAL[12]} 2 0",
        f"{pools.LOST} (killed by SIGKILL, as the system's out-of-memory killer does)",
        "1 []"]

    # the command line says it in one line, exit 1
    def lost(*args: object, **kwargs: object) -> Iterator[tuple[int, tuple]]:
        raise nq.WorkerLostError(f"{pools.LOST} (killed by SIGKILL)")
        yield  # (a generator, as the stream is)

    monkeypatch.setattr(pools, "stream", lost)
    code, out, err = cli("count", 16, "-j", 2)
    assert (code, out) == (1, "")
    assert err == f"nqueens-cp count: {pools.LOST} (killed by SIGKILL)\n"


def test_the_plan_decides_one_strategy_and_its_label_says_what_runs(cli) -> None:
    """count 20 said 'split on its first 2 rows, mirror-halved, in this process, counted by joining
    quarters' and did none of the first three: the label is the strategy's, decided once."""
    from nqueens_cp.model.variants import COLUMNS, Lines, family

    far = family("far", [COLUMNS, Lines(-1), Lines(1)], [(8, 1)])
    jobs = 2
    cases = [
        (planning.plan(20, counting=True, jobs=jobs), "quarters", f"counted by joining quarters, on up to {jobs} "
         "worker processes"),
        (planning.plan(12, counting=True, jobs=jobs), "classes", "counted by symmetry classes, on up to 2 worker "
         "processes"),
        (planning.plan(12, counting=True, jobs=1), "classes", "counted by symmetry classes, in this process"),
        (planning.plan(12, "cpsat", counting=True, jobs=jobs), "split", "split on its first row, mirror-halved "
         "(each mirror image validated), on up to 2 worker processes"),
        (planning.plan(13, "cpsat", variant="toroidal", counting=True, jobs=jobs), "split", "split on its first 2 "
         "rows, row 0's piece in column 0 only, counted N times (the torus's translations), on up to 2 worker "
         "processes"),
        (planning.plan(12, "cpsat", variant=far, counting=True, jobs=jobs), "split", "split on its first row, on "
         "up to 2 worker processes"),
        (planning.plan(12, jobs=jobs), "split", "split on its first 2 rows, mirror-halved (each mirror image "
         "validated), on up to 2 worker processes"),
        (planning.plan(12, "cpsat", variant=far, unique=True, jobs=1), "split", "split on its first row, in this "
         "process, one per class of its 2 symmetries (identity, rotate180)"),
        (planning.plan(8), "whole", "searched whole by the engine, in this process"),
    ]
    for made, kind, label in cases:
        assert (made.strategy.kind, made.strategy.label) == (kind, label)
    assert nq.solutions(8).label.endswith(": searched whole by the engine, in this process; its count(): counted by "
                                          "symmetry classes, in this process")
    assert nq.solutions(8, "cpsat").label.endswith(": searched whole by the engine, in this process")
    code, out, err = cli("count", 16, "--stats")
    assert code == 0 and out == f"{TOTAL[16]}\n" and "strategy: counted by joining quarters" in err
    assert "strategy=quarters" in err
    from nqueens_cp.execution.run import counted

    assert counted(11, "cpsat", variant=far, jobs=1).strategy == "split on its first row, in this process"  # (one job: here)


def test_a_count_never_builds_a_listing(monkeypatch) -> None:
    """A count runs its own path (execute.count): by quarters, by classes, by sub-problems counted where they run
    and weighted, or the engine's own count; the listing's boards (execute._boards) are never made, and a
    listing's count() runs the count its label names.  Only where a count is of boards (unique by a walk, an
    engine with no count of its own) are they seen, each through the validator."""
    def listed(*args, **kwargs):
        raise AssertionError("a count built a listing")

    monkeypatch.setattr(execute, "_boards", listed)
    assert nq.count(8, "bitmask") == TOTAL[8]  # whole: the engine's own count
    assert nq.count(12, "bitmask", method="walk", jobs=1) == TOTAL[12]  # by classes, in this process
    assert nq.count(16, "bitmask", jobs=1) == TOTAL[16]  # by quarters
    assert nq.count(11, "backtrack", jobs=1) == TOTAL[11]  # split: each part counted where it runs
    assert nq.count(13, "backtrack", variant="toroidal", jobs=1) == nq.VARIANTS["toroidal"].known[13]  # weighted: translations
    listing = nq.solutions(12, "bitmask", jobs=1)
    assert listing.label.endswith("; its count(): counted by symmetry classes, in this process")
    assert listing.count() == TOTAL[12]
    with pytest.raises(AssertionError, match="built a listing"):  # (a listing of at most K is a listing)
        nq.solutions(12, "bitmask", jobs=1, limit=5).count()
    with pytest.raises(AssertionError, match="built a listing"):  # (cpsat has no count of its own: boards)
        nq.count(6, "cpsat")


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_is_told_as_each_sub_problem_ends_listing_and_counting(jobs: int) -> None:
    """A split listing (one job: here, one after the other; two: on the pool) and a split count call
    progress(done, total) once per sub-problem, the last with every one done; a count plan is its own
    plan for counting."""
    told: list[tuple[int, int]] = []
    assert len(list(nq.solutions(11, "backtrack", jobs=jobs, progress=lambda *done: told.append(done)))) == TOTAL[11]
    assert told and told[-1][0] == told[-1][1] and [done for done, _ in told] == list(range(1, len(told) + 1))
    told.clear()
    assert nq.count(11, "backtrack", jobs=jobs, progress=lambda *done: told.append(done)) == TOTAL[11]
    assert told and told[-1][0] == told[-1][1] == len(told)
    counting = planning.plan(11, "backtrack", counting=True)
    assert planning.for_counting(counting) is counting
