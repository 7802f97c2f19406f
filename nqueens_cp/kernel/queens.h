/* queens.h: the N-queens bitmask search shared by the CPU kernel (search.c)
 * and the GPU kernel (gpu.cu, through NVRTC); docs/kernel.md explains it.
 * A board is searched row by row; bit c of a word is column c.  `cols`,
 * `left` and `right` are the columns and the two diagonals (running down-left
 * and down-right) that the queens above attack in a row.  A sub-board allows
 * row r the columns `allowed[r]`; `needed[r]` are those no row after r allows.
 * C99 and CUDA C++ alike: every function QUEENS_FN. */
#ifndef NQUEENS_QUEENS_H
#define NQUEENS_QUEENS_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define QUEENS_FN static __device__ __forceinline__
#define QUEENS_INLINED QUEENS_FN /* compiled into each caller, its constant arguments folded in */
/* A GPU's integer units are 32 bits wide: a 64-bit and, shift or compare is
 * two or more instructions.  Up to N = 32 a row fits 32 bits, and gpu.cu is
 * compiled with QUEENS_WORD32 (counting/gpu.py); the counts stay 64-bit. */
#ifdef QUEENS_WORD32
typedef unsigned int qword;
#define QUEENS_TOP 31 /* the top bit of a word */
#define QUEENS_CTZ(x) (__ffs((int)(x)) - 1)
#define QUEENS_POPCOUNT(x) __popc(x)
#else
typedef unsigned long long qword;
#define QUEENS_TOP 63
#define QUEENS_CTZ(x) (__ffsll((long long)(x)) - 1)
#define QUEENS_POPCOUNT(x) __popcll(x)
#endif
typedef unsigned long long qcount;
#else
#include <stdint.h>
#define QUEENS_FN static inline
#define QUEENS_INLINED static inline __attribute__((always_inline))
typedef uint64_t qword;
typedef uint64_t qcount;
#define QUEENS_TOP 63
#define QUEENS_CTZ(x) __builtin_ctzll(x)
#define QUEENS_POPCOUNT(x) __builtin_popcountll(x)
#endif

#define QUEENS_MAX_N 62 /* a row's words must hold n columns and the two diagonal shifts */

/* --- The rules: each once, for a qword (one board) or a vector of them (a
 * board a lane, search.c).  Macros, as C has no generics: `a` is a struct of
 * cols, left and right; other arguments are plain variables (read twice). */

/* A queen on `bit`: the attacks on the row below (an initializer); the
 * diagonals move one column on as they go one row down. */
#define QUEENS_STEP(a, bit) {(a).cols | (bit), ((a).left | (bit)) << 1, ((a).right | (bit)) >> 1}

/* The cells of a row that are allowed and not attacked. */
#define QUEENS_OPEN(a, allowed) (~((a).cols | (a).left | (a).right) & (allowed))

/* All ones where x is not 0, lane by lane (x | -x has its top bit set then). */
#define QUEENS_NONZERO(x) (0 - (((x) | (0 - (x))) >> QUEENS_TOP))

/* The free cells of a row once the needed columns not yet taken (`missing`,
 * that is needed & ~cols) are known: none missing, no change; one, the row
 * must take it; two, no way on. */
#define QUEENS_RESTRICT(free, missing) \
    ((free) & ((missing) | ~QUEENS_NONZERO(missing)) & ~QUEENS_NONZERO((missing) & ((missing) - 1)))

/* The cells of the row two below a queen open whatever the row between takes
 * (`below`: the attacks on the row below; `beyond`: what the row after it
 * allows).  None: the queen is not followed (one node in six pruned). */
#define QUEENS_AHEAD(below, beyond) (~((below).cols | (below).left << 1 | (below).right >> 1) & (beyond))

/* --- The layouts Python shares with C: module.c exports them, and a test
 * checks twin.LAYOUT against them.  A walk's out words: its tallies, then the
 * row to resume from (ROW_NEW: not started; -1: searched). */
