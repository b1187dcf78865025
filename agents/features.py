"""The network's input: a tradition's observation as sparse features (the constants below are
Moteño's, ``truque_env.traditions.moteno.observation``; ``layout_for(tradition)`` gives any
registered tradition's: the same encoding of its raw entries and its history, and the hand
summary where the tradition has one: Moteño's ``DERIVED``, argentino's ``ARG_DERIVED``).

Two changes from the raw int8 vector, both fixed (nothing learned here):

* ``history`` (32 entries of relative seat + 1 and action id + 1) becomes one-hot: entry ``j``
  sets column ``HISTORY_BASE + 99 j + seat`` and ``HISTORY_BASE + 99 j + 8 + action``; an id is
  a name, not a magnitude.
* counts of chinas and stakes are scaled to about [0, 1] (``SCALE``): ``score`` and the target /
  la falta by 1/30, ``juegos`` by 1/2, stakes by 1/16 (pares) and 1/11 (flores), the sung valor
  de pares by 1/40, the highest stakes said in ``bets_by_seat`` by 1/16.

With ``hand_features`` (a network's setting, ``Agent(hand_features=True)``) a hand summary
follows: what the rules make of my cards, computed here so the network need not learn Arts. 2, 5
and 9 from 40 one-hot cards (``DERIVED`` below). It reads only the observation, so a dataset of
observations serves either network.

With ``juego_record`` (a network's setting too) the juego's public record follows, last: the
observation's ``juego_record`` slice (manos of the juego, each team's raises, acceptances,
refusals and leaves: ``truque_env.engine.record``) scaled by 1/16. Without it the features are
the ones of the networks trained before the record existed, which therefore load unchanged.
With ``record_rates`` as well (a third setting, off in every network trained before it) each of
those eight counts divided by the manos finished follows, scaled by 1/2: the rates a reader of
the rival compares (``agents.record_switch``'s sign reads the same), which a layer of ReLUs
would otherwise have to learn as a division. All zero in a juego's first mano.

Rows come out in CSR form for ``agents.sparse_linear``. (The centralised critic reads the hidden
hands, ``observe_hidden``, through a layer of its own: ``train.ppo.loop.Agent``.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit, prange

from agents.sparse_linear import build_csr
from truque_env.cards import CARD_SUIT
from truque_env.engine import header as H
from truque_env.traditions import get as get_tradition
from truque_env.traditions.argentino import observation as ARG_O
from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE
from truque_env.traditions.argentino.rules import POWER as ARG_POWER
from truque_env.traditions.argentino.rules import envido_value_nb as arg_envido_nb
from truque_env.traditions.argentino.rules import flor_value_nb as arg_flor_nb
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import (
    TRUQUE_POWER,
    flor_value_nb,
    is_reservada_nb,
    pares_value_nb,
)

HISTORY_START, (HISTORY_LEN, _) = O.SLICES["history"]
ENTRY_WIDTH = L.MAX_PLAYERS + A.NUM_ACTIONS
HISTORY_BASE = HISTORY_START  # the one-hot history replaces the raw one, from the same column
NUM_FEATURES = HISTORY_BASE + HISTORY_LEN * ENTRY_WIDTH

# The hand summary: binary columns from DERIVED_BASE on (all zero before my cards are seen).
DERIVED = (
    ("known", 1),  # my three cards are known
    ("pares", 31),  # valor de pares (Art. 5) >= 2, 4, .., 62: a thermometer, so nearby values share weights
    ("flor", 2),  # I hold flor (Art. 9), a flor reservada (9.2)
    ("flor_value", 24),  # valor de la flor >= 20, 23, .., 89
    ("power", 3 * 17),  # poder de truque (Art. 2) of my unplayed cards, strongest first, one-hot 1..17
    ("table", 17),  # the strongest poder de truque played in this baza, one-hot
    ("holder", 3),  # who holds it: my team, the rival team, both (parda so far)
    ("beat", 4),  # how many of my unplayed cards beat it: 0..3, one-hot
    ("tie", 4),  # how many tie it
)
DERIVED_BASE = NUM_FEATURES
DERIVED_START = {}
_k = DERIVED_BASE
for _name, _width in DERIVED:
    DERIVED_START[_name] = _k
    _k += _width
NUM_FEATURES_HAND = _k  # the width with the hand summary
D_KNOWN, D_PARES, D_FLOR, D_FLOR_VALUE, D_POWER, D_TABLE, D_HOLDER, D_BEAT, D_TIE = DERIVED_START.values()
MAX_DERIVED = 1 + 31 + 2 + 24 + 3 + 1 + 1 + 1 + 1  # nonzeros at most
O_HAND = O.SLICES["hand"][0]
O_PLAYED_BY = O.SLICES["played_by"][0]
O_PLAYED_IN = O.SLICES["played_in"][0]
O_BAZA = O.SLICES["baza"][0]


def num_features(hand_features: bool, tradition: str = "moteno", juego_record: bool = False,
                 record_rates: bool = False) -> int:
    return layout_for(tradition).width(hand_features, juego_record, record_rates)


def _scales() -> np.ndarray:
    s = np.ones(HISTORY_START, dtype=np.float32)
    start = lambda name: O.SLICES[name][0]  # noqa: E731
    part = lambda name: slice(*O.PARTS[name])  # noqa: E731
    s[start("score") : start("score") + 2] = 1 / 30
    s[O.PARTS["target_falta.target"][0] : O.PARTS["target_falta.falta"][1]] = 1 / 30
    s[start("juegos") : start("juegos") + 3] = 1 / 2
    s[part("pares.stake")] = s[part("pares.previous")] = 1 / 16
    s[part("flor.stake")] = s[part("flor.previous")] = 1 / 11
    s[start("cante") : start("cante") + L.MAX_PLAYERS] = 1 / 40
    row = O.BETS_ROW
    for r in range(L.MAX_PLAYERS):
        at = start("bets_by_seat") + row * r
        s[at + O.R_BETS_PARES : at + O.R_BETS_FLORES + 1] = 1 / 16  # the highest stakes said
    return s


SCALE = _scales()


@njit(cache=True)
def _sort3(a, b, c):
    """``a, b, c`` strongest first."""
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    return a, b, c


@njit(cache=True)
def _hand_summary(row, out):
    """The hand summary's nonzero columns (all ones) of one observation row into ``out``; how many."""
    # my three cards (unplayed or played) and the poder de truque of the unplayed ones
    d0 = d1 = d2 = -1
    nd = 0
    p0 = p1 = p2 = 0
    nm = 0
    for c in range(40):
        held = row[O_HAND + c] != 0
        if held or row[O_PLAYED_BY + c] != 0:
            if nd == 0:
                d0 = c
            elif nd == 1:
                d1 = c
            elif nd == 2:
                d2 = c
            nd += 1
        if held:
            if nm == 0:
                p0 = TRUQUE_POWER[c]
            elif nm == 1:
                p1 = TRUQUE_POWER[c]
            elif nm == 2:
                p2 = TRUQUE_POWER[c]
            nm += 1
    if nd != 3:
        return 0
    k = 0
    out[k] = D_KNOWN
    k += 1
    pares = pares_value_nb(d0, d1, d2)
    for t in range(31):
        if pares >= 2 * (t + 1):
            out[k] = D_PARES + t
            k += 1
    flor = flor_value_nb(d0, d1, d2)
    if flor > 0:
        out[k] = D_FLOR
        k += 1
        if is_reservada_nb(d0, d1, d2):
            out[k] = D_FLOR + 1
            k += 1
        for t in range(24):
            if flor >= 20 + 3 * t:
                out[k] = D_FLOR_VALUE + t
                k += 1
    p0, p1, p2 = _sort3(p0, p1, p2)  # strongest first; 0 is an empty slot
    if p0 > 0:
        out[k] = D_POWER + p0 - 1
        k += 1
    if p1 > 0:
        out[k] = D_POWER + 17 + p1 - 1
        k += 1
    if p2 > 0:
        out[k] = D_POWER + 34 + p2 - 1
        k += 1
    # the strongest card on the table in this baza, and who holds it
    b = -1
    for j in range(3):
        if row[O_BAZA + j] != 0:
            b = j
    if b < 0:
        return k
    best = 0
    holder = 0  # bit 0: my team, bit 1: the rival team
    for c in range(40):
        if row[O_PLAYED_IN + 40 * b + c] != 0:
            r = 0
            for q in range(8):
                if row[O_PLAYED_BY + 40 * q + c] != 0:
                    r = q
            pw = TRUQUE_POWER[c]
            side = 1 if r % 2 == 0 else 2
            if pw > best:
                best = pw
                holder = side
            elif pw == best:
                holder |= side
    if best == 0:
        return k
    out[k] = D_TABLE + best - 1
    out[k + 1] = D_HOLDER + holder - 1
    out[k + 2] = D_BEAT + (p0 > best) + (p1 > best) + (p2 > best)
    out[k + 3] = D_TIE + (p0 == best) + (p1 == best) + (p2 == best)
    return k + 4


