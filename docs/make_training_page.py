"""Regenerate ``docs/training.md`` and its plots from the shipped run's logs and measurements.

    python docs/make_training_page.py

Reads (all committed): the training log of the shipped bot (``metrics.jsonl`` as written by
``train.ppo.loop``, thinned by ``--thin-log``), the duplicate-deal evaluations against the heuristic and
random bots (``truque evaluate ... --out``), the señas/falsos measurements of ``train.studies.analysis`` for
the PPO bot and the heuristic, the señas-by-``p_intercept`` runs (optional), the training
throughput (``benchmarks/bench_train.py``) and what ``train.ppo.bc`` wrote beside the behaviour-cloning
data (its size and collection time, copied next to the checkpoint). Writes the page and PNGs under ``docs/training/``.
Every number on the page comes from those files; nothing is typed in by hand.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from truque_env.io import atomic_output, write_text_atomic

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
DEFAULTS = {
    "metrics": ROOT / "agents" / "checkpoints" / "ppo_moteno_3v3.metrics.jsonl",
    "eval_heuristic": RESULTS / "ppo_3v3_vs_heuristic.json",
    "eval_random": RESULTS / "ppo_3v3_vs_random.json",
    "analysis_ppo": RESULTS / "analysis_ppo_3v3.json",
    "analysis_heuristic": RESULTS / "analysis_heuristic_3v3.json",
    "p_intercept": RESULTS / "senas_p_intercept.json",
    "bench": RESULTS / "bench_train.json",
    "bc": ROOT / "agents" / "checkpoints" / "ppo_moteno_3v3.bc.json",
    "policy": ROOT / "agents" / "checkpoints" / "ppo_moteno_3v3.pt",
}
STAGES = [ROOT / "configs" / "ppo_moteno_3v3_strong.toml"]


def thin_log(stages: list[str], dst: Path, every: int = 10) -> None:
    """Join the metrics.jsonl of a run's stages and keep every ``every``-th training row and every evaluation.

    A stage is ``PATH`` or ``PATH:UPDATE``: the rows after ``UPDATE`` (the checkpoint the next stage
    started from) are dropped; later stages continue its update, decision and time counts.
    """
    keep, offset = [], {"update": 0, "decisions": 0, "wall_seconds": 0.0}
    for k, spec in enumerate(stages):
        path, _, until = spec.partition(":")
        last_update = int(until) if until else None
        by_update: dict = {}
        for line in Path(path).read_text().splitlines():
            r = json.loads(line)
            if last_update is not None and r["update"] > last_update:
                continue
            kind = "eval" if any(key.startswith("eval/") for key in r) else "train"
            by_update.setdefault((r["update"], kind), {}).update(r)  # a resumed run: the last row wins
        rows = [r for _, r in sorted(by_update.items())]
        for r in rows:  # a stage's last row stays: the next stage's counts start there
            if "loss/policy" not in r or r["update"] % every == 0 or r["update"] == 1 or r is rows[-1]:
                keep.append({**r, **{key: r[key] + off for key, off in offset.items()}, "stage": k + 1})
        if rows:  # the next stage starts where this one's last row (its checkpoint) ends
            offset = {key: rows[-1][key] + off for key, off in offset.items()}
    write_text_atomic(dst, "".join(json.dumps(r) + "\n" for r in keep))


def _savefig(fig, path: Path) -> None:
    with atomic_output(path, suffix=".tmp.png") as tmp:
        fig.savefig(tmp, dpi=110, bbox_inches="tight", format="png")


def _load_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plot_curves(rows: list[dict], out_dir: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = []
    train_rows = [r for r in rows if "loss/policy" in r]
    fig, ax = plt.subplots(figsize=(7, 4))
    for bot, color in (("heuristic", "C0"), ("random", "C2")):
        ev = [r for r in rows if f"eval/{bot}/win_rate" in r]
        if not ev:
            continue
        x = [r["decisions"] / 1e6 for r in ev]
        ax.plot(x, [r[f"eval/{bot}/win_rate"] for r in ev], "o-", color=color, label=f"against {bot}")
        ax.fill_between(x, [r[f"eval/{bot}/win_rate_lo95"] for r in ev], [r[f"eval/{bot}/win_rate_hi95"] for r in ev],
                        color=color, alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.axhline(0.6, color="C3", lw=0.8, ls=":", label="target 60%")
    ax.set_xlabel("training decisions (millions)")
    ax.set_ylabel("juegos won (duplicate deals, Wilson 95%)")
    ax.set_ylim(0, 1)
    ax.legend()
    _savefig(fig, out_dir / "win_rate.png")
    plt.close(fig)
    names.append("win_rate.png")

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    x = [r["decisions"] / 1e6 for r in train_rows]
    for ax, keys, title in ((axes[0], ("loss/policy", "loss/value"), "losses"),
                            (axes[1], ("loss/entropy",), "policy entropy (nats)"),
                            (axes[2], ("perf/decisions_per_second",), "decisions per second (cumulative)")):
        for k in keys:
            ax.plot(x, [r[k] for r in train_rows], label=k.split("/")[-1])
        ax.set_title(title)
        ax.set_xlabel("decisions (millions)")
        if len(keys) > 1:
            ax.legend()
    _savefig(fig, out_dir / "training.png")
    plt.close(fig)
    names.append("training.png")

    bot = next((b for b in ("heuristic", "random") if any(f"eval/{b}/win_rate" in r for r in rows)), None)
    if bot is not None:  # what the evaluations against a bot saw of its falsos and señas
        ev = [r for r in rows if f"eval/{bot}/win_rate" in r]
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
        x = [r["decisions"] / 1e6 for r in ev]
        for k, label in (("bluff/pares_bet_when_weak", "pares bet when weak"),
                         ("bluff/truco_bet_when_weak", "truco when weak")):
            axes[0].plot(x, [r[f"eval/{bot}/{k}"] for r in ev], "o-", label=label)
        axes[0].set_title(f"falsos against the {bot} bot: bet rate with weak hands")
        axes[0].legend()
        axes[1].plot(x, [r[f"eval/{bot}/senas/per_mano"] for r in ev], "o-", label="señas per mano")
        axes[1].plot(x, [r[f"eval/{bot}/senas/honest_rate"] for r in ev], "o-", label="honest share")
        axes[1].set_title(f"señas against the {bot} bot")
        axes[1].legend()
        for ax in axes:
            ax.set_xlabel("decisions (millions)")
        _savefig(fig, out_dir / "falsos_senas.png")
        plt.close(fig)
        names.append("falsos_senas.png")
    return names


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _ci(ci, pct=True) -> str:
    if not ci:
        return "–"
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if pct else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _eval_section(report: dict, title: str) -> list[str]:
    j = report["juegos"]
    cfg = report["config"]
    lines = [f"**{title}** ({report['names']['A']} as A, {report['names']['B']} as B; {j['episodes']:,} juegos "
             f"in {j['paired']['pairs']:,} duplicate pairs, {cfg['team_size']} contra {cfg['team_size']}, target "
             f"{cfg['target']}, seed {cfg['seed']}):", "",
             "| | A | B |", "|---|---|---|",
             f"| juegos won | {j['wins']['A']:,} ({_pct(j['win_rate_A'])}) | {j['wins']['B']:,} |",
             f"| Wilson 95% (A) | {_ci(j['wilson95'])} | |",
             f"| paired bootstrap 95% (A) | {_ci(j['paired']['bootstrap95'])} | |"]
    for source in ("pares", "flores", "truque", "total"):
        a, b = report["chinas_per_mano"]["A"][source], report["chinas_per_mano"]["B"][source]
        lines.append(f"| chinas per mano, {source} | {a['mean']:.2f} | {b['mean']:.2f} |")
    for kind in ("pares", "truco"):
        a, b = report["bluffs"]["A"][kind], report["bluffs"]["B"][kind]
        lines.append(f"| {kind}: bet rate with a weak hand | {_pct(a['bet_when_weak']['rate'])} | "
                     f"{_pct(b['bet_when_weak']['rate'])} |")
        lines.append(f"| {kind}: weak bets won without a showdown | {_pct(a['weak_refused']['rate'])} "
                     f"({a['weak_refused']['count']} of {a['weak_refused']['of']}) | "
                     f"{_pct(b['weak_refused']['rate'])} ({b['weak_refused']['count']} of {b['weak_refused']['of']}) |")
    return lines + [""]


def _analysis_rows(name: str, a: dict) -> str:
    mi = a["senas_mutual_information"]
    hc = mi["features"]["hand_class"]
    ci = a["causal_influence"]
    row = (f"| {name} | {mi['senas_made']:,} / {mi['decisions']:,} | {hc['mi_bits']:.3f} {_ci(hc['bootstrap95'], False)} | "
           f"{ci['kl_bits']['mean']:.3f} {_ci(ci['kl_bits']['bootstrap95'], False)} | {ci['tv']['mean']:.3f} |")
    if "senas_ablation" in a:
        ab = a["senas_ablation"]
        net = ab["net_chinas_per_mano_full"]
        row += (f" {_pct(ab['win_rate_full'])} of {ab['juegos']:,} {_ci(ab['wilson95'])}, paired "
                f"{_ci(ab['paired_bootstrap95'])} | {net['mean']:+.3f} {_ci(net['ci95'], False)} |")
    else:
        row += " not measured | |"
    return row


def _p_intercept_section(pi: dict) -> list[str]:
    """The p_intercept experiment (``train.studies.senas_experiment``): mean and range over seeds when there are
    several, else one row per run."""
    from train.studies.senas_experiment import MEASURES

    c = pi.get("config", {})
    command = ("" if "seeds" not in c else
               f" Made by `python -m train.studies.senas_experiment --init-from {c['init_from']} --config {c['config']} "
               f"--decisions {c['decisions']} --seeds {' '.join(map(str, c['seeds']))} --out {c['out']}`.")
    summary = pi.get("summary")
    several = bool(summary) and max(r["seeds"] for r in summary) > 1
    caveat = (" One run per seed at each value; the table gives the mean over seeds and [min, max]." if several else
              " One run per value: the spread between runs is not measured, so differences between rows within it "
              "are not effects of p_intercept.")
    lines = ["### What is signalled as interception grows", "", pi.get("description", "") + caveat + command, ""]
    if several:
        lines += ["| p_intercept | seeds | " + " | ".join(MEASURES.values()) + " |", "|---|---|---|---|---|"]
        lines += [f"| {r['p_intercept']} | {r['seeds']} | "
                  + " | ".join(f"{r[k]['mean']:.3f} [{r[k]['min']:.3f}, {r[k]['max']:.3f}]" for k in MEASURES) + " |"
                  for r in summary]
        overlap = [label for k, label in MEASURES.items()
                   if max(r[k]["min"] for r in summary) <= min(r[k]["max"] for r in summary)]
        if overlap:
            lines += ["", f"The ranges over seeds overlap at every value for {', '.join(overlap)}: at this budget "
                      "the seed moves these more than p_intercept does."]
        return lines
    lines += ["| p_intercept | decisions trained | señas per chance | I(seña; hand) bits [95%] | influence KL bits |",
              "|---|---|---|---|---|"]
    return lines + [f"| {r['p_intercept']} | {r['decisions']:,} | {r['senas_rate']:.3f} | {r['mi_bits']:.3f} "
                    f"{_ci(r['mi_bootstrap95'], False)} | {r['influence_kl_bits']:.3f} |" for r in pi["runs"]]


def _bets_table(analyses: dict) -> list[str]:
    lines = []
    for kind in ("pares", "truco"):
        first = next(iter(analyses.values()))
        name0 = next(iter(first["bet_frequencies"]))
        bins = [r["bin"] for r in first["bet_frequencies"][name0][kind]["by_bin"]]
        lines += [f"| {kind}: bet rate by hand | " + " | ".join(bins) + " |", "|---|" + "---|" * len(bins)]
        for label, a in analyses.items():
            b = next(iter(a["bet_frequencies"].values()))
            lines.append(f"| {label} | " + " | ".join(_pct(r["bet"]["rate"]) for r in b[kind]["by_bin"]) + " |")
            lines.append(f"| {label}: won without a showdown | "
                         + " | ".join(_pct(r["won_without_showdown"]["rate"]) if "won_without_showdown" in r else "–"
                                      for r in b[kind]["by_bin"]) + " |")
        lines.append("")
    return lines


def _stage_lines(stages: list[Path], train_rows: list[dict], rel) -> list[str]:
    """One bullet per training stage: its config, its opponents (read from the TOML) and its share of the log."""
    from truque_env.io import tomllib

    out = []
    for k, path in enumerate(stages, start=1):
        cfg = tomllib.loads(Path(path).read_text())["ppo"] if Path(path).exists() else {}
        rows = [r for r in train_rows if r.get("stage", 1) == k]
        start = "behaviour cloning of `" + Path(cfg["bc_dataset"]).name + "`, then " if cfg.get("bc_dataset") else ""
        bots = ", ".join(cfg.get("bot_opponents", []))
        net = (f"a network of {cfg.get('hidden', 256)} hidden units"
               + (" reading the hand summary (`agents.features`)" if cfg.get("hand_features") else "") + "; ")
        who = (f"{net}{start}the learner against itself at {cfg.get('p_latest', 0.5):.0%} of tables"
               + (f", {bots} at {cfg['p_bot']:.0%}" if cfg.get("p_bot") else "") + ", past snapshots at the rest")
        if cfg.get("time_limit_minutes"):
            who += f"; a time limit of {cfg['time_limit_minutes']:g} min"
        span = ""
        if rows:
            first = [r for r in train_rows if r.get("stage", 1) == k - 1]
            t0 = first[-1] if first else {"decisions": 0, "wall_seconds": 0.0, "update": 0}
            span = (f": {rows[-1]['decisions'] - t0['decisions']:,} decisions, {rows[-1]['update'] - t0['update']:,} "
                    f"updates, {(rows[-1]['wall_seconds'] - t0['wall_seconds']) / 60:.0f} min")
        if len(stages) == 1:  # the page's "In all" line gives the one run's size and time
            out.append(f"- `{rel(path)}`: {who}.")
        else:
            out.append(f"- stage {k} (`{rel(path)}`): {who}{span}.")
    return out


def build_page(paths: dict, out: Path) -> None:
    out_dir = out.parent / "training"
    rows = _load_rows(paths["metrics"])
    figures = plot_curves(rows, out_dir)
    evals = {k: json.loads(paths[k].read_text()) for k in ("eval_heuristic", "eval_random") if paths[k].exists()}
    analyses = {label: json.loads(paths[k].read_text()) for label, k in (("PPO", "analysis_ppo"),
                                                                          ("heuristic", "analysis_heuristic"))
                if paths[k].exists()}
    if analyses:
        from train.studies.analysis import plot_bet_frequencies

        plot_bet_frequencies({k: next(iter(a["bet_frequencies"].values())) for k, a in analyses.items()},
                             out_dir / "bets_by_strength.png")
        figures.append("bets_by_strength.png")
    bench = json.loads(paths["bench"].read_text())
    train_rows = [r for r in rows if "loss/policy" in r]
    last = train_rows[-1]
    rel = lambda p: os.path.relpath(p, ROOT)  # noqa: E731

    lines = ["# Training: PPO self-play for Truque Moteño", "",
             f"*Generated by `python docs/make_training_page.py` from `{rel(paths['metrics'])}` and "
             "`benchmarks/results/`; do not edit by hand.*", "",
             "## The first shipped bot, now `ppo_3v3`", "",
             "`agents/checkpoints/ppo_moteno_3v3.pt` (the registry name `ppo_3v3`; since issue 17 the name `ppo` is "
             "the league bot of `configs/ppo_moteno_league_v5.toml`, measured against every bot in "
             "[results.md](results.md)), trained by the commands at the top "
             + ("of its config:" if len(paths["stages"]) == 1 else
                "of each stage's config; each stage starts from the previous one's last checkpoint:"), ""]
    lines += _stage_lines(paths["stages"], train_rows, rel)
    bc = json.loads(paths["bc"].read_text()) if paths["bc"].exists() else None
    # the run's own clock (the time limit's) is kept in the exported policy; older exports have only the log
    seconds = max(r["wall_seconds"] for r in rows)
    if paths["policy"].exists():
        from train.ppo.loop import load_checkpoint

        seconds = max(seconds, float(load_checkpoint(paths["policy"]).get("seconds", 0.0)))
    total = f"{last['decisions']:,} decisions in {last['update']:,} updates, {seconds / 60:.1f} min of wall time"
    if bc is None:
        lines += ["", f"In all: {total} on 2 cores (the warm start and the in-loop evaluations included).", ""]
    else:
        lines += ["", f"In all: {total} on 2 cores (the warm start and the in-loop evaluations included), after the "
                  f"collection of the behaviour-cloning data ({bc['decisions']:,} decisions of the {bc['policy']} bot, "
                  f"{bc['seconds'] / 60:.1f} min, `{rel(paths['bc'])}`): "
                  f"**{(seconds + bc['seconds']) / 60:.1f} min** from nothing to the shipped bot.", ""]
    lines += ["## Evaluation (duplicate deals)", ""]
    for key, title in (("eval_heuristic", "Against the heuristic bot"), ("eval_random", "Against the random bot")):
        if key in evals:
            lines += _eval_section(evals[key], title)
    lines += ["## Learning curves", ""] + [f"![{f}](training/{f})" for f in figures if f != "bets_by_strength.png"] + [""]
    lines += ["## Señas", "",
              "Measured by `train/studies/analysis/` in self-play (definitions in its docstring and in each JSON): the mutual "
              "information between the seña made (or none) and the signaller's hand class, the causal influence of a "
              "teammate's seña on a player's action distribution, and the win rate of the full policy against itself "
              "with the señas channel cut (duplicate deals).", "",
              "| policy | señas made / chances | I(seña; hand) bits [95%] | influence KL bits [95%] | TV | "
              "full vs señas cut: juegos won [95%] | full minus cut: chinas per mano [95%] |",
              "|---|---|---|---|---|---|---|"]
    lines += [_analysis_rows(k, a) for k, a in analyses.items()] + [""]
    if paths["p_intercept"].exists():
        lines += _p_intercept_section(json.loads(paths["p_intercept"].read_text())) + [""]
    lines += ["## Falsos", "",
              "Bet rates by hand strength in self-play (`train/studies/analysis/`, `bet_frequencies`); a weak pares hand has "
              "valor < 20, a weak truco hand no unplayed card as good as a tres and no baza won.", "",
              "![bets by strength](training/bets_by_strength.png)", ""] + _bets_table(analyses)
    lines += ["## Throughput", "", f"`python benchmarks/bench_train.py` ({bench['unit']}; "
              f"{bench['machine']['cpu_count']} cores, torch {bench['machine']['torch']}):", "",
              "| config | decisions/s | trained decisions/s | tables x steps | hidden |", "|---|---|---|---|---|"]
    for r in bench["results"].values():
        lines.append(f"| `{r['config']}` | {r['decisions_per_s']:,.0f} | {r['trained_decisions_per_s']:,.0f} | "
                     f"{r['num_envs']} x {r['num_steps']} | {r['hidden']} |")
    lines.append("")
    write_text_atomic(out, "\n".join(lines))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for key, default in DEFAULTS.items():
        ap.add_argument(f"--{key.replace('_', '-')}", type=Path, default=default)
    ap.add_argument("--thin-log", nargs="+", metavar="METRICS[:UPDATE]",
                    help="a run's metrics.jsonl (one per stage; PATH:UPDATE cuts a stage at the checkpoint the next "
                         "started from), joined and thinned into --metrics first")
    ap.add_argument("--stages", type=Path, nargs="+", default=STAGES, help="the run's stage configs, in order")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "training.md")
    args = ap.parse_args(argv)
    paths = {k: getattr(args, k) for k in DEFAULTS} | {"stages": args.stages}
    if args.thin_log:
        thin_log(args.thin_log, paths["metrics"])
    for key in ("metrics", "bench"):
        if not paths[key].exists():
            raise SystemExit(f"{paths[key]} is missing: it is the page's input ({key})")
    build_page(paths, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
