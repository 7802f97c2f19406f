"""Figures of the studies: time against N for compare and complete bench, time
per instance for batch.  A figure says what stopped and why (hollow markers,
side by side where engines stopped together), reads its seconds plainly, and
has the size and resolution asked (a slide's, a page's).  Written atomically,
in the format its file's extension names; matplotlib is imported only here.
The tables, CSV and JSON are :mod:`.reporting`'s."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError, NQueensError

PLOT_FORMATS = ("png", "svg", "pdf")  # --plot chooses by the file's extension

# A figure's size in inches and its resolution: a slide's half (10 x 5 in at 120 dpi is 1200 x 600 pixels).
PLOT_SIZE = (10.0, 5.0)
PLOT_DPI = 120
MAX_PIXELS = 100_000_000  # (a 10,000 x 10,000 picture; beyond, matplotlib's buffer runs to gigabytes)

# One marker and one line style per engine, so that no two engines look alike even in grey.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "h", "p")
LINE_STYLES = ("-", "--", "-.", ":")

PLOT_TIMES = {"search": ("search_s", "seconds of search"), "wall": ("wall_s", "seconds, the whole process")}


def check_look(size: Any, dpi: Any) -> tuple[tuple[float, float], int]:
    """A figure's (width, height) in inches and its dots per inch, checked."""
    import math

    try:
        width, height = (float(side) for side in size)
    except (TypeError, ValueError):
        raise InvalidInputError(f"a plot's size is (width, height) in inches, got {size!r}") from None
    if not all(math.isfinite(side) and 1 <= side <= 100 for side in (width, height)):
        raise InvalidInputError(f"a plot's sides are 1 to 100 inches, got {width:g} x {height:g}")
    if type(dpi) is not int or not 10 <= dpi <= 1200:
        raise InvalidInputError(f"a plot's resolution is 10 to 1200 dots per inch, got {dpi!r}")
    if width * height * dpi * dpi > MAX_PIXELS:
        raise InvalidInputError(f"a plot of {width:g} x {height:g} in at {dpi} dpi is "
                                f"{width * dpi:,.0f} x {height * dpi:,.0f} pixels: more than {MAX_PIXELS:,}")
    return (width, height), dpi


def plot_format(path: str) -> str:
    """The format a plot's file name asks for, or InvalidInputError."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in PLOT_FORMATS:
        raise InvalidInputError(f"--plot {path}: name a .png, .svg or .pdf file (the extension picks the format)")
    return fmt


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise NQueensError("--plot needs matplotlib: pip install 'nqueens-cp[plot]' (or pip install matplotlib)") from None


@contextmanager
def figure_to(path: str, size: tuple[float, float] = PLOT_SIZE, dpi: int = PLOT_DPI) -> Iterator[Any]:
    """Axes of a figure of ``size`` inches at ``dpi``; on leaving the block
    without an error, laid out and saved at ``path``, atomically, in the format
    its extension names; closed however the block ends.  Every figure here
    is drawn in one of these."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..files import atomic_write

    fmt = plot_format(path)
    size, dpi = check_look(size, dpi)
    figure, axes = plt.subplots(figsize=size, dpi=dpi)
    try:
        yield axes
        figure.tight_layout()
        atomic_write(path, lambda temporary: figure.savefig(temporary, format=fmt))
    finally:
        plt.close(figure)


