"""Rendering results: aligned tables, CSV, JSON, plots and statistics lines.

Everything here takes rows (dicts) or result objects and turns them into
text or files; nothing decides or measures.  Files are written atomically.
Output paths are checked before any long work starts (:func:`check_outputs`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError, NQueensError
from ..files import check_writable

PLOT_FORMATS = ("png", "svg", "pdf")  # --plot chooses by the file's extension


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
                  svg: str | None = None) -> None:
    """Refuse unwritable output paths, or a plot we cannot draw, before any
    measuring starts: one clear error now, not a lost hour later."""
    for path in (csv, json_path, plot, svg):
        if path is not None:
            check_writable(path)
    if svg is not None and Path(svg).suffix.lower() != ".svg":
        raise InvalidInputError(f"--plot {svg}: the search tree is drawn as SVG: name a .svg file")
    if plot is not None:
        plot_format(plot)
        require_matplotlib()


def plot_format(path: str) -> str:
    """The format a plot's file name asks for, or InvalidInputError."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in PLOT_FORMATS:
        raise InvalidInputError(f"--plot {path}: name a .png, .svg or .pdf file (the extension picks the format)")
    return fmt


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


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise NQueensError("--plot needs matplotlib: pip install 'nqueens-cp[plot]' (or pip install matplotlib)") from None


@contextmanager
def time_plot(path: str, ylabel: str, title: str, sizes: Sequence[int]) -> Iterator[Any]:
    """Axes for seconds against N on a log scale; on leaving, labelled (a tick
    at each N in ``sizes``, if there are few) and saved, atomically, in the
    format its extension names."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..files import atomic_write

    fmt = plot_format(path)
    figure, axes = plt.subplots(figsize=(10, 5), dpi=120)
    try:
        yield axes
        axes.set_yscale("log")
        axes.set_xlabel("N (board size)")
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(title="engine", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        if len(set(sizes)) <= 30:
            from matplotlib.ticker import NullLocator

            axes.set_xticks(sorted(set(sizes)), [str(n) for n in sorted(set(sizes))])
            axes.xaxis.set_minor_locator(NullLocator())
        figure.tight_layout()
        atomic_write(path, lambda temporary: figure.savefig(temporary, format=fmt))
    finally:
        plt.close(figure)


# One marker and one line style per engine, so that no two engines look alike even in grey.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINE_STYLES = ("-", "--", "-.", ":")


def stop_reason(status: str) -> str:
    """A stopped row's status in one word or two, for the plot: why it has no time."""
    if status.startswith("timeout") or status.startswith("not proved"):
        return "time limit"
    if status.startswith("refused"):
        return "refused"
    if "memory" in status.lower():
        return "memory"
    return "error" if status.startswith("error") else status.split(":")[0][:12]


def plot_times(rows: list[dict[str, Any]], path: str, *, y: str, title: str, ylabel: str,
               stopped_y: str | None = None, limit: float | None = None) -> None:
    """One line per engine of ``row[y]`` against N, each engine with its own
    marker and line style; a row whose status is not 'ok' is drawn hollow in
    the engine's marker at ``row[stopped_y]`` (where it was stopped), with the
    reason beside it, and the legend says which engines stopped where;
    ``limit`` is a dashed line.  N is on a log scale where it spans a factor
    of ten or more (20 50 100 200)."""
    import math

    sizes = [row["n"] for row in rows]
    notes: dict[tuple[int, float], list[tuple[str, str, float]]] = {}
    refused: dict[int, list[str]] = {}
    with time_plot(path, ylabel, title, sizes) as axes:
        for index, label in enumerate(dict.fromkeys(row["engine"] for row in rows)):
            mine = [row for row in rows if row["engine"] == label]
            points = [(row["n"], max(row[y], 1e-5)) for row in mine
                      if row.get("status", "ok") == "ok" and row[y] is not None]
            stopped = [row for row in mine if row.get("status", "ok") != "ok"]
            said = sorted({stop_reason(row["status"]) for row in stopped})
            legend = label + (f" (stopped: {', '.join(said)} from N={min(r['n'] for r in stopped)})" if stopped else "")
            style = dict(marker=MARKERS[index % len(MARKERS)], linestyle=LINE_STYLES[index % len(LINE_STYLES)])
            (line,) = axes.plot(*zip(*points), label=legend, **style) if points else \
                axes.plot([], [], label=legend, **style)
            for row in stopped:
                at = row[stopped_y] if stopped_y and row.get(stopped_y) else limit
                if stop_reason(row["status"]) == "refused":  # (no time to draw: said along the foot)
                    refused.setdefault(row["n"], []).append(label)
                elif at is not None:
                    axes.scatter([row["n"]], [max(at, 1e-5)], marker=style["marker"], s=80, facecolors="none",
                                 edgecolors=line.get_color(), linewidths=1.5)
                    notes.setdefault((row["n"], round(math.log10(max(at, 1e-5)), 1)), []).append(
                        (label, stop_reason(row["status"]), max(at, 1e-5)))
        shown: set[str] = set()
        for (n, _), stops in sorted(notes.items()):  # a note where engines first stop, naming them and why
            reasons = dict.fromkeys(reason for _, reason, _ in stops)
            text = "; ".join(f"{', '.join(who for who, why, _ in stops if why == reason)}: {reason}" for reason in reasons)
            if text in shown:
                continue
            shown.add(text)
            last = n == max(sizes)  # (the rightmost notes read leftwards, inside the axes; each note a line
            # lower than the one before, so that two at one height do not overwrite each other)
            axes.annotate(text, (n, stops[0][2]), textcoords="offset points",
                          xytext=(-8 if last else 8, -12 - 10 * ((len(shown) - 1) % 3)),
                          ha="right" if last else "left", fontsize=7, color="dimgray")
        for n, who in refused.items():
            axes.annotate(f"refused: {', '.join(who)}", (n, 0.02), xycoords=("data", "axes fraction"), fontsize=7,
                          color="dimgray", ha="right" if n == max(sizes) else "left", rotation=0)
        if limit is not None:
            axes.axhline(limit, color="grey", linestyle="--", linewidth=1, label=f"time limit ({limit:g} s)")
        if sizes and min(sizes) > 0 and max(sizes) >= 10 * min(sizes):
            axes.set_xscale("log")


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


