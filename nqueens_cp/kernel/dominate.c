/* dominate.c: the fewest queens that occupy or attack every square, by a
 * branch and bound written from scratch (docs/variants.md explains it).
 *
 * One question at a time: can k queens dominate the board?  Some queen must
 * cover the uncovered square with the fewest candidate squares, so the search
 * branches on those candidates, and once a candidate's subtree is searched it
 * is excluded from its siblings' (each set of queens is reached once).  A
 * node is cut when even k queens each covering as many uncovered squares as
 * the best candidate could not cover them all.  Asked for k = 1, 2, ... in
 * turn (kernel.dominate), the first yes is the optimum, and the no before
 * it its proof. */
/* [cost domination kernel] */
#include "dominate.h"

#include <string.h>

typedef struct {
    qword w[DOMINATE_WORDS];
} cells;

struct board {
    int n, words, independent;
    qword *nodes;
    volatile qword *stop;
    int *queens;
    cells cover[DOMINATE_MAX_N * DOMINATE_MAX_N]; /* the squares a queen on each square covers */
};

static int has(const cells *a, int i) { return (int)(a->w[i >> 6] >> (i & 63) & 1); }

static int count_and(const cells *a, const cells *b, int words) {
    int total = 0;
    for (int i = 0; i < words; i++)
        total += QUEENS_POPCOUNT(a->w[i] & b->w[i]);
    return total;
}

/* k queens more, given what the queens so far cover and where the next may
 * stand: 1 found (queens[depth..] filled), 0 none, -1 stopped. */
static int search(struct board *b, const cells *covered, const cells *allowed, int k, int depth) {
    if ((++*b->nodes & 4095) == 0 && *b->stop)
        return -1;
    int cellcount = b->n * b->n, words = b->words;
    cells open, where; /* the uncovered squares; the squares a queen may take */
    int uncovered = 0;
    for (int i = 0; i < words; i++) {
        open.w[i] = ~covered->w[i];
        where.w[i] = allowed->w[i] & (b->independent ? ~covered->w[i] : ~(qword)0);
    }
    if (cellcount % 64)
        open.w[words - 1] &= ((qword)1 << (cellcount % 64)) - 1;
    for (int i = 0; i < words; i++)
        uncovered += QUEENS_POPCOUNT(open.w[i]);
    if (uncovered == 0)
        return 1;
    if (k == 0)
        return 0;
    int best = -1, fewest = cellcount + 1, gain = 0;
    for (int s = 0; s < cellcount; s++) {
        if (has(&where, s)) { /* the bound: the most a queen covers now */
            int g = count_and(&b->cover[s], &open, words);
            gain = g > gain ? g : gain;
        }
        if (has(&open, s)) { /* the uncovered square with the fewest candidates */
            int c = count_and(&b->cover[s], &where, words);
            if (c < fewest)
                fewest = c, best = s;
        }
    }
    if (fewest == 0 || gain * k < uncovered)
        return 0;
    cells left = *allowed;
    for (int v = 0; v < cellcount; v++) {
        if (!has(&b->cover[best], v) || !has(&where, v) || !has(&left, v))
            continue;
        left.w[v >> 6] &= ~((qword)1 << (v & 63)); /* v's subtree, then never again beside it */
        cells more;
        for (int i = 0; i < words; i++)
            more.w[i] = covered->w[i] | b->cover[v].w[i];
        b->queens[depth] = v;
        int found = search(b, &more, &left, k - 1, depth + 1);
        if (found != 0)
            return found;
    }
    return 0;
}

int dominate(int n, int independent, int k, int *queens, qword *nodes, volatile qword *stop) {
    static __thread struct board b; /* 128 KB of cover sets: not on the stack */
    b.n = n, b.words = (n * n + 63) / 64, b.independent = independent;
    b.nodes = nodes, b.stop = stop, b.queens = queens;
    for (int s = 0; s < n * n; s++) {
        memset(&b.cover[s], 0, sizeof b.cover[s]);
        int r = s / n, c = s % n;
        for (int t = 0; t < n * n; t++) {
            int r2 = t / n, c2 = t % n;
            if (r == r2 || c == c2 || r - c == r2 - c2 || r + c == r2 + c2)
                b.cover[s].w[t >> 6] |= (qword)1 << (t & 63);
        }
    }
    cells none, all;
    memset(&none, 0, sizeof none);
    memset(&all, 0xff, sizeof all);
    return search(&b, &none, &all, k, 0);
}
/* [end cost] */
