#!/usr/bin/env bash
# Everything issues 54 and 66 ask of a lent GPU machine, in one call: a bare machine
# with CUDA, CuPy and NumPy, none of the package's other dependencies, and no
# registry to install them from (the count needs none of them).  From the
# repository's root, on that machine:
#
#     bash benchmarks/gpu_machine.sh OUT [SECONDS]
#
# 1. the machine: its GPU, driver, Python and CuPy;
# 2. the C kernel built in place for that Python (where it cannot be, the
#    work items are listed by its Python twin), and the GPU kernel compiled
#    and launched once at N = 8 against the CPU kernel;
# 3. the join's pair tests on this GPU (benchmarks/gpu_pairs.py);
# 4. tests/test_gpu.py, the launch tests included (all but the one that lists
#    every engine: the declarative ones need OR-Tools, absent there);
# 5. benchmarks/gpu.py: the launches alone at 19, every item by count_items
#    in each of its shapes (32- and 64-bit words), then the plain items by
#    count_plain with and without the look-ahead in each of its shapes
#    beside the items to class (issue 66: which pays); N = 4..18 against
#    A000170 and A002562, then N = 19, 20 and 21 end to end, each left out
#    if it would end past half of SECONDS from the start (default 420);
# 6. benchmarks/gpu_join.py: counts by quarters with the join on the device,
#    N = 4..16, against the published ones; the join of a sample of N = 20's
#    parts in each of its shapes beside one CPU core; N = 19 to 21 end to
#    end, the join beside the walk, each left out if it would end past
#    SECONDS.
#
# Everything printed is also in OUT/log.
set -uo pipefail
out=${1:?usage: bash benchmarks/gpu_machine.sh OUT [SECONDS]}
budget=${2:-420}
mkdir -p "$out"
exec > >(tee "$out/log") 2>&1
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1

echo "== the machine"
date -u
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
ls /dev/nvidia*
python3 --version
python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)" || exit 1
nproc

echo "== the C kernel, built in place for this Python"
include=$(python3 -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$(python3 -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
gcc -O3 -shared -fPIC -I"$include" nqueens_cp/kernel/{search,decide,dominate,repair,join,module}.c \
    -o "nqueens_cp/kernel/_search$suffix"
python3 -c "from nqueens_cp import kernel; print('C kernel loaded:', kernel.compiled())"

echo "== the GPU kernel compiled and launched once, N = 8, in this process (NVRTC's log, if any, in full)"
python3 - <<'PY' || exit 1
from nqueens_cp.counting import classes, gpu
items = gpu.work_items(8, classes.sub_boards(8))
found = gpu.totals(gpu.launcher(items)(gpu.biggest_first(items, gpu.depth(8))))
want = gpu.count_items_on_cpu(items)
print("GPU, count_items", found, "CPU", want)
assert found == want, "the GPU's totals differ from the CPU kernel's"
ahead = gpu.count_sub_boards(8, classes.sub_boards(8), plain=gpu.Plain(ahead=True))
print("GPU, count_plain looking ahead and count_items", ahead)
assert ahead == want, "count_plain's totals (looking ahead, as the CPU does) differ from the CPU kernel's"
PY

echo "== the join of quarters on the device, N = 8 and 9, its halves listed on the host and on the device"
python3 - <<'PY' || exit 1
from nqueens_cp.counting import gpu_join, join
for n, want in ((8, 92), (9, 352)):
    for listing in ("host", "device"):
        shape = gpu_join.Shape(listing=listing)
        found = sum(gpu_join.count_part(n, part, shape)[0] for part in join.parts(n))
        print(f"GPU join of quarters, N = {n}, halves listed on the {listing}:", found, "published", want)
        assert found == want, "the GPU's join differs from the published count"
PY

echo "== would the join of quarters pay: its pair tests on this GPU (benchmarks/gpu_pairs.py)"
timeout 60 python3 benchmarks/gpu_pairs.py

echo "== tests/test_gpu.py and tests/test_gpu_join.py"
# (-o addopts=: pyproject's -n needs pytest-xdist, which such a machine may lack)
timeout 200 python3 -m pytest -q -o addopts= -p no:cacheprovider tests/test_gpu.py tests/test_gpu_join.py -k "not experimental" \
    2>&1 | tail -25

half=$((budget / 2 - SECONDS))
((half < 60)) && half=60  # (the walk's sweep at 19 needs about a minute whatever is left)
echo "== benchmarks/gpu.py ($((budget - SECONDS)) s left, $half s of them its own)"
timeout $((half + 30)) python3 benchmarks/gpu.py --exact 4-18 --shapes 19 --sizes 19-21 --cpu-max 0 --repeat 1 \
    --budget $half
echo "== benchmarks/gpu.py exit $? at $SECONDS s; benchmarks/gpu_join.py ($((budget - SECONDS)) s left)"
left=$((budget - SECONDS))
((left < 60)) && left=60
timeout $((left + 30)) python3 benchmarks/gpu_join.py --exact 4-16 --n 20 --parts 8 --sizes 19-21 \
    --budget $left
echo "== done in $SECONDS s, benchmarks/gpu_join.py exit $?"
