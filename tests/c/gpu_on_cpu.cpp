/* gpu_on_cpu.cpp: gpu.cu run on the CPU, one CPU thread for each GPU thread
 * of one block, all at once over one array standing in for the block's
 * shared memory (tests/test_gpu.py).  Built with g++ and cuda_shim.h:
 *
 *   gpu_on_cpu run N ITEMS HOT_ROWS THREADS SHARED_WORDS FILE
 *     count_items on the items in FILE (the masks, the ties, the classify
 *     bytes, as counting/gpu.py packs them, then the order: ITEMS 32-bit
 *     indices); prints the five totals.
 *   gpu_on_cpu layout N HOT_ROWS THREADS SHARED_WORDS
 *     every thread writes every word of its stack, each a different value;
 *     prints "ok" if each reads back its own, every shared word written is
 *     in the SHARED_WORDS a launch gets and belongs to a thread of its lane
 *     (bank-conflict free, queens.h), else what went wrong.
 * Either way, no thread may write past SHARED_WORDS (checked after). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "gpu.cu"

static const long long SHARED_MAX = 1 << 20;
qword shared[SHARED_MAX];

static int fail(const char *what) {
    std::printf("%s\n", what);
    return 1;
}

/* Each GPU thread of the block on a CPU thread of its own, all at once. */
template <typename Body> static void launch(int threads, Body body) {
    std::vector<std::thread> running;
    for (int t = 0; t < threads; t++)
        running.emplace_back([t, &body] {
            threadIdx.x = (unsigned)t;
            body(t);
        });
    for (auto &thread : running)
        thread.join();
}

static const qword UNTOUCHED = (qword)0x5a5a5a5a5a5a5a5aULL;

static int run(int n, int items, int hot_rows, int threads, const char *path) {
    std::vector<unsigned long long> masks64((size_t)items * n), ties64(items); /* as packed: 64-bit words */
    std::vector<unsigned char> classify(items);
    std::vector<int> order(items);
    FILE *file = std::fopen(path, "rb");
    if (!file || std::fread(masks64.data(), 8, masks64.size(), file) != masks64.size() ||
        std::fread(ties64.data(), 8, ties64.size(), file) != ties64.size() ||
        std::fread(classify.data(), 1, classify.size(), file) != classify.size() ||
        std::fread(order.data(), sizeof(int), order.size(), file) != order.size())
        return fail("cannot read the items");
    std::fclose(file);
    /* the kernel's words (32 bits with QUEENS_WORD32, as counting/gpu.py sends them then) */
    std::vector<qword> masks(masks64.begin(), masks64.end()), ties(ties64.begin(), ties64.end());
    for (size_t i = 0; i < masks.size(); i++)
        if (masks[i] != masks64[i])
            return fail("a mask does not fit the kernel's word");
    unsigned long long totals[5] = {0, 0, 0, 0, 0};
    int next = 0;
    launch(threads, [&](int) {
        count_items(n, items, hot_rows, order.data(), masks.data(), ties.data(), classify.data(), totals, &next);
    });
    std::printf("%llu %llu %llu %llu %llu\n", totals[0], totals[1], totals[2], totals[3], totals[4]);
    return 0;
}

static int layout(int n, int hot_rows, int threads, long long shared_words) {
    /* word w of row r of thread t holds 1 + (t * QUEENS_MAX_N + r) * ROW_WORDS + w */
    std::vector<std::vector<qword>> colds(threads, std::vector<qword>(QUEENS_MAX_N * ROW_WORDS));
    std::vector<int> wrong(threads);
    launch(threads, [&](int t) {
        struct stack s = thread_stack(shared, colds[t].data(), n, hot_rows);
        for (int r = 0; r < n; r++)
            for (int w = 0; w < ROW_WORDS; w++)
                stack_set(s, ROW_WORDS, r, w, 1 + ((qword)t * QUEENS_MAX_N + r) * ROW_WORDS + w);
    });
    launch(threads, [&](int t) {
        struct stack s = thread_stack(shared, colds[t].data(), n, hot_rows);
        for (int r = 0; r < n; r++)
            for (int w = 0; w < ROW_WORDS; w++)
                wrong[t] += stack_get(s, ROW_WORDS, r, w) != 1 + ((qword)t * QUEENS_MAX_N + r) * ROW_WORDS + w;
    });
    for (int t = 0; t < threads; t++)
        if (wrong[t])
            return fail("a thread's stack was overwritten by another's");
    long long written = 0;
    for (long long i = 0; i < shared_words; i++) {
        if (shared[i] == UNTOUCHED)
            continue;
        written++;
        long long thread = (long long)((shared[i] - 1) / ROW_WORDS / QUEENS_MAX_N);
        if (thread % QUEENS_WARP != i % QUEENS_WARP)
            return fail("a thread's word is in another lane's banks");
    }
    int hot = n < hot_rows ? n : hot_rows;
    if (written != (long long)threads * hot * ROW_WORDS)
        return fail("the hot rows are not all in shared memory");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 6)
        return fail("usage: gpu_on_cpu run N ITEMS HOT_ROWS THREADS SHARED_WORDS FILE | layout N HOT_ROWS THREADS SHARED_WORDS");
    bool running = std::strcmp(argv[1], "run") == 0;
    int n = std::atoi(argv[2]), at = running ? 4 : 3;
    int hot_rows = std::atoi(argv[at]), threads = std::atoi(argv[at + 1]);
    long long shared_words = std::atoll(argv[at + 2]);
    if (shared_words > SHARED_MAX)
        return fail("more shared memory than this stand-in has");
    for (long long i = 0; i < SHARED_MAX; i++)
        shared[i] = UNTOUCHED;
    int code = running ? run(n, std::atoi(argv[3]), hot_rows, threads, argv[at + 3])
                       : layout(n, hot_rows, threads, shared_words);
    for (long long i = shared_words; i < SHARED_MAX; i++)
        if (shared[i] != UNTOUCHED)
            return fail("a thread wrote past the block's shared memory");
    if (code == 0 && !running)
        std::printf("ok\n");
    return code;
}
