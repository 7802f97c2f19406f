"""The words a plan says before the work: what a run would cost where it cannot
finish in reasonable time (:func:`advice`, :func:`optimum_advice`), the engine
a decision goes to when none is named (:func:`solve_engine`) and a better
one where a lexicographic walk is a trap (:func:`solve_advice`).  Nothing here
decides how a question is searched: :mod:`.plan` does, and reads these."""

from __future__ import annotations

import math

from ..counting import join
from ..engines import DEFAULT_ENGINE, Engine, engine_class
from ..estimates import LONG_SECONDS, big, duration, log_total
from ..known import TOTAL
from ..model.variants import Variant
from .workers import default_jobs

def advice(n: int, engine: str = DEFAULT_ENGINE, *, counting: bool = False, limit: int | None = None,
           jobs: int | None = None, quarters: bool = False, checkpointed: bool = False,
           resuming: str | None = None) -> list[str]:
    """Warnings for runs that cannot finish in reasonable time, naming a
    better command where there is one (``quarters``: counted by joining
    quarters, at its own rate; ``checkpointed``: the count keeps its progress
    already, else a long one is told how; ``resuming``: the checkpoint file
    that already exists, so the time said is the whole count's, not what
    is left: the resumed count says next how much is recorded, or refuses
    a file of another count).  Empty for runs of under a minute."""
    cls = engine_class(engine)
    workers = jobs or default_jobs()
    notes = []
    total = log_total(n)
    counting = counting or cls.counts_only or quarters
    if limit is None and not (cls.counts_only and not quarters):  # (a model counter lists none: no rate a board)
        rate = join.count_rate(n) if quarters else cls.count_rate if counting else cls.enumeration_rate
        rate *= min(workers, default_jobs())
        seconds = total - math.log10(rate) if rate else -math.inf  # no rate, no estimate
        if seconds > math.log10(LONG_SECONDS):
            what = "count" if counting else "list"
            how = f"{engine}'s count by joining quarters" if quarters else engine
            resumable = quarters or cls.counts_classes  # (the counts a checkpoint keeps: execution/checkpoint.py)
            keep = "; --checkpoint FILE keeps what is done if it stops" \
                if counting and resumable and not checkpointed and seconds > math.log10(600) else ""
            # (said before the file is read: whether it holds this count's parts is for the checkpoint to say
            # next, in its resume note or its refusal, so the note claims nothing of what it holds)
            whole = " all from nothing" if resuming else ""
            notes.append(f"N={n} has {'about ' if n not in TOTAL else ''}{big(total)} solutions: at about "
                         f"{big(math.log10(rate))} per second here, {how} would need {duration(seconds)} to "
                         f"{what} them{whole}{keep}")
    elif n > cls.first_solution_max_n:
        decider = engine_class("bitmask")  # (its decision search; beyond its N, a construction)
        now = "bitmask" if decider.max_n is None or n <= decider.max_n else "construct"
        notes.append(f"a {engine} search for the first solutions of N={n} may run for a very long time (listing "
                     f"goes in lexicographic order, a trap for large N); 'solve {n} --engine {now}' gives a board "
                     "now")
    return notes


def optimum_advice(n: int, variant: Variant, engine: str, time_limit: float | None = None) -> list[str]:
    """What the literature says of this optimum and what proving it would take
    with ``engine``, extrapolated from the engine's measured reach
    (``Engine.optimum_reach``): a note when N is beyond it.  Empty within it."""
    cls = engine_class(engine)
    reach = cls.optimum_reach.get(str(variant))  # (measured data, kept by the member it measured)
    if reach is None or n <= reach[0]:
        return []
    top, seconds, growth = reach
    symbol = "i" if variant.independent else "γ"
    published = variant.known.get(n)
    # γ(Q_n) >= ceil(n/2) but for n = 3 and 11 (Finozhenok and Weakley, 2007); i(Q_n) >= γ(Q_n).
    lower = f"{symbol}(Q_{n}) >= {(n + 1) // 2} (Finozhenok and Weakley, 2007; no value of OEIS {variant.oeis} " \
        "is kept here for this N)"
    said = f"{symbol}(Q_{n}) = {published} (OEIS {variant.oeis})" if published else lower
    guess = math.log10(seconds) + (n - top) * math.log10(growth)
    limit = f"; --time-limit {time_limit:g} s will stop it first" if time_limit and 10 ** guess > time_limit else \
        "; --time-limit bounds it" if not time_limit else ""
    return [f"{said}; engine {engine} proved N = {top} in {seconds:g} s where it was measured (docs/variants.md), "
            f"and at {growth:g}x a step N = {n} would take {duration(guess)}{limit}"]


