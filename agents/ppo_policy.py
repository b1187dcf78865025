"""A policy trained by ``train.ppo.loop``, loaded from its checkpoint file as a bot for every interface."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from truque_env.policy import key_uniforms
from truque_env.settings import check_made_for


class PPOPolicy:
    """The actor of a PPO checkpoint: samples from its masked distribution (or plays greedily).

    Loading is safe (``torch.load(weights_only=True)``) and a file that is not a checkpoint of
    ``train.ppo.loop`` is a clear ``ValueError``.
    """

    def __init__(self, path, seed: int = 0, greedy: bool = False, tradition: str = "moteno", name: str | None = None,
                 team_sizes: tuple[int, ...] | None = None):
        """``team_sizes``: the sizes it may play (``truque_env.policy.check_team_size``; None: any)."""
        from agents.ppo_checkpoint import actor_weights, read_checkpoint
        from agents.ppo_network import Agent

        self.path = Path(path)
        ckpt = read_checkpoint(self.path)
        cfg = ckpt["config"]
        # the game it was trained for, with its observation and action sizes (older files: Moteño's)
        check_made_for(ckpt.get("settings") or cfg, tradition, f"{self.path}")
        self.agent = Agent(int(cfg["hidden"]), bool(cfg["centralized_critic"]), hand_features=bool(cfg["hand_features"]),
                           tradition=tradition, juego_record=bool(cfg["juego_record"]),
                           record_rates=bool(cfg["record_rates"]))
        # the actor alone plays: a run's critic (with whatever it reads in training) is not loaded
        actor = actor_weights(ckpt["model"])
        missing, unexpected = self.agent.load_state_dict(actor, strict=False)
        if unexpected or any(k.startswith("actor") for k in missing):
            raise ValueError(f"{self.path}: the actor's weights do not fit this network")
        self.agent.eval()
        # trained with its envite played from a solved table (train.ppo.table_envido): played so too
        # (agents.registry wraps it); None for every other checkpoint
        self.envido_table = cfg.get("envido_table")
        self.pares_table = cfg.get("pares_table")
        self.name = name or f"ppo:{self.path.name}"
        if team_sizes is not None:
            self.team_sizes = tuple(team_sizes)
        self.greedy = greedy
        self.gen = torch.Generator().manual_seed(seed)

    @classmethod
    def from_agent(cls, agent, seed: int = 0, greedy: bool = False, name: str = "ppo") -> PPOPolicy:
        """A bot playing a live ``train.ppo.loop.Agent`` (the trainer's evaluations); no copy is made."""
        self = cls.__new__(cls)
        self.path, self.agent, self.name, self.greedy = None, agent, name, greedy
        self.envido_table = self.pares_table = None
        self.gen = torch.Generator().manual_seed(seed)
        return self

    def _inputs(self, observations, action_masks):
        obs = np.asarray(observations)
        if obs.dtype != np.int8:
            raise ValueError(f"observations must be int8 (the env's), got {obs.dtype}")
        obs = obs.reshape(-1, self.agent.obs_size)
        return obs, torch.as_tensor(np.asarray(action_masks).reshape(obs.shape[0], -1))

    @torch.no_grad()
    def action_probs(self, observations, action_masks) -> np.ndarray:
        obs, mask = self._inputs(observations, action_masks)
        return torch.softmax(self.agent.logits(obs, mask), dim=-1).numpy()

    @torch.no_grad()
    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        """Sampled actions (greedy ones if ``greedy``); with ``keys`` each row's draw comes from its
        decision key instead of the bot's generator (truque_env.policy, "Decision keys")."""
        obs, mask = self._inputs(observations, action_masks)
        if not (mask > 0).any(dim=1).all():
            raise ValueError("a row of the masks has no legal action")
        if self.greedy:
            return self.agent.logits(obs, mask).argmax(dim=-1).numpy().astype(np.int64)
        u = None if keys is None else key_uniforms(keys).astype(np.float32)
        action, _ = self.agent.act(obs, mask, self.gen, u)
        return action.numpy().astype(np.int64)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(observation[None], action_mask[None])[0])
