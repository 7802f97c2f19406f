/* gpu.cu: the count by symmetry classes on a GPU, compiled by NVRTC through
 * CuPy (nqueens_cp/counting/gpu.py).  The search is queens.h's `walk`, the
 * CPU's own; here are only the launch, the fetching of work items (n masks
 * each, from one atomic counter) and the reduction.  Not yet run on a GPU. */
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
        walk(n, rows, stack, board, inverse, classify[i], ties[i], 0, 0, ROW_NEW, &t);
    }
    atomicAdd(&totals[0], t.eight);
    atomicAdd(&totals[1], t.four);
    atomicAdd(&totals[2], t.two);
    atomicAdd(&totals[3], t.nodes);
    atomicAdd(&totals[4], t.tied);
}
