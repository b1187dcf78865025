"""PPO with rollouts on Ray workers (train/ppo/ray_workers.py): the same numbers as the workers' shards
played in this process, exact resume, clear errors.

Ray 2.60 removed ``ray.init(local_mode=True)``: the tests start a real local instance of 2 CPUs
(``ray_cluster``, once for the module: about 10 s, and as much for each set of actors). The tests without it run without Ray.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from train.ppo.loop import PPOConfig, load_checkpoint, train


def _tiny(run_dir: Path, **kw) -> PPOConfig:
    base = dict(team_size=2, num_envs=8, num_steps=4, total_decisions=8 * 4 * 2, hidden=16, update_epochs=1,
                num_minibatches=2, snapshot_every=1, pool_size=2, checkpoint_every=1, num_workers=2,
                bot_opponents=("random",), p_bot=0.3, p_latest=0.3, anneal_lr=False, run_dir=run_dir,
                progress=False, tensorboard=False, log_every=1000, seed=4, torch_threads=1)
    base.update(kw)
    return PPOConfig(**base)


def _same_params(a: Path, b: Path) -> bool:
    x, y = load_checkpoint(a / "checkpoint.pt")["model"], load_checkpoint(b / "checkpoint.pt")["model"]
    return x.keys() == y.keys() and all(torch.equal(x[k], y[k]) for k in x)


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_workers_match_their_shards_in_process_and_resume_exactly(ray_cluster, tmp_path):
    # 4 updates with the 2 shards played in this process, one after the other ...
    train(_tiny(tmp_path / "local", total_decisions=8 * 4 * 4), in_process_workers=True)
    # ... are 2 updates on 2 Ray actors, then 2 more on 2 new actors resumed from the checkpoint
    run = train(_tiny(tmp_path / "ray"))
    assert run.update == 2 and run.decisions == 8 * 4 * 2
    ckpt = load_checkpoint(tmp_path / "ray" / "checkpoint.pt")
    assert len(ckpt["workers"]) == 2 and "env_states" not in ckpt  # each worker's tables and generators
    train(_tiny(tmp_path / "ray", total_decisions=8 * 4 * 4, resume=True))
    assert _same_params(tmp_path / "local", tmp_path / "ray")
    # and the shards are not the single process's run: their generators are their own
    train(_tiny(tmp_path / "single", total_decisions=8 * 4 * 4, num_workers=1))
    assert not _same_params(tmp_path / "single", tmp_path / "ray")


def test_in_process_workers_are_deterministic(tmp_path):
    train(_tiny(tmp_path / "a", num_workers=4), in_process_workers=True)
    train(_tiny(tmp_path / "b", num_workers=4), in_process_workers=True)
    assert _same_params(tmp_path / "a", tmp_path / "b")


def test_worker_state_goes_round_trip_and_a_failing_or_dead_worker_is_a_clear_error(ray_cluster, tmp_path):
    from train.ppo.ray_workers import Workers

    cfg = _tiny(tmp_path)
    local, workers = Workers(cfg, use_ray=False), Workers(cfg)
    try:
        # what a checkpoint gathers from the actors, and gives back to them on resume
        args = _rollout_args(cfg)
        local.rollout(*args)  # the workers in this process move on ...
        workers.load_state(local.state())  # ... and the actors take their state
        assert _equal(workers.rollout(*args), local.rollout(*args))
        assert _equal(workers.state(), local.state())
        with pytest.raises(RuntimeError, match="rollout worker 0 of 2 failed in load_state"):
            workers.load_state({"workers": [{}, {}]})  # raises inside the workers
        ray_cluster.kill(workers.workers[1])
        _wait_until_dead(ray_cluster, workers.workers[1])  # ray.kill is asynchronous: this test was flaky
        with pytest.raises(RuntimeError, match="rollout worker 1 of 2 failed in state"):
            workers.state()
    finally:
        workers.close()
    with pytest.raises(RuntimeError, match="has 2 CPUs; 4 workers need one each"):
        Workers(_tiny(tmp_path, num_workers=4))


def _wait_until_dead(ray, actor, seconds: float = 30.0) -> None:
    """Block until calls to ``actor`` fail (the kill has landed), at most ``seconds``."""
    import time

    from ray.exceptions import RayActorError

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            ray.get(actor.state.remote(), timeout=seconds)
        except RayActorError:
            return
        time.sleep(0.05)
    raise AssertionError(f"the killed actor still answered after {seconds:g} s")


def _rollout_args(cfg):
    import numpy as np

    from train.ppo.loop import Agent, draw_tables

    agent = Agent(cfg.hidden, cfg.centralized_critic, seed=cfg.seed)
    return agent, agent.state_dict(), (0.0, 1.0), draw_tables(cfg, 0, np.random.default_rng(0))


def _equal(a, b) -> bool:
    """Nested dicts, lists, dataclasses of arrays and tensors: equal throughout."""
    import dataclasses

    import numpy as np

    if dataclasses.is_dataclass(a):
        a, b = dataclasses.asdict(a), dataclasses.asdict(b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else a == b


def test_bad_worker_settings_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="num_workers must be positive"):
        _tiny(tmp_path, num_workers=0).validate()
    with pytest.raises(ValueError, match=r"num_envs \(8\) must be a multiple of num_workers \(3\)"):
        _tiny(tmp_path, num_workers=3).validate()
    # a checkpoint resumes only with the number of workers that wrote it
    train(_tiny(tmp_path / "w2", total_decisions=8 * 4), in_process_workers=True)
    with pytest.raises(ValueError, match="run with 2 Ray workers: resume it with the same num_workers"):
        train(_tiny(tmp_path / "w2", num_workers=1, resume=True))
    with pytest.raises(ValueError, match="run with 2 Ray workers; this run has 4"):
        train(_tiny(tmp_path / "w2", num_workers=4, resume=True), in_process_workers=True)
    train(_tiny(tmp_path / "w1", total_decisions=8 * 4, num_workers=1))
    with pytest.raises(ValueError, match="run with no Ray workers; this run has 2"):
        train(_tiny(tmp_path / "w1", resume=True), in_process_workers=True)


def test_workers_without_ray_name_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails, as where it is not installed
    with pytest.raises(ImportError, match=r"pip install truque_env\[ray\]"):
        train(_tiny(tmp_path))
    with pytest.raises(ImportError, match=r"pip install truque_env\[ray\]"):
        train(_tiny(tmp_path, num_workers=1, ray_address="auto"))
    train(_tiny(tmp_path, num_workers=1, total_decisions=8 * 4))  # the single process needs no Ray


def test_the_trainer_imports_without_ray():
    code = "import sys, train.ppo.loop; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])
