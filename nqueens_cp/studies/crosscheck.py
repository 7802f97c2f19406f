"""Compare engines exactly: counts, solution sets, and the published totals.

Each engine's solutions are validated one by one with the independent
validator, turned into one integer key each (see :func:`board.pack`) and kept
in a sorted array, so that an N=14 run holds a few megabytes per engine, not
hundreds of thousands of tuples.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from contextlib import closing
from dataclasses import asdict, dataclass, field
from typing import Any

from ..execution import execute, parallel, pools
from ..execution.advice import advice
from ..execution.plan import Plan, plan
from ..execution.workers import check_jobs
from ..model import symmetry
from ..model.board import orbit, pack, unpack
from ..model.question import Question
from ..engines import Engine, engine_class, get_engines, names
from .compare import expand
from ..errors import EngineUnavailableError, InvalidInputError, TimeLimitReached
from ..known import FUNDAMENTAL, TOTAL
from ..model import variants


@dataclass
class EngineResult:
    engine: str
    count: int
    seconds: float
    agrees: bool = True


@dataclass
class Row:
    """One N: every engine's result, and what went wrong, if anything."""

    n: int
    known: int | None
    known_unique: int | None = None
    unique: int | None = None  # fundamental solutions in the reference set
    results: list[EngineResult] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


@dataclass
class Report:
    """A whole cross-check: the engines compared, one row per N, what was skipped."""

    engines: list[str]
    rows: list[Row] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # engine -> why it could not run here

    @property
    def ok(self) -> bool:
        return all(row.ok for row in self.rows)

    @property
    def problems(self) -> list[str]:
        return [problem for row in self.rows for problem in row.problems]

    def to_dict(self) -> dict[str, Any]:
        return {"engines": self.engines, "skipped": self.skipped, "ok": self.ok,
                "rows": [row.to_dict() for row in self.rows]}


def crosscheck(sizes: Iterable[int], engines: list[str] | None = None, *, jobs: int | None = None,
               progress: Callable[[str], None] | None = None, rows: Callable[[Row], None] | None = None,
               notify: Callable[[str], None] | None = None, time_limit: float | None = None,
               **options: Any) -> Report:
    """Run every engine on every N and compare their exact solution sets with
    each other (the first engine is the reference), the counts with A000170,
    and the reference's fundamental solutions with A002562 and its orbits.

    ``engines`` defaults to every available core engine that enumerates (the
    unavailable ones are listed in ``Report.skipped``), and may name presets
    ("classic": the tutorial backtrackers); ``options`` go to the engines that
    take them.  ``rows(row)`` is called as each N is done, ``notify(message)``
    with a warning for the first N no engine can list in reasonable time.
    ``time_limit`` (seconds) covers the whole run: past it, TimeLimitReached
    (the rows done so far have been given to ``rows``).
    """
    from ..engines.search import check_time_limit

    check_time_limit(time_limit)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    sizes = sorted(set(sizes))
    for n in sizes:
        if type(n) is not int or n < 1:
            raise InvalidInputError(f"N must be a positive integer, got {n!r}")
    skipped = {}
    variant = variants.get(options.get("variant", "queens"))
    if engines is None:  # the core engines that answer the variant
        engines = names(enumerates=True, available=True, group="core", variant=variant)
        skipped = {name: engine_class(name).unavailable_reason() or ""
                   for name in names(enumerates=True, available=False, group="core")}
    # (a preset brings the engines that answer this question by listing it, as compare's do: crosscheck 1-8
    # --engines teaching exited 2 on construct, and -V toroidal --engines declarative on cpmpy)
    engines = expand(list(engines), variant=variant)
    for name in engines:
        cls = engine_class(name)
        if not cls.enumerates and not cls.counts_only:
            raise InvalidInputError(f"engine {name} finds one solution and cannot enumerate: it cannot be cross-checked")
        if cls.unavailable_reason():
            raise EngineUnavailableError(f"engine '{name}' is unavailable: {cls.unavailable_reason()}")
    chosen = get_engines(list(engines), **options)
    workers = check_jobs(jobs)
    if notify and variant == variants.PLAIN:  # the first hopeless N is said before the work, once, with the slowest engine's estimate
        for i, n in enumerate(sizes):
            notes = [note for name in chosen for note in advice(n, name, jobs=workers)]
            if notes:
                later = len(sizes) - i - 1
                notify(f"crosscheck lists every solution of every engine; {notes[-1]}"
                       + (f" (and the {later:,} larger N asked would need longer)" if later else ""))
                break
    report = Report(list(chosen), skipped=skipped)
    for n in sizes:
        try:
            row = check_n(n, chosen, progress, workers, deadline)
        except TimeLimitReached:
            raise TimeLimitReached(f"the time limit of {time_limit:g} s came at N={n}, before every N was "
                                   "checked") from None
        report.rows.append(row)
        if rows:
            rows(row)
    return report


