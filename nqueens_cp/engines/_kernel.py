"""The bitmask counting loop, compiled to machine code with llvmlite.

:func:`count_masks` is the loop in Python.  :data:`_IR` is the same loop,
line for line, in LLVM's assembly language; llvmlite (the extra ``fast``)
turns it into machine code for this CPU when the module is imported and
:data:`compiled` calls it through ctypes.  Without llvmlite, or with
``NQUEENS_CP_NO_JIT=1``, ``compiled`` is None and the engine counts in plain
Python (slower, same answer).

Why not numba, the usual route: loading numba and its cached machine code
took 0.8 s in every process here, more than the whole count of N=14; parsing
and compiling this loop takes about 0.01 s and llvmlite's import 0.05 s, so
nothing is worth caching between processes.  The loop runs at the speed of
the gcc -O2 reference in benchmarks/nqueens.c.
"""

from __future__ import annotations

import ctypes
import os
import warnings
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any


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


# count_masks in LLVM IR: i64 for every int (so n <= 62), ptr for every list.
# The phi nodes at %loop carry row, total and nodes around the while loop.
_IR = r"""
define i64 @count_masks(i64 %n, ptr %allowed, ptr %cols, ptr %left, ptr %right, ptr %todo, ptr %nodes_out) {
entry:
  %one_past_full = shl i64 1, %n
  %full = sub i64 %one_past_full, 1
  %last = sub i64 %n, 1
  %allowed_0 = load i64, ptr %allowed
  store i64 %allowed_0, ptr %todo
  br label %loop

loop:                                   ; while row >= 0
  %row = phi i64 [0, %entry], [%row_up, %backtrack], [%row, %solution], [%row_down, %descend]
  %total = phi i64 [0, %entry], [%total, %backtrack], [%total_1, %solution], [%total, %descend]
  %nodes = phi i64 [0, %entry], [%nodes, %backtrack], [%nodes_1, %solution], [%nodes_1, %descend]
  %running = icmp sge i64 %row, 0
  br i1 %running, label %next, label %done

next:                                   ; free = todo[row]
  %todo_row = getelementptr i64, ptr %todo, i64 %row
  %free = load i64, ptr %todo_row
  %exhausted = icmp eq i64 %free, 0
  br i1 %exhausted, label %backtrack, label %place

backtrack:                              ; row -= 1
  %row_up = sub i64 %row, 1
  br label %loop

place:                                  ; bit = free & -free; todo[row] = free ^ bit; nodes += 1
  %minus_free = sub i64 0, %free
  %bit = and i64 %free, %minus_free
  %rest = xor i64 %free, %bit
  store i64 %rest, ptr %todo_row
  %nodes_1 = add i64 %nodes, 1
  %at_last = icmp eq i64 %row, %last
  br i1 %at_last, label %solution, label %descend

solution:                               ; total += 1
  %total_1 = add i64 %total, 1
  br label %loop

descend:                                ; the masks of the next row
  %cols_row = getelementptr i64, ptr %cols, i64 %row
  %left_row = getelementptr i64, ptr %left, i64 %row
  %right_row = getelementptr i64, ptr %right, i64 %row
  %cols_above = load i64, ptr %cols_row
  %left_above = load i64, ptr %left_row
  %right_above = load i64, ptr %right_row
  %c = or i64 %cols_above, %bit
  %left_with_bit = or i64 %left_above, %bit
  %left_shifted = shl i64 %left_with_bit, 1
  %ld = and i64 %left_shifted, %full
  %right_with_bit = or i64 %right_above, %bit
  %rd = lshr i64 %right_with_bit, 1
  %row_down = add i64 %row, 1
  %cols_next = getelementptr i64, ptr %cols, i64 %row_down
  %left_next = getelementptr i64, ptr %left, i64 %row_down
  %right_next = getelementptr i64, ptr %right, i64 %row_down
  %todo_next = getelementptr i64, ptr %todo, i64 %row_down
  %allowed_next = getelementptr i64, ptr %allowed, i64 %row_down
  store i64 %c, ptr %cols_next
  store i64 %ld, ptr %left_next
  store i64 %rd, ptr %right_next
  %attacked_cl = or i64 %c, %ld
  %attacked = or i64 %attacked_cl, %rd
  %open = xor i64 %attacked, -1
  %allowed_row = load i64, ptr %allowed_next
  %open_allowed = and i64 %open, %allowed_row
  %free_next = and i64 %open_allowed, %full
  store i64 %free_next, ptr %todo_next
  br label %loop

done:
  store i64 %nodes, ptr %nodes_out
  ret i64 %total
}
"""


def _compile() -> Callable[[int, Sequence[int]], tuple[int, int]] | None:
    """The compiled loop as ``f(n, allowed) -> (solutions, nodes)``, or None without llvmlite."""
    if os.environ.get("NQUEENS_CP_NO_JIT") == "1":
        return None
    try:
        import llvmlite.binding as llvm
    except ImportError:
        return None
    try:
        return _build(llvm)
    except Exception as error:  # an llvmlite too old for this IR, an unknown CPU...
        warnings.warn(f"nqueens_cp: cannot compile the counting loop ({error}); counting in plain Python",
                      RuntimeWarning, stacklevel=2)
        return None


def _build(llvm: Any) -> Callable[[int, Sequence[int]], tuple[int, int]]:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=3)
    module = llvm.parse_assembly(_IR)
    module.verify()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    word = ctypes.c_int64
    words = ctypes.POINTER(word)
    # ctypes releases the GIL for the call, so threads can count in parallel.
    loop = ctypes.CFUNCTYPE(word, word, words, words, words, words, words, words)(
        engine.get_function_address("count_masks"))

    def count(n: int, allowed: Sequence[int]) -> tuple[int, int]:
        if not 1 <= n <= 62 or len(allowed) != n:
            raise ValueError(f"the compiled loop takes 1 <= n <= 62 and n masks, got n={n}, {len(allowed)} masks")
        scratch = [(word * (n + 1))() for _ in range(4)]
        nodes = word()
        total = loop(n, (word * n)(*allowed), *scratch, ctypes.byref(nodes))
        return total, nodes.value

    count.engine = engine  # type: ignore[attr-defined]  # the machine code lives as long as the engine
    return count


compiled = _compile()
