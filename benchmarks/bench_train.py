"""Training throughput of the PPO trainer: agent decisions per second, learning included.

Runs ``train.ppo.loop`` with each shipped config (``configs/ppo_moteno_{1v1,2v2,3v3}.toml``: the
same network, batch and epochs as a real run) for ``--updates`` updates and times every update
(rollout on the vector env, GAE, the PPO epochs). A decision is one the env asked for, of any
seat (the learner's, a frozen opponent's, or a forced single-option move that skips the
networks); the JSON also reports how many of them were trained on. The first ``--warmup``
updates (numba and torch warm-up) are excluded; the median of the rest is reported.
Evaluation, logging and checkpoints are off. ``--workers 1 2`` times each config in a single
process and with 2 Ray workers collecting the rollouts (``train/ppo/ray_workers.py``; Ray's start-up is
not timed). Writes JSON atomically (default ``benchmarks/results/bench_train.json``).

    python benchmarks/bench_train.py                # the three configs
    python benchmarks/bench_train.py --quick        # 1v1 only, a few updates
    python benchmarks/bench_train.py --configs ppo_moteno_3v3 --workers 1 2   # needs .[ray]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
from pathlib import Path

import numba
import torch

from train.ppo.loop import PPOConfig, train
from truque_env.io import check_new_output, write_json_atomic

ROOT = Path(__file__).resolve().parents[1]


def bench_config(name: str, updates: int, warmup: int, workers: int = 1, **overrides) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = PPOConfig.from_toml(ROOT / "configs" / f"{name}.toml", run_dir=Path(tmp), progress=False,
                                  tensorboard=False, eval_every=0, checkpoint_every=10**9, log_every=10**9,
                                  num_workers=workers, **overrides)
        batch = cfg.num_envs * cfg.num_steps
        cfg.total_decisions = (warmup + updates) * batch
        train(cfg)
        rows = [json.loads(line) for line in (Path(tmp) / "metrics.jsonl").read_text().splitlines()]
    timed = [r for r in rows if "perf/update_seconds" in r][warmup:]
    rates = [batch / r["perf/update_seconds"] for r in timed]
    trained = [r["perf/trained_decisions"] / r["perf/update_seconds"] for r in timed]
    return {"config": f"configs/{name}.toml", "num_workers": workers, "team_size": cfg.team_size,
            "num_envs": cfg.num_envs,
            "num_steps": cfg.num_steps, "hidden": cfg.hidden, "update_epochs": cfg.update_epochs,
            "decisions_per_update": batch, "updates_timed": len(rates),
            "decisions_per_s": statistics.median(rates), "trained_decisions_per_s": statistics.median(trained),
            "rollout_share": statistics.median(r["perf/rollout_seconds"] / r["perf/update_seconds"] for r in timed),
            "runs": rates}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--configs", nargs="+", default=["ppo_moteno_1v1", "ppo_moteno_2v2", "ppo_moteno_3v3"])
    ap.add_argument("--updates", type=int, default=8)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--workers", type=int, nargs="+", default=[1],
                    help="rollout workers to time each config with (1: this process; more: Ray actors)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "bench_train.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    args = ap.parse_args(argv)
    check_new_output(args.out, args.overwrite)  # before any measuring
    if args.quick:
        args.configs, args.updates, args.warmup = ["ppo_moteno_1v1"], 2, 1
    results = {}
    load_before = os.getloadavg()  # a figure taken while another job ran is not a figure
    for name in args.configs:
        for workers in args.workers:
            key = name if workers == 1 else f"{name}@{workers}_workers"
            results[key] = r = bench_config(name, args.updates, args.warmup, workers)
            print(f"{key}: {r['decisions_per_s']:,.0f} decisions/s ({r['trained_decisions_per_s']:,.0f} trained, "
                  f"rollout {r['rollout_share']:.0%} of the time), median of {r['updates_timed']} updates")
    write_json_atomic(args.out, {
        "benchmark": "bench_train", "unit": "agent decisions per second, learning included (median per update)",
        "machine": {"cpu_count": os.cpu_count(), "numba_threads": numba.get_num_threads(),
                    "torch_threads": torch.get_num_threads(), "python": platform.python_version(),
                    "numba": numba.__version__, "torch": torch.__version__},
        "load_average_before": load_before, "load_average_after": os.getloadavg(),
        "results": results,
    })
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
