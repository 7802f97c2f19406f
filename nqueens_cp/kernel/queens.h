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
typedef unsigned long long qword;
#define QUEENS_CTZ(x) (__ffsll((long long)(x)) - 1)
#define QUEENS_POPCOUNT(x) __popcll(x)
#else
#include <stdint.h>
#define QUEENS_FN static inline
#define QUEENS_INLINED static inline __attribute__((always_inline))
typedef uint64_t qword;
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
#define QUEENS_NONZERO(x) (0 - (((x) | (0 - (x))) >> 63))

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
/* A row on the walk's stack (see struct stack), word by word. */
enum { ROW_COLS, ROW_LEFT, ROW_RIGHT, ROW_TODO, ROW_WORDS };
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
    qword eight, four, two, nodes, tied;
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
    qword *cold; /* rows 0 .. from-1, ROW_WORDS words a row */
    qword *hot;  /* this thread's word 0 of row `from` in the block's shared memory */
    int from;
};

/* (Values, not a pointer to the word: a pointer that may be local or shared
 * would be a generic address, and the hot rows' loads no longer ld.shared.) */
QUEENS_FN qword stack_get(struct stack s, int r, int w) {
    return r >= s.from ? s.hot[((r - s.from) * ROW_WORDS + w) * QUEENS_WARP] : s.cold[r * ROW_WORDS + w];
}

QUEENS_FN void stack_set(struct stack s, int r, int w, qword value) {
    if (r >= s.from)
        s.hot[((r - s.from) * ROW_WORDS + w) * QUEENS_WARP] = value;
    else
        s.cold[r * ROW_WORDS + w] = value;
}
#else
struct stack {
    qword (*rows)[ROW_WORDS]; /* n + 1 rows */
};

QUEENS_FN qword stack_get(struct stack s, int r, int w) {
    return s.rows[r][w];
}

QUEENS_FN void stack_set(struct stack s, int r, int w, qword value) {
    s.rows[r][w] = value;
}
#endif

QUEENS_FN struct attacks stack_attacks(struct stack s, int r) {
    struct attacks a = {stack_get(s, r, ROW_COLS), stack_get(s, r, ROW_LEFT), stack_get(s, r, ROW_RIGHT)};
    return a;
}

QUEENS_FN void stack_set_attacks(struct stack s, int r, struct attacks a) {
    stack_set(s, r, ROW_COLS, a.cols);
    stack_set(s, r, ROW_LEFT, a.left);
    stack_set(s, r, ROW_RIGHT, a.right);
}

