"""The GPU count on a machine with an NVIDIA GPU (issues 32 and 54), all in one run:

1. the GPU's name, and the first `count 8 --engine gpu` of the run, NVRTC's
   compile included (CuPy caches the binary on disk: later processes skip it);
2. with --shapes N: the launches alone at N, in this process, each count
   checked, with nodes per second: every item by count_items in each shape
   of shapes() (the kernel's word, threads a block, rows of each thread's
   stack in shared memory, blocks an SM); then the engine's path since
   issue 66, the plain items by count_plain in each shape of plain_shapes()
   (with and without the look-ahead) and the items to class by count_items,
   then the engine's path on items one row deeper (as ygch/n_queens's);
3. `count N --engine gpu --format json` for each N of --exact: the total and
   the fundamental count of the same run against A000170 and A002562 (every
   count checks them against its S180 and S90 searches too);
4. end to end, process start to the number, for each N of --sizes: the GPU
   beside `count N` on this machine's CPU cores (up to --cpu-max), run
   alternately, with nodes per second from the GPU runs' statistics.  With
   --budget, a size whose time, foreseen from the sizes before it, would end
   past the budget is left out, saying so;
5. the targets of issue 22 on one H100, and the published H800 times of
   ygch/n_queens they were set from.

    python benchmarks/gpu.py [--exact 4-21] [--shapes 19] [--sizes 18-22] [--cpu-max 20] [--repeat R]
                             [--budget SECONDS]

Run `pytest tests/test_gpu.py` on the same machine first: its launch tests
skip where there is no GPU.  Without one this script stops in one line.
benchmarks/gpu_machine.sh does all of it on a lent machine.

Measured (issue 54, 2026-11-26, three runs of gpu_machine.sh): one NVIDIA H200,
132 SMs, driver 580.159.04, CUDA runtime 13.2, CuPy 14.2.0; `--exact 4-18
--shapes 19 --sizes 19-21 --cpu-max 0 --repeat 1`.  Every count of N = 4 to
21 was A000170's and A002562's, in all three runs.  Runs 1 and 2 in 64-bit
words, run 3 in 32-bit words (up to N = 32):

    N        64-bit (runs 1, 2)     32-bit (run 3)   nodes a second (run 3)   2 CPU cores here (docs/counting.md)
    4..18    0.7 to 1.5 s each      0.8 to 1.3 s
    19       3.22 s, 3.29 s         2.56 s           32 G                     join 33.0 s, walk 104.8 s
    20       17.23 s, 17.51 s       10.37 s          61 G                     join 108.6 s, walk 836.8 s
    21       135.27 s, 135.62 s     73.64 s          72 G                     join 868.6 s

Launch shapes at N = 19 (word, threads, hot rows, blocks an SM: seconds): 64,
128, 12, 4: 2.04 (64-bit default); 64, 128, 8, 6: 2.43; 64, 64, 12, 8: 2.24; 64,
128, 1, 16: 17.57; 32, 128, 12, 8: 1.50 (run 3's); 32, 128, 24, 4: 1.15 (the
32-bit default since); 32, 256, 12, 4: 1.30; 32, 128, 8, 12: 1.94.  Issue 22's
targets (20 in 2 s, 21 in 12 s on an H100) are not met: ygch/n_queens's
published H800 times are 2.5x shorter than run 3's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

from common import Side, alternate, nqueens, report

from nqueens_cp.known import FUNDAMENTAL, TOTAL

TARGET = {20: 2.0, 21: 12.0, 22: 100.0}  # seconds on one H100 (issue 22)
YGCH_H800 = {20: 4.14, 21: 29.2, 22: 249.9}  # ygch/n_queens's README, seconds
GROWTH = 8.0  # a size's time over the size before, until two sizes are measured


def shapes(n: int) -> list:
    """The launch shapes the sweep tries at n: for 64-bit words the default
    and the best runners-up of issue 54's first sweep; for 32-bit words (up
    to N = 32) the default, then issue 54's run 3 (half the hot rows, twice
    the blocks), larger and smaller blocks, and more blocks an SM."""
    from nqueens_cp.counting.gpu import SHAPES, Shape, word_bits

    tried = [SHAPES[64], Shape(64, 12, 8)]
    if word_bits(n) == 32:
        tried += [SHAPES[32], Shape(128, 12, 8, 4), Shape(256, 12, 4, 4), Shape(64, 12, 16, 4), Shape(128, 8, 12, 4)]
    return tried


def sizes(text: str) -> list[int]:
    """'4-21' or '18,20,22'."""
    if "-" in text:
        first, last = (int(part) for part in text.split("-"))
        return list(range(first, last + 1))
    return [int(part) for part in text.split(",")]


class Runs:
    """The JSON answers of one side's runs, checked as they come."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.answers: list[dict] = []

    def check(self, out: str) -> bool:
        try:
            answer = json.loads(out)
        except ValueError:
            return False
        self.answers.append(answer)
        stats = answer.get("stats", {})
        return answer.get("count") == TOTAL[self.n] and stats.get("fundamental", FUNDAMENTAL[self.n]) == \
            FUNDAMENTAL[self.n]

    def nodes_per_second(self) -> float:
        return statistics.median(a["stats"]["nodes"] / a["seconds"] for a in self.answers)


