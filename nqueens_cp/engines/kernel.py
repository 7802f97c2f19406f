"""The bitmask search, compiled to machine code, with its Python twin as the fallback.

One search loop serves counting (plain, or by symmetry classes with the
leaves classified by their turns) and deciding (stop after a number of
solutions, or after a node budget, and go on later): :class:`Walk` drives
it.  :func:`count_masks` is the loop in Python.  ``kernel.ll`` beside this
file is the same loop, line for line, in LLVM's assembly language, and a
second form of it for whole counts (:func:`count`, :func:`count_classes`):
``count_tree``, the same search without stops written as recursion, which
keeps each row's words in registers and counts far faster (same tallies,
same nodes: tested against the walk; benchmarks/README.md).  A third form,
``count_lanes`` (:func:`count_boards`), counts many sub-boards at once, one
in each lane of the CPU's vector words, with selects where the others
branch: a lane's choices never mispredict (same tallies and nodes as
count_tree, tested; about 1.3x count_tree's speed here).

llvmlite (a dependency of the package) turns the IR into machine code for
this CPU, with LLVM's -O3 passes, the first time a search needs it, not at
import, and keeps the machine code in a cache between processes
(:func:`cache_path`; benchmarks/startup.py: 0.45 s saved a process).
Where a C compiler driver can link that code into a shared library (Linux,
``cc``), the library is cached too (:func:`linked_path`) and later
processes load it with ctypes without importing LLVM at all (0.016 s
instead of 0.06 s a process; 5 % of ``count 16``).  If llvmlite is
missing or cannot compile the loop, with ``NQUEENS_CP_NO_JIT=1``, or
beyond 62 rows (64-bit words), :func:`count_masks` runs instead (same
answer, far slower).

Why not numba, the usual route: loading numba and its cached machine code
took 0.8 s in every process here, more than the whole count of N=14;
llvmlite's import takes 0.05 s.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import sys
import warnings
from dataclasses import dataclass
from collections.abc import Callable, MutableSequence, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

MAX_N = 62  # the compiled loop works on 64-bit words
OUT = 5  # the words of out: tallies of class size 8, 4 and 2, nodes, the row to resume from


def restrict(free: int, needed: int, cols: int) -> int:
    """The free cells of a row once the columns no later row allows (``needed``)
    are known: one of them still empty, the row must take it; two, no way on."""
    missing = needed & ~cols
    if missing == 0:
        return free
    if missing & (missing - 1):
        return 0
    return free & missing


def turned(n: int, board: Sequence[int], inverse: Sequence[int], k: int) -> int:
    """Compare the board turned k quarter turns (k = 1, 2, 3) with the board,
    row by row from the top, each image row made when it is compared (the
    first row nearly always decides): -1 if the image is less, 0 if equal, 1
    if greater.  inverse[c] is the row of column c's queen."""
    last = n - 1
    for i in range(n):
        if k == 1:
            a = 1 << (last - inverse[i])
        elif k == 2:
            a = 1 << (last - ((board[last - i] & -board[last - i]).bit_length() - 1))
        else:
            a = 1 << inverse[last - i]
        if a < board[i]:
            return -1
        if a > board[i]:
            return 1
    return 0


def class_size(n: int, board: Sequence[int], inverse: MutableSequence[int]) -> int:
    """0 if a turn of the board is less than the board; else the size of its class:
    2 (a quarter turn leaves it unchanged), 4 (a half turn does) or 8.
    (The compiled one also takes a stride: row r of the board at board[r * stride].)"""
    for r in range(n):
        inverse[(board[r] & -board[r]).bit_length() - 1] = r
    quarter = turned(n, board, inverse, 1)
    if quarter < 0:
        return 0
    if quarter == 0:
        return 2
    half = turned(n, board, inverse, 2)
    if half < 0:
        return 0
    if half == 0:
        return 4
    if turned(n, board, inverse, 3) < 0:
        return 0
    return 8


