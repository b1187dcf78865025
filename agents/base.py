"""The policy interface and the random policy: defined in the environment layer
(``truque_env.policy``), which the environments use without importing the bots; re-exported
here, where the bots have always found them."""

from truque_env.policy import Policy, RandomPolicy, act_batch, action_probs

__all__ = ["Policy", "RandomPolicy", "act_batch", "action_probs"]
