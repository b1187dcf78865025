"""Policies by name in the environment layer (truque_env.policy): random is built in, the rest
comes from the loader that agents registers as an entry point, so the environments never import
the bots."""

from __future__ import annotations

import importlib.metadata

import numpy as np
import pytest

from truque_env.policy import POLICY_LOADERS, RandomPolicy, load_named


def test_the_bots_are_found_through_the_registered_loader():
    names = [ep.value for ep in importlib.metadata.entry_points(group=POLICY_LOADERS)]
    assert names == ["agents.registry:load_policy"]  # pyproject.toml
    from agents.heuristic import HeuristicPolicy

    assert isinstance(load_named("heuristic", seed=0), HeuristicPolicy)
    with pytest.raises(ValueError, match="known policies"):
        load_named("no-such-bot")


def test_without_a_registered_loader_only_random_exists(monkeypatch):
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: [])
    bot = load_named("random", seed=3)
    assert isinstance(bot, RandomPolicy)
    assert bot.act(np.zeros(4, dtype=np.int8), np.array([0, 1, 0, 1], dtype=np.uint8)) in (1, 3)
    with pytest.raises(ValueError, match="only 'random' is built in"):
        load_named("heuristic")


class _EntryPoint:
    def __init__(self, name, loader):
        self.name, self._loader = name, loader

    def load(self):
        return self._loader


def test_loaders_are_tried_in_turn(monkeypatch):
    def agents_loader(name, seed=0, tradition="moteno"):
        raise ValueError(f"unknown policy {name!r}; known policies: random, heuristic")

    def my_loader(name, seed=0, tradition="moteno"):
        if name != "mybot":
            raise ValueError(f"not mine: {name!r}")
        return RandomPolicy(seed)

    eps = [_EntryPoint("zz_mine", my_loader), _EntryPoint("agents", agents_loader)]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group=None: eps)
    assert isinstance(load_named("mybot"), RandomPolicy)  # the second loader (by name) knows it
    with pytest.raises(ValueError, match="known policies"):  # nobody does: the first one's reason
        load_named("nobody")


def test_bots_by_tradition(monkeypatch):
    import dataclasses
    import sys

    from agents.registry import known_policies, load_policy

    T = sys.modules["truque_env.traditions"]  # the registry module (callable: truque_env.traditions())

    assert known_policies() == known_policies("moteno") == ["cfr", "heuristic", "heuristic_sin_senas", "ppo", "random"]
    with pytest.raises(ValueError, match="unknown tradition 'nope'"):
        load_policy("random", tradition="nope")
    # a registered tradition without bots of its own (made up here): random plays it, the others are refused
    fake = dataclasses.replace(T.get("moteno"), name="fake", title="Fake", env_name="fake_v0")
    registered = {"moteno": T.get("moteno"), "fake": fake}
    monkeypatch.setattr(T, "_registry", lambda: registered)
    assert known_policies("fake") == ["random"]
    assert isinstance(load_policy("random", seed=1, tradition="fake"), RandomPolicy)
    with pytest.raises(ValueError, match="no 'heuristic' bot for fake; known policies for fake: random"):
        load_policy("heuristic", tradition="fake")
    # a checkpoint records the game it was made for, and is refused for another
    with pytest.raises(ValueError, match="ppo_moteno_3v3.pt was made for moteno, not for fake"):
        load_policy("agents/checkpoints/ppo_moteno_3v3.pt", tradition="fake")
    with pytest.raises(ValueError, match="cfr_moteno_1v1.npz was made for moteno, not for fake"):
        load_policy("agents/checkpoints/cfr_moteno_1v1.npz", tradition="fake")