COLS, LEFT, RIGHT, TODO = range(4)  # the words of a row in state: state[4 * row + TODO]
ALLOWED, NEEDED = range(2)  # the words of a row in masks: masks[2 * row + NEEDED]


def count_masks(n: int, masks: Sequence[int], classify: int, limit: int, stop_at: int, resume: int,
                state: MutableSequence[int], board: MutableSequence[int], image: MutableSequence[int],
                out: MutableSequence[int]) -> None:
    """Search placements of n queens, row r restricted to the columns allowed there.

    masks[2r], masks[2r + 1]: the columns allowed in row r, and those no row
    after r allows (:func:`needed_masks`).  state (4 words a row: columns
    taken above it, diagonals attacking it from the left and the right, its
    cells not yet tried), board and image are scratch of n + 1 rows.
    out[0..4]: solutions of class size 8 (every solution when not
    classifying), of size 4, of size 2, nodes, and the row to resume from (-1:
    finished).  A call adds to the tallies in out; it stops after ``limit``
    solutions in all (0: no limit; board then holds the last one) or once the
    nodes reach ``stop_at`` (0: never); ``resume`` != 0 goes on from where the
    last call stopped.  With ``classify``, a solution counts only if no turn
    of it is less (row by row), in the tally of its class's size.
    """
    full = (1 << n) - 1
    last = n - 1
    never = stop_at if stop_at else 1 << 64
    keep_board = classify or limit
    nodes = out[3]
    if not resume:
        state[COLS] = state[LEFT] = state[RIGHT] = 0
        state[TODO] = restrict(masks[ALLOWED] & full, masks[NEEDED], 0)
        row = 0
    else:
        row = out[4]
    while row >= 0 and nodes < never:
        here = 4 * row
        free = state[here + TODO]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        state[here + TODO] = free ^ bit
        nodes += 1
        leaf = bit
        if row != last:  # (row 0 is the last only when n == 1: deeper boards stop a row above)
            c = state[here + COLS] | bit
            ld = ((state[here + LEFT] | bit) << 1) & full
            rd = (state[here + RIGHT] | bit) >> 1
            below = here + 4
            state[below + COLS] = c
            state[below + LEFT] = ld
            state[below + RIGHT] = rd
            leaf = restrict(~(c | ld | rd) & masks[2 * row + 2 + ALLOWED] & full, masks[2 * row + 2 + NEEDED], c)
            if row + 1 != last:
                row += 1
                state[below + TODO] = leaf
                continue
            if leaf == 0:
                continue
            nodes += 1  # the last row at once: its one free cell is a solution
        size = 8
        if keep_board:  # the board is read off the columns only when needed
            for r in range(last):
                board[r] = state[4 * r + 4 + COLS] & ~state[4 * r + COLS]
            board[last] = leaf
            if classify:
                size = class_size(n, board, image)
        out[0] += size == 8
        out[1] += size == 4
        out[2] += size == 2
        if limit and out[0] + out[1] + out[2] >= limit:
            break
    out[3], out[4] = nodes, row


def needed_masks(n: int, allowed: Sequence[int]) -> list[int]:
    """needed[r]: the columns that no row after r allows (so rows up to r must
    take them); 0 for the last row, where the rule changes nothing (its one
    open column is the only one it can take), so that the loop skips it."""
    full = (1 << n) - 1
    needed = [0] * n
    later = allowed[-1] if n else 0
    for r in range(n - 2, -1, -1):
        needed[r] = full & ~later
        later |= allowed[r]
    return needed


