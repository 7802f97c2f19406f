"""The registry itself: each engine's name and where its class lives, the
defaults, and the class loaded on first use.  It imports no engine module
(what an engine can do is its class's data, read once it is loaded): the
engines' own rooms, capabilities.py included, may read it without a circle."""

from __future__ import annotations

import functools
from importlib import import_module
from typing import TYPE_CHECKING

from ..errors import InvalidInputError

if TYPE_CHECKING:
    from .base import Engine

# name -> "module:Class", in the order engines are listed and cross-checked.
_REGISTRY: dict[str, str] = {
    "backtrack": "nqueens_cp.engines.backtrack:BacktrackEngine",
    "bitmask": "nqueens_cp.engines.bitmask:BitmaskEngine",
    "cpsat": "nqueens_cp.engines.cpsat:CpSatEngine",
    "sat": "nqueens_cp.engines.sat:SatEngine",
    "asp": "nqueens_cp.engines.asp:AspEngine",
    "minizinc": "nqueens_cp.engines.minizinc:MiniZincEngine",
    "smt": "nqueens_cp.engines.smt:SmtEngine",
    "cpmpy": "nqueens_cp.engines.cpmpy:CpmpyEngine",
    "modelcount": "nqueens_cp.engines.modelcount:ModelCountEngine",
    "gpu": "nqueens_cp.engines.gpu:GpuEngine",
    "scan": "nqueens_cp.engines.tutorial:ScanEngine",
    "copy": "nqueens_cp.engines.tutorial:CopyEngine",
    "undo": "nqueens_cp.engines.tutorial:UndoEngine",
    "iterative": "nqueens_cp.engines.tutorial:IterativeEngine",
    "generator": "nqueens_cp.engines.tutorial:GeneratorEngine",
    "nested": "nqueens_cp.engines.tutorial:NestedEngine",
    "construct": "nqueens_cp.engines.construct:ConstructEngine",
    "minconflicts": "nqueens_cp.engines.minconflicts:MinConflictsEngine",
}

ENGINE_NAMES: tuple[str, ...] = tuple(_REGISTRY)

# The default: exact, dependency-free and the fastest enumerator at every N
# people run interactively; it starts in well under a second because it needs
# neither OR-Tools (~0.5 s to import) nor python-sat.
DEFAULT_ENGINE = "bitmask"
# The default of solve: CP-SAT answers completion questions fastest, and proves "none".
DEFAULT_SOLVE_ENGINE = "cpsat"


def engine_class(name: str) -> type[Engine]:
    """The class registered as ``name``, its module imported on first use."""
    if not isinstance(name, str) or name not in _REGISTRY:
        raise InvalidInputError(f"unknown engine {name!r} (choose from {', '.join(ENGINE_NAMES)})")
    return _load(name)


@functools.cache
def _load(name: str) -> type[Engine]:
    module, cls = _REGISTRY[name].split(":")
    return getattr(import_module(module), cls)
