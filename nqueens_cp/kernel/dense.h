/* dense.h: what the two rooms of the count by joining quarters share (join.c
 * lists the halves and puts their keys in buckets, dense.c joins the
 * buckets): the buckets, the state of a join, the CPU's features, and the
 * join's entry points.  Not the module's interface (join.h is). */
#ifndef NQUEENS_DENSE_H
#define NQUEENS_DENSE_H

#include <stdint.h>
#include <time.h>

#include "join.h"

/* The loops the compiler writes, cloned for x86-64's levels and picked at
 * load time (as search.c's lanes are), where GCC can; elsewhere, and in a
 * JOIN_PORTABLE build (a test's: nothing x86-specific), compiled once. */
#if defined(__x86_64__) && defined(__linux__) && !defined(__clang__) && __GNUC__ >= 11 && !defined(JOIN_PORTABLE)
#define TARGETS __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TARGETS
#endif

/* Loops written by hand for AVX-512 and for AVX2 (chosen at run time by what
 * the CPU has), on x86-64 with GCC or Clang; not in a JOIN_PORTABLE build. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(JOIN_PORTABLE) /* (JOIN_PORTABLE: a test's build) */
#define HAND_WRITTEN 1
#include <cpuid.h>
#include <immintrin.h>

/* A build with JOIN_AVX2 takes AVX2's loops everywhere, as a CPU without AVX-512 does (a test's: the CPUs
 * with AVX-512 run them too). */
static inline int has_avx512(void) {
#ifdef JOIN_AVX2
    return 0;
#else
    static int has = -1; /* (threads that race here write the same value) */
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx512f") != 0;
    }
    return has;
#endif
}

/* AVX2, and BMI2 with it (as every CPU with AVX2 has had): the loops by hand for the CPUs without AVX-512. */
static inline int has_avx2(void) {
    static int has = -1; /* (threads that race here write the same value) */
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
    }
    return has;
}

/* Whether BMI2's pext is fast here: on Intel's CPUs that have it, and AMD's from Zen 3 (family 19h) on; AMD's
 * before (and Hygon's, family 18h) make it in microcode, tens to hundreds of cycles, slower than the byte
 * tables join.c uses without it. */
static inline int has_fast_pext(void) {
    static int has = -1; /* (threads that race here write the same value) */
    if (has < 0) {
        unsigned a, b, c, d;
        __builtin_cpu_init();
        has = 0;
        if (has_avx2() && __get_cpuid(1, &a, &b, &c, &d)) {
            unsigned family = (a >> 8 & 15) + ((a >> 8 & 15) == 15 ? (a >> 20 & 255) : 0);
            has = __builtin_cpu_is("intel") || (__builtin_cpu_is("amd") && family >= 0x19);
        }
    }
    return has;
}
#endif

