"""Making a certificate of an optimum: the optimum found and proved by an
engine, the witness written, the CNF of one queen fewer refuted by CaDiCaL's
logged proof (:func:`certify_optimum`).  :mod:`.make` makes the certificates
of counts, and the helpers both use."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from ..model.variants import Variant, get
from .format import (FORMAT, FORMULA, LRAT, MANIFEST, OPTIMUM_FILES, PROOF, PROOF_KINDS, QUESTION, WITNESS,
                     optimum_record, write_cnf)
from .make import SOLVER, copy_proof, describe, keep_lrat, new_directory, partial, publish, write_json

@dataclass(frozen=True)
class CertifiedOptimum:
    """What :func:`certify_optimum` wrote: the optimum and where its certificate is."""

    directory: str
    optimum: Any  # engines.optimum.Optimum: proved, its witness validated
    seconds: float
    proof_bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.optimum.to_dict(), "certificate": self.directory, "certify_seconds": round(self.seconds, 6),
                "proof_bytes": self.proof_bytes}


def certify_optimum(n: int, directory: str | os.PathLike[str], variant: str | Variant = "domination",
                    engine: str = "bitmask", *, time_limit: float | None = None, lrat: bool = False,
                    **options: Any) -> CertifiedOptimum:
    """The fewest queens that answer a domination question, with a
    certificate: the witness (any engine finds it; it is validated, here and
    by :func:`verify`) and a DRAT proof that one queen fewer cannot do it
    (the CNF of :func:`~nqueens_cp.model.domination.fewer`, refuted by
    CaDiCaL).  ``lrat`` as for :func:`certify`.  TimeLimitReached when the
    engine or the proof is not done in ``time_limit`` seconds; then no
    certificate."""
    from pysat.solvers import Solver

    from ..engines import get_engine
    from ..engines.sat import run_solver
    from ..execution import execute
    from ..model.domination import fewer

    variant = get(variant)
    if not variant.optimizes:
        raise InvalidInputError(f"{variant.title} asks for boards of N queens: use count --certificate")
    target, parent = new_directory(directory)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    start = time.perf_counter()
    found = execute.optimum(get_engine(engine, variant, **options), n, time_limit)
    if not found.proved:
        raise TimeLimitReached(f"no proved optimum within {time_limit:g} s: no certificate")
    size = found.size
    with partial(target, parent) as work:
        nvars, clauses = fewer(n, variant, size - 1)
        write_json(work / QUESTION, optimum_record(n, variant, size))
        (work / WITNESS).write_text("".join(f"{r} {c}\n" for r, c in found.queens), encoding="ascii")
        write_cnf(work / FORMULA, n, variant, size - 1, nvars, clauses)
        with Solver(name=SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
            if run_solver(solver, deadline):
                raise NQueensError(f"engine {engine} said {size} queens are the fewest for {variant.title} of "
                                   f"N = {n}, but {size - 1} do: a defect of the engine")
            copy_proof(solver, work / PROOF)
        if lrat:
            keep_lrat(work / FORMULA, work)
        names = OPTIMUM_FILES + ((LRAT,) if lrat else ())
        write_json(work / MANIFEST, {"format": FORMAT, "kind": "optimum", "optimum": size, "solver": SOLVER,
                                      "proof": PROOF_KINDS[lrat], "files": {name: describe(work / name) for name in names}})
        publish(work, target)
    return CertifiedOptimum(str(target), found, time.perf_counter() - start, (target / PROOF).stat().st_size)
