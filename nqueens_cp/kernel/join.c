/* join.c: counting plain N by joining quarters of the board, compiled.
 *
 * nqueens_cp/counting/quarters.py is the lesson and the specification; read it
 * first.  This file does the same with these changes, each for speed:
 *
 * 1. One table for all four quarters.  A quarter is an h x h square; its
 *    placements, in the square's own coordinates, are the same whichever
 *    quarter it is.  Moving a placement to a quarter shifts its diagonals
 *    by a constant (the quarter's offsets, `struct quarter`).
 * 2. Symmetry.  A board with east rows E mirrored top to bottom has east
 *    rows V(E) (the rows reversed), mirrored left to right it has the other
 *    rows, H(E).  Where the middle queens allow (even N, or one queen in the
 *    centre) only the least row set of each orbit is joined, counted as many
 *    times as its orbit holds.  The caller does the same for the middle
 *    queens of an odd N under the square's eight symmetries.
 * 2b. The longest diagonals (even N).  The other four symmetries swap rows
 *    and columns, so they map no row set to another; but mirrored in the
 *    anti-diagonal a board's main-diagonal queen moves between north-west
 *    and south-east, and transposed its anti-diagonal queen between
 *    north-east and south-west.  Let f(E) count E's boards with neither
 *    long diagonal's queen east, weighted 2 for each that stands west (the
 *    lesson's step 5: over all row sets that is the total).  F is not kept
 *    by H: f(H(E)) = g(E), the same with east and west swapped; so an
 *    orbit of the flips, which holds E and H(E), has (its size / 2)(f + g)
 *    boards.  Per pair of lists, with "none", "one" and "two" the halves
 *    with that many queens on the long diagonals, (f + g) / 2 is
 *    none x (none and one) + one x none + 2 (none x two + two x none):
 *    only pairs with a side on neither are tested (`grouped`).
 * 2c. An odd N's middle queens take two diagonals and two anti-diagonals:
 *    each quarter's placements clear of them are copied into a table of
 *    their own once for the count (`table_filtered`), so that listing a
 *    half never meets one that is not (at N = 17 three in five of the
 *    north placements listed were not, each joined with the south ones
 *    before it was thrown away).
 * 3. A half is kept as one 64-bit key: the diagonals and anti-diagonals it
 *    takes that the other half could take too (the window: diagonals with
 *    index C0 .. N + h - 2, C0 the first east column, both kinds).
 * 4. The keys of an east and a west list are put in buckets by a few
 *    telling bits (an id): the bits that most pairs have in common
 *    (`telling_bits`), as many as leave the longer list's buckets about
 *    `bucket` keys where the shorter list has JOIN_DENSE_LIST keys or more,
 *    else JOIN_ID_BITS (`bucketed`); short lists are not put in buckets but
 *    tested pair by pair (`joined`).  The buckets are joined in dense.c,
 *    the second room of the count, which has its own opening comment
 *    (steps 5 and 6); what the two share is dense.h.
 *
 * The listing of a half is cut into pieces of at most `cap` keys (the
 * memory the caller allows); every piece of east halves is joined with
 * every piece of west halves. */
#include "join.h"
#include "dense.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* --- memory ----------------------------------------------------------------------- */

/* Room for one of the count's large arrays, 64-byte aligned (the dense words are read a cache line at a
 * time).  (Marked for huge pages besides, from 2 MB on, they changed nothing: windows of 22 and 23 took
 * 0.994x and 1.013x the time, kernels.py, 2026-12-01.) */
static void *join_alloc(size_t bytes) {
    return aligned_alloc(64, bytes ? (bytes + 63) & ~(size_t)63 : 64);
}

/* One array's room, kept from one call to the next: `room` bytes at `mem`, or none. */
struct kept {
    void *mem;
    size_t room;
};

/* k's memory, made at least `bytes` long (what it held is lost where it grows), or NULL when memory ran
 * out (k is then empty). */
static void *kept_fit(struct kept *k, size_t bytes) {
    if (k->room < bytes || !k->mem) {
        free(k->mem);
        k->mem = join_alloc(bytes);
        k->room = k->mem ? bytes : 0;
    }
    return k->mem;
}

/* The arrays of a workspace: the two lists of halves, the places and leaves of the join, the south's
 * placements, the two lists' buckets, and an odd N's four quarters filtered clear of the middle queens
 * (their starts and placements). */
enum {
    KEPT_P, KEPT_Q, KEPT_PLACES, KEPT_LEAF, KEPT_ROOM, KEPT_BP_KEY, KEPT_BP_LOW, KEPT_BP_START, KEPT_BQ_KEY,
    KEPT_BQ_LOW, KEPT_BQ_START, KEPT_BQ_SUMS, KEPT_BQ_AT, KEPT_FILTERED_START, KEPT_FILTERED_ENTRY = KEPT_FILTERED_START + 4,
    KEPT_ARRAYS = KEPT_FILTERED_ENTRY + 4
};

/* What a count's call needs besides the table, kept in the process for its next call.  A worker counts
 * part after part, and each call takes the same arrays (at N = 23 about 2.2 GB, nearly all of it the four
 * filtered quarters, each written whole).  Fresh from malloc each time, every page of them faulted and was
 * zeroed by the kernel when first written: about two thirds of the 1.2 s each call of 23 spent before its
 * first half (perf: clear_page_erms under lister_open).  One workspace is kept: a call takes it and gives
 * it back as it returns; a call in another thread meanwhile makes one of its own, and of the two given
 * back the one given last is kept. */
struct workspace {
    struct kept kept[KEPT_ARRAYS];
};

static _Atomic(struct workspace *) workspace_kept;

static void workspace_free(struct workspace *w) {
    if (!w)
        return;
    for (int i = 0; i < KEPT_ARRAYS; i++)
        free(w->kept[i].mem);
    free(w);
}

/* The kept workspace, or a new empty one (NULL when memory ran out). */
static struct workspace *workspace_take(void) {
    struct workspace *w = atomic_exchange(&workspace_kept, NULL);
    return w ? w : calloc(1, sizeof *w);
}

static void workspace_give(struct workspace *w) {
    if (w)
        workspace_free(atomic_exchange(&workspace_kept, w));
}

uint64_t join_kept_bytes(void) {
    struct workspace *w = atomic_exchange(&workspace_kept, NULL);
    uint64_t bytes = 0;
    for (int i = 0; w && i < KEPT_ARRAYS; i++)
        bytes += w->kept[i].room;
    workspace_give(w);
    return bytes;
}

void join_release(void) {
    workspace_free(atomic_exchange(&workspace_kept, NULL));
}

/* --- the quarters' table ------------------------------------------------------------ */

/* The bucket of the placements on these rows and columns of a quarter
 * (join.h).  The rows on top: a half's listing reads, for its north rows,
 * one choice of columns after another, each with the south's rows and the
 * other columns, so the starts and placements it reads next are near the
 * last ones.  With the columns on top (as before 2026-11-28) each choice's
 * start was 4 << h bytes from the last, and the listing waited on most of
 * them: with the rows on top it takes 0.71x the time at N = 20, 0.77x at
 * 19 and 0.78x at 21 (slices, one core), the lists the same. */
static inline uint32_t join_bucket(uint32_t rows, uint32_t cols, int h) {
    return rows << h | cols;
}

struct placer {
    int h;
    uint32_t *count; /* per bucket: how many (first pass), where the next goes (second) */
    uint64_t *entry; /* NULL on the first pass */
    uint64_t size;
};

/* One placement of the whole square: counted in its bucket (first pass) or put there (second). */
static inline void placed(struct placer *p, uint32_t rows, uint32_t cols, uint32_t diag, uint32_t anti) {
    uint32_t bucket = join_bucket(rows, cols, p->h);
    if (p->entry)
        p->entry[p->count[bucket]++] = (uint64_t)diag | (uint64_t)anti << 32;
    else if (p->count)
        p->count[bucket]++;
    p->size++;
}

/* Every placement of rows i .. h-1, the rows above already decided.  A row's open columns are found at
 * once, from the bits the rows above took, and the last row's placements are put here, not a call each
 * (with a test of each column and a call a placement, the table of 22 took 2.3 times as long: 6.2 to
 * 6.8 s against 2.4 to 3.0, and of 18 about 1.8 times: 2026-12-01). */
static void place(struct placer *p, int i, uint32_t rows, uint32_t cols, uint32_t diag, uint32_t anti) {
    int h = p->h;
    if (i == h) {
        placed(p, rows, cols, diag, anti);
        return;
    }
    /* row i's open columns, in order: column j takes diagonal j - i + h - 1 and anti-diagonal i + j */
    uint32_t open = ~(cols | diag >> (h - 1 - i) | anti >> i) & ((1u << h) - 1);
    if (i == h - 1) {
        placed(p, rows, cols, diag, anti); /* row i empty in this quarter */
        for (; open; open &= open - 1) {
            int j = __builtin_ctz(open);
            placed(p, rows | 1u << i, cols | 1u << j, diag | 1u << (j - i + h - 1), anti | 1u << (i + j));
        }
        return;
    }
    place(p, i + 1, rows, cols, diag, anti); /* row i empty in this quarter */
    for (; open; open &= open - 1) {
        int j = __builtin_ctz(open);
        place(p, i + 1, rows | 1u << i, cols | 1u << j, diag | 1u << (j - i + h - 1), anti | 1u << (i + j));
    }
}

int join_table_measure(int h, uint64_t *size, uint64_t *largest) {
    size_t buckets = (size_t)1 << 2 * h;
    uint32_t *count = calloc(buckets, sizeof *count);
    if (!count)
        return -1;
    struct placer p = {h, count, NULL, 0};
    place(&p, 0, 0, 0, 0, 0); /* the first pass of join_table_build: the buckets counted, nothing kept */
    *size = p.size, *largest = 0;
    for (size_t b = 0; b < buckets; b++)
        if (count[b] > *largest)
            *largest = count[b];
    free(count);
    return 0;
}

/* Per set of rows, the sets of columns that some placement uses with them
 * (t's columns_start and columns, from its start): 0, or -1 when memory ran out. */
