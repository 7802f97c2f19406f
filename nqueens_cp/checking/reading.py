"""The forms a user's model comes in, as data (:data:`FORMS`), and which tool reads it.

Each :class:`Form` says how a model of it is named (its pattern and suffixes,
one file a N or not), the tool that reads it and what that tool needs, its
help paragraph, and its reader (``"module:Class"`` under this package,
imported only when a model of it is read).  Everything that lists the forms
derives from here: :func:`load` and :func:`form_of`, the errors that name
them, ``check --help`` and ``grade``'s way of finding a model in a folder.
Adding a form is one entry here and its reader's module (a test holds them
to each other, as the engines' registry is held).
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError
from .forms import ModelError, UserModel


@dataclass(frozen=True)
class Form:
    """One form of model ``check`` reads."""

    name: str
    pattern: str  # how a model of this form is named on the command line
    suffixes: tuple[str, ...]  # the file name endings that tell it ('' for none: a generator)
    per_n: bool  # one file a N, {n} in the path where N goes
    tool: str  # the tool that reads it (the reader class's ``tool``)
    needs: str  # what that tool needs beyond the core install ('' for nothing)
    reader: str  # "module:Class" in this package: the UserModel that reads it
    help: str  # the paragraph of check --help

    def read(self, *args: Any) -> UserModel:
        module, _, name = self.reader.partition(":")
        made: UserModel = getattr(importlib.import_module(module, __package__), name)(*args)
        return made


FORMS: tuple[Form, ...] = (
    Form("python", "PATH.py:FUNC", (".py",), False, "Python", "",
         ".python:PythonModel",
         "FUNC(n) returns (model, board): the model an OR-Tools CpModel, a CPMpy Model or a PySAT CNF; the board "
         "a list of n integer variables (the column of each row's queen, 0- or 1-based) or an n x n grid of 0/1 "
         "variables (for a CNF, the cells' variable ids)"),
    Form("minizinc", "PATH.mzn", (".mzn",), False, "MiniZinc (Gecode)", "MiniZinc and Gecode (Debian: minizinc flatzinc)",
         ".minizinc:MiniZincModel",
         "MiniZinc, n given as data (-D n=N), solved by Gecode; the board is the array --var (default q): n ints, "
         "or n x n of 0/1 or bool"),
    Form("clingo", "PATH.lp", (".lp",), False, "clingo", "clingo (the 'declarative' extra)",
         ".clingo:ClingoModel",
         "clingo, n given as a constant (-c n=N); the board is the predicate --var (default queen/2): "
         "queen(ROW, COLUMN)"),
    Form("dimacs", "PATH-{n}.cnf", (".cnf", ".dimacs"), True, "PySAT (CaDiCaL)", "",
         ".cnf:DimacsFiles",
         "one DIMACS file per N ({n:02} pads); the cell of row r, column c is variable r*N + c + 1 unless the "
         "file has 'c q ROW COL VAR' lines"),
    Form("pbtxt", "PATH-{n}.pbtxt", (".pbtxt",), True, "OR-Tools CP-SAT", "",
         ".cpsat:CpSatFiles",
         "a CP-SAT model exported as protobuf text, one file per N; the board is the variables q0 .. q{n-1} "
         "(--var another prefix)"),
    Form("generator", "--generator CMD", (), True, "PySAT (CaDiCaL)", "",
         ".cnf:Generated",
         "no MODEL: CMD with {n} replaced writes each N's DIMACS CNF to stdout"),
)


def form_named(name: str) -> Form:
    """The form called ``name``."""
    for form in FORMS:
        if form.name == name:
            return form
    raise InvalidInputError(f"no form {name!r}; the forms: {', '.join(f.name for f in FORMS)}")


def patterns() -> str:
    """The forms as the errors name them: 'PATH.py:FUNC, PATH.mzn, ..., or --generator CMD'."""
    named = [form.pattern for form in FORMS]
    return ", ".join(named[:-1]) + f", or {named[-1]}"


def form_of(model: Any, generator: str | None = None) -> Form:
    """The form of the model named so, told from the name alone (no file is
    read and none of the model's code runs): a usage mistake in the name is
    an InvalidInputError here, before any work."""
    if generator is not None:
        if model is not None:
            raise InvalidInputError("--generator writes the model: name no MODEL beside it")
        return form_named("generator")
    if model is None:
        raise InvalidInputError(f"name a MODEL ({patterns()})")
    if callable(model):
        return form_named("python")
    if not isinstance(model, (str, os.PathLike)):
        raise InvalidInputError(f"a model is a path ({patterns()}) or a function of n, got {type(model).__name__}")
    text = os.fspath(model)
    path, colon, _ = text.rpartition(":")
    if colon and path.endswith(".py"):
        return form_named("python")
    suffix = os.path.splitext(text)[1].lower()
    if suffix == ".py":
        raise InvalidInputError(f"{text}: name the function too, as {text}:FUNC (a function of n that returns "
                                "(model, board))")
    for form in FORMS:
        if suffix and suffix in form.suffixes:
            if form.per_n and "{n" not in text:
                raise InvalidInputError(f"{text}: put {{n}} in the path where N goes (one file per N), e.g. "
                                        f"{form.pattern.replace('PATH', 'queens')}")
            return form
    raise InvalidInputError(f"{text}: not a form check reads ({patterns()})")


def load(model: Any, var: str | None = None, generator: str | None = None, data: str | None = None,
         ignore_objective: bool = False, optimizing: bool = False) -> UserModel:
    """:func:`read`, and a model with an objective enumerated for its feasible boards where asked
    (``ignore_objective``), or its objective what is checked (``optimizing``)."""
    user = read(model, var, generator, data)
    user.ignore_objective, user.optimizing = ignore_objective, optimizing
    return user


def read(model: Any, var: str | None = None, generator: str | None = None, data: str | None = None) -> UserModel:
    """The user's model from what names it (:func:`form_of`), read by its
    form's reader.  ``data`` is more MiniZinc data, beside ``n``.  A Python
    model's code runs here: call this in the model's own process
    (:mod:`.isolate`), not the checker's."""
    form = form_of(model, generator)
    if data is not None and form.name != "minizinc":
        raise InvalidInputError("--data gives a MiniZinc model more data: the model is not a .mzn file")
    if form.name == "generator":
        return form.read(generator, var)
    if form.name == "python":
        from .python import PythonModel

        if callable(model):
            return PythonModel(model, getattr(model, "__name__", "model"), var)
        path, _, function = os.fspath(model).rpartition(":")
        return PythonModel.from_file(path, function, var)
    text = os.fspath(model)
    if not form.per_n and not os.path.isfile(text):
        raise ModelError(f"cannot read {text}: " + ("it is a directory" if os.path.isdir(text) else "no such file"))
    if form.name == "minizinc":
        return form.read(text, var, data)
    return form.read(text, var)
