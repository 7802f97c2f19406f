"""A check as text for people: a line per N, and at an N that differs the smallest boards drawn, with the reason."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..model.variants import Square
from .optimum import OptimumCheck

if TYPE_CHECKING:
    from .records import CheckReport, NCheck

QUEEN, MARKED, EMPTY = "Q", "X", "."
DRAW_MAX_N = 32  # wider boards are listed as columns, not drawn


def draw(squares: Iterable[Square], n: int, marked: Iterable[Square] = (), indent: str = "    ") -> str:
    """The queens on the n x n board, the ``marked`` ones as X (two that attack each other)."""
    queens, marks = set(squares), set(marked)
    lines = []
    for r in range(n):
        lines.append(indent + " ".join(MARKED if (r, c) in marks else QUEEN if (r, c) in queens else EMPTY
                                       for c in range(n)))
    return "\n".join(lines)


def attack_squares(attack: str | None) -> list[Square]:
    """The two squares an attack sentence names ('the queens at 0:1 and 2:3 ...')."""
    import re

    return [(int(r), int(c)) for r, c in re.findall(r"(\d+):(\d+)", attack or "")][:2]


def _boards(count: int) -> str:
    return f"{count} board" + ("" if count == 1 else "s")


def row_text(row: NCheck | OptimumCheck) -> str:
    """One N in a few lines: the verdict, the counts, the times, the notes."""
    if isinstance(row, OptimumCheck):
        return optimum_line(row)
    times = f"model {row.seconds:.3f} s, reference {row.reference_seconds:.3f} s"
    if row.agrees:
        head = f"N={row.n:<3} agrees   {_boards(row.boards)}, as the reference ({times})"
    else:
        parts = [f"{row.missing_count} missing", f"{row.extra_count}{'' if row.held_all else '+'} extra"]
        if row.not_boards_count:
            parts.append(f"{row.not_boards_count} not boards")
        head = (f"N={row.n:<3} DIFFERS  the model has {_boards(row.boards)}, the reference {row.reference}: "
                f"{', '.join(parts)} ({times})")
    lines = [head]
    if row.duplicates:
        each = f" ({row.solutions // row.boards} a board)" if row.boards and row.solutions % row.boards == 0 else ""
        lines.append(f"       {_boards(row.boards)} from {row.solutions} solutions{each}: the model's other "
                     "variables float, so its solver lists a board once for each of their values")
    if row.determined is False:
        lines.append(f"       the board does not determine the model's other variables ({row.undetermined}): a "
                     "solution counter would overcount")
    return "\n".join(lines)


def detail_text(row: NCheck | OptimumCheck) -> str:
    """The smallest counterexamples of an N that differs, drawn, with their reasons."""
    if isinstance(row, OptimumCheck):
        return optimum_detail(row)
    n, out = row.n, []
    if row.extra:
        out.append(f"  the smallest extra board (the model accepts it, the question forbids it): {list(row.extra[0])}")
        if n <= DRAW_MAX_N:
            out.append(draw(enumerate(row.extra[0]), n, attack_squares(row.attack)))
        out.append(f"    {row.attack}")
    elif row.not_boards:
        out.append(f"  the smallest solution that is no board: queens at "
                   f"{', '.join(f'{r}:{c}' for r, c in row.not_boards[0])}")
        if n <= DRAW_MAX_N:
            out.append(draw(row.not_boards[0], n))
        out.append(f"    {row.attack}")
    if row.missing:
        out.append(f"  the smallest missing board (the question accepts it, the model excludes it): {list(row.missing[0])}")
        if n <= DRAW_MAX_N:
            out.append(draw(enumerate(row.missing[0]), n))
        if row.why is not None:
            out.append(f"    why: {row.why.text}")
            out.extend(f"      {part}" for part in row.why.parts)
    for label, boards in (("extra", row.extra[1:]), ("missing", row.missing[1:])):
        if boards:
            out.append(f"  more {label}: " + "; ".join(" ".join(map(str, b)) for b in boards))
    return "\n".join(out)


def summary_text(report: CheckReport) -> str:
    checked = ", ".join(str(row.n) for row in report.rows)
    differs = [row.n for row in report.rows if not row.agrees]
    if not differs:
        return f"{report.model} agrees with the reference at every N checked ({checked})"
    if len(differs) == 1:
        return f"{report.model} first differs from the reference at N={differs[0]}"
    return f"{report.model} differs from the reference at N={', '.join(map(str, differs))}"


def _queens(count: int | None) -> str:
    return f"{count} queen" + ("" if count == 1 else "s")


def optimum_line(row: OptimumCheck) -> str:
    """One N of an optimisation check in a line or two."""
    times = f"model {row.seconds:.3f} s, reference {row.reference_seconds:.3f} s"
    proved = "proved optimal by its solver" if row.proved else "not proved optimal by its solver"
    if row.optimum is None:
        return f"N={row.n:<3} DIFFERS  the model has no board; the optimum is {row.reference} ({times})"
    if row.agrees:
        return f"N={row.n:<3} agrees   {_queens(row.optimum)}, {proved}, the optimum ({times})"
    if not row.valid:
        return (f"N={row.n:<3} DIFFERS  the model's best, {_queens(row.optimum)} ({proved}), is no answer: {row.attack}; "
                f"the optimum is {row.reference} ({times})")
    return (f"N={row.n:<3} DIFFERS  the model's best is {_queens(row.optimum)} ({proved}); the optimum is "
            f"{row.reference} ({times})")


def optimum_detail(row: OptimumCheck) -> str:
    """The boards of an N that differs: the model's, or the reference's that the model excludes, with why."""
    out = []
    if row.optimum is not None and not row.valid:
        marked = [(int(r), int(c)) for r, c in _squares_named(row.attack)]
        out.append(f"  the model's best board ({_queens(row.optimum)}): X marks {'the pair' if len(marked) == 2 else 'the square'}")
        out.append(draw(row.witness, row.n, marked))
    if row.excluded:
        out.append(f"  a board of {_queens(row.reference)} the question accepts and the model excludes:")
        out.append(draw(row.excluded, row.n))
        if row.why is not None:
            out.append(f"    why: {row.why.text}")
            out.extend(f"      {part}" for part in row.why.parts)
    return "\n".join(out)


def _squares_named(text: str | None) -> list[tuple[str, str]]:
    import re

    return re.findall(r"(\d+):(\d+)", text or "")[:2]
