"""Which tool reads a user's model, from what names it (the forms in
:mod:`.forms`' docstring): the one place that knows every tool's module, so
that each of them reads only :mod:`.forms`' interface, below it."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..errors import InvalidInputError
from .forms import ModelError, UserModel


def load(model: Any, var: str | None = None, generator: str | None = None, data: str | None = None) -> UserModel:
    """The user's model from what names it: a callable ``f(n)``, ``PATH.py:FUNC``,
    ``PATH.mzn``, ``PATH.lp``, ``PATH.cnf`` (with ``{n}``), or, with
    ``generator``, no model and a command that writes each N's CNF.  ``data``
    is more MiniZinc data, beside ``n``."""
    if generator is not None:
        if model is not None:
            raise InvalidInputError("--generator writes the model: name no MODEL beside it")
        from .cnf import Generated

        return Generated(generator, var)
    if model is None:
        raise InvalidInputError("name a MODEL (PATH.py:FUNC, PATH.mzn, PATH.lp, PATH-{n}.cnf) or --generator 'CMD {n}'")
    if callable(model):
        from .python import PythonModel

        return PythonModel(model, getattr(model, "__name__", "model"), var)
    if not isinstance(model, (str, os.PathLike)):
        raise InvalidInputError(f"a model is a path (PATH.py:FUNC, PATH.mzn, PATH.lp, PATH-{{n}}.cnf) or a "
                                f"function of n, got {type(model).__name__}")
    text = os.fspath(model)
    path, colon, function = text.rpartition(":")
    if colon and path.endswith(".py"):
        from .python import PythonModel

        return PythonModel.from_file(path, function, var)
    suffix = os.path.splitext(text)[1].lower()
    if data is not None and suffix != ".mzn":
        raise InvalidInputError("--data gives a MiniZinc model more data: the model is not a .mzn file")
    readers: dict[str, Callable[[str, str | None], UserModel]] = {}
    if suffix == ".mzn":
        from .minizinc import MiniZincModel

        readers[suffix] = MiniZincModel
    elif suffix == ".lp":
        from .clingo import ClingoModel

        readers[suffix] = ClingoModel
    elif suffix in (".cnf", ".dimacs"):
        from .cnf import DimacsFiles

        readers[suffix] = DimacsFiles
    elif suffix == ".pbtxt":
        from .cpsat import CpSatFiles

        readers[suffix] = CpSatFiles
    elif suffix == ".py":
        raise InvalidInputError(f"{text}: name the function too, as {text}:FUNC (a function of n that returns "
                                "(model, board))")
    if suffix not in readers:
        raise InvalidInputError(f"{text}: not a form check reads (PATH.py:FUNC, PATH.mzn, PATH.lp, PATH-{{n}}.cnf, "
                                "PATH-{n}.pbtxt, or --generator 'CMD {n}')")
    if suffix not in (".cnf", ".dimacs", ".pbtxt") and not os.path.isfile(text):
        raise ModelError(f"cannot read {text}: " + ("it is a directory" if os.path.isdir(text) else
                                                    "no such file"))
    if suffix == ".mzn":
        from .minizinc import MiniZincModel

        return MiniZincModel(text, var, data)
    return readers[suffix](text, var)
