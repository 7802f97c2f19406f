"""Counts that survive: checkpoints resumed after a crash, a Dask cluster that loses a worker."""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp import FUNDAMENTAL, TOTAL
from nqueens_cp.errors import NQueensError
from nqueens_cp.execution.cluster import LOCAL_HTTP


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_a_checkpoint_records_every_task_once_and_a_rerun_resumes(tmp_path: Path, cli) -> None:
    path = tmp_path / "c13.jsonl"
    assert nq.count(13, checkpoint=str(path)) == TOTAL[13]
    first = records(path)
    assert sorted(r["task"] for r in first) == list(range(json.loads(path.read_text().splitlines()[0])["tasks"]))
    before = path.read_bytes()
    assert nq.count(13, checkpoint=str(path), unique=True) == FUNDAMENTAL[13]  # all restored, nothing new
    assert path.read_bytes() == before
    tasks = len(first)
    assert cli("count", 13, "--checkpoint", path) == (
        0, f"{TOTAL[13]}\n", f"nqueens-cp: note: resuming from {path}: {tasks} of the count's {tasks} sub-problems "
                             "are recorded there; nothing is left to count\n")


def test_an_interrupted_count_resumes_without_counting_a_task_twice(tmp_path: Path) -> None:
    path = tmp_path / "c14.jsonl"

    def crash(done: int, total: int) -> None:
        if done == 10:
            raise KeyboardInterrupt  # as if Ctrl-C came after ten tasks

    with pytest.raises(KeyboardInterrupt):
        nq.count(14, jobs=1, checkpoint=str(path), progress=crash)
    assert len(records(path)) == 10
    # A crash in the middle of a write leaves half a line: it is not believed.
    with open(path, "a") as handle:
        handle.write('{"task": 10, "values": [99999, 0, 0, 1')
    seen = []
    assert nq.count(14, jobs=2, checkpoint=str(path), progress=lambda done, total: seen.append(done)) == TOTAL[14]
    tasks = [r["task"] for r in records(path)]
    assert len(tasks) == len(set(tasks)) and seen[:2] == [10, 11], "ten restored (said first), the rest counted once"


def test_a_damaged_record_in_the_middle_is_skipped_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "c13.jsonl"
    assert nq.count(13, checkpoint=str(path)) == TOTAL[13]
    header, *lines = path.read_text().splitlines(keepends=True)
    damaged = json.loads(lines[1])["task"]
    path.write_text(header + lines[0] + lines[1].replace('"crc": ', '"crc": 1') + "".join(lines[2:]))
    seen = []
    assert nq.count(13, jobs=1, checkpoint=str(path), progress=lambda done, total: seen.append(done)) == TOTAL[13]
    assert seen == [len(lines) - 1, len(lines)], "every record but the damaged one restored: one task counted again"
    tasks = [r["task"] for r in records(path)]  # (every line good: the damaged one is gone)
    assert sorted(tasks) == sorted(json.loads(line)["task"] for line in lines) and tasks[-1] == damaged


def test_a_checkpoint_of_another_count_is_refused_in_one_line(tmp_path: Path, cli) -> None:
    path = tmp_path / "c.jsonl"
    nq.count(10, checkpoint=str(path))
    code, out, err = cli("count", 11, "--checkpoint", path)
    assert code == 1 and out == "" and err.count("\n") == 1 and "is for n=10" in err and "not n=11" in err
    header, *rest = path.read_text().splitlines(keepends=True)
    path.write_text(header.replace('"sub_boards_per_task": 32', '"sub_boards_per_task": 8') + "".join(rest))
    code, out, err = cli("count", 10, "--checkpoint", path)
    assert code == 1 and "is for sub_boards_per_task=8, not sub_boards_per_task=32" in err and "n=10" not in err
    code, _, err = cli("count", 11, "--engine", "sat", "--checkpoint", path)
    assert code == 2 and "checkpoints are kept for counts by symmetry classes" in err


