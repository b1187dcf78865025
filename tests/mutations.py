"""The mutation check: for each small deliberate bug in the rules, kernels, solvers, statistics
or trainer, the tests named for it must fail (and pass without it).

    python -m tests.mutations                  # every mutation, results on the terminal
    python -m tests.mutations --jobs 2 --doc docs/mutations.md --out docs/mutations.json
    python -m tests.mutations --only three_pardas_to_the_wrong_team --out docs/mutations.json --doc docs/mutations.md
                                               # replay one; merged into the earlier results by name

Each mutation is one exact text replacement in one file of a fresh copy of the tracked tree
(``git ls-files``), with its own numba cache folder, so the working tree and its cache are never
touched. The copy first runs the named tests unmutated (they must pass: a catcher that fails
anyway proves nothing), then mutated: the mutation is caught when at least one of them fails
(a collection or import error does not count: that would be a mutation no test needs to catch).
A replacement whose text is not found exactly once is an error: the list is stale.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DIFFERENTIAL = "tests/traditions/moteno/test_differential.py::test_engine_matches_reference"


@dataclass(frozen=True)
class Mutation:
    name: str
    layer: str
    path: str
    old: str
    new: str
    breaks: str
    catchers: tuple[str, ...]


MUTATIONS = (
    # ---- rules, in the engine's kernels (Art. 18.2 and the bazas)
    Mutation("three_pardas_to_the_wrong_team", "rules", "truque_env/traditions/moteno/bazas.py",
             "winner = win_seat % 2  # three pardas: por la mano (16.5)",
             "winner = 1 - win_seat % 2  # three pardas: por la mano (16.5)",
             "three pardas give the truque to the team away from mano (Art. 16.5)",
             (DIFFERENTIAL, "tests/traditions/moteno/test_rules_moteno_truque.py")),
    Mutation("derribe_3n_instead_of_3n_plus_1", "rules", "truque_env/traditions/moteno/scoring.py",
             "= 3 * own + 1  # 11.5, 18.2 h: derribe", "= 3 * own  # 11.5, 18.2 h: derribe",
             "a refused envite de flores pays three per flor without the china de derribe (18.2 h)",
             (DIFFERENTIAL, "tests/traditions/moteno/test_rules_moteno_flores.py::test_art_11_5_18_2_h_i_envite_refused_derribe")),
    Mutation("pares_not_capped_at_the_falta", "rules", "truque_env/traditions/moteno/scoring.py",
             "= min(s[L.PARES_STAKE], falta)  # 18.2 b", "= s[L.PARES_STAKE]  # 18.2 b",
             "an accepted envite de pares pays its stake beyond la falta (6.16, 18.2 b)",
             (DIFFERENTIAL, "tests/traditions/moteno/test_rules_moteno_pares.py::test_art_6_15_6_16_6_17_accepted_envite_capped_at_the_falta")),
    Mutation("refused_retruco_pays_its_own_stake", "rules", "truque_env/traditions/moteno/helpers.py",
             "    return 3 * prev_level\n", "    return 3 * (prev_level + 1)\n",
             "a refused retruco or panueve pays the refused level, not the one before (14.14, 18.2 t, u)",
             (DIFFERENTIAL, "tests/traditions/moteno/test_rules_moteno_truque.py::test_art_14_9_14_14_18_2_s_t_u_challenge_refused")),
    Mutation("partners_tie_hides_a_rival_tie", "rules", "truque_env/traditions/moteno/bazas.py",
             "teams |= 1 << (seat % 2)", "teams += 1 << (seat % 2)",
             "two partners and a rival on the best card make no parda: the partners' tie hides the rival's (16.1, 13.7)",
             (DIFFERENTIAL, "tests/traditions/moteno/test_rules_moteno_truque.py::test_art_13_7_partners_equal_winning_cards_the_earlier_leads_2v2",
              "tests/traditions/moteno/test_rules_moteno_truque.py::test_art_16_1_13_7_two_partners_and_a_rival_on_the_best_card_is_parda_2v2")),
    Mutation("ligadas_worth_21", "rules", "truque_env/traditions/moteno/rules.py",
             "best = max(best, 20 + va + vb)", "best = max(best, 21 + va + vb)",
             "two ligadas (the first pair) count 21 plus their values instead of 20 (Art. 5.5)",
             (DIFFERENTIAL, "tests/traditions/moteno/test_valuations.py")),
    Mutation("partners_do_not_see_senas", "rules", "truque_env/traditions/moteno/kernels.py",
             "seen |= _bit(q)  # ruling 3: partners always see", "seen |= 0  # ruling 3: partners always see",
             "a partner does not see a seña (ruling 3)",
             (DIFFERENTIAL, "tests/environments/test_observation_vector.py::test_senas_seen_partner_always_rival_only_when_intercepted")),
    # ---- environment kernels
    Mutation("juego_reward_to_the_loser", "environment", "truque_env/traditions/moteno/vector_kernels.py",
             "rewards[i, q] = net if q % 2 == 0 else -net", "rewards[i, q] = -net if q % 2 == 0 else net",
             "the vector env pays each team the other team's chinas",
             ("tests/environments/test_observation_vector.py::test_juego_episodes_reward_the_winner",)),
    # ---- solvers
    Mutation("best_response_takes_the_worst_action", "solvers", "train/cfr/solvers.py",
             "if q[i, k] > q[i, best]:", "if q[i, k] < q[i, best]:",
             "the best response picks the action of least counterfactual value",
             ("tests/train/test_cfr.py::test_uniform_random_nash_conv_is_known",
              "tests/train/test_cfr.py::test_best_response_matches_brute_force_over_pure_strategies")),
    Mutation("cfr_plus_keeps_negative_regrets", "solvers", "train/cfr/solvers.py",
             "regrets[i, a] = max(r, 0.0)", "regrets[i, a] = r",
             "CFR+ without its regret floor (vanilla CFR with alternating updates)",
             ("tests/train/test_cfr.py::test_full_width_iterates_match_openspiel_python_solvers",
              "tests/train/test_truque_reduced_openspiel.py::test_cfr_plus_iterates_agree_with_openspiel")),
    Mutation("dcfr_discounts_positive_regrets_by_beta", "solvers", "train/cfr/solvers.py",
             "pos_discount, neg_discount = ta / (ta + 1.0), tb / (tb + 1.0)",
             "pos_discount, neg_discount = tb / (tb + 1.0), tb / (tb + 1.0)",
             "DCFR discounts positive regrets with beta instead of alpha",
             ("tests/train/test_cfr.py::test_full_width_iterates_match_openspiel_python_solvers",
              "tests/train/test_cfr.py::test_full_width_solvers_reach_the_kuhn_value")),
    # ---- statistics
    Mutation("wilson_half_width_halved", "statistics", "train/eval/stats.py",
             "    half = z * math.sqrt(", "    half = 0.5 * z * math.sqrt(",
             "the Wilson interval is half as wide (a quarter of the variance)",
             ("tests/train/test_evaluate.py::test_wilson_matches_newcombe_1998",
              "tests/train/test_evaluate.py::test_wilson_matches_scipy_on_a_grid",
              "tests/train/test_evaluate.py::test_wilson_covers_95_percent")),
    Mutation("wilson_edges_from_the_closed_form", "statistics", "train/eval/stats.py",
             "    lo = 0.0 if k == 0 else max(0.0, mid - half)", "    lo = max(0.0, mid - half)",
             "the lower bound at k = 0 comes from the closed form (+1e-17 for some n)",
             ("tests/train/test_evaluate.py::test_wilson_edges_are_exact_and_the_interval_holds_the_rate",
              "tests/train/test_analysis.py::test_plot_bins_with_no_bets_or_all_bets")),
    Mutation("ratio_ci_standard_error_over_m_squared", "statistics", "train/eval/stats.py",
             "se = math.sqrt((resid**2).sum() / (m * (m - 1))) / den.mean()",
             "se = math.sqrt((resid**2).sum() / (m * m * (m - 1))) / den.mean()",
             "the cluster standard error is divided by sqrt(m) once too often",
             ("tests/train/test_evaluate.py::test_ratio_ci_is_the_cluster_standard_error",)),
    Mutation("bootstrap_resamples_twice_the_clusters", "statistics", "train/eval/stats.py",
             "idx = rng.integers(0, num.size, size=(reps, num.size))",
             "idx = rng.integers(0, num.size, size=(reps, num.size * 2))",
             "the bootstrap resamples twice as many clusters as there are (too narrow)",
             ("tests/train/test_evaluate.py::test_bootstrap_ratio_ci_covers_95_percent",)),
    # ---- the trainer
    Mutation("ppo_advantage_sign_flipped", "training", "train/ppo/loop.py",
             "a = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)",
             "a = -(adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)",
             "the PPO surrogate pushes towards the actions with negative advantage",
             ("tests/train/test_ppo.py::test_ppo_loss_matches_hand_computed_values",
              "tests/train/test_ppo.py::test_ppo_learns_to_beat_random")),
    Mutation("ppo_entropy_bonus_sign_flipped", "training", "train/ppo/loop.py",
             "policy - cfg.ent_coef * ent + cfg.vf_coef * value_loss",
             "policy + cfg.ent_coef * ent + cfg.vf_coef * value_loss",
             "the entropy term penalises exploration instead of rewarding it",
             ("tests/train/test_ppo.py::test_ppo_loss_matches_hand_computed_values",)),
)


def _copy_tree(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in files.decode().split("\0"):
        if not rel or not (ROOT / rel).is_file():
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, target)


def _apply(tree: Path, m: Mutation) -> None:
    path = tree / m.path
    text = path.read_text()
    if text.count(m.old) != 1:
        raise SystemExit(f"error: mutation {m.name}: its text occurs {text.count(m.old)} times in {m.path}, "
                         "not once (the list is stale)")
    path.write_text(text.replace(m.old, m.new))


def _pytest(tree: Path, catchers, cache: Path) -> tuple[int, set[str], str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "-m", "",
                           *catchers], cwd=tree, env=env, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    failed = {re.sub(r"\[.*\]$", "", line.split()[1]) for line in out.splitlines() if line.startswith("FAILED ")}
    return proc.returncode, failed, out


def check(m: Mutation, keep_going: bool = True) -> dict:
    """Run the catchers of ``m`` on an unmutated and then a mutated copy of the tree."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"mutation-{m.name}-") as tmp:
        tree, cache = Path(tmp) / "tree", Path(tmp) / "numba"
        _copy_tree(tree)
        rc, failed, out = _pytest(tree, m.catchers, cache)
        if rc != 0:
            return {**asdict(m), "status": "catchers fail unmutated", "returncode": rc, "output": out[-3000:]}
        _apply(tree, m)
        rc, failed, out = _pytest(tree, m.catchers, cache)
    caught = rc == 1 and bool(failed)  # 1: tests failed (2-4: interrupted, internal or usage errors)
    catchers_failed = sorted(c for c in m.catchers if any(f == c or f.startswith(c + "::") for f in failed))
    return {**asdict(m), "status": "caught" if caught else ("not caught" if rc == 0 else f"pytest exit {rc}"),
            "failed": sorted(failed), "catchers_failed": catchers_failed,
            "seconds": round(time.perf_counter() - t0, 1), **({} if caught else {"output": out[-3000:]})}


