"""The CLI through main([...]): formats, summaries, and every bad input."""

from __future__ import annotations

import json
import re

import pytest

import nqueens_cp as nq
from conftest import reference, run_process
from nqueens_cp import is_solution

ONE_BOARD = nq.names(enumerates=False, counts=False)[0]  # an engine that finds one board and never lists
TAKERS = {option: " and ".join(nq.names(option=option)) for option in ("solver", "encoding", "symmetry_breaking")}



def parse_boards(text: str, n: int) -> list[tuple[int, ...]]:
    boards = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("Solution "):
            assert lines[i] == f"Solution {len(boards) + 1}:"
            rows = lines[i + 1 : i + 1 + n]
            assert all(len(r.split()) == n and set(r.split()) <= {"Q", "."} for r in rows)
            assert all(r.split().count("Q") == 1 for r in rows)
            boards.append(tuple(r.split().index("Q") for r in rows))
            i += n + 1
        else:
            i += 1
    return boards


def test_enumerate_8_prints_92_numbered_boards_and_a_summary(cli) -> None:
    code, out, err = cli("enumerate", "8")
    assert code == 0 and err == ""
    boards = parse_boards(out, 8)
    assert len(boards) == 92 and set(boards) == reference(8)
    assert all(is_solution(b, 8) for b in boards)
    assert out.splitlines()[-1].startswith("92 solutions for N=8 (engine bitmask")


def test_enumerate_line_format_every_engine(cli, engine_name: str) -> None:
    engine = engine_name
    code, out, err = cli("enumerate", "6", "--engine", engine, "--format", "line")
    assert code == 0
    sols = {tuple(map(int, line.split())) for line in out.splitlines()}
    assert sols == reference(6) and len(out.splitlines()) == 4
    assert f"4 solutions for N=6 (engine {engine}" in err


def test_enumerate_json_lines(cli) -> None:
    code, out, err = cli("enumerate", "8", "--format", "json")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 92
    assert out.splitlines() == [json.dumps(r) for r in records]  # byte for byte what json.dumps writes
    assert records[0] == {"n": 8, "index": 1, "solution": [0, 4, 7, 5, 2, 6, 1, 3]}
    assert [r["index"] for r in records] == list(range(1, 93))
    assert {tuple(r["solution"]) for r in records} == reference(8)
    assert "92 solutions" in err and "92 solutions" not in out


def test_enumerate_limit(cli) -> None:
    code, out, err = cli("enumerate", "10", "--limit", "3", "--format", "line", "--engine", "sat")
    assert code == 0 and len(out.splitlines()) == 3
    assert "stopped at --limit 3" in err


def test_enumerate_stats_on_stderr(cli) -> None:
    code, out, err = cli("enumerate", "5", "--format", "line", "--stats")
    assert code == 0 and "stats: kernel=" in err and " nodes=53" in err and "stats" not in out  # as count 5's search


@pytest.mark.parametrize("n", ["2", "3"])
def test_no_solutions_is_still_success(cli, n: str) -> None:
    code, out, _ = cli("enumerate", n)
    assert code == 0 and out == f"0 solutions for N={n} (engine bitmask, {out.split(', ')[1]}"
    code, out, _ = cli("count", n)
    assert code == 0 and out == "0\n"
    code, out, err = cli("sample", n)
    assert code == 0 and f"0 solutions for N={n}, drawn uniformly" in out + err and "error" not in err, err


