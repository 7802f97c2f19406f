"""The sub-problems of split searches, and what a worker runs for each.

Nothing here decides anything (:mod:`.plan` does): it fixes the first rows
to every non-attacking prefix, and runs one prefix as an independent
sub-search through an engine's public :meth:`Engine.subproblem`, wherever
:mod:`.pools` sends it (a local process pool, this process, or a
cluster's), which hands results back in prefix order, so that the output is
the same whatever the number of workers.  Solutions travel back as one
integer key each (:func:`board.pack`), 64-bit for N <= 16.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..model.board import Solution, pack
from ..model.position import Position
from ..model.variants import PLAIN, Variant
from .. import stopping
from ..errors import TimeLimitReached

KEY_MAX_N = 16  # n**n < 2**64: a solution's key fits an unsigned 64-bit word


def prefixes(n: int, fixed: dict[int, int], rows: int, mirror: bool = False,
             variant: Variant = PLAIN) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) for every placement of the first rows in which no two
    pieces attack each other by ``variant``'s relation, and that honours
    ``fixed`` (a :class:`Position`'s blocked squares too; each prefix is a
    Position that keeps them).  With ``mirror``, only first-row columns left of
    the centre are kept, with weight 2 (the centre column, odd n, weight 1)."""
    rows = min(rows, n)
    position = fixed if isinstance(fixed, Position) else Position(fixed)
    found: list[tuple[dict[int, int], int]] = []

    def extend(prefix: dict[int, int]) -> None:
        row = len(prefix)
        if row == rows:
            weight = 1
            if mirror:
                first = prefix[0]
                if 2 * first > n - 1:
                    return
                weight = 1 if 2 * first == n - 1 else 2
            found.append((position.with_queens(prefix), weight))
            return
        for col in position.columns(row, n):
            if not any(variant.attacks(n, (r, c), (row, col)) for r, c in prefix.items()):
                prefix[row] = col
                extend(prefix)
                del prefix[row]

    extend({})
    return found


def mirror_image(solution: Solution) -> Solution:
    last = len(solution) - 1
    return tuple([last - c for c in solution])


def merge_stats(total: dict[str, Any], part: dict[str, Any], additive: Iterable[str]) -> None:
    """Add a sub-problem's statistics to the total: counters add up, the rest
    (model size, solver name) is kept from the first sub-problem."""
    additive = set(additive)
    for key, value in part.items():
        if key in additive:
            total[key] = total.get(key, 0) + value
        else:
            total.setdefault(key, value)
    total["subproblems"] = total.get("subproblems", 0) + 1


# --- in the workers -----------------------------------------------------------------

def init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle,
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # and a closed terminal: it stops its pool
    # A pool stopping its workers (pools.shutdown): the worker dies at once, and nothing of
    # the parent's runs (its clean-up handlers, inherited by the fork); but what the worker's
    # search started and registered (a solver's child process, a temporary folder) goes with it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    stopping.worker()
    _die_with_parent()
    # A forked worker holds a copy of the parent's unwritten stdout buffer,
    # which multiprocessing would flush when the worker exits: drop it.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115


