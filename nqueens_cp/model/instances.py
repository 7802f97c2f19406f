"""The published instance files of CSPLib problem 079, read as they are.

Gent, Jefferson & Nightingale, "Complexity of n-Queens Completion", JAIR 59
(2017), published two kinds of instances with CSPLib problem 079:

* **completion** files, Essence' parameters with 0-based rows and columns::

      letting n =  40
      letting init =  [[15, 37], [34, 8], ...]

  ``init`` lists the pre-placed queens as [row, column].

* **Excluded Diagonals** files::

      n =  10
      numdiags =  13
      diags =  [[18, 0], [1, 1], [12, 0], ...]

  Each pair [k, type] excludes a whole diagonal: type 1 the squares with
  row + column = k, type 0 those with row - column = k - (n - 1).  An
  instance uses only the first D pairs (0 <= D <= numdiags), so a file and D
  make one instance: D is the caller's to give.

A value may run over several lines.  Anything wrong or missing in a file is
an :class:`InstanceError` that names the file and the line.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .board import Placement
from .position import Position, diagonal
from ..errors import InvalidInputError, NQueensError

COMPLETION, EXCLUDED_DIAGONALS = "completion", "excluded-diagonals"
MAX_BYTES = 10_000_000  # far above any real instance (n = 1000 with every queen placed is 20 kB)
MAX_N = 1_000_000  # the largest board an instance may name (construct's range)
DIAGONALS_MAX_N = 10_000  # the largest Excluded Diagonals instance generated: about 3 minutes (quadratic in N)


class InstanceError(NQueensError):
    """A malformed, truncated or unreadable instance file (the message names
    file and line): a bad input file, exit 1, as for a CNF decode cannot read."""


@dataclass(frozen=True)
class Instance:
    """One problem read from a file: N, the pre-placed queens, the blocked squares."""

    path: str
    kind: str  # COMPLETION or EXCLUDED_DIAGONALS
    n: int
    fixed: dict[int, int] = field(default_factory=dict)
    blocked: frozenset[Placement] = frozenset()
    diagonals: int | None = None  # D: the excluded diagonals used (Excluded Diagonals files)
    available: int | None = None  # numdiags: the excluded diagonals the file lists

    @property
    def name(self) -> str:
        suffix = f" D={self.diagonals}" if self.diagonals is not None else ""
        return f"{Path(self.path).name}{suffix}"

    def position(self) -> Position:
        return Position(self.fixed, self.blocked)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.path, "kind": self.kind, "n": self.n, "diagonals": self.diagonals,
                "placed": [[r, c] for r, c in sorted(self.fixed.items())], "blocked_squares": len(self.blocked)}


_STATEMENT = re.compile(r"\s*(?:letting\s+)?([A-Za-z_]\w*)\s*=\s*(.*)")
_VALUE = re.compile(r"[\d\s,\[\]-]*")


def _statements(path: str, text: str) -> dict[str, tuple[Any, int]]:
    """name -> (value, line of the statement), values parsed as JSON numbers and lists."""
    found: dict[str, tuple[Any, int]] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].split("$", 1)[0]  # Essence' comments start with $
        start = i + 1
        i += 1
        if not line.strip():
            continue
        match = _STATEMENT.fullmatch(line)
        if not match:
            raise InstanceError(f"{path}:{start}: expected 'name = value', got {line.strip()[:60]!r}")
        name, value = match.group(1), match.group(2)
        while value.count("[") > value.count("]") and i < len(lines):  # a list running over lines
            value += " " + lines[i].split("$", 1)[0]
            i += 1
        if value.count("[") != value.count("]"):
            raise InstanceError(f"{path}:{start}: the value of '{name}' is cut off (unbalanced brackets): "
                                "a truncated file?")
        if not value.strip() or not _VALUE.fullmatch(value):
            raise InstanceError(f"{path}:{start}: the value of '{name}' is not a number or a list of numbers")
        try:
            parsed = json.loads(value)
        except RecursionError:
            raise InstanceError(f"{path}:{start}: the value of '{name}' is nested too deep") from None
        except ValueError:
            raise InstanceError(f"{path}:{start}: the value of '{name}' is not a number or a list of numbers") from None
        if name in found:
            raise InstanceError(f"{path}:{start}: '{name}' is given twice (first on line {found[name][1]})")
        found[name] = (parsed, start)
    return found


def _pairs(path: str, name: str, value: Any, line: int) -> list[tuple[int, int]]:
    if not isinstance(value, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in value):
        raise InstanceError(f"{path}:{line}: '{name}' must be a list of [a, b] pairs of integers")
    return [(a, b) for a, b in value]


def parse_instance(path: str, text: str, diagonals: int | None = None, for_all: bool = False) -> Instance:
    """The instance in ``text`` (read from ``path``): see the module's docstring.
    A JSON object (what ``complete generate`` writes) is read too.  ``for_all``:
    ``diagonals`` was given for a whole batch, and a completion file ignores it
    (given for this file alone, it is refused)."""
    if text.lstrip().startswith("{"):
        return _from_json(path, text, None if for_all else diagonals)
    statements = _statements(path, text)
    if "n" not in statements:
        raise InstanceError(f"{path}:{text.count(chr(10)) + 1}: no 'n = ...' in the file: not a prob079 "
                            "instance, or a truncated one")
    n, n_line = statements["n"]
    if type(n) is not int or not 1 <= n <= MAX_N:
        raise InstanceError(f"{path}:{n_line}: n must be an integer from 1 to {MAX_N:,}, got {_clip(n)}")
    if "init" in statements:
        if diagonals is not None and not for_all:
            raise InvalidInputError(f"{path} is a completion instance: --diagonals applies to Excluded "
                                    "Diagonals files only")
        init, line = statements["init"]
        return Instance(path, COMPLETION, n, _queens(f"{path}:{line}", n, _pairs(path, "init", init, line)))
    if "diags" not in statements:
        last = text.count("\n") + 1
        raise InstanceError(f"{path}:{last}: neither 'init' (completion) nor 'diags' (Excluded Diagonals) "
                            "in the file: a truncated file?")
    listed, line = statements["diags"]
    pairs = _pairs(path, "diags", listed, line)
    if "numdiags" in statements:
        numdiags, numdiags_line = statements["numdiags"]
        if numdiags != len(pairs):
            raise InstanceError(f"{path}:{numdiags_line}: numdiags is {numdiags} but 'diags' lists {len(pairs)} "
                                "pairs: a truncated file?")
    if diagonals is None:
        raise InvalidInputError(f"{path} is an Excluded Diagonals instance: say how many of its {len(pairs)} "
                                f"diagonals to use (--diagonals D, 0..{len(pairs)})")
    if type(diagonals) is not int or not 0 <= diagonals <= len(pairs):
        raise InvalidInputError(f"{path}: --diagonals must be 0..{len(pairs)} (the diagonals it lists), "
                                f"got {diagonals!r}")
    for k, kind in pairs:  # every pair of the file, used or not: a file with a wrong one is a wrong file
        if kind not in (0, 1) or not 0 <= k <= 2 * n - 2:
            raise InstanceError(f"{path}:{line}: [{k}, {kind}] is not a diagonal of the {n}x{n} board "
                                f"(k from 0 to {2 * n - 2}, type 0 or 1)")
    blocked: set[Placement] = set()
    for k, kind in pairs[:diagonals]:
        blocked.update(diagonal(n, "r+c", k) if kind == 1 else diagonal(n, "r-c", k - (n - 1)))
    return Instance(path, EXCLUDED_DIAGONALS, n, {}, frozenset(blocked), diagonals, len(pairs))


def _clip(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


def _from_json(path: str, text: str, diagonals: int | None) -> Instance:
    """A completion instance as ``complete generate`` writes it: {"n": N,
    "placed": [[row, column], ...]} (other keys are ignored)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InstanceError(f"{path}:{getattr(error, 'lineno', 1)}: not a JSON instance "
                            f"({str(error).split(':')[0] if isinstance(error, ValueError) else 'nested too deep'})"
                            ) from None
    n = data.get("n") if isinstance(data, dict) else None
    if type(n) is not int or not 1 <= n <= MAX_N:
        raise InstanceError(f"{path}: a JSON instance needs \"n\": an integer from 1 to {MAX_N:,}, got {_clip(n)}")
    if diagonals is not None:
        raise InvalidInputError(f"{path} is a completion instance: --diagonals applies to Excluded "
                                "Diagonals files only")
    return Instance(path, COMPLETION, n, _queens(path, n, _pairs(path, "placed", data.get("placed", []), 1)))


