/* decide.c: one board, found the way a CP solver finds one (decide.h; its
 * specification is twin_decide.py, which this follows node for node).
 *
 * A line is a row (lines 0..n-1) or a column (lines n..2n-1); a line's i-th
 * cell is column i of a row, or row i of a column.  The state is kept in
 * multi-word bitsets, so any n is searched: the rows and columns taken, the
 * diagonals taken, and the allowed cells, by row and by column.  A line's
 * free cells are then a few words per 64 cells (line_free), read off as a
 * row's bitmask is in queens.h, with the diagonals as windows into the
 * diagonal bitsets.  Beside them, every line and diagonal keeps the number of
 * its free cells, updated at each placement: the two orders read them. */
#include <stdlib.h>
#include <string.h>

#include "decide.h"

struct level {
    int line, value; /* the line branched on, and the cell of it tried (-1: none yet) */
};

struct decide {
    int n, words, depth, run, state;
    unsigned flags;
    qword seed, nodes, run_nodes, cutoff, unit; /* unit: the first run's cutoff; run r's is unit * luby(r + 1) */
    int *queen;                   /* 2n lines: the queen's cell along it, -1 while open */
    int *count;                   /* 2n lines: free cells */
    int *up_count, *down_count;   /* 2n - 1 diagonals each: free cells */
    unsigned *prio;               /* 2n lines: this run's tie-breaking priorities */
    struct level *stack;          /* n levels */
    qword *taken[2];              /* rows, columns with a queen */
    qword *up, *down[2];          /* diagonals taken: up[r + c]; down[0][c - r + n - 1], down[1] its mirror */
    qword *allowed[2];            /* allowed cells, n lines of `words` words by row, then by column; NULL: all */
    qword *free;                  /* scratch: the free cells of one line */
};

static inline int bit(const qword *set, int i) {
    return set[i >> 6] >> (i & 63) & 1;
}

static inline void flip(qword *set, int i) {
    set[i >> 6] ^= (qword)1 << (i & 63);
}

/* Word w of a bitset read from bit `from` on: a diagonal bitset seen from a line. */
static inline qword window(const qword *set, int from, int w) {
    int at = (from >> 6) + w, shift = from & 63;
    return shift ? set[at] >> shift | set[at + 1] << (64 - shift) : set[at];
}

