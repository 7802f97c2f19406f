"""Output paths a user can name: regular files are replaced atomically, keep
their mode, and leave nothing behind when the program is stopped; anything
else (a device, a FIFO, /dev/stdout, a symlink loop) is written in place or
refused, never renamed over.  One table; each case says what it expects."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from pathlib import Path

import pytest

from conftest import CLI
from nqueens_cp.files import is_stream

Q8_HEADER = "c nqueens n=8 encoding=pairwise"


def _fifo(tmp_path: Path) -> tuple[str, list[str], threading.Thread]:
    """A FIFO with a reader: what the reader got comes back in the list once
    the thread ends (at the writer's end of file)."""
    fifo = tmp_path / "pipe.cnf"
    os.mkfifo(fifo)
    got: list[str] = []

    def read() -> None:
        with open(fifo, encoding="ascii") as reader:
            got.append(reader.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return str(fifo), got, reader


def test_streams_are_recognised_without_touching_them(tmp_path: Path) -> None:
    assert is_stream("-") and is_stream("/dev/null") and is_stream("/dev/stdout")
    regular = tmp_path / "f.cnf"
    assert not is_stream(regular)
    regular.write_text("x")
    assert not is_stream(regular)


@pytest.mark.parametrize("case", ["fifo", "dev-null", "dev-stdout", "dash", "symlink-loop", "mode-kept",
                                  "read-only", "proof-beside-users-cnf", "proof-to-a-device", "proof-twice"])
def test_output_paths(cli, tmp_path: Path, case: str) -> None:
    if case == "fifo":
        fifo, got, reader = _fifo(tmp_path)
        code, _, err = cli("dimacs", "8", "-o", fifo)
        assert code == 0, err
        reader.join(timeout=60)
        assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got and got[0].startswith(Q8_HEADER)
    elif case == "dev-null":
        assert is_stream("/dev/null")  # (else the write below would replace it: stop here)
        code, _, err = cli("dimacs", "8", "-o", "/dev/null")
        assert code == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode), err
    elif case in ("dev-stdout", "dash"):
        target = "/dev/stdout" if case == "dev-stdout" else "-"
        out = subprocess.run([*CLI, "dimacs", "8", "-o", target], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and out.stdout.startswith(Q8_HEADER), out.stderr
    elif case == "symlink-loop":
        loop = tmp_path / "loop.cnf"
        loop.symlink_to(loop)
        code, out, err = cli("dimacs", "8", "-o", loop)
        assert code in (1, 2) and out == "" and err.count("\n") == 1 and "symbolic links" in err
        assert loop.is_symlink()
    elif case == "mode-kept":
        target = tmp_path / "q8.cnf"
        target.write_text("old")
        target.chmod(0o640)
        code, _, _ = cli("dimacs", "8", "-o", target)
        assert code == 0 and stat.S_IMODE(target.stat().st_mode) == 0o640
        assert target.read_text().startswith(Q8_HEADER)
    elif case == "read-only":
        target = tmp_path / "q8.cnf"
        target.write_text("keep me")
        target.chmod(0o444)
        code, _, err = cli("dimacs", "8", "-o", target)
        if os.access(target, os.W_OK):  # root may write anything: the mode at least is kept
            assert code == 0 and stat.S_IMODE(target.stat().st_mode) == 0o444
        else:
            assert code == 2 and "permission denied" in err and target.read_text() == "keep me"
    elif case in ("proof-beside-users-cnf", "proof-to-a-device", "proof-twice"):
        pytest.importorskip("pysat", reason="python-sat is not installed")
        instance = Path(__file__).parent / "data" / "prob079" / "diag-10-4-63.param"  # none at D = 8
        proof = "/dev/full" if case == "proof-to-a-device" else str(tmp_path / "mine.drat")
        users = tmp_path / "mine.cnf"
        if case == "proof-beside-users-cnf":
            users.write_text("p cnf 1 1\n1 0\n")
        runs = 2 if case == "proof-twice" else 1
        for _ in range(runs):
            code, _, err = cli("solve", instance, "-D", "8", "-e", "sat", "--proof", proof)
        if case == "proof-to-a-device":
            assert code == 2 and "name a file" in err and not Path("/dev/full.cnf").exists()
        elif case == "proof-beside-users-cnf":
            assert code == 2 and "not a CNF of ours" in err and users.read_text() == "p cnf 1 1\n1 0\n"
        else:  # our own CNF from the first run is replaced by the second
            assert code == 1 and users.read_text().startswith("c nqueens n=10"), err


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal to see progress")
def test_sigterm_leaves_no_temporary_file(tmp_path: Path) -> None:
    """SIGTERM in the middle of a long write: the temporary file is removed
    and the exit is 143.  Waits on the event itself: progress on a terminal."""
    import pty
    import select

    master, terminal = pty.openpty()
    proc = subprocess.Popen([*CLI, "dimacs", "400", "-o", str(tmp_path / "big.cnf")], stdout=subprocess.DEVNULL,
                            stderr=terminal, cwd=tmp_path)
    os.close(terminal)
    try:
        seen = b""
        while b"dimacs: " not in seen:  # (the progress line, not the note before it)
            ready, _, _ = select.select([master], [], [], 120)
            assert ready, f"no progress within 120 s: {seen!r}"
            seen += os.read(master, 4096)
        assert any(p.name.startswith(".big.cnf.") for p in tmp_path.iterdir())  # being written
        proc.terminate()
        assert proc.wait(timeout=60) == 143
        assert list(tmp_path.iterdir()) == [], list(tmp_path.iterdir())
    finally:
        proc.kill()
        os.close(master)
