/* gpu.cu: the count by symmetry classes on a GPU, compiled by NVRTC through
 * CuPy (nqueens_cp/counting/gpu.py).  Two kernels, each in launches of its
 * own: count_items searches the items whose solutions are classed by their
 * turns with queens.h's `walk`, the CPU's own (here are only the fetching
 * of work items, n masks each, in the order given, from one atomic counter,
 * where each thread keeps its stack, and the reduction); count_plain counts
 * the rest with a count-only loop of its own (walk_plain, below).
 * tests/c/gpu_on_cpu.cpp runs this file on CPU threads; on an H200
 * count_items gave every published count of N = 1 to 21 (docs/counting.md),
 * and count_plain has not met a device yet (issue 66). */
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

/* The item a thread takes next from the launch's one queue (order[*next],
 * *next moved on), -1 once none is left. */
static __device__ __forceinline__ int take(const int *order, int items, int *next) {
    int taken = atomicAdd(next, 1);
    return taken < items ? order[taken] : -1;
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
    for (int i; (i = take(order, items, next)) >= 0;) {
        fill_masks(n, masks + (long long)i * n, rows);
        walk(n, rows, stack, board, inverse, classify[i], ties[i], 0, 0, ROW_NEW, &t);
    }
    atomicAdd(&totals[0], t.eight);
    atomicAdd(&totals[1], t.four);
    atomicAdd(&totals[2], t.two);
    atomicAdd(&totals[3], t.nodes);
    atomicAdd(&totals[4], t.tied);
}

/* --- The count-only walk of the plain items (issue 66): the items whose
 * solutions need no classing (classify 0: every solution one of a class of
 * 8, those with the last queen on the tie square tallied apart), the shape
 * of ygch/n_queens's loop.  Each step takes one cell, so a warp's lanes step
 * together whatever rows they stand at:
 *
 * - the current row's entry (its attacks and the cells not yet tried) is in
 *   registers; the rows above that still have cells to try are on a stack
 *   in shared memory, one entry a row, pushed when a child is alive and
 *   popped when the current row has none left: at most one store or one
 *   load a step, each one vector access (a warp's lanes at the same level
 *   touch consecutive entries);
 * - a row's number is the number of columns taken, so an entry holds no row
 *   and the stack holds no row that has nothing left to try;
 * - the last row is counted, not searched: its open cells (at most one) are
 *   solutions, and nodes, as the CPU walk counts them;
 * - the item's masks are in shared memory beside the stack;
 * - the tallies are 32-bit within a chunk of at most 2^31 steps, added to
 *   the 64-bit totals after it.
 *
 * Compiled with PLAIN_AHEAD, a child is followed only if the row two below
 * has a cell open whatever the row between takes (QUEENS_AHEAD, as the CPU
 * walk does): then the nodes are the CPU kernel's, node for node.  Without
 * it, fewer operations a step and more steps; which pays is for a device
 * to say (benchmarks/gpu.py). */
struct __align__(16) plain_entry {
    qword cols, left, right, todo;
};

/* An item's row r for the walk: its allowed columns and those no later row
 * allows (struct rowmask, made to be one vector load). */
struct __align__(2 * sizeof(qword)) plain_row {
    qword allowed, needed;
};

/* A row's free cells (queens.h's `restricted`, on these structs). */
QUEENS_FN qword plain_free(struct plain_entry e, struct plain_row m) {
    struct attacks a = {e.cols, e.left, e.right};
    struct rowmask r = {m.allowed, m.needed};
    return restricted(a, r);
}

/* One plain item: its rows rows[r * stride], its stack entries
 * stack[l * stride], l < the levels the launch gave (a saved entry is a row
 * with two cells or more, above the row before the last).  Adds its
 * solutions to t->eight, those with the last queen on `tie` to t->tied,
 * its nodes to t->nodes. */
QUEENS_FN void walk_plain(int n, const struct plain_row *rows, struct plain_entry *stack, int stride, qword tie,
                          struct tallies *t) {
    int last = n - 1, saved = 0;
    struct plain_entry top = {0, 0, 0, 0};
    top.todo = plain_free(top, rows[0]);
    if (last == 0) { /* (N = 1: the first row is the last) */
        t->eight += QUEENS_POPCOUNT(top.todo);
        t->tied += QUEENS_POPCOUNT(top.todo & tie);
        t->nodes += QUEENS_POPCOUNT(top.todo);
        return;
    }
    while (top.todo) {
        unsigned steps = 0, found = 0, tied = 0;
        for (; top.todo && steps < 0x80000000u; steps++) {
            qword bit = top.todo & (0 - top.todo);
            top.todo ^= bit;
            struct plain_entry below = QUEENS_STEP(top, bit);
            int row = QUEENS_POPCOUNT(below.cols);
            below.todo = plain_free(below, rows[row * stride]);
            if (row == last) { /* its open cell, if any, is a solution */
                found += QUEENS_POPCOUNT(below.todo);
                tied += QUEENS_POPCOUNT(below.todo & tie);
                below.todo = 0;
            }
#ifdef PLAIN_AHEAD
            else if (QUEENS_AHEAD(below, rows[(row + 1) * stride].allowed) == 0)
                below.todo = 0;
#endif
            if (below.todo) { /* down: this row saved if it has cells left */
                if (top.todo)
                    stack[saved++ * stride] = top;
                top = below;
            } else if (top.todo == 0 && saved) { /* this row done: up to the last row saved */
                top = stack[--saved * stride];
            }
        }
        t->nodes += (qcount)steps + found;
        t->eight += found;
        t->tied += tied;
    }
}

/* The plain items order[0 .. items-1] (indices into masks and ties), each
 * thread's stack `levels` entries deep.  The block's shared memory holds
 * every thread's stack, then every thread's rows (4 * levels + 2 * n words
 * a thread: counting/gpu.py's plain_words), the threads interleaved entry
 * by entry and row by row. */
extern "C" __global__ void count_plain(int n, int items, int levels, const int *order, const qword *masks,
                                       const qword *ties, unsigned long long *totals, int *next) {
    extern __shared__ qword shared[];
    int stride = blockDim.x;
    struct plain_entry *stack = (struct plain_entry *)shared + threadIdx.x;
    struct plain_row *rows = (struct plain_row *)(shared + 4LL * levels * stride) + threadIdx.x;
    struct tallies t = {0, 0, 0, 0, 0};
    for (int i; (i = take(order, items, next)) >= 0;) {
        struct rowmask made[QUEENS_MAX_N];
        fill_masks(n, masks + (long long)i * n, made);
        for (int r = 0; r < n; r++) { /* into shared memory */
            struct plain_row row = {made[r].allowed, made[r].needed};
            rows[r * stride] = row;
        }
        walk_plain(n, rows, stack, stride, ties[i], &t);
    }
    atomicAdd(&totals[0], t.eight);
    atomicAdd(&totals[3], t.nodes);
    atomicAdd(&totals[4], t.tied);
}
