"""A user's OR-Tools CP-SAT model: enumerated with one worker, a missing board explained by its constraints.

Enumeration is ``enumerate_all_solutions`` on one worker (more return
duplicates and miss solutions while reporting OPTIMAL), inprocessing off,
the solver on a thread of its own (:func:`nqueens_cp.engines.native.stream`).

A missing board is explained in the model's terms: with the board's
variables fixed, the first constraint that is infeasible on its own, or else
a minimal set of constraints that is (a deletion filter: each constraint left
out in turn, kept out where the rest stay infeasible), each named by its
index in the model, its name where it has one, and what it states.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import TimeLimitReached
from .forms import EXPECTED, COLUMNS, SQUARES, Determined, FilePerN, Instance, ModelError, Reason, objective_missing, objective_refused

CORE_SECONDS = 20.0  # the most a reason's deletion filter runs (each solve has the board fixed: milliseconds)


class CpSatInstance(Instance):
    def __init__(self, model: Any, rows: list[Any], n: int, name: str,
                 sites: dict[int, dict[str, Any]] | None = None, ignore_objective: bool = False,
                 optimizing: bool = False) -> None:
        from ortools.sat.python import cp_model

        self.model, self.n, self.name = model, n, name
        self.sites = sites or {}  # constraint index -> where the user's code added it (checking.sites)
        proto = model.proto
        if optimizing and not (proto.has_objective() or proto.has_floating_point_objective()):
            raise objective_missing(f"{name}({n})", "m.minimize(sum of the grid), say")
        if (proto.has_objective() or proto.has_floating_point_objective()) and not optimizing:
            if not ignore_objective:
                sense = "maximize" if proto.objective.scaling_factor < 0 or (
                    proto.has_floating_point_objective() and proto.floating_point_objective.maximize) else "minimize"
                raise objective_refused(f"{name}({n})", sense)
            copy = cp_model.CpModel()
            copy.proto.copy_from(proto)
            copy.proto.clear_objective()
            copy.proto.clear_floating_point_objective()
            self.model, proto = copy, copy.proto
        self.proto = proto

        def index(value: Any, where: str) -> int:
            if not isinstance(value, cp_model.IntVar):
                raise ModelError(f"{name}({n}): the board's entry {where} is of type {type(value).__name__}, not a "
                                 f"variable; expected {EXPECTED}")
            if not 0 <= value.index < len(proto.variables):
                raise ModelError(f"{name}({n}): the board's entry {where} is not a variable of the model returned")
            return int(value.index)

        if rows and isinstance(rows[0], list):
            self.kind = SQUARES
            self.cells = [(r, c, index(value, f"[{r}][{c}]")) for r, row in enumerate(rows)
                          for c, value in enumerate(row)]
            for r, c, i in self.cells:
                domain = list(proto.variables[i].domain)
                if domain[0] < 0 or domain[-1] > 1:
                    raise ModelError(f"{name}({n}): the grid's entry [{r}][{c}] ({_var(proto, i)}) takes "
                                     f"{domain[0]}..{domain[-1]}; a grid holds 0/1 variables")
            self.board = [i for _, _, i in self.cells]
        else:
            self.kind = COLUMNS
            self.board = [index(value, f"[{r}]") for r, value in enumerate(rows)]
            domains = [list(proto.variables[i].domain) for i in self.board]
            self.domain = (min(d[0] for d in domains), max(d[-1] for d in domains)) if domains else None

    def _raw(self, value: Any) -> tuple[Any, ...]:
        if self.kind == COLUMNS:
            return tuple([value(i) for i in self.board])
        return tuple((r, c) for r, c, i in self.cells if value(i))

    def _values(self, raw: tuple[Any, ...]) -> dict[int, int]:
        """The board's variables fixed to ``raw``: variable index -> value."""
        if self.kind == COLUMNS:
            return dict(zip(self.board, raw))
        queens = set(raw)
        return {i: int((r, c) in queens) for r, c, i in self.cells}

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        from ortools.sat.python import cp_model

        from ..engines import native

        solver = _solver(deadline)
        solver.parameters.enumerate_all_solutions = True
        raw = self._raw

        def solve(handover: Any) -> Any:
            class Recorder(cp_model.CpSolverSolutionCallback):
                def on_solution_callback(self) -> None:
                    handover.add(raw(self.SolutionIntegerValue))
                    if handover.cancelled.is_set():
                        self.stop_search()

            return solver.solve(self.model, Recorder())

        run = yield from native.stream(solve, solver.stop_search, "CP-SAT", deadline)
        if run.result == cp_model.MODEL_INVALID:
            raise ModelError(f"{self.name}({self.n}): CP-SAT rejects the model: {self.model.validate()}")
        if run.handover.timed_out or run.result not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise TimeLimitReached

    def _fixed(self, values: dict[int, int], keep: Iterable[int]) -> Any:
        """A copy of the model with the board's variables fixed and only the constraints ``keep``."""
        from ortools.sat.python import cp_model

        made = cp_model.CpModel()
        proto = made.proto
        for i, variable in enumerate(self.proto.variables):
            copy = proto.variables.add()
            if i in values:
                copy.name = variable.name
                copy.domain.append(values[i])
                copy.domain.append(values[i])
            else:
                copy.copy_from(variable)
        for i in keep:
            proto.constraints.add().copy_from(self.proto.constraints[i])
        return made

    def _status(self, values: dict[int, int], keep: Iterable[int], deadline: float | None) -> str:
        from ortools.sat.python import cp_model

        solver = _solver(deadline)
        status = solver.solve(self._fixed(values, keep))
        return {cp_model.INFEASIBLE: "infeasible", cp_model.OPTIMAL: "feasible", cp_model.FEASIBLE: "feasible",
                cp_model.MODEL_INVALID: "invalid"}.get(status, "unknown")

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        values = self._values(raw)
        for i, value in values.items():  # (a value the variable cannot take: fixing it would drop its domain)
            domain = list(self.proto.variables[i].domain)
            if not any(lo <= value <= hi for lo, hi in zip(domain[::2], domain[1::2])):
                shown = " or ".join(f"{lo}..{hi}" if lo != hi else str(lo) for lo, hi in zip(domain[::2], domain[1::2]))
                return Reason(f"the board needs {_var(self.proto, i)} = {value}, outside its declared domain {shown}",
                              (f"{_var(self.proto, i)} in {shown}",))
        every = range(len(self.proto.constraints))
        whole = self._status(values, every, deadline)
        if whole == "feasible":
            return Reason("CP-SAT finds a solution with this board fixed: the model accepts it, but its "
                          "enumeration never gave it", accepted=True)
        if whole != "infeasible":
            return Reason("CP-SAT could not decide, with this board fixed, whether the model accepts it")
        budget = time.monotonic() + CORE_SECONDS
        if deadline is not None:
            budget = min(budget, deadline)
        for i in every:  # the common case: one constraint is false for the board
            if time.monotonic() > budget:
                break
            if self._status(values, [i], budget) == "infeasible":
                return self._reason([i], "the model's constraint {} is false for this board")
        core = list(every)
        for i in list(core):
            if time.monotonic() > budget:
                return self._reason(core, "with this board fixed the model is infeasible; these constraints, not "
                                          "minimised in the time given, include the reason")
            trial = [j for j in core if j != i]
            if self._status(values, trial, budget) == "infeasible":  # (invalid: a removal broke a reference)
                core = trial
        return self._reason(core, f"no single constraint excludes it; these {len(core)} together do (a minimal set, "
                                  "the board fixed)")

    def _reason(self, indices: list[int], text: str) -> Reason:
        """The constraints as the student wrote them: at their line where it is known, and as CP-SAT holds them."""
        from .sites import named, where

        parts, sites = [], []
        for i in indices:
            found = self.sites.get(i)
            said = describe(self.proto, i)
            parts.append(f"{where(found)}   [{said}]" if found else said)
            sites.append(found)
        if "{}" in text:
            only = sites[0]
            text = text.format(f"at {named(only)}" if only else describe(self.proto, indices[0]))
        return Reason(text, tuple(parts), sites=tuple(sites))

    def optimize(self, deadline: float | None) -> tuple[int | None, bool, tuple[Any, ...] | None, int | None]:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.catch_sigint_signal = False
        solver.parameters.num_workers = 2  # (an optimum, unlike an enumeration, is sound on several workers)
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.001)
        status = solver.solve(self.model)
        if status == cp_model.MODEL_INVALID:
            raise ModelError(f"{self.name}({self.n}): CP-SAT rejects the model: {self.model.validate()}")
        if status == cp_model.INFEASIBLE:
            return None, True, None, None
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise TimeLimitReached
        values = list(solver.response_proto.solution)  # (by the variables' indices, as the board holds them)
        return (int(round(solver.objective_value)), status == cp_model.OPTIMAL, self._raw(values.__getitem__),
                int(round(solver.objective_value)))

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        from ortools.sat.python import cp_model

        model = self._fixed(self._values(raw), range(len(self.proto.constraints)))
        solver = _solver(deadline)
        solver.parameters.enumerate_all_solutions = True
        count = len(self.proto.variables)
        found: list[list[int]] = []

        class Two(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                found.append([self.SolutionIntegerValue(i) for i in range(count)])
                if len(found) == 2:
                    self.stop_search()

        solver.solve(model, Two())
        if len(found) < 2:
            return Determined(True) if found else None
        i = next(i for i in range(count) if found[0][i] != found[1][i])
        return Determined(False, f"{_var(self.proto, i)} takes {found[0][i]} and {found[1][i]}")


def _solver(deadline: float | None) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    # One worker: more return duplicates and miss solutions while reporting OPTIMAL.
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is Python's (CP-SAT's handler aborts the process)
    solver.parameters.use_sat_inprocessing = False  # enumeration goes back to the root after most solutions
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.001)
    return solver


