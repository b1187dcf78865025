"""A bot that reads the juego's public record and answers a rival it recognises with a second policy.

A player at the table remembers how the rivals have bet in the juego so far (the record of
``truque_env.engine.record``: how many manos, and each team's raises, acceptances, refusals and
leaves). ``RecordSwitchPolicy`` plays ``base`` (the robust bot) until the rival team's record
matches a **sign** (``RecordSign``: after ``min_manos`` manos, each of the rival's rates per mano
within its bounds), and from then on plays ``alt`` at that team size: a policy trained against the
kind of rival the sign describes (a best response to ``heuristic_bluffer``, which beats the
heuristic's family and loses to those who never fold, and to strong players). The sign is read again at
every decision, so a rival whose later manos move his rates out of the bounds gets ``base`` back.

Why a switch and not one network that reads the record: the shipped networks do not read it (a
network that did was more exploitable through it, docs/league_moteno.md), and a best response warm
started from the bot wins 89–95% against the heuristic family where the bot wins 74–78%. The
switch is exploitable through its sign like any read of the rival; how much is measured by an
exploiter trained against it (train.studies.exploiter), not assumed. And a strong player whose
record looks like the family's gets the second policy too: with the best response alone behind
the sign, the network beat its own switch in 67.6% of juegos. Switches nest (a switch is a base
like any policy): Moteño's ``ppo`` reads a narrower sign first, for the scripted family, and a
broader one, whose second policy was trained against the strong players with that record too.

Each team size has its own ``alt`` and its own sign (a team's record counts both partners' words,
so its rates per mano grow with the team). A size with no ``alt`` plays ``base`` throughout.
Everything is numpy over the batch: the rows with the sign go to ``alt`` and the others to
``base``, each policy called once per batch with its rows (and their decision keys).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from truque_env.engine.header import REC_KINDS
from truque_env.policy import act_batch, action_probs
from truque_env.traditions import get, is_int
from truque_env.traditions.action_kinds import KIND_NAMES

RATE_KINDS = KIND_NAMES[:REC_KINDS]  # the counts of the record, in its order: raise, accept, refuse, leave


@dataclass(frozen=True)
class RecordSign:
    """When the rival team's record says "this kind of rival": after ``min_manos`` finished manos
    of the juego, each of its rates (count per finished mano) within ``[low, high]`` of ``rates``
    (both ends included; ``high`` may be ``math.inf``). A kind not named is not read."""

    min_manos: int = 3
    rates: dict = field(default_factory=dict)
    """kind ("raise", "accept", "refuse", "leave") -> (low, high)"""

    def __post_init__(self):
        if not is_int(self.min_manos) or self.min_manos < 1:
            raise ValueError(f"min_manos must be an integer >= 1 (a rate needs a finished mano), got {self.min_manos!r}")
        if not isinstance(self.rates, dict) or not self.rates:
            raise ValueError("a sign reads at least one rate: rates = {kind: (low, high)}")
        for kind, bounds in self.rates.items():
            if kind not in RATE_KINDS:
                raise ValueError(f"unknown rate {kind!r}: the record counts {', '.join(RATE_KINDS)}")
            if not (isinstance(bounds, (tuple, list)) and len(bounds) == 2):
                raise ValueError(f"the bounds of {kind!r} must be (low, high), got {bounds!r}")
            low, high = (float(b) for b in bounds)
            if not (0.0 <= low <= high) or math.isnan(high):
                raise ValueError(f"the bounds of {kind!r} must satisfy 0 <= low <= high, got {bounds!r}")

    def matches(self, manos: np.ndarray, rival_counts: np.ndarray) -> np.ndarray:
        """Per row: whether the sign shows. ``manos`` (n,) finished manos; ``rival_counts`` (n, REC_KINDS)."""
        manos = np.asarray(manos, dtype=np.float64)
        ok = manos >= self.min_manos
        per_mano = np.maximum(manos, 1.0)
        for kind, (low, high) in self.rates.items():
            count = np.asarray(rival_counts[:, RATE_KINDS.index(kind)], dtype=np.float64)
            # count / manos within [low, high], compared as products: no rounding at the bounds
            ok &= (count >= float(low) * per_mano) & (count <= float(high) * per_mano)
        return ok

    def to_dict(self) -> dict:
        return {"min_manos": self.min_manos, "rates": {k: [float(lo), float(hi)] for k, (lo, hi) in self.rates.items()}}


class RecordSwitchPolicy:
    """``base`` until the rival's record shows the sign of the team size, then ``alt`` of that size.

    ``alts`` and ``signs``: dicts by team size (the sizes must be the same keys). ``tradition``
    gives the observation's layout (where the record and the team size are)."""

    def __init__(self, base, alts: dict, signs: dict, tradition: str = "moteno", name: str | None = None):
        spec = get(tradition)
        if not isinstance(alts, dict) or not isinstance(signs, dict) or set(alts) != set(signs):
            raise ValueError("alts and signs are dicts with the same team sizes as keys")
        for size in alts:
            if not is_int(size) or size not in spec.team_sizes:
                raise ValueError(f"team size {size!r}: {tradition} is played at {list(spec.team_sizes)}")
            if not isinstance(signs[size], RecordSign):
                raise ValueError(f"the sign of size {size} must be a RecordSign, got {type(signs[size]).__name__}")
        slices, parts = spec.observation.SLICES, spec.observation.PARTS
        if "juego_record" not in slices:
            raise ValueError(f"{tradition}'s observation has no juego_record: there is nothing to read")
        size_at, (size_width,) = slices["team_size"]  # the one-hot of the team size
        self._size = slice(size_at, size_at + size_width)
        self._manos = parts["juego_record.manos"][0]
        self._rival = slice(*parts["juego_record.rival"])  # the rival team's REC_KINDS counts
        self.base, self.alts, self.signs, self.tradition = base, dict(alts), dict(signs), tradition
        self.name = name or f"{getattr(base, 'name', 'base')}+switch"
        if hasattr(base, "team_sizes"):
            self.team_sizes = base.team_sizes
        self.last_switched = np.zeros(0, dtype=bool)  # the rows of the last batch played by an alt

    def read_record(self, observations) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per row, what the sign reads: the team size, the juego's finished manos and the rival
        team's counts (``(n, REC_KINDS)``, in ``RATE_KINDS`` order)."""
        obs = np.asarray(observations)
        obs = obs.reshape(obs.shape[0], -1)
        return obs[:, self._size].argmax(axis=1) + 1, obs[:, self._manos], obs[:, self._rival]

    def switched(self, observations) -> np.ndarray:
        """Per row: the team size whose ``alt`` plays it, 0 where ``base`` does."""
        size, manos, rival = self.read_record(observations)
        who = np.zeros(size.shape[0], dtype=np.int64)
        for s, sign in self.signs.items():  # a few sizes: a loop over sizes, not rows
            rows = size == s
            if rows.any():
                who[rows & sign.matches(manos, rival)] = s
        return who

    def _route(self, observations, action_masks, call):
        obs = np.asarray(observations)
        masks = np.asarray(action_masks)
        if obs.shape[0] == 0:
            return call(self.base, obs, masks, np.zeros(0, dtype=np.int64))
        who = self.switched(obs)
        self.last_switched = who > 0
        parts = [(self.base, np.flatnonzero(who == 0))] + [(self.alts[s], np.flatnonzero(who == s)) for s in self.alts]
        out = None
        for policy, rows in parts:
            if rows.size == 0:
                continue
            got = call(policy, obs[rows], masks[rows], rows)
            if out is None:
                out = np.zeros((obs.shape[0],) + got.shape[1:], dtype=got.dtype)
            out[rows] = got
        return out

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        def call(policy, obs, masks, rows):
            return act_batch(policy, obs, masks, None if keys is None else np.asarray(keys)[rows])

        return self._route(observations, action_masks, call).astype(np.int64)

    def action_probs(self, observations, action_masks) -> np.ndarray:
        return self._route(observations, action_masks, lambda p, o, m, rows: np.asarray(action_probs(p, o, m)))

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])