static int table_columns(struct join_table *t) {
    int h = t->h;
    size_t buckets = (size_t)1 << 2 * h;
    uint32_t rows_sets = 1u << h, listed = 0;
    t->columns_start = malloc((rows_sets + 1) * sizeof *t->columns_start);
    for (size_t b = 0; b < buckets; b++)
        listed += t->start[b + 1] > t->start[b];
    t->columns = malloc((listed ? listed : 1) * sizeof *t->columns);
    if (!t->columns_start || !t->columns)
        return -1;
    listed = 0;
    for (uint32_t rows = 0; rows < rows_sets; rows++) {
        t->columns_start[rows] = listed;
        for (uint32_t cols = 0; cols < rows_sets; cols++)
            if (t->start[join_bucket(rows, cols, h) + 1] > t->start[join_bucket(rows, cols, h)])
                t->columns[listed++] = cols;
    }
    t->columns_start[rows_sets] = listed;
    return 0;
}

int join_table_build(struct join_table *t, int h) {
    size_t buckets = (size_t)1 << 2 * h;
    uint64_t began = nanoseconds();
    memset(t, 0, sizeof *t);
    t->h = h;
    t->start = join_alloc((buckets + 1) * sizeof *t->start);
    uint32_t *next = calloc(buckets, sizeof *next);
    if (!t->start || !next)
        goto nomem;
    struct placer p = {h, next, NULL, 0};
    place(&p, 0, 0, 0, 0, 0);
    t->size = p.size;
    t->entry = join_alloc(p.size * sizeof *t->entry);
    if (!t->entry)
        goto nomem;
    uint32_t at = 0;
    for (size_t b = 0; b < buckets; b++) {
        t->start[b] = at;
        at += next[b];
        if (next[b] > t->largest)
            t->largest = next[b];
        next[b] = t->start[b];
    }
    t->start[buckets] = at;
    if (table_columns(t))
        goto nomem;
    p = (struct placer){h, next, t->entry, 0};
    place(&p, 0, 0, 0, 0, 0);
    free(next);
    t->ns_built = nanoseconds() - began;
    return 0;
nomem:
    free(next);
    join_table_free(t);
    return -1;
}

int join_table_sizes(struct join_table *t, int h) {
    size_t buckets = (size_t)1 << 2 * h;
    memset(t, 0, sizeof *t);
    t->h = h;
    t->start = calloc(buckets + 1, sizeof *t->start);
    if (!t->start)
        return -1;
    struct placer p = {h, t->start + 1, NULL, 0}; /* counted into start[b + 1], then summed */
    place(&p, 0, 0, 0, 0, 0);
    t->size = p.size;
    for (size_t b = 0; b < buckets; b++) {
        if (t->start[b + 1] > t->largest)
            t->largest = t->start[b + 1];
        t->start[b + 1] += t->start[b];
    }
    if (table_columns(t)) {
        join_table_free(t);
        return -1;
    }
    return 0;
}

void join_table_free(struct join_table *t) {
    free(t->start);
    free(t->entry);
    free(t->columns_start);
    free(t->columns);
    memset(t, 0, sizeof *t);
}

/* --- the halves ------------------------------------------------------------------- */

/* Where a quarter lies: its placements' diagonals shift this far on the board. */
struct quarter {
    int diag, anti;
};

static struct quarter quarter_at(int n, int h, int row0, int col0) {
    return (struct quarter){col0 - row0 + n - h, row0 + col0};
}

/* A filtered table's own arrays (its starts and placements are its workspace's). */
static void table_filtered_free(struct join_table *f) {
    free(f->columns_start);
    free(f->columns);
    memset(f, 0, sizeof *f);
}

/* The placements of t that, moved onto the quarter `at`, take none of the
 * diagonals `diag0` and anti-diagonals `anti0` (an odd N's middle queens'),
 * in their order, as a table of their own in *f (2c. above), its starts and
 * placements in the kept arrays `start` and `entry`: 0, or -1 when memory
 * ran out (nothing held then but those arrays). */
static int table_filtered(struct join_table *f, const struct join_table *t, struct quarter at, uint64_t diag0,
                          uint64_t anti0, struct kept *start, struct kept *entry) {
    int h = t->h;
    size_t buckets = (size_t)1 << 2 * h;
    memset(f, 0, sizeof *f);
    f->h = h;
    f->start = kept_fit(start, (buckets + 1) * sizeof *f->start);
    f->entry = kept_fit(entry, t->size * sizeof *f->entry);
    if (!f->start || !f->entry) {
        memset(f, 0, sizeof *f);
        return -1;
    }
    uint32_t kept = 0;
    for (size_t b = 0; b < buckets; b++) {
        f->start[b] = kept;
        for (uint32_t j = t->start[b]; j < t->start[b + 1]; j++) {
            uint64_t e = t->entry[j];
            f->entry[kept] = e; /* written always, kept when clear */
            kept += (((e & 0xffffffffu) << at.diag & diag0) | ((e >> 32) << at.anti & anti0)) == 0;
        }
        if (kept - f->start[b] > f->largest)
            f->largest = kept - f->start[b];
    }
    f->start[buckets] = kept;
    f->size = kept;
    if (table_columns(f)) {
        table_filtered_free(f);
        return -1;
    }
    return 0;
}

/* One half's placements, listed `room` at a time: its north quarter's on
 * `rows_n` (the square's rows) and as many of the half's free columns, its
 * south quarter's on `rows_s` and the rest, diagonals apart (each quarter's
 * own table: for an odd N, those clear of the middle queens).  The north's
 * column sets are those of its table's non-empty buckets of rows_n
 * (`columns`).  For each choice of the north's columns, the south's
 * placements are moved onto the board once (`south`), then every north
 * placement is tested against all of them.  The state (the choice, the next
 * north placement) lets a long list resume where the last call stopped. */
/* (a south array's room past the table's largest bucket: AVX2's loops read four lanes from any of its keys,
 * and few_joined_avx2 the first eight, however few) */
#define SOUTH_PAST 8
struct south {
    uint64_t *diag, *anti, *key; /* each as long as the table's largest bucket, and SOUTH_PAST */
    uint64_t count;
};

struct half {
    const struct join_table *tn, *ts; /* the north quarter's table, the south's */
    struct quarter north, south;
    uint32_t rows_n, rows_s, cols; /* cols: the half's free columns, in the square's columns */
    int low, span;                 /* the window: diagonals low .. low + span - 1, both kinds */
    struct south below;            /* the south's placements of this choice, on the board */
    /* where it stands */
    uint32_t choice; /* the north's columns: an index into the table's columns of rows_n */
    uint64_t i;      /* the next north entry (an index into the table); UINT64_MAX: a new choice */
    int done;
};

/* The next combination with as many bits (Gosper's), or 0 beyond `width` bits. */
static uint32_t next_combination(uint32_t c, int width) {
    uint32_t low = c & -c, up = c + low;
    uint64_t next = up | (((c ^ up) >> 2) / low);
    return next >> width ? 0 : (uint32_t)next;
}

static void half_start(struct half *g, const struct join_table *tn, const struct join_table *ts,
                       struct quarter north, struct quarter south, uint32_t rows_n, uint32_t rows_s, uint32_t cols,
                       int low, int span, struct south below) {
    *g = (struct half){tn, ts, north, south, rows_n, rows_s, cols, low, span, below, tn->columns_start[rows_n],
                       UINT64_MAX, 0};
}

/* A placement's diagonals as a key: those in the window (diagonals low ..
 * low + span - 1, `window` = span ones), both kinds side by side. */
static inline uint64_t key_of(uint64_t diag, uint64_t anti, int low, int span, uint64_t window) {
    return (diag >> low & window) | (anti >> low & window) << span;
}

/* One north placement (its key kn, diagonals dn, anti-diagonals an) with
 * each of `count` south placements: the keys of those apart written from
 * out[0] on, in their order; how many.  Written once for any machine (the
 * compiler's loop: every key written, kept when apart) and with AVX-512 by
 * hand, eight at a time: a test of eight in one instruction and the keys
 * apart compressed into a register, stored whole (out has room for eight
 * past the last key kept). */
static inline uint64_t south_joined(uint64_t kn, uint64_t dn, uint64_t an, const uint64_t *sdiag,
                                    const uint64_t *santi, const uint64_t *skey, uint64_t count, uint64_t *out) {
    uint64_t made = 0;
    for (uint64_t j = 0; j < count; j++) { /* written always, kept when apart */
        out[made] = kn | skey[j];
        made += ((dn & sdiag[j]) | (an & santi[j])) == 0;
    }
    return made;
}

#ifdef HAND_WRITTEN

__attribute__((target("avx512f"))) static uint64_t south_joined_avx512(uint64_t kn, uint64_t dn, uint64_t an,
                                                                       const uint64_t *sdiag, const uint64_t *santi,
                                                                       const uint64_t *skey, uint64_t count,
                                                                       uint64_t *out) {
    const __m512i key = _mm512_set1_epi64((long long)kn), diag = _mm512_set1_epi64((long long)dn),
                  anti = _mm512_set1_epi64((long long)an);
    uint64_t made = 0;
    for (uint64_t j = 0; j < count; j += 8) {
        __mmask8 in = (__mmask8)(count - j >= 8 ? 0xff : (1u << (count - j)) - 1);
        __m512i d = _mm512_maskz_loadu_epi64(in, sdiag + j), a = _mm512_maskz_loadu_epi64(in, santi + j);
        __mmask8 apart = _mm512_mask_testn_epi64_mask(
            in, _mm512_or_si512(_mm512_and_si512(d, diag), _mm512_and_si512(a, anti)), _mm512_set1_epi64(-1));
        __m512i keys = _mm512_or_si512(key, _mm512_maskz_loadu_epi64(in, skey + j));
        _mm512_storeu_si512(out + made, _mm512_maskz_compress_epi64(apart, keys));
        made += (uint64_t)__builtin_popcount(apart);
    }
    return made;
}
#define SOUTH_JOINED(...) (has_avx512() ? south_joined_avx512(__VA_ARGS__) : south_joined(__VA_ARGS__))

