"""The bitmask counting loop: one loop, compiled to machine code, with its Python twin as the fallback.

:func:`count_masks` is the loop in Python.  ``kernel.ll`` beside this file
is the same loop, line for line, in LLVM's assembly language; llvmlite (a
dependency of the package) turns it into machine code for this CPU the first
time :func:`count` is called, not at import.  If llvmlite is missing or
cannot compile the loop, or with ``NQUEENS_CP_NO_JIT=1``, :func:`count` runs
:func:`count_masks` instead (same answer, far slower).

Why not numba, the usual route: loading numba and its cached machine code
took 0.8 s in every process here, more than the whole count of N=14; parsing
and compiling this loop takes about 0.01 s and llvmlite's import 0.05 s, so
nothing is worth caching between processes.
"""

from __future__ import annotations

import ctypes
import functools
import os
import warnings
from collections.abc import Callable, MutableSequence, Sequence
from importlib import resources
from typing import Any

MAX_N = 62  # the compiled loop works on 64-bit words


def count_masks(n: int, allowed: Sequence[int], cols: MutableSequence[int], left: MutableSequence[int],
                right: MutableSequence[int], todo: MutableSequence[int]) -> tuple[int, int]:
    """Count placements of n queens, row r restricted to the columns in allowed[r]:
    (solutions, nodes).  cols, left, right and todo are scratch space of n + 1 entries.
    """
    full = (1 << n) - 1
    last = n - 1
    todo[0] = allowed[0]
    total = 0
    nodes = 0
    row = 0
    while row >= 0:
        free = todo[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        todo[row] = free ^ bit
        nodes += 1
        if row == last:
            total += 1
            continue
        c = cols[row] | bit
        ld = ((left[row] | bit) << 1) & full
        rd = (right[row] | bit) >> 1
        row += 1
        cols[row] = c
        left[row] = ld
        right[row] = rd
        todo[row] = ~(c | ld | rd) & allowed[row] & full
    return total, nodes


def ir() -> str:
    """count_masks in LLVM IR, as shipped in kernel.ll."""
    return resources.files(__package__).joinpath("kernel.ll").read_text(encoding="utf-8")


@functools.cache
def compiled() -> Callable[[int, Sequence[int]], tuple[int, int]] | None:
    """The compiled loop as ``f(n, allowed) -> (solutions, nodes)``, built on
    first use and kept for the process; None without a working llvmlite."""
    if os.environ.get("NQUEENS_CP_NO_JIT") == "1":
        return None
    try:
        import llvmlite.binding as llvm
    except ImportError:
        return None
    try:
        return _build(llvm, ir())
    except Exception as error:  # an llvmlite too old for this IR, an unknown CPU...
        warnings.warn(f"nqueens_cp: cannot compile the counting loop ({error}); counting in plain Python",
                      RuntimeWarning, stacklevel=2)
        return None


def count(n: int, allowed: Sequence[int]) -> tuple[int, int]:
    """(solutions, nodes) with row r restricted to allowed[r]: compiled when possible."""
    loop = compiled() if n <= MAX_N else None
    if loop is not None:
        return loop(n, allowed)
    return count_masks(n, allowed, *([0] * (n + 1) for _ in range(4)))


def kind() -> str:
    """Which loop :func:`count` runs here: 'llvm' or 'python'."""
    return "llvm" if compiled() is not None else "python"


def _build(llvm: Any, source: str) -> Callable[[int, Sequence[int]], tuple[int, int]]:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=3)
    module = llvm.parse_assembly(source)
    module.verify()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    word = ctypes.c_int64
    words = ctypes.POINTER(word)
    # ctypes releases the GIL for the call, so threads can count in parallel.
    loop = ctypes.CFUNCTYPE(word, word, words, words, words, words, words, words)(
        engine.get_function_address("count_masks"))

    def run(n: int, allowed: Sequence[int]) -> tuple[int, int]:
        if not 1 <= n <= MAX_N or len(allowed) != n:
            raise ValueError(f"the compiled loop takes 1 <= n <= {MAX_N} and n masks, got n={n}, {len(allowed)} masks")
        scratch = [(word * (n + 1))() for _ in range(4)]
        nodes = word()
        total = loop(n, (word * n)(*allowed), *scratch, ctypes.byref(nodes))
        return total, nodes.value

    run.engine = engine  # type: ignore[attr-defined]  # the machine code lives as long as the engine
    return run
