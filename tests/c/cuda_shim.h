/* cuda_shim.h: just enough of CUDA for g++ to compile gpu.cu as C++ on a
 * machine without the CUDA toolkit (tests/test_gpu.py): the qualifiers as
 * nothing, the device built-ins as their host equivalents.  Catches C-only
 * code in queens.h (compound literals, designated initializers) before a GPU
 * does. */
#define __CUDACC__ 1
#define __device__
#define __forceinline__ inline
#define __global__
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int atomicAdd(int *p, int v) { int old = *p; *p += v; return old; }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
    unsigned long long old = *p;
    *p += v;
    return old;
}
