/* gpu_on_cpu.cpp: gpu.cu's kernels (or join.cu's) run on the CPU, one CPU thread for each
 * GPU thread of a block, all of a block's at once over one array standing
 * in for its shared memory, the blocks one after another (tests/test_gpu.py).
 * Built with g++ and cuda_shim.h as a shared library, around the CUDA source
 * given as KERNEL_SOURCE (default gpu.cu): tests/cupy_standin.py builds it
 * from the source and options that counting/gpu.py hands CuPy, and calls
 *
 *   launch_KERNEL(blocks, threads, shared_bytes, args)
 *     the kernel, its arguments as CUDA's cuLaunchKernel takes them (args[k]
 *     points to the k-th); NULL, or what went wrong: a thread wrote past the
 *     shared memory the launch asked for, or it asked for more than the
 *     stand-in has;
 *   (join.cu: launch_join_pairs and launch_list_halves only)
 *   layout(n, hot_rows, threads, shared_words)
 *     count_items's stack: every thread writes every word of its stack, each
 *     a different value; NULL if each reads back its own, every shared word
 *     written is in the shared_words a launch gets and belongs to a thread
 *     of its lane (bank-conflict free, queens.h), else what went wrong. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#ifndef KERNEL_SOURCE
#define KERNEL_SOURCE "gpu.cu"
#endif
#include KERNEL_SOURCE

static const long long SHARED_MAX = 1 << 16; /* words: more than any GPU gives a block */
alignas(64) qword shared[SHARED_MAX];
static const qword UNTOUCHED = (qword)0x5a5a5a5a5a5a5a5aULL;

/* Each GPU thread on a CPU thread of its own, all of a block's at once, the
 * blocks one after another on the same threads (made once a launch, not
 * once a block); after each block `after` runs on thread 0 while the others
 * wait, and what it says is wrong ends the launch. */
template <typename Body, typename After>
static const char *run_blocks(int threads, int blocks, Body body, After after) {
    std::vector<std::thread> running;
    block_barrier barrier;
    barrier.threads = threads;
    const char *wrong = nullptr;
    for (int t = 0; t < threads; t++)
        running.emplace_back([t, threads, blocks, &body, &after, &barrier, &wrong] {
            threadIdx.x = (unsigned)t;
            blockDim.x = (unsigned)threads;
            gridDim.x = (unsigned)blocks;
            block_sync = &barrier;
            for (int b = 0; b < blocks && !wrong; b++) {
                blockIdx.x = (unsigned)b;
                body(t);
                barrier.wait();
                if (t == 0)
                    wrong = after();
                barrier.wait();
            }
        });
    for (auto &thread : running)
        thread.join();
    return wrong;
}

template <typename Body> static void run_block(int threads, Body body) {
    run_blocks(threads, 1, body, [] { return (const char *)nullptr; });
}

static void untouched() {
    for (long long i = 0; i < SHARED_MAX; i++)
        shared[i] = UNTOUCHED;
}

/* A launch: each block in turn, its shared memory a fresh array; nothing may
 * be written past the words it asked for. */
template <typename Kernel> static const char *launch(int blocks, int threads, long long shared_bytes, Kernel kernel) {
    long long words = (shared_bytes + (long long)sizeof(qword) - 1) / (long long)sizeof(qword);
    if (words > SHARED_MAX)
        return "more shared memory than this stand-in has";
    untouched();
    return run_blocks(threads, blocks, [&](int) { kernel(); }, [words]() -> const char * {
        for (long long i = words; i < SHARED_MAX; i++)
            if (shared[i] != UNTOUCHED)
                return "a thread wrote past the block's shared memory";
        untouched();
        return nullptr;
    });
}

template <typename T> static T arg(void **args, int k) { return *static_cast<T *>(args[k]); }

