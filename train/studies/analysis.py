"""Did a team agent learn *señas* (partner signals) and *falsos* (bluffs)? Measurements on self-play.

Every measurement takes any policy object with ``act_batch(obs, mask)`` (or ``act``) and, when
it has one, ``action_probs(obs, mask)`` (``agents.base``): the bots by name (``random``,
``heuristic``, ``heuristic_sin_senas``) or a PPO checkpoint (``agents.registry.load_policy``).
Play is self-play on a ``VectorEnv`` (``episode="mano"``): the policy holds every seat; ``seed``
seeds the deals and the resampling, the policy's own randomness is its own (seed it when you load
it). Same policy seed and same ``seed``: the same numbers. The referee reads the table state before
each decision (``layout`` fields: ``HAND``, ``HAND_PLAYED``, ``PARES_VAL``, ``FLOR_VAL``) and, for
the outcome of bets, a copy stepped with the same action (as ``train.eval.duplicate`` does).

**1. Who signals what** — ``collect_senas``. One record per decision at which the player to act
could make a seña (a seña action was legal): the seña he made (``0..10``, ``SENA_NAMES``) or
``NO_SENA`` (11, "ninguna") when he did something else, and his hand at that moment (the three
dealt cards, which of them are unplayed, valor de pares and de flor).

**2. Do señas carry information about the hand?** — ``senas_mutual_information``. The mutual
information, in bits, between the symbol ``S`` (the seña made, or "ninguna", 12 symbols) and a
hand feature ``H`` over those decisions::

    I(S; H) = H(S) + H(H) - H(S, H),    H(X) = -sum_x p(x) log2 p(x)

with the plug-in (empirical) probabilities and the **Miller–Madow** bias correction: each entropy
gets ``(m - 1) / (2 N ln 2)`` bits added, ``m`` the number of cells seen, ``N`` the decisions (the
plug-in MI of independent variables is biased upwards by about ``(|S|-1)(|H|-1) / (2 N ln 2)``;
the corrected estimate may come out slightly below 0). 95% CI: **basic (pivotal) bootstrap**
resampling whole manos (decisions within a mano are not independent): with ``T`` the estimate,
``T*`` its value on a resample and ``P`` the plug-in MI of the data (the MI of the distribution
the resamples come from), the interval is ``[T - q97.5(T* - P), T - q2.5(T* - P)]``; it may reach
below 0. (A plain percentile interval would inherit the plug-in bias twice and exclude a true 0.)
Hand features:

* ``honest:<seña>`` (11 binary features): "that seña would be honest for this hand", the
  evaluator's definition (``train.eval.duplicate``): a card seña (perro, perra, cascabel, espada, basto,
  mata de espadas, mata de oros) if that card is unplayed in the hand; ``tres`` / ``dos`` if an
  unplayed three / two; ``flor`` if the hand has flor; ``ciega`` if none of the cards the other
  señas name is unplayed.
* ``hand_class`` (11 classes, the joint feature): the first seña, in ``SENA_NAMES`` order, that
  is honest for the hand: its best card as the señas name it, else flor, else ciega. (The
  heuristic bot signals exactly this class of its dealt hand, so for it ``among_senas_made``
  below equals the entropy of its señas; a learned code may use another mapping of hands to
  señas, which the MI detects all the same: it does not care which seña means what.)
* ``pares_bin`` (5 classes): the valor de pares bin of the bets below (a code about pares).

``among_senas_made`` repeats ``hand_class`` over the señas actually made ("which seña", without
"whether"), and ``honesty`` gives the share of honest señas per seña (Wilson CI; a *falso* seña
is a dishonest one).

**3. Do partners listen?** — ``causal_influence`` (social influence, Jaques et al. 2019). At
every decision of a player whose observation shows a teammate's seña (``senas_seen`` row of a
partner, relative seat 2, 4, 6) and who has at least two legal actions, for that teammate: the
player's action distribution ``p = π(·|o)`` and the counterfactual ones ``p_k = π(·|o_k)``, where
``o_k`` is ``o`` with that teammate's ``senas_seen`` row replaced by one seña ``k`` (11 options) or
by none (1 option). The marginal ``q`` is the mean of the ``p_k`` over these 12 alternatives (the
actual one is among them, so ``q >= p / 12``: Jaques's marginal with a uniform prior over the
teammate's alternatives). Reported: mean ``KL(p || q)`` in bits (at most log2 12 = 3.58), mean
total variation ``TV(p, q) = 1/2 sum |p - q|``, the share of units where some alternative changes
``p``, with bootstrap CIs over manos. A policy that ignores partners' señas scores exactly 0.
Policies without ``action_probs`` (the heuristic) count as the one-hot of their action, and their
internal randomness is held fixed across the alternatives of a unit (each alternative is asked of
a copy of the policy in the same state: common random numbers), so only the seña makes a
difference. ``max_decisions`` caps the units (a seeded subsample) since each costs 12 calls.

**4. What are señas worth?** — ``SenasAblated(policy)`` is the policy with its señas channel
cut: it never makes a seña while another action is legal (the seña actions are removed from its
mask, i.e. its distribution is renormalised over the rest) and the ``senas_seen`` rows of every
other seat are zeroed in what it sees. ``senas_ablation`` plays a duplicate-deal match
(``train.eval.duplicate.play_match``) of the full policy (side A) against its ablated self (side B)
and returns A's win rate over juegos with Wilson and paired-bootstrap CIs.

**5. Does it bluff?** — ``bet_frequencies``. Over decisions with the cards seen where the bet
was legal (a seña decision is not counted: the seña does not pass the turn), how often the player

* *bets pares* (``envío N pares`` / ``envío la falta`` opening or revoking the envite de pares),
  by the valor de pares of his hand (Art. 5; values 0..61), bins ``<20`` (no pareja: the
  evaluator's *weak* pares), ``20-24``, ``25-29``, ``30-34``, ``35+``;
* *challenges the truque* (``truco`` / ``retruco`` / ``panueve``, the evaluator's challenge), by
  hand strength: ``débil`` (no unplayed card of truque power >= the treses and no baza won by his
  team: the evaluator's *weak* truco), ``sin tres, baza ganada`` (no such card but a baza won),
  then by his best unplayed card: ``tres``, ``mata`` (espada, basto, mata de espadas, mata de
  oros), ``pieza`` (perro, perra, cascabel).

and, per bin, the share of bets *won without a showdown* (the bet was the last raise of its
exchange and the rivals answered ``no quiero``), as ``train.eval.duplicate`` defines it. Rates carry
Wilson 95% CIs. The ``weak`` section of ``BetFrequencies.to_dict()`` gives the evaluator's
numbers (bin 0 against the rest: ``bet_when_weak``, ``bet_when_strong``,
``weak_won_without_showdown``, ...). ``plot_bet_frequencies`` draws the bet rates by bin, one
line per policy.

Run it (``--juegos N`` adds the ablation match; ``--compare`` adds policies to the plot)::

    python -m train.studies.analysis --policy heuristic --team-size 3 --manos 2000 --out results.json \\
        --plot bets.png --compare random
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.base import act_batch, action_probs
from train.eval.duplicate import _jsonable, _rate, play_match, wilson
from train.eval.styles.moteno import NO_CARD, POWER_OF, POWER_TRES, SENA_CIEGA, SENA_FLOR, SIGNAL
from truque_env.io import atomic_output, write_json_atomic
from truque_env.settings import MatchSettings
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import batch as B
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import CASCABEL, MATA_OROS, TRUQUE_POWER
from truque_env.vector import VectorEnv

LN2 = math.log(2.0)
NO_SENA = A.NUM_SENAS  # the symbol "no seña made" at a decision where one was legal
SYMBOLS = (*A.SENA_NAMES, "ninguna")
PARES_EDGES = (20, 25, 30, 35)
PARES_BINS = ("<20", "20-24", "25-29", "30-34", "35+")
TRUCO_BINS = ("débil", "sin tres, baza ganada", "tres", "mata", "pieza")
POWER_MATA = int(TRUQUE_POWER[MATA_OROS])  # 11: the weakest mata (matas: 11..14)
POWER_PIEZA = int(TRUQUE_POWER[CASCABEL])  # 15: the weakest pieza (piezas: 15..17)
SENAS_WIDTH = 8 * A.NUM_SENAS  # the senas_seen slice: 8 relative seats x 11 señas
PARTNER_ROWS = (2, 4, 6)  # relative seats of partners in the observation


# --------------------------------------------------------------------------------------------
# input checks and self-play


def _check_policy(policy) -> None:
    if not (hasattr(policy, "act_batch") or hasattr(policy, "act")):
        raise ValueError(f"a policy needs act_batch(obs, mask) or act(obs, mask); got {type(policy).__name__}")


def _check_positive(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _check_table(team_size, p_intercept, senas_per_mano=1) -> MatchSettings:
    """The table configuration, checked before any play (the engine's own messages)."""
    return MatchSettings("moteno", team_size, 30, 3, senas_per_mano, p_intercept)


@dataclass
class _Step:
    """One decision on each table still playing (rows of the batch), as the referee sees it."""

    table: np.ndarray  # table index
    mano: np.ndarray  # global mano id 0..manos-1 (the bootstrap's cluster)
    obs: np.ndarray  # (k, OBS_SIZE) int8, what the player to act saw
    mask: np.ndarray  # (k, NUM_ACTIONS) uint8
    seat: np.ndarray  # (k,) int64
    action: np.ndarray  # (k,) int64, what he did
    s0: np.ndarray  # (k, STATE_SIZE) the table state before the action
    s1: np.ndarray  # ... after it (the mano not yet re-dealt)


def _self_play(policy, *, team_size: int, manos: int, p_intercept: float, seed: int,
               num_envs: int, senas_per_mano: int = 1) -> Iterator[_Step]:
    """Self-play of ``policy`` at every seat until exactly ``manos`` manos were played.

    Each table plays its share of the manos (a juego goes on across them); a table that has
    played its share keeps stepping with filler moves that are neither shown to the policy nor
    yielded, so the same seed gives the same manos whatever the speed of the policy.
    """
    _check_policy(policy)
    manos = _check_positive("manos", manos)
    num_envs = _check_positive("num_envs", num_envs)
    settings = _check_table(team_size, p_intercept, senas_per_mano)  # the analysis is of Moteño's play
    n_tables = min(num_envs, manos)
    env = VectorEnv(n_tables, settings=settings, episode="mano", seed=seed)
    env.reset()
    quota = np.full(n_tables, manos // n_tables, dtype=np.int64)
    quota[: manos % n_tables] += 1
    first_id = np.concatenate([[0], np.cumsum(quota)[:-1]])
    played = np.zeros(n_tables, dtype=np.int64)
    while True:
        rows = np.flatnonzero(played < quota)
        if rows.size == 0:
            return
        actions = env.mask.argmax(axis=1).astype(np.int64)  # filler for finished tables
        actions[rows] = act_batch(policy, env.obs[rows], env.mask[rows])
        step = _Step(table=rows, mano=first_id[rows] + played[rows], obs=env.obs[rows], mask=env.mask[rows],
                     seat=env.seat[rows].copy(), action=actions[rows], s0=env.states[rows].copy(), s1=None)
        env.step(actions)  # raises on an illegal action, naming it
        step.s1 = step.s0.copy()
        B.step_unchecked_tables(step.s1, step.action)
        played[rows] += env.terminated[rows]
        yield step


def _held_cards(s: np.ndarray, seat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dealt cards (k, 3), unplayed (k, 3) bool) of ``seat`` in each state row."""
    rows = np.arange(len(seat))[:, None]
    slots = np.arange(3)
    cards = s[rows, L.HAND + 3 * seat[:, None] + slots].astype(np.int64)
    unplayed = ((s[rows[:, 0], L.HAND_PLAYED + seat].astype(np.int64)[:, None] >> slots) & 1) == 0
    return cards, unplayed


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


def pares_bin(pares: np.ndarray) -> np.ndarray:
    """Bin index of a valor de pares: ``<20``, ``20-24``, ``25-29``, ``30-34``, ``35+``."""
    return np.digitize(np.asarray(pares), PARES_EDGES).astype(np.int64)


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

    See the module docstring (section 2) for the definitions; every entry has ``mi_bits``, the
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
    """Social influence of a teammate's seña on a player's action distribution (module docstring, 3)."""
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


# --------------------------------------------------------------------------------------------
# 4. the señas channel cut


class SenasAblated:
    """``policy`` with its señas channel cut (module docstring, 4): it neither makes nor reads señas."""

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


# --------------------------------------------------------------------------------------------
# 5. bets by hand strength


def truco_bin(held: np.ndarray, won_baza: np.ndarray) -> np.ndarray:
    """Strength bin of each hand for the truque (``TRUCO_BINS``); ``held`` (k, 3), NO_CARD = played."""
    best = POWER_OF[held].max(axis=1)
    return np.select([(best < POWER_TRES) & ~won_baza, best < POWER_TRES, best < POWER_MATA, best < POWER_PIEZA],
                     [0, 1, 2, 3], 4).astype(np.int64)


@dataclass
class BetFrequencies:
    """Counts per strength bin (``[kind, bin]``, kind 0 = pares, 1 = truco), see ``bet_frequencies``."""

    chances: np.ndarray  # decisions with the cards seen where the bet was legal
    bets: np.ndarray  # ... where the player bet
    refused: np.ndarray  # bets won without a showdown (the rivals said no quiero)
    manos: int
    team_size: int
    bins: tuple = (PARES_BINS, TRUCO_BINS)

    def to_dict(self) -> dict:
        out = {"manos": self.manos, "team_size": self.team_size}
        for kind, name in enumerate(("pares", "truco")):
            rows = []
            for b, label in enumerate(self.bins[kind]):
                rows.append({"bin": label, "chances": int(self.chances[kind, b]),
                             "bet": _rate(self.bets[kind, b], self.chances[kind, b]),
                             "won_without_showdown": _rate(self.refused[kind, b], self.bets[kind, b])})
            bets = self.bets[kind]
            out[name] = {
                "by_bin": rows,
                "bets": int(bets.sum()),
                "bets_per_mano": float(bets.sum()) / self.manos if self.manos else None,
                # the evaluator's weak hands are bin 0 (weak pares < 20; weak truco: débil)
                "weak": {"bet_when_weak": _rate(bets[0], self.chances[kind, 0]),
                         "bet_when_strong": _rate(bets[1:].sum(), self.chances[kind, 1:].sum()),
                         "weak_share_of_bets": _rate(bets[0], bets.sum()),
                         "weak_won_without_showdown": _rate(self.refused[kind, 0], bets[0]),
                         "strong_won_without_showdown": _rate(self.refused[kind, 1:].sum(), bets[1:].sum())},
            }
        return out


def bet_frequencies(policy, team_size: int = 3, manos: int = 2000, p_intercept: float = 0.1, seed: int = 0,
                    num_envs: int = 64) -> BetFrequencies:
    """How often ``policy`` bets pares and challenges the truque, by hand strength (module docstring, 5).

    The bet, chance and refusal rules are ``train.eval.styles.moteno.StyleStats.observe``'s, binned finer.
    """
    nb = (len(PARES_BINS), len(TRUCO_BINS))
    chances = np.zeros((2, max(nb)), dtype=np.int64)
    bets = np.zeros_like(chances)
    refused = np.zeros_like(chances)
    pend_seat = pend_bin = None  # the last bet of each kind in each table's running mano
    for st in _self_play(policy, team_size=team_size, manos=manos, p_intercept=p_intercept, seed=seed,
                         num_envs=num_envs):
        if pend_seat is None:
            n_tables = int(st.table.max()) + 1  # the first step has every table
            pend_seat = np.full((n_tables, 2), -1, dtype=np.int64)
            pend_bin = np.zeros((n_tables, 2), dtype=np.int64)
        S0, S1, a, p, t, m = st.s0.astype(np.int64), st.s1.astype(np.int64), st.action, st.seat, st.table, st.mask
        rows = np.arange(a.size)
        ph, exk = S0[:, L.PHASE], S0[:, L.EX_KIND]
        seen = S0[:, L.CARDS_SEEN] == 1
        cards, unplayed = _held_cards(S0, p)
        held = np.where(unplayed, cards, NO_CARD)
        team = p % 2
        won_baza = (S0[:, L.BAZA_WIN_TEAM : L.BAZA_WIN_TEAM + 3] == team[:, None]).any(axis=1)
        strength = np.stack([pares_bin(S0[rows, L.PARES_VAL + p]), truco_bin(held, won_baza)], axis=1)
        pares_word = ((a >= A.PARES_BASE) & (a < A.FLORES_BASE)) | (a == A.FALTA)
        pares_ctx = (ph == L.PH_PLAY) | (ph == L.PH_BLIND) | ((ph == L.PH_ANSWER) & (exk == L.EX_PARES))
        is_bet = np.stack([pares_word & pares_ctx & seen, (a >= A.TRUCO) & (a <= A.PANUEVE) & seen], axis=1)
        can = np.stack([m[:, A.PARES_BASE : A.FLORES_BASE].any(axis=1) | (m[:, A.FALTA] == 1),
                        m[:, A.TRUCO : A.PANUEVE + 1].any(axis=1)], axis=1)
        chance = can & (seen & (a < A.SENA_BASE))[:, None]  # a seña does not pass the turn
        chance[:, 0] &= pares_ctx
        for kind in (0, 1):
            np.add.at(chances[kind], strength[chance[:, kind], kind], 1)
            r = np.flatnonzero(is_bet[:, kind])
            np.add.at(bets[kind], strength[r, kind], 1)
            pend_seat[t[r], kind] = p[r]  # a later raise supersedes the pending bet
            pend_bin[t[r], kind] = strength[r, kind]
        # the mano is over: were the last bets refused (won without a showdown)?
        r = np.flatnonzero(S1[:, L.PHASE] == L.PH_DONE)
        for kind, stf, raiser in ((0, L.PARES_ST, L.PARES_RAISER), (1, L.TRUCO_ST, L.TRUCO_RAISER)):
            ps = pend_seat[t[r], kind]
            won = (ps >= 0) & (S1[r, stf] == L.BET_REFUSED) & (S1[r, raiser] == ps)
            np.add.at(refused[kind], pend_bin[t[r[won]], kind], 1)
            pend_seat[t[r], kind] = -1
    return BetFrequencies(chances=chances, bets=bets, refused=refused, manos=manos, team_size=team_size)


# --------------------------------------------------------------------------------------------
# 6. the plot


def _bet_rows(result) -> tuple[list, list]:
    """Per kind: (labels, [(bets, chances), ...]) from a BetFrequencies or its ``to_dict()``."""
    d = result.to_dict() if isinstance(result, BetFrequencies) else result
    out = []
    for kind in ("pares", "truco"):
        if kind not in d or "by_bin" not in d[kind]:
            raise ValueError(f"a bet-frequency result needs '{kind}.by_bin' (BetFrequencies.to_dict())")
        rows = d[kind]["by_bin"]
        out.append(([r["bin"] for r in rows], [(r["bet"]["count"], r["bet"]["of"]) for r in rows]))
    return out


def plot_bet_frequencies(results_by_policy: dict, path) -> Path:
    """A PNG with two panels (pares, truco): bet rate by strength bin, one line per policy, Wilson CIs.

    ``results_by_policy``: ``{"ppo": BetFrequencies, "heuristic": ...}`` (or their ``to_dict()``).
    Written atomically (a temporary file, then ``os.replace``).
    """
    if not results_by_policy:
        raise ValueError("results_by_policy is empty: give at least one policy's bet frequencies")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.2))
    FigureCanvasAgg(fig)  # the Agg backend, without touching pyplot's global state
    axes = fig.subplots(1, 2)
    titles = ("envite de pares, by valor de pares", "truco, by hand strength")
    n_pol = len(results_by_policy)
    for name_i, (name, result) in enumerate(results_by_policy.items()):
        for kind, (labels, counts) in enumerate(_bet_rows(result)):
            x = np.arange(len(labels)) + (name_i - (n_pol - 1) / 2) * 0.08  # separate the error bars
            rate = np.array([k / n if n else np.nan for k, n in counts])
            lo = np.array([rate[i] - (wilson(k, n) or (np.nan, np.nan))[0] for i, (k, n) in enumerate(counts)])
            hi = np.array([(wilson(k, n) or (np.nan, np.nan))[1] - rate[i] for i, (k, n) in enumerate(counts)])
            ax = axes[kind]
            ax.errorbar(x, rate, yerr=np.vstack([lo, hi]), marker="o", capsize=3, label=str(name))
            ax.set_xticks(np.arange(len(labels)))
            ax.set_xticklabels(labels, rotation=15)
    for ax, title in zip(axes, titles, strict=True):
        ax.set_title(title)
        ax.set_ylabel("bet rate when legal (95% Wilson CI)")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    path = Path(path)
    with atomic_output(path, suffix=".tmp.png") as tmp:
        fig.savefig(tmp, dpi=110, format="png")
    return path


# --------------------------------------------------------------------------------------------
# 7. the command line


@dataclass
class AnalysisConfig:
    """Señas and falsos of a policy in self-play: MI, causal influence, bet frequencies (and ablation)."""

    policy: str = "heuristic"
    """a policy name (agents.registry: random, heuristic, heuristic_sin_senas) or a checkpoint path"""
    team_size: int = 3
    """players per team (1..4)"""
    manos: int = 2000
    """manos of self-play for each measurement"""
    influence_decisions: int = 3000
    """at most this many decisions in the causal influence (each costs 12 policy calls)"""
    juegos: int = 0
    """juegos of the ablation match (full against señas cut); 0: skip it"""
    ablation_opponent: str | None = None
    """with juegos: also what the señas are worth against this player (e.g. heuristic): the policy
    with and without its señas, each against it on the same deals"""
    p_intercept: float = 0.1
    """probability that a rival intercepts a seña"""
    num_envs: int = 64
    """tables played at once"""
    seed: int = 0
    """seeds the deals, the policy and the bootstrap"""
    bootstrap: int = 1000
    """bootstrap resamples of the CIs"""
    out: Path = Path("runs/analysis/results.json")
    """the results as JSON (written atomically)"""
    plot: Path | None = None
    """a PNG of the bet frequencies by hand strength (optional)"""
    compare: tuple[str, ...] = ()
    """more policies whose bet frequencies are measured and drawn on the plot"""


def run(cfg: AnalysisConfig) -> dict:
    from agents.registry import load_policy

    _check_table(cfg.team_size, cfg.p_intercept)
    for name in ("manos", "num_envs", "influence_decisions"):
        _check_positive(name, getattr(cfg, name))
    if cfg.juegos < 0:
        raise ValueError(f"juegos must be >= 0, got {cfg.juegos!r}")

    def fresh(name: str):  # each measurement starts from the seeded policy: reproducible alone
        return load_policy(name, seed=cfg.seed)

    fresh(cfg.policy)  # an unknown name fails here, before any play
    for name in (*cfg.compare, *([cfg.ablation_opponent] if cfg.ablation_opponent else [])):
        fresh(name)
    if cfg.ablation_opponent and not cfg.juegos:
        raise ValueError("ablation_opponent needs juegos > 0 (the juegos of each match)")
    common = {"team_size": cfg.team_size, "p_intercept": cfg.p_intercept, "seed": cfg.seed, "num_envs": cfg.num_envs}
    records = collect_senas(fresh(cfg.policy), manos=cfg.manos, **common)
    results: dict = {"config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(cfg).items()}}
    results["senas_mutual_information"] = senas_mutual_information(records, bootstrap=cfg.bootstrap, seed=cfg.seed)
    results["causal_influence"] = causal_influence(fresh(cfg.policy), manos=cfg.manos,
                                                   max_decisions=cfg.influence_decisions,
                                                   bootstrap=cfg.bootstrap, **common)
    bets = {cfg.policy: bet_frequencies(fresh(cfg.policy), manos=cfg.manos, **common)}
    for name in cfg.compare:
        bets[name] = bet_frequencies(fresh(name), manos=cfg.manos, **common)
    results["bet_frequencies"] = {name: b.to_dict() for name, b in bets.items()}
    if cfg.juegos:
        results["senas_ablation"] = senas_ablation(fresh(cfg.policy), juegos=cfg.juegos, bootstrap=cfg.bootstrap,
                                                   **common)
    if cfg.juegos and cfg.ablation_opponent:
        results["senas_ablation_against"] = {
            "opponent": cfg.ablation_opponent,
            **senas_ablation_against(lambda seed: load_policy(cfg.policy, seed=seed),
                                     lambda seed: load_policy(cfg.ablation_opponent, seed=seed),
                                     juegos=cfg.juegos, bootstrap=cfg.bootstrap, **common)}
    results["definitions"] = DEFINITIONS
    results = _jsonable(results)
    write_json_atomic(cfg.out, results)
    if cfg.plot is not None:
        plot_bet_frequencies(bets, cfg.plot)
    return results


DEFINITIONS = {
    "senas_mutual_information": "I(S; H) in bits between the symbol S (the seña made, or 'ninguna', at each "
                                "decision where a seña was legal) and a hand feature H; plug-in with the "
                                "Miller-Madow correction; bootstrap95: basic (pivotal) bootstrap resampling manos, "
                                "T - quantiles of (T* - plug-in MI)",
    "hand features": "honest:<seña>: that seña is honest for the hand (train.eval.duplicate's rule, unplayed cards); "
                     "hand_class: the first seña in SENA_NAMES order honest for the hand; pares_bin: "
                     + ", ".join(PARES_BINS),
    "causal_influence": "units: a decision (>= 2 legal actions) of a player who sees a teammate's seña; p: his "
                        "action distribution, q: the mean of his distributions with that teammate's senas_seen "
                        "row set to each of the 11 señas and to none; kl_bits = KL(p || q) in bits, tv = TV(p, q); "
                        "changed_share: some alternative changes p. Bootstrap over manos",
    "bet_frequencies": "bet rate = bets / decisions with the cards seen where the bet was legal (señas aside). "
                       "pares: envío N pares / envío la falta, by valor de pares " + ", ".join(PARES_BINS)
                       + "; truco: truco / retruco / panueve, by strength: débil (no unplayed card >= tres and "
                         "no baza won), sin tres con baza ganada, best unplayed tres, mata, pieza. "
                         "won_without_showdown: the bet was the last raise and the rivals said no quiero. Wilson CIs",
    "senas_ablation": "duplicate-deal juegos of the policy (A) against itself with the señas channel cut (B: no "
                      "seña while another action is legal; other seats' senas_seen zeroed)",
    "senas_ablation_against": "two duplicate matches against the opponent on the same deals: the policy, and the "
                              "policy with its señas channel cut at every seat of its team; difference of the win "
                              "rates with a normal 95% interval (the matches taken as independent)",
}


def _print_summary(results: dict) -> None:
    from rich import print as rprint

    mi = results["senas_mutual_information"]
    hc = mi["features"]["hand_class"]
    ci = results["causal_influence"]
    rprint(f"[bold]señas[/]: {mi['senas_made']} made at {mi['decisions']} decisions; "
           f"I(seña; hand_class) = {hc['mi_bits']} bits {hc['bootstrap95']}")
    rprint(f"[bold]causal influence[/]: {ci['units']} units, KL {ci['kl_bits']['mean']} bits "
           f"{ci['kl_bits']['bootstrap95']}, TV {ci['tv']['mean']}")
    for name, b in results["bet_frequencies"].items():
        for kind in ("pares", "truco"):
            rates = ", ".join(f"{r['bin']}: {r['bet']['rate']:.3f}" if r["bet"]["rate"] is not None else f"{r['bin']}: –"
                              for r in b[kind]["by_bin"])
            rprint(f"[bold]{name} bets {kind}[/] {rates}")
    if "senas_ablation" in results:
        ab = results["senas_ablation"]
        rprint(f"[bold]ablation[/]: full wins {ab['win_rate_full']} of {ab['juegos']} juegos {ab['wilson95']}")


def main(argv=None) -> dict:
    import tyro

    cfg = tyro.cli(AnalysisConfig, args=argv)
    results = run(cfg)
    _print_summary(results)
    from rich import print as rprint

    rprint(f"results written to {cfg.out}" + (f", plot to {cfg.plot}" if cfg.plot else ""))
    return results


if __name__ == "__main__":
    main()
