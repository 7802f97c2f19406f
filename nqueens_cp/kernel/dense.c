/* dense.c: the join of two bucketed lists of keys, the second room of the
 * count by joining quarters (join.c lists the halves as keys and puts them
 * in buckets; read its opening comment first, and the lesson,
 * nqueens_cp/counting/quarters.py, before it).  A key is a half's diagonals;
 * a pair of keys with no bit in common is a board.
 *
 * 5. The join.  Short lists, and small buckets, are tested pair by pair with
 *    the vector unit (`join_tested`, by hand for AVX-512 or AVX2 where the
 *    CPU has it).  Bucketed lists are joined bucket against bucket without testing
 *    every pair (`join_buckets`): split both on the id's top bit; a pair
 *    where both have it cannot match, so of the four ways only three are
 *    joined further, down to one bucket each (or few pairs, tested one by
 *    one).
 * 6. Dense buckets.  Where the shorter list has JOIN_DENSE_LIST keys or
 *    more, the longer list's buckets are also kept bit-transposed
 *    (`join_dense_build`): for each bit, a row of words whose bit i is that
 *    bit of the bucket's key i, and for each chunk of 6 bits the OR of the
 *    rows of each of its 64 values.  A key of the other list meets the keys
 *    of the OR of its chunks' sums; a popcount counts the others: 512 pair
 *    tests in one OR a chunk, where testing them one by one takes 64
 *    instructions or more.  The bits tested are those outside the id that
 *    keys of both lists take.  The leaves that meet dense buckets are put
 *    off and joined a q bucket at a time, two batches a key
 *    (`join_leaves`), each bucket's words made just before its leaves. */
#include "join.h"
#include "dense.h"

#include <stdlib.h>
#include <string.h>

/* --- the join --------------------------------------------------------------------- */

/* Pairs of p x q with no bit in common, tested one by one: the vector unit's
 * loop, on 64-bit keys (`tested`) or on their first 32 bits (`tested32`,
 * twice the lanes: where the bits that can meet are among them), for lists
 * with few pairs and buckets too small to be kept dense (below).
 * Written once for any machine (`portable`), the compiler's vectors; and for
 * AVX-512 and AVX2 by hand (below), chosen at each call by what the CPU has. */
#define TESTED(name, key)                                                                                     \
    TARGETS static uint64_t name(const key *p, uint64_t np, const key *q, uint64_t nq) {                     \
        uint64_t total = 0;                                                                                   \
        for (uint64_t i = 0; i < nq; i++) {                                                                   \
            key x = q[i], found = 0; /* (np <= a list's cap: no overflow) */                                 \
            for (uint64_t j = 0; j < np; j++)                                                                 \
                found += (p[j] & x) == 0;                                                                     \
            total += found;                                                                                   \
        }                                                                                                     \
        return total;                                                                                         \
    }
TESTED(join_tested_portable, uint64_t)
TESTED(join_tested32_portable, uint32_t)

#ifdef HAND_WRITTEN

/* The same count with AVX-512, four keys of q at a time against eight (or
 * sixteen) of p: each load of p serves four keys of q, and a test is one
 * instruction (vptestnm: "and, then is it zero", into a mask) and a masked
 * add of one to that key's lane counts, where the compiler's loop takes four
 * (and, test, a mask made a vector, a subtraction).  2 to 3x the tests a
 * nanosecond of `portable` on 64-bit keys here.  The last keys of p are a
 * masked load; the last keys of q (fewer than four) go one at a time.
 * `lanes` keys of `bits` bits fill a register; the macro writes both. */
#define TESTED_AVX512(name, key, lanes, bits, mask_t)                                                        \
    __attribute__((target("avx512f"))) static uint64_t name(const key *p, uint64_t np, const key *q,         \
                                                            uint64_t nq) {                                    \
        const uint64_t whole = np & ~(uint64_t)(lanes - 1);                                                   \
        const mask_t tail = (mask_t)((1u << (np - whole)) - 1);                                               \
        const __m512i one = _mm512_set1_epi##bits(1);                                                         \
        __m512i sum = _mm512_setzero_si512(); /* per lane: at most 4 np / lanes, np <= a list's cap */       \
        uint64_t i = 0, total = 0;                                                                            \
        for (; i + 4 <= nq; i += 4) {                                                                         \
            __m512i x0 = _mm512_set1_epi##bits((long long)q[i]), x1 = _mm512_set1_epi##bits((long long)q[i + 1]), \
                    x2 = _mm512_set1_epi##bits((long long)q[i + 2]),                                          \
                    x3 = _mm512_set1_epi##bits((long long)q[i + 3]);                                          \
            __m512i f0 = _mm512_setzero_si512(), f1 = f0, f2 = f0, f3 = f0;                                   \
            for (uint64_t j = 0; j < whole; j += lanes) {                                                     \
                __m512i y = _mm512_loadu_si512(p + j);                                                        \
                f0 = _mm512_mask_add_epi##bits(f0, _mm512_testn_epi##bits##_mask(y, x0), f0, one);            \
                f1 = _mm512_mask_add_epi##bits(f1, _mm512_testn_epi##bits##_mask(y, x1), f1, one);            \
                f2 = _mm512_mask_add_epi##bits(f2, _mm512_testn_epi##bits##_mask(y, x2), f2, one);            \
                f3 = _mm512_mask_add_epi##bits(f3, _mm512_testn_epi##bits##_mask(y, x3), f3, one);            \
            }                                                                                                 \
            if (tail) {                                                                                       \
                __m512i y = _mm512_maskz_loadu_epi##bits(tail, p + whole);                                    \
                f0 = _mm512_mask_add_epi##bits(f0, _mm512_mask_testn_epi##bits##_mask(tail, y, x0), f0, one); \
                f1 = _mm512_mask_add_epi##bits(f1, _mm512_mask_testn_epi##bits##_mask(tail, y, x1), f1, one); \
                f2 = _mm512_mask_add_epi##bits(f2, _mm512_mask_testn_epi##bits##_mask(tail, y, x2), f2, one); \
                f3 = _mm512_mask_add_epi##bits(f3, _mm512_mask_testn_epi##bits##_mask(tail, y, x3), f3, one); \
            }                                                                                                 \
            __m512i four = _mm512_add_epi##bits(_mm512_add_epi##bits(f0, f1), _mm512_add_epi##bits(f2, f3)); \
            total += (uint64_t)(key)_mm512_reduce_add_epi##bits(four);                                        \
        }                                                                                                     \
        for (; i < nq; i++) {                                                                                 \
            __m512i x = _mm512_set1_epi##bits((long long)q[i]), f = _mm512_setzero_si512();                  \
            for (uint64_t j = 0; j < whole; j += lanes)                                                       \
                f = _mm512_mask_add_epi##bits(f, _mm512_testn_epi##bits##_mask(_mm512_loadu_si512(p + j), x), f, one); \
            if (tail)                                                                                         \
                f = _mm512_mask_add_epi##bits(                                                                \
                    f, _mm512_mask_testn_epi##bits##_mask(tail, _mm512_maskz_loadu_epi##bits(tail, p + whole), x), f, \
                    one);                                                                                     \
            sum = _mm512_add_epi##bits(sum, f);                                                               \
        }                                                                                                     \
        return total + (uint64_t)(key)_mm512_reduce_add_epi##bits(sum);                                       \
    }
TESTED_AVX512(join_tested_avx512, uint64_t, 8, 64, __mmask8)
TESTED_AVX512(join_tested32_avx512, uint32_t, 16, 32, __mmask16)

/* The sum of a register's lanes, of 32 or 64 bits. */
static inline __attribute__((target("avx2"))) uint64_t lanes_summed_64(__m256i v) {
    __m128i two = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(two) + (uint64_t)_mm_extract_epi64(two, 1);
}

