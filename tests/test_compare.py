"""compare: fresh-process measurements, agreement, CSV/JSON rows, the plot."""

from __future__ import annotations

import csv
import os
import json
from pathlib import Path

import pytest

from conftest import command_line
from nqueens_cp.studies.compare import COLUMNS, compare, parse_label
from nqueens_cp.studies.measure import measure
from nqueens_cp.errors import InvalidInputError
from nqueens_cp import DEFAULT_ENGINE, engine_class, names, preset

CORE = preset("core")  # every available core engine that enumerates (the default of compare)


def test_measure_in_process_reports_count_times_and_stats() -> None:
    result = measure(8, "backtrack")
    assert result["count"] == 92 and isinstance(result["import_s"], float) and result["search_s"] > 0
    assert result["stats"] == {"nodes": 2056, "tries": 15720}
    sat = measure(8, "sat+sb")
    assert sat["count"] == 92 and sat["stats"]["constraints"] > 744 and "clauses" not in sat["stats"]
    assert measure(8, "cpsat", first=True)["count"] == 1


def test_labels() -> None:
    assert parse_label("cpsat+sb") == ("cpsat", {"symmetry_breaking": True})
    assert parse_label("bitmask") == ("bitmask", {})
    for bad in ("bitmask+sb", "nope", "sat+sbx"):
        with pytest.raises(InvalidInputError):
            parse_label(bad)


def test_cli_compare_table_csv_json(tmp_path: Path, cli) -> None:
    chosen = CORE[::-1]  # (in an order of the caller's)
    code, out, err = cli("compare", "4-5", "--engines", ",".join(chosen), "--repeat", "2",
                         "--csv", tmp_path / "c.csv", "--json", tmp_path / "c.json")
    assert code == 0, err
    assert "\r" not in err  # progress only on a terminal
    with open(tmp_path / "c.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(int(r["n"]), r["engine"]) for r in rows] == [
        (n, e) for n in (4, 5) for e in chosen]
    assert list(rows[0]) == list(COLUMNS)
    assert {r["n"]: r["count"] for r in rows} == {"4": "2", "5": "10"}
    assert all(r["agrees"] == "True" and r["status"] == "ok" and r["runs"] == "2" for r in rows)
    for r in rows:
        assert float(r["wall_s"]) >= float(r["search_s"]) > 0
    for r in rows:  # each engine's own measure of its work, in its row
        effort = engine_class(r["engine"]).effort
        assert effort is None or effort not in COLUMNS or r[effort], r
    assert json.loads((tmp_path / "c.json").read_text()) == json.loads(json.dumps([
        {k: _typed(k, v) for k, v in r.items()} for r in rows]))
    table = out.splitlines()
    assert table[0].split()[:4] == ["n", "engine", "count", "agrees"] and len(table) == 1 + 2 * len(chosen)


def _typed(key: str, value: str):
    if value == "":
        return None
    if key in ("engine", "status"):
        return value
    if value in ("True", "False"):
        return value == "True"
    return float(value) if "." in value or "e" in value else int(value)


def test_symmetry_breaking_variants_and_first(cli) -> None:
    code, out, _ = cli("compare", "7", "--engines", "sat", "--symmetry-breaking", "--first")
    lines = out.splitlines()
    assert code == 0 and [line.split()[1] for line in lines[1:]] == ["sat", "sat+sb"]
    assert all(line.split()[2] == "1" for line in lines[1:])


def test_time_limit_reports_a_timeout_not_a_failure() -> None:
    rows = compare([13], ["backtrack"], time_limit=0.5)
    assert rows[0]["status"] == "timeout after 0.5 s" and rows[0]["agrees"] is None and rows[0]["count"] is None


