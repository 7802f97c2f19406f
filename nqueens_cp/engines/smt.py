"""SMT: Z3, with blocking clauses, over Boolean cells or the SMT-LIB file's integers.

Z3 has no all-solutions mode: every board is one more ``check()`` after a
clause that forbids the previous one (over the cells or the row variables,
never auxiliaries, so each board comes once).  Two models, the ``theory``
option:

- ``bool`` (the default): N*N Boolean cells, exactly one per row, at most
  one per column and diagonal as pseudo-Boolean constraints, solved by Z3's
  finite-domain solver (``QF_FD``: bit-blasted to its SAT core, which keeps
  what it learned from one check to the next).
- ``int``: the SMT-LIB 2 file that ``nqueens-cp export N --format smt2``
  writes (one Int per row, three ``distinct``), parsed by Z3 and solved by
  its default solver (arithmetic).

Measured here (docs/paradigms.md), enumerating N = 11: bool 3.8 s, int 27 s,
and bool with the board read cell by cell from Z3's model 10 s: reading a
model through the Python API costs more than finding it, so each board is
read as one bit-vector term that Z3 evaluates at once.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..errors import NQueensError, TimeLimitReached
from ..model import formats
from ..model.board import Solution
from ..model.position import Position
from .base import Engine, Option

if TYPE_CHECKING:
    from concurrent.futures import Future

THEORIES = ("bool", "int")


class SmtEngine(Engine):
    name = "smt"
    summary = "Z3 over Boolean cells (pseudo-Boolean rows, columns, diagonals), a blocking clause per board"
    requires = "z3"
    install = "pip install z3-solver, or the 'declarative' extra"
    paradigm = "SMT"
    declarative = True
    group = "field"
    options = (Option("theory", "bool: N*N Boolean cells with pseudo-Boolean constraints (QF_FD, the faster); "
                      "int: the SMT-LIB file's Int per row and three distinct (QF_LIA)", choices=THEORIES,
                      default="bool"),)
    statistics = ("theory", "checks", "conflicts", "decisions")
    additive = frozenset({"checks", "conflicts", "decisions"})
    effort = "conflicts"
    enumeration_rate = count_rate = 7e2
    optimum_reach = {"domination": (9, 5.15, 2.6), "independent": (11, 6.62, 2.5)}
    first_solution_max_n = 30  # N = 30: about 5 s to the first board
    # Building the model in Z3 could not be interrupted, and outlasted a time limit beyond: 2.2 s at
    # N = 100, 4.2 s at 150, 24 s at 400 (solve --time-limit 2, measured here).  It is given up between
    # two calls into Z3 now (2.09 s at 150 and 2.01 s at 400 under the same limit), but no first board
    # came within a minute at 100, 150 or 200 (2026-11-29): the bound stays.
    max_n = 100
    max_n_why = "Z3 gave no first board within a minute at N = 100 (nor 150, 200); solve without --engine picks an engine that answers any N"
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})
    theory: str

    def preload(self) -> None:
        import z3  # noqa: F401

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """Z3's Optimize, in a child process killed at the limit (a moment after Z3's own
        timeout), at Ctrl-C and SIGTERM, and with this process: interrupting its context
        did not stop it in every phase (a fresh clone's run held SIGTERM for 10 s and
        more at N = 100)."""
        from ..stopping import in_child

        answer = in_child(_optimise_here, (n, self.variant, time_limit), None if time_limit is None else time_limit + 1)
        if answer is None:
            return None, False, 1, f"no answer within {time_limit:g} s (Z3 stopped)"
        found, child_stats = answer
        stats.update(child_stats)
        return found

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        import z3

        _hand_ctrl_c_to_python(z3)
        # Every call into Z3 runs on a thread of its own, and this one only
        # waits, in short slices: Ctrl-C (delivered to this thread) and the
        # deadline interrupt Z3 at once, and never land inside Z3's Python
        # wrapper, which a KeyboardInterrupt between two of its calls can leave
        # hanging or raising from a destructor.
        from concurrent.futures import ThreadPoolExecutor  # here: listing the engines should not import it

        worker = ThreadPoolExecutor(1, thread_name_prefix="z3")
        state: dict[str, Any] = {"stop": threading.Event()}

        def build() -> None:
            state["context"] = z3.Context()  # its own context: Z3's default one is not safe across threads
            model = _cells if self.theory == "bool" else _integers
            state["solver"], state["read"], state["block"] = model(z3, state["context"], n, fixed, self.variant,
                                                                   _going(state["stop"]))

        def step() -> Solution | str | None:
            """The next board (blocked for the checks after it), None at the end, or why Z3 gave up."""
            solver = state["solver"]
            answer = solver.check()
            stats["checks"] += 1
            if answer == z3.unsat:
                return None
            if answer != z3.sat:
                return f"z3 answered {answer}: {solver.reason_unknown()}"
            solution = state["read"](solver.model())
            solver.add(state["block"](solution))
            return solution

        def finish() -> None:
            if "solver" in state:
                numbers = state["solver"].statistics()
                for key in ("conflicts", "decisions"):
                    stats[key] = sum(int(numbers.get_key_value(name)) for name in numbers.keys()
                                     if name == key or name.endswith(" " + key))
            state.clear()  # Z3's objects are freed on its thread too

        stats.update(theory=self.theory, checks=0)
        found = 0
        try:
            _wait(worker.submit(build), state, deadline)
            while limit is None or found < limit:
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeLimitReached
                solution = _wait(worker.submit(step), state, deadline)
                if solution is None:
                    return
                if isinstance(solution, str):
                    raise NQueensError(solution)
                found += 1
                yield solution
        finally:
            worker.submit(finish).result()
            worker.shutdown()


_WAIT = 0.1  # seconds between looks at the clock while Z3 works


def _optimise_here(n: int, variant: Any, time_limit: float | None) -> tuple[Any, dict[str, Any]]:
    """:func:`_optimise` in this (child) process: (its answer, its statistics)."""
    import z3

    _hand_ctrl_c_to_python(z3)
    stats: dict[str, Any] = {}
    return _optimise(z3, n, variant, time_limit, stats), stats


def _optimise(z3: Any, n: int, variant: Any, time_limit: float | None, stats: dict[str, Any]) -> Any:
    """Z3's Optimize over Boolean cells: every square covered, minimise the queens."""
    from ..model.domination import coverers, lines

    deadline = None if time_limit is None else time.monotonic() + time_limit
    context = z3.Context()
    cell = {(r, c): z3.Bool(f"x_{r}_{c}", context) for r in range(n) for c in range(n)}
    opt = z3.Optimize(ctx=context)
    # [cost domination smt]
    for _, cover in coverers(n, variant):
        opt.add(z3.Or([cell[s] for s in cover]))
        if deadline is not None and time.monotonic() > deadline:  # (building takes minutes at N = 100)
            return None, False, 1, f"no answer within {time_limit:g} s (the model was not built)"
    objective = opt.minimize(z3.Sum([z3.If(x, 1, 0) for x in cell.values()]))
    # [end cost]
    # [cost independent smt]
    for line in lines(n) if variant.independent else ():
        opt.add(z3.AtMost(*[cell[s] for s in line], 1))
    # [end cost]
    if deadline is not None:
        opt.set("timeout", max(1, int((deadline - time.monotonic()) * 1000)))
    # In a thread, so that past the deadline the context is interrupted (Z3's own
    # timeout is not always kept) and the check answers 'unknown' with its bound,
    # before the parent kills this (child) process a second later.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="z3-optimize") as pool:
        try:
            answer = _wait(pool.submit(opt.check), {"context": context}, deadline)
        except TimeLimitReached:
            answer = z3.unknown
    stats["status"] = str(answer)
    lower = objective.lower()
    bound = lower.as_long() if z3.is_int_value(lower) else 1
    if answer != z3.sat:
        return None, False, max(1, bound), f"no answer within {time_limit:g} s" if time_limit else \
            f"z3 answered {answer}"
    model = opt.model()
    queens = [s for s, x in cell.items() if z3.is_true(model.eval(x, model_completion=True))]
    return queens, True, len(queens), "Z3's Optimize proved the objective optimal"


