"""What one player of truco argentino may know, as a flat ``int8`` vector with named slices.

Seats are **relative** to the observer: relative seat ``r`` is ``(seat - observer) mod n``, so
``r = 0`` is the observer, even ``r`` his partners, odd ``r`` his rivals; slots beyond ``n`` are
zero. "Mine" and "rival" refer to the observer's team. The layout is the same for every team size.

The public words of the mano are kept in a companion array per table (``HISTORY_SIZE`` int16:
``[count, entries...]``, an entry ``seat << 8 | action``), appended by :func:`record`.

=================  ==========  ================================================================
slice              shape       meaning
=================  ==========  ================================================================
hand               40          my cards not yet played (zero before the cards are looked at)
played_by          8 x 40      card played, in any baza, by relative seat r
played_in          3 x 40      card played in baza b
revealed           8 x 40      cards of relative seat r shown when the mano is over: the
                               envido's winner (A28) and the best flor (A17)
phase              4           one-hot: blind, play, answer, done
position           8           one-hot: my offset from the mano
team_size          3           one-hot: 1..3
baza               3           one-hot: the baza being played
baza_result        3 x 3       per baza: won by mine, won by rival, parda
score              2           tantos of mine, rival
target_falta       4           target, the falta (what the leader lacks), mine in buenas, rival
                               in buenas (past half the target, A2)
juegos             3           juegos won by mine, rival; juegos needed to win the partida
seat_flags         3 x 8       per relative seat: went al mazo, sang flor, declared his envido
envido_declared    8           the tantos relative seat r declared in the showdown + 1 (A27:
                               said aloud; 0: not declared, "son buenas")
envido             16          state one-hot 5 (none, open, accepted, refused, void), stake
                               (0 for a falta envido), is falta envido, what a refusal pays,
                               raiser one-hot 8
truco              22          state one-hot 4 (none, open, accepted, refused), level one-hot 4,
                               level accepted before one-hot 4, raiser one-hot 8, mine may
                               raise, rival may raise (A37)
flor               15          state one-hot 3 (none, betting, closed), level one-hot 3 (flor,
                               contraflor, al resto), raiser one-hot 8, a contraflor was made
todo_dicho         7           state one-hot 5 (none, said, annulled, flor, answered), said by
                               mine, said by rival
uno_y_uno          4           state one-hot: none, proposed, refused, accepted
exchange           8           kind one-hot 6 (none, envido, truco, double, flor, uno y uno),
                               the answering team is mine, a partner answers after me
senas_seen         8 x 8       count of each seña made by relative seat r that I saw
senas_left         1           señas I may still make this mano
bets_by_seat       8 x 29      per relative seat, how often he said each word (ids 0..28)
history            32 x 2      the last 32 public words, oldest first: relative seat + 1,
                               action id + 1 (0 = empty); cards and señas have their own slices
juego_record       9           the juego's public record (truque_env.engine.record), kept over
                               its manos: manos finished in this juego; the words my team said
                               in it that raise (envido, truco, flor bets ..), accept (quiero),
                               refuse (no quiero, me achico) and leave (al mazo); the same of the
                               rival team (counts above 127 read 127). It follows the history, so
                               the observation before it is the one of checkpoints made before it.
=================  ==========  ================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from truque_env.engine import record as R
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import kernels as K
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.bets import _walk_after

MAX_HISTORY = 96
HISTORY_SIZE = 1 + MAX_HISTORY
HISTORY_IN_OBS = 32
NUM_WORDS = A.NUM_WORDS

SLICES_SPEC = (
    ("hand", (40,)),
    ("played_by", (8, 40)),
    ("played_in", (3, 40)),
    ("revealed", (8, 40)),
    ("phase", (4,)),
    ("position", (8,)),
    ("team_size", (3,)),
    ("baza", (3,)),
    ("baza_result", (3, 3)),
    ("score", (2,)),
    ("target_falta", (4,)),
    ("juegos", (3,)),
    ("seat_flags", (3, 8)),
    ("envido_declared", (8,)),
    ("envido", (16,)),
    ("truco", (22,)),
    ("flor", (15,)),
    ("todo_dicho", (7,)),
    ("uno_y_uno", (4,)),
    ("exchange", (8,)),
    ("senas_seen", (8, A.NUM_SENAS)),
    ("senas_left", (1,)),
    ("bets_by_seat", (8, NUM_WORDS)),
    ("history", (HISTORY_IN_OBS, 2)),
    ("juego_record", (R.OBS_RECORD_SIZE,)),  # last: the observation before it is the older one
)

PARTS_SPEC = {
    "target_falta": (("target", 1), ("falta", 1), ("mine_buenas", 1), ("rival_buenas", 1)),
    "juegos": (("mine", 1), ("rival", 1), ("to_win", 1)),
    "juego_record": R.OBS_RECORD_PARTS,
    "seat_flags": (("mazo", 8), ("sang_flor", 8), ("declared", 8)),
    "envido": (("state", 5), ("stake", 1), ("falta", 1), ("refusal_pays", 1), ("raiser", 8)),
    "truco": (("state", 4), ("level", 4), ("previous", 4), ("raiser", 8), ("mine_may_raise", 1),
              ("rival_may_raise", 1)),
    "flor": (("state", 3), ("level", 3), ("raiser", 8), ("contraflor", 1)),
    "todo_dicho": (("state", 5), ("by_mine", 1), ("by_rival", 1)),
    "exchange": (("kind", 6), ("answering_mine", 1), ("may_pass", 1)),
}


# the network's scale of the entries that are tantos (agents.features reads it): about [0, 1]
FEATURE_SCALES = {"envido.stake": 1 / 30, "envido.refusal_pays": 1 / 30, "envido_declared": 1 / 34}


def _offsets():
    out, pos = {}, 0
    for name, shape in SLICES_SPEC:
        out[name] = (pos, shape)
        pos += int(np.prod(shape))
    return out, pos


def _parts(slices):
    out = {}
    for name, parts in PARTS_SPEC.items():
        pos, shape = slices[name]
        end = pos + int(np.prod(shape))
        for part, width in parts:
            out[f"{name}.{part}"] = (pos, pos + width)
            pos += width
        assert pos == end, name
    return out


#: name -> (offset, shape) of each slice in the flat observation
SLICES, OBS_SIZE = _offsets()
#: "slice.part" -> (start, stop) in the flat observation
PARTS = _parts(SLICES)
O_HAND, O_PLAYED_BY, O_PLAYED_IN, O_REVEALED = (SLICES[k][0] for k in ("hand", "played_by", "played_in", "revealed"))
O_PHASE, O_POSITION, O_TEAM_SIZE, O_BAZA = (SLICES[k][0] for k in ("phase", "position", "team_size", "baza"))
O_BAZA_RESULT, O_SCORE, O_SEAT_FLAGS = (SLICES[k][0] for k in ("baza_result", "score", "seat_flags"))
O_DECLARED, O_UNO, O_SENAS, O_SENAS_LEFT = (SLICES[k][0] for k in ("envido_declared", "uno_y_uno", "senas_seen",
                                                                   "senas_left"))
O_BETS, O_HISTORY = SLICES["bets_by_seat"][0], SLICES["history"][0]
O_RECORD = SLICES["juego_record"][0]
P_TARGET, P_FALTA, P_MINE_BUENAS, P_RIVAL_BUENAS = (PARTS[f"target_falta.{k}"][0] for k in
                                                    ("target", "falta", "mine_buenas", "rival_buenas"))
P_J_MINE, P_J_RIVAL, P_J_TO_WIN = (PARTS[f"juegos.{k}"][0] for k in ("mine", "rival", "to_win"))
P_ENV_STATE, P_ENV_STAKE, P_ENV_FALTA, P_ENV_PREV, P_ENV_RAISER = (
    PARTS[f"envido.{k}"][0] for k in ("state", "stake", "falta", "refusal_pays", "raiser"))
P_TR_STATE, P_TR_LEVEL, P_TR_PREV, P_TR_RAISER, P_TR_MINE, P_TR_RIVAL = (
    PARTS[f"truco.{k}"][0] for k in ("state", "level", "previous", "raiser", "mine_may_raise", "rival_may_raise"))
P_FL_STATE, P_FL_LEVEL, P_FL_RAISER, P_FL_CONTRA = (PARTS[f"flor.{k}"][0] for k in ("state", "level", "raiser",
                                                                                     "contraflor"))
P_TD_STATE, P_TD_MINE, P_TD_RIVAL = (PARTS[f"todo_dicho.{k}"][0] for k in ("state", "by_mine", "by_rival"))
P_EX_KIND, P_EX_MINE, P_EX_PASS = (PARTS[f"exchange.{k}"][0] for k in ("kind", "answering_mine", "may_pass"))


@njit(cache=True)
def my_cards(o, cards):
    """The observer's three cards, unplayed and played (``hand`` and ``played_by[0]``), into
    ``cards`` in id order; returns how many there are (0 before the cards are looked at)."""
    k = 0
    for c in range(40):
        if o[O_HAND + c] or o[O_PLAYED_BY + c]:
            if k < 3:
                cards[k] = c
            k += 1
    return k


def split(obs: np.ndarray) -> dict[str, np.ndarray]:
    """The named slices of one observation (views, reshaped)."""
    return {name: obs[off : off + int(np.prod(shape))].reshape(shape) for name, (off, shape) in SLICES.items()}


def decode(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Every slice (as ``split``) and every part of a packed slice by name (``"envido.stake"``)."""
    obs = np.asarray(obs)
    out = split(obs)
    for name, (a, b) in PARTS.items():
        out[name] = obs[a:b] if b - a > 1 or name.startswith("seat_flags") else obs[a]
    return out


