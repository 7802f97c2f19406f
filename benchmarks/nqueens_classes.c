/* One-core N-queens counter that counts once per class of the eight
 * symmetries of the square: the corner / inner method of the 2003 "takaken"
 * program, written here as the reference of benchmarks/count_vs_c.py.
 *
 * Bit c of a mask is column c.  Two families of boards are searched:
 *
 *  corner: a queen in the corner of row 0.  Only a reflection in the
 *    diagonal can map such a board to another with the same corner queen;
 *    to keep one of each pair, column 1 stays empty above the row of the
 *    row-1 queen.  Such boards have no other symmetry: each counts 8.
 *
 *  inner: no queen in a corner.  The row-0 queen stands in column
 *    first < n/2; the border columns hold no queen in the first `first`
 *    rows nor in the last; the last row's queen avoids the `first` columns
 *    next to each border; and at each leaf the board is compared with its
 *    quarter, half and three-quarter turns to keep only the least of its
 *    class and to learn the class's size (2, 4 or 8).
 *
 *   usage: nqueens_classes N   ->   "total fundamental" on stdout
 */
#include <stdio.h>
#include <stdlib.h>

static int n, last, full, top_bit, end_bit, side, last_mask, first, mirror_row;
static int board[32];  /* board[r]: the bit of row r's queen */
static int *row_first, *row_mirror;
static long long count8, count4, count2;

/* Compare the board with its turns; count it only if it is the least of its class. */
static void classify(void) {
    int *own, *you, bit, probe;
    /* quarter turn: only possible when row `mirror_row` holds the queen of column 0 */
    if (*row_mirror == 1) {
        for (probe = 2, own = board + 1; own <= board + last; own++, probe <<= 1) {
            bit = 1;
            for (you = board + last; *you != probe && *own >= bit; you--) bit <<= 1;
            if (*own > bit) return;
            if (*own < bit) break;
        }
        if (own > board + last) { count2++; return; }
    }
    /* half turn: only possible when the last row's queen mirrors row 0's */
    if (board[last] == end_bit) {
        for (you = board + last - 1, own = board + 1; own <= board + last; own++, you--) {
            bit = 1;
            for (probe = top_bit; probe != *you && *own >= bit; probe >>= 1) bit <<= 1;
            if (*own > bit) return;
            if (*own < bit) break;
        }
        if (own > board + last) { count4++; return; }
    }
    /* three-quarter turn: only possible when row `first` holds the queen of column n-1 */
    if (*row_first == top_bit) {
        for (probe = top_bit >> 1, own = board + 1; own <= board + last; own++, probe >>= 1) {
            bit = 1;
            for (you = board; *you != probe && *own >= bit; you++) bit <<= 1;
            if (*own > bit) return;
            if (*own < bit) break;
        }
    }
    count8++;
}

static void inner(int row, int left, int down, int right) {
    int free = full & ~(left | down | right), bit;
    if (row == last) {
        if (free && !(free & last_mask)) {
            board[row] = free;
            classify();
        }
        return;
    }
    if (row < first) {
        free &= ~side;                      /* no border queen above row `first` */
    } else if (row == mirror_row) {
        if (!(down & side)) return;         /* a border column must be taken by now */
        if ((down & side) != side) free &= side;
    }
    while (free) {
        bit = free & -free;
        free ^= bit;
        board[row] = bit;
        inner(row + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

static void corner(int row, int left, int down, int right) {
    int free = full & ~(left | down | right), bit;
    if (row == last) {
        if (free) count8++;
        return;
    }
    if (row < first) free &= ~2;            /* column 1 empty above the row-1 queen's row */
    while (free) {
        bit = free & -free;
        free ^= bit;
        corner(row + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    int bit;
    if (argc != 2 || (n = atoi(argv[1])) < 4 || n > 30) {
        fprintf(stderr, "usage: nqueens_classes N   (4 <= N <= 30)\n");
        return 2;
    }
    last = n - 1;
    top_bit = 1 << last;
    full = (1 << n) - 1;

    board[0] = 1;                           /* corner queen in row 0, column 0 */
    for (first = 2; first < last; first++) {
        bit = 1 << first;                   /* the row-1 queen */
        corner(2, (2 | bit) << 1, 1 | bit, bit >> 1);
    }

    side = last_mask = top_bit | 1;
    end_bit = top_bit >> 1;
    for (first = 1, mirror_row = n - 2; first < mirror_row; first++, mirror_row--) {
        row_first = &board[first];
        row_mirror = &board[mirror_row];
        board[0] = bit = 1 << first;
        inner(1, bit << 1, bit, bit >> 1);
        last_mask |= last_mask >> 1 | last_mask << 1;
        end_bit >>= 1;
    }
    printf("%lld %lld\n", 8 * count8 + 4 * count4 + 2 * count2, count8 + count4 + count2);
    return 0;
}
