"""Exploitability against iterations and against seconds for every CFR solver on reduced Truque Moteño games.

For each game (default the reduced games ``truque_tiny`` and ``truque_7`` of
``train.cfr.reduced``; ``leduc_poker`` may be added) and each solver of ``train.cfr.solvers``
(``cfr``, ``cfr_plus``, ``lcfr``, ``dcfr``, ``mccfr_external``, ``mccfr_outcome``), the solver runs
in chunks of geometrically growing size until its time budget is spent; after every chunk the
exact exploitability (NashConv / 2, a tree walk) of its average policy is recorded with the
iteration count and the solver seconds so far. Timing leaves out the JIT compilation
(``Solver`` compiles or loads its kernel when built) and the evaluations.

Then, from the CFR+ average policy of each reduced game, the equilibrium's bluffing frequencies
(``train.cfr.reduced.action_frequencies``): for each player, the probability of opening the
pares envite holding a hand of the weakest bin of valor de pares, and of saying truco holding a
hand of the weakest bin of truque power (bins: quartiles of the distinct values among the hands
of the reduced deck), beside the other bins.

Writes ``benchmarks/results/cfr_convergence.json`` and ``docs/cfr/convergence.png`` (one row per
game: exploitability against iterations and against seconds, log-log), both atomically.

    python benchmarks/cfr_convergence.py            # about 3 minutes on one core
    python benchmarks/cfr_convergence.py --quick    # about 30 seconds
    python benchmarks/cfr_convergence.py --games truque_tiny truque_7 leduc_poker --seconds 2 20 5
    python benchmarks/cfr_convergence.py --games truque_7 --merge     # one game, keeping the others
    python benchmarks/cfr_convergence.py --games truque_7 --solvers cfr_plus dcfr --seconds 45 --merge
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numba

from train.cfr.games import GAMES, TRUQUE_GAMES, load_game
from train.cfr.solvers import SOLVERS, Solver, exploitability, policy_value
from truque_env.io import atomic_output, check_new_output, write_json_atomic

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GAMES = ("truque_tiny", "truque_7")
SECONDS = {"truque_tiny": 4.0, "truque_pares6": 4.0, "truque_7": 20.0, "truque_8": 60.0, "kuhn_poker": 1.0,
           "leduc_poker": 5.0}
QUICK_SECONDS = {"truque_tiny": 0.5, "truque_pares6": 0.5, "truque_7": 2.5, "truque_8": 8.0, "kuhn_poker": 0.2,
                 "leduc_poker": 0.5}
FIRST_CHUNK = {"mccfr_external": 200, "mccfr_outcome": 1000}  # full-width solvers start at 1
GROWTH = 1.6


def run_solver(game, solver: str, budget: float, seed: int = 0) -> dict:
    s = Solver(game, solver, seed=seed)  # compiles (or loads) the kernel: not timed
    points = [{"iteration": 0, "seconds": 0.0, "exploitability": exploitability(game, s.average_policy())}]
    chunk = FIRST_CHUNK.get(solver, 1)
    seconds = 0.0
    while seconds < budget:
        t0 = time.perf_counter()
        s.run(chunk)
        seconds += time.perf_counter() - t0
        points.append({"iteration": s.iteration, "seconds": seconds, "exploitability": exploitability(game, s.average_policy())})
        chunk = max(1, int(s.iteration * (GROWTH - 1.0)))
        per_iteration = seconds / s.iteration
        chunk = min(chunk, max(1, int((budget - seconds) / max(per_iteration, 1e-12)) + 1))  # stop near the budget
    return {"points": points, "final": points[-1], "solver": s}


def iterations_to(points: list[dict], level: float):
    for p in points:
        if p["exploitability"] < level:
            return {"iteration": p["iteration"], "seconds": round(p["seconds"], 4)}
    return None


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(results["games"], key=lambda g: (g not in TRUQUE_GAMES, GAMES.index(g) if g in GAMES else 99))
    colors = {s: f"C{k}" for k, s in enumerate(SOLVERS)}
    fig, axes = plt.subplots(len(names), 2, figsize=(11, 3.6 * len(names)), squeeze=False)
    for row, name in enumerate(names):
        g = results["games"][name]
        for solver in sorted(g["solvers"], key=SOLVERS.index):
            r = g["solvers"][solver]
            pts = [p for p in r["points"] if p["iteration"] > 0]
            it = [p["iteration"] for p in pts]
            sec = [p["seconds"] for p in pts]
            ex = [max(p["exploitability"], 1e-12) for p in pts]
            axes[row, 0].loglog(it, ex, marker=".", label=solver, color=colors[solver])
            axes[row, 1].loglog(sec, ex, marker=".", label=solver, color=colors[solver])
        title = f"{name}: {g['nodes']:,} nodes, {g['infostates']:,} infostates"
        for k, xlabel in enumerate(("iterations", "solver seconds (one core)")):
            ax = axes[row, k]
            ax.set_xlabel(xlabel)
            ax.set_ylabel("exploitability" + (" (chinas)" if name in TRUQUE_GAMES else ""))
            ax.set_title(title, fontsize=9)
            ax.axhline(1e-3, color="grey", lw=0.6, ls="--")
            ax.grid(True, which="both", lw=0.3)
        axes[row, 0].legend(fontsize=7)
    fig.tight_layout()
    with atomic_output(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short budgets (a smoke run)")
    ap.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES), choices=GAMES)
    ap.add_argument("--solvers", nargs="+", default=list(SOLVERS), choices=SOLVERS)
    ap.add_argument("--seconds", nargs="+", type=float, default=None,
                    help="solver-time budget per solver, one per game (default by game)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--replot", action="store_true", help="only redraw --png from the results in --out")
    ap.add_argument("--merge", action="store_true",
                    help="keep the other games already in --out (to run the games as separate jobs)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/cfr_convergence.json")
    ap.add_argument("--png", type=Path, default=ROOT / "docs/cfr/convergence.png")
    ap.add_argument("--overwrite", action="store_true", help="replace --out and --png if they exist (committed figures)")
    args = ap.parse_args(argv)
    if args.seconds is not None and len(args.seconds) != len(args.games):
        ap.error(f"--seconds needs one budget per game ({len(args.games)})")
    if args.replot:
        import json

        results = json.loads(args.out.read_text(encoding="utf-8"))
        plot(results, args.png)
        print(f"wrote {args.png}")
        return results
    if not args.merge:  # --merge adds to --out and redraws --png from it: told to
        for path in (args.out, args.png):
            check_new_output(path, args.overwrite)  # before any solving
    table = QUICK_SECONDS if args.quick else SECONDS
    budgets = args.seconds or [table[g] for g in args.games]
    results = {
        "benchmark": "cfr_convergence",
        "quick": args.quick,
        "machine": {"python": platform.python_version(), "numba": numba.__version__, "cpu": platform.processor() or
                    platform.machine(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
                    "cpu_count": os.cpu_count()},
        "exploitability": "NashConv / 2 of the average policy, in chinas (player 0 = mano)",
        "games": {},
    }
    if args.merge and args.out.exists():
        import json

        old = json.loads(args.out.read_text(encoding="utf-8"))
        results["games"] = dict(old.get("games", {}))
    for name, budget in zip(args.games, budgets, strict=True):
        t0 = time.perf_counter()
        game = load_game(name)
        build_seconds = time.perf_counter() - t0
        print(f"{name}: {game.num_nodes:,} nodes, {game.num_infostates:,} information states, "
              f"built in {build_seconds:.1f} s; {budget:g} s per solver", flush=True)
        # per game: --merge runs the games as separate jobs, and a figure taken while another job ran is not one
        entry = {"nodes": game.num_nodes, "infostates": game.num_infostates, "build_seconds": round(build_seconds, 3),
                 "load_average_before": os.getloadavg(), "budget_seconds": {}, "solvers": {}}
        kept = results["games"].get(name, {})  # --merge: the solvers (and equilibrium) not run now stay
        for solver, r in kept.get("solvers", {}).items():
            if solver not in args.solvers:
                entry["solvers"][solver] = r
                entry["budget_seconds"][solver] = kept["budget_seconds"][solver]
        if "cfr_plus" not in args.solvers and "equilibrium" in kept:
            entry["equilibrium"] = kept["equilibrium"]
        plus = None
        for solver in args.solvers:
            r = run_solver(game, solver, budget, seed=args.seed)
            f = r["final"]
            print(f"  {solver:<15} {f['iteration']:>10,} iterations {f['seconds']:7.2f} s "
                  f"exploitability {f['exploitability']:.3g}", flush=True)
            entry["budget_seconds"][solver] = budget
            entry["solvers"][solver] = {
                "points": r["points"],
                "final": f,
                "to_1e-2": iterations_to(r["points"], 1e-2),
                "to_1e-3": iterations_to(r["points"], 1e-3),
            }
            if solver == "cfr_plus":
                plus = r["solver"]
        if name in TRUQUE_GAMES and plus is not None:
            from train.cfr.reduced import action_frequencies, load_build

            pol = plus.average_policy()
            entry["equilibrium"] = {
                "from": f"cfr_plus average policy after {plus.iteration} iterations",
                "exploitability": exploitability(game, pol),
                "value_player0": policy_value(game, pol),
                "bluffing": action_frequencies(load_build(name), pol),
            }
            for p, res in entry["equilibrium"]["bluffing"]["players"].items():
                for label, r in res.items():
                    if r is not None:
                        print(f"  player {p} {label}: weakest quarter {r['weakest']:.3f}, strongest quarter "
                              f"{r['strongest']:.3f}, overall {r['overall']:.3f}", flush=True)
        entry["solvers"] = {s: entry["solvers"][s] for s in SOLVERS if s in entry["solvers"]}
        entry["budget_seconds"] = {s: entry["budget_seconds"][s] for s in SOLVERS if s in entry["budget_seconds"]}
        results["games"][name] = entry
    write_json_atomic(args.out, results)
    plot(results, args.png)
    print(f"wrote {args.out} and {args.png}")
    return results


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