def counting(n: int, *options: str) -> list[str]:
    return nqueens("count", str(n), "--format", "json", *options)


def once(name: str, command: list[str], check: Callable[[str], bool]) -> Side:
    side = Side(name, command, check)
    side.run()
    return side


def device_name() -> str:
    import cupy

    properties = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    name = properties["name"]
    return (name.decode() if isinstance(name, bytes) else str(name)) + \
        f", {properties['multiProcessorCount']} SMs, CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}"


def timed(launches: list, n: int) -> tuple[float, list[int]]:
    """Each (launch, order) in turn, in ITEMS_PER_LAUNCH pieces, timed to the last total."""
    from nqueens_cp.counting import gpu

    start = time.perf_counter()
    found = [0] * 5
    for launch, order in launches:
        for first in range(0, len(order), gpu.ITEMS_PER_LAUNCH):
            found = [a + b for a, b in zip(found, launch(order[first:first + gpu.ITEMS_PER_LAUNCH]))]
    return time.perf_counter() - start, found


def verdict(n: int, found: list[int]) -> str:
    from nqueens_cp.counting import classes, gpu

    eight, four, two, _, tied = gpu.totals(found)
    tally = classes.tally(n, eight, four, two, tied, classes.symmetric_on_ties(n))
    return "ok" if (tally.total, tally.fundamental) == (TOTAL[n], FUNDAMENTAL[n]) else f"WRONG: {tally.total}"


def plain_shapes() -> list:
    """count_plain's launches tried (issue 66): with and without the look
    two rows ahead, blocks of 64 to 128 threads (as many as 48 KiB holds)."""
    from nqueens_cp.counting.gpu import Plain

    return [Plain(), Plain(ahead=True), Plain(64), Plain(64, ahead=True), Plain(128, 12), Plain(128, 4)]


