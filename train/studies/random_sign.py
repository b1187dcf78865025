"""A sign for random, and what faking it is worth (issue 17).

Against random 1 contra 1 the shipped Moteño ``ppo`` wins 97.0% of juegos and the heuristic 97.8%:
the heuristic takes more of the truque from a rival who bets and answers at random. Random also
leaves about half its manos (baraja, no vale), and no other bot ever leaves one. So a switch
(``agents.record_switch``) could play the heuristic once the rival's record shows that sign: a
share of leaves per finished mano of at least ``low`` after ``min_manos`` manos. But a rival who
knows the sign can give it on purpose: leave just enough manos (``KeepsLeaving``) and play a best
response to the heuristic the rest of the time. This study measures both sides of each sign:

- the switch and the bot alone against random, on the same deals of each seed;
- a faker (``faker``, kept at the sign's rate by ``KeepsLeaving``) against the switch, and the same
  faker against the bot alone: what the leaves cost it where they buy nothing.

    python -m train.studies.random_sign --signs 1:0.2 3:0.4 \\
        --out benchmarks/results/random_sign_moteno_1v1.json
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.record_switch import RATE_KINDS, RecordSign, RecordSwitchPolicy
from train.studies.results import write_study_result
from truque_env.io import check_new_output
from truque_env.policy import act_batch
from truque_env.traditions import action_kinds as K
from truque_env.traditions import get as get_tradition


class KeepsLeaving:
    """``inner``, made to leave (the first legal action of kind leave) at each decision where it may
    while its own leaves in the juego are fewer than ``rate`` times the manos finished plus one: its
    record then shows a leave rate of at least ``rate`` from the first finished mano on."""

    def __init__(self, inner, rate: float, tradition: str = "moteno"):
        if not (isinstance(rate, (int, float)) and 0.0 < float(rate) <= 1.0):
            raise ValueError(f"the leave rate to keep must be in (0, 1], got {rate!r}")
        spec = get_tradition(tradition)
        parts = spec.observation.PARTS
        self.inner, self.rate = inner, float(rate)
        self.manos_at = parts["juego_record.manos"][0]
        self.mine_leaves_at = parts["juego_record.mine"][0] + RATE_KINDS.index("leave")
        self.leave_actions = np.flatnonzero(np.asarray(spec.actions.ACTION_KIND) == K.LEAVE)
        self.name = f"{getattr(inner, 'name', 'faker')} leaving {self.rate:g} of its manos"
        if hasattr(inner, "team_sizes"):
            self.team_sizes = inner.team_sizes
        self.forced = 0  # the leaves it was made to take

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        obs = np.asarray(observations)
        obs = obs.reshape(obs.shape[0], -1)
        masks = np.asarray(action_masks)
        out = np.array(act_batch(self.inner, obs, masks, keys), dtype=np.int64)
        legal = masks[:, self.leave_actions] > 0
        # counts compared as products, as RecordSign reads them
        go = (obs[:, self.mine_leaves_at] < self.rate * (obs[:, self.manos_at] + 1)) & legal.any(axis=1)
        out[go] = self.leave_actions[legal[go].argmax(axis=1)]
        self.forced += int(go.sum())
        return out


def parse_sign(text: str) -> RecordSign:
    """``"min_manos:low"`` -> the sign "at least ``low`` leaves per finished mano after ``min_manos``"."""
    parts = str(text).split(":")
    try:
        if len(parts) != 2:
            raise ValueError(text)
        min_manos, low = int(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"a sign is min_manos:low (3:0.4, say), got {text!r}") from None
    if not 0.0 < low <= 1.0:
        raise ValueError(f"the leave rate of a sign must be in (0, 1], got {text!r}")
    return RecordSign(min_manos=min_manos, rates={"leave": (low, math.inf)})


@dataclass
class RandomSignConfig:
    """The bot with a switch to ``alt`` on random's sign: against random, and against a faker of it."""

    policy: str = "ppo"
    """the bot (a registry name or checkpoint path): the switch's base"""
    alt: str = "heuristic"
    """what the switch plays once the sign shows"""
    signs: tuple[str, ...] = ("1:0.2", "3:0.4")
    """each sign as min_manos:low (leaves per finished mano)"""
    tradition: str = "moteno"
    team_size: int = 1
    random_seeds: tuple[int, ...] = (17, 29)
    random_juegos: int = 10_000
    faker: str = "agents/checkpoints/ppo_moteno_vs_bluffer_1v1.pt"
    """the rival who gives the sign on purpose: by default the best response to heuristic_bluffer"""
    faker_juegos: int = 2000
    faker_seed: int = 7
    out: Path = Path("benchmarks/results/random_sign.json")
    overwrite: bool = False
    """replace the result at out (without it, an existing file is refused)"""


