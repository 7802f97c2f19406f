"""The cross-check must catch every kind of disagreement, not just pass on good engines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from nqueens_cp import get_engine, names
from nqueens_cp.studies.crosscheck import check_n
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
    chosen = names(enumerates=True, available=True)
    row = check_n(8, {name: get_engine(name) for name in chosen})
    assert row.ok and row.known == 92 and len(chosen) >= 2
    assert [r.count for r in row.results] == [92] * len(chosen) and all(r.agrees for r in row.results)


def test_missing_solution_is_named() -> None:
    row = check_n(8, engines(lambda sols: sols[1:]))
    assert not row.ok and not row.results[1].agrees and row.results[0].agrees
    assert "N=8: engine tampered found 91 solutions, the published total is 92" in row.problems
    assert "N=8: engine tampered disagrees with backtrack: 0 4 7 5 2 6 1 3 is found by backtrack but not by tampered" in row.problems


def test_swapped_solution_is_named() -> None:
    # Same count, different set: only an exact comparison sees it.
    row = check_n(8, engines(lambda sols: sols[1:] + [(0, 4, 7, 5, 2, 6, 3, 1)]))
    assert any("disagrees with backtrack" in p for p in row.problems)
    assert any("produced an invalid board: a board is not one of N=8: 0 4 7 5 2 6 3 1" in p for p in row.problems)


def test_duplicate_is_named() -> None:
    row = check_n(8, engines(lambda sols: sols[:-1] + [sols[0]]))
    assert "N=8: engine tampered produced 0 4 7 5 2 6 1 3 more than once" in row.problems


def test_count_against_published_total_even_for_the_reference() -> None:
    row = check_n(6, {"tampered": Tampered(lambda sols: sols[:3])})
    assert row.problems[0] == "N=6: engine tampered found 3 solutions, the published total is 4"
    assert "N=6: the orbits of the fundamental solutions are not the full set" in row.problems[1]


def test_cli_exits_1_naming_engine_n_and_solution(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import nqueens_cp.studies.crosscheck as crosscheck

    real_get_engines = crosscheck.get_engines

    def fake_get_engines(names, **options):
        found = real_get_engines(names, **options)
        found["sat"] = Tampered(lambda sols: sols[:-1])
        return found

    monkeypatch.setattr(crosscheck, "get_engines", fake_get_engines)
    code, out, err = cli("crosscheck", "7", "--engines", "backtrack,sat")
    assert code == 1
    assert out.splitlines()[-1].split()[-1] == "NO"
    assert "N=7: engine sat disagrees with backtrack: 6 4 2 0 5 3 1 is found by backtrack but not by sat" in err


def test_json_report_is_the_table_as_data(cli) -> None:
    import json

    code, out, err = cli("crosscheck", "4-8/2", "--engines", "bitmask,sat", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["engines"] == ["bitmask", "sat"]
    assert [row["n"] for row in report["rows"]] == [4, 6, 8]
    assert [row["unique"] for row in report["rows"]] == [1, 1, 12]
    assert [[r["count"] for r in row["results"]] for row in report["rows"]] == [[2, 2], [4, 4], [92, 92]]


def test_library_call_checks_its_arguments() -> None:
    from nqueens_cp.studies.crosscheck import crosscheck
    from nqueens_cp.errors import InvalidInputError

    report = crosscheck([5, 4], ["bitmask", "sat"], encoding="ladder")
    assert report.ok and [row.n for row in report.rows] == [4, 5]
    for bad in (dict(engines=["sat", "sat"]), dict(engines=["construct"]), dict(engines=["bitmask"], solver="minisat22")):
        with pytest.raises(InvalidInputError):
            crosscheck([4], **bad)


def test_a_hopeless_crosscheck_says_so_before_the_work() -> None:
    from nqueens_cp.studies.crosscheck import crosscheck

    class Told(Exception):
        """Raised by the note: the work after it would take years."""

    notes: list[str] = []

    def notify(note: str) -> None:
        notes.append(note)
        raise Told

    with pytest.raises(Told):
        crosscheck([30], ["bitmask"], notify=notify)
    assert len(notes) == 1 and "N=30 has about" in notes[0] and "years" in notes[0]


@pytest.mark.parametrize("name", names(declarative=True, enumerates=True))
def test_every_declarative_engine_tampered_is_caught(name: str) -> None:
    """Each real engine with one board swapped for a repeat of another (the
    count unchanged, as CP-SAT's multi-worker duplicates were): named."""
    from conftest import usable

    usable(name)
    real = get_engine(name)

    class Repeating(type(real)):  # type: ignore[misc]
        def _search(self, n, fixed, limit, stats, deadline=None):
            found = list(super()._search(n, fixed, limit, stats, deadline))
            yield from found[:-1] + found[:1]

    row = check_n(8, {"backtrack": get_engine("backtrack"), name: Repeating()})
    assert not row.ok and not row.results[1].agrees
    assert any(f"engine {name} produced" in p and "more than once" in p for p in row.problems)
    assert any(f"engine {name} disagrees with backtrack" in p for p in row.problems)


@pytest.mark.parametrize("name", names(counts=True, enumerates=False))
def test_a_tampered_model_counter_is_caught(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import usable

    usable(name)
    engine = get_engine(name)
    real = engine._count_in_child
    monkeypatch.setattr(engine, "_count_in_child", lambda *args: real(*args) + 1)
    row = check_n(6, {"backtrack": get_engine("backtrack"), name: engine})
    assert not row.ok and [r.count for r in row.results] == [4, 5]
    assert f"N=6: engine {name} counted 5 solutions, the published total is 4" in row.problems
    assert f"N=6: engine {name} counted 5 solutions, backtrack listed 4" in row.problems


def test_the_declarative_preset_crosschecks_every_available_declarative_engine(cli) -> None:
    code, out, err = cli("crosscheck", "1-8", "--engines", "declarative")  # (9: the SMT and CPMpy engines, seconds each)
    assert code == 0, err
    header = out.splitlines()[0].split()
    assert header[3:] == ["bitmask", *names(declarative=True, available=True)]
    assert "agree on every N" in err


def test_crosscheck_keeps_a_time_limit_and_says_a_hopeless_range_once(cli) -> None:
    code, out, err = cli("crosscheck", "1-1000000", "--engines", "bitmask,backtrack", "--time-limit", "1")
    assert code == 3 and out.startswith("  N ") and " 1 " in out
    notes = [line for line in err.splitlines() if "note:" in line]
    assert len(notes) == 1 and "larger N asked" in notes[0]  # (it printed 147,858 of them)
    assert "unknown: the time limit of 1 s came at N=" in err and "Traceback" not in err
