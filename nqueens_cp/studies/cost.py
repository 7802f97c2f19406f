"""What changing the question costs each paradigm, in lines of code: read
from the source itself, never typed in.

Every model and search marks the code a question of the family needs beyond
plain N-queens between two marker comments, "cost", the question and the
paradigm in brackets, and "end cost" in brackets (MARK below); :func:`lines_of_code` counts the code lines
between each pair, blank lines and comments left out.  A member that places
pieces is data only (its entry in ``VARIANTS``, the paradigm "data"); the
"family" rows are the code each paradigm has, once, to read any member's
data.  ``benchmarks/variants.py --tables lines`` prints the table in
docs/variants.md; docs/tour.ipynb draws it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..model.variants import OPTIMUM, PLACE, PLAIN

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r"\[cost (\w+) (\w+)\]")
COMMENT = ("#", "//", "/*", "*", "%", ";")
# The rows: every member but plain queens (which costs nothing), as the family lists them, and "family":
# what any member a user declares costs (the data's walk, the models' general terms).
QUESTIONS = (*(name for name in PLACE if name != PLAIN.name), "family", *OPTIMUM)


def lines_of_code(root: Path = ROOT) -> dict[tuple[str, str], int]:
    """(question, paradigm) -> code lines between its markers, over every source file."""
    found: dict[tuple[str, str], int] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".c", ".h", ".cu") or path == Path(__file__).resolve():
            continue  # (this module names the markers: it is no model)
        regions: list[tuple[str, str]] = []  # nested: a line counts for the innermost
        for line in path.read_text(encoding="utf-8").splitlines():
            if match := MARK.search(line):
                regions.append((match.group(1), match.group(2)))
                found.setdefault(regions[-1], 0)
            elif "[end cost]" in line:
                regions.pop()
            elif regions and line.strip() and not line.strip().startswith(COMMENT):
                found[regions[-1]] += 1
    return found


def cost_rows(found: dict[tuple[str, str], int] | None = None) -> list[dict[str, Any]]:
    """One row per question: its lines in each paradigm (None: none needed)."""
    found = lines_of_code() if found is None else found
    paradigms = sorted({paradigm for _, paradigm in found})
    return [{"question": question, **{p: found.get((question, p)) for p in paradigms}} for question in QUESTIONS]


def cost_markdown(rows: list[dict[str, Any]]) -> str:
    """The rows as the Markdown table of docs/variants.md ("–": none needed)."""
    paradigms = [key for key in rows[0] if key != "question"]
    lines = ["| variant | " + " | ".join(paradigms) + " |", "|---|" + "---|" * len(paradigms)]
    lines += ["| " + " | ".join([row["question"], *(str(row[p]) if row[p] else "–" for p in paradigms)]) + " |"
              for row in rows]
    return "\n".join(lines)


def cost_plot(rows: list[dict[str, Any]], path: str) -> None:
    """The rows as grouped bars: lines of code per paradigm, one group per question."""
    from .figures import figure_to

    paradigms = [key for key in rows[0] if key != "question"]
    with figure_to(path, (10, 4.5)) as axes:
        width = 0.8 / len(paradigms)
        hatches = ("", "//", "..", "xx", "\\\\", "++", "oo", "--", "**", "||")
        for k, paradigm in enumerate(paradigms):
            xs = [i + k * width for i in range(len(rows))]
            bars = axes.bar(xs, [row[paradigm] or 0 for row in rows], width, label=paradigm,
                            hatch=hatches[k % len(hatches)], edgecolor="black", linewidth=0.4)
            axes.bar_label(bars, [str(row[paradigm]) if row[paradigm] else "" for row in rows], fontsize=6)
        axes.set_xticks([i + 0.4 - width / 2 for i in range(len(rows))], [row["question"] for row in rows])
        axes.set_ylabel("lines of code beyond plain N-queens")
        axes.set_title("What changing the question costs each paradigm (lines between its [cost] markers)")
        axes.legend(title="paradigm", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        axes.grid(True, axis="y", alpha=0.3)