def run(cfg: RandomSignConfig) -> dict:
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    signs = {text: parse_sign(text) for text in cfg.signs}  # a bad sign fails before anything is played
    if not signs or not cfg.random_seeds or cfg.random_juegos < 2 or cfg.faker_juegos < 2:
        raise ValueError("give at least one sign and one seed, and juegos >= 2")
    check_new_output(cfg.out, cfg.overwrite)
    load_before = os.getloadavg()
    game = {"tradition": cfg.tradition, "team_size": cfg.team_size}

    def bot(sign: RecordSign | None, seed: int):
        base = load_policy(cfg.policy, seed=seed + 1, tradition=cfg.tradition)
        if sign is None:
            return base
        alt = load_policy(cfg.alt, seed=seed + 2, tradition=cfg.tradition)
        return RecordSwitchPolicy(base, {cfg.team_size: alt}, {cfg.team_size: sign}, tradition=cfg.tradition)

    def wins(a, b, juegos: int, seed: int) -> dict:
        """What side ``a`` wins against ``b``."""
        j = play_match(a, b, episodes=juegos, seed=seed, **game).juegos
        return {"win_rate": j["win_rate_A"], "wilson95": list(j["wilson95"]), "juegos": j["episodes"]}

    results = {"random": {}, "faker": {}}
    for seed in cfg.random_seeds:
        row = {"alone": wins(bot(None, seed), load_policy("random", seed=seed + 3), cfg.random_juegos, seed)}
        for text, sign in signs.items():
            row[text] = wins(bot(sign, seed), load_policy("random", seed=seed + 3), cfg.random_juegos, seed)
        results["random"][str(seed)] = row
        print(f"against random, seed {seed}: " + ", ".join(f"{k} {v['win_rate']:.2%}" for k, v in row.items()),
              flush=True)
    seed = cfg.faker_seed
    for text, sign in signs.items():
        row = {}
        for against, target in (("switch", sign), ("alone", None)):
            faker = KeepsLeaving(load_policy(cfg.faker, seed=seed + 4, tradition=cfg.tradition),
                                 sign.rates["leave"][0], cfg.tradition)
            row[against] = wins(faker, bot(target, seed), cfg.faker_juegos, seed)
            row[against]["leaves_forced"] = faker.forced
        row["as_it_plays"] = wins(load_policy(cfg.faker, seed=seed + 4, tradition=cfg.tradition), bot(sign, seed),
                                  cfg.faker_juegos, seed)
        results["faker"][text] = row
        print(f"{cfg.faker} keeping the sign {text}: {row['switch']['win_rate']:.2%} against the switch, "
              f"{row['alone']['win_rate']:.2%} against {cfg.policy} alone", flush=True)
    return write_study_result(cfg, f"{cfg.policy} with a switch to {cfg.alt} when the rival leaves at the sign's "
                                   "rate: its win rate against random (beside the bot alone, on the same deals), "
                                   "and a faker's win rate (side A) against it and against the bot alone "
                                   "(train.studies.random_sign)", load_before, results,
                              signs={text: sign.to_dict() for text, sign in signs.items()})


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(RandomSignConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
