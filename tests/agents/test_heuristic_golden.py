"""The heuristic bot makes exactly the recorded decisions (``tests/data/heuristic_golden.npz``).

The trace (made by ``tests/data/make_heuristic_golden.py``) holds every decision of a few
``HeuristicPolicy`` instances in short duplicate matches (1, 2 and 3 contra 3, against random and
against each other, default and bold configs). Each is replayed through a fresh policy with the
same seed and config, in the same ``act_batch`` calls: the bot's only state is its RNG, so any
change of a decision, or of how many draws it takes, shows up here. Regenerate the trace only
when a behaviour change is intended.

The trace is a regression pin recorded from our own code, not evidence that the bot plays well
or legally: legality is checked on every decision here and in test_heuristic.py, the play itself
by the scripted scenarios of test_heuristic.py and the match results in docs/training.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents.heuristic import HeuristicConfig, HeuristicPolicy
from truque_env.traditions.moteno import observation as O

GOLDEN = Path(__file__).parents[1] / "data" / "heuristic_golden.npz"


def test_heuristic_replays_the_golden_trace():
    g = np.load(GOLDEN)
    obs, action, batch = g["obs"], g["action"].astype(np.int64), g["batch"]
    if obs.shape[1] == O.SLICES["juego_record"][0]:  # recorded before the juego's record was appended to the
        # observation; the heuristic does not read it: an empty one
        obs = np.concatenate([obs, np.zeros((len(obs), O.OBS_SIZE - obs.shape[1]), dtype=obs.dtype)], axis=1)
    mask = np.unpackbits(g["mask"], axis=1, count=int(g["num_actions"]))
    starts = np.concatenate([[0], np.cumsum(batch)])
    first_batch = np.concatenate([[0], np.cumsum(g["stream_batches"])])
    assert starts[-1] == len(obs) == len(action)
    problems = []
    for s, label in enumerate(g["stream_label"]):
        cfg = HeuristicConfig.from_dict(json.loads(str(g["stream_config"][s])))
        bot = HeuristicPolicy(cfg, seed=int(g["stream_seed"][s]))
        lo, hi = starts[first_batch[s]], starts[first_batch[s + 1]]
        got = np.concatenate([bot.act_batch(obs[a:b], mask[a:b])
                              for a, b in zip(starts[first_batch[s]:first_batch[s + 1]],
                                              starts[first_batch[s] + 1:first_batch[s + 1] + 1], strict=True)])
        bad = np.flatnonzero(got != action[lo:hi])
        if bad.size:
            problems.append(f"{label}: {bad.size} of {hi - lo} decisions differ, first at decision "
                            f"{int(bad[0])} (got {int(got[bad[0]])}, recorded {int(action[lo + bad[0]])})")
    assert not problems, "\n".join(problems)