/* The north placements entry[*at .. n1) each with the `count` south
 * placements, where they are eight at most (most choices of an odd N's
 * columns: 86 % of the north placements at N = 19 meet eight south ones or
 * fewer, 65 % four or fewer): the south's lines and keys are loaded into one
 * register each once for the choice, not once for each north placement, and
 * there is no call a north placement.  It stops at the first north
 * placement whose keys might not fit in `room`; *at is where it stopped.
 * (N = 19: the listing 0.87x the time of south_joined's loop a placement;
 * N = 21 0.91x; N = 20, whose choices meet more, the same.) */
__attribute__((target("avx512f"))) static uint64_t few_joined_avx512(const uint64_t *entry, uint64_t *at, uint64_t n1,
                                                                     int north_diag, int north_anti, int low, int span,
                                                                     uint64_t window, const uint64_t *sdiag,
                                                                     const uint64_t *santi, const uint64_t *skey,
                                                                     uint64_t count, uint64_t *out, uint64_t room) {
    const __mmask8 in = (__mmask8)((1u << count) - 1);
    const __m512i d = _mm512_maskz_loadu_epi64(in, sdiag), a = _mm512_maskz_loadu_epi64(in, santi),
                  k = _mm512_maskz_loadu_epi64(in, skey);
    uint64_t made = 0, i = *at;
    for (; i < n1 && room - made >= count; i++) {
        uint64_t e = entry[i];
        uint64_t dn = (e & 0xffffffffu) << north_diag, an = (e >> 32) << north_anti;
        __mmask8 apart = _mm512_mask_testn_epi64_mask( /* apart: no diagonal in common, nor anti-diagonal */
            _mm512_mask_testn_epi64_mask(in, d, _mm512_set1_epi64((long long)dn)), a, _mm512_set1_epi64((long long)an));
        __m512i keys = _mm512_or_si512(k, _mm512_set1_epi64((long long)key_of(dn, an, low, span, window)));
        _mm512_storeu_si512(out + made, _mm512_maskz_compress_epi64(apart, keys));
        made += (uint64_t)__builtin_popcount(apart);
    }
    *at = i;
    return made;
}
#define FEW_JOINED 8 /* (south placements at most: one register's keys) */

/* south_joined and few_joined_avx512 with AVX2, four keys a register: the
 * keys apart moved to the register's first lanes by a permutation looked up
 * by their mask (vpermd; AVX2 has no compress), stored whole (out's room past
 * the last key kept is for eight).  The last keys are a whole register too,
 * its lanes past them masked out (the south's arrays have SOUTH_PAST words of
 * room after their last).  On a Zen 3, where the compiler's loop took a fifth
 * of a window of `count 23` and a third of `count 19` once the dense loops
 * were AVX2's (docs/counting.md). */
static const uint32_t packed_lanes[16][8] = {
    {0, 1, 0, 1, 0, 1, 0, 1}, {0, 1, 0, 1, 0, 1, 0, 1}, {2, 3, 0, 1, 0, 1, 0, 1}, {0, 1, 2, 3, 0, 1, 0, 1},
    {4, 5, 0, 1, 0, 1, 0, 1}, {0, 1, 4, 5, 0, 1, 0, 1}, {2, 3, 4, 5, 0, 1, 0, 1}, {0, 1, 2, 3, 4, 5, 0, 1},
    {6, 7, 0, 1, 0, 1, 0, 1}, {0, 1, 6, 7, 0, 1, 0, 1}, {2, 3, 6, 7, 0, 1, 0, 1}, {0, 1, 2, 3, 6, 7, 0, 1},
    {4, 5, 6, 7, 0, 1, 0, 1}, {0, 1, 4, 5, 6, 7, 0, 1}, {2, 3, 4, 5, 6, 7, 0, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};

/* The keys of the south placements d, a, k (four lanes, the mask `in` of them held) apart from a north
 * placement's diagonals dn and anti-diagonals an, with its key kn, stored from out on; how many. */
static inline __attribute__((always_inline, target("avx2"))) uint64_t apart_avx2(__m256i d, __m256i a, __m256i k,
                                                                                   int in, uint64_t kn, uint64_t dn,
                                                                                   uint64_t an, uint64_t *out) {
    __m256i meet = _mm256_or_si256(_mm256_and_si256(d, _mm256_set1_epi64x((long long)dn)),
                                   _mm256_and_si256(a, _mm256_set1_epi64x((long long)an)));
    int apart = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(meet, _mm256_setzero_si256()))) & in;
    __m256i keys = _mm256_or_si256(k, _mm256_set1_epi64x((long long)kn));
    _mm256_storeu_si256((__m256i *)out, _mm256_permutevar8x32_epi32(
                                            keys, _mm256_loadu_si256((const __m256i *)packed_lanes[apart])));
    return (uint64_t)__builtin_popcount((unsigned)apart);
}

static inline __attribute__((always_inline, target("avx2"))) __m256i four_at(const uint64_t *x) {
    return _mm256_loadu_si256((const __m256i *)x);
}

__attribute__((target("avx2"))) static uint64_t south_joined_avx2(uint64_t kn, uint64_t dn, uint64_t an,
                                                                  const uint64_t *sdiag, const uint64_t *santi,
                                                                  const uint64_t *skey, uint64_t count, uint64_t *out) {
    uint64_t made = 0;
    for (uint64_t j = 0; j < count; j += 4)
        made += apart_avx2(four_at(sdiag + j), four_at(santi + j), four_at(skey + j),
                           count - j >= 4 ? 15 : (1 << (count - j)) - 1, kn, dn, an, out + made);
    return made;
}

/* few_joined_avx512 where the south placements are eight at most: in two registers each for the choice. */
__attribute__((target("avx2"))) static uint64_t few_joined_avx2(const uint64_t *entry, uint64_t *at, uint64_t n1,
                                                                int north_diag, int north_anti, int low, int span,
                                                                uint64_t window, const uint64_t *sdiag,
                                                                const uint64_t *santi, const uint64_t *skey,
                                                                uint64_t count, uint64_t *out, uint64_t room) {
    const __m256i d0 = four_at(sdiag), a0 = four_at(santi), k0 = four_at(skey), d1 = four_at(sdiag + 4),
                  a1 = four_at(santi + 4), k1 = four_at(skey + 4);
    const int in = (1 << count) - 1;
    uint64_t made = 0, i = *at;
    for (; i < n1 && room - made >= count; i++) {
        uint64_t e = entry[i];
        uint64_t dn = (e & 0xffffffffu) << north_diag, an = (e >> 32) << north_anti;
        uint64_t kn = key_of(dn, an, low, span, window);
        made += apart_avx2(d0, a0, k0, in & 15, kn, dn, an, out + made);
        if (count > 4)
            made += apart_avx2(d1, a1, k1, in >> 4, kn, dn, an, out + made);
    }
    *at = i;
    return made;
}
#define FEW_JOINED_AVX2 8
#else
#define SOUTH_JOINED(...) south_joined(__VA_ARGS__)
#endif

/* The table is far larger than the caches, and each choice of the north's
 * columns reads it in three places: the buckets' starts, then the north's
 * placements and the south's.  Each waits for the one before, so at each new
 * choice the next one's placements are asked of the memory ahead of time
 * (their first FETCH_AHEAD keys: the prefetcher follows on), and the starts
 * of the one after it, which that step reads.  The listing takes 0.55 to
 * 0.6 times the time it took without (issue 65: most choices join a few
 * dozen north placements with a few dozen south ones, and waited on every
 * read). */
#define FETCH_AHEAD 32
static inline void fetch_ahead(const struct join_table *tn, const struct join_table *ts, uint32_t choice,
                               uint32_t last, uint32_t rows_n, uint32_t rows_s, uint32_t cols) {
    const int h = tn->h;
    for (uint32_t seen = 0; choice < last && seen < 2; choice++) {
        uint32_t up = tn->columns[choice], nb = join_bucket(rows_n, up, h), sb = join_bucket(rows_s, cols ^ up, h);
        if (up & ~cols)
            continue; /* not the half's columns */
        if (seen++) {
            __builtin_prefetch(tn->start + nb), __builtin_prefetch(ts->start + sb);
            break;
        }
        uint32_t n0 = tn->start[nb], s0 = ts->start[sb], nn = tn->start[nb + 1] - n0, ns = ts->start[sb + 1] - s0;
        for (uint32_t k = 0; k < nn && k < FETCH_AHEAD; k += 8) /* (8 keys a cache line) */
            __builtin_prefetch(tn->entry + n0 + k);
        for (uint32_t k = 0; k < ns && k < FETCH_AHEAD; k += 8)
            __builtin_prefetch(ts->entry + s0 + k);
    }
}

/* Up to `room` (at least the table's largest bucket) more keys of the half
 * into out; how many (0: the list is done).  What the loops read is in
 * locals, none through `g`: the stores into the lists would otherwise make
 * the compiler read g's fields again after each one (they might be the same
 * memory), which took half the listing's time.  Written once for both
 * kinds of loops: `few`, where `few_when` holds, joins a choice's few south
 * placements held in registers; `each` one north placement with them all. */
#ifdef FEW_JOINED
#define FEW_FIRST(when, few)                                                                                           \
    if (when)                                                                                                          \
        made += few(entry, &i, n1, north_diag, north_anti, low, span, window, sdiag, santi, skey, count, out + made,   \
                    room - made);                                                                                      \
    else
