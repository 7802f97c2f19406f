/* repair.c: one board of a huge N by local search (repair.h; its
 * specification is twin_repair.py, which this follows swap for swap).
 *
 * The board is a permutation q (row r's queen in column q[r]), so no two
 * queens share a row or a column, and a swap of two rows' columns keeps it
 * one.  Only the other lines can attack: for each family of them (the lines
 * of c - r, of c + r), the number of queens on each line.  A queen's attacks
 * are then read in O(1): the queens on its lines, the offsets (a knight's
 * moves) looked up in q, a blocked square looked up in a sorted list.
 *
 * 1. The start (Sosic and Gu's QS4): row by row, draw the row's column from
 *    the columns not yet used (a Fisher-Yates shuffle, one swap a draw) until
 *    no queen placed so far attacks it, at most REPAIR_START_TRIES draws.
 *    Almost every queen finds a free square; the few that did not are noted.
 * 2. The repair: while a noted queen is attacked, swap its column with a
 *    random row's and keep the swap if the number of attacking pairs (the
 *    cost) went down.  A swap changes four squares, so its cost is known
 *    in O(1).  After too many swaps in vain, start again.
 *
 * Every attacking pair has one of its queens noted: the start notes the queen
 * it places under attack, a kept swap notes the queen it moved if it is
 * attacked, and a queen leaves the notes only when nothing attacks it.  So
 * the cost is 0, and the board a solution, once the notes are empty. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "repair.h"

#define REPAIR_AHEAD 8        /* words drawn ahead (a power of two is not needed) */
#define REPAIR_FILL_ROWS 65536 /* rows a step of the fill: about a millisecond */

struct repair {
    int n, m;               /* the board, and its rows whose queen moves */
    int *q;                 /* q[r]: row r's column (the caller's board); -1 while a swap lifts it */
    int *row;               /* the movable rows, ascending; NULL: every row (no fixed queen) */
    qword *fixed;           /* bit r: row r's queen never moves; NULL: none does */
    int mode[2];            /* the lines of c - r ([0]) and of c + r ([1]): LINE_NONE, LINE_EDGE, LINE_WRAP */
    int *count[2];          /* queens on each line of those families (NULL: LINE_NONE) */
    size_t lines[2];        /* how many lines each family has */
    int offsets[2 * REPAIR_MAX_OFFSETS], noffsets;
    qword *blocked;         /* squares r * n + c never taken, ascending (a copy) */
    int nblocked;
    qword rng, ahead[REPAIR_AHEAD]; /* the generator, and its next words, drawn ahead to prefetch by */
    int state;
    int next, frontier;     /* the start: the next position to place, and its row (n once placed) */
    int filled, identity;   /* the fill: rows done; whether it writes the identity into the board */
    qword cost;             /* attacking pairs, and one more for each queen on a blocked square */
    int *todo;              /* the noted rows: every attacking pair has a queen here */
    size_t ntodo, cap;
    qword swaps, moves, restarts, attacked, since;
};

