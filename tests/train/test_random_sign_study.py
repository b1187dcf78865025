"""train.studies.random_sign: a switch on random's sign (leaves), and a faker that keeps the sign."""

import json
import math

import numpy as np
import pytest

from train.studies.random_sign import KeepsLeaving, RandomSignConfig, parse_sign, run
from truque_env.traditions import get

SPEC = get("moteno")
PARTS = SPEC.observation.PARTS
MANOS_AT = PARTS["juego_record.manos"][0]
MY_LEAVES_AT = PARTS["juego_record.mine"][0] + 3  # raise, accept, refuse, leave
BARAJA, NO_VALE = SPEC.actions.BARAJA, SPEC.actions.NO_VALE


class Plays:
    """A stub that always plays ``action``."""

    name = "stub"

    def __init__(self, action: int):
        self.action = action

    def act_batch(self, observations, action_masks, keys=None):
        return np.full(len(observations), self.action, dtype=np.int64)


def test_the_faker_leaves_exactly_while_its_record_is_under_the_rate():
    # rows: (manos finished, own leaves, leave legal): at rate 0.4 it needs leaves >= 0.4 * (manos + 1)
    rows = [(0, 0, True), (0, 1, True), (2, 1, True), (2, 0, False), (4, 1, True), (4, 2, True), (1, 0, True)]
    obs = np.zeros((len(rows), SPEC.observation.OBS_SIZE), dtype=np.float32)
    masks = np.zeros((len(rows), SPEC.actions.NUM_ACTIONS), dtype=np.int8)
    masks[:, 0] = 1
    for i, (manos, leaves, legal) in enumerate(rows):
        obs[i, MANOS_AT], obs[i, MY_LEAVES_AT] = manos, leaves
        masks[i, BARAJA] = legal
    masks[6, BARAJA], masks[6, NO_VALE] = 0, 1  # only "la mía no vale" open: that one
    faker = KeepsLeaving(Plays(0), 0.4)
    got = faker.act_batch(obs, masks)
    # 0 < 0.4; 1 >= 0.4; 1 < 1.2; not legal; 1 < 2.0; 2 >= 2.0; 0 < 0.8 (no vale)
    assert got.tolist() == [BARAJA, 0, BARAJA, 0, BARAJA, 0, NO_VALE]
    assert faker.forced == 4


@pytest.mark.parametrize("bad", ["3", "a:0.2", "3:0", "3:1.5", "1:0.2:3", "0:0.3"])
def test_a_sign_that_does_not_parse_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="sign|min_manos|leave rate"):
        parse_sign(bad)
    with pytest.raises(ValueError, match="leave rate"):
        KeepsLeaving(Plays(0), 0.0)


def test_a_sign_reads_the_leaves_per_finished_mano():
    sign = parse_sign("3:0.4")
    assert sign.min_manos == 3 and sign.rates == {"leave": (0.4, math.inf)}


def test_the_study_plays_random_and_the_faker_and_a_sign_that_never_shows_changes_nothing(tmp_path):
    out = tmp_path / "sign.json"
    # no juego lasts 90 manos: behind that sign the switch is its base, move for move
    cfg = RandomSignConfig(signs=("1:0.2", "90:0.2"), random_seeds=(3,), random_juegos=8, faker="heuristic",
                           faker_juegos=8, out=out)
    result = run(cfg)
    saved = json.loads(out.read_text())
    assert saved["results"] == json.loads(json.dumps(result["results"]))
    assert saved["signs"]["1:0.2"] == {"min_manos": 1, "rates": {"leave": [0.2, math.inf]}}
    row = saved["results"]["random"]["3"]
    assert row["90:0.2"] == row["alone"]
    for r in row.values():
        assert r["juegos"] == 8 and r["wilson95"][0] <= r["win_rate"] <= r["wilson95"][1]
    for sign in ("1:0.2", "90:0.2"):
        faked = saved["results"]["faker"][sign]
        assert faked["switch"]["leaves_forced"] > 0 and faked["alone"]["leaves_forced"] > 0
        assert faked["as_it_plays"]["juegos"] == 8
    # the faker that keeps the sign meets the heuristic behind 1:0.2 and the bot behind 90:0.2
    assert saved["results"]["faker"]["90:0.2"]["switch"] == saved["results"]["faker"]["90:0.2"]["alone"]
    with pytest.raises(FileExistsError, match="--overwrite"):
        run(cfg)
    with pytest.raises(ValueError, match="min_manos:low"):
        run(RandomSignConfig(signs=("x",), out=tmp_path / "x.json"))