static inline __attribute__((target("avx2"))) uint64_t lanes_summed_32(__m256i v) {
    return lanes_summed_64(_mm256_add_epi64(_mm256_and_si256(v, _mm256_set1_epi64x(0xffffffff)),
                                            _mm256_srli_epi64(v, 32)));
}

/* The same with AVX2, for CPUs without AVX-512: four keys of q at a time                                              \
 * against four (or eight) of p, a test three instructions (and, compare with                                          \
 * zero, subtract the compare's -1 from that key's lane counts); the last                                              \
 * keys of p a masked load, their lanes past the list masked out of the                                                \
 * counts too (a lane loaded as zero would match).  Each four keys' counts                                             \
 * are summed at once (a lane holds at most 4 np / lanes).  The compiler's                                             \
 * loop ended each key of q with a horizontal sum and its last keys of p one                                           \
 * at a time: a fifth of `count 19` on a Zen 3, whose lists are short. */                                              \
#define TESTED_AVX2(name, key, lanes, bits, set1, index)                                                               \
    __attribute__((target("avx2"))) static uint64_t name(const key *p, uint64_t np, const key *q, uint64_t nq) {       \
        const uint64_t whole = np & ~(uint64_t)(lanes - 1);                                                            \
        const __m256i zero = _mm256_setzero_si256(),                                                                   \
                      tail = _mm256_cmpgt_epi##bits(set1((key)(np - whole)), index);                                   \
        uint64_t total = 0;                                                                                            \
        for (uint64_t i = 0; i < nq; i += 4) {                                                                         \
            __m256i x[4], f[4] = {zero, zero, zero, zero};                                                             \
            for (int k = 0; k < 4; k++) /* (past q's last key: its first again, not counted below) */                  \
                x[k] = set1((key)q[i + k < nq ? i + k : i]);                                                           \
            for (uint64_t j = 0; j < whole; j += lanes) {                                                              \
                __m256i y = _mm256_loadu_si256((const __m256i *)(p + j));                                              \
                for (int k = 0; k < 4; k++)                                                                            \
                    f[k] = _mm256_sub_epi##bits(f[k], _mm256_cmpeq_epi##bits(_mm256_and_si256(y, x[k]), zero));        \
            }                                                                                                          \
            if (whole < np) {                                                                                          \
                __m256i y = _mm256_maskload_epi##bits((const void *)(p + whole), tail);                                \
                for (int k = 0; k < 4; k++)                                                                            \
                    f[k] = _mm256_sub_epi##bits(                                                                       \
                        f[k], _mm256_and_si256(tail, _mm256_cmpeq_epi##bits(_mm256_and_si256(y, x[k]), zero)));        \
            }                                                                                                          \
            for (int k = 1; k < 4 && i + k < nq; k++)                                                                  \
                f[0] = _mm256_add_epi##bits(f[0], f[k]);                                                               \
            total += lanes_summed_##bits(f[0]);                                                                        \
        }                                                                                                              \
        return total;                                                                                                  \
    }
TESTED_AVX2(join_tested_avx2, uint64_t, 4, 64, _mm256_set1_epi64x, _mm256_setr_epi64x(0, 1, 2, 3))
TESTED_AVX2(join_tested32_avx2, uint32_t, 8, 32, _mm256_set1_epi32, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))

#define PICKED(name, key)                                                                                              \
    uint64_t name(const key *p, uint64_t np, const key *q, uint64_t nq) {                                              \
        if (np < nq) { /* the longer list in the lanes (a short one leaves most of them empty) */                      \
            const key *t = p;                                                                                          \
            uint64_t nt = np;                                                                                          \
            p = q, np = nq, q = t, nq = nt;                                                                            \
        }                                                                                                              \
        return has_avx512() ? name##_avx512(p, np, q, nq) : has_avx2() ? name##_avx2(p, np, q, nq)                     \
                                                                       : name##_portable(p, np, q, nq);                \
    }
#else
#define PICKED(name, key)                                                                                     \
    uint64_t name(const key *p, uint64_t np, const key *q, uint64_t nq) {                             \
        return np < nq ? name##_portable(q, nq, p, np) : name##_portable(p, np, q, nq);                      \
    }
#endif
PICKED(join_tested, uint64_t)
PICKED(join_tested32, uint32_t)

/* --- the dense buckets -------------------------------------------------------------- */

/* A bucket kept dense is its keys bit-transposed: for each bit of a key, a
 * row of W words (W = its keys / 64, rounded up) whose bit i is that bit of
 * the bucket's key i.  The keys of the bucket that meet a key x are the OR
 * of the rows of x's bits, and those that do not are counted by popcounts:
 * 64 pair tests a word, 512 in a few vector operations.  To take fewer ORs
 * a key, the bucket keeps, for each chunk of `width` bits (DENSE_CHUNK, or
 * DENSE_WIDE where the others would take many chunks: dense_plan) and each
 * value v of it, the OR of the rows of v's bits (the chunk's sums): a key is
 * one OR a chunk.  The lanes past the bucket's last key are set in every sum
 * of the first chunk, so that they always meet.  A bucket's words: sums[((c
 * << width) + v) * W + w], chunk c's sum of value v, word w.  (Kluev's
 * N-Queens-Count-Sol, its matchtr.h, matches this way first; this is ours.)
 * Below DENSE_MIN keys a bucket's pairs are tested one by one, and so are
 * those of the buckets that no longer fit the room kept for the words
 * (join_dense_words: one and a half times what the list takes in whole
 * batches; the buckets' last batches are partly empty).  (DENSE_CHUNK,
 * DENSE_BATCH and DENSE_MIN are dense.h's: join.c reads them too.) */

/* A batch's DENSE_BATCH words of one row (or sum) as one value of the
 * compiler's vectors (GCC's and Clang's vector extension): one instruction
 * where the CPU has 512-bit vectors, two or four where it has narrower
 * ones.  Written as arrays of words, neither loop below was vectorized (the
 * compiler could not tell that the rows they read and write are apart),
 * and the batches' transposes and sums took a fifth of the join at N = 20
 * (issue 65). */
typedef uint64_t batch_words __attribute__((vector_size(8 * DENSE_BATCH)));

/* The words of DENSE_BATCH groups of 64 keys at once: lane g of a[i], key
 * i of group g, is row i of a 64 x 64 bit matrix; transposed, lane g of
 * a[b] is the group's word of bit b.  Six rounds of swapping blocks of bits
 * across the diagonal (halves, quarters, ..., single bits: Hacker's
 * Delight's transpose), each step one vector operation over the groups. */
