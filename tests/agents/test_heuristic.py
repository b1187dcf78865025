"""The rule-based truquista (agents/heuristic/): legal moves only, its config, honest señas,
and a match against the random policy.

Report its juego win rate against random (not asserted by CI):

    python tests/agents/test_heuristic.py --team-size 1 --juegos 2000
    python tests/agents/test_heuristic.py --team-size 3 --juegos 2000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pytest

from agents.base import RandomPolicy, act_batch
from agents.heuristic import HeuristicConfig, HeuristicPolicy, View, honest_sena
from truque_env import Table
from truque_env.cards import CARD_RANK, parse
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import flor_value
from truque_env.vector import VectorEnv

PHASES = ("blind", "close", "cante", "play", "flor_round", "flor_envite", "answer", "done", "reservada")


# ----------------------------------------------------------------------------------------------
# helpers


def play_match(policy, opponent, team_size: int, juegos: int, num_envs: int = 64, seed: int = 0,
               target: int = 30) -> tuple[float, int]:
    """Juego win rate of ``policy``'s team against ``opponent``'s on a VectorEnv.

    Table ``i`` seats ``policy`` as team ``i % 2`` (seats alternate between tables). Each table
    counts its first ``ceil(juegos / num_envs)`` juegos (so short juegos are not over-counted);
    a juego is won by the sign of the team's rewards summed over the episode.
    """
    env = VectorEnv(num_envs, team_size=team_size, target=target, episode="juego", seed=seed)
    obs, mask, _, info = env.reset()
    my_team = np.arange(num_envs) % 2
    quota = -(-juegos // num_envs)
    played = np.zeros(num_envs, dtype=np.int64)
    won = np.zeros(num_envs, dtype=np.int64)
    net = np.zeros(num_envs)
    rows = np.arange(num_envs)
    while (played < quota).any():
        mine = info["team"] == my_team
        actions = np.empty(num_envs, dtype=np.int64)
        if mine.any():
            actions[mine] = act_batch(policy, obs[mine], mask[mine])
        if (~mine).any():
            actions[~mine] = act_batch(opponent, obs[~mine], mask[~mine])
        obs, mask, _, rewards, terminated, info = env.step(actions)
        net += rewards[rows, my_team]  # seat 0 is of team 0, seat 1 of team 1
        for i in np.flatnonzero(terminated):
            if played[i] < quota:
                played[i] += 1
                won[i] += net[i] > 0
            net[i] = 0.0
    return float(won.sum() / played.sum()), int(played.sum())


def _observe(t: Table, hist, seat: int):
    obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
    O.observe(t.state, hist, seat, obs)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    K.legal_mask(t.state, mask)
    return obs, mask


class Scripted:
    """A Table with the public-word history kept, for scripted scenarios."""

    def __init__(self, team_size=1, hands=None, dealer=None, scores=None, p_intercept=0.0):
        self.t = Table(team_size=team_size, seed=0, p_intercept=p_intercept)
        self.hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
        self.t.deal(hands=hands, dealer=dealer, scores=scores)

    def act(self, action):
        a = A.action_id(action) if isinstance(action, str) else int(action)
        O.record(self.t.state, self.hist, a)
        self.t.act(a)

    def skip_blind(self):
        while self.t.phase == "blind":
            self.act("paso")

    def ask(self, policy):
        obs, mask = _observe(self.t, self.hist, self.t.to_act)
        a = policy.act(obs, mask)
        assert mask[a] == 1
        return A.ACTION_NAMES[a]

    def view(self):
        return View(_observe(self.t, self.hist, self.t.to_act)[0])


def quiet(**overrides) -> HeuristicPolicy:
    """A heuristic without señas or falsos (deterministic choices in scripted scenarios)."""
    cfg = dict(sena_rate=0.0, bluff_envite=0.0, bluff_truco=0.0, blind_envite=0.0, blind_truco=0.0)
    cfg.update(overrides)
    p = HeuristicPolicy(HeuristicConfig.from_dict(cfg), seed=0)
    p.debug = True
    return p


# ----------------------------------------------------------------------------------------------
# legal actions, in every phase, every team size


@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_only_legal_actions_in_every_phase(team_size):
    """The heuristic is asked at every decision of every seat; it must always answer legally.

    To reach every phase (blind bets, la falta a ciegas, flor envites, the reservada's last
    word…), the move actually played is the heuristic's or, half the time, a random one.
    """
    num_envs = 48
    env = VectorEnv(num_envs, team_size=team_size, target=12, episode="juego", seed=team_size)
    obs, mask, _, _ = env.reset()
    bold = HeuristicPolicy(HeuristicConfig(sena_rate=0.7, bluff_envite=0.3, bluff_truco=0.3,
                                           blind_envite=0.3, blind_truco=0.2), seed=1)
    bold.debug = True  # an internal error fails the test instead of falling back
    rng = np.random.default_rng(team_size)
    rng_states = np.arange(num_envs, dtype=np.int64) + 1000 * team_size
    phases = set()
    decisions = 0
    for _ in range(160):
        proposed = bold.act_batch(obs, mask)
        assert proposed.shape == (num_envs,)
        assert (mask[np.arange(num_envs), proposed] == 1).all()
        phases.update(PHASES[int(np.argmax(o[O.O_PHASE:O.O_PHASE + 9]))] for o in obs)
        decisions += num_envs
        random_moves = env.sample_actions(rng_states)
        take = rng.random(num_envs) < 0.5
        obs, mask, *_ = env.step(np.where(take, proposed, random_moves))
    assert decisions >= 7000
    assert {"blind", "play", "answer", "flor_round", "cante"} <= phases, phases


def test_only_legal_actions_in_the_rare_phases():
    """Scripted: flor envite, la falta a ciegas answered with cards, de la mía, the reservada."""
    bot = quiet()
    # flores in both teams: the envite de flores (Art. 11)
    s = Scripted(team_size=1, hands=["1O 4O 5O", "3C 6C 7C"], dealer=1)
    s.skip_blind()
    assert s.ask(bot) == "flor"
    s.act("flor")
    assert s.ask(bot) == "flor"
    s.act("flor")
    assert s.t.phase == "flor_envite"
    s.act(s.ask(bot))
    while s.t.phase in ("answer", "flor_envite"):
        s.act(s.ask(bot))
    # la falta a ciegas, deferred, answered with cards holding flor (Art. 12.7)
    s = Scripted(team_size=1, hands=["5E 6E 7E", "11B 2C 3O"], dealer=0)  # seat 1 is mano
    s.act("envío la falta")  # seat 1, a ciegas
    assert s.ask(bot) == "luego te lo digo"  # 7.2
    s.act("luego te lo digo")
    s.act("paso")  # seat 0's blind turn
    assert s.t.phase == "answer" and s.t.to_act == 0
    answer = s.ask(bot)
    assert answer in ("con flor, quiero", "con flor, no quiero", "quiero", "no quiero")
    # the reservada's last word (12.13): A has flor, B answered quiero with a reservada
    s = Scripted(team_size=1, hands=["11B 10O 4C", "5E 6E 7E"], dealer=0)
    s.act("envío la falta")  # seat 1 (mano), a ciegas: team A
    s.act("luego te lo digo")  # seat 0
    s.act("paso")  # seat 0's blind turn
    assert s.t.to_act == 0 and s.t.phase == "answer"
    assert s.ask(bot) == "quiero"  # a reservada wants la falta with the pares (12.13)
    s.act("quiero")
    while not s.t.done and s.t.phase != "reservada":
        s.act(s.ask(bot))
    assert s.t.phase == "reservada"
    assert s.ask(bot) == "flor"  # 90 against at most 64: the reservada wins


# ----------------------------------------------------------------------------------------------
# the configuration


def test_config_round_trip_and_errors():
    cfg = HeuristicConfig(pares_bet=0.7, hide_reservada=False, samples=50)
    assert HeuristicConfig.from_dict(cfg.to_dict()) == cfg
    assert HeuristicConfig.from_dict({}) == HeuristicConfig()
    toml = "[heuristic]\npares_bet = 0.7\nhide_reservada = false\nsamples = 50\n"
    assert HeuristicConfig.from_toml(toml) == cfg
    with pytest.raises(ValueError, match="unknown HeuristicConfig key.*pares_bett"):
        HeuristicConfig.from_dict({"pares_bett": 0.5})
    with pytest.raises(ValueError, match="probability"):
        HeuristicConfig.from_dict({"sena_rate": 1.5})
    with pytest.raises(ValueError, match="true or false"):
        HeuristicConfig.from_dict({"hide_reservada": "yes"})
    with pytest.raises(ValueError, match="integer"):
        HeuristicConfig.from_dict({"samples": 2.5})
    p = HeuristicPolicy({"pares_bet": 0.7})  # a dict is accepted too
    assert p.cfg.pares_bet == 0.7


# ----------------------------------------------------------------------------------------------
# honest señas


SENA_CARD = {"perro": "11B", "perra": "10O", "cascabel": "11O", "espada": "1E", "basto": "1B",
             "mata de espadas": "7E", "mata de oros": "7O"}


def expected_sena(hand: list[int]) -> str:
    """The honest seña, written independently of the policy: its best signalled card."""
    for name, card in SENA_CARD.items():
        if parse(card)[0] in hand:
            return name
    ranks = {int(CARD_RANK[c]) for c in hand}
    if 3 in ranks:
        return "tres"
    if 2 in ranks:
        return "dos"
    return "flor" if flor_value(hand) > 0 else "ciega"


@pytest.mark.parametrize("team_size", [1, 3])
def test_senas_are_honest_and_once_per_mano(team_size):
    num_envs = 32
    env = VectorEnv(num_envs, team_size=team_size, episode="mano", seed=7)
    obs, mask, seat, _ = env.reset()
    bot = HeuristicPolicy(HeuristicConfig(sena_rate=1.0), seed=3)
    bot.debug = True
    made = 0
    per_mano: dict[tuple[int, int, int], int] = {}
    mano_id = np.zeros(num_envs, dtype=np.int64)
    for _ in range(400):
        actions = bot.act_batch(obs, mask)
        for i in np.flatnonzero(actions >= A.SENA_BASE):
            q = int(seat[i])
            hand = [int(c) for c in env.states[i, L.HAND + 3 * q: L.HAND + 3 * q + 3]]
            name = A.SENA_NAMES[int(actions[i]) - A.SENA_BASE]
            assert name == expected_sena(hand), (hand, name)
            assert name == A.SENA_NAMES[honest_sena(hand)]
            key = (i, int(mano_id[i]), q)
            per_mano[key] = per_mano.get(key, 0) + 1
            made += 1
        obs, mask, seat, _, terminated, _ = env.step(actions)
        mano_id += terminated
    assert made > 200
    assert max(per_mano.values()) == 1


def test_sena_rate_zero_makes_no_senas():
    env = VectorEnv(16, team_size=2, episode="mano", seed=1)
    obs, mask, _, _ = env.reset()
    bot = HeuristicPolicy(HeuristicConfig(sena_rate=0.0), seed=0)
    for _ in range(150):
        actions = bot.act_batch(obs, mask)
        assert (actions < A.SENA_BASE).all()
        obs, mask, *_ = env.step(actions)


# ----------------------------------------------------------------------------------------------
# what it does, scripted


def test_reads_its_dealt_hand_after_playing_cards():
    s = Scripted(team_size=1, hands=["11B 7E 3C", "1E 2O 4C"], dealer=1)
    s.skip_blind()
    s.act("juego 3C")
    s.act("juego 4C")
    v = s.view()  # seat 0 again, one card played
    assert len(v.hand) == 2 and v.dealt == sorted(parse("11B 7E 3C"))
    assert v.my_pares() == 31 + 7


@pytest.mark.parametrize("team_size", [2, 4])
def test_view_finds_who_plays_next_in_the_baza(team_size):
    """From the observation alone (13.6, 13.7, 16.2): in play the next to play is the observer."""
    env = VectorEnv(32, team_size=team_size, episode="mano", seed=team_size)
    obs, mask, *_ = env.reset()
    rng_states = np.arange(32, dtype=np.int64)
    checked = 0
    for _ in range(200):
        for o, m in zip(obs, mask, strict=True):
            v = View(o)
            if v.phase == "play" and m[A.PLAY_BASE:A.PLAY_BASE + 40].any():
                lead = v.leader(v.baza)
                order = [(lead + k) % v.n for k in range(v.n)]
                nxt = next(r for r in order if v.in_truque(r) and v.card_in_baza(r, v.baza) < 0)
                assert nxt == 0
                checked += 1
        obs, mask, *_ = env.step(env.sample_actions(rng_states))
    assert checked > 1000


def test_defers_blind_bets_and_passes_blind():
    s = Scripted(team_size=2, dealer=3)
    bot = quiet()
    assert s.ask(bot) == "paso"  # seat 0 (mano), blind: nothing a ciegas
    s.act("envío 2 pares")
    assert s.ask(bot) == "luego te lo digo"  # 7.2: answer with the cards


def test_card_play_wins_cheaply_and_does_not_overtake_a_partner():
    bot = quiet(lookahead=False, truco_challenge=1.0, pares_bet=1.0)
    # 2 v 2, seat 0 mano: rival seat 1 plays after; partner seat 2
    s = Scripted(team_size=2, hands=["4O 5O 6C", "3E 4B 5B", "1E 2O 6O", "4C 5C 7C"], dealer=3)
    s.skip_blind()
    s.act("juego 4O")
    s.act("juego 3E")  # rival winning with a tres
    assert s.ask(bot) == "juego 1E"  # seat 2 beats it (the cheapest winner he has)
    s = Scripted(team_size=2, hands=["1E 5O 6C", "4E 4B 5B", "3C 2O 6O", "4C 5C 7C"], dealer=3)
    s.skip_blind()
    s.act("juego 1E")
    s.act("juego 4E")
    assert s.ask(bot) == "juego 6O"  # partner winning with la espada: throw the lowest


def test_sings_flor_and_declares_de_la_mia():
    bot = quiet()
    s = Scripted(team_size=1, hands=["1O 4O 5O", "3C 12E 7B"], dealer=1)
    s.skip_blind()
    assert s.ask(bot) == "flor"
    # 12.8, 18.2 l: seat 0 sent la falta a ciegas, seat 1 answered "con flor, no quiero" with the
    # cards; seat 0 holds flor and declares it at his turn ("de la mía") before playing a card
    s = Scripted(team_size=1, hands=["1O 4O 5O", "3C 4C 7C"], dealer=1)
    s.act("envío la falta")
    s.act("luego te lo digo")
    s.act("paso")  # seat 1's own blind turn
    s.act("con flor, no quiero")
    assert s.t.to_act == 0 and "de la mía" in s.t.legal()
    assert s.ask(bot) == "de la mía"
    s.act("de la mía")
    assert s.ask(bot).startswith("juego")  # declared: his turn goes on with a card


def test_bets_pares_with_a_reservada_and_refuses_weak_pares():
    bot = quiet()
    s = Scripted(team_size=1, hands=["11B 10O 4C", "5C 6E 12B"], dealer=1)
    s.skip_blind()
    assert s.ask(bot).startswith("envío")  # hidden reservada: the best pares there is
    s = Scripted(team_size=1, hands=["11B 7B 6B", "4C 5E 12O"], dealer=1)
    s.skip_blind()
    s.act("envío 10 pares")  # seat 0; seat 1 holds 5 de pares
    assert s.ask(bot) == "no quiero"


def test_truco_with_the_best_cards_and_refuses_with_the_worst():
    bot = quiet(pares_bet=1.0)
    s = Scripted(team_size=1, hands=["1E 1B 7E", "4C 5O 6B"], dealer=0)  # seat 1 is mano
    s.skip_blind()
    s.act("juego 4C")
    assert s.ask(bot) in ("truco",)
    s = Scripted(team_size=1, hands=["4O 5E 4B", "1C 3O 6B"], dealer=1)
    s.skip_blind()
    s.act("juego 4O")
    s.act("truco")
    assert s.ask(bot) == "no quiero"


# ----------------------------------------------------------------------------------------------
# against random


def test_beats_random_clearly():
    """Heuristic team against RandomPolicy, 1 v 1, juegos to 30, seats alternating (< 30 s)."""
    rate, n = play_match(HeuristicPolicy(seed=1), RandomPolicy(seed=2), team_size=1, juegos=256,
                         num_envs=64, seed=11)
    assert n >= 256
    assert rate > 0.8, rate


def main():
    ap = argparse.ArgumentParser(description="Juego win rate of HeuristicPolicy against RandomPolicy")
    ap.add_argument("--team-size", type=int, default=1)
    ap.add_argument("--juegos", type=int, default=2000)
    ap.add_argument("--envs", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.time()
    rate, n = play_match(HeuristicPolicy(seed=args.seed + 1), RandomPolicy(seed=args.seed + 2),
                         team_size=args.team_size, juegos=args.juegos, num_envs=args.envs,
                         seed=args.seed)
    se = (rate * (1 - rate) / n) ** 0.5
    print(f"heuristic vs random, {args.team_size} v {args.team_size}: won {rate:.1%} ± {se:.1%} "
          f"of {n} juegos ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()


def test_twin_internal_error_raises_by_default_and_is_counted_when_tolerated(monkeypatch):
    """A bug in the readable twin is an error, not a silent safe move; ``debug = False``
    tolerates and counts it (the kernels' form: test_heuristic_kernels.py)."""
    import agents.heuristic as H

    obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    mask[A.PASO] = 1
    mask[A.PASO + 1] = 1

    def broken(self, v, m):
        raise RuntimeError("a reading mistake")

    monkeypatch.setattr(H.ReferenceHeuristic, "_decide", broken)
    bot = H.ReferenceHeuristic(seed=0)
    with pytest.raises(RuntimeError, match="reading mistake"):
        bot.act(obs, mask)
    bot.debug = False
    assert mask[bot.act(obs, mask)] == 1 and bot.internal_errors == 1
