"""PPO trainer: a smoke run, checkpoints (atomic, safe loading, exact resume), the GAE credit."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from train.ppo.loop import PPOConfig, _gae, export_policy, load_checkpoint, train


def _tiny(run_dir: Path, **kw) -> PPOConfig:
    base = dict(team_size=1, num_envs=16, num_steps=8, total_decisions=16 * 8 * 4, hidden=32, update_epochs=2,
                num_minibatches=2, snapshot_every=2, pool_size=3, checkpoint_every=2, run_dir=run_dir,
                progress=False, log_every=1000, seed=3, torch_threads=1)
    base.update(kw)
    return PPOConfig(**base)


def _params(path: Path):
    return load_checkpoint(path)["model"]


def test_smoke_training_writes_a_loadable_checkpoint(tmp_path):
    run = train(_tiny(tmp_path, team_size=2, centralized_critic=True))
    assert run.update == 4 and run.decisions == 16 * 8 * 4
    ckpt = load_checkpoint(tmp_path / "checkpoint.pt", _tiny(tmp_path, team_size=2))
    assert ckpt["update"] == 4 and len(ckpt["pool"]) == 3
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left no temporary file
    assert all(torch.isfinite(v).all() for v in ckpt["model"].values())


def test_resume_continues_exactly_where_a_run_stopped(tmp_path, fixed_threads):
    # a run killed after its checkpoint at update 2 (modelled by a shorter run without lr annealing,
    # whose schedule does not depend on the total) resumes into the same parameters
    straight = tmp_path / "straight"
    train(_tiny(straight, anneal_lr=False))
    split = tmp_path / "split"
    train(_tiny(split, anneal_lr=False, total_decisions=16 * 8 * 2))
    train(_tiny(split, anneal_lr=False, resume=True))
    a, b = _params(straight / "checkpoint.pt"), _params(split / "checkpoint.pt")
    assert a.keys() == b.keys()
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_a_checkpoint_from_before_the_juego_record_resumes_exactly(tmp_path, fixed_threads):
    # the record was appended to the tables' rows and to the observation: a run checkpointed before it
    # (its rows the prefix, its observation size the older one) resumes into the same parameters
    from truque_env.engine.header import RECORD_SIZE
    from truque_env.engine.record import OBS_RECORD_SIZE

    straight = tmp_path / "straight"
    train(_tiny(straight, anneal_lr=False))
    split = tmp_path / "split"
    train(_tiny(split, anneal_lr=False, total_decisions=16 * 8 * 2))
    path = split / "checkpoint.pt"
    ckpt = torch.load(path, weights_only=True)
    ckpt["env_states"] = ckpt["env_states"][:, :-RECORD_SIZE].clone()
    ckpt["env_obs"] = ckpt["env_obs"][:, :-OBS_RECORD_SIZE].clone()
    ckpt["settings"]["obs_size"] -= OBS_RECORD_SIZE
    torch.save(ckpt, path)
    train(_tiny(split, anneal_lr=False, resume=True))
    a, b = _params(straight / "checkpoint.pt"), _params(split / "checkpoint.pt")
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_a_network_reading_the_juego_record_trains_loads_as_a_bot_and_keeps_its_input(tmp_path):
    from agents import features as F
    from agents.ppo_policy import PPOPolicy
    from truque_env.engine.record import OBS_RECORD_SIZE
    from truque_env.vector import VectorEnv

    cfg = _tiny(tmp_path, juego_record=True)
    train(cfg)
    policy = PPOPolicy(tmp_path / "checkpoint.pt")
    assert policy.agent.juego_record and policy.agent.actor_in.in_features == F.NUM_FEATURES + OBS_RECORD_SIZE
    env = VectorEnv(8, team_size=1, seed=1)
    obs, mask, *_ = env.reset()
    assert policy.act_batch(obs, mask).shape == (8,)
    with pytest.raises(ValueError, match="juego_record"):  # resuming with the other input
        train(_tiny(tmp_path, juego_record=False, resume=True, total_decisions=16 * 8 * 8))


def test_a_network_reading_the_record_rates_trains_loads_as_a_bot_and_keeps_its_input(tmp_path):
    from agents import features as F
    from agents.ppo_policy import PPOPolicy
    from truque_env.engine.record import OBS_RECORD_SIZE
    from truque_env.vector import VectorEnv

    train(_tiny(tmp_path, juego_record=True, record_rates=True))
    policy = PPOPolicy(tmp_path / "checkpoint.pt")
    assert policy.agent.record_rates
    assert policy.agent.actor_in.in_features == F.NUM_FEATURES + OBS_RECORD_SIZE + OBS_RECORD_SIZE - 1
    env = VectorEnv(8, team_size=1, seed=1)
    obs, mask, *_ = env.reset()
    assert policy.act_batch(obs, mask).shape == (8,)
    with pytest.raises(ValueError, match="record_rates"):  # resuming with the other input
        train(_tiny(tmp_path, juego_record=True, record_rates=False, resume=True, total_decisions=16 * 8 * 8))
    with pytest.raises(ValueError, match="record_rates divides the juego_record's counts"):
        train(_tiny(tmp_path / "bad", record_rates=True))


def test_corrupt_or_foreign_checkpoints_are_clear_errors(tmp_path):
    train(_tiny(tmp_path))
    path = tmp_path / "checkpoint.pt"
    with pytest.raises(ValueError, match="another config: team_size"):
        load_checkpoint(path, _tiny(tmp_path, team_size=2))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a readable truque_env checkpoint"):
        load_checkpoint(path)
    other = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(2)}, other)
    with pytest.raises(ValueError, match="not a truque_env PPO checkpoint"):
        load_checkpoint(other)


def test_bad_config_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="episode"):
        train(_tiny(tmp_path, episode="set"))
    toml = tmp_path / "c.toml"
    toml.write_text("[ppo]\nteam_size = 1\nlearning_rat = 0.1\n")
    with pytest.raises(ValueError, match="unknown settings"):
        PPOConfig.from_toml(toml)


def test_gae_credits_each_seat_until_its_next_decision():
    # one table, two seats alternating: 0, 1, 0, 1; the mano ends at step 3 (+1 to seat 0's team)
    seats = np.array([[0], [1], [0], [1]])
    learner = np.ones((4, 1), dtype=np.bool_)
    rewards = np.zeros((4, 1, 8), dtype=np.float32)
    rewards[3, 0, 0], rewards[3, 0, 1] = 1.0, -1.0
    terminated = np.array([[False], [False], [False], [True]])
    values = np.zeros((4, 1), dtype=np.float32)
    adv = np.zeros((4, 1), dtype=np.float32)
    _gae(seats, learner, rewards, terminated, values, np.zeros((1, 8), dtype=np.float32), 1.0, 1.0, adv)
    # seat 0's last decision (step 2) earns the +1 scored at step 3; seat 1's (step 3) the -1
    assert adv[:, 0].tolist() == [1.0, -1.0, 1.0, -1.0]


def test_console_command_trains_from_a_toml_config(tmp_path):
    from truque_cli.main import main

    config = Path(__file__).parents[2] / "configs" / "ppo_tiny.toml"
    main(["train", "ppo", "--config", str(config), "--run-dir", str(tmp_path), "--no-progress"])
    ckpt = load_checkpoint(tmp_path / "checkpoint.pt")
    assert ckpt["config"]["team_size"] == 1 and ckpt["config"]["num_envs"] == 32  # from the TOML
    assert ckpt["config"]["run_dir"] == str(tmp_path)  # from the command line


@pytest.mark.parametrize("name", ["ppo_moteno_1v1", "ppo_moteno_2v2", "ppo_moteno_3v3", "ppo_tiny"])
def test_shipped_configs_are_valid(name):
    cfg = PPOConfig.from_toml(Path(__file__).parents[2] / "configs" / f"{name}.toml")
    assert cfg.team_size in (1, 2, 3)


def test_trained_policy_loads_as_a_bot_by_path(tmp_path):
    from agents.registry import load_policy
    from truque_env.vector import VectorEnv

    train(_tiny(tmp_path, team_size=2))
    bot = load_policy(str(tmp_path / "checkpoint.pt"), seed=1)
    env = VectorEnv(16, team_size=2, seed=0)
    obs, mask, *_ = env.reset()
    for _ in range(100):
        acts = bot.act_batch(obs, mask)
        assert (mask[np.arange(16), acts] == 1).all()
        p = bot.action_probs(obs, mask)
        assert np.allclose(p.sum(axis=1), 1) and (p[mask == 0] == 0).all()
        obs, mask, *_ = env.step(acts)
    assert bot.act(obs[0], mask[0]) in np.flatnonzero(mask[0])
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a readable truque_env checkpoint"):
        load_policy(str(bad))


def test_trained_policy_as_gym_opponent_by_path(tmp_path):
    import truque_env
    from agents.ppo_policy import PPOPolicy

    train(_tiny(tmp_path, team_size=1))
    path = tmp_path / "checkpoint.pt"
    env = truque_env.make_gym(seat=0, team_size=1, opponents=str(path), seed=3)
    rival = env.unwrapped.policies[1]
    assert isinstance(rival, PPOPolicy) and rival.path == path  # the trained network, not a stand-in
    saved = _params(path)
    actor = {k: v for k, v in rival.agent.state_dict().items() if k.startswith("actor")}
    assert actor and all(torch.equal(v, saved[k]) for k, v in actor.items())
    obs, info = env.reset(seed=3)
    total, episodes = 0.0, 0
    for _ in range(300):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        total += reward
        if terminated or truncated:
            episodes += 1
            obs, info = env.reset()
    assert episodes > 0 and total != 0.0  # the rival answered and manos were scored


def test_gae_passes_over_decisions_that_are_not_trained():
    # seat 0 decides at step 0, is forced at step 2 (only one legal action): its step-0 decision
    # earns what is scored after the forced move; the forced move gets no advantage of its own
    seats = np.array([[0], [1], [0], [1]])
    trained = np.array([[True], [True], [False], [True]])
    rewards = np.zeros((4, 1, 8), dtype=np.float32)
    rewards[3, 0, 0], rewards[3, 0, 1] = 1.0, -1.0
    terminated = np.array([[False], [False], [False], [True]])
    adv = np.zeros((4, 1), dtype=np.float32)
    _gae(seats, trained, rewards, terminated, np.zeros((4, 1), dtype=np.float32),
         np.zeros((1, 8), dtype=np.float32), 1.0, 1.0, adv)
    assert adv[:, 0].tolist() == [1.0, -1.0, 0.0, -1.0]


def test_evaluations_and_logs_are_written(tmp_path):
    import json

    run = train(_tiny(tmp_path, eval_every=2, eval_juegos=4, eval_opponents=("random",)))
    assert run.update == 4
    assert sorted(p.name for p in (tmp_path / "evals").iterdir()) == ["000002_random.json", "000004_random.json"]
    report = json.loads((tmp_path / "evals" / "000004_random.json").read_text())
    assert report["juegos"]["episodes"] == 4 and report["names"]["A"] == "ppo@4"
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    evals = [r for r in rows if "eval/random/win_rate" in r]
    assert [r["update"] for r in evals] == [2, 4]
    assert 0.0 <= evals[-1]["eval/random/win_rate_lo95"] <= evals[-1]["eval/random/win_rate"] <= 1.0
    train_rows = [r for r in rows if "loss/policy" in r]
    assert len(train_rows) == 4 and all(r["perf/decisions_per_second"] > 0 for r in train_rows)
    # forced single-option decisions are not trained on
    assert all(0 < r["perf/trained_decisions"] < 16 * 8 for r in train_rows)
    assert list((tmp_path / "tb").glob("events.out.tfevents.*"))
    with pytest.raises(ValueError, match="unknown policy"):
        train(_tiny(tmp_path / "x", eval_every=1, eval_opponents=("nobody",)))


class _FirstLegal:
    """A deterministic bot: always its lowest-numbered legal action (learnable from the bias alone)."""

    def act_batch(self, obs, mask):
        return mask.argmax(axis=1)


def test_behaviour_cloning_learns_a_bot_and_warm_starts_ppo(tmp_path, fixed_threads):
    from train.ppo.bc import collect, fit, load_dataset, save_dataset
    from train.ppo.loop import Agent

    data = collect(_FirstLegal(), team_size=1, decisions=3000, num_envs=32, seed=0)
    assert (data["mask"].sum(axis=1) > 1).all()  # forced decisions are not kept
    path = tmp_path / "bc.npz"
    save_dataset(path, data)
    loaded = load_dataset(path)
    assert all(np.array_equal(loaded[k], data[k]) for k in data)
    agent = Agent(32, True, seed=0)
    assert fit(agent, loaded, epochs=3, batch_size=256, lr=3e-3, seed=0, log=lambda s: None) > 0.95

    # a PPO run starting from the dataset, all of it critic warm-up: the actor stays the clone
    cfg = _tiny(tmp_path / "run", bc_dataset=path, bc_epochs=3, bc_learning_rate=3e-3, value_warmup_updates=4)
    clone = Agent(cfg.hidden, cfg.centralized_critic, seed=cfg.seed)
    fit(clone, loaded, epochs=3, lr=3e-3, seed=cfg.seed, log=lambda s: None)
    train(cfg)
    model = _params(cfg.run_dir / "checkpoint.pt")
    actor = {k: v for k, v in clone.state_dict().items() if k.startswith("actor")}
    assert all(torch.equal(model[k], v) for k, v in actor.items())
    assert not torch.equal(model["critic.1.weight"], clone.state_dict()["critic.1.weight"])


def test_bad_datasets_are_clear_errors(tmp_path):
    from train.ppo.bc import collect, load_dataset, save_dataset

    data = collect(_FirstLegal(), team_size=1, decisions=50, num_envs=8, seed=0)
    data["action"][0] = int(np.flatnonzero(data["mask"][0] == 0)[0])
    save_dataset(tmp_path / "bad.npz", data)
    with pytest.raises(ValueError, match="outside its mask"):
        load_dataset(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="does not exist"):
        _tiny(tmp_path, bc_dataset=tmp_path / "missing.npz").validate()
    _tiny(tmp_path, bc_dataset=tmp_path / "missing.npz", resume=True).validate()  # a resume never reads it again


def test_exported_policy_is_the_actor_alone_and_plays_the_same(tmp_path):
    from agents.registry import load_policy
    from train.ppo.loop import export_policy
    from truque_env.vector import VectorEnv

    train(_tiny(tmp_path, team_size=2))
    out = tmp_path / "policy.pt"
    export_policy(tmp_path / "checkpoint.pt", out)
    assert out.stat().st_size < (tmp_path / "checkpoint.pt").stat().st_size
    assert all(k.startswith("actor") for k in load_checkpoint(out)["model"])
    full, small = load_policy(str(tmp_path / "checkpoint.pt")), load_policy(str(out))
    env = VectorEnv(8, team_size=2, seed=0)
    obs, mask, *_ = env.reset()
    assert np.array_equal(full.action_probs(obs, mask), small.action_probs(obs, mask))
    (tmp_path / "checkpoint.pt").replace(tmp_path / "run.pt")
    out.replace(tmp_path / "checkpoint.pt")
    with pytest.raises(ValueError, match="exported policy"):
        train(_tiny(tmp_path, team_size=2, resume=True))


def test_a_run_can_start_from_another_runs_weights(tmp_path):
    train(_tiny(tmp_path / "a", team_size=2))
    start = load_checkpoint(tmp_path / "a" / "checkpoint.pt")["model"]
    cfg = _tiny(tmp_path / "b", team_size=2, p_intercept=0.5, init_from=tmp_path / "a" / "checkpoint.pt",
                total_decisions=16 * 8, learning_rate=0.0, anneal_lr=False)
    train(cfg)  # a zero learning rate: the weights stay those it started from
    after = _params(tmp_path / "b" / "checkpoint.pt")
    assert all(torch.equal(after[k], start[k]) for k in start)
    with pytest.raises(ValueError, match="does not fit"):
        train(_tiny(tmp_path / "c", team_size=2, hidden=16, init_from=tmp_path / "a" / "checkpoint.pt"))
    with pytest.raises(ValueError, match="give one warm start, not bc_dataset and init_from"):
        _tiny(tmp_path, init_from=tmp_path / "a" / "checkpoint.pt", bc_dataset=tmp_path / "a" / "checkpoint.pt").validate()


def test_a_run_starts_from_a_league_runs_actor_when_its_critic_knew_the_opponents(tmp_path):
    # the exploiter of a league run starts from the run's checkpoint: its critic read the opponent's
    # kind, the exploiter's does not, so the actor comes along and the critic starts fresh
    league = dict(critic_knows_opponent=True, bot_opponents=("random",), p_bot=0.5)
    train(_tiny(tmp_path / "a", **league))
    start = load_checkpoint(tmp_path / "a" / "checkpoint.pt")["model"]
    assert "critic_opponent.weight" in start
    train(_tiny(tmp_path / "b", init_from=tmp_path / "a" / "checkpoint.pt", total_decisions=16 * 8,
                learning_rate=0.0, anneal_lr=False))
    after = _params(tmp_path / "b" / "checkpoint.pt")
    assert "critic_opponent.weight" not in after
    assert all(torch.equal(after[k], start[k]) for k in start if k.startswith("actor"))
    assert not torch.equal(after["critic_in.weight"], start["critic_in.weight"])  # a fresh critic
    # the same run's critic, when it fits, comes along with the actor
    train(_tiny(tmp_path / "c", init_from=tmp_path / "a" / "checkpoint.pt", total_decisions=16 * 8,
                learning_rate=0.0, anneal_lr=False, **league))
    same = _params(tmp_path / "c" / "checkpoint.pt")
    assert all(torch.equal(same[k], start[k]) for k in start)


def test_console_export_writes_the_actor(tmp_path, capsys):
    from truque_cli.main import main

    train(_tiny(tmp_path, team_size=2))
    main(["train", "export", str(tmp_path / "checkpoint.pt"), str(tmp_path / "bot.pt")])
    assert all(k.startswith("actor") for k in load_checkpoint(tmp_path / "bot.pt")["model"])
    # a policy written before is not replaced unless told to
    with pytest.raises(SystemExit) as exit_:
        main(["train", "export", str(tmp_path / "checkpoint.pt"), str(tmp_path / "bot.pt")])
    assert exit_.value.code == 2 and "--overwrite to replace it" in capsys.readouterr().err
    main(["train", "export", str(tmp_path / "checkpoint.pt"), str(tmp_path / "bot.pt"), "--overwrite"])
    with pytest.raises(SystemExit) as exit_:
        main(["train", "export", str(tmp_path / "checkpoint.pt")])
    assert exit_.value.code == 2 and "Required options" in capsys.readouterr().err  # tyro names what is missing


def test_fixed_bots_hold_some_tables_and_resume_stays_exact(tmp_path, fixed_threads):
    kw = dict(team_size=2, anneal_lr=False, bot_opponents=("random",), p_bot=0.5, p_latest=0.25)
    straight = tmp_path / "straight"
    train(_tiny(straight, **kw))
    split = tmp_path / "split"
    train(_tiny(split, total_decisions=16 * 8 * 2, **kw))
    train(_tiny(split, resume=True, **kw))
    a, b = _params(straight / "checkpoint.pt"), _params(split / "checkpoint.pt")
    assert all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(ValueError, match="p_bot"):
        _tiny(tmp_path, p_bot=0.6, p_latest=0.5, bot_opponents=("random",)).validate()
    with pytest.raises(ValueError, match="needs bot_opponents"):
        _tiny(tmp_path, p_bot=0.2).validate()
    with pytest.raises(ValueError, match="unknown policy"):
        _tiny(tmp_path, p_bot=0.2, bot_opponents=("nobody",)).validate()


@pytest.mark.parametrize("name, sizes", [("ppo", (1, 2, 3)), ("ppo_v19", (1, 2, 3)), ("ppo_v18", (1, 2, 3)), ("ppo_v16", (1, 2, 3)), ("ppo_v13", (1, 2, 3)), ("ppo_v10", (1, 2, 3)), ("ppo_v9", (1, 2, 3)), ("ppo_v8", (1, 2, 3)), ("ppo_network", (1, 2, 3)),
                                        ("ppo_league1", (1, 2, 3)), ("ppo_3v3", (1, 2, 3, 4))])
def test_the_shipped_moteno_bots_load_by_name_and_play_their_team_sizes(name, sizes):
    """``ppo``: the league bot fine-tuned around the solved envite de pares (configs/ppo_moteno_league_v8.toml,
    then v9.toml to v20.toml), 1 to 3 contra 3, with the table 1 contra 1; ``ppo_v19``, ``ppo_v18``, ``ppo_v16``, ``ppo_v13``,
    ``ppo_v10``, ``ppo_v9`` and ``ppo_v8``: the bots before it, the same way; ``ppo_network``: the league bot before both
    (configs/ppo_moteno_league_v5.toml); ``ppo_league1``: the first league bot (configs/ppo_moteno_league.toml);
    ``ppo_3v3``: the bot shipped before them, trained for 3 contra 3, any size."""
    from agents.registry import (
        MOTENO_BOT,
        MOTENO_EARLIER_BOTS,
        MOTENO_LEAGUE1_BOT,
        MOTENO_V5_BOT,
        STRONG_BOT,
        load_policy,
    )
    from train.eval.duplicate import play_match
    from truque_env.vector import VectorEnv

    for path in (MOTENO_BOT, *MOTENO_EARLIER_BOTS.values(), MOTENO_V5_BOT, MOTENO_LEAGUE1_BOT, STRONG_BOT):
        assert path.stat().st_size < 5_000_000  # the actor alone: small enough to ship
        assert all(k.startswith("actor") for k in load_checkpoint(path)["model"])
    bot = load_policy(name, seed=0)
    assert bot.name == name
    for team_size in sizes:
        env = VectorEnv(8, team_size=team_size, seed=1)
        obs, mask, *_ = env.reset()
        for _ in range(30):
            acts = bot.act_batch(obs, mask)
            assert (mask[np.arange(8), acts] == 1).all()
            obs, mask, *_ = env.step(acts)
    if 4 not in sizes:
        with pytest.raises(ValueError, match="plays 1 contra 1, 2 contra 2, 3 contra 3 only, not 4 contra 4"):
            play_match(bot, load_policy("random"), team_size=4, episodes=2)


def test_a_fixed_short_run_keeps_its_exact_parameters(tmp_path, fixed_threads):
    # A regression pin, not evidence that PPO is right: the digest was recorded from our own code.
    # A short run with a fixed bot, snapshots, self-play and the centralised critic; its final
    # parameters were recorded before the rollout loop became train.ppo.loop.rollout (which the Ray
    # workers share): a refactor of the trainer must not change one bit of a single-process run.
    # The correctness of the update is tested by test_ppo_loss_matches_hand_computed_values and
    # test_ppo_learns_to_beat_random below, on any build.
    # Recorded with this build of torch (another may round differently: then re-record, and say why)
    # and one numba thread (the sparse layer's weight gradient sums one partial per thread), with the
    # co-tenant watch off: it sets numba's count from the machine's load (truque_env/threads.py),
    # which made the digest depend on what else the machine was doing (re-recorded for that).
    # And per host: the same commit gives another digest on this session's host (torch dispatches to
    # AVX-512 there) than on the host the first was recorded on (its instruction set not recorded), so
    # each host's digest is pinned; a change to the trainer's arithmetic matches neither.
    import hashlib

    if torch.__version__ != "2.13.0+cpu":
        pytest.skip(f"parameters recorded with torch 2.13.0+cpu, this is {torch.__version__}")
    recorded = {"799eee3a398da908d782d50702a8754b0e1f5345db5efd91982dddb699638445": "the first host",
                "ecd07cf4fa27507f4ba2d13d56bc99eb9786c4726d0f97d661b5d3d0e5114c53": "an AVX-512 host (2026-12-05)"}
    train(_tiny(tmp_path, team_size=2, total_decisions=16 * 8 * 3, snapshot_every=1, seed=5, tensorboard=False,
                bot_opponents=("random",), p_bot=0.3, p_latest=0.3))
    model = _params(tmp_path / "checkpoint.pt")
    digest = hashlib.sha256()
    for k in sorted(model):
        digest.update(k.encode())
        digest.update(model[k].numpy().tobytes())
    assert digest.hexdigest() in recorded, f"{torch.backends.cpu.get_cpu_capability()}: {digest.hexdigest()}"


def test_a_time_limit_stops_at_a_checkpoint_and_counts_over_resumes(tmp_path):
    run = train(_tiny(tmp_path, time_limit_minutes=1e-9, checkpoint_every=100))
    assert run.stopped_by_time_limit and run.update == 1  # the first update is past any limit this small
    ckpt = load_checkpoint(tmp_path / "checkpoint.pt")
    assert ckpt["update"] == 1 and ckpt["seconds"] == run.seconds > 0  # written at the stop
    again = train(_tiny(tmp_path, resume=True))  # no limit: runs to the end
    assert not again.stopped_by_time_limit and again.update == 4 and again.seconds > run.seconds
    assert load_checkpoint(tmp_path / "checkpoint.pt")["seconds"] == again.seconds
    with pytest.raises(ValueError, match="time_limit_minutes"):
        _tiny(tmp_path, time_limit_minutes=-1).validate()


def test_a_decision_limit_stops_at_a_checkpoint_and_leaves_the_schedule_alone(tmp_path):
    """``decision_limit``: the run stops after the update that reaches it (summed over resumes), with a
    checkpoint, and the weights there are the unlimited run's at that update (the learning rate still anneals
    over total_decisions)."""
    whole = train(_tiny(tmp_path / "whole", checkpoint_every=2))
    end = load_checkpoint(tmp_path / "whole" / "checkpoint.pt")  # update 4
    batch = whole.decisions // whole.update
    run = train(_tiny(tmp_path / "cut", decision_limit=batch + 1, checkpoint_every=100))
    assert run.stopped_by_decision_limit and not run.stopped_by_time_limit and run.update == 2
    cut = load_checkpoint(tmp_path / "cut" / "checkpoint.pt")
    assert cut["update"] == 2 and cut["decisions"] == run.decisions == 2 * batch  # written at the stop
    again = train(_tiny(tmp_path / "cut", resume=True, decision_limit=3 * batch))  # a larger budget on resume
    assert again.stopped_by_decision_limit and again.update == 3
    rest = train(_tiny(tmp_path / "cut", resume=True))  # no limit: to the end, the unlimited run's weights
    assert not rest.stopped_by_decision_limit and rest.update == whole.update == 4
    final = load_checkpoint(tmp_path / "cut" / "checkpoint.pt")
    assert all(torch.equal(final["model"][k], end["model"][k]) for k in end["model"])
    with pytest.raises(ValueError, match="decision_limit"):
        _tiny(tmp_path, decision_limit=-1).validate()


def test_the_log_clock_is_the_time_limit_clock_from_the_warm_start(tmp_path, monkeypatch):
    from train.ppo import bc
    from train.ppo.bc import collect, save_dataset

    save_dataset(tmp_path / "bc.npz", collect(_FirstLegal(), team_size=1, decisions=500, num_envs=8, seed=0))
    slow_fit = bc.fit

    def fit(*args, **kwargs):
        time.sleep(0.5)  # a warm start that takes a while
        return slow_fit(*args, **kwargs)

    monkeypatch.setattr(bc, "fit", fit)
    cfg = _tiny(tmp_path / "run", bc_dataset=tmp_path / "bc.npz", bc_epochs=1, total_decisions=256)
    run = train(cfg)
    rows = [json.loads(line) for line in (cfg.run_dir / "metrics.jsonl").read_text().splitlines()]
    # the warm start is on the log's clock: the first row's time holds the sleep and the first update
    assert rows[0]["wall_seconds"] >= 0.5 + rows[0]["perf/update_seconds"]
    export_policy(cfg.run_dir / "checkpoint.pt", tmp_path / "policy.pt")
    assert load_checkpoint(tmp_path / "policy.pt")["seconds"] == run.seconds


def test_bc_collection_command_writes_the_dataset_and_what_made_it(tmp_path):
    import json

    from train.ppo.bc import load_dataset
    from train.ppo.bc import main as bc_main

    out = tmp_path / "bc" / "random_1v1.npz"
    bc_main(["--policy", "random", "--team-size", "1", "--decisions", "300", "--num-envs", "8", "--out", str(out)])
    data = load_dataset(out)
    assert data["action"].shape == (300,)
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["policy"] == "random" and meta["decisions"] == 300 and meta["seconds"] >= 0
    with pytest.raises(FileExistsError, match="--overwrite"):  # a dataset is not replaced unasked
        bc_main(["--policy", "random", "--team-size", "1", "--decisions", "300", "--out", str(out)])


def test_a_run_that_collects_its_own_cloning_data_equals_one_given_that_data(tmp_path, fixed_threads):
    """bc_policy: a fresh run collects the bot's decisions into its run_dir, then clones them: the same
    weights as a run given the same decisions as bc_dataset (python -m train.ppo.bc)."""
    import json

    from train.ppo.bc import collect_mixed, save_dataset

    kw = dict(team_size=1, bc_epochs=1, total_decisions=256, anchor_coef=0.1)
    own = _tiny(tmp_path / "own", bc_policy="heuristic", bc_decisions=400, bc_opponents=("random",), bc_seed=3, **kw)
    train(own)
    record = json.loads((own.run_dir / "bc.json").read_text())
    assert record["policy"] == "heuristic" and record["opponents"] == ["random"] and record["team_sizes"] == [1]
    data, _ = collect_mixed("heuristic", "moteno", (1,), 400, seed=3, opponents=("random",), target=own.target,
                            progress=False)
    save_dataset(tmp_path / "bc.npz", data)
    given = _tiny(tmp_path / "given", bc_dataset=tmp_path / "bc.npz", **kw)
    train(given)
    a, b = _params(own.run_dir / "checkpoint.pt"), _params(given.run_dir / "checkpoint.pt")
    assert all(torch.equal(a[k], b[k]) for k in a)
    with pytest.raises(ValueError, match="give one warm start, not bc_dataset and bc_policy"):
        _tiny(tmp_path, bc_dataset=tmp_path / "bc.npz", bc_policy="heuristic").validate()
    with pytest.raises(ValueError, match="unknown policy 'nobody'"):
        _tiny(tmp_path, bc_policy="nobody").validate()


# ------------------------------------------------------------------------------------------
# the update itself: known values, and learning (these hold on any torch build, unlike the
# recorded digest above, which pins one build's arithmetic and is no evidence of correctness)


def test_ppo_loss_matches_hand_computed_values():
    """Four samples, ratios 1.5, 0.5, 1.1, 0.9, advantages +1, +1, -1, -1 (already normalised:
    mean 0, std 1), clip 0.2. Per sample max(-A r, -A clip(r)): -1.2 (clipped: no gradient),
    -0.5, 1.1, 0.9; the surrogate is their mean 0.075 and its gradient in log p is -A r / 4 where
    unclipped. Entropies average 1, the value errors 1, 0, 1, 2 give 0.5 * 1.5 = 0.75."""
    from train.ppo.loop import ppo_loss

    cfg = PPOConfig(clip_coef=0.2, ent_coef=0.01, vf_coef=0.5)
    old = torch.full((4,), float(np.log(0.5)), dtype=torch.float64)
    logp = (old + torch.log(torch.tensor([1.5, 0.5, 1.1, 0.9], dtype=torch.float64))).requires_grad_()
    adv = torch.tensor([1.0, 1.0, -1.0, -1.0], dtype=torch.float64)
    entropy = torch.tensor([1.0, 2.0, 0.5, 0.5], dtype=torch.float64)
    value = torch.tensor([0.0, 1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    ret = torch.ones(4, dtype=torch.float64)
    loss, terms = ppo_loss(logp, old, adv, entropy, value, ret, cfg)
    assert terms["policy"].item() == pytest.approx(0.075, abs=1e-7)
    assert terms["value"].item() == pytest.approx(0.75) and terms["entropy"].item() == pytest.approx(1.0)
    assert terms["clipfrac"].item() == pytest.approx(0.5)  # 1.5 and 0.5 are outside [0.8, 1.2]
    assert loss.item() == pytest.approx(0.075 - 0.01 * 1.0 + 0.5 * 0.75, abs=1e-7)
    loss.backward()
    assert logp.grad.tolist() == pytest.approx([0.0, -0.5 / 4, 1.1 / 4, 0.9 / 4], abs=1e-7)
    assert value.grad.tolist() == pytest.approx([0.5 * x / 4 for x in (-1.0, 0.0, 1.0, 2.0)])  # vf_coef * err / 4
    # the value warm-up trains the critic alone
    loss, _ = ppo_loss(logp, old, adv, entropy, value, ret, cfg, critic_only=True)
    assert loss.item() == pytest.approx(0.5 * 0.75)


def test_ppo_loss_normalises_the_advantages():
    from train.ppo.loop import ppo_loss

    cfg = PPOConfig(clip_coef=0.2)
    old = torch.zeros(4, dtype=torch.float64)
    logp = torch.log(torch.tensor([1.5, 0.5, 1.1, 0.9], dtype=torch.float64))
    zeros = torch.zeros(4, dtype=torch.float64)
    unit, _ = ppo_loss(logp, old, torch.tensor([1.0, 1.0, -1.0, -1.0], dtype=torch.float64), zeros, zeros, zeros, cfg)
    scaled, _ = ppo_loss(logp, old, torch.tensor([13.0, 13.0, 3.0, 3.0], dtype=torch.float64), zeros, zeros, zeros, cfg)
    assert scaled.item() == pytest.approx(unit.item(), abs=1e-6)  # shift and scale do not matter


def test_ppo_learns_to_beat_random(tmp_path):
    """40 updates (82k decisions, a few seconds) against the random bot, 1 contra 1, juegos to 10:
    the policy must win >= 75% of 600 duplicate juegos against random (seed 5 gives 89%; with the
    advantages' sign flipped it wins 0%, untrained about half)."""
    from agents.base import RandomPolicy
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    cfg = PPOConfig(team_size=1, target=10, num_envs=64, num_steps=32, total_decisions=64 * 32 * 40, hidden=64,
                    update_epochs=2, num_minibatches=4, learning_rate=1e-3, bot_opponents=("random",), p_bot=1.0,
                    p_latest=0.0, snapshot_every=1000, pool_size=1, checkpoint_every=1000, run_dir=tmp_path,
                    progress=False, log_every=1000, tensorboard=False, seed=5, torch_threads=1, senas_per_mano=0)
    train(cfg)
    bot = load_policy(str(tmp_path / "checkpoint.pt"), seed=1)
    report = play_match(bot, RandomPolicy(seed=2), team_size=1, episodes=600, target=10, senas_per_mano=0,
                        num_envs=200, seed=3, bootstrap=0).to_dict()
    assert report["juegos"]["episodes"] == 600
    assert report["juegos"]["win_rate_A"] >= 0.75, report["juegos"]


def test_the_game_in_the_toml_env_table_and_in_the_checkpoint(tmp_path):
    """[env] holds the match settings (the family seam); the checkpoint records them with the
    observation and action sizes, and a resume in another game is refused."""
    toml = tmp_path / "c.toml"
    toml.write_text('[env]\ntradition = "moteno"\nteam_size = 1\n\n[ppo]\nnum_envs = 8\nnum_steps = 4\n')
    cfg = PPOConfig.from_toml(toml)
    assert (cfg.tradition, cfg.team_size, cfg.num_envs) == ("moteno", 1, 8)
    toml.write_text('[env]\ntradition = "uruguayo"\n\n[ppo]\nnum_envs = 8\n')
    with pytest.raises(ValueError, match="unknown tradition 'uruguayo'; known: argentino, moteno"):
        PPOConfig.from_toml(toml)
    toml.write_text('[env]\nhidden = 8\n\n[ppo]\nnum_envs = 8\n')
    with pytest.raises(ValueError, match=r"\[env\] 'hidden' is not a match setting"):
        PPOConfig.from_toml(toml)
    toml.write_text('[env]\nteam_size = 1\n\n[ppo]\nteam_size = 2\n')
    with pytest.raises(ValueError, match="given in \\[env\\] and in \\[ppo\\]"):
        PPOConfig.from_toml(toml)

    cfg = _tiny(tmp_path / "run")
    train(cfg)
    ckpt = load_checkpoint(cfg.run_dir / "checkpoint.pt")
    assert ckpt["settings"]["tradition"] == "moteno" and ckpt["settings"]["team_size"] == cfg.team_size
    assert (ckpt["settings"]["obs_size"], ckpt["settings"]["num_actions"]) == (1279, 91)
    ckpt["settings"]["num_actions"] = 90  # as if from another version of the engine
    torch.save(ckpt, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="has num_actions 90, moteno has 91"):
        load_checkpoint(tmp_path / "other.pt", cfg)
    from agents.ppo_policy import PPOPolicy

    with pytest.raises(ValueError, match="has num_actions 90"):
        PPOPolicy(tmp_path / "other.pt")


def test_a_run_dir_that_holds_a_run_is_never_overwritten_silently(tmp_path):
    """Issue 15, 1: a fresh run into a folder that holds one is refused; --overwrite starts it again."""
    cfg = _tiny(tmp_path, team_size=1)
    train(cfg)
    before = (tmp_path / "checkpoint.pt").read_bytes()
    with pytest.raises(ValueError, match="holds a run .checkpoint.pt, metrics.jsonl.*--resume to continue it"):
        train(cfg)
    assert (tmp_path / "checkpoint.pt").read_bytes() == before
    (tmp_path / ".checkpoint.pt.x1y2.tmp").write_bytes(b"half a checkpoint")  # a write killed midway
    train(_tiny(tmp_path, team_size=1, overwrite=True))
    assert not list(tmp_path.glob(".*.tmp"))
    with pytest.raises(ValueError, match="nothing to resume"):
        train(_tiny(tmp_path / "empty", resume=True))
    with pytest.raises(ValueError, match="resume and overwrite: give one"):
        train(_tiny(tmp_path, resume=True, overwrite=True))


def test_a_resume_cuts_the_log_back_to_its_checkpoint(tmp_path):
    """Issue 15, 2: rows logged after the last checkpoint (a run killed between two) are not kept twice."""
    cfg = _tiny(tmp_path, team_size=1, total_decisions=16 * 8 * 6, checkpoint_every=4, log_every=1)
    train(cfg)
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert sorted({r["update"] for r in rows}) == [1, 2, 3, 4, 5, 6]
    # as if killed after update 6's rows but with the checkpoint of update 4: put that checkpoint back
    ckpt = load_checkpoint(tmp_path / "checkpoint.pt")
    assert ckpt["update"] == 6
    run4 = _tiny(tmp_path / "four", team_size=1, total_decisions=16 * 8 * 4, checkpoint_every=4, log_every=1)
    train(run4)
    (tmp_path / "checkpoint.pt").write_bytes((tmp_path / "four" / "checkpoint.pt").read_bytes())
    train(_tiny(tmp_path, team_size=1, total_decisions=16 * 8 * 6, checkpoint_every=4, log_every=1, resume=True))
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    updates = [r["update"] for r in rows]
    assert updates == sorted(updates) and len(updates) == len(set(updates))  # each update once, in order
    assert sorted(set(updates)) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(("toml", "message"), [
    ('tensorboard = "no"', r"tensorboard: input should be a valid boolean \(got 'no'\)"),
    ('anneal_lr = "false"', r"anneal_lr: input should be a valid boolean"),
    ("gamma = 1.5", r"gamma: input should be less than or equal to 1 \(got 1.5\)"),
    ("clip_coef = -0.2", r"clip_coef: input should be greater than 0"),
    ("ent_coef = -1.0", r"ent_coef: input should be greater than or equal to 0"),
    ('num_envs = "32"', r"num_envs: input should be a valid integer \(got '32'\)"),
    ('episode = "jeugo"', r"episode: input should be 'mano', 'juego' or 'partida'"),
])
def test_every_setting_is_checked_with_its_key_named(tmp_path, toml, message):
    """Issue 15, 5: types and bounds of every field (pydantic, strict), the file and the key named."""
    path = tmp_path / "c.toml"
    path.write_text(f"[ppo]\n{toml}\n")
    with pytest.raises(ValueError, match=rf"c.toml: {message}"):
        PPOConfig.from_toml(path)
    with pytest.raises(ValueError, match="gamma: input should be less than or equal to 1"):
        PPOConfig(gamma=1.5).validate()  # a config made in code is checked the same way


def test_a_resume_refuses_changed_settings_but_the_safe_ones(tmp_path):
    cfg = _tiny(tmp_path, team_size=1, total_decisions=16 * 8 * 2)
    train(cfg)
    with pytest.raises(ValueError, match="learning_rate = 0.0003, this run has 0.5 .a resumed run keeps its settings"):
        train(_tiny(tmp_path, team_size=1, total_decisions=16 * 8 * 2, resume=True, learning_rate=0.5))
    # what is documented as safe may change
    train(_tiny(tmp_path, team_size=1, total_decisions=16 * 8 * 2, resume=True, log_every=7, tensorboard=False))


def test_the_evaluation_summary_with_and_without_style_statistics():
    """The in-loop evaluation logs the bluff rates of a tradition whose style module counts them
    (argentino's: train/eval/styles/argentino.py), and its win rate and points without them."""
    import dataclasses

    from agents.registry import load_policy
    from train.eval.duplicate import play_match
    from train.ppo.loop import eval_summary

    report = play_match(load_policy("random", 1), load_policy("random", 2), tradition="argentino", team_size=1,
                        episodes=8, num_envs=8, seed=0, progress=False)
    out = eval_summary(report)
    assert 0 <= out["win_rate"] <= 1 and "chinas_per_mano/envido" in out
    assert 0 <= out["bluff/envido_bet_when_weak"] <= 1 and "bluff/truco_weak_refused" in out
    bare = eval_summary(dataclasses.replace(report, bluffs=None, senas=None, answers=None))
    assert bare == {k: v for k, v in out.items() if not k.startswith(("bluff/", "senas/"))}


@pytest.mark.parametrize("team_size", [1, 2, 3])
def test_the_argentino_configs_are_valid_and_play_argentino(team_size):
    """configs/ppo_argentino_NvN.toml: the game in [env], the trainer unchanged; every setting checked."""
    from train.config import match_settings

    path = Path(__file__).resolve().parents[2] / "configs" / f"ppo_argentino_{team_size}v{team_size}.toml"
    assert 'bc_dataset = "runs/bc/argentino_heuristic' in path.read_text()
    assert "anchor_coef = 0.2" in path.read_text() and "critic_knows_opponent = true" in path.read_text()
    # the dataset is made by the command atop (not in a clean clone); without it, no anchor
    cfg = PPOConfig.from_toml(path, bc_dataset=None, anchor_coef=0.0)
    cfg.validate()
    s = match_settings(cfg)
    assert (s.tradition, s.team_size, s.target) == ("argentino", team_size, 30)
    assert 0 < cfg.time_limit_minutes <= 60 and set(cfg.bot_opponents) == {"heuristic", "random"}


def test_behaviour_cloning_data_against_other_bots_keeps_only_the_policys_decisions():
    """``collect(..., opponents=[...])``: the policy at one team of each table, the opponents at the
    other; only the policy's decisions are in the data (its answers to what others do)."""
    from train.ppo.bc import collect

    class First:  # the first legal action
        def act_batch(self, obs, masks):
            return np.argmax(masks > 0, axis=1)

    class Last:  # the last legal action
        def act_batch(self, obs, masks):
            return masks.shape[1] - 1 - np.argmax(masks[:, ::-1] > 0, axis=1)

    data = collect(First(), 1, 400, num_envs=8, seed=1, tradition="argentino", opponents=[Last()])
    first = np.argmax(data["mask"] > 0, axis=1)
    assert data["action"].shape == (400,) and np.array_equal(data["action"], first)


# ------------------------------------------------------------------------------------------
# the anchor: KL(warm start || policy) keeps a cloned actor near its clone


def test_masked_kl_known_values_and_illegal_actions_add_nothing():
    """Anchor (1/2, 1/2, illegal), policy (1/4, 3/4, illegal): KL = 1/2 ln 2 + 1/2 ln(2/3)."""
    from train.ppo.loop import masked_kl

    mask = torch.tensor([[1, 1, 0], [1, 1, 0]], dtype=torch.uint8)
    anchor = torch.log(torch.tensor([[0.5, 0.5, 1.0], [0.5, 0.5, 1.0]])).masked_fill(mask == 0, float("-inf"))
    policy = torch.log(torch.tensor([[0.25, 0.75, 1.0], [0.5, 0.5, 1.0]])).masked_fill(mask == 0, float("-inf"))
    policy.requires_grad_()
    kl = masked_kl(anchor, policy, mask)
    assert kl.tolist() == pytest.approx([0.5 * np.log(2) + 0.5 * np.log(2 / 3), 0.0], abs=1e-6)
    kl.sum().backward()
    assert torch.isfinite(policy.grad).all()  # the -inf of an illegal action makes no nan


@pytest.mark.parametrize("term", ["anchor", "magnet"])
def test_ppo_loss_adds_the_weighted_kl_term_except_in_the_value_warm_up(term):
    """The anchor's KL(warm start || policy) and the magnet's KL(policy || magnet) each weigh by their coefficient."""
    from train.ppo.loop import ppo_loss

    cfg = PPOConfig(**{f"{term}_coef": 0.3})
    z = torch.zeros(4, dtype=torch.float64)
    adv = torch.tensor([1.0, 1.0, -1.0, -1.0], dtype=torch.float64)
    kl = {f"{term}_kl": torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)}
    plain, _ = ppo_loss(z, z, adv, z, z, z, cfg)
    pulled, terms = ppo_loss(z, z, adv, z, z, z, cfg, **kl)
    assert pulled.item() == pytest.approx(plain.item() + 0.3 * 0.25) and terms[f"{term}_kl"].item() == pytest.approx(0.25)
    warm, _ = ppo_loss(z, z, adv, z, z, z, cfg, critic_only=True, **kl)
    assert warm.item() == pytest.approx(0.0)


