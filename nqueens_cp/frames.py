"""Counting with the whole symmetry group: border frames as sub-boards.

Every solution has a *frame*: its queens in the border of the board (rows 0
and n-1, columns 0 and n-1), at most four queens.  The eight symmetries of
the square map the border onto itself, so they act on frames, and the
solutions whose frame is g(F) are exactly the images under g of those whose
frame is F.  So only one frame per orbit is searched (about 1/8 of them),
and its completions are counted once, weighted by the orbit's size::

    total = sum over canonical frames F of  completions(F) * |orbit(F)|

This is the idea of the Q27 project's pre-placed outer rings (Preußer &
Engelhardt, 2016), with a ring one square wide.  A frame with its attacks
is a sub-board: one mask of allowed columns per row, exactly what the
compiled counting loop takes (:mod:`nqueens_cp.engines.kernel`).

The fundamental count (OEIS A002562) comes from Burnside's lemma.  No
solution of n > 1 is symmetric under a reflection (a queen and its image
would share a line), so with S180 and S90 the solutions that a half turn
and a quarter turn leave unchanged::

    fundamental = (total + S180 + 2 * S90) / 8

and the classes by symmetry: c = S90 / 2 (2 solutions each), b = (S180 -
S90) / 4 (4 each), a = (total - S180) / 8 (8 each), so that total = 8a + 4b
+ 2c and fundamental = a + b + c.  S180 and S90 are counted by searches
that place a queen together with its images: a small fraction of the work.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .errors import NQueensError, TimeLimitReached

Square = tuple[int, int]
Frame = tuple[Square, ...]

MIN_N = 6  # below this a plain count is quicker than listing frames


def _images(n: int, frame: Frame) -> list[Frame]:
    last = n - 1
    maps = (
        lambda r, c: (r, c), lambda r, c: (c, last - r), lambda r, c: (last - r, last - c),
        lambda r, c: (last - c, r), lambda r, c: (r, last - c), lambda r, c: (last - r, c),
        lambda r, c: (c, r), lambda r, c: (last - c, last - r),
    )
    return [tuple(sorted(g(r, c) for r, c in frame)) for g in maps]


def _attack(a: Square, b: Square) -> bool:
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def frames(n: int) -> Iterator[Frame]:
    """Every non-attacking placement of the border's queens: one in row 0, one
    in row n-1, one in column 0, one in column n-1 (a corner queen is both)."""
    last = n - 1
    for top in range(n):
        for bottom in range(n):
            placed = [(0, top), (last, bottom)]
            if _attack(placed[0], placed[1]):
                continue
            left = [None] if 0 in (top, bottom) else range(1, last)
            right = [None] if last in (top, bottom) else range(1, last)
            for r_left in left:
                with_left = placed if r_left is None else placed + [(r_left, 0)]
                if r_left is not None and any(_attack((r_left, 0), q) for q in placed):
                    continue
                for r_right in right:
                    if r_right is None:
                        yield tuple(sorted(with_left))
                    elif not any(_attack((r_right, last), q) for q in with_left):
                        yield tuple(sorted(with_left + [(r_right, last)]))


def canonical_frames(n: int) -> list[tuple[Frame, int]]:
    """(frame, orbit size) for the lexicographically least frame of every orbit."""
    found = []
    for frame in frames(n):
        images = _images(n, frame)
        if frame == min(images):
            found.append((frame, len(set(images))))
    return found


def allowed_masks(n: int, frame: Frame) -> list[int]:
    """The sub-board of a frame: per row, the columns a queen may take there
    (the frame's own square in its rows; elsewhere no border column and no
    square a frame queen attacks)."""
    full = (1 << n) - 1
    inner = full & ~1 & ~(1 << (n - 1))
    rows = {r: c for r, c in frame}
    masks = []
    for r in range(n):
        if r in rows:
            masks.append(1 << rows[r])
            continue
        mask = inner
        for qr, qc in frame:
            mask &= ~(1 << qc)
            for c in (qc + (r - qr), qc - (r - qr)):
                if 0 <= c < n:
                    mask &= ~(1 << c)
        masks.append(mask)
    return masks


def count_frames(n: int, chunk: list[tuple[Frame, int]]) -> tuple[int, int]:
    """(weighted completions, nodes) of a list of (frame, weight), in the compiled loop."""
    from .engines import kernel

    total = nodes = 0
    for frame, weight in chunk:
        found, searched = kernel.count(n, allowed_masks(n, frame))
        total += weight * found
        nodes += searched
    return total, nodes


def chunks(n: int, size: int) -> list[list[tuple[Frame, int]]]:
    """The canonical frames in lists of ``size``: the tasks of a split count."""
    found = canonical_frames(n)
    return [found[i:i + size] for i in range(0, len(found), size)]


# --- the symmetric solutions -------------------------------------------------------

def count_half_turn(n: int, deadline: float | None = None) -> int:
    """S180: solutions that a half turn leaves unchanged, q[n-1-r] = n-1-q[r].

    Rows r < n/2 are placed with their images in row n-1-r; the middle row
    of an odd board holds the centre square.  Columns, diagonals (index
    c - r + n-1) and anti-diagonals (r + c) are bit masks over absolute
    indices, since the images attack the rows above them too."""
    if n == 1:
        return 1
    last = n - 1
    full = (1 << n) - 1
    half = n // 2
    cols = diag = anti = 0
    if n % 2:
        m = n // 2
        cols, diag, anti = 1 << m, 1 << last, 1 << (2 * m)
    nodes = 0

    def place(r: int, cols: int, diag: int, anti: int) -> int:
        nonlocal nodes
        if r == half:
            return 1
        r2 = last - r
        free = full & ~(cols | (diag >> (last - r)) | (anti >> r))
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            c = bit.bit_length() - 1
            c2 = last - c
            d1, d2 = c - r + last, c2 - r2 + last  # d2 = r - c + last
            a1, a2 = r + c, r2 + c2
            if c == c2 or d1 == d2 or a1 == a2:
                continue
            bits_c, bits_d, bits_a = bit | (1 << c2), (1 << d1) | (1 << d2), (1 << a1) | (1 << a2)
            if cols & bits_c or diag & bits_d or anti & bits_a:
                continue
            nodes += 1
            if deadline is not None and not nodes & 4095 and time.monotonic() > deadline:
                raise TimeLimitReached
            total += place(r + 1, cols | bits_c, diag | bits_d, anti | bits_a)
        return total

    return place(0, cols, diag, anti)


def count_quarter_turn(n: int, deadline: float | None = None) -> int:
    """S90: solutions that a quarter turn leaves unchanged: with (r, c) the
    board holds (c, n-1-r), (n-1-r, n-1-c) and (n-1-c, r)."""
    if n == 1:
        return 1
    if n % 4 not in (0, 1):
        return 0  # the squares fall in 4-cycles (and the centre): n must be 4k or 4k+1
    last = n - 1
    q: dict[int, int] = {n // 2: n // 2} if n % 2 else {}  # row -> column; the centre is its own image

    def place() -> int:
        r = next((i for i in range(n) if i not in q), None)
        if r is None:
            return 1
        total = 0
        for c in range(n):
            cycle = [(r, c), (c, last - r), (last - r, last - c), (last - c, r)]
            if len(set(cycle)) != 4 or any(a in q for a, _ in cycle):
                continue
            queens = [*q.items(), *cycle]
            if any(_attack(x, y) for x in cycle for y in queens if x != y):
                continue
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitReached
            q.update(cycle)
            total += place()
            for a, _ in cycle:
                del q[a]
        return total

    return place()


@dataclass
class Tally:
    """Both published numbers of one N, and the classes they come from."""

    n: int
    total: int  # OEIS A000170
    half_turn: int  # S180
    quarter_turn: int  # S90

    @property
    def classes(self) -> tuple[int, int, int]:
        """(a, b, c): classes with no symmetry (8 solutions each), 180° only (4), 90° (2)."""
        if self.n == 1:
            return 0, 0, 0
        c, rem_c = divmod(self.quarter_turn, 2)
        b, rem_b = divmod(self.half_turn - self.quarter_turn, 4)
        a, rem_a = divmod(self.total - self.half_turn, 8)
        if rem_a or rem_b or rem_c or min(a, b, c) < 0:
            raise NQueensError(f"N={self.n}: the symmetry classes do not add up (total {self.total}, "
                               f"S180 {self.half_turn}, S90 {self.quarter_turn}): a counting error")
        return a, b, c

    @property
    def fundamental(self) -> int:
        """OEIS A002562: solutions counted once per class of the 8 symmetries."""
        if self.n == 1:
            return 1  # the one board every reflection leaves unchanged too
        return sum(self.classes)

    def to_dict(self) -> dict[str, Any]:
        a, b, c = self.classes
        return {"n": self.n, "total": self.total, "fundamental": self.fundamental, "classes_8": a,
                "classes_4": b, "classes_2": c, "half_turn_symmetric": self.half_turn,
                "quarter_turn_symmetric": self.quarter_turn}