def _var(proto: Any, index: int) -> str:
    name = proto.variables[index].name
    return name or f"variable #{index}"


def _literal(proto: Any, literal: int) -> str:
    return _var(proto, literal) if literal >= 0 else f"not {_var(proto, -literal - 1)}"


def _expression(proto: Any, expression: Any) -> str:
    terms = []
    for var, coeff in zip(expression.vars, expression.coeffs):
        name = _var(proto, var)
        terms.append(name if coeff == 1 else f"-{name}" if coeff == -1 else f"{coeff}*{name}")
    if expression.offset or not terms:
        terms.append(str(expression.offset))
    return " + ".join(terms).replace("+ -", "- ")


KINDS = ("all_diff", "linear", "bool_or", "bool_and", "at_most_one", "exactly_one", "bool_xor", "element", "table",
         "lin_max", "int_prod", "int_div", "int_mod", "inverse", "automaton", "circuit", "routes", "interval",
         "no_overlap", "no_overlap_2d", "cumulative", "reservoir")
_WIDTH = 160


_FAR = 1 << 62  # a bound past this is CP-SAT's int64 end: no bound at all


def linear_text(terms: list[tuple[str, int]], domain: list[int]) -> str:
    """A linear constraint as a student writes it: 'q0 != 1', 'q0 < q3', '2*x + y <= 7', never int64 domains."""
    left = " + ".join(name if c == 1 else f"{c}*{name}" for name, c in terms if c > 0) or "0"
    moved = " + ".join(name if c == -1 else f"{-c}*{name}" for name, c in terms if c < 0)

    def right(k: int) -> str:
        if not moved:
            return str(k)
        return moved if k == 0 else f"{moved} + {k}" if k > 0 else f"{moved} - {-k}"

    spans = list(zip(domain[::2], domain[1::2]))
    if len(spans) == 1:
        lo, hi = spans[0]
        if lo == hi:
            return f"{left} == {right(lo)}"
        if lo <= -_FAR and hi < _FAR:
            return f"{left} < {moved}" if moved and hi == -1 else f"{left} <= {right(hi)}"
        if hi >= _FAR and lo > -_FAR:
            return f"{left} > {moved}" if moved and lo == 1 else f"{left} >= {right(lo)}"
        if lo > -_FAR and hi < _FAR:
            return f"{right(lo)} <= {left} <= {right(hi)}" if not moved else \
                f"{left} >= {right(lo)} and {left} <= {right(hi)}"
        return f"{left} is any value"
    if len(spans) == 2 and spans[0][0] <= -_FAR and spans[1][1] >= _FAR and spans[1][0] - spans[0][1] == 2:
        return f"{left} != {right(spans[0][1] + 1)}"
    shown = " or ".join(f"{'' if lo <= -_FAR else lo}..{'' if hi >= _FAR else hi}" if lo != hi else str(lo)
                        for lo, hi in spans)
    return f"{left} - ({moved}) in {shown}" if moved else f"{left} in {shown}"


