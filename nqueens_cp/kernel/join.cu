/* join.cu: the join of a count by quarters on a GPU (issue 66), compiled by
 * NVRTC through CuPy (nqueens_cp/counting/gpu_join.py).  The host lists the
 * halves (join.c's join_list: keys, and pairs of ranges of keys to join);
 * this kernel counts, for each pair of ranges (a job), the pairs of keys
 * with no bit in common, the way join.c's bucket join does, in shapes a GPU
 * likes:
 *
 * 1. A job is a block's: the block takes the next job from one atomic
 *    counter (the host orders them longest first), so one long job does not
 *    hold up a launch of short ones, and the job's numbers are shared.
 * 2. The telling bits.  The keys of both ranges are sampled (the first
 *    JOIN_SAMPLE of each) and, bit by bit, counted; the bits that most pairs
 *    have both set are chosen, greedily, as many as leave the shorter
 *    range's buckets about JOIN_BUCKET_KEYS keys (at most JOIN_ID_BITS_MAX).
 *    A key's id is its chosen bits, packed.
 * 3. Buckets.  Both ranges are sorted by id into `sorted` (a counting sort:
 *    a histogram in shared memory, its prefix sums, a scatter through the
 *    same counters), the longer first, so that the shorter range's bucket
 *    ends are what the counters hold after.
 * 4. The join.  A key of the longer range with id x is tested against the
 *    buckets of the shorter whose ids are the subsets of x's complement: a
 *    bucket with a bit of x cannot hold a key apart from it.  Two ways, for
 *    a device to choose between (neither has met one yet):
 *    - a thread a key (the default): each thread takes keys of the longer
 *      range in id order.  Where lanes of a warp hold keys of different
 *      ids, their loops differ, and the warp runs them one after another;
 *    - a warp a bucket (JOIN_WARP_BUCKETS): each warp takes buckets of the
 *      longer range, 32 keys at a time, a lane a key, so every lane runs
 *      the same loop over the same buckets of the shorter range (one load
 *      serves the warp); lanes past a bucket's end idle.  Its ids are as
 *      many bits as leave about JOIN_BUCKET_KEYS keys of the longer range a
 *      bucket, and both ranges' bucket ends are kept.
 *    A key's tests are counted in 32 bits (a range holds fewer than 2^31
 *    keys), the job's in 64.
 *
 * found[j] is job j's pairs apart (unweighted: the host multiplies by the
 * job's weight); tests[0] adds the pairs tested.  tests/c/gpu_on_cpu.cpp
 * runs this file on CPU threads against NumPy's pair by pair count. */
#define NQUEENS_JOIN_CU 1

typedef unsigned long long qword;

#ifndef JOIN_ID_BITS_MAX
#define JOIN_ID_BITS_MAX 10 /* buckets of a job: 2^10 at most (their ends: 4 KB of shared memory) */
#endif
#ifndef JOIN_BUCKET_KEYS
#define JOIN_BUCKET_KEYS 32 /* the shorter range's keys a bucket, about (JOIN_WARP_BUCKETS: the longer's) */
#endif
#ifndef JOIN_SAMPLE
#define JOIN_SAMPLE 1024 /* keys of each range whose bits are counted to choose the telling bits */
#endif
#ifdef JOIN_WARP_BUCKETS
#define JOIN_ENDS 2 /* bucket counters kept: the longer range's and the shorter's */
#else
#define JOIN_ENDS 1 /* the shorter range's only */
#endif
#define JOIN_JOB 5 /* a job's words (join.h's JOIN_LIST_JOB): east start, length, west start, length, weight */