def _die_with_parent() -> None:
    """A worker in the compiled loop cannot be interrupted: if the parent is
    killed outright (SIGKILL, no clean-up), the kernel kills the worker too
    (Linux's PR_SET_PDEATHSIG; elsewhere nothing is done)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def wall_deadline(deadline: float | None) -> float | None:
    """A monotonic deadline as wall-clock time, which every process of the machine shares."""
    return None if deadline is None else time.time() + (deadline - time.monotonic())


def _remaining(deadline: float | None) -> float | None:
    """Seconds left until a wall-clock ``deadline`` (time.time(): the same on every process of a machine)."""
    return None if deadline is None else max(deadline - time.time(), 1e-3)


def part_keys(engine: Any, question: Any, prefix: dict[int, int], weight: int,
              deadline: float | None = None) -> tuple[Any, str | None, dict[str, Any], bool]:
    """One sub-problem's solutions as packed keys (each followed by its mirror
    image's when ``weight`` is 2), what first failed the question's independent
    validator (None: every board and image passed), the statistics, and whether
    the deadline cut it short."""
    n = question.n
    with engine.subproblem(n, prefix, time_limit=_remaining(deadline)) as search:
        keys, invalid = packed(search, n, mirrored=weight == 2, valid=part_check(question, engine, prefix))
    data = keys.tobytes() if isinstance(keys, array) else keys
    return data, invalid, search.stats, search.timed_out


class Validator:
    """The check of every board a search hands on: a board of ``question``
    that keeps the sub-problem's ``prefix`` (its images: a board of the
    question).  Called on one board, or on a block of them at once
    (:meth:`first_invalid`): None where all pass, else what is wrong, in
    words, the board named."""

    def __init__(self, question: Any, prefix: Mapping[int, int] | None = None) -> None:
        self.question = question
        self.prefix = dict(prefix) if prefix else None
        self.part = question if not prefix else question._replace(placed=tuple(sorted(prefix.items())))

    def __call__(self, board: Solution, image: str = "") -> str | None:
        if (self.question if image else self.part).is_solution(board):
            return None
        return self._said(board, image)

    def _said(self, board: Sequence[int], image: str) -> str:
        shown = " ".join(map(str, board)) if len(board) <= 64 else f"a board of {len(board)} queens"
        where = f"the {image} image of a board" if image else "a board"
        sub = f" of the sub-problem {self.prefix}" if self.prefix else ""
        return f"{where}{sub} is not one of {self.question}: {shown}"

    def first_invalid(self, boards: Any, images: Any = None, image: str = "") -> str | None:
        """The first failure among the rows of ``boards`` (a NumPy array), each
        followed by the same row of ``images`` where given."""
        import numpy as np

        bad = ~self.part.valid_rows(boards)
        bad_image = ~self.question.valid_rows(images) if images is not None else np.zeros_like(bad)
        either = np.flatnonzero(bad | bad_image)
        if not len(either):
            return None
        row = either[0]
        return self._said(boards[row].tolist(), "") if bad[row] else self._said(images[row].tolist(), image)


def part_check(question: Any, engine: Any, prefix: Mapping[int, int]) -> Validator:
    """The :class:`Validator` of one sub-problem's boards: they keep its prefix,
    but for symmetry breaking, whose parts expand their survivors' whole classes."""
    return Validator(question, None if engine.symmetry_breaking else prefix)


def part_count(engine: Any, n: int, prefix: dict[int, int],
               deadline: float | None = None) -> tuple[int, dict[str, Any], bool]:
    """One sub-problem's count, its statistics, and whether the deadline cut it short."""
    search = engine.subproblem(n, prefix, time_limit=_remaining(deadline))
    try:
        found = search.count()
    except TimeLimitReached:
        return 0, search.stats, True
    return found, search.stats, False


BLOCK = 4096  # boards validated and packed at once (NumPy), where keys fit 64 bits


def packed(solutions: Iterable[Solution], n: int, mirrored: bool = False,
           valid: Validator | None = None) -> tuple[Any, str | None]:
    """Every solution as one integer key (and, if ``mirrored``, its mirror image
    after it), with what first failed ``valid`` (None: the plain question's
    validator), each board and each image through it.  The keys are a 64-bit
    array for n <= 16, where they fit (a block of boards validated and packed
    at once in NumPy), else a list."""
    check = valid or Validator(_plain(n))
    if n > KEY_MAX_N:
        keys: list[int] = []
        invalid = None
        for solution in solutions:
            for board, image in _with_images(solution, mirrored):
                invalid = invalid or check(board, image)
                keys.append(pack(board, n))
        return keys, invalid
    block: list[Solution] = []
    found = array("Q")
    invalid = None
    for solution in solutions:
        block.append(solution)
        if len(block) == BLOCK:
            invalid = _pack_block(block, n, mirrored, check, found) or invalid
            block = []
    if block:
        invalid = _pack_block(block, n, mirrored, check, found) or invalid
    return found, invalid


class Blocks:
    """The size of the next block of :func:`checked`: from 16, doubling up to
    :data:`BLOCK`; one object serves the sub-problems of a search in turn."""

    def __init__(self) -> None:
        self.size = 16

    def grow(self) -> None:
        self.size = min(2 * self.size, BLOCK)