def test_disagreement_exits_1(monkeypatch, cli) -> None:
    import nqueens_cp.studies.compare as cmp

    real = cmp._run_worker

    def lying(n, label, first, time_limit, question):
        run = real(n, label, first, time_limit, question)
        if label == "sat":
            run.result["count"] -= 1
        return run

    monkeypatch.setattr(cmp, "_run_worker", lying)
    code, _, err = cli("compare", "6", "--engines", f"{DEFAULT_ENGINE},sat")
    assert code == 1 and "N=6: engine sat counted 3, which disagrees" in err


def test_plot_is_drawn(tmp_path: Path, cli) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'nqueens-cp[plot]')")
    code, _, err = cli("compare", "4-6", "--engines", ",".join(CORE[1:3]), "--plot", tmp_path / "t.png")
    assert code == 0, err
    data = (tmp_path / "t.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.png"]  # no temporary left behind


def test_plot_without_matplotlib_says_how_to_install(monkeypatch, tmp_path: Path, cli) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, out, err = cli("compare", "4", "--engines", "bitmask", "--plot", tmp_path / "t.png")
    assert code == 1 and out == ""  # refused before measuring anything
    assert "--plot needs matplotlib: pip install 'nqueens-cp[plot]'" in err


def test_a_measurement_stopped_at_its_cap_leaves_no_solver_running() -> None:
    """The worker is stopped with SIGTERM, so that it ends what its engine
    started: MiniZinc runs in a session of its own, which killing the worker
    outright left running (it once ran on for half an hour at 10 GB)."""
    import os
    import tempfile

    from nqueens_cp.engines import engine_class

    if engine_class("minizinc").unavailable_reason():
        pytest.skip(f"minizinc: {engine_class('minizinc').unavailable_reason()}")
    (row,) = compare([3000], ["minizinc"], first=True, time_limit=3)
    assert row["status"] == "timeout after 3 s"
    assert not [name for name in os.listdir(tempfile.gettempdir()) if name.startswith("nqueens-mzn")]
    running = [command_line(int(pid)) for pid in filter(str.isdigit, os.listdir("/proc"))]  # (b"": gone meanwhile)
    ours = os.fsencode(tempfile.gettempdir())  # (this suite's temporary folder: another suite may run beside)
    assert not [line for line in running if b"nqueens-mzn" in line and ours in line]


# --- other questions of the family (--variant) ---------------------------------------------

def test_variant_counts_are_checked_against_their_own_sequence(cli) -> None:
    chosen = names(variant="toroidal", group="core", available=True, enumerates=True)
    code, out, err = cli("compare", "5-7", "--variant", "toroidal", "--engines", ",".join(chosen), "--json", "-")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["n"], r["engine"], r["count"], r["agrees"]) for r in rows] == [
        (n, e, {5: 10, 6: 0, 7: 28}[n], True) for n in (5, 6, 7) for e in chosen]
    rows = compare([10, 11], [DEFAULT_ENGINE, "sat+sb"], first=True, variant="superqueens")
    assert [(r["count"], r["agrees"]) for r in rows] == [(1, True)] * 4
    assert [r["count"] for r in compare([9], ["bitmask"], first=True, variant="superqueens")] == [0]


def test_a_wrong_variant_count_disagrees(monkeypatch) -> None:
    import nqueens_cp.studies.compare as cmp

    real = cmp._run_worker

    def plain(n, label, first, time_limit, question):  # a worker that answered plain N-queens instead
        return real(n, label, first, time_limit)

    monkeypatch.setattr(cmp, "_run_worker", plain)
    (row,) = compare([7], ["bitmask"], variant="toroidal")
    assert row["count"] == 40 and row["agrees"] is False and row["status"] == "DISAGREES"


def test_an_optimum_is_timed_and_checked_against_oeis(cli) -> None:
    chosen = [DEFAULT_ENGINE, "sat"]  # (the branch and bound in C, and a SAT solver's)
    code, out, err = cli("compare", "6", "7", "--variant", "domination", "--engines", ",".join(chosen), "--json", "-")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["n"], r["engine"], r["count"], r["agrees"], r["status"]) for r in rows] == [
        (n, e, {6: 3, 7: 4}[n], True, "ok") for n in (6, 7) for e in chosen]
    assert all(r["solutions_per_s"] is None and r["search_s"] > 0 for r in rows)  # an optimum is no rate
    assert all(r["nodes"] > 0 for r in rows if r["engine"] == "bitmask")
    (row,) = compare([8], ["bitmask"], variant="independent")
    assert (row["count"], row["agrees"]) == (5, True)