# The argentino hand summary (seed 003, ruling A3): its columns from the layout's width on, in
# this order (name, width); all zero before the cards are looked at.
ARG_DERIVED = (
    ("known", 1),
    ("envido", 21),  # envido >= 1, 2, .., 7, 20, 21, .., 33: a thermometer
    ("flor", 1),  # I hold flor (A6)
    ("flor_value", 19),  # flor >= 20, .., 38
    ("power", 3 * 14),  # truco power (A3) of my unplayed cards, strongest first, one-hot 1..14
    ("table", 14),  # the strongest power played in this baza
    ("holder", 3),  # who holds it: my team, the rival team, both (parda so far)
    ("beat", 4),  # how many of my unplayed cards beat it
    ("tie", 4),  # how many tie it
)
ARG_START = {}
_k = 0
for _name, _width in ARG_DERIVED:
    ARG_START[_name] = _k
    _k += _width
ARG_DERIVED_WIDTH = _k
A_KNOWN, A_ENVIDO, A_FLOR, A_FLOR_VALUE, A_POWER, A_TABLE, A_HOLDER, A_BEAT, A_TIE = ARG_START.values()
ARG_MAX_DERIVED = 1 + 21 + 1 + 19 + 3 + 4
ARG_ENVIDO_STEPS = np.array([1, 2, 3, 4, 5, 6, 7, *range(20, 34)], dtype=np.int64)
AO_HAND, AO_PLAYED_BY, AO_PLAYED_IN, AO_BAZA = (ARG_O.SLICES[k][0] for k in ("hand", "played_by", "played_in", "baza"))


