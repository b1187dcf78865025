"""Throughput beside a co-tenant: the vector env and PPO training, alone and with another
CPU-bound process on the same cores, under each threading setting (issue 15.8).

numba's and torch's OpenMP threads spin at their barriers by default: on a 2-core machine shared
with another busy process, a thread that lost its time slice keeps the others spinning, and a
parallel region takes many times longer. Each setting below is a set of environment variables
given to a fresh process (they are read when the thread pools start):

* ``default``: the libraries' own defaults, as a bare ``python`` runs them;
* ``truque``: nothing set: the co-tenant watch of truque_env (truque_env/threads.py);
* ``passive``: ``OMP_WAIT_POLICY=PASSIVE`` (waiting threads sleep instead of spinning; both
  numba's OpenMP layer and torch's read it);
* ``spin_1k`` .. ``spin_100k``: ``GOMP_SPINCOUNT``, how many times a waiting thread spins before it
  sleeps (GNU OpenMP's default when nothing is set is 300,000; ``PASSIVE`` is 0);
* ``workqueue``: numba's own ``workqueue`` threading layer (torch keeps OpenMP, spinning);
* ``one_thread``: one numba thread and one torch thread (nothing to wait for, one core used);
* ``torch1``, ``passive_torch1``, ``spin_1k_torch1``: the trainer's torch on one thread
  (``torch_threads = 1``), numba on two, waiting as named.

``truque`` is what a user gets: the libraries' spinning threads, and the co-tenant watch of
truque_env/threads.py, which drops to the threads the cores can hold while others are busy;
``default`` turns the watch off (``TRUQUE_THREADS=library``).

For each setting the two workloads run alone, then with ``--cotenant`` processes busy-looping
(one by default: another single-threaded job); each figure is the median of its timed repeats,
after a warm-up (JIT compilation excluded). Before each figure the load average and the share
of the CPU busy over one second are recorded (a solo figure taken with the machine busy is not
a solo figure; the load average lags by a minute, the busy share does not) and the ratio
``with co-tenant / alone`` is reported per setting. Writes JSON atomically (default
``benchmarks/results/bench_cotenant.json``).

    python benchmarks/bench_cotenant.py --settings default truque passive --rounds 3   # about 10 minutes
    python benchmarks/bench_cotenant.py            # every setting, about 15 minutes
    python benchmarks/bench_cotenant.py --quick    # about 1 minute
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SETTINGS = {
    "default": {"TRUQUE_THREADS": "library"},
    "truque": {},
    "passive": {"OMP_WAIT_POLICY": "PASSIVE"},
    "spin_1k": {"GOMP_SPINCOUNT": "1000"},
    "spin_3k": {"GOMP_SPINCOUNT": "3000"},
    "spin_10k": {"GOMP_SPINCOUNT": "10000"},
    "spin_100k": {"GOMP_SPINCOUNT": "100000"},
    "workqueue": {"NUMBA_THREADING_LAYER": "workqueue"},
    "one_thread": {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
    "passive_torch1": {"OMP_WAIT_POLICY": "PASSIVE", "BENCH_TORCH_THREADS": "1"},
    "spin_1k_torch1": {"GOMP_SPINCOUNT": "1000", "BENCH_TORCH_THREADS": "1"},
    "torch1": {"BENCH_TORCH_THREADS": "1"},
}
# the settings that come from the environment and that truque_env itself may set: a child starts
# from an environment without them, then adds its setting's
THREAD_VARIABLES = ("OMP_WAIT_POLICY", "NUMBA_THREADING_LAYER", "NUMBA_NUM_THREADS", "OMP_NUM_THREADS",
                    "MKL_NUM_THREADS", "GOMP_SPINCOUNT", "TRUQUE_THREADS", "BENCH_TORCH_THREADS")

# a busy loop that ends when the benchmark does (killed or not): its parent is checked now and then
BUSY = "import os\nparent = os.getppid()\nwhile os.getppid() == parent:\n    for _ in range(100_000):\n        pass\n"


def child(what: str, quick: bool) -> dict:
    """One workload in this process: its median rate (decisions per second)."""
    import statistics

    import numba
    import numpy as np
    import torch

    if what == "vector":
        from truque_env.vector import VectorEnv

        env = VectorEnv(4096, team_size=3, episode="juego", seed=1)
        env.reset()
        seeds = np.arange(env.num_envs, dtype=np.int64) + 11
        for _ in range(5):  # warm-up: JIT and caches
            env.step(env.sample_actions(seeds))
        rates = []
        steps = 100 if quick else 300
        for _ in range(3 if quick else 5):
            t0 = time.perf_counter()
            for _ in range(steps):
                env.step(env.sample_actions(seeds))
            rates.append(steps * env.num_envs / (time.perf_counter() - t0))
    elif what == "train":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from bench_train import bench_config

        # the trainer sets torch's threads from its config (torch_threads): the setting's go there
        threads = int(os.environ.get("BENCH_TORCH_THREADS") or os.environ.get("OMP_NUM_THREADS") or 0) or None
        res = bench_config("ppo_moteno_1v1", updates=3 if quick else 6, warmup=2,
                           **({"torch_threads": threads} if threads else {}))
        rates = res["runs"]
    else:
        raise ValueError(f"unknown workload {what!r}")
    return {"decisions_per_s": statistics.median(rates), "runs": rates,
            "numba_threads": numba.get_num_threads(), "numba_layer": numba.threading_layer(),
            "torch_threads": torch.get_num_threads()}


def cpu_busy(seconds: float = 1.0) -> float:
    """The share of the machine's CPU time spent busy during the next ``seconds`` (from
    /proc/stat; None elsewhere): near 0 before a solo figure, near 1/cores per co-tenant."""
    def read():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]  # total, idle + iowait
    try:
        t0, i0 = read()
        time.sleep(seconds)
        t1, i1 = read()
    except OSError:
        return None
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def run_child(what: str, setting: dict, quick: bool, cotenants: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    env.update(setting)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(cotenants)]
    try:
        if busy:
            time.sleep(0.5)  # let the co-tenants take their share of the cores
        load, busy_share = os.getloadavg(), cpu_busy()
        out = subprocess.run([sys.executable, __file__, "--child", what] + (["--quick"] if quick else []),
                             env=env, capture_output=True, text=True, check=False, cwd=ROOT)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    if out.returncode != 0:
        raise RuntimeError(f"{what} under {setting}: {out.stderr.strip().splitlines()[-1:]}")
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["loadavg_before"] = list(load)
    res["cpu_busy_before"] = busy_share
    return res


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    ap.add_argument("--workloads", nargs="+", default=["vector", "train"], choices=["vector", "train"])
    ap.add_argument("--cotenants", type=int, default=1, help="busy processes beside the workload")
    ap.add_argument("--rounds", type=int, default=3, help="times each figure is taken (interleaved); the median is kept")
    ap.add_argument("--child", choices=["vector", "train"], help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "bench_cotenant.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.quick)))
        return
    import statistics

    from truque_env.io import check_new_output, write_json_atomic

    check_new_output(args.out, args.overwrite)  # before any measuring

    rounds: dict = {name: {what: {"alone": [], "with_cotenant": []} for what in args.workloads}
                    for name in args.settings}
    for k in range(args.rounds):  # rounds interleave the settings, so a slow spell hits them all
        for name in args.settings:
            for what in args.workloads:
                solo = run_child(what, SETTINGS[name], args.quick, 0)
                shared = run_child(what, SETTINGS[name], args.quick, args.cotenants)
                rounds[name][what]["alone"].append(solo)
                rounds[name][what]["with_cotenant"].append(shared)
                print(f"round {k + 1} {name:>14} {what:>6}: alone {solo['decisions_per_s']:>11,.0f}/s  "
                      f"with co-tenant {shared['decisions_per_s']:>11,.0f}/s  "
                      f"busy before {solo['cpu_busy_before']:.2f} / {shared['cpu_busy_before']:.2f}", flush=True)

    def median(runs):
        return statistics.median(r["decisions_per_s"] for r in runs)

    results: dict = {}
    for name, by_work in rounds.items():
        results[name] = {}
        for what, runs in by_work.items():
            alone, shared = median(runs["alone"]), median(runs["with_cotenant"])
            results[name][what] = {"alone": alone, "with_cotenant": shared, "ratio": shared / alone, "rounds": runs}
    base = results.get("default", {})
    print(f"{'setting':>14} {'workload':>8} {'alone':>11} {'shared':>11}  shared/alone  vs default alone: alone, shared")
    for name, by_work in results.items():
        for what, r in by_work.items():
            if what in base:
                r["alone_vs_default_alone"] = r["alone"] / base[what]["alone"]
                r["shared_vs_default_alone"] = r["with_cotenant"] / base[what]["alone"]
            print(f"{name:>14} {what:>8} {r['alone']:>11,.0f} {r['with_cotenant']:>11,.0f}  {r['ratio']:>12.2f}  "
                  f"{r.get('alone_vs_default_alone', float('nan')):.2f}, {r.get('shared_vs_default_alone', float('nan')):.2f}")
    write_json_atomic(args.out, {
        "benchmark": "bench_cotenant", "quick": args.quick, "cotenants": args.cotenants, "rounds": args.rounds,
        "median_of": "the rounds' medians (each itself the median of a child's timed repeats)",
        "settings": {k: SETTINGS[k] for k in args.settings}, "results": results,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "loadavg_at_end": list(os.getloadavg()),
    })
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
