"""The search told step by step, as the tutorials tell the 4-queens search,
and drawn as the tree of placements.

The search is the textbook one (the ``scan`` engine's): rows in order,
columns left to right, each column checked against the queens above, the
first attacker named.  Its events::

    place      row r at column c
    attacked   column c of row r is attacked by the queen in row i (column,
               diagonal or anti-diagonal)
    back       row r has no (more) free column: back to row r-1
    solution   solution k

The "place" events are the search tree's nodes: a full trace has exactly as
many as the engines' ``nodes`` statistic.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model.board import Solution
from ..model.position import check_placements
from ..errors import InvalidInputError

PLOT_MAX_N = 8  # beyond this the tree has thousands of nodes: no longer a picture anyone reads


@dataclass
class Event:
    step: int
    kind: str  # place, attacked, back, solution
    row: int
    col: int | None = None
    by: int | None = None  # attacked: the row of the attacking queen
    line: str | None = None  # attacked: column, diagonal or anti-diagonal
    dead_end: bool = False  # back: no column of the row was free at all
    solution: Solution | None = None
    index: int | None = None  # solution: k

    def to_dict(self) -> dict[str, Any]:
        data = {"step": self.step, "event": self.kind, "row": self.row}
        for key in ("col", "by", "line", "index"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.kind == "back":
            data["dead_end"] = self.dead_end
        if self.solution is not None:
            data["solution"] = list(self.solution)
        return data

    def text(self) -> str:
        if self.kind == "place":
            return f"{self.step}: place row {self.row} at column {self.col}"
        if self.kind == "attacked":
            return (f"{self.step}: column {self.col} of row {self.row} is attacked by the queen in row "
                    f"{self.by} ({self.line})")
        if self.kind == "back":
            what = "no free column" if self.dead_end else "no more free columns"
            where = f"back to row {self.row - 1}" if self.row > 0 else "the search is over"
            return f"{self.step}: row {self.row} has {what}, {where}"
        return f"{self.step}: solution {self.index}: {' '.join(map(str, self.solution or ()))}"


def trace(n: int, fixed: Mapping[int, int] | None = None, limit: int | None = None) -> Iterator[Event]:
    """The events of the textbook search of n-queens, at most ``limit`` of them."""
    placed = check_placements(n, fixed)
    if placed.blocked:
        raise InvalidInputError("trace follows the textbook search, which has no blocked squares: "
                                "use enumerate or solve for those")
    if limit is not None and (type(limit) is not int or limit < 1):
        raise InvalidInputError(f"limit must be a positive number of steps, got {limit!r}")
    q = [0] * n
    step = 0
    found = 0

    def attacker(k: int, j: int) -> tuple[int, str] | None:
        for i in range(k):
            if q[i] == j:
                return i, "column"
            if k - i == j - q[i]:
                return i, "diagonal"
            if k - i == q[i] - j:
                return i, "anti-diagonal"
        return None

    def search(k: int) -> Iterator[Event]:
        nonlocal step, found
        if k == n:
            found += 1
            step += 1
            yield Event(step, "solution", k - 1, solution=tuple(q), index=found)
            return
        any_free = False
        for j in ([placed[k]] if k in placed else range(n)):
            hit = attacker(k, j)
            step += 1
            if hit is not None:
                yield Event(step, "attacked", k, j, by=hit[0], line=hit[1])
                continue
            any_free = True
            q[k] = j
            yield Event(step, "place", k, j)
            yield from search(k + 1)
        step += 1
        yield Event(step, "back", k, dead_end=not any_free)

    for count, event in enumerate(search(0), 1):
        yield event
        if limit is not None and count >= limit:
            return


@dataclass
class Node:
    row: int
    col: int
    children: list[Node] = field(default_factory=list)
    solution: bool = False

    @property
    def dead_end(self) -> bool:
        return not self.children and not self.solution


def tree(n: int, fixed: Mapping[int, int] | None = None) -> Node:
    """The search tree of placements (the root stands for the empty board)."""
    if n > PLOT_MAX_N:
        raise InvalidInputError(f"the search tree of N={n} has thousands of placements: draw N <= {PLOT_MAX_N}")
    root = Node(-1, -1)
    path = [root]
    for event in trace(n, fixed):
        if event.kind == "place":
            del path[event.row + 1:]
            node = Node(event.row, event.col or 0)
            path[-1].children.append(node)
            path.append(node)
        elif event.kind == "solution":
            path[-1].solution = True
    return root


def tree_svg(root: Node, n: int) -> str:
    """The tree as SVG: one column label per placement, solutions green, dead ends red."""
    dx, dy, radius = 18, 46, 7
    leaves: list[Node] = []
    xs: dict[int, float] = {}

    def place_x(node: Node) -> float:
        if not node.children:
            leaves.append(node)
            xs[id(node)] = len(leaves) * dx
        else:
            xs[id(node)] = sum(place_x(child) for child in node.children) / len(node.children)
        return xs[id(node)]

    place_x(root)
    width, height = max((len(leaves) + 1) * dx, 520), (n + 1) * dy + 40
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="9">',
             f'<text x="4" y="14" font-size="12">N={n}: the search tree, one level per row '
             '(green: solution, red: dead end; labels are columns)</text>']

    def y(node: Node) -> float:
        return 36 + (node.row + 1) * dy

    def draw(node: Node) -> None:
        for child in node.children:
            parts.append(f'<line x1="{xs[id(node)]:.1f}" y1="{y(node):.1f}" x2="{xs[id(child)]:.1f}" '
                         f'y2="{y(child):.1f}" stroke="#999" stroke-width="1"/>')
            draw(child)
        kind = "root" if node.row < 0 else "solution" if node.solution else "dead-end" if node.dead_end else "node"
        colour = {"root": "#333", "solution": "#2a9d3a", "dead-end": "#d33", "node": "#fff"}[kind]
        parts.append(f'<circle class="{kind}" cx="{xs[id(node)]:.1f}" cy="{y(node):.1f}" r="{radius}" '
                     f'fill="{colour}" stroke="#333" stroke-width="1"/>')
        if node.row >= 0:
            fg = "#000" if kind == "node" else "#fff"
            parts.append(f'<text x="{xs[id(node)]:.1f}" y="{y(node) + 3:.1f}" text-anchor="middle" '
                         f'fill="{fg}">{node.col}</text>')

    draw(root)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