static inline __attribute__((always_inline)) void transpose_rounds(batch_words *a, int rows, int j, uint64_t m) {
    for (; j; j >>= 1, m ^= m << j) /* (rows: the first rows the rounds run on; j, m: the first round's) */
        for (int k = 0; k < rows; k = ((k | j) + 1) & ~j) {
            batch_words t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
}

TARGETS static void dense_transpose(batch_words a[64]) {
    transpose_rounds(a, 64, 32, 0x00000000ffffffffu);
}

/* The same where every key fits in 32 bits (`keyed` 0: low[]'s, the longer
 * list's at N = 23 always), so rows 32 .. 63 would come out zero: they are
 * not made (the caller reads rows below 32 only).  The first round would
 * move each row's low half up into the row 32 above, which has no high half
 * to give back, and leave the rows 32 .. 63 zero, where the other five
 * rounds would swap zeros.  So the keys are read as that round leaves them
 * (`low_rows`: a[k] holds the words of rows k and k + 32, low half and high
 * half), and the other rounds run on rows 0 .. 31 alone, about half the
 * work (the transpose was 6.8 % of `count 23`'s samples, copying the keys
 * to 64-bit words 1 %: docs/counting.md). */
TARGETS static void dense_transpose32(batch_words a[32]) {
    transpose_rounds(a, 32, 16, 0x0000ffff0000ffffu);
}

/* The groups a batch of `keys` keys is dealt to: all DENSE_BATCH, or half of
 * them in a half batch (a bucket's last, of DENSE_HALF keys or fewer:
 * dense.h), so that its keys are in the first half of each word and sum.
 * Key j of a batch is row j / spread of group j % spread: the slot below of
 * its rows read as one array of words. */
static inline uint64_t batch_spread(uint64_t keys) {
    return keys <= DENSE_HALF ? DENSE_BATCH / 2 : DENSE_BATCH;
}

static inline uint64_t batch_slot(uint64_t j, uint64_t spread) {
    return DENSE_BATCH * (j / spread) + j % spread;
}

/* The `keys` keys of a half batch (DENSE_HALF at most), each `size` bytes, dealt from `from` to `to` as
 * batch_slot places them with a spread of DENSE_BATCH / 2: each run of DENSE_BATCH / 2 keys one copy, to the
 * first half of a row of DENSE_BATCH slots.  (Key by key, the copy was a third of low_rows' time in a window of
 * 23 on a Zen 3.) */
static inline __attribute__((always_inline)) void halves_dealt(void *to, const void *from, uint64_t keys,
                                                               size_t size) {
    const uint64_t spread = DENSE_BATCH / 2;
    uint64_t j = 0;
    for (; j + spread <= keys; j += spread) /* (a constant size, once inlined: one or two vector moves) */
        memcpy((char *)to + batch_slot(j, spread) * size, (const char *)from + j * size, spread * size);
    for (; j < keys; j++)
        memcpy((char *)to + batch_slot(j, spread) * size, (const char *)from + j * size, size);
}

/* A batch of `keys` 32-bit keys (at most 64 DENSE_BATCH; zeros after
 * them), dealt to `spread` groups, as dense_transpose32 reads them: lane g
 * of a[k] is key 8 k + g (4 k + g in a half batch), with key 8 (k + 32) + g
 * (4 (k + 32) + g) above it.  (low[] holds a key's first 32 bits:
 * all of the others and the id's lowest, where key[] would have the id's
 * next bits above; a dense word's id bits never meet, as a leaf's two ids
 * are apart.) */
typedef uint32_t batch_halves __attribute__((vector_size(4 * DENSE_BATCH)));
TARGETS static void low_rows(batch_words a[32], const uint32_t *low, uint64_t keys, uint64_t spread) {
    uint32_t tail[64 * DENSE_BATCH];
    if (spread < DENSE_BATCH) { /* (a half batch: each group of DENSE_BATCH / 2 keys one copy) */
        memset(tail, 0, sizeof tail);
        halves_dealt(tail, low, keys, sizeof *low);
        low = tail;
    } else if (keys < 64 * DENSE_BATCH) {
        memcpy(tail, low, keys * sizeof *low);
        memset(tail + keys, 0, (64 * DENSE_BATCH - keys) * sizeof *tail);
        low = tail;
    }
    for (int k = 0; k < 32; k++) {
        batch_halves below, above;
        memcpy(&below, low + DENSE_BATCH * k, sizeof below), memcpy(&above, low + DENSE_BATCH * (k + 32), sizeof above);
        a[k] = __builtin_convertvector(below, batch_words) | __builtin_convertvector(above, batch_words) << 32;
    }
}

static int leaf_loops(void);

/* Which of b's buckets (of its k-bit ids) are dense: those of `least` keys
 * or more that fit its room, their words' place in it in at[] (each
 * bucket's batches of 512 keys one after the other, a batch's sums
 * [chunk][value], each DENSE_BATCH words), the others NOT_DENSE; and the
 * width of their chunks (dense.h's DENSE_WIDE, or DENSE_MID where it takes
 * fewer chunks than DENSE_CHUNK: where the loops by hand join them, which
 * makes a bucket's words, and the next one's after them, as their leaves
 * are joined, so that a bucket need fit only in half the room; the
 * compiler's loop reads them all, made at once).  Which buckets are dense
 * changes no tally: a leaf's pairs count as tested either way. */
static void dense_plan(struct buckets *b, int k, uint64_t least) {
    int leaves = leaf_loops() != 0, width = DENSE_CHUNK, chunks = b->others ? (b->others + width - 1) / width : 1;
    if (leaves && chunks >= DENSE_WIDE_FROM)
        width = DENSE_WIDE, chunks = (b->others + width - 1) / width;
    else if (leaves && (b->others + DENSE_MID - 1) / DENSE_MID < chunks && b->others <= 7 * DENSE_MID)
        width = DENSE_MID, chunks = (b->others + width - 1) / width; /* (join_leaves' loops: seven chunks at most) */
    b->width = width, b->chunks = chunks;
    uint64_t used = 0, batch = (uint64_t)chunks * DENSE_BATCH << width;
    for (uint32_t id = 0; id < 1u << k; id++) {
        uint64_t count = b->start[id + 1] - b->start[id], batches = (count + 64 * DENSE_BATCH - 1) / (64 * DENSE_BATCH);
        if (count < least || (leaves ? 2 * batches * batch : used + batches * batch) > b->room) {
            b->at[id] = NOT_DENSE;
            continue;
        }
        b->at[id] = used;
        used += batches * batch;
    }
}

/* b's packed keys of buckets a .. a + size - 1, in key[]: made there from
 * low[] where the bucketing wrote only those (`keyed` 0: the others fit in
 * 32 bits, so a key is its first others bits, then its bucket's id), for a
 * test of more than 32 of their bits; the same as the bucketing's key[]. */
static const uint64_t *keys_of(const struct buckets *b, uint32_t a, uint32_t size) {
    if (!b->keyed) {
        const uint64_t mask = ((uint64_t)1 << b->others) - 1;
        for (uint32_t id = a; id < a + size; id++)
            for (uint64_t i = b->start[id]; i < b->start[id + 1]; i++)
                b->key[i] = (b->low[i] & mask) | (uint64_t)id << b->others;
    }
    return b->key;
}

/* A chunk's sums: chunk[v], for each value v of its `width` bits (rows
 * row[first ..], none from `rows` on), the OR of the rows of v's bits and of
 * `base`.  Made as the ORs of two halves' sums, each half's kept in
 * registers, none read back.  (Made before as chunk[v] = chunk[v & (v - 1)]
 * | a row, each sum waited on the store of one just made: 7.6 % of `count
 * 23`'s samples; 0.976x the windows' time since: docs/counting.md.)  Inlined
 * where the width is a constant, DENSE_CHUNK, DENSE_MID or DENSE_WIDE.
 *
 * Written once for two widths of vector (`vec`): a batch's whole words
 * (`chunk_sums`, `at` 0), or half of them (`chunk_sums_half`, `at` 0: the
 * words of groups 0 to 3, DENSE_BATCH / 2: of groups 4 to 7), each sum's
 * half stored in its place.  Where the CPU's vectors are half a batch
 * (AVX2), chunk_sums kept its sums in the stack and moved each through it
 * again, a word at a time, for its first store (GCC splits the operations
 * of a vector wider than the CPU's, not where it keeps it): the words were
 * 13.9 % of `count 18` on a Zen 3.  A half at a time, the low sums are eight
 * of AVX2's sixteen registers (docs/counting.md). */
#define CHUNK_MOST (DENSE_WIDE > DENSE_CHUNK ? DENSE_WIDE : DENSE_CHUNK) /* (DENSE_MID is between them) */
typedef uint64_t half_words __attribute__((vector_size(4 * DENSE_BATCH)));
#define CHUNK_SUMS(name, vec)                                                                                          \
    static inline __attribute__((always_inline)) void name(uint64_t *restrict chunk, const batch_words *restrict row,  \
                                                           int first, int rows, batch_words base, const int width,     \
                                                           const int at) {                                             \
        const int below = width / 2, above = width - below;                                                            \
        vec r[CHUNK_MOST], low[1 << CHUNK_MOST / 2], high[1 << (CHUNK_MOST - CHUNK_MOST / 2)], zero = {0};             \
        for (int i = 0; i < width; i++)                                                                                \
            if (first + i < rows)                                                                                      \
                memcpy(&r[i], (const uint64_t *)&row[first + i] + at, sizeof r[i]);                                    \
            else                                                                                                       \
                r[i] = zero;                                                                                           \
        memcpy(&low[0], (const uint64_t *)&base + at, sizeof low[0]), high[0] = zero;                                  \
        for (int v = 1; v < 1 << below; v++)                                                                           \
            low[v] = low[v & (v - 1)] | r[__builtin_ctz((unsigned)v)];                                                 \
        for (int v = 1; v < 1 << above; v++)                                                                           \
            high[v] = high[v & (v - 1)] | r[below + __builtin_ctz((unsigned)v)];                                       \
        for (int h = 0; h < 1 << above; h++) {                                                                         \
            uint64_t *to = chunk + ((size_t)h << below) * DENSE_BATCH + at; /* (each l a constant displacement) */     \
            for (int l = 0; l < 1 << below; l++) {                                                                     \
                vec sum = high[h] | low[l];                                                                            \
                memcpy(to + l * DENSE_BATCH, &sum, sizeof sum);                                                        \
            }                                                                                                          \
        }                                                                                                              \
    }
CHUNK_SUMS(chunk_sums, batch_words)
CHUNK_SUMS(chunk_sums_half, half_words)

/* The words of b's bucket `id`, from the first others bits of its keys, at
 * sums: each batch's sums whole (`by_parts` 0), or a half of each at a time
 * (1: chunk_sums_half), where a half batch's second halves are not made (only
 * the loops by hand read these words, and a half batch's first halves alone:
 * dense_meet_half). */
static inline __attribute__((always_inline)) void bucket_words(const struct buckets *b, uint32_t id,
                                                               uint64_t *sums_at, const int by_parts) {
    const int chunks = b->chunks, rows = b->keyed ? 64 : 32, width = b->width; /* (rows: a key's bits can fill) */
    uint64_t first = b->start[id], count = b->start[id + 1] - first, batch = (uint64_t)chunks * DENSE_BATCH << width;
    for (uint64_t lane0 = 0; lane0 < count; lane0 += 64 * DENSE_BATCH, sums_at += batch) {
        /* key j of the batch is row j / 8 of group j % 8 (the keys as they lie: no shuffle), and so
         * lane j / 8 of the group's words once transposed; in a half batch row j / 4 of group j % 4
         * (batch_spread), the first half of each word and sum, which the half loops alone read */
        batch_words row[64], past = {0};
        uint64_t keys = count - lane0 < 64 * DENSE_BATCH ? count - lane0 : 64 * DENSE_BATCH;
        uint64_t spread = batch_spread(keys);
        if (keys < 64 * DENSE_BATCH) /* a last batch not full: the lanes past its last key, in every group */
            for (uint64_t g = 0; g < DENSE_BATCH; g++) {
                uint64_t i = g >= spread ? 0 : keys > g ? (keys - g + spread - 1) / spread : 0; /* (j = s i + g >= keys) */
                past[g] = i < 64 ? ~(uint64_t)0 << i : 0;
            }
        if (b->keyed) {
            const uint64_t *key = b->key + first + lane0;
            if (spread < DENSE_BATCH) {
                memset(row, 0, sizeof row);
                halves_dealt(row, key, keys, sizeof *key);
            } else {
                memcpy(row, key, keys * sizeof(uint64_t));
                memset((uint64_t *)row + keys, 0, (64 * DENSE_BATCH - keys) * sizeof(uint64_t));
            }
            dense_transpose(row);
        } else { /* (rows 32 .. 63 not made: `rows` below) */
            low_rows(row, b->low + first + lane0, keys, spread);
            dense_transpose32(row);
        }
        batch_words *sums = (batch_words *)sums_at; /* (sums and batch: 64-byte aligned) */
        /* (each width a constant, for chunk_sums inlined) */
#define CHUNKS_SUMMED(w)                                                                                        \
    for (int c = 0; c < chunks; c++)                                                                              \
        if (by_parts)                                                                                             \
            for (int at = 0; at < (spread < DENSE_BATCH ? 1 : 2) * DENSE_BATCH / 2; at += DENSE_BATCH / 2)        \
                chunk_sums_half((uint64_t *)(sums + (c << (w))), row, c * (w), rows, c ? (batch_words){0} : past, \
                                (w), at);                                                                         \
        else                                                                                                      \
            chunk_sums((uint64_t *)(sums + (c << (w))), row, c * (w), rows, c ? (batch_words){0} : past, (w), 0)
        if (width == DENSE_WIDE)
            CHUNKS_SUMMED(DENSE_WIDE);
        else if (width == DENSE_MID)
            CHUNKS_SUMMED(DENSE_MID);
        else
            CHUNKS_SUMMED(DENSE_CHUNK);
#undef CHUNKS_SUMMED
    }
}

TARGETS static void dense_bucket(const struct buckets *b, uint32_t id, uint64_t *sums_at) {
    bucket_words(b, id, sums_at, 0);
}

#ifdef HAND_WRITTEN
__attribute__((target("avx2"))) static void dense_bucket_avx2(const struct buckets *b, uint32_t id, uint64_t *sums_at) {
    bucket_words(b, id, sums_at, 1);
}
#endif

/* b's dense buckets (dense_plan), and their words where the compiler's loop
 * reads them (`dense`, below).  The loops by hand join them as put-off
 * leaves, q's bucket by bucket, and each bucket's words are made there, just
 * before its leaves, at the start of the room (join_leaves): at N = 23 a
 * list's words were about 1 MB, made all at once and read again from
 * farther than the cache, and a dense bucket that no leaf meets is never
 * made. */
void join_dense_build(struct buckets *b, int k, uint64_t least) {
    dense_plan(b, k, least);
    if (leaf_loops())
        return;
    for (uint32_t id = 0; id < 1u << k; id++)
        if (b->at[id] != NOT_DENSE)
            dense_bucket(b, id, b->sums + b->at[id]);
}

/* Pairs of the keys x[0 .. nx) x a dense bucket's of `count` keys (its
 * words `sums`) with no bit in common, where they can meet only in the
 * first others bits (`chunks` chunks of `width` bits): written once for any
 * machine, the compiler's loop over a batch's words. */
TARGETS static uint64_t dense_portable(const uint64_t *x, uint64_t nx, const uint64_t *sums, uint64_t count,
                                       int chunks, int width) {
    const uint64_t values = (uint64_t)1 << width;
    uint64_t total = 0, batch = (uint64_t)chunks * values * DENSE_BATCH;
    for (uint64_t lane0 = 0; lane0 < count; lane0 += 64 * DENSE_BATCH, sums += batch) {
        for (uint64_t i = 0; i < nx; i++) {
            uint64_t meet[DENSE_BATCH];
            for (int g = 0; g < DENSE_BATCH; g++)
                meet[g] = sums[(x[i] & (values - 1)) * DENSE_BATCH + g];
            for (int c = 1; c < chunks; c++) {
                const uint64_t *sum = sums + ((uint64_t)c * values + (x[i] >> (c * width) & (values - 1))) * DENSE_BATCH;
                for (int g = 0; g < DENSE_BATCH; g++)
                    meet[g] |= sum[g];
            }
            for (int g = 0; g < DENSE_BATCH; g++)
                total += (uint64_t)__builtin_popcountll(~meet[g]);
        }
    }
    return total;
}

#ifdef HAND_WRITTEN
/* The same with AVX-512, a batch's eight words (512 pair tests) at once: a
 * key is `chunks` loads ORed (the loop unrolled for each count of chunks)
 * and a popcount of the eight words (VPOPCNTDQ), of those that meet (the
 * others are the lanes less those): `dense_one`.  `dense_two` takes two
 * batches at once: each key's offsets into the sums, a shift and a mask a
 * chunk, are worked out once for both (leaves_joined, below, picks). */
#define DENSE_TARGET __attribute__((target("avx512f,avx512vl,avx512vpopcntdq")))
#define DENSE_AVX2_TARGET __attribute__((target("avx2"))) /* (the AVX2 loops below, and what both inline) */
/* Chunk c's sum of a key's value, at this byte offset in a batch's words: its value moved to bits 6
 * up and masked (a shift and an AND; the chunk's own place, c * 64 << width bytes, is the load's
 * constant displacement). */
static inline __attribute__((always_inline)) uint64_t sum_at(uint64_t key, int c, int width) {
    const uint64_t mask = (((uint64_t)1 << width) - 1) << 6;
    uint64_t value = c * width >= 6 ? key >> (c * width - 6) & mask : key << (6 - c * width) & mask;
    return ((uint64_t)c * 64 << width) + value;
}

static inline __attribute__((always_inline)) DENSE_TARGET __m512i dense_meet(uint64_t key, const __m512i *sums,
                                                                             int chunks, int width) {
    const char *at = (const char *)sums;
    __m512i meet = *(const __m512i *)(at + sum_at(key, 0, width));
    for (int c = 1; c < chunks; c++)
        meet = _mm512_or_si512(meet, *(const __m512i *)(at + sum_at(key, c, width)));
    return meet;
}

/* dense_meet on a half batch: the first half of each sum, where its keys are (dense_bucket), half
 * the loads' width. */
static inline __attribute__((always_inline)) DENSE_AVX2_TARGET __m256i dense_meet_half(uint64_t key,
                                                                                       const __m512i *sums,
                                                                                       int chunks, int width) {
    const char *at = (const char *)sums;
    __m256i meet = *(const __m256i *)(at + sum_at(key, 0, width));
    for (int c = 1; c < chunks; c++)
        meet = _mm256_or_si256(meet, *(const __m256i *)(at + sum_at(key, c, width)));
    return meet;
}

#define DENSE_AVX512(name, chunks, width)                                                                     \
    DENSE_TARGET static __m512i dense_half_##name(const uint64_t *x, uint64_t nx, const __m512i *a,           \
                                                    __m512i met) {                                            \
        __m256i found = _mm256_setzero_si256();                                                               \
        for (uint64_t i = 0; i < nx; i++)                                                                     \
            found = _mm256_add_epi64(found, _mm256_popcnt_epi64(dense_meet_half(x[i], a, chunks, width)));    \
        return _mm512_add_epi64(met, _mm512_zextsi256_si512(found));                                          \
    }                                                                                                         \
    DENSE_TARGET static __m512i dense_one_##name(const uint64_t *x, uint64_t nx, const __m512i *a,            \
                                                   __m512i met) {                                             \
        for (uint64_t i = 0; i < nx; i++)                                                                     \
            met = _mm512_add_epi64(met, _mm512_popcnt_epi64(dense_meet(x[i], a, chunks, width)));             \
        return met;                                                                                           \
    }                                                                                                         \
    DENSE_TARGET static __m512i dense_two_##name(const uint64_t *x, uint64_t nx, const __m512i *a,            \
                                                   const __m512i *b, __m512i met) {                           \
        for (uint64_t i = 0; i < nx; i++) {                                                                   \
            __m512i both = _mm512_add_epi64(_mm512_popcnt_epi64(dense_meet(x[i], a, chunks, width)),          \
                                            _mm512_popcnt_epi64(dense_meet(x[i], b, chunks, width)));         \
            met = _mm512_add_epi64(met, both);                                                                \
        }                                                                                                     \
        return met;                                                                                           \
    }                                                                                                         \
    DENSE_TARGET static __m512i dense_one_half_##name(const uint64_t *x, uint64_t nx, const __m512i *a,       \
                                                        const __m512i *b, __m512i met) {                      \
        __m256i found = _mm256_setzero_si256();                                                               \
        for (uint64_t i = 0; i < nx; i++) {                                                                   \
            met = _mm512_add_epi64(met, _mm512_popcnt_epi64(dense_meet(x[i], a, chunks, width)));             \
            found = _mm256_add_epi64(found, _mm256_popcnt_epi64(dense_meet_half(x[i], b, chunks, width)));    \
        }                                                                                                     \
        return _mm512_add_epi64(met, _mm512_zextsi256_si512(found));                                          \
    }
