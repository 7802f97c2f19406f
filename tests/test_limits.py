"""Every engine keeps its time limit and its memory (issues 31 and 44), optimum included.

The rule: the time limit covers all the work, model building included;
memory is bounded by the answer, not by N^2; an engine that cannot honour a
limit at some size says so in one line before the work.  Each row runs the
command line in a child process capped at 1 GB of address space, at a size
where the engine cannot finish in the limit: it must answer "unknown" (exit
3), or an answer (exit 0), within a few seconds of the limit, or refuse in
one line (exit 2) at once; never a traceback, never the OOM killer.
"""

from __future__ import annotations

import os
import re
import resource
import select
import subprocess
import time
from typing import IO, NamedTuple

import pytest

from conftest import CLI, SOAK, drawn
from hard_questions import HARD_QUESTIONS
from nqueens_cp import ENGINE_NAMES, engine_class, names
from nqueens_cp.model.variants import OPTIMUM

LIMIT = 1.0  # seconds, --time-limit
SLACK = 4  # seconds beyond the limit, for the process's start and its exit (the runs share the cores)
MEMORY = 1 << 30  # bytes of address space
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def processor_seconds(pid: int, children: bool = False) -> float:
    """A process's processor time from Linux's /proc (a zombie's too): user and
    system, and with ``children`` those of the children it has waited for."""
    with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()  # (after the command's name, which may hold spaces)
    return sum(int(field) for field in fields[11:15 if children else 13]) / TICK

# engine -> the command and N of a question it cannot answer within the limit (or, for the
# engines that answer any size at once, a huge one): the suite's own, one for each engine.
HARD = {name: [HARD_QUESTIONS[name][0], str(HARD_QUESTIONS[name][1])] for name in ENGINE_NAMES}


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


# The optimum of a board no engine proves within the limit (bitmask's branch and bound serves N <= 32).
OPTIMUM_N = {"bitmask": "30", "smt": "100"}
OPTIMUM_HARD = "150"  # (building the models alone took minutes here: cpsat, sat, asp, smt at 100, backtrack)


def _optimum_rows() -> list[tuple[str, list[str]]]:
    """Each optimiser on one of the two questions, dealt in turn (between them the engines hold both;
    each is one model of its engine's, stopped as the other is), and on both in a soak."""
    engines = names(variant="domination")
    return [(f"{engine}-optimum-{variant}", ["optimum", OPTIMUM_N.get(engine, OPTIMUM_HARD), "-V", variant, "-e", engine])
            for engine in engines for variant in drawn(list(OPTIMUM), 1, engine, engines)]


# compare --variant domination times each engine's optimum in a child process, each within the limit:
# the row's whole time is the engines' (bitmask's N <= 32 is refused in its row, not run).
STUDY = ["bitmask", "cpsat"]  # (one refused beyond its N, one stopped at the limit: the suite's time)


def _rows() -> list[tuple[str, list[str]]]:
    rows = [(engine, [*HARD[engine], "-e", engine]) for engine in ENGINE_NAMES] + _optimum_rows()
    rows += [(f"compare-{variant}", ["compare", OPTIMUM_HARD, "-V", variant, "--engines", ",".join(STUDY)])
             for variant in OPTIMUM]
    for engine in ENGINE_NAMES:  # just beyond what an engine serves: refused before the work
        top = engine_class(engine).max_n
        if top is not None:
            rows.append((f"{engine}-beyond", [HARD[engine][0], str(top + 1), "-e", engine]))
    return rows


def test_every_engine_has_a_row_beyond_its_reach() -> None:
    assert set(HARD) == set(ENGINE_NAMES)
    optimisers, rows = names(variant="domination"), _optimum_rows()  # each one question, both held; both in a soak
    assert len(rows) == len(optimisers) * (len(OPTIMUM) if SOAK > 1 else 1)
    assert {argv[-1] for _, argv in rows} == set(optimisers) and {argv[3] for _, argv in rows} == set(OPTIMUM)
    for name in ENGINE_NAMES:  # a question it can be asked (it counts, or solves)
        cls = engine_class(name)
        assert (cls.enumerates or cls.counts_only) if HARD[name][0] == "count" else cls.solves, name


class Finished(NamedTuple):
    code: int | None  # None: killed at the test's own cap
    out: str
    err: str
    seconds: float  # from its start to its exit (not to when the test looked)
    cpu: float  # processor seconds of it and its waited-for children