def _wait(future: Future, state: dict[str, Any], deadline: float | None) -> Any:
    """The future's result; on Ctrl-C (re-raised) or the deadline (TimeLimitReached), Z3 is interrupted first."""
    from concurrent.futures import TimeoutError as FutureTimeout, wait

    try:
        while True:
            try:
                return future.result(timeout=_WAIT)
            except FutureTimeout:
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeLimitReached from None
    except BaseException:
        if "stop" in state:
            state["stop"].set()  # (a build in progress gives up at its next call into Z3)
        if "context" in state:
            state["context"].interrupt()  # thread-safe: the check answers 'unknown' at once
        wait([future])
        raise


class _Abandoned(Exception):
    """A model's build given up: a Ctrl-C or the deadline came (raised on Z3's thread, never read)."""


def _going(stop: threading.Event) -> Callable[[], None]:
    """What a build calls between its calls into Z3: raises :class:`_Abandoned` once ``stop`` is set.
    Z3 cannot interrupt the building of a model, and a Ctrl-C waited for the whole of it: 1.5 s at
    N = 100 here, over 10 s with the suite beside it (test_every_engine_stops_at's smt row failed)."""

    def going() -> None:
        if stop.is_set():
            raise _Abandoned

    return going


def _each(items: Iterable[Any], going: Callable[[], None]) -> Iterator[Any]:
    """The items, ``going()`` before each."""
    for item in items:
        going()
        yield item


