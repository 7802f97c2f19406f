"""How busy a GPU count keeps the threads of a GPU, simulated on the CPU (issue 32).

A launch of gpu.cu gives items to threads from one queue, each thread taking
the next item when its last is searched, and it lasts as long as its slowest
thread.  This script counts every work item's nodes with the CPU kernel (the
same walk), then plays the queue for THREADS threads, a thread's time being
its items' nodes, and prints the share of the threads' time spent searching
(the total nodes over THREADS times the longest thread's) for:

  - a launch per task of 1,024 sub-boards, the items as listed (before);
  - one launch, the items as listed;
  - one launch, biggest first by counting/gpu.py's estimate (what runs now);
  - one launch, biggest first by the true nodes (the best an order can do).

It leaves out what only a GPU shows (a warp's 32 threads step together, so a
warp lasts as long as its slowest thread; memory), so it bounds the loss
from the queue alone.

    python benchmarks/gpu_schedule.py [N ...] [--threads T]   (default: 16 17; T: an H100's)

N = 18 takes about 2 minutes here (186,000 items, 10 billion nodes).
"""

from __future__ import annotations

import argparse
import heapq
import time
from collections.abc import Sequence

from nqueens_cp import kernel
from nqueens_cp.counting import classes, gpu

H100_SMS = 132
OLD_TASK = 1024  # sub-boards to a launch before one launch a count


def longest_thread(work: Sequence[int], threads: int) -> int:
    """The queue played out: each item to the thread that is free first."""
    finish = list(work[:threads])
    heapq.heapify(finish)
    for nodes in work[threads:]:
        heapq.heapreplace(finish, finish[0] + nodes)
    return max(finish, default=0)


def busy(work: Sequence[int], threads: int) -> str:
    """The share of the threads' time spent searching."""
    return f"{sum(work) / threads / longest_thread(work, threads):5.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*", default=[16, 17])
    parser.add_argument("--threads", type=int, help="default: an H100's, at BLOCKS_PER_SM blocks an SM")
    args = parser.parse_args()
    h100 = H100_SMS * gpu.SHAPE.blocks_per_sm * gpu.SHAPE.threads
    threads = args.threads or h100
    print(f"threads: {threads:,} (an H100's: {h100:,}, {H100_SMS} SMs x {gpu.SHAPE.blocks_per_sm} blocks x "
          f"{gpu.SHAPE.threads} threads)")
    for n in args.sizes:
        start = time.perf_counter()
        boards = classes.sub_boards(n)
        items = gpu.work_items(n, boards)
        # the task each item was in before (the sub-boards' items come in their order)
        _, per_board = kernel.expand(n, [board.allowed for board in boards], gpu.depth(n))
        task = [index // OLD_TASK for index, count in enumerate(per_board) for _ in range(count)]
        nodes = gpu.item_nodes(items)
        order = gpu.biggest_first(items, gpu.depth(n)).tolist()
        total = sum(nodes)
        ideal = total / threads

        per_task = sum(longest_thread([w for w, t in zip(nodes, task) if t == k], threads)
                       for k in range(max(task) + 1))
        print(f"\nN={n}: {len(items):,} items ({len(items) / threads:.1f} a thread), {total:,} nodes; the largest "
              f"item is {max(nodes) / ideal:.2f}x a thread's share ({time.perf_counter() - start:.0f} s to measure)")
        print(f"  a launch per {OLD_TASK} sub-boards ({max(task) + 1}), as listed  {ideal / per_task:5.2f}")
        print(f"  one launch, as listed                        {busy(nodes, threads)}")
        print(f"  one launch, biggest first (the estimate)     {busy([nodes[i] for i in order], threads)}")
        print(f"  one launch, biggest first (the true nodes)   {busy(sorted(nodes, reverse=True), threads)}")


if __name__ == "__main__":
    main()
