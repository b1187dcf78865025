"""The contract every tradition gets for free: parametrised over ``truque_env.traditions()`` and
each tradition's team sizes, nothing here names a tradition.

* PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``;
* random-play invariants: a non-empty mask while the mano is on, each card dealt once, points
  within the metadata's bounds, decisions within the metadata's bound;
* an illegal action raises and leaves the state byte-identical (Table, VectorEnv, AEC);
* the same seed gives the same trajectory; duplicate deals are identical across tables;
* the layout begins with the common header and names the fields the environments read;
* the engine agrees with the tradition's plain-Python reference (``spec.reference``) on random
  manos (the tradition's own differential, e.g. tests/traditions/moteno/test_differential.py, steers into the
  rare branches; this one is the floor every tradition must pass).
"""

from __future__ import annotations

import importlib
import random
import re
import warnings

import gymnasium as gym
import numpy as np
import pytest

import truque_env
from truque_env import Table, VectorEnv
from truque_env.engine import header as H
from truque_env.traditions import get as get_tradition

CASES = [(name, size) for name in truque_env.traditions() for size in get_tradition(name).team_sizes]
IDS = [f"{name}-{size}v{size}" for name, size in CASES]
TRADITIONS = list(truque_env.traditions())


def _random_mano(table: Table, rng: random.Random) -> int:
    """Play the dealt mano to its end with uniform legal actions; the decisions taken."""
    decisions = 0
    while not table.done:
        legal = table.legal_ids()
        assert legal, f"no legal action while the mano is on ({table.phase})"
        table.act(rng.choice(legal))
        decisions += 1
    return decisions


# -- the spec and its layout ------------------------------------------------------------------
@pytest.mark.parametrize("name", TRADITIONS)
def test_layout_begins_with_the_common_header(name):
    spec = get_tradition(name)
    L = spec.layout
    for field, _width in H.HEADER_FIELDS:
        assert getattr(L, field) == getattr(H, field), field
    for field in (*H.MANO_FIELDS, "PH_DONE", "PHASE_NAMES", "MAX_PLAYERS", "MAX_SENA_LOG", "BAZA_UNDECIDED",
                  "BAZA_PARDA", "STATE_SIZE", "STATE_DTYPE"):
        assert hasattr(L, field), f"{name}'s layout lacks {field}"
    assert L.STATE_SIZE * np.dtype(L.STATE_DTYPE).itemsize <= 512  # the budget of a table's state
    assert L.MAX_PLAYERS == H.MAX_PLAYERS
    assert len(spec.sources) == 3 and re.fullmatch(r"[a-z_]+_v\d+", spec.env_name)
    assert spec.default_target in range(2, 101) and spec.team_sizes


@pytest.mark.parametrize("name", TRADITIONS)
def test_metadata_name_and_spaces_are_the_traditions(name):
    spec = get_tradition(name)
    env = truque_env.raw_env(tradition=name, team_size=spec.team_sizes[0])
    assert env.metadata["name"] == spec.env_name
    agent = env.possible_agents[0]
    assert env.action_space(agent).n == spec.actions.NUM_ACTIONS
    assert env.observation_space(agent)["observation"].shape == (spec.observation.OBS_SIZE,)


# -- PettingZoo and Gymnasium -----------------------------------------------------------------
@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_pettingzoo_api_test(name, size):
    from pettingzoo.test import api_test

    api_test(truque_env.env(tradition=name, team_size=size, seed=3), num_cycles=300)


@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_pettingzoo_seed_test(name, size):
    from pettingzoo.test import seed_test

    seed_test(lambda: truque_env.env(tradition=name, team_size=size), num_cycles=200)


class _NthLegal(gym.Wrapper):
    """check_env's step-determinism check samples its action before its seeded reset, and a
    masked env refuses an action that is illegal after the reset (a tradition whose every mano
    opens with a blind round, like argentino's todo dicho, never passes it unwrapped). Here a
    sampled action k plays the (k mod #legal)-th legal action: deterministic given the state and
    k; everything else check_env looks at is the env's own. (tests/environments/test_gym_env.py
    checks Moteño's env unwrapped at seeds where the sample stays legal.)"""

    def step(self, action):
        legal = np.flatnonzero(self.env.unwrapped.action_masks())
        return self.env.step(int(legal[int(action) % len(legal)]))


@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_gymnasium_check_env(name, size):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "no spec: cannot test other render modes"
        check_env(_NthLegal(truque_env.make_gym(tradition=name, team_size=size, seed=0, render_mode="ansi")))


