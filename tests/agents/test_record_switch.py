"""agents.record_switch: the sign read from the juego's record, the routing of rows to the base or
the alternative of their team size, and the checks of bad signs and switches."""

import math

import numpy as np
import pytest

from agents.record_switch import RecordSign, RecordSwitchPolicy
from truque_env.engine.header import REC_KINDS
from truque_env.traditions import get
from truque_env.traditions.action_kinds import ACCEPT, RAISE, REFUSE

SPEC = get("moteno")
SLICES = SPEC.observation.SLICES
OBS_SIZE = SPEC.observation.OBS_SIZE
NUM_ACTIONS = SPEC.actions.NUM_ACTIONS
RECORD = SLICES["juego_record"][0]
SIZE_AT = SLICES["team_size"][0]


def observation(team_size=1, manos=0, rival=(0, 0, 0, 0), mine=(0, 0, 0, 0)):
    """An observation with only the team size and the record filled in (all the switch reads)."""
    o = np.zeros(OBS_SIZE, dtype=np.int8)
    o[SIZE_AT + team_size - 1] = 1
    o[RECORD] = manos
    o[RECORD + 1 : RECORD + 1 + REC_KINDS] = mine
    o[RECORD + 1 + REC_KINDS : RECORD + 1 + 2 * REC_KINDS] = rival
    return o


class Constant:
    """Plays one action (or, given keys, the key's action modulo 7: proof of which keys it got)."""

    def __init__(self, action):
        self.action, self.seen = action, 0

    def act_batch(self, observations, action_masks, keys=None):
        self.seen += len(observations)
        if keys is not None:
            return np.asarray(keys, dtype=np.int64) % 7
        return np.full(len(observations), self.action, dtype=np.int64)

    def action_probs(self, observations, action_masks):
        p = np.zeros((len(observations), NUM_ACTIONS))
        p[:, self.action] = 1.0
        return p


def refuses(low=0.35):
    return RecordSign(min_manos=3, rates={"refuse": (low, math.inf), "raise": (0.5, 1.6)})


def test_the_sign_reads_rates_per_finished_mano_with_both_bounds_included():
    sign = refuses()
    manos = np.array([2, 3, 20, 20, 20, 20, 10])
    rival = np.zeros((7, REC_KINDS), dtype=np.int64)
    rival[:, REFUSE] = [9, 2, 7, 6, 10, 10, 4]  # 7/20 = 0.35 exactly; 6/20 below
    rival[:, RAISE] = [9, 3, 10, 10, 32, 33, 16]  # 32/20 = 1.6 exactly; 33/20 above
    assert sign.matches(manos, rival).tolist() == [False, True, True, False, True, False, True]
    # a kind the sign does not name is not read
    rival[:, ACCEPT] = 100
    assert sign.matches(manos, rival).tolist() == [False, True, True, False, True, False, True]


@pytest.mark.parametrize("bad", [
    {"min_manos": 0, "rates": {"refuse": (0.3, 1.0)}},
    {"min_manos": 2.0, "rates": {"refuse": (0.3, 1.0)}},
    {"min_manos": 3, "rates": {}},
    {"min_manos": 3, "rates": {"bluff": (0.3, 1.0)}},
    {"min_manos": 3, "rates": {"refuse": (0.5, 0.3)}},
    {"min_manos": 3, "rates": {"refuse": (-0.1, 1.0)}},
    {"min_manos": 3, "rates": {"refuse": (0.1, math.nan)}},
    {"min_manos": 3, "rates": {"refuse": 0.3}},
])
def test_a_bad_sign_is_a_clear_error(bad):
    with pytest.raises(ValueError):
        RecordSign(**bad)


def test_rows_with_the_sign_of_their_size_go_to_that_sizes_alternative():
    base, alt1, alt2 = Constant(1), Constant(2), Constant(3)
    switch = RecordSwitchPolicy(base, {1: alt1, 2: alt2}, {1: refuses(), 2: refuses(0.7)}, tradition="moteno")
    obs = np.stack([
        observation(1, manos=4, rival=(4, 0, 2, 0)),  # size 1, the sign: alt1
        observation(1, manos=2, rival=(4, 0, 2, 0)),  # too few manos: base
        observation(2, manos=4, rival=(4, 0, 2, 0)),  # size 2's sign asks 0.7 refusals per mano: base
        observation(2, manos=4, rival=(4, 0, 3, 0)),  # 0.75: alt2
        observation(3, manos=4, rival=(4, 0, 3, 0)),  # size 3 has no alternative: base
    ])
    masks = np.ones((5, NUM_ACTIONS), dtype=np.int8)
    assert switch.act_batch(obs, masks).tolist() == [2, 1, 1, 3, 1]
    assert switch.switched(obs).tolist() == [1, 0, 0, 2, 0]
    assert switch.last_switched.tolist() == [True, False, False, True, False]
    assert (base.seen, alt1.seen, alt2.seen) == (3, 1, 1)  # each policy saw only its rows
    # each row's decision key goes with it to the policy that plays it
    keys = np.array([10, 11, 12, 13, 14], dtype=np.uint64)
    assert switch.act_batch(obs, masks, keys=keys).tolist() == [3, 4, 5, 6, 0]
    probs = switch.action_probs(obs, masks)
    assert probs.shape == (5, NUM_ACTIONS) and probs.argmax(axis=1).tolist() == [2, 1, 1, 3, 1]
    assert switch.act(obs[0], masks[0]) == 2
    assert switch.act_batch(obs[:0], masks[:0]).shape == (0,)


