"""The single-agent Gymnasium env (``truque_env.gym_env``): checker, what the learner sees, rewards."""

from __future__ import annotations

import pickle
import warnings
import zlib

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import truque_env
from agents.base import RandomPolicy
from truque_env.gym_env import LegalDiscrete, TruqueGymEnv
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "no spec: cannot test other render modes"
        yield


# check_env's step-determinism check samples its action *before* its seeded reset; our
# action_space.sample() draws a legal action of the state at that moment, so the check passes
# when that action is also legal at the learner's first decision after reset(seed=123). These
# settings are deterministic (the seed seeds the table, the policies and the action sampler).
@pytest.mark.parametrize("kwargs", [
    {"seat": 0, "team_size": 1, "episode": "mano", "seed": 0},
    {"seat": 0, "team_size": 3, "episode": "juego", "seed": 0},
    {"seat": 1, "team_size": 2, "episode": "juego", "seed": 0, "senas": False},
    {"seat": 3, "team_size": 3, "episode": "mano", "seed": 0, "senas": False, "scale_rewards": True},
    {"seat": 0, "team_size": 4, "episode": "partida", "seed": 1},
], ids=["1v1-mano", "3v3-juego", "2v2-seat1-nosenas", "3v3-seat3-scaled", "4v4-partida"])
def test_check_env(kwargs):
    check_env(truque_env.make_gym(render_mode="ansi", **kwargs))


def _expected_obs(env):
    out = np.zeros(O.OBS_SIZE, dtype=np.int8)
    O.observe(env.state, env.aec.hist, env.seat, out)
    return out


@pytest.mark.parametrize(("team_size", "seat"), [(1, 1), (2, 2), (3, 3), (4, 5)])
def test_learner_sees_only_its_own_observations(team_size, seat):
    env = truque_env.make_gym(seat=seat, team_size=team_size, episode="juego", target=15)
    obs, info = env.reset(seed=seat)
    assert info == {"team": seat % 2, "seat": seat}
    n = 2 * team_size
    decisions = 0
    while True:
        s = env.state
        sl = O.split(obs["observation"])
        assert np.array_equal(obs["observation"], _expected_obs(env))
        # the seat of the observation: my offset from mano, my cards
        assert np.flatnonzero(sl["position"]).tolist() == [(seat - int(s[L.MANO_SEAT])) % n]
        if s[L.CARDS_SEEN]:
            played = int(s[L.HAND_PLAYED + seat])
            mine = [int(s[L.HAND + 3 * seat + k]) for k in range(3) if not (played >> k) & 1]
            assert sorted(np.flatnonzero(sl["hand"]).tolist()) == sorted(mine)
        if s[L.PHASE] == L.PH_DONE:
            break
        # the learner is the one to act, and only then has legal actions
        assert int(s[L.TO_ACT]) == seat and obs["action_mask"].any()
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
        decisions += 1
        if terminated or truncated:
            assert not obs["action_mask"].any()
            assert np.array_equal(obs["observation"], _expected_obs(env))
            break
    assert decisions > 0


def test_rewards_match_scored_chinas_mano():
    for seed in range(6):
        env = truque_env.make_gym(seat=seed % 2, team_size=1 + seed % 3, episode="mano")
        env.reset(seed=seed)
        total, terminated = 0.0, False
        while not terminated:
            _, r, terminated, truncated, _ = env.step(env.action_space.sample())
            total += r
            assert not truncated
        s, me = env.state, env.team
        assert total == int(s[L.SCORED + me]) - int(s[L.SCORED + 1 - me])


@pytest.mark.parametrize("seat", [0, 1])
def test_rewards_match_the_score_over_a_juego(seat):
    """Summed since the start of the juego, the learner's rewards are his team's score minus the
    rival's (the score slice of his observation); at the end, positive iff his team won it."""
    env = truque_env.make_gym(seat=seat, team_size=2, episode="juego", target=30)
    obs, _ = env.reset(seed=40 + seat)
    total, terminated = 0.0, False
    while not terminated:
        score = O.split(obs["observation"])["score"]
        assert total == int(score[0]) - int(score[1])
        obs, r, terminated, _, _ = env.step(env.action_space.sample())
        total += r
    juegos = O.split(obs["observation"])["juegos"]
    assert (total > 0) == (juegos[0] == 1) and juegos[0] + juegos[1] == 1


def _f(observation, action_mask) -> int:
    """A deterministic choice from what the player sees: the same game whoever is the learner."""
    legal = np.flatnonzero(action_mask)
    return int(legal[zlib.crc32(observation.tobytes()) % legal.size])


class Deterministic:
    def act(self, observation, action_mask):
        return _f(observation, action_mask)


@pytest.mark.parametrize("team_size", [1, 2])
def test_zero_sum_between_the_two_teams(team_size):
    """The same game with the learner at seat 0, then at seat 1: opposite rewards at every mano."""
    totals = []
    for seat in (0, 1):
        env = truque_env.make_gym(seat=seat, team_size=team_size, episode="juego", target=20,
                                  partners=Deterministic(), opponents=Deterministic())
        obs, _ = env.reset(seed=17)
        rewards, terminated = [], False
        while not terminated:
            obs, r, terminated, _, _ = env.step(_f(obs["observation"], obs["action_mask"]))
            if r:
                rewards.append(r)
        totals.append(rewards)
    assert totals[0] and totals[0] == [-r for r in totals[1]]