/* The loops for one width, one to six chunks (`tag`: their names' middle, as dense_two_wide_4; `loops`:               \
 * DENSE_AVX512 or DENSE_AVX2 below) */                                                                                \
#define DENSE_SIX(loops, tag, width)                                                                                   \
    loops(tag##1, 1, width)                                                                                            \
    loops(tag##2, 2, width)                                                                                            \
    loops(tag##3, 3, width)                                                                                            \
    loops(tag##4, 4, width)                                                                                            \
    loops(tag##5, 5, width)                                                                                            \
    loops(tag##6, 6, width)
/* Every loop of a kind: chunks of DENSE_CHUNK bits, ten at most; of DENSE_WIDE bits (dense.h), 46 bits at most        \
 * at N = 25, six chunks; of DENSE_MID bits (dense.h), seven at most (dense_plan) */                                   \
#define DENSE_LOOPS(loops)                                                                                             \
    DENSE_SIX(loops, , DENSE_CHUNK)                                                                                    \
    loops(7, 7, DENSE_CHUNK)                                                                                           \
    loops(8, 8, DENSE_CHUNK)                                                                                           \
    loops(9, 9, DENSE_CHUNK)                                                                                           \
    loops(10, 10, DENSE_CHUNK)                                                                                         \
    DENSE_SIX(loops, wide_, DENSE_WIDE)                                                                                \
    DENSE_SIX(loops, mid_, DENSE_MID)                                                                                  \
    loops(mid_7, 7, DENSE_MID)
DENSE_LOOPS(DENSE_AVX512)

/* The same loops with AVX2, for the CPUs without AVX-512's popcount (most
 * laptops' and desktops', AMD's before Zen 4): a batch's eight words are two
 * registers, and each word's popcount is made by bytes, each half byte looked
 * up in a table of sixteen (vpshufb: Mula, Kurz and Lemire, "Faster
 * population counts using AVX2 instructions", 2018).  The byte counts of a
 * few keys are added up in bytes, then those (vpsadbw) in the four 64-bit
 * running sums: `per` keys at most, as many as a byte holds.  The compiler's
 * loop, which this replaces there, took two thirds of a window of `count 23`
 * on a Zen 3, most of it in its eight popcounts a key a batch, each word
 * moved out of the vectors on its own (docs/counting.md). */
static inline __attribute__((always_inline)) DENSE_AVX2_TARGET __m256i byte_counts(__m256i v) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1,
                                           2, 2, 3, 2, 3, 3, 4),
                  nibble = _mm256_set1_epi8(0x0f);
    return _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble)),
                           _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
}

/* dense_meet's OR of a key's sums in a batch, as its two halves (low: the first four words); a half batch's is
 * dense_meet_half, above. */
static inline __attribute__((always_inline)) DENSE_AVX2_TARGET void dense_meet_avx2(uint64_t key, const __m512i *sums,
                                                                                    int chunks, int width,
                                                                                    __m256i *low, __m256i *high) {
    const char *at = (const char *)sums;
    __m256i l = *(const __m256i *)(at + sum_at(key, 0, width)), h = *(const __m256i *)(at + sum_at(key, 0, width) + 32);
    for (int c = 1; c < chunks; c++) {
        l = _mm256_or_si256(l, *(const __m256i *)(at + sum_at(key, c, width)));
        h = _mm256_or_si256(h, *(const __m256i *)(at + sum_at(key, c, width) + 32));
    }
    *low = l, *high = h;
}

/* The keys that meet a batch's lanes, counted carry-save (Harley and Seal's
 * popcount, in the form of Muła, Kurz and Lemire's paper, section 4): eight
 * vectors at a time go through a tree of seven full adders of bits,
 * across lanes kept in `ones`, `twos` and `fours`, where each bit counts
 * 1, 2 and 4, and only the tree's carry out, whose bits count 8, is
 * counted by bytes.  That is seven adders of five logic instructions and one
 * byte count, where counting each vector by bytes took eight byte counts of
 * six instructions and two shuffles on the ports that have them: the loops
 * were bound by those instructions on a Zen 3, not by their loads
 * (benchmarks/dense_loads_avx2.c).  The tally is carried from leaf to leaf
 * (a leaf has 46 keys on average at 23), and a leaf's last keys, fewer than
 * a group, are counted by bytes as before (`singles`). */
struct tally {
    __m256i ones, twos, fours; /* carry-save: a bit counts 1, 2, 4 */
    __m256i eights, singles;   /* four 64-bit sums each: of the tree's carries out (each counting 8), of the
                                * last keys' counts */
};

/* high, low = the sum of bits a + b + c, lane by lane: a full adder of bits. */
#define FULL_ADDER(high, low, a, b, c)                                                                                 \
    do {                                                                                                               \
        __m256i apart_ = _mm256_xor_si256(a, b);                                                                       \
        high = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(apart_, c));                                   \
        low = _mm256_xor_si256(apart_, c);                                                                             \
    } while (0)

/* Eight vectors added into t's ones, twos and fours; their carry out, whose bits count 8, returned. */
static inline __attribute__((always_inline)) DENSE_AVX2_TARGET __m256i eight_added(struct tally *t, const __m256i *v) {
    __m256i a, b, c, d, fours_a, fours_b, eights;
    FULL_ADDER(a, t->ones, t->ones, v[0], v[1]);
    FULL_ADDER(b, t->ones, t->ones, v[2], v[3]);
    FULL_ADDER(fours_a, t->twos, t->twos, a, b);
    FULL_ADDER(c, t->ones, t->ones, v[4], v[5]);
    FULL_ADDER(d, t->ones, t->ones, v[6], v[7]);
    FULL_ADDER(fours_b, t->twos, t->twos, c, d);
    FULL_ADDER(eights, t->fours, t->fours, fours_a, fours_b);
    return eights;
}

/* The keys x[0 .. nx) into the tally t, `keys` at a time, whose vectors (`fill`, from key x[i]: eight) go through
 * eight_added `trees` times; a byte's sum takes 31 / trees groups (eight a tree).  The last keys, fewer than a
 * group, by bytes (`counts`, of key x[i]). */
#define CARRY_SAVED(keys, trees, fill, counts)                                                                         \
    const __m256i zero = _mm256_setzero_si256();                                                                       \
    uint64_t i = 0;                                                                                                    \
    while (i + (keys) <= nx) {                                                                                         \
        __m256i bytes = zero;                                                                                          \
        for (int g = 0; g < 31 / (trees) && i + (keys) <= nx; g++, i += (keys)) {                                      \
            __m256i v[8 * (trees)];                                                                                    \
            fill;                                                                                                      \
            for (int tree = 0; tree < (trees); tree++)                                                                 \
                bytes = _mm256_add_epi8(bytes, byte_counts(eight_added(&t, v + 8 * tree)));                            \
        }                                                                                                              \
        t.eights = _mm256_add_epi64(t.eights, _mm256_sad_epu8(bytes, zero));                                           \
    }                                                                                                                  \
    __m256i bytes = zero;                                                                                              \
    for (; i < nx; i++) /* (fewer than `keys` keys: 7 x 24 a byte at most) */                                          \
        bytes = _mm256_add_epi8(bytes, counts);                                                                        \
    t.singles = _mm256_add_epi64(t.singles, _mm256_sad_epu8(bytes, zero));                                             \
    return t

/* The byte counts of the keys a key meets in a whole batch. */
static inline __attribute__((always_inline)) DENSE_AVX2_TARGET __m256i batch_counts(uint64_t key, const __m512i *a,
                                                                                   int chunks, int width) {
    __m256i low, high;
    dense_meet_avx2(key, a, chunks, width, &low, &high);
    return _mm256_add_epi8(byte_counts(low), byte_counts(high));
}

/* A half batch: a vector a key, eight keys a group.  A whole batch: two, four keys.  Two whole batches: four, two
 * keys.  A whole batch and a half one: three, eight keys a group in three trees (the whole batch's first four
 * keys', its last four's, then the half's eight). */
#define DENSE_AVX2(name, chunks, width)                                                                                \
    DENSE_AVX2_TARGET static struct tally dense_avx2_half_##name(const uint64_t *x, uint64_t nx, const __m512i *a,     \
                                                                 struct tally t) {                                     \
        CARRY_SAVED(8, 1, for (int k = 0; k < 8; k++) v[k] = dense_meet_half(x[i + k], a, chunks, width),              \
                    byte_counts(dense_meet_half(x[i], a, chunks, width)));                                             \
    }                                                                                                                  \
    DENSE_AVX2_TARGET static struct tally dense_avx2_one_##name(const uint64_t *x, uint64_t nx, const __m512i *a,      \
                                                                struct tally t) {                                      \
        CARRY_SAVED(4, 1,                                                                                              \
                    for (int k = 0; k < 4; k++) dense_meet_avx2(x[i + k], a, chunks, width, v + 2 * k, v + 2 * k + 1), \
                    batch_counts(x[i], a, chunks, width));                                                             \
    }                                                                                                                  \
    DENSE_AVX2_TARGET static struct tally dense_avx2_two_##name(const uint64_t *x, uint64_t nx, const __m512i *a,      \
                                                                const __m512i *b, struct tally t) {                    \
        CARRY_SAVED(2, 1, for (int k = 0; k < 2; k++) {                                                                \
            dense_meet_avx2(x[i + k], a, chunks, width, v + 4 * k, v + 4 * k + 1);                                     \
            dense_meet_avx2(x[i + k], b, chunks, width, v + 4 * k + 2, v + 4 * k + 3);                                 \
        },                                                                                                             \
                    _mm256_add_epi8(batch_counts(x[i], a, chunks, width), batch_counts(x[i], b, chunks, width)));      \
    }                                                                                                                  \
    DENSE_AVX2_TARGET static struct tally dense_avx2_one_half_##name(const uint64_t *x, uint64_t nx,                   \
                                                                     const __m512i *a, const __m512i *b,               \
                                                                     struct tally t) {                                 \
        CARRY_SAVED(8, 3, for (int k = 0; k < 8; k++) {                                                                \
            dense_meet_avx2(x[i + k], a, chunks, width, v + 2 * k, v + 2 * k + 1);                                     \
            v[16 + k] = dense_meet_half(x[i + k], b, chunks, width);                                                   \
        },                                                                                                             \
                    _mm256_add_epi8(batch_counts(x[i], a, chunks, width),                                              \
                                    byte_counts(dense_meet_half(x[i], b, chunks, width))));                            \
    }
