"""What this machine and this process can give a count or a search: memory.

Sizes are checked against these before any work, so that a question too
big for the process is one line (a usage error) and not a MemoryError in
a worker.
"""

from __future__ import annotations

import os


def physical_memory() -> int | None:
    """The machine's memory in bytes, or None where it cannot be known."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # (no such names here)
        return None


def available_memory() -> int | None:
    """The bytes this process can have now: what the machine can give without
    swapping (/proc/meminfo's MemAvailable), and no more than its
    address-space limit leaves (``ulimit -v``, ``prlimit --as``: the limit
    less the address space already mapped); None where neither is known."""
    known = [value for value in (_proc_kib("/proc/meminfo", "MemAvailable:"), address_space_left())
             if value is not None]
    return min(known) if known else None


def address_space_left() -> int | None:
    """The bytes of address space this process may still map under its
    limit (RLIMIT_AS), or None where there is no limit (or no way to know).
    A worker process inherits the limit, with less already mapped."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, ValueError, OSError):
        return None
    if soft == resource.RLIM_INFINITY:
        return None
    return max(soft - (mapped() or 0), 0)


def mapped() -> int | None:
    """The bytes of address space this process has mapped now (Linux's VmSize), or None where unknown."""
    return _proc_kib("/proc/self/status", "VmSize:")


def _proc_kib(path: str, field: str) -> int | None:
    """A field of a /proc file given in kB, as bytes; None where it cannot be read."""
    try:
        with open(path, encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None