def test_anchor_weight_decays_linearly_to_zero_at_anchor_decay_updates_and_stays_there():
    from train.ppo.loop import anchor_weight

    decayed = PPOConfig(anchor_coef=0.2, anchor_decay_updates=10)
    assert [anchor_weight(decayed, u) for u in (0, 5, 9, 10, 11, 1000)] == pytest.approx([0.2, 0.1, 0.02, 0, 0, 0])
    assert [anchor_weight(PPOConfig(anchor_coef=0.2), u) for u in (0, 10, 1000)] == [0.2, 0.2, 0.2]


def test_ppo_loss_weighs_the_anchor_by_the_weight_it_is_given():
    from train.ppo.loop import ppo_loss

    cfg = PPOConfig(anchor_coef=0.3)
    z = torch.zeros(4, dtype=torch.float64)
    adv = torch.tensor([1.0, 1.0, -1.0, -1.0], dtype=torch.float64)
    kl = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float64)
    plain, _ = ppo_loss(z, z, adv, z, z, z, cfg)
    half, _ = ppo_loss(z, z, adv, z, z, z, cfg, anchor_kl=kl, anchor_coef=0.15)
    off, _ = ppo_loss(z, z, adv, z, z, z, cfg, anchor_kl=kl, anchor_coef=0.0)
    assert half.item() == pytest.approx(plain.item() + 0.15 * 0.25) and off.item() == pytest.approx(plain.item())


