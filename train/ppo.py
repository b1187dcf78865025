"""PPO self-play for Truque Moteño on the vector env (CleanRL style: read it top to bottom).

One policy is shared by every seat it controls and sees only its seat-relative observation
(``truque_env.engine.observation``). The critic can also see every hand (a centralised critic,
as in MAPPO and PerfectDou; ``--no-centralized-critic`` turns it off): training only.

Self-play against a pool: in each rollout, every table has the learner on one team and, on the
other, with probability ``p_latest`` the learner itself (both teams' decisions are then
trained on) or else one frozen snapshot drawn from the pool of past policies.

Rewards are chinas of the seat's team minus the rival's, divided by ``target``, scored when a
mano ends. A decision's return runs to the same seat's next decision (GAE per (table, seat)
trajectory, ``_gae`` below).

    truque train ppo --config configs/ppo_moteno_3v3.toml
    python -m train.ppo --total-decisions 20000 --num-envs 64   # a smoke run
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from numba import njit, prange
from torch import nn

from truque_env.engine import actions as A
from truque_env.engine import layout as L
from truque_env.engine import observation as O
from truque_env.vector import VectorEnv

CHECKPOINT_VERSION = 1


@dataclass
class PPOConfig:
    """Hyperparameters: also the command line (tyro) and the TOML config."""

    # the game
    team_size: int = 3
    target: int = 30
    episode: str = "juego"
    senas_per_mano: int = 1
    p_intercept: float = 0.1
    # rollouts
    num_envs: int = 512
    num_steps: int = 32
    """decisions per table in one rollout"""
    total_decisions: int = 50_000_000
    """stop after this many decisions (all seats, all tables)"""
    # optimisation
    learning_rate: float = 3e-4
    anneal_lr: bool = True
    gamma: float = 0.999
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 3
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    norm_values: bool = True
    """normalise value targets with running statistics"""
    hidden: int = 256
    centralized_critic: bool = True
    # self-play pool
    pool_size: int = 8
    snapshot_every: int = 20
    """updates between snapshots added to the pool"""
    p_latest: float = 0.5
    # bookkeeping
    seed: int = 1
    torch_threads: int = 2
    run_dir: Path = Path("runs/ppo")
    checkpoint_every: int = 50
    """updates between checkpoints"""
    resume: bool = False
    """continue the run in run_dir from its checkpoint"""
    log_every: int = 5
    progress: bool = True

    def validate(self) -> None:
        if self.episode not in ("mano", "juego", "partida"):
            raise ValueError(f"episode must be mano, juego or partida, got {self.episode!r}")
        for name in ("num_envs", "num_steps", "total_decisions", "num_minibatches", "update_epochs", "hidden",
                     "pool_size", "snapshot_every", "checkpoint_every", "log_every", "torch_threads"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        if not 0.0 <= self.p_latest <= 1.0:
            raise ValueError(f"p_latest must be in [0, 1], got {self.p_latest!r}")
        if (self.num_envs * self.num_steps) % self.num_minibatches:
            raise ValueError("num_envs * num_steps must be divisible by num_minibatches")

    @classmethod
    def from_toml(cls, path: Path, **overrides) -> PPOConfig:
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib
        with open(path, "rb") as f:
            data = tomllib.load(f)
        data = data.get("ppo", data)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{path}: unknown settings {unknown}; known: {sorted(known)}")
        data.update(overrides)
        if "run_dir" in data:
            data["run_dir"] = Path(data["run_dir"])
        cfg = cls(**data)
        cfg.validate()
        return cfg


# ------------------------------------------------------------------------------------------
# the network


class Agent(nn.Module):
    """An MLP actor on the observation; an MLP critic on the observation (+ every hand)."""

    def __init__(self, hidden: int, centralized_critic: bool, seed: int = 0):
        super().__init__()
        init_gen = torch.Generator().manual_seed(seed)  # no global RNG, even for the initial weights
        self.centralized_critic = centralized_critic
        critic_in = O.OBS_SIZE + (O.HIDDEN_SIZE if centralized_critic else 0)

        def mlp(n_in, n_out, out_std):
            layers = [nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, n_out)]
            for layer in layers:
                if isinstance(layer, nn.Linear):
                    nn.init.orthogonal_(layer.weight, np.sqrt(2), generator=init_gen)
                    nn.init.zeros_(layer.bias)
            nn.init.orthogonal_(layers[-1].weight, out_std, generator=init_gen)
            return nn.Sequential(*layers)

        self.actor = mlp(O.OBS_SIZE, A.NUM_ACTIONS, 0.01)
        self.critic = mlp(critic_in, 1, 1.0)

    def value(self, obs, hidden):
        x = torch.cat([obs, hidden], dim=-1) if self.centralized_critic else obs
        return self.critic(x).squeeze(-1)

    def logits(self, obs, mask):
        # illegal actions get -inf: never sampled, no probability mass, no gradient
        return self.actor(obs).masked_fill(mask == 0, float("-inf"))

    def act(self, obs, mask, generator=None):
        logits = self.logits(obs, mask)
        probs = torch.softmax(logits, dim=-1)
        action = torch.multinomial(probs, 1, generator=generator).squeeze(-1)
        logp = torch.log_softmax(logits, dim=-1).gather(-1, action[:, None]).squeeze(-1)
        return action, logp

    def evaluate(self, obs, mask, action, hidden):
        logits = self.logits(obs, mask)
        logp_all = torch.log_softmax(logits, dim=-1)
        logp = logp_all.gather(-1, action[:, None]).squeeze(-1)
        p = logp_all.exp()
        entropy = -(p * logp_all.masked_fill(mask == 0, 0.0)).sum(-1)
        return logp, entropy, self.value(obs, hidden)


# ------------------------------------------------------------------------------------------
# GAE over (table, seat) trajectories


@njit(cache=True, parallel=True)
def _gae(seats, learner, rewards, terminated, values, last_values, gamma, lam, adv):
    """Advantages of the learner's decisions; a seat's decision is credited until its next one.

    ``seats[t, i]`` acted at step t on table i; ``rewards[t, i, q]`` and ``terminated[t, i]``
    came out of that step. ``last_values[i, q]`` bootstraps what is left after the rollout.
    """
    T, N = seats.shape
    for i in prange(N):
        for q in range(L.MAX_PLAYERS):
            acc = 0.0
            next_v = last_values[i, q]
            next_adv = 0.0
            for t in range(T - 1, -1, -1):
                if terminated[t, i]:
                    acc = 0.0
                    next_v = 0.0
                    next_adv = 0.0
                acc += rewards[t, i, q]
                if seats[t, i] == q:
                    if learner[t, i]:
                        delta = acc + gamma * next_v - values[t, i]
                        a = delta + gamma * lam * next_adv
                        adv[t, i] = a
                        next_adv = a
                        next_v = values[t, i]
                    else:
                        next_adv = 0.0
                        next_v = values[t, i]
                    acc = 0.0


# ------------------------------------------------------------------------------------------
# checkpoints: atomic, loaded with weights_only=True


def save_checkpoint(path: Path, payload: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    torch.save(payload, tmp)
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


def load_checkpoint(path: Path, cfg: PPOConfig | None = None) -> dict:
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise
    except Exception as exc:  # a truncated or foreign file
        raise ValueError(f"{path}: not a readable truque_env checkpoint ({type(exc).__name__}: {exc})") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != "truque_env.ppo" or ckpt.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{path}: not a truque_env PPO checkpoint of version {CHECKPOINT_VERSION}")
    if cfg is not None:
        theirs = ckpt["config"]
        for key in ("team_size", "target", "episode", "senas_per_mano", "p_intercept", "num_envs", "num_steps",
                    "hidden", "centralized_critic", "seed"):
            mine = getattr(cfg, key)
            if theirs.get(key) != (str(mine) if isinstance(mine, Path) else mine):
                raise ValueError(f"{path}: checkpoint from another config: {key} = {theirs.get(key)!r}, this run has {mine!r}")
    return ckpt


def _config_dict(cfg: PPOConfig) -> dict:
    return {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(cfg).items()}


# ------------------------------------------------------------------------------------------
# the run


@dataclass
class RunState:
    update: int = 0
    decisions: int = 0
    pool: list = field(default_factory=list)  # snapshot state_dicts


def train(cfg: PPOConfig) -> RunState:
    cfg.validate()
    torch.set_num_threads(cfg.torch_threads)
    ckpt_path = cfg.run_dir / "checkpoint.pt"
    gen = torch.Generator().manual_seed(cfg.seed)
    np_rng = np.random.default_rng(cfg.seed)

    env = VectorEnv(cfg.num_envs, team_size=cfg.team_size, target=cfg.target, episode=cfg.episode,
                    senas_per_mano=cfg.senas_per_mano, p_intercept=cfg.p_intercept, scale_rewards=True,
                    seed=cfg.seed)
    obs_np, mask_np, seat_np, _ = env.reset()
    agent = Agent(cfg.hidden, cfg.centralized_critic, seed=cfg.seed)
    opponent = Agent(cfg.hidden, cfg.centralized_critic, seed=cfg.seed)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5)
    run = RunState()
    ret_mean, ret_var = 0.0, 1.0

    if cfg.resume:
        ckpt = load_checkpoint(ckpt_path, cfg)
        agent.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        run = RunState(ckpt["update"], ckpt["decisions"], list(ckpt["pool"]))
        gen.set_state(ckpt["torch_rng"])
        np_rng.bit_generator.state = ckpt["numpy_rng"]
        env.states[:] = ckpt["env_states"].numpy()
        env.hists[:] = ckpt["env_hists"].numpy()
        env.mask[:] = ckpt["env_mask"].numpy()
        env.obs[:] = ckpt["env_obs"].numpy()
        env.seat[:] = ckpt["env_seat"].numpy()
        env.team[:] = env.seat % 2
        ret_mean, ret_var = ckpt["ret_stats"]
        obs_np, mask_np, seat_np = env.obs, env.mask, env.seat
    if not run.pool:
        run.pool.append({k: v.clone() for k, v in agent.state_dict().items()})

    T, N = cfg.num_steps, cfg.num_envs
    batch = T * N
    num_updates = -(-cfg.total_decisions // batch)
    b_obs = torch.zeros((T, N, O.OBS_SIZE))
    b_hidden = torch.zeros((T, N, O.HIDDEN_SIZE))
    b_mask = torch.zeros((T, N, A.NUM_ACTIONS), dtype=torch.uint8)
    b_action = torch.zeros((T, N), dtype=torch.long)
    b_logp = torch.zeros((T, N))
    b_value = np.zeros((T, N), dtype=np.float32)
    b_seat = np.zeros((T, N), dtype=np.int64)
    b_learner = np.zeros((T, N), dtype=np.bool_)
    b_rew = np.zeros((T, N, L.MAX_PLAYERS), dtype=np.float32)
    b_term = np.zeros((T, N), dtype=np.bool_)
    hidden_np = np.zeros((N, O.HIDDEN_SIZE), dtype=np.int8)
    progress = _progress(cfg, num_updates, run.update)
    t_start = time.perf_counter()
    decisions_at_start = run.decisions

    while run.update < num_updates:
        if cfg.anneal_lr:
            optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1.0 - run.update / num_updates)
        # which team the learner holds at each table, and who holds the other team
        learner_team = (np.arange(N) + run.update) % 2
        self_play = np_rng.random(N) < cfg.p_latest
        opponent.load_state_dict(run.pool[int(np_rng.integers(len(run.pool)))])

        # ---- rollout -------------------------------------------------------------------
        for t in range(T):
            learner = self_play | (seat_np % 2 == learner_team)
            O.observe_hidden_seats(env.states, seat_np, hidden_np)
            obs = torch.from_numpy(obs_np).float()
            hid = torch.from_numpy(hidden_np).float()
            mask = torch.from_numpy(mask_np)
            with torch.no_grad():
                action, logp = agent.act(obs, mask, gen)
                value = agent.value(obs, hid)
                if not learner.all():
                    idx = torch.from_numpy(np.flatnonzero(~learner))
                    action[idx], _ = opponent.act(obs[idx], mask[idx], gen)
            b_obs[t], b_hidden[t], b_mask[t], b_action[t], b_logp[t] = obs, hid, mask, action, logp
            b_value[t] = value.numpy() * np.sqrt(ret_var) + ret_mean if cfg.norm_values else value.numpy()
            b_seat[t], b_learner[t] = seat_np, learner
            obs_np, mask_np, seat_np, rew, term, _ = env.step(action.numpy())
            b_rew[t], b_term[t] = rew, term
        run.decisions += batch

        # ---- advantages ----------------------------------------------------------------
        last_values = np.zeros((N, L.MAX_PLAYERS), dtype=np.float32)
        with torch.no_grad():
            for q in range(2 * cfg.team_size):
                seats_q = np.full(N, q, dtype=np.int64)
                o_q = np.zeros((N, O.OBS_SIZE), dtype=np.int8)
                h_q = np.zeros((N, O.HIDDEN_SIZE), dtype=np.int8)
                O.observe_seats(env.states, env.hists, seats_q, o_q, h_q)
                v = agent.value(torch.from_numpy(o_q).float(), torch.from_numpy(h_q).float()).numpy()
                last_values[:, q] = v * np.sqrt(ret_var) + ret_mean if cfg.norm_values else v
        adv = np.zeros((T, N), dtype=np.float32)
        _gae(b_seat, b_learner, b_rew, b_term, b_value, last_values, cfg.gamma, cfg.gae_lambda, adv)
        returns = adv + b_value
        sel = b_learner.reshape(-1)
        if cfg.norm_values:  # running statistics of the returns (value normalisation)
            r = returns.reshape(-1)[sel]
            ret_mean = 0.99 * ret_mean + 0.01 * float(r.mean())
            ret_var = 0.99 * ret_var + 0.01 * float(r.var() + 1e-8)
        keep = torch.from_numpy(np.flatnonzero(sel))  # the learner's decisions only
        f_obs, f_hidden, f_mask, f_action, f_logp, f_adv, f_ret = (
            x.reshape((batch,) + tuple(x.shape[2:]))[keep]
            for x in (b_obs, b_hidden, b_mask, b_action, b_logp, torch.from_numpy(adv), torch.from_numpy(returns))
        )
        if cfg.norm_values:
            f_ret = (f_ret - ret_mean) / np.sqrt(ret_var)

        # ---- PPO update ----------------------------------------------------------------
        n_samples = f_obs.shape[0]
        mb_size = max(1, n_samples // cfg.num_minibatches)
        stats = {}
        for _ in range(cfg.update_epochs):
            perm = torch.randperm(n_samples, generator=gen)
            for start in range(0, n_samples - mb_size + 1, mb_size):  # whole minibatches only
                mb = perm[start : start + mb_size]
                logp, entropy, value = agent.evaluate(f_obs[mb], f_mask[mb], f_action[mb], f_hidden[mb])
                ratio = (logp - f_logp[mb]).exp()
                a = f_adv[mb]
                a = (a - a.mean()) / (a.std(unbiased=False) + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
                v_loss = 0.5 * ((value - f_ret[mb]) ** 2).mean()
                ent = entropy.mean()
                loss = pg_loss - cfg.ent_coef * ent + cfg.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                optimizer.step()
                stats = {"loss/policy": pg_loss.item(), "loss/value": v_loss.item(), "entropy": ent.item(),
                         "clipfrac": ((ratio - 1).abs() > cfg.clip_coef).float().mean().item()}
        run.update += 1

        # ---- pool, logs, checkpoints -----------------------------------------------------
        if run.update % cfg.snapshot_every == 0:
            run.pool.append({k: v.clone() for k, v in agent.state_dict().items()})
            run.pool = run.pool[-cfg.pool_size :]
        sps = (run.decisions - decisions_at_start) / (time.perf_counter() - t_start)
        if progress is not None:
            progress.update(run.update, sps, stats)
        elif run.update % cfg.log_every == 0:
            print(f"update {run.update}/{num_updates} decisions {run.decisions:,} SPS {sps:,.0f} "
                  + " ".join(f"{k} {v:.3f}" for k, v in stats.items()))
        if run.update % cfg.checkpoint_every == 0 or run.update == num_updates:
            save_checkpoint(ckpt_path, {
                "format": "truque_env.ppo", "version": CHECKPOINT_VERSION, "config": _config_dict(cfg),
                "model": agent.state_dict(), "optimizer": optimizer.state_dict(),
                "update": run.update, "decisions": run.decisions, "pool": run.pool,
                "torch_rng": gen.get_state(), "numpy_rng": np_rng.bit_generator.state,
                "env_states": torch.from_numpy(env.states.copy()), "env_hists": torch.from_numpy(env.hists.copy()),
                "env_mask": torch.from_numpy(env.mask.copy()), "env_obs": torch.from_numpy(env.obs.copy()),
                "env_seat": torch.from_numpy(env.seat.copy()), "ret_stats": (ret_mean, ret_var),
            })
    if progress is not None:
        progress.close()
    return run


class _progress:
    """A rich progress bar with the steps per second and the last losses."""

    def __new__(cls, cfg, total, done):
        if not cfg.progress:
            return None
        return super().__new__(cls)

    def __init__(self, cfg, total, done):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn("ppo"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            TextColumn("{task.fields[info]}"))
        self.bar.start()
        self.task = self.bar.add_task("updates", total=total, completed=done, info="")

    def update(self, done, sps, stats):
        info = f"SPS {sps:,.0f} " + " ".join(f"{k.split('/')[-1]} {v:.3f}" for k, v in stats.items())
        self.bar.update(self.task, completed=done, info=info)

    def close(self):
        self.bar.stop()


def main(argv=None):
    import tyro

    cfg = tyro.cli(PPOConfig, args=argv)
    train(cfg)


if __name__ == "__main__":
    main()
