"""The registry itself: each engine's name and where its class lives, the
defaults, the class loaded on first use, and which engines answer a question.
It imports no engine module, and knows an engine only as its
:class:`~.capabilities.Capabilities` (what it can do is its class's data,
read once it is loaded): ``checks.py`` reads it to name, in a refusal, the
engines that do answer, and ``engines/__init__.py`` gives the loaded class as
the :class:`~.base.Engine` it is.  Nothing here reaches base.py, so nothing
goes round in a circle (tests/test_repo.py holds it, type-only imports
included)."""

from __future__ import annotations

import functools
from importlib import import_module

from ..errors import InvalidInputError
from ..model.variants import Variant
from .capabilities import Capabilities

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


def load(name: str) -> type[Capabilities]:
    """The class registered as ``name``, its module imported on first use
    (:func:`nqueens_cp.engines.engine_class` gives it as the Engine it is)."""
    if not isinstance(name, str) or name not in _REGISTRY:
        raise InvalidInputError(f"unknown engine {name!r} (choose from {', '.join(ENGINE_NAMES)})")
    return _load(name)


def answering(variant: Variant) -> list[str]:
    """The engines, in registry order, that answer ``variant`` (a refusal names them)."""
    return [name for name in ENGINE_NAMES if load(name).answers(variant)]


@functools.cache
def _load(name: str) -> type[Capabilities]:
    module, cls = _REGISTRY[name].split(":")
    loaded = getattr(import_module(module), cls)
    if not (isinstance(loaded, type) and issubclass(loaded, Capabilities)):
        raise TypeError(f"the registry's {name!r} names {_REGISTRY[name]}, which is no engine class")
    return loaded