static inline uint64_t nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* The keys in buckets by a few telling bits (an id): bucket b's keys are
 * key[start[b] .. start[b + 1]), each packed again: the bits outside the id
 * first, in their order (`others` of them), then the id's bits (its lowest
 * first).  So a pair of buckets whose ids are apart above their last `level`
 * bits can meet only in a key's first others + level bits, and two buckets
 * whose ids are apart only in the others.  A bucket of DENSE_MIN keys or
 * more is also kept bit-transposed (its dense words, below): its words
 * begin at sums + at[b], or at[b] is NOT_DENSE.  Where the others fit in
 * 32 bits, the longer list's packed keys are written only as their first
 * 32 bits (`low`; `keyed` 0, join.c's `bucketed_low`): key[] is then made
 * from them, bucket by bucket, where a test needs more bits (`keys_of`). */
struct buckets {
    uint64_t *key;       /* the packed keys, where `keyed` */
    uint32_t *low;       /* each key's first 32 bits */
    uint32_t *start;     /* (1 << JOIN_MAX_ID_BITS) + 1, then room for an id a key (bucketed's) */
    uint32_t *places;    /* bucketed's places to write (BUCKET_WAYS << JOIN_MAX_ID_BITS), shared by both lists */
    uint64_t *sums;      /* the dense buckets' words */
    uint64_t *at;        /* (1 << JOIN_MAX_ID_BITS) */
    uint64_t room;       /* the words sums holds */
    int others, chunks;  /* the keys' bits outside the id; the chunks of `width` of them */
    int keyed;           /* key[] holds every packed key (else low[] alone: above) */
    int width;           /* the bits of a chunk: DENSE_CHUNK, DENSE_MID or DENSE_WIDE (dense.c's dense_plan) */
};
#define NOT_DENSE UINT64_MAX
#define BUCKET_WAYS 4 /* (bucketed's stretches) */
#define JOIN_LEAVES 16384 /* dense leaves put off at once (struct leaves; their sorts in `places`) */

/* Where the loops by hand (AVX-512's or AVX2's) join a dense bucket, `join` puts the leaf off, and
 * the leaves are joined later q's bucket by bucket (`leaves_joined`): that
 * is the join's state besides its buckets. */
struct leaves {
    uint64_t small, *tests;
    uint32_t weight;     /* what the pairs of the leaves the join is at count for (2b. above: 1 or 2) */
    int k;               /* the ids' bits */
    uint64_t found;      /* what the leaves joined so far found, weighed */
    uint32_t (*leaf)[3]; /* the leaves put off: (p's bucket, q's bucket, weight) */
    uint64_t count, room;
    uint32_t *order;     /* (1 << k) + 1 + 2 room: leaves_joined's counting sorts */
};

/* A dense bucket's words (dense.c, step 6): its keys' bits in chunks of
 * DENSE_CHUNK, DENSE_BATCH words transposed at once; a bucket of fewer than
 * DENSE_MIN keys is tested pair by pair. */
#ifndef DENSE_CHUNK
#define DENSE_CHUNK 6
#endif
#define DENSE_VALUES (1 << DENSE_CHUNK)
/* Where the loops by hand join the leaves and the others would take DENSE_WIDE_FROM chunks of DENSE_CHUNK
 * bits or more, they are cut in chunks of DENSE_WIDE bits: at N = 22, whose others are 31 or 32 bits for
 * half the pairs, four loads a key where there were six (22's windows 0.92x the time; 23's, whose others
 * are 29 or 30 for most pairs, 1.01x, where every chunk 8 bits wide took 1.07x: docs/counting.md).  The
 * room kept for the words (join_dense_words) is of chunks of DENSE_CHUNK bits: the loops by hand make a
 * bucket's words, and the next one's, only as their leaves are joined, so one wide bucket need fit in
 * half of it. */
#ifndef DENSE_WIDE
#define DENSE_WIDE 8
#endif
/* Where the loops by hand join the leaves, others that take fewer chunks of DENSE_MID bits than of
 * DENSE_CHUNK (and fewer than DENSE_WIDE_FROM of those) are cut in chunks of DENSE_MID: at N = 23, where
 * half the runs of leaves (one part's, since the middle queens were turned) have others of 25 to 28 bits,
 * four loads a key where there were five, for sums of 128 values a chunk, 32 KB a batch (20 KB in chunks of
 * 6; chunks of 8, 64 KB, saved nothing more).  Eleven middling parts of 23, each counted whole: 0.965x the
 * time; a whole count of 23, part by part, 0.975x (its first leg's 98 largest 0.997x, hours before the rest:
 * docs/counting.md); 21's and 22's the same. */
#ifndef DENSE_MID
#define DENSE_MID 7
#endif
#ifndef DENSE_WIDE_FROM
#define DENSE_WIDE_FROM 6
#endif
#define DENSE_BATCH 8 /* words transposed at once (512 keys) */
/* A bucket's last batch of this many keys or fewer is a half batch: its keys in the first half of each
 * word (dense.c's dense_bucket), joined by a loop of half the width (join_leaves).  The lanes of a
 * bucket's last batch past its keys were 30 % of those the dense loops ran over at N = 23
 * (benchmarks/dense_lanes.py); with half batches, 17 %. */
#define DENSE_HALF (32 * DENSE_BATCH)
#ifndef DENSE_MIN
#define DENSE_MIN 64
#endif

/* Pairs of p x q with no bit in common, tested one by one (on 64-bit keys,
 * or on their first 32 bits). */
uint64_t join_tested(const uint64_t *p, uint64_t np, const uint64_t *q, uint64_t nq);
uint64_t join_tested32(const uint32_t *p, uint64_t np, const uint32_t *q, uint64_t nq);

/* b's buckets of `least` keys or more kept dense: which (at[]), and their
 * words, made here for the compiler's loop, or bucket by bucket as their
 * leaves are joined where the loops by hand join them (join_leaves). */
void join_dense_build(struct buckets *b, int k, uint64_t least);

/* Pairs of P's buckets pa .. pa + 2^level - 1 x Q's qa .. with no bit in
 * common (some put off in L, where the loops by hand join them). */
uint64_t join_buckets(const struct buckets *p, uint32_t pa, const struct buckets *q, uint32_t qa, int level,
                      struct leaves *L);

#ifdef HAND_WRITTEN
/* The leaves put off in L joined, q's bucket by bucket (AVX-512's loops or AVX2's): the pairs they found,
 * weighed. */
uint64_t join_leaves(const struct buckets *p, const struct buckets *q, struct leaves *L);
#endif

#endif