def describe(proto: Any, index: int) -> str:
    """Constraint ``index`` of the model as CP-SAT holds it, in the student's notation:
    '#2 "diagonals" AllDifferent(q0, q1 - 1, ...)', '#3 q0 != 1'."""
    ct = proto.constraints[index]
    kind = next((k for k in KINDS if getattr(ct, f"has_{k}")()), "constraint")
    body = ""
    if kind == "all_diff":
        body = ", ".join(_expression(proto, e) for e in ct.all_diff.exprs)
    elif kind == "linear":
        text = linear_text([(_var(proto, v), c) for v, c in zip(ct.linear.vars, ct.linear.coeffs)],
                           list(ct.linear.domain))
        body = ""
    elif kind in ("bool_or", "bool_and", "at_most_one", "exactly_one", "bool_xor"):
        body = ", ".join(_literal(proto, lit) for lit in getattr(ct, kind).literals)
    shown = {"all_diff": "AllDifferent", "bool_or": "BoolOr", "bool_and": "BoolAnd", "at_most_one": "AtMostOne",
             "exactly_one": "ExactlyOne", "bool_xor": "BoolXOr"}.get(kind, kind)
    text = text if kind == "linear" else f"{shown}({body})" if body else kind
    if len(ct.enforcement_literal):
        text = f"if {' and '.join(_literal(proto, lit) for lit in ct.enforcement_literal)}: {text}"
    named = f' "{ct.name}"' if ct.name else ""
    said = f"#{index}{named} {text}"
    return said if len(said) <= _WIDTH else said[:_WIDTH - 5] + " ...)"