#ifdef NQUEENS_JOIN_CU
extern "C" const char *launch_list_halves(int blocks, int threads, long long shared_bytes, void **args) {
    return launch(blocks, threads, shared_bytes, [args] {
        list_halves(arg<int>(args, 0), arg<int>(args, 1), arg<const unsigned *>(args, 2), arg<const qword *>(args, 3),
                    arg<const qword *>(args, 4), arg<const int *>(args, 5), arg<const qword *>(args, 6),
                    arg<unsigned *>(args, 7), arg<qword *>(args, 8), arg<qword *>(args, 9));
    });
}

extern "C" const char *launch_join_pairs(int blocks, int threads, long long shared_bytes, void **args) {
    return launch(blocks, threads, shared_bytes, [args] {
        join_pairs(arg<int>(args, 0), arg<const qword *>(args, 1), arg<const qword *>(args, 2),
                   arg<const qword *>(args, 3), arg<qword *>(args, 4), arg<qword *>(args, 5), arg<qword *>(args, 6),
                   arg<int *>(args, 7));
    });
}
#else
extern "C" const char *launch_count_items(int blocks, int threads, long long shared_bytes, void **args) {
    return launch(blocks, threads, shared_bytes, [args] {
        count_items(arg<int>(args, 0), arg<int>(args, 1), arg<int>(args, 2), arg<const int *>(args, 3),
                    arg<const qword *>(args, 4), arg<const qword *>(args, 5), arg<const unsigned char *>(args, 6),
                    arg<unsigned long long *>(args, 7), arg<int *>(args, 8));
    });
}

extern "C" const char *launch_count_plain(int blocks, int threads, long long shared_bytes, void **args) {
    return launch(blocks, threads, shared_bytes, [args] {
        count_plain(arg<int>(args, 0), arg<int>(args, 1), arg<int>(args, 2), arg<const int *>(args, 3),
                    arg<const qword *>(args, 4), arg<const qword *>(args, 5), arg<unsigned long long *>(args, 6),
                    arg<int *>(args, 7));
    });
}

extern "C" const char *layout(int n, int hot_rows, int threads, long long shared_words) {
    if (shared_words > SHARED_MAX)
        return "more shared memory than this stand-in has";
    untouched();
    /* word w of row r of thread t holds 1 + (t * QUEENS_MAX_N + r) * ROW_WORDS + w */
    std::vector<std::vector<qword>> colds(threads, std::vector<qword>(QUEENS_MAX_N * ROW_WORDS));
    std::vector<int> wrong(threads);
    run_block(threads, [&](int t) {
        struct stack s = thread_stack(shared, colds[t].data(), n, hot_rows);
        for (int r = 0; r < n; r++)
            for (int w = 0; w < ROW_WORDS; w++)
                stack_set(s, ROW_WORDS, r, w, 1 + ((qword)t * QUEENS_MAX_N + r) * ROW_WORDS + w);
    });
    run_block(threads, [&](int t) {
        struct stack s = thread_stack(shared, colds[t].data(), n, hot_rows);
        for (int r = 0; r < n; r++)
            for (int w = 0; w < ROW_WORDS; w++)
                wrong[t] += stack_get(s, ROW_WORDS, r, w) != 1 + ((qword)t * QUEENS_MAX_N + r) * ROW_WORDS + w;
    });
    for (int t = 0; t < threads; t++)
        if (wrong[t])
            return "a thread's stack was overwritten by another's";
    long long written = 0;
    for (long long i = 0; i < SHARED_MAX; i++) {
        if (shared[i] == UNTOUCHED)
            continue;
        if (i >= shared_words)
            return "a thread wrote past the block's shared memory";
        written++;
        long long thread = (long long)((shared[i] - 1) / ROW_WORDS / QUEENS_MAX_N);
        if (thread % QUEENS_WARP != i % QUEENS_WARP)
            return "a thread's word is in another lane's banks";
    }
    int hot = n < hot_rows ? n : hot_rows;
    if (written != (long long)threads * hot * ROW_WORDS)
        return "the hot rows are not all in shared memory";
    return nullptr;
}
#endif
