"""The study of the blind rival's table in the juego's first manos (train.studies.blind_first_manos)."""

import json

import pytest

from agents.registry import ARGENTINO_PRIOR_TABLE
from train.studies.blind_first_manos import BlindFirstManosConfig, run


def test_each_setting_plays_each_opponent_on_each_seed(tmp_path):
    out = tmp_path / "first.json"
    result = run(BlindFirstManosConfig(first_manos=(0, 3), prior_tables=("own", "blind"),
                                       opponents=("random", "heuristic"), seeds=(1, 2), juegos=8, out=out))
    saved = json.loads(out.read_text())
    assert saved["results"] == result["results"]
    assert set(saved["results"]) == {"random", "heuristic"}
    for opponent in ("random", "heuristic"):
        assert set(saved["results"][opponent]) == {"1", "2"}
        for row in saved["results"][opponent].values():
            assert set(row) == {"0", "3 own", "3 blind"} and all(r["juegos"] == 8 and 0.0 <= r["win_rate"] <= 1.0 for r in row.values())
    assert len(saved["load_average_before"]) == 3
    with pytest.raises(FileExistsError):
        run(BlindFirstManosConfig(opponents=("random",), juegos=8, out=out))


def test_bad_settings_are_clear_errors(tmp_path):
    out = tmp_path / "x.json"
    with pytest.raises(ValueError, match="at least one opponent"):
        run(BlindFirstManosConfig(opponents=(), out=out))
    with pytest.raises(ValueError, match="integers >= 0"):
        run(BlindFirstManosConfig(first_manos=(-1,), out=out))
    with pytest.raises(ValueError, match="argentino only"):
        run(BlindFirstManosConfig(tradition="moteno", out=out))
    with pytest.raises(ValueError, match="a table for 1 contra 1, the study plays 2 contra 2"):
        run(BlindFirstManosConfig(team_size=2, prior_tables=(str(ARGENTINO_PRIOR_TABLE),), out=out))
    with pytest.raises(ValueError, match="no envido table"):
        run(BlindFirstManosConfig(prior_tables=("own", str(tmp_path / "missing.npz")), out=out))
    with pytest.raises(ValueError, match="no blind rival's table"):
        run(BlindFirstManosConfig(policy="ppo_league1", opponents=("random",), juegos=4, out=out))
    assert not out.exists()
