"""What the prior costs and buys: the argentino ``ppo`` with its blind rival's table played in the
juego's first k manos, for several k, against each opponent (issue 17).

Random takes most of the points of the juegos it wins in the first manos, before the juego's record
can show that it plays blind (two leaves, al mazo: ``train.studies.rival_leaves``). Playing the blind
table there too (``EnvidoTablePolicy(blind_first_manos=k)``) wins those juegos, and costs something
against every rational rival, who meets that table in his first k manos. This study measures both
sides on the same duplicate deals for each k: the bot's own draws come from the same seed at every k,
so the differences are the prior's.

    python -m train.studies.blind_first_manos --first-manos 0 3 5 --opponents random heuristic \\
        ppo_league1 --seeds 17 0 --out benchmarks/results/argentino_blind_first_manos.json

``--prior-tables`` compares tables for those first manos (``EnvidoTablePolicy(prior_table=)``):
solved for a rival blind with some chance and rational otherwise (``train.cfr.envido_argentino
--mixture-of``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from train.studies.results import write_study_result
from truque_env.io import check_new_output


@dataclass
class BlindFirstManosConfig:
    """The bot with ``blind_first_manos`` set to each of ``first_manos``, against each opponent."""

    policy: str = "ppo"
    """the bot (a registry name or checkpoint that plays a blind rival's table: agents.envido_table)"""
    first_manos: tuple[int, ...] = (0, 3, 5)
    """the settings of ``blind_first_manos`` compared (0: only after the sign)"""
    prior_tables: tuple[str, ...] = ("own",)
    """the tables played in those first manos, each compared: "own" the bot's (its prior table, or its
    blind table if it has none), "blind" its blind table, a path that table
    (``EnvidoTablePolicy(prior_table=)``)"""
    opponents: tuple[str, ...] = ("random", "heuristic")
    """registry names or checkpoint paths (agents.registry)"""
    seeds: tuple[int, ...] = (17,)
    """the deals' seeds: one match per opponent, seed and setting"""
    juegos: int = 2000
    tradition: str = "argentino"
    team_size: int = 1
    out: Path = Path("benchmarks/results/argentino_blind_first_manos.json")
    overwrite: bool = False
    """replace the result at out (without it, an existing file is refused)"""


def run(cfg: BlindFirstManosConfig) -> dict:
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    if not cfg.opponents or not cfg.first_manos or not cfg.seeds or cfg.juegos < 2:
        raise ValueError("give at least one opponent, setting and seed, and juegos >= 2 (got "
                         f"{list(cfg.opponents)}, {list(cfg.first_manos)}, {list(cfg.seeds)}, {cfg.juegos!r})")
    if any(int(k) != k or k < 0 for k in cfg.first_manos):
        raise ValueError(f"first_manos must be integers >= 0, got {list(cfg.first_manos)}")
    if cfg.tradition != "argentino":
        raise ValueError(f"the envido tables play truco argentino only, not {cfg.tradition}")
    from agents.envido_table import EnvidoTable

    # a missing or corrupt table, or one of another size: a clear error, before anything is played
    tables = {p: EnvidoTable(p) for p in cfg.prior_tables if p not in ("own", "blind")}
    for path, table in tables.items():
        if table.team_size != cfg.team_size:
            raise ValueError(f"{path}: a table for {table.team_size} contra {table.team_size}, the study plays "
                             f"{cfg.team_size} contra {cfg.team_size}")
    check_new_output(cfg.out, cfg.overwrite)
    load_before = os.getloadavg()
    rows: dict = {}
    for opponent in cfg.opponents:
        rows[opponent] = {}
        for seed in cfg.seeds:
            rows[opponent][str(seed)] = {}
            for k, prior in _settings(cfg):
                bot = load_policy(cfg.policy, seed=seed + 1, tradition=cfg.tradition)
                if cfg.team_size not in getattr(bot, "blind_tables", {}):
                    raise ValueError(f"{cfg.policy} plays no blind rival's table at {cfg.team_size} contra "
                                     f"{cfg.team_size}: there is no prior to set")
                if prior == "own":
                    # k = 0 plays no prior: the bot's own prior table is dropped with it
                    bot.set_blind_play(blind_first_manos=int(k), prior_table=tuple(bot.prior_tables.values()) if k else None)
                else:
                    # a path: that table at the study's size (the other sizes' priors are not played); "blind": none
                    bot.set_blind_play(blind_first_manos=int(k), prior_table=tables.get(prior))
                name = f"{k}" + (f" {prior}" if k else "")
                report = play_match(bot, load_policy(opponent, seed=seed + 2, tradition=cfg.tradition),
                                    names={"A": f"{cfg.policy} first {name}", "B": opponent}, tradition=cfg.tradition,
                                    team_size=cfg.team_size, episodes=cfg.juegos, seed=seed)
                rows[opponent][str(seed)][name] = {"win_rate": report.juegos["win_rate_A"],
                                                   "wilson95": list(report.juegos["wilson95"]),
                                                   "juegos": report.juegos["episodes"]}
                print(f"{cfg.policy} first {name} against {opponent}, seed {seed}: "
                      f"{report.juegos['win_rate_A']:.1%}", flush=True)
    return write_study_result(cfg, "the bot's win rate with a table played in the juego's first k manos "
                                   "(blind_first_manos), against each opponent, on the same duplicate deals for every "
                                   "setting; the keys: k, then 'own' (the bot's prior table), 'blind' (its blind "
                                   "table) or a table's path (train.studies.blind_first_manos)", load_before, rows)


def _settings(cfg: BlindFirstManosConfig) -> list[tuple[int, str]]:
    """Each (first manos, prior table) compared; 0 first manos plays no prior table, so once."""
    return [(k, p) for k in cfg.first_manos for p in (cfg.prior_tables if k else ("own",))]


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(BlindFirstManosConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
