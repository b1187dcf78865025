"""The record ablation (train.studies.record_ablation): a bot with the juego's record blanked."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.features import layout_for
from agents.registry import load_policy
from train.studies.record_ablation import BlankRecord, RecordAblationConfig, run
from truque_env import VectorEnv

TINY = Path(__file__).parents[2] / "configs" / "ppo_tiny.toml"


@pytest.fixture(scope="module")
def bot_with_record(tmp_path_factory) -> str:
    from train.ppo.loop import PPOConfig, train

    run_dir = tmp_path_factory.mktemp("bot")
    train(PPOConfig.from_toml(TINY, tradition="argentino", juego_record=True, hidden=16, run_dir=run_dir,
                              progress=False, tensorboard=False))
    return str(run_dir / "checkpoint.pt")


class _Spy:
    name, team_sizes = "spy", (1,)

    def __init__(self):
        self.seen = []

    def act_batch(self, observations, action_masks, keys=None):
        self.seen.append(np.array(observations))
        return np.argmax(action_masks, axis=1)


def test_the_bot_sees_the_record_slice_blank_and_the_rest_as_it_is(bot_with_record):
    lay = layout_for("argentino")
    a, b = lay.record_start, lay.record_start + lay.record_len
    env = VectorEnv(32, tradition="argentino", team_size=1, seed=3)
    obs, mask, *_ = env.reset()
    walk, later = load_policy("random", seed=1, tradition="argentino"), []
    for _ in range(120):  # into the juego's later manos, where the record has something
        obs, mask, *_ = env.step(walk.act_batch(obs, mask))
        later.append(obs.copy())
    obs = np.concatenate(later)
    assert (obs[:, a:b] != 0).any()
    blank = BlankRecord(load_policy(bot_with_record, tradition="argentino"), "argentino")
    spy = _Spy()
    blank.inner = spy
    blank.act_batch(obs, np.ones((obs.shape[0], 3), dtype=np.uint8))
    seen = spy.seen[0]
    assert (seen[:, a:b] == 0).all()
    assert np.array_equal(np.delete(seen, np.s_[a:b], axis=1), np.delete(obs, np.s_[a:b], axis=1))
    assert (obs[:, a:b] != 0).any()  # the caller's array is not touched


def test_a_bot_that_does_not_read_the_record_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not read the juego's record"):
        BlankRecord(load_policy("heuristic", tradition="argentino"), "argentino")
    with pytest.raises(ValueError, match="random does not read"):
        BlankRecord(load_policy("random", tradition="moteno"), "moteno")
    with pytest.raises(ValueError, match="at least one opponent"):
        run(RecordAblationConfig(policy="heuristic", opponents=(), out=tmp_path / "x.json"))


def test_the_study_plays_both_versions_on_the_same_deals_and_keeps_what_it_wrote(bot_with_record, tmp_path):
    out = tmp_path / "ablation.json"
    cfg = RecordAblationConfig(policy=bot_with_record, opponents=("random", "heuristic"), juegos=8, out=out)
    result = run(cfg)
    saved = json.loads(out.read_text())
    assert saved["results"] == json.loads(json.dumps(result["results"]))
    for opponent in ("random", "heuristic"):
        for version in ("as_is", "blanked"):
            row = saved["results"][opponent][version]
            assert row["juegos"] == 8 and 0.0 <= row["win_rate"] <= 1.0
            assert row["wilson95"][0] <= row["win_rate"] <= row["wilson95"][1]
    assert len(saved["load_average_before"]) == 3
    with pytest.raises(FileExistsError, match="--overwrite"):
        run(cfg)
    again = run(RecordAblationConfig(policy=bot_with_record, opponents=("random", "heuristic"), juegos=8, out=out,
                                     overwrite=True))
    assert again["results"] == result["results"]  # the same seed, the same juegos
