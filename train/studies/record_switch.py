"""What a bot's switch on the rival's record is worth, and against whom (issue 17).

A ``RecordSwitchPolicy`` (agents.record_switch) plays its base until the rival's record shows the
sign of the team size, then its second policy (its ``alt``, a best response to a style). This study
plays, against each opponent and on the same duplicate deals, the switch, its base alone and its
alt alone, and reads what the switch saw: the rival's rates per mano once ``min_manos`` manos are
over (the numbers the sign is set from) and the share of the switch's decisions its alt made.

    python -m train.studies.record_switch --policy ppo_switch --tradition moteno --team-size 1 \\
        --opponents random heuristic heuristic_bluffer style_raiser style_caller style_folder style_bluffer \\
        ppo_league1 ppo_3v3 cfr --out benchmarks/results/record_switch_moteno_1v1.json

The three bots draw from the same seeds, so where the sign never shows, the switch is its base
move for move.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.record_switch import RATE_KINDS, RecordSwitchPolicy
from train.studies.results import side_b_wins, write_study_result
from truque_env.engine.header import REC_KINDS
from truque_env.io import check_new_output


class Watched:
    """The switch, counting per decision whether its alt played and, past ``min_manos``, the
    rival's counts and manos (the rates it read)."""

    def __init__(self, switch: RecordSwitchPolicy, team_size: int):
        self.switch, self.name = switch, switch.name
        self.min_manos = switch.signs[team_size].min_manos
        if hasattr(switch, "team_sizes"):
            self.team_sizes = switch.team_sizes
        self.decisions = self.by_alt = self.read = 0
        self.manos, self.counts = 0.0, np.zeros(REC_KINDS)

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        actions = self.switch.act_batch(observations, action_masks, keys)
        _, manos, rival = self.switch.read_record(observations)
        past = manos >= self.min_manos
        self.decisions += len(actions)
        self.by_alt += int(self.switch.last_switched.sum())
        self.read += int(past.sum())
        self.manos += float(manos[past].astype(np.float64).sum())
        self.counts += rival[past].astype(np.float64).sum(axis=0)
        return actions

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def summary(self) -> dict:
        rates = {k: (float(self.counts[i] / self.manos) if self.manos else None) for i, k in enumerate(RATE_KINDS)}
        return {"alt_share": self.by_alt / max(self.decisions, 1), "decisions": self.decisions,
                "rival_rates_per_mano": rates, "decisions_read": self.read}


@dataclass
class RecordSwitchStudyConfig:
    """The switch, its base and its alt, against each opponent on the same deals."""

    policy: str = "ppo_switch"
    """a registry name whose bot is a RecordSwitchPolicy (Moteño's ``ppo_switch``; ``ppo`` plays the pares
    table over it, so it is not one); with layers of switches, the outermost is measured: its alt, and
    everything under its sign as the base"""
    opponents: tuple[str, ...] = ("heuristic", "heuristic_bluffer")
    """registry names or checkpoint paths (agents.registry)"""
    tradition: str = "moteno"
    team_size: int = 1
    alt: Path | None = None
    """a PPO actor (``truque train export``) played as the alt at team_size instead of the policy's own:
    a candidate second policy measured behind the same sign (None: the shipped alt)"""
    juegos: int = 1000
    seed: int = 0
    out: Path = Path("benchmarks/results/record_switch.json")
    overwrite: bool = False
    """replace the result at out (without it, an existing file is refused)"""


def run(cfg: RecordSwitchStudyConfig) -> dict:
    from agents.ppo_policy import PPOPolicy
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    if not cfg.opponents or cfg.juegos < 2:
        raise ValueError(f"give at least one opponent and juegos >= 2 (got {list(cfg.opponents)}, {cfg.juegos!r})")
    check_new_output(cfg.out, cfg.overwrite)

    def bot():  # fresh, with the same seeds in every match
        b = load_policy(cfg.policy, seed=cfg.seed + 2, tradition=cfg.tradition)
        if not isinstance(b, RecordSwitchPolicy) or cfg.team_size not in b.alts:
            raise ValueError(f"{cfg.policy!r} does not switch on the rival's record at {cfg.team_size} contra "
                             f"{cfg.team_size} (a RecordSwitchPolicy with an alt of that size does)")
        if cfg.alt is not None:  # drawing with the seed of the alt it replaces
            seed = b.alts[cfg.team_size].gen.initial_seed()
            b.alts[cfg.team_size] = PPOPolicy(cfg.alt, seed=seed, tradition=cfg.tradition,
                                              name=f"{cfg.policy}:{cfg.alt.stem}")
        return b

    sign = bot().signs[cfg.team_size].to_dict()
    load_before = os.getloadavg()
    rows = {}
    for opponent in cfg.opponents:
        row = {}
        switch = Watched(bot(), cfg.team_size)
        for label, player in (("switch", switch), ("base", bot().base), ("alt", bot().alts[cfg.team_size])):
            report = play_match(load_policy(opponent, seed=cfg.seed + 1, tradition=cfg.tradition), player,
                                names={"A": opponent, "B": f"{cfg.policy} ({label})"}, tradition=cfg.tradition,
                                team_size=cfg.team_size, episodes=cfg.juegos, seed=cfg.seed)
            row[label] = side_b_wins(report.juegos)
        row.update(switch.summary())
        rows[opponent] = row
        r = row["rival_rates_per_mano"]
        print(f"against {opponent}: switch {row['switch']['win_rate']:.1%}, base {row['base']['win_rate']:.1%}, "
              f"alt {row['alt']['win_rate']:.1%}; alt played {row['alt_share']:.0%}; rival per mano: "
              + ", ".join(f"{k} {v:.2f}" for k, v in r.items() if v is not None), flush=True)
    return write_study_result(cfg, "the bot that switches on the rival's record, its base and its alt against each "
                                   "opponent on the same duplicate deals (win rates are the bot's); the rival's "
                                   "rates per mano read past the sign's min_manos, and the share of the switch's "
                                   "decisions its alt made", load_before, rows, sign=sign)


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(RecordSwitchStudyConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