def test_count_last_line_is_a_bare_integer(cli, engine_name: str) -> None:
    code, out, _ = cli("count", "9", "--engine", engine_name)
    assert code == 0 and out.splitlines()[-1] == "352"
    code, out, _ = cli("count", "9", "--engine", engine_name, "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["count"] == 352 and record["engine"] == engine_name and record["unique"] is False


def test_count_unique_and_fixed(cli) -> None:
    assert cli("count", "8", "--unique") == (0, "12\n", "")
    assert cli("count", "8", "--place", "0:0") == (0, "4\n", "")
    code, out, _ = cli("count", "12", "--unique", "--format", "json")
    assert code == 0 and json.loads(out)["count"] == 1787 and json.loads(out)["unique"] is True


@pytest.mark.parametrize("command", ["count", "enumerate"])
@pytest.mark.parametrize("placement", [["--place", "0:7"], ["--block", "3:3"]])
def test_unique_with_placements_is_refused_in_one_line(cli, command: str, placement: list[str]) -> None:
    code, out, err = cli(command, "8", "--unique", *placement)
    assert code == 2 and out == "" and err.count("\n") == 1 and "break the symmetries" in err


def test_count_takes_no_limit() -> None:
    import nqueens_cp as nq
    from nqueens_cp.execution.run import counted

    with pytest.raises(nq.InvalidInputError, match="count takes no limit"):
        nq.count(8, limit=3)
    with pytest.raises(nq.InvalidInputError, match="count takes no limit"):
        counted(8, "sat", limit=3)


def test_count_with_a_time_limit_gives_no_count(cli) -> None:
    code, out, err = cli("count", "16", "--engine", "backtrack", "--time-limit", "0.2")
    assert code == 3 and out == "" and "unknown: the time limit of 0.2 s came" in err


def test_count_with_sat_solver_option(cli) -> None:
    code, out, err = cli("count", "7", "--engine", "sat", "--solver", "minisat22", "--stats")
    assert code == 0 and out == "40\n" and "solver=minisat22" in err


def test_engines_lists_every_engine_with_what_each_can_do(cli) -> None:
    code, out, err = cli("engines")
    assert code == 0
    assert out.splitlines()[2].startswith("bitmask *") and "default" in err
    assert out.splitlines()[0].split()[:6] == ["engine", "available", "paradigm", "enumerates", "counts", "proves"]
    names = [line.replace(" *", "").split()[0] for line in out.split("\n\n")[0].splitlines()[1:]]
    assert max(map(len, out.splitlines()[:18])) <= 180 and "variants" in out.splitlines()[0]  # (it was 422 wide)
    assert names == list(nq.ENGINE_NAMES)
    code, out, _ = cli("engines", "--format", "json")
    data = json.loads(out)
    assert data["default"] == "bitmask" and [e["name"] for e in data["engines"]] == names
    by_name = {e["name"]: e for e in data["engines"]}
    can = ("enumerates", "counts_only", "solves", "proves_none", "takes_fixed", "declarative", "paradigm", "requires",
           "group", "max_n", "effort")
    for name in names:  # each engine's own data, as it is
        cls = nq.engine_class(name)
        assert [by_name[name][k] for k in can] == [getattr(cls, k) for k in can], name
        assert by_name[name]["programs"] == list(cls.programs) and by_name[name]["additive"] == sorted(cls.additive)
        assert list(by_name[name]["options"]) == [option.name for option in cls.options], name
        assert by_name[name]["available"] == (cls.unavailable_reason() is None), name
    assert [by_name["minconflicts"][k] for k in can[:6]] == [False, False, True, False, True, False]
    assert [by_name["modelcount"][k] for k in can[:6]] == [False, True, False, False, True, True]
    sat = by_name["sat"]
    assert sat["enumerates"] and sorted(sat["options"]) == ["encoding", "proof", "solver", "symmetry_breaking"]
    assert "conflicts" in sat["additive"] and sat["effort"] == "conflicts"


def test_crosscheck_table(cli) -> None:
    code, out, err = cli("crosscheck", "1-6", "8")
    assert code == 0
    lines = out.splitlines()
    core = nq.preset("core")
    assert lines[0].split() == ["N", "known", "unique", *core]
    rows = [line.split() for line in lines[2:]]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4, 5, 6, 8]
    assert [int(r[2]) for r in rows] == [1, 0, 0, 1, 2, 1, 12]  # A002562
    for r in rows:  # each engine's three columns: its count, time, and whether its set is the reference's
        assert [r[3 + 3 * k] for k in range(len(core))] == [r[1]] * len(core)  # known == each engine's count
        assert [r[5 + 3 * k] for k in range(len(core))] == ["yes"] * len(core)
    assert "agree" in err


def test_crosscheck_engine_subset(cli) -> None:
    chosen = nq.preset("core")[::-1][:2]  # (two, in an order of the caller's)
    code, out, _ = cli("crosscheck", "5", "--engines", ",".join(chosen))
    assert code == 0 and out.splitlines()[0].split() == ["N", "known", "unique", *chosen]


