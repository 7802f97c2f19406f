/* queens.h: the N-queens bitmask search, the part shared by the CPU kernel
 * (search.c) and the GPU kernel (gpu.cu, through CuPy's NVRTC).
 *
 * A board is searched row by row.  Bit c of a word is column c.  Three words
 * say which cells of a row the queens above attack: `cols` (the columns
 * taken), `left` and `right` (the diagonals running down-left and
 * down-right).  Placing a queen on `bit` gives the next row's words: the
 * column joins `cols`, and the diagonals move one column on as they go one
 * row down (`step`).
 *
 * A sub-board restricts row r to the columns `allowed[r]`.  `needed[r]` is
 * the set of columns no row after r allows, so rows 0..r must have taken
 * them: a generic pruning rule (`restrict_cells`) that makes the classic
 * counters' special cases fall out of the masks.
 *
 * Written for C99 and for CUDA C++: no library headers under NVRTC, and
 * every function QUEENS_FN (static inline on the CPU, __device__ on the GPU).
 */
#ifndef NQUEENS_QUEENS_H
#define NQUEENS_QUEENS_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define QUEENS_FN static __device__ __forceinline__
typedef unsigned long long qword;
#define QUEENS_CTZ(x) (__ffsll((long long)(x)) - 1)
#define QUEENS_POPCOUNT(x) __popcll(x)
#else
#include <stdint.h>
#define QUEENS_FN static inline
typedef uint64_t qword;
#define QUEENS_CTZ(x) __builtin_ctzll(x)
#define QUEENS_POPCOUNT(x) __builtin_popcountll(x)
#endif

#define QUEENS_MAX_N 62 /* a row's words must hold n columns and the two diagonal shifts */

/* What the queens above a row attack in it. */
struct attacks {
    qword cols, left, right;
};

/* One row of a sub-board: the columns it allows, and those no later row allows. */
struct rowmask {
    qword allowed, needed;
};

/* Every entry point adds to one of these.  Not classifying, every solution
 * is in `eight`; classifying, only the least board of each class of the
 * eight symmetries, in the tally of its class's size.  `nodes`: queens placed
 * (cells tried).  `tied`: solutions whose last queen is on the tie square. */
struct tallies {
    qword eight, four, two, nodes, tied;
};

/* A queen on `bit`: the attacks on the row below. */
QUEENS_FN struct attacks step(struct attacks a, qword bit) {
    struct attacks below = {a.cols | bit, (a.left | bit) << 1, (a.right | bit) >> 1};
    return below;
}

/* The cells of a row that are allowed and not attacked. */
QUEENS_FN qword open_cells(struct attacks a, qword allowed) {
    return ~(a.cols | a.left | a.right) & allowed;
}

/* The free cells of a row once the columns no later row allows are known:
 * one of them still empty, the row must take it; two, no way on. */
QUEENS_FN qword restrict_cells(qword free, qword needed, qword cols) {
    qword missing = needed & ~cols;
    if (missing == 0)
        return free;
    if (missing & (missing - 1))
        return 0;
    return free & missing;
}

/* Whether the row two below a queen is already full, whatever the row in
 * between takes: `below` are the attacks on the row below, `beyond` the
 * columns the row after it allows.  A look one row further ahead: it prunes
 * about one node in six, for three more operations a node. */
QUEENS_FN int blocked_beyond(struct attacks below, qword beyond) {
    return (~(below.cols | below.left << 1 | below.right >> 1) & beyond) == 0;
}

/* needed[r] for each row (see above); 0 for the last row, where the rule
 * changes nothing, so that the searches can skip it. */
QUEENS_FN void fill_masks(int n, const qword *allowed, struct rowmask *masks) {
    qword full = n >= 64 ? ~(qword)0 : ((qword)1 << n) - 1, later = allowed[n - 1] & full;
    masks[n - 1].allowed = later;
    masks[n - 1].needed = 0;
    for (int r = n - 2; r >= 0; r--) {
        masks[r].allowed = allowed[r] & full;
        masks[r].needed = full & ~later;
        later |= allowed[r];
    }
}

