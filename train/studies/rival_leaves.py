"""How soon each rival shows blind play: the share of a bot's decisions at which the rival has
already left a mano (al mazo) in the juego (issue 17).

The argentino ``ppo`` plays its envido from the blind rival's table once the juego's record shows
that the rival left a mano (``agents.envido_table.RIVAL_LEAVES``). This study measures the sign:
against random it should come early, against every other bot never (then ``ppo`` plays against it
exactly as without the blind table). Each opponent plays ``juegos`` duplicate juegos against the
bot; at each of the bot's decisions the record is read, by the number of manos finished in the
juego.

    python -m train.studies.rival_leaves --opponents random heuristic heuristic_bluffer \\
        --out benchmarks/results/argentino_rival_leaves.json

With ``--faker`` (a bot, an exploiter say) it also measures what the sign is worth to a rival who
knows it: the faker against the bot as it plays, and forced to leave at his first decisions until
he has left as many manos as the sign asks (``FakesTheSign``), for each ``--sign-leaves``, on the
same deals.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from train.studies.results import write_study_result
from truque_env.io import check_new_output

MANOS_SHOWN = 6  # the first manos of the juego, one row each (the rest together)


class ReadsTheRecord:
    """``inner`` that keeps, at each decision, the manos finished and the rival's leaves so far."""

    def __init__(self, inner):
        from agents.envido_table import RECORD_MANOS, RIVAL_LEAVES

        self.inner, self.name = inner, inner.name
        self.manos_at, self.leaves_at = RECORD_MANOS, RIVAL_LEAVES
        self.seen: list[np.ndarray] = []
        if hasattr(inner, "team_sizes"):
            self.team_sizes = inner.team_sizes

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        obs = np.asarray(observations)
        self.seen.append(np.stack([obs[:, self.manos_at], obs[:, self.leaves_at]], axis=1).astype(np.int64))
        return self.inner.act_batch(observations, action_masks, keys)

    def shares(self) -> dict:
        seen = np.concatenate(self.seen)
        manos, left = seen[:, 0], seen[:, 1] > 0
        rows = {}
        for k in range(MANOS_SHOWN + 1):
            at = manos == k if k < MANOS_SHOWN else manos >= k
            rows[f"{k}{'+' if k == MANOS_SHOWN else ''}"] = {"decisions": int(at.sum()),
                                                             "rival_has_left": float(left[at].mean()) if at.any() else None}
        return {"decisions": int(seen.shape[0]), "rival_has_left": float(left.mean()), "by_manos_finished": rows}


WEAK_POWER = 10  # a weak hand for the faker: no card above a falso ancho (no 2, 3 or mata) ...
WEAK_ENVIDO = 25  # ... and an envido below 25


class FakesTheSign:
    """``inner`` forced to leave the mano (al mazo) at each decision where it may, until it has left
    ``leaves`` manos in the juego: the sign of blind play, given on purpose. With ``weak_only`` it
    leaves only with a weak hand (``WEAK_POWER``, ``WEAK_ENVIDO``), where leaving costs little."""

    def __init__(self, inner, leaves: int, weak_only: bool = False):
        from agents.envido_table import MY_LEAVES
        from truque_env.traditions.argentino import actions as A

        self.inner, self.leaves, self.mazo, self.weak_only = inner, int(leaves), A.MAZO, bool(weak_only)
        self.mine_at = MY_LEAVES
        self.name = f"{inner.name} leaving {leaves} {'weak ' if weak_only else ''}manos first"
        self.left = 0

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        obs = np.asarray(observations)
        out = np.array(self.inner.act_batch(observations, action_masks, keys), dtype=np.int64)
        go = (obs[:, self.mine_at] < self.leaves) & (np.asarray(action_masks)[:, self.mazo] > 0)
        if self.weak_only:
            go &= _weak_hands(obs)
        out[go] = self.mazo
        self.left += int(go.sum())
        return out


def _weak_hands(obs: np.ndarray) -> np.ndarray:
    """Rows whose player holds all three cards, none above ``WEAK_POWER`` and an envido below ``WEAK_ENVIDO``."""
    from truque_env.cards import CARD_SUIT
    from truque_env.traditions.argentino import observation as O
    from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE, POWER, envido_value_nb

    weak = np.zeros(obs.shape[0], dtype=np.bool_)
    cards = np.empty(3, dtype=np.int64)
    for i in range(obs.shape[0]):  # a study's adversary, not a hot path
        if O.my_cards(obs[i], cards) == 3:
            envido = envido_value_nb(cards[0], cards[1], cards[2], CARD_SUIT, ENVIDO_CARD_VALUE)
            weak[i] = POWER[cards].max() < WEAK_POWER and envido < WEAK_ENVIDO
    return weak


