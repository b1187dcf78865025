"""Rollouts on Ray actors: ``train.ppo.loop`` with ``num_workers > 1`` or a ``ray_address``.

Each worker owns a shard of the tables (``num_envs / num_workers`` consecutive ones, dealt from
the same table seeds as in a single process), a torch generator of its own and its own copies
of the fixed bots, all seeded from the run's seed and the worker's index (``worker_seed``).
Every update the learner draws who plays each table (``train.ppo.loop.draw_tables``) and which
snapshot is the opponent, as in a single process, and broadcasts the actor-critic's weights and
the snapshot's; each worker plays ``num_steps`` decisions on its tables with
``train.ppo.loop.Sampler`` (the single process's rollout code) and sends back its ``Rollout``. The
learner concatenates them and runs GAE and the PPO update as in a single process.

A checkpoint keeps every worker's tables and generators (``"workers"``): a run resumes exactly
with the same number of workers. A worker that dies or raises stops the run with a
``RuntimeError`` naming it; one that does not answer within ``ROLLOUT_TIMEOUT`` seconds too.

Ray is an optional extra (``pip install truque_env[ray]``), imported here only when asked for.
``Workers(cfg, use_ray=False)`` plays the same shards one after another in this process, without
Ray: the same numbers as the Ray actors (the tests compare the two).
"""

from __future__ import annotations

import numpy as np
import torch

from agents.ppo_network import Agent
from train.ppo.loop import PPOConfig
from train.ppo.rollout import Rollout, Sampler, Tables

START_TIMEOUT = 600.0
"""seconds for the workers to start (a fresh node compiles the numba kernels first)"""
ROLLOUT_TIMEOUT = 1800.0
"""seconds for one rollout, or a checkpoint's gathering, before the run gives up on a worker"""


def require_ray():
    """The ``ray`` module, or an ImportError that says how to install it."""
    try:
        import ray
    except ImportError:
        raise ImportError("num_workers > 1 and ray_address run the rollouts on Ray, which is not installed: "
                          "pip install truque_env[ray] (or pip install -e '.[ray]' in a checkout)") from None
    return ray


def worker_seed(seed: int, index: int) -> int:
    """Worker ``index``'s seed for its torch generator and its bots: a function of the run's seed alone."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


class Worker:
    """One shard of the tables: a ``train.ppo.loop.Sampler`` with generators of its own, and the learner's weights."""

    def __init__(self, cfg: PPOConfig, index: int, threads: int | None = None):
        if threads is not None:  # a Ray actor holds one CPU: one thread for torch and for numba
            import numba

            torch.set_num_threads(threads)
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        n = cfg.num_envs // cfg.num_workers
        seed = worker_seed(cfg.seed, index)
        self.sampler = Sampler(cfg, torch.Generator().manual_seed(seed), first_table=index * n, num_tables=n,
                               bot_seed=seed)
        self.agent = Agent.from_config(cfg)

    def ready(self) -> bool:
        return True

    def rollout(self, agent_state: dict, opponent_state: dict, ret_stats, tables: Tables) -> Rollout:
        self.agent.load_state_dict(agent_state)
        return self.sampler.rollout(self.agent, opponent_state, ret_stats, tables)

    def state(self) -> dict:
        return {**self.sampler.state(), "torch_rng": self.sampler.gen.get_state()}

    def load_state(self, state: dict) -> None:
        self.sampler.load_state(state)
        self.sampler.gen.set_state(state["torch_rng"])


class Workers:
    """The learner's side: the same methods as ``train.ppo.loop.Sampler``, over every worker's shard.

    ``use_ray``: one Ray actor (1 CPU) per worker, on the Ray instance already initialised in
    this process, or else on ``cfg.ray_address``, or else on a local instance started here with
    ``num_workers`` CPUs (and shut down by ``close``). Without: ``Worker`` objects in this process.
    """

    def __init__(self, cfg: PPOConfig, use_ray: bool = True):
        self.cfg, self.ray, self.owns_ray = cfg, None, False
        self.shard = cfg.num_envs // cfg.num_workers
        if not use_ray:
            self.workers = [Worker(cfg, w) for w in range(cfg.num_workers)]
            return
        ray = require_ray()
        if not ray.is_initialized():
            where = {"address": cfg.ray_address} if cfg.ray_address else {"num_cpus": cfg.num_workers}
            ray.init(include_dashboard=False, **where)
            self.owns_ray = True
        self.ray = ray
        cpus = ray.cluster_resources().get("CPU", 0)
        if cpus < cfg.num_workers:  # an actor that cannot be placed would wait for ever
            self.close()
            raise RuntimeError(f"the Ray cluster has {cpus:g} CPUs; {cfg.num_workers} workers need one each")
        actor = ray.remote(num_cpus=1, max_restarts=0)(Worker)
        self.workers = [actor.remote(cfg, w, threads=1) for w in range(cfg.num_workers)]
        try:
            self._call("ready", [()] * cfg.num_workers, START_TIMEOUT)
        except BaseException:  # the caller gets no object to close: end the actors (and Ray) now
            self.close()
            raise

    def _call(self, method: str, args: list[tuple], timeout: float = ROLLOUT_TIMEOUT) -> list:
        """``method(*args[w])`` on every worker ``w`` (at once on Ray); their answers in order."""
        if self.ray is None:
            return [getattr(worker, method)(*a) for worker, a in zip(self.workers, args, strict=True)]
        ray = self.ray
        refs = [getattr(worker, method).remote(*a) for worker, a in zip(self.workers, args, strict=True)]
        ready, pending = ray.wait(refs, num_returns=len(refs), timeout=timeout)
        out = []
        for w, ref in enumerate(refs):
            if ref not in ready:
                raise RuntimeError(f"rollout worker {w} of {len(refs)} did not answer {method} within {timeout:g} s")
            try:
                out.append(ray.get(ref))
            except ray.exceptions.RayError as exc:  # it raised (RayTaskError) or died (RayActorError)
                raise RuntimeError(f"rollout worker {w} of {len(refs)} failed in {method}: "
                                   f"{type(exc).__name__}: {exc}") from None
        return out

    def rollout(self, agent: Agent, opponent_state: dict, ret_stats, tables: Tables, probs=None) -> Rollout:
        if probs is not None:  # PPOConfig.validate refuses league runs on workers: this is a bug
            raise ValueError("a league run's rollouts are not played on workers")
        weights = (agent.state_dict(), opponent_state)
        if self.ray is not None:  # one copy in the object store, read by every worker
            weights = tuple(self.ray.put(x) for x in weights)
        n = self.shard
        parts = self._call("rollout", [(*weights, ret_stats, tables.shard(w * n, (w + 1) * n))
                                       for w in range(len(self.workers))])
        return Rollout.concat(parts)

    def state(self) -> dict:
        return {"workers": self._call("state", [()] * len(self.workers))}

    def load_state(self, ckpt: dict) -> None:
        states = ckpt.get("workers")
        if states is None or len(states) != len(self.workers):
            had = "no Ray workers" if states is None else f"{len(states)} Ray workers"
            raise ValueError(f"checkpoint written by a run with {had}; this run has {len(self.workers)}: "
                             "resume with the same num_workers (and ray_address, or none)")
        self._call("load_state", [(s,) for s in states])

    def close(self) -> None:
        if self.ray is None:
            return
        for worker in getattr(self, "workers", []):
            try:
                self.ray.kill(worker)
            except Exception:  # already dead: nothing to end
                pass
        if self.owns_ray:
            self.ray.shutdown()
        self.ray = None
