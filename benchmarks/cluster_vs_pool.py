"""A Dask cluster against the local process pool, on the same machine:
`count N --scheduler local:W` (a cluster started for the count, its start-up
in its time, as a user trying it pays it) and `count N --scheduler ADDRESS`
(a running cluster: `dask scheduler` and W `dask worker` processes started
once, before the timing, as a user with a cluster has them) against
`count N --jobs W`, for W = 1 and 2, each walking by symmetry classes
(`--method walk`: the figures of docs/speed.md).

    python benchmarks/cluster_vs_pool.py [N] [--repeat R]     (default: 16)
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.known import TOTAL

DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_cluster(workers: int) -> Iterator[str]:
    """`dask scheduler` and `workers` single-threaded `dask worker` processes, up and connected."""
    from distributed import Client

    if not Path(DASK).exists() and shutil.which("dask") is None:
        raise SystemExit("the dask command is not installed (pip install 'nqueens-cp[cluster]')")
    address = f"tcp://127.0.0.1:{free_port()}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], **quiet)
    worker = subprocess.Popen([DASK, "worker", address, "--nworkers", str(workers), "--nthreads", "1",
                               "--no-dashboard"], **quiet)
    try:
        with Client(address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, nargs="?", default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    check = last_line_is(TOTAL[args.n])
    with running_cluster(1) as one, running_cluster(2) as two:
        sides = []
        for workers, address in ((1, one), (2, two)):
            sides.append(Side(f"pool, {workers} process(es)", nqueens("count", str(args.n), "--method", "walk", "--jobs", str(workers)),
                              check))
            sides.append(Side(f"Dask local:{workers}", nqueens("count", str(args.n), "--method", "walk", "--scheduler", f"local:{workers}"),
                              check))
            sides.append(Side(f"Dask running, {workers} worker(s)",
                              nqueens("count", str(args.n), "--method", "walk", "--scheduler", address),
                              check))
        alternate(sides, args.repeat)
    report(f"count {args.n}: Dask clusters against the process pool", sides, sides[3])


if __name__ == "__main__":
    main()
