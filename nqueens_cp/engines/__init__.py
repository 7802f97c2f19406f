"""The engines, asked by name: the registry's names (:mod:`.registry`, each
class imported only when asked for), and every question put to them here:
:func:`names` by capability, the presets, :func:`get_engine` with its options.

Engine modules import their solver packages (OR-Tools, python-sat) inside
their methods, so reading an engine's capabilities, listing engines and
``--help`` never pay for them.  Every list of engines anywhere in the
package is derived here from the engines' own capabilities (:func:`names`).
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInputError
from .base import Engine, Option, Outcome, Status
from .registry import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, ENGINE_NAMES, load
from .search import Search


def engine_class(name: str) -> type[Engine]:
    """The engine class registered as ``name``, its module imported on first use."""
    cls = load(name)
    if not issubclass(cls, Engine):
        raise TypeError(f"the registry's {name!r} is {cls.__name__}, which does not derive from Engine")
    return cls


def names(*, available: bool | None = None, option: str | None = None, counts: bool | None = None,
          variant: Any = None, **data: Any) -> list[str]:
    """The engines with the given capabilities, in registry order: any of the
    engines' class attributes by name (``enumerates=True``, ``group="classic"``,
    ``instant=False``, ...), and ``available`` (it can run here), ``option``
    (it takes that option), ``counts`` (it counts, by listing or directly),
    ``variant`` (it answers that question).  None: either."""
    data = {key: value for key, value in data.items() if value is not None}
    unknown = sorted(key for key in data if not hasattr(Engine, key))
    if unknown:
        raise InvalidInputError(f"engines have no capability {unknown[0]!r}")
    found = []
    for name in ENGINE_NAMES:
        cls = engine_class(name)
        if any(getattr(cls, key) != value for key, value in data.items()):
            continue
        if variant is not None and not cls.answers(variant):
            continue
        if counts is not None and (cls.enumerates or cls.counts_only) != counts:  # by listing, or directly
            continue
        if available is not None and (cls.unavailable_reason() is None) != available:
            continue
        if option is not None and option not in {o.name for o in cls.options}:
            continue
        found.append(name)
    return found


def all_options() -> dict[str, tuple[Option, list[str]]]:
    """Every engine-specific option, with the engines that take it (for the CLI's flags)."""
    found: dict[str, tuple[Option, list[str]]] = {}
    for name in ENGINE_NAMES:
        for option in engine_class(name).options:
            found.setdefault(option.name, (option, []))[1].append(name)
    return found


def get_engine(name: str = DEFAULT_ENGINE, variant: Any = "queens", **options: Any) -> Engine:
    """An engine by name, for one question of the family (``variant``: a name
    in :data:`nqueens_cp.model.variants.VARIANTS`, plain N-queens by default);
    ``options`` are its own keywords (e.g. ``solver=`` for sat).

    A keyword the engine does not take, or a variant it does not answer,
    raises InvalidInputError naming the engines that do."""
    cls = engine_class(name)
    own = {o.name for o in cls.options}
    for key in options:
        if key not in own:
            option, takers = all_options().get(key, (None, []))
            if option is not None:
                raise InvalidInputError(f"option '{key}' ({option.flag}) applies to the {' and '.join(takers)} engine"
                                        f"{'s' * (len(takers) > 1)}, not {name}")
            raise InvalidInputError(f"unknown option '{key}' for engine {name}"
                                    + (f" (its options: {', '.join(sorted(own))})" if own else " (it takes none)"))
    return cls(variant, **options)


# A word for a set of engines (compare's and crosscheck's --engines), each set read from the
# engines' data (preset): the groups an engine declares, and the paradigms.
PRESETS = {
    "core": "every available core engine that enumerates",
    "classic": "the tutorial backtrackers, with the core engines that enumerate beside them",
    "declarative": f"{DEFAULT_ENGINE} first as the reference, then every available declarative engine",
    "field": "the rest of the declarative field, each available one",
    "teaching": "one engine of every paradigm: the core engines, the first available engine of each other "
                "paradigm, and the engines that answer any size at once (a study keeps those that answer its question)",
}


def preset(name: str) -> list[str]:
    """The engines a preset stands for, from their data."""
    core = names(enumerates=True, available=True, group="core")
    return {"core": lambda: core,
            "classic": lambda: names(group="classic") + core,
            "declarative": lambda: [DEFAULT_ENGINE, *names(declarative=True, available=True)],
            "field": lambda: names(group="field", available=True),
            "teaching": lambda: _one_of_each_paradigm(core)}[name]()


def _one_of_each_paradigm(core: list[str]) -> list[str]:
    chosen = list(core)
    seen = {engine_class(name).paradigm for name in chosen}
    for name in names(available=True, instant=False):
        if engine_class(name).group != "classic" and engine_class(name).paradigm not in seen:
            chosen.append(name)
            seen.add(engine_class(name).paradigm)
    return chosen + [name for name in names(available=True, instant=True) if name not in chosen]


def presets_help() -> str:
    """The presets in words, each with the engines it stands for here (the help of --engines)."""
    return "; ".join(f"{name}: {what} ({', '.join(preset(name)) or 'none here'})" for name, what in PRESETS.items())


def expand_presets(chosen: list[str]) -> list[str]:
    """Engine names with the presets in ``chosen`` replaced by the engines they stand
    for; an engine a preset brings that is named already (or brought by another)
    comes once, in its first place.  (An engine named twice by hand stays twice:
    get_engines refuses it.)"""
    found: list[str] = []
    for name in chosen:
        if name in PRESETS:
            found += [engine for engine in preset(name) if engine not in found and engine not in chosen]
        else:
            found.append(name)
    return found


def get_engines(engines: list[str], variant: Any = "queens", **options: Any) -> dict[str, Engine]:
    """Several engines for one ``variant``, each given the options it takes (``solver=`` goes to
    sat only).  An option that none of them takes, or an engine named twice,
    raises InvalidInputError naming it."""
    for name in engines:
        engine_class(name)
        if engines.count(name) > 1:
            raise InvalidInputError(f"engine {name} is named twice")
    if not engines:
        raise InvalidInputError("no engine named")
    takers = all_options()
    for key in options:
        if key not in takers:
            raise InvalidInputError(f"unknown option '{key}' (engine options: {', '.join(sorted(takers))})")
        option, applies = takers[key]
        if not set(applies) & set(engines):
            raise InvalidInputError(f"option '{key}' ({option.flag}) applies only to the {' and '.join(applies)} "
                                    f"engine{'s' * (len(applies) > 1)}, and none of them is chosen")
    return {name: get_engine(name, variant, **{k: v for k, v in options.items() if name in takers[k][1]})
            for name in engines}


def availability() -> dict[str, str | None]:
    """name -> None if the engine can run here, else the reason it cannot."""
    return {name: engine_class(name).unavailable_reason() for name in ENGINE_NAMES}


__all__ = ["DEFAULT_ENGINE", "DEFAULT_SOLVE_ENGINE", "ENGINE_NAMES", "Engine", "Option", "Outcome", "Search",
           "PRESETS", "Status", "preset", "presets_help", "all_options", "availability", "engine_class", "expand_presets", "get_engine", "get_engines", "names"]
