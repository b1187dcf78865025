"""What is signalled when rivals may intercept the señas: one policy trained on under each ``p_intercept``.

From one starting checkpoint (the shipped bot), a PPO run per interception probability (``0``,
``0.1``, ``0.5`` by default; same config otherwise, ``PPOConfig.init_from``) trains for
``decisions`` more decisions; then ``train.analysis`` measures, in self-play at that same
probability, how often the trained policy makes a seña when it may, the mutual information
between its señas and its hand, and the causal influence of a teammate's seña on its actions.
A seña that rivals may read is worth less to a team (and can be used against it), so the
expectation is fewer and less informative señas as ``p_intercept`` grows.

    python -m train.senas_experiment --init-from agents/checkpoints/ppo_moteno_3v3.pt \\
        --config configs/ppo_moteno_3v3_strong.toml --decisions 10000000 \\
        --out benchmarks/results/senas_p_intercept.json
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from truque_env.io import write_json_atomic


@dataclass
class SenasExperimentConfig:
    """Train on under several interception probabilities and measure what is signalled."""

    init_from: Path = Path("agents/checkpoints/ppo_moteno_3v3.pt")
    config: Path = Path("configs/ppo_moteno_3v3_strong.toml")
    """the PPO settings of every run (its bc_dataset, evaluations and run_dir are replaced)"""
    p_intercepts: tuple[float, ...] = (0.0, 0.1, 0.5)
    decisions: int = 10_000_000
    """decisions of each run"""
    value_warmup_updates: int = 20
    """updates that train the critic only (a shipped policy has no critic)"""
    manos: int = 1500
    """manos of self-play for the measurements"""
    influence_decisions: int = 1500
    run_dir: Path = Path("runs/senas_p_intercept")
    seed: int = 0
    out: Path = Path("benchmarks/results/senas_p_intercept.json")


def run(cfg: SenasExperimentConfig) -> dict:
    from agents.ppo_policy import PPOPolicy
    from train.analysis import causal_influence, collect_senas, senas_mutual_information
    from train.ppo import PPOConfig, train

    if not cfg.p_intercepts or any(not 0.0 <= p <= 1.0 for p in cfg.p_intercepts):
        raise ValueError(f"p_intercepts must be probabilities, got {cfg.p_intercepts!r}")
    if not Path(cfg.init_from).exists():
        raise ValueError(f"init_from {str(cfg.init_from)!r} does not exist")
    runs = []
    for p in cfg.p_intercepts:
        run_dir = cfg.run_dir / f"p{p:g}"
        ppo = PPOConfig.from_toml(cfg.config, p_intercept=p, init_from=Path(cfg.init_from), bc_dataset=None,
                                  value_warmup_updates=cfg.value_warmup_updates, total_decisions=cfg.decisions, eval_every=0,
                                  run_dir=run_dir, progress=False, tensorboard=False)
        train(ppo)
        policy = PPOPolicy(run_dir / "checkpoint.pt", seed=cfg.seed)
        common = {"team_size": ppo.team_size, "p_intercept": p, "seed": cfg.seed}
        records = collect_senas(policy, manos=cfg.manos, **common)
        mi = senas_mutual_information(records, seed=cfg.seed)
        influence = causal_influence(PPOPolicy(run_dir / "checkpoint.pt", seed=cfg.seed), manos=cfg.manos,
                                     max_decisions=cfg.influence_decisions, **common)
        hand = mi["features"]["hand_class"]
        runs.append({"p_intercept": p, "decisions": cfg.decisions, "chances": mi["decisions"],
                     "senas_made": mi["senas_made"], "senas_rate": mi["senas_made"] / max(1, mi["decisions"]),
                     "mi_bits": hand["mi_bits"], "mi_bootstrap95": hand["bootstrap95"],
                     "influence_kl_bits": influence["kl_bits"]["mean"],
                     "influence_kl_bootstrap95": influence["kl_bits"]["bootstrap95"],
                     "honest_share": mi["honesty"]["all"]})
        print(f"p_intercept {p}: señas {runs[-1]['senas_rate']:.3f} per chance, I(seña; hand) "
              f"{hand['mi_bits']:.3f} bits, influence KL {influence['kl_bits']['mean']:.3f} bits")
    result = {"description": f"From `{cfg.init_from}`, {cfg.decisions:,} more decisions of PPO at each "
                             f"p_intercept (settings of `{cfg.config}`), then {cfg.manos:,} manos of self-play at "
                             "the same p_intercept measured by train.analysis.",
              "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(cfg).items()},
              "runs": runs}
    write_json_atomic(cfg.out, result)
    return result


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(SenasExperimentConfig, args=argv))


if __name__ == "__main__":
    main()
