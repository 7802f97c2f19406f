"""A user's MiniZinc model (``PATH.mzn``, ``int: n;`` given per N), read by MiniZinc itself and solved by Gecode.

- ``minizinc --model-interface-only`` says whether the board's array (``--var``,
  default ``q``: the MiniZinc tutorial's name) is there, of which type and
  dimension;
- ``--all-solutions --output-mode json`` lists every solution's variables,
  whatever the model's own output item says; a small extra file traces the
  array's index sets and declared bounds as MiniZinc flattens;
- a missing board is given to the model as data (``q = array1d(...)``): MiniZinc
  evaluates the constraints with it and says which one is false, by its
  location in the model ("model inconsistency detected", then the file, line
  and columns), which the reason quotes with the line's own text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

from .. import processes, stopping
from ..errors import EngineUnavailableError, TimeLimitReached
from .forms import COLUMNS, SQUARES, Determined, Instance, ModelError, Reason, UserModel, objective_missing, objective_refused, source_line

_PROBE = "%%nqcp"
_LOCATION = re.compile(r"(.+?):(\d+)\.(\d+)(?:-(\d+)(?:\.(\d+))?)?:?")
_GRACE = 5.0  # seconds past the deadline before a MiniZinc that has not stopped is killed


def _said(text: str) -> list[str]:
    """MiniZinc's messages without the warnings Debian's packaging prints for every model."""
    lines, skip = [], False
    for line in text.splitlines():
        if line.startswith("Warning: included file") or "overrides a global constraint" in line:
            skip = True
            continue
        if skip and not line.strip():
            skip = False
            continue
        if line.strip():
            lines.append(line.rstrip())
    return lines


class MiniZincModel(UserModel):
    tool = "MiniZinc (Gecode)"

    def __init__(self, path: str, var: str | None = None, data: str | None = None) -> None:
        if shutil.which("minizinc") is None:
            raise EngineUnavailableError("checking a MiniZinc model needs MiniZinc and Gecode (Debian: apt install "
                                         "minizinc flatzinc)")
        self.path = self.name = path
        self.var = var or "q"
        self.data = ["-D", data] if data else []  # more data than n, as MiniZinc's -D takes it
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", self.var):
            raise ModelError(f"--var {self.var!r}: not a MiniZinc identifier")

    def _satisfied(self) -> str:
        """A copy of the model whose solve item is 'solve satisfy;' (its lines where they were), in the
        process's scratch folder: --ignore-objective."""
        if self.path != self.name:
            return self.path  # (made at an earlier N)
        import weakref

        from .. import scratch

        with open(self.path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        changed = re.sub(r"\bsolve\b[^;]*\b(minimi[sz]e|maximi[sz]e)\b[^;]*;",
                         lambda found: "solve satisfy;" + "\n" * found.group(0).count("\n"), text)
        folder = scratch.make("nqueens-mzn-")
        weakref.finalize(self, shutil.rmtree, folder, ignore_errors=True)
        copy = os.path.join(folder, os.path.basename(self.path))
        with open(copy, "w", encoding="utf-8") as handle:
            handle.write(changed)
        return copy

    def instance(self, n: int) -> Instance:
        code, out, err = _run(["minizinc", "--model-interface-only", "-D", f"n={n};", *self.data, self.path], None)
        if code != 0:
            said = _said(err)
            if any(line.startswith("cmd:") for line in said) and "undefined identifier `n'" in err:
                raise ModelError(f"{self.path} declares no 'int: n;': check gives each N to the model as the data n")
            if "multiple assignment" in err:
                raise ModelError(f"MiniZinc cannot read {self.path}: {_first_error(said)} (check gives each N to the "
                                 "model as the data n: declare it 'int: n;', with no value)", "\n".join(said))
            raise ModelError(f"MiniZinc cannot read {self.path}: {_first_error(said)}", "\n".join(said))
        try:
            interface = json.loads(out)
        except ValueError:
            raise ModelError(f"MiniZinc's interface of {self.path} is not JSON: {out[:80]!r}") from None
        method = interface.get("method", "sat")
        if self.optimizing and method == "sat":
            raise objective_missing(f"{self.path} (solve satisfy)", "solve minimize ...")
        if method != "sat" and not self.optimizing:
            if not self.ignore_objective:
                raise objective_refused(self.path, {"min": "minimize", "max": "maximize"}.get(method, method))
            self.path = self._satisfied()
        outputs = interface.get("output", {})
        if self.var not in outputs:
            have = ", ".join(sorted(outputs)) or "none"
            raise ModelError(f"{self.path} has no decision variable {self.var} (its variables: {have}); name the "
                             "board's array with --var")
        kind, dim = outputs[self.var].get("type"), outputs[self.var].get("dim", 0)
        if not (dim == 1 and kind == "int") and not (dim == 2 and kind in ("int", "bool")):
            raise ModelError(f"{self.path}: {self.var} is {'an array of ' + str(dim) + ' dimensions of ' if dim else 'a '}"
                             f"{kind}; a board is an array of n int (a column a row) or an n x n array of 0/1 or bool")
        return MiniZincInstance(self, n, dim, kind)


class MiniZincInstance(Instance):
    def __init__(self, model: MiniZincModel, n: int, dim: int, kind: str) -> None:
        self.model, self.n, self.dim, self.type = model, n, dim, kind
        self.kind = COLUMNS if dim == 1 else SQUARES
        self.indices: list[tuple[int, int]] = [(1, n)] * dim  # the array's index sets, as the probe traces them
        self._domain: tuple[int, int] | None = None
        self._traced = ""

    @property
    def domain(self) -> tuple[int, int] | None:  # type: ignore[override]
        self._read_probe()
        return self._domain

    def _probe(self) -> str:
        v = self.model.var
        if self.dim == 1:
            return (f'constraint trace("{_PROBE} " ++ show(index_set({v})) ++ " " ++ show(lb_array({v})) ++ " " '
                    f'++ show(ub_array({v})) ++ "\\n");\n')
        return (f'constraint trace("{_PROBE} " ++ show(index_set_1of2({v})) ++ " " ++ show(index_set_2of2({v})) '
                f'++ "\\n");\n')

    def _probe_file(self, folder: str) -> str:
        """The probe (:meth:`_probe`) written as a model file in ``folder``: its path."""
        path = os.path.join(folder, "probe.mzn")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self._probe())
        return path

    def _read_probe(self) -> None:
        for line in self._traced.splitlines():
            if line.startswith(_PROBE):
                numbers = [int(x) for x in re.findall(r"-?\d+", line[len(_PROBE):])]
                if self.dim == 1 and len(numbers) == 4:
                    self.indices = [(numbers[0], numbers[1])]
                    self._domain = (numbers[2], numbers[3])
                elif self.dim == 2 and len(numbers) == 4:
                    self.indices = [(numbers[0], numbers[1]), (numbers[2], numbers[3])]

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        started: dict[str, Any] = {}
        with stopping.registered(lambda: processes.stop(started)), stopping.watchdog() as guard, \
                processes.own_folder(started, guard, "nqueens-mzn-") as folder:
            probe = self._probe_file(folder)
            words = ["minizinc", "--solver", "gecode", "--all-solutions", "--output-mode", "json", "-D",
                     f"n={self.n};", *self.model.data, self.model.path, probe]
            if deadline is not None:
                words[1:1] = ["--time-limit", str(max(int((deadline - time.monotonic()) * 1000), 1))]
            errors_path = os.path.join(folder, "stderr")
            with open(errors_path, "w+", encoding="utf-8", errors="replace") as errors:
                started["process"] = process = subprocess.Popen(
                    words, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL, text=True,
                    encoding="utf-8", errors="replace", env={**os.environ, "TMPDIR": folder}, start_new_session=True)
                guard.session(process.pid)
                ended = ""
                try:
                    for raw in self._read(process, errors, deadline):
                        if isinstance(raw, str):
                            ended = raw
                        else:
                            yield raw
                finally:
                    if process.poll() is None:
                        processes.kill(process)
                    process.wait()
                    process.stdout.close()  # type: ignore[union-attr]
                errors.seek(0)
                whole = errors.read()
                said = _said(whole)
                if not self._traced:  # (no solution came: the probe's trace tells the declared domain all the same)
                    self._traced = whole
            if ended == "=====UNKNOWN=====" or (deadline is not None and not ended and time.monotonic() > deadline):
                raise TimeLimitReached
            if process.returncode != 0 or ended.startswith("=====ERROR") or not ended:
                raise ModelError(f"MiniZinc failed on {self.model.path} at N = {self.n}: {_first_error(said)}",
                                 "\n".join(said))

    def _read(self, process: Any, errors: Any, deadline: float | None) -> Iterator[Any]:
        """The solutions MiniZinc prints (the board from each JSON object), then the line that ends its search."""
        from ..engines.handover import Handover
        import threading

        handover = Handover()

        def read() -> None:
            chunk: list[str] = []
            try:
                for line in process.stdout:
                    if line.startswith("----------"):
                        handover.add(json.loads("".join(chunk)))
                        chunk = []
                    elif line.startswith("====="):
                        handover.add(line.strip())  # the line that ends the search (a str among the solutions)
                    elif line.strip():
                        chunk.append(line)
                    if handover.cancelled.is_set():
                        break
            except ValueError:  # (not JSON: MiniZinc's own output item cannot be read)
                handover.add(f"=====ERROR: not JSON: {''.join(chunk)[:80]!r}")  # type: ignore[arg-type]
            finally:
                handover.finish()

        reader = threading.Thread(target=read, name="minizinc-check", daemon=True)
        reader.start()
        try:
            for item in handover.receive(None if deadline is None else deadline + _GRACE):
                if isinstance(item, str):
                    yield item
                    continue
                if not self._traced:
                    errors.flush()
                    with open(errors.name, encoding="utf-8", errors="replace") as traced:
                        self._traced = traced.read()
                yield self._board(item)  # type: ignore[arg-type]  # a solution as JSON
        finally:
            handover.cancel()
            if process.poll() is None:
                processes.kill(process)
            reader.join()

    def _board(self, solution: dict[str, Any]) -> tuple[Any, ...]:
        value = solution.get(self.model.var)
        if self.dim == 1:
            return tuple(int(v) for v in value)  # type: ignore[union-attr]
        return tuple((r, c) for r, row in enumerate(value) for c, v in enumerate(row) if v)  # type: ignore[arg-type]

    def _data(self, raw: tuple[Any, ...]) -> str:
        """The board as MiniZinc data for the model's own array."""
        v = self.model.var
        if self.dim == 1:
            (low, high), = self.indices
            return f"{v} = array1d({low}..{high}, [{', '.join(map(str, raw))}]);\n"
        queens = set(raw)
        (low, high), (left, right) = self.indices
        cells = [(r, c) in queens for r in range(self.n) for c in range(self.n)]
        words = [("true" if q else "false") if self.type == "bool" else str(int(q)) for q in cells]
        return f"{v} = array2d({low}..{high}, {left}..{right}, [{', '.join(words)}]);\n"

    def _with_board(self, raw: tuple[Any, ...], extra: list[str], deadline: float | None) -> tuple[int, str, str]:
        from .. import scratch

        with scratch.folder("nqueens-check-") as folder:
            data = os.path.join(folder, "board.dzn")
            with open(data, "w", encoding="utf-8") as handle:
                handle.write(self._data(raw))
            return _run(["minizinc", "--solver", "gecode", *extra, "-D", f"n={self.n};", *self.model.data,
                         self.model.path, data],
                        deadline, folder)

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        code, out, err = self._with_board(raw, [], deadline)
        said = _said(err)
        if "----------" in out:
            return Reason("MiniZinc finds a solution with this board given as data: the model accepts it, but its "
                          "enumeration never gave it", accepted=True)
        if "=====UNSATISFIABLE=====" not in out:
            return Reason(f"MiniZinc could not decide with this board given as data: {_first_error(said)}")
        place = self._location(said)
        if place is None:
            return Reason("MiniZinc and Gecode find no solution with this board given as data; no single "
                          "constraint is false on its own as MiniZinc flattens it (they exclude it together)")
        from .sites import site

        where, text, call, row = place
        return Reason(f"the model's constraint at {where} is false for this board" + (f" (in {call})" if call else ""),
                      (f"{where}: {text}" if text else where,), sites=(site(os.path.abspath(self.model.path), row, text),))

    def _location(self, said: list[str]) -> tuple[str, str, str, int] | None:
        """The first place in the user's file that MiniZinc's inconsistency
        trace names: (file:line.columns, that line's text, the call in it, the line)."""
        if not any("model inconsistency detected" in line for line in said):
            return None
        real = os.path.realpath(self.model.path)
        for number, line in enumerate(said):
            match = _LOCATION.fullmatch(line.strip())
            if match and os.path.realpath(match.group(1)) == real:
                row = int(match.group(2))
                call = said[number + 1].strip() if number + 1 < len(said) and said[number + 1].strip().startswith(
                    "in ") else ""
                place = f"{os.path.basename(self.model.path)}:{line.strip().split(':')[-1]}"
                return place, source_line(self.model.path, row), call[3:] if call else "", row
        return None

    def optimize(self, deadline: float | None) -> tuple[int | None, bool, tuple[Any, ...] | None, int | None]:
        """The model's best board, solved by Gecode: the last solution MiniZinc prints, proved where it
        ends with '=========='."""
        from .. import scratch

        with scratch.folder("nqueens-check-") as folder:
            probe = self._probe_file(folder)
            words = ["minizinc", "--solver", "gecode", "--output-mode", "json", "--output-objective", "-D",
                     f"n={self.n};", *self.model.data, self.model.path, probe]
            if deadline is not None:
                words[1:1] = ["--time-limit", str(max(int((deadline - time.monotonic()) * 1000), 1))]
            code, out, err = _run(words, deadline, folder)
        self._traced = err
        if "=====UNSATISFIABLE=====" in out:
            return None, True, None, None
        found = [chunk for chunk in out.split("----------")[:-1] if chunk.strip()]
        if code != 0 or not found:
            if "=====UNKNOWN=====" in out or (deadline is not None and time.monotonic() > deadline):
                raise TimeLimitReached
            said = _said(err)
            raise ModelError(f"MiniZinc failed on {self.model.path} at N = {self.n}: {_first_error(said)}",
                             "\n".join(said))
        best = json.loads(found[-1])
        value = best.get("_objective")
        return (None if value is None else int(value), "==========" in out, self._board(best),
                None if value is None else int(value))

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        code, out, _ = self._with_board(raw, ["--all-solutions", "--num-solutions", "2", "--output-mode", "json"],
                                        deadline)
        found = [json.loads(chunk) for chunk in out.split("----------")[:-1] if chunk.strip()]
        if len(found) < 2:
            return Determined(True) if found else None
        name = next((k for k in found[0] if found[0][k] != found[1].get(k)), "a variable")
        return Determined(False, f"{name} takes two values")


