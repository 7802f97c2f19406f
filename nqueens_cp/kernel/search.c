/* search.c: the CPU searches (module.c is their Python face): count_tree, one
 * sub-board by recursion; count_lanes, a batch, a board a vector lane;
 * count_half_turn, the independent check of a count by classes.  Each tallies
 * the solutions and nodes of twin.py (tested); docs/kernel.md explains them. */
#include <string.h>

#include "search.h"

/* What every level of count_tree reads and adds to. */
struct search {
    int n;
    const struct rowmask *masks;
    qword *board; /* board[r]: row r's queen, kept only when classifying */
    int *inverse; /* scratch for class_size */
    qword tie;
    struct tallies t;
};

/* The row before the last, with its free cells (at most two): each that
 * leaves the last row a cell is a solution.  Returns the solutions. */
static inline qword leaves(struct search *s, struct attacks a, qword free, int classify) {
    int n = s->n;
    qword last_allowed = s->masks[n - 1].allowed, found = 0;
    s->t.nodes += QUEENS_POPCOUNT(free);
    while (free) {
        qword bit = free & (0 - free);
        free ^= bit;
        struct attacks below = QUEENS_STEP(a, bit);
        qword leaf = QUEENS_OPEN(below, last_allowed);
        if (leaf == 0)
            continue;
        found++;
        if (classify) {
            s->board[n - 2] = bit;
            s->board[n - 1] = leaf;
            tally(&s->t, n, s->board, s->inverse, 1, 0);
        } else {
            s->t.tied += (leaf & s->tie) != 0;
        }
    }
    return found;
}

static qword rows_plain(struct search *s, int row, qword cols, qword left, qword right, qword free);
static qword rows_classes(struct search *s, int row, qword cols, qword left, qword right, qword free);

/* Row `row` (above the one before the last), with its free cells: place each
 * and search below; returns the solutions.  Inlined into rows_plain and
 * rows_classes, where `classify` is a constant. */
static inline __attribute__((always_inline)) qword rows(struct search *s, int row, struct attacks a, qword free,
                                                        int classify) {
    /* (row + 2 <= n - 1: rows stops above the row before the last) */
    const struct rowmask next = s->masks[row + 1], after = s->masks[row + 2];
    int next_is_leaves = row + 2 == s->n - 1;
    qword found = 0;
    s->t.nodes += QUEENS_POPCOUNT(free);
    while (free) {
        qword bit = free & (0 - free); /* the lowest free cell */
        free ^= bit;
        struct attacks below = QUEENS_STEP(a, bit);
        qword cells = restricted(below, next);
        if (cells == 0 || QUEENS_AHEAD(below, after.allowed) == 0)
            continue;
        if (classify)
            s->board[row] = bit;
        if (next_is_leaves)
            found += leaves(s, below, cells, classify);
        else if (classify)
            found += rows_classes(s, row + 1, below.cols, below.left, below.right, cells);
        else
            found += rows_plain(s, row + 1, below.cols, below.left, below.right, cells);
    }
    return found;
}

/* (Three words, not a struct: a struct of three would pass through memory.) */
static qword rows_plain(struct search *s, int row, qword cols, qword left, qword right, qword free) {
    struct attacks a = {cols, left, right};
    return rows(s, row, a, free, 0);
}

static qword rows_classes(struct search *s, int row, qword cols, qword left, qword right, qword free) {
    struct attacks a = {cols, left, right};
    return rows(s, row, a, free, 1);
}

void count_tree(int n, const struct rowmask *masks, int classify, qword tie, struct tallies *t) {
    if (n < 3) { /* no row above the one before the last: the walk does it */
        qword rows[3][ROW_WORDS], board[2];
        int inverse[2];
        struct stack stack = {rows[0]};
        walk(n, masks, stack, board, inverse, classify, tie, 0, 0, ROW_NEW, t);
        return;
    }
    qword board[QUEENS_MAX_N];
    int inverse[QUEENS_MAX_N];
    struct search s = {n, masks, board, inverse, tie, {0, 0, 0, 0, 0}};
    struct attacks none = {0, 0, 0};
    qword free = restricted(none, masks[0]);
    qword found = classify ? rows_classes(&s, 0, 0, 0, 0, free) : rows_plain(&s, 0, 0, 0, 0, free);
    t->eight += classify ? s.t.eight : found;
    t->four += s.t.four;
    t->two += s.t.two;
    t->nodes += s.t.nodes + found; /* a solution's last queen is a node too */
    t->tied += s.t.tied;
}

