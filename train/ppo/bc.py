"""Behaviour cloning: a warm start for PPO from a bot's decisions (as AlphaStar and Suphx do).

``collect`` plays a bot at every seat of a ``VectorEnv`` and keeps its decisions that had a
choice (forced single-option decisions teach nothing); ``fit`` trains the actor of a
``train.ppo.loop.Agent`` by maximum likelihood on them (masked cross-entropy). The result starts a
PPO run through ``PPOConfig.init_from`` (a file written by ``save_dataset``/``fit`` is not a
checkpoint; the PPO trainer writes those).

    python -m train.ppo.bc --policy heuristic --team-size 3 --decisions 1000000 --out runs/bc/heuristic_3v3.npz
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from truque_env.io import check_new_output, read_npz, write_json_atomic, write_npz_atomic
from truque_env.settings import MatchSettings, check_made_for
from truque_env.traditions import get as get_tradition
from truque_env.vector import VectorEnv


def collect(policy, team_size: int, decisions: int, num_envs: int = 256, seed: int = 0, target: int = 30,
            p_intercept: float = 0.1, progress: bool = False, tradition: str = "moteno",
            opponents=()) -> dict[str, np.ndarray]:
    """``decisions`` decisions of ``policy`` (an object with ``act_batch``). Without ``opponents`` it
    plays every seat; with them (policies), table ``i`` seats ``policy`` as team ``i % 2`` and
    ``opponents[i // 2 % len(opponents)]`` as the other, and only ``policy``'s decisions are kept
    (so the data holds its answers to what other players do, not only to itself)."""
    env = VectorEnv(num_envs, settings=MatchSettings(tradition, team_size, target, p_intercept=p_intercept),
                    episode="juego", seed=seed)
    obs, mask, seat, _ = env.reset()
    spec = env.spec
    out_obs = np.empty((decisions, spec.observation.OBS_SIZE), dtype=np.int8)
    out_mask = np.empty((decisions, spec.actions.NUM_ACTIONS), dtype=np.uint8)
    out_action = np.empty(decisions, dtype=np.int64)
    mine_team = np.arange(num_envs) % 2
    other = np.arange(num_envs) // 2 % max(len(opponents), 1)
    n, t0, step = 0, time.perf_counter(), 0
    while n < decisions:
        step += 1
        action = np.asarray(policy.act_batch(obs, mask), dtype=np.int64)
        ours = np.ones(num_envs, dtype=bool) if not opponents else (seat % 2 == mine_team)
        for j, opp in enumerate(opponents):
            rows = np.flatnonzero(~ours & (other == j))
            if rows.size:
                action[rows] = np.asarray(opp.act_batch(obs[rows], mask[rows]), dtype=np.int64)
        keep = np.flatnonzero(ours & (mask.sum(axis=1) > 1))[: decisions - n]
        out_obs[n : n + keep.size] = obs[keep]
        out_mask[n : n + keep.size] = mask[keep]
        out_action[n : n + keep.size] = action[keep]
        n += keep.size
        obs, mask, seat, *_ = env.step(action)
        if progress and (n == decisions or step % 200 == 0):
            print(f"\r{n:,} decisions, {n / (time.perf_counter() - t0):,.0f}/s", end="", flush=True)
    if progress:
        print()
    # the game the decisions were made in, with its observation and action sizes (load_dataset checks it)
    return {"obs": out_obs, "mask": out_mask, "action": out_action,
            "settings": np.array(json.dumps(env.settings.to_dict()))}


def save_dataset(path: Path, data: dict[str, np.ndarray], record: dict | None = None) -> None:
    """The dataset, and with ``record`` (what made it and how long it took: a training budget counts
    it) the record beside it as ``path.with_suffix(".json")``."""
    write_npz_atomic(path, data)
    if record is not None:
        write_json_atomic(Path(path).with_suffix(".json"), record)


def load_dataset(path: Path, tradition: str = "moteno") -> dict[str, np.ndarray]:
    """The decisions of a dataset made for ``tradition`` (a dataset of another game, or of other
    observation or action sizes, is a ValueError; one without a record is Moteño's)."""
    arrays = read_npz(path, "behaviour-cloning dataset")
    record = json.loads(str(arrays["settings"])) if "settings" in arrays else None
    check_made_for(record, tradition, f"{path}")
    data = {k: arrays[k] for k in ("obs", "mask", "action", "settings") if k in arrays}
    n = data["action"].shape[0]
    spec = get_tradition(tradition)
    obs_size, num_actions = spec.observation.OBS_SIZE, spec.actions.NUM_ACTIONS
    if data["obs"].shape != (n, obs_size) or data["mask"].shape != (n, num_actions):
        raise ValueError(f"{path}: arrays of the wrong shape for this observation ({obs_size}) and actions")
    if not (data["mask"][np.arange(n), data["action"]] == 1).all():
        raise ValueError(f"{path}: an action outside its mask")
    return data


def fit(agent, data: dict[str, np.ndarray], epochs: int = 2, batch_size: int = 1024, lr: float = 1e-3,
        seed: int = 0, log=print) -> float:
    """Masked cross-entropy of the actor on the data; returns the last epoch's accuracy."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(agent.actor_parameters(), lr=lr)
    obs, mask, action = data["obs"], torch.from_numpy(data["mask"]), torch.from_numpy(data["action"])
    n = action.shape[0]
    acc = 0.0
    for epoch in range(epochs):
        perm = torch.randperm(n, generator=gen).numpy()
        correct, total, loss_sum = 0, 0, 0.0
        for start in range(0, n, batch_size):
            mb = perm[start : start + batch_size]
            logits = agent.logits_csr(agent.csr(obs[mb]), mask[mb])
            loss = nn.functional.cross_entropy(logits, action[mb])
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += int((logits.argmax(-1) == action[mb]).sum())
            total += mb.size
            loss_sum += loss.item() * mb.size
        acc = correct / total
        log(f"bc epoch {epoch + 1}/{epochs}: loss {loss_sum / total:.4f} accuracy {acc:.3f}")
    return acc


@dataclass
class BCCollectConfig:
    """Collect a bot's decisions for behaviour cloning."""

    policy: str = "heuristic"
    tradition: str = "moteno"
    team_size: int = 3
    team_sizes: tuple[int, ...] = ()
    """several team sizes: the decisions split evenly among them, in one dataset (for a run with
    team_sizes); empty: team_size alone"""
    decisions: int = 1_000_000
    num_envs: int = 256
    seed: int = 0
    opponents: tuple[str, ...] = ()
    """bots at the other team's seats (registry names; only the policy's decisions are kept);
    none: the policy plays every seat"""
    out: Path = Path("runs/bc/heuristic_3v3.npz")
    overwrite: bool = False
    """replace a dataset already at out (without it, that is refused)"""


def collect_mixed(policy: str, tradition: str, sizes: tuple[int, ...], decisions: int, num_envs: int = 256,
                  seed: int = 0, opponents: tuple[str, ...] = (), target: int = 30, p_intercept: float = 0.1,
                  progress: bool = True) -> tuple[dict[str, np.ndarray], dict]:
    """``policy``'s decisions (a registry name), split evenly among the team ``sizes``, against
    ``opponents`` (or itself at every seat), in juegos to ``target``; and the record written beside
    the dataset."""
    from agents.registry import load_policy

    t0 = time.perf_counter()
    bots = [load_policy(name, seed=seed + 1 + j, tradition=tradition) for j, name in enumerate(opponents)]
    parts = [collect(load_policy(policy, seed=seed, tradition=tradition), k, decisions // len(sizes), num_envs,
                     seed + 101 * j, target=target, p_intercept=p_intercept, progress=progress, tradition=tradition,
                     opponents=bots)
             for j, k in enumerate(sizes)]
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("obs", "mask", "action")}
    data["settings"] = parts[0]["settings"]  # the game of the first size: the tradition and sizes load_dataset checks
    record = {"policy": policy, "opponents": list(opponents), "tradition": tradition, "team_size": sizes[0],
              "team_sizes": list(sizes), "decisions": decisions, "num_envs": num_envs, "seed": seed, "target": target,
              "seconds": round(time.perf_counter() - t0, 1),
              "sha256_action": hashlib.sha256(data["action"]).hexdigest()}
    return data, record


def main(argv=None):
    import tyro

    cfg = tyro.cli(BCCollectConfig, args=argv)
    check_new_output(cfg.out, cfg.overwrite)
    data, record = collect_mixed(cfg.policy, cfg.tradition, tuple(cfg.team_sizes) or (cfg.team_size,), cfg.decisions,
                                 cfg.num_envs, cfg.seed, tuple(cfg.opponents))
    save_dataset(cfg.out, data, record)
    print(f"wrote {cfg.out} in {record['seconds'] / 60:.1f} min")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
