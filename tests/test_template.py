"""The engine template (nqueens_cp/engines/TEMPLATE.py) is a working engine:
registered the way a new one is (one line in the registry), it passes the
checks every engine passes, from the command line too."""

from __future__ import annotations

import pytest

import nqueens_cp as nq
from conftest import expected, reference
from nqueens_cp import engines
from nqueens_cp.errors import InvalidInputError
from nqueens_cp.model.position import Position

NAME = "template"


@pytest.fixture
def registered(monkeypatch):
    """The template, as the registry's last line."""
    from nqueens_cp.engines import registry

    monkeypatch.setitem(registry._REGISTRY, NAME, "nqueens_cp.engines.TEMPLATE:TemplateEngine")
    monkeypatch.setattr(engines, "ENGINE_NAMES", (*engines.ENGINE_NAMES, NAME))
    monkeypatch.setattr(registry, "ENGINE_NAMES", engines.ENGINE_NAMES)
    return NAME


def test_it_counts_and_lists_exactly_what_the_oracle_does(registered) -> None:
    for n in range(1, 10):
        assert nq.count(n, registered) == nq.TOTAL[n]
    for n in range(1, 9):
        boards = list(nq.solutions(n, registered))
        assert len(boards) == len(set(boards)) and frozenset(boards) == reference(n)
        assert all(nq.is_solution(board, n) for board in boards)


def test_it_keeps_placements_blocked_squares_limits_and_time_limits(registered) -> None:
    placed = Position({0: 1}, [(3, 0), (2, 4)])
    assert frozenset(nq.solutions(8, registered, placed)) == expected(8, placed)
    assert len(list(nq.get_engine(registered).search(8, limit=5))) == 5
    search = nq.get_engine(registered).search(16, time_limit=0.2)
    with pytest.raises(nq.TimeLimitReached):
        search.count()
    assert search.timed_out


def test_it_solves_and_proves_none(registered) -> None:
    solved = nq.solve(10, registered, {0: 0})
    assert solved.status is nq.Status.SOLVED and solved.solution[0] == 0 and nq.is_solution(solved.solution, 10)
    assert nq.solve(3, registered).status is nq.Status.NONE
    assert nq.solve(8, registered, {0: 0, 1: 1}).status is nq.Status.NONE  # (the placements alone)


def test_it_refuses_what_it_cannot_state_in_one_line(registered) -> None:
    with pytest.raises(InvalidInputError, match="engine template does not answer toroidal .*: it cannot express"):
        nq.get_engine(registered, "toroidal")
    with pytest.raises(InvalidInputError, match="engine template has no option 'seed'"):
        nq.engines.engine_class(registered)(seed=1)


def test_the_command_line_takes_it_from_the_registry(registered, cli) -> None:
    assert registered in nq.names(group="field", enumerates=True)
    code, out, err = cli("count", "8", "-e", registered)
    assert (code, out) == (0, "92\n"), err
    code, out, _ = cli("engines")
    assert code == 0 and any(line.startswith(registered + " ") for line in out.splitlines())
    code, out, err = cli("crosscheck", "1-7", "--engines", f"backtrack,{registered}")
    assert code == 0 and "agree" in err
    code, out, err = cli("count", "6", "-e", registered, "--variant", "toroidal")
    assert code == 2 and err.count("\n") == 1 and "does not answer" in err