#else
#define FEW_FIRST(when, few)
#endif
#define HALF_NEXT(name, attributes, few_when, few, each)                                                              \
    attributes static uint64_t name(struct half *g, uint64_t *restrict out, uint64_t room) {                           \
        const struct join_table *tn = g->tn;                                                                           \
        const uint32_t *start = tn->start, *south_start = g->ts->start;                                                \
        const uint64_t *entry = tn->entry, *south_entry = g->ts->entry;                                                \
        struct south *s = &g->below;                                                                                   \
        uint64_t *restrict sdiag = s->diag, *restrict santi = s->anti, *restrict skey = s->key;                        \
        const int h = tn->h, low = g->low, span = g->span, north_diag = g->north.diag, north_anti = g->north.anti,     \
                  south_diag = g->south.diag, south_anti = g->south.anti;                                              \
        const uint64_t window = ((uint64_t)1 << span) - 1;                                                             \
        const uint32_t cols = g->cols, rows_n = g->rows_n, rows_s = g->rows_s;                                         \
        uint64_t made = 0, count = s->count;                                                                           \
        uint32_t last = tn->columns_start[rows_n + 1];                                                                 \
        for (; !g->done; g->i = UINT64_MAX) {                                                                          \
            if (g->choice == last) {                                                                                   \
                g->done = 1;                                                                                           \
                break;                                                                                                 \
            }                                                                                                          \
            uint32_t up = tn->columns[g->choice], down = cols ^ up;                                                    \
            uint32_t nb = join_bucket(rows_n, up, h), sb = join_bucket(rows_s, down, h);                               \
            if (up & ~cols || south_start[sb] == south_start[sb + 1]) {                                                \
                g->choice++; /* not the half's columns, or no south placement to join */                               \
                continue;                                                                                              \
            }                                                                                                          \
            uint64_t i = g->i, n1 = start[nb + 1];                                                                     \
            if (i == UINT64_MAX) { /* a new choice: its south placements onto the board */                             \
                fetch_ahead(tn, g->ts, g->choice + 1, last, rows_n, rows_s, cols);                                     \
                i = start[nb];                                                                                         \
                count = 0;                                                                                             \
                for (uint64_t j = south_start[sb]; j < south_start[sb + 1]; j++, count++) {                            \
                    uint64_t f = south_entry[j];                                                                       \
                    uint64_t ds = (f & 0xffffffffu) << south_diag, as = (f >> 32) << south_anti;                       \
                    sdiag[count] = ds, santi[count] = as, skey[count] = key_of(ds, as, low, span, window);             \
                }                                                                                                      \
                s->count = count;                                                                                      \
            }                                                                                                          \
            FEW_FIRST(few_when, few)                                                                                   \
                for (; i < n1; i++) {                                                                                  \
                    if (room - made < count)                                                                           \
                        break;                                                                                         \
                    uint64_t e = entry[i];                                                                             \
                    uint64_t dn = (e & 0xffffffffu) << north_diag, an = (e >> 32) << north_anti;                       \
                    uint64_t kn = key_of(dn, an, low, span, window);                                                   \
                    made += each(kn, dn, an, sdiag, santi, skey, count, out + made);                                  \
                }                                                                                                      \
            if (i < n1) {                                                                                              \
                g->i = i;                                                                                              \
                return made; /* resumes at this north placement */                                                     \
            }                                                                                                          \
            g->choice++;                                                                                               \
        }                                                                                                              \
        return made;                                                                                                   \
    }
HALF_NEXT(half_next, TARGETS, count <= FEW_JOINED && has_avx512(), few_joined_avx512, SOUTH_JOINED)

#ifdef HAND_WRITTEN
/* The same with AVX2's loops (above), where the CPU has AVX2 and not AVX-512. */
HALF_NEXT(half_next_avx2, __attribute__((target("avx2,bmi2"))), count <= FEW_JOINED_AVX2, few_joined_avx2,
          south_joined_avx2)

static uint64_t half_listed(struct half *g, uint64_t *restrict out, uint64_t room) {
    return !has_avx512() && has_avx2() ? half_next_avx2(g, out, room) : half_next(g, out, room);
}
#else
#define half_listed half_next
#endif


/* How many of the keys keys[0], keys[step], keys[2 step], ... take each
 * bit, added into counts[]: a key's bits seven at a time, each chunk spread
 * to the low seven bytes of a word by one multiplication (bit i to byte i:
 * the eight shifted copies that the product adds up do not overlap, so
 * nothing carries) and added to that chunk's word of byte-wide counters,
 * emptied into counts[] before any can pass 255.  The eight chunks (56 bits,
 * the window's 46 at most) are the eight lanes of one vector: a key is a
 * shift, two ands, a multiplication and an add (the compiler's vectors, as
 * the batches' words below).  The loop it replaced took each key's bits one
 * by one into one counter a bit, and every increment waited for the last
 * one's store to be read back: 15 % of an N = 19 slice, whose lists are
 * short and many; seven chunks one after another in scalar words, 7 %. */
typedef uint64_t chunk_words __attribute__((vector_size(64)));
TARGETS static void bits_counted(const uint64_t *keys, uint64_t count, uint64_t step, uint64_t counts[64]) {
    const chunk_words shifts = {0, 7, 14, 21, 28, 35, 42, 49};
    chunk_words lanes = {0};
    int held = 0;
    for (uint64_t i = 0; i < count; i += step) {
        chunk_words chunks = ((chunk_words){0} + keys[i]) >> shifts & 0x7f;
        lanes += (chunks * 0x0002040810204081u) & 0x0101010101010101u;
        if (++held == 255 || i + step >= count) {
            for (int c = 0; c < 8; c++)
                for (int b = 0; b < 7; b++)
                    counts[7 * c + b] += lanes[c] >> 8 * b & 0xff;
            lanes = (chunk_words){0};
            held = 0;
        }
    }
}

/* The same in two vectors of four chunks, for CPUs without AVX-512: there
 * the eight lanes of bits_counted are two registers, which the compiler's
 * AVX2 code moved through the stack at every key (17.7 % of `count 19` on a
 * Zen 3), and its multiplication of 64-bit lanes is three.  Here the spread
 * is the eight shifted copies themselves, ORed (they do not overlap). */
typedef uint64_t quad_words __attribute__((vector_size(32)));
TARGETS static void bits_counted_quads(const uint64_t *keys, uint64_t count, uint64_t step, uint64_t counts[64]) {
    const quad_words low = {0, 7, 14, 21}, high = {28, 35, 42, 49};
    quad_words lanes[2] = {{0}, {0}};
    int held = 0;
    for (uint64_t i = 0; i < count; i += step) {
        for (int h = 0; h < 2; h++) {
            quad_words x = ((quad_words){0} + keys[i]) >> (h ? high : low) & 0x7f;
            x |= x << 7 | x << 14 | x << 21;
            lanes[h] += (x | x << 28) & 0x0101010101010101u;
        }
        if (++held == 255 || i + step >= count) {
            for (int c = 0; c < 8; c++)
                for (int b = 0; b < 7; b++)
                    counts[7 * c + b] += lanes[c / 4][c % 4] >> 8 * b & 0xff;
            lanes[0] = lanes[1] = (quad_words){0};
            held = 0;
        }
    }
}

/* After the `forced` bits of order[], the `k` bits of the window that most
 * pairs of p x q have in common (from a sample of each: a bit most pairs
 * share is one whose split cuts most pairs), from the most telling down;
 * how many bits order[] holds. */
static int telling_bits(const uint64_t *p, uint64_t np, const uint64_t *q, uint64_t nq, int width, int forced,
                        int k, int order[64]) {
    uint64_t in_p[64] = {0}, in_q[64] = {0}, chosen = 0;
    for (int i = 0; i < forced; i++)
        chosen |= (uint64_t)1 << order[i];
#ifdef HAND_WRITTEN
    void (*counted)(const uint64_t *, uint64_t, uint64_t, uint64_t *) =
        has_avx512() ? bits_counted : bits_counted_quads;
#else
    void (*counted)(const uint64_t *, uint64_t, uint64_t, uint64_t *) = bits_counted_quads;
#endif
    counted(p, np, 1 + np / 512, in_p);
    counted(q, nq, 1 + nq / 512, in_q);
    for (int taken = forced; taken < forced + k; taken++) {
        int best = -1;
        for (int b = 0; b < width; b++)
            if (!(chosen >> b & 1) && (in_p[b] && in_q[b]) && (best < 0 || in_p[b] * in_q[b] > in_p[best] * in_q[best]))
                best = b;
        if (best < 0)
            return taken;
        chosen |= (uint64_t)1 << best;
        order[taken] = best;
    }
    return forced + k;
}

int join_telling_bits(const uint64_t *p, uint64_t np, const uint64_t *q, uint64_t nq, int width, int forced, int k,
                      int order[64]) {
    if (width < 1 || width > 2 * (2 * JOIN_MAX_H - 1) || forced < 0 || k < 0 || forced + k > 64)
        return -1; /* (a window of 46 bits at most: bits_counted counts 56) */
    for (int i = 0; i < forced; i++)
        if (order[i] < 0 || order[i] >= width)
            return -1;
    return telling_bits(p, np, q, nq, width, forced, k, order);
}

/* keys[0 .. count) into b by their id (the k chosen bits of a key, in their
 * order), each packed again (its other bits, then the id), a counting sort;
 * written once for the two ways of reading them (ID and OTHERS, from the
 * parameters after `b`, below; KEEP_IDS: whether the first pass keeps each
 * key's id for the second, where reading it again costs more than the
 * store; KEYED: whether the packed keys go to key[], their first 32 bits
 * copied to low[] after, or to low[] alone: dense.h).  The keys come from
 * the listing in runs that share their north half, and so often their id:
 * one tally a bucket would make each key wait for the last one's count to
 * be stored and read again.  So the tallies are
 * taken in BUCKET_WAYS stretches of the list, one key of each in turn: four
 * chains that do not wait on each other (N = 20, a slice on one core: the
 * join 0.86-0.90 s with one, 0.77-0.78 s with four).  Each key's tally as
 * the first pass comes to it is its place among its stretch's keys of its
 * bucket, and is kept (`rank`, in the room the second pass does not write:
 * key[] where the keys go to low[] alone, else low[]); the tallies then
 * become each stretch's first place in each bucket, after the stretches
 * before it.  The second pass places the keys stretch by stretch, each at
 * its stretch's first place in its bucket plus its rank: in the order they
 * were listed, so they stay in that order in each bucket, and no key reads
 * a place another has just written.  (Until 2026-12-01 the second pass took
 * each key's place from a bucket's running count, `at[v]++`: a chain
 * through memory where a run of keys shares its id, and with the scattered
 * store beside it, 7.4 of the 8.7 cycles a key of the bucketing of N = 23's
 * longer lists on a Zen 3; placed by rank, 5.3 to 5.7 in all, a copy of
 * the bucketing on twelve such lists: docs/counting.md.  Placed four
 * stretches at a time, each with its own places in a bucket, as before
 * 2026-11-29, the buckets were the same but the pass took longer: at N = 23
 * the writes to four places a bucket cost more than the chains; and the
 * first 32 bits of each key, which only the pair by pair tests on 32 bits
 * read, were written beside each key, where one pass after the placing, in
 * order, takes a fraction of the time: the bucketing of N = 23's lists
 * about 0.8x the time, the count's windows 0.92 to 0.94x,
 * benchmarks/kernels.py.) */
