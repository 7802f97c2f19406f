"""The check: a user's model against the reference, N by N, and the smallest counterexamples.

For each N the user's model is enumerated by its own tool
(:mod:`nqueens_cp.checking.forms`); every solution becomes a board (columns
by row, 0-based) and goes through the question's own validator, the one
every engine's answers go through.  The reference is the hand-written
search's exact set (``bitmask``, validated as everywhere), streamed and
looked up in the model's valid boards: what it has that the model lacks is
*missing*, what the model gives that the validator refuses is *extra*, and a
solution that is not a board at all (a row with no queen or two, a column
off the board) is *not a board*.  Memory holds the model's valid boards (at
most the answer) and the smallest few of each kind.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from typing import Any

from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from ..model.board import Solution, pack
from ..model.attacks import attack_text, not_board_text
from ..model.question import Question, question
from ..model.variants import Variant
from .forms import Determined, Instance, ModelError, Reason, UserModel
from .mapping import board_of, raw_of, told_base
from .optimum import check_optimum
from .records import CheckReport, NCheck
from .isolate import Limits, isolated, parse_size
from .reading import form_of, load

SHOW = 3  # the smallest boards of each kind kept per N (--show)
PROGRESS_SECONDS = 0.5  # between two progress lines on a terminal
HELD = 1 << 20  # distinct wrong boards held to tell a repeat from a new one; beyond, each counts as new
# The hand-written searches a model is checked against: the compiled one, or for a member it
# cannot express (an offset beyond its reach) the textbook backtracker.
REFERENCES = ("bitmask", "backtrack")


def reference_engine(variant: Variant) -> str:
    """The hand-written search that answers this member of the family."""
    from ..engines import engine_class

    return next(name for name in REFERENCES if engine_class(name).answers(variant))


class _Smallest:
    """The ``k`` smallest distinct items seen, and how many distinct ones (up to HELD remembered)."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.kept: list[Any] = []
        self.seen: set[Any] = set()
        self.count = 0
        self.held_all = True

    def add(self, item: Any, key: Any = None) -> bool:
        """Whether ``item`` is new (False: a repeat); ``key`` stands for it in the
        memory of what was seen (a board packed into one int: a third of a tuple)."""
        key = item if key is None else key
        if key in self.seen:
            return False
        if len(self.seen) < HELD:
            self.seen.add(key)
        else:
            self.held_all = False
        self.count += 1
        if len(self.kept) < self.k or (self.k and item < self.kept[-1]):
            bisect.insort(self.kept, item)
            del self.kept[self.k:]
        return True


def spec_sizes(spec: Any) -> list[int]:
    """SPEC as the library takes it: an N, the text of SPECs ('4', '1-8 10', '4-12/2'), or an iterable of
    N or of SPECs (the command line's words)."""
    words = spec.replace(",", " ").split() if isinstance(spec, str) else None
    if words is None and not isinstance(spec, int) and hasattr(spec, "__iter__"):
        spec = list(spec)
        words = spec if spec and all(isinstance(word, str) for word in spec) else None
    if words is not None:
        from ..model.sizes import sizes

        found: list[int] = []
        for word in words:
            try:
                found += sizes(word)
            except InvalidInputError as error:
                raise InvalidInputError(f"SPEC {word!r}: {error}") from None
        spec = found
    sizes_ = [spec] if isinstance(spec, int) else list(spec)
    if not sizes_ or any(type(n) is not int or n < 1 for n in sizes_):
        raise InvalidInputError(f"SPEC: positive sizes N, got {spec!r}")
    return sizes_


