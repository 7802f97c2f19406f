"""The face of the search for dominating sets (``dominate.c``): the fewest
queens that attack or occupy every square."""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable

from . import loader

DOMINATE_MAX_N = 32  # dominate.c's DOMINATE_MAX_N (a test checks the compiled module's)


def dominate(n: int, independent: bool, k: int, deadline: float | None = None,
             tick: Callable[[int], None] | None = None) -> tuple[int, list[tuple[int, int]], int]:
    """Whether k queens dominate the n x n board (dominate.c), in a thread
    that the deadline (time.monotonic()) or Ctrl-C stops: (1 found, their
    squares; 0 proved impossible; -1 stopped first), and the nodes.
    ``tick(nodes so far)`` is called about every half second meanwhile."""
    import threading

    module = loader.module()
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