#define BUCKETED(name, attributes, KEEP_IDS, KEYED, ID, OTHERS, ...)                                          \
    attributes static void name(const uint64_t *restrict keys, uint64_t count, int k, struct buckets *b,      \
                                __VA_ARGS__) {                                                                \
        const uint32_t buckets = 1u << k;                                                                     \
        const int shift = b->others;                                                                          \
        uint32_t *restrict start = b->start;                                                                  \
        uint64_t *restrict key = b->key;                                                                      \
        uint32_t *restrict at = b->places; /* [way * buckets + id]: the tallies; then the stretch's places */ \
        uint16_t *restrict ids = (uint16_t *)(start + buckets + 1); /* (room left after start: join_count) */ \
        /* (keyed: written through `rank` alone, which is then low[]) */                                      \
        uint32_t *restrict rank = KEYED ? b->low : (uint32_t *)b->key, *restrict low = KEYED ? NULL : b->low; \
        const uint64_t stretch = count / BUCKET_WAYS, last = (BUCKET_WAYS - 1) * (uint64_t)buckets;           \
        memset(at, 0, BUCKET_WAYS * buckets * sizeof *at);                                                    \
        for (uint64_t i = 0; i < stretch; i++)                                                                \
            for (int w = 0; w < BUCKET_WAYS; w++) {                                                           \
                uint64_t j = w * stretch + i, x = keys[j];                                                    \
                uint16_t v = ID;                                                                              \
                if (KEEP_IDS)                                                                                 \
                    ids[j] = v;                                                                               \
                rank[j] = at[w * buckets + v]++;                                                              \
            }                                                                                                 \
        for (uint64_t i = BUCKET_WAYS * stretch; i < count; i++) { /* the last stretch's tail */             \
            uint64_t x = keys[i];                                                                             \
            uint16_t v = ID;                                                                                  \
            if (KEEP_IDS)                                                                                     \
                ids[i] = v;                                                                                   \
            rank[i] = at[last + v]++;                                                                         \
        }                                                                                                     \
        uint32_t sum = 0; /* each bucket's start; each stretch's first place in it */                        \
        for (uint32_t v = 0; v < buckets; v++) {                                                              \
            start[v] = sum;                                                                                   \
            for (int w = 0; w < BUCKET_WAYS; w++) {                                                           \
                uint32_t tally = at[w * buckets + v];                                                         \
                at[w * buckets + v] = sum;                                                                    \
                sum += tally;                                                                                 \
            }                                                                                                 \
        }                                                                                                     \
        start[buckets] = sum;                                                                                 \
        for (int w = 0; w < BUCKET_WAYS; w++) {                                                               \
            const uint32_t *restrict first = at + w * buckets;                                                \
            for (uint64_t i = w * stretch, end = w + 1 < BUCKET_WAYS ? i + stretch : count; i < end; i++) {   \
                uint64_t x = keys[i], v = KEEP_IDS ? ids[i] : (uint16_t)(ID);                                 \
                if (KEYED)                                                                                    \
                    key[first[v] + rank[i]] = (OTHERS) | v << shift;                                          \
                else /* (the others fit in 32 bits: the caller's) */                                          \
                    low[first[v] + rank[i]] = (uint32_t)((OTHERS) | v << shift);                              \
            }                                                                                                 \
        }                                                                                                     \
        if (KEYED && shift <= 32) /* (the first 32 bits are read only where the others fit in them: dense.c) */ \
            for (uint64_t i = 0; i < count; i++)                                                              \
                rank[i] = (uint32_t)key[i];                                                                   \
        b->keyed = KEYED;                                                                                     \
    }

/* The id and the other bits read a byte at a time from the tables ... */
static inline uint16_t id_of(uint64_t x, const uint16_t (*id)[256]) {
    uint16_t v = 0;
    for (int byte = 0; byte < 8 && x >> (8 * byte); byte++)
        v |= id[byte][x >> (8 * byte) & 255];
    return v;
}

static inline uint64_t others_of(uint64_t x, const uint64_t (*other)[256]) {
    uint64_t r = 0;
    for (int byte = 0; byte < 8 && x >> (8 * byte); byte++)
        r |= other[byte][x >> (8 * byte) & 255];
    return r;
}
BUCKETED(bucketed_by_tables, , 1, 1, id_of(x, id), others_of(x, other), const uint16_t (*id)[256],
         const uint64_t (*other)[256])

#ifdef HAND_WRITTEN
/* ... or each in one instruction, BMI2's pext, where the CPU makes it fast
 * (`bucketed_by_pext`; has_fast_pext): the telling bits (`told`), and the
 * others (`others`), gathered in their order; an even N's long diagonals
 * (`longest`) on top of the id, in theirs (from bit `top`: the diagonal's,
 * then the anti-diagonal's).  The id is read again in the second pass, not
 * kept from the first.
 *
 * `bucketed_low`: the same, for the longer list where its others fit in 32
 * bits: each packed key written as its first 32 bits alone, the key[] of the
 * other and a pass to copy them left out (dense.c reads low[], and makes
 * key[] bucket by bucket where a test needs more bits: keys_of).  A
 * stand-alone copy of the bucketing, on 120 lists of N = 23's row sets with
 * the caches swept between them, took 0.61x to 0.85x the time of writing
 * key[] and low[]; the join of 23's windows 0.92x and 0.97x, 22's 0.98x
 * (benchmarks/kernels.py, 2026-11-29: docs/counting.md).
 *
 * `_odd`: the same two for an odd N, which has no long diagonals on top of
 * its id (longest is 0): the pext of them left out, one of each key's two in
 * the first pass and of its three in the second.
 *
 * Each compiled twice (`isa`): for AVX-512's CPUs (no suffix), as it was
 * measured there, and for AVX2's (suffix `_bmi2`), where the byte tables
 * above took a third of a window of `count 23` on a Zen 3 once its dense
 * loops were AVX2's (docs/counting.md). */
#define PEXT_BUCKETINGS(suffix, isa)                                                                                \
    BUCKETED(bucketed_by_pext##suffix, __attribute__((target(isa))), 0, 1,                                          \
             (uint16_t)(_pext_u64(x, told) | _pext_u64(x, longest) << top), _pext_u64(x, others), uint64_t told,       \
             uint64_t others, uint64_t longest, int top)                                                               \
    BUCKETED(bucketed_low##suffix, __attribute__((target(isa))), 0, 0,                                              \
             (uint16_t)(_pext_u64(x, told) | _pext_u64(x, longest) << top), _pext_u64(x, others), uint64_t told,       \
             uint64_t others, uint64_t longest, int top)                                                               \
    BUCKETED(bucketed_by_pext_odd##suffix, __attribute__((target(isa))), 0, 1, (uint16_t)_pext_u64(x, told),        \
             _pext_u64(x, others), uint64_t told, uint64_t others)                                                     \
    BUCKETED(bucketed_low_odd##suffix, __attribute__((target(isa))), 0, 0, (uint16_t)_pext_u64(x, told),            \
             _pext_u64(x, others), uint64_t told, uint64_t others)
PEXT_BUCKETINGS(, "bmi2,avx512f")
PEXT_BUCKETINGS(_bmi2, "bmi2,avx2")

/* joined's two lists bucketed by one kind's copies (a call each, as the first kind's was measured) */
#define PEXT_BUCKETED(suffix)                                                                                          \
    do {                                                                                                               \
        if (!longest) { /* an odd N: no long diagonals on top of the id */                                             \
            bucketed_by_pext_odd##suffix(p, np, k, bp, told, others);                                                  \
            if (bq->others <= 32)                                                                                      \
                bucketed_low_odd##suffix(q, nq, k, bq, told, others);                                                  \
            else                                                                                                       \
                bucketed_by_pext_odd##suffix(q, nq, k, bq, told, others);                                              \
        } else {                                                                                                       \
            int top = k - 2; /* (the long diagonals' two bits on top of the id) */                                     \
            bucketed_by_pext##suffix(p, np, k, bp, told, others, longest, top);                                        \
            if (bq->others <= 32)                                                                                      \
                bucketed_low##suffix(q, nq, k, bq, told, others, longest, top);                                        \
            else                                                                                                       \
                bucketed_by_pext##suffix(q, nq, k, bq, told, others, longest, top);                                    \
        }                                                                                                              \
    } while (0)
#endif

/* What a join of two lists needs besides them: the buckets' room, how to cut
 * it (join.h), and the tally of pair tests. */
struct joiner {
    struct buckets bp, bq;
    int width;        /* the keys' bits: 2 span */
    uint64_t longest; /* an even N's two longest diagonals, as key bits (2b. above); 0 for an odd N */
    uint64_t direct, bucket;
    struct leaves leaves; /* (with `small` and the tally of pair tests) */
};

/* The keys in three groups, in their order within each (a stable counting
 * sort through `scratch`): those with neither of the two bits of `longest`
 * (`diag` and the other), then one, then both; ends[0] and ends[1] where the
 * first two end. */
static void grouped(uint64_t *keys, uint64_t count, uint64_t longest, uint64_t diag, uint64_t *scratch,
                    uint64_t ends[2]) {
    uint64_t at[3] = {0, 0, 0}, anti = longest ^ diag;
    for (uint64_t i = 0; i < count; i++)
        at[((keys[i] & diag) != 0) + ((keys[i] & anti) != 0)]++;
    ends[0] = at[0], ends[1] = at[0] + at[1];
    at[2] = ends[1], at[1] = ends[0], at[0] = 0;
    for (uint64_t i = 0; i < count; i++)
        scratch[at[((keys[i] & diag) != 0) + ((keys[i] & anti) != 0)]++] = keys[i];
    memcpy(keys, scratch, count * sizeof *keys);
}