class Walk:
    """One search of a sub-board (one mask of allowed columns per row), in the
    compiled loop when there is one, that can stop and go on: after every
    :meth:`advance` the tallies, nodes and (after a stop at a solution) the
    board are here to read."""

    def __init__(self, n: int, allowed: Sequence[int], classify: bool = False) -> None:
        if not 1 <= n or len(allowed) != n:
            raise ValueError(f"a walk takes n >= 1 and n masks, got n={n}, {len(allowed)} masks")
        self.n = n
        self.classify = classify
        loops = compiled() if n <= MAX_N else None
        self._loop = loops.walk if loops is not None else None
        masks = [m for pair in zip(allowed, needed_masks(n, allowed)) for m in pair]
        if self._loop is not None:
            word = ctypes.c_int64
            self._masks = (word * (2 * n))(*masks)
            self._state = (word * (4 * (n + 1)))()
            self._board, self._image = (word * (n + 1))(), (word * (n + 1))()
            self._out = (word * OUT)()
        else:
            self._masks, self._state = masks, [0] * (4 * (n + 1))
            self._board, self._image = [0] * (n + 1), [0] * (n + 1)
            self._out = [0] * OUT
        self._started = False

    @property
    def compiled(self) -> bool:
        """Whether this walk runs the compiled loop (else the Python twin, about 100 times slower)."""
        return self._loop is not None

    @property
    def finished(self) -> bool:
        return self._started and self._out[4] < 0

    @property
    def tallies(self) -> tuple[int, int, int]:
        """Solutions in classes of 8, 4 and 2 (with classify), or (solutions, 0, 0)."""
        return self._out[0], self._out[1], self._out[2]

    @property
    def found(self) -> int:
        return sum(self.tallies)

    @property
    def nodes(self) -> int:
        return self._out[3]

    def solution(self) -> tuple[int, ...]:
        """The board of the last solution found (0-based columns by row)."""
        board = self._board
        return tuple((board[r] & -board[r]).bit_length() - 1 for r in range(self.n))

    def advance(self, limit: int = 0, nodes: int = 0) -> bool:
        """Search on until ``limit`` more solutions (0: all) or ``nodes`` more
        nodes (0: no bound; one more when the last row is placed with the
        row above it); True once the whole sub-board is searched."""
        if self.finished:
            return True
        stop_at = self.nodes + nodes if nodes else 0
        until = self.found + limit if limit else 0
        loop = self._loop or count_masks
        loop(self.n, self._masks, int(self.classify), until, stop_at, int(self._started), self._state,
             self._board, self._image, self._out)
        self._started = True
        return self.finished


def count(n: int, allowed: Sequence[int]) -> tuple[int, int]:
    """(solutions, nodes) with row r restricted to allowed[r]: compiled when possible."""
    found, _, _, nodes, _ = _count(n, allowed, classify=False)
    return found, nodes


def count_tied(n: int, allowed: Sequence[int], tie: int) -> tuple[int, int, int]:
    """(solutions, those with the last row's queen on the square ``tie``, nodes)."""
    found, _, _, nodes, tied = _count(n, allowed, classify=False, tie=tie)
    return found, tied, nodes


def count_classes(n: int, allowed: Sequence[int]) -> tuple[int, int, int, int]:
    """(boards of class size 8, 4, 2, nodes) among the solutions with row r in
    allowed[r] that no turn makes less: compiled when possible."""
    return _count(n, allowed, classify=True)[:4]


LANES_MAX_N = 32  # count_lanes packs a row's allowed and needed masks into one 64-bit word
HALF_TURN_MAX_N = 32  # count_half_turn keeps the 2n - 1 diagonals of each direction in one 64-bit word


