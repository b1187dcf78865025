"""What is signalled when rivals may intercept the señas: one policy trained on under each ``p_intercept``.

From one starting checkpoint (the shipped bot), a PPO run per interception probability (``0``,
``0.1``, ``0.5`` by default; same config otherwise, ``PPOConfig.init_from``) trains for
``decisions`` more decisions; then ``train.studies.analysis`` measures, in self-play at that same
probability, how often the trained policy makes a seña when it may, the mutual information
between its señas and its hand, and the causal influence of a teammate's seña on its actions.
A seña that rivals may read is worth less to a team (and can be used against it), so the
expectation is fewer and less informative señas as ``p_intercept`` grows. Only learned rivals
read intercepted señas (the heuristic reads its partners' only), so by default the runs play
the learner and its snapshots, not the config's bots (``p_bot = 0``).

Each value is trained once per seed (``seeds``): the spread between seeds is the yardstick
for the differences between values. A run whose checkpoint is already complete is measured
again, not retrained (so more seeds can be added to an experiment).

    python -m train.studies.senas_experiment --init-from agents/checkpoints/ppo_moteno_3v3.pt \\
        --config configs/ppo_moteno_3v3_strong.toml --decisions 5000000 --seeds 0 1 2 \\
        --out benchmarks/results/senas_p_intercept.json
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from train import config
from truque_env.io import write_json_atomic

MEASURES = {"senas_rate": "señas per chance", "mi_bits": "I(seña; hand) bits", "influence_kl_bits": "influence KL bits"}
"""what each run reports and ``summary`` aggregates over seeds, with the label the training page prints"""


@dataclass
class SenasExperimentConfig:
    """Train on under several interception probabilities and measure what is signalled."""

    init_from: Path = Path("agents/checkpoints/ppo_moteno_3v3.pt")
    config: Path = Path("configs/ppo_moteno_3v3_strong.toml")
    """the PPO settings of every run (its bc_dataset, evaluations and run_dir are replaced)"""
    p_intercepts: tuple[float, ...] = (0.0, 0.1, 0.5)
    decisions: int = 10_000_000
    """decisions of each run"""
    p_bot: float | None = 0.0
    """share of tables against the config's bot_opponents; None keeps the config's"""
    value_warmup_updates: int = 20
    """updates that train the critic only (a shipped policy has no critic)"""
    manos: int = 1500
    """manos of self-play for the measurements"""
    influence_decisions: int = 1500
    run_dir: Path = Path("runs/senas_p_intercept")
    seeds: tuple[int, ...] = (0,)
    """run s trains with the config's seed + s and measures with seed s"""
    out: Path = Path("benchmarks/results/senas_p_intercept.json")


def run(cfg: SenasExperimentConfig) -> dict:
    if not cfg.p_intercepts or any(not 0.0 <= p <= 1.0 for p in cfg.p_intercepts):
        raise ValueError(f"p_intercepts must be probabilities, got {cfg.p_intercepts!r}")
    if not Path(cfg.init_from).exists():
        raise ValueError(f"init_from {str(cfg.init_from)!r} does not exist")
    if not cfg.seeds or len(set(cfg.seeds)) != len(cfg.seeds) or any(int(x) < 0 for x in cfg.seeds):
        raise ValueError(f"seeds must be distinct non-negative integers, got {cfg.seeds!r}")
    runs = []
    for p in cfg.p_intercepts:
        for seed in cfg.seeds:
            runs.append(_train_and_measure(cfg, p, int(seed)))
    summary = []
    for p in cfg.p_intercepts:
        mine = [r for r in runs if r["p_intercept"] == p]
        summary.append({"p_intercept": p, "seeds": len(mine),
                        **{k: {"mean": float(np.mean([r[k] for r in mine])), "min": min(r[k] for r in mine),
                               "max": max(r[k] for r in mine)}
                           for k in MEASURES}})
    ppo = _ppo_config(cfg, cfg.p_intercepts[0], cfg.seeds[0])
    rivals = (f"the config's bots at {ppo.p_bot:.0%} of tables, " if ppo.p_bot else "") + \
        f"itself at {ppo.p_latest:.0%}, past snapshots at the rest"
    result = {"description": f"From `{cfg.init_from}`, {cfg.decisions:,} more decisions of PPO at each "
                             f"p_intercept (settings of `{cfg.config}`; rivals: {rivals}), then {cfg.manos:,} manos "
                             "of self-play at the same p_intercept measured by train.studies.analysis.",
              "config": config.to_dict(cfg),
              "runs": runs, "summary": summary}
    write_json_atomic(cfg.out, result)
    return result


def _ppo_config(cfg: SenasExperimentConfig, p: float, seed: int):
    from train.ppo.loop import PPOConfig

    bots = {} if cfg.p_bot is None else {"p_bot": cfg.p_bot}
    ppo = PPOConfig.from_toml(cfg.config, p_intercept=p, init_from=Path(cfg.init_from), bc_dataset=None, **bots,
                              value_warmup_updates=cfg.value_warmup_updates, total_decisions=cfg.decisions,
                              eval_every=0, run_dir=cfg.run_dir / f"p{p:g}-seed{seed}", progress=False,
                              tensorboard=False)
    return dataclasses.replace(ppo, seed=ppo.seed + seed)


def _train_and_measure(cfg: SenasExperimentConfig, p: float, seed: int) -> dict:
    from agents.ppo_policy import PPOPolicy
    from train.ppo.loop import load_checkpoint, train
    from train.studies.analysis import causal_influence, collect_senas, senas_mutual_information

    ppo = _ppo_config(cfg, p, seed)
    ckpt = ppo.run_dir / "checkpoint.pt"
    done = ckpt.exists() and load_checkpoint(ckpt, ppo)["decisions"] >= ppo.total_decisions
    if not done:
        train(ppo)
    common = {"team_size": ppo.team_size, "p_intercept": p, "seed": seed}
    mi = senas_mutual_information(collect_senas(PPOPolicy(ckpt, seed=seed), manos=cfg.manos, **common), seed=seed)
    influence = causal_influence(PPOPolicy(ckpt, seed=seed), manos=cfg.manos,
                                 max_decisions=cfg.influence_decisions, **common)
    hand = mi["features"]["hand_class"]
    row = {"p_intercept": p, "seed": seed, "ppo_seed": ppo.seed, "decisions": cfg.decisions,
           "retrained": not done, "chances": mi["decisions"], "senas_made": mi["senas_made"],
           "senas_rate": mi["senas_made"] / max(1, mi["decisions"]),
           "mi_bits": hand["mi_bits"], "mi_bootstrap95": hand["bootstrap95"],
           "influence_kl_bits": influence["kl_bits"]["mean"],
           "influence_kl_bootstrap95": influence["kl_bits"]["bootstrap95"], "honest_share": mi["honesty"]["all"]}
    print(f"p_intercept {p} seed {seed}: señas {row['senas_rate']:.3f} per chance, I(seña; hand) "
          f"{hand['mi_bits']:.3f} bits, influence KL {row['influence_kl_bits']:.3f} bits")
    return row


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(SenasExperimentConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
