/* What bounds the dense loops of the count by joining quarters (issue 80):
 * dense.c's loops for five chunks, copied here on random keys and random
 * words, with one change beside each: each key's five offsets worked out
 * once before the loop and read from memory (16 bytes a key), where the
 * loops work them out from the key (a shift and an AND a chunk).  Not a
 * test of dense.c (the copies may drift): a measure of what the CPU does
 * with these instructions.  AVX-512 with VPOPCNTDQ only.
 *
 *   gcc -O3 -march=native -o /tmp/dense_loads benchmarks/dense_loads.c
 *   /tmp/dense_loads 1000 20000     (keys a leaf, passes)
 *
 * Prints nanoseconds a key for each loop: `two` (two whole batches, 1,024
 * lanes, ten 64-byte loads a key), `one` (a whole batch), `half` (a half
 * batch: five 32-byte loads), each from the key and from its offsets read
 * back.  On this machine (AMD EPYC, Zen 4), 2026-11-30: two 3.21 and 3.65,
 * one 1.55 and 1.90, half 1.10 and 1.17 ns: the loads bound the loops (two
 * batches cost twice one), offsets read from memory are more loads, not
 * fewer instructions, and a half batch's 32-byte loads cost 0.71x a whole
 * one's 64-byte loads, not half (docs/counting.md, "2026-11-30, later"). */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHUNKS 5
#define CHUNK 6 /* bits a chunk: 64 sums of 64 bytes, 4,096 bytes a chunk */
#define TARGET __attribute__((target("avx512f,avx512vl,avx512vpopcntdq"), noinline))
#define INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx512vpopcntdq")))

/* Chunk c's sum for a key: its byte offset in a batch's words (dense.c's sum_at). */
static inline uint64_t sum_at(uint64_t key, int c) {
    const uint64_t mask = (uint64_t)63 << 6;
    uint64_t value = c * CHUNK >= 6 ? key >> (c * CHUNK - 6) & mask : key << (6 - c * CHUNK) & mask;
    return (uint64_t)c * 4096 + value;
}

INLINE __m512i meet(uint64_t key, const char *sums) {
    __m512i m = *(const __m512i *)(sums + sum_at(key, 0));
    for (int c = 1; c < CHUNKS; c++)
        m = _mm512_or_si512(m, *(const __m512i *)(sums + sum_at(key, c)));
    return m;
}

INLINE __m512i meet_read(const uint16_t *offset, const char *sums) { /* offsets worked out before */
    __m512i m = *(const __m512i *)(sums + offset[0]);
    for (int c = 1; c < CHUNKS; c++)
        m = _mm512_or_si512(m, *(const __m512i *)(sums + (uint64_t)c * 4096 + offset[c]));
    return m;
}

INLINE __m256i meet_half(uint64_t key, const char *sums) {
    __m256i m = *(const __m256i *)(sums + sum_at(key, 0));
    for (int c = 1; c < CHUNKS; c++)
        m = _mm256_or_si256(m, *(const __m256i *)(sums + sum_at(key, c)));
    return m;
}

INLINE __m256i meet_half_read(const uint16_t *offset, const char *sums) {
    __m256i m = *(const __m256i *)(sums + offset[0]);
    for (int c = 1; c < CHUNKS; c++)
        m = _mm256_or_si256(m, *(const __m256i *)(sums + (uint64_t)c * 4096 + offset[c]));
    return m;
}

/* Each loop: the keys x[0 .. n) (or their offsets, 8 to a key) against a batch's words a (and b). */
TARGET static __m512i two(const uint64_t *x, uint64_t n, const char *a, const char *b, __m512i met) {
    for (uint64_t i = 0; i < n; i++)
        met = _mm512_add_epi64(met, _mm512_add_epi64(_mm512_popcnt_epi64(meet(x[i], a)),
                                                     _mm512_popcnt_epi64(meet(x[i], b))));
    return met;
}

