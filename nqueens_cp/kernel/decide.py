"""The face of the decision search (``decide.c``, its twin :mod:`.twin_decide`):
one board of N queens with placements kept, or none proved."""

from __future__ import annotations

from collections.abc import Sequence

from . import loader, twin_decide

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
            loader.check(n, allowed)
        elif n < 1:
            raise ValueError(f"a search takes n >= 1, got n={n}")
        self.n = n
        flags = (twin_decide.ORDER * order) | (twin_decide.VALUES * values) | (twin_decide.RESTARTS * restarts)
        self._search = loader.module() if compiled else None
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
