"""The N-queens model in the formats the rest of the field reads.

One question (N, pre-placed queens, blocked squares) written for each kind
of solver: MiniZinc (a model, ``.mzn``, and its data, ``.dzn``), answer set
programming (``.lp``, clingo/gringo), SMT-LIB 2 (``.smt2``), pseudo-Boolean
constraints (``.opb``, the PB competition format) and XCSP3 (``.xml``), next
to DIMACS CNF (:mod:`nqueens_cp.model.dimacs`).

Each writer is a pure function that yields the file's text in pieces, so a
huge N streams to disk in bounded memory, and the same question always gives
the same bytes.  Rows and columns are 0-based in every format, as in the
rest of the package: in a model with integer variables, ``q[r]`` (or ``q_r``)
is the column of the queen in row r; in a model over Boolean cells, cell
(r, c) is variable ``r*N + c + 1``, as in our DIMACS files.

The engines ``minizinc`` and ``asp`` run the very text written here; ``smt``
runs it too with ``theory="int"``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .board import Placement
from .position import check_placements
from .variants import PLAIN, Lines, Variant

# format name -> (file suffix, what it is); the order of ``model --help``.
FORMATS: dict[str, tuple[str, str]] = {
    "mzn": (".mzn", "MiniZinc model: alldifferent on q[r], q[r]+r, q[r]-r (its data in the .dzn)"),
    "dzn": (".dzn", "MiniZinc data: n, the pre-placed queens and the blocked squares"),
    "lp": (".lp", "answer set program for clingo: a choice rule per row, cardinality constraints"),
    "smt2": (".smt2", "SMT-LIB 2, QF_LIA: one Int per row, three distinct, bounds"),
    "opb": (".opb", "pseudo-Boolean (PB competition format) over the N*N cells: rows and columns = 1, "
                    "diagonals at most 1"),
    "xml": (".xml", "XCSP3: one variable per row, three allDifferent"),
    "cnf": (".cnf", "DIMACS CNF over the N*N cells (the dimacs command, pairwise encoding)"),
}


def format_for(path: str) -> str | None:
    """The format a file name's suffix names (``q8.lp`` -> ``lp``), or None."""
    for name, (suffix, _) in FORMATS.items():
        if path.endswith(suffix):
            return name
    return None


def write(name: str, n: int, placed: Mapping[int, int] | None = None, variant: Variant = PLAIN) -> Iterator[str]:
    """The text of format ``name`` for n-queens with ``placed`` (a mapping of row
    to column, or a :class:`~nqueens_cp.model.position.Position` with blocked squares),
    or for another question of the family (``variant``)."""
    position = check_placements(n, placed)
    if variant.optimizes:
        from .domination import write as write_optimum

        yield from write_optimum(name, n, position, variant)
        return
    if name == "cnf":
        from .cnf import clauses, size
        from .dimacs import header_text
        from .encodings import DEFAULT_ENCODING

        yield from header_text(n, DEFAULT_ENCODING, *size(n, DEFAULT_ENCODING, position, variant=variant), variant)
        for clause in clauses(n, DEFAULT_ENCODING, position, variant=variant):
            yield " ".join(map(str, clause)) + " 0\n"
        return
    writers = {"mzn": _mzn, "dzn": _dzn, "lp": _lp, "smt2": _smt2, "opb": _opb, "xml": _xml}
    yield from writers[name](n, sorted(position.items()), sorted(position.blocked), variant)


def text(name: str, n: int, placed: Mapping[int, int] | None = None, variant: Variant = PLAIN) -> str:
    """:func:`write` as one string (small N: tests, engines)."""
    return "".join(write(name, n, placed, variant))


def _describe(queens: list[Placement], blocked: list[Placement]) -> str:
    said = [f"{len(queens)} pre-placed queen{'s' * (len(queens) != 1)}"] if queens else []
    said += [f"{len(blocked)} blocked square{'s' * (len(blocked) != 1)}"] if blocked else []
    return ", ".join(said) or "no pre-placed queens, no blocked squares"


# --- MiniZinc ---------------------------------------------------------------------------

# The model of the MiniZinc tutorial ("nqueens.mzn"), 0-based, with the
# search annotation the tutorial recommends for it: first_fail on q,
# smallest value first.  The data file says which queens are pre-placed and
# which squares are blocked; the model is the same for every question.
MZN_MODEL = """\
% N-queens: q[r] is the 0-based column of the queen in row r.
% Data (a .dzn): n, the pre-placed queens (placed_row[k], placed_col[k]) and
% the blocked squares (blocked_row[k], blocked_col[k]), all 0-based.
include "alldifferent.mzn";

int: n;
array[int] of int: placed_row;
array[int] of int: placed_col;
array[int] of int: blocked_row;
array[int] of int: blocked_col;

array[0..n-1] of var 0..n-1: q;

{lines}constraint forall(k in index_set(placed_row))(q[placed_row[k]] = placed_col[k]);
constraint forall(k in index_set(blocked_row))(q[blocked_row[k]] != blocked_col[k]);

solve :: int_search(q, first_fail, indomain_min) satisfy;

output ["q = \\(q);\\n"];
"""


