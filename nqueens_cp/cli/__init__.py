"""The command line: ``nqueens-cp`` / ``python -m nqueens_cp`` (main), its
grammar (grammar) and its output discipline (terminal)."""

from .main import main

__all__ = ["main"]