/* A row's free cells, restricted by its needed columns (see above). */
QUEENS_FN qword restricted(struct attacks a, struct rowmask mask) {
    qword missing = mask.needed & ~a.cols;
    return QUEENS_RESTRICT(QUEENS_OPEN(a, mask.allowed), missing);
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

/* One sub-board with an explicit stack that can stop and go on: after
 * `limit` solutions in all (0: none; `board` holds the last) or at `stop_at`
 * nodes (0: never).  Starts at `row` (ROW_NEW, or what the last call
 * returned); returns the row to resume from, -1 once searched.  stack: n + 1
 * rows.  The row before the last also places the last (a node too). */
QUEENS_FN int walk(int n, const struct rowmask *masks, struct stack stack, qword *board, int *inverse,
                   int classify, qword tie, qword limit, qword stop_at, int row, struct tallies *t) {
    int last = n - 1;
    if (row == ROW_NEW) {
        struct attacks none = {0, 0, 0};
        stack_set_attacks(stack, 0, none);
        stack_set(stack, 0, ROW_TODO, restricted(none, masks[0]));
        row = 0;
    }
    while (row >= 0 && (stop_at == 0 || t->nodes < stop_at)) {
        qword free = stack_get(stack, row, ROW_TODO);
        if (free == 0) {
            row--;
            continue;
        }
        qword bit = free & (0 - free); /* the lowest free cell */
        stack_set(stack, row, ROW_TODO, free ^ bit);
        t->nodes++;
        qword leaf = bit;
        if (row != last) { /* (row 0 is the last only when n == 1) */
            struct attacks above = stack_attacks(stack, row), below = QUEENS_STEP(above, bit);
            stack_set_attacks(stack, row + 1, below);
            leaf = restricted(below, masks[row + 1]);
            if (row + 1 != last) {
                row++;
                stack_set(stack, row, ROW_TODO, QUEENS_AHEAD(below, masks[row + 1].allowed) ? leaf : 0);
                continue;
            }
            if (leaf == 0)
                continue;
            t->nodes++;
        }
        board[last] = leaf;
        if (classify || limit) /* the board, read off the stack's columns */
            for (int r = 0; r < last; r++)
                board[r] = stack_get(stack, r + 1, ROW_COLS) & ~stack_get(stack, r, ROW_COLS);
        tally(t, n, board, inverse, classify, tie);
        if (limit && t->eight + t->four + t->two >= limit)
            break;
    }
    return row;
}

/* --- The family (model/variants.py) by one more walk, over a descriptor of the
 * question's data, FAM_WORDS words: how the diagonals (c - r: the left word, which
 * moves one column left a row) and the anti-diagonals (c + r: the right word)
 * attack, LINE_NONE, LINE_EDGE or LINE_WRAP (what leaves one edge comes back at
 * the other: the word rotates within n columns); and the offsets one and two rows
 * down, each as a pattern centred on column FAM_CENTER: bit FAM_CENTER + dc of
 * FAM_ONE is the offset (1, dc).  A queen's offsets are its row's pattern moved
 * to its column.  The columns always attack.  `near` holds the offsets' attacks
 * on this row (from the two rows above), `far` those on the next (from the row
 * above).  Plain queens run it too, for comparison. */
/* [cost family kernel] */
enum { LINE_NONE, LINE_EDGE, LINE_WRAP };
enum { FAM_LEFT, FAM_RIGHT, FAM_ONE, FAM_TWO, FAM_WORDS };
#define FAM_CENTER 8 /* bit FAM_CENTER + dc of FAM_ONE: the offset (1, dc), |dc| <= FAM_CENTER */
/* A row on the family walk's stack, word by word (struct family_row). */
enum { FROW_COLS, FROW_LEFT, FROW_RIGHT, FROW_NEAR, FROW_FAR, FROW_TODO, FROW_WORDS };

struct family_attacks {
    qword cols, left, right, near, far;
};

struct family_row {
    struct family_attacks a;
    qword todo;
};

/* The descriptor, read once into a walk's locals: each line word's masks
 * (family_left, family_right) and the offsets' shifts. */
struct family {
    qword left_keep, left_wrap, right_keep, right_wrap, one, two;
};

/* A line family's word one row on, without a branch: `keep` is the board's n
 * columns for a family that attacks (LINE_EDGE, LINE_WRAP), 0 for LINE_NONE;
 * `wrap` all ones for LINE_WRAP, where what leaves one edge comes back at the other. */
QUEENS_FN qword family_left(qword word, int n, qword keep, qword wrap) {
    return ((word << 1) | ((word >> (n - 1)) & wrap)) & keep;
}

QUEENS_FN qword family_right(qword word, int n, qword keep, qword wrap) {
    return ((word >> 1) | (((word & 1) << (n - 1)) & wrap)) & keep;
}

/* The squares a queen in column `col` attacks by a row's offsets: the pattern
 * moved from column FAM_CENTER to `col` (what falls off the board is dropped). */
QUEENS_FN qword family_offsets(int col, qword pattern) {
    return col >= FAM_CENTER ? pattern << (col - FAM_CENTER) : pattern >> (FAM_CENTER - col);
}

/* A queen on `bit`: the attacks on the row below, for the family (`offsets`:
 * whether it has any; a constant where the walk is compiled for it). */
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

/* The family's walk of one board (allowed[r]: the columns row r may take),
 * stoppable as `walk` is: after `limit` solutions in all (0: none; `board`
 * holds the last) or at `stop_at` nodes (0: never); every queen placed is a
 * node, and solutions are tallied in t->eight.  stack: n rows. */
QUEENS_INLINED int family_walk_of(struct family f, int offsets, int n, const qword *allowed,
                                   struct family_row *stack, qword *board, qword limit, qword stop_at, int row,
                                   struct tallies *t) {
    int last = n - 1;
    if (row == ROW_NEW) {
        struct family_attacks none = {0, 0, 0, 0, 0};
        stack[0].a = none;
        stack[0].todo = allowed[0];
        row = 0;
    }
    while (row >= 0 && (stop_at == 0 || t->nodes < stop_at)) {
        qword free = stack[row].todo;
        if (free == 0) {
            row--;
            continue;
        }
        qword bit = free & (0 - free);
        stack[row].todo = free ^ bit;
        t->nodes++;
        if (row == last) {
            t->eight++;
            if (limit) {
                for (int r = 0; r < last; r++)
                    board[r] = stack[r + 1].a.cols & ~stack[r].a.cols;
                board[last] = bit;
                if (t->eight >= limit)
                    break;
            }
            continue;
        }
        struct family_attacks below = family_step(f, offsets, n, stack[row].a, bit);
        row++;
        stack[row].a = below;
        stack[row].todo = ~(below.cols | below.left | below.right | below.near) & allowed[row];
    }
    return row;
}

QUEENS_FN int family_walk(const qword *family, int n, const qword *allowed, struct family_row *stack, qword *board,
                          qword limit, qword stop_at, int row, struct tallies *t) {
    /* in locals: the stack's stores cannot change them (family is a qword pointer like the stack) */
    qword full = ((qword)1 << n) - 1; /* n <= QUEENS_MAX_N */
    struct family f = {family[FAM_LEFT] == LINE_NONE ? 0 : full, family[FAM_LEFT] == LINE_WRAP ? ~(qword)0 : 0,
                       family[FAM_RIGHT] == LINE_NONE ? 0 : full, family[FAM_RIGHT] == LINE_WRAP ? ~(qword)0 : 0,
                       family[FAM_ONE], family[FAM_TWO]};
    /* a walk compiled for members with offsets and one for those without (a constant in each) */
    if (f.one | f.two)
        return family_walk_of(f, 1, n, allowed, stack, board, limit, stop_at, row, t);
    return family_walk_of(f, 0, n, allowed, stack, board, limit, stop_at, row, t);
}
/* [end cost] */

#endif
