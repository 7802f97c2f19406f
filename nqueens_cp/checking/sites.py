"""Where each constraint of a user's model was added: the user's file, line, and that line's text.

A reason in the solver's terms (``linear(q0 in -9223372036854775808..0 or
2..9223372036854775807)``, ``clause 81: -5 0``) names nothing a student
wrote.  While ``FUNC(n)`` builds its model, :func:`recording` watches the
methods that add to it (every ``CpModel.add*`` that adds a constraint, and
their CamelCase twins, which call them; PySAT's ``CNF.append`` and
``extend``): each call's new constraints or clauses are noted with the
frame that called it from outside the solver's package and ours, that is
the student's line.  A reason then quotes ``cpsat_line.py:10  m.Add(q[0]
!= 1)``.  In the model's own process (:mod:`.child`) nothing else runs
there; in the checker's (``isolate=False``) the methods are put back when
``FUNC(n)`` returns.
"""

from __future__ import annotations

import functools
import linecache
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

# CpModel methods whose name starts with add but add no constraint
NOT_CONSTRAINTS = ("add_hint", "add_assumption", "add_assumptions", "add_decision_strategy")


def site(file: str, line: int, source: str | None = None) -> dict[str, Any]:
    """A place in the user's files, as a reason's JSON carries it."""
    if source is None:
        source = linecache.getline(file, line).strip()
    return {"file": file, "line": line, "source": source}


def named(found: dict[str, Any]) -> str:
    """'file.py:10 (m.Add(q[0] != 1))': a place in a sentence."""
    return f"{os.path.basename(found['file'])}:{found['line']}" + (f" ({found['source']})" if found["source"] else "")


def where(found: dict[str, Any] | None) -> str:
    """'file.py:10  m.Add(q[0] != 1)' (the file's name alone), or ''."""
    if not found:
        return ""
    return f"{os.path.basename(found['file'])}:{found['line']}" + (f"  {found['source']}" if found["source"] else "")


def _outside() -> tuple[str, ...]:
    """The folders whose frames are not the user's: the solvers' packages and ours."""
    folders = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]  # (nqueens_cp)
    for name in ("ortools", "pysat", "cpmpy"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            folders.append(os.path.dirname(os.path.abspath(str(module.__file__))))
    folders.append(os.path.dirname(os.path.abspath(str(functools.__file__))))  # (the standard library)
    return tuple(folder + os.sep for folder in folders)


def caller() -> dict[str, Any] | None:
    """The innermost frame outside the solvers' packages, ours and Python's own: the user's line."""
    skip = _outside()
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith("<frozen") and not os.path.abspath(name).startswith(skip):
            return site(name, frame.f_lineno)
        frame = frame.f_back  # type: ignore[assignment]
    return None


class Recorder:
    """The sites of what was added to each model while recording, by the model object."""

    def __init__(self) -> None:
        self._sites: dict[int, dict[int, dict[str, Any]]] = {}
        self._held: list[Any] = []  # (the models themselves: an id is only theirs while they live)
        self._depth = threading.local()

    def of(self, model: Any) -> dict[int, dict[str, Any]]:
        """Constraint (or clause) index -> its site, for ``model``."""
        return self._sites.get(id(model), {})

    def wrap(self, owner: type, name: str, count: Callable[[Any], int]) -> Callable[..., Any]:
        original = getattr(owner, name)

        @functools.wraps(original)
        def noted(model: Any, *args: Any, **kwargs: Any) -> Any:
            if getattr(self._depth, "value", 0):  # (an add that calls another: the outer call's line)
                return original(model, *args, **kwargs)
            before = count(model)
            self._depth.value = 1
            try:
                result = original(model, *args, **kwargs)
            finally:
                self._depth.value = 0
            after = count(model)
            if after > before:
                found = caller()
                if found is not None:
                    if id(model) not in self._sites:
                        self._held.append(model)
                    table = self._sites.setdefault(id(model), {})
                    for index in range(before, after):
                        table[index] = found
            return result

        return noted


@contextmanager
def recording() -> Iterator[Recorder]:
    """Note where each constraint and clause is added while the block runs (see the module's docstring)."""
    recorder = Recorder()
    patched: list[tuple[type, str, Any]] = []

    def patch(owner: type, name: str, count: Callable[[Any], int]) -> None:
        patched.append((owner, name, owner.__dict__.get(name)))
        setattr(owner, name, recorder.wrap(owner, name, count))

    try:
        if "ortools.sat.python.cp_model" in sys.modules:  # (the model's module imported it, or it is not used)
            from ortools.sat.python import cp_model

            for name in dir(cp_model.CpModel):
                if name.startswith("add") and name not in NOT_CONSTRAINTS and callable(getattr(cp_model.CpModel, name)):
                    patch(cp_model.CpModel, name, lambda model: len(model.proto.constraints))
        if "pysat.formula" in sys.modules:
            from pysat.formula import CNF

            for name in ("append", "extend"):
                patch(CNF, name, lambda formula: len(formula.clauses))
        yield recorder
    finally:
        for owner, name, before in reversed(patched):
            if before is None:
                delattr(owner, name)
            else:
                setattr(owner, name, before)

