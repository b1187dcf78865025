"""The Moteño heuristic's speed, before and after the kernels, in one run.

The forms timed, on the same observations and the same matches:

* ``before`` (with ``--before DIR``): ``HeuristicPolicy`` of an earlier checkout, the per-row
  Python bot as it shipped, e.g. ``git worktree add /tmp/before 06a675b``; timed in a child
  process whose imports come from DIR;
* ``reference_python``: ``ReferenceHeuristic``, the readable twin of today's kernels (the same
  per-row Python, over today's truque simulation);
* ``kernels_in_order``: ``HeuristicPolicy`` without decision keys (rows in order, one core);
* ``kernels_keyed_parallel``: ``HeuristicPolicy`` with the decision keys (rows in parallel).

``decisions``: decisions per second on a fixed set of observations per team size (collected
from duplicate matches of the heuristic against random, with their decision keys), in batches of
64 rows. ``evaluation``: juegos per second of a duplicate match of the heuristic against random
(``train.eval.duplicate.play_match``, keys handed out, 64 tables), and its result, which must be the
same for every form (the same decisions). The forms run interleaved, repeat by repeat; every
figure is the median of ``--repeats`` timed runs after a warm-up (JIT compilation excluded); the
load average is recorded before and after.

    python benchmarks/bench_heuristic.py --before /tmp/before            # about 8 minutes
    python benchmarks/bench_heuristic.py --quick                         # under a minute
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
import time
from pathlib import Path

import numba
import numpy as np

BATCH = 64
EVAL_TABLES = 64


def _policy(form: str):
    """A fresh bot of ``form``; in the child process ``agents`` is the earlier checkout's."""
    from agents.heuristic import HeuristicPolicy

    if form == "reference_python":
        from agents.heuristic import ReferenceHeuristic

        return ReferenceHeuristic(seed=5)
    return HeuristicPolicy(seed=5)


def time_decisions(form: str, obs, mask, keys) -> float:
    """Decisions per second of one pass over the corpus (after a warm-up batch)."""
    bot = _policy(form)
    keyed = form.endswith("keyed_parallel")
    bot.act_batch(obs[:BATCH], mask[:BATCH], **({"keys": keys[:BATCH]} if keyed else {}))
    t0 = time.perf_counter()
    for a in range(0, len(obs), BATCH):
        sl = slice(a, a + BATCH)
        if keyed:
            bot.act_batch(obs[sl], mask[sl], keys=keys[sl])
        else:
            bot.act_batch(obs[sl], mask[sl])
    return len(obs) / (time.perf_counter() - t0)


def time_evaluation(form: str, team_size: int, juegos: int) -> tuple[float, int]:
    """(juegos per second, juegos won by the heuristic) of one match against random."""
    from agents.base import RandomPolicy
    from train.eval.duplicate import play_match

    bot = _policy(form)
    t0 = time.perf_counter()
    report = play_match(bot, RandomPolicy(seed=2), team_size=team_size, episodes=juegos, num_envs=EVAL_TABLES,
                        seed=11, bootstrap=10)
    return juegos / (time.perf_counter() - t0), int(report.juegos["wins"]["A"])


def child(args) -> None:
    """Time the forms named in ``--child`` (JSON on stdout): run with the earlier tree's imports."""
    job = json.loads(args.child)
    out = {}
    if job["kind"] == "decisions":
        z = np.load(job["corpus"])
        for form in job["forms"]:
            out[form] = time_decisions(form, z["obs"], z["mask"], z["keys"])
    else:
        time_evaluation(job["forms"][0], job["team_size"], 4)  # warm-up
        for form in job["forms"]:
            out[form] = time_evaluation(form, job["team_size"], job["juegos"])
    print(json.dumps(out))


