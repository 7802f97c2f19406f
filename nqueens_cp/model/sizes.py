"""The sizes a command or a call is asked about, as text: ``'8'``, a range
``'1-10'``, a stepped range ``'20-100/20'`` (a SPEC, the same everywhere).
The command line's argument types wrap these (``cli/options.py``); the
library takes the same text (``check(model, "1-8")``)."""

from __future__ import annotations

import re

from ..errors import InvalidInputError

POSITIVE_INT_MAX = 999_999_999  # nine digits: far beyond any N a search or a board can take
SIZES_MAX = 1_000_000  # sizes one SPEC may name: more is a typo, never a study


def positive(text: str) -> int:
    """An integer >= 1 written in decimal digits ('8', not '8.5', '1e3' or '-3')."""
    if re.fullmatch(r"\s*\+?\d{10,}\s*", text):
        raise InvalidInputError(f"must be at most {POSITIVE_INT_MAX:,}, got '{text.strip()}'")
    if not re.fullmatch(r"\s*\+?\d{1,9}\s*", text) or int(text) < 1:
        raise InvalidInputError(f"must be a positive integer, got '{text}'")
    return int(text)


def sizes(text: str) -> list[int]:
    """The sizes a SPEC names, in order."""
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*(?:/\s*(\d+)\s*)?", text)
    if not match:
        return [positive(text)]
    low, high = positive(match.group(1)), positive(match.group(2))
    step = positive(match.group(3)) if match.group(3) else 1
    if low > high:
        raise InvalidInputError(f"range '{text}' runs backwards; write {high}-{low}")
    found = range(low, high + 1, step)
    if len(found) > SIZES_MAX:  # (crosscheck 1-100000000 built a list of them and ran out of memory)
        raise InvalidInputError(f"range '{text}' names {len(found):,} sizes, more than the {SIZES_MAX:,} "
                                "one command takes")
    return list(found)
