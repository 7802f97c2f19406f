"""What validating every board costs: `enumerate N -f line` as shipped (each
board, and each mirror image the split search adds, through the question's
validator, a block of boards at a time in NumPy in the workers; one at a time
in this process with --jobs 1) beside the same command with the validator
switched off in that process and its workers (a patch in this benchmark
only).  Medians of alternating runs, output checked; the issue's target is
under 5 % on `enumerate 14 -f line > /dev/null`.

    python benchmarks/validation.py [N] [--repeat R]
"""

from __future__ import annotations

import argparse

from common import PYTHON, Side, alternate, report

from nqueens_cp.known import TOTAL

OFF = ("from nqueens_cp.execution import parallel; "
       "parallel.Validator.__call__ = lambda self, board, image='': None; "
       "parallel.Validator.first_invalid = lambda self, boards, images=None, image='': None; ")


def command(n: int, jobs: str | None, validate: bool) -> list[str]:
    argv = ["enumerate", str(n), "-f", "line", *(["--jobs", jobs] if jobs else [])]
    return [PYTHON, "-c", (OFF if not validate else "") + "import sys; from nqueens_cp.cli.main import main; "
            f"sys.exit(main({argv!r}))"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, nargs="?", default=14)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    def every_board(out: str) -> bool:
        return out.count("\n") == TOTAL[args.n]

    for jobs, where in ((None, "all cores: validated in the workers"), ("1", "--jobs 1: validated here")):
        on = Side(f"validated ({'-j ' + jobs if jobs else 'all cores'})", command(args.n, jobs, True), every_board)
        off = Side(f"not validated ({'-j ' + jobs if jobs else 'all cores'})", command(args.n, jobs, False),
                   every_board)
        alternate([on, off], args.repeat)
        report(f"enumerate {args.n} -f line, {where} (target: under 1.05x)", [on, off], off)


if __name__ == "__main__":
    main()
