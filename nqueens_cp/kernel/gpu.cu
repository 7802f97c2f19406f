/* gpu.cu: the count by symmetry classes on a GPU, compiled by NVRTC through
 * CuPy (nqueens_cp/counting/gpu.py).  The search is queens.h's `walk`, the
 * CPU's own; here are only the launch, the fetching of work items (n masks
 * each, in the order given, from one atomic counter), where each thread keeps
 * its stack, and the reduction.  tests/c/gpu_on_cpu.cpp runs this file on
 * CPU threads, and on an H200 it gave every published count of N = 1 to 21
 * (docs/counting.md). */
#include "queens.h"

/* This thread's stack (queens.h, struct stack): its last `hot_rows` rows in
 * the block's dynamic shared memory, hot_rows * ROW_WORDS words a thread, a
 * warp's threads interleaved word by word; the rows above in `cold`. */
static __device__ __forceinline__ struct stack thread_stack(qword *shared, qword *cold, int n, int hot_rows) {
    int warp = threadIdx.x / QUEENS_WARP, lane = threadIdx.x % QUEENS_WARP;
    struct stack s = {cold, shared + (long long)warp * hot_rows * ROW_WORDS * QUEENS_WARP + lane,
                      n > hot_rows ? n - hot_rows : 0};
    return s;
}

/* The items order[0 .. items-1] (indices into masks, ties and classify), in
 * that order (counting/gpu.py's biggest_first: the longest searches first). */
extern "C" __global__ void count_items(int n, int items, int hot_rows, const int *order, const qword *masks,
                                       const qword *ties, const unsigned char *classify,
                                       unsigned long long *totals, int *next) {
    extern __shared__ qword shared[];
    qword cold[QUEENS_MAX_N * ROW_WORDS];
    struct stack stack = thread_stack(shared, cold, n, hot_rows);
    struct rowmask rows[QUEENS_MAX_N];
    qword board[QUEENS_MAX_N];
    int inverse[QUEENS_MAX_N];
    struct tallies t = {0, 0, 0, 0, 0};
    for (;;) {
        int taken = atomicAdd(next, 1);
        if (taken >= items)
            break;
        int i = order[taken];
        fill_masks(n, masks + (long long)i * n, rows);
        walk(n, rows, stack, board, inverse, classify[i], ties[i], 0, 0, ROW_NEW, &t);
    }
    atomicAdd(&totals[0], t.eight);
    atomicAdd(&totals[1], t.four);
    atomicAdd(&totals[2], t.two);
    atomicAdd(&totals[3], t.nodes);
    atomicAdd(&totals[4], t.tied);
}
