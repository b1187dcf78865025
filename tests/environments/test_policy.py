"""Policies by name in the environment layer (truque_env.policy): random is built in, the rest
comes from the loader that agents registers as an entry point, so the environments never import
the bots."""

from __future__ import annotations

import importlib.metadata

import numpy as np
import pytest

from truque_env.policy import (
    POLICY_LOADERS,
    RandomPolicy,
    act_batch,
    key_uniforms,
    load_named,
    nth_legal,
    takes_keys,
)


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

    styles = ["style_bluffer", "style_caller", "style_folder", "style_raiser"]  # every tradition's (agents.styles)
    assert known_policies() == known_policies("moteno") == ["cfr", "cfr_pure", "cfr_threshold", "heuristic",
                                                            "heuristic_bluffer", "heuristic_parero", "heuristic_sin_senas",
                                                            "ppo", "ppo_3v3", "ppo_league1", "ppo_network", "ppo_switch", "ppo_v10", "ppo_v13", "ppo_v16", "ppo_v18", "ppo_v19", "ppo_v8", "ppo_v9",
                                                            "random",
                                                            *styles]
    with pytest.raises(ValueError, match="unknown tradition 'nope'"):
        load_policy("random", tradition="nope")
    # a registered tradition without bots of its own (made up here): random and the styles play it (they
    # read only the mask and its actions' kinds), the others are refused
    fake = dataclasses.replace(T.get("moteno"), name="fake", title="Fake", env_name="fake_v0")
    registered = {"moteno": T.get("moteno"), "fake": fake}
    monkeypatch.setattr(T, "_registry", lambda: registered)
    assert known_policies("fake") == ["random", *styles]
    assert isinstance(load_policy("random", seed=1, tradition="fake"), RandomPolicy)
    assert load_policy("style_caller", seed=1, tradition="fake").name == "style_caller"
    with pytest.raises(ValueError, match="no 'heuristic' bot for fake; known policies for fake: random, style_bluffer"):
        load_policy("heuristic", tradition="fake")
    # a checkpoint records the game it was made for, and is refused for another
    with pytest.raises(ValueError, match="ppo_moteno_3v3.pt was made for moteno, not for fake"):
        load_policy("agents/checkpoints/ppo_moteno_3v3.pt", tradition="fake")
    with pytest.raises(ValueError, match="cfr_moteno_1v1.npz was made for moteno, not for fake"):
        load_policy("agents/checkpoints/cfr_moteno_1v1.npz", tradition="fake")


def test_key_uniforms_are_uniform_and_independent_per_purpose():
    keys = np.arange(200_000, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    u0, u1 = key_uniforms(keys, 0), key_uniforms(keys, 1)
    assert ((u0 >= 0) & (u0 < 1)).all()
    counts = np.bincount((u0 * 10).astype(int), minlength=10)
    chi2 = ((counts - 20_000) ** 2 / 20_000).sum()
    assert chi2 < 27.9  # 9 degrees of freedom, p = 0.001
    assert abs(np.corrcoef(u0, u1)[0, 1]) < 0.01
    assert (key_uniforms(keys[5:9], 0) == u0[5:9]).all()  # a row's draw is its key's alone


def test_nth_legal_picks_uniformly_among_the_legal_actions():
    mask = np.zeros((30_000, 6), dtype=np.uint8)
    mask[:, [1, 3, 4]] = 1
    u = key_uniforms(np.arange(30_000, dtype=np.uint64))
    counts = np.bincount(nth_legal(mask, u), minlength=6)
    assert counts[[0, 2, 5]].sum() == 0 and (abs(counts[[1, 3, 4]] - 10_000) < 400).all()
    assert nth_legal(mask[:1], np.array([0.999999999])).tolist() == [4]
    with pytest.raises(ValueError, match="no legal action"):
        nth_legal(np.zeros((1, 6), dtype=np.uint8), np.array([0.5]))


def test_keyed_random_policy_does_not_depend_on_the_batch():
    rng = np.random.default_rng(0)
    mask = (rng.random((50, 9)) < 0.5).astype(np.uint8)
    mask[:, 0] = 1
    keys = np.arange(50, dtype=np.uint64) + np.uint64(77)
    obs = np.zeros((50, 4), dtype=np.int8)
    whole = RandomPolicy(1).act_batch(obs, mask, keys=keys)
    parts = np.concatenate([RandomPolicy(2).act_batch(obs[i:i + 7], mask[i:i + 7], keys=keys[i:i + 7])
                            for i in range(0, 50, 7)])
    assert (whole == parts).all() and mask[np.arange(50), whole].all()
    assert takes_keys(RandomPolicy(0))
    assert (act_batch(RandomPolicy(5), obs, mask, keys) == whole).all()


def test_act_batch_calls_a_policy_without_keys_as_before():
    class Fixed:
        def act_batch(self, observations, action_masks):
            return np.argmax(action_masks, axis=1)

    mask = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.uint8)
    assert not takes_keys(Fixed())
    assert act_batch(Fixed(), np.zeros((2, 1), np.int8), mask, np.zeros(2, np.uint64)).tolist() == [1, 0]
