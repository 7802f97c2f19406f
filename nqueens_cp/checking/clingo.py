"""A user's clingo program (``PATH.lp``, ``n`` given as a constant), grounded and solved by clingo.

The board is the predicate named by ``--var`` (default ``queen/2``, the
Potassco guide's): every atom ``queen(R, C)`` of an answer set is a queen,
rows and columns numbered as the program numbers them (0- or 1-based, told
from the answers).  Every answer set is listed, not projected, so that
answer sets that differ only elsewhere show up as duplicate boards.

A missing board is explained by the program's own rules: the board given
as facts (and no other queen), the rules are left out one at a time, kept
out where the program stays unsatisfiable (a deletion filter), and what
remains is named by file, line and column with its text.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from typing import Any

from ..errors import EngineUnavailableError, TimeLimitReached
from .forms import SQUARES, Determined, Instance, ModelError, Reason, UserModel, objective_refused

_BOARD = "nqueens_check_board"


def _control(n: int, messages: list[str], *options: str) -> Any:
    import clingo

    # (--opt-mode=ignore: a program's #minimize, where --ignore-objective let it through, leaves every answer set)
    return clingo.Control(["-c", f"n={n}", "--opt-mode=ignore", *options],
                          logger=lambda code, message: messages.append(message))


def _without_comments(text: str) -> str:
    return re.sub(r"%\*.*?\*%|%[^\n]*", "", text, flags=re.S)


class ClingoModel(UserModel):
    tool = "clingo"

    def __init__(self, path: str, var: str | None = None) -> None:
        try:
            import clingo  # noqa: F401
        except ImportError:
            raise EngineUnavailableError("checking a clingo program needs clingo: pip install clingo, or the "
                                         "'declarative' extra") from None
        self.path = self.name = path
        found = re.fullmatch(r"([a-z_][A-Za-z0-9_]*)(?:/(\d+))?", var or "queen/2")
        if not found or (found.group(2) and found.group(2) != "2"):
            raise ModelError(f"--var {var!r}: a clingo board is a predicate of two arguments, row and column "
                             "(e.g. queen/2)")
        self.predicate = found.group(1)
        with open(path, encoding="utf-8", errors="replace") as handle:
            self.text = handle.read()

    def instance(self, n: int) -> Instance:
        found = re.search(r"#(minimi[sz]e|maximi[sz]e)\b|:~", _without_comments(self.text))
        if found and not self.ignore_objective:
            sense = "maximize" if found.group(1) and found.group(1).startswith("max") else "minimize"
            raise objective_refused(self.path, sense)
        return ClingoInstance(self, n)


class ClingoInstance(Instance):
    kind = SQUARES
    numbered = True  # queen(ROW, COLUMN) as the program numbers them  # type: ignore[assignment]

    def __init__(self, model: ClingoModel, n: int) -> None:
        self.model, self.n = model, n
        self.notes: list[str] = []

    def _ground(self, program: str, *options: str) -> Any:
        messages: list[str] = []
        control = _control(self.n, messages, *options)
        try:
            control.add("base", [], program)
            control.ground([("base", [])])
            for message in messages:  # (clingo's own word on a mistake it can see: 'quen(I,J)', an atom no rule makes)
                warned = message.replace("<block>", self.model.path).strip().replace("\n", " ")
                if "does not occur in any rule head" in warned and warned not in self.notes:
                    self.notes.append(warned)
        except RuntimeError as error:
            said = [m.replace("<block>", self.model.path).rstrip() for m in messages] or [str(error)]
            raise ModelError(f"clingo cannot read {self.model.path}: {said[0].splitlines()[0]}",
                             "\n".join(said) if len(said) > 1 or "\n" in said[0] else "") from None
        return control

    def _squares(self, model: Any) -> tuple[tuple[int, int], ...]:
        found = []
        for atom in model.symbols(atoms=True):
            if atom.name == self.model.predicate and len(atom.arguments) == 2:
                row, col = atom.arguments
                if row.type.name != "Number" or col.type.name != "Number":
                    raise ModelError(f"{self.model.path}: {atom} is not {self.model.predicate}(ROW, COLUMN) of two "
                                     "integers")
                found.append((row.number, col.number))
        return tuple(sorted(found))

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        from ..engines import native

        control = self._ground(self.model.text, "--models=0")
        if not any(atom.symbol.name == self.model.predicate for atom in control.symbolic_atoms):
            raise ModelError(f"{self.model.path} has no atom {self.model.predicate}/2 at N = {self.n}; name the "
                             "board's predicate with --var")
        errors: list[Exception] = []

        def solve(handover: Any) -> Any:
            def record(model: Any) -> bool:
                try:
                    handover.add(self._squares(model))
                except ModelError as error:
                    errors.append(error)
                    return False
                return not handover.cancelled.is_set()

            return control.solve(on_model=record)

        run = yield from native.stream(solve, control.interrupt, "clingo", deadline)
        if errors:
            raise errors[0]
        if run.handover.timed_out:
            raise TimeLimitReached

    def _fixed(self, raw: tuple[Any, ...]) -> str:
        """The board as facts, and no other queen."""
        p = self.model.predicate
        facts = "".join(f"{_BOARD}({r},{c}). {p}({r},{c}). " for r, c in raw)
        return f"\n{facts}\n:- {p}(R,C), not {_BOARD}(R,C).\n"

    def _satisfiable(self, program: str) -> bool:
        control = self._ground(program)
        return bool(control.solve().satisfiable)

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        import clingo.ast

        statements: list[Any] = []
        try:
            clingo.ast.parse_string(self.model.text, statements.append)
        except RuntimeError as error:
            raise ModelError(f"clingo cannot parse {self.model.path}: {error}") from None
        rules = [i for i, s in enumerate(statements) if s.ast_type == clingo.ast.ASTType.Rule]
        fixed = self._fixed(raw)

        def program(kept: list[int]) -> str:
            return "\n".join(str(s) for i, s in enumerate(statements) if i in kept or i not in rules) + fixed

        if self._satisfiable(program(rules)):
            return Reason("clingo finds an answer set with this board: the program accepts it, but its "
                          "enumeration never gave it", accepted=True)
        core = list(rules)
        for i in list(core):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitReached
            trial = [j for j in core if j != i]
            if not self._satisfiable(program(trial)):
                core = trial
        from .sites import site

        parts = tuple(self._where(statements[i]) for i in core)
        sites = tuple(site(os.path.abspath(self.model.path), statements[i].location.begin.line) for i in core)
        if len(parts) == 1:
            return Reason(f"the program's rule at {parts[0].split(': ')[0]} excludes this board (without it, the board "
                          "is an answer set)", parts, sites=sites)
        return Reason(f"no single rule excludes it; these {len(parts)} together do (a minimal set, the board given "
                      "as facts)", parts, sites=sites)

    def _where(self, statement: Any) -> str:
        begin = statement.location.begin
        return f"{os.path.basename(self.model.path)}:{begin.line}:{begin.column}: {statement}"

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        control = self._ground(self.model.text + self._fixed(raw), "--models=2")
        found: list[set[str]] = []
        control.solve(on_model=lambda model: found.append({str(s) for s in model.symbols(atoms=True)}))
        if len(found) < 2:
            return Determined(True) if found else None
        differ = sorted(found[0] ^ found[1])
        return Determined(False, f"atom {differ[0]} is in one answer set and not the other")