@njit(cache=True)
def _hand_summary_argentino(row, out, base):
    """The argentino hand summary's nonzero columns (``base`` + offset) of one observation row."""
    d = np.full(3, -1, dtype=np.int64)
    nd = 0
    p0 = p1 = p2 = 0
    nm = 0
    for c in range(40):
        held = row[AO_HAND + c] != 0
        if held or row[AO_PLAYED_BY + c] != 0:
            if nd < 3:
                d[nd] = c
            nd += 1
        if held:
            if nm == 0:
                p0 = ARG_POWER[c]
            elif nm == 1:
                p1 = ARG_POWER[c]
            elif nm == 2:
                p2 = ARG_POWER[c]
            nm += 1
    if nd != 3:
        return 0
    k = 0
    out[k] = base + A_KNOWN
    k += 1
    env = arg_envido_nb(d[0], d[1], d[2], CARD_SUIT, ENVIDO_CARD_VALUE)
    for j in range(ARG_ENVIDO_STEPS.size):
        if env >= ARG_ENVIDO_STEPS[j]:
            out[k] = base + A_ENVIDO + j
            k += 1
    flor = arg_flor_nb(d[0], d[1], d[2], CARD_SUIT, ENVIDO_CARD_VALUE)
    if flor > 0:
        out[k] = base + A_FLOR
        k += 1
        for j in range(19):
            if flor >= 20 + j:
                out[k] = base + A_FLOR_VALUE + j
                k += 1
    p0, p1, p2 = _sort3(p0, p1, p2)
    if p0 > 0:
        out[k] = base + A_POWER + p0 - 1
        k += 1
    if p1 > 0:
        out[k] = base + A_POWER + 14 + p1 - 1
        k += 1
    if p2 > 0:
        out[k] = base + A_POWER + 28 + p2 - 1
        k += 1
    b = -1
    for j in range(3):
        if row[AO_BAZA + j] != 0:
            b = j
    if b < 0:
        return k
    best = 0
    holder = 0
    for c in range(40):
        if row[AO_PLAYED_IN + 40 * b + c] != 0:
            r = 0
            for q in range(8):
                if row[AO_PLAYED_BY + 40 * q + c] != 0:
                    r = q
            pw = ARG_POWER[c]
            side = 1 if r % 2 == 0 else 2
            if pw > best:
                best = pw
                holder = side
            elif pw == best:
                holder |= side
    if best == 0:
        return k
    out[k] = base + A_TABLE + best - 1
    out[k + 1] = base + A_HOLDER + holder - 1
    out[k + 2] = base + A_BEAT + (p0 > best) + (p1 > best) + (p2 > best)
    out[k + 3] = base + A_TIE + (p0 == best) + (p1 == best) + (p2 == best)
    return k + 4


# which summary a layout uses (the kernels branch on it: numba caches no kernel taken as an argument)
SUMMARY_NONE, SUMMARY_MOTENO, SUMMARY_ARGENTINO = -1, 0, 1