def run_before(before: Path, job: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=str(before))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(job)]
    done = subprocess.run(cmd, env=env, cwd=before, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"error: the earlier tree's run failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


class _Recorder:
    """Today's heuristic, recording the observations, masks and keys it is asked to decide."""

    name = "heuristic"

    def __init__(self):
        from agents.heuristic import HeuristicPolicy

        self.bot = HeuristicPolicy(seed=1)
        self.obs, self.mask, self.keys = [], [], []

    def act_batch(self, observations, action_masks, keys=None):
        self.obs.append(np.asarray(observations, dtype=np.int8))
        self.mask.append(np.asarray(action_masks, dtype=np.uint8))
        self.keys.append(np.asarray(keys, dtype=np.uint64))
        return self.bot.act_batch(observations, action_masks, keys=keys)


def corpus(team_size: int, juegos: int, path: Path):
    from agents.base import RandomPolicy
    from train.eval.duplicate import play_match

    rec = _Recorder()
    play_match(rec, RandomPolicy(seed=2), team_size=team_size, episodes=juegos, num_envs=32, seed=team_size,
               bootstrap=10)
    np.savez(path, obs=np.concatenate(rec.obs), mask=np.concatenate(rec.mask), keys=np.concatenate(rec.keys))
    return np.load(path)


FORMS = ("reference_python", "kernels_in_order", "kernels_keyed_parallel")


def bench_decisions(team_size, juegos, repeats, before, tmp) -> dict:
    path = Path(tmp) / f"corpus_{team_size}.npz"
    z = corpus(team_size, juegos, path)
    obs, mask, keys = z["obs"], z["mask"], z["keys"]
    runs = {form: [] for form in (("before",) if before else ()) + FORMS}
    for _ in range(repeats):  # interleaved: a change of load hits every form alike
        if before:
            r = run_before(before, {"kind": "decisions", "corpus": str(path), "forms": ["kernels_keyed_parallel"]})
            runs["before"].append(r["kernels_keyed_parallel"])  # the old bot took keys, row by row
        for form in FORMS:
            runs[form].append(time_decisions(form, obs, mask, keys))
    out = {"observations": int(len(obs)), "batch": BATCH}
    for form, r in runs.items():
        out[form] = {"decisions_per_s": statistics.median(r), "runs": r}
    base = out["before" if before else "reference_python"]["decisions_per_s"]
    out["speedup_over"] = "before" if before else "reference_python"
    out["speedup_keyed_parallel"] = out["kernels_keyed_parallel"]["decisions_per_s"] / base
    out["speedup_in_order"] = out["kernels_in_order"]["decisions_per_s"] / base
    return out


def bench_evaluation(team_size, juegos, repeats, before) -> dict:
    forms = ("reference_python", "kernels_keyed_parallel")
    runs = {form: [] for form in (("before",) if before else ()) + forms}
    wins = {}
    for form in forms:
        time_evaluation(form, team_size, 4)  # warm-up
    for _ in range(repeats):
        if before:
            rate, won = run_before(before, {"kind": "evaluation", "team_size": team_size, "juegos": juegos,
                                            "forms": ["kernels_keyed_parallel"]})["kernels_keyed_parallel"]
            runs["before"].append(rate)
            wins["before"] = won
        for form in forms:
            rate, wins[form] = time_evaluation(form, team_size, juegos)
            runs[form].append(rate)
    assert len(set(wins.values())) == 1, f"the forms played different games: {wins}"
    out = {"juegos": juegos, "tables": EVAL_TABLES, "heuristic_wins": wins["kernels_keyed_parallel"]}
    for form, r in runs.items():
        out[form] = {"juegos_per_s": statistics.median(r), "runs": r}
    base = out["before" if before else "reference_python"]["juegos_per_s"]
    out["speedup_over"] = "before" if before else "reference_python"
    out["speedup"] = out["kernels_keyed_parallel"]["juegos_per_s"] / base
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--juegos", type=int, default=128, help="juegos per match (and per corpus)")
    ap.add_argument("--before", type=Path, help="a checkout of an earlier commit, to time its heuristic too")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "bench_heuristic.json")
    ap.add_argument("--overwrite", action="store_true", help="replace --out if it exists (a committed figure)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    from truque_env.io import check_new_output, write_json_atomic

    if args.before is not None and not (args.before / "agents" / "heuristic").is_dir():
        raise ValueError(f"--before {args.before}: no agents/heuristic/ there")
    before = args.before.resolve() if args.before else None
    repeats = 1 if args.quick else args.repeats
    juegos = 8 if args.quick else args.juegos
    if juegos < 1 or repeats < 1:
        raise ValueError("--juegos and --repeats must be >= 1")
    check_new_output(args.out, args.overwrite)  # before any measuring
    commit = None
    if before is not None:
        commit = subprocess.run(["git", "-C", str(before), "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=False).stdout.strip() or None
    results = {
        "benchmark": "Moteño heuristic: per-row Python (before, reference twin) against the numba kernels",
        "machine": {"cpu_count": os.cpu_count(), "numba_threads": numba.get_num_threads(),
                    "python": platform.python_version(), "numba": numba.__version__},
        "before_commit": commit,
        "repeats": repeats,
        "load_average_before": os.getloadavg(),  # a figure taken while another job ran is not a figure
        "decisions": {},
        "evaluation": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        for team_size in (1, 2, 3):
            r = bench_decisions(team_size, juegos, repeats, before, tmp)
            results["decisions"][f"{team_size}v{team_size}"] = r
            line = ", ".join(f"{f} {r[f]['decisions_per_s']:,.0f}/s" for f in r if isinstance(r[f], dict))
            print(f"decisions {team_size}v{team_size} ({r['observations']} rows): {line}; "
                  f"x{r['speedup_keyed_parallel']:.1f} keyed over {r['speedup_over']}")
    for team_size in (1, 3):
        r = bench_evaluation(team_size, juegos, repeats, before)
        results["evaluation"][f"{team_size}v{team_size}"] = r
        line = ", ".join(f"{f} {r[f]['juegos_per_s']:.2f}/s" for f in r if isinstance(r[f], dict))
        print(f"evaluation {team_size}v{team_size} ({juegos} juegos): {line}; x{r['speedup']:.1f} over {r['speedup_over']}")
    results["load_average_after"] = os.getloadavg()
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
