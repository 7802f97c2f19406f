/* The shape of our compiled search loop (nqueens_cp/engines/kernel.ll), in C:
 * an explicit stack of four words per row, masks with the generic pruning
 * rule, a node budget, the last row placed with the row above it.  gcc -O2
 * makes of this about 8.4 ns a node here, against 11 for LLVM's code of the
 * IR and 7 for the recursive C class counter: most of our per-node gap is in
 * the code generated, not in the loop's shape (benchmarks/README.md).
 *
 *   gcc -O2 -o kernel_shape kernel_shape.c && time ./kernel_shape 15    -> "2279184 171129071"
 */
#include <stdio.h>
#include <stdlib.h>
typedef long long i64;
static inline i64 restrict_(i64 free, i64 needed, i64 cols) {
    i64 missing = needed & ~cols;
    if (!missing) return free;
    if (missing & (missing - 1)) return 0;
    return free & missing;
}
typedef struct { i64 cols, left, right, todo; } Row;
typedef struct { i64 allowed, needed; } Mask;
__attribute__((noinline)) void count_masks(i64 n, Mask *masks, i64 limit, i64 stop_at, Row *state, i64 *out) {
    i64 full = (1LL << n) - 1, last = n - 1, never = stop_at ? stop_at : -1LL;
    i64 nodes = 0, row = 0;
    state[0].cols = state[0].left = state[0].right = 0;
    state[0].todo = restrict_(masks[0].allowed & full, masks[0].needed, 0);
    while (row >= 0 && (unsigned long long)nodes < (unsigned long long)never) {
        i64 free = state[row].todo;
        if (!free) { row--; continue; }
        i64 bit = free & -free; state[row].todo = free ^ bit; nodes++;
        i64 c = state[row].cols | bit, ld = ((state[row].left | bit) << 1) & full, rd = (state[row].right | bit) >> 1;
        state[row+1].cols = c; state[row+1].left = ld; state[row+1].right = rd;
        i64 f = restrict_(~(c | ld | rd) & masks[row+1].allowed & full, masks[row+1].needed, c);
        if (row + 1 == last) { if (f) { nodes++; out[0]++; if (limit && out[0] >= limit) break; } continue; }
        row++; state[row].todo = f;
    }
    out[3] = nodes; out[4] = row;
}
int main(int argc, char **argv) {
    int n = atoi(argv[1]); Mask m[64]; Row st[65]; i64 out[5] = {0};
    i64 full = (1LL<<n)-1;
    for (int r = 0; r < n; r++) { m[r].allowed = full; m[r].needed = 0; }
    m[n-1].needed = full;
    count_masks(n, m, 0, 0, st, out);
    printf("%lld %lld\n", out[0], out[3]);
}
