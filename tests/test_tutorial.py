"""The tutorial engines, the step-by-step trace, the tree picture, uniform sampling, board pictures."""

from __future__ import annotations

import collections
import json
import xml.etree.ElementTree as ET

import pytest

import nqueens_cp as nq
from conftest import reference
from nqueens_cp import TOTAL, get_engine, is_solution, names
from nqueens_cp.model.picture import board_svg
from nqueens_cp.counting.sample import sample
from nqueens_cp.studies.trace import trace, tree, tree_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("n", [4, 6, 8])
def test_every_backtracker_walks_the_same_tree(n: int) -> None:
    """The tutorials differ in cost, not in the tree: the same nodes and is-safe checks everywhere."""
    oracle = get_engine("backtrack").search(n)
    assert set(oracle) == reference(n)
    for name in names(group="classic"):
        search = get_engine(name).search(n)
        assert set(search) == reference(n)
        assert search.stats["nodes"] == oracle.stats["nodes"], name
        assert search.stats["checks"] == oracle.stats["tries"], name
    places = sum(event.kind == "place" for event in trace(n))
    assert places == oracle.stats["nodes"]


def test_the_costs_the_tutorials_teach() -> None:
    stats = {name: get_engine(name).search(8) for name in names(group="classic")}
    for search in stats.values():
        search.count()
    copy, undo, scan = stats["copy"].stats, stats["undo"].stats, stats["scan"].stats
    assert copy["copies"] == copy["nodes"] == 2056  # one whole board copied per placement
    assert "copies" not in undo and undo["scanned"] == copy["scanned"]  # same scan, no copies
    assert scan["scanned"] < undo["scanned"]  # q[] looks at one queen per row above, the board at up to three squares
    assert scan["checks"] == copy["checks"] == 15720


def test_nested_loops_say_which_n_they_serve() -> None:
    assert nq.count(20, "nested", fixed={r: c for r, c in enumerate((0, 2, 4, 1, 3, 12, 14, 11, 17, 19, 16, 8,
                                                                        15, 18, 7, 9, 6, 13, 5, 10))}) == 1
    with pytest.raises(nq.InvalidInputError, match="engine nested serves N <= 20"):
        nq.solutions(21, "nested")
    assert nq.engine_class("nested").capabilities()["max_n"] == 20


def test_trace_of_4_queens_reads_like_the_tutorial(cli) -> None:
    code, out, err = cli("trace", 4)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "1: place row 0 at column 0"
    assert lines[1] == "2: column 0 of row 1 is attacked by the queen in row 0 (column)"
    assert lines[2] == "3: column 1 of row 1 is attacked by the queen in row 0 (diagonal)"
    assert "row 2 has no free column, back to row 1" in out
    assert sum("solution" in line for line in lines) == 2 and "16 placements" in err
    code, out, _ = cli("trace", 8, "--limit", 50, "--format", "json")
    events = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(events) == 50 and [e["step"] for e in events] == list(range(1, 51))
    assert {e["event"] for e in events} <= {"place", "attacked", "back", "solution"}


@pytest.mark.parametrize("n", [1, 5, 8])
def test_trace_events_agree_with_the_search(n: int) -> None:
    events = list(trace(n))
    solutions = [e.solution for e in events if e.kind == "solution"]
    assert set(solutions) == reference(n) and [e.index for e in events if e.kind == "solution"] == \
        list(range(1, TOTAL[n] + 1))
    for e in events:
        if e.kind == "attacked":
            assert e.line in ("column", "diagonal", "anti-diagonal") and 0 <= e.by < e.row


def test_the_tree_picture_marks_solutions_and_dead_ends(tmp_path, cli) -> None:
    root = tree(5)
    svg = ET.fromstring(tree_svg(root, 5))
    kinds = collections.Counter(c.get("class") for c in svg.iter(f"{SVG}circle"))
    assert kinds["solution"] == 10 and kinds["root"] == 1
    oracle = get_engine("backtrack").search(5)
    oracle.count()
    assert sum(kinds.values()) == 1 + oracle.stats["nodes"]
    assert kinds["dead-end"] > 0
    code, _, err = cli("trace", 5, "--plot", tmp_path / "tree.svg")
    assert code == 0 and ET.parse(tmp_path / "tree.svg").getroot().tag == f"{SVG}svg"
    assert cli("trace", 9, "--plot", tmp_path / "big.svg")[0] == 2
    assert "name a .svg file" in cli("trace", 5, "--plot", tmp_path / "tree.png")[2]


def test_sampling_is_uniform_at_8() -> None:
    draws = list(sample(8, 92 * 100, seed=2024))
    assert all(is_solution(s, 8) for s in draws) and set(draws) == reference(8)
    counts = collections.Counter(draws)
    chi2 = sum((c - 100) ** 2 / 100 for c in counts.values())
    # 91 degrees of freedom: the 0.1% upper point of chi-square is about 133.
    assert chi2 < 133, chi2
    assert draws[:5] == list(sample(8, 5, seed=2024)), "reproducible with a seed"


def test_sampling_honours_placements_and_refuses_what_it_cannot_do(cli) -> None:
    draws = list(sample(10, 50, seed=1, fixed={0: 2}))
    assert all(s[0] == 2 and is_solution(s, 10) for s in draws)
    code, out, err = cli("sample", 14, "-k", 2, "--seed", 5, "-f", "line")
    assert code == 0 and len(out.splitlines()) == 2
    assert all(is_solution(tuple(map(int, line.split())), 14) for line in out.splitlines())
    code, _, err = cli("sample", 17)
    assert code == 2 and "use N <= 16" in err and err.count("\n") == 1
    code, out, err = cli("sample", 8, "--place", "0:0,1:2")  # no solution to draw: none, as enumerate lists none
    assert code == 0 and "0 solutions for N=8" in out + err
    assert list(sample(8, 3, fixed={0: 0, 1: 2})) == []


def test_a_board_shows_itself_as_a_picture() -> None:
    solution = (1, 3, 0, 2)
    outcome = nq.solve(6, "backtrack")
    for svg, shown in ((board_svg(solution), solution),
                       (outcome._repr_svg_(), outcome.solution)):
        root = ET.fromstring(svg)
        queens = [q for q in root.iter(f"{SVG}circle") if q.get("class") == "queen"]
        size = float(root.get("width")) / len(shown)
        squares = {(int(float(q.get("cy")) // size), int(float(q.get("cx")) // size)) for q in queens}
        assert len(queens) == len(shown) and squares == set(enumerate(shown))  # (row, column) of each queen
    assert nq.solve(8, fixed={0: 0, 1: 2})._repr_svg_() is None
