"""Loading the compiled search (``nqueens_cp.kernel._search``), or saying once
that the Python twin runs instead; the checks every face of the kernel shares.
The faces (:mod:`.search`, :mod:`.join`, :mod:`.domination`, :mod:`.decide`,
:mod:`.repair`) ask :func:`chosen` which code runs a board."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import struct
import warnings
from array import array
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

MAX_N = 62  # the C searches work on 64-bit words


class SlowSearchWarning(RuntimeWarning):
    """The compiled search is missing here: the Python twin runs instead."""


@functools.cache
def module() -> ModuleType | None:
    if os.environ.get("NQUEENS_CP_KERNEL") == "python":
        return None
    try:
        _check_whole(importlib.util.find_spec("._search", __package__))
        search = importlib.import_module("._search", __package__)
    except ImportError as error:  # (not built: ModuleNotFoundError; built but broken: its reason)
        why = "it was not built at install" if isinstance(error, ModuleNotFoundError) else str(error)
        warnings.warn(f"the compiled search is missing ({why}): searching in plain Python, tens of times slower; "
                      "install a C compiler (e.g. apt install gcc python3-dev) and reinstall nqueens-cp",
                      SlowSearchWarning, stacklevel=3)
        return None
    return search


def _check_whole(spec: Any) -> None:
    """Raise ImportError if the compiled module's file is an ELF file cut
    short: the loader maps it whole, and touching a page past its end kills
    the process (SIGBUS) instead of raising.  Junk or a foreign file the
    loader refuses by itself, cleanly."""
    if spec is None or not spec.origin or not spec.origin.endswith(".so"):
        return  # (not built: the import says so; not ELF: not checked here)
    with open(spec.origin, "rb") as handle:
        head = handle.read(64)
        size = os.fstat(handle.fileno()).st_size
        if head[:4] != b"\x7fELF" or len(head) < 64 or head[4] != 2:
            return  # not a 64-bit ELF file: the loader refuses it
        order = "<" if head[5] == 1 else ">"
        phoff, shoff = struct.unpack_from(order + "QQ", head, 32)
        phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", head, 54)
        end = max(phoff + phentsize * phnum, shoff + shentsize * shnum)
        if phoff and phentsize >= 56 and phoff + phentsize * phnum <= size:
            handle.seek(phoff)
            table = handle.read(phentsize * phnum)
            for i in range(phnum):
                offset, filesz = struct.unpack_from(order + "Q16xQ", table, i * phentsize + 8)  # p_offset, p_filesz
                end = max(end, offset + filesz)
    if end > size:
        raise ImportError(f"{spec.origin} is cut short ({size} of at least {end} bytes): reinstall nqueens-cp")


def chosen(n: int, compiled: bool, max_n: int = MAX_N) -> ModuleType | None:
    """The compiled module for a board of n rows, or None: run the twin."""
    return module() if compiled and n <= max_n else None


def compiled(n: int = 1) -> bool:
    """Whether boards of n rows are searched by the compiled code here."""
    return n <= MAX_N and module() is not None


def kind() -> str:
    """Which search runs here: 'c' or 'python'."""
    return "c" if compiled() else "python"


def words(values: Iterable[int]) -> array:
    return array("q", values)


def check(n: int, allowed: Sequence[int]) -> None:
    if n < 1 or len(allowed) != n:
        raise ValueError(f"a search takes n >= 1 and n masks, got n={n}, {len(allowed)} masks")
