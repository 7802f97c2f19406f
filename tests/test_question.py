"""The question as one value (model/question.py), named in every entry point,
and what a question may hold refused in one line before any work."""

from __future__ import annotations

import inspect

import pytest

import nqueens_cp as nq
from nqueens_cp.engines import sat
from nqueens_cp.execution.plan import plan, plan_solve

numpy = pytest.importorskip("numpy", reason="numpy comes with the test extra (matplotlib's dependency)")


def test_a_question_is_made_and_checked_once_and_is_immutable():
    asked = nq.question(8, {0: 1}, [(1, 1)], "toroidal")
    assert (asked.n, asked.variant, asked.placed, asked.blocked) == (8, nq.VARIANTS["toroidal"], ((0, 1),), ((1, 1),))
    assert str(asked) == "N=8 variant=toroidal fixed={0: 1} blocked=1 squares"
    assert asked.position() == {0: 1} and asked.position().blocked == {(1, 1)}
    with pytest.raises(AttributeError):
        asked.n = 9  # type: ignore[misc]
    for bad, match in (((0,), "positive integer"), ((8, {0: 9}), "off the 8x8 board"), ((8.0,), "positive integer"),
                       ((8, None, [(9, 9)]), "blocked square"), ((8, None, None, "nope"), "unknown variant"),
                       ((True,), "positive integer")):
        with pytest.raises(nq.InvalidInputError, match=match):
            nq.question(*bad)


def test_the_plan_carries_the_question():
    chosen = plan(8, "cpsat", {0: 0}, variant="rooks")
    assert chosen.question == nq.question(8, {0: 0}, None, "rooks") and chosen.engine.variant is nq.VARIANTS["rooks"]
    assert plan_solve(8, "bitmask", variant="superqueens").question.variant is nq.VARIANTS["superqueens"]
    made = nq.get_engine("cpsat", "rooks")
    assert plan(6, made).question.variant is made.variant  # a made engine's question
    with pytest.raises(nq.InvalidInputError, match="made for non-attacking rooks .* not toroidal"):
        plan(6, made, variant="toroidal")


@pytest.mark.parametrize("entry", [nq.solutions, nq.count, nq.solve])
def test_every_entry_point_names_the_variant(entry):
    """In its signature and its help(), not through **options."""
    assert "variant" in inspect.signature(entry).parameters
    assert "variant" in (entry.__doc__ or "") or "variant" in (nq.solutions.__doc__ or "")
    assert "variant" in inspect.signature(nq.optimum).parameters


def test_numpy_integers_are_board_sizes():
    """Notebook users pass numpy integers: 'N must be a positive integer, got np.int64(8)' was the answer."""
    eight = numpy.int64(8)
    assert nq.count(eight) == 92 and len(list(nq.solutions(eight, limit=3))) == 3
    assert nq.solve(eight).status is nq.Status.SOLVED and nq.optimum(numpy.int32(5)).size == 3
    with pytest.raises(nq.InvalidInputError, match="positive integer"):
        nq.count(numpy.float64(8))


def test_a_solver_this_build_lacks_is_refused_before_any_work(cli, monkeypatch):
    """python-sat names solvers it was not built with (minisatgh): a traceback in count, solve and optimum."""
    monkeypatch.setattr(sat, "_built", lambda name: name != "glucose4")
    for argv in (("count", 8), ("solve", 8), ("optimum", 5), ("enumerate", 5)):
        code, out, err = cli(*argv, "-e", "sat", "--solver", "glucose4")
        assert (code, out) == (2, "") and len(err.splitlines()) == 1, (argv, err)
        assert "solver glucose4 is not in this build of python-sat (choose from cadical195" in err


def test_a_solver_that_cannot_serve_an_optimum_is_refused_in_one_line(cli):
    if not sat._built("lingeling"):
        pytest.skip("this build of python-sat has no lingeling")
    code, out, err = cli("optimum", 8, "-e", "sat", "--solver", "lingeling")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert "RC2 cannot run on lingeling, which has no limited solve" in err
    assert nq.optimum(5, "domination", "sat", solver="glucose4").size == 3


def test_the_placements_are_checked_once_on_every_path(monkeypatch, cli):
    """The pre-placed queens and blocked squares were checked by the command line, by question() and by the
    engine again: now once, where the question is made, and every later step takes the checked Position as it
    is (an engine given placements of its own, or another N, checks them: the last cases)."""
    from nqueens_cp.model import position

    calls = []
    real = position._checked_position

    def counted(n, fixed, blocked):
        if fixed or blocked:  # (a writer asked for the plain board checks no placements)
            calls.append((n, fixed, blocked))
        return real(n, fixed, blocked)

    monkeypatch.setattr(position, "_checked_position", counted)
    fixed, blocked = {0: 1}, [(1, 3)]
    asked = [
        lambda: nq.count(8, "bitmask", fixed, blocked=blocked),
        lambda: list(nq.solutions(8, "cpsat", fixed, blocked=blocked)),
        lambda: nq.count(8, "sat", fixed, blocked=blocked),  # (its CNF writer reads the placements too)
        lambda: nq.count(12, "backtrack", fixed, blocked=blocked, jobs=1),  # (split: prefixes added)
        lambda: nq.solve(8, "cpsat", fixed, blocked=blocked),
        lambda: nq.solve(30, "bitmask", fixed, blocked=blocked, jobs=1),
        lambda: cli("count", 8, "--place", "0:1", "--block", "1:3"),
        lambda: cli("solve", 8, "--place", "0:1", "--block", "1:3", "-e", "backtrack"),
    ]
    for ask in asked:
        calls.clear()
        ask()
        assert len(calls) == 1, (ask, calls)
    calls.clear()
    assert nq.get_engine("backtrack").search(8, {0: 1}).count() == 8  # an engine called directly checks its own
    assert len(calls) == 1
    other = nq.question(8, {0: 1}).position()
    calls.clear()
    assert nq.get_engine("backtrack").check(9, other) == {0: 1} and len(calls) == 1  # (checked for 8, not 9)
    with pytest.raises(nq.InvalidInputError, match="placement 0:8: column 8 is off the 8x8 board"):
        nq.get_engine("backtrack").check(8, nq.question(9, {0: 8}).position())


def test_the_engines_own_checks_of_a_decision_and_the_placements_in_words():
    """An engine used directly checks the placements it is given, then its own (check_solve); a Position says
    what it holds; a diagonal is named as the command line names it."""
    from nqueens_cp.model.position import Position, diagonal

    backtrack = nq.get_engine("backtrack")
    assert backtrack.check_solve(8, {0: 1}) == {0: 1}
    with pytest.raises(nq.InvalidInputError, match="placement 0:9: column 9 is off the 8x8 board"):
        backtrack.check_solve(8, {0: 9})
    with pytest.raises(nq.InvalidInputError, match="time limit must be a positive number"):
        backtrack.check_solve(8, {0: 1}, time_limit=-1)
    assert repr(Position({0: 1}, [(2, 3), (1, 0)])) == "Position({0: 1}, blocked=[(1, 0), (2, 3)])"
    assert repr(Position({0: 1})) == "Position({0: 1})"
    assert diagonal(4, "r-c", 1) == [(1, 0), (2, 1), (3, 2)]
    with pytest.raises(nq.InvalidInputError, match="a diagonal is r\\+c=K or r-c=K, got 'r\\*c'"):
        diagonal(4, "r*c", 1)
