/* cuda_shim.h: just enough of CUDA for g++ to compile gpu.cu as C++ on a
 * machine without the CUDA toolkit (tests/test_gpu.py): the qualifiers as
 * nothing, the device built-ins as their host equivalents, and a thread's
 * index and its block's size thread_locals that gpu_on_cpu.cpp sets, one
 * CPU thread a GPU thread, and __syncthreads a barrier of the block's
 * threads.  Catches C-only code in queens.h (compound literals, designated
 * initializers) before a GPU does. */
#define __CUDACC__ 1
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__ /* the block's shared memory: gpu_on_cpu.cpp defines the array */
#define __align__(bytes) __attribute__((aligned(bytes)))

#include <condition_variable>
#include <mutex>

struct dim3 {
    unsigned x, y, z;
};
static thread_local dim3 threadIdx, blockDim, blockIdx, gridDim;

/* __syncthreads: every thread of the block waits here until all have come
 * (gpu_on_cpu.cpp's run_block makes one for each block's threads). */
struct block_barrier {
    std::mutex lock;
    std::condition_variable all_came;
    int threads = 0, waiting = 0;
    unsigned long long round = 0;
    void wait() {
        std::unique_lock<std::mutex> held(lock);
        unsigned long long mine = round;
        if (++waiting == threads) {
            waiting = 0, round++;
            all_came.notify_all();
        } else
            all_came.wait(held, [&] { return round != mine; });
    }
};
static thread_local block_barrier *block_sync;
static inline void __syncthreads() { block_sync->wait(); }

static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