def test_a_decaying_anchor_is_weighed_by_the_schedule_in_the_run_and_dropped_once_decayed(tmp_path):
    from train.ppo.bc import collect, save_dataset

    path = tmp_path / "bc.npz"
    save_dataset(path, collect(_FirstLegal(), team_size=1, decisions=1000, num_envs=16, seed=0))
    cfg = _tiny(tmp_path / "run", bc_dataset=path, bc_epochs=1, anchor_coef=2.0, anchor_decay_updates=4,
                total_decisions=16 * 8 * 6)
    train(cfg)
    lines = [json.loads(line) for line in (cfg.run_dir / "metrics.jsonl").read_text().splitlines()]
    logged = [line for line in lines if "charts/anchor_coef" in line]
    assert [line["charts/anchor_coef"] for line in logged] == pytest.approx([2.0, 1.5, 1.0, 0.5, 0.0, 0.0])
    # the KL term is computed while the anchor weighs, and skipped once it weighs nothing
    assert ["loss/anchor_kl" in line for line in logged] == [True] * 4 + [False] * 2


def test_a_decaying_anchor_needs_an_anchor(tmp_path):
    with pytest.raises(ValueError, match="anchor_decay_updates decays the anchor"):
        _tiny(tmp_path, anchor_decay_updates=100).validate()


