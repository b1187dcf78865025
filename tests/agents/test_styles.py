"""The style bots (agents.styles, issue 17) and the action kinds they read."""

from __future__ import annotations

import numpy as np
import pytest

from agents.registry import known_policies, load_policy
from agents.styles import StylePolicy
from tests.agents.positions import random_play_positions
from truque_env.traditions import action_kinds as K
from truque_env.traditions import get as get_tradition
from truque_env.traditions.argentino import actions as AA
from truque_env.traditions.moteno import actions as MA
from truque_env.vector import VectorEnv

TRADITIONS = ("moteno", "argentino")


@pytest.mark.parametrize("tradition", TRADITIONS)
def test_every_action_has_a_kind(tradition):
    A = get_tradition(tradition).actions
    assert len(A.ACTION_KIND) == A.NUM_ACTIONS and set(A.ACTION_KIND) <= set(range(len(K.KIND_NAMES)))
    assert {A.ACTION_KIND[a] for a in range(A.PLAY_BASE, A.PLAY_BASE + 40)} == {K.PLAY}
    assert {A.ACTION_KIND[a] for a in range(A.SENA_BASE, A.NUM_ACTIONS)} == {K.SENA}
    assert (A.ACTION_KIND[A.QUIERO], A.ACTION_KIND[A.NO_QUIERO], A.ACTION_KIND[A.TRUCO], A.ACTION_KIND[A.PASO]) == (
        K.ACCEPT, K.REFUSE, K.RAISE, K.OTHER)


def test_the_kinds_of_the_words_of_each_tradition():
    assert all(MA.ACTION_KIND[a] == K.RAISE for a in (MA.PARES_BASE, MA.FLORES_BASE + 9, MA.FALTA, MA.PANUEVE))
    assert MA.ACTION_KIND[MA.BARAJA] == MA.ACTION_KIND[MA.NO_VALE] == K.LEAVE
    assert MA.ACTION_KIND[MA.CON_FLOR_NO_QUIERO] == K.REFUSE and MA.ACTION_KIND[MA.LUEGO] == K.OTHER
    assert all(AA.ACTION_KIND[a] == K.RAISE for a in (AA.TODO_DICHO, AA.ENVIDO_Y_TRUCO + 2, AA.Y_QUIERO_VALE_CUATRO,
                                                      AA.AL_RESTO, AA.FALTA_ENVIDO, AA.VALE_CUATRO))
    assert AA.ACTION_KIND[AA.SIN_LEY_PASO_Y_QUIERO] == K.ACCEPT and AA.ACTION_KIND[AA.ME_ACHICO] == K.REFUSE
    assert AA.ACTION_KIND[AA.MAZO] == K.LEAVE and AA.ACTION_KIND[AA.UNO_Y_UNO] == AA.ACTION_KIND[AA.FLOR] == K.OTHER


def _masks(A, *rows):
    m = np.zeros((len(rows), A.NUM_ACTIONS), dtype=np.uint8)
    for i, legal in enumerate(rows):
        m[i, list(legal)] = 1
    return m


@pytest.mark.parametrize("tradition", TRADITIONS)
def test_each_style_takes_its_kind_first(tradition):
    A = get_tradition(tradition).actions
    facing = (A.QUIERO, A.NO_QUIERO, A.RETRUCO, A.SENA_BASE)  # a truco to answer (mazo too in argentino)
    leading = (A.PLAY_BASE, A.PLAY_BASE + 7, A.TRUCO, A.SENA_BASE + 1)  # its turn to play
    masks = _masks(A, facing, leading)
    obs = np.zeros((2, get_tradition(tradition).observation.OBS_SIZE), dtype=np.int8)
    raiser, caller, folder = (StylePolicy(s, tradition) for s in ("raiser", "caller", "folder"))
    assert raiser.act_batch(obs, masks).tolist() == [A.RETRUCO, A.TRUCO]
    assert caller.act_batch(obs, masks)[0] == A.QUIERO and folder.act_batch(obs, masks)[0] == A.NO_QUIERO
    for bot in (caller, folder):  # neither bets: they play, one of the two cards
        assert {int(bot.act_batch(obs, masks)[1]) for _ in range(30)} == {A.PLAY_BASE, A.PLAY_BASE + 7}