enum { OUT_EIGHT, OUT_FOUR, OUT_TWO, OUT_NODES, OUT_TIED, OUT_ROW, OUT_WORDS };
#define ROW_NEW (-2)
/* A row on the walk's stack (see struct stack), word by word: the attacks on
 * it, its cells not yet tried, and for a member with offsets two words more
 * (struct family_attacks: near, far), ROW_WORDS_OFFSETS words a row then. */
enum { ROW_COLS, ROW_LEFT, ROW_RIGHT, ROW_TODO, ROW_WORDS, ROW_NEAR = ROW_WORDS, ROW_FAR, ROW_WORDS_OFFSETS };
/* A board of a batch (count_boards): n allowed masks, then these two words. */
enum { BOARD_TIE, BOARD_CLASSIFY, BOARD_EXTRA };

/* What the queens above a row attack in it. */
struct attacks {
    qword cols, left, right;
};

/* One row of a sub-board: the columns it allows, and those no later row allows. */
struct rowmask {
    qword allowed, needed;
};

/* What every search adds to (in OUT_* order): solutions in `eight`, or
 * classifying, the least board of each class by its size; `nodes`: cells
 * tried; `tied`: solutions whose last queen is on the tie square. */
struct tallies {
    qcount eight, four, two, nodes, tied;
};

/* --- A walk's stack: for each row, the attacks on it and its cells not yet
 * tried, the ROW_* words (word w of row r: stack_get, stack_set).  On the
 * CPU the rows lie one after another (Python's buffers hold them between
 * calls, module.c).  On a GPU a search spends its time in its deepest rows,
 * so the rows from `from` on live in shared memory, the rows above in the
 * thread's own (local) memory.  In shared memory the 32 threads of a warp
 * interleave word by word: a thread's words are 32 words apart, and thread
 * (lane) l's are all l words past a multiple of 32.  Each of 32 banks serves
 * one 4-byte word of every 128 bytes, so the 16 threads of a half-warp, which
 * one access of 8-byte words serves, reach 16 different pairs of banks
 * whatever rows they are at: no access waits on another (bank conflicts). */
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define QUEENS_WARP 32
struct stack {
    qword *cold; /* rows 0 .. from-1, `width` words a row */
    qword *hot;  /* this thread's word 0 of row `from` in the block's shared memory */
    int from;
};

/* Word w of row r, rows of `width` words (ROW_WORDS; a constant where the
 * walk is compiled).  (Values, not a pointer to the word: a pointer that may
 * be local or shared would be a generic address, and the hot rows' loads no
 * longer ld.shared.) */
QUEENS_FN qword stack_get(struct stack s, int width, int r, int w) {
    return r >= s.from ? s.hot[((r - s.from) * width + w) * QUEENS_WARP] : s.cold[r * width + w];
}

QUEENS_FN void stack_set(struct stack s, int width, int r, int w, qword value) {
    if (r >= s.from)
        s.hot[((r - s.from) * width + w) * QUEENS_WARP] = value;
    else
        s.cold[r * width + w] = value;
}
#else
struct stack {
    qword *words; /* n + 1 rows of `width` words */
};

/* Word w of row r, rows of `width` words (ROW_WORDS, or ROW_WORDS_OFFSETS for
 * a member with offsets: a constant where the walk is compiled). */
QUEENS_FN qword stack_get(struct stack s, int width, int r, int w) {
    return s.words[r * width + w];
}

QUEENS_FN void stack_set(struct stack s, int width, int r, int w, qword value) {
    s.words[r * width + w] = value;
}
#endif

/* A row's free cells, restricted by its needed columns (see above). */
QUEENS_FN qword restricted(struct attacks a, struct rowmask mask) {
    qword missing = mask.needed & ~a.cols;
    return QUEENS_RESTRICT(QUEENS_OPEN(a, mask.allowed), missing);
}