def _doc(results: list[dict], command: str) -> str:
    lines = [
        "# The mutation check",
        "",
        "Each row is a small deliberate bug put into a fresh copy of the tree, and the tests that",
        "must then fail. A mutation counts as caught when at least one of its tests fails with it and",
        "all of them pass without it. The list lives in `tests/mutations.py`; replay it with",
        "",
        f"    {command}",
        "",
        "(about a minute per mutation on 2 cores, most of it numba compiling the mutated copy).",
        "",
        "| mutation | layer | what it breaks | tests that fail | result |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        shown = ", ".join(f"`{f.split('::')[-1] if '::' in f else f}`" for f in r.get("failed", [])) or "none"
        lines.append(f"| `{r['name']}` | {r['layer']} | {r['breaks']} (`{r['path']}`) | {shown} | {r['status']} |")
    caught = sum(r["status"] == "caught" for r in results)
    lines += ["", f"{caught} of {len(results)} mutations caught."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.mutations", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="names of the mutations to run (default: all)")
    ap.add_argument("--jobs", type=int, default=1, help="mutations checked at once")
    ap.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    ap.add_argument("--doc", type=Path, default=None, help="write the results as a markdown page")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if args.only is None or m.name in args.only]
    unknown = set(args.only or ()) - {m.name for m in MUTATIONS}
    if unknown:
        print(f"error: unknown mutations {', '.join(sorted(unknown))}; known: {', '.join(m.name for m in MUTATIONS)}")
        return 2
    if args.jobs < 1:
        print(f"error: --jobs must be at least 1, got {args.jobs}")
        return 2
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = []
        for r in pool.map(check, chosen):
            print(f"{r['status']:>26}  {r['name']}  {', '.join(r.get('catchers_failed', []))}", flush=True)
            results.append(r)
    if args.out and args.only is not None and args.out.exists():  # a replay of some: merge by name
        earlier = {r["name"]: r for r in json.loads(args.out.read_text())["results"]}
        earlier.update({r["name"]: r for r in results})
        order = [m.name for m in MUTATIONS]
        results = sorted((r for n, r in earlier.items() if n in order), key=lambda r: order.index(r["name"]))
    if args.out:
        args.out.write_text(json.dumps({"load_average": os.getloadavg(), "results": results}, indent=1) + "\n")
    if args.doc:
        args.doc.write_text(_doc(results, "python -m tests.mutations --jobs 2 --doc docs/mutations.md "
                                          "--out docs/mutations.json"))
    return 0 if all(r["status"] == "caught" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