/* --- count_lanes: eight sub-boards at once ---------------------------------
 *
 * The walk's search with each lane of a vector searching its own board and
 * no branch on any lane's choices: every step, every lane tries its next
 * cell, then goes down, stays, or goes back up to the nearest row it pushed
 * (a row with cells left); masks pick each lane's next state (`select`).
 * Every step is a node.  Entries 0 and 1 of a lane's stack hold an idle
 * lane (row -1): going up to entry 1 ends a board.  On x86-64 Linux gcc
 * builds the lanes for AVX-512, AVX2 and the baseline, and the loader picks
 * one.  docs/kernel.md has the reasons. */
#define LANES 4
#define GROUPS 2
typedef qword vec __attribute__((vector_size(LANES * sizeof(qword))));

#if defined(__x86_64__) && defined(__linux__) && !defined(__clang__) && __GNUC__ >= 11
#define LANES_TARGETS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define LANES_TARGETS
#endif

/* The 4 x 4 words of four vectors transposed in place (word k of vector i
 * becomes word i of vector k): a lane's row moves to and from its stack as
 * one vector, in eight shuffles. */
#if defined(__clang__)
#define SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define SHUFFLE(a, b, i, j, k, l) __builtin_shuffle(a, b, (vec){i, j, k, l})
#endif
static inline void transpose(vec *w, vec *x, vec *y, vec *z) {
    vec t0 = SHUFFLE(*w, *x, 0, 4, 2, 6), t1 = SHUFFLE(*w, *x, 1, 5, 3, 7);
    vec t2 = SHUFFLE(*y, *z, 0, 4, 2, 6), t3 = SHUFFLE(*y, *z, 1, 5, 3, 7);
    *w = SHUFFLE(t0, t2, 0, 1, 4, 5), *x = SHUFFLE(t1, t3, 0, 1, 4, 5);
    *y = SHUFFLE(t0, t2, 2, 3, 6, 7), *z = SHUFFLE(t1, t3, 2, 3, 6, 7);
}

/* Where mask is all ones, a; else b. */
static inline vec select(vec mask, vec a, vec b) {
    return (mask & a) | (~mask & b);
}

/* What the queens above attack in each lane's row (queens.h's rules take it). */
struct lanes_attacks {
    vec cols, left, right;
};

struct lane {
    struct rowmask masks[QUEENS_MAX_N + 1]; /* (one more: the row after the last, read beside it and not used) */
    vec stack[QUEENS_MAX_N + 2];            /* rows to come back to: cols, left, right, todo */
    signed char rows[QUEENS_MAX_N + 2];     /* their numbers */
    qword queens[QUEENS_MAX_N + 1];         /* queens[r + 1]: row r's queen on the lane's path */
};

/* Lane's solution, its last two queens on bit and leaf, classified.  (Out
 * of the vector loop: a solution is rare.) */
static void classify_lane(int n, const struct lane *lane, qword bit, qword leaf, struct tallies *t) {
    qword board[QUEENS_MAX_N];
    int inverse[QUEENS_MAX_N];
    for (int r = 0; r < n - 2; r++)
        board[r] = lane->queens[r + 1];
    board[n - 2] = bit;
    board[n - 1] = leaf;
    tally(t, n, board, inverse, 1, 0);
}

/* Four lanes: their rows' words, where they are, what their boards ask, and
 * what they have found (lane k in word k of each vector). */
struct group {
    vec cols, left, right, todo, row, top, tie, classify, nodes, found, tied;
};

/* Lanes of g whose board is done (row -1) take the next boards that have a
 * cell to try; returns whether any lane has a board. */
static inline __attribute__((always_inline)) int refill(struct group *g, struct lane *lanes, int n,
                                                        const qword *words, long count, long *next) {
    int busy = 0;
    for (int k = 0; k < LANES; k++) {
        while ((int64_t)g->row[k] < 0 && *next < count) {
            const qword *board = words + (*next)++ * (n + BOARD_EXTRA);
            fill_masks(n, board, lanes[k].masks);
            lanes[k].masks[n].allowed = 0;
            g->tie[k] = board[n + BOARD_TIE];
            g->classify[k] = board[n + BOARD_CLASSIFY] ? (qword)-1 : 0;
            g->cols[k] = g->left[k] = g->right[k] = 0;
            g->todo[k] = restricted((struct attacks){0, 0, 0}, lanes[k].masks[0]);
            g->row[k] = g->todo[k] ? 0 : (qword)-1; /* (a board with no cell in row 0 has no node) */
            g->top[k] = 2;
        }
        busy |= (int64_t)g->row[k] >= 0;
    }
    return busy;
}