def compare_plot(rows: list[dict[str, Any]], path: str, first: bool = False, variant: str = "queens") -> None:
    """Search time against N, log scale, one line per engine."""
    from ..model import variants

    question = variants.get(variant)
    what = "prove the optimum" if question.question == "optimum" else \
        "find the first solution" if first else "find every solution"
    name = "N-queens" if question == variants.PLAIN else question.title.split(" (")[0].capitalize()
    title = f"{name}: time to {what}, by engine"
    if any(row["status"] != "ok" for row in rows):
        title += "\n(hollow: where an engine was stopped, and why)"
    plot_times(rows, path, y="search_s", stopped_y="wall_s", title=title,
               ylabel=f"seconds to {what} (median, log scale)")


def completion_table(rows: list[dict[str, Any]]) -> str:
    from .completion import COLUMNS

    return table(rows, COLUMNS, left=("engine", "effort_unit"))


def completion_plot(rows: list[dict[str, Any]], path: str, time_limit: float) -> None:
    """Median time against N, log scale, one line per engine, the time limit dashed."""
    instances = rows[0]["instances"] if rows else 0
    plot_times(rows, path, y="median_s", limit=time_limit, ylabel="median seconds per instance (log scale)",
               title=f"N-Queens Completion: median time to an answer ({instances} instances per N)")


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


def batch_plot(rows: list[dict[str, Any]], path: str, time_limit: float) -> None:
    """Seconds per instance (sorted by the first engine's time), log scale, one series per engine."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..files import atomic_write

    fmt = plot_format(path)
    engines = list(dict.fromkeys(row["engine"] for row in rows))
    keys = list(dict.fromkeys((row["file"], row["diagonals"]) for row in rows))
    seconds = {(row["file"], row["diagonals"], row["engine"]): row for row in rows}
    keys.sort(key=lambda key: seconds[key + (engines[0],)]["seconds"])
    figure, axes = plt.subplots(figsize=(10, 5), dpi=120)
    try:
        for engine in engines:
            mine = [seconds[key + (engine,)] for key in keys]
            xs = range(1, len(keys) + 1)
            (line,) = axes.plot(xs, [max(r["seconds"], 1e-5) for r in mine], marker="o", linestyle="", label=engine)
            unknown = [(x, r["seconds"]) for x, r in zip(xs, mine) if r["status"] == "unknown"]
            if unknown:
                ux, uy = zip(*unknown)
                axes.scatter(ux, uy, marker="x", s=60, color=line.get_color())
        axes.axhline(time_limit, color="grey", linestyle="--", linewidth=1, label=f"time limit ({time_limit:g} s)")
        axes.set_yscale("log")
        axes.set_xlabel(f"instance, sorted by {engines[0]}'s time")
        axes.set_ylabel("seconds to an answer (log scale)")
        axes.set_title(f"{len(keys)} instances: time per engine (x: no answer within the limit)")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(title="engine", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        figure.tight_layout()
        atomic_write(path, lambda temporary: figure.savefig(temporary, format=fmt))
    finally:
        plt.close(figure)


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
