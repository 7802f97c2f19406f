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

#include <atomic>
#include <climits>
#include <condition_variable>
#include <mutex>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

struct dim3 {
    unsigned x, y, z;
};
static thread_local dim3 threadIdx, blockDim, blockIdx, gridDim;

/* __syncthreads: every thread of the block waits here until all have come
 * (gpu_on_cpu.cpp's run_blocks makes one for each launch's threads).  On
 * Linux the waiters sleep on the round's word (a futex) and the last to
 * come wakes them all at once; a mutex and condition variable, which every
 * woken thread took again in turn, were half the stand-in's time with a
 * block's 256 threads on two cores. */
struct block_barrier {
    static_assert(sizeof(std::atomic<unsigned>) == sizeof(unsigned) && std::atomic<unsigned>::is_always_lock_free,
                  "the futex waits on the atomic's own word");
    int threads = 0;
    std::atomic<int> waiting{0};
#ifdef __linux__
    std::atomic<unsigned> round{0};
    void wait() {
        unsigned mine = round.load(std::memory_order_acquire);
        if (waiting.fetch_add(1, std::memory_order_acq_rel) + 1 == threads) {
            waiting.store(0, std::memory_order_relaxed);
            round.store(mine + 1, std::memory_order_release);
            syscall(SYS_futex, reinterpret_cast<unsigned *>(&round), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
        } else
            while (round.load(std::memory_order_acquire) == mine)
                syscall(SYS_futex, reinterpret_cast<unsigned *>(&round), FUTEX_WAIT_PRIVATE, mine, nullptr, nullptr, 0);
    }
#else
    std::mutex lock;
    std::condition_variable all_came;
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
#endif
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
