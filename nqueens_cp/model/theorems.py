"""The theorems that say whether boards of a member of the family exist at N,
cited by the members of :data:`~nqueens_cp.model.variants.VARIANTS` (each its
``exists_rule``): functions of a module of their own, so that a question
pickles to a worker process."""

from __future__ import annotations

from math import gcd

# The theorems that say whether boards exist (functions of the module, so that a
# question pickles to a worker process).
def pauls(n: int) -> bool:  # explicit constructions for every other N (Pauls, 1874)
    return n not in (2, 3)


def polya(n: int) -> bool:  # Pólya (1918): toroidal boards exactly when gcd(N, 6) = 1
    return gcd(n, 6) == 1


def bell_stevens(n: int) -> bool:  # none for 2..9; constructions for every N >= 10 (Bell & Stevens, 2009)
    return n == 1 or n >= 10


def always(n: int) -> bool:  # a permutation is a rooks' board
    return True


def odd(n: int) -> bool:  # toroidal semi-queens: the identity's shifts for odd N; none for even N
    return n % 2 == 1
