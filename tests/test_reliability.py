"""Issue 44's smaller findings, each held by a test that failed before its fix."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "prob079" / "diag-10-4-63.param"


def test_an_output_under_proc_that_cannot_be_made_is_a_usage_error(cli) -> None:
    """It exited 1 after the work; other unwritable paths exit 2 before it."""
    for argv in (("count", 8, "--checkpoint", "/proc/nqueens-none"), ("dimacs", 8, "-o", "/proc/nqueens-none.cnf"),
                 ("export", 8, "-o", "/proc/nqueens-none.lp")):
        code, out, err = cli(*argv)
        assert (code, out) == (2, "") and "nothing is made under /dev or /proc" in err and err.count("\n") == 1


def test_a_command_does_not_overwrite_its_own_input(cli, tmp_path: Path) -> None:
    same = tmp_path / "same.param"
    shutil.copy(SAMPLE, same)
    for command in (("dimacs", same, "-D", 8, "-o", same), ("export", same, "-D", 8, "-o", same, "-f", "lp")):
        code, out, err = cli(*command)
        assert code == 2 and "it is the input" in err and same.read_bytes() == SAMPLE.read_bytes()
    code, _, err = cli("dimacs", same, "-D", 8, "-o", tmp_path / "other.cnf")
    assert code == 0, err


def test_a_refused_checkpoint_says_the_real_reason(cli, tmp_path: Path) -> None:
    """count 5 --checkpoint was refused as 'not the bitmask engine, plain N', though it is both."""
    code, _, err = cli("count", 5, "--checkpoint", tmp_path / "c")
    assert code == 2 and "here N=5 is below 6" in err
    code, _, err = cli("count", 8, "-e", "sat", "--checkpoint", tmp_path / "c")
    assert code == 2 and "engine sat does not count by classes" in err


def test_trace_offers_only_what_it_takes(cli) -> None:
    """trace --help offered --block, which trace always refused."""
    code, out, _ = cli("trace", "--help")
    assert code == 0 and "--place" in out and "--block" not in out
    code, _, err = cli("trace", 4, "--block", "0:0")
    assert code == 2 and "unrecognized arguments: --block" in err
