"""The command line of ``train.studies.analysis`` (``python -m train.studies.analysis``): every
measurement of one policy, written as one JSON."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from train.eval.duplicate import _jsonable
from train.eval.styles.moteno import PARES_BINS
from train.studies.analysis.ablation import senas_ablation, senas_ablation_against
from train.studies.analysis.bets import bet_frequencies, plot_bet_frequencies
from train.studies.analysis.influence import causal_influence
from train.studies.analysis.selfplay import _check_positive, _check_table
from train.studies.analysis.senas import collect_senas, senas_mutual_information
from truque_env.io import check_new_output, write_json_atomic

# --------------------------------------------------------------------------------------------
# 7. the command line


@dataclass
class AnalysisConfig:
    """Señas and falsos of a policy in self-play: MI, causal influence, bet frequencies (and ablation)."""

    policy: str = "heuristic"
    """a policy name (agents.registry: random, heuristic, heuristic_sin_senas) or a checkpoint path"""
    team_size: int = 3
    """players per team (1..4)"""
    manos: int = 2000
    """manos of self-play for each measurement"""
    influence_decisions: int = 3000
    """at most this many decisions in the causal influence (each costs 12 policy calls)"""
    juegos: int = 0
    """juegos of the ablation match (full against señas cut); 0: skip it"""
    ablation_opponent: str | None = None
    """with juegos: also what the señas are worth against this player (e.g. heuristic): the policy
    with and without its señas, each against it on the same deals"""
    p_intercept: float = 0.1
    """probability that a rival intercepts a seña"""
    num_envs: int = 64
    """tables played at once"""
    seed: int = 0
    """seeds the deals, the policy and the bootstrap"""
    bootstrap: int = 1000
    """bootstrap resamples of the CIs"""
    out: Path = Path("runs/analysis/results.json")
    """the results as JSON (written atomically)"""
    plot: Path | None = None
    """a PNG of the bet frequencies by hand strength (optional)"""
    compare: tuple[str, ...] = ()
    """more policies whose bet frequencies are measured and drawn on the plot"""
    overwrite: bool = False
    """replace the results at out and the plot (without it, both are refused if present)"""


def run(cfg: AnalysisConfig) -> dict:
    from agents.registry import load_policy

    _check_table(cfg.team_size, cfg.p_intercept)
    for name in ("manos", "num_envs", "influence_decisions"):
        _check_positive(name, getattr(cfg, name))
    if cfg.juegos < 0:
        raise ValueError(f"juegos must be >= 0, got {cfg.juegos!r}")

    def fresh(name: str):  # each measurement starts from the seeded policy: reproducible alone
        return load_policy(name, seed=cfg.seed)

    fresh(cfg.policy)  # an unknown name fails here, before any play
    for name in (*cfg.compare, *([cfg.ablation_opponent] if cfg.ablation_opponent else [])):
        fresh(name)
    if cfg.ablation_opponent and not cfg.juegos:
        raise ValueError("ablation_opponent needs juegos > 0 (the juegos of each match)")
    for path in (cfg.out, *([cfg.plot] if cfg.plot is not None else [])):  # before any play
        check_new_output(path, cfg.overwrite)
    common = {"team_size": cfg.team_size, "p_intercept": cfg.p_intercept, "seed": cfg.seed, "num_envs": cfg.num_envs}
    records = collect_senas(fresh(cfg.policy), manos=cfg.manos, **common)
    results: dict = {"config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(cfg).items()}}
    results["senas_mutual_information"] = senas_mutual_information(records, bootstrap=cfg.bootstrap, seed=cfg.seed)
    results["causal_influence"] = causal_influence(fresh(cfg.policy), manos=cfg.manos,
                                                   max_decisions=cfg.influence_decisions,
                                                   bootstrap=cfg.bootstrap, **common)
    bets = {cfg.policy: bet_frequencies(fresh(cfg.policy), manos=cfg.manos, **common)}
    for name in cfg.compare:
        bets[name] = bet_frequencies(fresh(name), manos=cfg.manos, **common)
    results["bet_frequencies"] = {name: b.to_dict() for name, b in bets.items()}
    if cfg.juegos:
        results["senas_ablation"] = senas_ablation(fresh(cfg.policy), juegos=cfg.juegos, bootstrap=cfg.bootstrap,
                                                   **common)
    if cfg.juegos and cfg.ablation_opponent:
        results["senas_ablation_against"] = {
            "opponent": cfg.ablation_opponent,
            **senas_ablation_against(lambda seed: load_policy(cfg.policy, seed=seed),
                                     lambda seed: load_policy(cfg.ablation_opponent, seed=seed),
                                     juegos=cfg.juegos, bootstrap=cfg.bootstrap, **common)}
    results["definitions"] = DEFINITIONS
    results = _jsonable(results)
    write_json_atomic(cfg.out, results)
    if cfg.plot is not None:
        plot_bet_frequencies(bets, cfg.plot)
    return results


DEFINITIONS = {
    "senas_mutual_information": "I(S; H) in bits between the symbol S (the seña made, or 'ninguna', at each "
                                "decision where a seña was legal) and a hand feature H; plug-in with the "
                                "Miller-Madow correction; bootstrap95: basic (pivotal) bootstrap resampling manos, "
                                "T - quantiles of (T* - plug-in MI)",
    "hand features": "honest:<seña>: that seña is honest for the hand (train.eval.duplicate's rule, unplayed cards); "
                     "hand_class: the first seña in SENA_NAMES order honest for the hand; pares_bin: "
                     + ", ".join(PARES_BINS),
    "causal_influence": "units: a decision (>= 2 legal actions) of a player who sees a teammate's seña; p: his "
                        "action distribution, q: the mean of his distributions with that teammate's senas_seen "
                        "row set to each of the 11 señas and to none; kl_bits = KL(p || q) in bits, tv = TV(p, q); "
                        "changed_share: some alternative changes p. Bootstrap over manos",
    "bet_frequencies": "bet rate = bets / decisions with the cards seen where the bet was legal (señas aside). "
                       "pares: envío N pares / envío la falta, by valor de pares " + ", ".join(PARES_BINS)
                       + "; truco: truco / retruco / panueve, by strength: débil (no unplayed card >= tres and "
                         "no baza won), sin tres con baza ganada, best unplayed tres, mata, pieza. "
                         "won_without_showdown: the bet was the last raise and the rivals said no quiero. Wilson CIs",
    "senas_ablation": "duplicate-deal juegos of the policy (A) against itself with the señas channel cut (B: no "
                      "seña while another action is legal; other seats' senas_seen zeroed)",
    "senas_ablation_against": "two duplicate matches against the opponent on the same deals: the policy, and the "
                              "policy with its señas channel cut at every seat of its team; difference of the win "
                              "rates with a normal 95% interval (the matches taken as independent)",
}


def _print_summary(results: dict) -> None:
    from rich import print as rprint

    mi = results["senas_mutual_information"]
    hc = mi["features"]["hand_class"]
    ci = results["causal_influence"]
    rprint(f"[bold]señas[/]: {mi['senas_made']} made at {mi['decisions']} decisions; "
           f"I(seña; hand_class) = {hc['mi_bits']} bits {hc['bootstrap95']}")
    rprint(f"[bold]causal influence[/]: {ci['units']} units, KL {ci['kl_bits']['mean']} bits "
           f"{ci['kl_bits']['bootstrap95']}, TV {ci['tv']['mean']}")
    for name, b in results["bet_frequencies"].items():
        for kind in ("pares", "truco"):
            rates = ", ".join(f"{r['bin']}: {r['bet']['rate']:.3f}" if r["bet"]["rate"] is not None else f"{r['bin']}: –"
                              for r in b[kind]["by_bin"])
            rprint(f"[bold]{name} bets {kind}[/] {rates}")
    if "senas_ablation" in results:
        ab = results["senas_ablation"]
        rprint(f"[bold]ablation[/]: full wins {ab['win_rate_full']} of {ab['juegos']} juegos {ab['wilson95']}")


def main(argv=None) -> dict:
    import tyro

    cfg = tyro.cli(AnalysisConfig, args=argv)
    results = run(cfg)
    _print_summary(results)
    from rich import print as rprint

    rprint(f"results written to {cfg.out}" + (f", plot to {cfg.plot}" if cfg.plot else ""))
    return results

