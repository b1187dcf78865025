"""Do partners listen? The causal influence of a teammate's seña (``causal_influence``):
measurement 3 of ``train.studies.analysis``."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from agents.base import act_batch, action_probs
from train.studies.analysis.selfplay import (
    LN2,
    PARTNER_ROWS,
    SENAS_WIDTH,
    _check_positive,
    _self_play,
)
from train.studies.analysis.senas import _cluster_weights
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O

# --------------------------------------------------------------------------------------------
# 3. causal influence of a teammate's seña


def _variants(obs: np.ndarray, row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 12 alternatives of each observation (U, 12, OBS) and which one is the actual (or -1).

    Alternative ``k < 11``: relative seat ``row[u]``'s ``senas_seen`` row is one seña ``k``;
    alternative 11: that row is zero (no seña).
    """
    u = obs.shape[0]
    nv = A.NUM_SENAS + 1
    out = np.repeat(obs[:, None, :], nv, axis=1)
    start = O.O_SENAS + row * A.NUM_SENAS  # (U,)
    cols = start[:, None] + np.arange(A.NUM_SENAS)  # (U, 11)
    alt = np.zeros((nv, A.NUM_SENAS), dtype=np.int8)
    alt[np.arange(A.NUM_SENAS), np.arange(A.NUM_SENAS)] = 1
    out[np.arange(u)[:, None, None], np.arange(nv)[None, :, None], cols[:, None, :]] = alt[None]
    actual_row = obs[np.arange(u)[:, None], cols]  # (U, 11)
    match = (actual_row[:, None, :] == alt[None]).all(axis=2)  # (U, 12)
    actual = np.where(match.any(axis=1), match.argmax(axis=1), -1)
    return out, actual


def _probs_common_randomness(policy, obs: np.ndarray, masks: np.ndarray, chunk: int = 4096) -> np.ndarray:
    """Action distributions of ``obs`` (U, V, OBS) sharing ``masks`` (U, A) -> (U, V, A).

    With ``action_probs`` (a function of the observation) all rows go in chunks. Without it the
    distribution is the one-hot of ``act``, and every alternative of a unit is asked of a copy of
    the policy in one state, so its internal randomness (a simulation's seed) is the same for all;
    the stream then moves on for the next unit. The policy passed in is left untouched.
    """
    u, v, _ = obs.shape
    out = np.zeros((u, v, masks.shape[1]), dtype=np.float64)
    if hasattr(policy, "action_probs"):
        flat_obs = obs.reshape(u * v, -1)
        flat_mask = np.repeat(masks, v, axis=0)
        flat = out.reshape(u * v, -1)
        for i in range(0, u * v, chunk):
            flat[i : i + chunk] = action_probs(policy, flat_obs[i : i + chunk], flat_mask[i : i + chunk])
        return out / out.sum(axis=2, keepdims=True)  # float32 softmaxes do not sum to 1 exactly
    stream = copy.deepcopy(policy)
    for i in range(u):
        for k in range(v):
            p = copy.deepcopy(stream) if k < v - 1 else stream
            a = int(act_batch(p, obs[i, k][None], masks[i][None])[0])
            out[i, k, a] = 1.0
    return out


