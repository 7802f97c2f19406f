"""The command line, verify: a certificate of a count or an optimum checked, trusting none of it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .options import json_text
from .terminal import EXIT_FAILURE, EXIT_OK, CtrlC


def add_verify(sub: Any) -> None:
    p = sub.add_parser(
        "verify", help="check a certificate of a count or an optimum (--certificate DIR), trusting none of it",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Check a certificate written by 'count --certificate DIR' or 'enumerate --certificate DIR':\n"
        "the files against the manifest's hashes; the CNF made again from the question; every board\n"
        "through the independent validator, distinct, and a model of the CNF (checked by substitution);\n"
        "and the DRAT proof that the CNF with every board blocked has no model, by drat-trim.  Then\n"
        "the count is exact; the symmetry classes follow from the boards (docs/certificates.md).\n"
        "Or one written by 'optimum N --variant domination|independent --certificate DIR': the witness\n"
        "through the variant's validator (every square covered; for independent, no queen attacking\n"
        "another), and the DRAT proof that the CNF of one queen fewer has no model.  Then the optimum\n"
        "is exact.",
        epilog="exit codes: 0 certified; 1 not certified (the first thing that fails is named); 2 usage.\n"
        "examples: nqueens-cp count 10 --certificate c10 && nqueens-cp verify c10\n"
        "          nqueens-cp optimum 8 --certificate g8 && nqueens-cp verify g8",
    )
    p.add_argument("directory", metavar="DIR", help="the certificate's directory")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text", help="text (default) or json")
    p.set_defaults(handler=_cmd_verify)


def _cmd_verify(args: argparse.Namespace) -> int:
    from ..certificates import verify

    found = verify(args.directory)
    CtrlC.write(sys.stdout, (json_text(found) if args.format == "json" else str(found)) + "\n")
    return EXIT_OK if found.certified else EXIT_FAILURE


def add(sub: Any) -> None:
    """The command of this module, onto the main parser's subcommands."""
    add_verify(sub)