def _forged(task: int, values: list) -> str:
    """A record with a right checksum and whatever values: as a hand or
    another program could write it."""
    from nqueens_cp.execution.checkpoint import _crc

    return json.dumps({"task": task, "values": values, "crc": _crc(task, tuple(values))}) + "\n"


@pytest.mark.parametrize("values", [[-5, 0, 0, 1, 0], [0, 0, 1], [1, 2, 3, 4, 5, 6], [10**6, 0, 0, 1, 0]],
                         ids=["negative", "too-few", "too-many", "more-boards-than-nodes"])
def test_a_record_that_is_not_a_task_of_this_count_is_dropped_and_counted_again(tmp_path: Path, values) -> None:
    path = tmp_path / "c12.jsonl"
    assert nq.count(12, checkpoint=str(path)) == TOTAL[12]
    header, *lines = path.read_text().splitlines(keepends=True)
    forged = json.loads(lines[0])["task"]
    path.write_text(header + _forged(forged, values) + "".join(lines[1:]))  # task `forged` lies
    assert nq.count(12, checkpoint=str(path)) == TOTAL[12]
    assert [r["task"] for r in records(path)].count(forged) == 2  # the lie stays, the task counted again


def test_a_nested_header_is_one_line(tmp_path: Path, cli) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("[" * 100_000 + "\n")
    code, out, err = cli("count", 10, "--checkpoint", path)
    assert code == 1 and out == "" and err.count("\n") == 1 and "not a checkpoint header" in err


def test_a_checkpoint_in_use_by_another_count_is_refused(tmp_path: Path, cli) -> None:
    from nqueens_cp.execution.checkpoint import Checkpoint

    path = tmp_path / "c.jsonl"
    nq.count(10, checkpoint=str(path))
    header = json.loads(path.read_text().splitlines()[0])
    key = {k: v for k, v in header.items() if k != "nqueens_cp_checkpoint"}
    with Checkpoint(str(path), key):  # another count holds it
        code, out, err = cli("count", 10, "--checkpoint", path)
    assert code == 1 and out == "" and "in use by another count" in err and err.count("\n") == 1
    assert cli("count", 10, "--checkpoint", path)[:2] == (0, f"{TOTAL[10]}\n")  # free again


distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (the test extra has it)")


def test_a_local_dask_cluster_counts_exactly(cli) -> None:
    assert nq.count(12, executor="local:2") == TOTAL[12]
    code, out, _ = cli("count", 12, "--scheduler", "local:2", "--unique")
    assert (code, out) == (0, f"{FUNDAMENTAL[12]}\n")
    code, out, _ = cli("count", 13, "--scheduler", "local:2", "--unique", "--method", "quarters")  # parts as tasks
    assert (code, out) == (0, f"{FUNDAMENTAL[13]}\n")
    assert cli("count", 8, "--scheduler", "local:x")[0] == 2


@pytest.mark.parametrize(("method", "given"), [("walk", "client"), ("quarters", "executor")])
def test_a_worker_killed_in_the_middle_of_a_count_loses_nothing(tmp_path: Path, method: str, given: str) -> None:
    """A worker killed just after a task came back: the results it held are
    lost and computed again.  Dask's own executor adapter failed such a task
    once in CI ('ValueError: too many values to unpack') as it read the
    task's status after the result; a client and its adapter both run on
    :class:`DaskExecutor`, which waits for the task run again."""
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"temporary-directory": str(tmp_path)}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, **LOCAL_HTTP) as cluster, \
            Client(cluster) as client:
        pids = client.run(os.getpid)
        victim = next(iter(pids.values()))
        killed = []

        def kill_one(done: int, total: int) -> None:
            if done and not killed:  # the first task is back: the count is under way on both workers
                os.kill(victim, signal.SIGKILL)
                killed.append(done)

        executor = client if given == "client" else client.get_executor()
        assert nq.count(15, executor=executor, progress=kill_one, method=method) == TOTAL[15]
        assert killed, "a worker was killed during the count"


