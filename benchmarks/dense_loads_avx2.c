/* What bounds the AVX2 dense loops of the count by joining quarters (issue
 * 80), on a CPU without AVX-512: dense.c's loop over a whole batch (two
 * 256-bit halves a chunk), copied here on random keys and random words, its
 * lanes that meet counted three ways:
 *
 *   bytes   each vector counted by bytes (a table of sixteen, vpshufb), a
 *           few keys' bytes added up, then into four 64-bit sums: dense.c's
 *           loops before 2026-12-01;
 *   carry   carry-save (Harley and Seal; Mula, Kurz and Lemire, "Faster
 *           population counts using AVX2 instructions", 2018): eight
 *           vectors (four keys) through seven full adders of bits into
 *           ones, twos and fours kept across the keys, only the adders'
 *           carry out counted by bytes: dense.c's loops since;
 *   ors     the loads and ORs alone, no count: what the loads bound.
 *
 * Not a test of dense.c (the copies may drift): a measure of what the CPU
 * does with these instructions.  Needs AVX2.
 *
 *   gcc -O3 -march=native -DCHUNKS=4 -o /tmp/dense_loads_avx2 benchmarks/dense_loads_avx2.c
 *   /tmp/dense_loads_avx2 1000 20000     (keys a leaf, passes)
 *
 * Prints nanoseconds a key for each, three rounds (take each one's least:
 * the machine's neighbours move every figure), and checks that bytes and
 * carry count the same.  On this project's Zen 3 (AMD EPYC, family 19h, two
 * cores of a virtual machine), 2026-12-01, the least of three runs:
 *
 *   chunks   bytes   carry    ors
 *        3    1.94    1.43   1.13
 *        4    2.25    1.75   1.47
 *        5    2.57    2.00   1.91
 *        6    2.75    2.36   2.13
 *
 * With the count by bytes the loop was bound by its vector instructions
 * (eight byte counts of six instructions a key, four of them shuffles,
 * which two of Zen 3's four vector ports run); carry-save counting takes it
 * to within 5 to 27 % of its loads' time (docs/counting.md, "2026-12-01"). */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef CHUNKS
#define CHUNKS 4
#endif
#define CHUNK 6 /* bits a chunk: 64 sums of 64 bytes, 4,096 bytes a chunk */
#define TARGET __attribute__((target("avx2"), noinline))
#define INLINE static inline __attribute__((always_inline, target("avx2")))

/* Chunk c's sum for a key: its byte offset in a batch's words (dense.c's sum_at). */
static inline uint64_t sum_at(uint64_t key, int c) {
    const uint64_t mask = (uint64_t)63 << 6;
    uint64_t value = c * CHUNK >= 6 ? key >> (c * CHUNK - 6) & mask : key << (6 - c * CHUNK) & mask;
    return (uint64_t)c * 4096 + value;
}

/* The OR of a key's sums in a batch, its two halves. */
INLINE void meet(uint64_t key, const char *sums, __m256i *low, __m256i *high) {
    __m256i l = *(const __m256i *)(sums + sum_at(key, 0)), h = *(const __m256i *)(sums + sum_at(key, 0) + 32);
    for (int c = 1; c < CHUNKS; c++) {
        l = _mm256_or_si256(l, *(const __m256i *)(sums + sum_at(key, c)));
        h = _mm256_or_si256(h, *(const __m256i *)(sums + sum_at(key, c) + 32));
    }
    *low = l, *high = h;
}

INLINE __m256i byte_counts(__m256i v) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1,
                                           2, 2, 3, 2, 3, 3, 4),
                  nibble = _mm256_set1_epi8(0x0f);
    return _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble)),
                           _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)));
}

INLINE uint64_t lanes_summed(__m256i v) {
    __m128i two = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(two) + (uint64_t)_mm_extract_epi64(two, 1);
}

TARGET static uint64_t bytes(const uint64_t *x, uint64_t n, const char *a) {
    __m256i met = _mm256_setzero_si256();
    for (uint64_t i = 0; i < n;) {
        __m256i sum = _mm256_setzero_si256();
        for (uint64_t end = n - i > 15 ? i + 15 : n; i < end; i++) {
            __m256i l, h;
            meet(x[i], a, &l, &h);
            sum = _mm256_add_epi8(sum, _mm256_add_epi8(byte_counts(l), byte_counts(h)));
        }
        met = _mm256_add_epi64(met, _mm256_sad_epu8(sum, _mm256_setzero_si256()));
    }
    return lanes_summed(met);
}

