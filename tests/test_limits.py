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

import resource
import subprocess
import time

import pytest

from conftest import CLI
from nqueens_cp import ENGINE_NAMES, engine_class, names
from nqueens_cp.model.variants import OPTIMUM

LIMIT = 2  # seconds, --time-limit
SLACK = 4  # seconds beyond the limit, for the process's start and its exit (the runs share the cores)
MEMORY = 1 << 30  # bytes of address space

# engine -> the command and N of a question it cannot answer within the limit (or, for construct,
# answers at once): a first board of a large board, or a count (engines that only count).
HARD = {
    "backtrack": ["solve", "500"], "bitmask": ["solve", "5000"], "cpsat": ["solve", "3000"],
    "sat": ["solve", "250"], "asp": ["solve", "150"], "minizinc": ["solve", "3000"], "smt": ["solve", "100"],
    "modelcount": ["count", "60"], "gpu": ["count", "22"], "scan": ["solve", "500"], "copy": ["solve", "200"],
    "undo": ["solve", "500"], "iterative": ["solve", "3000"], "generator": ["solve", "500"],
    "nested": ["solve", "20"], "construct": ["solve", "100000"], "minconflicts": ["solve", "100000"],
}


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


# The optimum of a board no engine proves within the limit (bitmask's branch and bound serves N <= 32).
OPTIMUM_N = {"bitmask": "30", "smt": "100"}
OPTIMUM_HARD = "150"  # (building the models alone took minutes here: cpsat, sat, asp, smt at 100, backtrack)


def _optimum_rows() -> list[tuple[str, list[str]]]:
    return [(f"{engine}-optimum-{variant}", ["optimum", OPTIMUM_N.get(engine, OPTIMUM_HARD), "-V", variant, "-e", engine])
            for engine in names(variant="domination") for variant in OPTIMUM]


def _rows() -> list[tuple[str, list[str]]]:
    rows = [(engine, [*HARD[engine], "-e", engine]) for engine in ENGINE_NAMES] + _optimum_rows()
    for engine in ENGINE_NAMES:  # just beyond what an engine serves: refused before the work
        top = engine_class(engine).max_n
        if top is not None:
            rows.append((f"{engine}-beyond", [HARD[engine][0], str(top + 1), "-e", engine]))
    return rows


def test_every_engine_has_a_row() -> None:
    assert set(HARD) == set(ENGINE_NAMES)


def test_every_engine_keeps_the_time_limit_and_1_gb_at_a_size_it_cannot_finish() -> None:
    """Four at a time (the suite's time); each timed on its own."""
    rows, failures = _rows(), []
    for start in range(0, len(rows), 4):
        running = []
        for name, argv in rows[start:start + 4]:
            extra = ["-f", "line"] if argv[0] == "solve" else []
            process = subprocess.Popen([*CLI, *argv, "--time-limit", str(LIMIT), *extra], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, preexec_fn=_cap)
            running.append((name, argv, process, time.monotonic()))
        for name, argv, process, began in running:
            try:
                out, err = process.communicate(timeout=LIMIT + 60)
            except subprocess.TimeoutExpired:
                process.kill()
                out, err = process.communicate()
            seconds = time.monotonic() - began
            code = process.returncode
            said = f"{name}: {' '.join(argv)} exit {code} after {seconds:.1f} s: {err.strip()[-300:]}"
            if "Traceback" in err or "MemoryError" in err or code not in (0, 2, 3):
                failures.append(said)
            elif code == 2 and (err.count("\n") != 1 or seconds > SLACK or out):
                failures.append(f"not a one-line refusal before the work: {said}")
            elif code in (0, 3) and seconds > LIMIT + SLACK:
                failures.append(f"past the time limit: {said}")
            elif name.endswith("-beyond") and code != 2:
                failures.append(f"beyond max_n and not refused: {said}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("engine", [name for name in ENGINE_NAMES if engine_class(name).max_n is not None])
def test_an_engine_with_a_largest_n_says_why(engine: str) -> None:
    cls = engine_class(engine)
    assert cls.max_n_why, f"engine {engine} has max_n = {cls.max_n} and says nothing of why"
