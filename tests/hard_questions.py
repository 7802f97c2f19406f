"""The suite's own question for each engine (issue 64: it lived on the engine
classes as ``hard_question``, a fixture of the tests, not something the
engine can do): the command and N of a question at the edge of its reach,
one it does not answer within seconds (or, for the engines that answer any
size at once, a huge one).  The time-limit, memory and signal tests ask
every engine its own.

A new engine gets its line here: test_engines holds the keys to the
registry, so the suite fails until it has one.  (The one place in the
tests that names every engine by hand, as the registry does in the
package: test_repo exempts both.)"""

from __future__ import annotations

HARD_QUESTIONS: dict[str, tuple[str, int]] = {
    "backtrack": ("solve", 500),
    "bitmask": ("solve", 5_000),
    "cpsat": ("solve", 3_000),
    "sat": ("solve", 250),
    "asp": ("solve", 150),
    "minizinc": ("solve", 3_000),
    "smt": ("solve", 100),
    "cpmpy": ("count", 16),
    "modelcount": ("count", 60),
    "gpu": ("count", 22),
    "scan": ("solve", 500),
    "copy": ("solve", 200),
    "undo": ("solve", 500),
    "iterative": ("solve", 3_000),
    "generator": ("solve", 500),
    "nested": ("solve", 20),
    "construct": ("solve", 100_000),  # (it answers at once: the largest board the limit tests ask)
    "minconflicts": ("solve", 100_000),  # (likewise)
}
