"""Rendering results: aligned tables, CSV, JSON and statistics lines (the figures: :mod:`.figures`).

Everything here takes rows (dicts) or result objects and turns them into
text or files; nothing decides or measures.  Files are written atomically.
Output paths are checked before any long work starts (:func:`check_outputs`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError
from ..files import check_writable
from .figures import PLOT_DPI, PLOT_SIZE, check_look, plot_format, require_matplotlib


def aligned(header: list[str], body: list[list[str]], left: list[bool]) -> str:
    """A plain-text table: columns padded to their widest cell, text left, numbers right."""
    table = [header, *body]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    return "\n".join(
        "  ".join(text.ljust(w) if flush_left else text.rjust(w)
                  for text, w, flush_left in zip(line, widths, left)).rstrip()
        for line in table
    )


def cell(value: Any, digits: int = 3) -> str:
    """One table cell: '-' for missing, yes/NO for booleans, floats to ``digits`` places."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:.{digits}f}" if value < 1000 else f"{value:.0f}"
    return str(value)


def table(rows: list[dict[str, Any]], columns: Sequence[str], left: Sequence[str] = (),
          headers: dict[str, str] | None = None) -> str:
    """Rows as an aligned table of the given columns (text columns in ``left``)."""
    headers = headers or {}
    body = [[cell(row.get(c)) for c in columns] for row in rows]
    return aligned([headers.get(c, c) for c in columns], body, [c in left for c in columns])


def format_stats(stats: dict[str, Any]) -> str:
    def show(value: Any) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    return "stats: " + " ".join(f"{key}={show(value)}" for key, value in stats.items())


def to_json(result: Any) -> str:
    """A result object (anything with ``to_dict()``, or plain data) as one line of JSON."""
    data = result.to_dict() if hasattr(result, "to_dict") else result
    return json.dumps(data, default=str)


# --- files ------------------------------------------------------------------------------

def check_outputs(csv: str | None = None, json_path: str | None = None, plot: str | None = None,
                  svg: str | None = None, size: tuple[float, float] = PLOT_SIZE, dpi: int = PLOT_DPI) -> None:
    """Refuse unwritable output paths, or a plot we cannot draw (its size and
    resolution too), before any measuring starts: one clear error now, not a
    lost hour later."""
    for path in (csv, json_path, plot, svg):
        if path is not None:
            check_writable(path)
    if svg is not None and Path(svg).suffix.lower() != ".svg":
        raise InvalidInputError(f"--plot {svg}: the search tree is drawn as SVG: name a .svg file")
    if plot is not None:
        plot_format(plot)
        check_look(size, dpi)
        require_matplotlib()