def _kl_bits(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """KL(p || q) in bits per row (q > 0 wherever p > 0 here: q is a mean that includes p)."""
    pos = p > 0
    ratio = np.where(pos, p / np.where(q > 0, q, 1.0), 1.0)
    kl = np.where(pos, p * np.log(ratio), 0.0).sum(axis=-1) / LN2
    return np.maximum(kl, 0.0)  # KL >= 0; p close to q can round to -1e-17


def _cluster_mean(values: np.ndarray, clusters: np.ndarray, reps: int, rng) -> dict:
    """Mean of per-unit values and a percentile bootstrap 95% CI resampling clusters (manos)."""
    n = values.size
    if n == 0:
        return {"mean": None, "bootstrap95": None}
    cidx, w = _cluster_weights(clusters, reps, rng)
    out = {"mean": float(values.mean()), "bootstrap95": None}
    if w.shape[0] and w.shape[1] > 1:
        sums = np.bincount(cidx, weights=values, minlength=w.shape[1])
        counts = np.bincount(cidx, minlength=w.shape[1]).astype(np.float64)
        den = w @ counts
        boot = (w @ sums) / np.where(den > 0, den, np.nan)
        lo, hi = np.nanquantile(boot, [0.025, 0.975])
        out["bootstrap95"] = (float(lo), float(hi))
    return out


@dataclass(frozen=True)
class InfluenceUnits:
    """The per-unit numbers behind ``causal_influence`` (one unit: a decision and a teammate)."""

    kl_bits: np.ndarray
    tv: np.ndarray
    changed: np.ndarray  # bool: some alternative changes the distribution
    mano: np.ndarray
    partner: np.ndarray  # relative seat of the teammate whose seña is varied
    sena: np.ndarray  # the seña he made (the actual alternative; -1 if several)


def influence_units(policy, team_size: int = 3, manos: int = 500, p_intercept: float = 0.1, seed: int = 0,
                    max_decisions: int | None = 3000, num_envs: int = 64) -> InfluenceUnits:
    """Collect the units of ``causal_influence`` by self-play and measure each one."""
    if max_decisions is not None:
        _check_positive("max_decisions", max_decisions)
    obs_l, mask_l, row_l, mano_l = [], [], [], []
    for st in _self_play(policy, team_size=team_size, manos=manos, p_intercept=p_intercept, seed=seed,
                         num_envs=num_envs):
        seen = st.obs[:, O.O_SENAS : O.O_SENAS + SENAS_WIDTH].reshape(-1, 8, A.NUM_SENAS)
        choice = (st.mask > 0).sum(axis=1) >= 2  # with one legal action nothing can be influenced
        for r in PARTNER_ROWS[: team_size - 1]:
            i = np.flatnonzero(choice & (seen[:, r].sum(axis=1) > 0))
            if i.size:
                obs_l.append(st.obs[i])
                mask_l.append(st.mask[i])
                row_l.append(np.full(i.size, r, dtype=np.int64))
                mano_l.append(st.mano[i])
    if not obs_l:
        z = np.zeros(0)
        return InfluenceUnits(z, z, z.astype(bool), z.astype(np.int64), z.astype(np.int64), z.astype(np.int64))
    obs, masks = np.concatenate(obs_l), np.concatenate(mask_l)
    rows, mano = np.concatenate(row_l), np.concatenate(mano_l)
    if max_decisions is not None and obs.shape[0] > max_decisions:
        rng = np.random.default_rng([int(seed), 0x1F1])
        keep = np.sort(rng.choice(obs.shape[0], size=max_decisions, replace=False))
        obs, masks, rows, mano = obs[keep], masks[keep], rows[keep], mano[keep]
    variants, actual = _variants(obs, rows)
    extra = np.flatnonzero(actual < 0)  # several señas seen from that teammate: add the actual view
    if extra.size:
        variants = np.concatenate([variants, np.zeros_like(variants[:, :1])], axis=1)
        variants[:, -1] = obs
    probs = _probs_common_randomness(policy, variants, masks)
    nv = A.NUM_SENAS + 1
    u = np.arange(obs.shape[0])
    idx = np.where(actual >= 0, actual, nv)
    p = probs[u, idx]
    alts = probs[:, :nv]
    # the marginal over the alternatives; the actual view joins them when it is none of the 12
    q = np.where((actual >= 0)[:, None], alts.mean(axis=1),
                 (alts.sum(axis=1) + p) / (nv + 1))
    changed = (alts != p[:, None, :]).any(axis=(1, 2))
    q = np.where(changed[:, None], q, p)  # no rounding noise when the seña changes nothing
    kl = _kl_bits(p, q)
    tv = 0.5 * np.abs(p - q).sum(axis=1)
    return InfluenceUnits(kl, tv, changed, mano, rows, actual.astype(np.int64))


def causal_influence(policy, team_size: int = 3, manos: int = 500, p_intercept: float = 0.1, seed: int = 0,
                     max_decisions: int | None = 3000, bootstrap: int = 1000, num_envs: int = 64) -> dict:
    """Social influence of a teammate's seña on a player's action distribution (the package docstring, 3)."""
    units = influence_units(policy, team_size=team_size, manos=manos, p_intercept=p_intercept, seed=seed,
                            max_decisions=max_decisions, num_envs=num_envs)
    rng = np.random.default_rng([int(seed), 0xC0A5])
    by_sena = {}
    for k, name in enumerate(A.SENA_NAMES):
        sel = units.sena == k
        by_sena[name] = {"units": int(sel.sum()),
                         "kl_bits": float(units.kl_bits[sel].mean()) if sel.any() else None}
    return {
        "units": int(units.kl_bits.size),
        "manos": manos,
        "max_decisions": max_decisions,
        "kl_bits": _cluster_mean(units.kl_bits, units.mano, bootstrap, rng),
        "tv": _cluster_mean(units.tv, units.mano, bootstrap, rng),
        "changed_share": _cluster_mean(units.changed.astype(np.float64), units.mano, bootstrap, rng),
        "by_sena": by_sena,
        "bootstrap": bootstrap,
    }