def _actor_kl_to(agent_state, clone, data, cfg) -> float:
    """Mean KL(clone || actor) over the dataset's decisions."""
    from train.ppo.loop import Agent, masked_kl

    agent = Agent(cfg.hidden, cfg.centralized_critic, seed=0)
    agent.load_state_dict(agent_state)
    mask = torch.from_numpy(data["mask"])
    with torch.no_grad():
        csr = agent.csr(data["obs"])
        return float(masked_kl(clone.logits_csr(csr, mask), agent.logits_csr(csr, mask), mask).mean())


def test_the_anchor_keeps_the_actor_near_its_clone_and_a_resume_keeps_the_anchor(tmp_path):
    from train.ppo.bc import collect, fit, load_dataset, save_dataset
    from train.ppo.loop import Agent

    path = tmp_path / "bc.npz"
    save_dataset(path, collect(_FirstLegal(), team_size=1, decisions=3000, num_envs=32, seed=0))
    data = load_dataset(path)
    kw = dict(bc_dataset=path, bc_epochs=3, bc_learning_rate=3e-3, learning_rate=3e-3, anneal_lr=False,
              total_decisions=16 * 8 * 6)
    free, anchored = _tiny(tmp_path / "free", **kw), _tiny(tmp_path / "anchored", anchor_coef=5.0, **kw)
    train(free)
    train(anchored)
    clone = Agent(free.hidden, free.centralized_critic, seed=free.seed)
    fit(clone, data, epochs=3, lr=3e-3, seed=free.seed, log=lambda s: None)
    ckpt = load_checkpoint(anchored.run_dir / "checkpoint.pt")
    assert all(torch.equal(ckpt["anchor"][k], v) for k, v in clone.state_dict().items())  # the clone, frozen
    assert "anchor" not in load_checkpoint(free.run_dir / "checkpoint.pt")
    assert json.loads((anchored.run_dir / "metrics.jsonl").read_text().splitlines()[-1])["loss/anchor_kl"] >= 0
    kl_free = _actor_kl_to(_params(free.run_dir / "checkpoint.pt"), clone, data, free)
    kl_anchored = _actor_kl_to(ckpt["model"], clone, data, free)
    assert kl_anchored < 0.5 * kl_free, (kl_anchored, kl_free)
    # a resume reads the anchor back from the checkpoint (not the weights it resumes with)
    split = tmp_path / "split"
    train(_tiny(split, anchor_coef=5.0, **{**kw, "total_decisions": 16 * 8 * 2}))
    train(_tiny(split, anchor_coef=5.0, resume=True, **kw))
    a, b = ckpt["model"], _params(split / "checkpoint.pt")
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_an_anchor_needs_a_warm_start(tmp_path):
    with pytest.raises(ValueError, match="anchor_coef > 0 keeps the actor near its warm start"):
        _tiny(tmp_path, anchor_coef=0.1).validate()