def _queens(where: str, n: int, pairs: list[tuple[int, int]]) -> dict[int, int]:
    """A completion instance's pre-placed queens, row -> column, on the board
    and one to a row (the same queen given twice is one queen)."""
    fixed: dict[int, int] = {}
    for r, c in pairs:
        if not (0 <= r < n and 0 <= c < n):
            raise InstanceError(f"{where}: queen [{r}, {c}] is off the {n}x{n} board")
        if r in fixed and fixed[r] != c:
            raise InstanceError(f"{where}: two queens in row {r} ([{r}, {fixed[r]}] and [{r}, {c}])")
        fixed[r] = c
    return fixed


def read_instance(path: str | Path, diagonals: int | None = None, for_all: bool = False) -> Instance:
    """Read one prob079 instance file (``diagonals``: D, for Excluded Diagonals files;
    ``for_all``: given for a batch, which a completion file ignores)."""
    path = str(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO with no writer would block the read for ever
            raise InstanceError(f"cannot read {path}: not a regular file (a prob079 instance is a file)")
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise InstanceError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_BYTES:
        raise InstanceError(f"{path}: more than {MAX_BYTES // 1_000_000} MB: not a prob079 instance")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise InstanceError(f"{path}:{line}: not text (bytes that are not UTF-8)") from None
    return parse_instance(path, text, diagonals, for_all)


def generate_excluded_diagonals(n: int, min_in_file: int = 4, seed: int = 0) -> list[tuple[int, int]]:
    """The [k, type] pairs of an Excluded Diagonals instance, by the rules of
    the authors' generator (CSPLib prob079, ``data/queens-diag-gen.py n
    mininfile seed``), written here: every diagonal of both directions, in a
    random order, is excluded unless that would leave a row or a column with
    ``min_in_file`` or fewer open squares.  With the same Python ``random``
    calls in the same order, the same (n, min_in_file, seed) gives the file
    the authors' script gives (the published sample is regenerated by a test).
    """
    import random

    if type(n) is not int or not 1 <= n <= DIAGONALS_MAX_N:
        raise InvalidInputError(f"N must be from 1 to {DIAGONALS_MAX_N:,} for an Excluded Diagonals instance (the "
                                f"generator tries each of its 4N diagonals against its lines: 1.4 s at N = 1,000, "
                                f"30 s at 4,000 here), got {n!r}")
    if type(min_in_file) is not int or min_in_file < 0:
        raise InvalidInputError(f"min_in_file must be a whole number, got {min_in_file!r}")
    rng = random.Random(seed)
    sums, differences = list(range(2 * n - 1)), list(range(2 * n - 1))
    rng.shuffle(sums)
    rng.shuffle(differences)
    open_in_row, open_in_column = [n] * n, [n] * n
    closed_sum, closed_difference = [False] * (2 * n - 1), [False] * (2 * n - 1)
    pairs: list[tuple[int, int]] = []
    while sums or differences:
        if sums and differences:
            is_sum = rng.randrange(-1, 2, 2) == 1
        else:
            is_sum = bool(sums)
        k = sums.pop() if is_sum else differences.pop()  # k of a difference diagonal: r - c + n - 1
        squares = diagonal(n, "r+c", k) if is_sum else diagonal(n, "r-c", k - (n - 1))
        still_open = [(r, c) for r, c in squares if not closed_sum[r + c] and not closed_difference[r - c + n - 1]]
        if any(open_in_row[r] <= min_in_file or open_in_column[c] <= min_in_file for r, c in still_open):
            continue
        for r, c in still_open:
            open_in_row[r] -= 1
            open_in_column[c] -= 1
        (closed_sum if is_sum else closed_difference)[k] = True
        pairs.append((k, 1 if is_sum else 0))
    return pairs


def excluded_diagonals_text(n: int, pairs: list[tuple[int, int]]) -> str:
    """An Excluded Diagonals file, in the published layout."""
    listed = ", ".join(f"[{k}, {kind}]" for k, kind in pairs)
    return f"n =  {n}\nnumdiags =  {len(pairs)}\ndiags =  [{listed}]\n"
