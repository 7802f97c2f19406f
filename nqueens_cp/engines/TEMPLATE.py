"""A new engine in one module: copy this file, and it runs.

This is a working engine (a plain backtracking search over sets, the
smallest honest one), and ``tests/test_template.py`` registers it and runs
the shared checks over it, so the template cannot drift from the interface.

To add an engine (three files, ``engines/cpmpy.py`` was made this way):

1. Copy this file to ``engines/<name>.py``; name the class, and say what it
   is and can do in the class attributes below (``engines/capabilities.py``
   lists every one with its default).  Import the solver's package inside
   the methods, never at the top: listing engines and ``--help`` must not
   pay for it.
2. Add one line to ``_REGISTRY`` in ``engines/registry.py``.
3. If it needs a package, add an extra in ``pyproject.toml`` (and to the
   ``test`` extra, so that CI runs it), and name it in ``requires``.

Everything else comes from the data: the command line's ``--engine``
choices and option flags, ``engines``, the presets, and every shared test
(counts against the published totals, exact sets, the validator, limits,
time limits, signals, refusals of the questions it cannot state).  A solver
in C or C++ runs through :func:`nqueens_cp.engines.native.stream`, which
gives Ctrl-C, the time limit and an early stop for free (``cpmpy.py``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..errors import TimeLimitReached
from ..model.board import Solution
from ..model.position import Position
from .base import Engine


class TemplateEngine(Engine):
    name = "template"
    summary = "the engine template: backtracking over sets of columns and diagonals"
    paradigm = "backtracking"
    group = "field"  # core: cross-checked and compared by default; classic: the tutorials; field: by name
    statistics = ("nodes",)  # what its stats report ...
    additive = frozenset({"nodes"})  # ... which of them add up across the parts of a split search
    effort = "nodes"  # its measure of work
    enumeration_rate = count_rate = 2e4  # solutions a second here: the warnings before hopeless runs
    # It states plain N-queens only: ``expresses`` names the parts of other questions it can state
    # (see model/variants.py's PARTS), and every other question is refused in one line.

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        """Yield every board that keeps ``fixed`` (row -> column) and avoids
        ``fixed.blocked``; stop past ``deadline`` (``time.monotonic()``).
        ``limit`` may be ignored: the caller stops reading."""
        stats["nodes"] = 0
        columns: list[int] = []
        used, down, up = set(), set(), set()

        def place(row: int) -> Iterator[Solution]:
            if row == n:
                yield tuple(columns)
                return
            stats["nodes"] += 1
            if deadline is not None and stats["nodes"] % 1024 == 0 and time.monotonic() > deadline:
                raise TimeLimitReached
            for col in [fixed[row]] if row in fixed else range(n):
                if col in used or row - col in down or row + col in up or (row, col) in fixed.blocked:
                    continue
                columns.append(col)
                used.add(col)
                down.add(row - col)
                up.add(row + col)
                yield from place(row + 1)
                used.remove(col)
                down.remove(row - col)
                up.remove(row + col)
                columns.pop()

        yield from place(0)
