"""A check as a page a student can read: one self-contained HTML file, boards drawn as SVG.

No script, no style sheet or font from elsewhere, nothing fetched: the page
opens from a mail attachment or an LMS download as it opens here.  It
shows the verdict, every N's line, at an N that differs the smallest extra
board (the two queens that attack each other marked, and the line they
share drawn) and the smallest missing one with the reason the model
excludes it, the notes, and what the model printed.  Every text that came
from the model or its tool is escaped: a model's output is data, never
markup.  ``check --html``, ``grade --feedback`` and a notebook's display of
a :class:`~nqueens_cp.checking.records.CheckReport` write the same page.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .report import attack_squares

if TYPE_CHECKING:
    from .optimum import OptimumCheck
    from .records import CheckReport, NCheck

CELL = 28  # pixels a square
DRAW_MAX_N = 32  # wider boards are listed as columns, not drawn
DRAWN_ROWS = 3  # the N that differ drawn on a page (the first ones); the rest in a line

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.verdict { display: inline-block; padding: .2rem .6rem; border-radius: .3rem; font-weight: 600; }
.right { background: #d8f3dc; color: #1b4332; } .wrong, .error, .memory { background: #ffd6d6; color: #7a0000; }
.time-limit { background: #fff3bf; color: #6b4f00; }
table { border-collapse: collapse; margin: 1rem 0; } td, th { padding: .25rem .6rem; border-bottom: 1px solid #ddd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { display: inline-block; margin: .5rem 1.5rem .5rem 0; vertical-align: top; }
figcaption { max-width: 24rem; font-size: .9rem; }
pre { background: #f6f6f6; padding: .6rem; overflow-x: auto; font-size: .85rem; }
svg.board .light { fill: #f0d9b5; } svg.board .dark { fill: #b58863; }
svg.board .queen { fill: #222; stroke: #fff; stroke-width: 1.5; }
svg.board .attacker { fill: #d00000; } svg.board .missing { fill: #1b7f3b; }
svg.board .attack-line { stroke: #d00000; stroke-width: 3; stroke-dasharray: 6 4; }
"""


def escape(text: Any) -> str:
    return html.escape(str(text), quote=True)


def board_svg(squares: Iterable[tuple[int, int]], n: int, marked: Sequence[tuple[int, int]] = (),
              kind: str = "queen", label: str = "") -> str:
    """The n x n board with a piece on each square; ``marked``: two that attack each other, joined by a line."""
    queens, marks = list(squares), list(marked)[:2]
    size = n * CELL
    parts = [f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
             f'viewBox="0 0 {size} {size}" role="img" aria-label="{escape(label)}" data-n="{n}">']
    for r in range(n):
        for c in range(n):
            shade = "light" if (r + c) % 2 == 0 else "dark"
            parts.append(f'<rect class="{shade}" x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}"/>')
    for r, c in queens:
        if 0 <= r < n and 0 <= c < n:
            role = "attacker" if (r, c) in marks else kind
            parts.append(f'<circle class="queen {role}" data-square="{r}:{c}" cx="{c * CELL + CELL / 2}" '
                         f'cy="{r * CELL + CELL / 2}" r="{CELL * 0.36:.1f}"/>')
    if len(marks) == 2:
        (r1, c1), (r2, c2) = marks
        parts.append(f'<line class="attack-line" x1="{c1 * CELL + CELL / 2}" y1="{r1 * CELL + CELL / 2}" '
                     f'x2="{c2 * CELL + CELL / 2}" y2="{r2 * CELL + CELL / 2}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _figure(squares: Iterable[tuple[int, int]], n: int, caption: str, marked: Sequence[tuple[int, int]] = (),
            kind: str = "queen") -> str:
    squares = list(squares)
    listed = " ".join(str(c) for _, c in sorted(squares))
    if n > DRAW_MAX_N:
        return f"<figure><pre>{escape(listed)}</pre><figcaption>{caption}</figcaption></figure>"
    return (f"<figure>{board_svg(squares, n, marked, kind, listed)}<figcaption>{caption}</figcaption>"
            "</figure>")


def _why(reason: Any) -> str:
    """A reason as a caption's last sentence and a list of its parts ('' for none)."""
    if reason is None:
        return ""
    parts = "".join(f"<li><code>{escape(part)}</code></li>" for part in reason.parts)
    return f" Why: {escape(reason.text)}." + (f"<ul>{parts}</ul>" if parts else "")


def _table_row(row: NCheck | OptimumCheck, cells: str) -> str:
    """One N's row of the table: N and the verdict, then ``cells``, then the model's seconds."""
    verdict = "agrees" if row.agrees else "DIFFERS"
    return (f'<tr class="{"right" if row.agrees else "wrong"}"><td class="num">{row.n}</td><td>{verdict}</td>'
            f'{cells}<td class="num">{row.seconds:.3f}</td></tr>')


def _row_line(row: NCheck) -> str:
    return _table_row(row, f'<td class="num">{row.boards}</td><td class="num">{row.reference}</td>'
                           f'<td class="num">{row.missing_count}</td><td class="num">{row.extra_count}</td>'
                           f'<td class="num">{row.not_boards_count}</td>')