def count_boards(n: int, boards: Sequence[tuple[Sequence[int], int, bool]]) -> tuple[int, int, int, int, int, int]:
    """Many sub-boards, each (allowed masks, tie square or 0, classify):
    (solutions of the boards not classified, those with the last row's
    queen on their board's tie square, nodes, and of the classified boards
    the classes of size 8, 4 and 2, as :func:`count_classes`).  count_lanes
    when compiled (four boards at once, one in each lane of the CPU's
    vector words), else one count at a time; the same tallies and nodes
    either way (tested)."""
    loops = compiled() if 3 <= n <= LANES_MAX_N else None
    if loops is None:
        found = tied = nodes = eight = four = two = 0
        for allowed, tie, classify in boards:
            if classify:
                a, b, c, searched = count_classes(n, allowed)
                eight, four, two = eight + a, four + b, two + c
            else:
                f, t, searched = count_tied(n, allowed, tie)
                found, tied = found + f, tied + t
            nodes += searched
        return found, tied, nodes, eight, four, two
    full = (1 << n) - 1
    word = ctypes.c_int64
    out = (word * 6)()
    for classify in (False, True):  # a copy of the loop for each, without the other's tests
        words: list[int] = []
        for allowed, tie, classifying in boards:
            if len(allowed) != n:
                raise ValueError(f"a count takes n masks, got n={n}, {len(allowed)} masks")
            if classifying == classify:
                allowed = [mask & full for mask in allowed]
                words += [mask | needed << 32 for mask, needed in zip(allowed, needed_masks(n, allowed))]
                words += [0, tie & full]
        if words:
            loops.lanes(n, (word * len(words))(*words), len(words) // (n + 2), int(classify), out)
    return out[0], out[1], out[2], out[3], out[4], out[5]


def count_half_turn(n: int, allowed: Sequence[int]) -> int | None:
    """The solutions a half turn leaves unchanged, row r's queen in
    allowed[r], compiled (:func:`nqueens_cp.classes.count_half_turn` is the
    same search in Python); None where there is no compiled loop or
    2n - 1 diagonals do not fit a 64-bit word (n > 32)."""
    loops = compiled() if 2 <= n <= HALF_TURN_MAX_N else None
    if loops is None:
        return None
    full, last, m = (1 << n) - 1, n - 1, n // 2
    cols = diag = anti = 0
    if n % 2:  # the centre square holds the middle row's queen, its own image
        if not allowed[m] >> m & 1:
            return 0
        cols, diag, anti = 1 << m, 1 << last, 1 << last
    masks = []
    for r in range(m):
        image = allowed[last - r]
        mirrored = sum(1 << (last - c) for c in range(n) if image >> c & 1)  # bit c: image's square allowed
        masks.append(allowed[r] & mirrored & full & ~(1 << r | 1 << (last - r)))
    return loops.half_turn(n, (ctypes.c_int64 * max(m, 1))(*masks), m, cols, diag, anti)


RECORD = 4  # the words of a row for count_tree: allowed, needed, queen, tie (last row)


def _count(n: int, allowed: Sequence[int], classify: bool, tie: int = 0) -> tuple[int, int, int, int, int]:
    """A whole sub-board in one call: count_tree (the same search as
    count_masks without stops, as recursion) when compiled, else walks.
    (tallies of 8, 4, 2, nodes, solutions on the tie square)."""
    if len(allowed) != n:
        raise ValueError(f"a count takes n masks, got n={n}, {len(allowed)} masks")
    loops = compiled() if 3 <= n <= MAX_N else None
    if loops is None:
        walk = Walk(n, allowed, classify)
        walk.advance()
        tied = 0
        if tie and not classify:  # a second walk, the last queen on the tie square
            on_tie = Walk(n, [*allowed[:-1], allowed[-1] & tie])
            on_tie.advance()
            tied = on_tie.found
        return (*walk.tallies, walk.nodes, tied)
    full = (1 << n) - 1
    word = ctypes.c_int64
    records = (word * (RECORD * n))(
        *[w for mask, needed in zip(allowed, needed_masks(n, allowed)) for w in (mask & full, needed, 0, 0)])
    records[RECORD * n - 1] = tie & full
    inverse, out = (word * n)(), (word * (OUT + 1))()  # (a sixth word: the solutions on the tie square)
    loops.count(n, records, int(classify), inverse, out)
    return out[0], out[1], out[2], out[3], out[5]


def ir() -> str:
    """count_masks in LLVM IR, as shipped in kernel.ll."""
    return resources.files(__package__).joinpath("kernel.ll").read_text(encoding="utf-8")


@functools.cache
def compiled() -> Loops | None:
    """The compiled loops (:class:`Loops`), loaded from the cache or built on
    first use and kept for the process; None without a working llvmlite."""
    if os.environ.get("NQUEENS_CP_NO_JIT") == "1":
        return None
    try:
        import llvmlite
    except ImportError:
        return None
    source = ir()
    linked = linked_path(source, llvmlite.__version__)
    loops = _load_linked(linked)
    if loops is not None:
        return loops
    try:
        import llvmlite.binding as llvm

        return _build(llvm, source, linked)
    except Exception as error:  # an llvmlite too old for this IR, an unknown CPU...
        warnings.warn(f"nqueens_cp: cannot compile the counting loop ({error}); counting in plain Python",
                      RuntimeWarning, stacklevel=2)
        return None


def kind() -> str:
    """Which loop :func:`count` runs here: 'llvm' or 'python'."""
    return "llvm" if compiled() is not None else "python"


@dataclass(frozen=True)
class Loops:
    """The compiled loops of one process: count_masks (walks), count_tree (whole
    counts), count_lanes (many sub-boards at once) and count_half_turn (S180)."""

    walk: Callable[..., None]
    count: Callable[..., None]
    lanes: Callable[..., None]
    half_turn: Callable[..., int]
    cached: bool  # machine code read from the cache, not compiled here
    engine: Any  # the machine code lives as long as the engine (or the linked library)
    linked: bool = False  # loaded from the cached shared library, without LLVM


def _cache_root() -> Path | None:
    root = os.environ.get("NQUEENS_CP_CACHE")
    if root == "0":
        return None
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "nqueens_cp")
    return Path(root)


