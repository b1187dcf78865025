"""CFR speed on Leduc poker: our CFR+ and external-sampling MCCFR beside OpenSpiel's C++ solvers.

Iterations per second (one iteration updates both players, in both implementations), each the
median of ``--repeats`` timed runs after a warm-up that pays the JIT compilation:

* ``ours``: ``train.cfr.solvers.Solver`` (``cfr_plus``, ``mccfr_external``), the iterations looping inside
  a numba kernel over the flat tree of ``train.cfr.games``;
* ``openspiel``: ``pyspiel.CFRPlusSolver.evaluate_and_update_policy`` and
  ``pyspiel.ExternalSamplingMCCFRSolver.run_iteration`` (C++, called once per iteration from
  Python: about a microsecond of call overhead each), measured in the same run the same way when
  ``pyspiel`` imports (``pip install open_spiel``); skipped with a message otherwise.

Both CFR+ implementations compute the same iterates (alternating updates, regret matching+,
linear averaging): the JSON records the exploitability of both after the same number of
iterations as a check. For MCCFR it records each side's exploitability after its timed runs.
Writes JSON (default ``benchmarks/results/bench_cfr.json``) atomically.

    python benchmarks/bench_cfr.py            # full run (about a minute)
    python benchmarks/bench_cfr.py --quick    # a few seconds
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

from train.cfr.games import load_game
from train.cfr.solvers import Solver, exploitability
from truque_env.io import check_new_output, write_json_atomic

GAME = "leduc_poker"


def _rate(step, iterations, repeats):
    """Median iterations per second of ``step(iterations)`` over ``repeats`` timed runs."""
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        step(iterations)
        rates.append(iterations / (time.perf_counter() - t0))
    return statistics.median(rates), rates


def bench_ours(solver_name, iterations, repeats, seed=1):
    game = load_game(GAME)
    solver = Solver(game, solver_name, seed=seed)  # compiles or loads the kernel
    solver.run(2)  # warm-up
    median, runs = _rate(solver.run, iterations, repeats)
    return {"iterations_per_s": median, "runs_iterations_per_s": runs, "iterations_per_run": iterations,
            "total_iterations": solver.iteration, "exploitability": exploitability(game, solver.average_policy())}


def bench_openspiel(pyspiel, solver_name, iterations, repeats, seed=1):
    game = pyspiel.load_game(GAME)
    if solver_name == "cfr_plus":
        solver = pyspiel.CFRPlusSolver(game)
        one = solver.evaluate_and_update_policy
    else:
        solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
        one = solver.run_iteration
    done = 0

    def step(n):
        nonlocal done
        for _ in range(n):
            one()
        done += n

    step(2)  # warm-up
    median, runs = _rate(step, iterations, repeats)
    return {"iterations_per_s": median, "runs_iterations_per_s": runs, "iterations_per_run": iterations,
            "total_iterations": done, "exploitability": pyspiel.exploitability(game, solver.average_policy())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small runs, for a smoke run")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "bench_cfr.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    args = ap.parse_args(argv)
    check_new_output(args.out, args.overwrite)  # before any measuring
    repeats = 2 if args.quick else args.repeats
    # iterations per timed run: each side's runs last a fraction of a second to a few seconds
    sizes = {"cfr_plus": {"ours": 100 if args.quick else 1000, "openspiel": 5 if args.quick else 30},
             "mccfr_external": {"ours": 10_000 if args.quick else 200_000, "openspiel": 5_000 if args.quick else 50_000}}
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("pyspiel is not installed (pip install open_spiel): measuring ours only")
    results = {
        "benchmark": f"CFR iterations per second on {GAME} (one iteration updates both players)",
        "quick": args.quick,
        "machine": {"cpu_count": os.cpu_count(), "numba_threads": numba.get_num_threads(),
                    "python": platform.python_version(), "numba": numba.__version__, "numpy": np.__version__},
        "repeats": repeats,
        "load_average_before": os.getloadavg(),  # a figure taken while another job ran is not a figure
        "solvers": {},
    }
    if pyspiel is not None:
        from importlib.metadata import version

        results["machine"]["open_spiel"] = version("open_spiel")
    else:
        results["openspiel_skipped"] = "pyspiel did not import (pip install open_spiel)"
    for name, n in sizes.items():
        row = {"ours": bench_ours(name, n["ours"], repeats)}
        line = f"{name:>15}: ours {row['ours']['iterations_per_s']:>12,.1f} it/s"
        if pyspiel is not None:
            row["openspiel"] = bench_openspiel(pyspiel, name, n["openspiel"], repeats)
            row["speedup"] = row["ours"]["iterations_per_s"] / row["openspiel"]["iterations_per_s"]
            line += f" | OpenSpiel C++ {row['openspiel']['iterations_per_s']:>10,.1f} it/s | x{row['speedup']:.1f}"
            if name == "cfr_plus":  # the same iterates: the same exploitability after the same iterations
                k = row["openspiel"]["total_iterations"]
                same = Solver(load_game(GAME), "cfr_plus")
                same.run(k)
                row["same_iterates_check"] = {"iterations": k, "openspiel": row["openspiel"]["exploitability"],
                                              "ours": exploitability(same.game, same.average_policy())}
        results["solvers"][name] = row
        print(line)
    results["load_average_after"] = os.getloadavg()
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
