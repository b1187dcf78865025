"""Make ``heuristic_golden.npz``: every decision of ``HeuristicPolicy`` in a few short matches.

The golden trace pins the bot's behaviour so that speed work on ``agents/heuristic/`` can be
checked to change no decision (``tests/agents/test_heuristic_golden.py`` replays it). Regenerate it
only when the bot's behaviour is *meant* to change:

    PYTHONPATH=. python tests/data/make_heuristic_golden.py

Each *stream* is one ``HeuristicPolicy`` instance (its seed and config) in one duplicate match
(``train.eval.duplicate.play_match``, with señas and ``p_intercept`` 0.1), against the random policy
or against another heuristic (then both are recorded, one stream each). The bot keeps no state
between calls but its RNG, so replaying the same observations in the same order, in the same
``act_batch`` batches, through a fresh policy with the same seed must give the same actions.

Arrays (decisions of all streams concatenated, stream by stream, in call order):
``obs`` int8 (N, OBS_SIZE), ``mask`` bit-packed (N, ceil(NUM_ACTIONS / 8)), ``action`` int16 (N),
``batch`` int32: the size of every ``act_batch`` call, ``stream_batches`` int64: batches per
stream, ``stream_seed`` int64, ``stream_config`` (JSON of the ``HeuristicConfig`` overrides),
``stream_label``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from agents.base import RandomPolicy
from agents.heuristic import HeuristicConfig, HeuristicPolicy
from train.eval.duplicate import play_match
from truque_env.traditions.moteno import actions as A

OUT = Path(__file__).with_name("heuristic_golden.npz")

# (label, team size, juegos, match seed, [(seed, config overrides) of each recorded heuristic], vs random)
BOLD = {"samples": 60, "sena_rate": 0.7, "bluff_envite": 0.3, "bluff_truco": 0.3, "blind_envite": 0.3,
        "blind_truco": 0.2, "use_partner_senas": True}
SCENARIOS = [
    ("3v3 h-rand", 3, 40, 1, [(11, {})], True),
    ("3v3 h-h", 3, 20, 2, [(12, {}), (13, {})], False),
    ("2v2 h-rand", 2, 40, 3, [(21, {})], True),
    ("2v2 h-h", 2, 20, 4, [(22, {}), (23, BOLD)], False),
    ("1v1 h-rand", 1, 60, 5, [(31, {})], True),
    ("1v1 h-h", 1, 30, 6, [(32, {}), (33, {"lookahead": False, "use_partner_senas": False})], False),
    ("3v3 bold-rand", 3, 16, 7, [(41, BOLD)], True),
]


class Recorder:
    """Wraps a policy and records every ``act_batch`` call."""

    def __init__(self, policy):
        self.policy = policy
        self.name = policy.name
        self.obs, self.mask, self.action, self.batch = [], [], [], []

    def act_batch(self, observations, action_masks):
        acts = np.asarray(self.policy.act_batch(observations, action_masks), dtype=np.int64)
        o = np.asarray(observations)
        assert np.array_equal(o.astype(np.int8).astype(o.dtype), o), "observation does not fit int8"
        self.obs.append(o.astype(np.int8))
        self.mask.append(np.asarray(action_masks).astype(np.uint8))
        self.action.append(acts.astype(np.int16))
        self.batch.append(len(acts))
        return acts


def main() -> None:
    obs, mask, action, batch = [], [], [], []
    s_batches, s_seed, s_config, s_label = [], [], [], []
    for label, team_size, juegos, match_seed, bots, vs_random in SCENARIOS:
        recs = [Recorder(HeuristicPolicy(HeuristicConfig.from_dict(cfg), seed=seed)) for seed, cfg in bots]
        a = recs[0]
        b = RandomPolicy(seed=match_seed) if vs_random else recs[1]
        play_match(a, b, team_size=team_size, episodes=juegos, num_envs=16, seed=match_seed,
                   senas_per_mano=1, p_intercept=0.1, bootstrap=10)
        for rec, (seed, cfg) in zip(recs, bots, strict=True):
            obs += rec.obs
            mask += rec.mask
            action += rec.action
            batch += rec.batch
            s_batches.append(len(rec.batch))
            s_seed.append(seed)
            s_config.append(json.dumps(cfg, sort_keys=True))
            s_label.append(f"{label} seed {seed}")
            print(f"{label:14s} seed {seed}: {sum(rec.batch):6d} decisions", file=sys.stderr)
    obs = np.concatenate(obs)
    masks = np.concatenate(mask)
    assert masks.shape[1] == A.NUM_ACTIONS and masks.max() <= 1
    np.savez_compressed(OUT, obs=obs, mask=np.packbits(masks, axis=1), num_actions=A.NUM_ACTIONS,
                        action=np.concatenate(action), batch=np.array(batch, dtype=np.int32),
                        stream_batches=np.array(s_batches, dtype=np.int64),
                        stream_seed=np.array(s_seed, dtype=np.int64), stream_config=np.array(s_config),
                        stream_label=np.array(s_label))
    print(f"{len(obs)} decisions -> {OUT} ({OUT.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)


if __name__ == "__main__":
    main()
