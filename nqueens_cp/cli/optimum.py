"""The command line, optimum: the fewest queens that dominate the board."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engines import names
from .options import (PROG, RESULT_FORMATS, add_engine, add_engine_options, add_format, add_lrat, add_n, add_variant,
                      engine_options, json_text, lrat_needs_certificate, positive_float, stats_line)
from .terminal import EXIT_OK, EXIT_UNKNOWN, CtrlC, Progress, say


def add_optimum(sub: Any) -> None:
    chosen = names(variant="domination")
    p = sub.add_parser(
        "optimum", help="the fewest queens that occupy or attack every square (queen domination)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The fewest queens that occupy or attack every square of the N x N board (--variant\n"
        "domination, OEIS A075458), or that do so without attacking each other (--variant\n"
        "independent, A075324), proved optimal: by the solver's proof of optimality, or by a\n"
        "search that shows one queen fewer cannot.  Text: the number, then the board; exit 3\n"
        "when the time limit came before the proof (the best found is printed, 'not proved').",
        epilog="examples:\n"
        "  nqueens-cp optimum 8                          5, and five queens that dominate\n"
        "  nqueens-cp optimum 8 --variant independent -e cpsat -f json\n"
        "  nqueens-cp optimum 14 -e sat --time-limit 10  (MaxSAT, RC2)",
    )
    add_n(p)
    add_variant(p, optimum=True)
    add_engine(p, chosen, "bitmask", "a branch and bound in C")
    add_engine_options(p, chosen, solving=True, optimum=True)
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop after SEC seconds: the best found, not proved, exit 3")
    add_format(p, RESULT_FORMATS)
    p.add_argument("--certificate", metavar="DIR",
                   help="also write a certificate into the new directory DIR: the question, the witness, the CNF of "
                   "one queen fewer and CaDiCaL's DRAT proof that it has no model; 'nqueens-cp verify DIR' checks it "
                   "(docs/certificates.md)")
    add_lrat(p)
    p.add_argument("--stats", action="store_true", help="print the engine's statistics on stderr")
    p.set_defaults(handler=_cmd_optimum)


def _cmd_optimum(args: argparse.Namespace) -> int:
    from ..execution.run import optimum

    lrat_needs_certificate(args)
    certified = None
    if args.certificate is not None:
        from ..certificates import certify_optimum

        certified = certify_optimum(args.n, args.certificate, args.variant, args.engine, time_limit=args.time_limit,
                                    lrat=args.lrat, **engine_options(args))
        result = certified.optimum
    else:
        progress = Progress.make(f"optimum {args.n}")
        try:
            result = optimum(args.n, args.variant, args.engine, time_limit=args.time_limit,
                             notify=lambda note: say(f"{PROG}: note: {note}"),
                             progress=progress.standing if progress else None, **engine_options(args))
        finally:
            if progress:
                progress.clear()
    if args.format == "json":
        text = json_text(certified or result) + "\n"
    elif result.size is None:
        text = f"unknown (at least {result.bound})\n"
    else:
        proof = "" if result.proved else f" (not proved: at least {result.bound})"
        text = f"{result.size}{proof}\n{result.board()}\n"
    CtrlC.write(sys.stdout, text)
    say(f"{args.variant} N={args.n}: {result.status}, {result.reason} (engine {args.engine}, {result.seconds:.2f} s)")
    if certified is not None:
        say(f"certificate in {certified.directory} ('verify {certified.directory}' checks it)")
    if args.stats:
        say(stats_line(result.stats))
    return EXIT_OK if result.proved else EXIT_UNKNOWN


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_optimum(sub)