def check(model: Any, spec: Any, *, variant: str | Variant = "queens", var: str | None = None,
          generator: str | None = None, data: str | None = None, base: int | None = None, every: bool = False,
          show: int = SHOW, time_limit: float | None = None, memory: Any = None, network: bool = False,
          isolate: bool = True, ignore_objective: bool = False, progress: Callable[[str], None] | None = None,
          rows: Callable[[Any], None] | None = None, notify: Callable[[str], None] | None = None) -> CheckReport:
    """Check a user's model against the reference for each N of ``spec``, in
    order, stopping at the first N that differs (``every``: check them all).

    ``model``: ``PATH.py:FUNC`` (or the function itself: ``f(n)`` returns
    ``(model, board)``), ``PATH.mzn``, ``PATH.lp``, ``PATH-{n}.cnf``, ``PATH-{n}.pbtxt``; or None
    with ``generator``, a command writing each N's CNF (``{n}`` in it).
    ``var`` names the board in a MiniZinc or clingo model, ``data`` gives a
    MiniZinc model more data than ``n``; ``base`` says the
    columns are 0- or 1-based where the model cannot tell.  ``rows`` is
    called with each N as it is checked; ``time_limit`` covers the whole
    check, the model's import included (TimeLimitReached, whose ``report``
    holds the N checked by then).

    The model runs in a process of its own (:mod:`.isolate`), under
    ``memory`` (bytes or '2G'; None: 2 GiB; 'none': no limit) and without
    network unless ``network``; nothing it does reaches this process or the
    verdict, and a failure of it (a raise, an exit, a crash, out of memory)
    is a ModelError.  A model with an objective is refused in one line,
    whatever its form; ``ignore_objective`` checks its feasible boards.
    ``isolate=False`` runs it here instead, to debug it
    with pdb: never for grading, since its code then reaches everything."""
    sizes = spec_sizes(spec)
    if base not in (None, 0, 1):
        raise InvalidInputError(f"base: the model's first column is 0 or 1, got {base!r}")
    if type(show) is not int or show < 0:
        raise InvalidInputError(f"show: how many boards of each kind to show, a whole number, got {show!r}")
    from ..engines.search import check_time_limit

    check_time_limit(time_limit)
    if isolate and not callable(model):
        from .zygote import zygote

        zygote()  # (started now, it imports the solvers while the question and the reference are made ready)
    limits = Limits(parse_size(memory), bool(network))
    form = form_of(model, generator)  # (a mistake in the model's name: before any work)
    if data is not None and form.name != "minizinc":
        raise InvalidInputError("--data gives a MiniZinc model more data: the model is not a .mzn file")
    first = question(1, variant=variant)  # (the member checked once, before the model is read)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    sandbox = None
    user: UserModel
    try:
        if isolate:
            sandbox, user = isolated(model, var, generator, data, limits, deadline, ignore_objective, first.optimum)
        else:
            user = load(model, var, generator, data, ignore_objective, first.optimum)
    except TimeLimitReached:
        raise TimeLimitReached(f"the time limit of {time_limit:g} s came while the model was read, before any N "
                               "was checked") from None
    report = CheckReport(user.name, user.tool, str(first.variant), form=form.name)

    def said(note: str) -> None:
        report.notes.append(note)
        if notify:
            notify(note)

    if sandbox is not None and not network and not getattr(user, "network_cut", True):
        said("this machine lets no unprivileged process cut its network (no network namespace): the model could "
             "reach the network")

    state = {"base": base}
    try:
        for n in sizes:
            try:
                asked = question(n, variant=first.variant)
                row = check_optimum(user, asked, deadline) if asked.optimum else \
                    _check_one(user, asked, state, show, deadline, progress, said)
            except TimeLimitReached:
                if time_limit is None:  # (a solver that stopped on its own, unfinished: not a limit of ours)
                    raise ModelError(f"{user.tool} stopped before its search of N={n} was complete") from None
                stopped = TimeLimitReached(f"the time limit of {time_limit:g} s came at N={n}, before every N was "
                                           "checked")
                stopped.report = report  # type: ignore[attr-defined]  # (the N checked by then: rows= need not be given)
                raise stopped from None
            except NQueensError:
                raise
            except Exception as error:  # noqa: BLE001 - the user's tool failed on the user's model: said in one line
                text = str(error).strip().splitlines()
                raise ModelError(f"{user.tool} failed on {report.model} at N={n}: {type(error).__name__}"
                                 + (f": {text[0]}" if text else "")) from error
            report.rows.append(row)
            if rows:
                rows(row)
            if not row.agrees and not every:
                break
    finally:
        if sandbox is not None:
            sandbox.close()
            report.output = sandbox.output()
    return report