/* The bits some key of keys[0 .. count) takes. */
TARGETS static uint64_t taken(const uint64_t *keys, uint64_t count) {
    uint64_t any = 0;
    for (uint64_t i = 0; i < count; i++)
        any |= keys[i];
    return any;
}

/* Tested pair by pair, counting the tests. */
static uint64_t tested_counted(struct joiner *j, const uint64_t *p, uint64_t np, const uint64_t *q, uint64_t nq) {
    *j->leaves.tests += np * nq;
    return join_tested(p, np, q, nq);
}

/* Pairs of east halves p x west halves q (at most a list's cap each) with no
 * bit in common, or for an even N the sum that 2b. above says (which pairs
 * are joined, which counted twice): tested at once where they are few (p
 * and q put in their groups first, for an even N), else bucketed and
 * joined bucket against bucket.  For an even N the two longest diagonals
 * are the id's top bits, so that each group is a range of buckets. */
static uint64_t joined(struct joiner *j, uint64_t *p, uint64_t np, uint64_t *q, uint64_t nq) {
    static __thread uint16_t id[8][256];
    static __thread uint64_t other[8][256];
    if (!np || !nq)
        return 0;
    uint64_t longest = j->longest, diag = longest & -longest;
    if (np * nq <= j->direct) { /* too few to be worth putting in buckets */
        if (!longest)
            return tested_counted(j, p, np, q, nq);
        uint64_t pe[2], qe[2]; /* none on a long diagonal before [0], one before [1], the rest two */
        grouped(p, np, longest, diag, j->bp.key, pe);
        grouped(q, nq, longest, diag, j->bp.key, qe);
        return tested_counted(j, p, pe[0], q, qe[1]) + tested_counted(j, p + pe[0], pe[1] - pe[0], q, qe[0]) +
               2 * (tested_counted(j, p, pe[0], q + qe[1], nq - qe[1]) +
                    tested_counted(j, p + pe[1], np - pe[1], q, qe[0]));
    }
    if (np > nq) { /* q the longer list, kept dense (the count is the same either way round) */
        uint64_t *t = p, nt = np;
        p = q, np = nq, q = t, nq = nt;
    }
    struct buckets *bp = &j->bp, *bq = &j->bq;
    /* the id: an even N's long diagonals on top (the anti-diagonal's, then the diagonal's: their order in
     * the key), below them the telling bits in the key's order */
    int order[64], place[64], forced = 0; /* the id's bits, forced first; each key bit's place in the id */
    if (longest)
        order[forced++] = __builtin_ctzll(diag), order[forced++] = 63 - __builtin_clzll(longest);
    /* Where the shorter list is long (its keys pay for the longer one's transposition): enough telling bits
     * that the longer list's buckets hold about `bucket` keys each, kept dense; else the buckets too small
     * to be dense, tested pair by pair (dense at every length, N = 21 took 1.1x the time; from 2,048 keys
     * instead of 8,192, count 18 took 0.64x, the rest about the same; from 512 instead of 2,048, once the
     * transposes and sums had got cheaper, N = 21's windows 0.89x, 19's 0.96x, 18's 0.98x, 17, 20, 22 and 23's
     * within 1 %: docs/counting.md).  There the join
     * splits its pairs on the id's bits, each split leaving about a quarter of them in each of its three
     * parts, only until a part holds `small` pairs or fewer, then tests them all: as many bits as those
     * splits take, one more, and JOIN_ID_BITS at most.  (With JOIN_ID_BITS always, N = 19's lists of a few
     * hundred keys were bucketed by 8 bits and split on 3 of them: count 19's windows in 0.89x the time
     * with the bits the splits take, the same at 17, 18, 20 and 21: docs/counting.md.) */
    int told_bits = 0;
    if (np >= JOIN_DENSE_LIST)
        while ((nq >> (told_bits + forced)) > j->bucket && told_bits + forced < JOIN_MAX_ID_BITS)
            told_bits++;
    else {
        for (uint64_t pairs = np * nq; pairs > j->leaves.small && told_bits < JOIN_ID_BITS; pairs /= 4)
            told_bits++;
        told_bits = told_bits + 1 < JOIN_ID_BITS ? told_bits + 1 : JOIN_ID_BITS;
        if (told_bits + forced > JOIN_MAX_ID_BITS)
            told_bits = JOIN_MAX_ID_BITS - forced;
    }
    int k = telling_bits(p, np, q, nq, j->width, forced, told_bits, order);
    uint64_t told = 0;
    for (int i = forced; i < k; i++)
        told |= (uint64_t)1 << order[i];
    for (int b = 0, at = 0; b < 64; b++)
        if (told >> b & 1)
            place[b] = at++;
    if (longest)
        place[order[0]] = k - 2, place[order[1]] = k - 1;
    /* The others: the bits outside the id that keys of both lists take.  A bit that one list never takes
     * cannot meet, and is left out (at N = 20 most joins have two such of their 38, the diagonals at the
     * window's two ends: the 32 others of six bits of id become 30, five chunks of dense words, not six) */
    uint64_t chosen = told | longest, window = j->width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << j->width) - 1;
    uint64_t others = window & ~chosen & taken(p, np) & taken(q, nq);
    bp->others = bq->others = __builtin_popcountll(others);
#ifdef HAND_WRITTEN
    if (has_avx512())
        PEXT_BUCKETED();
    else if (has_fast_pext())
        PEXT_BUCKETED(_bmi2);
    else
#endif
    {
        uint64_t to[64]; /* each bit's place in the id, or among the others */
        for (int b = 0, other = 0; b < 64; b++)
            to[b] = chosen >> b & 1 ? (uint64_t)1 << place[b] : others >> b & 1 ? (uint64_t)1 << other++ : 0;
        for (int byte = 0; byte < 8; byte++) { /* each byte's bits of the id, and of the others */
            id[byte][0] = 0, other[byte][0] = 0;
            for (int v = 1; v < 256; v++) {
                int bit = 8 * byte + __builtin_ctz((unsigned)v);
                id[byte][v] = id[byte][v & (v - 1)] | (uint16_t)(chosen >> bit & 1 ? to[bit] : 0);
                other[byte][v] = other[byte][v & (v - 1)] | (chosen >> bit & 1 ? 0 : to[bit]);
            }
        }
        bucketed_by_tables(p, np, k, bp, (const uint16_t (*)[256])id, (const uint64_t (*)[256])other);
        bucketed_by_tables(q, nq, k, bq, (const uint16_t (*)[256])id, (const uint64_t (*)[256])other);
    }
    /* q, the longer list, kept dense where the shorter is long enough to pay for it (only there are the
     * buckets cut to about `bucket` keys; with JOIN_ID_BITS they may be large, but few keys meet them) */
    join_dense_build(bq, k, np >= JOIN_DENSE_LIST ? DENSE_MIN : UINT64_MAX);
    struct leaves *L = &j->leaves;
    L->weight = 1, L->k = k, L->found = 0;
    /* Where q's buckets are dense, its ranges are split on to single buckets, none of few pairs tested pair
     * by pair above them: a range's keys were tested one by one where its dense leaves cost less (count 23's
     * windows 0.96x the time with 1.7 % fewer pair tests: docs/counting.md).  Unless `small` holds every
     * pair of the join (a test's way to have the whole join tested pair by pair at the id's top level) */
    uint64_t small = L->small, found;
    if (np >= JOIN_DENSE_LIST && small < np * nq)
        L->small = 0;
    if (!longest)
        found = join_buckets(bp, 0, bq, 0, k, L);
    else {
        /* the groups: ids with the anti-diagonal's bit (on top) and the diagonal's (below it); 2b.'s sum is
         * the same with the two swapped */
        int level = k - 2;
        uint32_t one_diag = 1u << level, both = 3u << level, anti = 2u << level;
        found = join_buckets(bp, 0, bq, 0, level, L) + join_buckets(bp, 0, bq, anti, level, L) + join_buckets(bp, 0, bq, one_diag, level, L) +
                join_buckets(bp, anti, bq, 0, level, L) + join_buckets(bp, one_diag, bq, 0, level, L);
        L->weight = 2;
        found += 2 * (join_buckets(bp, 0, bq, both, level, L) + join_buckets(bp, both, bq, 0, level, L));
    }
#ifdef HAND_WRITTEN
    if (L->count)
        L->found += join_leaves(bp, bq, L);
#endif
    L->small = small;
    return found + L->found;
}

/* --- the row sets ----------------------------------------------------------------- */

