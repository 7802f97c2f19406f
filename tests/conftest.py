"""One fixture for every engine; reference solution sets computed once."""

from __future__ import annotations

from functools import lru_cache

import pytest

from nqueens_cp import ENGINE_NAMES, get_engine
from nqueens_cp.engines import engine_class


@pytest.fixture(params=ENGINE_NAMES)
def engine_name(request: pytest.FixtureRequest) -> str:
    reason = engine_class(request.param).unavailable_reason()
    if reason:
        pytest.skip(f"engine {request.param} {reason}")
    return request.param


@pytest.fixture
def engine(engine_name: str):
    return get_engine(engine_name)


@lru_cache(maxsize=None)
def reference(n: int, fixed: tuple[tuple[int, int], ...] = ()) -> frozenset[tuple[int, ...]]:
    """The oracle's solution set: the textbook backtracker."""
    return frozenset(get_engine("backtrack").search(n, dict(fixed)))
