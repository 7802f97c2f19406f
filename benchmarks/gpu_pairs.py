"""Would the join of quarters pay on a GPU?  Its inner loop, the pair tests
(`(p & q) == 0` for an east key p and a west key q, docs/counting.md: 4.3 x
10^12 of them at N = 20, about 21 a nanosecond on one core here), measured
on this machine's GPU: each thread tests its east keys against a tile of
west keys in shared memory, counting the pairs that do not meet.  The count
is checked against NumPy's on a corner of the keys first.

    python benchmarks/gpu_pairs.py [--west 4096] [--east 16777216] [--repeat 5]

It needs CuPy and an NVIDIA GPU (benchmarks/gpu_machine.sh runs it).
"""

from __future__ import annotations

import argparse
import statistics
import time

SOURCE = r"""
extern "C" __global__ void pairs(const unsigned long long *west, int w, const unsigned long long *east, long long e,
                                 unsigned long long *count) {
    extern __shared__ unsigned long long tile[];
    unsigned long long found = 0;
    for (int base = 0; base < w; base += blockDim.x) {
        int take = min((int)blockDim.x, w - base);
        if (threadIdx.x < take)
            tile[threadIdx.x] = west[base + threadIdx.x];
        __syncthreads();
        for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < e; i += (long long)gridDim.x * blockDim.x) {
            unsigned long long p = east[i];
            unsigned int c = 0;
            for (int j = 0; j < take; j++)
                c += (tile[j] & p) == 0;
            found += c;
        }
        __syncthreads();
    }
    atomicAdd(count, found);
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--west", type=int, default=4096)
    parser.add_argument("--east", type=int, default=1 << 24)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import cupy
    import numpy

    cupy.random.seed(54)

    def keys(count: int) -> cupy.ndarray:  # each bit set with probability 0.15: about 1 pair in 4 does not meet
        made = cupy.zeros(count, dtype=cupy.uint64)
        for bit in range(64):
            made |= (cupy.random.random(count) < 0.15).astype(cupy.uint64) << cupy.uint64(bit)
        return made

    d_west, d_east = keys(args.west), keys(args.east)
    function = cupy.RawModule(code=SOURCE).get_function("pairs")
    threads = 256
    blocks = cupy.cuda.Device().attributes["MultiProcessorCount"] * 8

    def count(w: int, e: int) -> int:
        found = cupy.zeros(1, dtype=numpy.uint64)
        function((blocks,), (threads,), (d_west, numpy.int32(w), d_east, numpy.int64(e), found),
                 shared_mem=threads * 8)
        return int(found.get()[0])

    corner = min(args.west, 2048), min(args.east, 4096)
    west, east = d_west[:corner[0]].get(), d_east[:corner[1]].get()
    want = int(((west[:, None] & east[None, :]) == 0).sum())
    got = count(*corner)
    print(f"check on {corner[0]} x {corner[1]} keys: GPU {got:,}, NumPy {want:,}: {'ok' if got == want else 'WRONG'}")
    if got != want:
        raise SystemExit(1)
    seconds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        count(args.west, args.east)
        seconds.append(time.perf_counter() - start)
    tests = args.west * args.east
    best = statistics.median(seconds)
    print(f"{tests:.3g} pair tests: median {best * 1e3:.1f} ms of {args.repeat}, "
          f"{tests / best / 1e9:,.0f} pair tests a nanosecond")


if __name__ == "__main__":
    main()