_handed = threading.Lock()
_ctrl_c_handed = False


def _hand_ctrl_c_to_python(z3: Any) -> None:
    """Turn off Z3's own SIGINT handler (a process-wide Z3 setting), once.

    During a check Z3 installs a handler that turns Ctrl-C into an 'unknown'
    answer and puts Python's back afterwards; a Ctrl-C that arrives as it
    does so is lost, and the search runs on to the end.  Without it, Python
    sees every Ctrl-C and :func:`_check` interrupts Z3 itself."""
    global _ctrl_c_handed
    with _handed:
        if not _ctrl_c_handed:
            z3.set_param("ctrl_c", False)
            _ctrl_c_handed = True


def _cells(z3: Any, context: Any, n: int, fixed: Any, variant: Any,
           going: Callable[[], None] = lambda: None) -> tuple[Any, Any, Any]:
    """The Boolean model: (solver, model -> board, board -> blocking clause); ``going()``
    between its calls into Z3 (a row of them at most), to give it up (:func:`_going`)."""
    from ..model.cnf import lines  # here: listing the engines should not import the CNF module (start-up)

    cell = []
    for r in range(n):
        going()
        cell.append([z3.Bool(f"x_{r}_{c}", context) for c in range(n)])
    solver = z3.SolverFor("QF_FD", ctx=context)
    for r in range(n):
        going()
        solver.add(z3.PbEq([(cell[r][c], 1) for c in range(n)], 1))
    for line in itertools.islice(lines(n, variant), n, None):  # the columns and the family's other lines
        going()
        if len(line) > 1:
            solver.add(z3.AtMost(*[cell[r][c] for r, c in line], 1))
    # [cost family smt]
    for (r1, c1), (r2, c2) in _each(variant.pairs(n), going):  # an offset apart (a knight's move)
        solver.add(z3.Or(z3.Not(cell[r1][c1]), z3.Not(cell[r2][c2])))
    # [end cost]
    for r, c in fixed.items():
        solver.add(cell[r][c])
    for r, c in getattr(fixed, "blocked", ()):
        solver.add(z3.Not(cell[r][c]))
    # The board as one N*N-bit word, row 0 in the high bits: one evaluation per model.
    one, zero = z3.BitVecVal(1, 1, context), z3.BitVecVal(0, 1, context)
    bits, avoid = [], []
    for row in cell:
        going()
        bits += [z3.If(x, one, zero) for x in row]
        avoid.append([z3.Not(x) for x in row])
    going()
    word = z3.Concat(*bits) if len(bits) > 1 else bits[0]
    mask = (1 << n) - 1

    def read(model: Any) -> Solution:
        value = model.eval(word, model_completion=True).as_long()
        # Row r's n bits; the queen in column c is bit n-1-c of them.
        return tuple(n - ((value >> (n * (n - 1 - r))) & mask).bit_length() for r in range(n))

    def block(solution: Solution) -> Any:
        return z3.Or([avoid[r][c] for r, c in enumerate(solution)], context)

    return solver, read, block


def _integers(z3: Any, context: Any, n: int, fixed: Any, variant: Any,
              going: Callable[[], None] = lambda: None) -> tuple[Any, Any, Any]:
    """The SMT-LIB file's model: (solver, model -> board, board -> blocking clause); ``going()``
    before and after Z3 reads the file, one call (:func:`_going`)."""
    solver = z3.Solver(ctx=context)
    text = formats.text("smt2", n, fixed, variant)
    going()
    solver.add(z3.parse_smt2_string(text, ctx=context))
    going()
    q = [z3.Int(f"q{r}", context) for r in range(n)]

    def read(model: Any) -> Solution:
        return tuple(model.eval(v, model_completion=True).as_long() for v in q)

    def block(solution: Solution) -> Any:
        return z3.Or([v != c for v, c in zip(q, solution)], context)

    return solver, read, block
