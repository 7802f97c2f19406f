"""The cross-check must catch every kind of disagreement, not just pass on good engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from nqueens_cp import get_engine
from nqueens_cp.cli import main
from nqueens_cp.crosscheck import check_n
from nqueens_cp.engines import Engine


class Tampered(Engine):
    """The bitmask engine's solutions, altered by ``tamper``."""

    name = "tampered"
    summary = "test double"

    def __init__(self, tamper) -> None:
        self.tamper = tamper

    def _search(self, n, fixed, limit, stats, deadline=None) -> Iterator[tuple[int, ...]]:
        yield from self.tamper(list(get_engine("bitmask").search(n, fixed)))


def engines(tamper) -> dict[str, Engine]:
    return {"backtrack": get_engine("backtrack"), "tampered": Tampered(tamper)}


def test_good_engines_agree() -> None:
    row = check_n(8, {name: get_engine(name) for name in ("backtrack", "bitmask", "cpsat", "sat")})
    assert row.ok and row.known == 92
    assert [r.count for r in row.results] == [92] * 4 and all(r.agrees for r in row.results)


def test_missing_solution_is_named() -> None:
    row = check_n(8, engines(lambda sols: sols[1:]))
    assert not row.ok and not row.results[1].agrees and row.results[0].agrees
    assert "N=8: engine tampered found 91 solutions, the published total is 92" in row.problems
    assert "N=8: engine tampered disagrees with backtrack: 0 4 7 5 2 6 1 3 is found by backtrack but not by tampered" in row.problems


def test_swapped_solution_is_named() -> None:
    # Same count, different set: only an exact comparison sees it.
    row = check_n(8, engines(lambda sols: sols[1:] + [(0, 4, 7, 5, 2, 6, 3, 1)]))
    assert any("disagrees with backtrack" in p for p in row.problems)
    assert any("produced an invalid board: 0 4 7 5 2 6 3 1" in p for p in row.problems)


def test_duplicate_is_named() -> None:
    row = check_n(8, engines(lambda sols: sols[:-1] + [sols[0]]))
    assert "N=8: engine tampered produced 0 4 7 5 2 6 1 3 more than once" in row.problems


def test_count_against_published_total_even_for_the_reference() -> None:
    row = check_n(6, {"tampered": Tampered(lambda sols: sols[:3])})
    assert row.problems[0] == "N=6: engine tampered found 3 solutions, the published total is 4"
    assert "N=6: the orbits of the fundamental solutions are not the full set" in row.problems[1]


def test_cli_exits_1_naming_engine_n_and_solution(capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import nqueens_cp.cli as cli

    real_get_engine = cli.get_engine

    def fake_get_engine(name: str, **options):
        if name == "sat":
            return Tampered(lambda sols: sols[:-1])
        return real_get_engine(name, **options)

    monkeypatch.setattr(cli, "get_engine", fake_get_engine)
    code = main(["crosscheck", "7", "--engines", "backtrack,sat"])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.splitlines()[-1].split()[-1] == "NO"
    assert "N=7: engine sat disagrees with backtrack: 6 4 2 0 5 3 1 is found by backtrack but not by sat" in err