/* needed[r] for each row (see above); 0 for the last row, where the rule
 * changes nothing, so that the searches can skip it. */
QUEENS_FN void fill_masks(int n, const qword *allowed, struct rowmask *masks) {
    qword full = n > QUEENS_TOP ? ~(qword)0 : ((qword)1 << n) - 1, later = allowed[n - 1] & full;
    masks[n - 1].allowed = later;
    masks[n - 1].needed = 0;
    for (int r = n - 2; r >= 0; r--) {
        masks[r].allowed = allowed[r] & full;
        masks[r].needed = full & ~later;
        later |= allowed[r];
    }
}

/* The board turned k quarter turns (k = 1, 2, 3) against the board, row by
 * row, each image row made as it is compared: -1 if the image is less, 0 if
 * equal, 1 if greater.  board[r]: row r's queen (a bit); inverse[c]: its row. */
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
    if (quarter <= 0)
        return quarter < 0 ? 0 : 2;
    int half = turned(n, board, inverse, 2);
    if (half <= 0)
        return half < 0 ? 0 : 4;
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

/* --- The walk: one search of a sub-board that can stop and go on, for any
 * member of the family (model/variants.py), over a descriptor of the
 * member's data, FAM_WORDS words: how the diagonals (c - r: the left word,
 * which moves one column left a row) and the anti-diagonals (c + r: the
 * right word) attack, LINE_NONE, LINE_EDGE or LINE_WRAP (what leaves one edge
 * comes back at the other: the word rotates within n columns); and the
 * offsets one and two rows down, each as a pattern centred on column
 * FAM_CENTER: bit FAM_CENTER + dc of FAM_ONE is the offset (1, dc).  A
 * queen's offsets are its row's pattern moved to its column.  The columns
 * always attack.  `near` holds the offsets' attacks on a row (from the two
 * rows above), `far` those on the next (from the row above).  Plain queens
 * are the descriptor PLAIN: compiled with it a constant, the walk is the
 * classic one (docs/kernel.md), which `enumerate` and the GPU run. */
/* [cost family kernel] */
enum { LINE_NONE, LINE_EDGE, LINE_WRAP };
enum { FAM_LEFT, FAM_RIGHT, FAM_ONE, FAM_TWO, FAM_WORDS };
#define FAM_CENTER 8 /* bit FAM_CENTER + dc of FAM_ONE: the offset (1, dc), |dc| <= FAM_CENTER */

struct family_attacks {
    qword cols, left, right, near, far;
};

/* The descriptor, read once into a walk's locals: each line word's masks
 * (family_left, family_right) and the offsets' patterns. */
struct family {
    qword left_keep, left_wrap, right_keep, right_wrap, one, two;
};

/* A line family's word one row on, without a branch: `keep` is 0 for a
 * family that does not attack (LINE_NONE), the board's n columns for one that
 * wraps, all ones for one that leaves at the edge (its bits beyond n do no
 * harm: no allowed mask has them, and the word that shifts them is never
 * wrapped); `wrap` all ones for LINE_WRAP, where what leaves one edge comes
 * back at the other. */
QUEENS_FN qword family_left(qword word, int n, qword keep, qword wrap) {
    return ((word << 1) | ((word >> (n - 1)) & wrap)) & keep;
}

QUEENS_FN qword family_right(qword word, int n, qword keep, qword wrap) {
    return ((word >> 1) | (((word & 1) << (n - 1)) & wrap)) & keep;
}

/* The plain queens' descriptor: both diagonals leave at the edge, no offsets.
 * (A macro: an initializer, so that each use folds to the constants.) */
#define FAMILY_PLAIN {~(qword)0, 0, ~(qword)0, 0, 0, 0}