/* One step of every lane of g (see above); returns whether a lane's board is
 * done (the caller refills it). */
static inline __attribute__((always_inline)) int step_lanes(struct group *g, struct lane *lanes, int n, vec leaf_row,
                                                              struct tallies *t) {
    vec allowed, needed, beyond, up_row;
    for (int k = 0; k < LANES; k++) {
        const struct rowmask *below = &lanes[k].masks[g->row[k] + 1];
        allowed[k] = below->allowed;
        needed[k] = below->needed;
        beyond[k] = below[1].allowed;
    }
    struct lanes_attacks here = {g->cols, g->left, g->right};
    vec todo = g->todo, row = g->row, top = g->top;
    vec bit = todo & -todo, rest = todo ^ bit, busy = (vec)((row + 1) != 0);
    struct lanes_attacks below = QUEENS_STEP(here, bit);
    vec missing = needed & ~below.cols, cells = QUEENS_RESTRICT(QUEENS_OPEN(below, allowed), missing);
    vec at_leaf = (vec)(row == leaf_row), ahead = QUEENS_AHEAD(below, beyond);
    vec open = busy & (vec)(cells != 0) & ((vec)(ahead != 0) | at_leaf);
    vec solved = open & at_leaf, down = open & ~at_leaf, left_over = (vec)(rest != 0);
    vec push = down & left_over, up = busy & ~down & ~left_over;
    g->nodes -= busy + solved; /* (masks are -1) */
    g->found -= solved & ~g->classify;
    g->tied -= solved & ~g->classify & (vec)((cells & g->tie) != 0);
    vec entry[LANES] = {here.cols, here.left, here.right, rest};
    transpose(&entry[0], &entry[1], &entry[2], &entry[3]); /* entry[k]: lane k's row */
    for (int k = 0; k < LANES; k++) {
        struct lane *lane = &lanes[k];
        int at = (int)top[k];
        lane->stack[at] = entry[k];
        lane->rows[at] = (signed char)row[k];
        lane->queens[row[k] + 1] = bit[k];
        entry[k] = lane->stack[at - 1];
        up_row[k] = (qword)(int64_t)lane->rows[at - 1];
    }
    transpose(&entry[0], &entry[1], &entry[2], &entry[3]); /* the entries below the tops */
    g->cols = select(down, below.cols, select(up, entry[0], here.cols));
    g->left = select(down, below.left, select(up, entry[1], here.left));
    g->right = select(down, below.right, select(up, entry[2], here.right));
    g->todo = select(down, cells, select(up, entry[3], rest));
    g->row = select(down, row + 1, select(up, up_row, row));
    g->top = top - push + up;
    /* The rare events, tested at once: a solution to classify, a board done. */
    vec classified = solved & g->classify, finished = up & (vec)(g->row == (qword)-1), rare = classified | finished;
    if ((rare[0] | rare[1] | rare[2] | rare[3]) == 0)
        return 0;
    for (int k = 0; k < LANES; k++)
        if (classified[k])
            classify_lane(n, &lanes[k], bit[k], cells[k], t);
    return (finished[0] | finished[1] | finished[2] | finished[3]) != 0;
}

/* Two groups of four lanes step in turn: one group's long chain of dependent
 * instructions fills the other's waits. */