@pytest.mark.parametrize("tradition", TRADITIONS)
def test_the_bluffer_bets_half_of_the_time_and_answers_by_a_coin(tradition):
    A = get_tradition(tradition).actions
    n = 4000
    masks = np.tile(_masks(A, (A.QUIERO, A.NO_QUIERO, A.RETRUCO), (A.PLAY_BASE, A.TRUCO, A.SENA_BASE)), (n // 2, 1))
    obs = np.zeros((n, get_tradition(tradition).observation.OBS_SIZE), dtype=np.int8)
    acts = StylePolicy("bluffer", tradition).act_batch(obs, masks, keys=np.arange(n, dtype=np.uint64) * 7919)
    facing, leading = acts[0::2], acts[1::2]
    assert abs((facing == A.RETRUCO).mean() - 0.5) < 0.05 and abs((leading == A.TRUCO).mean() - 0.5) < 0.05
    assert abs((facing == A.QUIERO).mean() - 0.25) < 0.04 and abs((facing == A.NO_QUIERO).mean() - 0.25) < 0.04
    assert not (leading == A.SENA_BASE).any()


@pytest.mark.parametrize("tradition", TRADITIONS)
@pytest.mark.parametrize("style", ["raiser", "caller", "folder", "bluffer"])
def test_styles_play_legally_and_a_key_fixes_the_decision_in_any_batch(tradition, style):
    env = VectorEnv(32, tradition=tradition, team_size=2, seed=3)
    obs, mask, *_ = env.reset()
    bot = load_policy(f"style_{style}", seed=1, tradition=tradition)
    kinds = np.asarray(env.spec.actions.ACTION_KIND)
    seen = []
    for step in range(300):
        keys = (np.arange(32, dtype=np.uint64) + np.uint64(1000 * step)) * np.uint64(0x9E3779B97F4A7C15)
        acts = bot.act_batch(obs, mask, keys=keys)
        assert (mask[np.arange(32), acts] == 1).all()
        half = bot.act_batch(obs[::2], mask[::2], keys=keys[::2])  # another batch, the same rows' keys
        assert np.array_equal(half, acts[::2])
        seen.append(kinds[acts][(mask > 0).sum(axis=1) > 1])
        obs, mask, *_ = env.step(acts)
    seen = np.concatenate(seen)
    assert not (seen == K.SENA).any() and not (seen == K.LEAVE).any()
    never = {"raiser": K.REFUSE, "caller": K.RAISE, "folder": K.ACCEPT}.get(style)
    if never is not None:  # what the style never does while it has another choice
        assert not (seen == never).any()


@pytest.mark.parametrize("tradition", TRADITIONS)
def test_styles_are_in_every_traditions_registry_and_unknown_ones_are_refused(tradition):
    assert {"style_raiser", "style_caller", "style_folder", "style_bluffer", "heuristic_bluffer"} <= set(
        known_policies(tradition))
    with pytest.raises(ValueError, match="unknown style 'timid'; styles: raiser, caller, folder, bluffer"):
        StylePolicy("timid", tradition)


@pytest.mark.parametrize("tradition", TRADITIONS)
def test_the_heuristic_bluffer_bets_more_than_the_heuristic(tradition):
    obs, mask = random_play_positions(tradition, env_seed=5, walk_seed=2)
    raises = np.asarray(get_tradition(tradition).actions.ACTION_KIND) == K.RAISE
    may_bet = (mask[:, raises] > 0).any(axis=1)  # (its falsos come only with weak hands: a share of these)
    rate = {name: raises[load_policy(name, seed=0, tradition=tradition).act_batch(obs, mask)][may_bet].mean()
            for name in ("heuristic", "heuristic_bluffer")}
    assert rate["heuristic_bluffer"] > 1.1 * rate["heuristic"], rate  # seeded: 1.41x in Moteño, 1.15x in argentino


def test_the_parero_sends_three_pares_or_la_falta_at_every_turn_it_may_and_the_heuristic_does_not():
    """heuristic_parero (bluff_envite 1, bluff_envite_pares 3): how the Moteño league bots' 1 contra 1
    exploiters bet the pares (three pares or la falta with nearly every hand)."""
    from train.eval.duplicate import play_match
    from truque_env.traditions.moteno import observation as MO

    class Watched:
        """The bot, with what it did at each turn where it might open the envite in the play."""

        def __init__(self, name):
            self.bot, self.name, self.acts = load_policy(name, seed=0), name, []

        def act_batch(self, obs, masks, keys=None):
            a = self.bot.act_batch(obs, masks, keys)
            turn = (masks[:, MA.PARES_BASE] == 1) & (obs[:, MO.O_PHASE + 3] == 1)
            self.acts.extend(a[turn].tolist())
            return a

    acts, bluffs = {}, {}
    for name in ("heuristic", "heuristic_parero"):
        bot = Watched(name)
        # against the caller, who never bets: every mano leaves the envite to the bot
        rep = play_match(bot, load_policy("style_caller", seed=1), team_size=1, episodes=16, num_envs=16, seed=2,
                         bootstrap=0)
        acts[name], bluffs[name] = np.array(bot.acts), rep.bluffs["A"]["pares"]
    assert len(acts["heuristic_parero"]) > 100
    envite = {name: (a >= MA.PARES_BASE) & (a <= MA.FALTA) for name, a in acts.items()}
    # where it does not send the envite it sings flor or makes its seña first (the seña keeps the turn)
    other = acts["heuristic_parero"][~envite["heuristic_parero"]]
    assert np.isin(other, [MA.FLOR, *range(MA.SENA_BASE, MA.NUM_ACTIONS)]).all(), other
    big = {name: np.isin(a, [MA.PARES_BASE + 2, MA.FALTA]).sum() for name, a in acts.items()}
    # the rest: its honest envío 1 par with a middling hand (P(win) from pares_bet to pares_raise); seeded: 75%
    assert big["heuristic_parero"] > 0.6 * envite["heuristic_parero"].sum()
    assert big["heuristic_parero"] / acts["heuristic_parero"].size > 2 * big["heuristic"] / acts["heuristic"].size, big
    assert bluffs["heuristic_parero"]["bet_when_weak"]["rate"] > 0.95 > 0.2 > bluffs["heuristic"]["bet_when_weak"]["rate"]
    assert envite["heuristic"].mean() < 0.5
    with pytest.raises(ValueError, match="bluff_envite_pares must be 1..15, got 16"):
        load_policy("heuristic").__class__(config={"bluff_envite_pares": 16})
