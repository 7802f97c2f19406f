"""The bitmask search over sub-boards, in C (``search.c``) with its Python twin.

A sub-board restricts row r's queen to the columns ``allowed[r]`` (bit c:
column c).  Every hand-written search of the package that must be fast runs
here: whole counts (:func:`count`, :func:`count_boards`, plain or by
symmetry classes), the stoppable search that enumerates and decides
(:class:`Walk`), the half-turn check of a count by classes
(:func:`count_half_turn`), and the count by joining quarters
(:func:`join_count`, ``join.c``, its twin :mod:`.twin_join`).

The C code is built by ``pip install`` as the extension module
``nqueens_cp.kernel._search``.  Where it was not built (no C compiler at
install), or a board has more than 62 rows (64-bit words), the same searches
run in :mod:`.twin`, the plain-Python specification the C code is tested
against: the same answers, tens of times slower; the first search says so
once (:class:`SlowSearchWarning`).  ``NQUEENS_CP_KERNEL=python`` forces the
twin (tests and benchmarks compare the two).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import struct
import time
import warnings
from array import array
from collections.abc import Callable, Iterable, MutableSequence, Sequence
from types import ModuleType
from typing import Any, NamedTuple

from . import twin, twin_decide, twin_join, twin_repair

MAX_N = 62  # the C searches work on 64-bit words
HALF_TURN_MAX_N = 32  # the half-turn search keeps 2n - 1 diagonals in a word
JOIN_MAX_N = 25  # the count by quarters: tables of up to 12 x 12 squares (join.h)


class SlowSearchWarning(RuntimeWarning):
    """The compiled search is missing here: the Python twin runs instead."""


class Tallies(NamedTuple):
    """What a search adds up: solutions (or, classifying, the least board of
    each class by its size: 8, 4, 2), nodes (queens placed), and the solutions
    whose last queen stands on the tie square."""

    eight: int
    four: int
    two: int
    nodes: int
    tied: int

    @property
    def found(self) -> int:
        return self.eight + self.four + self.two


@functools.cache
def _module() -> ModuleType | None:
    if os.environ.get("NQUEENS_CP_KERNEL") == "python":
        return None
    try:
        _check_whole(importlib.util.find_spec("._search", __name__))
        search = importlib.import_module("._search", __name__)
    except ImportError as error:  # (not built: ModuleNotFoundError; built but broken: its reason)
        why = "it was not built at install" if isinstance(error, ModuleNotFoundError) else str(error)
        warnings.warn(f"the compiled search is missing ({why}): searching in plain Python, tens of times slower; "
                      "install a C compiler (e.g. apt install gcc python3-dev) and reinstall nqueens-cp",
                      SlowSearchWarning, stacklevel=3)
        return None
    return search


def _check_whole(spec: Any) -> None:
    """Raise ImportError if the compiled module's file is an ELF file cut
    short: the loader maps it whole, and touching a page past its end kills
    the process (SIGBUS) instead of raising.  Junk or a foreign file the
    loader refuses by itself, cleanly."""
    if spec is None or not spec.origin or not spec.origin.endswith(".so"):
        return  # (not built: the import says so; not ELF: not checked here)
    with open(spec.origin, "rb") as handle:
        head = handle.read(64)
        size = os.fstat(handle.fileno()).st_size
        if head[:4] != b"\x7fELF" or len(head) < 64 or head[4] != 2:
            return  # not a 64-bit ELF file: the loader refuses it
        order = "<" if head[5] == 1 else ">"
        phoff, shoff = struct.unpack_from(order + "QQ", head, 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", head, 54)
        end = max(phoff + phentsize * phnum, shoff + shentsize * shnum)
        if phoff and phentsize >= 56 and phoff + phentsize * phnum <= size:
            handle.seek(phoff)
            table = handle.read(phentsize * phnum)
            for i in range(phnum):
                offset, filesz = struct.unpack_from(order + "Q16xQ", table, i * phentsize + 8)  # p_offset, p_filesz
                end = max(end, offset + filesz)
    if end > size:
        raise ImportError(f"{spec.origin} is cut short ({size} of at least {end} bytes): reinstall nqueens-cp")


def _chosen(n: int, compiled: bool, max_n: int = MAX_N) -> ModuleType | None:
    """The compiled module for a board of n rows, or None: run the twin."""
    return _module() if compiled and n <= max_n else None


def compiled(n: int = 1) -> bool:
    """Whether boards of n rows are searched by the compiled code here."""
    return n <= MAX_N and _module() is not None


def kind() -> str:
    """Which search runs here: 'c' or 'python'."""
    return "c" if compiled() else "python"


def _words(values: Iterable[int]) -> array:
    return array("q", values)


def _check(n: int, allowed: Sequence[int]) -> None:
    if n < 1 or len(allowed) != n:
        raise ValueError(f"a search takes n >= 1 and n masks, got n={n}, {len(allowed)} masks")


def count(n: int, allowed: Sequence[int], classify: bool = False, tie: int = 0, compiled: bool = True) -> Tallies:
    """Search a whole sub-board: its solutions (or, with ``classify``, the
    classes of its boards that no turn makes less), nodes, and the solutions
    with the last row's queen on the square ``tie``.  (``compiled=False``,
    here and below: run the twin.)"""
    return count_boards(n, [(allowed, tie, classify)], compiled)


def count_boards(n: int, boards: Iterable[tuple[Sequence[int], int, bool]], compiled: bool = True) -> Tallies:
    """Many sub-boards, each (allowed masks, tie square or 0, classify), in one
    call: the sum of their :func:`count` tallies."""
    full = (1 << n) - 1
    words: list[int] = []
    for allowed, tie, classify in boards:
        _check(n, allowed)
        extra = [0] * twin.BOARD_EXTRA
        extra[twin.BOARD_TIE], extra[twin.BOARD_CLASSIFY] = tie & full, int(classify)
        words += [*(mask & full for mask in allowed), *extra]
    search = _chosen(n, compiled)
    if search is None:
        sums = [0] * 5
        for at in range(0, len(words), n + twin.BOARD_EXTRA):
            board = words[at:at + n + twin.BOARD_EXTRA]
            for i, value in enumerate(twin.count(n, board[:n], bool(board[n + twin.BOARD_CLASSIFY]),
                                                 board[n + twin.BOARD_TIE])):
                sums[i] += value
        return Tallies(*sums)
    return Tallies(*search.count_boards(n, _words(words)))


def expand(n: int, boards: Sequence[Sequence[int]], depth: int, compiled: bool = True) -> tuple[array, list[int]]:
    """Each board's work items, rows 0 .. depth-1 fixed every non-attacking
    way (a GPU's items: counting/gpu.py), packed n words an item, with how
    many each board gave: in C, as listing them in Python took more than
    half of a GPU count's target at N = 20 (benchmarks/work_items.py)."""
    for allowed in boards:
        _check(n, allowed)
    search = _chosen(n, compiled)
    if search is None:
        items, counts = array("Q"), []
        for allowed in boards:
            found = twin.expand(n, allowed, depth)
            counts.append(len(found))
            for item in found:
                items.extend(item)
        return items, counts
    packed = array("Q")
    for allowed in boards:
        packed.extend(allowed)
    data, sizes = search.expand(n, packed, depth)
    words, per_board = array("Q"), array("Q")
    words.frombytes(data)
    per_board.frombytes(sizes)
    return words, per_board.tolist()


def count_half_turn(n: int, allowed: Sequence[int], compiled: bool = True, deadline: float | None = None) -> int:
    """The solutions a half turn leaves unchanged (q[n-1-r] = n-1-q[r]) with
    row r's queen in allowed[r]; compiled up to 32 rows.  The compiled search
    cannot stop at a ``deadline``: with one, the twin runs, reading the clock."""
    _check(n, allowed)
    full, last, m = (1 << n) - 1, n - 1, n // 2
    if n == 1:
        return allowed[0] & 1
    cols = diag = anti = 0
    if n % 2:  # the centre square holds the middle row's queen, its own image
        if not allowed[m] >> m & 1:
            return 0
        cols, diag, anti = 1 << m, 1 << last, 1 << last
    masks = []
    for r in range(m):  # row r's square allowed, its image's too, and not on a long diagonal
        image = allowed[last - r]  # (there a queen and its image attack each other)
        mirrored = sum(1 << (last - c) for c in range(n) if image >> c & 1)
        masks.append(allowed[r] & mirrored & full & ~(1 << r | 1 << (last - r)))
    search = _chosen(n, compiled and deadline is None, HALF_TURN_MAX_N)
    if search is None:
        return twin.count_half_turn(n, masks, cols, diag, anti, deadline)
    return search.count_half_turn(n, _words(masks), cols, diag, anti)


class Joined(NamedTuple):
    """What a count by quarters adds up (join.c's JOIN_* values): the boards
    (each row set counted for its orbit under the flips), the row sets
    joined, the halves listed, the east-west pairs tested one by one, and
    nanoseconds spent building the quarters' table (0: built before, in this
    process), listing halves and joining them (0 for the twin)."""

    boards: int
    row_sets: int
    halves: int
    tests: int
    ns_table: int
    ns_halves: int
    ns_join: int


def join_count(n: int, x: int, y: int, first: int, last: int, cap: int, direct: int | None = None,
               small: int | None = None, compiled: bool = True) -> Joined:
    """The boards of n with the middle queens of an odd n on (n/2, x) and
    (y, n/2) (x = y = n/2: one in the centre; -1, -1 for an even n) whose
    east rows are the row sets of ranks first .. last-1, by joining quarters
    (join.c; nqueens_cp/counting/join.py has the whole count).  Halves are
    listed ``cap`` at a time; ``direct`` and ``small`` cut the join (join.h's
    JOIN_DIRECT and JOIN_SMALL by default; tests pass 0 to go every way)."""
    direct = twin_join.DIRECT if direct is None else direct
    small = twin_join.SMALL if small is None else small
    search = _chosen(n, compiled, JOIN_MAX_N)
    if search is None:
        start = time.perf_counter_ns()
        table = _join_table(n // 2)
        built = time.perf_counter_ns() - start
        return Joined(*twin_join.join_count(table, n, x, y, first, last, cap, direct, small), built, 0, 0)
    return Joined(*search.join_count(n, x, y, first, last, cap, direct, small))


@functools.cache
def _join_table(h: int) -> twin_join.Table:
    return twin_join.table(h)


def join_row_sets(n: int, x: int, y: int) -> int:
    """How many row sets :func:`join_count` of these middle queens goes
    through (its ranks' bound); 0 where there are no such middle queens."""
    return twin_join.row_sets(n, x, y)


def join_table_size(h: int, compiled: bool = True) -> tuple[int, int]:
    """(placements, placements in the largest bucket) of the quarters' table
    of h x h squares, counted (compiled: 4^h counters, nothing kept)."""
    search = _chosen(2 * h, compiled, JOIN_MAX_N)
    if search is None:
        table = twin_join.table(h)
        return len(table.entry), table.largest
    return search.join_table_size(h)


class Walk:
    """One search of a sub-board that can stop and go on: after every
    :meth:`advance` the tallies, nodes and (after a stop at a solution) the
    board are here to read."""

    def __init__(self, n: int, allowed: Sequence[int], classify: bool = False, compiled: bool = True) -> None:
        self.classify = classify
        self._start(n, allowed, compiled, twin.ROW_WORDS * (n + 1))

    def _start(self, n: int, allowed: Sequence[int], compiled: bool, stack_words: int) -> None:
        """The buffers of a new search: its allowed masks, a stack of ``stack_words``, a board, its out words."""
        _check(n, allowed)
        self.n = n
        self._search = _chosen(n, compiled)
        full = (1 << n) - 1
        self._allowed: Sequence[int] = [mask & full for mask in allowed]
        self._stack: MutableSequence[int] = [0] * stack_words
        self._board: MutableSequence[int] = [0] * n
        self._out: MutableSequence[int] = [0] * twin.OUT_WORDS
        self._out[twin.ROW] = twin.NEW
        if self._search is not None:  # the C code takes buffers of 64-bit words
            self._allowed, self._stack, self._board, self._out = map(
                _words, (self._allowed, self._stack, self._board, self._out))

    @property
    def compiled(self) -> bool:
        """Whether this walk runs the C search (else the Python twin)."""
        return self._search is not None

    @property
    def finished(self) -> bool:
        return self._out[twin.ROW] == -1

    @property
    def tallies(self) -> tuple[int, int, int]:
        """Solutions in classes of 8, 4 and 2 (with classify), or (solutions, 0, 0)."""
        return self._out[twin.EIGHT], self._out[twin.FOUR], self._out[twin.TWO]

    @property
    def found(self) -> int:
        return sum(self.tallies)

    @property
    def nodes(self) -> int:
        return self._out[twin.NODES]

    def solution(self) -> tuple[int, ...]:
        """The board of the last solution found (0-based columns by row)."""
        return tuple((bit & -bit).bit_length() - 1 for bit in self._board)

    def advance(self, limit: int = 0, nodes: int = 0) -> bool:
        """Search on until ``limit`` more solutions (0: all) or ``nodes`` more
        nodes (0: no bound; one more when the last row is placed with the
        row above it); True once the whole sub-board is searched."""
        if self.finished:
            return True
        stop_at = self.nodes + nodes if nodes else 0
        until = self.found + limit if limit else 0
        search = self._search or twin
        search.walk(self.n, self._allowed, self._stack, self._board, self._out, int(self.classify), 0, until,
                    stop_at)
        return self.finished


DOMINATE_MAX_N = 32  # dominate.c's DOMINATE_MAX_N (a test checks the compiled module's)


# [cost family kernel]
OFFSET_ROWS = 2  # the family walk carries offsets' attacks one and two rows down (queens.h) ...
OFFSET_COLUMNS = 8  # ... and as many columns across as FAM_CENTER


def family_words(n: int, variant: Any) -> list[int]:
    """The family walk's descriptor (queens.h's FAM_* words) of a question of
    the family (:class:`~nqueens_cp.model.variants.Variant`), read from its
    data: how each diagonal direction attacks, and the offsets one and two
    rows down as patterns centred on column FAM_CENTER.  Offsets beyond
    OFFSET_ROWS rows or OFFSET_COLUMNS columns cannot be stated (the engine
    refuses such a question before any search)."""
    words = [0] * twin.FAM_WORDS
    for slope, at in ((-1, twin.FAM_LEFT), (1, twin.FAM_RIGHT)):
        lines = variant.family_of(slope)
        words[at] = _line_mode(lines)
    for dr, dc in variant.offsets:
        if dr > OFFSET_ROWS or abs(dc) > OFFSET_COLUMNS:
            raise ValueError(f"the family walk carries offsets {OFFSET_ROWS} rows down and {OFFSET_COLUMNS} "
                             f"across at most, got ({dr}, {dc})")
        words[twin.FAM_ONE if dr == 1 else twin.FAM_TWO] |= 1 << (twin.FAM_CENTER + dc)
    return words
# [end cost]


class FamilyWalk(Walk):
    """The walk of one board for any question of the family (plain queens too):
    queens.h's one walk, over the question's descriptor (:func:`family_words`),
    stoppable as :class:`Walk`; every solution counted, none classified."""

    def __init__(self, n: int, variant: Any, allowed: Sequence[int], compiled: bool = True) -> None:
        self.family: Sequence[int] = family_words(n, variant)
        width = twin.ROW_WORDS_OFFSETS if self.family[twin.FAM_ONE] | self.family[twin.FAM_TWO] else twin.ROW_WORDS
        self._start(n, allowed, compiled, width * (n + 1))  # its stack's rows; the out words are Walk's
        if self._search is not None:
            self.family = _words(self.family)

    @property
    def found(self) -> int:
        return self._out[twin.EIGHT]

    def advance(self, limit: int = 0, nodes: int = 0) -> bool:
        """Search on until ``limit`` more solutions (0: all) or ``nodes`` more
        queens placed (0: no bound); True once the whole board is searched."""
        if self.finished:
            return True
        stop_at = self.nodes + nodes if nodes else 0
        until = self.found + limit if limit else 0
        (self._search or twin).family_walk(self.family, self.n, self._allowed, self._stack, self._board,
                                           self._out, until, stop_at)
        return self.finished


def dominate(n: int, independent: bool, k: int, deadline: float | None = None,
             tick: Callable[[int], None] | None = None) -> tuple[int, list[tuple[int, int]], int]:
    """Whether k queens dominate the n x n board (dominate.c), in a thread
    that the deadline (time.monotonic()) or Ctrl-C stops: (1 found, their
    squares; 0 proved impossible; -1 stopped first), and the nodes.
    ``tick(nodes so far)`` is called about every half second meanwhile."""
    import threading

    module = _module()
    if module is None:
        raise RuntimeError("the compiled kernel is not built")
    queens, nodes, stop = array("q", [0] * k), array("q", [0]), array("q", [0])
    answer: list[int] = []
    worker = threading.Thread(target=lambda: answer.append(module.dominate(n, int(independent), k, queens, nodes,
                                                                           stop)), daemon=True)
    worker.start()
    ticked = time.monotonic()
    try:
        while worker.is_alive():
            worker.join(0.05 if deadline is None else max(0.0, min(0.05, deadline - time.monotonic())))
            if deadline is not None and time.monotonic() > deadline:
                break
            if tick is not None and time.monotonic() - ticked > 0.5:
                ticked = time.monotonic()
                tick(nodes[0])
    finally:
        stop[0] = 1
        worker.join()
    found = answer[0] if answer else -1
    return found, [divmod(q, n) for q in queens] if found == 1 else [], nodes[0]


class Decision:
    """One decision search of a sub-board (``decide.c``, or its twin
    :mod:`.twin_decide`): a board or a proof that there is none, stoppable
    every so many nodes.  ``allowed`` as for :class:`Walk` (None: every
    cell), any n: the C search keeps its state in multi-word bitsets.  The
    three ideas can be turned off one by one (docs/decision.md measures each);
    the same seed gives the same board."""

    def __init__(self, n: int, allowed: Sequence[int] | None = None, seed: int = 0, *, order: bool = True,
                 values: bool = True, restarts: bool = True, compiled: bool = True) -> None:
        if allowed is not None:
            _check(n, allowed)
        elif n < 1:
            raise ValueError(f"a search takes n >= 1, got n={n}")
        self.n = n
        flags = (twin_decide.ORDER * order) | (twin_decide.VALUES * values) | (twin_decide.RESTARTS * restarts)
        self._search = _module() if compiled else None
        self._state, self.nodes, self.runs = twin_decide.DESCEND, 0, 1
        if self._search is None:
            self._twin: twin_decide.Decide | None = twin_decide.Decide(n, allowed, seed, flags)
            return
        self._twin = None
        packed = None
        if allowed is not None:
            size = (n + 63) // 64 * 8
            full = (1 << n) - 1
            packed = b"".join((mask & full).to_bytes(size, "little") for mask in allowed)
        self._capsule = self._search.decide_new(n, packed, seed & twin_decide.MASK64, flags)

    @property
    def compiled(self) -> bool:
        """Whether this search runs in C (else the Python twin)."""
        return self._search is not None

    @property
    def finished(self) -> bool:
        return self._state in (twin_decide.FOUND, twin_decide.NONE)

    @property
    def found(self) -> bool:
        return self._state == twin_decide.FOUND

    def advance(self, nodes: int = 0) -> bool:
        """Search on for at most ``nodes`` more nodes (0: until the end); True
        once a board is found or none is proved."""
        if self._twin is not None:
            self._twin.advance(nodes)
            self._state, self.nodes, self.runs = self._twin.state, self._twin.nodes, self._twin.run + 1
        elif not self.finished:
            self._state, self.nodes, run = self._search.decide_advance(self._capsule, nodes)  # type: ignore[union-attr]
            self.runs = run + 1
        return self.finished

    def solution(self) -> tuple[int, ...]:
        """The board found (0-based columns by row)."""
        if not self.found:
            raise ValueError("no board was found")
        if self._twin is not None:
            return self._twin.solution()
        return tuple(self._search.decide_board(self._capsule, self.n))  # type: ignore[union-attr]


REPAIR_MAX_N = (1 << 30) - 1  # repair.c counts up to 2n - 1 lines in ints
TWIN_SLICE = 4096  # swaps of the Python twin between two looks at the clock
LAZY_BOARD_N = 1 << 20  # a larger board is allocated unmapped (NumPy's zeros), for the C search's fill


def repair_bytes(n: int, variant: Any, fixed: int = 0) -> int:
    """The memory a local search of n rows takes, the board's n ints included:
    repair_new's arrays (repair.c), counted here so that a size is refused
    before anything is allocated; a change to those arrays changes this."""
    total = 4 * n + 1024 * 4
    for slope in (-1, 1):
        lines = variant.family_of(slope)
        if lines is not None:
            total += 4 * (n if lines.wraps else 2 * n - 1)
    if fixed:
        total += 4 * (n - fixed) + (n + 63) // 64 * 8
    return total


def _line_mode(lines: Any) -> int:
    """How a family of lines attacks, in the kernel's words (queens.h's LINE_*)."""
    return twin.LINE_NONE if lines is None else twin.LINE_WRAP if lines.wraps else twin.LINE_EDGE


class Repair:
    """One local search of a board (``repair.c``, or its twin
    :mod:`.twin_repair`): a permutation repaired by swaps until no piece
    attacks another, stoppable every so many swaps.  The question's data
    (``variant``): its two diagonal families (none, edge or wrapping) and its
    offsets; ``fixed`` queens never move, ``blocked`` squares are never taken.
    The same seed gives the same board.  :attr:`board` is the board, n ints
    (4 bytes a queen), written in place as the search goes."""

    def __init__(self, n: int, variant: Any, fixed: Iterable[tuple[int, int]] = (),
                 blocked: Iterable[tuple[int, int]] = (), seed: int = 0, compiled: bool = True) -> None:
        if not 1 <= n <= REPAIR_MAX_N:
            raise ValueError(f"a local search takes 1 <= n <= {REPAIR_MAX_N}, got n={n}")
        down, up = (_line_mode(variant.family_of(slope)) for slope in (-1, 1))
        fixed = sorted(fixed)
        squares = sorted(r * n + c for r, c in blocked)
        self.n = n
        self.state, self.swaps, self.moves, self.restarts, self.attacked = twin_repair.START, 0, 0, 0, 0
        self._search = _module() if compiled else None
        if self._search is None:
            self._twin: twin_repair.Repair | None = twin_repair.Repair(n, down, up, variant.offsets, fixed, squares,
                                                                       seed)
            return
        self._twin = None
        if n > LAZY_BOARD_N:
            import numpy as np  # (zeros: the pages are mapped by the search's fill, a step at a time)

            self.board: Any = np.zeros(n, dtype=np.int32)
        else:
            self.board = array("i", [0]) * n
        self._capsule = self._search.repair_new(
            n, self.board, down, up, array("i", [x for pair in variant.offsets for x in pair]),
            array("i", [x for pair in fixed for x in pair]), array("Q", squares), seed & twin_decide.MASK64)

    @property
    def compiled(self) -> bool:
        """Whether this search runs in C (else the Python twin)."""
        return self._search is not None

    @property
    def found(self) -> bool:
        return self.state == twin_repair.FOUND

    def advance(self, swaps: int = 0, deadline: float | None = None) -> bool:
        """Search on for about ``swaps`` more swaps tried (0: until a board is
        found, which may be never), or until ``time.monotonic()`` passes
        ``deadline`` (the C search reads the clock itself, every 64 steps);
        True once a board is found."""
        if self._twin is not None:
            twin_ = self._twin
            if deadline is None:
                twin_.advance(swaps)
            else:  # (the twin takes no deadline: the clock is read here, between slices of swaps)
                import time

                stop = twin_.swaps + swaps if swaps else None
                while twin_.state != twin_repair.FOUND and (stop is None or twin_.swaps < stop) \
                        and time.monotonic() <= deadline:
                    twin_.advance(TWIN_SLICE if stop is None else min(TWIN_SLICE, stop - twin_.swaps))
            self.state, self.swaps, self.moves = twin_.state, twin_.swaps, twin_.moves
            self.restarts, self.attacked = twin_.restarts, twin_.attacked
        elif not self.found:
            self.state, self.swaps, self.moves, self.restarts, self.attacked = \
                self._search.repair_advance(  # type: ignore[union-attr]
                    self._capsule, swaps, 0 if deadline is None else max(1, int(deadline * 1e9)))
        return self.found

    def solution(self) -> Any:
        """The board found: n ints (an int32 buffer), row r's column at [r].
        The search's state beside it is freed."""
        if not self.found:
            raise ValueError("no board was found")
        if self._twin is not None:
            return array("i", self._twin.q)
        self._capsule = None  # the lines' counts go; the board stays
        return self.board
