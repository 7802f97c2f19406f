"""`crosscheck 14`, all four engines with exact set comparison:
wall time and peak resident memory, measured by /usr/bin/time -v.

    python benchmarks/crosscheck_scale.py [N] [extra crosscheck arguments...]
"""

from __future__ import annotations

import re
import subprocess
import sys

from common import ROOT, nqueens


def main() -> None:
    n = sys.argv[1] if len(sys.argv) > 1 else "14"
    command = ["/usr/bin/time", "-v", *nqueens("crosscheck", n, *sys.argv[2:])]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    print(result.stdout, end="")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (.+)", result.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    print(f"\ncrosscheck {n} {' '.join(sys.argv[2:])}: exit {result.returncode}, "
          f"wall {wall.group(1) if wall else '?'}, peak RSS {int(rss.group(1)) / 1024:.0f} MB" if rss else "")
    print("(peak RSS is the largest single process: the parent or one worker)")
    if result.returncode:
        print(result.stderr[-2000:], file=sys.stderr)
        raise SystemExit(result.returncode)


if __name__ == "__main__":
    main()