def _differs(row: NCheck) -> str:
    n = row.n
    out = [f"<h2>N = {n}: the model differs</h2>"]
    if row.extra:
        board = row.extra[0]
        out.append(_figure(enumerate(board), n, f"The smallest <b>extra</b> board, <code>{escape(list(board))}</code>: the "
                           f"model accepts it and the question forbids it: {escape(row.attack)}.", attack_squares(row.attack)))
    elif row.not_boards:
        out.append(_figure(row.not_boards[0], n, f"The smallest solution that is <b>no board</b>: {escape(row.attack)}."))
    if row.missing:
        board = row.missing[0]
        why = _why(row.why)
        out.append(_figure(enumerate(board), n, f"The smallest <b>missing</b> board, <code>{escape(list(board))}</code>: the "
                           f"question accepts it and the model excludes it.{why}", kind="missing"))
    if row.duplicates:
        out.append(f"<p>{row.duplicates} of the model's {row.solutions} solutions repeat a board.</p>")
    return "\n".join(out)


def page(title: str, verdict: str, verdict_class: str, body: str) -> str:
    """A whole page: the title, the verdict, the body; ASCII, every other character as a reference."""
    text = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n<h1>{escape(title)}</h1>\n"
            f'<p><span class="verdict {verdict_class}">{escape(verdict)}</span></p>\n{body}\n</body></html>\n')
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _optimum_line(row: OptimumCheck) -> str:
    return _table_row(row, f'<td class="num">{"" if row.optimum is None else row.optimum}</td>'
                           f'<td class="num">{row.reference}</td><td>{"yes" if row.proved else "no"}</td>'
                           f'<td>{"yes" if row.valid else "no"}</td>')


def _optimum_differs(row: OptimumCheck) -> str:
    n = row.n
    out = [f"<h2>N = {n}: the model differs</h2>"]
    if row.optimum is not None and not row.valid:
        out.append(_figure(row.witness, n, f"The model's best board, <b>{row.optimum} queens</b>, is no answer: "
                           f"{escape(row.attack)}.", attack_squares(row.attack)))
    if row.excluded:
        why = _why(row.why)
        out.append(_figure(row.excluded, n, f"The model's best has {row.optimum} queens; this board of "
                           f"<b>{row.reference}</b> answers the question and the model excludes it.{why}",
                           kind="missing"))
    return "\n".join(out)


def report_body(report: CheckReport) -> str:
    """The rows, the counterexamples, the notes and the output of a check."""
    from .optimum import OptimumCheck

    if report.rows and isinstance(report.rows[0], OptimumCheck):
        return _optimum_body(report)
    rows = "".join(_row_line(row) for row in report.rows)  # type: ignore[arg-type]
    out = [f"<p>{escape(report.model)}, read by {escape(report.tool)}, against the reference for "
           f"<b>{escape(report.variant)}</b>; each board goes through the question's own validator.</p>"]
    if report.rows:
        out.append("<table><thead><tr><th>N</th><th>verdict</th><th>boards</th><th>reference</th><th>missing</th>"
                   f"<th>extra</th><th>not boards</th><th>seconds</th></tr></thead><tbody>{rows}</tbody></table>")
    differing: list[Any] = [row for row in report.rows if not row.agrees]
    out.extend(_differs(row) for row in differing[:DRAWN_ROWS])
    if len(differing) > DRAWN_ROWS:
        rest = ", ".join(f"N = {row.n} ({row.missing_count} missing, {row.extra_count} extra)"
                         for row in differing[DRAWN_ROWS:])
        out.append(f"<p>It differs at {rest} too: the first are drawn above.</p>")
    if report.notes:
        out.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(note)}</li>" for note in report.notes) + "</ul>")
    out.append(output_section(report.output))
    return "\n".join(out)


def _optimum_body(report: CheckReport) -> str:
    rows: list[Any] = list(report.rows)
    out = [f"<p>{escape(report.model)}, read by {escape(report.tool)}: its best board at each N against the proved "
           f"optimum of <b>{escape(report.variant)}</b>; each board goes through the question's own validator.</p>",
           "<table><thead><tr><th>N</th><th>verdict</th><th>its best</th><th>optimum</th><th>proved by it</th>"
           "<th>an answer</th><th>seconds</th></tr></thead><tbody>" + "".join(_optimum_line(row) for row in rows)
           + "</tbody></table>"]
    out.extend(_optimum_differs(row) for row in [row for row in rows if not row.agrees][:DRAWN_ROWS])
    if report.notes:
        out.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(note)}</li>" for note in report.notes) + "</ul>")
    out.append(output_section(report.output))
    return "\n".join(out)


def output_section(output: str) -> str:
    if not output:
        return ""
    return f"<h2>What the model printed</h2><pre class=\"output\">{escape(output)}</pre>"


def check_page(report: CheckReport) -> str:
    """The page of one check."""
    differs = [row.n for row in report.rows if not row.agrees]
    verdict = ("agrees at every N checked" if not differs else f"differs at N = {', '.join(map(str, differs))}")
    return page(f"check: {report.model}", verdict, "right" if not differs else "wrong", report_body(report))