# ------------------------------------------------------------------------------------------
# the magnet: KL(policy || magnet), the magnet an exponential average of the learner (mirror descent)


def test_the_magnet_follows_the_learner_by_its_ema_and_a_resume_keeps_it(tmp_path, fixed_threads):
    """The magnet starts as the actor's start and each update moves magnet_ema of the way to the
    learner: with magnet_ema = 1 it is the learner after every update; with a small one it stays near
    the start. Written into the checkpoint, read back on resume: the split run ends where the straight one does."""
    from train.ppo.loop import Agent

    kw = dict(magnet_coef=0.5, anneal_lr=False, learning_rate=3e-3, total_decisions=16 * 8 * 4)
    full = tmp_path / "full"
    train(_tiny(full, magnet_ema=1.0, **kw))
    ckpt = load_checkpoint(full / "checkpoint.pt")
    assert all(torch.equal(ckpt["magnet"][k], v) for k, v in ckpt["model"].items())
    slow = tmp_path / "slow"
    train(_tiny(slow, magnet_ema=0.01, **kw))
    ckpt = load_checkpoint(slow / "checkpoint.pt")
    start = Agent.from_config(_tiny(slow)).state_dict()  # the same seed: the actor's start
    moved = {k: float((ckpt["model"][k] - start[k]).abs().max()) for k in start if start[k].is_floating_point()}
    trailed = {k: float((ckpt["magnet"][k] - start[k]).abs().max()) for k in moved}
    key = max(moved, key=moved.get)
    assert 0 < trailed[key] < 0.1 * moved[key]
    lines = [json.loads(line) for line in (slow / "metrics.jsonl").read_text().splitlines()]
    assert all(line["loss/magnet_kl"] >= 0 for line in lines if "loss/magnet_kl" in line)
    assert any("loss/magnet_kl" in line for line in lines)
    assert "magnet" not in load_checkpoint(_run_plain(tmp_path / "plain"))
    split = tmp_path / "split"
    train(_tiny(split, magnet_ema=0.01, **{**kw, "total_decisions": 16 * 8 * 2}))
    train(_tiny(split, magnet_ema=0.01, resume=True, **kw))
    other = load_checkpoint(split / "checkpoint.pt")
    assert all(torch.equal(ckpt["model"][k], other["model"][k]) for k in ckpt["model"])
    assert all(torch.equal(ckpt["magnet"][k], other["magnet"][k]) for k in ckpt["magnet"])


