"""Counts you do not have to trust: a certificate for every count and
enumeration of the CNF, and a checker that needs none of the producer's code.

**Producing** (:func:`certify`).  The CNF F of the question (any variant that
places pieces, pre-placed queens, blocked squares, any encoding) is
enumerated with blocking clauses over the cells, as the ``sat`` engine does,
on CaDiCaL with its DRAT proof logging on (and the inprocessing that would
bring deleted clauses back off: :data:`PROOF_SAFE`).  The k boards found
are written one a line as they come, and after the last call, which finds
no more, the solver's proof.  The last call proves F ∧ ¬B₁ ∧ … ∧ ¬B_k
unsatisfiable; the proof also holds every clause learnt on the way, each
derived from F and the blocking clauses of its time, so it refutes the
whole formula.

**Checking** (:func:`verify`), trusting nothing in the directory:

1. the manifest names every file with its size and SHA-256: each is there
   and unchanged (a certificate is written in a temporary directory and
   renamed whole: a missing manifest is a certificate never finished);
2. F is made again from the question, with this package's encoder, and
   must be the file byte for byte;
3. every board passes the independent validator (``Variant.is_solution``,
   which no engine uses) and keeps the question's placements and blocked
   squares; no board comes twice;
4. every board is a model of F: its cells fixed, a SAT solver (MiniSat, not
   the CaDiCaL that made the proof) completes the auxiliary variables, and
   the full assignment is checked clause by clause by substitution here (a
   solver's "satisfiable" is not trusted either);
5. drat-trim checks the proof against F plus one blocking clause a board.

Then F has exactly k models on the cells.  The symmetry classes follow from
the boards by canonical form, with no symmetry breaking in the solver.
What is trusted: that the encoder states the question (the cross-checks
against every other paradigm and OEIS cover it, and step 2 ties the file to
it), drat-trim, the validator, and this checker.  docs/certificates.md says
more.  :mod:`.make` makes certificates (:mod:`.make_optimum` of an optimum),
:mod:`.check` checks them (:mod:`.check_optimum`; :mod:`.evidence` the checks
both run), and :mod:`.format` is what the producer and the checker share.
"""

from __future__ import annotations

from .check import Verification, verify
from .format import BOARDS, FILES, FORMAT, FORMULA, LRAT, MANIFEST, OPTIMUM_FILES, PROOF, QUESTION, WITNESS
from .make import PROOF_SAFE, SOLVER, Certified, certify
from .make_optimum import CertifiedOptimum, certify_optimum

__all__ = ["BOARDS", "FILES", "FORMAT", "FORMULA", "LRAT", "MANIFEST", "OPTIMUM_FILES", "PROOF", "PROOF_SAFE",
           "QUESTION", "SOLVER", "WITNESS", "Certified", "CertifiedOptimum", "Verification", "certify",
           "certify_optimum", "verify"]
