"""Engines over a batch of instance files: answers, times and effort, checked.

The files are CSPLib prob079 instances (:mod:`nqueens_cp.model.instances`), given
as files, directories (their ``*.param`` files) or glob patterns.  An
Excluded Diagonals file needs D, the diagonals it uses: one ``diagonals``
for all, or an answers table (the TSV of the published sample: file, D,
published answer 1/0, the authors' nodes) that gives each file its own D and
the answer to check against.

Every instance is run by every engine (in this process, one after the
other, each with the time limit).  The complete engines must agree with
each other and with the published answer; any disagreement is reported.
"""

from __future__ import annotations

import glob
import os
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .completion import check_engines
from ..execution import execute
from ..execution.plan import plan_solve
from ..engines import Status, engine_class, names
from ..errors import InvalidInputError
from ..model.instances import Instance, InstanceError, read_instance

COLUMNS = ("file", "n", "diagonals", "placed", "blocked", "engine", "status", "seconds", "effort", "effort_unit",
           "published", "agrees")
SUMMARY_COLUMNS = ("engine", "instances", "solved", "none", "unknown", "median_s", "worst_s", "wrong")


@dataclass(frozen=True)
class Published:
    """A published answer: the D of the instance, satisfiable or not, the authors' nodes."""

    diagonals: int
    satisfiable: bool
    nodes: int | None


def read_answers(path: str) -> dict[str, Published]:
    """An answers table: lines 'file<TAB>D<TAB>1|0[<TAB>nodes]', '#' comments; keyed by file name."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except (OSError, UnicodeDecodeError) as error:
        raise InstanceError(f"cannot read answers {path}: {getattr(error, 'strerror', None) or error}") from None
    found: dict[str, Published] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\r").split("\t")
        try:
            name, d, answer = fields[0], int(fields[1]), int(fields[2])
            nodes = int(fields[3]) if len(fields) > 3 and fields[3].strip() else None
        except (IndexError, ValueError):
            raise InstanceError(f"{path}:{number}: expected 'file<TAB>D<TAB>1|0[<TAB>nodes]'") from None
        if answer not in (0, 1) or d < 0:
            raise InstanceError(f"{path}:{number}: D must be >= 0 and the answer 1 or 0")
        found[Path(name).name] = Published(d, answer == 1, nodes)
    return found


def instance_files(paths: Sequence[str]) -> list[str]:
    """Files, directories (their *.param files, sorted) and glob patterns, expanded, in order, once each."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            if not os.access(path, os.R_OK | os.X_OK):
                raise InstanceError(f"cannot read the directory {path}: permission denied")
            matches = sorted(glob.glob(os.path.join(glob.escape(path), "*.param")))
            if not matches:
                raise InvalidInputError(f"{path}: a directory with no *.param files")
        elif os.path.exists(path):
            matches = [path]
        elif glob.has_magic(path):
            matches = sorted(glob.glob(path))
            if not matches:
                raise InvalidInputError(f"{path}: no file matches")
        else:
            raise InvalidInputError(f"cannot read {path}: No such file or directory")
        found += [m for m in matches if m not in found]
    return found


def load(paths: Sequence[str], diagonals: int | None = None,
         answers: dict[str, Published] | None = None) -> list[tuple[Instance, Published | None]]:
    """Every instance read (each with its D and published answer, if known), before anything runs."""
    loaded = []
    for path in instance_files(paths):
        published = (answers or {}).get(Path(path).name)
        d = diagonals if diagonals is not None else (published.diagonals if published else None)
        try:
            instance = read_instance(path, d, for_all=diagonals is not None)  # (--diagonals D for all: its files)
        except InvalidInputError as error:
            if d is None and answers is not None and not isinstance(error, InstanceError):
                raise InvalidInputError(f"{path} is not in the answers table: its D is unknown "
                                        "(add it, or give --diagonals)") from None
            raise
        loaded.append((instance, published if published and published.diagonals == instance.diagonals else None))
    return loaded


def run(paths: Sequence[str], engines: Sequence[str] | None = None, diagonals: int | None = None,
        answers: str | None = None, time_limit: float = 60.0,
        progress: Callable[[str], None] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows (one per instance and engine, in :data:`COLUMNS`) and the problems
    found: complete engines that disagree, answers that differ from the published ones."""
    chosen = check_engines(engines)
    loaded = load(paths, diagonals, read_answers(answers) if answers else None)
    complete = set(names(proves_none=True))
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for index, (instance, published) in enumerate(loaded, 1):
        decided: dict[str, Status] = {}
        for engine in chosen:
            if progress:
                progress(f"batch: {instance.name} ({index}/{len(loaded)}) {engine}")
            outcome = execute.solve(plan_solve(instance.n, engine, instance.position(), time_limit=time_limit,
                                               jobs=1))
            unit = engine_class(engine).effort
            status = outcome.status
            if status is Status.SOLVED or (status is Status.NONE and engine in complete):
                decided[engine] = status
            wrong = published is not None and engine in decided and (status is Status.SOLVED) != published.satisfiable
            rows.append({
                "file": instance.path, "n": instance.n, "diagonals": instance.diagonals,
                "placed": len(instance.fixed), "blocked": len(instance.blocked), "engine": engine,
                "status": status.value, "seconds": round(outcome.seconds, 6),
                "effort": outcome.stats.get(unit) if unit else None, "effort_unit": unit,
                "published": None if published is None else int(published.satisfiable),
                "agrees": None if engine not in decided or published is None else not wrong,
            })
            if wrong:
                problems.append(f"{instance.name}: {engine} says {status} where the published answer is "
                                f"{'none' if status is Status.SOLVED else 'satisfiable'}")
        if len(set(decided.values())) > 1:
            problems.append(f"{instance.name}: complete engines disagree: "
                            + ", ".join(f"{e} {s}" for e, s in sorted(decided.items())))
    return rows, problems


def summary(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per engine: answers, median and worst time, answers that contradict the published ones."""
    found = []
    for engine in dict.fromkeys(row["engine"] for row in rows):
        mine = [row for row in rows if row["engine"] == engine]
        times = [row["seconds"] for row in mine]
        found.append({
            "engine": engine, "instances": len(mine),
            "solved": sum(row["status"] == "solved" for row in mine),
            "none": sum(row["status"] == "none" for row in mine),
            "unknown": sum(row["status"] == "unknown" for row in mine),
            "median_s": statistics.median(times), "worst_s": max(times),
            "wrong": sum(row["agrees"] is False for row in mine),
        })
    return found
