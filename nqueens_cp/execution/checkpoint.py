"""Checkpoints of long counts: finished tasks recorded as they finish, durably.

The file is JSON Lines.  The first line says what is counted (N, the method,
the number of tasks and their size); a checkpoint of anything else is
refused.  Each further line is one finished task, with a CRC-32 of its
content, written, flushed and fsync'ed before the next.  What guards what:

- A crash can only leave a line half-written or damaged: it fails to parse
  or its CRC does not match, it is dropped (and the file cut back to the
  good lines), and that task is counted again.
- A line whose numbers cannot be a task's of this count (the caller's
  ``valid``: a count larger than the task could hold, say) is dropped the
  same way.
- A second record of a task, equal or not (the file copied onto itself, two
  runs appended), refuses the whole file, naming the line: which of the two
  to believe is not ours to guess.
- A CRC cannot tell a right line from a wrong one written with its checksum
  (by hand, or by another program): on resuming, the execution layer counts
  a few records again, chosen at random (``tasks.RECOUNTED``), and refuses
  the file if one differs.  A file with one wrong record among M is caught
  with probability RECOUNTED / M; a checkpoint is a convenience of the
  owner's, not a certificate (``--certificate`` is that).

One count holds the file at a time (an exclusive lock): a second is refused.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import NQueensError

FORMAT = 2  # 2: a task's line holds a list of numbers (1 held a count and nodes)


def _crc(task: int, values: Sequence[int]) -> int:
    return zlib.crc32(":".join(map(str, (task, *values))).encode())


class Checkpoint:
    """Finished tasks of one count, read from ``path`` and appended to it."""

    def __init__(self, path: str, key: dict[str, Any],
                 valid: Callable[[tuple[int, ...]], bool] | None = None) -> None:
        self.path = path
        self.key = {"nqueens_cp_checkpoint": FORMAT, **key}
        self.valid = valid or (lambda values: True)
        self.done: dict[int, tuple[int, ...]] = {}
        existed = os.path.exists(path)
        if not existed:
            from ..files import atomic_write_text

            atomic_write_text(path, json.dumps(self.key) + "\n")
        try:
            self._out = open(path, "a", encoding="ascii")  # noqa: SIM115 - closed by close()
        except OSError as error:
            raise NQueensError(f"cannot write checkpoint {path}: {error.strerror or error}") from None
        self._lock()
        if existed:
            try:
                self._read()
            except BaseException:
                self._out.close()
                raise

    def _lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # (not POSIX: no lock)
            return
        try:
            fcntl.flock(self._out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._out.close()
            raise NQueensError(f"checkpoint {self.path} is in use by another count: refused (wait for it to "
                               "finish, or use another file)") from None

    def _read(self) -> None:
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise NQueensError(f"cannot read checkpoint {self.path}: {error.strerror or error}") from None
        lines = data.split(b"\n")
        try:
            header = json.loads(lines[0])
        except (ValueError, RecursionError):
            raise NQueensError(f"checkpoint {self.path}: line 1 is not a checkpoint header") from None
        if header != self.key:
            differ = [k for k in self.key if k != "nqueens_cp_checkpoint" and
                      (not isinstance(header, dict) or header.get(k) != self.key[k])]
            if not differ or (isinstance(header, dict) and all(k not in header for k in differ)):
                # (the version or other keys differ, or the keys are missing: "is for , not :" said nothing)
                raise NQueensError(f"checkpoint {self.path}: line 1 is not the header of this format "
                                   f"({json.dumps(self.key)}): refused (use another file)")
            want = ", ".join(f"{k}={self.key[k]}" for k in differ)
            have = ", ".join(f"{k}={header.get(k)}" for k in differ) if isinstance(header, dict) else repr(header)
            raise NQueensError(f"checkpoint {self.path} is for {have}, not {want}: refused (use another file)")
        records = lines[1:-1] if not lines[-1] else lines[1:]  # (the file ends in a newline: nothing after it)
        kept = [lines[0]]
        seen: set[int] = set()
        for number, raw in enumerate(records, 2):
            try:
                record = json.loads(raw)
                task, values = record["task"], tuple(record["values"])
                whole = raw.endswith(b"}") and record["crc"] == _crc(task, values) \
                    and type(task) is int and all(type(v) is int for v in values)
            except (ValueError, KeyError, TypeError, RecursionError):
                whole = False
            if not whole:
                continue  # a half-written or damaged record: skipped (the rest are kept), its task counted again
            if task in seen:
                raise NQueensError(f"checkpoint {self.path}: line {number} is a second record of task {task}: "
                                   "refused (a file copied onto itself, or two runs appended?  use another file)")
            seen.add(task)
            kept.append(raw)
            if 0 <= task < self.key["tasks"] and self.valid(values):
                self.done[task] = values  # (else not a record of this count: dropped, its task counted again)
        if len(kept) - 1 < len(records):
            # Rewritten in place without the records skipped (under the lock): a later run reads only good ones.
            with open(self.path, "r+b") as handle:
                handle.write(b"\n".join(kept) + b"\n")
                handle.truncate()


    def record(self, task: int, values: Sequence[int]) -> None:
        """Task ``task`` is finished with these numbers (the same method, the same numbers)."""
        values = tuple(values)
        line = json.dumps({"task": task, "values": list(values), "crc": _crc(task, values)})
        try:
            self._out.write(line + "\n")
            self._out.flush()
            os.fsync(self._out.fileno())
        except OSError as error:
            raise NQueensError(f"cannot write checkpoint {self.path}: {error.strerror or error}") from None
        self.done[task] = values

    def close(self) -> None:
        self._out.close()

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