def test_a_count_stopped_by_its_time_limit_leaves_nothing_running_on_the_users_cluster(tmp_path: Path,
                                                                                       monkeypatch) -> None:
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set({"temporary-directory": str(tmp_path)}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, **LOCAL_HTTP) as cluster, \
            Client(cluster) as client:
        with pytest.raises(nq.TimeLimitReached):
            nq.count(19, executor=client.get_executor(), time_limit=0.5)
        # The count's tasks cancelled with it: the event itself, the scheduler's word (a task running on a
        # worker as the cancel came is released when the worker next reports, a moment later on a busy machine)
        import time

        deadline = time.monotonic() + 60
        while any(client.processing().values()):
            assert time.monotonic() < deadline, f"the count's tasks were not cancelled with it: {client.processing()}"
            time.sleep(0.05)
        assert nq.count(9, executor=client) == TOTAL[9]  # and the cluster is free for the next
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        assert nq.count(10, executor=cluster.scheduler_address) == TOTAL[10]  # its greeting heard, and known
        # Dask's handshake, broken by the scheduler telling every client of a key it forgot that instant (the
        # line above failed so once, in CI, with an AssertionError from inside Dask): the client that tripped
        # is closed and another tries; a scheduler that breaks it every time is one line
        real, tripped = Client._ensure_connected, []

        async def trips_once(self, timeout=None):
            if not tripped:
                tripped.append(self)
                raise AssertionError
            return await real(self, timeout=timeout)

        monkeypatch.setattr(Client, "_ensure_connected", trips_once)
        assert nq.count(10, executor=cluster.scheduler_address) == TOTAL[10]
        assert len(tripped) == 1 and tripped[0].status == "closed"

        async def trips(self, timeout=None):
            tripped.append(self)
            raise AssertionError

        monkeypatch.setattr(Client, "_ensure_connected", trips)
        with pytest.raises(NQueensError, match=f"at {cluster.scheduler_address} broke Dask's handshake 3 times"):
            nq.count(10, executor=cluster.scheduler_address)
        assert len(tripped) == 4 and all(made.status == "closed" for made in tripped)


def test_a_decision_runs_its_parts_on_a_local_dask_cluster(cli) -> None:
    data = Path(__file__).parent / "data" / "prob079"  # copied from shared/data/prob079 (see its README)
    code, out, err = cli("solve", data / "diag-14-4-416.param", "-D", 12, "-e", "bitmask", "--scheduler", "local:2",
                         "--stats")
    assert code == 1 and out.startswith("none: every one of") and "parts_searched=" in err
    pooled = nq.solve(16, "bitmask", {0: 3}, jobs=2)  # the first part's board with one, as on any workers
    assert nq.solve(16, "bitmask", {0: 3}, executor="local:2").solution == pooled.solution


def test_a_second_record_of_a_task_refuses_the_checkpoint_naming_its_line(tmp_path: Path, cli) -> None:
    """The file copied onto itself gave count 16 = 14772520 with exit 0."""
    path = tmp_path / "c13.jsonl"
    assert nq.count(13, checkpoint=str(path)) == TOTAL[13]
    lines = path.read_text().splitlines(keepends=True)
    twice = tmp_path / "twice.jsonl"
    twice.write_text("".join(lines + lines))
    code, out, err = cli("count", 13, "--checkpoint", twice)
    assert (code, out) == (1, "") and err.count("\n") == 1, err
    assert f"line {len(lines) + 2} is a second record of task {json.loads(lines[1])['task']}" in err
    appended = tmp_path / "appended.jsonl"  # the same task again, other numbers, a right checksum
    appended.write_text("".join(lines) + lines[1])
    with pytest.raises(nq.NQueensError, match=f"line {len(lines) + 1} is a second record"):
        nq.count(13, checkpoint=str(appended))