DENSE_LOOPS(DENSE_AVX2)

/* The lanes that met, of a tally. */
static inline DENSE_AVX2_TARGET uint64_t tally_sum(struct tally t) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i sum = _mm256_add_epi64(_mm256_slli_epi64(t.eights, 3), t.singles);
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64(_mm256_sad_epu8(byte_counts(t.fours), zero), 2));
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64(_mm256_sad_epu8(byte_counts(t.twos), zero), 1));
    return lanes_summed_64(_mm256_add_epi64(sum, _mm256_sad_epu8(byte_counts(t.ones), zero)));
}

/* Which loops join the leaves: 2, AVX-512's (with its popcount, VPOPCNTDQ); 1, AVX2's; 0, none (the compiler's
 * loop, `dense_portable`, joins each leaf as it comes). */
static int leaf_loops(void) {
    static int has = -1; /* (threads that race here write the same value) */
    if (has < 0) {
        __builtin_cpu_init();
        if (has_avx512() && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq"))
            has = 2;
        else
            has = has_avx2() ? 1 : 0;
    }
    return has;
}
#else
static int leaf_loops(void) {
    return 0;
}
#endif

/* Pairs of p's bucket a x q's bucket b (ids apart: they can meet only in
 * the others bits) with no bit in common: p's keys against q's dense
 * words, or one by one where q's bucket is not dense. */
static uint64_t dense(const struct buckets *p, uint32_t a, const struct buckets *q, uint32_t b) {
    uint64_t p0 = p->start[a], np = p->start[a + 1] - p0, q0 = q->start[b], nq = q->start[b + 1] - q0;
    if (q->at[b] == NOT_DENSE)
        return p->others <= 32 ? join_tested32(p->low + p0, np, q->low + q0, nq)
                               : join_tested(p->key + p0, np, keys_of(q, b, 1) + q0, nq);
    return dense_portable(p->key + p0, np, q->sums + q->at[b], nq, q->chunks, q->width);
}


/* Pairs of P's buckets pa .. pa + 2^level - 1 x Q's qa .. with no bit in
 * common: split both on their id's top bit; of (without, with) x (without,
 * with) the pairs that both have it are out, the three others are joined on
 * the bits below.  One bucket each (their ids apart), or no more than
 * `small` keys on either side: their keys tested, where only their first
 * others + level bits can meet (above them no pair left has a bit in
 * common), few pairs one by one, the others against dense blocks (put off,
 * where the loops by hand join them, until L's room is full or the join
 * ends: what they find is in L->found, not in what this returns). */

uint64_t join_buckets(const struct buckets *p, uint32_t pa, const struct buckets *q, uint32_t qa, int level,
                     struct leaves *L) {
    uint32_t size = 1u << level;
    uint64_t p0 = p->start[pa], np = p->start[pa + size] - p0, q0 = q->start[qa], nq = q->start[qa + size] - q0;
    if (!np || !nq)
        return 0;
    if (!level || np * nq <= L->small) {
        *L->tests += np * nq;
        if (level)
            return p->others + level <= 32 ? join_tested32(p->low + p0, np, q->low + q0, nq)
                                           : join_tested(p->key + p0, np, keys_of(q, qa, size) + q0, nq);
#ifdef HAND_WRITTEN
        if (q->at[qa] != NOT_DENSE && leaf_loops()) {
            L->leaf[L->count][0] = pa, L->leaf[L->count][1] = qa, L->leaf[L->count++][2] = L->weight;
            if (L->count == L->room)
                L->found += join_leaves(p, q, L);
            return 0;
        }
#endif
        return dense(p, pa, q, qa);
    }
    uint32_t half = size / 2;
    return join_buckets(p, pa, q, qa, level - 1, L) + join_buckets(p, pa, q, qa + half, level - 1, L) +
           join_buckets(p, pa + half, q, qa, level - 1, L);
}

#ifdef HAND_WRITTEN
/* The leaves of one q bucket, in order of their p buckets: sorted[i .. end). */
struct run {
    uint64_t i, end, batches; /* batches: its whole ones (512 lanes), then a half one where `half` */
    uint32_t bucket, half;
    const __m512i *sums; /* its words, made when its leaves are joined */
};

/* A leaf's p keys, its p bucket, and the weight of its pairs less one. */
struct leaf_keys {
    const uint64_t *key;
    uint64_t count;
    uint32_t bucket, w;
};

static inline struct leaf_keys leaf_keys(const struct buckets *p, const struct leaves *L, uint32_t leaf) {
    uint32_t a = L->leaf[leaf][0];
    return (struct leaf_keys){p->key + p->start[a], p->start[a + 1] - p->start[a], a, L->leaf[leaf][2] - 1};
}

static struct run run_at(const struct buckets *q, const struct leaves *L, const uint32_t *sorted, uint64_t i) {
    uint32_t b = L->leaf[sorted[i]][1];
    uint64_t end = i, lanes = 64 * DENSE_BATCH;
    while (end < L->count && L->leaf[sorted[end]][1] == b)
        end++;
    uint64_t count = q->start[b + 1] - q->start[b], batches = (count + lanes - 1) / lanes;
    uint32_t half = batch_spread(count - (batches - 1) * lanes) < DENSE_BATCH; /* (its last batch's keys) */
    return (struct run){i, end, batches - half, b, half, NULL};
}

/* A loop's table, by the width of q's chunks (dense_plan's: the narrow go to ten chunks, the wide to six, the
 * middle to seven), for each count of chunks. */
#define LEAF_LOOPS(kind)                                                                                               \
    {{NULL, kind##_1, kind##_2, kind##_3, kind##_4, kind##_5, kind##_6, kind##_7, kind##_8, kind##_9, kind##_10},      \
     {NULL, kind##_wide_1, kind##_wide_2, kind##_wide_3, kind##_wide_4, kind##_wide_5, kind##_wide_6},                 \
     {NULL, kind##_mid_1, kind##_mid_2, kind##_mid_3, kind##_mid_4, kind##_mid_5, kind##_mid_6, kind##_mid_7}}
/* The leaves put off, q's bucket by bucket: each bucket's batches two at a
 * time against every p bucket that meets it, while their words are in the
 * cache (joined leaf by leaf, a bucket's words were read again from farther
 * for each p bucket that met it); a bucket's last batch, where it has an
 * odd number, with the next such bucket's for the p buckets that meet both
 * (most: a bucket and the next differ in few bits of their ids).  A last
 * batch of DENSE_HALF keys or fewer (dense.h) is a half batch, joined by
 * loops of half the width, half the loads a key, where a whole batch ran
 * every key over 512 lanes however few of them held keys: after an odd
 * whole batch, both in one pass over the keys (`dense_one_half`), else on
 * its own (`dense_half`).  The pairs the leaves found, weighed.  Written once
 * for both kinds of loops (`loops`: AVX-512's `dense`, AVX2's `dense_avx2`),
 * whose running sums (`met_t`) and words (`words_of`: dense_bucket, or
 * dense_bucket_avx2 where a batch is two registers) differ. */
#define LEAVES_JOINED(name, target, met_t, loops, zero, reduce, words_of)                                              \
    target static uint64_t name(const struct buckets *p, const struct buckets *q, struct leaves *L) {                  \
        typedef met_t (*one_loop)(const uint64_t *, uint64_t, const __m512i *, met_t);                                 \
        typedef met_t (*two_loop)(const uint64_t *, uint64_t, const __m512i *, const __m512i *, met_t);                \
        static const one_loop ones[3][11] = LEAF_LOOPS(loops##_one), halves[3][11] = LEAF_LOOPS(loops##_half);         \
        static const two_loop twos[3][11] = LEAF_LOOPS(loops##_two), one_halves[3][11] = LEAF_LOOPS(loops##_one_half); \
        const int by_width = q->width == DENSE_WIDE ? 1 : q->width == DENSE_MID ? 2 : 0;                               \
        const one_loop *one = ones[by_width], *half = halves[by_width];                                                \
        const two_loop *two = twos[by_width], *one_half = one_halves[by_width];                                        \
        uint32_t buckets = 1u << L->k, *at = L->order, *by_p = at + buckets + 1, *sorted = by_p + L->room;             \
        for (int by = 0; by < 2; by++) { /* a counting sort by p's bucket, then by q's (kept in p's order) */          \
            const uint32_t *from = by ? by_p : NULL;                                                                   \
            uint32_t *to = by ? sorted : by_p;                                                                         \
            memset(at, 0, (buckets + 1) * sizeof *at);                                                                 \
            for (uint64_t i = 0; i < L->count; i++)                                                                    \
                at[L->leaf[from ? from[i] : i][by] + 1]++;                                                             \
            for (uint32_t b = 0; b < buckets; b++)                                                                     \
                at[b + 1] += at[b];                                                                                    \
            for (uint64_t i = 0; i < L->count; i++) {                                                                  \
                uint32_t leaf = from ? from[i] : (uint32_t)i;                                                          \
                to[at[L->leaf[leaf][by]]++] = leaf;                                                                    \
            }                                                                                                          \
        }                                                                                                              \
        const int chunks = q->chunks;                                                                                  \
        const uint64_t lanes = 64 * DENSE_BATCH, words = (uint64_t)chunks << q->width; /* a batch's, in 512 bits */    \
        met_t met[2] = {zero, zero};           /* the leaves of weight 1, of 2 */                                      \
        uint64_t join_tested[2] = {0, 0};                                         /* their lanes */                    \
        for (uint64_t i = 0; i < L->count;) {                                                                          \
            struct run r = run_at(q, L, sorted, i), s = {0, 0, 0, 0, 0, NULL};                                         \
            /* an odd whole batch last: with the half one after it, in one pass over the keys, else with the           \
             * next bucket's odd whole one (if next, and it has no half one to go with its own) */                     \
            int fused = r.batches % 2 && r.half;                                                                       \
            if (r.batches % 2 && !fused && r.end < L->count)                                                           \
                s = run_at(q, L, sorted, r.end);                                                                       \
            int paired = s.batches % 2 && !s.half;                                                                     \
            words_of(q, r.bucket, q->sums); /* the words of r, and of s after them (both fit: dense_plan) */           \
            r.sums = (const __m512i *)q->sums;                                                                         \
            if (paired) {                                                                                              \
                words_of(q, s.bucket, q->sums + (r.batches + r.half) * words * DENSE_BATCH);                           \
                s.sums = (const __m512i *)(q->sums + (r.batches + r.half) * words * DENSE_BATCH);                      \
            }                                                                                                          \
            for (int side = 0; side < 1 + paired; side++) { /* each bucket's batches two at a time */                  \
                struct run u = side ? s : r;                                                                           \
                for (uint64_t t = 0; t + 1 < u.batches; t += 2)                                                        \
                    for (uint64_t j = u.i; j < u.end; j++) {                                                           \
                        struct leaf_keys x = leaf_keys(p, L, sorted[j]);                                               \
                        met[x.w] = two[chunks](x.key, x.count, u.sums + t * words, u.sums + (t + 1) * words, met[x.w]);\
                        join_tested[x.w] += 2 * x.count * lanes;                                                       \
                    }                                                                                                  \
            }                                                                                                          \
            if (fused) /* the last whole batch and the half one, each key's offsets worked out once for both */        \
                for (uint64_t j = r.i; j < r.end; j++) {                                                               \
                    struct leaf_keys x = leaf_keys(p, L, sorted[j]);                                                   \
                    const __m512i *last = r.sums + (r.batches - 1) * words;                                            \
                    met[x.w] = one_half[chunks](x.key, x.count, last, last + words, met[x.w]);                         \
                    join_tested[x.w] += x.count * (lanes + DENSE_HALF);                                                \
                }                                                                                                      \
            else if (r.batches % 2) { /* the last batches: the two lists of leaves merged by their p buckets */        \
                const __m512i *last = r.sums + (r.batches - 1) * words;                                                \
                const __m512i *other = paired ? s.sums + (s.batches - 1) * words : NULL;                               \
                for (uint64_t j = r.i, k = s.i; j < r.end || (paired && k < s.end);) {                                 \
                    struct leaf_keys x = {NULL, 0, UINT32_MAX, 0}, y = x;                                              \
                    if (j < r.end)                                                                                     \
                        x = leaf_keys(p, L, sorted[j]);                                                                \
                    if (paired && k < s.end)                                                                           \
                        y = leaf_keys(p, L, sorted[k]);                                                                \
                    if (x.bucket == y.bucket && x.w == y.w) { /* (never both past the end: the loop's test) */         \
                        met[x.w] = two[chunks](x.key, x.count, last, other, met[x.w]);                                 \
                        join_tested[x.w] += 2 * x.count * lanes;                                                       \
                        j++, k++;                                                                                      \
                    } else if (x.bucket <= y.bucket) {                                                                 \
                        met[x.w] = one[chunks](x.key, x.count, last, met[x.w]);                                        \
                        join_tested[x.w] += x.count * lanes;                                                           \
                        j++;                                                                                           \
                    } else {                                                                                           \
                        met[y.w] = one[chunks](y.key, y.count, other, met[y.w]);                                       \
                        join_tested[y.w] += y.count * lanes;                                                           \
                        k++;                                                                                           \
                    }                                                                                                  \
                }                                                                                                      \
            }                                                                                                          \
            /* a half batch last, on its own (s has none) */                                                           \
            for (uint64_t j = r.i; r.half && !fused && j < r.end; j++) {                                               \
                struct leaf_keys x = leaf_keys(p, L, sorted[j]);                                                       \
                met[x.w] = half[chunks](x.key, x.count, r.sums + r.batches * words, met[x.w]);                         \
                join_tested[x.w] += x.count * DENSE_HALF;                                                              \
            }                                                                                                          \
            i = paired ? s.end : r.end;                                                                                \
        }                                                                                                              \
        L->count = 0;                                                                                                  \
        return join_tested[0] - (uint64_t)reduce(met[0]) +                                                             \
               2 * (join_tested[1] - (uint64_t)reduce(met[1]));                                                        \
    }
LEAVES_JOINED(join_leaves_avx512, DENSE_TARGET, __m512i, dense, _mm512_setzero_si512(), _mm512_reduce_add_epi64,
              dense_bucket)
LEAVES_JOINED(join_leaves_avx2, DENSE_AVX2_TARGET, struct tally, dense_avx2, (struct tally){{0}}, tally_sum,
              dense_bucket_avx2)

uint64_t join_leaves(const struct buckets *p, const struct buckets *q, struct leaves *L) {
    return leaf_loops() == 2 ? join_leaves_avx512(p, q, L) : join_leaves_avx2(p, q, L);
}
#endif

int join_loops(void) {
    return leaf_loops();
}

uint64_t join_dense_words(int n, uint64_t cap) {
    int width = 2 * (2 * (n / 2) - 1), chunks = (width + DENSE_CHUNK - 1) / DENSE_CHUNK;
    uint64_t batches = cap / (64 * DENSE_BATCH) + cap / (2 * 64 * DENSE_BATCH) + 1;
    return (uint64_t)chunks * DENSE_VALUES * DENSE_BATCH * batches;
}

