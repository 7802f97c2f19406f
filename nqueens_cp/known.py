"""Published N-queens totals, copied here so that code and tests need nothing else.

TOTAL is OEIS A000170 (all solutions), FUNDAMENTAL is OEIS A002562 (one per
class under the 8 symmetries of the square), both for n = 1..27.  n = 27 was
computed in 2016 by the Q27 project (TU Dresden); CSPLib prob054 misprints
n = 26, the value below is the correct one.
"""

from __future__ import annotations

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
