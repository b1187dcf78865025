"""A tradition registered without touching any environment, registry, evaluator, trainer or
command-line code plays everywhere (docs/engine.md, "A fifth tradition").

The tradition here is made up: Moteño's engine under another name (``dataclasses.replace`` of
its spec), put into the registry for the test. Nothing of the suite may then treat it as Moteño
by name: the environments size themselves from it, the bots are only ``random`` and the style bots
(which read its ``ACTION_KIND``), the evaluator reports win rates and points without Moteño's style
sections, PPO trains on it with the generic features, and its checkpoints are refused for Moteño.
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest

import truque_env


@pytest.fixture
def otra(monkeypatch):
    T = sys.modules["truque_env.traditions"]
    spec = dataclasses.replace(T.get("moteno"), name="otra", title="Otra", env_name="truco_otra_v0",
                               default_target=24)
    registry = {"moteno": T.get("moteno"), "otra": spec}
    monkeypatch.setattr(T, "_registry", lambda: registry)
    from agents import features

    features.layout_for.cache_clear()
    yield spec
    features.layout_for.cache_clear()


def test_the_environments_and_the_registry_take_it(otra):
    assert truque_env.traditions() == ("moteno", "otra")
    t = truque_env.Table(tradition="otra", team_size=2, seed=1)
    assert t.target == 24 and t.render().startswith("Otra, 2 contra 2")
    env = truque_env.raw_env(tradition="otra", team_size=1)
    assert env.metadata["name"] == "truco_otra_v0"
    v = truque_env.VectorEnv(4, tradition="otra", team_size=1)
    v.reset()
    from agents.registry import known_policies, load_policy

    assert known_policies("otra") == ["random", "style_bluffer", "style_caller", "style_folder", "style_raiser"]
    with pytest.raises(ValueError, match="no 'heuristic' bot for otra"):
        load_policy("heuristic", tradition="otra")
    from truque_env.simulate import SimulateConfig, simulate

    res = simulate(SimulateConfig(manos=200, tradition="otra", team_size=1, tables=8, progress=False))
    assert res["manos"] == 200 and res["config"]["tradition"] == "otra"


def test_the_evaluator_plays_it_without_the_style_sections(otra):
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    rep = play_match(load_policy("random", 1, "otra"), load_policy("random", 2, "otra"), tradition="otra",
                     team_size=1, episodes=8, num_envs=8, bootstrap=10)
    d = rep.to_dict()
    assert d["config"]["tradition"] == "otra" and d["config"]["target"] == 24
    assert d["juegos"]["episodes"] == 8 and d["bluffs"] is None and d["senas"] is None
    assert set(d["chinas_per_mano"]["A"]) == {*otra.sources, "total"}


def test_ppo_trains_on_it_and_its_checkpoint_is_refused_for_moteno(otra, tmp_path):
    from agents.ppo_policy import PPOPolicy
    from train.ppo.loop import PPOConfig, train

    cfg = PPOConfig(tradition="otra", team_size=1, num_envs=8, num_steps=4, total_decisions=8 * 4 * 2, hidden=16,
                    update_epochs=1, num_minibatches=2, snapshot_every=1, pool_size=2, checkpoint_every=1,
                    run_dir=tmp_path / "run", progress=False, tensorboard=False, seed=1, torch_threads=1,
                    eval_opponents=("random",))
    run = train(cfg)
    assert run.update == 2
    ckpt = tmp_path / "run" / "checkpoint.pt"
    bot = PPOPolicy(ckpt, tradition="otra")
    obs = np.zeros((1, otra.observation.OBS_SIZE), dtype=np.int8)
    mask = np.zeros((1, otra.actions.NUM_ACTIONS), dtype=np.uint8)
    mask[0, 0] = 1
    assert bot.act_batch(obs, mask).tolist() == [0]
    with pytest.raises(ValueError, match="was made for otra, not for moteno"):
        PPOPolicy(ckpt)
    with pytest.raises(ValueError, match="hand summary .* otra has none"):
        PPOConfig(tradition="otra", hand_features=True).validate()


def test_a_person_plays_it_in_the_terminal(otra):
    import io

    from rich.console import Console

    from truque_cli.play import PlayConfig, play

    out = io.StringIO()
    res = play(PlayConfig(tradition="otra", team_size=1, manos=2, seed=3),
               input_fn=iter(["nada", "1"] + ["1"] * 200).__next__, console=Console(file=out, width=100))
    text = out.getvalue()
    assert res["manos"] == 2 and not res["quit"]
    assert text.startswith("Otra, 1 contra 1") and "No entiendo «nada»" in text and "fin de la mano 2" in text