LANES_TARGETS
static void count_lanes(int n, const qword *words, long count, struct tallies *t) { /* n >= 3 */
    static const vec none = {0, 0, 0, 0};
    struct group groups[GROUPS]; /* (the vectors apart from the stacks: no store to a stack can change them) */
    struct lane lanes[GROUPS][LANES];
    vec leaf_row;
    long next = 0;
    for (int k = 0; k < LANES; k++)
        leaf_row[k] = (qword)(n - 2);
    for (int i = 0; i < GROUPS; i++) {
        struct group *g = &groups[i];
        g->cols = g->left = g->right = g->todo = g->tie = g->classify = none;
        g->nodes = g->found = g->tied = none;
        for (int k = 0; k < LANES; k++) {
            g->row[k] = (qword)-1;
            g->top[k] = 1;
            lanes[i][k].stack[0] = lanes[i][k].stack[1] = none;
            lanes[i][k].rows[0] = lanes[i][k].rows[1] = -1;
        }
    }
    for (;;) {
        int busy = 0, done = 0;
        for (int i = 0; i < GROUPS; i++)
            busy |= refill(&groups[i], lanes[i], n, words, count, &next);
        if (!busy)
            break;
        /* The two groups' words as locals while they step, not read from and
         * written to the array every step: in registers (AVX-512 has room for
         * both), 5 % faster. */
        struct group a = groups[0], b = groups[1];
        while (!done) {
            done |= step_lanes(&a, lanes[0], n, leaf_row, t);
            done |= step_lanes(&b, lanes[1], n, leaf_row, t);
        }
        groups[0] = a, groups[1] = b;
    }
    for (int i = 0; i < GROUPS; i++)
        for (int k = 0; k < LANES; k++) {
            t->eight += groups[i].found[k];
            t->nodes += groups[i].nodes[k];
            t->tied += groups[i].tied[k];
        }
}

void count_boards(int n, const qword *words, long count, struct tallies *t) {
    if (n >= 3 && count >= LANES * GROUPS) { /* (fewer boards would leave lanes idle) */
        count_lanes(n, words, count, t);
        return;
    }
    struct rowmask masks[QUEENS_MAX_N];
    for (long b = 0; b < count; b++, words += n + BOARD_EXTRA) {
        fill_masks(n, words, masks);
        count_tree(n, masks, words[n + BOARD_CLASSIFY] != 0, words[n + BOARD_TIE], t);
    }
}

/* --- count_half_turn --------------------------------------------------------
 *
 * Rows r .. m-1 of a half-turn-symmetric board, each placed with its image in
 * row n-1-r: columns, diagonals (index c - r + n - 1) and anti-diagonals
 * (r + c) are masks over absolute indices, since the images attack the rows
 * above them too.  An index's image is 2n - 2 - index. */
static qword half_turn_rows(int n, const qword *masks, int m, int r, qword cols, qword diag, qword anti) {
    if (r == m)
        return 1;
    int last = n - 1, ends = 2 * last;
    qword free = masks[r] & ~(cols | diag >> (last - r) | anti >> r), found = 0;
    while (free) {
        qword bit = free & (0 - free);
        free ^= bit;
        int c = QUEENS_CTZ(bit), d = c - r + last, x = r + c;
        found += half_turn_rows(n, masks, m, r + 1, cols | bit | (qword)1 << (last - c),
                                diag | (qword)1 << d | (qword)1 << (ends - d),
                                anti | (qword)1 << x | (qword)1 << (ends - x));
    }
    return found;
}

qword count_half_turn(int n, const qword *masks, int m, qword cols, qword diag, qword anti) {
    return half_turn_rows(n, masks, m, 0, cols, diag, anti);
}

/* --- expand: a GPU's work items ---------------------------------------------
 *
 * Every way to fix rows 0 .. depth-1 of a board with one queen each, none
 * attacking another, within the allowed masks, in the order of
 * counting/classes.py's fix_rows (lowest column first, depth first); the
 * other rows as they are.  Writes the first `room` items, n words each, to
 * out and returns how many there are; a board with an empty row beyond the
 * fixed ones has none. */
long expand(int n, const qword *allowed, int depth, qword *out, long room) {
    struct attacks a[QUEENS_MAX_N + 1];
    qword todo[QUEENS_MAX_N + 1], item[QUEENS_MAX_N];
    long found = 0;
    depth = depth < n ? depth : n;
    for (int r = depth; r < n; r++) {
        if (!allowed[r])
            return 0;
        item[r] = allowed[r];
    }
    if (depth == 0) {
        if (room > 0)
            memcpy(out, item, (size_t)n * sizeof(qword));
        return 1;
    }
    int row = 0;
    a[0] = (struct attacks){0, 0, 0};
    todo[0] = QUEENS_OPEN(a[0], allowed[0]);
    while (row >= 0) {
        if (!todo[row]) {
            row--;
            continue;
        }
        qword bit = todo[row] & (0 - todo[row]);
        todo[row] ^= bit;
        item[row] = bit;
        if (row + 1 < depth) {
            a[row + 1] = (struct attacks)QUEENS_STEP(a[row], bit);
            row++;
            todo[row] = QUEENS_OPEN(a[row], allowed[row]);
        } else if (found++ < room) {
            memcpy(out + (found - 1) * n, item, (size_t)n * sizeof(qword));
        }
    }
    return found;
}