# [cost family minizinc]
def _mzn_lines(variant: Variant) -> Iterator[str]:
    """The model's constraints from the family's data: an alldifferent per line
    family (mod n where it wraps), a disequality per offset."""
    for lines in variant.integer_order:
        term = {0: "q[r]", 1: "q[r] + r", -1: "q[r] - r"}[lines.slope]
        if not lines.slope:
            yield "constraint alldifferent(q);\n"
        elif lines.wraps:  # (mod of a negative number is negative in MiniZinc: + n first)
            yield f"constraint alldifferent(r in 0..n-1)(({term}{' + n' * (lines.slope < 0)}) mod n);\n"
        else:
            yield f"constraint alldifferent(r in 0..n-1)({term});\n"
    for dr, dc in variant.offsets:
        yield f"constraint forall(r in 0..n-{dr + 1})(q[r+{dr}] - q[r] != {dc});\n"
# [end cost]


def _mzn(n: int, queens: list[Placement], blocked: list[Placement], variant: Variant) -> Iterator[str]:
    yield MZN_MODEL.replace("{lines}", "".join(_mzn_lines(variant)))


def _dzn(n: int, queens: list[Placement], blocked: list[Placement], variant: Variant) -> Iterator[str]:
    yield f"% N-queens data for the MiniZinc model (nqueens-cp export N --format mzn): {_describe(queens, blocked)}\n"
    yield f"n = {n};\n"
    for name, squares in (("placed", queens), ("blocked", blocked)):
        yield f"{name}_row = [{', '.join(str(r) for r, _ in squares)}];\n"
        yield f"{name}_col = [{', '.join(str(c) for _, c in squares)}];\n"


# --- answer set programming -----------------------------------------------------------------

# The Potassco guide's N-queens encoding (the version with cardinality
# constraints, the fastest of the guide's), 0-based: one queen per row and
# per column by choice rules with bounds, at most one per diagonal by
# integrity constraints.  Only queen/2 is shown, and no other atom varies,
# so every answer set is one board and no projection is needed.
LP_RULES = """\
{ queen(R,0..n-1) } = 1 :- R = 0..n-1.
{ queen(0..n-1,C) } = 1 :- C = 0..n-1.
{lines}:- placed(R,C), not queen(R,C).
:- blocked(R,C), queen(R,C).
#defined placed/2.
#defined blocked/2.
#show queen/2.
"""

# [cost family asp]
# At most one queen on each line of a family beyond the columns (the rows
# are R, so R - C = D on a diagonal and R + C = D on an anti-diagonal).
LP_LINES = {
    (1, False): ":- { queen(D-C,C) } >= 2, D = 0..2*n-2.\n",
    (-1, False): ":- { queen(D+C,C) } >= 2, D = 1-n..n-1.\n",
    (1, True): ":- { queen((D-C+n) \\ n,C) : C = 0..n-1 } >= 2, D = 0..n-1.\n",
    (-1, True): ":- { queen((D+C) \\ n,C) : C = 0..n-1 } >= 2, D = 0..n-1.\n",
}


def _lp_lines(variant: Variant) -> Iterator[str]:
    for lines in variant.integer_order:
        if lines.slope:
            yield LP_LINES[lines.slope, lines.wraps]
    for dr, dc in variant.offsets:
        yield f":- queen(R,C), queen(R+{dr},C{dc:+d}).\n"
# [end cost]


def _lp(n: int, queens: list[Placement], blocked: list[Placement], variant: Variant) -> Iterator[str]:
    yield "% N-queens as an answer set program (clingo): queen(R,C) is the queen of row R, in column C, 0-based.\n"
    yield f"% {_describe(queens, blocked)}; 'clingo 0 FILE' lists every board.\n"
    yield f"#const n = {n}.\n"
    for r, c in queens:
        yield f"placed({r},{c}).\n"
    for r, c in blocked:
        yield f"blocked({r},{c}).\n"
    yield LP_RULES.replace("{lines}", "".join(_lp_lines(variant)))


# --- SMT-LIB 2 ---------------------------------------------------------------------------------

def _smt2(n: int, queens: list[Placement], blocked: list[Placement], variant: Variant) -> Iterator[str]:
    q = [f"q{r}" for r in range(n)]
    yield f"; N-queens in SMT-LIB 2: q<r> is the 0-based column of the queen in row r; {_describe(queens, blocked)}.\n"
    yield "(set-option :produce-models true)\n(set-logic QF_LIA)\n"
    for name in q:
        yield f"(declare-const {name} Int)\n"
    for name in q:
        yield f"(assert (and (<= 0 {name}) (< {name} {n})))\n"
    # [cost family smt]
    if n > 1:  # distinct takes two terms or more
        for lines in variant.integer_order:
            yield f"(assert (distinct {' '.join(_smt2_term(lines, name, r, n) for r, name in enumerate(q))}))\n"
    for dr, dc in variant.offsets:  # no two queens an offset apart (the constant written positive)
        for r in range(n - dr):
            low, high = (r, r + dr) if dc > 0 else (r + dr, r)
            yield f"(assert (distinct (- q{high} q{low}) {abs(dc)}))\n"
    # [end cost]
    for r, c in queens:
        yield f"(assert (= q{r} {c}))\n"
    for r, c in blocked:
        yield f"(assert (not (= q{r} {c})))\n"
    yield f"(check-sat)\n(get-value ({' '.join(q)}))\n(exit)\n"