def _sorted_keys(keys: Iterable[int], n: int) -> Sequence[int]:
    ordered = sorted(keys)
    # n**n <= 2**64 for n <= 16, so the keys fit an unsigned 64-bit array.
    return array("Q", ordered) if n <= 16 else ordered


def _first_difference(a: Sequence[int], b: Sequence[int]) -> tuple[int, bool] | None:
    """A key in exactly one of two sorted sequences, with True if it is in ``a``."""
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            i += 1
            j += 1
        elif a[i] < b[j]:
            return a[i], True
        else:
            return b[j], False
    if i < len(a):
        return a[i], True
    if j < len(b):
        return b[j], False
    return None


def _format(key: int, n: int) -> str:
    return " ".join(map(str, unpack(key, n)))


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline``; TimeLimitReached if none are left."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeLimitReached
    return left


def _collect(plans: dict[str, Plan], n: int, jobs: int, pool: Executor, split: bool,
             progress: Callable[[str], None] | None,
             deadline: float | None = None) -> Iterator[tuple[str, Sequence[int], str | None, float]]:
    """For each engine in turn: its name, every solution's key, the first
    invalid board (None if all are valid) and the seconds since the previous
    engine finished.  Unless ``split``, each engine searches whole, in this process."""
    started = time.perf_counter()
    if not split:
        for name, engine in ((name, plan.engine) for name, plan in plans.items()):
            if progress:
                progress(f"N={n} {name}")
            with engine.search(n, time_limit=_left(deadline)) as search:
                keys, invalid = parallel.packed(search, n, valid=parallel.Validator(Question(n, engine.variant)))
            if search.timed_out:
                raise TimeLimitReached
            yield name, keys, invalid, time.perf_counter() - started
            started = time.perf_counter()
        return
    # Every engine's sub-problems go through one pool as one stream, so the
    # next engine starts on a core as soon as the last ones of this engine
    # leave it free.
    wall = parallel.wall_deadline(deadline)
    calls = {name: [(*call, wall) for call in execute.key_calls(plan)] for name, plan in plans.items()}
    with closing(pools.in_order(pool, (call for todo in calls.values() for call in todo), 4 * jobs,
                                deadline)) as results:
        for name, todo in calls.items():
            if progress:
                progress(f"N={n} {name}")
            keys, invalid = array("Q"), None
            for _ in todo:
                data, bad, _stats, timed_out = next(results)
                if timed_out:
                    raise TimeLimitReached
                keys.frombytes(data)
                invalid = invalid or bad
            yield name, keys, invalid, time.perf_counter() - started
            started = time.perf_counter()