/* Compare the board turned k quarter turns (k = 1, 2, 3) with the board,
 * row by row from the top, each image row made when it is compared (the
 * first row nearly always decides): -1 if the image is less, 0 if equal, 1 if
 * greater.  board[r] is row r's queen (one bit); inverse[c] the row of column
 * c's queen. */
QUEENS_FN int turned(int n, const qword *board, const int *inverse, int k) {
    int last = n - 1;
    for (int i = 0; i < n; i++) {
        qword image;
        if (k == 1)
            image = (qword)1 << (last - inverse[i]);
        else if (k == 2)
            image = (qword)1 << (last - QUEENS_CTZ(board[last - i]));
        else
            image = (qword)1 << inverse[last - i];
        if (image != board[i])
            return image < board[i] ? -1 : 1;
    }
    return 0;
}

/* 0 if a turn of the board is less than the board; else the size of its
 * class: 2 (a quarter turn leaves it unchanged), 4 (a half turn does) or 8.
 * (The reflections need no test: the sub-boards of a count by classes are
 * bounded so that no reflection of a board is searched; classes.py.) */
QUEENS_FN int class_size(int n, const qword *board, int *inverse) {
    for (int r = 0; r < n; r++)
        inverse[QUEENS_CTZ(board[r])] = r;
    int quarter = turned(n, board, inverse, 1);
    if (quarter < 0)
        return 0;
    if (quarter == 0)
        return 2;
    int half = turned(n, board, inverse, 2);
    if (half < 0)
        return 0;
    if (half == 0)
        return 4;
    return turned(n, board, inverse, 3) < 0 ? 0 : 8;
}

/* A solution found: tally it (classified by its turns when asked). */
QUEENS_FN void tally(struct tallies *t, int n, const qword *board, int *inverse, int classify, qword tie) {
    int size = classify ? class_size(n, board, inverse) : 8;
    t->eight += size == 8;
    t->four += size == 4;
    t->two += size == 2;
    t->tied += !classify && (board[n - 1] & tie) != 0;
}

/* The state of a row in an explicit stack: its attacks, and its cells not yet tried. */
struct row {
    struct attacks a;
    qword todo;
};

/* The search of one sub-board with an explicit stack, that can stop and go
 * on: after `limit` solutions in all (0: no limit; `board` then holds the last
 * one) or once the nodes reach `stop_at` (0: never).  `row` is where to start:
 * -2 for a new search, else the value the last call returned; returns the row
 * to resume from, -1 once the sub-board is searched.  stack: n + 1 rows;
 * board, inverse: n words.  The row before the last places the last row's
 * queen with its own: its one free cell is a solution (a node too). */
QUEENS_FN int walk(int n, const struct rowmask *masks, struct row *stack, qword *board, int *inverse,
                   int classify, qword tie, qword limit, qword stop_at, int row, struct tallies *t) {
    int last = n - 1;
    if (row == -2) {
        struct attacks none = {0, 0, 0};
        stack[0].a = none;
        stack[0].todo = restrict_cells(masks[0].allowed, masks[0].needed, 0);
        row = 0;
    }
    while (row >= 0 && (stop_at == 0 || t->nodes < stop_at)) {
        qword free = stack[row].todo;
        if (free == 0) {
            row--;
            continue;
        }
        qword bit = free & (0 - free); /* the lowest free cell */
        stack[row].todo = free ^ bit;
        t->nodes++;
        qword leaf = bit;
        if (row != last) { /* (row 0 is the last only when n == 1) */
            struct attacks below = step(stack[row].a, bit);
            stack[row + 1].a = below;
            leaf = restrict_cells(open_cells(below, masks[row + 1].allowed), masks[row + 1].needed, below.cols);
            if (row + 1 != last) {
                if (blocked_beyond(below, masks[row + 2].allowed))
                    leaf = 0;
                row++;
                stack[row].todo = leaf;
                continue;
            }
            if (leaf == 0)
                continue;
            t->nodes++;
        }
        board[last] = leaf;
        if (classify || limit) /* the board, read off the stack's columns */
            for (int r = 0; r < last; r++)
                board[r] = stack[r + 1].a.cols & ~stack[r].a.cols;
        tally(t, n, board, inverse, classify, tie);
        if (limit && t->eight + t->four + t->two >= limit)
            break;
    }
    return row;
}

#endif