/* The block's shared memory, in 32-bit words (counting/gpu_join.py's Shape.shared_bytes says the same). */
#define SHARED_SUMS 0                               /* two 64-bit sums: pairs apart, pairs tested */
#define SHARED_COUNTS 4                             /* 2 x 64: each bit's keys, sampled, in either range */
#define SHARED_BITS 132                             /* the chosen bits, JOIN_ID_BITS_MAX at most */
#define SHARED_K (SHARED_BITS + JOIN_ID_BITS_MAX)   /* how many were chosen */
#define SHARED_TAKEN (SHARED_K + 1)                 /* the job the block took */
#define SHARED_ENDS (SHARED_TAKEN + 1)              /* JOIN_ENDS x (2^JOIN_ID_BITS_MAX + 1) bucket counters */

/* The id of a key: its k chosen bits, packed. */
static __device__ __forceinline__ unsigned id_of(qword key, const unsigned *bits, int k) {
    unsigned id = 0;
    for (int i = 0; i < k; i++)
        id |= (unsigned)(key >> bits[i] & 1) << i;
    return id;
}

/* A key of the longer range tested against the buckets of the shorter
 * (`across`, ends[] where each ends) whose ids are subsets of `free_ids`
 * (those of its id's complement): the pairs apart into *apart, the pairs
 * tested into *tried. */
static __device__ __forceinline__ void tested(qword key, unsigned free_ids, const qword *across, const unsigned *ends,
                                              unsigned *apart, unsigned *tried) {
    unsigned c = 0, t = 0;
    for (unsigned y = free_ids;; y = (y - 1) & free_ids) { /* every subset of the free ids */
        unsigned from = y ? ends[y - 1] : 0, to = ends[y];
        t += to - from;
        for (unsigned b = from; b < to; b++)
            c += (key & across[b]) == 0;
        if (!y)
            break;
    }
    *apart = c, *tried = t;
}

/* The keys from[0 .. count) sorted by id into to[], through ends[0 .. 2^k]:
 * on return ends[b] is where bucket b ends (and b + 1 starts). */
static __device__ __forceinline__ void bucketed(const qword *from, qword *to, unsigned count, unsigned *ends,
                                                const unsigned *bits, int k) {
    unsigned buckets = 1u << k;
    for (unsigned i = threadIdx.x; i <= buckets; i += blockDim.x)
        ends[i] = 0;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x)
        atomicAdd(&ends[id_of(from[i], bits, k) + 1], 1u);
    __syncthreads();
    if (threadIdx.x == 0) /* ends[b]: where bucket b starts */
        for (unsigned b = 1; b <= buckets; b++)
            ends[b] += ends[b - 1];
    __syncthreads();
    for (unsigned i = threadIdx.x; i < count; i += blockDim.x) {
        qword key = from[i];
        to[atomicAdd(&ends[id_of(key, bits, k)], 1u)] = key;
    }
    __syncthreads();
}

/* Each bit's keys among the first JOIN_SAMPLE of from[0 .. count), into counts[0 .. 63]. */
static __device__ __forceinline__ void bits_counted(const qword *from, unsigned count, unsigned *counts) {
    unsigned sampled = count < JOIN_SAMPLE ? count : JOIN_SAMPLE;
    for (unsigned i = threadIdx.x; i < sampled; i += blockDim.x)
        for (qword key = from[i]; key; key &= key - 1)
            atomicAdd(&counts[__ffsll((long long)key) - 1], 1u);
}

/* The telling bits of a job (thread 0): as many as leave about
 * JOIN_BUCKET_KEYS of a range's `keys` keys a bucket (the shorter range's;
 * with JOIN_WARP_BUCKETS the longer's), each in turn the bit that most
 * sampled pairs have both set, none that no pair has. */
static __device__ void telling_bits(const unsigned *counts, unsigned keys, unsigned *bits, unsigned *k) {
    int wanted = 0;
    while (wanted < JOIN_ID_BITS_MAX && (keys >> wanted) > JOIN_BUCKET_KEYS)
        wanted++;
    qword taken = 0;
    int chosen = 0;
    for (; chosen < wanted; chosen++) {
        qword best = 0;
        int at = -1;
        for (int b = 0; b < 64; b++) {
            qword both = (qword)counts[b] * counts[64 + b];
            if (!(taken >> b & 1) && both > best)
                best = both, at = b;
        }
        if (at < 0)
            break;
        taken |= 1ULL << at;
        bits[chosen] = (unsigned)at;
    }
    *k = (unsigned)chosen;
}