def test_help_is_complete(cli) -> None:
    code, out, _ = cli("--help")
    assert code == 0
    for word in ("enumerate", "count", "crosscheck", "engines", "exit codes"):
        assert word in out
    code, out, _ = cli("enumerate", "--help")
    assert code == 0
    out = " ".join(out.split())  # undo argparse's line wrapping
    for word in ("--engine", "--limit", "--format", "board", "line", "json", "default: bitmask"):
        assert word in out
    # Help that agrees with the program: each command shows only the flags it takes, with what they do there.
    for command in ("enumerate", "count", "crosscheck"):
        text = cli(command, "--help")[1]
        assert "--workers" not in text and "--proof" not in text, command
    solve = " ".join(cli("solve", "--help")[1].split())
    assert "--workers" in solve and "--proof" in solve and "exact full set" not in solve
    bench = " ".join(cli("complete", "bench", "--help")[1].split())
    assert f"every available one of {', '.join(nq.names(takes_fixed=True, group='core'))}" in " ".join(bench.split())
    assert "every engine, exact sets" not in cli("--help")[1]


def test_help_does_not_import_solver_packages() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from nqueens_cp.cli.main import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['enumerate', '--help'])\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['enumerate', '8', '--engine', 'bitmask'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'pysat')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_engines_data_is_read_without_a_package_outside_the_standard_library() -> None:
    """Issue 64's lazy CLI: each engine module is the module that imports
    nothing: its class (capabilities, options, summary, availability) loads
    with only the standard library and nqueens_cp, its solver package imported
    inside the methods that search.  Every engine's --help, `engines` and the
    main help read them without paying for OR-Tools, python-sat, clingo, Z3,
    CuPy or Dask."""
    import json
    import subprocess
    import sys

    code = (
        "import sys; before = set(sys.modules)\n"
        "from nqueens_cp.engines import engine_class, names\n"
        "from nqueens_cp.cli.main import main\n"
        "import contextlib, io, json\n"
        "data = [(c.capabilities(), c.summary, [o.name for o in c.options], c.unavailable_reason())\n"
        "        for c in map(engine_class, names())]\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['engines'])\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['--help'])\n"
        "print(json.dumps([len(data), sorted({m.split('.')[0] for m in set(sys.modules) - before}"
        " - set(sys.stdlib_module_names))]))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, outside = json.loads(run.stdout)
    assert loaded == len(nq.names()) and outside == ["nqueens_cp"], outside


BAD_INPUT = [
    (["enumerate", "0"], "argument N: must be a positive integer, got '0'"),
    (["enumerate", "-3"], "argument N: must be a positive integer, got '-3'"),
    (["enumerate", "abc"], "argument N: must be a positive integer, got 'abc'"),
    (["enumerate", "8.5"], "argument N: must be a positive integer, got '8.5'"),
    (["enumerate", "1e3"], "argument N: must be a positive integer, got '1e3'"),
    (["count", "0"], "argument N: must be a positive integer, got '0'"),
    (["count", "3000000000"], "argument N: must be at most 999,999,999, got '3000000000'"),
    (["count", "8", "--checkpoint", "/nonexistent/x"], "cannot write /nonexistent/x: no directory /nonexistent"),
    (["complete", "generate", "10", "3", "-o", "/nonexistent/x"], "cannot write /nonexistent/x: no directory"),
    (["complete", "diagonals", "10", "-o", "/nonexistent/x"], "cannot write /nonexistent/x: no directory"),
    (["complete", "generate", "2000000", "5"], "N must be from 1 to 1,000,000"),
    (["complete", "diagonals", "20000"], "N must be from 1 to 10,000 for an Excluded Diagonals instance"),
    (["enumerate"], "the following arguments are required: N"),
    (["count"], "the following arguments are required: N"),
    (["enumerate", "8", "--engine", "nope"], f"invalid choice: 'nope' (choose from {', '.join(repr(n) for n in nq.names(enumerates=True))}"),
    (["count", "8", "--engine", "nope"], f"invalid choice: 'nope' (choose from {', '.join(repr(n) for n in nq.names(counts=True))}"),
    (["enumerate", "8", "--engine", "modelcount"], "invalid choice: 'modelcount'"),
    (["solve", "8", "--engine", "modelcount"], "invalid choice: 'modelcount'"),
    (["count", "8", "--engine", "modelcount", "--unique"], "cannot count one per symmetry class"),
    (["crosscheck", "8", "--engines", f"bitmask,{ONE_BOARD}"], f"{ONE_BOARD} finds one solution and cannot enumerate"),
    (["batch", "x.param", "--engines", "modelcount"], "modelcount counts solutions without finding one"),
    (["count", "8", "--engine", "construct"], "invalid choice: 'construct'"),
    (["enumerate", "8", "--format", "xml"], "invalid choice: 'xml' (choose from 'board', 'line', 'json')"),
    (["enumerate", "8", "--limit", "0"], "argument --limit/-k: must be a positive integer, got '0'"),
    (["enumerate", "8", "--limit", "-1"], "argument --limit/-k: must be a positive integer, got '-1'"),
    (["frobnicate", "8"], "argument COMMAND: invalid choice: 'frobnicate'"),
    ([], "the following arguments are required: COMMAND"),
    (["crosscheck", "10-1"], "range '10-1' runs backwards; write 1-10"),
    (["crosscheck", "0-3"], "must be a positive integer, got '0'"),
    (["crosscheck"], "the following arguments are required: SPEC"),
    (["crosscheck", "4", "--engines", "bitmask,nope"], f"unknown engine 'nope' (choose from {', '.join(nq.ENGINE_NAMES)})"),
    (["crosscheck", "4", "--engines", "bitmask,bitmask"], "engine bitmask is named twice"),
    (["crosscheck", "4", "--engines", f"bitmask,{ONE_BOARD}"], f"engine {ONE_BOARD} finds one solution and cannot enumerate"),
    (["crosscheck", "4-12/0"], "must be a positive integer, got '0'"),
    (["count", "8", "--solver", "minisat22"], f"option 'solver' (--solver) applies to the {TAKERS['solver']} engines, not bitmask"),
    (["count", "8", "--encoding", "ladder", "-e", "cpsat"], f"option 'encoding' (--encoding) applies to the {TAKERS['encoding']} engines, not cpsat"),
    (["count", "8", "--symmetry-breaking"], f"(--symmetry-breaking) applies to the {TAKERS['symmetry_breaking']} engines, not bitmask"),
    (["crosscheck", "8", "--engines", "bitmask", "--symmetry-breaking"], f"(--symmetry-breaking) applies only to the {TAKERS['symmetry_breaking']} engines"),
    (["crosscheck", "8", "--engines", "cpsat", "--solver", "minisat22"], f"(--solver) applies only to the {TAKERS['solver']} engines"),
    (["count", "8", "--place", "0:0,0:1"], "--place: two queens in row 0 (0:0 and 0:1)"),
    (["count", "8", "--place", "9:0"], "placement 9:0: row 9 is off the 8x8 board"),
    (["count", "8", "--unique", "--symmetry-breaking", "-e", "sat", "--place", "0:0"], "symmetry breaking cannot be combined with fixed placements"),
    (["count", "8", "--engine", "sat", "--solver", "kissat404"], "engine sat: option solver: unknown value 'kissat404'"),
    (["enumerate", "65"], "boards wider than 64 are unreadable; use --format line or json"),
    (["count", "8", "--time-limit", "1e10"], "must be a positive number of seconds up to 1e+09, got '1e10'"),
    (["solve", "8", "-e", "sat", "--time-limit", "1e10"], "must be a positive number of seconds up to 1e+09"),
    (["count", "12", "--scheduler", "bogus"], "--scheduler takes a Dask scheduler's address"),
    (["count", "12", "--scheduler", ""], "--scheduler takes a Dask scheduler's address"),
    (["count", "12", "--scheduler", "http://x"], "--scheduler takes a Dask scheduler's address"),
    (["count", "12", "--scheduler", "local:999999"], "'local:N' with N from 1 to 256"),
    (["count", "100000"], "engine bitmask serves N <= 10000"),
    (["count", "8", "--frobnicate"], "nqueens-cp count: error: unrecognized arguments: --frobnicate"),
    (["enumerate", "8", "--workers", "2"], "nqueens-cp enumerate: error: unrecognized arguments: --workers 2"),
    (["crosscheck", "8", "--proof", "p.drat"], "nqueens-cp crosscheck: error: unrecognized arguments: --proof"),
    # solve and complete
    (["solve", "8", "--place", "9:0"], "placement 9:0: row 9 is off the 8x8 board"),
    (["solve", "8", "--place", "0:8"], "placement 0:8: column 8 is off the 8x8 board"),
    (["solve", "8", "--place", "0:1,0:2"], "two queens in row 0 (0:1 and 0:2)"),
    (["solve", "8", "--place", "0:1", "--place", "0:2"], "two queens in row 0 (0:1 and 0:2)"),
    (["solve", "8", "--seed", "2147483648"], "option seed takes an integer from 0 to 2147483647"),
    (["solve", "8", "--seed", "-1"], "argument --seed: must be a whole number"),
    (["solve", "8", "--engine", "cpsat", "--max-steps", "5"], "option 'max_steps' (--max-steps) applies to the minconflicts engine"),
    (["solve", "8", "--place", "0-1"], "expected ROW:COL pairs"),
    (["solve", "8", "--place", "0:1,"], "expected ROW:COL pairs"),
    (["solve", "8", "--place", "a:b"], "expected ROW:COL pairs"),
    (["solve", "8", "--time-limit", "0"], "must be a positive number of seconds up to 1e+09, got '0'"),
    (["solve", "8", "--time-limit", "-1"], "must be a positive number of seconds up to 1e+09, got '-1'"),
    (["solve", "100"], "boards wider than 64 are unreadable; use --format line or json"),
    (["solve", "8", "--engine", "construct", "--place", "0:0"], "engine construct solves plain N only"),
    (["solve", "8", "--engine", "nope"], "invalid choice: 'nope'"),
    (["solve", "8", "--engine", "bitmask", "--solver", "minisat22"], f"option 'solver' (--solver) applies to the {TAKERS['solver']} engines, not bitmask"),
    (["complete", "generate", "5", "6"], "cannot place 6 queens"),
    (["complete", "bench", "8", "--placed", "x"], "--placed must be a count or a fraction of N"),
    (["complete", "bench", "8", "--placed", "3", "--engines", "construct"], "engine construct cannot take pre-placed queens"),
    (["complete", "bench", "8", "--placed", "3", "--engines", "sat,sat"], "engine sat is named twice"),
    (["complete", "bench", "8", "--placed", "1.5"], "a fraction of N must lie between 0 and 1"),
    (["complete", "bench", "8", "--placed", "2", "--plot", "x.txt"], "name a .png, .svg or .pdf file"),
    (["complete", "bench", "8", "--placed", "2", "--csv", "/no/such/dir/x.csv"], "no directory /no/such/dir"),
    (["complete", "frob"], "invalid choice: 'frob'"),
    # compare
    (["compare", "8", "--engines", "bitmask+sb"], "unknown engine 'bitmask+sb'"),
    (["compare", "8", "--engines", "sat,sat"], "engine sat is named twice"),
    (["compare", "8", "--engines", "construct"], "construct finds one solution, never all of them"),
    (["compare", "8", "--plot", "x.txt"], "name a .png, .svg or .pdf file"),
    (["compare", "8", "--csv", "/no/such/dir/t.csv"], "no directory /no/such/dir"),
    (["compare", "8", "--json", "/"], "it is a directory"),
    (["compare", "8", "--repeat", "0"], "must be a positive integer"),
    (["compare", "8", "--time-limit", "0"], "must be a positive number of seconds up to 1e+09, got '0'"),
    (["compare", "8", "--time-limit", "abc"], "must be a positive number of seconds up to 1e+09, got 'abc'"),
    (["compare", "9-3"], "runs backwards"),
]


BAD_API = [  # the Python API: the package's own error, naming the argument
    (lambda: nq.count(8, executor="bogus"), "--scheduler takes a Dask scheduler's address"),
    (lambda: nq.count(8, executor=3), "executor must be a concurrent.futures.Executor"),
    (lambda: nq.count(8, fixed="0:0"), "fixed takes a mapping of row to column"),
    (lambda: nq.count(8, blocked="x"), "blocked takes (row, column) squares"),
    (lambda: nq.render((0, 9)), "render takes a board of columns 0..1 by row"),
    (lambda: nq.solve(8, time_limit=1e10), "up to 1e+09"),
    (lambda: nq.count(8, time_limit=float("nan")), "time limit must be a positive number"),
]


@pytest.mark.parametrize("call, message", BAD_API, ids=[m[:30] for _, m in BAD_API])
def test_bad_api_input_raises_the_packages_error(call, message: str) -> None:
    with pytest.raises(nq.InvalidInputError, match=re.escape(message)):
        call()


def test_huge_n_keeps_its_time_limit_and_says_how_hopeless_in_one_note() -> None:
    """The clock covers all the work (listing sub-problems included) and the
    estimate of a count beyond floating point is still a number."""
    for n in ("200", "329"):
        out = run_process("count", n, "--time-limit", "1", timeout=60)
        assert out.returncode == 3 and out.stdout == "", out.stderr
        assert "Traceback" not in out.stderr and "inf" not in out.stderr and "years to count them" in out.stderr


def test_an_engine_that_cannot_run_here_is_a_usage_error_for_compare(cli) -> None:
    from nqueens_cp import engine_class

    if engine_class("gpu").unavailable_reason() is None:
        pytest.skip("the gpu engine can run here")
    code, out, err = cli("compare", "8", "--engines", "gpu")
    assert (code, out) == (2, "") and err.startswith("nqueens-cp compare: error: engine 'gpu' is unavailable")


def test_a_fifo_is_refused_as_an_instance_or_a_checkpoint(cli, tmp_path) -> None:
    """(Opened, a FIFO with no writer would block for ever.)"""
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, out, err = cli("solve", fifo)
    assert (code, out) == (1, "") and "not a regular file" in err and err.count("\n") == 1
    code, out, err = cli("count", "13", "--checkpoint", fifo)
    assert (code, out) == (2, "") and "a checkpoint must be a regular file, and this is a FIFO" in err


def test_solve_help_lists_the_engines_solve_takes(cli) -> None:
    code, out, _ = cli("solve", "--help")
    listed = out.split("\nengines:")[1]
    assert code == 0 and "  modelcount " not in listed and "  gpu " not in listed and "  construct " in listed
    assert "modelcount" not in out.split("\nengines:")[0]  # nor in the flags' help


@pytest.mark.parametrize("argv, message", BAD_INPUT, ids=[" ".join(a) or "<none>" for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_and_exit_2(cli, argv: list[str], message: str) -> None:
    code, out, err = cli(*argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert message in err
    assert "Traceback" not in err


def test_a_missing_solver_package_is_reported_not_a_traceback(cli, monkeypatch) -> None:
    from nqueens_cp.engines.cpsat import CpSatEngine

    monkeypatch.setattr(CpSatEngine, "requires", "no_such_solver_package")
    code, out, _ = cli("engines")
    assert code == 0 and "cpsat: needs the Python package providing 'no_such_solver_package'" in out
    code, out, err = cli("crosscheck", "6")
    assert code == 0 and "skipped engine cpsat" in err and "cpsat" not in out
    code, out, err = cli("crosscheck", "6", "--engines", f"{nq.DEFAULT_ENGINE},cpsat")
    assert code == 2 and "engine 'cpsat' is unavailable" in err and err.count("\n") == 1
    code, out, err = cli("count", "6", "--engine", "cpsat")
    assert code == 2 and "engine 'cpsat' is unavailable" in err and err.count("\n") == 1


def test_a_usage_error_is_named_before_a_missing_solver(cli, monkeypatch) -> None:
    """`count --engine modelcount --unique` is a mistake whether or not
    pyganak is installed: the mistake is named, not the missing package."""
    from nqueens_cp.engines.modelcount import ModelCountEngine

    monkeypatch.setattr(ModelCountEngine, "unavailable_reason", classmethod(lambda cls: "needs pyganak"))
    code, out, err = cli("count", "8", "--engine", "modelcount", "--unique")
    assert code == 2 and out == "" and "cannot count one per symmetry class" in err and err.count("\n") == 1