def _check_one(user: UserModel, asked: Question, state: dict[str, Any], show: int, deadline: float | None,
               progress: Callable[[str], None] | None, notify: Callable[[str], None]) -> NCheck:
    n = asked.n
    started = time.monotonic()
    instance = user.instance(n)
    valid: set[int] = set()
    extra, wrong = _Smallest(show), _Smallest(show)
    solutions = duplicates = 0
    pending: list[tuple[Any, ...]] = []  # raw boards waiting for the numbering to be told
    first_raw: tuple[Any, ...] | None = None
    numbered = instance.numbered

    def take(raw: tuple[Any, ...], base: int) -> None:
        nonlocal duplicates
        board, squares = board_of(raw, instance.kind, base if numbered else 0, n)
        if board is None:
            if not wrong.add(squares):
                duplicates += 1
        elif asked.is_solution(board):
            key = pack(board, n)
            if key in valid:
                duplicates += 1
            valid.add(key)
        elif not extra.add(board, pack(board, n)):
            duplicates += 1

    shown = started
    try:
        for raw in instance.solutions(deadline):
            solutions += 1
            if first_raw is None:
                first_raw = raw
            if progress and not solutions % 64 and time.monotonic() - shown > PROGRESS_SECONDS:
                shown = time.monotonic()
                progress(f"N={n}: {solutions:,} solutions from the model, {shown - started:.0f} s")
            if not numbered:
                take(raw, 0)
                continue
            if state["base"] is None:
                told = told_base(instance, raw, n)
                if told is None and len(pending) < HELD:
                    pending.append(raw)
                    continue
                if told is None:
                    notify(f"N={n}: cannot tell whether the model numbers columns from 0 or 1; taken as 0 "
                           "(--base 1 says otherwise)")
                chosen = state["base"] = told or 0
                for held in pending:
                    take(held, chosen)
                pending.clear()
            take(raw, state["base"])
        if pending:
            state["base"] = 0
            notify(f"N={n}: cannot tell whether the model numbers columns from 0 or 1 (no solution has column 0 "
                   f"or {n}); taken as 0 (--base 1 says otherwise)")
            for held in pending:
                take(held, 0)
        seconds = time.monotonic() - started
        for note in instance.notes:
            notify(f"N={n}: {user.tool} says: {note}")
        if numbered and state["base"] is None:  # (no solution to tell it from: the declared domain does, if it can)
            told = told_base(instance, (), n)
            if told is not None:
                state["base"] = told
        base = state["base"] if numbered else None

        started = time.monotonic()
        reference, hits, missing = _reference(asked, valid, show, deadline)
        reference_seconds = time.monotonic() - started
        if hits != len(valid):  # a board our validator accepts that our search lacks: ours to fix, not the user's
            raise NQueensError(f"internal error: at N={n} the validator accepts {len(valid) - hits} of the model's "
                               f"boards that the reference ({reference_engine(asked.variant)}) does not list")
        missing_count = reference - hits
        why = _why(instance, missing.kept[0], base, deadline) if missing.kept else None
        attack = (attack_text(asked, extra.kept[0]) if extra.kept else
                  not_board_text(wrong.kept[0], n) if wrong.kept else None)
        determined = instance.determined(first_raw, deadline) if first_raw is not None else None
    finally:
        instance.close()
    return NCheck(n, not (missing_count or extra.count or wrong.count), len(valid) + extra.count, reference, solutions, duplicates,
                  missing.kept, missing_count, extra.kept, extra.count, wrong.kept, wrong.count, why, attack,
                  None if determined is None else determined.determined,
                  determined.example if isinstance(determined, Determined) else "", seconds, reference_seconds,
                  base, extra.held_all and wrong.held_all)


def _why(instance: Instance, board: Solution, base: int | None, deadline: float | None) -> Reason:
    """Why the model excludes ``board``, fed in the model's own numbering; a reason that
    says the model accepts it is a claim, asked again before it is said, and said with
    the numbering it assumed where the check could not tell that numbering."""
    raw = raw_of(board, instance.kind, base or 0)
    why = instance.why(raw, deadline)
    if not why.accepted:
        return why
    again = instance.why(raw, deadline)
    if not again.accepted:
        return again
    if instance.numbered and base is None:
        return Reason(f"with its columns taken as numbered from 0 (the check could not tell the model's numbering: "
                      f"--base 1 says otherwise), {why.text}", why.parts, True, why.sites)
    return why


def _reference(asked: Question, valid: set[int], show: int, deadline: float | None) -> tuple[int, int, _Smallest]:
    """The reference's boards looked up in the model's: (how many, how many the model has, the smallest missing)."""
    from ..execution.run import solutions

    n = asked.n
    left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
    missing = _Smallest(show)
    reference = hits = 0
    with solutions(n, reference_engine(asked.variant), variant=asked.variant, jobs=1, time_limit=left) as search:
        for board in search:
            reference += 1
            if pack(board, n) in valid:
                hits += 1
            else:
                missing.add(tuple(board))
        if search.timed_out:
            raise TimeLimitReached
    return reference, hits, missing
