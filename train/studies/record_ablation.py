"""What a bot's reading of the juego's record is worth, and against whom (issue 17).

A league bot with ``juego_record`` reads the juego's public record (each team's bets, acceptances
and shown envidos so far: ``agents.features``). Against an honest rival that is information;
against an exploiter it is a handle: the exploiters of the argentino league bots win by how the
bot answers their envidos (docs/league_argentino.md). This study plays the bot twice against each opponent
on the same duplicate deals: as it is, and with the record slice of its observation blanked, as a
juego's first mano shows it (a bot that has seen nothing of its rival). The bot's own draws come
from the same seed in both, so the difference is the record's.

    python -m train.studies.record_ablation --policy runs/ppo_argentino_league_v5/policy_piece3.pt \\
        --opponents heuristic runs/exploiter_ppo_argentino_league_v5_piece3_1v1/policy.pt \\
        --out benchmarks/results/record_ablation_argentino_league_v5_piece3_1v1.json

The blanked bot is not a bot trained without the record: an exploiter's win against it says what
the record costs this bot, not how exploitable a record-free bot would be.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from train.studies.results import side_b_wins, write_study_result
from truque_env.io import check_new_output


class BlankRecord:
    """``inner`` with the juego_record slice of every observation it sees set to 0 (a fresh juego's)."""

    def __init__(self, inner, tradition: str):
        from agents.features import layout_for

        lay = layout_for(tradition)
        if lay.record_start < 0:
            raise ValueError(f"{tradition}'s observation has no juego_record slice to blank")
        if not getattr(getattr(inner, "agent", None), "juego_record", False):
            raise ValueError(f"{inner.name} does not read the juego's record (a PPO checkpoint with "
                             "juego_record = true does): blanking it would change nothing")
        self.inner, self.start, self.stop = inner, lay.record_start, lay.record_start + lay.record_len
        self.name = f"{inner.name} (record blanked)"
        if hasattr(inner, "team_sizes"):
            self.team_sizes = inner.team_sizes

    def blank(self, observations) -> np.ndarray:
        obs = np.array(observations, copy=True)
        obs[..., self.start:self.stop] = 0
        return obs

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        return self.inner.act_batch(self.blank(observations), action_masks, keys)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])


@dataclass
class RecordAblationConfig:
    """The bot as it is and with the juego's record blanked, against each opponent on the same deals."""

    policy: str = "runs/ppo_argentino_league_v5/policy_piece3.pt"
    """a PPO checkpoint that reads the juego's record (juego_record = true)"""
    opponents: tuple[str, ...] = ("heuristic",)
    """registry names or checkpoint paths (agents.registry)"""
    tradition: str = "argentino"
    team_size: int = 1
    juegos: int = 2000
    seed: int = 0
    out: Path = Path("benchmarks/results/record_ablation.json")
    overwrite: bool = False
    """replace the result at out (without it, an existing file is refused)"""


def _row(report: dict) -> dict:
    """What the bot (side B) keeps of a match: its win rate, its points and its answers to the envido."""
    return {**side_b_wins(report["juegos"]), "chinas_per_mano": report["chinas_per_mano"]["B"],
            "answers": report.get("answers", {}).get("B")}


def run(cfg: RecordAblationConfig) -> dict:
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    if not cfg.opponents or cfg.juegos < 2:
        raise ValueError(f"give at least one opponent and juegos >= 2 (got {list(cfg.opponents)}, {cfg.juegos!r})")
    check_new_output(cfg.out, cfg.overwrite)
    BlankRecord(load_policy(cfg.policy, tradition=cfg.tradition), cfg.tradition)  # a bot without the record fails now
    load_before = os.getloadavg()
    rows = {}
    for opponent in cfg.opponents:
        rows[opponent] = {}
        for blanked in (False, True):
            # fresh policies with the same seeds: the two matches differ only by the record
            bot = load_policy(cfg.policy, seed=cfg.seed + 2, tradition=cfg.tradition)
            report = play_match(load_policy(opponent, seed=cfg.seed + 1, tradition=cfg.tradition),
                                BlankRecord(bot, cfg.tradition) if blanked else bot,
                                names={"A": opponent, "B": cfg.policy}, tradition=cfg.tradition,
                                team_size=cfg.team_size, episodes=cfg.juegos, seed=cfg.seed).to_dict()
            rows[opponent]["blanked" if blanked else "as_is"] = _row(report)
        a, b = rows[opponent]["as_is"], rows[opponent]["blanked"]
        print(f"{cfg.policy} against {opponent}: {a['win_rate']:.1%} as it is, {b['win_rate']:.1%} with the "
              f"record blanked ({a['juegos']:,} juegos each)", flush=True)
    return write_study_result(cfg, "the bot as it is and with the juego's record blanked, against each opponent on "
                                   "the same duplicate deals (win rates are the bot's)", load_before, rows)


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(RecordAblationConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