# -- random play ------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_random_play_invariants(name, size):
    spec = get_tradition(name)
    L, meta = spec.layout, spec.metadata
    table = Table(tradition=name, team_size=size, seed=11)
    rng = random.Random(11)
    n = 2 * size
    bound = meta.max_decisions_per_mano(size, table.senas_per_mano)
    top = meta.max_chinas_per_mano(size, table.target)
    for _ in range(60):
        if table.partida_over:
            table = Table(tradition=name, team_size=size, seed=rng.randrange(2**31))
        table.deal()
        cards = [c for hand in table.hands for c in hand]
        assert len(cards) == 3 * n and len(set(cards)) == 3 * n and all(0 <= c < 40 for c in cards)
        before = table.scores
        decisions = _random_mano(table, rng)
        assert decisions <= bound
        won = [int(x) for x in table.state[L.CHINAS : L.CHINAS + 6]]
        assert all(0 <= w <= top for w in won)
        scored = [int(table.state[L.SCORED + t]) for t in (0, 1)]
        for t in (0, 1):  # what a team adds is what it won, or less when the juego ended first
            assert 0 <= scored[t] <= sum(won[3 * t : 3 * t + 3])
        if not table.juego_over:  # nothing is cut: the scores go on from where they were
            assert scored == [sum(won[0:3]), sum(won[3:6])]
            assert table.scores == (before[0] + scored[0], before[1] + scored[1])
            assert max(table.scores) < table.target
        played = [c for c in table.state[L.PLAYED : L.PLAYED + 3 * L.MAX_PLAYERS] if c >= 0]
        assert len(played) == len(set(played)) and set(played) <= set(cards)


@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_an_illegal_action_raises_and_changes_nothing(name, size):
    spec = get_tradition(name)
    table = Table(tradition=name, team_size=size, seed=2)
    table.deal()
    rng = random.Random(2)
    for _ in range(5):
        legal = set(table.legal_ids())
        illegal = [a for a in range(spec.actions.NUM_ACTIONS) if a not in legal]
        before = table.state.tobytes()
        with pytest.raises(ValueError, match="illegal"):
            table.act(rng.choice(illegal))
        assert table.state.tobytes() == before
        table.act(rng.choice(sorted(legal)))
        if table.done:
            break
    env = VectorEnv(4, tradition=name, team_size=size, seed=2)
    _, mask, *_ = env.reset()
    before = env.states.tobytes()
    bad = np.array([int(np.flatnonzero(mask[i] == 0)[0]) for i in range(4)])
    with pytest.raises(ValueError, match="illegal"):
        env.step(bad)
    assert env.states.tobytes() == before
    aec = truque_env.raw_env(tradition=name, team_size=size, seed=2)
    aec.reset()
    mask = aec.observe(aec.agent_selection)["action_mask"]
    before = aec.state.tobytes()
    with pytest.raises(ValueError, match="illegal"):
        aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert aec.state.tobytes() == before


def _trajectory(name, size, seed, steps=300):
    env = VectorEnv(8, tradition=name, team_size=size, seed=seed)
    obs, mask, seat, _ = env.reset()
    rng = np.arange(8, dtype=np.int64) + seed
    out = [obs.copy()]
    for _ in range(steps):
        obs, mask, seat, rewards, terminated, _ = env.step(env.sample_actions(rng))
        out += [obs.copy(), rewards.copy(), terminated.copy()]
    return out


@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_the_same_seed_gives_the_same_trajectory(name, size):
    a, b, c = _trajectory(name, size, 4), _trajectory(name, size, 4), _trajectory(name, size, 5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_duplicate_deals_are_identical_across_tables(name, size):
    """Tables sharing a deal seed (and a table seed) get the same k-th deal whatever is played."""
    L = get_tradition(name).layout
    n_tables = 4
    env = VectorEnv(n_tables, tradition=name, team_size=size, episode="partida", seed=0)
    env.reset(table_seeds=np.array([7, 7, 7, 7]), deal_seeds=np.array([3, 3, 3, 3]))
    deals: list[list] = [[] for _ in range(n_tables)]
    last = [-1] * n_tables
    rng = np.array([1, 2, 3, 4], dtype=np.int64)  # every table plays its own way
    for _ in range(600):
        for i in range(n_tables):
            k = int(env.states[i, L.MANO_COUNT])
            if k != last[i]:
                last[i] = k
                deals[i].append(env.states[i, L.HAND : L.HAND + 6 * size].tobytes())
        env.step(env.sample_actions(rng))
    shortest = min(len(d) for d in deals)
    assert shortest >= 3
    assert all(d[:shortest] == deals[0][:shortest] for d in deals)


# -- the plain-Python reference ---------------------------------------------------------------
@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_the_engine_agrees_with_the_reference(name, size):
    spec = get_tradition(name)
    RefTable = importlib.import_module(spec.reference).RefTable
    rng = random.Random(size)
    manos = 0
    while manos < 150:
        seed = rng.randrange(2**31)
        eng = Table(tradition=name, team_size=size, seed=seed)
        ref = RefTable(team_size=size, seed=seed)
        while not eng.partida_over and manos < 150:
            eng.deal()
            ref.deal()
            assert eng.hands == ref.hands and eng.mano == ref.mano
            while not eng.done:
                assert (eng.to_act, eng.phase) == (ref.to_act, ref.phase)
                legal = eng.legal_ids()
                assert legal == ref.legal_ids()
                a = rng.choice(legal)
                eng.act(a)
                ref.act(a)
            assert ref.done
            assert eng.result() == ref.result()
            assert (eng.scores, eng.juegos, eng.dealer) == (ref.scores, ref.juegos, ref.dealer)
            manos += 1
        assert eng.partida_over == ref.partida_over