def test_records_with_right_checksums_and_wrong_numbers_are_caught_by_counting_some_again(
        tmp_path: Path, monkeypatch) -> None:
    import zlib

    from nqueens_cp.execution import tasks

    path = tmp_path / "c13.jsonl"
    assert nq.count(13, checkpoint=str(path)) == TOTAL[13]
    header, *lines = path.read_text().splitlines(keepends=True)
    forged = []
    for line in lines:  # every record off by one class, each with its checksum made right
        record = json.loads(line)
        record["values"][0] += 1
        record["crc"] = zlib.crc32(":".join(map(str, (record["task"], *record["values"]))).encode())
        forged.append(json.dumps(record) + "\n")
    path.write_text(header + "".join(forged))
    with pytest.raises(nq.NQueensError, match=f"counts .* again: refused \\({tasks.RECOUNTED} of its "
                       f"{len(lines)} records were counted again"):
        nq.count(13, checkpoint=str(path))
    path.write_text(header + forged[0] + "".join(lines[1:]))  # one wrong record: caught when it is drawn
    monkeypatch.setattr(tasks, "RECOUNTED", len(lines))
    with pytest.raises(nq.NQueensError, match=f"task {json.loads(lines[0])['task']} is recorded as"):
        nq.count(13, checkpoint=str(path))
    path.write_text(header + "".join(lines))  # the true records: all counted again, none differs
    assert nq.count(13, checkpoint=str(path)) == TOTAL[13]


@pytest.fixture
def listener():
    """A server on 127.0.0.1 that is not Dask: one that speaks first (as an
    SSH daemon does) or one that never says a word (as an HTTP server, which
    waits for a request).  Yields a function of the greeting, giving the port."""
    import socket
    import threading

    servers = []

    def serve(greeting: bytes) -> int:
        server = socket.create_server(("127.0.0.1", 0))
        servers.append(server)

        def greet() -> None:
            try:
                while True:
                    connection, _ = server.accept()
                    connection.sendall(greeting)  # and holds it open: the client must give up by itself
                    servers.append(connection)
            except OSError:  # closed at the end of the test
                pass

        if greeting:
            threading.Thread(target=greet, daemon=True).start()
        return server.getsockname()[1]

    yield serve
    for server in servers:
        server.close()


