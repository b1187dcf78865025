"""One fresh process: import truque_env, take a first step on every layer, report the kernels.

Run as a script (``python benchmarks/jit_probe.py``); prints one JSON line:

* ``import_seconds``: ``import truque_env``;
* ``first_step_seconds``: from the start to the end of the first steps below, in every registered
  tradition (a Table mano, a VectorEnv reset and steps, a batch of random manos), so compiling
  or loading every kernel they use is included;
* ``kernels``: every numba dispatcher of truque_env that holds a compiled signature, with its
  cache hits and misses in this process (a miss is a compilation).

Used by tests/engine/test_jit_cache.py (a second process must find every kernel in the cache) and by
benchmarks/bench_startup.py (cold and warm start-up times).
"""

from __future__ import annotations

import json
import sys
import time

t0 = time.perf_counter()
import numba  # noqa: E402
import numpy as np  # noqa: E402

import truque_env  # noqa: E402, F401  (timed: the import itself)

t_import = time.perf_counter() - t0

from truque_env import Table, VectorEnv  # noqa: E402
from truque_env.traditions import get as get_tradition  # noqa: E402


def first_steps(tradition: str) -> None:
    spec = get_tradition(tradition)
    B, L = spec.batch, spec.layout
    size = 2 if 2 in spec.team_sizes else spec.team_sizes[0]
    t = Table(tradition=tradition, team_size=size, seed=1)
    t.deal()
    while not t.done:
        t.act(t.legal_ids()[0])
    env = VectorEnv(8, tradition=tradition, team_size=size, seed=1)
    env.reset()
    rng = np.arange(8, dtype=np.int64)
    for _ in range(20):
        env.step(env.sample_actions(rng))
    states = np.zeros((4, L.STATE_SIZE), dtype=L.STATE_DTYPE)
    B.init_tables(states, size, spec.default_target, 3, 1, 100, np.arange(4, dtype=np.int64))
    stats = np.zeros((4, B.NUM_STATS), dtype=np.int64)
    B.random_manos(states, np.full(4, 2, dtype=np.int64), np.arange(4, dtype=np.int64), stats)


def kernels() -> list[dict]:
    out = []
    for name, mod in sorted(sys.modules.items()):
        if not name.startswith("truque_env") or mod is None:
            continue
        for attr, obj in vars(mod).items():
            if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.__module__ == name and obj.signatures:
                out.append({"kernel": f"{name}.{attr}", "signatures": len(obj.signatures),
                            "cache_hits": int(sum(obj.stats.cache_hits.values())),
                            "cache_misses": int(sum(obj.stats.cache_misses.values()))})
    return out


if __name__ == "__main__":
    for name in truque_env.traditions():  # every registered tradition is cached
        first_steps(name)
    seconds = time.perf_counter() - t0
    print(json.dumps({"import_seconds": t_import, "first_step_seconds": seconds,
                      "cache_dir": numba.config.CACHE_DIR, "kernels": kernels()}))