def _run_plain(run_dir: Path) -> Path:
    train(_tiny(run_dir, total_decisions=16 * 8))
    return run_dir / "checkpoint.pt"


# ------------------------------------------------------------------------------------------
# a critic that knows who holds the other team


def test_opponent_kinds_name_self_play_snapshots_and_each_bot_once():
    from train.ppo.rollout import Tables, opponent_kinds

    cfg = PPOConfig(critic_knows_opponent=True, bot_opponents=("random", "random", "heuristic"), p_bot=0.5)
    assert cfg.critic_opponent_kinds == ("self", "snapshot", "random", "heuristic")
    tables = Tables(np.zeros(6, dtype=np.int64), np.array([1, 0, 0, 0, 0, 0], dtype=bool),
                    np.array([-1, -2, 0, 1, 2, -2]))
    assert opponent_kinds(cfg, tables).tolist() == [0, 1, 2, 2, 3, 1]
    assert PPOConfig(bot_opponents=("random",), p_bot=0.5).critic_opponent_kinds == ()
    assert opponent_kinds(PPOConfig(), tables).tolist() == [0] * 6  # read by nobody


def test_a_critic_that_knows_the_opponent_trains_loads_as_a_bot_and_resumes_exactly(tmp_path, fixed_threads):
    from agents.registry import load_policy

    kw = dict(critic_knows_opponent=True, bot_opponents=("random",), p_bot=0.5, p_latest=0.3, anneal_lr=False)
    straight = tmp_path / "straight"
    train(_tiny(straight, **kw))
    model = _params(straight / "checkpoint.pt")
    assert model["critic_opponent.weight"].shape == (3, 32)  # self, snapshot, random
    assert model["critic_opponent.weight"].abs().sum(dim=1).min() > 0  # every kind met and learned from zero
    split = tmp_path / "split"
    train(_tiny(split, **{**kw, "total_decisions": 16 * 8 * 2}))
    train(_tiny(split, resume=True, **kw))
    other = _params(split / "checkpoint.pt")
    assert all(torch.equal(model[k], other[k]) for k in model)
    # the actor alone plays: the run's checkpoint and its export load as the same bot
    export_policy(straight / "checkpoint.pt", tmp_path / "policy.pt")
    obs_mask = _some_decisions()
    for path in (straight / "checkpoint.pt", tmp_path / "policy.pt"):
        bot = load_policy(str(path), seed=0)
        assert (obs_mask[1][np.arange(len(obs_mask[1])), bot.act_batch(*obs_mask)] == 1).all()