static qword splitmix64(qword *state) { /* Vigna's generator: as twin_decide.splitmix64 */
    qword z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Ask the kernel for huge pages under an array of a large board: its lines
 * are read at random, and with 4 KiB pages nearly every read also misses the
 * TLB (1.4x faster at N = 10^8).  Only advice: nothing changes without it. */
static void advise_huge(void *start, size_t bytes) {
#ifdef MADV_HUGEPAGE
    const size_t huge = (size_t)2 << 20;
    size_t from = ((size_t)start + huge - 1) & ~(huge - 1), to = ((size_t)start + bytes) & ~(huge - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
    (void)start, (void)bytes;
#endif
}

/* A number in 0 .. range - 1 (range < 2^32): the high half of a word, scaled. */
static inline int scale(qword word, int range) { return (int)((word >> 32) * (qword)range >> 32); }

/* The next draw: the words come in the generator's order, REPAIR_AHEAD drawn ahead. */
static inline int uniform(struct repair *s, int range) {
    qword word = s->ahead[0];
    memmove(s->ahead, s->ahead + 1, (REPAIR_AHEAD - 1) * sizeof(qword));
    s->ahead[REPAIR_AHEAD - 1] = splitmix64(&s->rng);
    return scale(word, range);
}

static inline int row_at(const struct repair *s, int k) { return s->row ? s->row[k] : k; }

/* The line of square (r, c) in family f (0: c - r, 1: c + r). */
static inline size_t line(const struct repair *s, int f, int r, int c) {
    int n = s->n;
    if (f == 0) {
        int v = c - r + n; /* 1 .. 2n - 1 */
        return s->mode[0] == LINE_WRAP ? (size_t)(v >= n ? v - n : v) : (size_t)(v - 1);
    }
    int v = c + r; /* 0 .. 2n - 2 */
    return s->mode[1] == LINE_WRAP && v >= n ? (size_t)(v - n) : (size_t)v;
}

/* Whether row r's queen is on the board: fixed, or placed by the start. */
static inline int placed(const struct repair *s, int r) {
    return r < s->frontier || (s->fixed && (s->fixed[r >> 6] >> (r & 63) & 1));
}

static int is_blocked(const struct repair *s, int r, int c) {
    qword key = (qword)r * (qword)s->n + (qword)c;
    int lo = 0, hi = s->nblocked;
    while (lo < hi) { /* binary search */
        int mid = (lo + hi) / 2;
        if (s->blocked[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nblocked && s->blocked[lo] == key;
}

/* The attacks a queen on (r, c) would meet from the queens on the board
 * (itself not among them): the cost it adds. */
static qword attacks(const struct repair *s, int r, int c) {
    qword hits = 0;
    for (int f = 0; f < 2; f++)
        if (s->count[f])
            hits += (qword)s->count[f][line(s, f, r, c)];
    for (int k = 0; k < s->noffsets; k++) {
        int dr = s->offsets[2 * k], dc = s->offsets[2 * k + 1];
        if (r + dr < s->n && c + dc >= 0 && c + dc < s->n && placed(s, r + dr) && s->q[r + dr] == c + dc)
            hits++;
        if (r - dr >= 0 && c - dc >= 0 && c - dc < s->n && placed(s, r - dr) && s->q[r - dr] == c - dc)
            hits++;
    }
    return hits + (s->nblocked && is_blocked(s, r, c));
}

/* Row r's queen onto column c, and off the board again. */
static void put(struct repair *s, int r, int c) {
    s->cost += attacks(s, r, c);
    for (int f = 0; f < 2; f++)
        if (s->count[f])
            s->count[f][line(s, f, r, c)]++;
    s->q[r] = c;
}

static void lift(struct repair *s, int r) {
    int c = s->q[r];
    s->q[r] = -1;
    for (int f = 0; f < 2; f++)
        if (s->count[f])
            s->count[f][line(s, f, r, c)]--;
    s->cost -= attacks(s, r, c);
}

/* Whether row r's queen is attacked: lifted, then put back, it adds a cost. */
static int is_attacked(struct repair *s, int r) {
    int c = s->q[r];
    lift(s, r);
    qword before = s->cost;
    put(s, r, c);
    return s->cost != before;
}

static int note(struct repair *s, int r) {
    if (s->ntodo == s->cap) {
        size_t cap = s->cap * 2;
        int *todo = realloc(s->todo, cap * sizeof(int));
        if (todo == NULL)
            return 0;
        s->todo = todo, s->cap = cap;
    }
    s->todo[s->ntodo++] = r;
    return 1;
}

/* A start from the current permutation on an empty board (but for the fixed
 * queens, put back on their lines): the lines' counts are all 0. */
static void begin(struct repair *s) {
    s->cost = 0, s->ntodo = 0, s->next = 0, s->since = 0;
    s->frontier = s->n; /* (the fixed queens see each other) */
    for (int r = 0; s->fixed && r < s->n; r++) {
        if (s->fixed[r >> 6] >> (r & 63) & 1) {
            int c = s->q[r];
            s->q[r] = -1;
            put(s, r, c);
        }
    }
    s->frontier = s->m ? row_at(s, 0) : s->n;
    s->state = s->m ? REPAIR_START : REPAIR_SWAP;
}

/* The start, one row: draw its column among those left until the square is
 * free (or the draws run out), and place it. */
static int start_row(struct repair *s) {
    int k = s->next, r = s->frontier;
    for (int tries = 1;; tries++) {
        /* The draws ahead are known (the rows they fall on move by a row or
         * two as the start goes on: the same cache lines): fetch the column
         * of the last word drawn ahead, and the lines of the column that
         * came in half as many draws ago, while this draw waits for its own. */
        int range = s->m - k;
        __builtin_prefetch(&s->q[row_at(s, k + scale(s->ahead[REPAIR_AHEAD - 1], range))]);
        int next = s->q[row_at(s, k + scale(s->ahead[REPAIR_AHEAD / 2], range))];
        for (int f = 0; f < 2; f++)
            if (s->count[f])
                __builtin_prefetch(&s->count[f][line(s, f, r, next)]);
        int j = k + uniform(s, range), other = row_at(s, j), c = s->q[other];
        s->q[other] = s->q[r], s->q[r] = c; /* Fisher-Yates: one swap a draw */
        s->swaps++;
        if (attacks(s, r, c) == 0 || tries == REPAIR_START_TRIES || k + 1 == s->m)
            break;
    }
    s->frontier = k + 1 < s->m ? row_at(s, k + 1) : s->n;
    qword before = s->cost;
    int c = s->q[r];
    s->q[r] = -1; /* (put reads the board without it) */
    put(s, r, c);
    s->next = k + 1;
    if (s->cost != before && !note(s, r))
        return 0;
    if (s->next == s->m) {
        s->state = REPAIR_SWAP;
        s->attacked = s->ntodo;
    }
    return 1;
}

/* The repair, one swap tried: the last noted row's column with a random
 * row's, kept if the cost goes down.  A noted row nothing attacks leaves the
 * notes (no swap tried). */
static int swap_step(struct repair *s) {
    int a = s->todo[s->ntodo - 1];
    if (!is_attacked(s, a)) {
        s->ntodo--;
        return 1;
    }
    int b = row_at(s, uniform(s, s->m));
    s->swaps++;
    s->since++;
    if (b == a)
        return 1;
    qword before = s->cost;
    int ca = s->q[a], cb = s->q[b];
    lift(s, a), lift(s, b);
    put(s, a, cb), put(s, b, ca);
    if (s->cost >= before) { /* no better: undo */
        lift(s, a), lift(s, b);
        put(s, a, ca), put(s, b, cb);
        return 1;
    }
    s->moves++;
    s->since = 0;
    return !is_attacked(s, b) || note(s, b);
}

/* The fill, one step: the identity into REPAIR_FILL_ROWS rows of the board
 * (where no queen is fixed), and the lines' counts of those rows written
 * once, so that their pages are mapped in order now, a step at a time, not
 * at random by the start's first reads (half a second at N = 10^8, beyond
 * any clock check).  Then the start begins. */
static void fill_step(struct repair *s) {
    int from = s->filled, to = s->n - from < REPAIR_FILL_ROWS ? s->n : from + REPAIR_FILL_ROWS;
    for (int r = from; s->identity && r < to; r++)
        s->q[r] = r;
    for (int f = 0; f < 2; f++) {
        size_t start = (size_t)from * s->lines[f] / (size_t)s->n, stop = (size_t)to * s->lines[f] / (size_t)s->n;
        if (s->count[f])
            memset(s->count[f] + start, 0, (stop - start) * sizeof(int));
    }
    s->filled = to;
    if (to == s->n)
        begin(s);
}

static qword now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (qword)t.tv_sec * 1000000000u + (qword)t.tv_nsec;
}

int repair_advance(struct repair *s, qword swaps, qword deadline) {
    qword stop = s->swaps + swaps;
    for (unsigned ticks = 1; s->state != REPAIR_FOUND && s->state != REPAIR_NOMEM && (swaps == 0 || s->swaps < stop);
         ticks++) {
        int ok = 1;
        if (deadline && (ticks % 64 == 0 || s->state == REPAIR_FILL) && now_ns() > deadline)
            break;
        if (s->state == REPAIR_FILL) {
            fill_step(s);
        } else if (s->state == REPAIR_START) {
            ok = start_row(s);
        } else if (s->cost == 0 || s->ntodo == 0) {
            s->state = REPAIR_FOUND; /* (the notes empty with a cost left would be a defect: the caller's validator sees it) */
            continue;
        } else if (s->since > 2 * (qword)s->m + 32) { /* stuck on a local minimum: start again */
            for (int f = 0; f < 2; f++)
                if (s->count[f])
                    memset(s->count[f], 0, s->lines[f] * sizeof(int));
            begin(s);
            s->restarts++;
            continue;
        } else {
            ok = swap_step(s);
        }
        if (!ok)
            s->state = REPAIR_NOMEM;
    }
    return s->state;
}

struct repair *repair_new(int n, int *board, int down, int up, const int *offsets, int noffsets,
                          const int *fixed, int nfixed, const qword *blocked, int nblocked, qword seed) {
    struct repair *s = calloc(1, sizeof *s);
    if (s == NULL || noffsets > REPAIR_MAX_OFFSETS)
        goto fail;
    s->n = n, s->m = n - nfixed, s->q = board, s->rng = seed, s->cap = 1024;
    for (int i = 0; i < REPAIR_AHEAD; i++)
        s->ahead[i] = splitmix64(&s->rng);
    s->mode[0] = down, s->mode[1] = up, s->noffsets = noffsets, s->nblocked = nblocked;
    memcpy(s->offsets, offsets, (size_t)noffsets * 2 * sizeof(int));
    s->todo = malloc(s->cap * sizeof(int));
    s->blocked = malloc(((size_t)nblocked + 1) * sizeof(qword));
    if (s->todo == NULL || s->blocked == NULL)
        goto fail;
    memcpy(s->blocked, blocked, (size_t)nblocked * sizeof(qword));
    for (int f = 0; f < 2; f++) {
        if (s->mode[f] == LINE_NONE)
            continue;
        s->lines[f] = s->mode[f] == LINE_WRAP ? (size_t)n : 2 * (size_t)n - 1;
        if ((s->count[f] = calloc(s->lines[f], sizeof(int))) == NULL)
            goto fail;
        advise_huge(s->count[f], s->lines[f] * sizeof(int));
    }
    advise_huge(board, (size_t)n * sizeof(int));
    s->identity = nfixed == 0; /* the fill writes the identity: the start shuffles it */
    if (nfixed) {
        s->fixed = calloc(((size_t)n + 63) / 64, sizeof(qword));
        qword *used = calloc(((size_t)n + 63) / 64, sizeof(qword));
        s->row = malloc((size_t)s->m * sizeof(int) + 1);
        if (s->fixed == NULL || used == NULL || s->row == NULL) {
            free(used);
            goto fail;
        }
        for (int i = 0; i < nfixed; i++) {
            int r = fixed[2 * i], c = fixed[2 * i + 1];
            s->fixed[r >> 6] |= (qword)1 << (r & 63);
            used[c >> 6] |= (qword)1 << (c & 63);
            board[r] = c;
        }
        /* The movable rows, ascending, take the columns no fixed queen holds, ascending. */
        for (int r = 0, c = 0, k = 0; r < n; r++) {
            if (s->fixed[r >> 6] >> (r & 63) & 1)
                continue;
            while (used[c >> 6] >> (c & 63) & 1)
                c++;
            s->row[k++] = r, board[r] = c++;
        }
        free(used);
    }
    s->state = REPAIR_FILL; /* (calloc's counts are 0: the fill only maps them) */
    return s;
fail:
    repair_free(s);
    return NULL;
}

void repair_free(struct repair *s) {
    if (s == NULL)
        return;
    free(s->count[0]), free(s->count[1]), free(s->row), free(s->fixed), free(s->blocked), free(s->todo);
    free(s);
}

qword repair_swaps(const struct repair *s) { return s->swaps; }
qword repair_moves(const struct repair *s) { return s->moves; }
qword repair_restarts(const struct repair *s) { return s->restarts; }
qword repair_attacked(const struct repair *s) { return s->attacked; }