@dataclass
class RivalLeavesConfig:
    """The bot against each opponent: how often, and how soon, the rival has left a mano."""

    policy: str = "ppo"
    """the bot whose decisions are counted (a registry name or checkpoint path)"""
    opponents: tuple[str, ...] = ("random", "heuristic")
    """registry names or checkpoint paths (agents.registry)"""
    tradition: str = "argentino"
    team_size: int = 1
    juegos: int = 400
    seed: int = 5
    faker: str | None = None
    """a rival who gives the sign on purpose (registry name or checkpoint): measured as it is and forced
    to leave first, against the bot asking for each of ``sign_leaves``"""
    sign_leaves: tuple[int, ...] = (1, 2)
    """the leaves the bot's sign asks for (its ``blind_leaves``) in the faker's matches"""
    faker_weak_only: bool = False
    """the faker leaves only with a weak hand (``FakesTheSign``), where leaving costs little"""
    faker_juegos: int = 2000
    out: Path = Path("benchmarks/results/argentino_rival_leaves.json")
    overwrite: bool = False
    """replace the result at out (without it, an existing file is refused)"""


def run(cfg: RivalLeavesConfig) -> dict:
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    if not cfg.opponents or cfg.juegos < 2:
        raise ValueError(f"give at least one opponent and juegos >= 2 (got {list(cfg.opponents)}, {cfg.juegos!r})")
    if cfg.tradition != "argentino":
        raise ValueError(f"the record's leaves are read from argentino's observation, not {cfg.tradition}'s")
    check_new_output(cfg.out, cfg.overwrite)
    load_before = os.getloadavg()
    rows = {}
    for opponent in cfg.opponents:
        bot = ReadsTheRecord(load_policy(cfg.policy, seed=cfg.seed + 1, tradition=cfg.tradition))
        report = play_match(bot, load_policy(opponent, seed=cfg.seed + 2, tradition=cfg.tradition),
                            names={"A": cfg.policy, "B": opponent}, tradition=cfg.tradition, team_size=cfg.team_size,
                            episodes=cfg.juegos, seed=cfg.seed)
        rows[opponent] = {"win_rate": report.juegos["win_rate_A"], "juegos": report.juegos["episodes"], **bot.shares()}
        print(f"{opponent}: left a mano before {rows[opponent]['rival_has_left']:.1%} of {cfg.policy}'s decisions",
              flush=True)
    fakes = _fakes(cfg) if cfg.faker is not None else None
    return write_study_result(cfg, "the share of the bot's decisions at which the rival had left a mano (al mazo) in "
                                   "the juego, overall and by the manos finished in the juego "
                                   "(train.studies.rival_leaves)", load_before, rows,
                              **({"faker": fakes} if fakes is not None else {}))


def _fakes(cfg: RivalLeavesConfig) -> dict:
    """The faker's win rate against the bot asking for each number of leaves: as it plays, and
    forced to leave that many manos first (the same deals and seeds in every match)."""
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    out = {}
    for leaves in cfg.sign_leaves:
        row = {}
        for forced in (False, True):
            bot = load_policy(cfg.policy, seed=cfg.seed + 1, tradition=cfg.tradition)
            if getattr(bot, "blind_table", None) is None:
                raise ValueError(f"{cfg.policy} plays no blind rival's table: there is no sign to fake")
            bot.set_blind_play(blind_leaves=int(leaves))
            faker = load_policy(cfg.faker, seed=cfg.seed + 3, tradition=cfg.tradition)
            side = FakesTheSign(faker, leaves, cfg.faker_weak_only) if forced else faker
            report = play_match(side, bot, names={"A": side.name, "B": cfg.policy}, tradition=cfg.tradition,
                                team_size=cfg.team_size, episodes=cfg.faker_juegos, seed=cfg.seed + 7)
            row["forced" if forced else "as_it_plays"] = {"win_rate": report.juegos["win_rate_A"],
                                                          "wilson95": list(report.juegos["wilson95"]),
                                                          "leaves_forced": side.left if forced else 0}
        out[str(leaves)] = row
        print(f"{cfg.faker} against {cfg.policy} asking {leaves} leaves: {row['as_it_plays']['win_rate']:.1%} as it "
              f"plays, {row['forced']['win_rate']:.1%} leaving first", flush=True)
    return out


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(RivalLeavesConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
