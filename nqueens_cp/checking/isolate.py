"""The user's model in a process of its own; the verdict stays in the checker's.

A model is untrusted code: run in the checker's process, one ``os._exit(0)``
made ``check`` exit 0 with no output, and one monkeypatch made every later
model "agree".  Here everything the model does (its import, ``FUNC(n)``,
its solver's enumeration, a generator command, MiniZinc, clingo) runs in a
child (:mod:`.child`) started in a session of its own:

- in a fresh scratch folder as its working directory (``HOME`` and
  ``TMPDIR`` too), with a clean environment (``PATH``, the locale and this
  package's own path, nothing else), stdin from /dev/null;
- under limits: an address-space limit (``memory`` beyond what the process
  has mapped as it starts, plus room for the solver's threads' stacks:
  RLIMIT_AS, which every process it starts inherits), a file-size limit, no core files, and no network where the
  machine allows it without privileges (a network namespace of its own);
- its stdout and stderr go to a file, read back bounded (the first and last
  few KB), never mixed into the checker's;
- it answers on a pipe of its own, one JSON object a line, read here as
  untrusted input (:class:`Sandbox`): a board that is no board of N, a
  line too long, anything but the answer asked for, is the model's
  failure, never the checker's.

However it ends (an answer, the time limit, a crash, ``os._exit``, a raised
``KeyboardInterrupt``, a signal), every process it started goes with it:
its session, and any process still carrying its environment's marker
(one that left the session); the checker's watchdog does the same if the
checker itself is killed outright, and the child asks Linux to kill it
when the checker dies.  The scratch folder is removed.  The checker keeps
the reference, the validator, the comparison and the verdict.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .forms import COLUMNS, SQUARES, Determined, Instance, ModelError, Reason, UserModel
from .sandbox import DEFAULT_MEMORY, Limits, Sandbox, parse_size

__all__ = ["DEFAULT_MEMORY", "IsolatedModel", "Limits", "RemoteInstance", "isolated", "parse_size"]


class IsolatedModel(UserModel):
    """The user's model, read and run in its :class:`Sandbox`."""

    def __init__(self, sandbox: Sandbox, deadline: float | None, shown: tuple[str, str] | None = None) -> None:
        self.sandbox, self.deadline = sandbox, deadline
        loaded = sandbox.receive(deadline).get("loaded")
        if not isinstance(loaded, dict):
            raise ModelError("the model's process did not say it had read the model", output=sandbox.output())
        self.name, self.tool = str(loaded.get("name", "model"))[:200], str(loaded.get("tool", ""))[:80]
        self.network_cut = loaded.get("network") == "cut"
        if shown is not None:  # (the path as the user gave it, not as the sandbox was told it)
            self.name = self.name.replace(*shown)

    def instance(self, n: int) -> Instance:
        told = self.sandbox.ask({"op": "instance", "n": n}, self.deadline).get("instance")
        if not isinstance(told, dict) or told.get("kind") not in (COLUMNS, SQUARES):
            raise ModelError(f"the model's process did not describe its model at N={n}", output=self.sandbox.output())
        return RemoteInstance(self.sandbox, n, told, self.deadline)