@njit(cache=True)
def record(s, hist, a):
    """Append the word ``a`` the player to act is about to say (cards and señas are not words)."""
    if a < A.PLAY_BASE:
        c = hist[0]
        hist[1 + c % MAX_HISTORY] = (s[L.TO_ACT] << 8) | a
        hist[0] = c + 1


@njit(cache=True)
def step_recording(s, hist, a):
    """``kernels.step`` that also records the public word in ``hist``; returns the error code."""
    if s[L.PHASE] == L.PH_DONE:
        return K.ERR_DONE
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    K.legal_mask(s, mask)
    if a < 0 or a >= A.NUM_ACTIONS or mask[a] == 0:
        return K.ERR_ILLEGAL
    record(s, hist, a)
    K.step_unchecked(s, a)
    return K.OK


@njit(cache=True)
def reset_history(hist):
    hist[0] = 0


@njit(cache=True)
def _rel(s, seat, me):
    n = np.int64(s[L.N_PLAYERS])
    return (seat - me + n) % n


@njit(cache=True)
def _one_seat(s, out, base, seat, me):
    if seat >= 0:
        out[base + _rel(s, seat, me)] = 1


@njit(cache=True)
def observe(s, hist, me, out):
    """Write what seat ``me`` may know into ``out`` (int8, OBS_SIZE)."""
    out[:] = 0
    n = np.int64(s[L.N_PLAYERS])
    mine = me % 2
    ph = s[L.PHASE]
    if s[L.CARDS_SEEN] == 1 or ph == L.PH_DONE:
        for k in range(3):
            if (s[L.HAND_PLAYED + me] >> k) & 1 == 0 and s[L.HAND + 3 * me + k] >= 0:
                out[O_HAND + s[L.HAND + 3 * me + k]] = 1
    for b in range(3):
        for seat in range(n):
            c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
            if c >= 0:
                out[O_PLAYED_BY + _rel(s, seat, me) * 40 + c] = 1
                out[O_PLAYED_IN + b * 40 + c] = 1
    if ph == L.PH_DONE:
        for seat in (s[L.ENV_WINNER], s[L.FLOR_WINNER]):
            if seat >= 0:
                r = _rel(s, seat, me)
                for k in range(3):
                    out[O_REVEALED + r * 40 + s[L.HAND + 3 * seat + k]] = 1
    out[O_PHASE + ph] = 1
    out[O_POSITION + _rel(s, me, s[L.MANO_SEAT])] = 1
    out[O_TEAM_SIZE + s[L.TEAM_SIZE] - 1] = 1
    if ph != L.PH_BLIND:
        out[O_BAZA + s[L.BAZA]] = 1
    for b in range(3):
        w = s[L.BAZA_WIN_TEAM + b]
        if w == L.BAZA_PARDA:
            out[O_BAZA_RESULT + 3 * b + 2] = 1
        elif w >= 0:
            out[O_BAZA_RESULT + 3 * b + (0 if w == mine else 1)] = 1
    target = s[L.TARGET]
    out[O_SCORE] = s[L.SCORE + mine]
    out[O_SCORE + 1] = s[L.SCORE + 1 - mine]
    out[P_TARGET] = target
    out[P_FALTA] = s[L.FALTA]
    out[P_MINE_BUENAS] = 1 if 2 * s[L.SCORE + mine] >= target else 0
    out[P_RIVAL_BUENAS] = 1 if 2 * s[L.SCORE + 1 - mine] >= target else 0
    out[P_J_MINE] = s[L.JUEGOS + mine]
    out[P_J_RIVAL] = s[L.JUEGOS + 1 - mine]
    out[P_J_TO_WIN] = s[L.JUEGOS_TO_WIN]
    flags = (s[L.FOLDED], s[L.FLOR_SUNG], s[L.ENV_SHOWN])
    for f in range(3):
        for seat in range(n):
            if (flags[f] >> seat) & 1:
                out[O_SEAT_FLAGS + f * 8 + _rel(s, seat, me)] = 1
    for seat in range(n):
        if (s[L.ENV_SHOWN] >> seat) & 1:
            out[O_DECLARED + _rel(s, seat, me)] = s[L.ENVIDO_VAL + seat] + 1
    # envido
    out[P_ENV_STATE + s[L.ENV_ST]] = 1
    if s[L.ENV_STAKE] == L.FALTA_NOMINAL:
        out[P_ENV_FALTA] = 1
    else:
        out[P_ENV_STAKE] = s[L.ENV_STAKE]
    out[P_ENV_PREV] = s[L.ENV_PREV]
    _one_seat(s, out, P_ENV_RAISER, s[L.ENV_RAISER], me)
    # truco
    out[P_TR_STATE + s[L.TRUCO_ST]] = 1
    out[P_TR_LEVEL + s[L.TRUCO_LEVEL]] = 1
    out[P_TR_PREV + s[L.TRUCO_PREV]] = 1
    _one_seat(s, out, P_TR_RAISER, s[L.TRUCO_RAISER], me)
    if s[L.TRUCO_ST] == L.BET_ACCEPTED and s[L.TRUCO_LEVEL] < 3:
        out[P_TR_MINE if s[L.HAB_TEAM] == mine else P_TR_RIVAL] = 1
    # flor
    out[P_FL_STATE + s[L.FLOR_ST]] = 1
    if s[L.FLOR_ST] != L.FLOR_NONE:
        out[P_FL_LEVEL + s[L.FLOR_LEVEL]] = 1
    _one_seat(s, out, P_FL_RAISER, s[L.FLOR_RAISER], me)
    out[P_FL_CONTRA] = s[L.FLOR_CONTRA]
    # todo dicho, uno y uno
    out[P_TD_STATE + s[L.TD_ST]] = 1
    if s[L.TD_SEAT] >= 0:
        out[P_TD_MINE if s[L.TD_SEAT] % 2 == mine else P_TD_RIVAL] = 1
    out[O_UNO + s[L.UNO_ST]] = 1
    # the exchange under way
    if ph == L.PH_ANSWER:
        out[P_EX_KIND + s[L.EX_KIND]] = 1
        out[P_EX_MINE] = 1 if s[L.EX_TEAM] == mine else 0
    else:
        out[P_EX_KIND] = 1
    if ph == L.PH_ANSWER and s[L.TO_ACT] == me and _walk_after(s, me) >= 0:
        out[P_EX_PASS] = 1
    # señas I saw
    for i in range(s[L.SENA_LOG_N]):
        w = np.int64(s[L.SENA_LOG + i]) & 0x7FFF
        seat = w & 7
        sena = (w >> 3) & 15
        seen_by = (w >> 7) & 0xFF
        if seat == me or (seen_by >> me) & 1:
            out[O_SENAS + _rel(s, seat, me) * A.NUM_SENAS + sena] += 1
    if s[L.CARDS_SEEN]:
        out[O_SENAS_LEFT] = max(0, s[L.SENAS_LIMIT] - s[L.SENAS_MADE + me])
    # the public words
    count = hist[0]
    first = max(0, count - MAX_HISTORY)
    for i in range(first, count):
        e = hist[1 + i % MAX_HISTORY]
        out[O_BETS + _rel(s, e >> 8, me) * NUM_WORDS + (e & 0xFF)] += 1
    start = max(first, count - HISTORY_IN_OBS)
    j = 0
    for i in range(start, count):
        e = hist[1 + i % MAX_HISTORY]
        out[O_HISTORY + 2 * j] = _rel(s, e >> 8, me) + 1
        out[O_HISTORY + 2 * j + 1] = (e & 0xFF) + 1
        j += 1
    R.observe_record(s, L.REC_MANOS, mine, out, O_RECORD)  # the juego so far


HIDDEN_SIZE = 8 * 40


@njit(cache=True)
def observe_hidden(s, me, out):
    """Every dealt hand by relative seat (8 x 40): the extra input of a centralised critic
    (training only: a policy must never see it)."""
    out[:] = 0
    n = np.int64(s[L.N_PLAYERS])
    for seat in range(n):
        r = _rel(s, seat, me)
        for k in range(3):
            c = s[L.HAND + 3 * seat + k]
            if c >= 0:
                out[r * 40 + c] = 1


@njit(cache=True, parallel=True)
def observe_seats(states, hists, seats, obs, hidden):
    """Observation and hidden hands of ``seats[i]`` at table i, for every table."""
    for i in prange(states.shape[0]):
        observe(states[i], hists[i], seats[i], obs[i])
        observe_hidden(states[i], seats[i], hidden[i])


@njit(cache=True, parallel=True)
def observe_hidden_seats(states, seats, hidden):
    """Hidden hands of ``seats[i]`` at table i, for every table (the critic's extra input)."""
    for i in prange(states.shape[0]):
        observe_hidden(states[i], seats[i], hidden[i])
