"""Engine throughput: random legal manos through the batched kernels, every tradition and team
size, señas on; the traditions run side by side in the same run (interleaved per team size).

Two measurements per tradition and team size, each the median of ``--repeats`` timed runs after
a warm-up run that pays the JIT compilation:

* ``fused``: ``batch.random_manos``, the mask + step kernels looping inside numba (the engine's
  own speed, what a C++ engine would report);
* ``python_loop``: ``batch.legal_masks`` + ``batch.step_tables`` called from Python once per
  decision over the whole batch with numpy-chosen random legal actions (what a vector env pays).

Writes JSON (default ``benchmarks/results/bench_engine.json``) atomically.

    python benchmarks/bench_engine.py                          # full run, every tradition
    python benchmarks/bench_engine.py --traditions moteno      # one tradition
    python benchmarks/bench_engine.py --quick                  # a few seconds
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

try:
    from truque_env.traditions import get as get_tradition
    from truque_env.traditions import traditions
except ImportError:  # a commit from before the family seam (the before-and-after figures)
    get_tradition = None

    def traditions():
        return ("moteno",)


def _modules(tradition):
    if get_tradition is None:
        from truque_env.engine import actions as A  # type: ignore[no-redef]
        from truque_env.engine import batch as B  # type: ignore[no-redef]
        from truque_env.engine import layout as L  # type: ignore[no-redef]

        return A, B, L, None
    spec = get_tradition(tradition)
    return spec.actions, spec.batch, spec.layout, spec


def _tables(tradition, num_tables, team_size, seed):
    A, B, L, spec = _modules(tradition)
    states = np.zeros((num_tables, L.STATE_SIZE), dtype=L.STATE_DTYPE)
    if spec is not None:  # the default rule options (header RULES)
        rules = spec.rules_array(spec.options)
        states[:, L.RULES : L.RULES + len(rules)] = rules
    B.init_tables(states, team_size, 30, 3, 1, 100, np.arange(num_tables, dtype=np.int64) + seed)
    return states


def bench_fused(tradition, team_size, num_tables, manos_per_table, repeats):
    A, B, L, _ = _modules(tradition)
    states = _tables(tradition, num_tables, team_size, 1)
    stats = np.zeros((num_tables, B.NUM_STATS), dtype=np.int64)
    B.random_manos(states, np.ones(num_tables, dtype=np.int64), np.arange(num_tables, dtype=np.int64), stats)  # JIT warm-up
    rates, dec_rates = [], []
    for r in range(repeats):
        stats[:] = 0
        seeds = np.arange(num_tables, dtype=np.int64) + 1000 * (r + 1)
        t0 = time.perf_counter()
        B.random_manos(states, np.full(num_tables, manos_per_table, dtype=np.int64), seeds, stats)
        dt = time.perf_counter() - t0
        tot = stats.sum(axis=0)
        rates.append(tot[B.ST_MANOS] / dt)
        dec_rates.append(tot[B.ST_DECISIONS] / dt)
    return {"manos_per_s": statistics.median(rates), "decisions_per_s": statistics.median(dec_rates),
            "runs_manos_per_s": rates}


def bench_python_loop(tradition, team_size, num_tables, decisions, repeats):
    """Drive the batch one decision at a time from Python: masks, a random legal pick, step."""
    A, B, L, _ = _modules(tradition)
    rng = np.random.default_rng(0)
    states = _tables(tradition, num_tables, team_size, 2)
    masks = np.zeros((num_tables, A.NUM_ACTIONS), dtype=np.uint8)
    errors = np.zeros(num_tables, dtype=np.int64)
    actions = np.zeros(num_tables, dtype=np.int64)
    deal = np.ones(num_tables, dtype=np.bool_)

    def run(n_dec):
        manos = 0
        for _ in range(n_dec):
            done = states[:, L.PHASE] == L.PH_DONE
            if done.any():
                idx = np.flatnonzero(done)
                manos += idx.size
                B.deal_where(states, done)
            B.legal_masks(states, masks)
            # a uniform legal action per table: argmax of random keys on the legal entries
            keys = rng.random(masks.shape, dtype=np.float32) * masks
            actions[:] = keys.argmax(axis=1)
            B.step_tables(states, actions, masks, errors)
        return manos

    deal[:] = True
    B.deal_where(states, deal)
    run(5)  # warm-up
    rates, mrates = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        manos = run(decisions)
        dt = time.perf_counter() - t0
        rates.append(decisions * num_tables / dt)
        mrates.append(manos / dt)
    return {"decisions_per_s": statistics.median(rates), "manos_per_s": statistics.median(mrates)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "bench_engine.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    ap.add_argument("--traditions", nargs="+", default=list(traditions()), help="the traditions to measure")
    args = ap.parse_args(argv)
    unknown = sorted(set(args.traditions) - set(traditions()))
    if unknown:
        ap.error(f"unknown tradition {unknown[0]!r}; known: {', '.join(traditions())}")
    check_new_output(args.out, args.overwrite)  # before any measuring
    num_tables = 256 if args.quick else 4096
    manos = 4 if args.quick else 100
    decisions = 20 if args.quick else 200
    repeats = 2 if args.quick else args.repeats
    results = {
        "benchmark": "engine random legal manos (señas on, 1 per player per mano, p_intercept 0.1), "
                     "each tradition with its default rule options",
        "machine": {"cpu_count": os.cpu_count(), "numba_threads": numba.get_num_threads(),
                    "python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__},
        "num_tables": num_tables,
        "repeats": repeats,
        "traditions": {},
        # a figure taken while another job shared the cores is not a figure
        "load_average_before": os.getloadavg(),
    }
    for tradition in args.traditions:
        _, _, L, spec = _modules(tradition)
        results["traditions"][tradition] = {"state_bytes_per_table": int(L.STATE_BYTES), "team_sizes": {}}
    sizes = sorted({ts for tr in args.traditions for ts in (_modules(tr)[3].team_sizes if _modules(tr)[3] else (1, 2, 3, 4))})
    for team_size in sizes:  # the traditions interleaved: a slow spell of the machine hits them all
        for tradition in args.traditions:
            spec = _modules(tradition)[3]
            if spec is not None and team_size not in spec.team_sizes:
                continue
            fused = bench_fused(tradition, team_size, num_tables, manos, repeats)
            loop = bench_python_loop(tradition, team_size, num_tables, decisions, repeats)
            results["traditions"][tradition]["team_sizes"][f"{team_size}v{team_size}"] = {
                "fused": fused, "python_loop": loop}
            print(f"{tradition:>10} {team_size}v{team_size}: fused {fused['manos_per_s']:>11,.0f} manos/s "
                  f"{fused['decisions_per_s']:>12,.0f} decisions/s | python loop "
                  f"{loop['decisions_per_s']:>11,.0f} decisions/s")
    results["load_average_after"] = os.getloadavg()
    print(f"load average {results['load_average_before']} before, {results['load_average_after']} after")
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
