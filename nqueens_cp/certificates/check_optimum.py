"""Checking a certificate of an optimum (queen domination and its kin): the
files, the question, the witness (k distinct squares that answer it,
through the validator), the CNF of k - 1 queens made again and equal, and
its refutation.  :func:`.check.verify` hands an optimum's certificate here."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..errors import InvalidInputError
from ..model.variants import Variant, get
from .evidence import bounded, check_hashes, check_proof_kind, made_again, read_json, refutes
from .format import Refused as _Refused
from .format import FORMULA, LRAT, OPTIMUM_FILES, QUESTION, WITNESS, optimum_record, write_cnf

def check_optimum(root: Path, manifest: dict[str, Any], details: dict[str, Any],
                   timeout: float | None) -> tuple[int, Variant, int]:
    """A certificate of an optimum k: the files; the question; the witness,
    k distinct squares that answer it (the validator); the CNF of k - 1
    queens made again and equal; its refutation by drat-trim."""
    from ..model.domination import fewer

    check_hashes(root, manifest, OPTIMUM_FILES, (LRAT,))
    check_proof_kind(manifest)
    record = read_json(root / QUESTION, "the question")
    try:
        n, size, name, spec = record["n"], record["optimum"], record["variant"], record["family"]
        variant = get(name)
        if not variant.optimizes or variant.spec != spec or type(n) is not int or n < 1 or \
                type(size) is not int or size < 1:
            raise ValueError("not a domination question of this package")
    except (KeyError, TypeError, ValueError, InvalidInputError) as error:
        raise _Refused(f"{QUESTION}: not a question ({error})") from None
    if optimum_record(n, variant, size) != record or manifest.get("optimum") != size:
        raise _Refused(f"{QUESTION}: not a question as this package states one, or not the manifest's optimum")
    try:
        witness = [tuple(int(word) for word in line.split()) for line in
                   (root / WITNESS).read_text(encoding="ascii").splitlines()]
    except (ValueError, UnicodeDecodeError):
        raise _Refused(f"{WITNESS}: not squares (row and column in whole numbers, one a line)") from None
    if len(witness) != size or any(len(square) != 2 for square in witness) or \
            not variant.is_dominating([(square[0], square[1]) for square in witness], n):
        raise _Refused(f"{WITNESS}: not {size} distinct squares whose queens answer {variant.title} on N = {n}")
    bounded(root, n)
    made_again(root, lambda stream: write_cnf(stream, n, variant, size - 1, *fewer(n, variant, size - 1)),
                f"the CNF of {size - 1} queens")
    proof = time.perf_counter()
    refutes(root / FORMULA, root, f"{size - 1} queens", timeout, LRAT in manifest["files"])
    details["checkers"] = ["drat-trim", "lrat-check"] if LRAT in manifest["files"] else ["drat-trim"]
    details["drat_trim_s"] = round(time.perf_counter() - proof, 6)
    details.update(n=n)
    return n, variant, size
