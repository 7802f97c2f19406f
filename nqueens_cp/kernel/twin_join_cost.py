"""join.c's join_cost in plain Python, its twin: what a part of the count
by joining quarters costs, about, to order a count's parts longest first
(kernel.join_costs; tests/test_join.py holds the C code to it).  It walks
the same row sets as the count's twin (:mod:`.twin_join`) and bounds each
side's halves from the table's bucket sizes alone."""

from __future__ import annotations

from .twin_join import Table, _binomial, _east_rows, _orbit_weight, _unrank, middle


def _halves_bound(t: Table, rows_n: int, rows_s: int, cols: int) -> float:
    """A side's halves, at most: its north's placements times its south's,
    summed over the north's column sets (join.c's halves_bound)."""
    h, found = t.h, 0.0
    for up in t.columns[rows_n]:
        nb, sb = rows_n | up << h, rows_s | (cols ^ up) << h
        if not up & ~cols:
            found += float(t.start[nb + 1] - t.start[nb]) * float(t.start[sb + 1] - t.start[sb])
    return found


def cost(t: Table, n: int, x: int, y: int, first: int, last: int, samples: int, a_half: float) -> float:
    """What join_count of these arguments costs, about (join.c's join_cost):
    over about ``samples`` of its row sets, evenly apart, each canonical one's
    halves bounded on both sides, their product plus ``a_half`` a half,
    scaled to the whole range."""
    h = n // 2
    m = middle(n, x, y)
    if m is None or t.h != h:
        raise ValueError(f"no count by quarters of n={n} with middle queens ({x}, {y})")
    free_rows, east_cols = bin(m.rows).count("1"), bin(m.east).count("1")
    last = min(last, _binomial(free_rows, east_cols))
    if first >= last:
        return 0.0
    step = (last - first) // samples if samples and (last - first) // samples > 1 else 1
    positions = [1 << i for i in range(2 * h) if m.rows >> i & 1]
    north, found, taken = (1 << h) - 1, 0.0, 0
    for rank in range(first, last, step):
        taken += 1
        east = _east_rows(_unrank(rank, free_rows, east_cols), positions)
        west = m.rows ^ east
        if not _orbit_weight(m, h, east):  # (only the least of each orbit is joined)
            continue
        e = _halves_bound(t, east & north, east >> h, m.east)
        w = _halves_bound(t, west & north, west >> h, m.west)
        found += e * w + a_half * (e + w)
    return found * float(last - first) / float(taken)
