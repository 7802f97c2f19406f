"""The bitmask counting loop, compiled by numba when it is installed.

The same function runs as plain Python when numba is missing (slower, same
answer).  numba compiles it once and caches the machine code next to this
file (``cache=True``), so later processes load it instead of recompiling.
"""

from __future__ import annotations

import os


def count_masks(n, allowed, cols, left, right, todo):  # -> (solutions, nodes)
    """Count placements of n queens, row r restricted to the columns in allowed[r].

    cols, left, right and todo are scratch space of n + 1 entries each (lists
    in Python, int64 arrays when compiled: numba is slow with Python lists).
    """
    full = (1 << n) - 1
    todo[0] = allowed[0]
    total = 0
    nodes = 0
    row = 0
    while row >= 0:
        free = todo[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        todo[row] = free ^ bit
        nodes += 1
        if row == n - 1:
            total += 1
            continue
        c = cols[row] | bit
        ld = ((left[row] | bit) << 1) & full
        rd = (right[row] | bit) >> 1
        row += 1
        cols[row] = c
        left[row] = ld
        right[row] = rd
        todo[row] = ~(c | ld | rd) & allowed[row] & full
    return total, nodes


compiled = None
if os.environ.get("NQUEENS_CP_NO_NUMBA") != "1":
    try:
        import numba
        import numpy as np
    except ImportError:
        pass
    else:
        _jit = numba.njit(cache=True, nogil=True)(count_masks)

        def compiled(n, allowed):  # noqa: F811
            scratch = [np.zeros(n + 1, np.int64) for _ in range(4)]
            total, nodes = _jit(n, np.asarray(allowed, dtype=np.int64), *scratch)
            return int(total), int(nodes)
