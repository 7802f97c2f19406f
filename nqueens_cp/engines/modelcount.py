"""Model counting (#SAT): Ganak counts the CNF's models, projected on the cells, without listing them.

The formula is our CNF (the ``dimacs`` command's, any at-most-one
encoding); the count is projected on the N*N cell variables (Ganak's
"sampling set", the ``c p show`` line of our files), so auxiliary variables
never multiply it: it is the number of boards.  Ganak answers a count and
nothing else: this engine counts, it neither lists nor solves.

Ganak has no time limit and does not return to Python until it is done, so
the count runs in a child process (``python -m nqueens_cp.engines.modelcount
CNF_FILE``), which the time limit and Ctrl-C stop at once.

What we measured (docs/paradigms.md): counting N-queens is hard for a model
counter.  Its strength, splitting a formula into independent parts and
caching their counts, finds nothing to split on a board where every queen
constrains every row: N = 12 takes longer than listing every board with a
SAT solver.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from ..model.position import Position
from ..model.encodings import DEFAULT_ENCODING, ENCODINGS
from .base import Engine, Option

_WAIT = 0.1  # seconds between looks at the clock while the child counts


class ModelCountEngine(Engine):
    name = "modelcount"
    summary = "#SAT: Ganak counts the CNF's models projected on the cells, in a child process; no listing"
    requires = "pyganak"
    install = "pip install pyganak, or the 'declarative' extra"
    paradigm = "#SAT"
    declarative = True
    group = "field"
    enumerates = False
    counts_only = True
    solves = False
    proves_none = False
    options = (Option("encoding", f"at-most-one encoding of the CNF (default: {DEFAULT_ENCODING}, the fastest "
                      "to count here)", choices=tuple(ENCODINGS)),)
    statistics = ("encoding", "variables", "clauses", "counter", "counter_seconds")
    effort = "counter_seconds"
    count_rate = 1e2  # boards per second, roughly: its time does not grow with the boards but with N
    expresses = frozenset({"lines", "wrapping", "offsets"})
    encoding: str | None

    def check_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None,
                     part: bool = False) -> None:
        from ..model.cnf import check_size

        super().check_search(n, placed, limit, time_limit, part)
        check_size(f"engine {self.name}", n, self.encoding or DEFAULT_ENCODING, variant=self.variant)  # (written before Ganak's time limit starts)

    def stream(self, n: int, placed: Position, limit: int | None, stats: dict[str, Any],
               deadline: float | None) -> Any:
        raise InvalidInputError(f"engine {self.name} counts solutions without listing them: use count")

    def own_count(self, n: int, placed: Position, stats: dict[str, Any], deadline: float | None) -> int:
        return self._count_in_child(n, placed, stats, deadline)

    def _count_in_child(self, n: int, placed: Position, stats: dict[str, Any], deadline: float | None) -> int:
        import subprocess  # here, not at the top: listing the engines should not import it (start-up)

        from .. import scratch

        from ..model.dimacs import write_dimacs

        from .. import stopping

        encoding = self.encoding or DEFAULT_ENCODING
        started: dict[str, Any] = {}

        def cleanup() -> None:  # a worker stopped at any point of this (nqueens_cp.stopping): no child, no folder left
            if "process" in started and started["process"].poll() is None:
                started["process"].kill()
            if "folder" in started:
                import shutil

                shutil.rmtree(started["folder"], ignore_errors=True)

        with stopping.registered(cleanup), stopping.watchdog() as guard, \
                scratch.folder("nqueens-count-", before=guard.folder) as folder:
            started["folder"] = folder
            path = os.path.join(folder, "nqueens.cnf")
            with open(path, "w", encoding="ascii") as handle:
                nvars, nclauses = write_dimacs(handle, n, encoding, placed, variant=self.variant)
            stats.update(encoding=encoding, variables=nvars, clauses=nclauses)
            package_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root,
                                                                             os.environ.get("PYTHONPATH")]))}
            start = time.perf_counter()
            # In a session of its own (Ctrl-C at the terminal is this process's to handle: it kills
            # the counter), watched by the watchdog if this process dies.
            started["process"] = process = subprocess.Popen(
                [sys.executable, "-m", __name__, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL, env=env, text=True, start_new_session=True)
            guard.session(process.pid)
            try:
                while True:
                    try:
                        out, err = process.communicate(timeout=_WAIT)
                        break
                    except subprocess.TimeoutExpired:
                        if deadline is not None and time.monotonic() > deadline:
                            raise TimeLimitReached from None
            finally:
                if process.poll() is None:
                    process.kill()
                    process.communicate()
            stats["counter_seconds"] = round(time.perf_counter() - start, 6)
        words = out.split()
        if process.returncode != 0 or len(words) < 2 or not words[-1].isdigit():
            said = [line for line in err.splitlines() if line.strip()]
            raise NQueensError(f"the model counter failed (exit {process.returncode}): "
                               f"{said[-1] if said else 'no answer'}")
        stats["counter"] = words[-2]
        return int(words[-1])


def _count_file(path: str) -> tuple[int, str]:
    """The projected count of one of our CNF files (in the child process), and
    what counted it: CaDiCaL when the formula has no model at all, Ganak otherwise.

    Ganak (pyganak 2.8.0) spends seconds on some formulas without a model
    that a SAT solver refutes at once: 20 s on the 36 cells of the 6 x 6
    torus, whose 0 every theorem and engine agrees on (CaDiCaL: the whole
    child process in 0.09 s).  A model
    counter's first question is whether there is any model, so we ask it of
    the solver that answers it fastest."""
    import pyganak
    from pysat.solvers import Solver

    from ..model.dimacs_read import read_cnf

    with open(path, encoding="ascii") as handle:
        header = read_cnf(handle.read(), clauses=True)
    with Solver(name="cadical195", bootstrap_with=header.clauses) as solver:
        if not solver.solve():
            return 0, "cadical195"
    counter = pyganak.Counter()
    counter.new_vars(header.nvars)
    counter.add_clauses(header.clauses)
    counter.set_sampling_set(header.show or range(1, header.n * header.n + 1))
    return counter.count(), "ganak"


if __name__ == "__main__":
    count, counter = _count_file(sys.argv[1])
    print(counter, count)  # (the count last: see _count_in_child)
