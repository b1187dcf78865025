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
