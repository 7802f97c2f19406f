"""The count by joining quarters of join.c, in plain Python: its twin.

Line for line the C code's steps, in the same order, so that for any part
(middle queens, a range of row sets) both give the same boards, row sets,
halves and pair tests: tests/test_join.py holds them to each other for N
up to 11, where the twin is quick, with the join cut every way.  nqueens_cp/counting/quarters.py is the lesson
(short, the idea); this is the C code's specification (every cut it makes
for speed, written out).  Read join.c's opening comment first.  The twin of
join_cost, the estimate that orders a count's parts, is
:mod:`.twin_join_cost`.

Where it is not line for line, and why:

- The halves of a row set come from a generator (:func:`_half`) where
  join.c keeps an explicit cursor (``struct group``, resumed between
  loads): the same halves in the same order, without C's bookkeeping of
  where to resume.
- join.c tests pairs on 32-bit keys where the untold bits fit (the rests)
  and on 64-bit keys otherwise; Python's integers have no width, so the
  twin has one path for both.  The counts, row sets, halves and pair tests
  are the same (tests/test_join.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb
from typing import NamedTuple

DIRECT = 131072  # halves whose pairs are at most this many are tested at once (join.h's JOIN_DIRECT)
SMALL = 16384  # bucket ranges of at most this many pairs tested pair by pair, where not dense (JOIN_SMALL)
BUCKET = 1024  # the keys a bucket of the longer list holds, about (JOIN_BUCKET): how many bits its id takes ...
DENSE_LIST = 512  # ... where the shorter list has this many keys or more (JOIN_DENSE_LIST); else ...
ID_BITS = 8  # ... at most this many telling bits (JOIN_ID_BITS), the buckets too small to be kept dense
MAX_ID_BITS = 16  # the bits of a bucket's id, at most (JOIN_MAX_ID_BITS)


class Table(NamedTuple):
    """Every placement on an h x h square, bucketed by (rows | columns << h):
    ``entry[start[b]:start[b + 1]]``, each its diagonals (j - i + h - 1) in
    the low 32 bits and anti-diagonals (i + j) above; ``columns[r]``, the
    column sets of row set r's non-empty buckets, ascending."""

    h: int
    start: list[int]
    entry: list[int]
    largest: int
    columns: list[list[int]]


def table(h: int) -> Table:
    """The quarters' table of h (join_table_build)."""
    found: list[tuple[int, int]] = []  # (bucket, entry) in the order join.c places them

    def place(i: int, rows: int, cols: int, diag: int, anti: int) -> None:
        if i == h:
            found.append((rows | cols << h, diag | anti << 32))
            return
        place(i + 1, rows, cols, diag, anti)  # row i empty in this quarter
        for j in range(h):
            d, a = 1 << (j - i + h - 1), 1 << (i + j)
            if not cols >> j & 1 and not diag & d and not anti & a:
                place(i + 1, rows | 1 << i, cols | 1 << j, diag | d, anti | a)

    place(0, 0, 0, 0, 0)
    buckets = 1 << 2 * h
    sizes = [0] * buckets
    for bucket, _ in found:
        sizes[bucket] += 1
    start = [0] * (buckets + 1)
    for b in range(buckets):
        start[b + 1] = start[b] + sizes[b]
    entry, at = [0] * len(found), start[:-1]
    for bucket, e in found:
        entry[at[bucket]] = e
        at[bucket] += 1
    columns = [[c for c in range(1 << h) if sizes[r | c << h]] for r in range(1 << h)]
    return Table(h, start, entry, max(sizes), columns)


class Middle(NamedTuple):
    """What the middle queens leave (join.c's struct middle)."""

    rows: int  # free rows: bits 0 .. h-1 the north quarter's, h .. 2h-1 the south's
    east: int  # free columns of each side, in the square's columns
    west: int
    diag: int  # the middle queens' diagonals, on the board
    anti: int
    flips: bool  # whether the flips of rows and columns keep them


def middle(n: int, x: int, y: int) -> Middle | None:
    """The middle queens on (n/2, x) and (y, n/2) of an odd n (x = y = n/2: one,
    in the centre; -1, -1 for an even n); None where there are no such."""
    h = c = n // 2
    every = (1 << h) - 1
    if n % 2 == 0:
        return Middle((1 << 2 * h) - 1, every, every, 0, 0, True) if x == y == -1 else None
    if not (0 <= x < n and 0 <= y < n) or (x == c) != (y == c):
        return None
    diag = 1 << (x - c + n - 1) | 1 << (c - y + n - 1)
    anti = 1 << (c + x) | 1 << (y + c)
    if x == c:
        return Middle((1 << 2 * h) - 1, every, every, diag, anti, True)
    if bin(diag).count("1") != 2 or bin(anti).count("1") != 2:
        return None  # the two attack each other
    west = every & ~(1 << x) if x < c else every
    east = every & ~(1 << (x - c - 1)) if x > c else every
    rows = ((1 << 2 * h) - 1) & ~(1 << (y if y < c else h + y - c - 1))
    return Middle(rows, east, west, diag, anti, False)


