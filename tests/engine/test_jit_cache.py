"""numba's cache works: a second fresh process finds every kernel it needs in the cache.

``benchmarks/jit_probe.py`` imports truque_env in a new process and takes a first step on every
layer (a Table mano, VectorEnv steps, batched random manos), then lists each compiled dispatcher
with its cache hits and misses. The first run may compile (the rest of the suite may not have used
every signature yet); the second must compile nothing: a kernel whose cache entry is not found
(for example a ``cache=True`` loop taking another kernel as an argument, which numba 0.68
recompiles in every process) would show up as a miss here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = Path(__file__).parents[2] / "benchmarks" / "jit_probe.py"


def _probe() -> dict:
    out = subprocess.run([sys.executable, str(PROBE)], capture_output=True, text=True, check=True,
                         cwd=PROBE.parents[1])
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_process_finds_every_kernel_in_the_cache():
    _probe()  # warm the cache for whatever this run has not compiled yet
    second = _probe()
    kernels = second["kernels"]
    assert len(kernels) >= 8, kernels  # the Table, VectorEnv and batch kernels were all used
    missed = [k["kernel"] for k in kernels if k["cache_misses"]]
    assert not missed, f"compiled again in a fresh process: {missed}"
    assert all(k["cache_hits"] >= k["signatures"] for k in kernels)
