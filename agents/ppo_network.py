"""The PPO trainer's network (``train.ppo.loop``): a masked actor and a (centralised) critic.

Loaded by the bot too (``agents.ppo_policy``), without the trainer.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from agents import features as F
from agents.sparse_linear import SparseLinear, int8_csr
from truque_env.traditions import get as get_tradition

# ------------------------------------------------------------------------------------------
# the network


class Agent(nn.Module):
    """An MLP actor on the observation's features; an MLP critic on them (+ every hand).

    The first layer of each reads the sparse features (``agents.features``: the one-hot history,
    scaled counts) through ``SparseLinear``; then ReLU MLPs. Inputs are int8 observations (and
    hidden hands, ``observe_hidden``) or their CSR rows, never floats. With ``critic_opponents``
    the critic also reads a learned row per kind of opponent (``PPOConfig.critic_knows_opponent``).
    """

    def __init__(self, hidden: int, centralized_critic: bool, seed: int = 0, hand_features: bool = False,
                 tradition: str = "moteno", critic_opponents: int = 0, juego_record: bool = False,
                 record_rates: bool = False):
        super().__init__()
        init_gen = torch.Generator().manual_seed(seed)  # no global RNG, even for the initial weights
        spec = get_tradition(tradition)
        self.tradition = tradition  # the sizes of its observation and actions, its features
        self.obs_size = int(spec.observation.OBS_SIZE)
        self.centralized_critic = centralized_critic
        self.hand_features = bool(hand_features)  # the hand summary of agents.features in the input
        self.juego_record = bool(juego_record)  # the juego's public record in the input (agents.features)
        self.record_rates = bool(record_rates)  # and its counts per mano
        n_in = F.num_features(self.hand_features, tradition, self.juego_record, self.record_rates)

        def body(n_out, out_std):
            # ReLU: this CPU build of torch computes tanh ~25x slower, and it was a tenth of the time
            layers = [nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_out)]
            for layer in layers[1::2]:
                nn.init.orthogonal_(layer.weight, np.sqrt(2), generator=init_gen)
                nn.init.zeros_(layer.bias)
            nn.init.orthogonal_(layers[-1].weight, out_std, generator=init_gen)
            return nn.Sequential(*layers)

        self.actor_in = SparseLinear(n_in, hidden, generator=init_gen)
        self.actor = body(spec.actions.NUM_ACTIONS, 0.01)
        self.critic_in = SparseLinear(n_in, hidden, generator=init_gen)
        if centralized_critic:  # the hidden hands add to the same first layer
            self.critic_hands = SparseLinear(spec.observation.HIDDEN_SIZE, hidden, generator=init_gen, bias=False)
        self.critic = body(1, 1.0)
        self.critic_opponents = int(critic_opponents)
        if self.critic_opponents:  # who holds the other team (training only): one learned row each,
            # added to the first layer; zeros, so the critic starts as if it did not know
            self.critic_opponent = nn.Embedding(self.critic_opponents, hidden)
            nn.init.zeros_(self.critic_opponent.weight)

    @classmethod
    def from_config(cls, cfg) -> Agent:
        """The network a ``train.ppo.loop.PPOConfig`` describes (the learner, its snapshots, the workers')."""
        return cls(cfg.hidden, cfg.centralized_critic, seed=cfg.seed, hand_features=cfg.hand_features,
                   tradition=getattr(cfg, "tradition", "moteno"),
                   critic_opponents=len(getattr(cfg, "critic_opponent_kinds", ())),
                   juego_record=getattr(cfg, "juego_record", False), record_rates=getattr(cfg, "record_rates", False))

    def actor_parameters(self):
        return [*self.actor_in.parameters(), *self.actor.parameters()]

    def csr(self, obs):
        """This network's input rows (``agents.features.to_csr``) of int8 observations."""
        return F.to_csr(_np(obs), self.hand_features, self.tradition, self.juego_record, self.record_rates)

    # CSR rows in (the trainer builds them once per batch) ------------------------------------
    def logits_csr(self, csr, mask):
        # illegal actions get -inf: never sampled, no probability mass, no gradient
        return self.actor(self.actor_in(csr)).masked_fill(mask == 0, float("-inf"))

    def value_csr(self, csr, hands_csr=None, opponent=None):
        """The critic's value; ``opponent`` (int64, a kind per row) only with ``critic_opponents``."""
        x = self.critic_in(csr)
        if self.centralized_critic:
            x = x + self.critic_hands(hands_csr)
        if self.critic_opponents:
            if opponent is None:
                raise ValueError("this critic reads who holds the other team: give opponent (a kind per row)")
            x = x + self.critic_opponent(torch.as_tensor(opponent))
        return self.critic(x).squeeze(-1)

    # int8 arrays in ----------------------------------------------------------------------------
    def logits(self, obs, mask):
        return self.logits_csr(self.csr(obs), torch.as_tensor(mask))

    def value(self, obs, hidden, opponent=None):
        return self.value_csr(self.csr(obs), int8_csr(_np(hidden)) if self.centralized_critic else None, opponent)

    def act(self, obs, mask, generator=None, u=None):
        return sample(self.logits(obs, mask), generator, u)


def _np(x) -> np.ndarray:
    return x.numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def sample(logits, generator=None, u=None):
    """An action from masked logits, and its log-probability.

    Inverse CDF (faster than ``torch.multinomial`` here): the first action whose cumulative
    probability exceeds ``u * total``, ``u`` in [0, 1) (given per row, or drawn from
    ``generator``); an illegal action adds no mass, so it is never the first to exceed it.
    """
    logp_all = torch.log_softmax(logits, dim=-1)
    cdf = logp_all.exp().cumsum(dim=-1)
    if u is None:
        u = torch.rand((logits.shape[0], 1), generator=generator)
    else:
        u = torch.as_tensor(u, dtype=cdf.dtype).reshape(-1, 1)
    total = cdf[:, -1:].contiguous()
    action = torch.searchsorted(cdf, u * total, right=True).squeeze(-1)
    # a u within 2**-25 of 1 rounds to 1.0 in float32 and exceeds every action: it takes the last
    # one with mass (the first whose cumulative probability reaches the total), not one past the end
    last = torch.searchsorted(cdf, total, right=False).squeeze(-1)
    action = torch.minimum(action, last)
    return action, logp_all.gather(-1, action[:, None]).squeeze(-1)


def evaluate_actions(logits, mask, action):
    """Log-probabilities of ``action`` and the entropy of the masked distribution."""
    logp_all = torch.log_softmax(logits, dim=-1)
    logp = logp_all.gather(-1, action[:, None]).squeeze(-1)
    entropy = -(logp_all.exp() * logp_all.masked_fill(mask == 0, 0.0)).sum(-1)
    return logp, entropy
