"""A league that trains exploiters of itself and takes them in (train/ppo/rounds.py, issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from train.ppo.loop import load_checkpoint
from train.ppo.rounds import RECORD, RoundsConfig, run

TINY = Path(__file__).parents[2] / "configs" / "ppo_tiny.toml"

# a league of a few updates a piece: a time limit this small stops a piece after its first update
LEAGUE = """
[env]
team_size = 1
target = 6

[ppo]
episode = "juego"
num_envs = 16
num_steps = 8
total_decisions = 100_000
hidden = 32
update_epochs = 1
num_minibatches = 2
pool_size = 2
snapshot_every = 1
checkpoint_every = 1
torch_threads = 1
progress = false
tensorboard = false
log_every = 1000
league = true
p_latest = 0.0
bot_opponents = ["random"]
pfsp_targets = {random = 0.9}
run_dir = "{run_dir}"

[rounds]
league_minutes = [1e-9, 2e-9, 3e-9]
exploiter_config = "{tiny}"
exploiter_minutes = 0.01
exploiter_juegos = 8
budget_minutes = 1
"""


def _plan(tmp_path: Path) -> Path:
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE.replace("{run_dir}", str(tmp_path / "run")).replace("{tiny}", str(TINY)))
    return path


def test_a_plan_trains_an_exploiter_between_pieces_and_each_joins_the_league(tmp_path):
    from truque_cli.main import main

    main(["train", "rounds", "--config", str(_plan(tmp_path))])  # [rounds]'s league: the same file
    rounds = tmp_path / "run" / "rounds"
    record = json.loads((rounds / RECORD).read_text())
    assert [(s["step"], s["k"]) for s in record["steps"]] == [("league", 0), ("exploiter", 1), ("league", 1),
                                                               ("exploiter", 2), ("league", 2)]
    exploiters = [str(rounds / f"exploiter_{k}.pt") for k in (1, 2)]
    for k, step in ((1, record["steps"][1]), (2, record["steps"][3])):
        assert step["exploiter"] == exploiters[k - 1] and step["target"] == str(rounds / f"policy_{k}.pt")
        assert 0 <= step["win_rate"] <= 1 and step["team_size"] == 1
        result = json.loads((rounds / f"exploiter_{k}.json").read_text())
        assert result["report"]["juegos"]["episodes"] == 8 and result["target"] == step["target"]
    assert [s["entries"] for s in record["steps"] if s["step"] == "league"] == [0, 1, 2]
    ckpt = load_checkpoint(tmp_path / "run" / "checkpoint.pt")
    assert list(ckpt["config"]["bot_opponents"]) == ["random", *exploiters]
    # the league aims its draws at targets: each exploiter comes with an even game as its own
    assert ckpt["config"]["pfsp_targets"] == {"random": 0.9, exploiters[0]: 0.5, exploiters[1]: 0.5}
    assert len(ckpt["league_stats"]["games"]) == 4  # snapshot, random and both exploiters
    row = json.loads((tmp_path / "run" / "metrics.jsonl").read_text().splitlines()[-1])
    assert row[f"league/{exploiters[1].replace('/', '_')}/p"] > 0  # the last one is drawn
    assert ckpt["update"] == 3  # one update a piece


def test_a_plan_resumes_from_the_first_step_not_done_and_keeps_its_settings(tmp_path):
    from truque_cli.main import main

    plan = _plan(tmp_path)
    cfg = RoundsConfig(league=plan, league_minutes=(1e-9, 2e-9), exploiter_config=TINY, exploiter_minutes=0.01,
                       exploiter_juegos=8, budget_minutes=1)
    run(cfg)
    rounds = tmp_path / "run" / "rounds"
    record = json.loads((rounds / RECORD).read_text())
    kept = (rounds / "exploiter_1.pt").stat().st_mtime_ns
    record["steps"] = record["steps"][:2]  # as if killed during the last piece
    (rounds / RECORD).write_text(json.dumps(record))
    with pytest.raises(ValueError, match="holds rounds: --resume to continue them, or --overwrite"):
        run(cfg)
    with pytest.raises(ValueError, match="a resumed plan keeps its settings; changed: exploiter_minutes"):
        run(RoundsConfig(**{**vars(cfg), "resume": True, "exploiter_minutes": 0.02}))
    again = run(RoundsConfig(**{**vars(cfg), "resume": True}))
    assert [(s["step"], s["k"]) for s in again["steps"]] == [("league", 0), ("exploiter", 1), ("league", 1)]
    assert (rounds / "exploiter_1.pt").stat().st_mtime_ns == kept  # not trained again
    assert load_checkpoint(tmp_path / "run" / "checkpoint.pt")["update"] == 3  # the cut piece ran once more
    # the command line: one line for a plan that exists
    with pytest.raises(SystemExit) as exit_:
        main(["train", "rounds", "--config", str(plan)])
    assert exit_.value.code == 2
    run(RoundsConfig(**{**vars(cfg), "overwrite": True}))  # told to: it starts again
    assert load_checkpoint(tmp_path / "run" / "checkpoint.pt")["update"] == 2


def test_bad_plans_are_clear_errors_before_anything_is_trained(tmp_path):
    plan = _plan(tmp_path)
    kw = dict(league=plan, exploiter_config=TINY, exploiter_minutes=0.01, budget_minutes=1)
    cases = [(dict(league_minutes=(2.0, 1.0)), "league_minutes must increase"),
             (dict(league_minutes=()), "league_minutes: give"),
             (dict(league_minutes=(0.5, 0.99), exploiter_minutes=0.1), "the plan takes 1.09 minutes"),
             (dict(league_minutes=(1e-9,), exploiter_team_sizes=(2,)), r"exploiter_team_sizes \[2\] not played"),
             (dict(league_minutes=(1e-9,), resume=True, overwrite=True), "resume and overwrite"),
             (dict(league_minutes=(1e-9,), exploiter_minutes=-1.0), "exploiter_minutes"),
             (dict(league=None), "league: give the league's config")]
    for over, message in cases:
        with pytest.raises(ValueError, match=message):
            run(RoundsConfig(**{**kw, **over}))
    (tmp_path / "plain.toml").write_text(plan.read_text().replace("league = true", "league = false")
                                         .replace("pfsp_targets = {random = 0.9}\n", ""))
    with pytest.raises(ValueError, match="rounds add exploiters to a league: set league = true"):
        run(RoundsConfig(**{**kw, "league": tmp_path / "plain.toml", "league_minutes": (1e-9,)}))
    assert not (tmp_path / "run").exists()


def test_a_resumed_run_keeps_its_targets_and_only_its_new_bots_may_bring_their_own(tmp_path):
    """load_checkpoint: pfsp_targets may gain a target for an entry the resume adds, nothing else."""
    from train.ppo.loop import PPOConfig, export_policy, train

    path = _plan(tmp_path)
    train(PPOConfig.from_toml(path, time_limit_minutes=1e-9))
    exploiter = str(tmp_path / "exploiter.pt")
    export_policy(tmp_path / "run" / "checkpoint.pt", exploiter)
    grown = dict(resume=True, bot_opponents=("random", exploiter), time_limit_minutes=2e-9)
    for wrong in ({"random": 0.9, "snapshot": 0.5}, {"random": 0.8, exploiter: 0.5}, {}):
        with pytest.raises(ValueError, match="pfsp_targets"):
            train(PPOConfig.from_toml(path, **grown, pfsp_targets=wrong))
    train(PPOConfig.from_toml(path, **grown, pfsp_targets={"random": 0.9, exploiter: 0.5}))
    assert load_checkpoint(tmp_path / "run" / "checkpoint.pt")["config"]["pfsp_targets"][exploiter] == 0.5