def test_the_rivals_record_is_read_not_mine():
    switch = RecordSwitchPolicy(Constant(1), {1: Constant(2)}, {1: refuses()}, tradition="moteno")
    mine_only = observation(1, manos=4, mine=(4, 0, 2, 0))
    assert switch.act_batch(mine_only[None], np.ones((1, NUM_ACTIONS), np.int8)).tolist() == [1]


def test_a_bad_switch_is_a_clear_error():
    with pytest.raises(ValueError, match="same team sizes"):
        RecordSwitchPolicy(Constant(1), {1: Constant(2)}, {2: refuses()})
    with pytest.raises(ValueError, match="team size"):
        RecordSwitchPolicy(Constant(1), {4: Constant(2)}, {4: refuses()}, tradition="argentino")
    with pytest.raises(ValueError, match="RecordSign"):
        RecordSwitchPolicy(Constant(1), {1: Constant(2)}, {1: {"refuse": (0.3, 1.0)}})
    with pytest.raises(ValueError, match="tradition"):
        RecordSwitchPolicy(Constant(1), {1: Constant(2)}, {1: refuses()}, tradition="uruguayo")


def test_the_moteno_ppo_switch_reads_its_rival_1_contra_1_only():
    """The registry's Moteño ``ppo_switch``: the v5 league network (``ppo_network``), and 1 contra 1 two
    layers of signs read on the rival's record: the scripted heuristic family's (accepting often) gets
    the best response to heuristic_bluffer, the broader one (ppo's record too) the policy trained against
    every bot with that record; at 2 and 3 contra 3 the network alone. ``ppo_switch+pares`` (the shipped
    ``ppo`` before v8) plays the envite de pares over it from the solved table; the shipped ``ppo`` is
    a league network (MOTENO_BOT) with the table it was trained with, and no switch. Against heuristic_bluffer the
    outer sign shows, never in a juego's first three manos."""
    from agents.ppo_checkpoint import read_checkpoint
    from agents.ppo_policy import PPOPolicy
    from agents.registry import (
        MOTENO_BOT,
        MOTENO_READER_ALT,
        MOTENO_V5_BOT,
        MOTENO_VS_BLUFFER,
        load_policy,
    )
    from train.eval.duplicate import play_match

    for alt in (MOTENO_VS_BLUFFER[1], MOTENO_READER_ALT[1]):
        assert alt.stat().st_size < 5_000_000  # the actor alone: small enough to ship
        assert all(k.startswith("actor") for k in read_checkpoint(alt)["model"])
    from agents.pares_table import ParesTablePolicy

    shipped = load_policy("ppo", seed=0)
    assert isinstance(shipped, ParesTablePolicy) and shipped.name == "ppo" and shipped.team_sizes == (1, 2, 3)
    assert isinstance(shipped.base, PPOPolicy) and shipped.base.path == MOTENO_BOT
    before = load_policy("ppo_switch+pares", seed=0)
    assert isinstance(before, ParesTablePolicy) and isinstance(before.base, RecordSwitchPolicy)
    bot = load_policy("ppo_switch", seed=0)
    inner = bot.base
    assert isinstance(bot, RecordSwitchPolicy) and bot.name == "ppo_switch" and set(bot.alts) == {1}
    assert isinstance(inner, RecordSwitchPolicy) and set(inner.alts) == {1} and inner.base.path == MOTENO_V5_BOT
    assert bot.alts[1].path == MOTENO_VS_BLUFFER[1] and inner.alts[1].path == MOTENO_READER_ALT[1]
    # the outer sign is the inner one narrowed: whatever shows it shows the inner one too
    outer_rates, inner_rates = bot.signs[1].rates, inner.signs[1].rates
    assert set(inner_rates) <= set(outer_rates) and "accept" in outer_rates
    assert all(outer_rates[k][0] >= inner_rates[k][0] and outer_rates[k][1] <= inner_rates[k][1] for k in inner_rates)
    assert bot.signs[1].min_manos == inner.signs[1].min_manos == 3 and bot.team_sizes == (1, 2, 3)
    assert len({p.gen.initial_seed() for p in (bot.alts[1], inner.alts[1], inner.base)}) == 3  # each its own draws
    plain = load_policy("ppo_network", seed=0)
    assert isinstance(plain, PPOPolicy) and plain.path == MOTENO_V5_BOT

    seen = []
    original = bot.switched

    def watch(observations):
        who = original(observations)
        obs = np.asarray(observations).reshape(len(who), -1)
        seen.append((obs[:, RECORD].copy(), obs[:, SIZE_AT : SIZE_AT + 4].argmax(axis=1) + 1, who))
        return who

    bot.switched = watch
    play_match(load_policy("heuristic_bluffer", seed=1), bot, team_size=1, episodes=16, seed=3)
    manos, sizes, who = (np.concatenate(x) for x in zip(*seen, strict=True))
    assert (who[manos < 3] == 0).all() and (who[manos >= 3] == 1).mean() > 0.1
    seen.clear()
    play_match(load_policy("heuristic_bluffer", seed=1), bot, team_size=2, episodes=4, seed=3)
    manos, sizes, who = (np.concatenate(x) for x in zip(*seen, strict=True))
    assert (sizes == 2).all() and (manos >= 3).any() and (who == 0).all()