# [cost family smt]
def _smt2_term(lines: Lines, name: str, r: int, n: int) -> str:
    """Row r's key in a line family: q, (+ q r), (- q r); wrapped, (mod (+ q r) n) and (mod (+ q n-r) n)."""
    if not lines.slope:
        return name
    if not lines.wraps:
        return f"({'+' if lines.slope > 0 else '-'} {name} {r})"
    return f"(mod (+ {name} {r if lines.slope > 0 else n - r}) {n})"
# [end cost]


# --- pseudo-Boolean -----------------------------------------------------------------------------

def _opb(n: int, queens: list[Placement], blocked: list[Placement], variant: Variant) -> Iterator[str]:
    def x(r: int, c: int) -> str:
        return f"x{r * n + c + 1}"

    diagonals = sum(1 for i, line in enumerate(variant.lines(n)) if i >= 2 * n and len(line) > 1)  # two cells or more
    pairs = sum(1 for _ in variant.pairs(n))
    constraints = 2 * n + diagonals + pairs + len(queens) + len(blocked)
    yield f"* #variable= {n * n} #constraint= {constraints}\n"
    what = "N-queens" if variant == PLAIN else variant.title
    yield f"* {what} over the N*N cells, 0-based: cell (r, c) is x<r*N + c + 1>; {_describe(queens, blocked)}.\n"
    # The competition format has only >= and =: "at most one" is written
    # as "minus the sum at least minus one".  Rows and columns come first.
    for index, line in enumerate(variant.lines(n)):
        if index < 2 * n:
            yield " ".join(f"+1 {x(r, c)}" for r, c in line) + " = 1 ;\n"
        elif len(line) > 1:
            yield " ".join(f"-1 {x(r, c)}" for r, c in line) + " >= -1 ;\n"
    for (r1, c1), (r2, c2) in variant.pairs(n):
        yield f"-1 {x(r1, c1)} -1 {x(r2, c2)} >= -1 ;\n"
    for r, c in queens:
        yield f"+1 {x(r, c)} = 1 ;\n"
    for r, c in blocked:
        yield f"+1 {x(r, c)} = 0 ;\n"


# --- XCSP3 -----------------------------------------------------------------------------------------

def _xml(n: int, queens: list[Placement], blocked: list[Placement], variant: Variant) -> Iterator[str]:
    yield f"<!-- N-queens in XCSP3: q[r] is the 0-based column of the queen in row r; " \
          f"{_describe(queens, blocked)}. -->\n"
    yield '<instance format="XCSP3" type="CSP">\n  <variables>\n'
    yield f'    <array id="q" size="[{n}]"> 0..{n - 1} </array>\n'
    yield "  </variables>\n  <constraints>\n"
    # [cost family xcsp]
    if n > 1:
        for lines in variant.integer_order:
            if not lines.slope:
                yield "    <allDifferent> q[] </allDifferent>\n"
                continue
            terms = (f"{'add' if lines.slope > 0 else 'sub'}(q[{r}],{r})" if not lines.wraps else
                     f"mod(add(q[{r}],{r if lines.slope > 0 else n - r}),{n})" for r in range(n))
            yield f"    <allDifferent> {' '.join(terms)} </allDifferent>\n"
    for dr, dc in variant.offsets:  # no two queens an offset apart (the constant written positive)
        for r in range(n - dr):
            low, high = (r, r + dr) if dc > 0 else (r + dr, r)
            yield f"    <intension> ne(sub(q[{high}],q[{low}]),{abs(dc)}) </intension>\n"
    # [end cost]
    for r, c in queens:
        yield f"    <intension> eq(q[{r}],{c}) </intension>\n"
    for r, c in blocked:
        yield f"    <intension> ne(q[{r}],{c}) </intension>\n"
    yield "  </constraints>\n</instance>\n"


def save(path: str, name: str | None, n: int, placed: Mapping[int, int] | None = None,
         variant: Variant = PLAIN) -> str:
    """Write format ``name`` (None: the one ``path``'s suffix names) to ``path``:
    a regular file atomically, a device or FIFO in place (``files.atomic_write``).
    Returns the format written."""
    from ..errors import InvalidInputError
    from ..files import atomic_write

    chosen = name or format_for(str(path))
    if chosen not in FORMATS:
        known = ", ".join(suffix for suffix, _ in FORMATS.values())
        raise InvalidInputError(f"unknown model format {name!r} (choose from {', '.join(FORMATS)})" if name else
                                f"cannot tell the format from the name {path!r} (one of {known}): give --format")
    pieces = write(chosen, n, placed, variant)  # checks the question before the file is touched
    first = next(pieces, "")

    def put(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(first)
            for piece in pieces:
                handle.write(piece)

    atomic_write(path, put)
    return chosen
