"""Whole parts of a count by quarters, counted by this tree, against a
checkpoint's records of the same parts (another machine's, or another
day's): how this CPU and tree compare with the count that wrote the file.

    python benchmarks/parts_record.py benchmarks/runs/count23-4.jsonl --parts 39,124

Each part is counted whole in a process of its own, as many at once as
this machine has cores (as a count runs them), after the quarters' table
(built on one row set first, not timed).  Its boards, row sets, halves and
pair tests must be the record's; its listing and joining time (the
kernel's own clocks, as the record's) is printed beside the record's, with
the ratio of their sums.  On 2026-11-30, late, on a Zen 3 with the AVX2
loops, parts 39 and 124 of 23 against count23-4.jsonl (a Zen 4's, the
AVX-512 loops): 2.59x and 2.43x, and an hour later with this script 2.72x
and 2.67x (docs/counting.md); on 2026-12-02 on a Zen 5 with the AVX-512
loops, 0.88x, and its whole count's records are count23-5.jsonl (every part
0.77x the Zen 4's, summed).  Only the ratio means anything, and only for
the trees and machines named: both machines' hours drift.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from common import PART_PROGRAM, PYTHON, ROOT, part_indices

PROGRAM = PART_PROGRAM + "import json\nprint(json.dumps(list(join.count_part(n, part))))\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", type=Path, help="a checkpoint of `count N --checkpoint FILE`")
    part_indices(parser)
    args = parser.parse_args()
    lines = [json.loads(line) for line in args.record.read_text().splitlines() if line.strip()]
    n = lines[0]["n"]
    recorded = {line["task"]: line["values"] for line in lines[1:] if "task" in line}
    indices = [int(p) for p in args.parts.split(",")]
    missing = [i for i in indices if i not in recorded]
    if missing:
        sys.exit(f"parts_record.py: {args.record} records no part {', '.join(map(str, missing))} of count {n}")
    ours = theirs = 0.0
    cores = os.cpu_count() or 1
    for start in range(0, len(indices), cores):
        batch = indices[start:start + cores]
        runs = {i: subprocess.Popen([PYTHON, "-c", PROGRAM, str(n), str(i)], cwd=ROOT, text=True,
                                    stdout=subprocess.PIPE) for i in batch}
        for i, run in runs.items():
            out, _ = run.communicate()
            if run.returncode:
                sys.exit(f"parts_record.py: part {i} failed (exit {run.returncode})")
            values, record = json.loads(out), recorded[i]
            if values[:4] != record[:4]:
                sys.exit(f"parts_record.py: part {i}: boards, row sets, halves or pair tests {values[:4]} "
                         f"are not the record's {record[:4]}")
            here, there = (values[-2] + values[-1]) / 1e9, (record[-2] + record[-1]) / 1e9
            ours, theirs = ours + here, theirs + there
            print(f"part {i}: listing and joining {here:.1f} s here, {there:.1f} s recorded: {here / there:.2f}x "
                  f"({values[0]} boards)", flush=True)
    print(f"sum: {ours:.1f} s here, {theirs:.1f} s recorded: {ours / theirs:.2f}x")


if __name__ == "__main__":
    main()