def test_an_optimum_not_proved_in_time_says_what_was_found() -> None:
    (row,) = compare([24], ["bitmask"], time_limit=0.5, variant="domination")
    # The branch and bound asks k = 1, 2, ... in turn: nothing found yet, the bound it reached.
    assert row["status"].startswith("not proved in 0.5 s (none found, at least ") and row["agrees"] is None
    assert row["count"] is None and row["wall_s"] < 0.5 + 10


@pytest.mark.parametrize("args, message", [
    (["--variant", "domination", "--first"], "asks for an optimum, not a first board: leave out --first"),
    (["--variant", "domination", "--engines", "sat", "--symmetry-breaking"],
     "sat+sb: symmetry breaking does not apply to an optimum"),
    (["--variant", "superqueens", "--engines", "construct"], "engine construct does not answer superqueens"),
    (["--variant", "superqueens", "--engines", "scan"], "engine scan does not answer superqueens"),
    (["--variant", "nope"], "argument --variant/-V: invalid choice: 'nope'"),
])
def test_variant_refusals_are_one_line_exit_2(cli, args, message) -> None:
    code, out, err = cli("compare", "6", *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err


def test_a_preset_keeps_the_engines_that_answer_the_variant() -> None:
    from nqueens_cp.studies.compare import default_labels, expand

    assert expand(["classic"], variant="toroidal") == [e for e in preset("classic") if engine_class(e).answers("toroidal")]
    assert expand(["classic"], variant="toroidal") == CORE  # (the tutorial backtrackers state plain N only)
    assert "scan" in expand(["classic"], first=True) and "scan" not in expand(["classic"], True, "superqueens")
    assert default_labels(False, variant="domination") == names(variant="domination", group="core", available=True)
    sb = names(option="symmetry_breaking")
    assert default_labels(False, True, "superqueens") == [label for e in CORE for label in (e, e + "+sb") if
                                                          label == e or e in sb]


def test_rows_to_stdout_replace_the_table(cli) -> None:
    code, out, err = cli("compare", "6", "--engines", "bitmask", "--csv", "-")
    assert code == 0 and out.splitlines()[0].startswith("n,engine,count,agrees") and "wrote" not in err
    assert [line.split(",")[:4] for line in out.splitlines()[1:]] == [["6", "bitmask", "4", "True"]]
    code, out, err = cli("compare", "6", "--engines", "bitmask", "--csv", "-", "--json", "-")
    assert code == 2 and out == "" and "--csv - and --json - would both write to stdout" in err


def _gecode_pids() -> list[int]:
    """This suite's Gecode processes: their model lies in the suite's own temporary folder (another
    suite running on the machine, a developer's beside CI, has its own)."""
    import tempfile

    ours = os.fsencode(tempfile.gettempdir())
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        line = command_line(int(pid))
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if b"fzn-gecode" in line and b"nqueens-mzn" in line and ours in line and state != b"Z":
            found.append(int(pid))
    return found


@pytest.mark.parametrize("what", ["optimum", "count"])
def test_a_worker_stopped_while_gecode_runs_leaves_no_gecode(what) -> None:
    """MiniZinc puts Gecode in a process group of its own: killing MiniZinc's
    group left Gecode running after its worker was stopped."""
    import multiprocessing
    import time

    from nqueens_cp.engines import engine_class

    if engine_class("minizinc").unavailable_reason():
        pytest.skip(f"minizinc: {engine_class('minizinc').unavailable_reason()}")
    assert not _gecode_pids()

    def run() -> None:
        from nqueens_cp import optimum, count, stopping

        stopping.worker()
        optimum(16, "domination", "minizinc") if what == "optimum" else count(15, "minizinc", jobs=1)

    child = multiprocessing.get_context("fork").Process(target=run)
    child.start()
    deadline = time.monotonic() + 60
    while not _gecode_pids():  # the event itself: Gecode searching
        assert time.monotonic() < deadline and child.is_alive()
    child.terminate()
    child.join()
    assert not _gecode_pids()


# --- figures that say what they show, and the teaching preset (issue 55) ---------------------

def test_a_figure_draws_every_engine_apart_and_says_where_and_why_each_stopped(tmp_path: Path) -> None:
    """Engines stopped by the time limit were overlapping 'x' marks, and refusals were not drawn."""
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'nqueens-cp[plot]')")
    import matplotlib

    from nqueens_cp.studies.figures import LINE_STYLES, MARKERS, compare_plot, stop_reason

    engines = ["e1", "e2", "e3", "e4"]
    rows = [{"n": n, "engine": e, "search_s": None if stop else 0.01 * (k + 1) * n, "wall_s": 2.0 if stop else 0.5,
             "status": "timeout after 2 s" if stop == "limit" else "refused: engine e4 serves N <= 50" if stop else "ok"}
            for n in (10, 100, 1000) for k, e in enumerate(engines)
            for stop in [("limit" if e in ("e2", "e3") and n >= 100 else "refuse" if e == "e4" and n > 50 else "")]]
    matplotlib.rcParams["svg.fonttype"] = "none"  # (the text as text, to be read back)
    try:
        compare_plot(rows, str(tmp_path / "f.svg"), first=True)
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    svg = (tmp_path / "f.svg").read_text()
    assert "e2, e3: time limit" in svg and "refused: e4" in svg and "hollow" in svg
    assert "e2 (stopped: time limit from N=100)" in svg and "e4 (stopped: refused from N=100)" in svg
    assert len({(MARKERS[i % len(MARKERS)], LINE_STYLES[i % len(LINE_STYLES)]) for i in range(12)}) == 12
    assert [stop_reason(s) for s in ("timeout after 2 s", "not proved in 2 s (5, at least 4)", "refused: x",
                                     "error: MemoryError")] == ["time limit", "time limit", "refused", "memory"]