def sweep(n: int) -> None:
    """The launches alone at n, in this process, each count checked: every
    item by count_items in each of its shapes (the walk before issue 66),
    then the plain items by count_plain in each of its shapes beside the
    items to class by count_items in the default shape (the engine's path
    since), all on the same items, each launch warmed (its module loaded
    and its items on the device) before the clock."""
    import numpy

    from nqueens_cp.counting import classes, gpu

    items = gpu.work_items(n, classes.sub_boards(n))
    order = gpu.biggest_first(items, gpu.depth(n))
    to_class = numpy.frombuffer(items.classify, dtype=numpy.uint8)[order] != 0
    plain, classed = order[~to_class], order[to_class]
    print(f"\nthe launches alone at N={n} ({len(items):,} work items, {len(plain):,} plain, "
          f"{len(classed):,} to class; count_plain's stack {gpu.levels(items)} entries deep)")
    print("every item by count_items, by launch shape")
    for shape in shapes(n):
        launch = gpu.launcher(items, shape)
        launch(order[:1])
        seconds, found = timed([(launch, order)], n)
        print(f"  {8 * shape.word_bytes}-bit words, {shape.threads:>3} threads, {shape.hot_rows:>2} hot rows, "
              f"{shape.blocks_per_sm:>2} blocks/SM ({shape.shared_words() * shape.word_bytes // 1024:>2} KiB): "
              f"{seconds:8.3f} s  {found[3] / seconds / 1e9:7.2f} G nodes/s  {verdict(n, found)}", flush=True)
    bits = gpu.word_bits(n)
    shape = gpu.SHAPES[bits]
    classing = gpu.launcher(items, shape)
    classing(classed[:1])
    alone, found = timed([(classing, classed)], n)
    print(f"the {len(classed):,} items to class alone by count_items (default shape): {alone:8.3f} s, "
          f"{found[3] / alone / 1e9:7.2f} G nodes/s")
    print(f"the plain items by count_plain, by launch shape, then the items to class ({bits}-bit words)")
    for plain_shape in plain_shapes():
        threads = plain_shape.block(n, gpu.levels(items), bits // 8)
        if threads == 0:
            print(f"  {plain_shape}: not one warp fits 48 KiB at N={n}")
            continue
        launch = gpu.plain_launcher(items, plain_shape, bits // 8)
        launch(plain[:1])
        seconds, found = timed([(launch, plain), (classing, classed)], n)
        plain_seconds = seconds - alone
        print(f"  {'ahead' if plain_shape.ahead else 'plain'}, {threads:>3} threads, "
              f"{plain_shape.blocks_per_sm:>2} blocks/SM: {seconds:8.3f} s in all, plain items "
              f"~{plain_seconds:7.3f} s; {found[3] / seconds / 1e9:7.2f} G nodes/s  {verdict(n, found)}", flush=True)
    # ygch/n_queens fixes 6 rows (4.5 million tasks at N = 21): more, shorter items even out the threads
    # (a launch lasts as long as its slowest), and the host lists eight to nine times as many
    start = time.perf_counter()
    deeper = gpu.work_items(n, classes.sub_boards(n), gpu.depth(n) + 1)
    order = gpu.biggest_first(deeper, gpu.depth(n) + 1)
    listed = time.perf_counter() - start
    to_class = numpy.frombuffer(deeper.classify, dtype=numpy.uint8)[order] != 0
    launches = [(gpu.plain_launcher(deeper, gpu.PLAIN, bits // 8), order[~to_class]),
                (gpu.launcher(deeper, shape), order[to_class])]
    for launch, taken in launches:
        launch(taken[:1])
    seconds, found = timed(launches, n)
    print(f"one row more fixed ({gpu.depth(n) + 1} rows, {len(deeper):,} items, listed and ordered in {listed:.2f} s "
          f"on the host), the engine's path: {seconds:8.3f} s, {found[3] / seconds / 1e9:7.2f} G nodes/s  "
          f"{verdict(n, found)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exact", type=sizes, default=sizes("4-21"), help="N to check against OEIS (default 4-21)")
    parser.add_argument("--shapes", type=int, metavar="N", help="time the launches alone at N for each launch shape")
    parser.add_argument("--sizes", type=sizes, default=sizes("18-22"), help="N to time (default 18-22)")
    parser.add_argument("--cpu-max", type=int, default=20, help="the largest N the CPU side runs (default 20)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, help="seconds from the start: leave out a size foreseen to end past it")
    args = parser.parse_args()
    began = time.perf_counter()
    from nqueens_cp.engines.gpu import GpuEngine

    reason = GpuEngine.unavailable_reason()
    if reason:
        raise SystemExit(f"benchmarks/gpu.py: engine gpu {reason}")

    print(f"GPU: {device_name()}")
    first = Runs(8)
    print(f"first count 8 --engine gpu, the kernel's compile included: "
          f"{once('gpu 8', counting(8, '--engine', 'gpu'), first.check).times[0]:.3f} s", flush=True)

    if args.shapes:  # (before the counts: a shape's wrong count is shown, not stopped at)
        sweep(args.shapes)

    print("\ncount N --engine gpu against A000170 and A002562 (one run each)")
    wrong = []
    for n in args.exact:
        runs = Runs(n)
        side = once(f"gpu {n}", counting(n, "--engine", "gpu"), lambda out, runs=runs: runs.check(out) or True)
        answer = runs.answers[-1] if runs.answers else {}
        total, fundamental = answer.get("count"), answer.get("stats", {}).get("fundamental")
        right = (total, fundamental) == (TOTAL[n], FUNDAMENTAL[n])
        if not right:
            wrong.append(n)
        print(f"  N={n:<3} total {total!s:>16}  fundamental {fundamental!s:>15}  {side.times[0]:8.3f} s  "
              f"{'ok' if right else f'WRONG: published {TOTAL[n]} and {FUNDAMENTAL[n]}'}", flush=True)
        if not right:
            print("    " + side.stderr.strip()[-600:].replace("\n", "\n    "), flush=True)
    if wrong:  # no timing of a count that is wrong
        print(f"\nWRONG counts for N = {', '.join(map(str, wrong))}", file=sys.stderr)
        raise SystemExit(1)

    medians: dict[int, float] = {}
    for n in args.sizes:
        if args.budget is not None and medians:
            known = sorted(medians)
            growth = medians[known[-1]] / medians[known[-2]] if len(known) > 1 else GROWTH
            foreseen = medians[known[-1]] * growth ** (n - known[-1]) * args.repeat
            if time.perf_counter() - began + foreseen > args.budget:
                print(f"\ncount {n}: left out, foreseen {foreseen:.0f} s for {args.repeat} run(s) would end past "
                      f"the budget of {args.budget:.0f} s", flush=True)
                break
        gpu_runs, cpu_runs = Runs(n), Runs(n)
        gpu = Side(f"count {n} --engine gpu", counting(n, "--engine", "gpu"), gpu_runs.check)
        sides = [gpu]
        if n <= args.cpu_max:
            sides.append(Side(f"count {n}, CPU cores", counting(n), cpu_runs.check))
        alternate(sides, args.repeat)
        report(f"count {n}, end to end", sides, gpu)
        medians[n] = statistics.median(gpu.times)
        print(f"  GPU: {gpu_runs.nodes_per_second() / 1e9:,.2f} G nodes/s end to end"
              + (f"; CPU: {cpu_runs.nodes_per_second() / 1e9:,.2f} G nodes/s" if cpu_runs.answers else ""), flush=True)

    print("\nthe targets (issue 22): one H100, end to end")
    for n in sorted(set(medians) & set(TARGET)):
        met = "met" if medians[n] <= TARGET[n] else "NOT met"
        print(f"  N={n}: {medians[n]:8.3f} s  target {TARGET[n]:6.1f} s  {met}; "
              f"{medians[n] / YGCH_H800[n]:.2f}x ygch/n_queens's published H800 time ({YGCH_H800[n]} s)")


if __name__ == "__main__":
    main()
