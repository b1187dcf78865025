"""The policy interface, the built-in random policy, and policies by name for the environments.

A policy is any object with ``act(observation, action_mask) -> int``; batched callers use
``act_batch(observations, action_masks) -> ndarray`` (the default loops over ``act``). Both
must return legal actions only (an entry of the mask that is 1). A policy that knows its
distribution also offers ``action_probs(observations, action_masks) -> ndarray`` (rows sum to 1,
zero on illegal actions); ``action_probs()`` below falls back to the one-hot of ``act``.

**Decision keys.** ``act_batch(observations, action_masks, keys=None)``: a caller that wants
its outcome to depend on its seed only, not on how its rows were batched (the duplicate
evaluator), passes one ``uint64`` key per row, drawn from a random stream per table and seat
(docs/engine.md, "Random streams of the bots"). A policy that accepts ``keys`` takes every random
draw of that decision from its row's key (``key_uniforms``), and none from its own generator;
without keys it draws from its own seeded generator, as before. The shipped bots (random,
heuristic, PPO, CFR) all accept keys; ``act_batch()`` below passes them to any policy whose
``act_batch`` has a ``keys`` parameter (a deterministic policy needs none).

This lives in the environment layer so that ``make_gym(opponents=...)`` needs nothing above it:
``random`` is built in, and any other name (``"heuristic"``, a checkpoint path) is resolved by the
loaders that installed packages register under the entry-point group ``truque_env.policies``
(``agents`` registers ``agents.registry:load_policy``; see pyproject.toml). The environments never
import the bots.
"""

from __future__ import annotations

import inspect
from typing import Protocol, runtime_checkable

import numpy as np

from truque_env.engine.rng import mix64_array


@runtime_checkable
class Policy(Protocol):
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


def key_uniforms(keys: np.ndarray, purpose: int = 0) -> np.ndarray:
    """One uniform draw in [0, 1) per decision key; each ``purpose`` (a small integer naming what
    the draw is for) gives an independent draw from the same key."""
    z = mix64_array(np.asarray(keys, dtype=np.uint64) ^ mix64_array(np.uint64(purpose)))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def takes_keys(policy) -> bool:
    """Whether ``policy.act_batch`` accepts the decision keys (a ``keys`` parameter)."""
    fn = getattr(policy, "act_batch", None)
    if fn is None:
        return False
    try:
        return "keys" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def act_batch(policy, observations: np.ndarray, action_masks: np.ndarray, keys: np.ndarray | None = None) -> np.ndarray:
    """Batched actions from any policy (its own ``act_batch`` when it has one), with the rows'
    decision keys when given and the policy takes them."""
    if hasattr(policy, "act_batch"):
        if keys is not None and takes_keys(policy):
            return np.asarray(policy.act_batch(observations, action_masks, keys=keys), dtype=np.int64)
        return np.asarray(policy.act_batch(observations, action_masks), dtype=np.int64)
    return np.array([policy.act(o, m) for o, m in zip(observations, action_masks, strict=True)], dtype=np.int64)


def nth_legal(action_masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The legal action at position ``floor(u * number of legal actions)`` of each row (a uniform
    choice among the legal ones for a uniform ``u``)."""
    legal = np.asarray(action_masks) > 0
    count = legal.sum(axis=1)
    if not (count > 0).all():
        raise ValueError("a row of the masks has no legal action")
    k = np.minimum((u * count).astype(np.int64), count - 1)
    return (legal & (np.cumsum(legal, axis=1) == (k + 1)[:, None])).argmax(axis=1).astype(np.int64)


def action_probs(policy, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """Batched action probabilities: the policy's own, or a one-hot of its (deterministic) action."""
    if hasattr(policy, "action_probs"):
        return np.asarray(policy.action_probs(observations, action_masks), dtype=np.float64)
    acts = act_batch(policy, observations, action_masks)
    out = np.zeros(action_masks.shape, dtype=np.float64)
    out[np.arange(len(acts)), acts] = 1.0
    return out


def check_team_size(policy, team_size: int, name: str | None = None) -> None:
    """A ValueError unless ``policy`` plays ``team_size`` (a policy may say which it plays in
    ``team_sizes``; one that does not plays every size)."""
    sizes = getattr(policy, "team_sizes", None)
    if sizes is not None and team_size not in sizes:
        who = name or getattr(policy, "name", type(policy).__name__)
        plays = ", ".join(f"{n} contra {n}" for n in sizes)
        raise ValueError(f"the bot {who!r} plays {plays} only, not {team_size} contra {team_size}")


class RandomPolicy:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(legal[self.rng.integers(legal.size)])

    def action_probs(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        legal = (np.asarray(action_masks) > 0).astype(np.float64)
        return legal / legal.sum(axis=-1, keepdims=True)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, keys: np.ndarray | None = None) -> np.ndarray:
        if keys is not None:  # each row's draw from its own key: the same whatever the batch
            return nth_legal(action_masks, key_uniforms(keys))
        draws = self.rng.random(action_masks.shape) * (action_masks > 0)
        if not (action_masks > 0).any(axis=1).all():
            raise ValueError("a row of the masks has no legal action")
        return draws.argmax(axis=1).astype(np.int64)


POLICY_LOADERS = "truque_env.policies"  # the entry-point group of the policy loaders


def load_named(name: str, seed: int | None = 0, tradition: str = "moteno"):
    """A policy by registry name or checkpoint path, from the registered loaders, tried in the
    order of their entry-point names until one knows it (``ValueError`` with the first loader's
    reason if none does). Without a registered loader only ``random`` exists."""
    from importlib.metadata import entry_points

    loaders = sorted(entry_points(group=POLICY_LOADERS), key=lambda ep: ep.name)
    first_error = None
    for ep in loaders:
        try:
            return ep.load()(name, seed=seed, tradition=tradition)
        except ValueError as exc:
            first_error = first_error or exc
    if first_error is not None:
        raise first_error
    if name.strip() == "random":
        return RandomPolicy(seed)
    raise ValueError(f"unknown policy {name!r}: only 'random' is built in, and no installed package "
                     f"registers policies (entry points {POLICY_LOADERS!r}; installing truque_env registers the bots of agents)")
