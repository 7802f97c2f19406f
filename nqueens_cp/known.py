"""Published N-queens totals, copied here so that code and tests need nothing else.

Every published number the package keeps is here or in a member's data
(:data:`nqueens_cp.model.variants.VARIANTS`); :func:`published` lists them all,
and ``tests/test_published.py`` checks each against a copy of its source.

TOTAL is OEIS A000170 (all solutions), FUNDAMENTAL is OEIS A002562 (one per
class under the 8 symmetries of the square), both for n = 1..27.  n = 27 was
computed in 2016 by the Q27 project (TU Dresden); CSPLib prob054 misprints
n = 26, the value below is the correct one.
"""

from __future__ import annotations

from collections.abc import Iterator

TOTAL: dict[int, int] = {
    1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724,
    11: 2680, 12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512,
    17: 95815104, 18: 666090624, 19: 4968057848, 20: 39029188884,
    21: 314666222712, 22: 2691008701644, 23: 24233937684440,
    24: 227514171973736, 25: 2207893435808352, 26: 22317699616364044,
    27: 234907967154122528,
}

FUNDAMENTAL: dict[int, int] = {
    1: 1, 2: 0, 3: 0, 4: 1, 5: 2, 6: 1, 7: 6, 8: 12, 9: 46, 10: 92,
    11: 341, 12: 1787, 13: 9233, 14: 45752, 15: 285053, 16: 1846955,
    17: 11977939, 18: 83263591, 19: 621012754, 20: 4878666808,
    21: 39333324973, 22: 336376244042, 23: 3029242658210,
    24: 28439272956934, 25: 275986683743434, 26: 2789712466510289,
    27: 29363495934315694,
}


def published() -> Iterator[tuple[str, str, int, int]]:
    """Every published value the package keeps, as ``(where, OEIS id, N, value)``:
    the totals and classes above, and each member's counts or optima and classes.
    A test reads them from here, so a number kept anywhere else is not checked."""
    from .model.variants import VARIANTS  # (the members import nothing of this module)

    yield from (("known.TOTAL", "A000170", n, value) for n, value in TOTAL.items())
    yield from (("known.FUNDAMENTAL", "A002562", n, value) for n, value in FUNDAMENTAL.items())
    for variant in VARIANTS.values():
        where = f"VARIANTS[{str(variant)!r}]"
        yield from ((f"{where}.known", variant.oeis, n, value) for n, value in variant.known.items())
        yield from ((f"{where}.classes", variant.classes_oeis, n, value) for n, value in variant.classes.items())
