"""Who signals what (``collect_senas``) and the information señas carry about the hand
(``senas_mutual_information``): measurements 1 and 2 of ``train.studies.analysis``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from train.eval.duplicate import _rate
from train.eval.styles.moteno import NO_CARD, PARES_BINS, SENA_CIEGA, SENA_FLOR, SIGNAL, pares_bin
from train.studies.analysis.selfplay import (
    LN2,
    NO_SENA,
    SYMBOLS,
    _held_cards,
    _self_play,
)
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L

# --------------------------------------------------------------------------------------------
# 1. señas made


@dataclass(frozen=True)
class SenaRecords:
    """One row per decision at which a seña was legal (see ``collect_senas``)."""

    sena: np.ndarray  # int64: the seña made 0..10 (SENA_NAMES), NO_SENA (11) if none
    cards: np.ndarray  # (N, 3) int64: the signaller's three dealt cards
    unplayed: np.ndarray  # (N, 3) bool: which of them he still holds
    pares: np.ndarray  # int64: valor de pares of the dealt hand (Art. 5)
    flor: np.ndarray  # int64: valor de la flor, 0 without flor (Art. 9)
    seat: np.ndarray  # int64
    mano: np.ndarray  # int64: global mano id (the bootstrap's cluster)
    team_size: int
    manos: int

    def __len__(self) -> int:
        return int(self.sena.shape[0])

    @property
    def made(self) -> np.ndarray:
        """Mask of the records where a seña was made."""
        return self.sena != NO_SENA


def collect_senas(policy, team_size: int = 3, manos: int = 2000, p_intercept: float = 0.1, seed: int = 0,
                  num_envs: int = 64) -> SenaRecords:
    """Self-play ``manos`` manos; record every decision where a seña was legal, and what was done."""
    parts: dict[str, list] = {k: [] for k in ("sena", "cards", "unplayed", "pares", "flor", "seat", "mano")}
    for st in _self_play(policy, team_size=team_size, manos=manos, p_intercept=p_intercept, seed=seed,
                         num_envs=num_envs):
        r = np.flatnonzero(st.mask[:, A.SENA_BASE :].any(axis=1))
        if r.size == 0:
            continue
        a, seat, s0 = st.action[r], st.seat[r], st.s0[r]
        cards, unplayed = _held_cards(s0, seat)
        rows = np.arange(r.size)
        parts["sena"].append(np.where(a >= A.SENA_BASE, a - A.SENA_BASE, NO_SENA))
        parts["cards"].append(cards)
        parts["unplayed"].append(unplayed)
        parts["pares"].append(s0[rows, L.PARES_VAL + seat].astype(np.int64))
        parts["flor"].append(s0[rows, L.FLOR_VAL + seat].astype(np.int64))
        parts["seat"].append(seat)
        parts["mano"].append(st.mano[r])
    empty = {"sena": (0,), "cards": (0, 3), "unplayed": (0, 3), "pares": (0,), "flor": (0,), "seat": (0,),
             "mano": (0,)}
    out = {}
    for k, chunks in parts.items():
        if chunks:
            out[k] = np.concatenate(chunks)
        else:
            out[k] = np.zeros(empty[k], dtype=np.bool_ if k == "unplayed" else np.int64)
    return SenaRecords(**out, team_size=team_size, manos=manos)


def honest_conditions(records: SenaRecords) -> np.ndarray:
    """(N, 11) bool: would seña k be honest for the hand of record i (``train.eval.duplicate``'s rule)."""
    held = np.where(records.unplayed, records.cards, NO_CARD)
    hit = SIGNAL[:, held].any(axis=-1).T  # (N, 11): holds a card seña k names
    hit[:, SENA_CIEGA] = ~hit[:, SENA_CIEGA]  # SIGNAL's ciega row is every named card
    hit[:, SENA_FLOR] = records.flor > 0
    return hit


def hand_class(records: SenaRecords) -> np.ndarray:
    """The first seña (``SENA_NAMES`` order) honest for each hand; ciega when none of the others."""
    # always defined: when no card seña, tres or dos holds, ciega does
    return honest_conditions(records).argmax(axis=1).astype(np.int64)


# --------------------------------------------------------------------------------------------
# 2. mutual information


def _entropy_nats(counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Plug-in entropy of each row of ``counts`` (R, m) with totals ``n`` (R,)."""
    p = counts / np.maximum(n, 1e-300)[:, None]
    return -np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(axis=1)


def mutual_information_bits(joint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(plug-in, Miller–Madow) MI in bits of joint count tables ``(..., nx, ny)``."""
    joint = np.asarray(joint, dtype=np.float64)
    shape = joint.shape[:-2]
    j = joint.reshape(-1, *joint.shape[-2:])
    n = j.sum(axis=(1, 2))
    px, py, pxy = j.sum(axis=2), j.sum(axis=1), j.reshape(j.shape[0], -1)
    plugin = _entropy_nats(px, n) + _entropy_nats(py, n) - _entropy_nats(pxy, n)
    cells = (px > 0).sum(axis=1) - 1 + (py > 0).sum(axis=1) - 1 - ((pxy > 0).sum(axis=1) - 1)
    mm = plugin + cells / (2 * np.maximum(n, 1e-300))
    bad = n <= 0
    plugin, mm = np.where(bad, np.nan, plugin / LN2), np.where(bad, np.nan, mm / LN2)
    return plugin.reshape(shape), mm.reshape(shape)


def _cluster_weights(clusters: np.ndarray, reps: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(cluster index per record, bootstrap weights (reps, K)): K clusters drawn with replacement."""
    _, idx = np.unique(clusters, return_inverse=True)
    k = int(idx.max()) + 1 if idx.size else 0
    if k == 0 or reps < 1:
        return idx, np.zeros((0, k))
    w = rng.multinomial(k, np.full(k, 1.0 / k), size=reps).astype(np.float64)
    return idx, w


def _mi_section(x: np.ndarray, nx: int, y: np.ndarray, ny: int, cidx: np.ndarray, weights: np.ndarray) -> dict:
    """MI of symbols ``x`` and feature ``y``, with a cluster-bootstrap CI from ``weights``."""
    cells = x * ny + y
    joint = np.bincount(cells, minlength=nx * ny).reshape(nx, ny)
    plugin, mm = mutual_information_bits(joint)
    n = joint.sum()
    out = {"n": int(n), "mi_bits": _f(mm), "plugin_bits": _f(plugin), "bootstrap95": None,
           "feature_entropy_bits": _entropy_bits(joint.sum(axis=0))}
    if weights.shape[0] and n:
        k = weights.shape[1]
        per_cluster = np.zeros((k, nx * ny))
        np.add.at(per_cluster, (cidx, cells), 1.0)
        boot = (weights @ per_cluster).reshape(-1, nx, ny)
        _, mm_b = mutual_information_bits(boot)
        # basic (pivotal) bootstrap: the resamples are drawn from the empirical distribution,
        # whose MI is the plug-in value, so mm_b - plugin estimates the estimator's error (the
        # plain percentile interval would sit on the plug-in bias and miss a true 0)
        lo, hi = np.quantile(mm_b - plugin, [0.025, 0.975])
        out["bootstrap95"] = (float(mm - hi), float(mm - lo))
    return out


def _entropy_bits(counts: np.ndarray) -> float | None:
    """Plug-in entropy in bits of one vector of counts (None when empty)."""
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum()
    return float(_entropy_nats(counts[None], np.array([n]))[0] / LN2) if n > 0 else None


def _f(x) -> float | None:
    x = float(x)
    return x if math.isfinite(x) else None


def senas_mutual_information(records: SenaRecords, bootstrap: int = 1000, seed: int = 0) -> dict:
    """MI (bits, Miller–Madow) between the seña made (or "ninguna") and hand features.

    See the package docstring (section 2) for the definitions; every entry has ``mi_bits``, the
    plug-in estimate, a cluster-bootstrap 95% CI over manos and the feature's entropy (an upper
    bound of the MI).
    """
    if not isinstance(records, SenaRecords):
        raise ValueError(f"records must be the SenaRecords of collect_senas, got {type(records).__name__}")
    rng = np.random.default_rng([int(seed), 0x5E7A])
    s = records.sena
    honest = honest_conditions(records)
    cls = hand_class(records)
    cidx, w = _cluster_weights(records.mano, bootstrap, rng)
    ns = len(SYMBOLS)
    features = {"hand_class": _mi_section(s, ns, cls, A.NUM_SENAS, cidx, w),
                "pares_bin": _mi_section(s, ns, pares_bin(records.pares), len(PARES_BINS), cidx, w)}
    for k, name in enumerate(A.SENA_NAMES):
        features[f"honest:{name}"] = _mi_section(s, ns, honest[:, k].astype(np.int64), 2, cidx, w)
    made = records.made
    if made.any():
        # the same resampled manos, counting only the señas made
        among = _mi_section(s[made], ns, cls[made], A.NUM_SENAS, cidx[made], w)
    else:
        among = {"n": 0, "mi_bits": None, "plugin_bits": None, "bootstrap95": None, "feature_entropy_bits": None}
    honesty = {}
    truth = honest[np.arange(len(s))[made], s[made]] if made.any() else np.zeros(0, bool)
    for k, name in enumerate(A.SENA_NAMES):
        sel = s[made] == k
        honesty[name] = _rate(truth[sel].sum(), sel.sum())
    honesty["all"] = _rate(truth.sum(), truth.size)
    counts = np.bincount(s, minlength=ns)
    return {
        "decisions": len(records),
        "senas_made": int(made.sum()),
        "manos": records.manos,
        "symbol_counts": {name: int(c) for name, c in zip(SYMBOLS, counts, strict=True)},
        "symbol_entropy_bits": _entropy_bits(counts),
        "features": features,
        "among_senas_made": among,
        "honesty": honesty,
        "bootstrap": int(w.shape[0]),
    }