/* The descriptor's words, read into a walk's locals. */
QUEENS_FN struct family family_of(const qword *words, int n) {
    qword full = ((qword)1 << n) - 1; /* n <= QUEENS_MAX_N */
    qword keep[3] = {0, ~(qword)0, full};
    struct family f = {keep[words[FAM_LEFT]], words[FAM_LEFT] == LINE_WRAP ? ~(qword)0 : 0, keep[words[FAM_RIGHT]],
                       words[FAM_RIGHT] == LINE_WRAP ? ~(qword)0 : 0, words[FAM_ONE], words[FAM_TWO]};
    return f;
}

/* The squares a queen in column `col` attacks by a row's offsets: the pattern
 * moved from column FAM_CENTER to `col` (what falls off the board is dropped). */
QUEENS_FN qword family_offsets(int col, qword pattern) {
    return col >= FAM_CENTER ? pattern << (col - FAM_CENTER) : pattern >> (FAM_CENTER - col);
}

/* A queen on `bit`: the attacks on the row below, for the family (`offsets`:
 * whether it has any; a constant where the walk is compiled for it).  For
 * FAMILY_PLAIN, QUEENS_STEP. */
QUEENS_INLINED struct family_attacks family_step(struct family f, int offsets, int n, struct family_attacks a,
                                                 qword bit) {
    struct family_attacks b = {a.cols | bit, family_left(a.left | bit, n, f.left_keep, f.left_wrap),
                               family_right(a.right | bit, n, f.right_keep, f.right_wrap), 0, 0};
    if (offsets) {
        int col = QUEENS_CTZ(bit);
        b.near = a.far | family_offsets(col, f.one);
        b.far = family_offsets(col, f.two);
    }
    return b;
}

/* A row's free cells: open (QUEENS_OPEN, the offsets' too), then restricted
 * by its needed columns (QUEENS_RESTRICT: every member has a piece in every
 * column). */
QUEENS_FN qword family_free(struct family_attacks a, struct rowmask mask) {
    qword missing = mask.needed & ~a.cols;
    return QUEENS_RESTRICT(~(a.cols | a.left | a.right | a.near) & mask.allowed, missing);
}

/* QUEENS_AHEAD for the family: whether the row two below a queen (`below`:
 * the attacks on the row below; `beyond`: what the row after it allows) has
 * a cell open whatever the row between takes. */
QUEENS_FN int family_ahead(struct family f, int n, struct family_attacks below, qword beyond) {
    return (~(below.cols | family_left(below.left, n, f.left_keep, f.left_wrap) |
              family_right(below.right, n, f.right_keep, f.right_wrap) | below.far) & beyond) != 0;
}

QUEENS_FN struct family_attacks stack_attacks(struct stack s, int width, int offsets, int r) {
    struct family_attacks a = {stack_get(s, width, r, ROW_COLS), stack_get(s, width, r, ROW_LEFT),
                               stack_get(s, width, r, ROW_RIGHT), 0, 0};
    if (offsets) {
        a.near = stack_get(s, width, r, ROW_NEAR);
        a.far = stack_get(s, width, r, ROW_FAR);
    }
    return a;
}

QUEENS_FN void stack_set_attacks(struct stack s, int width, int offsets, int r, struct family_attacks a) {
    stack_set(s, width, r, ROW_COLS, a.cols);
    stack_set(s, width, r, ROW_LEFT, a.left);
    stack_set(s, width, r, ROW_RIGHT, a.right);
    if (offsets) {
        stack_set(s, width, r, ROW_NEAR, a.near);
        stack_set(s, width, r, ROW_FAR, a.far);
    }
}

/* The walk of one sub-board of the family's member `f`, with an explicit
 * stack that can stop and go on: after `limit` solutions in all (0: none;
 * `board` holds the last) or at `stop_at` nodes (0: never).  Starts at `row`
 * (ROW_NEW, or what the last call returned); returns the row to resume from,
 * -1 once searched.  stack: n + 1 rows of `width` words (ROW_WORDS, or
 * ROW_WORDS_OFFSETS where `offsets`).  The row before the last also places
 * the last (a node too: its one open cell, as every column holds a piece).
 * `classify` (plain queens' sub-boards of a count by classes) tallies each
 * solution by its class. */