def _pool(commands: list[list[str]], cap: float, width: int = 4) -> list[Finished]:
    """Run the commands ``width`` at a time, the next started as soon as one has ended (the
    quick refusals fill in beside the searches, which a batch of four waited on); each one's
    exit time and processor time, taken when it exits (its pidfd turns readable; /proc still
    has the zombie's times), with its pipes drained meanwhile.  Each is killed ``cap`` seconds
    after its own start: code None."""
    processes: list[tuple[subprocess.Popen, float]] = []
    output: list[tuple[bytearray, bytearray]] = []  # each one's stdout and stderr
    pipes: dict[int, tuple[IO[bytes], bytearray]] = {}  # (by file number, which a later process's pipe reuses)
    waits: dict[int, int] = {}  # pidfd -> index, of those running
    ended: dict[int, tuple[float, float]] = {}

    def start() -> None:
        process = subprocess.Popen(commands[len(processes)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   preexec_fn=_cap)
        assert process.stdout is not None and process.stderr is not None
        output.append((bytearray(), bytearray()))
        for pipe, kept in zip((process.stdout, process.stderr), output[-1]):
            pipes[pipe.fileno()] = pipe, kept
        waits[os.pidfd_open(process.pid)] = len(processes)
        processes.append((process, time.monotonic()))

    while len(processes) < min(width, len(commands)):
        start()
    while waits or pipes:
        give_up = min((processes[index][1] + cap for index in waits.values()), default=time.monotonic() + cap)
        ready, _, _ = select.select([*waits, *pipes], [], [], max(0.0, give_up - time.monotonic()))
        if not ready and waits:  # the one started first is past its cap: killed, its place given on
            fd = min(waits, key=waits.__getitem__)
            processes[waits.pop(fd)][0].kill()
            os.close(fd)
        elif not ready:
            break
        for fd in ready:
            if fd in pipes:
                data = os.read(fd, 1 << 16)
                if data:
                    pipes[fd][1].extend(data)
                else:
                    pipes.pop(fd)[0].close()
            else:
                index = waits.pop(fd)
                process, began = processes[index]
                ended[index] = time.monotonic() - began, processor_seconds(process.pid, children=True)
                os.close(fd)
        while len(waits) < width and len(processes) < len(commands):
            start()
    finished = []
    for index, (process, began) in enumerate(processes):
        process.wait()
        seconds, cpu = ended.get(index, (time.monotonic() - began, 0.0))
        out, err = (bytes(kept).decode(errors="replace") for kept in output[index])
        finished.append(Finished(None if index not in ended else process.returncode, out, err, seconds, cpu))
    for pipe, _ in pipes.values():
        pipe.close()
    return finished


@pytest.mark.skipif(not hasattr(os, "pidfd_open") or not os.path.isdir("/proc"),
                    reason="times each exit by its pidfd and reads its processor time from Linux's /proc")
def test_every_engine_keeps_the_time_limit_and_1_gb_at_a_size_it_cannot_finish() -> None:
    """Four at a time (the suite's time), each timed from its own start to its own exit.  The margin
    beyond the limit is what the machine gives: SLACK seconds of an idle machine,
    times how much slower than its own processor time the command ran (on a busy
    machine it waits for a core; an engine that searches past its limit still uses
    processor time there, and fails)."""
    rows, failures = _rows(), []
    commands = [[*CLI, *argv, "--time-limit", str(LIMIT), *(["-f", "line"] if argv[0] == "solve" else [])]
                for _, argv in rows]
    for (name, argv), (code, out, err, seconds, cpu) in zip(rows, _pool(commands, LIMIT + 60)):
        slow = max(1.0, seconds / max(cpu, 0.1))
        said = f"{name}: {' '.join(argv)} exit {code} after {seconds:.1f} s ({cpu:.1f} s of processor time): " \
            f"{err.strip()[-300:]}"
        engines = len(STUDY) if argv[0] == "compare" else 1
        if "Traceback" in err or "MemoryError" in err or code not in (0, 2, 3):
            failures.append(said)
        elif code == 2 and (err.count("\n") != 1 or seconds > SLACK * slow or out):
            failures.append(f"not a one-line refusal before the work: {said}")
        elif code in (0, 3) and seconds > (LIMIT + SLACK * slow) * engines:
            failures.append(f"past the time limit: {said}")
        elif name.endswith("-beyond") and code != 2:
            failures.append(f"beyond max_n and not refused: {said}")
        elif argv[0] == "compare" and (code != 0 or not all(
                re.search(rf"^ *{OPTIMUM_HARD} +{engine} .*(not proved in {LIMIT:g} s|refused: )", out, re.MULTILINE)
                for engine in STUDY)):
            failures.append(f"not a row per engine, each stopped at the limit or refused: {said}\n{out}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("engine", [name for name in ENGINE_NAMES if engine_class(name).max_n is not None])
def test_an_engine_with_a_largest_n_says_why(engine: str) -> None:
    cls = engine_class(engine)
    assert cls.max_n_why, f"engine {engine} has max_n = {cls.max_n} and says nothing of why"
