"""The PettingZoo AEC env (``truque_env.pettingzoo_env``): API, seeding, rewards, episodes, render.

``pettingzoo.test.max_cycles_test`` itself does not apply to a turn-based env: it builds
``mod.parallel_env(...)``, which PettingZoo only allows for ``is_parallelizable`` envs, and its
median check assumes round-robin cycles. ``test_max_cycles`` checks the AEC half of it on our
``max_cycles`` option (no agent makes more than ``max_cycles`` decisions, then all are truncated).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import truque_env
from truque_env.pettingzoo_env import raw_env
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.render import render_state
from truque_env.vector import VectorEnv

TEAM_SIZES = (1, 2, 3, 4)
EPISODES = ("mano", "juego", "partida")


@pytest.fixture(autouse=True)
def _quiet():
    # api_test warns about Dict observations for every env not in its list of classic envs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _random_step(env, rng):
    obs, _, term, trunc, _ = env.last()
    if term or trunc:
        env.step(None)
    else:
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("senas", [True, False], ids=["senas", "no-senas"])
@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize("team_size", TEAM_SIZES)
def test_api(team_size, episode, senas):
    api_test(truque_env.env(team_size=team_size, episode=episode, senas=senas, seed=1), num_cycles=40)


@pytest.mark.parametrize("senas", [True, False], ids=["senas", "no-senas"])
@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize("team_size", TEAM_SIZES)
def test_seed(team_size, episode, senas):
    seed_test(lambda: truque_env.env(team_size=team_size, episode=episode, senas=senas), num_cycles=40)


@pytest.mark.parametrize("episode", EPISODES)
@pytest.mark.parametrize("team_size", TEAM_SIZES)
def test_max_cycles(team_size, episode):
    max_cycles = 4
    env = truque_env.env(team_size=team_size, episode=episode, max_cycles=max_cycles)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    counts = dict.fromkeys(env.possible_agents, 0)
    truncated = False
    for agent in env.agent_iter(10_000):
        counts[agent] += 1
        truncated |= env.truncations[agent]
        _random_step(env, rng)
    assert not env.agents
    if truncated:  # the usual case: the agent to act had used its max_cycles decisions
        assert max(counts.values()) == max_cycles + 1  # its decisions plus its final dead step
    else:  # the mano ended first
        assert episode == "mano" and max(counts.values()) <= max_cycles + 1
    if episode != "mano":
        assert truncated


def test_spaces_agents_teams_and_metadata():
    env = truque_env.env(team_size=3)
    env.reset(seed=0)
    assert env.metadata == {"name": "truque_moteno_v1", "render_modes": ["ansi", "human"], "is_parallelizable": False}
    assert env.possible_agents == [f"player_{i}" for i in range(6)]
    assert env.unwrapped.teams == {f"player_{i}": i % 2 for i in range(6)}
    for agent in env.agents:
        assert env.infos[agent]["team"] == int(agent[-1]) % 2
        assert env.action_space(agent).n == A.NUM_ACTIONS
        space = env.observation_space(agent)
        assert space["observation"].shape == (O.OBS_SIZE,) and space["observation"].dtype == np.int8
        assert space["action_mask"].shape == (A.NUM_ACTIONS,)
    # only the agent to act has legal actions
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)
    assert env.agent_selection == f"player_{int(env.unwrapped.state[L.TO_ACT])}"


def test_bad_configuration_raises():
    for kwargs in ({"episode": "baza"}, {"illegal_action": "ignore"}, {"render_mode": "rgb_array"},
                   {"team_size": 5}, {"max_cycles": 0}, {"seed": -1}):
        with pytest.raises(ValueError):
            raw_env(**kwargs)


def test_observe_is_the_engine_observation_of_that_seat():
    env = raw_env(team_size=2, seed=5)
    env.reset()
    rng = np.random.default_rng(1)
    for _ in range(60):
        for agent in env.agents:
            expected = np.zeros(O.OBS_SIZE, dtype=np.int8)
            O.observe(env.state, env.hist, env.seats[agent], expected)
            assert np.array_equal(env.observe(agent)["observation"], expected)
        _random_step(env, rng)
        if not env.agents:
            break


@pytest.mark.parametrize(("team_size", "episode"), [(1, "mano"), (3, "juego"), (2, "partida"), (4, "juego")])
def test_matches_vector_env(team_size, episode):
    """Same seed, same actions: the same observations, masks, seats, rewards and episode ends as
    ``VectorEnv`` with one table, through several episodes (``reset()`` continues like its auto-reset)."""
    seed = 11
    aec = raw_env(team_size=team_size, episode=episode, target=12)
    vec = VectorEnv(1, team_size=team_size, episode=episode, target=12, seed=seed)
    obs, mask, seat, _ = vec.reset()
    aec.reset(seed=seed)
    rng = np.random.default_rng(2)
    episodes = 0
    for _ in range(3000):
        agent = aec.agent_selection
        o = aec.observe(agent)
        assert agent == f"player_{int(seat[0])}"
        assert np.array_equal(o["observation"], obs[0])
        assert np.array_equal(o["action_mask"], mask[0].astype(np.int8))
        a = int(rng.choice(np.flatnonzero(mask[0])))
        obs, mask, seat, rewards, terminated, _ = vec.step(np.array([a]))
        aec.step(a)
        for ag in aec.possible_agents:
            assert aec.rewards[ag] == rewards[0, aec.seats[ag]]
        assert all(aec.terminations.values()) == bool(terminated[0])
        if terminated[0]:
            episodes += 1
            if episodes == 3:
                break
            aec.reset()
    assert episodes == 3


@pytest.mark.parametrize("team_size", [1, 3])
def test_rewards_zero_sum_and_scored_at_mano_end(team_size):
    env = raw_env(team_size=team_size, episode="juego", target=20, seed=4)
    env.reset()
    rng = np.random.default_rng(3)
    s = env.state
    totals = dict.fromkeys(env.possible_agents, 0.0)
    manos = 0
    while not any(env.terminations.values()):
        before = (int(s[L.SCORE]), int(s[L.SCORE + 1]), int(s[L.MANO_COUNT]))
        _random_step(env, rng)
        assert sum(env.rewards.values()) == 0  # zero-sum
        for ag, r in env.rewards.items():  # partners share their team's reward
            assert r == env.rewards[f"player_{env.teams[ag]}"]
            totals[ag] += r
        ended = any(env.terminations.values())
        new_mano = int(s[L.MANO_COUNT]) != before[2] or ended
        if not new_mano:
            assert all(r == 0 for r in env.rewards.values())
            continue
        manos += 1
        if ended:  # the last mano: the state still holds what it scored
            net = int(s[L.SCORED]) - int(s[L.SCORED + 1])
        else:  # the next mano was dealt: what was scored is the change of the score
            net = (int(s[L.SCORE]) - before[0]) - (int(s[L.SCORE + 1]) - before[1])
        assert env.rewards["player_0"] == net
        assert env.rewards["player_1"] == -net
    assert manos >= 1
    winner = int(s[L.LAST_JUEGO_WINNER])
    assert (totals["player_0"] > 0) == (winner == 0)  # the juego's winner has the larger total
    assert totals["player_0"] == -totals["player_1"]


def test_scale_rewards_divides_by_target():
    a, b = raw_env(team_size=1, episode="mano", target=20), raw_env(team_size=1, episode="mano", target=20, scale_rewards=True)
    a.reset(seed=9)
    b.reset(seed=9)
    rng = np.random.default_rng(0)
    while a.agents:
        action = None if a.terminations[a.agent_selection] else int(rng.choice(a.legal_actions()))
        a.step(action)
        b.step(action)
        for ag in a.rewards:
            assert b.rewards[ag] == pytest.approx(a.rewards[ag] / 20)


def test_episode_mano_reset_continues_the_partida():
    env = raw_env(team_size=1, episode="mano", target=30, seed=2)
    env.reset()
    rng = np.random.default_rng(5)
    scores = []
    for _ in range(4):
        while not all(env.terminations.values()):
            _random_step(env, rng)
        scores.append((int(env.state[L.SCORE]), int(env.state[L.SCORE + 1]), int(env.state[L.MANO_COUNT])))
        partida_over, dealer = bool(env.state[L.PARTIDA_OVER]), int(env.state[L.DEALER])
        env.reset()
        # the next mano of the same partida (a new one once it is over): scores kept
        kept = (0, 0) if partida_over else scores[-1][:2]
        assert (int(env.state[L.SCORE]), int(env.state[L.SCORE + 1])) == kept
        assert int(env.state[L.MANO_COUNT]) == scores[-1][2] and int(env.state[L.DEALER]) == dealer
    assert [m for _, _, m in scores] == [1, 2, 3, 4]


def test_reset_seed_reproduces_and_seeds_differ():
    def trajectory(seed):
        env = raw_env(team_size=2, seed=seed)
        env.reset()
        rng = np.random.default_rng(0)
        out = []
        for _ in range(50):
            if not env.agents:
                break
            out.append((env.agent_selection, env.observe(env.agent_selection)["observation"].tobytes()))
            _random_step(env, rng)
        return out

    assert trajectory(21) == trajectory(21)
    assert trajectory(21) != trajectory(22)


def test_senas_off_never_offers_a_sena():
    env = raw_env(team_size=2, senas=False, episode="juego", target=15, seed=6)
    env.reset()
    rng = np.random.default_rng(0)
    while env.agents:
        if env.terminations[env.agent_selection]:
            env.step(None)
            continue
        assert not env.observe(env.agent_selection)["action_mask"][A.SENA_BASE:].any()
        assert env.observe(env.agent_selection)["observation"][O.O_SENAS_LEFT] == 0
        _random_step(env, rng)


def test_illegal_action_raises_and_leaves_the_state():
    env = truque_env.env(team_size=2, seed=8)
    env.reset()
    unwrapped = env.unwrapped
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    state, hist = unwrapped.state.copy(), unwrapped.hist.copy()
    agent, cumulative = env.agent_selection, dict(unwrapped._cumulative_rewards)
    with pytest.raises(ValueError, match=rf"illegal action {illegal} \({A.ACTION_NAMES[illegal]}\).*legal: 0 paso"):
        env.step(illegal)
    assert np.array_equal(unwrapped.state, state) and np.array_equal(unwrapped.hist, hist)
    assert env.agent_selection == agent and unwrapped._cumulative_rewards == cumulative
    with pytest.raises(ValueError, match="integer"):
        unwrapped.step(1.0)
    with pytest.raises(AssertionError):  # AssertOutOfBoundsWrapper, as in the classic envs
        env.step(A.NUM_ACTIONS)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # still playable


@pytest.mark.parametrize("scale", [False, True])
def test_penalty_wrapper_ends_the_episode(scale):
    env = truque_env.env(team_size=2, illegal_action="penalty", scale_rewards=scale, target=30, seed=8)
    env.reset()
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env.rewards[offender] == (-1.0 if scale else -30.0)
    assert all(r == 0 for ag, r in env.rewards.items() if ag != offender)
    seen = set()
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        assert term and trunc
        if agent == offender:
            assert reward == (-1.0 if scale else -30.0)
        seen.add(agent)
        env.step(None)
    assert seen == set(env.possible_agents) and not env.agents


def _play_until_cards_seen(env, rng):
    s = env.unwrapped.state
    while not s[L.CARDS_SEEN]:
        _random_step(env, rng)


def test_render_ansi_and_viewer():
    env = truque_env.env(team_size=2, render_mode="ansi", seed=12)
    env.reset()
    rng = np.random.default_rng(0)
    s = env.unwrapped.state
    # before the cards are seen a player's own view hides them
    assert "boca abajo" in render_state(s, env.unwrapped.hist, viewer=0)
    _play_until_cards_seen(env, rng)
    text = env.render()
    assert isinstance(text, str) and "Truque Moteño" in text
    hands = [[int(c) for c in s[L.HAND + 3 * q: L.HAND + 3 * q + 3]] for q in range(4)]
    for q in range(4):  # the spectator sees every hand
        assert f"jugador {q} (equipo {q % 2}): " in text
    for viewer in range(4):
        view = render_state(s, env.unwrapped.hist, viewer=viewer)
        mine = next(line for line in view.splitlines() if "tus cartas:" in line)
        shown = mine.split(":", 1)[1].split("[")[0].split()
        played = int(s[L.HAND_PLAYED + viewer])
        expected = [truque_env.card_str(c) for k, c in enumerate(hands[viewer]) if not (played >> k) & 1]
        assert sorted(shown) == sorted(expected)
        for q in range(4):  # no hand is listed the spectator's way
            assert f"  jugador {q} (equipo {q % 2}): " not in view
    # the words said and the bets are there
    assert int(env.unwrapped.hist[0]) >= 4  # every seat spoke in the blind round before the cards were seen
    assert "Dicho en la mano" in text
    assert "envite de pares" in text and "truque" in text


def test_render_human_prints(capsys):
    env = truque_env.env(team_size=1, render_mode="human", seed=3)
    env.reset()
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "Truque Moteño, 1 contra 1" in capsys.readouterr().out


def test_render_at_mano_end_shows_chinas():
    env = raw_env(team_size=1, episode="mano", render_mode="ansi", seed=14)
    env.reset()
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        _random_step(env, rng)
    text = env.render()
    assert "Fase: mano terminada" in text and "Chinas de la mano" in text


@pytest.mark.parametrize("team_size", TEAM_SIZES)
def test_full_partida_with_random_play_ends(team_size):
    env = truque_env.env(team_size=team_size, episode="partida", target=30, juegos=3)
    env.reset(seed=100 + team_size)
    rng = np.random.default_rng(team_size)
    steps = 0
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(200_000):
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        assert not trunc
        _random_step(env, rng)
        steps += 1
    assert not env.agents
    s = env.unwrapped.state
    assert s[L.PARTIDA_OVER] == 1 and max(int(s[L.JUEGOS]), int(s[L.JUEGOS + 1])) == 2
    assert sum(totals.values()) == 0


def test_the_user_doc_states_the_real_sizes():
    """Issue 15: the module docstring (the user doc) said 1262 entries; the observation has 1270."""
    import re

    import truque_env.pettingzoo_env as pz
    from truque_env.traditions.moteno import observation as O

    doc = pz.__doc__
    assert [int(n) for n in re.findall(r"OBS_SIZE = (\d+)", doc)] == [O.OBS_SIZE]
    assert set(re.findall(r"Discrete\((\d+)\)", doc)) == {str(A.NUM_ACTIONS)}
    assert f"{A.NUM_ACTIONS} actions" in doc