def _some_decisions():
    from truque_env.vector import VectorEnv

    obs, mask, *_ = VectorEnv(8, team_size=1, seed=1).reset()
    return obs, mask


@pytest.mark.parametrize("name, sizes, path", [("ppo", (1, 2), "ppo_argentino_v7.pt"),
                                               ("ppo_league1", (1, 2), "ppo_argentino.pt"),
                                               ("ppo_1v1", (1,), "ppo_argentino_1v1.pt")])
def test_the_shipped_argentino_bots_load_by_name_and_refuse_the_sizes_they_never_played(name, sizes, path):
    """``ppo``: the league bot of configs/ppo_argentino_league_v7.toml, 1 and 2 contra 2, with its
    envido mano a mano from the solved table as it was trained (benchmarks/results/argentino_league_v7_*.json);
    ``ppo_league1``: the league bot of configs/ppo_argentino_league.toml shipped before it
    (benchmarks/results/argentino_league_*.json); ``ppo_1v1``: the bot of configs/ppo_argentino_1v1.toml
    shipped before both (benchmarks/results/argentino_ppo_1v1_vs_*.json)."""
    from agents.registry import load_policy
    from train.eval.duplicate import play_match

    file = Path(__file__).resolve().parents[2] / "agents" / "checkpoints" / path
    assert file.stat().st_size < 5_000_000 and all(k.startswith("actor") for k in load_checkpoint(file)["model"])
    bot = load_policy(name, seed=0, tradition="argentino")
    assert bot.name == name and bot.team_sizes == sizes
    assert (type(bot).__name__ == "EnvidoTablePolicy") == (name == "ppo")  # played as it was trained
    refused = max(sizes) + 1
    with pytest.raises(ValueError, match=f"the bot '{name}' plays .*, not {refused} contra {refused}"):
        play_match(bot, load_policy("random", tradition="argentino"), tradition="argentino", team_size=refused, episodes=2)
    for k in sizes:  # 96-97% of 2,000 in the committed results
        report = play_match(bot, load_policy("random", seed=1, tradition="argentino"), tradition="argentino",
                            team_size=k, episodes=200, num_envs=100, seed=11, bootstrap=0).to_dict()
        assert report["juegos"]["win_rate_A"] >= 0.85, (k, report["juegos"])


def test_a_critic_that_reads_the_opponent_refuses_to_guess_it():
    from train.ppo.loop import Agent

    agent = Agent(16, centralized_critic=False, critic_opponents=3)
    obs = _some_decisions()[0]
    with pytest.raises(ValueError, match="this critic reads who holds the other team: give opponent"):
        agent.value(obs, None)
    same = np.repeat(obs[:1], 3, axis=0)  # one position, three kinds of opponent
    kinds = np.array([0, 1, 2])
    with torch.no_grad():
        start = agent.value(same, None, kinds)
        agent.critic_opponent.weight[2] = 1.0
        v = agent.value(same, None, kinds)
    assert start[0] == start[1] == start[2]  # rows of zeros at the start: the kind changes nothing yet
    assert v[0] == v[1] == start[0] and v[2] != v[0]  # only the learned row moves the value
