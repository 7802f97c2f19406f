"""The bitmask search over sub-boards, in C (``search.c``) with its Python twin.

A sub-board restricts row r's queen to the columns ``allowed[r]`` (bit c:
column c).  Every hand-written search of the package that must be fast runs
here: whole counts (:func:`count`, :func:`count_boards`, plain or by
symmetry classes), the stoppable search that enumerates and decides
(:class:`Walk`), the half-turn check of a count by classes
(:func:`count_half_turn`), and the count by joining quarters
(:func:`join_count`, ``join.c``, its twin :mod:`.twin_join`).

The C code is built by ``pip install`` as the extension module
``nqueens_cp.kernel._search``.  Where it was not built (no C compiler at
install), or a board has more than 62 rows (64-bit words), the same searches
run in :mod:`.twin`, the plain-Python specification the C code is tested
against: the same answers, tens of times slower; the first search says so
once (:class:`SlowSearchWarning`).  ``NQUEENS_CP_KERNEL=python`` forces the
twin (tests and benchmarks compare the two).

Each search has its face beside its C file and twin: :mod:`.search`
(``search.c``, :mod:`.twin`), :mod:`.join`, :mod:`.domination`
(``dominate.c``), :mod:`.decide` and :mod:`.repair`; :mod:`.loader` loads
the compiled module (or warns once that the twin runs).  This package
exposes them all under one name: ``kernel.count``, ``kernel.Decision``...
"""

from __future__ import annotations

from . import twin, twin_decide, twin_join, twin_repair  # noqa: F401 (kernel.twin_join, ...)
from .decide import Decision
from .domination import DOMINATE_MAX_N, dominate
from .join import (JOB_WORDS, JOIN_MAX_N, TASK_WORDS, Joined, Listed, Tasks, join_costs, join_count, join_kept, join_list,
                   join_loops, join_release, join_row_sets, join_table_entries, join_table_size, join_tasks,
                   join_telling_bits)
from .loader import MAX_N, SlowSearchWarning, compiled, kind
from .loader import chosen as _chosen, module as _module  # noqa: F401 (the tests' handles)
from .repair import LAZY_BOARD_N, REPAIR_MAX_N, TWIN_SLICE, Repair, repair_bytes
from .search import (HALF_TURN_MAX_N, OFFSET_COLUMNS, OFFSET_ROWS, FamilyWalk, Tallies, Walk, count, count_boards,
                     count_half_turn, expand, family_words)

__all__ = ["DOMINATE_MAX_N", "HALF_TURN_MAX_N", "JOIN_MAX_N", "LAZY_BOARD_N", "MAX_N", "OFFSET_COLUMNS", "OFFSET_ROWS",
           "REPAIR_MAX_N", "TWIN_SLICE", "Decision", "FamilyWalk", "Joined", "Repair", "SlowSearchWarning", "Tallies",
           "Walk", "compiled", "count", "count_boards", "count_half_turn", "dominate", "expand", "family_words",
           "join_costs", "join_count", "join_kept", "join_list", "join_loops", "join_release", "join_row_sets", "JOB_WORDS", "Listed", "TASK_WORDS", "Tasks", "join_tasks",
           "join_table_entries", "join_table_size", "join_telling_bits", "kind", "repair_bytes"]
