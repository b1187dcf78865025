"""The study of the sign the argentino ``ppo`` reads for the blind rival's table (train.studies.rival_leaves)."""

import json

import pytest

from train.studies.rival_leaves import RivalLeavesConfig, run


def test_random_leaves_manos_and_the_heuristic_never_does(tmp_path):
    out = tmp_path / "leaves.json"
    result = run(RivalLeavesConfig(opponents=("random", "heuristic"), juegos=16, out=out))
    saved = json.loads(out.read_text())
    assert saved["results"]["random"]["rival_has_left"] == result["results"]["random"]["rival_has_left"] > 0.1
    assert saved["results"]["heuristic"]["rival_has_left"] == 0.0
    first = saved["results"]["random"]["by_manos_finished"]["0"]
    assert first["decisions"] > 0 and first["rival_has_left"] == 0.0  # nothing is known in the first mano
    assert len(saved["load_average_before"]) == 3
    with pytest.raises(FileExistsError):
        run(RivalLeavesConfig(opponents=("random",), juegos=16, out=out))


def test_a_faker_leaves_first_then_plays_as_it_does(tmp_path):
    out = tmp_path / "fake.json"
    result = run(RivalLeavesConfig(opponents=("heuristic",), juegos=4, faker="heuristic", sign_leaves=(1, 2),
                                   faker_juegos=8, out=out))
    fakes = result["faker"]
    assert set(fakes) == {"1", "2"}
    assert fakes["1"]["as_it_plays"]["leaves_forced"] == 0 and fakes["1"]["forced"]["leaves_forced"] > 0
    assert fakes["2"]["forced"]["leaves_forced"] > fakes["1"]["forced"]["leaves_forced"]  # two leaves a juego
    with pytest.raises(ValueError, match="no blind rival's table"):
        run(RivalLeavesConfig(policy="ppo_league1", opponents=("heuristic",), juegos=4, faker="heuristic",
                              faker_juegos=8, out=tmp_path / "other.json"))


def test_a_weak_only_faker_leaves_only_weak_hands():
    """The heuristic never leaves a mano, so each leave here is forced: some occur, all with a weak
    hand, and none once the faker has left as many manos as asked."""
    from agents.registry import load_policy
    from train.studies.rival_leaves import FakesTheSign, _weak_hands
    from truque_env.traditions.argentino import actions as A
    from truque_env.vector import VectorEnv

    env = VectorEnv(64, tradition="argentino", team_size=1, seed=3)
    env.reset(seed=3)
    faker = FakesTheSign(load_policy("heuristic", seed=1, tradition="argentino"), leaves=1, weak_only=True)
    for _ in range(60):
        weak, done = _weak_hands(env.obs), env.obs[:, faker.mine_at] >= 1
        actions = faker.act_batch(env.obs, env.mask)
        left = actions == A.MAZO
        assert not (left & ~weak).any() and not (left & done).any()
        env.step(actions)
    assert faker.left > 0


def test_bad_settings_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="at least one opponent"):
        run(RivalLeavesConfig(opponents=(), out=tmp_path / "x.json"))
    with pytest.raises(ValueError, match="argentino"):
        run(RivalLeavesConfig(tradition="moteno", out=tmp_path / "x.json"))
