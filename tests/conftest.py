"""One fixture for every engine, derived from the engines' own capabilities; reference sets computed once."""

from __future__ import annotations

import subprocess
import sys
from functools import lru_cache

import pytest

from nqueens_cp import engine_class, get_engine, names
from nqueens_cp.cli.main import main

CLI = [sys.executable, "-m", "nqueens_cp"]

def usable(name: str) -> str:
    """The engine's name, or a skip saying why it is unavailable here."""
    reason = engine_class(name).unavailable_reason()
    if reason:
        pytest.skip(f"engine {name} {reason}")
    return name


@pytest.fixture(params=names(enumerates=True))
def engine_name(request: pytest.FixtureRequest) -> str:
    """Every engine that enumerates (and so counts and cross-checks)."""
    return usable(request.param)


@pytest.fixture
def engine(engine_name: str):
    return get_engine(engine_name)


@pytest.fixture(params=names(solves=True))
def any_engine_name(request: pytest.FixtureRequest) -> str:
    """Every engine that solves, those that only find one solution included."""
    return usable(request.param)


@pytest.fixture(params=[*((name, False) for name in names(enumerates=True)),
                        *((name, True) for name in names(option="symmetry_breaking"))],
                ids=lambda p: p[0] + ("+sb" if p[1] else ""))
def variant(request: pytest.FixtureRequest):
    """Every enumerating engine, and those with symmetry breaking with it on."""
    name, sb = request.param
    usable(name)
    return get_engine(name, **({"symmetry_breaking": True} if sb else {}))


def affordable(engine: str, n: int, seconds: float = 0.5) -> None:
    """Skip a test that would enumerate N with a slow engine for longer than
    ``seconds`` (by the engine's own rate); smaller N cover that engine."""
    from nqueens_cp import TOTAL

    rate = engine_class(engine).enumeration_rate
    if rate and TOTAL.get(n, 0) / rate > seconds:
        pytest.skip(f"engine {engine} would take about {TOTAL[n] / rate:.0f} s for N={n}; smaller N cover it")


@lru_cache(maxsize=None)
def reference(n: int, fixed: tuple[tuple[int, int], ...] = ()) -> frozenset[tuple[int, ...]]:
    """The oracle's solution set: the textbook backtracker."""
    return frozenset(get_engine("backtrack").search(n, dict(fixed)))


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process: (exit code, stdout, stderr)."""

    def run(*argv: object) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def run_process(*argv: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """The CLI as a real process."""
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=timeout, **kwargs)