@contextmanager
def time_plot(path: str, ylabel: str, title: str, sizes: Sequence[int], size: tuple[float, float] = PLOT_SIZE,
              dpi: int = PLOT_DPI) -> Iterator[Any]:
    """Axes for seconds against N on a log scale; on leaving, labelled (a tick
    at each N in ``sizes``, if there are few) and saved (:func:`figure_to`)."""
    with figure_to(path, size, dpi) as axes:
        yield axes
        axes.set_yscale("log")
        _plain_ticks(axes)
        axes.set_xlabel("N (board size)")
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(title="engine", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
        if len(set(sizes)) <= 30:
            from matplotlib.ticker import NullLocator

            axes.set_xticks(sorted(set(sizes)), [str(n) for n in sorted(set(sizes))])
            axes.xaxis.set_minor_locator(NullLocator())


def _plain_ticks(axes: Any) -> None:
    """Seconds as a slide says them (0.4, 2, 10), not 4×10^-1; the ticks between
    two powers of ten named too where the axis spans less than one (with every
    engine stopped at one limit it read 1.225×10^0 alone)."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    plain = FuncFormatter(lambda value, _: f"{value:g}")
    axes.yaxis.set_major_formatter(plain)
    low, high = axes.get_ylim()
    axes.yaxis.set_minor_formatter(plain if low > 0 and high / low < 10 else NullFormatter())


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
               stopped_y: str | None = None, limit: float | None = None, size: tuple[float, float] = PLOT_SIZE,
               dpi: int = PLOT_DPI) -> None:
    """One line per engine of ``row[y]`` against N, each engine with its own
    marker and line style; a row whose status is not 'ok' is drawn hollow in
    the engine's marker at ``row[stopped_y]`` (where it was stopped), with the
    reason beside it, and the legend says which engines stopped where;
    ``limit`` is a dashed line.  N is on a log scale where it spans a factor
    of ten or more (20 50 100 200)."""
    import math

    sizes = [row["n"] for row in rows]
    notes: dict[tuple[int, float], list[tuple[str, str, float, str, Any]]] = {}
    refused: dict[int, list[str]] = {}
    with time_plot(path, ylabel, title, sizes, size, dpi) as axes:
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
                    notes.setdefault((row["n"], round(math.log10(max(at, 1e-5)), 1)), []).append(
                        (label, stop_reason(row["status"]), max(at, 1e-5), style["marker"], line.get_color()))
        _draw_stops(axes, notes, max(sizes) if sizes else 0)
        for n, who in refused.items():
            axes.annotate(f"refused: {', '.join(who)}", (n, 0.02), xycoords=("data", "axes fraction"), fontsize=7,
                          color="dimgray", ha="right" if n == max(sizes) else "left", rotation=0)
        if limit is not None:
            axes.axhline(limit, color="grey", linestyle="--", linewidth=1, label=f"time limit ({limit:g} s)")
        if sizes and min(sizes) > 0 and max(sizes) >= 10 * min(sizes):
            axes.set_xscale("log")


def _draw_stops(axes: Any, notes: dict[tuple[int, float], list[tuple[str, str, float, str, Any]]], last: int) -> None:
    """The hollow markers of engines stopped at N, side by side where several
    stopped at about one time (the same limit: they stacked on one point, one
    marker hiding the others), and beside them a note naming them and why, a
    reason a line, the names wrapped (a note of six engines ran into the
    legend).  A note already said at a smaller N is not said again."""
    import textwrap

    from matplotlib.transforms import offset_copy

    shown: set[str] = set()
    for (n, _), stops in sorted(notes.items()):
        step = 9.0  # points between two markers of one group
        for k, (_, _, at, marker, color) in enumerate(stops):
            dodge = offset_copy(axes.transData, fig=axes.figure, x=(k - (len(stops) - 1) / 2) * step, units="points")
            axes.scatter([n], [at], marker=marker, s=80, facecolors="none", edgecolors=color, linewidths=1.5,
                         transform=dodge)
            axes.update_datalim([(n, at)])  # (a point drawn through an offset is not in the view's limits)
        reasons = dict.fromkeys(reason for _, reason, *_ in stops)
        text = "\n".join(textwrap.fill(f"{', '.join(who for who, why, *_ in stops if why == reason)}: {reason}", 36)
                         for reason in reasons)
        if text in shown:
            continue
        shown.add(text)
        rightmost = n == last  # (the rightmost notes read leftwards, inside the axes; each note a line
        # lower than the one before, so that two at one height do not overwrite each other)
        axes.annotate(text, (n, stops[0][2]), textcoords="offset points",
                      xytext=(-8 - step * len(stops) / 2 if rightmost else 8 + step * len(stops) / 2,
                              -12 - 10 * ((len(shown) - 1) % 3)),
                      ha="right" if rightmost else "left", va="top", fontsize=7, color="dimgray")
    if notes:
        axes.margins(x=0.08)  # (room for the widest group beside the first and last N)
    axes.autoscale_view()


def compare_plot(rows: list[dict[str, Any]], path: str, first: bool = False, variant: str = "queens", *,
                 time: str = "search", size: tuple[float, float] = PLOT_SIZE, dpi: int = PLOT_DPI) -> None:
    """Time against N, log scale, one line per engine: ``time`` "search" (the
    model's building and its search, the engine's own cost) or "wall" (the
    whole fresh process: Python's start-up and the solver's import too, what a
    user waits for); a figure of ``size`` inches at ``dpi``."""
    from ..model import variants

    if time not in PLOT_TIMES:
        raise InvalidInputError(f"a plot's time is {' or '.join(PLOT_TIMES)}, got {time!r}")
    question = variants.get(variant)
    what = "prove the optimum" if question.optimizes else \
        "find the first solution" if first else "find every solution"
    name = "N-queens" if question == variants.PLAIN else question.title.split(" (")[0].capitalize()
    title = f"{name}: time to {what}, by engine"
    if any(row["status"] != "ok" for row in rows):
        title += "\n(hollow: where an engine was stopped, and why)"
    column, label = PLOT_TIMES[time]
    plot_times(rows, path, y=column, stopped_y="wall_s", title=title,
               ylabel=f"{label} (median, log scale)", size=size, dpi=dpi)


def completion_plot(rows: list[dict[str, Any]], path: str, time_limit: float, *,
                    size: tuple[float, float] = PLOT_SIZE, dpi: int = PLOT_DPI) -> None:
    """Median time against N, log scale, one line per engine, the time limit dashed."""
    instances = rows[0]["instances"] if rows else 0
    plot_times(rows, path, y="median_s", limit=time_limit, ylabel="median seconds per instance (log scale)",
               title=f"N-Queens Completion: median time to an answer ({instances} instances per N)",
               size=size, dpi=dpi)


def batch_plot(rows: list[dict[str, Any]], path: str, time_limit: float, *,
               size: tuple[float, float] = PLOT_SIZE, dpi: int = PLOT_DPI) -> None:
    """Seconds per instance (sorted by the first engine's time), log scale, one series per engine."""
    engines = list(dict.fromkeys(row["engine"] for row in rows))
    keys = list(dict.fromkeys((row["file"], row["diagonals"]) for row in rows))
    seconds = {(row["file"], row["diagonals"], row["engine"]): row for row in rows}
    keys.sort(key=lambda key: seconds[key + (engines[0],)]["seconds"])
    with figure_to(path, size, dpi) as axes:
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


def answer_bars(answers: list[dict[str, Any]], path: str, time_limit: float, title: str, xlabel: str, *,
                size: tuple[float, float] = (7.0, 3.0), dpi: int = PLOT_DPI) -> None:
    """One bar an engine, its seconds to an answer (``status``, ``seconds``), log
    scale: an answer found is a grey bar of its time; an engine stopped at the
    limit, a hatched bar to the limit labelled so (drawn as an ordinary bar, an
    "unknown" read as 5 s of work that found a board)."""
    with figure_to(path, size, dpi) as axes:
        _answer_bars(axes, answers, time_limit)
        axes.set_xscale("log")
        axes.set_xlabel(xlabel)
        axes.set_title(title)


def _answer_bars(axes: Any, answers: list[dict[str, Any]], time_limit: float) -> None:
    for answer in answers:
        stopped = answer["status"] == "unknown"
        axes.barh(answer["engine"], time_limit if stopped else max(answer["seconds"], 1e-5),
                  color="white" if stopped else "grey", edgecolor="black", hatch="//" if stopped else None)
        if stopped:
            axes.annotate(f" unknown: stopped at {time_limit:g} s", (time_limit, answer["engine"]), va="center",
                          fontsize=8)
        elif answer["status"] == "none":
            axes.annotate(" none (proved)", (max(answer["seconds"], 1e-5), answer["engine"]), va="center", fontsize=8)
