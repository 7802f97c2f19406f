"""Estimates a note gives before long work: how many boards N has (A000170,
published or extrapolated, in logarithms) and how long a time reads.  A low
room beside the published totals: the plan's advice, a certificate's and a
sample's notes all read it, and it reads nothing of theirs."""

from __future__ import annotations

import math

from .known import TOTAL

# Estimated work beyond a minute gets a note that says how long, before it starts: a default
# that cannot answer in seconds says so (count 22's 26 minutes included, not only the hopeless).
LONG_SECONDS = 60.0


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
    """A time given as log10 of its seconds, in the unit a person reads it in:
    "about 26 minutes", "about 1.5 hours", "about 3 days", "about 2.4e+08 years"."""
    for unit, size, decimals in (("years", 365.25 * 86400, True), ("days", 86400, True), ("hours", 3600, True),
                                 ("minutes", 90, False)):  # (from a minute and a half: "about 1 minute" says little)
        log = log_seconds - math.log10(size if unit != "minutes" else 60)
        if log_seconds - math.log10(size) >= -1e-9:  # (a unit's own size in seconds is that unit: 86,400 is 1 day)
            if log >= 6:
                return f"about {big(log)} {unit}"
            value = 10 ** log
            said = f"{value:.1f}".removesuffix(".0") if decimals and value < 10 else f"{value:,.0f}"
            return f"about {said} {unit[:-1] if said == '1' else unit}"  # (1 hour, not 1 hours)
    said = f"{10 ** log_seconds:.0f}"
    return f"about {said} second{'' if said == '1' else 's'}"