#define FULL_ADDER(high, low, a, b, c)                                                                                 \
    do {                                                                                                               \
        __m256i apart_ = _mm256_xor_si256(a, b);                                                                       \
        high = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(apart_, c));                                   \
        low = _mm256_xor_si256(apart_, c);                                                                             \
    } while (0)

TARGET static uint64_t carry(const uint64_t *x, uint64_t n, const char *a) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i ones = zero, twos = zero, fours = zero, eights = zero, singles = zero;
    uint64_t i = 0;
    while (i + 4 <= n) {
        __m256i sum = zero;
        for (int g = 0; g < 31 && i + 4 <= n; g++, i += 4) {
            __m256i v[8], p, q, r, s, fa, fb, e;
            for (int k = 0; k < 4; k++)
                meet(x[i + k], a, v + 2 * k, v + 2 * k + 1);
            FULL_ADDER(p, ones, ones, v[0], v[1]);
            FULL_ADDER(q, ones, ones, v[2], v[3]);
            FULL_ADDER(fa, twos, twos, p, q);
            FULL_ADDER(r, ones, ones, v[4], v[5]);
            FULL_ADDER(s, ones, ones, v[6], v[7]);
            FULL_ADDER(fb, twos, twos, r, s);
            FULL_ADDER(e, fours, fours, fa, fb);
            sum = _mm256_add_epi8(sum, byte_counts(e));
        }
        eights = _mm256_add_epi64(eights, _mm256_sad_epu8(sum, zero));
    }
    for (; i < n; i++) {
        __m256i l, h;
        meet(x[i], a, &l, &h);
        singles = _mm256_add_epi64(singles, _mm256_sad_epu8(_mm256_add_epi8(byte_counts(l), byte_counts(h)), zero));
    }
    __m256i sum = _mm256_add_epi64(_mm256_slli_epi64(eights, 3), singles);
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64(_mm256_sad_epu8(byte_counts(fours), zero), 2));
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64(_mm256_sad_epu8(byte_counts(twos), zero), 1));
    return lanes_summed(_mm256_add_epi64(sum, _mm256_sad_epu8(byte_counts(ones), zero)));
}

TARGET static uint64_t ors(const uint64_t *x, uint64_t n, const char *a) {
    __m256i met = _mm256_setzero_si256();
    for (uint64_t i = 0; i < n; i++) {
        __m256i l, h;
        meet(x[i], a, &l, &h);
        met = _mm256_xor_si256(met, _mm256_xor_si256(l, h));
    }
    return lanes_summed(met);
}

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t random64(void) {
    return (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand();
}

int main(int argc, char **argv) {
    __builtin_cpu_init();
    if (argc != 3 || !__builtin_cpu_supports("avx2")) {
        fprintf(stderr, "usage: dense_loads_avx2 KEYS PASSES (on a CPU with AVX2)\n");
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10), passes = strtoull(argv[2], NULL, 10);
    char *sums = aligned_alloc(64, CHUNKS * 4096);
    uint64_t *x = malloc((n + 8) * sizeof *x);
    if (!sums || !x || n < 8)
        return 1;
    for (uint64_t i = 0; i < CHUNKS * 4096 / 8; i++)
        ((uint64_t *)sums)[i] = random64() & random64(); /* (a quarter of the bits: most lanes meet some key) */
    for (uint64_t i = 0; i < n; i++)
        x[i] = random64();
    struct {
        const char *name;
        uint64_t (*loop)(const uint64_t *, uint64_t, const char *);
    } loops[] = {{"bytes", bytes}, {"carry", carry}, {"ors", ors}};
    for (int round = 0; round < 3; round++) {
        uint64_t counted[2] = {0, 0};
        printf("chunks %d:", CHUNKS);
        for (int l = 0; l < 3; l++) {
            uint64_t sum = 0;
            double began = seconds();
            for (uint64_t p = 0; p < passes; p++) /* (n - p % 8 keys: every tail length) */
                sum += loops[l].loop(x, n - p % 8, sums);
            if (l < 2)
                counted[l] = sum;
            printf("  %s %.2f ns", loops[l].name, (seconds() - began) / (double)passes / (double)n * 1e9);
        }
        printf(" a key\n");
        if (counted[0] != counted[1]) {
            fprintf(stderr, "bytes and carry disagree: %llu and %llu\n", (unsigned long long)counted[0],
                    (unsigned long long)counted[1]);
            return 1;
        }
    }
    return 0;
}