def test_seeded_determinism():
    def run(seed):
        env = truque_env.make_gym(seat=1, team_size=2, episode="juego", seed=3)
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(7)
        out = [obs["observation"].tobytes()]
        for _ in range(200):
            obs, r, term, trunc, _ = env.step(env.action_space.sample())
            out.append((obs["observation"].tobytes(), r))
            if term or trunc:
                break
        return out

    assert run(10) == run(10)
    assert run(10) != run(11)
    # reset(seed) in the same env reproduces too, whatever was played before
    # (the action space is seeded too: unseeded, its draws could end the episode within the five
    # steps in some processes, and stepping an ended episode is an error: this test was flaky)
    env = truque_env.make_gym(seat=0, team_size=3)
    first, _ = env.reset(seed=9)
    env.action_space.seed(4)
    for _ in range(5):
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
    again, _ = env.reset(seed=9)
    assert np.array_equal(first["observation"], again["observation"])


def test_illegal_action_raises_and_leaves_the_table():
    env = truque_env.make_gym(seat=0, team_size=2, seed=1)
    obs, _ = env.reset()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    state, hist = env.state.copy(), env.aec.hist.copy()
    with pytest.raises(ValueError, match=rf"illegal action {illegal} \({A.ACTION_NAMES[illegal]}\)"):
        env.step(illegal)
    assert np.array_equal(env.state, state) and np.array_equal(env.aec.hist, hist)
    with pytest.raises(ValueError):
        env.step(A.NUM_ACTIONS)
    with pytest.raises(ValueError):
        env.step("paso")
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # still playable


def test_penalty_ends_the_episode():
    env = truque_env.make_gym(seat=0, team_size=2, illegal_action="penalty", target=30, seed=1)
    obs, _ = env.reset()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, terminated, truncated, info = env.step(illegal)
    assert (r, terminated, truncated, info["illegal_action"]) == (-30.0, True, False, True)
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset()


def test_sample_without_mask_is_legal_and_with_mask_is_discrete():
    env = truque_env.make_gym(seat=2, team_size=3, episode="juego", seed=2)
    env.reset()
    for _ in range(300):
        a = env.action_space.sample()
        assert env.action_masks()[a]
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            break
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[5] = 1
    assert env.action_space.sample(mask) == 5
    assert isinstance(env.action_space, LegalDiscrete) and env.action_space == LegalDiscrete(A.NUM_ACTIONS)
    space = pickle.loads(pickle.dumps(env.action_space))  # unbound once pickled: plain Discrete sampling
    assert 0 <= space.sample() < A.NUM_ACTIONS


def test_policies_by_seat():
    class Counting(RandomPolicy):
        def __init__(self):
            super().__init__(seed=0)
            self.calls = 0

        def act(self, observation, action_mask):
            self.calls += 1
            return super().act(observation, action_mask)

    partner, rival1, rival2 = Counting(), Counting(), Counting()
    env = truque_env.make_gym(seat=0, team_size=2, partners=[partner], opponents=[rival1, rival2], seed=0)
    assert env.policies == {2: partner, 1: rival1, 3: rival2}
    obs, _ = env.reset()
    for _ in range(60):
        obs, _, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            break
    assert partner.calls > 0 and rival1.calls > 0 and rival2.calls > 0
    # one per seat of the table (the learner's and the other team's entries ignored)
    env = truque_env.make_gym(seat=1, team_size=2, partners=[None, None, None, partner], opponents=[rival1, None, rival2, None])
    assert env.policies == {3: partner, 0: rival1, 2: rival2}
    assert all(isinstance(p, RandomPolicy) for p in truque_env.make_gym(team_size=3).policies.values())
    with pytest.raises(ValueError):
        truque_env.make_gym(team_size=2, opponents=[rival1])
    with pytest.raises(ValueError, match="opponents: unknown policy 'greedy'; known policies"):
        truque_env.make_gym(opponents="greedy")
    with pytest.raises(TypeError):
        truque_env.make_gym(opponents=object())
    with pytest.raises(ValueError):
        truque_env.make_gym(seat=2, team_size=1)


def test_illegal_policy_action_names_the_seat():
    class Bad:
        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask == 0)[0])

    env = truque_env.make_gym(seat=0, team_size=1, opponents=Bad(), seed=0)
    with pytest.raises(ValueError, match="policy at seat 1"):
        env.reset()
        for _ in range(50):
            env.step(env.action_space.sample())


def test_render_shows_the_learners_cards():
    env = truque_env.make_gym(seat=1, team_size=2, render_mode="ansi", seed=4)
    env.reset()
    while not env.state[L.CARDS_SEEN]:
        env.step(env.action_space.sample())
    text = env.render()
    s = env.state
    mine = [truque_env.card_str(int(s[L.HAND + 3 + k])) for k in range(3) if not (int(s[L.HAND_PLAYED + 1]) >> k) & 1]
    line = next(x for x in text.splitlines() if "tus cartas:" in x)
    assert sorted(line.split(":", 1)[1].split("[")[0].split()) == sorted(mine)
    assert "Vista del jugador 1 (equipo 1)" in text


def test_is_a_gymnasium_env_and_pickles():
    env = truque_env.make_gym(seat=1, team_size=2, seed=3)
    assert isinstance(env, TruqueGymEnv)
    first, _ = env.reset()
    clone = pickle.loads(pickle.dumps(env))  # rebuilt from its arguments
    again, _ = clone.reset()
    assert np.array_equal(first["observation"], again["observation"])
    assert clone.action_masks()[clone.action_space.sample()]
    assert env.observation_space["observation"].shape == (O.OBS_SIZE,)
    assert env.action_space.n == A.NUM_ACTIONS
