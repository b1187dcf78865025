"""The señas-by-p_intercept experiment and the training page, end to end on tiny inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    from agents.registry import load_policy
    from train.eval.duplicate import play_match
    from train.ppo.loop import PPOConfig, export_policy, train
    from train.studies.analysis import AnalysisConfig
    from train.studies.analysis import run as run_analysis
    from train.studies.senas_experiment import SenasExperimentConfig
    from train.studies.senas_experiment import run as run_experiment

    tmp = tmp_path_factory.mktemp("page")
    toml = tmp / "tiny.toml"
    toml.write_text("[ppo]\nteam_size = 2\nnum_envs = 16\nnum_steps = 8\nhidden = 16\nupdate_epochs = 1\n"
                    "num_minibatches = 2\ntotal_decisions = 512\nsnapshot_every = 2\ncheckpoint_every = 2\n"
                    "eval_every = 2\neval_juegos = 4\neval_opponents = [\"random\"]\ntorch_threads = 1\n")
    cfg = PPOConfig.from_toml(toml, run_dir=tmp / "run", progress=False)
    train(cfg)
    export_policy(tmp / "run" / "checkpoint.pt", tmp / "policy.pt")
    exp = run_experiment(SenasExperimentConfig(init_from=tmp / "policy.pt", config=toml, p_intercepts=(0.0, 0.5),
                                               decisions=256, manos=40, influence_decisions=50, run_dir=tmp / "exp",
                                               out=tmp / "senas_p_intercept.json"))
    bot = load_policy(str(tmp / "policy.pt"), seed=0)
    play_match(bot, load_policy("random"), team_size=2, episodes=4, num_envs=4, bootstrap=50).save(tmp / "ev_r.json")
    play_match(bot, load_policy("random", seed=1), team_size=2, episodes=4, num_envs=4, bootstrap=50).save(tmp / "ev_h.json")
    for name, policy in (("ppo", str(tmp / "policy.pt")), ("other", "random")):
        run_analysis(AnalysisConfig(policy=policy, team_size=2, manos=30, influence_decisions=30, juegos=4,
                                    num_envs=8, bootstrap=50, out=tmp / f"an_{name}.json"))
    return tmp, exp


def test_p_intercept_experiment_reports_each_run(artifacts):
    tmp, exp = artifacts
    assert [r["p_intercept"] for r in exp["runs"]] == [0.0, 0.5]
    for r in exp["runs"]:
        assert r["chances"] > 0 and 0.0 <= r["senas_rate"] <= 1.0 and r["influence_kl_bits"] >= 0.0
        assert (tmp / "exp" / f"p{r['p_intercept']:g}-seed0" / "checkpoint.pt").exists() and r["retrained"]
    assert json.loads((tmp / "senas_p_intercept.json").read_text())["runs"] == json.loads(json.dumps(exp["runs"]))
    assert [(s["p_intercept"], s["seeds"]) for s in exp["summary"]] == [(0.0, 1), (0.5, 1)]


def test_p_intercept_experiment_adds_seeds_without_retraining(artifacts):
    from train.studies.senas_experiment import SenasExperimentConfig
    from train.studies.senas_experiment import run as run_experiment

    tmp, exp = artifacts
    cfg = SenasExperimentConfig(init_from=tmp / "policy.pt", config=tmp / "tiny.toml", p_intercepts=(0.5,),
                                decisions=256, manos=40, influence_decisions=50, run_dir=tmp / "exp", seeds=(0, 1),
                                out=tmp / "more.json")
    more = run_experiment(cfg)
    again, new = more["runs"]
    assert not again["retrained"] and new["retrained"] and new["ppo_seed"] == again["ppo_seed"] + 1
    first = next(r for r in exp["runs"] if r["p_intercept"] == 0.5)
    assert {k: v for k, v in again.items() if k != "retrained"} == {k: v for k, v in first.items() if k != "retrained"}
    s = more["summary"][0]
    assert s["seeds"] == 2 and s["mi_bits"]["min"] <= s["mi_bits"]["mean"] <= s["mi_bits"]["max"]
    with pytest.raises(ValueError, match="seeds"):
        run_experiment(SenasExperimentConfig(init_from=tmp / "policy.pt", config=tmp / "tiny.toml", seeds=(1, 1)))

    import sys

    sys.path.insert(0, str(ROOT / "docs"))
    import make_training_page

    out = tmp / "docs_seeds" / "training.md"
    make_training_page.main(["--metrics", str(tmp / "run" / "metrics.jsonl"), "--p-intercept", str(tmp / "more.json"),
                             "--analysis-ppo", str(tmp / "an_ppo.json"), "--policy", str(tmp / "policy.pt"),
                             "--out", str(out)])
    assert "| 0.5 | 2 | " in out.read_text()  # the mean and range over the two seeds


def test_training_page_is_built_from_the_logs_and_results(artifacts):
    import sys

    sys.path.insert(0, str(ROOT / "docs"))
    import make_training_page

    tmp, _ = artifacts
    out = tmp / "docs" / "training.md"
    make_training_page.main(["--thin-log", str(tmp / "run" / "metrics.jsonl"), "--metrics", str(tmp / "m.jsonl"),
                             "--eval-heuristic", str(tmp / "ev_h.json"), "--eval-random", str(tmp / "ev_r.json"),
                             "--analysis-ppo", str(tmp / "an_ppo.json"), "--analysis-heuristic", str(tmp / "an_other.json"),
                             "--p-intercept", str(tmp / "senas_p_intercept.json"), "--policy", str(tmp / "policy.pt"),
                             "--out", str(out)])
    page = out.read_text()
    from train.ppo.loop import load_checkpoint

    minutes = load_checkpoint(tmp / "policy.pt")["seconds"] / 60
    assert f"{minutes:.1f} min of wall time" in page  # the run's own clock, from the exported policy
    for heading in ("## Evaluation", "## Learning curves", "## Señas", "## Falsos", "## Throughput",
                    "### What is signalled"):
        assert heading in page
    for png in ("win_rate.png", "training.png", "falsos_senas.png", "bets_by_strength.png"):
        assert (tmp / "docs" / "training" / png).read_bytes()[:4] == b"\x89PNG"
    thinned = [json.loads(x) for x in (tmp / "m.jsonl").read_text().splitlines()]
    assert any("eval/random/win_rate" in r for r in thinned)
    with pytest.raises(SystemExit, match="missing"):
        make_training_page.main(["--metrics", str(tmp / "nothing.jsonl"), "--out", str(out)])
