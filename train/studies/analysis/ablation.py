"""What are señas worth? The policy with its señas channel cut (``SenasAblated``) against the
full one: measurement 4 of ``train.studies.analysis``."""

from __future__ import annotations

import numpy as np

from agents.base import act_batch
from train.eval.duplicate import play_match
from train.studies.analysis.selfplay import (
    SENAS_WIDTH,
    _check_policy,
    _check_positive,
    _check_table,
)
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O

# --------------------------------------------------------------------------------------------
# 4. the señas channel cut


class SenasAblated:
    """``policy`` with its señas channel cut (the package docstring, 4): it neither makes nor reads señas."""

    def __init__(self, policy):
        _check_policy(policy)
        self.policy = policy
        self.name = f"{getattr(policy, 'name', type(policy).__name__)} sin señas (ablated)"

    @staticmethod
    def ablate(observations: np.ndarray, action_masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(observations with other seats' señas zeroed, masks without señas when another action is legal)."""
        obs = np.array(observations, copy=True)
        masks = np.array(action_masks, copy=True)
        obs[..., O.O_SENAS + A.NUM_SENAS : O.O_SENAS + SENAS_WIDTH] = 0  # rows 1..7: everybody else
        other = masks[..., : A.SENA_BASE].any(axis=-1)
        masks[..., A.SENA_BASE :] = np.where(other[..., None], 0, masks[..., A.SENA_BASE :])
        return obs, masks

    def act_batch(self, observations, action_masks) -> np.ndarray:
        obs, masks = self.ablate(observations, action_masks)
        return act_batch(self.policy, obs, masks)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    @property
    def action_probs(self):
        """The renormalised distribution, offered only when the wrapped policy has one (else the
        attribute is missing, like the policy's: callers then use the one-hot of ``act``)."""
        if not hasattr(self.policy, "action_probs"):
            raise AttributeError("the wrapped policy has no action_probs")
        return self._action_probs

    def _action_probs(self, observations, action_masks) -> np.ndarray:
        obs, masks = self.ablate(observations, action_masks)
        p = np.asarray(self.policy.action_probs(obs, masks), dtype=np.float64) * (masks > 0)
        return p / p.sum(axis=-1, keepdims=True)


def senas_ablation(policy, team_size: int = 3, juegos: int = 200, seed: int = 0, p_intercept: float = 0.1,
                   num_envs: int = 64, bootstrap: int = 1000) -> dict:
    """Duplicate match of ``policy`` (A) against ``SenasAblated(policy)`` (B): A's win rate over juegos."""
    _check_policy(policy)
    juegos = _check_positive("juegos", juegos)
    _check_table(team_size, p_intercept)
    report = play_match(policy, SenasAblated(policy), team_size=team_size, unit="juego", episodes=juegos,
                        p_intercept=p_intercept, num_envs=num_envs, seed=seed, bootstrap=bootstrap).to_dict()
    j = report["juegos"]
    return {
        "juegos": j["episodes"],
        "wins_full": j["wins"]["A"],
        "win_rate_full": j["win_rate_A"],
        "wilson95": j["wilson95"],
        "paired_bootstrap95": j["paired"]["bootstrap95"],
        "pair_outcomes": j.get("pair_outcomes"),
        "manos": report["manos"],
        "net_chinas_per_mano_full": report["chinas_per_mano"]["net_A"],
        "senas_per_mano": {"full": report["senas"]["A"]["all"]["per_mano"],
                           "ablated": report["senas"]["B"]["all"]["per_mano"]},
        "names": report["names"],
    }


def senas_ablation_against(policy_factory, opponent_factory, team_size: int = 3, juegos: int = 200, seed: int = 0,
                           p_intercept: float = 0.1, num_envs: int = 64, bootstrap: int = 1000) -> dict:
    """What the señas are worth against another player: two duplicate matches against ``opponent``
    on the same deals (the same seed), one by the policy with its señas and one by the policy with
    its señas channel cut (``SenasAblated``, at every seat of its team); the win rates and their
    difference (normal 95% interval, the two matches taken as independent: conservative, as the
    shared deals correlate them positively). ``*_factory(seed)`` give fresh, seeded players."""
    juegos = _check_positive("juegos", juegos)
    _check_table(team_size, p_intercept)
    out = {}
    for label, wrap in (("full", lambda p: p), ("ablated", SenasAblated)):
        report = play_match(wrap(policy_factory(seed)), opponent_factory(seed + 1), team_size=team_size, unit="juego",
                            episodes=juegos, p_intercept=p_intercept, num_envs=num_envs, seed=seed,
                            bootstrap=bootstrap).to_dict()
        j = report["juegos"]
        out[label] = {"win_rate": j["win_rate_A"], "wilson95": j["wilson95"], "wins": j["wins"]["A"],
                      "juegos": j["episodes"], "net_chinas_per_mano": report["chinas_per_mano"]["net_A"],
                      "senas_per_mano": report["senas"]["A"]["all"]["per_mano"], "names": report["names"]}
    p1, p2 = out["full"]["win_rate"], out["ablated"]["win_rate"]
    n1, n2 = out["full"]["juegos"], out["ablated"]["juegos"]
    se = float(np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2))
    out["difference"] = {"win_rate": p1 - p2, "normal95": [p1 - p2 - 1.96 * se, p1 - p2 + 1.96 * se]}
    return out
