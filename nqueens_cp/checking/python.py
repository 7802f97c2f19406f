"""A model written in Python: ``PATH.py:FUNC``, or the function itself.

``FUNC(n)`` returns ``(model, board)``:

- ``model``: an OR-Tools ``CpModel``, a CPMpy ``Model`` or a PySAT ``CNF``;
- ``board``: a list of n integer variables, the column of the queen in each
  row (0- or 1-based: told from their declared domain), or an n x n grid
  (a list of n rows of n) of 0/1 or Boolean variables, true where a queen
  stands; for a CNF, the grid's variable ids (ints).

Anything else is refused in one line that says what was expected.  The
user's code runs in this process: an exception it raises is shown as their
traceback (the frames of their file and below), never ours.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .forms import EXPECTED, Instance, ModelError, UserModel, objective_missing, objective_refused

class PythonModel(UserModel):
    """A Python function of n that builds the model."""

    tool = "Python"

    def __init__(self, function: Callable[[int], Any], name: str, var: str | None = None) -> None:
        if var is not None:
            raise ModelError("--var names a MiniZinc array or a clingo predicate: a Python model returns its board")
        self.function = function
        self.name = name
        code = getattr(function, "__code__", None)
        self.path = code.co_filename if code is not None else ""

    @classmethod
    def from_file(cls, path: str, function: str, var: str | None = None) -> PythonModel:
        import runpy

        if not function.isidentifier():
            raise ModelError(f"{path}:{function}: '{function}' is not a Python function name")
        if not os.path.isfile(path):
            raise ModelError(f"cannot read {path}: " + ("it is a directory" if os.path.isdir(path) else "no such file"))
        try:
            with beside(path):
                namespace = runpy.run_path(path, run_name="__nqueens_check__")
        except SyntaxError as error:  # Python's own message, with the file and line
            detail = "".join(traceback.format_exception_only(type(error), error))
            raise ModelError(f"{error.filename or path}, line {error.lineno}: {error.msg}", detail) from None
        except ImportError as error:  # a package the model needs and this Python lacks: one line says which
            raise ModelError(_missing(path, error)) from None
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's code, shown as theirs
            raise ModelError(f"loading {path} raised {_said(error)}", user_traceback(error, path)) from None
        found = namespace.get(function)
        if not callable(found):
            defined = sorted(name for name, value in namespace.items()
                             if callable(value) and getattr(value, "__module__", None) == "__nqueens_check__")
            raise ModelError(f"{path} has no function {function}" +
                             (f" (it defines {', '.join(defined)})" if defined else ""))
        made = cls(found, f"{os.path.basename(path)}:{function}", var)
        made.path = path
        return made

    def instance(self, n: int) -> Instance:
        from .sites import recording

        try:
            with beside(self.path), recording() as recorder:
                result = self.function(n)
        except ImportError as error:
            raise ModelError(_missing(f"{self.name}({n})", error)) from None
        except MemoryError as error:
            raise ModelError(f"{self.name}({n}) ran out of memory (MemoryError)", user_traceback(error, self.path),
                             memory=True) from None
        except (Exception, SystemExit) as error:  # noqa: BLE001 - the user's code, shown as theirs
            raise ModelError(f"{self.name}({n}) raised {_said(error)}", user_traceback(error, self.path)) from None
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise ModelError(f"{self.name}({n}) returned {_kind(result)}; expected {EXPECTED}")
        model, board = result
        module = type(model).__module__ or ""
        if module.startswith("ortools.sat"):
            from ortools.sat.python import cp_model

            if isinstance(model, cp_model.CpModel):
                from .cpsat import CpSatInstance

                return CpSatInstance(model, rows_of(board, n, self.name), n, self.name, recorder.of(model),
                                     self.ignore_objective, self.optimizing)
        if module.startswith("cpmpy") and type(model).__name__ == "Model":
            from .cpmpy import CpmpyInstance

            if self.optimizing and not model.has_objective():
                raise objective_missing(f"{self.name}({n})", "m.minimize(sum of the grid), say")
            if model.has_objective() and not self.optimizing:
                if not self.ignore_objective:
                    raise objective_refused(f"{self.name}({n})", "minimize" if model.objective_is_min else "maximize")
                model = type(model)(model.constraints)
            return CpmpyInstance(model, rows_of(board, n, self.name), n, self.name)
        if module.startswith("pysat") and hasattr(model, "clauses"):
            from .cnf import CnfInstance, cell_grid

            return CnfInstance(list(model.clauses), int(model.nv), cell_grid(rows_of(board, n, self.name), n,
                                                                             self.name), n, sites=recorder.of(model))
        raise ModelError(f"{self.name}({n}) returned a model of type {type(model).__name__}; expected {EXPECTED}")


@contextmanager
def beside(path: str) -> Iterator[None]:
    """The model's own folder first on ``sys.path`` while its code runs, as
    ``python PATH.py`` would have it: a model that imports a module beside
    it finds it."""
    folder = os.path.dirname(os.path.abspath(path)) if path else ""
    if not folder or folder in sys.path:
        yield
        return
    sys.path.insert(0, folder)
    try:
        yield
    finally:
        if folder in sys.path:
            sys.path.remove(folder)


def rows_of(board: Any, n: int, name: str) -> list[Any]:
    """The board's n entries (a variable each, or a row of n): lists and NumPy
    arrays taken; any other shape refused, saying what was expected."""
    entries = board.tolist() if hasattr(board, "tolist") and hasattr(board, "shape") else board
    if isinstance(entries, (str, bytes)) or not hasattr(entries, "__len__") or not hasattr(entries, "__getitem__"):
        raise ModelError(f"{name}({n}) returned a board of type {type(board).__name__}; expected {EXPECTED}")
    entries = list(entries)
    if len(entries) != n:
        raise ModelError(f"{name}({n}) returned a board of {len(entries)} entries for N = {n} (does the model "
                         f"ignore n?); expected {EXPECTED}")
    nested = [hasattr(entry, "__len__") and not isinstance(entry, (str, bytes)) for entry in entries]
    if any(nested):
        if not all(nested) or any(len(row) != n for row in entries):
            raise ModelError(f"{name}({n}) returned a board that is neither n variables nor an n x n grid; "
                             f"expected {EXPECTED}")
        return [list(row) for row in entries]
    return entries


def user_traceback(error: BaseException, path: str) -> str:
    """The traceback of ``error`` from the first frame in the user's file on:
    their code and what it called, not the check that called it."""
    tb = error.__traceback__
    real = os.path.realpath(path) if path else ""
    while tb is not None and os.path.realpath(tb.tb_frame.f_code.co_filename) != real:
        tb = tb.tb_next
    if tb is None:
        return "".join(traceback.format_exception_only(type(error), error))
    return "".join(traceback.format_exception(type(error), error, tb))


def _missing(where: str, error: ImportError) -> str:
    """A model that imports what this Python lacks, in one line: which package, which Python, and
    where the package is one of our own dependencies, the Python that has them."""
    return (f"{where} imports {error.name or 'a package'}, which the Python running the check ({sys.executable}) "
            f"cannot load: {str(error).splitlines()[0] if str(error) else type(error).__name__}"
            f"{_installed_elsewhere(error.name)}")


OUR_DEPENDENCIES = ("ortools", "pysat", "numpy")  # (the import names of pyproject.toml's dependencies)


def _installed_elsewhere(name: str | None) -> str:
    """Where a model imports one of our own dependencies that this Python lacks, what to run instead:
    the README's install puts them in the clone's .venv, and ``python3 -m nqueens_cp`` in the clone
    runs the package from its folder with a Python that may have none of them; else ''."""
    import importlib.util
    from pathlib import Path

    top = (name or "").partition(".")[0]
    if top not in OUR_DEPENDENCIES or importlib.util.find_spec(top) is not None:  # (a module of it is missing)
        return ""
    venv = Path(__file__).resolve().parents[2] / ".venv"
    if (venv / "bin" / "python").exists() and Path(sys.prefix).resolve() != venv.resolve():
        return (f"; it is one of nqueens_cp's own dependencies, which the README's install put in {venv}: "
                f"run {venv}/bin/python -m nqueens_cp")
    return "; it is one of nqueens_cp's own dependencies: install nqueens-cp for this Python (README.md)"


def _said(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _kind(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} of {len(value)}"
    return "None" if value is None else f"a {type(value).__name__}"
