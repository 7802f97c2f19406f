"""The evidence every certificate is checked on, shared by the checks of a
count (:mod:`.check`) and of an optimum (:mod:`.check_optimum`): the files
named and unchanged (sizes and SHA-256), nothing else in the directory, the
JSON records read, a file made again and compared byte for byte, the board
size bounded before any file is read whole, and a proof that refutes its
formula (drat-trim, and lrat-check on the LRAT form where there is one).
Nothing of the producer (:mod:`.make`) is imported."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..errors import NQueensError
from .format import Refused as _Refused
from .format import BOARDS, FORMULA, LRAT, MANIFEST, PROOF, PROOF_KINDS, QUESTION, read_boards, sha256_of

def check_hashes(root: Path, manifest: dict[str, Any], names: tuple[str, ...], optional: tuple[str, ...] = (),
                  folders: Iterable[str] | None = ()) -> None:
    """The files the manifest describes, each as described, and nothing else
    but ``folders`` (None: a split certificate's, checked with its parts)."""
    files = manifest.get("files")
    if isinstance(files, dict):
        names += tuple(name for name in optional if name in files)
    if not isinstance(files, dict) or sorted(files) != sorted(names):
        raise _Refused(f"{MANIFEST}: it must describe exactly {', '.join(names)}")
    if folders is not None:
        nothing_else(root, {*names, MANIFEST, *folders})
    for name in names:
        path = root / name
        if not path.is_file():  # (a FIFO or a directory in its place was said to be "missing")
            raise _Refused(f"{name} is missing" if not os.path.lexists(path) else f"{name} is not a regular file "
                           f"({_kind(path)}); a certificate holds files")
        said = files[name]
        if not isinstance(said, dict) or path.stat().st_size != said.get("bytes") or sha256_of(path) != said.get("sha256"):
            raise _Refused(f"{name} is not the file the manifest describes (size or SHA-256 differ)")


def _kind(path: Path) -> str:
    """What stands at ``path`` in words, where a file should."""
    import stat

    mode = os.lstat(path).st_mode
    return ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else
            "a symbolic link" if stat.S_ISLNK(mode) else "a device or socket")


def nothing_else(root: Path, listed: set[str]) -> None:
    """Refuse, by name, a file or directory of the certificate that its manifest does not list."""
    extra = sorted(entry.name for entry in root.iterdir() if entry.name not in listed)
    if extra:
        raise _Refused(f"{root.name}/{extra[0]}: not listed in {MANIFEST} (a certificate holds nothing else)")


def check_proof_kind(manifest: dict[str, Any]) -> None:
    """The manifest's proof kind says which proof files there are."""
    lrat = LRAT in manifest["files"]
    if manifest.get("proof") != PROOF_KINDS[lrat]:
        raise _Refused(f"{MANIFEST}: the proof is said to be {manifest.get('proof')!r}, and the files hold "
                       f"{PROOF_KINDS[lrat]!r}")


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="ascii"))
    except FileNotFoundError:
        raise _Refused(f"{path.name} is missing: {what}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _Refused(f"{path.name} cannot be read as JSON ({error})") from None
    except RecursionError:
        raise _Refused(f"{path.name} cannot be read as JSON (nested too deep)") from None


def made_again(root: Path, write: Callable[[Any], Any], what: str) -> None:
    """The certificate's CNF must be what ``write(stream)`` makes from the
    question, byte for byte: compared as it is made, stopping at the first
    byte that differs (nothing is written to disk)."""
    with open(root / FORMULA, "rb") as handle:
        same = _SameAs(handle)
        try:
            write(same)
        except _Differs:
            raise _Refused(f"{FORMULA} is not {what} (made again here, it differs at byte "
                           f"{same.offset + same.where:,})") from None
        if handle.read(1):
            raise _Refused(f"{FORMULA} is not {what} (made again here, it is shorter)")


class _Differs(Exception):
    """The text made again differs from the file."""


class _SameAs:
    """A text stream that compares what is written to it with an open file's bytes."""

    def __init__(self, handle: Any) -> None:
        self.handle, self.offset, self.where = handle, 0, 0

    def write(self, text: str) -> int:
        data = text.encode("ascii")
        found = self.handle.read(len(data))
        if found != data:
            self.where = next((i for i, (a, b) in enumerate(zip(found, data)) if a != b), min(len(found), len(data)))
            raise _Differs
        self.offset += len(data)
        return len(text)


def bounded(root: Path, n: int, count: int | None = None) -> None:
    """What the certificate holds bounds its question before any work: a CNF
    of N has N^2 cells, each in a clause (two bytes at least), and a board of
    the boards file has N columns."""
    size = (root / FORMULA).stat().st_size if (root / FORMULA).is_file() else 0
    if n * n > size:
        raise _Refused(f"{QUESTION}: N = {n:,} has {n * n:,} cells, more than {FORMULA}'s {size:,} bytes can state")
    if count and (root / BOARDS).is_file():
        for number, board in read_boards(root / BOARDS, n):
            if len(board) != n:
                raise _Refused(f"{BOARDS} line {number}: {len(board)} columns, the question's N is {n}")
            break


def refutes(formula: Path, root: Path, what: str, timeout: float | None, lrat: bool) -> None:
    """The proof (and its LRAT form, ``lrat``) refutes ``formula``, or _Refused."""
    from ..model.proofs import check_lrat, check_proof, lrat_refutes

    try:
        check = check_proof(formula, root / PROOF, timeout)
    except NQueensError as error:
        raise _Refused(f"{PROOF}: drat-trim could not check it ({error})") from None
    if check.status == "unchecked":
        raise _Refused(f"{PROOF} was not checked: {check.detail}")
    if not check.verified:
        raise _Refused(f"{PROOF} does not refute {what}: drat-trim says {check.detail}")
    if lrat:
        derived = lrat_refutes(formula, root / LRAT)
        if derived is not None:
            raise _Refused(f"{LRAT} does not refute {what}: {derived}")
        check = check_lrat(formula, root / LRAT, timeout)
        if not check.verified:
            raise _Refused(f"{LRAT} does not refute {what}: lrat-check says {check.detail}")