static uint64_t binomial(int n, int k) {
    if (k < 0 || k > n)
        return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

/* The combination of rank `rank` (colex) of k out of n, as bits. */
static uint32_t unrank(uint64_t rank, int n, int k) {
    uint32_t c = 0;
    for (int i = k; i > 0; i--) {
        int at = i - 1;
        while (at + 1 < n && binomial(at + 1, i) <= rank)
            at++;
        rank -= binomial(at, i);
        c |= 1u << at;
        n = at;
    }
    return c;
}

static uint32_t reversed(uint32_t rows, int width) {
    uint32_t out = 0;
    for (int i = 0; i < width; i++)
        if (rows >> i & 1)
            out |= 1u << (width - 1 - i);
    return out;
}

/* What the middle queens leave: the free rows (bits 0 .. h-1 the north
 * quarter's, h .. 2h-1 the south's), the free columns of each side (the
 * square's columns), their diagonals, and whether the flips keep them. */
struct middle {
    uint32_t rows, east, west;
    uint64_t diag, anti;
    int flips;
};

static int middle_of(int n, int x, int y, struct middle *m) {
    int h = n / 2, c = h;
    uint32_t all = (1u << h) - 1;
    *m = (struct middle){(uint32_t)(((uint64_t)1 << 2 * h) - 1), all, all, 0, 0, 1};
    if (n % 2 == 0)
        return x == -1 && y == -1;
    if (x < 0 || x >= n || y < 0 || y >= n || ((x == c) != (y == c)))
        return 0;
    m->diag = (uint64_t)1 << (x - c + n - 1) | (uint64_t)1 << (c - y + n - 1);
    m->anti = (uint64_t)1 << (c + x) | (uint64_t)1 << (y + c);
    if (x == c)
        return 1; /* one queen, in the centre: the flips keep it */
    if (__builtin_popcountll(m->diag) != 2 || __builtin_popcountll(m->anti) != 2)
        return 0; /* the two attack each other */
    m->flips = 0;
    if (x < c)
        m->west &= ~(1u << x);
    else
        m->east &= ~(1u << (x - c - 1));
    m->rows &= ~(1u << (y < c ? y : h + y - c - 1));
    return 1;
}

uint64_t join_row_sets(int n, int x, int y) {
    struct middle m;
    if (n < 2 || n > JOIN_MAX_N || !middle_of(n, x, y, &m))
        return 0;
    return binomial(__builtin_popcount(m.rows), __builtin_popcount(m.east));
}


/* The middle of (n, x, y) in *m and the ranks first .. last of its row
 * sets, last cut to the row sets there are: how many ranks (0: none), or
 * -1 where the arguments are wrong. */
static int64_t ranks_within(int n, int x, int y, const struct join_table *t, struct middle *m, uint64_t first,
                            uint64_t *last) {
    if (n < 2 || n > JOIN_MAX_N || t->h != n / 2 || !middle_of(n, x, y, m))
        return -1;
    uint64_t sets = binomial(__builtin_popcount(m->rows), __builtin_popcount(m->east));
    if (*last > sets)
        *last = sets;
    return first < *last ? (int64_t)(*last - first) : 0;
}

/* The east rows of a combination of the free rows (compact: its bits over
 * `positions`, the free rows' bits in order). */
static uint32_t east_rows(uint32_t compact, const uint32_t *positions, int f) {
    uint32_t east = 0;
    for (int i = 0; i < f; i++)
        if (compact >> i & 1)
            east |= positions[i];
    return east;
}

/* How many row sets these east rows stand for: the size of their orbit
 * under the flips where they are the least of it (and the flips keep the
 * middle), 0 where they are not. */
static uint64_t orbit_weight(const struct middle *m, int h, uint32_t east) {
    if (!m->flips)
        return 1;
    uint32_t west = m->rows ^ east, v = reversed(east, 2 * h), hh = west, vh = reversed(west, 2 * h);
    if (v < east || hh < east || vh < east)
        return 0;
    return 1 + (v != east) + (hh != east && hh != v) + (vh != east && vh != v && vh != hh);
}

/* How many halves a side lists at most: its north quarter's placements on
 * rows_n and some of its columns cols, times its south quarter's on rows_s
 * and the rest, summed over the north's column sets (t's bucket sizes; the
 * diagonals between north and south, and an odd N's middle queens, are not
 * looked at: an upper bound). */
static double halves_bound(const struct join_table *t, uint32_t rows_n, uint32_t rows_s, uint32_t cols) {
    int h = t->h;
    double found = 0;
    for (uint32_t c = t->columns_start[rows_n]; c < t->columns_start[rows_n + 1]; c++) {
        uint32_t up = t->columns[c], down = cols ^ up, nb = join_bucket(rows_n, up, h),
                 sb = join_bucket(rows_s, down, h);
        if (!(up & ~cols))
            found += (double)(t->start[nb + 1] - t->start[nb]) * (double)(t->start[sb + 1] - t->start[sb]);
    }
    return found;
}

double join_cost(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint64_t samples,
                 double a_half) {
    int h = n / 2;
    struct middle m;
    int64_t ranks = ranks_within(n, x, y, t, &m, first, &last);
    if (ranks <= 0)
        return (double)ranks;
    int free_rows = __builtin_popcount(m.rows), east_cols = __builtin_popcount(m.east);
    uint64_t step = samples && (last - first) / samples > 1 ? (last - first) / samples : 1, taken = 0;
    uint32_t positions[32], north = (1u << h) - 1;
    int f = 0;
    for (uint32_t r = m.rows; r; r &= r - 1)
        positions[f++] = r & -r;
    double cost = 0;
    for (uint64_t rank = first; rank < last; rank += step, taken++) {
        uint32_t east = east_rows(unrank(rank, free_rows, east_cols), positions, f), west = m.rows ^ east;
        if (!orbit_weight(&m, h, east)) /* (only the least of each orbit is joined) */
            continue;
        double e = halves_bound(t, east & north, east >> h, m.east), w = halves_bound(t, west & north, west >> h, m.west);
        cost += e * w + a_half * (e + w);
    }
    return cost * (double)(last - first) / (double)taken;
}

/* What listing the halves of one placement of the middle queens needs,
 * made once a call (join_count's, join_list's; its arrays in the call's
 * workspace): the middle, where the quarters lie, each quarter's table (for
 * an odd N, its placements clear of the middle queens: 2c. above), room for
 * the south's placements, the free rows in order. */
struct lister {
    struct middle m;
    int h, low, span, f, quarters;
    struct quarter nw, ne, sw, se;
    struct join_table filtered[4];
    const struct join_table *tnw, *tne, *tsw, *tse;
    uint64_t *room;
    struct south below[2];
    uint32_t positions[32]; /* the free rows' bits, in order */
};

/* The free rows' bits, each alone, in order (east_rows reads them); how many. */
static int free_positions(uint32_t rows, uint32_t positions[32]) {
    int f = 0;
    for (uint32_t r = rows; r; r &= r - 1)
        positions[f++] = r & -r;
    return f;
}

static void lister_close(struct lister *l) {
    while (l->quarters > 0)
        table_filtered_free(&l->filtered[--l->quarters]);
}

/* l made for the table t of n and the middle m (ranks_within's), its arrays in the workspace w: 0, or -1
 * when memory ran out (nothing held but w's arrays). */
static int lister_open(struct lister *l, const struct join_table *t, int n, const struct middle *m,
                       struct workspace *w) {
    int h = n / 2;
    l->m = *m, l->h = h, l->quarters = 0;
    l->low = n - h, l->span = h + h - 1; /* the window: diagonals n-h .. n+h-2 of both kinds */
    l->nw = quarter_at(n, h, 0, 0), l->ne = quarter_at(n, h, 0, n - h), l->sw = quarter_at(n, h, n - h, 0),
    l->se = quarter_at(n, h, n - h, n - h);
    l->tnw = l->tne = l->tsw = l->tse = t;
    const uint64_t most = t->largest + SOUTH_PAST; /* (room to read a register's lanes past the last) */
    l->room = kept_fit(&w->kept[KEPT_ROOM], 6 * most * sizeof *l->room);
    if (!l->room)
        return -1;
    memset(l->room, 0, 6 * most * sizeof *l->room);
    for (int i = 0; i < 2; i++)
        l->below[i] = (struct south){l->room + (3 * i) * most, l->room + (3 * i + 1) * most,
                                     l->room + (3 * i + 2) * most, 0};
    if (n % 2) {
        struct quarter at[4] = {l->nw, l->ne, l->sw, l->se};
        for (; l->quarters < 4; l->quarters++)
            if (table_filtered(&l->filtered[l->quarters], t, at[l->quarters], m->diag, m->anti,
                               &w->kept[KEPT_FILTERED_START + l->quarters], &w->kept[KEPT_FILTERED_ENTRY + l->quarters])) {
                lister_close(l);
                return -1;
            }
        l->tnw = &l->filtered[0], l->tne = &l->filtered[1], l->tsw = &l->filtered[2], l->tse = &l->filtered[3];
    }
    l->f = free_positions(m->rows, l->positions);
    return 0;
}

/* The east half (west = 0) or the west half of the row set whose east rows are `east`, ready to list. */
static void lister_half(struct lister *l, uint32_t east, int west, struct half *g) {
    uint32_t rows = west ? l->m.rows ^ east : east, north = (1u << l->h) - 1;
    if (west)
        half_start(g, l->tnw, l->tsw, l->nw, l->sw, rows & north, rows >> l->h, l->m.west, l->low, l->span, l->below[1]);
    else
        half_start(g, l->tne, l->tse, l->ne, l->se, rows & north, rows >> l->h, l->m.east, l->low, l->span, l->below[0]);
}

/* An even N's two longest diagonals, as key bits (2b. above); 0 for an odd N. */
static uint64_t longest_of(const struct lister *l, int n) {
    return n % 2 ? 0 : (uint64_t)1 << (n - 1 - l->low) | (uint64_t)1 << (n - 1 - l->low + l->span);
}

int join_count(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint64_t cap,
               uint64_t direct, uint64_t small, uint64_t bucket, uint64_t out[JOIN_VALUES]) {
    struct middle m;
    int64_t ranks = ranks_within(n, x, y, t, &m, first, &last);
    if (ranks <= 0)
        return (int)ranks;
    if (cap < t->largest)
        cap = t->largest; /* a list is cut between north placements: the south's all fit */
    int free_rows = __builtin_popcount(m.rows), east_cols = __builtin_popcount(m.east);
    struct workspace *ws = workspace_take();
    if (!ws)
        return -1;
    struct kept *room = ws->kept;
    uint64_t *p = kept_fit(&room[KEPT_P], (cap + 8) * sizeof *p), *q = kept_fit(&room[KEPT_Q], (cap + 8) * sizeof *q); /* (8: south_joined) */
    size_t starts = (((size_t)1 << JOIN_MAX_ID_BITS) + 1) * sizeof(uint32_t) + cap * sizeof(uint16_t);
    uint32_t *places = kept_fit(&room[KEPT_PLACES], ((size_t)BUCKET_WAYS << JOIN_MAX_ID_BITS) * sizeof *places);
    uint32_t (*leaf)[3] = kept_fit(&room[KEPT_LEAF], JOIN_LEAVES * sizeof *leaf);
    size_t dense = join_dense_words(n, cap) * sizeof(uint64_t), ats = ((size_t)1 << JOIN_MAX_ID_BITS) * sizeof(uint64_t);
    struct buckets bp = {kept_fit(&room[KEPT_BP_KEY], cap * sizeof(uint64_t)), kept_fit(&room[KEPT_BP_LOW], cap * sizeof(uint32_t)),
                         kept_fit(&room[KEPT_BP_START], starts), places, NULL, NULL, 0, 0, 0, 1}, /* (never dense) */
                   bq = {kept_fit(&room[KEPT_BQ_KEY], cap * sizeof(uint64_t)), kept_fit(&room[KEPT_BQ_LOW], cap * sizeof(uint32_t)),
                         kept_fit(&room[KEPT_BQ_START], starts), places, kept_fit(&room[KEPT_BQ_SUMS], dense),
                         kept_fit(&room[KEPT_BQ_AT], ats), dense / sizeof(uint64_t), 0, 0, 1};
    struct lister l;
    uint64_t began = nanoseconds();
    int listing = lister_open(&l, t, n, &m, ws);
    out[JOIN_NS_HALVES] += nanoseconds() - began;
    if (!p || !q || !places || !leaf || !bp.key || !bp.low || !bp.start || !bq.key || !bq.low || !bq.sums || !bq.at ||
        !bq.start || listing) {
        if (!listing)
            lister_close(&l);
        workspace_give(ws);
        return -1;
    }
    /* For an even N the two longest diagonals are the id's top bits (2b. above: only pairs with no queen
     * east on them are joined) */
    struct joiner j = {bp, bq, 2 * l.span, longest_of(&l, n), direct, bucket,
                       {small, &out[JOIN_TESTS], 1, 0, 0, leaf, 0, JOIN_LEAVES, places}};
    uint32_t compact = unrank(first, free_rows, east_cols);
    for (uint64_t rank = first; rank < last; rank++, compact = next_combination(compact, free_rows)) {
        uint32_t east = east_rows(compact, l.positions, l.f);
        uint64_t weight = orbit_weight(&m, l.h, east); /* the least of its orbit under the flips, counted for all */
        if (!weight)
            continue;
        out[JOIN_ROW_SETS]++;
        struct half e, w;
        uint64_t found = 0, np, nq;
        uint64_t t0 = nanoseconds(), listed = 0;
        lister_half(&l, east, 0, &e);
        while ((np = half_listed(&e, p, cap)) > 0) {
            out[JOIN_HALVES] += np;
            lister_half(&l, east, 1, &w); /* the west listed again for each piece of the east */
            while ((nq = half_listed(&w, q, cap)) > 0) {
                out[JOIN_HALVES] += nq;
                uint64_t t1 = nanoseconds();
                listed += t1 - t0;
                found += joined(&j, p, np, q, nq);
                t0 = nanoseconds();
                out[JOIN_NS_JOIN] += t0 - t1;
            }
        }
        listed += nanoseconds() - t0;
        out[JOIN_NS_HALVES] += listed;
        out[JOIN_COUNT] += weight * found;
    }
    lister_close(&l);
    workspace_give(ws);
    return 0;
}

/* The keys[0 .. count) in three groups, in place (their order within a
 * group not kept): none of the two bits of `longest` (`diag` and the
 * other), then one, then both; ends[0] and ends[1] where the first two end
 * (grouped's, without scratch: the list may be a long one). */
static void grouped_in_place(uint64_t *keys, uint64_t count, uint64_t longest, uint64_t diag, uint64_t ends[2]) {
    uint64_t anti = longest ^ diag, low = 0, i = 0, high = count;
    while (i < high) { /* [0, low) none, [low, i) one, [high, count) both */
        uint64_t k = keys[i];
        int g = ((k & diag) != 0) + ((k & anti) != 0);
        if (g == 0)
            keys[i++] = keys[low], keys[low++] = k;
        else if (g == 2)
            keys[i] = keys[--high], keys[high] = k;
        else
            i++;
    }
    ends[0] = low, ends[1] = high;
}

int64_t join_list(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint64_t *keys,
                  uint64_t room, uint64_t *jobs, uint64_t jobs_room, uint64_t *next, uint64_t *jobs_made,
                  uint64_t out[JOIN_VALUES]) {
    struct middle m;
    *next = first, *jobs_made = 0;
    int64_t ranks = ranks_within(n, x, y, t, &m, first, &last);
    if (ranks <= 0)
        return ranks;
    *next = last;
    struct lister l;
    uint64_t began = nanoseconds();
    if (room < 8 || jobs_room < 4 * JOIN_LIST_JOB)
        return -1;
    struct workspace *ws = workspace_take();
    if (!ws || lister_open(&l, t, n, &m, ws)) {
        workspace_give(ws);
        return -1;
    }
    uint64_t longest = longest_of(&l, n), diag = longest & -longest, used = 0, jobs_used = 0;
    int free_rows = __builtin_popcount(m.rows), east_cols = __builtin_popcount(m.east);
    int64_t result = 0;
    uint32_t compact = unrank(first, free_rows, east_cols);
    for (uint64_t rank = first; rank < last; rank++, compact = next_combination(compact, free_rows)) {
        uint32_t east = east_rows(compact, l.positions, l.f);
        uint64_t weight = orbit_weight(&m, l.h, east);
        if (!weight)
            continue;
        if (jobs_used + 4 * JOIN_LIST_JOB > jobs_room) { /* (four pairs of ranges a row set, at most) */
            *next = rank;
            break;
        }
        struct half e, w;
        lister_half(&l, east, 0, &e);
        lister_half(&l, east, 1, &w);
        uint64_t np = half_listed(&e, keys + used, room - 8 - used); /* (8: south_joined's room past the end) */
        uint64_t nq = e.done && np ? half_listed(&w, keys + used + np, room - 8 - used - np) : 0;
        if (!e.done || (np && !w.done)) { /* this row set's halves do not fit what is left (no east: no west listed) */
            *next = rank;
            if (!used)
                result = -2; /* nor the whole room */
            break;
        }
        out[JOIN_ROW_SETS]++;
        out[JOIN_HALVES] += np + nq;
        uint64_t p = used, q = used + np;
        used += np + nq;
        if (!np || !nq)
            continue;
        uint64_t pairs[5][3] = {{p, q, 1}}; /* (first range's start, second's, times) */
        uint64_t lengths[5][2] = {{np, nq}};
        int made = 1;
        if (longest) { /* 2b. above: the pairs joined, and those counted twice */
            uint64_t pe[2], qe[2];
            grouped_in_place(keys + p, np, longest, diag, pe);
            grouped_in_place(keys + q, nq, longest, diag, qe);
            uint64_t ranges[5][5] = {{p, pe[0], q, qe[1], 1},
                                     {p + pe[0], pe[1] - pe[0], q, qe[0], 1},
                                     {p, pe[0], q + qe[1], nq - qe[1], 2},
                                     {p + pe[1], np - pe[1], q, qe[0], 2}};
            made = 0;
            for (int i = 0; i < 4; i++)
                if (ranges[i][1] && ranges[i][3]) {
                    pairs[made][0] = ranges[i][0], pairs[made][1] = ranges[i][2], pairs[made][2] = ranges[i][4];
                    lengths[made][0] = ranges[i][1], lengths[made][1] = ranges[i][3];
                    made++;
                }
        }
        for (int i = 0; i < made; i++) {
            uint64_t *job = jobs + jobs_used;
            job[0] = pairs[i][0], job[1] = lengths[i][0], job[2] = pairs[i][1], job[3] = lengths[i][1];
            job[4] = weight * pairs[i][2];
            jobs_used += JOIN_LIST_JOB;
        }
    }
    out[JOIN_NS_HALVES] += nanoseconds() - began;
    lister_close(&l);
    workspace_give(ws);
    if (result < 0)
        return result;
    *jobs_made = jobs_used / JOIN_LIST_JOB;
    return (int64_t)used;
}

int64_t join_tasks(const struct join_table *t, int n, int x, int y, uint64_t first, uint64_t last, uint32_t *tasks,
                   uint64_t tasks_room, uint64_t *weights, uint64_t weights_room, uint64_t *next,
                   uint64_t *row_sets) {
    struct middle m;
    *next = first, *row_sets = 0;
    int64_t ranks = ranks_within(n, x, y, t, &m, first, &last);
    if (ranks <= 0)
        return ranks;
    *next = last;
    int h = n / 2, free_rows = __builtin_popcount(m.rows), east_cols = __builtin_popcount(m.east);
    uint32_t positions[32], north = (1u << h) - 1;
    int f = free_positions(m.rows, positions);
    uint64_t used = 0;
    uint32_t compact = unrank(first, free_rows, east_cols);
    for (uint64_t rank = first; rank < last; rank++, compact = next_combination(compact, free_rows)) {
        uint32_t east = east_rows(compact, positions, f);
        uint64_t weight = orbit_weight(&m, h, east);
        if (!weight)
            continue;
        uint64_t made = used;
        int fits = *row_sets < weights_room;
        for (int side = 0; side < 2 && fits; side++) { /* the east half's tasks, then the west half's */
            uint32_t rows = side ? m.rows ^ east : east, cols = side ? m.west : m.east;
            uint32_t rows_n = rows & north, rows_s = rows >> h;
            for (uint32_t c = t->columns_start[rows_n]; c < t->columns_start[rows_n + 1]; c++) {
                uint32_t up = t->columns[c], nb = join_bucket(rows_n, up, h), sb = join_bucket(rows_s, cols ^ up, h);
                if (up & ~cols || t->start[sb] == t->start[sb + 1])
                    continue; /* not the half's columns, or no south placement to join */
                if (made + 1 > tasks_room / JOIN_TASK) {
                    fits = 0;
                    break;
                }
                uint32_t *task = tasks + made * JOIN_TASK;
                task[0] = t->start[nb], task[1] = t->start[nb + 1] - t->start[nb];
                task[2] = t->start[sb], task[3] = t->start[sb + 1] - t->start[sb];
                task[4] = (uint32_t)(2 * *row_sets + side);
                made++;
            }
        }
        if (!fits) {
            *next = rank;
            if (!*row_sets)
                return -2; /* not even one row set's tasks fit */
            break;
        }
        weights[(*row_sets)++] = weight;
        used = made;
    }
    return (int64_t)used;
}
