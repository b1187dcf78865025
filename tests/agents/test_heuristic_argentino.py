"""The argentino heuristic (agents/heuristic_argentino/): legal actions only, decided in one
numba kernel per batch (no Python per table), honest señas, the bets it makes and refuses on
known hands, keyed draws independent of the batching, and a short match against random (the
committed result, 2,000 duplicate juegos in 1 contra 1 and 2 contra 2, is
benchmarks/results/argentino_heuristic_vs_random_*.json)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.heuristic_argentino import ArgentinoHeuristic, ArgentinoHeuristicConfig
from agents.registry import known_policies, load_policy
from tests.agents.positions import random_play_positions
from train.eval.duplicate import play_match
from truque_env import Table, VectorEnv
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import observation as O


def _observe(t: Table) -> tuple[np.ndarray, np.ndarray]:
    obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
    hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    O.observe(t.state, hist, t.to_act, obs)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    mask[t.legal_ids()] = 1
    return obs, mask


def _decide(t: Table, bot=None) -> str:
    obs, mask = _observe(t)
    return A.ACTION_NAMES[(bot or ArgentinoHeuristic(seed=0)).act(obs, mask)]


def test_it_is_the_registered_heuristic_of_argentino():
    assert "heuristic" in known_policies("argentino")
    bot = load_policy("heuristic", seed=3, tradition="argentino")
    assert isinstance(bot, ArgentinoHeuristic) and bot.tradition == "argentino"


@pytest.mark.parametrize("team_size", [1, 2, 3])
def test_only_legal_actions_over_a_batch_and_as_many_as_rows(team_size):
    env = VectorEnv(256, tradition="argentino", team_size=team_size, seed=team_size)
    obs, mask, *_ = env.reset()
    bot = ArgentinoHeuristic(seed=1)
    for _ in range(300):
        a = bot.act_batch(obs, mask)
        assert a.shape == (256,) and (mask[np.arange(256), a] == 1).all()
        obs, mask, *_ = env.step(a)


def test_keyed_decisions_do_not_depend_on_the_batching():
    env = VectorEnv(64, tradition="argentino", team_size=2, seed=5)
    obs, mask, *_ = env.reset()
    for _ in range(20):
        obs, mask, *_ = env.step(env.sample_actions(np.arange(64, dtype=np.int64)))
    keys = np.arange(64, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    bot = ArgentinoHeuristic(seed=0, config={"bluff_truco": 0.5, "bluff_envido": 0.5})
    whole = bot.act_batch(obs, mask, keys=keys)
    parts = np.concatenate([bot.act_batch(obs[i : i + 7], mask[i : i + 7], keys=keys[i : i + 7]) for i in range(0, 64, 7)])
    assert np.array_equal(whole, parts)


def test_config_is_checked():
    with pytest.raises(ValueError, match="unknown heuristic setting 'nerve'"):
        ArgentinoHeuristic(config={"nerve": 1})
    with pytest.raises(ValueError, match="must be a number"):
        ArgentinoHeuristicConfig.from_dict({"truco_call": "high"})


def test_it_sings_its_flor_and_makes_the_honest_sena():
    t = Table(tradition="argentino", team_size=1, seed=0, todo_dicho=False)
    t.deal(hands=["5O 6O 7O", "4B 5B 1E"], dealer=1)
    assert _decide(t) == "flor"
    t = Table(tradition="argentino", team_size=2, seed=0, todo_dicho=False)
    t.deal(hands=["1E 4C 5B", "1B 7C 6B", "2O 3O 4E", "2C 3B 7O"], dealer=3)
    assert _decide(t) == "seña: ancho de espadas"
    t.act("seña: ancho de espadas")
    assert not _decide(t).startswith("seña")


def test_envido_it_bets_a_33_and_refuses_a_weak_hand_against_a_real_envido():
    t = Table(tradition="argentino", team_size=1, seed=0, todo_dicho=False)
    t.deal(hands=["7O 6O 1E", "4C 5B 12E"], dealer=1)
    assert _decide(t) in ("real envido", "falta envido", "envido")
    t = Table(tradition="argentino", team_size=1, seed=0, todo_dicho=False)
    t.deal(hands=["4C 5B 12E", "7O 6O 1E"], dealer=1)
    t.act("juego 12E")
    t.act("real envido")
    assert _decide(t) == "no quiero"


def test_truco_it_calls_with_the_best_cards_and_takes_the_baza_cheaply():
    t = Table(tradition="argentino", team_size=1, seed=0, todo_dicho=False)
    t.deal(hands=["1E 1B 7E", "4C 5B 6C"], dealer=1)
    bot = ArgentinoHeuristic(seed=0, config={"envido_open": 1.1, "envido_real": 1.1, "envido_falta": 1.1})
    assert _decide(t, bot) == "truco"
    t = Table(tradition="argentino", team_size=1, seed=0, todo_dicho=False)
    t.deal(hands=["3O 4C 5B", "7E 2B 1B"], dealer=1)
    t.act("juego 3O")
    bot = ArgentinoHeuristic(seed=0, config={"envido_open": 1.1, "truco_call": 1.1, "bluff_truco": 0, "bluff_envido": 0})
    assert _decide(t, bot) == "juego 7E"  # the lowest card over the tres


def test_todo_dicho_answered_in_juego_equity():
    # a weak envido and the rivals lacking 2: refusing both would give them the juego
    t = Table(tradition="argentino", team_size=1, seed=0)
    t.deal(hands=["4C 5B 12E", "7O 6O 1E"], dealer=1, scores=(5, 28))
    t.act("falta envido y truco, todo dicho")
    assert _decide(t) != "no quiero"


@pytest.mark.parametrize("team_size", [1, 2])
def test_it_beats_random_clearly(team_size):
    r = play_match(load_policy("heuristic", seed=1, tradition="argentino"), load_policy("random", seed=2),
                   tradition="argentino", team_size=team_size, episodes=200, num_envs=100, seed=11, progress=False)
    assert r.juegos["win_rate_A"] >= 0.85


def test_the_faltero_opens_the_falta_envido_at_every_turn_it_may_and_the_heuristic_does_not():
    """heuristic_faltero (bluff_falta = 1): how the league bots' exploiters bet the envido."""
    from truque_env.traditions.argentino import layout as L

    obs, mask = random_play_positions("argentino", env_seed=7, walk_seed=3)
    turn = (mask[:, A.FALTA_ENVIDO] == 1) & (obs[:, O.P_EX_KIND + L.EX_NONE] == 1)  # its turn, not an answer
    assert turn.sum() > 50
    falta = {name: load_policy(name, seed=0, tradition="argentino").act_batch(obs, mask) == A.FALTA_ENVIDO
             for name in ("heuristic", "heuristic_faltero")}
    assert falta["heuristic_faltero"][turn].all()
    assert falta["heuristic"][turn].mean() < 0.2
    with pytest.raises(ValueError, match="heuristic setting bluff_falta must be a number"):
        ArgentinoHeuristicConfig.from_dict({"bluff_falta": "always"})


def test_the_enviador_opens_the_envido_at_every_turn_it_may_and_the_heuristic_does_not():
    """heuristic_enviador (bluff_envido = 1): the plain envido with every hand (the real envido or
    the falta with the hands the heuristic opens them with), as v5's exploiter bets it."""
    from truque_env.traditions.argentino import layout as L

    obs, mask = random_play_positions("argentino", env_seed=8, walk_seed=4)
    turn = (mask[:, A.ENVIDO] == 1) & (obs[:, O.P_EX_KIND + L.EX_NONE] == 1)
    assert turn.sum() > 50
    opens = {name: np.isin(load_policy(name, seed=0, tradition="argentino").act_batch(obs, mask),
                           (A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO))
             for name in ("heuristic", "heuristic_enviador")}
    assert opens["heuristic_enviador"][turn].all()
    assert opens["heuristic"][turn].mean() < 0.6
    plain = load_policy("heuristic_enviador", seed=0, tradition="argentino").act_batch(obs, mask)[turn] == A.ENVIDO
    assert plain.mean() > 0.5  # mostly the plain envido, not the faltero's word