@njit(cache=True, parallel=True)
def _count(obs, history_start, history_len, summary, summary_n, counts, kind, base, record_start, record_len,
           rates_len):
    """Nonzeros per row; with the hand summary (``summary`` has a row per observation) also
    computes it (``kind``: SUMMARY_MOTENO or SUMMARY_ARGENTINO, from column ``base``), once, into
    ``summary`` / ``summary_n`` for ``_fill`` to copy. ``record_len`` 0: no juego record;
    ``rates_len`` 0: no rates."""
    n = obs.shape[0]
    hand_features = summary.shape[0] == n
    for i in prange(n):
        c = 0
        if hand_features:
            if kind == SUMMARY_ARGENTINO:
                summary_n[i] = _hand_summary_argentino(obs[i], summary[i], base)
            else:
                summary_n[i] = _hand_summary(obs[i], summary[i])
            c += summary_n[i]
        for j in range(history_start):
            if obs[i, j] != 0:
                c += 1
        for e in range(history_len):
            if obs[i, history_start + 2 * e + 1] != 0:
                c += 2
        for j in range(record_len):
            if obs[i, record_start + j] != 0:
                c += 1
        if rates_len > 0 and obs[i, record_start] > 0:  # manos finished: the rates of the counts not 0
            for j in range(rates_len):
                if obs[i, record_start + 1 + j] != 0:
                    c += 1
        counts[i] = c


@njit(cache=True, parallel=True)
def _fill(obs, history_start, history_len, entry_width, scale, summary, summary_n, indptr, cols, vals,
          record_start, record_len, record_base, record_scale, rates_len, rates_scale):
    n = obs.shape[0]
    hand_features = summary.shape[0] == n
    for i in prange(n):
        k = indptr[i]
        if hand_features:
            for j in range(summary_n[i]):
                cols[k] = summary[i, j]
                vals[k] = 1.0
                k += 1
        for j in range(history_start):
            v = obs[i, j]
            if v != 0:
                cols[k] = j
                vals[k] = v * scale[j]
                k += 1
        for e in range(history_len):
            action = obs[i, history_start + 2 * e + 1]
            if action != 0:
                base = history_start + e * entry_width  # the one-hot history replaces the raw one
                cols[k] = base + obs[i, history_start + 2 * e] - 1
                vals[k] = 1.0
                cols[k + 1] = base + H.MAX_PLAYERS + action - 1
                vals[k + 1] = 1.0
                k += 2
        for j in range(record_len):
            v = obs[i, record_start + j]
            if v != 0:
                cols[k] = record_base + j
                vals[k] = v * record_scale
                k += 1
        manos = obs[i, record_start] if rates_len > 0 else 0
        if manos > 0:
            for j in range(rates_len):
                v = obs[i, record_start + 1 + j]
                if v != 0:
                    cols[k] = record_base + record_len + j
                    vals[k] = v / manos * rates_scale
                    k += 1


# -- every tradition: the same encoding of its observation -------------------------------------
@dataclass(frozen=True)
class Layout:
    """The features of one tradition's observation: its raw entries before ``history`` scaled by
    ``scale``, its history one-hot; the hand summary where the tradition has one (Moteño and
    argentino); the juego's record where its observation has one."""

    tradition: str
    obs_size: int
    history_start: int
    history_len: int
    entry_width: int
    scale: np.ndarray
    num_features: int
    summary_kind: int
    """SUMMARY_MOTENO, SUMMARY_ARGENTINO, or SUMMARY_NONE (a tradition without a hand summary)"""
    summary_width: int
    max_derived: int
    record_start: int
    """the observation's juego_record slice (after the history), -1 where the tradition has none"""
    record_len: int

    @property
    def hand_summary(self) -> bool:
        return self.summary_kind != SUMMARY_NONE

    @property
    def rates_len(self) -> int:
        """columns of ``record_rates``: the record's counts (all but its first field, the manos)"""
        return max(self.record_len - 1, 0)

    def width(self, hand_features: bool, juego_record: bool = False, record_rates: bool = False) -> int:
        if hand_features and not self.hand_summary:
            raise ValueError(f"the hand summary (hand_features) is written for the valuations of Truque Moteño and "
                             f"truco argentino; {self.tradition} has none")
        if juego_record and self.record_start < 0:
            raise ValueError(f"{self.tradition}'s observation has no juego_record slice (juego_record)")
        if record_rates and not juego_record:
            raise ValueError("record_rates divides the juego_record's counts: it needs juego_record too")
        return (self.num_features + (self.summary_width if hand_features else 0)
                + (self.record_len if juego_record else 0) + (self.rates_len if record_rates else 0))


