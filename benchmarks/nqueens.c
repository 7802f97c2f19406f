/* Plain C bitmask N-queens counter, the reference for benchmarks/count_vs_c.py.
 * One core, mirror halving of the first row, lowest-set-bit trick.
 * Build: gcc -O2 -o nqueens nqueens.c      Run: ./nqueens 16   -> 14772512 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long solve(int n, unsigned cols, unsigned ld, unsigned rd, unsigned all) {
    if (cols == all) return 1;
    unsigned long long total = 0;
    unsigned free = ~(cols | ld | rd) & all;
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        total += solve(n, cols | bit, ((ld | bit) << 1) & all, (rd | bit) >> 1, all);
    }
    return total;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 1 || n > 31) { fprintf(stderr, "N must be 1..31\n"); return 2; }
    unsigned all = (1u << n) - 1;
    unsigned long long total = 0;
    for (int c = 0; c < n / 2; c++) {
        unsigned bit = 1u << c;
        total += 2 * solve(n, bit, (bit << 1) & all, bit >> 1, all);
    }
    if (n % 2) {
        unsigned bit = 1u << (n / 2);
        total += solve(n, bit, (bit << 1) & all, bit >> 1, all);
    }
    printf("%llu\n", total);
    return 0;
}