def test_a_scheduler_address_where_something_else_listens_is_one_line(cli, listener) -> None:
    """An SSH daemon's greeting was read as a message's length (a NumPy
    allocation of 2.8 EiB, 74 lines); a silent server hung the count past
    its time limit."""
    port = listener(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
    code, out, err = cli("count", 12, "--scheduler", f"tcp://127.0.0.1:{port}")
    assert (code, out) == (1, "")
    assert err == (f"nqueens-cp count: tcp://127.0.0.1:{port} does not speak Dask's protocol: "
                   "it began b'SSH-2.0-OpenSSH_'\n")
    # A server that accepts (the kernel does) and never answers: waited for
    # what is left of the time limit when the address is tried, and said so
    # (a loaded machine spends a tenth of a second or two before that).
    for command, spec, limit in [("count", "127.0.0.1:{port}", 0.5), ("solve", "tcp://127.0.0.1:{port}", 0.3)]:
        address = spec.format(port=listener(b""))
        code, out, err = cli(command, 12, "-e", "bitmask", "--scheduler", address, "--time-limit", str(limit))
        assert (code, out) == (1, "")
        said = re.fullmatch(f"nqueens-cp {command}: {re.escape(address)} does not speak Dask's protocol: "
                            r"it said nothing within (\d\.\d|\d) s\n", err)
        assert said and 0.1 <= float(said[1]) <= limit, err


def test_a_local_cluster_beyond_the_cores_gets_a_note_and_shuts_down_quietly() -> None:
    """local:64 on two cores: 195 lines of Dask's tracebacks at shut-down (its
    workers' heartbeats to a scheduler already closed), and no word before."""
    from conftest import run_process
    from nqueens_cp.execution.workers import default_jobs

    workers = default_jobs() + 1
    done = run_process("count", "12", "--scheduler", f"local:{workers}", timeout=300)
    assert (done.returncode, done.stdout) == (0, f"{TOTAL[12]}\n")
    assert done.stderr == (f"nqueens-cp: note: a local cluster of {workers} workers on the {default_jobs()} cores "
                           "here: each worker is a process, all started before any work, and more than one a core "
                           "only adds overhead\n")


def test_a_local_cluster_beside_a_taken_dashboard_port_says_nothing() -> None:
    """Dask's scheduler serves HTTP on 8787 unless told otherwise: with the port
    taken (another local count, a notebook's cluster) the count printed Dask's
    three lines 'Port 8787 is already in use. ...'."""
    import socket

    from conftest import run_process
    from nqueens_cp.execution.workers import default_jobs

    try:
        taken = socket.create_server(("127.0.0.1", 8787))
    except OSError:  # (taken already: what this test needs)
        taken = None
    try:
        done = run_process("count", "12", "--scheduler", f"local:{min(2, default_jobs())}", timeout=300)
    finally:
        if taken is not None:
            taken.close()
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{TOTAL[12]}\n", "")


def test_the_time_left_of_a_resumed_count_counts_only_this_runs_tasks(monkeypatch, capsys) -> None:
    """A checkpoint restores 200 of 256 tasks, said before any work: the
    rate starts there (it took the 200 for speed: "30 s left")."""
    from nqueens_cp.cli import terminal

    clock = iter([0.0, 100.0, 110.0])  # made, the restored tasks said, one task done 10 s later
    monkeypatch.setattr(terminal.time, "monotonic", lambda: next(clock))
    progress = terminal.Progress("count 22")
    progress(200, 256)
    progress(201, 256)
    assert capsys.readouterr().err.endswith("count 22: 201/256 sub-problems, 0.1/s, about 550 s left")


def test_the_time_left_of_a_count_whose_costs_are_known_is_said_from_the_share_of_the_work(monkeypatch,
                                                                                          capsys) -> None:
    """The parts of a count by quarters go out longest first: a quarter of
    them done may be half the work, and the time left said from the tasks
    would be twice too long."""
    from nqueens_cp.cli import terminal

    clock = iter([0.0, 0.0, 100.0])  # made, the first report, a quarter of the tasks done 100 s later
    monkeypatch.setattr(terminal.time, "monotonic", lambda: next(clock))
    progress = terminal.Progress("count 22")
    progress(0, 256, 0.0)
    progress(64, 256, 0.5)  # half of the work
    assert capsys.readouterr().err.endswith("count 22: 64/256 sub-problems, 0.6/s, about 100 s left")


def test_the_tasks_go_out_longest_first_the_same_every_run() -> None:
    """Their costs run along their index (a count by quarters of 22: 16 s to
    160 s among its first eight): where each task's cost is estimated (the
    parts of a count by quarters: join.part_costs) the longest go out
    first, so that the last to finish are short (issue 65); the same order
    every run."""
    from concurrent.futures import ThreadPoolExecutor

    from nqueens_cp.counting import join

    class Recording(ThreadPoolExecutor):
        def __init__(self) -> None:
            super().__init__(1)
            self.firsts: list[int] = []

        def submit(self, fn, *args, **kwargs):  # type: ignore[no-untyped-def,override]
            self.firsts.append(args[-1].first)
            return super().submit(fn, *args, **kwargs)

    orders = []
    for _ in range(2):
        with Recording() as executor:
            assert nq.count(14, method="quarters", executor=executor) == TOTAL[14]
        orders.append(executor.firsts)
    parts = join.parts(14)
    ranks, cost = [part.first for part in parts], join.part_costs(14, parts)
    assert orders[0] == orders[1] and sorted(orders[0]) == sorted(ranks) and orders[0] != ranks
    assert [cost[ranks.index(first)] for first in orders[0]] == sorted(cost, reverse=True)


def test_a_pool_made_for_the_count_starts_before_the_parts_costs_are_computed(monkeypatch) -> None:
    """On a pool the count makes itself, its first two parts (one a worker)
    go out before the costs are computed, so that the workers fork and build
    their tables while this process computes them; the rest go out longest
    first; the count is exact.  (A caller's pool, already started, gets every
    part longest first: the test above.)"""
    from nqueens_cp.counting import join
    from nqueens_cp.execution import pools

    sent: list[int] = []  # each part's first rank, as the count hands it to the pool
    taken_when_costed: list[int] = []
    stream, part_costs = pools.stream, join.part_costs

    def recorded(calls, *args, **kwargs):  # type: ignore[no-untyped-def]
        def each():  # type: ignore[no-untyped-def]
            for call in calls:
                sent.append(call[-1].first)
                yield call
        return stream(each(), *args, **kwargs)

    def costed(n, tasks):  # type: ignore[no-untyped-def]
        taken_when_costed.append(len(sent))
        return part_costs(n, tasks)

    monkeypatch.setattr(pools, "stream", recorded)
    monkeypatch.setattr(join, "part_costs", costed)
    assert nq.count(14, method="quarters", jobs=2) == TOTAL[14]
    parts = join.parts(14)
    ranks, cost = [part.first for part in parts], part_costs(14, parts)
    assert taken_when_costed == [2] and sorted(sent) == sorted(ranks)
    assert sent[:2] == ranks[:2]  # in their order, before any cost is known
    assert [cost[ranks.index(first)] for first in sent[2:]] == sorted(cost[2:], reverse=True)


def _started(process, pattern: str) -> str:
    """The first match of ``pattern`` in what a Dask command says on stderr as it starts (its address)."""
    import re

    for line in process.stderr:
        found = re.search(pattern, line)
        if found:
            return found.group(1)
    raise AssertionError(f"the Dask process ended (exit {process.wait()}) without saying {pattern}")


def test_a_scheduler_killed_in_the_middle_of_a_count_is_one_line_and_the_checkpoint_resumes(tmp_path: Path) -> None:
    """A traceback of distributed's FutureCancelledError before; the records were kept."""
    import subprocess
    import sys
    import time

    from conftest import CLI

    dask = [sys.executable, "-m", "distributed.cli"]
    scratch = {**os.environ, "DASK_TEMPORARY_DIRECTORY": str(tmp_path)}  # (their scratch space: not the machine's)
    scheduler = subprocess.Popen([*dask[:2], "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard"], stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=scratch)
    worker = None
    try:
        address = _started(scheduler, r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)")
        worker = subprocess.Popen([*dask[:2], "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--no-dashboard", "--host", "127.0.0.1"], stderr=subprocess.DEVNULL, cwd=tmp_path,
                                  env=scratch)
        checkpoint = tmp_path / "c.jsonl"
        count = subprocess.Popen([*CLI, "count", "18", "--scheduler", address, "--checkpoint", str(checkpoint)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while count.poll() is None and not (checkpoint.exists() and len(checkpoint.read_text().splitlines()) > 2):
            time.sleep(0.05)  # (waiting for the event: tasks are coming back)
        scheduler.kill()
        out, err = count.communicate(timeout=120)
        assert (count.returncode, out) == (1, ""), err
        assert err == ("nqueens-cp count: the connection to the Dask scheduler was lost: the work stopped unfinished "
                       "(a --checkpoint keeps what was done: the same command resumes from it)\n")
        kept = records(checkpoint)
        assert kept and nq.count(18, checkpoint=str(checkpoint)) == TOTAL[18]
        assert records(checkpoint)[:len(kept)] == kept
    finally:
        for process in (scheduler, worker):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
