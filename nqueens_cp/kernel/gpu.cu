/* gpu.cu: the count by symmetry classes on a GPU, compiled by NVRTC through
 * CuPy (nqueens_cp/counting/gpu.py).  The search itself is queens.h's `walk`,
 * the very code the CPU kernel runs; only the launch, the fetching of work
 * and the reduction are here.
 *
 * The host splits every sub-board of the count by classes deeper, into work
 * items of n masks each (rows 0 .. depth-1 fixed).  Each thread takes items
 * through one atomic counter until none is left (a long-running kernel: no
 * thread idles while a slow item holds another), searches each to the end,
 * and adds its tallies to the five totals once, at the end.
 *
 * Not done yet (issue 22): the stack in shared memory laid out against bank
 * conflicts (ygch/n_queens), which needs a GPU to measure.
 */
#include "queens.h"

extern "C" __global__ void count_items(int n, int items, const qword *masks, const qword *ties,
                                       const unsigned char *classify, unsigned long long *totals, int *next) {
    struct rowmask rows[QUEENS_MAX_N];
    struct row stack[QUEENS_MAX_N + 1];
    qword board[QUEENS_MAX_N];
    int inverse[QUEENS_MAX_N];
    struct tallies t = {0, 0, 0, 0, 0};
    for (;;) {
        int i = atomicAdd(next, 1);
        if (i >= items)
            break;
        fill_masks(n, masks + (long long)i * n, rows);
        walk(n, rows, stack, board, inverse, classify[i], ties[i], 0, 0, -2, &t);
    }
    atomicAdd(&totals[0], t.eight);
    atomicAdd(&totals[1], t.four);
    atomicAdd(&totals[2], t.two);
    atomicAdd(&totals[3], t.nodes);
    atomicAdd(&totals[4], t.tied);
}