def checked(solutions: Iterable[Solution], check: Validator, mirrored: bool = False,
            blocks: Blocks | None = None) -> Iterator[Solution]:
    """``solutions`` (each followed by its mirror image, if ``mirrored``), each
    through ``check`` before it is handed on: in blocks that grow from 16 to
    :data:`BLOCK` boards (``blocks``: carried from one sub-problem to the next;
    NumPy from :data:`NUMPY_FROM` boards a block, so that
    a small search does not pay NumPy's import; the first boards still come
    at once), one at a time where a block is not a matrix of integers.  Raises
    :class:`InvalidBoard` with what failed, before any board of its block."""
    blocks = blocks or Blocks()
    block: list[Solution] = []
    for solution in solutions:
        block.append(solution)
        if len(block) < blocks.size:
            continue
        yield from _checked_block(block, check, mirrored)
        block = []
        blocks.grow()
    yield from _checked_block(block, check, mirrored)


class InvalidBoard(Exception):
    """A board that fails the question's validator (the message says which, and where)."""


NUMPY_FROM = 256  # boards in a block from which NumPy checks them (below, one at a time: 6 us each)


def _checked_block(block: list[Solution], check: Validator, mirrored: bool) -> Iterator[Solution]:
    if not block:
        return
    n = check.question.n
    boards = _matrix(block, n) if len(block) >= NUMPY_FROM else None
    if boards is None:
        found = []
        for solution in block:  # one at a time: the validator says what is wrong with each
            for board, image in _with_images(solution, mirrored):
                wrong = check(board, image)
                if wrong is not None:
                    raise InvalidBoard(wrong)
                found.append(board)
        yield from found
        return
    images = n - 1 - boards if mirrored else None
    wrong = check.first_invalid(boards, images, "mirror")
    if wrong is not None:
        raise InvalidBoard(wrong)
    if images is None:
        yield from block
        return
    for board, mirrored_board in zip(block, map(tuple, images.tolist())):
        yield board
        yield mirrored_board


def _pack_block(block: list[Solution], n: int, mirrored: bool, check: Validator, found: array) -> str | None:
    """A block of boards, validated and appended to ``found`` as keys (each with its mirror image's)."""
    import numpy as np

    boards = _matrix(block, n)
    if boards is None:  # boards of other lengths, not integers: one at a time
        invalid = None
        for solution in block:
            for board, image in _with_images(solution, mirrored):
                invalid = invalid or check(board, image)
                key = pack(board, n) if len(board) == n else -1
                if 0 <= key < 2**64:
                    found.append(key)
        return invalid
    images = n - 1 - boards if mirrored else None
    invalid = check.first_invalid(boards, images, "mirror")
    digits = np.uint64(n) ** np.arange(n - 1, -1, -1, dtype=np.uint64)
    keys = (boards.astype(np.uint64) * digits).sum(axis=1, dtype=np.uint64)
    if images is not None:
        both = np.empty(2 * len(keys), dtype=np.uint64)
        both[0::2], both[1::2] = keys, (images.astype(np.uint64) * digits).sum(axis=1, dtype=np.uint64)
        keys = both
    found.frombytes(keys.tobytes())  # (native order, as array("Q") holds them)
    return invalid


def _matrix(block: list[Solution], n: int) -> Any:
    """The block as a NumPy matrix of N integer columns, or None where it is not one."""
    import numpy as np

    try:
        boards = np.array(block, dtype=np.int64)
    except (ValueError, TypeError, OverflowError):
        return None
    return boards if boards.shape == (len(block), n) else None


def _with_images(solution: Solution, mirrored: bool) -> list[tuple[Solution, str]]:
    """(the board, "") and, if ``mirrored``, (its mirror image, "mirror"): what a validator is asked of."""
    return [(solution, "")] + ([(mirror_image(solution), "mirror")] if mirrored else [])


def _plain(n: int) -> Any:
    from ..model.question import Question

    return Question(n, PLAIN)


def unpacked_keys(data: Any) -> Iterable[int]:
    if isinstance(data, bytes):
        block = array("Q")
        block.frombytes(data)
        return block
    return data