TARGET static __m512i two_read(const uint16_t *o, uint64_t n, const char *a, const char *b, __m512i met) {
    for (uint64_t i = 0; i < n; i++, o += 8)
        met = _mm512_add_epi64(met, _mm512_add_epi64(_mm512_popcnt_epi64(meet_read(o, a)),
                                                     _mm512_popcnt_epi64(meet_read(o, b))));
    return met;
}

TARGET static __m512i one(const uint64_t *x, uint64_t n, const char *a, const char *b, __m512i met) {
    (void)b;
    for (uint64_t i = 0; i < n; i++)
        met = _mm512_add_epi64(met, _mm512_popcnt_epi64(meet(x[i], a)));
    return met;
}

TARGET static __m512i one_read(const uint16_t *o, uint64_t n, const char *a, const char *b, __m512i met) {
    (void)b;
    for (uint64_t i = 0; i < n; i++, o += 8)
        met = _mm512_add_epi64(met, _mm512_popcnt_epi64(meet_read(o, a)));
    return met;
}

TARGET static __m512i half(const uint64_t *x, uint64_t n, const char *a, const char *b, __m512i met) {
    (void)b;
    __m256i found = _mm256_setzero_si256();
    for (uint64_t i = 0; i < n; i++)
        found = _mm256_add_epi64(found, _mm256_popcnt_epi64(meet_half(x[i], a)));
    return _mm512_add_epi64(met, _mm512_zextsi256_si512(found));
}

TARGET static __m512i half_read(const uint16_t *o, uint64_t n, const char *a, const char *b, __m512i met) {
    (void)b;
    __m256i found = _mm256_setzero_si256();
    for (uint64_t i = 0; i < n; i++, o += 8)
        found = _mm256_add_epi64(found, _mm256_popcnt_epi64(meet_half_read(o, a)));
    return _mm512_add_epi64(met, _mm512_zextsi256_si512(found));
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
    if (argc != 3 || !__builtin_cpu_supports("avx512vpopcntdq")) {
        fprintf(stderr, "usage: dense_loads KEYS PASSES (on a CPU with AVX-512 VPOPCNTDQ)\n");
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10), passes = strtoull(argv[2], NULL, 10);
    const uint64_t batch = CHUNKS * 4096; /* a batch's words, in bytes */
    char *sums = aligned_alloc(64, 2 * batch);
    uint64_t *x = malloc(n * sizeof *x);
    uint16_t *offsets = aligned_alloc(64, n * 16);
    if (!sums || !x || !offsets)
        return 1;
    for (uint64_t i = 0; i < 2 * batch / 8; i++)
        ((uint64_t *)sums)[i] = random64();
    for (uint64_t i = 0; i < n; i++) {
        x[i] = random64();
        for (int c = 0; c < 8; c++)
            offsets[8 * i + c] = c < CHUNKS ? (uint16_t)(sum_at(x[i], c) - (uint64_t)c * 4096) : 0;
    }
    struct {
        const char *name;
        __m512i (*from_key)(const uint64_t *, uint64_t, const char *, const char *, __m512i);
        __m512i (*read)(const uint16_t *, uint64_t, const char *, const char *, __m512i);
    } loops[] = {{"two", two, two_read}, {"one", one, one_read}, {"half", half, half_read}};
    for (int l = 0; l < 3; l++) {
        __m512i met[2] = {_mm512_setzero_si512(), _mm512_setzero_si512()};
        double took[2];
        for (int way = 0; way < 2; way++) {
            double began = seconds();
            for (uint64_t p = 0; p < passes; p++)
                met[way] = way ? loops[l].read(offsets, n, sums, sums + batch, met[way])
                               : loops[l].from_key(x, n, sums, sums + batch, met[way]);
            took[way] = (seconds() - began) / (double)passes / (double)n * 1e9;
        }
        if (_mm512_reduce_add_epi64(met[0]) != _mm512_reduce_add_epi64(met[1])) {
            fprintf(stderr, "%s: the two ways disagree\n", loops[l].name);
            return 1;
        }
        printf("%-4s  from the key %.2f ns a key, offsets read back %.2f ns a key\n", loops[l].name, took[0], took[1]);
    }
    return 0;
}
