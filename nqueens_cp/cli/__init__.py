"""The command line: ``nqueens-cp`` / ``python -m nqueens_cp`` (main), its
groups of commands (search, crosscheck, compare, solve, cnf, explore, engines: each
module its parsers and their handlers), the shared options, and the output
discipline (terminal)."""

from .main import main

__all__ = ["main"]
