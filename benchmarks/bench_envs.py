"""Environment throughput: the vector env, and the AEC env beside PettingZoo's own card games.

* ``vector``: agent decisions per second of ``truque_env.VectorEnv`` (observations and masks
  built for every decision, a uniformly random legal action chosen by a numba kernel), for
  num_envs 1024 .. 16384 and team sizes 1 and 3.
* ``aec``: steps per second of the AEC env with its default wrappers, random legal actions from
  the action mask, against ``leduc_holdem_v4`` and ``texas_holdem_v4`` measured in the same run
  the same way (needs the ``bench`` extra: ``pip install -e ".[bench]"``).

Every number is the median of ``--repeats`` timed runs after a warm-up (JIT compilation excluded).
Writes JSON (default ``benchmarks/results/bench_envs.json``) atomically.

    python benchmarks/bench_envs.py            # full run
    python benchmarks/bench_envs.py --quick    # a few seconds
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

import numba
import numpy as np

from truque_env.io import check_new_output, write_json_atomic
from truque_env.vector import VectorEnv


def bench_vector(num_envs, team_size, steps, repeats):
    env = VectorEnv(num_envs, team_size=team_size, episode="juego", seed=1)
    env.reset()
    rng = np.arange(num_envs, dtype=np.int64) + 11
    for _ in range(5):  # warm-up: JIT and caches
        env.step(env.sample_actions(rng))
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(steps):
            env.step(env.sample_actions(rng))
        rates.append(steps * num_envs / (time.perf_counter() - t0))
    return {"decisions_per_s": statistics.median(rates), "runs": rates}


def _aec_steps_per_s(make_env, steps, repeats, seed=0):
    """Random legal play through the AEC API (agent_iter/last/step), as PettingZoo users do."""
    rng = np.random.default_rng(seed)

    def run(n_steps):
        env = make_env()
        env.reset(seed=seed)
        done_steps = 0
        while done_steps < n_steps:
            for _agent in env.agent_iter():
                obs, reward, termination, truncation, info = env.last()
                if termination or truncation:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(legal[rng.integers(legal.size)])
                env.step(action)
                done_steps += 1
                if done_steps >= n_steps:
                    break
            else:
                env.reset(seed=int(rng.integers(1 << 30)))
        env.close()

    run(min(steps, 200))  # warm-up
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run(steps)
        rates.append(steps / (time.perf_counter() - t0))
    return {"steps_per_s": statistics.median(rates), "runs": rates}


def bench_aec(steps, repeats):
    import truque_env

    out = {}
    for team_size in (1, 3):
        out[f"truque_moteno_{team_size}v{team_size}"] = _aec_steps_per_s(
            lambda ts=team_size: truque_env.env(team_size=ts, episode="mano"), steps, repeats)
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except ImportError as exc:  # the bench extra is not installed
        out["pettingzoo_reference"] = f"not measured: {exc}"
        return out
    out["leduc_holdem_v4"] = _aec_steps_per_s(leduc_holdem_v4.env, steps, repeats)
    out["texas_holdem_v4"] = _aec_steps_per_s(texas_holdem_v4.env, steps, repeats)
    ratio = out["truque_moteno_1v1"]["steps_per_s"] / out["leduc_holdem_v4"]["steps_per_s"]
    out["truque_1v1_over_leduc"] = ratio
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "bench_envs.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    args = ap.parse_args(argv)
    check_new_output(args.out, args.overwrite)  # before any measuring
    repeats = 2 if args.quick else args.repeats
    sizes = (1024,) if args.quick else (1024, 4096, 16384)
    vec_steps = 10 if args.quick else 100
    aec_steps = 500 if args.quick else 20_000
    results = {
        "benchmark": "environment throughput, random legal actions",
        "machine": {"cpu_count": os.cpu_count(), "numba_threads": numba.get_num_threads(),
                    "python": platform.python_version(), "numba": numba.__version__},
        "repeats": repeats,
        "load_average_before": os.getloadavg(),  # a figure taken while another job ran is not a figure
        "vector": {},
    }
    for team_size in (1, 3):
        for n in sizes:
            r = bench_vector(n, team_size, vec_steps, repeats)
            results["vector"][f"{team_size}v{team_size}_num_envs_{n}"] = r
            print(f"vector {team_size}v{team_size} num_envs {n:>6}: {r['decisions_per_s']:>12,.0f} decisions/s")
    results["aec"] = bench_aec(aec_steps, repeats)
    for name, r in results["aec"].items():
        if isinstance(r, dict):
            print(f"aec {name:<22}: {r['steps_per_s']:>10,.0f} steps/s")
        else:
            print(f"aec {name}: {r}")
    results["load_average_after"] = os.getloadavg()
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
