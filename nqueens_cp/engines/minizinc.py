"""Classic propagation CP: the MiniZinc tutorial's model, compiled by MiniZinc and solved by Gecode.

The model and its data are the files ``nqueens-cp export N --format mzn``
and ``--format dzn`` write (:mod:`nqueens_cp.model.formats`): alldifferent
on q[r], q[r] + r and q[r] - r, searched first-fail, smallest value first,
as the tutorial recommends.  ``minizinc --solver gecode --all-solutions``
runs as a child process; its output streams back a line at a time.

What we found when measuring it (docs/paradigms.md): with Debian's packages
(MiniZinc 2.6, Gecode 6.2) the three alldifferent reach Gecode as binary
disequalities, because MiniZinc 2.6 asks a solver library for
``fzn_all_different_int`` and Gecode 6.2's names it ``all_different_int``.
Handing Gecode its global back (a one-line redefinition) made enumeration
slower here, 1.10 s against 0.61 s at N = 12 (fewer nodes, dearer ones), so
the engine runs the model exactly as the tutorial writes it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import processes, stopping
from ..errors import NQueensError, TimeLimitReached
from ..model import formats
from ..model.board import Solution
from ..model.position import Position
from .base import Engine

if TYPE_CHECKING:
    import subprocess

_STAT = "%%%mzn-stat: "
_GRACE_SECONDS = 2.0  # after MiniZinc's own time limit, before the process is killed


class MiniZincEngine(Engine):
    name = "minizinc"
    summary = "MiniZinc model (3 alldifferent, first-fail), all solutions from Gecode, in a child process"
    programs = ("minizinc", "fzn-gecode")
    install = "Debian: apt install minizinc flatzinc; or MiniZinc's bundle from minizinc.org"
    paradigm = "CP"
    declarative = True
    group = "field"
    statistics = ("nodes", "failures", "propagations", "propagators", "solve_time")
    additive = frozenset({"nodes", "failures", "propagations", "solve_time"})
    effort = "nodes"
    enumeration_rate = count_rate = 1.5e4
    optimum_reach = {"domination": (9, 2.13, 2.6), "independent": (11, 3.55, 3.9)}
    first_solution_max_n = 60
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})

    def split_rows(self, n: int) -> int:
        return 1  # each part starts MiniZinc (tens of ms): N parts, not N^2

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        import subprocess  # here, not at the top: listing the engines should not import it (start-up)

        started: dict[str, Any] = {}
        with stopping.registered(lambda: processes.stop(started)), stopping.watchdog() as guard, \
                processes.own_folder(started, guard, "nqueens-mzn-") as folder:
            model, data = os.path.join(folder, "nqueens.mzn"), os.path.join(folder, "nqueens.dzn")
            for path, name in ((model, "mzn"), (data, "dzn")):
                with open(path, "w", encoding="utf-8") as handle:
                    handle.writelines(formats.write(name, n, fixed, self.variant))
            command = ["minizinc", "--solver", "gecode", "--statistics"]
            command += ["--all-solutions"] if limit is None else ["--num-solutions", str(limit)]
            if deadline is not None:
                command += ["--time-limit", str(max(int((deadline - time.monotonic()) * 1000), 1))]
            with open(os.path.join(folder, "stderr"), "w+", encoding="utf-8", errors="replace") as errors:
                try:
                    # MiniZinc's own temporary files (mznfile*.fzn) go into our folder, which goes with
                    # everything in it however the run ends; in a session of its own, MiniZinc and the
                    # solver it starts are killed together.
                    started["process"] = process = subprocess.Popen(
                        [*command, model, data], stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL,
                        text=True, encoding="utf-8", errors="replace", env={**os.environ, "TMPDIR": folder},
                        start_new_session=True)
                except OSError as exc:
                    raise NQueensError(f"cannot run minizinc: {exc.strerror or exc}") from exc
                guard.session(process.pid)
                yield from self._read(process, errors, stats, limit, deadline)

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """MiniZinc's ``solve minimize`` (model/domination.py) on Gecode; the
        "==========" line after the last solution is its proof of optimality."""
        import json
        import subprocess

        started: dict[str, Any] = {}
        with stopping.registered(lambda: processes.stop(started)), stopping.watchdog() as guard, \
                processes.own_folder(started, guard, "nqueens-mzn-") as folder:
            paths = [os.path.join(folder, "dominate.mzn"), os.path.join(folder, "dominate.dzn")]
            for path, name in zip(paths, ("mzn", "dzn")):
                with open(path, "w", encoding="utf-8") as handle:
                    handle.writelines(formats.write(name, n, None, self.variant))
            command = ["minizinc", "--solver", "gecode", *paths]
            if time_limit is not None:
                command[3:3] = ["--time-limit", str(max(1, int(time_limit * 1000)))]
            # In a session of its own, as the search's: stopped, MiniZinc and Gecode go together.
            started["process"] = process = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                env={**os.environ, "TMPDIR": folder}, start_new_session=True)
            guard.session(process.pid)
            try:
                out, err = process.communicate(timeout=None if time_limit is None else time_limit + _GRACE_SECONDS + 5)
            except subprocess.TimeoutExpired:
                return None, False, 1, f"no answer within {time_limit:g} s (MiniZinc killed)"
            finally:
                if process.poll() is None:  # (the time limit, Ctrl-C)
                    processes.kill(process)
                    process.communicate()
        if process.returncode != 0 or "=====ERROR=====" in out:
            said = [line for line in err.splitlines() if line.strip()]
            raise NQueensError(f"minizinc failed (exit {process.returncode}): {said[-1] if said else 'no message'}")
        found = [line for line in out.splitlines() if line.startswith("[")]
        queens = [divmod(v - 1, n) for v in json.loads(found[-1])] if found else None
        if queens is not None and "==========" in out:
            return queens, True, len(queens), "Gecode searched every better solution (==========)"
        return queens, False, 1, f"not proved optimal within {time_limit:g} s"

    def _read(self, process: subprocess.Popen, errors: Any, stats: dict[str, Any], limit: int | None,
              deadline: float | None) -> Iterator[Solution]:
        import json

        from .handover import Handover  # here: listing the engines (every command line) should not import queue (start-up)

        handover = Handover()
        ending: list[str] = []  # the line MiniZinc ends the search with, if any

        def read() -> None:
            try:
                for line in process.stdout:  # type: ignore[union-attr]
                    if line.startswith("q = "):
                        handover.add(tuple(json.loads(line[4:].rstrip().rstrip(";"))))
                    elif line.startswith(_STAT) and "=" in line:
                        key, _, value = line[len(_STAT):].strip().partition("=")
                        stats[_STAT_NAMES.get(key, key)] = _number(value)
                    elif line.startswith("====="):
                        ending.append(line.strip())
                    if handover.cancelled.is_set():
                        break
            finally:
                handover.finish()

        reader = threading.Thread(target=read, name="minizinc-output", daemon=True)
        reader.start()
        stopped = False
        try:
            # MiniZinc's own --time-limit stops it; the grace is for one that hangs.
            yield from handover.receive(None if deadline is None else deadline + _GRACE_SECONDS)
        finally:
            handover.cancel()
            if process.poll() is None:
                stopped = True
                processes.kill(process)
            process.wait()
            reader.join()
            process.stdout.close()  # type: ignore[union-attr]
            for key in [key for key in stats if key not in self.statistics]:
                del stats[key]
        if stopped and handover.timed_out:
            raise TimeLimitReached
        if process.returncode != 0 or "=====ERROR=====" in ending:
            errors.seek(0)
            said = [line.strip() for line in errors if line.strip() and not line.startswith(("Warning:", "  "))]
            raise NQueensError(f"minizinc failed (exit {process.returncode}): {said[-1] if said else 'no message'}")
        complete = "==========" in ending or "=====UNSATISFIABLE=====" in ending
        if not complete and not (limit is not None and handover.found >= limit):
            if deadline is not None:
                raise TimeLimitReached  # MiniZinc's --time-limit came first
            raise NQueensError("minizinc stopped before its search was complete")


# MiniZinc's statistics, under the names our other engines use where they mean the same
_STAT_NAMES = {"solveTime": "solve_time"}


def _number(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text
