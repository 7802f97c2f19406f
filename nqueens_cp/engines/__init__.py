"""The engine registry: name -> engine class, imported only when asked for.

Solver packages (OR-Tools, python-sat) are imported inside the engines'
search methods, so listing engines, ``--help`` and the backtrackers never
pay for them.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..errors import InvalidInputError
from .base import Engine, Search

# name -> "module:Class", in the order engines are listed and cross-checked.
_REGISTRY: dict[str, str] = {
    "backtrack": "nqueens_cp.engines.backtrack:BacktrackEngine",
    "bitmask": "nqueens_cp.engines.bitmask:BitmaskEngine",
    "cpsat": "nqueens_cp.engines.cpsat:CpSatEngine",
    "sat": "nqueens_cp.engines.sat:SatEngine",
}

ENGINE_NAMES: tuple[str, ...] = tuple(_REGISTRY)
# What `solve` takes: the engines, and two methods that find one solution but
# cannot enumerate (see nqueens_cp.solve).  Here so the CLI can list them
# without importing the solve module.
SOLVE_ENGINES: tuple[str, ...] = (*ENGINE_NAMES, "construct", "minconflicts")

# The default: exact, dependency-free and the fastest enumerator at every N
# people run interactively; it starts in well under a second because it needs
# neither OR-Tools (~0.5 s to import) nor python-sat.
DEFAULT_ENGINE = "bitmask"


def engine_class(name: str) -> type[Engine]:
    try:
        module, cls = _REGISTRY[name].split(":")
    except KeyError:
        raise InvalidInputError(f"unknown engine '{name}' (choose from {', '.join(ENGINE_NAMES)})") from None
    return getattr(import_module(module), cls)


def get_engine(name: str = DEFAULT_ENGINE, **options: Any) -> Engine:
    """An engine by name; ``options`` go to its constructor (e.g. ``solver=`` for sat)."""
    return engine_class(name)(**options)


def availability() -> dict[str, str | None]:
    """name -> None if the engine can run here, else the reason it cannot."""
    return {name: engine_class(name).unavailable_reason() for name in ENGINE_NAMES}


__all__ = ["DEFAULT_ENGINE", "ENGINE_NAMES", "Engine", "Search", "availability", "engine_class", "get_engine"]
