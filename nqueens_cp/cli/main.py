"""The command line: ``nqueens-cp`` / ``python -m nqueens_cp``.

Every command is: parse, one library call, render the result, exit code.
Each command group is one module holding its parsers and their handlers
(search, crosscheck, compare, solve, cnf, export, verify, explore, engines, optimum, check, grade); this one builds
the parser of the command on the line, runs it, and turns every failure into
one line and a named exit code (cli.terminal).  Data goes to stdout,
diagnostics to stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..engines import engine_class, names
from .options import PROG, Parser
from .terminal import (EXIT_BROKEN_PIPE, EXIT_FAILURE, EXIT_HUNG_UP, EXIT_INTERRUPTED, EXIT_MODEL, EXIT_OK,
                       EXIT_TERMINATED, EXIT_UNKNOWN, EXIT_USAGE, finish, run_command, say, silence_stdout)

# The command on the line -> the module of its group (imported only when it runs: start-up);
# model is export's old name.
COMMANDS = {"enumerate": "search", "count": "search", "crosscheck": "crosscheck", "compare": "compare",
            "solve": "solve", "complete": "solve", "batch": "solve", "dimacs": "cnf", "decode": "cnf",
            "encodings": "cnf", "export": "export", "model": "export", "verify": "verify", "trace": "explore", "sample": "explore", "engines": "engines",
            "optimum": "optimum", "check": "check", "grade": "grade"}


def _main_epilog() -> str:
    engines = "\n".join(f"  {name:<13} {engine_class(name).summary}" for name in names())
    return f"""\
engines (--engine; 'nqueens-cp engines' says what each can do):
{engines}

examples:
  nqueens-cp enumerate 8                     the 92 boards, then a summary
  nqueens-cp enumerate 12 -e cpsat -f json   JSON Lines, one solution each
  nqueens-cp count 12 --engine sat --stats   14200, statistics on stderr
  nqueens-cp crosscheck 1-10                 the four core engines, exact sets
  nqueens-cp compare 4-12 --plot t.png       timings and statistics side by side
  nqueens-cp solve 80 --place 0:3,5:17 -f line   one solution keeping placed queens
  nqueens-cp dimacs 8 -o q8.cnf              DIMACS CNF for any SAT solver
  clasp -n 0 q8.cnf | nqueens-cp decode q8.cnf -   the solver's models as boards
  nqueens-cp encodings 9                     at-most-one encodings compared
  nqueens-cp export 8 -o q8.lp               the model for clingo (also .mzn .dzn .smt2 .opb .xml)
  nqueens-cp trace 4                         the textbook search, step by step
  nqueens-cp sample 16 -k 3 --seed 1         uniformly random solutions
  nqueens-cp count 13 --variant toroidal     4524: the diagonals wrap (and superqueens, rooks, semiqueens)
  nqueens-cp optimum 8                       5 queens dominate the board, proved
  nqueens-cp check my_model.py:build 1-8     your model against the reference: the first N that differs, why
  nqueens-cp grade submissions/ 1-8          a class's models, each in a sandbox: verdicts, scores, pages

exit codes:
  {EXIT_OK}    success (also when N has no solution, as N = 2 or 3)
  {EXIT_FAILURE}    failure: a cross-check disagreed, a solver failed, an input file is
       missing, unreadable or malformed, a write failed midway (a full disk,
       a closed stdout), an answer is UNSAT or invalid; solve: proven that
       no solution exists
  {EXIT_USAGE}    usage error, before any work: bad N, unknown engine or format, an
       engine that cannot run here (its package or program is missing), an
       option the engine does not take, an output path that cannot be written
  {EXIT_UNKNOWN}    solve, count, check: the time limit came before an answer
  {EXIT_MODEL}    check: the model failed (it cannot be read, raised, exited, crashed, ran
       out of memory)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C); the output so far is intact
  {EXIT_TERMINATED}  terminated (SIGTERM); no temporary file is left behind
  {EXIT_HUNG_UP}  hung up (SIGHUP: the terminal closed; under nohup it stays ignored); as for SIGTERM
  {EXIT_BROKEN_PIPE}  the reader of stdout went away (e.g. | head); nothing printed

