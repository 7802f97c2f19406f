"""The one place that decides how a question is searched: a frozen :class:`Plan`.

:mod:`.run` asks :func:`plan` and hands the plan to :mod:`.execute`, which
carries it out and decides nothing of its own; every study (crosscheck,
compare, batch) asks the same :func:`plan`, so the CLI, the API and the
studies search a question the same way, in the same order.

It decides one :class:`Strategy` (whole, split, by classes, by quarters),
with its label, from the question's exact symmetries at its N
(:attr:`~nqueens_cp.model.question.Question.symmetries`).  The rules:

- From N = 11 (:data:`SPLIT_MIN_N`) to 64 a search is split by fixing its first
  rows (the engine says how many), whatever the number of jobs: a long
  single CP-SAT enumeration slows down as it goes, many small ones do not,
  and the output order then never depends on the jobs.  Below that a
  whole search takes less than starting the workers.
- With nothing fixed, no symmetry breaking, and a question that the mirror
  keeps at this N, only first-row columns left of the centre are searched;
  each solution's mirror image follows it.  A count on the torus (every
  line wrapping, no offsets) searches row 0's piece in column 0 only, N
  times.  Plain N is counted by symmetry classes, or from N = 16 by joining
  quarters, where the engine can.
- Sub-problems run in worker processes (``jobs`` of them, default: the
  cores) when every solution is wanted and N <= 16 (one 64-bit key per
  solution crosses between processes); with a ``limit``, beyond N = 16, or
  with ``jobs=1`` they run one after the other in this process, lazily, so
  the first solutions come at once.  Counting always uses the workers.
- ``unique`` keeps one solution per class of the question's symmetries, in canonical form.
- A decision (``solve``) is split from N = 12 (:data:`SPLIT_SOLVE_MIN_N`)
  where the engine can (``splits_solve``) and more than one job, or an
  executor, is asked for: by default it runs whole in this process (the
  bitmask decision search places thousands of queens with almost no
  backtracking; splitting pays only on the hardest proofs of "none").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import stopping
from ..counting import classes, join
from ..engines import DEFAULT_ENGINE, Engine, get_engine, names
from ..errors import InvalidInputError
from ..model.position import Position
from ..model.question import Question, question
from ..model.variants import Variant
from . import parallel
from .workers import check_executor, check_jobs, default_jobs
from .advice import solve_advice, solve_engine

if TYPE_CHECKING:
    from concurrent.futures import Executor

SPLIT_MIN_N = 11  # below this a whole search takes less than starting the workers
SPLIT_MAX_N = 64  # beyond, a search is not split (see splits)
SPLIT_SOLVE_MIN_N = 12  # below this a whole decision takes less than starting the workers
INLINE_MAX_N = 15  # a count by classes of one worker runs in this process up to here (0.1 s at N = 15)

Notify = Callable[[str], None]  # told warnings (a hopeless run, too many jobs) before the work starts


class Strategy(NamedTuple):
    """How a question is searched: the one decision between the question and
    the search, made by :func:`plan`, carried out by :mod:`.execute` as it is.

    - ``whole``: the engine's own search of the whole question, in this
      process (its own count, where it has one);
    - ``split``: sub-problems, one per placement of the first ``rows`` rows;
      ``weights`` "mirror" searches row 0's columns left of the centre only,
      each board's mirror image beside it, "translations" (a count on the
      torus) row 0's piece in column 0 only, N times; ``pooled``: the boards
      are listed on worker processes (a count always runs on them);
    - ``classes``: plain N counted once per class of the 8 symmetries (counting/classes.py);
    - ``quarters``: plain N counted by joining quarters (counting/join.py).

    ``symmetries`` are the question's own at its N (model/symmetry.kept):
    whatever a strategy multiplies or halves by rests on them, and ``unique``
    keeps one board per class under them.  Every board any strategy hands
    on passes the question's independent validator first (images too);
    a count by weights validates a sample of the images it stands for."""

    kind: str
    counting: bool = False  # a count (what count() runs), else a listing
    rows: int = 0  # split: the rows fixed per sub-problem
    weights: str = ""  # split: "", "mirror" or "translations"
    pooled: bool = False  # split listing: on worker processes (else one after the other, here)
    where: str = "in this process"  # where the work runs, in words
    symmetries: tuple[str, ...] = ("identity",)
    unique: bool = False
    processes: int = 1  # classes, quarters: worker processes (tasks in flight on a cluster); 0: in this process

    @property
    def label(self) -> str:
        """What runs, in words (count --stats prints it; the search's label ends in it)."""
        if self.kind == "split":
            said = "split on its first row" if self.rows == 1 else f"split on its first {self.rows} rows"
            said += {"": "", "mirror": ", mirror-halved (each mirror image validated)",
                     "translations": ", row 0's piece in column 0 only, counted N times (the torus's "
                     "translations)"}[self.weights]
        else:
            said = {"whole": "searched whole by the engine", "classes": "counted by symmetry classes",
                    "quarters": "counted by joining quarters"}[self.kind]
        said += f", {self.where}"
        if self.unique:
            group = "8 symmetries" if len(self.symmetries) == 8 else \
                f"{len(self.symmetries)} symmetries ({', '.join(self.symmetries)})"
            said += f", one per class of its {group}"
        return said


class Plan(NamedTuple):
    """How a question is searched, as :func:`plan` decided it."""

    n: int
    engine: Engine
    limit: int | None
    time_limit: float | None
    jobs: int
    unique: bool  # one solution per class of the question's symmetries
    executor: Executor | str | None
    strategy: Strategy  # how it is searched: the one decision
    question: Question  # what was asked, as one value (N, the member, placements)
    checkpoint: str | None = None
    notes: tuple[str, ...] = ()  # warnings for the caller, before any work
    budget: join.Budget | None = None  # the memory of a count by quarters (join.py)

    @property
    def placed(self) -> Position:
        """The question's pre-placed queens and blocked squares, as the engines take them (checked once, in it)."""
        return self.question.position()

    @property
    def split(self) -> bool:
        return self.strategy.kind == "split"

    @property
    def mirror(self) -> bool:
        return self.strategy.weights == "mirror"


class SolvePlan(NamedTuple):
    """How a decision is searched, as :func:`plan_solve` decided it."""

    n: int
    engine: Engine
    time_limit: float | None
    jobs: int | None
    executor: Executor | str | None
    split: bool  # into the engine's solve_parts, on a pool or cluster
    question: Question  # what was asked, as one value (its placements checked once, in it)
    notes: tuple[str, ...] = ()  # warnings for the caller, before any work

    @property
    def placed(self) -> Position:
        return self.question.position()


# --- the decisions ----------------------------------------------------------------------

def splits(n: int) -> bool:
    """Whether a search of n is split into sub-problems (in any number of
    processes, 1 included): from SPLIT_MIN_N to SPLIT_MAX_N.  Beyond, the
    N^2 sub-problems would take longer to list than any search finds in a
    lifetime, and one search in this process keeps memory to O(N)."""
    return SPLIT_MIN_N <= n <= SPLIT_MAX_N


METHODS = ("auto", "walk", "quarters")  # how a plain count is counted (plan's method)


def plan(n: int, engine: str | Engine = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
         variant: str | Variant | None = None, limit: int | None = None, time_limit: float | None = None,
         jobs: int | None = None, unique: bool = False, executor: Executor | str | None = None,
         checkpoint: str | None = None, method: str = "auto", memory: int | str | None = None,
         counting: bool = False, blocked: Iterable[tuple[int, int]] | None = None, **options: Any) -> Plan:
    """What was asked, checked, and how it will be searched (the rules above),
    for :func:`solutions` and :func:`counted` alike, and for the studies
    (an engine may be given made, its options and its variant set; ``variant``
    None means the engine's, plain N-queens for a name).  ``method`` says how
    a count of plain N is counted: "walk" (by symmetry classes, or the
    engine's own way), "quarters" (joining quarters, counting/join.py) or
    "auto" (quarters from the engine's ``quarters_from``, where it has one); ``memory`` (bytes,
    or a size such as "4G") bounds a count by quarters, checked here;
    ``counting``: the plan of a count (count() runs it), else of a listing.
    Nothing runs."""
    asked = _question(n, fixed, variant, engine, blocked)  # (its placements checked: here, once)
    n = asked.n
    chosen = _engine(engine, options, asked.variant)
    if chosen.counts_only and unique and not chosen.counts_classes:  # a usage error, whatever is installed
        _refuse_unique(chosen.name)
    placed = asked.position()
    chosen.check_search(n, placed, limit, time_limit)  # the engine's own checks
    chosen.check_listing_options()
    if unique is True and placed:
        raise InvalidInputError("unique (one solution per class of the 8 symmetries) cannot be combined with "
                                "pre-placed queens or blocked squares: they break the symmetries")
    workers = check_jobs(jobs)
    if type(unique) is not bool:
        raise InvalidInputError(f"unique takes True or False, got {unique!r}")
    cluster_notes = check_executor(executor)
    symmetries = asked.symmetries  # exact, at this N: what every use of symmetry below rests on
    every = len(symmetries) == 8
    split = splits(n) and not chosen.counts_only  # a model counter counts the whole question at once
    by_classes = _by_classes(chosen, asked)
    if counting and method == "walk" and not (chosen.counts_classes or chosen.counts_quarters):
        # (the walk by symmetry classes is the hand-written count's; any other engine counts by its
        # own search, and the option was taken and ignored: count 8 -e cpsat --method walk printed 92)
        raise InvalidInputError(f"--method chooses how an engine that counts by symmetry classes counts plain N; "
                                f"engine {chosen.name} counts by its own search (leave --method out)")
    counting = counting or chosen.counts_only or method == "quarters" or checkpoint is not None
    quarters = _quarters(n, chosen, placed, method, limit, every) and counting
    by_classes = by_classes and counting
    if chosen.counts_only and unique and not by_classes and not quarters:
        _refuse_unique(chosen.name)
    if checkpoint is not None and not by_classes and not quarters:
        why = (f"engine {chosen.name} does not count by classes (bitmask does)" if not chosen.counts_classes else
               "there are pre-placed queens or blocked squares" if placed else
               "symmetry breaking is on" if chosen.symmetry_breaking else
               f"the question is {chosen.variant.title}" if not chosen.variant.is_plain else
               f"N={n} is below {chosen.classes_from}, where a plain count is quicker and keeps no record"
               if n < chosen.classes_from else f"N={n} is beyond {classes.MAX_N}")
        raise InvalidInputError(f"checkpoints are kept for counts by symmetry classes (the bitmask engine, plain "
                                f"N from {chosen.classes_from}, nothing fixed, no symmetry breaking), and here {why}")
    if checkpoint is not None:
        from ..files import check_regular, check_writable

        check_writable(checkpoint)  # before the work: usage errors, as every output path
        check_regular(checkpoint, "a checkpoint")
    notes = [chosen.experimental] if chosen.experimental else []
    notes += cluster_notes
    start = chosen.quarters_from  # (None: by quarters only when asked)
    if method == "auto" and placed and start is not None and chosen.variant.is_plain and n >= start and limit is None:
        notes.append("pre-placed queens or blocked squares: the count walks the board (joining quarters counts "
                     "plain N only)")
    allowed = _memory(memory)  # (checked whatever counts: a mistake is one even where it would not matter)
    if allowed is not None and not quarters:  # (it was ignored: an option that does not apply is refused)
        why = ("--method walk walks the board" if method == "walk" else
               f"engine {chosen.name} does not count by quarters ({' and '.join(names(counts_quarters=True))} do)"
               if not chosen.counts_quarters else
               "a listing walks the board" if not counting else
               f"engine {chosen.name} counts by quarters only when asked (--method quarters)" if start is None else
               f"N={n} is counted by walking the board (by quarters from N={start}, or with --method "
               "quarters)" if method == "auto" and n < start else
               "the count walks the board (pre-placed queens, blocked squares, a variant or symmetry breaking)")
        raise InvalidInputError(f"--memory bounds a count by joining quarters, and here {why}")
    budget = join.budget(n, workers, allowed, chosen.quarters_working_bytes) if quarters else None
    cores = default_jobs()
    if workers > cores and executor is None and split:
        notes.append(f"jobs={workers} is more than the {cores} cores here: at most one process per "
                     "sub-problem is started, and more processes than cores only add overhead")
    strategy = _strategy(chosen, asked, counting, split, by_classes, quarters, unique, workers, executor, limit,
                         time_limit)
    return Plan(n, chosen, limit, time_limit, workers, unique, executor, strategy, asked,
                checkpoint=checkpoint, notes=tuple(notes), budget=budget)


def for_counting(listing: Plan) -> Plan:
    """The plan of the count of a listing's question, as :func:`plan` decides
    a count (by symmetry classes where the engine can; a split weighted by
    the images its sub-problems stand for), joining quarters aside (a listing
    is planned to walk the board): what the listing's ``count()`` runs."""
    if listing.strategy.counting:
        return listing
    engine, asked = listing.engine, listing.question
    split = splits(listing.n) and not engine.counts_only
    strategy = _strategy(engine, asked, True, split, _by_classes(engine, asked), False, listing.unique,
                         listing.jobs, listing.executor, None, listing.time_limit)
    return listing._replace(strategy=strategy, limit=None)


def _by_classes(engine: Engine, asked: Question) -> bool:
    """Whether a count of this question can go by classes of the 8 symmetries:
    plain N, nothing placed, an engine that counts so, from its own N."""
    return engine.counts_classes and not asked.placed and not asked.blocked and not engine.symmetry_breaking \
        and engine.classes_from <= asked.n <= classes.MAX_N and engine.variant.is_plain \
        and len(asked.symmetries) == 8


def _strategy(engine: Engine, asked: Question, counting: bool, split: bool, by_classes: bool, quarters: bool,
              unique: bool, workers: int, executor: Any, limit: int | None, time_limit: float | None) -> Strategy:
    """The strategy (the rules in the module's docstring), decided once from what plan() checked."""
    symmetries = asked.symmetries
    if isinstance(executor, str):
        cluster = f"on the Dask cluster {executor}"
    else:
        cluster = "on the executor given" if executor is not None else ""
    if counting and (quarters or by_classes):
        # As many tasks in flight as jobs where a search of this N splits, or on a cluster
        # (gpu, which searches unsplit here: one process per GPU).
        processes = workers if split or executor is not None else 1
        # The compiled loop cannot be interrupted: under a time limit, and where the count
        # takes long enough for a Ctrl-C to matter (count 18 -j 1 held one for 11 s), even
        # one worker is a process, which a deadline or a signal stops at once.
        if processes == 1 and executor is None and time_limit is None and asked.n <= INLINE_MAX_N:
            processes = 0
        where = cluster or (_processes(processes) if processes else "in this process")
        return Strategy("quarters" if quarters else "classes", counting, where=where, symmetries=symmetries,
                        unique=unique, processes=processes)
    if not split:
        return Strategy("whole", counting, symmetries=symmetries, unique=unique)
    sb = engine.symmetry_breaking
    translations = counting and not unique and engine.variant.translations and not asked.placed \
        and not asked.blocked and not sb
    weights = "translations" if translations else \
        "mirror" if not sb and not asked.placed and not asked.blocked and "mirror" in symmetries else ""
    pooled = limit is None and asked.n <= parallel.KEY_MAX_N and (workers > 1 or executor is not None)
    # (one job runs its sub-problems here: count 13 -e sat --jobs 1 --stats said "on up to 1 worker process")
    elsewhere = (pooled or (counting and not unique)) and workers > 1
    where = cluster or (_processes(workers) if elsewhere else "in this process")
    return Strategy("split", counting, engine.split_rows(asked.n) if asked.n else 0, weights, pooled, where,
                    symmetries, unique)


def _processes(workers: int) -> str:
    return "on up to 1 worker process" if workers == 1 else f"on up to {workers} worker processes"


def _memory(memory: Any) -> int | None:
    """``memory`` as bytes: a number of them, or a size such as "4G"; None: the default."""
    if memory is None:
        return None
    if isinstance(memory, str):
        return join.parse_memory(memory)
    if type(memory) is not int or memory <= 0:
        raise InvalidInputError(f"memory takes a number of bytes or a size such as '4G', got {memory!r}")
    return memory


def _quarters(n: int, engine: Engine, placed: Any, method: str, limit: int | None, every: bool = True) -> bool:
    """Whether this question is counted by joining quarters: asked for
    (``method`` "quarters", refused where it cannot be), or by default
    ("auto") for plain N from the engine's ``quarters_from`` with the
    compiled join.  ``limit`` set: a listing, never counted so."""
    from .. import kernel

    if method not in METHODS:
        raise InvalidInputError(f"method takes one of {', '.join(METHODS)}, got {method!r}")
    if method == "walk" or limit is not None:
        return False
    why = (f"engine {engine.name} does not ({' and '.join(names(counts_quarters=True))} do)" if not engine.counts_quarters else
           "there are pre-placed queens or blocked squares" if placed else
           "symmetry breaking is on" if engine.symmetry_breaking else
           f"the question is {engine.variant.title}" if not engine.variant.is_plain or not every else
           f"N={n} is outside {join.MIN_N}..{join.MAX_N}" if not join.MIN_N <= n <= join.MAX_N else None)
    if method == "quarters":
        if why:
            raise InvalidInputError(f"--method quarters joins quarters of a plain board of N from {join.MIN_N} to "
                                    f"{join.MAX_N} with nothing fixed, and here {why}")
        return True
    return why is None and engine.quarters_from is not None and n >= engine.quarters_from and kernel.compiled(n)


def _question(n: Any, fixed: Mapping[int, int] | None, variant: str | Variant | None,
              engine: str | Engine | None, blocked: Iterable[tuple[int, int]] | None = None) -> Question:
    """The question asked, checked once: a made engine's variant unless ``variant`` names one."""
    made = engine.variant if isinstance(engine, Engine) else None
    asked = question(n, fixed, blocked, made if variant is None and made is not None else variant or "queens")
    if made is not None and asked.variant != made:
        raise InvalidInputError(f"the engine given was made for {made.title}, not {asked.variant.title}")
    return asked


def _engine(engine: str | Engine, options: dict[str, Any], variant: Variant) -> Engine:
    """The engine named, for the question's variant, with its options; or one given made (then no options)."""
    if "variant" in options:  # (a keyword of plan itself: it cannot arrive here)
        raise InvalidInputError("variant is the question's, not an engine option")
    if isinstance(engine, Engine) and options:
        raise InvalidInputError(f"options {', '.join(options)} go to get_engine, not to a made engine")
    made = engine if isinstance(engine, Engine) else get_engine(engine, variant, **options)
    with stopping.sigint_held():  # its solver package loaded whole, or not at all, whatever Ctrl-C does
        made.preload()
    return made


def _refuse_unique(engine: str) -> None:
    raise InvalidInputError(f"engine {engine} counts every solution without seeing any: it cannot count "
                            "one per symmetry class (unique)")


def plan_solve(n: int, engine: str | Engine | None, fixed: Mapping[int, int] | None = None, *,
               time_limit: float | None = None, blocked: Iterable[tuple[int, int]] | None = None,
               jobs: int | None = None, executor: Executor | str | None = None, variant: str | Variant | None = None,
               **options: Any) -> SolvePlan:
    """What a decision asks, which engine answers it (``engine`` None: chosen by N,
    :func:`solve_engine`), and whether it is split (the rules above).  Nothing runs."""
    jobs = None if jobs is None else check_jobs(jobs)
    cluster_notes = check_executor(executor)
    asked = _question(n, fixed, variant, engine, blocked)  # (its placements checked: here, once)
    n, placed = asked.n, asked.position()
    if engine is None:
        engine, why = solve_engine(n, variant, bool(placed), bool(options))
        cluster_notes += [why] if why else []
    chosen = _engine(engine, options, asked.variant)
    split = chosen.splits_solve and ((jobs or 1) > 1 or executor is not None) and n >= SPLIT_SOLVE_MIN_N \
        and chosen.variant.is_plain  # (the parts are the plain decision search's)
    return SolvePlan(n, chosen, time_limit, jobs, executor, split, asked,
                     tuple(cluster_notes + solve_advice(chosen, n)))