class RemoteInstance(Instance):
    """The model at one N, in its sandbox: what it answers, checked as untrusted input."""

    def __init__(self, sandbox: Sandbox, n: int, told: dict[str, Any], deadline: float | None) -> None:
        self.sandbox, self.n, self.deadline = sandbox, n, deadline
        self.kind = told["kind"]
        self._numbered = bool(told.get("numbered"))
        self._domain(told.get("domain"))

    def _domain(self, domain: Any) -> None:
        if domain is not None:
            if not (isinstance(domain, list) and len(domain) == 2 and all(_integer(v) for v in domain)):
                raise self._malformed("a domain")
            self.domain = (domain[0], domain[1])

    @property
    def numbered(self) -> bool:
        return self._numbered

    def _malformed(self, what: str) -> ModelError:
        return ModelError(f"the model's process answered {what} that is not one at N={self.n}",
                          output=self.sandbox.output())

    def _board(self, value: Any) -> tuple[Any, ...]:
        n = self.n
        if self.kind == COLUMNS:
            if isinstance(value, list) and len(value) == n and all(_integer(v) for v in value):
                return tuple(value)
        elif isinstance(value, list) and len(value) <= n * n and all(
                isinstance(s, list) and len(s) == 2 and _integer(s[0]) and _integer(s[1]) for s in value):
            return tuple(sorted((s[0], s[1]) for s in value))
        raise self._malformed(f"a solution ({str(value)[:60]})")

    def _wire(self, raw: tuple[Any, ...]) -> list[Any]:
        return list(raw) if self.kind == COLUMNS else [list(square) for square in raw]

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        answer = self.sandbox.ask({"op": "solutions"}, deadline)
        while "raw" in answer:
            yield self._board(answer["raw"])
            answer = self.sandbox.receive(deadline)
        if answer.get("end") is not True:
            raise self._malformed("an end of its solutions")
        self._domain(answer.get("domain"))
        notes = answer.get("notes")
        self.notes = [str(note)[:500] for note in notes[:20]] if isinstance(notes, list) else []

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        said = self.sandbox.ask({"op": "why", "raw": self._wire(raw)}, deadline).get("reason")
        if not (isinstance(said, dict) and isinstance(said.get("text"), str) and isinstance(said.get("parts"), list)
                and all(isinstance(p, str) for p in said["parts"])):
            raise self._malformed("a reason")
        sites = said["sites"] if isinstance(said.get("sites"), list) else []
        return Reason(said["text"][:2000], tuple(p[:2000] for p in said["parts"][:200]), said.get("accepted") is True,
                      tuple(_site(s) for s in sites[:200]))

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        answer = self.sandbox.ask({"op": "determined", "raw": self._wire(raw)}, deadline)
        said = answer.get("determined", "absent")
        if said is None:
            return None
        if not (isinstance(said, dict) and isinstance(said.get("determined"), bool)):
            raise self._malformed("whether a board determines the model")
        return Determined(said["determined"], str(said.get("example", ""))[:500])

    def optimize(self, deadline: float | None) -> tuple[int | None, bool, tuple[Any, ...] | None, int | None]:
        said = self.sandbox.ask({"op": "optimize"}, deadline).get("optimum")
        if not isinstance(said, dict) or not isinstance(said.get("proved"), bool):
            raise self._malformed("an optimum")
        value, objective = said.get("value"), said.get("objective")
        if not all(v is None or _integer(v) for v in (value, objective)):
            raise self._malformed("an optimum's value")
        raw = said.get("raw")
        if raw is not None and self.kind == SQUARES and not (isinstance(raw, list) and len(raw) <= self.n * self.n):
            raise self._malformed("a board")
        return value, said["proved"], None if raw is None else self._board(raw), objective

    def close(self) -> None:
        """Free the instance in the sandbox (quietly: a failure here follows one already raised)."""
        from ..errors import NQueensError

        if self.sandbox.returncode is None:
            try:
                self.sandbox.ask({"op": "close"}, self.deadline)
            except NQueensError:
                pass


def _site(value: Any) -> dict[str, Any] | None:
    """A place the model's process says a part was written: {file, line, source}, or None."""
    if isinstance(value, dict) and isinstance(value.get("file"), str) and _integer(value.get("line")) \
            and isinstance(value.get("source"), str):
        return {"file": value["file"][:1000], "line": value["line"], "source": value["source"][:500]}
    return None


def _integer(value: Any) -> bool:
    return type(value) is int and -(1 << 62) < value < 1 << 62


def isolated(model: Any, var: str | None, generator: str | None, data: str | None, limits: Limits,
             deadline: float | None, ignore_objective: bool = False,
             optimizing: bool = False) -> tuple[Sandbox, IsolatedModel]:
    """The model read in a sandbox of its own: (the sandbox, to close; the model)."""
    function = model if callable(model) else None
    shown = None
    if function is None and model is not None:
        given = os.fspath(model)
        model = os.path.abspath(given)  # (the sandbox works in a folder of its own)
        shown = (model, given)
    if generator is not None:
        generator = _absolute_words(generator)
    request = {"model": model if function is None else None, "var": var, "generator": generator, "data": data,
               "ignore_objective": ignore_objective, "optimizing": optimizing}
    sandbox = Sandbox(request, limits, function)
    try:
        return sandbox, IsolatedModel(sandbox, deadline, shown)
    except BaseException:
        sandbox.close()
        raise


def _absolute_words(command: str) -> str:
    """The generator's command with each word that names a file here made
    absolute: it runs in the sandbox's own folder (``python3 gen.py {n}``
    still finds gen.py)."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return command  # (the reader says what is wrong with it)
    return shlex.join(os.path.abspath(word) if "{n" not in word and os.path.exists(word) and not os.path.isabs(word)
                      else word for word in words)
