/* cuda_shim.h: just enough of CUDA for g++ to compile gpu.cu as C++ on a
 * machine without the CUDA toolkit (tests/test_gpu.py): the qualifiers as
 * nothing, the device built-ins as their host equivalents, and a thread's
 * index and its block's size thread_locals that gpu_on_cpu.cpp sets, one
 * CPU thread a GPU thread.  Catches C-only code in queens.h (compound literals, designated
 * initializers) before a GPU does. */
#define __CUDACC__ 1
#define __device__
#define __forceinline__ inline
#define __global__
#define __shared__ /* the block's shared memory: gpu_on_cpu.cpp defines the array */
#define __align__(bytes) __attribute__((aligned(bytes)))

struct dim3 {
    unsigned x, y, z;
};
static thread_local dim3 threadIdx, blockDim;

static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
