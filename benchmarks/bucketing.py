"""The join's bucketing alone (join.c's `bucketed_by_pext`): nanoseconds a key,
with the keys in the caches and with them evicted first (issue 80).

In a count by quarters the bucketing finds its keys and its places to write
cold: the listing has read the quarters' table since.  This harness builds
join.c and dense.c of a tree (this one, and with BEFORE another checkout's
too) into a small C program with the machine's C compiler, puts COUNT keys
of a 42-bit window (in runs of RUN that share most of their bits, as the
listing's do) into 2^K buckets, and gives the best of REPEAT runs, warm and
after a 32 MB sweep that evicts them.  Each run is checked: every key in the
bucket of its id, the buckets' starts in order, and the packed keys the same
multiset as the input's (their sum and the sum of their squares).

    python benchmarks/bucketing.py [--before DIR] [--count 60000] [--bits 6] [--run 8] [--repeat 20]

2026-11-29 (docs/counting.md): 60,000 keys in 64 buckets took 4.1 to 4.6 ns
a key warm and 6.3 to 7.9 ns evicted, where `perf` put it at about 12 ns a
key inside the join of count 22's windows.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from common import ROOT

HARNESS = r"""
#include JOINC
#include <stdio.h>
#include <time.h>

static uint64_t state = 88172645463325252ull;
static uint64_t drawn(void) { state ^= state << 13, state ^= state >> 7, state ^= state << 17; return state; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

__attribute__((target("bmi2"))) int main(int argc, char **argv) {
    uint64_t count = strtoull(argv[1], 0, 10), cap = (uint64_t)1 << 18, width = 42, window = ((uint64_t)1 << width) - 1;
    int k = atoi(argv[2]), run = atoi(argv[3]), repeat = atoi(argv[4]), evict = atoi(argv[5]);
    if (count > cap || k < 1 || k > JOIN_MAX_ID_BITS || run < 1)
        return 2;
    uint64_t *keys = malloc(cap * 8), *sweep = calloc((size_t)4 << 20, 8), base = 0;
    for (uint64_t i = 0; i < count; i++) {
        if (i % run == 0)
            base = drawn() & window;
        keys[i] = (base ^ (drawn() & drawn() & drawn() & 0x3ffffffu)) & window;
    }
    uint64_t told = 0;
    for (int i = 0; i < k; i++)
        told |= (uint64_t)1 << (30 + i);
    uint64_t others = window & ~told, sum = 0, squares = 0;
    size_t starts = (((size_t)1 << JOIN_MAX_ID_BITS) + 1) * sizeof(uint32_t) + cap * sizeof(uint16_t);
    struct buckets b = {malloc(cap * 8), malloc(cap * 4), malloc(starts),
                        malloc(((size_t)BUCKET_WAYS << JOIN_MAX_ID_BITS) * sizeof(uint32_t)), NULL, NULL, 0, 0, 0, 1};
    b.others = __builtin_popcountll(others);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t packed = _pext_u64(keys[i], others) | _pext_u64(keys[i], told) << b.others;
        sum += packed, squares += packed * packed;
    }
    double best = 1e9;
    for (int r = 0; r < repeat; r++) {
        if (evict)
            for (uint64_t i = 0; i < ((uint64_t)4 << 20); i += 8)
                sweep[i]++;
        double began = now();
        if (has_avx512()) /* (AVX-512's copy, else AVX2's: join.c's choice where pext is fast) */
            bucketed_by_pext(keys, count, k, &b, told, others, 0, 0);
        else
            bucketed_by_pext_bmi2(keys, count, k, &b, told, others, 0, 0);
        double took = now() - began;
        best = took < best ? took : best;
        uint64_t s = 0, q = 0;
        for (uint32_t v = 0; v < 1u << k; v++) {
            if (b.start[v] > b.start[v + 1])
                return 3;
            for (uint32_t i = b.start[v]; i < b.start[v + 1]; i++) {
                if (b.key[i] >> b.others != v || (b.others <= 32 && b.low[i] != (uint32_t)b.key[i]))
                    return 3;
                s += b.key[i], q += b.key[i] * b.key[i];
            }
        }
        if (b.start[1u << k] != count || s != sum || q != squares)
            return 3;
    }
    printf("%.3f\n", best / count * 1e9);
    return 0;
}
"""


def build(tree: Path, where: Path) -> Path:
    kernel = tree / "nqueens_cp" / "kernel"
    (where / "harness.c").write_text(HARNESS)
    program = where / f"bucketing-{abs(hash(str(tree)))}"
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("bucketing.py: no C compiler here")
    built = subprocess.run([compiler, "-O3", f'-DJOINC="{kernel / "join.c"}"', f"-I{kernel}", str(where / "harness.c"),
                            str(kernel / "dense.c"), "-o", str(program)], capture_output=True, text=True)
    if built.returncode:
        raise SystemExit(f"bucketing.py: the harness did not build against {tree}:\n{built.stderr[-2000:]}")
    return program


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="another checkout, measured alternately with this one")
    parser.add_argument("--count", type=int, default=60000)
    parser.add_argument("--bits", type=int, default=6)
    parser.add_argument("--run", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    trees = [ROOT] + ([args.before.resolve()] if args.before else [])
    with tempfile.TemporaryDirectory(prefix="nqueens-bucketing-") as scratch:
        programs = [build(tree, Path(scratch)) for tree in trees]
        print(f"{args.count:,} keys in {1 << args.bits} buckets (runs of {args.run}), best of {args.repeat}:")
        for evict, said in ((0, "in the caches"), (1, "evicted first")):
            for _ in range(3):  # alternately, three times each: the machine drifts
                times = []
                for program in programs:
                    done = subprocess.run([str(program), str(args.count), str(args.bits), str(args.run),
                                           str(args.repeat), str(evict)], capture_output=True, text=True)
                    if done.returncode:
                        raise SystemExit(f"bucketing.py: {program.name} exit {done.returncode}: the buckets are wrong")
                    times.append(float(done.stdout))
                line = "  ".join(f"{tree.name or tree}: {t:.2f} ns a key" for tree, t in zip(trees, times))
                ratio = f"  (this tree / before: {times[0] / times[1]:.3f}x)" if len(times) == 2 else ""
                print(f"  {said}: {line}{ratio}")


if __name__ == "__main__":
    main()