def solve_engine(n: int, variant: str | Variant | None, placed: bool, options: bool) -> tuple[str, str]:
    """The engine a decision goes to when none is named, and a note where it is not
    the default: CP-SAT's portfolio (completion, a proof of none) up to the N it
    answers in seconds; beyond, for plain N, bitmask's decision search (a board of
    1,000 queens in 0.03 s, placements kept, none proved) up to its largest N, then
    the O(N) construction, or with placements local search.  Options given for the
    default engine keep it (they are its own).  Another question of the family
    goes to its construction where it has one, else to local search where
    boards exist.  (``solve 1000`` on CP-SAT ran 12 minutes without a word.)"""
    from ..engines import DEFAULT_SOLVE_ENGINE
    from ..model import variants

    default = engine_class(DEFAULT_SOLVE_ENGINE)
    member = variants.get(variant or "queens")
    if options or n <= default.first_solution_max_n:
        return DEFAULT_SOLVE_ENGINE, ""
    decider = engine_class("bitmask")
    if not member.is_plain:  # (the construction where the member has one, else local search, where boards exist)
        quick = quick_member_engine(n, member, placed)
        if quick == "construct":
            chosen, what = "construct", "the modular construction"
        elif quick == "minconflicts" and member.exists(n) is not False:
            chosen, what = "minconflicts", "local search, which cannot prove that no board exists"
        elif member.exists(n) is False:  # (said before a search that may be long: solve 1000 -V toroidal)
            return DEFAULT_SOLVE_ENGINE, (f"N={n}: a theorem says {member.title} has no board here ({member.source}); "
                                          f"{DEFAULT_SOLVE_ENGINE} sets out to prove it, which can take long "
                                          "(--time-limit bounds it)")
        else:
            return DEFAULT_SOLVE_ENGINE, ""
    elif decider.max_n is None or n <= decider.max_n:
        chosen, what = "bitmask", "the hand-written decision search"
    elif not placed:
        chosen, what = "construct", "the O(N) construction"
    else:
        chosen, what = "minconflicts", "local search, which cannot prove that no board exists"
    return chosen, (f"N={n}: engine {chosen} ({what}) answers boards this large; {DEFAULT_SOLVE_ENGINE}, the default "
                    f"up to N={default.first_solution_max_n}, can take minutes (--engine {DEFAULT_SOLVE_ENGINE} to "
                    "insist)")


def quick_member_engine(n: int, member: Variant, placed: bool) -> str | None:
    """The engine that gives a board of this member of the family at once: its modular
    construction where it has one (and nothing is placed), else local search where it
    answers the member; None where neither does."""
    from ..engines.construct import modular_factor

    if not placed and engine_class("construct").answers(member) and modular_factor(n, member) is not None:
        return "construct"
    return "minconflicts" if engine_class("minconflicts").answers(member) else None


def solve_advice(engine: Engine, n: int) -> list[str]:
    """A note where a decision of another question than plain N goes by the lexicographic
    walk beyond where it answers in reasonable time (bitmask: no superqueens board of
    N = 60 in 20 s), naming an engine that gives one now."""
    variant = engine.variant
    if variant.is_plain or not engine.lexicographic_solve or n <= engine.first_solution_max_n:
        return []
    quick = quick_member_engine(n, variant, False)
    if quick == "construct":
        better = f"'solve {n} --engine construct --variant {variant}' gives one at once"
    elif quick == "minconflicts":
        better = f"'solve {n} --engine minconflicts --variant {variant}' gives one in well under a second"
    else:
        better = f"'solve {n} --engine cpsat --variant {variant}' may give one sooner (its portfolio, not the first board)"
    return [f"{engine.name} finds a first board of {variant.title} in lexicographic order, a trap beyond "
            f"N = {engine.first_solution_max_n}; {better}"]
