"""The MCCFR average policy of the 1 contra 1 mano (trained by ``train.cfr.mccfr``) as a bot for every interface.

Registered as ``cfr`` (``agents/checkpoints/cfr_moteno_1v1.npz``); ``load_policy`` also takes a
path to an exported policy or to a run's ``checkpoint.npz``.

At each decision the bot computes the information-set key and the legal abstract actions from
the observation and the legal mask exactly as the trainer did (``agents.cfr_abstraction``), looks the
key up (binary search in the sorted keys), and samples an abstract action from the average
strategy restricted to the legal ones and renormalised, with its own ``np.random.Generator``
(``rng``); the engine action is the one that abstract action names (always legal). With one legal
abstract action it plays it without a look-up.

**Unseen information sets.** A key the run never reached (or a row with no weight on any legal
action) falls back to uniform play over the legal abstract actions. This is the standard
behaviour of an abstraction's policy, not a silent substitution: the bot counts it in
``misses`` (of ``lookups``, the decisions that needed the table); ``miss_rate`` is their ratio.

**Thresholding and purification** (Ganzfried & Sandholm 2012, "Strategy purification and
thresholding: effective non-equilibrium approaches for playing large games", AAMAS): an
abstraction's average strategy keeps weight from the early, near-uniform iterates on actions it
rarely should take. ``threshold=t`` drops the legal abstract actions whose probability is below
``t`` and renormalises (the most probable always stays); ``purify=True`` plays the most probable
one (ties: the lowest-numbered). An unseen information set stays uniform (there is nothing to
trim). Both are registered: ``cfr_threshold`` (``t = 0.15``) and
``cfr_pure``.

It plays 1 contra 1 only: an observation of another team size is a ``ValueError``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents import cfr_abstraction as CA
from agents.cfr_files import load_policy_file
from truque_env.policy import key_uniforms
from truque_env.settings import check_made_for
from truque_env.traditions.moteno import observation as O

_TEAM_ONE = O.O_TEAM_SIZE  # the team_size one-hot: index 0 is 1 contra 1


class CFRPolicy:
    """A bot sampling the average strategy of an MCCFR run (see the module doc)."""

    team_sizes = (1,)  # the team sizes it plays (an evaluator refuses it at others before any play)

    def __init__(self, path, seed: int | None = 0, tradition: str = "moteno", threshold: float = 0.0,
                 purify: bool = False, name: str | None = None):
        self.path = Path(path)
        if not 0.0 <= threshold < 1.0:
            raise ValueError(f"threshold must be in [0, 1), got {threshold}")
        if purify and threshold > 0:
            raise ValueError("give threshold or purify, not both (purify keeps the most probable action alone)")
        self.threshold, self.purify = float(threshold), bool(purify)
        if not self.path.exists():
            raise ValueError(f"no CFR policy at {str(self.path)!r}")
        self.keys, self.policy, self.header = load_policy_file(self.path)
        # the game it was solved for, with its observation and action sizes (older files: Moteño's)
        check_made_for(self.header.get("settings") or self.header, tradition, f"{self.path}")
        self.name = name or f"cfr:{self.path.name}"
        self.rng = np.random.default_rng(seed)
        self.lookups = 0
        self.misses = 0

    @property
    def miss_rate(self) -> float:
        return self.misses / self.lookups if self.lookups else 0.0

    def _prepare(self, observations, action_masks):
        obs = np.asarray(observations)
        if obs.dtype != np.int8:
            raise ValueError(f"observations must be int8 (the env's), got {obs.dtype}")
        obs = obs.reshape(-1, O.OBS_SIZE)
        masks = np.ascontiguousarray(np.asarray(action_masks), dtype=np.uint8).reshape(obs.shape[0], -1)
        if obs.shape[0] and not (obs[:, _TEAM_ONE] == 1).all():
            sizes = sorted({int(np.argmax(o[O.O_TEAM_SIZE:O.O_TEAM_SIZE + 4])) + 1 for o in obs})
            raise ValueError(f"the CFR bot plays 1 contra 1 only (team_size 1); got team_size {sizes}")
        n = obs.shape[0]
        keys = np.zeros(n, dtype=np.int64)
        amasks = np.zeros((n, CA.NUM_ABSTRACT), dtype=np.uint8)
        amaps = np.zeros((n, CA.NUM_ABSTRACT), dtype=np.int64)
        CA.keys_and_actions(np.ascontiguousarray(obs), masks, keys, amasks, amaps)
        legal = amasks > 0
        if not legal.any(axis=1).all():
            bad = int(np.flatnonzero(~legal.any(axis=1))[0])
            raise ValueError(f"no abstract action is legal for row {bad} (legal engine actions "
                             f"{np.flatnonzero(masks[bad]).tolist()}): not a 1 contra 1 Moteño decision")
        return keys, legal, amaps

    def _probs(self, keys, legal):
        """Abstract-action probabilities per row (counting look-ups and misses)."""
        probs = legal.astype(np.float64)
        choice = legal.sum(axis=1) > 1
        rows = np.flatnonzero(choice)
        if rows.size:
            pos = np.searchsorted(self.keys, keys[rows])
            pos_ok = np.minimum(pos, max(self.keys.size - 1, 0))
            found = (pos < self.keys.size) & (self.keys[pos_ok] == keys[rows]) if self.keys.size else np.zeros(rows.size, bool)
            p = np.where(found[:, None], self.policy[pos_ok] if self.keys.size else 0.0, 0.0) * legal[rows]
            total = p.sum(axis=1)
            hit = total > 0
            if self.threshold > 0 or self.purify:
                p = self._trim(p / np.where(hit, total, 1.0)[:, None])
                total = p.sum(axis=1)
            probs[rows[hit]] = p[hit] / total[hit, None]
            self.lookups += int(rows.size)
            self.misses += int((~hit).sum())
        return probs / probs.sum(axis=1, keepdims=True)

    def _trim(self, p: np.ndarray) -> np.ndarray:
        """Rows of legal-action probabilities after thresholding or purification (not renormalised)."""
        rows, best = np.arange(p.shape[0]), p.argmax(axis=1)  # the first of the most probable
        out = np.zeros_like(p) if self.purify else np.where(p >= self.threshold, p, 0.0)
        out[rows, best] = p[rows, best]  # it always stays
        return out

    def action_probs(self, observations, action_masks) -> np.ndarray:
        """Probabilities over the engine's actions (zero outside the legal abstract ones)."""
        keys, legal, amaps = self._prepare(observations, action_masks)
        probs = self._probs(keys, legal)
        out = np.zeros((keys.size, np.asarray(action_masks).reshape(keys.size, -1).shape[1]))
        r, k = np.nonzero(legal)
        out[r, amaps[r, k]] = probs[r, k]
        return out

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        """Sampled actions; with ``keys`` (decision keys, truque_env.policy) each row's draw comes
        from its key instead of the bot's generator."""
        infosets, legal, amaps = self._prepare(observations, action_masks)
        probs = self._probs(infosets, legal)
        n = infosets.size
        u = (self.rng.random(n) if keys is None else key_uniforms(keys))[:, None]
        k = (np.cumsum(probs, axis=1) <= u).sum(axis=1)
        k = np.minimum(k, CA.NUM_ABSTRACT - 1)
        # rounding can step past the last legal action: take the last legal one then
        bad = ~legal[np.arange(n), k]
        if bad.any():
            k[bad] = CA.NUM_ABSTRACT - 1 - np.argmax(legal[bad][:, ::-1], axis=1)
        return amaps[np.arange(n), k].astype(np.int64)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])
