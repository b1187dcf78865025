"""train.studies.record_switch: the switch, its base and its alt on the same deals, what it read."""

import json

import pytest

from train.studies.record_switch import RecordSwitchStudyConfig, run


def test_the_study_plays_the_three_bots_and_reads_the_rivals_rates(tmp_path):
    out = tmp_path / "switch.json"
    cfg = RecordSwitchStudyConfig(policy="ppo_reader", opponents=("heuristic_bluffer", "style_caller"), juegos=8, out=out)
    result = run(cfg)
    saved = json.loads(out.read_text())
    assert saved["results"] == json.loads(json.dumps(result["results"]))
    assert saved["sign"]["min_manos"] == 3 and set(saved["sign"]["rates"]) == {"refuse", "raise", "leave"}
    for row in saved["results"].values():
        for bot in ("switch", "base", "alt"):
            assert row[bot]["juegos"] == 8 and row[bot]["wilson95"][0] <= row[bot]["win_rate"] <= row[bot]["wilson95"][1]
        assert 0.0 <= row["alt_share"] <= 1.0 and row["decisions"] > 0
    # the caller never raises nor refuses: the sign, which asks both, never shows, and the switch is its base
    caller = saved["results"]["style_caller"]
    assert caller["rival_rates_per_mano"]["raise"] == caller["rival_rates_per_mano"]["refuse"] == 0.0
    assert caller["alt_share"] == 0.0 and caller["switch"]["win_rate"] == caller["base"]["win_rate"]
    assert saved["results"]["heuristic_bluffer"]["rival_rates_per_mano"]["raise"] > 0.5
    with pytest.raises(FileExistsError, match="--overwrite"):
        run(cfg)


def test_a_bot_without_a_switch_at_that_size_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not switch"):
        run(RecordSwitchStudyConfig(policy="ppo", opponents=("random",), juegos=2, out=tmp_path / "a.json"))
    with pytest.raises(ValueError, match="does not switch"):
        run(RecordSwitchStudyConfig(policy="ppo_reader", team_size=2, opponents=("random",), juegos=2, out=tmp_path / "b.json"))
    with pytest.raises(ValueError, match="at least one opponent"):
        run(RecordSwitchStudyConfig(opponents=(), out=tmp_path / "c.json"))