extern "C" __global__ void join_pairs(int jobs, const qword *job, const qword *at, const qword *keys, qword *sorted,
                                      qword *found, qword *tests, int *next) {
    extern __shared__ qword shared[];
    unsigned *words = (unsigned *)shared;
    unsigned *counts = words + SHARED_COUNTS, *bits = words + SHARED_BITS;
    qword *sums = (qword *)(words + SHARED_SUMS);
    unsigned *ends = words + SHARED_ENDS;
    for (;;) {
        if (threadIdx.x == 0)
            words[SHARED_TAKEN] = (unsigned)atomicAdd(next, 1);
        for (unsigned i = threadIdx.x; i < 128; i += blockDim.x)
            counts[i] = 0;
        if (threadIdx.x < 2)
            sums[threadIdx.x] = 0;
        __syncthreads();
        int j = (int)words[SHARED_TAKEN];
        if (j >= jobs)
            return;
        const qword *w = job + (long long)j * JOIN_JOB;
        /* the longer range the threads', the shorter bucketed */
        int swap = w[1] < w[3];
        const qword *along = keys + w[swap ? 2 : 0], *across = keys + w[swap ? 0 : 2];
        unsigned n_along = (unsigned)w[swap ? 3 : 1], n_across = (unsigned)w[swap ? 1 : 3];
        qword *sorted_along = sorted + at[j], *sorted_across = sorted_along + n_along;
        bits_counted(along, n_along, counts);
        bits_counted(across, n_across, counts + 64);
        __syncthreads();
        if (threadIdx.x == 0)
            telling_bits(counts, JOIN_ENDS == 2 ? n_along : n_across, bits, &words[SHARED_K]);
        __syncthreads();
        int k = (int)words[SHARED_K];
        unsigned mask = (1u << k) - 1, c, t;
        /* the longer range first: without JOIN_WARP_BUCKETS the counters then hold the shorter's ends */
        unsigned *across_ends = ends + (JOIN_ENDS - 1) * ((1 << JOIN_ID_BITS_MAX) + 1);
        bucketed(along, sorted_along, n_along, ends, bits, k);
        bucketed(across, sorted_across, n_across, across_ends, bits, k);
        qword apart = 0, tried = 0;
#ifdef JOIN_WARP_BUCKETS
        unsigned lane = threadIdx.x % 32, warps = blockDim.x / 32;
        for (unsigned x = threadIdx.x / 32; x <= mask; x += warps) { /* a warp a bucket of the longer range */
            unsigned last = ends[x];
            for (unsigned i = (x ? ends[x - 1] : 0) + lane; i < last + lane; i += 32) {
                int mine = i < last; /* (the warp's lanes run the loop together, those past the bucket idle) */
                tested(mine ? sorted_along[i] : 0, ~x & mask, sorted_across, across_ends, &c, &t);
                if (mine)
                    apart += c, tried += t;
            }
        }
#else
        for (unsigned i = threadIdx.x; i < n_along; i += blockDim.x) { /* a thread a key of the longer range */
            qword key = sorted_along[i];
            tested(key, ~id_of(key, bits, k) & mask, sorted_across, across_ends, &c, &t);
            apart += c, tried += t;
        }
#endif
        atomicAdd(&sums[0], apart);
        atomicAdd(&sums[1], tried);
        __syncthreads();
        if (threadIdx.x == 0) {
            found[j] = sums[0];
            atomicAdd(tests, sums[1]);
        }
        __syncthreads(); /* (before thread 0 takes the next job into words[SHARED_TAKEN]) */
    }
}

