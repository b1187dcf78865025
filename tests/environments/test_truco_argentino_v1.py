"""``truque_env.truco_argentino_v1``: the PettingZoo module of truco argentino, its docstring the
user doc (its example runs), its spaces as documented, PettingZoo's api and seed tests."""

from __future__ import annotations

import doctest

import pytest

from truque_env import truco_argentino_v1
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import observation as O


def test_the_docstring_example_runs():
    result = doctest.testmod(truco_argentino_v1, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


def test_name_spaces_and_the_documented_catalogue():
    e = truco_argentino_v1.env(team_size=3)
    assert e.metadata["name"] == "truco_argentino_v1"
    agent = e.possible_agents[0]
    assert e.action_space(agent).n == A.NUM_ACTIONS == 77
    assert e.observation_space(agent)["observation"].shape == (O.OBS_SIZE,)
    doc = truco_argentino_v1.__doc__
    for name in ("falta envido y truco, todo dicho", "contraflor al resto", "sin ley quiero y paso", "uno y uno"):
        assert name in doc and name in A.ACTION_NAMES
    assert f"Discrete({A.NUM_ACTIONS})" in doc


def test_it_plays_argentino_only_and_takes_its_options():
    with pytest.raises(ValueError, match="plays argentino, not 'moteno'"):
        truco_argentino_v1.env(tradition="moteno")
    e = truco_argentino_v1.raw_env(team_size=1, flor=False, todo_dicho=False, seed=1)
    e.reset()
    assert e.settings.options["flor"] is False
    with pytest.raises(ValueError, match="team_size must be 1, 2 or 3"):
        truco_argentino_v1.env(team_size=4)


def test_pettingzoo_api_and_seed_tests():
    from pettingzoo.test import api_test, seed_test

    api_test(truco_argentino_v1.env(team_size=2, seed=3), num_cycles=200)
    seed_test(lambda: truco_argentino_v1.env(team_size=1), num_cycles=100)


def test_the_package_and_registry_docstrings_run():
    import truque_env.traditions as registry
    import truque_env.traditions.argentino as package

    for module in (package, registry):
        result = doctest.testmod(module, verbose=False)
        assert result.attempted >= 2 and result.failed == 0, module.__name__


def test_the_old_version_names_the_new_one():
    from truque_env import truco_argentino_v0

    for make in (truco_argentino_v0.env, truco_argentino_v0.raw_env):
        with pytest.raises(ValueError, match="out of date: use truque_env.truco_argentino_v1"):
            make(team_size=2)