def check_n(n: int, engines: dict[str, Engine], progress: Callable[[str], None] | None = None, jobs: int = 1,
            deadline: float | None = None) -> Row:
    """Run every engine on n and compare them with each other and with A000170.

    The first engine is the reference the others are compared with.  With
    ``jobs`` > 1, large N are split across processes (see :mod:`parallel`),
    and an engine's time is then the wall time from the end of the previous
    engine to its own end (the pool may have started it a little earlier).
    Past ``deadline`` (time.monotonic()), TimeLimitReached.
    """
    if deadline is not None and time.monotonic() >= deadline:
        raise TimeLimitReached
    variant = next(iter(engines.values())).variant
    row = Row(n, TOTAL.get(n), FUNDAMENTAL.get(n)) if variant == variants.PLAIN else \
        Row(n, variant.known.get(n), variant.classes.get(n))
    reference: tuple[str, Sequence[int]] | None = None
    # How each engine searches n is plan()'s to say, as for enumerate and count:
    # split (in key-shipping parts, n <= 16) only where every plan splits.
    plans = {name: plan(n, engine, jobs=jobs) for name, engine in engines.items() if engine.enumerates}
    split = n <= parallel.KEY_MAX_N and all(p.split for p in plans.values())
    pool = pools.make_executor(min(p.jobs for p in plans.values()) if split and plans else 1)
    symmetry_check: Future | None = None
    finished = False
    try:
        for name, keys, invalid, seconds in _collect(plans, n, jobs, pool, split, progress, deadline):
            result = EngineResult(name, len(keys), seconds)
            row.results.append(result)
            problems = []
            if invalid is not None:
                problems.append(f"N={n}: engine {name} produced an invalid board: {invalid}")
            ordered = _sorted_keys(keys, n)
            del keys
            for a, b in zip(ordered, ordered[1:]):
                if a == b:
                    problems.append(f"N={n}: engine {name} produced {_format(a, n)} more than once")
                    break
            if row.known is not None and len(ordered) != row.known:
                problems.append(f"N={n}: engine {name} found {len(ordered)} solutions, the published total is {row.known}")
            if reference is None:
                reference = (name, ordered)
                # Engines that agree with the reference share its symmetry, so
                # this runs once per N, on a core of its own while the other
                # engines search (where the question keeps the square's 8).
                if variant.symmetric_at(n):
                    symmetry_check = pool.submit(_check_symmetry, n, ordered, row.known_unique)
            else:
                ref_name, ref_keys = reference
                diff = _first_difference(ref_keys, ordered)
                if diff is not None:
                    key, in_ref = diff
                    where = (ref_name, name) if in_ref else (name, ref_name)
                    problems.append(
                        f"N={n}: engine {name} disagrees with {ref_name}: "
                        f"{_format(key, n)} is found by {where[0]} but not by {where[1]}"
                    )
            if problems:
                result.agrees = False
                row.problems.extend(problems)
        for name, engine in engines.items():
            if engine.counts_only:  # a model counter: its count, against the listed set and A000170
                row.results.append(_counted(row, name, engine, reference, progress, deadline))
        if symmetry_check is not None:
            row.unique, problem = symmetry_check.result()
            if problem:
                row.problems.append(f"N={n}: {problem}")
        finished = True
    finally:
        pools.shutdown(pool, abort=not finished)
    return row


def _counted(row: Row, name: str, engine: Engine, reference: tuple[str, Sequence[int]] | None,
             progress: Callable[[str], None] | None, deadline: float | None = None) -> EngineResult:
    """A counting engine's result on row.n, its disagreements added to the row."""
    n = row.n
    if progress:
        progress(f"N={n} {name}")
    started = time.perf_counter()
    result = EngineResult(name, engine.search(n, time_limit=_left(deadline)).count(), 0.0)
    result.seconds = time.perf_counter() - started
    problems = []
    if row.known is not None and result.count != row.known:
        problems.append(f"N={n}: engine {name} counted {result.count} solutions, the published total is {row.known}")
    if reference is not None and result.count != len(reference[1]):
        problems.append(f"N={n}: engine {name} counted {result.count} solutions, {reference[0]} listed "
                        f"{len(reference[1])}")
    if problems:
        result.agrees = False
        row.problems.extend(problems)
    return result


def _check_symmetry(n: int, ordered: Sequence[int], known_unique: int | None) -> tuple[int, str | None]:
    """Count the fundamental solutions (A002562) and check that their orbits
    give back exactly the full set."""
    fundamental = list(symmetry.fundamental(unpack(key, n) for key in ordered))
    if known_unique is not None and len(fundamental) != known_unique:
        return len(fundamental), f"{len(fundamental)} fundamental solutions, the published number of classes is {known_unique}"
    expanded = _sorted_keys((pack(image, n) for s in fundamental for image in orbit(s)), n)
    diff = _first_difference(ordered, expanded)
    if diff is not None or len(expanded) != len(ordered):
        where = f": {_format(diff[0], n)} is in one and not the other" if diff else ""
        return len(fundamental), f"the orbits of the fundamental solutions are not the full set{where}"
    return len(fundamental), None