def test_an_engines_own_refusal_in_its_process_is_a_refusal_not_an_error() -> None:
    """sat refuses a CNF it would not build in memory when it is asked, in its child process:
    compare reported 'error: nqueens_cp.errors.InvalidInputError: ...'."""
    (row,) = compare([500], ["sat"], first=True, time_limit=5)
    assert row["status"].startswith("refused: engine sat: the seqcounter CNF of N=500")


def test_the_teaching_preset_is_one_engine_of_every_paradigm_read_from_the_data() -> None:
    from nqueens_cp.studies.compare import expand

    teaching = preset("teaching")
    assert teaching[:len(CORE)] == CORE
    paradigms = {engine_class(name).paradigm for name in names(available=True) if engine_class(name).group != "classic"}
    assert {engine_class(name).paradigm for name in teaching} == paradigms
    assert all(engine_class(e).enumerates or engine_class(e).counts_only for e in expand(["teaching"]))
    assert set(names(instant=True, available=True)) <= set(expand(["teaching"], first=True))
    both = expand(["declarative", DEFAULT_ENGINE])  # (it said 'engine bitmask is named twice')
    assert len(both) == len(set(both)) and set(both) == set(preset("declarative")) and both[-1] == DEFAULT_ENGINE


def test_a_model_counter_is_measured_by_its_count_not_a_listing() -> None:
    """compare's measurement of an engine that counts without listing (Ganak) runs the plan's count, and
    its statistics are the engine's (no strategy column beside the others)."""
    from conftest import usable

    usable("modelcount")
    row = measure(6, "modelcount")
    assert row["count"] == 4 and "strategy" not in row["stats"] and row["stats"]["counter"] in ("ganak", "cadical195")