def _binomial(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


def row_sets(n: int, x: int, y: int) -> int:
    """How many row sets a count of these middle queens goes through (join_row_sets)."""
    m = middle(n, x, y) if 2 <= n else None
    return _binomial(bin(m.rows).count("1"), bin(m.east).count("1")) if m else 0


def _unrank(rank: int, n: int, k: int) -> int:
    """The combination of rank ``rank`` (colex) of k out of n, as bits."""
    c = 0
    for i in range(k, 0, -1):
        at = i - 1
        while at + 1 < n and _binomial(at + 1, i) <= rank:
            at += 1
        rank -= _binomial(at, i)
        c |= 1 << at
        n = at
    return c


def _next_combination(c: int, width: int) -> int:
    """Gosper's next combination with as many bits, or 0 beyond ``width`` bits."""
    low = c & -c
    up = c + low
    nxt = up | (((c ^ up) >> 2) // low)
    return 0 if nxt >> width else nxt


def _reversed(rows: int, width: int) -> int:
    return sum(1 << (width - 1 - i) for i in range(width) if rows >> i & 1)


def _filtered(t: Table, at: tuple[int, int], diag0: int, anti0: int) -> Table:
    """The placements of t that, moved onto the quarter ``at`` (its shifts of
    diagonals and anti-diagonals), take none of the middle queens' diagonals,
    in their order, as a table of their own (join.c's table_filtered)."""
    start, entry, largest = [0] * len(t.start), list[int](), 0
    for b in range(len(t.start) - 1):
        start[b] = len(entry)
        entry.extend(e for e in t.entry[t.start[b]:t.start[b + 1]]
                     if not (e & 0xFFFFFFFF) << at[0] & diag0 and not (e >> 32) << at[1] & anti0)
        largest = max(largest, len(entry) - start[b])
    start[-1] = len(entry)
    h = t.h
    columns = [[c for c in range(1 << h) if start[(r | c << h) + 1] > start[r | c << h]] for r in range(1 << h)]
    return Table(h, start, entry, largest, columns)


def _half(tn: Table, ts: Table, north: tuple[int, int], south: tuple[int, int], rows_n: int, rows_s: int,
          cols: int, low: int, span: int, room: int) -> Iterator[list[int]]:
    """A half's keys from its north quarter's table and its south's, ``room``
    at most a list, cut between north placements as join.c's half_next cuts
    them (room is at least the largest bucket)."""
    h, window = tn.h, (1 << span) - 1

    def key(d: int, a: int) -> int:
        return (d >> low & window) | (a >> low & window) << span

    out: list[int] = []
    for up in tn.columns[rows_n]:
        down = cols ^ up
        nb, sb = rows_n | up << h, rows_s | down << h
        if up & ~cols or ts.start[sb] == ts.start[sb + 1]:
            continue
        below = []
        for f in ts.entry[ts.start[sb]:ts.start[sb + 1]]:
            ds, as_ = (f & 0xFFFFFFFF) << south[0], (f >> 32) << south[1]
            below.append((ds, as_, key(ds, as_)))
        for e in tn.entry[tn.start[nb]:tn.start[nb + 1]]:
            if room - len(out) < len(below):
                yield out
                out = []
            dn, an = (e & 0xFFFFFFFF) << north[0], (e >> 32) << north[1]
            kn = key(dn, an)
            out.extend(kn | k for ds, as_, k in below if not dn & ds and not an & as_)
    if out:
        yield out


def _tested(p: list[int], q: list[int]) -> int:
    return sum(1 for x in q for y in p if not x & y)


def telling_bits(p: list[int], q: list[int], width: int, forced: list[int], k: int) -> list[int]:
    """After the forced bits, the k bits most pairs of p x q have in common, by
    a sample of each, from the most telling down."""
    in_p, in_q = [0] * 64, [0] * 64
    for keys, tally in ((p, in_p), (q, in_q)):
        for i in range(0, len(keys), 1 + len(keys) // 512):
            for b in range(64):
                tally[b] += keys[i] >> b & 1
    chosen = list(forced)
    for _ in range(k):
        best = -1
        for b in range(width):
            if b not in chosen and in_p[b] and in_q[b] and (best < 0 or in_p[b] * in_q[b] > in_p[best] * in_q[best]):
                best = b
        if best < 0:
            break
        chosen.append(best)
    return chosen


def _bucketed(keys: list[int], chosen: list[int]) -> tuple[list[int], list[int]]:
    """The keys by their id (the chosen bits, the first the id's lowest), a stable counting sort: (keys, start)."""
    def id_of(x: int) -> int:
        return sum((x >> b & 1) << at for at, b in enumerate(chosen))

    ids = [id_of(x) for x in keys]
    start = [0] * ((1 << len(chosen)) + 1)
    for v in ids:
        start[v + 1] += 1
    for v in range(1 << len(chosen)):
        start[v + 1] += start[v]
    out, at = [0] * len(keys), start[:-1]
    for v, x in zip(ids, keys):
        out[at[v]] = x
        at[v] += 1
    return out, start


def _join(p: tuple[list[int], list[int]], pa: int, q: tuple[list[int], list[int]], qa: int, level: int,
          small: int, tests: list[int]) -> int:
    """Pairs of p's buckets pa .. pa + 2^level - 1 x q's qa .. with no bit in
    common (dense.c's join_buckets): the three ways that do not both take the id's
    top bit, down to one bucket each, whose keys are tested."""
    size = 1 << level
    pk, ps = p
    qk, qs = q
    p0, p1, q0, q1 = ps[pa], ps[pa + size], qs[qa], qs[qa + size]
    if p0 == p1 or q0 == q1:
        return 0
    if not level or (p1 - p0) * (q1 - q0) <= small:
        tests[0] += (p1 - p0) * (q1 - q0)
        return _tested(pk[p0:p1], qk[q0:q1])
    half = size // 2
    return (_join(p, pa, q, qa, level - 1, small, tests) + _join(p, pa, q, qa + half, level - 1, small, tests)
            + _join(p, pa + half, q, qa, level - 1, small, tests))


def _grouped(keys: list[int], longest: int) -> tuple[int, int]:
    """The keys put in place with none of longest's two bits first, then one,
    then both, in their order within each (join.c's grouped): where the first
    two groups end."""
    keys[:] = sorted(keys, key=lambda x: bin(x & longest).count("1"))  # (a stable sort)
    return sum(1 for x in keys if not x & longest), sum(1 for x in keys if x & longest != longest)


def _joined(p: list[int], q: list[int], width: int, longest: int, direct: int, small: int, bucket: int,
            dense_list: int, tests: list[int]) -> int:
    """Pairs of east halves p x west halves q with no bit in common, or for an
    even N the sum join.c's 2b. says (join.c's joined): at once where they are
    few, else bucketed and joined bucket against bucket, an even N's long
    diagonals the id's top bits."""
    if not p or not q:
        return 0

    def tested(p: list[int], q: list[int]) -> int:
        tests[0] += len(p) * len(q)
        return _tested(p, q)

    if len(p) * len(q) <= direct:
        if not longest:
            return tested(p, q)
        p0, p1 = _grouped(p, longest)
        q0, q1 = _grouped(q, longest)
        return (tested(p[:p0], q[:q1]) + tested(p[p0:p1], q[:q0])
                + 2 * (tested(p[:p0], q[q1:]) + tested(p[p1:], q[:q0])))
    if len(p) > len(q):  # q the longer list, the one join.c keeps dense (the count is the same either way round)
        p, q = q, p
    diag = longest & -longest
    forced = [diag.bit_length() - 1, longest.bit_length() - 1] if longest else []
    told_bits = 0  # a long p: enough that q's buckets hold about `bucket` keys each (join.c keeps them dense)
    if len(p) >= dense_list:
        while len(q) >> (told_bits + len(forced)) > bucket and told_bits + len(forced) < MAX_ID_BITS:
            told_bits += 1
    else:  # the bits the join's splits take down to `small` pairs (each leaves about a quarter), one more
        pairs = len(p) * len(q)
        while pairs > small and told_bits < ID_BITS:
            pairs //= 4
            told_bits += 1
        told_bits = min(told_bits + 1, ID_BITS, MAX_ID_BITS - len(forced))
    told = telling_bits(p, q, width, forced, told_bits)[len(forced):]
    chosen = sorted(told) + forced  # the id: the telling bits in the key's order, the long diagonals on top
    bp, bq = _bucketed(p, chosen), _bucketed(q, chosen)
    k = len(chosen)
    if len(p) >= dense_list and small < len(p) * len(q):  # q's buckets dense: split on to single buckets
        small = 0
    if not longest:
        return _join(bp, 0, bq, 0, k, small, tests)
    level = k - 2  # the groups: ids with the anti-diagonal's bit (on top), the diagonal's (below it)
    one_diag, anti, both = 1 << level, 2 << level, 3 << level
    return (_join(bp, 0, bq, 0, level, small, tests) + _join(bp, 0, bq, anti, level, small, tests)
            + _join(bp, 0, bq, one_diag, level, small, tests) + _join(bp, anti, bq, 0, level, small, tests)
            + _join(bp, one_diag, bq, 0, level, small, tests)
            + 2 * (_join(bp, 0, bq, both, level, small, tests) + _join(bp, both, bq, 0, level, small, tests)))


def _east_rows(compact: int, positions: list[int]) -> int:
    """The east rows of a combination of the free rows (join.c's east_rows)."""
    return sum(bit for i, bit in enumerate(positions) if compact >> i & 1)


def _orbit_weight(m: Middle, h: int, east: int) -> int:
    """How many row sets these east rows stand for: their orbit's size under
    the flips where they are its least (and the flips keep the middle), 0
    where they are not (join.c's orbit_weight)."""
    if not m.flips:
        return 1
    west = m.rows ^ east
    v, hh, vh = _reversed(east, 2 * h), west, _reversed(west, 2 * h)
    return 0 if v < east or hh < east or vh < east else len({east, v, hh, vh})


class Geometry(NamedTuple):
    """Where a board of n puts its quarters (join.c's quarter_at and longest_of)."""

    low: int  # the window: diagonals low .. low + span - 1 of both kinds, a key's bits
    span: int
    nw: tuple[int, int]  # each quarter's shift of its placements' (diagonals, anti-diagonals) onto the board
    ne: tuple[int, int]
    sw: tuple[int, int]
    se: tuple[int, int]
    longest: int  # an even n's two longest diagonals as key bits (join.c's 2b.); 0 for an odd n


def geometry(n: int) -> Geometry:
    h = n // 2
    low, span = n - h, 2 * h - 1
    nw, ne, sw, se = ((col0 - row0 + n - h, row0 + col0) for row0, col0 in ((0, 0), (0, n - h), (n - h, 0),
                                                                           (n - h, n - h)))
    return Geometry(low, span, nw, ne, sw, se, 0 if n % 2 else 1 << (n - 1 - low) | 1 << (n - 1 - low + span))


def join_count(t: Table, n: int, x: int, y: int, first: int, last: int, cap: int, direct: int = DIRECT,
               small: int = SMALL, bucket: int = BUCKET, dense_list: int = DENSE_LIST) -> tuple[int, int, int, int]:
    """(boards, row sets, halves, pair tests) of the row sets of ranks first ..
    last-1 with these middle queens, each row set counted for its orbit
    under the flips where they keep the middle, and for an even N only the
    pairs of halves with a side on neither long diagonal joined (join_count)."""
    h = n // 2
    m = middle(n, x, y)
    if m is None or t.h != h:
        raise ValueError(f"no count by quarters of n={n} with middle queens ({x}, {y})")
    cap = max(cap, t.largest)
    free_rows, east_cols = bin(m.rows).count("1"), bin(m.east).count("1")
    last = min(last, _binomial(free_rows, east_cols))
    low, span, nw, ne, sw, se, longest = geometry(n)
    # each quarter's table: for an odd N, those of its placements clear of the middle queens (join.c's 2c.)
    tnw, tne, tsw, tse = (_filtered(t, at, m.diag, m.anti) for at in (nw, ne, sw, se)) if n % 2 else (t, t, t, t)
    positions = [1 << i for i in range(2 * h) if m.rows >> i & 1]
    north = (1 << h) - 1
    # for an even N the two longest diagonals (longest) are the id's top bits (join.c's 2b.: only pairs with no
    # queen east on them are joined)
    total = sets = halves = 0
    tests = [0]
    compact = _unrank(first, free_rows, east_cols) if first < last else 0
    for _ in range(first, last):
        east = _east_rows(compact, positions)
        compact = _next_combination(compact, free_rows)
        west = m.rows ^ east
        weight = _orbit_weight(m, h, east)  # the least of its orbit under the flips, counted for all of it
        if not weight:
            continue
        sets += 1
        found = 0
        for p in _half(tne, tse, ne, se, east & north, east >> h, m.east, low, span, cap):
            halves += len(p)
            for q in _half(tnw, tsw, nw, sw, west & north, west >> h, m.west, low, span, cap):
                halves += len(q)
                found += _joined(p, q, 2 * span, longest, direct, small, bucket, dense_list, tests)
        total += weight * found
    return total, sets, halves, tests[0]