class CpSatFiles(FilePerN):
    """CP-SAT models exported as protobuf text (``model.export_to_file('q-8.pbtxt')``),
    one file per N (``{n}`` in the path): the board is the variables named
    ``q0 .. q{n-1}`` (``--var`` names another prefix; ``q[0]`` and ``q_0`` are
    read too), or the grid ``q0_0 .. q{n-1}_{n-1}``."""

    tool = "OR-Tools CP-SAT"
    example = "models/nqueens-{n:02}-cpsat.pbtxt"

    def __init__(self, template: str, var: str | None = None) -> None:
        super().__init__(template)
        self.var = var or "q"

    def instance(self, n: int) -> Instance:
        from ortools.sat.python import cp_model

        path, text = self.text(n)
        model = cp_model.CpModel()
        try:
            model.proto.parse_text_format(text)
        except Exception as error:  # noqa: BLE001 - protobuf's own parse error, said in one line
            raise ModelError(f"{path} is not a CP-SAT model in protobuf text: {str(error).splitlines()[0]}") from None
        names = {variable.name: i for i, variable in enumerate(model.proto.variables)}
        v = self.var
        for form in ("{v}{r}", "{v}[{r}]", "{v}_{r}"):
            found = [names.get(form.format(v=v, r=r), -1) for r in range(n)]
            if -1 not in found:
                return CpSatInstance(model, [model.get_int_var_from_proto_index(i) for i in found], n,
                                     os.path.basename(path), ignore_objective=self.ignore_objective)
        grid = [[names.get(f"{v}{r}_{c}", -1) for c in range(n)] for r in range(n)]
        if all(i >= 0 for row in grid for i in row):
            return CpSatInstance(model, [[model.get_int_var_from_proto_index(i) for i in row] for row in grid], n,
                                 os.path.basename(path), ignore_objective=self.ignore_objective)
        raise ModelError(f"{path} has no variables {v}0 .. {v}{n - 1} (or {v}[r], {v}_r, or a grid {v}r_c) for N = {n}; "
                         "name the board's prefix with --var")
