"""Start-up cost: ``import truque_env`` plus a first step on every layer, in a fresh process.

* ``cold``: an empty numba cache folder (``NUMBA_CACHE_DIR`` set to a new temporary folder): every
  kernel the first steps use is compiled;
* ``warm``: the same folder again, now filled: every kernel is loaded from the cache.

Each figure is the median of ``--repeats`` fresh processes (``benchmarks/jit_probe.py``). The load
average (``os.getloadavg()``) before and after is recorded: a figure taken while another job shared
the cores is not a figure. Writes JSON (default ``benchmarks/results/bench_startup.json``).

    python benchmarks/bench_startup.py              # 3 cold and 5 warm processes, a few minutes
    python benchmarks/bench_startup.py --repeats 1  # one of each
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from truque_env.io import check_new_output, write_json_atomic  # noqa: E402


def _probe(cache_dir: Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)}
    out = subprocess.run([sys.executable, str(HERE / "jit_probe.py")], capture_output=True, text=True, check=True,
                         env=env, cwd=HERE.parent)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="cold processes (twice as many warm ones, at least 1)")
    ap.add_argument("--out", type=Path, default=HERE / "results" / "bench_startup.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        raise ValueError(f"--repeats must be at least 1, got {args.repeats}")
    check_new_output(args.out, args.overwrite)  # before any measuring
    load_before = os.getloadavg()
    cold, warm = [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="truque-numba-") as tmp:
            cold.append(_probe(Path(tmp)))
            warm += [_probe(Path(tmp)) for _ in range(2)]
    summary = {
        name: {"import_seconds": statistics.median(r["import_seconds"] for r in runs),
               "first_step_seconds": statistics.median(r["first_step_seconds"] for r in runs),
               "kernels": len(runs[-1]["kernels"]),
               "cache_misses": [sum(k["cache_misses"] for k in r["kernels"]) for r in runs],
               "processes": len(runs)}
        for name, runs in (("cold", cold), ("warm", warm))
    }
    result = {"benchmark": "startup", "python": platform.python_version(), "cpu_count": os.cpu_count(),
              "load_average_before": load_before, "load_average_after": os.getloadavg(), **summary}
    write_json_atomic(args.out, result)
    for name in ("cold", "warm"):
        s = summary[name]
        print(f"{name}: import {s['import_seconds']:.2f} s, import + first steps {s['first_step_seconds']:.2f} s "
              f"(median of {s['processes']}; compiled {s['cache_misses']})")
    print(f"load average before {load_before}, after {result['load_average_after']}; wrote {args.out}")
    return result


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