def _first_error(said: list[str]) -> str:
    """The line of MiniZinc's messages that says what is wrong, with where it is, if it says."""
    for number, line in enumerate(said):
        if line.startswith("Error:") or "error" in line.lower():
            places = [s.strip() for s in said[max(0, number - 3):number] if _LOCATION.fullmatch(s.strip())]
            return f"{places[-1]} {line.strip()}" if places else line.strip()
    return said[-1] if said else "no message"


def _run(words: list[str], deadline: float | None, folder: str | None = None) -> tuple[int, str, str]:
    """One MiniZinc run, waited for (until ``deadline`` and a grace); killed with its solver however it ends.
    Its own temporary files (mznfile*) go into ``folder``, or one made for the run."""
    if folder is None:
        from .. import scratch

        with scratch.folder("nqueens-check-") as own:
            return _run(words, deadline, own)
    process = subprocess.Popen(words, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               text=True, encoding="utf-8", errors="replace", start_new_session=True,
                               env={**os.environ, "TMPDIR": folder} if folder else None)
    try:
        out, err = process.communicate(timeout=None if deadline is None else
                                       max(deadline - time.monotonic(), 0) + _GRACE)
    except subprocess.TimeoutExpired:
        raise TimeLimitReached from None
    finally:
        if process.poll() is None:
            processes.kill(process)
            process.communicate()
    return process.returncode, out, err