QUEENS_INLINED int walk_of(struct family f, int offsets, int width, int n, const struct rowmask *masks,
                           struct stack stack, qword *board, int *inverse, int classify, qword tie, qcount limit,
                           qcount stop_at, int row, struct tallies *t) {
    int last = n - 1;
    if (row == ROW_NEW) {
        struct family_attacks none = {0, 0, 0, 0, 0};
        stack_set_attacks(stack, width, offsets, 0, none);
        stack_set(stack, width, 0, ROW_TODO, family_free(none, masks[0]));
        row = 0;
    }
    while (row >= 0 && (stop_at == 0 || t->nodes < stop_at)) {
        qword free = stack_get(stack, width, row, ROW_TODO);
        if (free == 0) {
            row--;
            continue;
        }
        qword bit = free & (0 - free); /* the lowest free cell */
        stack_set(stack, width, row, ROW_TODO, free ^ bit);
        t->nodes++;
        qword leaf = bit;
        if (row != last) { /* (row 0 is the last only when n == 1) */
            struct family_attacks below = family_step(f, offsets, n, stack_attacks(stack, width, offsets, row), bit);
            stack_set_attacks(stack, width, offsets, row + 1, below);
            leaf = family_free(below, masks[row + 1]);
            if (row + 1 != last) {
                row++;
                stack_set(stack, width, row, ROW_TODO, family_ahead(f, n, below, masks[row + 1].allowed) ? leaf : 0);
                continue;
            }
            if (leaf == 0)
                continue;
            t->nodes++;
        }
        board[last] = leaf;
        if (classify || limit) /* the board, read off the stack's columns */
            for (int r = 0; r < last; r++)
                board[r] = stack_get(stack, width, r + 1, ROW_COLS) & ~stack_get(stack, width, r, ROW_COLS);
        tally(t, n, board, inverse, classify, tie);
        if (limit && t->eight + t->four + t->two >= limit)
            break;
    }
    return row;
}

/* Plain queens' walk (enumerate, a sub-board's classes, the GPU's count). */
QUEENS_FN int walk(int n, const struct rowmask *masks, struct stack stack, qword *board, int *inverse,
                   int classify, qword tie, qcount limit, qcount stop_at, int row, struct tallies *t) {
    struct family plain = FAMILY_PLAIN;
    return walk_of(plain, 0, ROW_WORDS, n, masks, stack, board, inverse, classify, tie, limit, stop_at, row, t);
}

/* Any member's walk, by its descriptor (FAM_WORDS words): compiled four times,
 * for members with offsets or without and with wrapping lines or without (a
 * constant in each: no wrap is the common case, and its shifts are then one
 * operation each); every solution in t->eight (a member need not keep the
 * square's symmetries). */
QUEENS_FN int family_walk(const qword *family, int n, const struct rowmask *masks, struct stack stack,
                          qword *board, qcount limit, qcount stop_at, int row, struct tallies *t) {
    struct family f = family_of(family, n); /* in locals: the stack's stores cannot change them */
    int inverse[1];                          /* (read only to classify) */
    if (f.left_wrap | f.right_wrap) {
        if (f.one | f.two)
            return walk_of(f, 1, ROW_WORDS_OFFSETS, n, masks, stack, board, inverse, 0, 0, limit, stop_at, row, t);
        return walk_of(f, 0, ROW_WORDS, n, masks, stack, board, inverse, 0, 0, limit, stop_at, row, t);
    }
    f.left_wrap = f.right_wrap = 0; /* (a constant from here: the compiler drops the wrap) */
    if (f.one | f.two)
        return walk_of(f, 1, ROW_WORDS_OFFSETS, n, masks, stack, board, inverse, 0, 0, limit, stop_at, row, t);
    return walk_of(f, 0, ROW_WORDS, n, masks, stack, board, inverse, 0, 0, limit, stop_at, row, t);
}
/* [end cost] */

#endif