def csv_text(rows: list[dict[str, Any]], columns: Sequence[str]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def write_csv(rows: list[dict[str, Any]], path: str, columns: Sequence[str]) -> None:
    from ..files import atomic_write_text

    atomic_write_text(path, csv_text(rows, columns))


def write_json(rows: list[dict[str, Any]], path: str) -> None:
    from ..files import atomic_write_text

    atomic_write_text(path, json.dumps(rows, indent=1, default=str) + "\n")


# --- compare and complete bench ---------------------------------------------------------

def compare_stream(labels: Sequence[str]) -> tuple[str, Callable[[dict[str, Any]], str]]:
    """A compare table printed a row at a time, as each is measured: (its
    header, the line of a row).  The columns are fixed before the first row:
    the times, and each chosen engine's measure of its work (its effort); widths are the
    headers' or a number's usual width (a longer cell pushes its line on)."""
    from ..engines import engine_class
    from .compare import COLUMNS, STAT_COLUMNS, parse_label

    # Of the statistics, each chosen engine's own measure of its work: a table of every statistic any
    # of them reports was 17 to 30 columns wide and mostly '-' (--csv and --json hold them all).
    reported = {engine_class(parse_label(label)[0]).effort for label in labels}
    shown = [c for c in COLUMNS if c != "runs" and (c not in STAT_COLUMNS or c in reported)]
    headers = {c: c.removesuffix("_s") for c in shown}
    headers["solutions_per_s"] = "sol/s"
    widths = {c: max(len(headers[c]), 12 if c == "count" else max(map(len, labels)) if c == "engine" else
                     4 if c == "n" else 9) for c in shown}
    left = {"engine", "status"}

    def line(row: dict[str, Any]) -> str:
        value = {**row, "solutions_per_s": None if row["solutions_per_s"] is None else round(row["solutions_per_s"])}
        return "  ".join(cell(value.get(c)).ljust(widths[c]) if c in left else cell(value.get(c)).rjust(widths[c])
                         for c in shown).rstrip()

    header = "  ".join(headers[c].ljust(widths[c]) if c in left else headers[c].rjust(widths[c])
                       for c in shown).rstrip()
    return header, line


def completion_table(rows: list[dict[str, Any]]) -> str:
    from .completion import COLUMNS

    return table(rows, COLUMNS, left=("engine", "effort_unit"))


def batch_table(rows: list[dict[str, Any]]) -> str:
    """One line per instance: each engine's answer and seconds; then one line per engine."""
    from .batch import SUMMARY_COLUMNS, summary

    engines = list(dict.fromkeys(row["engine"] for row in rows))
    instances: dict[tuple[str, Any], dict[str, Any]] = {}
    for row in rows:
        line = instances.setdefault((row["file"], row["diagonals"]), {
            "instance": Path(row["file"]).name, "n": row["n"], "D": row["diagonals"],
            "published": {None: "", 1: "solved", 0: "none"}[row["published"]]})
        line[row["engine"]] = f"{row['status']} {row['seconds']:.3f}s" + (" WRONG" if row["agrees"] is False else "")
    columns = ["instance", "n", "D", "published", *engines]
    per_instance = table(list(instances.values()), columns, left=["instance", "published", *engines])
    headers = {"median_s": "median s", "worst_s": "worst s"}
    return per_instance + "\n\n" + table(summary(rows), SUMMARY_COLUMNS, left=("engine",), headers=headers)


def crosscheck_row(row: Any, header: bool = False) -> str:
    """One N of a cross-check as a table line (after the two header lines, with ``header``)."""
    lines = []
    if header:
        names = [r.engine for r in row.results]
        lines.append((f"{'N':>3} {'known':>10} {'unique':>8}  " + "  ".join(f"{e:^24}" for e in names)).rstrip())
        lines.append((f"{'':>20}  " + "  ".join(f"{'count':>10} {'time':>7} {'agree':<5}" for _ in names)).rstrip())
    cells = "  ".join(f"{r.count:>10} {f'{r.seconds:.2f}s':>7} {'yes' if r.agrees else 'NO':<5}" for r in row.results)
    known = "?" if row.known is None else row.known
    unique = "-" if row.unique is None else row.unique  # (no reference that lists boards: a count only)
    lines.append(f"{row.n:>3} {known:>10} {unique:>8}  {cells}".rstrip())
    return "\n".join(lines)


def engines_table(capabilities: list[dict[str, Any]], default: str) -> str:
    """What every engine can do, one row each; the default marked with a star.  Why
    an engine cannot run here is a note below the table (a long reason made the
    table 422 characters wide); what each is, is in ``--help`` and the JSON."""
    from ..model.variants import VARIANTS

    from ..model.variants import PLACE

    notes: list[str] = []

    def noted(text: str) -> str:
        notes.append(text)
        return f" ({len(notes)})"

    rows = []
    for c in capabilities:
        available = "yes" if c["available"] else "no" + noted(f"{c['name']}: {c['unavailable_reason']}")
        if c["experimental"]:
            available += noted(f"{c['name']}: EXPERIMENTAL, {c['experimental'].split(': ', 1)[-1]}")
        answered = set(c["variants"])
        rows.append({**c, "engine": c["name"] + (" *" if c["name"] == default else ""), "available": available,
                     "counts": c["enumerates"] or c["counts_only"], "proves none": c["proves_none"],
                     "fixed": c["takes_fixed"], "options": ",".join(o["flag"] for o in c["options"].values()) or "-",
                     "variants": "all" if answered == set(VARIANTS) else "all but optima" if answered == set(PLACE)
                     else ",".join(c["variants"])})
    columns = ["engine", "available", "paradigm", "enumerates", "counts", "proves none", "fixed", "variants",
               "options"]
    text = table(rows, columns, left=columns)
    return text + ("\n" if notes else "") + "".join(f"\n({i}) {note}" for i, note in enumerate(notes, 1))
