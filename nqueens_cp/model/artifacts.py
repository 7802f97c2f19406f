"""The checked-in model files of ``models/``, regenerated from code.

Run ``python -m nqueens_cp.model.artifacts [DIR]`` (default ``models``) to rewrite
them; the test suite regenerates them into a temporary folder and asserts
that every file is byte-identical to the checked-in one.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .cnf import encode
from .dimacs import dimacs_text
from .encodings import DEFAULT_ENCODING, ENCODINGS
from .formats import FORMATS, text
from ..errors import NQueensError
from ..files import atomic_write, atomic_write_text

PAIRWISE_SIZES = range(4, 13)
ENCODING_SIZE = 8
CPSAT_SIZE = 8
FORMAT_SIZE = 8


def model_files() -> dict[str, str | tuple[int, str]]:
    """File name -> what it holds: ``(n, encoding)`` for CNF, ``"cpsat"`` for the CP-SAT model,
    a format's name (:data:`formats.FORMATS`) for the other formats."""
    files: dict[str, str | tuple[int, str]] = {f"nqueens-{n:02d}-pairwise.cnf": (n, DEFAULT_ENCODING) for n in PAIRWISE_SIZES}
    files.update({f"nqueens-{ENCODING_SIZE:02d}-{name}.cnf": (ENCODING_SIZE, name) for name in ENCODINGS})
    files[f"nqueens-{CPSAT_SIZE:02d}-cpsat.pbtxt"] = "cpsat"
    files.update({f"nqueens-{FORMAT_SIZE:02d}{suffix}": name for name, (suffix, _) in FORMATS.items() if name != "cnf"})
    return dict(sorted(files.items()))


def write_models(directory: str | Path) -> list[Path]:
    """Write every model file into ``directory``; returns their paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, what in model_files().items():
        path = directory / name
        if what == "cpsat":
            _export_cpsat(CPSAT_SIZE, path)
        elif isinstance(what, str):
            atomic_write_text(path, text(what, FORMAT_SIZE))
        else:
            n, encoding = what
            atomic_write_text(path, dimacs_text(encode(n, encoding)))
        written.append(path)
    return written


def _export_cpsat(n: int, path: Path) -> None:
    from .cpsat import build_model

    model, _ = build_model(n)

    def export(temporary: str) -> None:
        # OR-Tools writes protobuf text when the file name ends in "txt".
        if not model.export_to_file(temporary):
            raise NQueensError(f"OR-Tools could not export the model to {path}")

    atomic_write(path, export)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    for path in write_models(args[0] if args else "models"):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
