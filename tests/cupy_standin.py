"""A stand-in for CuPy, so that the GPU engine's whole path runs in CI: the
part of CuPy that ``nqueens_cp/counting/gpu.py`` uses, over the CPU.

``RawModule(code, options)`` compiles the CUDA source it is given (gpu.cu,
read by counting/gpu.py) with the options it is given (its words, its
look-ahead) as C++, with ``tests/c/cuda_shim.h`` for CUDA's qualifiers and
built-ins and ``tests/c/gpu_on_cpu.cpp`` around it, into a shared library;
a launch runs the kernel there on CPU threads, one a GPU thread, the blocks
in turn, each over a fresh stand-in for its shared memory, and fails if a
thread writes past what the launch asked for.  The arrays are NumPy's.  The
test's fixture puts this module in ``sys.modules`` as ``cupy`` and names the
folder for its builds (:data:`build_dir`).  With ``NQUEENS_STANDIN_SANITIZE=thread``
(and ThreadSanitizer's runtime preloaded) the kernels are built under
ThreadSanitizer, which then reports any two GPU threads of a block that
touch one word with no ``__syncthreads`` or atomic between them."""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy

HERE = Path(__file__).resolve().parent / "c"
MULTIPROCESSORS = 2  # the stand-in device's SMs (a launch has that many times blocks_per_sm blocks)
build_dir: Path | None = None  # where the libraries go: set by the fixture (shared by the suite's processes)
_built: dict[str, ctypes.CDLL] = {}


class ndarray(numpy.ndarray):
    """A device array: NumPy's, with CuPy's .get() (a copy on the host)."""

    def get(self) -> numpy.ndarray:
        return numpy.array(self)


def asarray(values: Any, dtype: Any = None) -> ndarray:
    return numpy.ascontiguousarray(values, dtype=dtype).view(ndarray)


def zeros(shape: Any, dtype: Any = float) -> ndarray:
    return numpy.zeros(shape, dtype=dtype).view(ndarray)


class _Device:
    id = 0
    attributes = {"MultiProcessorCount": MULTIPROCESSORS}


class cuda:  # noqa: N801 (CuPy's name)
    Device = _Device


def _flags(options: tuple[str, ...]) -> list[str]:
    """NVRTC's options as g++'s: -I, -D and --std= only (anything else is
    a new option that this stand-in must learn, not ignore)."""
    flags = []
    for option in options:
        if option.startswith(("-I", "-D")):
            flags.append(option)
        elif option.startswith("--std="):
            flags.append(option[1:])
        else:
            raise ValueError(f"the CuPy stand-in does not know NVRTC's option {option!r}")
    return flags


def library(code: str, options: tuple[str, ...] = ()) -> ctypes.CDLL:
    """The CUDA source ``code`` with ``options`` built around gpu_on_cpu.cpp, once in :data:`build_dir`:
    the suite's processes share the folder (the fixture's), the first to need a library builds it
    under a lock while the others wait for it, then each loads it (each of three processes built
    every one before: 11 of the suite's processor seconds in g++)."""
    sanitize = os.environ.get("NQUEENS_STANDIN_SANITIZE")
    key = hashlib.sha256(repr((code, options, sanitize)).encode()).hexdigest()[:16]
    if key not in _built:
        if build_dir is None:
            raise RuntimeError("the CuPy stand-in has no build folder (the test's fixture sets cupy_standin.build_dir)")
        source, built = build_dir / f"kernel-{key}.cu", build_dir / f"gpu_on_cpu-{key}.so"
        with open(build_dir / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (released as the file closes)
            if not built.exists():
                _build(code, options, sanitize, source, built)
        _built[key] = ctypes.CDLL(str(built))
    return _built[key]


def _build(code: str, options: tuple[str, ...], sanitize: str | None, source: Path, built: Path) -> None:
    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        raise RuntimeError("no C++ compiler here (g++ or clang++)")
    source.write_text(code, encoding="utf-8")
    partial = built.with_name(f".{built.name}.{os.getpid()}")  # (renamed whole into place: never read half-written)
    checked = [f"-fsanitize={sanitize}", "-g"] if sanitize else []
    result = subprocess.run([compiler, "-std=c++17", "-O2", *checked, "-Wall", "-Werror", "-shared", "-fPIC", "-pthread",
                             "-include", str(HERE / "cuda_shim.h"), f"-DKERNEL_SOURCE=\"{source}\"",
                             *_flags(options), str(HERE / "gpu_on_cpu.cpp"), "-o", str(partial)],
                            capture_output=True, text=True, timeout=300,
                            # (not the compiler under the sanitizer's runtime, preloaded for this process)
                            env={k: v for k, v in os.environ.items() if k != "LD_PRELOAD"})
    if result.returncode:
        partial.unlink(missing_ok=True)
        raise RuntimeError(f"gpu.cu did not build for the CPU: {result.stderr}")
    os.replace(partial, built)


class Function:
    """A kernel of a built module, launched as CuPy launches it."""

    def __init__(self, lib: ctypes.CDLL, name: str) -> None:
        self.launch = getattr(lib, f"launch_{name}")
        self.launch.restype = ctypes.c_char_p
        self.name = name

    def __call__(self, grid: tuple[int, ...], block: tuple[int, ...], args: tuple[Any, ...],
                 shared_mem: int = 0) -> None:
        values: list[Any] = []
        for arg in args:  # each kept alive in `values` while the kernel runs
            if isinstance(arg, numpy.ndarray):
                values.append(ctypes.c_void_p(arg.ctypes.data))
            elif isinstance(arg, numpy.int32):
                values.append(ctypes.c_int32(int(arg)))
            else:
                raise TypeError(f"the CuPy stand-in passes NumPy arrays and int32 only, not {type(arg).__name__}")
        pointers = (ctypes.c_void_p * len(values))(*(ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values))
        wrong = self.launch(int(numpy.prod(grid)), int(numpy.prod(block)), ctypes.c_longlong(shared_mem), pointers)
        if wrong:
            raise RuntimeError(f"{self.name}: {wrong.decode()}")


class RawModule:
    def __init__(self, code: str, options: tuple[str, ...] = ()) -> None:
        self.library = library(code, tuple(options))

    def get_function(self, name: str) -> Function:
        return Function(self.library, name)