def cache_path(llvm: Any, source: str, cpu: str, features: str) -> Path | None:
    """Where the machine code of ``source`` for this CPU is kept between
    processes (compiling with LLVM's -O3 passes takes about 0.2 s, in every
    process): ``$NQUEENS_CP_CACHE``, else ``$XDG_CACHE_HOME/nqueens_cp``, else
    ``~/.cache/nqueens_cp``; ``NQUEENS_CP_CACHE=0``: no cache.  The name holds
    a hash of everything the code depends on, so a stale file is never read."""
    root = _cache_root()
    if root is None:
        return None
    import llvmlite

    key = "\0".join([source, llvmlite.__version__, ".".join(map(str, llvm.llvm_version_info)),
                      llvm.get_default_triple(), cpu, features, "pic"])
    return root / f"kernel-{hashlib.sha256(key.encode()).hexdigest()[:24]}.o"


def _this_cpu() -> str | None:
    """This CPU as Linux describes it (vendor, family, model, flags: what
    the machine code may use), read without LLVM; None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    wanted = ("vendor_id", "cpu family", "model", "model name", "flags", "isa", "features", "cpu")
    lines = []
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:  # the first processor's block is enough
                if not line.strip():
                    break
                name = line.split(":", 1)[0].strip()
                if name in wanted:
                    lines.append(line.strip())
    except OSError:
        return None
    return "\n".join(lines) if any(line.startswith(("flags", "features", "isa")) for line in lines) else None


def linked_path(source: str, llvmlite_version: str) -> Path | None:
    """Where the machine code, linked into a shared library, is kept
    (beside :func:`cache_path`'s file), named by a hash of what it depends
    on that can be known without loading LLVM: the source, llvmlite's
    version, the platform and this CPU (its flags); None where the CPU
    cannot be read so (not Linux) or there is no cache."""
    root, cpu = _cache_root(), _this_cpu()
    if root is None or cpu is None:
        return None
    key = "\0".join([source, llvmlite_version, sys.platform, os.uname().machine, cpu])
    return root / f"kernel-{hashlib.sha256(key.encode()).hexdigest()[:24]}.so"


def _load_linked(path: Path | None) -> Loops | None:
    """The loops from the cached shared library, if it is there and whole:
    its bytes must match the digest written beside it, as for the object code."""
    if path is None:
        return None
    try:
        code, digest = path.read_bytes(), path.with_suffix(".so.sha256").read_bytes()
        if hashlib.sha256(code).digest() != digest:
            return None
        library = ctypes.CDLL(str(path))
        return _loops(lambda name: (name, library), True, library, linked=True)
    except (OSError, AttributeError):
        return None


def _link(path: Path, code: bytes) -> None:
    """Link the object code into a shared library with the C compiler
    driver, if there is one, for the next process to load without LLVM;
    any failure only costs the next process LLVM's import."""
    import shutil
    import subprocess
    import tempfile

    from ..errors import NQueensError
    from ..files import atomic_write

    driver = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if driver is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=path.parent) as scratch:
            obj, library = Path(scratch, "kernel.o"), Path(scratch, "kernel.so")
            obj.write_bytes(code)
            subprocess.run([driver, "-shared", "-nostdlib", "-o", str(library), str(obj)],
                           check=True, capture_output=True, timeout=60)
            linked = library.read_bytes()
        atomic_write(path, lambda temporary: Path(temporary).write_bytes(linked))
        atomic_write(path.with_suffix(".so.sha256"),
                     lambda temporary: Path(temporary).write_bytes(hashlib.sha256(linked).digest()))
    except (OSError, subprocess.SubprocessError, NQueensError):
        pass