Run 'nqueens-cp COMMAND --help' for a command's options."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every command, argument and flag, with its help.  With ``command``
    (the first word of a command line that names one), only that command:
    it parses its line exactly as the whole parser does, and costs a
    fraction of the start-up (the whole parser, with the engine list of the
    main help, took 0.05 s here)."""
    only = COMMANDS.get(command) if command else None
    parser = Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Model N-queens declaratively (CP-SAT, CNF on a SAT solver) and check it\n"
        "against hand-written search (textbook and bitwise backtracking).\n"
        "A solution is the 0-based column of the queen in each row.",
        epilog=None if only else _main_epilog(),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=Parser)
    if only:  # the command's own add_COMMAND (an old name: its module's): not its group's other commands either
        group = importlib.import_module(f".{only}", __package__)
        getattr(group, f"add_{command}", group.add)(sub)
    else:
        for module in dict.fromkeys(COMMANDS.values()):
            importlib.import_module(f".{module}", __package__).add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    _stderr_to_devnull_if_closed()
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        parser = build_parser(words[0] if words else None)
        args, extra = parser.parse_known_args(words)
        command = parser._subparsers._group_actions[0].choices[args.command]  # type: ignore[union-attr, index]
        extra = _onto_the_list(command, args, extra)
        if extra:  # named with its command, as every other usage error is
            command.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exit_:  # --help, --version and usage errors
        code = exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
        return finish(code, PROG)
    except OSError as error:  # --help or --version could not be written
        silence_stdout()
        say(f"{PROG}: cannot write output: {error.strerror or error}")
        return EXIT_FAILURE
    if sys.stdout is None:  # started with stdout closed (>&-): a usage error above comes first
        print(f"{PROG}: error: stdout is closed", file=sys.stderr)
        return EXIT_FAILURE
    with warnings.catch_warnings():  # a warning from the library is one line on stderr, like a note
        warnings.showwarning = _warning_line
        return run_command(args.handler, args, f"{PROG} {args.command}")


def _onto_the_list(command: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]) -> list[str]:
    """Options go anywhere: words left over after an option (check MODEL --variant toroidal 1-8) join the
    command's list of words (MODEL SPEC), where it has one and none of them is an option; else they are
    left over, and refused."""
    listed = [action for action in command._actions if not action.option_strings and action.nargs in ("+", "*")]
    if not extra or not listed or any(word.startswith("-") and not word[1:2].isdigit() for word in extra):
        return extra
    getattr(args, listed[-1].dest).extend(extra)
    return []


def _stderr_to_devnull_if_closed() -> None:
    """Started with stderr closed (2>&-), Python has no sys.stderr: print()
    to it would write to stdout, into the data, and the next file opened would
    take descriptor 2.  The diagnostics go to /dev/null instead; the data and
    the exit code are what they would be."""
    if sys.stderr is not None:
        return
    import os

    try:
        os.fstat(2)
    except OSError:
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 2:
            os.dup2(fd, 2)
            os.close(fd)
    sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the life of the process)


def _warning_line(message: Warning | str, category: type[Warning], *_: Any, **__: Any) -> None:
    say(f"{PROG}: warning: {message}")


def _release_semaphores() -> None:
    """The named semaphores of multiprocessing's queues (a local Dask
    cluster's, a fork server's pool) are unlinked by finalizers that run at
    a normal exit; before the immediate one below they run here, or
    multiprocessing's resource tracker, which outlives this process,
    prints a warning that 12 of them leaked."""
    if "multiprocessing" in sys.modules:
        import gc
        from multiprocessing import util

        gc.collect()  # (the queues of a cluster just closed: their finalizers run as they go)
        # those registered to run at exit (semaphores among them), as Python's own exit runs them
        util._run_finalizers(0)  # type: ignore[attr-defined]


def _deaf() -> None:
    """The command has stopped and said why: a signal that comes now (a closing terminal's SIGHUP
    and a Ctrl-C right behind it) finds nothing left to stop, and is ignored.  The command's own
    handlers are gone by then, and Python's Ctrl-C raised in the clean-up below: a traceback and
    exit -2 where "hung up" and 129 had been said, once in a suite's run."""
    import signal

    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            try:
                signal.signal(getattr(signal, name), signal.SIG_IGN)
            except ValueError:  # (not the main thread: nothing to set)
                pass


def entry() -> int:
    """The process's entry (``nqueens-cp``, ``python -m nqueens_cp``): :func:`main`, then an
    immediate exit.  After Ctrl-C, SIGTERM or SIGHUP: a native solver stopped in mid-search
    (CP-SAT's threads) can abort in its static destructors as the interpreter ends
    ("terminate called without an active exception", exit -6 in about one interrupted
    enumeration in ten); by then the command has stopped its work, closed its
    searches and pools and said so, so the process leaves without them.  After any
    other end, :func:`_leave` runs what Python's own exit runs for others, and skips
    the interpreter's teardown (20 to 35 ms of ``count 18``'s 1.4 s)."""
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl-C before the command's own handling (its parser, its imports): nothing written
        say(f"{PROG}: interrupted")
        code = EXIT_INTERRUPTED
    if code in (EXIT_INTERRUPTED, EXIT_TERMINATED, EXIT_HUNG_UP):
        _deaf()
        _release_semaphores()
        _flushed()
        os._exit(code)
    return _leave(code)


def _flushed() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # (a stream gone, closed, or None: nothing more to say)
            pass


def _leave(code: int) -> int:
    """Exit with ``code`` as Python's own exit would, without the interpreter's teardown:
    first what its exit runs for others, in its order (the threads' exit hooks, a process
    pool's among them, and every thread that is not a daemon joined; then the functions
    registered with ``atexit``: multiprocessing's finalizers, logging's flush), then the
    streams flushed (the command's output was flushed and its failure said already:
    ``finish``).  What is skipped is freeing every module and object one by one, and the
    native libraries' static destructors.  The library closes every file it writes, so no
    buffer is left to a destructor.  Where this Python lacks the hook, the exit is Python's own."""
    import atexit
    import threading

    shutdown = getattr(threading, "_shutdown", None)
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)
    if shutdown is None or run_exit_functions is None or threading.current_thread() is not threading.main_thread():
        return code
    shutdown()
    run_exit_functions()
    _flushed()
    os._exit(code)