static qword splitmix64(qword *state) { /* Vigna's generator: as twin_decide.splitmix64 */
    qword z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The run's tie-breaking priority of each line, drawn from the seed. */
static void draw_priorities(struct decide *d) {
    qword state = d->seed ^ ((qword)d->run * 0xD1B54A32D192ED03ULL);
    for (int line = 0; line < 2 * d->n; line++)
        d->prio[line] = (unsigned)(splitmix64(&state) >> 32);
}

static int is_free(const struct decide *d, int r, int c) {
    int n = d->n;
    return d->queen[r] < 0 && d->queen[n + c] < 0 && !bit(d->up, r + c) && !bit(d->down[0], c - r + n - 1) &&
           (d->allowed[0] == NULL || bit(d->allowed[0] + (size_t)r * d->words, c));
}

/* The free cells of a line into d->free (bit i: its i-th cell): the cells
 * whose crossing line, up and down diagonals are untaken, and allowed. */
static void line_free(struct decide *d, int line) {
    int n = d->n, kind = line >= n, i = line - kind * n;
    const qword *cross = d->taken[!kind], *allowed = d->allowed[kind];
    if (d->queen[line] >= 0) { /* a line with its queen has no free cell */
        memset(d->free, 0, (size_t)d->words * sizeof(qword));
        return;
    }
    for (int w = 0; w < d->words; w++) {
        qword f = ~(cross[w] | window(d->up, i, w) | window(d->down[kind], n - 1 - i, w));
        d->free[w] = allowed ? f & allowed[(size_t)i * d->words + w] : f;
    }
    if (n & 63)
        d->free[d->words - 1] &= ((qword)1 << (n & 63)) - 1;
}

static void count_cell(struct decide *d, int r, int c, int by) {
    int n = d->n;
    d->count[r] += by;
    d->count[n + c] += by;
    d->up_count[r + c] += by;
    d->down_count[c - r + n - 1] += by;
}

/* Add `by` to the counts of each free cell on the row, the column and the
 * two diagonals through (r, c), that cell once. */
static void lines_through(struct decide *d, int r, int c, int by) {
    int n = d->n;
    for (int kind = 0; kind < 2; kind++) {
        line_free(d, kind ? n + c : r);
        for (int w = 0; w < d->words; w++)
            for (qword f = d->free[w]; f; f &= f - 1) {
                int i = 64 * w + QUEENS_CTZ(f);
                if (kind == 0)
                    count_cell(d, r, i, by);
                else if (i != r)
                    count_cell(d, i, c, by);
            }
    }
    /* the diagonals, a cell at a time: (i, c + i - r) and (i, c - i + r), for the rows i they cross */
    for (int i = r - c < 0 ? 0 : r - c, end = r - c + n < n ? r - c + n : n; i < end; i++)
        if (i != r && is_free(d, i, c + i - r))
            count_cell(d, i, c + i - r, by);
    for (int i = r + c - n + 1 < 0 ? 0 : r + c - n + 1, end = r + c + 1 < n ? r + c + 1 : n; i < end; i++)
        if (i != r && is_free(d, i, c - i + r))
            count_cell(d, i, c - i + r, by);
}

/* Place (by = -1) or take back (by = 1) the queen on a line's cell. */
static void place(struct decide *d, int line, int value, int by) {
    int n = d->n, r = line < n ? line : value, c = line < n ? value : line - n;
    if (by < 0)
        lines_through(d, r, c, by);
    d->queen[r] = by < 0 ? c : -1;
    d->queen[n + c] = by < 0 ? r : -1;
    flip(d->taken[0], r);
    flip(d->taken[1], c);
    flip(d->up, r + c);
    flip(d->down[0], c - r + n - 1);
    flip(d->down[1], r - c + n - 1);
    if (by > 0)
        lines_through(d, r, c, by); /* the same cells, free again */
}

/* The line to branch on: -1 if an open line has no free cell (a dead end),
 * -2 if every line has its queen. */
static int select_line(const struct decide *d) {
    int n = d->n, best = -2, first_row = -2;
    for (int line = 0; line < 2 * n; line++) {
        if (d->queen[line] >= 0)
            continue;
        int count = d->count[line];
        if (count == 0)
            return -1;
        if (first_row == -2 && line < n)
            first_row = line;
        if (best < 0 || count < d->count[best] || (count == d->count[best] && d->prio[line] < d->prio[best]))
            best = line;
    }
    return d->flags & DECIDE_ORDER ? best : first_row;
}

/* The order of a line's i-th cell, before i itself: the free cells it takes
 * from the lines crossing it (its crossing line's and diagonals' counts),
 * then the priority of its crossing line; 0 without DECIDE_VALUES. */
static qword value_key(const struct decide *d, int line, int i) {
    if (!(d->flags & DECIDE_VALUES))
        return 0;
    int n = d->n, crossing = line < n ? n + i : i, r = line < n ? line : i, c = line < n ? i : line - n;
    qword cost = (qword)(d->count[crossing] + d->up_count[r + c] + d->down_count[c - r + n - 1]);
    return cost << 32 | d->prio[crossing];
}

/* The free cell of a line that comes after cell `after` (-1: the first), or -1. */
static int next_value(struct decide *d, int line, int after) {
    qword last = after >= 0 ? value_key(d, line, after) : 0, best_key = 0;
    int best = -1;
    line_free(d, line);
    for (int w = 0; w < d->words; w++)
        for (qword f = d->free[w]; f; f &= f - 1) {
            int i = 64 * w + QUEENS_CTZ(f);
            qword key = value_key(d, line, i);
            int later = after < 0 || key > last || (key == last && i > after);
            if (later && (best < 0 || key < best_key))
                best = i, best_key = key; /* (i ascends: an equal key keeps the first) */
        }
    return best;
}

/* The Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..., term i >= 1: the
 * restart schedule within a log factor of the best for any distribution of
 * run lengths (Luby, Sinclair and Zuckerman 1993).  A doubling cutoff was
 * not: a dive that does not find its board at once gets stuck for millions
 * of nodes, and each doubled run was one more such dive (N = 2662 with seed
 * 7622960: no board in 8 runs and 1.2 M nodes). */
static qword luby(qword i) {
    for (;;) {
        int k = 1;
        while (((qword)1 << k) - 1 < i)
            k++;
        if (((qword)1 << k) - 1 == i)
            return (qword)1 << (k - 1);
        i -= ((qword)1 << (k - 1)) - 1;
    }
}

static void restart(struct decide *d) {
    for (; d->depth > 0; d->depth--)
        if (d->stack[d->depth - 1].value >= 0)
            place(d, d->stack[d->depth - 1].line, d->stack[d->depth - 1].value, 1);
    d->run++;
    d->run_nodes = 0;
    d->cutoff = d->unit * luby((qword)d->run + 1);
    draw_priorities(d);
    d->state = DECIDE_DESCEND;
}

int decide_advance(struct decide *d, qword nodes) {
    qword stop_at = nodes ? d->nodes + nodes : 0;
    while ((d->state == DECIDE_DESCEND || d->state == DECIDE_NEXT) && !(stop_at && d->nodes >= stop_at)) {
        if (d->state == DECIDE_DESCEND) {
            int line = select_line(d);
            if (line == -2) {
                d->state = DECIDE_FOUND;
            } else if ((d->flags & DECIDE_RESTARTS) && d->run_nodes >= d->cutoff) {
                restart(d);
            } else if (line >= 0) {
                d->stack[d->depth].line = line;
                d->stack[d->depth++].value = -1;
                d->state = DECIDE_NEXT;
            } else { /* a dead end: the next cell of the line above */
                d->state = d->depth ? DECIDE_NEXT : DECIDE_NONE;
            }
            continue;
        }
        struct level *top = &d->stack[d->depth - 1];
        if (top->value >= 0)
            place(d, top->line, top->value, 1);
        int value = next_value(d, top->line, top->value);
        if (value < 0) {
            if (--d->depth == 0)
                d->state = DECIDE_NONE;
            continue;
        }
        top->value = value;
        place(d, top->line, value, -1);
        d->nodes++;
        d->run_nodes++;
        d->state = DECIDE_DESCEND;
    }
    return d->state;
}

struct decide *decide_new(int n, const qword *allowed, qword seed, unsigned flags) {
    struct decide *d = calloc(1, sizeof *d);
    if (d == NULL)
        return NULL;
    int words = (n + 63) / 64, dwords = 2 * words + 2; /* 2n - 1 diagonals, and a window's word past them */
    d->n = n, d->words = words, d->seed = seed, d->flags = flags;
    d->unit = d->cutoff = (qword)n + DECIDE_FIRST_CUTOFF;
    d->queen = malloc(2 * (size_t)n * sizeof(int));
    d->count = calloc(2 * (size_t)n, sizeof(int));
    d->up_count = calloc(2 * (size_t)n, sizeof(int));
    d->down_count = calloc(2 * (size_t)n, sizeof(int));
    d->prio = malloc(2 * (size_t)n * sizeof(unsigned));
    d->stack = malloc((size_t)n * sizeof(struct level));
    d->taken[0] = calloc(words, sizeof(qword));
    d->taken[1] = calloc(words, sizeof(qword));
    d->up = calloc(dwords, sizeof(qword));
    d->down[0] = calloc(dwords, sizeof(qword));
    d->down[1] = calloc(dwords, sizeof(qword));
    d->free = calloc(words, sizeof(qword));
    if (allowed) {
        d->allowed[0] = malloc((size_t)n * words * sizeof(qword));
        d->allowed[1] = calloc((size_t)n * words, sizeof(qword));
    }
    if (!d->queen || !d->count || !d->up_count || !d->down_count || !d->prio || !d->stack || !d->taken[0] ||
        !d->taken[1] || !d->up || !d->down[0] || !d->down[1] || !d->free ||
        (allowed && (!d->allowed[0] || !d->allowed[1]))) {
        decide_free(d);
        return NULL;
    }
    for (int line = 0; line < 2 * n; line++)
        d->queen[line] = -1;
    if (allowed == NULL) { /* every cell: each line has n, a diagonal as many as it is long */
        for (int line = 0; line < 2 * n; line++)
            d->count[line] = n;
        for (int s = 0; s < 2 * n - 1; s++)
            d->up_count[s] = d->down_count[s] = (s < n ? s : 2 * n - 2 - s) + 1;
    } else {
        qword last = n & 63 ? ((qword)1 << (n & 63)) - 1 : ~(qword)0;
        for (int r = 0; r < n; r++)
            for (int w = 0; w < words; w++) {
                qword f = allowed[(size_t)r * words + w] & (w == words - 1 ? last : ~(qword)0);
                d->allowed[0][(size_t)r * words + w] = f;
                for (; f; f &= f - 1) {
                    int c = 64 * w + QUEENS_CTZ(f);
                    flip(d->allowed[1] + (size_t)c * words, r);
                    count_cell(d, r, c, 1);
                }
            }
    }
    draw_priorities(d);
    d->state = DECIDE_DESCEND;
    return d;
}

void decide_free(struct decide *d) {
    if (d == NULL)
        return;
    void *arrays[] = {d->queen, d->count, d->up_count, d->down_count, d->prio, d->stack, d->taken[0],
                      d->taken[1], d->up, d->down[0], d->down[1], d->free, d->allowed[0], d->allowed[1]};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    free(d);
}

qword decide_nodes(const struct decide *d) {
    return d->nodes;
}

int decide_run(const struct decide *d) {
    return d->run;
}

void decide_board(const struct decide *d, int *board) {
    memcpy(board, d->queen, (size_t)d->n * sizeof(int));
}