/* --- The listing of halves on the device ------------------------------------------
 *
 * join.c's join_tasks gives, for each row set of a batch, a task for each
 * choice of its halves' north columns: the north quarter's placements
 * (entries of the quarters' table, in the square's own coordinates) to be
 * joined with the south quarter's on the other columns.  list_halves runs
 * every pair of a task, a thread a north placement: both moved onto the
 * board (the side's quarter offsets, geometry[]), left out where either
 * meets the middle queens of an odd N or they share a diagonal, else kept
 * as a key (join.c's key_of: the window's diagonals and anti-diagonals) in
 * its group (an even N's long diagonals: on neither, one, both; join.c's
 * 2b.).  Twice over: first (write 0) each task's keys of each group are
 * counted into counts[3 t + g]; the host lays the lists out from them and
 * sets at[3 t + g] to where task t's keys of group g go; then (write 1)
 * they are written there.
 *
 * geometry: low, span (the window), then for the east and the west half
 * the north quarter's diagonal and anti-diagonal shifts and the south's;
 * masks: the middle queens' diagonals and anti-diagonals, and the long
 * diagonals' bits of a key (0 for an odd N). */
#define TASK 5 /* join.h's JOIN_TASK: north start, north count, south start, south count, list (2 r + side) */

/* The task whose north placements hold index i: the last t with starts[t] <= i. */
static __device__ __forceinline__ int task_of(const qword *starts, int tasks, qword i) {
    int low = 0, high = tasks - 1;
    while (low < high) {
        int middle = (low + high + 1) / 2;
        if (starts[middle] <= i)
            low = middle;
        else
            high = middle - 1;
    }
    return low;
}

extern "C" __global__ void list_halves(int tasks, int write, const unsigned *task, const qword *starts,
                                       const qword *table, const int *geometry, const qword *masks,
                                       unsigned *counts, qword *at, qword *keys) {
    const int low = geometry[0], span = geometry[1];
    const qword window = (1ULL << span) - 1, middle_diag = masks[0], middle_anti = masks[1], long_diag = masks[2],
                long_anti = masks[3];
    const qword total = starts[tasks];
    for (qword i = (qword)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (qword)gridDim.x * blockDim.x) {
        int t = task_of(starts, tasks, i);
        const unsigned *w = task + (long long)t * TASK;
        const int *shift = geometry + 2 + 4 * (int)(w[4] & 1);
        qword e = table[w[0] + (i - starts[t])];
        qword dn = (e & 0xffffffffULL) << shift[0], an = (e >> 32) << shift[1];
        if ((dn & middle_diag) | (an & middle_anti))
            continue; /* the north placement meets the middle queens */
        unsigned made[3] = {0, 0, 0};
        qword *to[3] = {keys, keys, keys};
        for (int pass = 0; pass <= write; pass++) { /* counted; to write, room taken and the keys written */
            for (unsigned s = 0; s < w[3]; s++) {
                qword f = table[w[2] + s];
                qword ds = (f & 0xffffffffULL) << shift[2], as = (f >> 32) << shift[3];
                if ((ds & middle_diag) | (as & middle_anti) | (dn & ds) | (an & as))
                    continue;
                qword d = dn | ds, a = an | as, key = (d >> low & window) | (a >> low & window) << span;
                int group = ((key & long_diag) != 0) + ((key & long_anti) != 0);
                if (pass == 0)
                    made[group]++;
                else
                    *to[group]++ = key;
            }
            if (pass == 0 && write)
                for (int g = 0; g < 3; g++)
                    to[g] = keys + (made[g] ? atomicAdd(&at[3LL * t + g], (qword)made[g]) : 0);
        }
        if (!write)
            for (int g = 0; g < 3; g++)
                if (made[g])
                    atomicAdd(&counts[3LL * t + g], made[g]);
    }
}
