"""Estimates a note gives before long work: how many boards N has (A000170,
published or extrapolated, in logarithms) and how long a time reads.  A low
room beside the published totals: the plan's advice, a certificate's and a
sample's notes all read it, and it reads nothing of theirs."""

from __future__ import annotations

import math

from .known import TOTAL

HOPELESS_SECONDS = 3600.0  # estimated work beyond this gets a warning note


def log_total(n: int) -> float:
    """log10 of A000170 where published, else extrapolated from its last
    ratio (in logarithms: the number itself overflows a float from N = 329)."""
    if n in TOTAL:
        return math.log10(TOTAL[n]) if TOTAL[n] else -math.inf
    top = max(TOTAL)
    return math.log10(TOTAL[top]) + (n - top) * math.log10(TOTAL[top] / TOTAL[top - 1])


def big(log: float) -> str:
    """A number given as its log10, readably: 14,200 or 2.3e+14 or 1e+1100."""
    if log < 9:
        return f"{10 ** log:,.0f}"
    exponent = math.floor(log)
    return f"{10 ** (log - exponent):.1f}e+{exponent:02d}"


def duration(log_seconds: float) -> str:
    """A time given as log10 of its seconds."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        log = log_seconds - math.log10(size)
        if log >= 0:
            if log >= 6:
                return f"about {big(log)} {unit}"
            said = f"{10 ** log:,.0f}"
            return f"about {said} {unit[:-1] if said == '1' else unit}"  # (1 hour, not 1 hours)
    said = f"{10 ** log_seconds:.0f}"
    return f"about {said} second{'' if said == '1' else 's'}"
