"""The command line, engines: what each engine can do, and whether it runs here."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engines import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, engine_class, names
from .options import RESULT_FORMATS, add_format, json_text
from .terminal import EXIT_OK, CtrlC, say


def add_engines(sub: Any) -> None:
    p = sub.add_parser("engines", help="list the engines, what each can do and whether it can run here",
                       description="List every engine: whether it is available here, whether it enumerates "
                       "(and so counts and cross-checks), whether its 'none' is a proof, whether it takes "
                       "pre-placed queens, its own options, and what it is.")
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_engines)


def _cmd_engines(args: argparse.Namespace) -> int:
    from ..studies.reporting import engines_table

    engines = [engine_class(name).capabilities() for name in names()]  # (the registry as it is now)
    found = {"default": DEFAULT_ENGINE, "engines": engines}
    CtrlC.write(sys.stdout, (json_text(found) if args.format == "json" else engines_table(engines, DEFAULT_ENGINE)) + "\n")
    if args.format == "text":
        say(f"* the default engine (solve defaults to {DEFAULT_SOLVE_ENGINE} up to N=100, then chooses by N)")
    return EXIT_OK


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_engines(sub)