def _read_cache(path: Path | None) -> bytes | None:
    """The cached object code, if its file is there and whole (a checksum
    guards against a damaged file: machine code that is not what was
    written must never run)."""
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    digest, code = data[:32], data[32:]
    return code if code and hashlib.sha256(code).digest() == digest else None


def _write_cache(path: Path, code: bytes) -> None:
    """Keep the object code for the next process; a cache that cannot be
    written (read-only home, full disk) only costs the next process a compile."""
    from ..errors import NQueensError
    from ..files import atomic_write

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda temporary: Path(temporary).write_bytes(hashlib.sha256(code).digest() + code))
    except (OSError, NQueensError):
        pass


def _build(llvm: Any, source: str, linked: Path | None = None) -> Loops:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    cpu, features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
    # Position-independent, so that the same object code links into a shared library.
    machine = llvm.Target.from_default_triple().create_target_machine(cpu=cpu, features=features, opt=3,
                                                                      reloc="pic")
    module = llvm.parse_assembly(source)
    module.verify()
    path = cache_path(llvm, source, cpu, features)
    code = _read_cache(path)
    if code is None and hasattr(llvm, "create_pass_builder"):
        # LLVM's -O3 passes: they inline restrict, the last two rows and the
        # copies of the row loop, and take loop-invariant tests out of loops.
        builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=3))
        builder.getModulePassManager().run(module, builder)
    engine = llvm.create_mcjit_compiler(module, machine)
    made: list[bytes] = []
    if path is not None:
        def notify(_module: Any, compiled: bytes) -> None:
            made.append(compiled)
            if code is None:
                _write_cache(path, compiled)

        engine.set_object_cache(notify, lambda _module: code)
    engine.finalize_object()
    if linked is not None and (code or made):
        _link(linked, code or made[0])
    return _loops(lambda name: engine.get_function_address(name), code is not None, engine)


def _loops(address: Callable[[str], Any], cached: bool, keep: Any, linked: bool = False) -> Loops:
    """The loops as ctypes functions, each from ``address(name)`` (an address
    in the JIT's memory, or a (name, library) pair)."""
    word = ctypes.c_int64
    words = ctypes.POINTER(word)
    # ctypes releases the GIL for the call, so threads can search in parallel.
    walk = ctypes.CFUNCTYPE(None, word, words, word, word, word, word, words, words, words, words)(
        address("count_masks"))
    count = ctypes.CFUNCTYPE(None, word, words, word, words, words)(address("count_tree"))
    lanes = ctypes.CFUNCTYPE(None, word, words, word, word, words)(address("count_lanes"))
    half_turn = ctypes.CFUNCTYPE(word, word, words, word, word, word, word)(address("count_half_turn"))
    return Loops(walk, count, lanes, half_turn, cached, keep, linked)