def _generic_scales(O_, target: int) -> np.ndarray:
    """A tradition without a table of its own: its score and target slices by 1/target, its
    juegos by 1/2 (the slices the family's observations share by name), and the slices or parts
    its observation module names in ``FEATURE_SCALES`` by their factors; the rest as it is."""
    start, _ = O_.SLICES["history"]
    s = np.ones(start, dtype=np.float32)
    for name, factor in (("score", 1 / target), ("target_falta", 1 / target), ("juegos", 1 / 2),
                         *getattr(O_, "FEATURE_SCALES", {}).items()):
        if name in getattr(O_, "PARTS", {}):
            a, b = O_.PARTS[name]
            s[a:b] = factor
        elif name in O_.SLICES:
            a, shape = O_.SLICES[name]
            s[a : a + int(np.prod(shape))] = factor
    return s


@cache
def layout_for(tradition: str = "moteno") -> Layout:
    spec = get_tradition(tradition)
    O_ = spec.observation
    start, (length, width) = O_.SLICES["history"]
    record_start, record_len = -1, 0
    if "juego_record" in O_.SLICES:
        record_start, (record_len,) = O_.SLICES["juego_record"]
    if width != 2 or start + 2 * length + record_len != O_.OBS_SIZE or record_start not in (-1, start + 2 * length):
        raise ValueError(f"{tradition}'s observation must end with its history (entries of relative seat + 1, "
                         "action id + 1), or with its history and then its juego_record, for the network's features")
    entry = H.MAX_PLAYERS + spec.actions.NUM_ACTIONS
    scale = SCALE if tradition == "moteno" else _generic_scales(O_, spec.default_target)
    kind, width, most = SUMMARY_NONE, 0, 0
    if tradition == "moteno":
        kind, width, most = SUMMARY_MOTENO, NUM_FEATURES_HAND - NUM_FEATURES, MAX_DERIVED
    elif O_ is ARG_O:  # argentino's observation (a spec renamed in a test keeps it)
        kind, width, most = SUMMARY_ARGENTINO, ARG_DERIVED_WIDTH, ARG_MAX_DERIVED
    return Layout(tradition, int(O_.OBS_SIZE), int(start), int(length), int(entry), scale,
                  int(start + length * entry), kind, width, most, int(record_start), int(record_len))


RECORD_SCALE = 1 / 16  # the juego's record: a juego has some ten manos, a team a few words of a kind in each
RATES_SCALE = 1 / 2  # its rates per mano: a team says a word of a kind some 0 to 2 times a mano


def to_csr(obs: np.ndarray, hand_features: bool = False, tradition: str = "moteno", juego_record: bool = False,
           record_rates: bool = False):
    """``(indptr, cols, vals)`` of the features of ``obs`` (n, OBS_SIZE) int8 (columns in any order)."""
    lay = layout_for(tradition)
    lay.width(hand_features, juego_record, record_rates)
    obs = np.ascontiguousarray(obs)
    if obs.dtype != np.int8 or obs.ndim != 2 or obs.shape[1] != lay.obs_size:
        raise ValueError(f"expected int8 observations of shape (n, {lay.obs_size}), got {obs.dtype} {obs.shape}")
    n = obs.shape[0] if hand_features else 0  # no rows: no hand summary
    summary, summary_n = np.empty((n, max(lay.max_derived, 1)), dtype=np.int64), np.empty(n, dtype=np.int64)
    hs, hl, ew = lay.history_start, lay.history_len, lay.entry_width
    kind, base = lay.summary_kind, lay.num_features
    # the record's columns come last: after the hand summary when there is one
    rs, rl = lay.record_start, (lay.record_len if juego_record else 0)
    rb = lay.num_features + (lay.summary_width if hand_features else 0)
    nr = lay.rates_len if record_rates else 0  # the rates follow the record
    return build_csr(obs.shape[0],
                     lambda counts: _count(obs, hs, hl, summary, summary_n, counts, kind, base, rs, rl, nr),
                     lambda indptr, cols, vals: _fill(obs, hs, hl, ew, lay.scale, summary, summary_n, indptr,
                                                      cols, vals, rs, rl, rb, RECORD_SCALE, nr, RATES_SCALE))


def dense(obs: np.ndarray, hand_features: bool = False, tradition: str = "moteno",
          juego_record: bool = False, record_rates: bool = False) -> np.ndarray:
    """The same features as a dense float32 matrix (slow; for tests and inspection)."""
    indptr, cols, vals = to_csr(obs, hand_features, tradition, juego_record, record_rates)
    out = np.zeros((obs.shape[0], num_features(hand_features, tradition, juego_record, record_rates)),
                   dtype=np.float32)
    rows = np.repeat(np.arange(obs.shape[0]), np.diff(indptr))
    np.add.at(out, (rows, cols), vals)
    return out
