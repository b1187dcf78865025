"""What one player may know, as a flat ``int8`` vector with named slices (the observation tensor).

Seats are **relative** to the observer: relative seat ``r`` is ``(seat - observer) mod n``, so
``r = 0`` is the observer, even ``r`` his partners, odd ``r`` his rivals; slots beyond ``n`` are
zero. "Mine" and "rival" refer to the observer's team. The layout is the same for every team
size, so one policy can play all of them.

The public history of bets is kept in a companion array per table (``HISTORY_SIZE`` int16:
``[count, entries...]``, an entry ``seat << 8 | action``), appended by :func:`step_recording`.

=================  ==========  ================================================================
slice              shape       meaning
=================  ==========  ================================================================
hand               40          my cards not yet played (zero until the cards are seen)
played_by          8 x 40      card played, in any baza, by relative seat r
played_in          3 x 40      card played in baza b
revealed           8 x 40      cards of relative seat r seen face up: laid on the table after a
                               refused truco (14.10), or shown at the end (ruling 7: the hands
                               whose pares or flor were counted; every hand al cantar, 8.5)
phase              9           one-hot: blind, close, cante, play, flor_round, flor_envite,
                               answer, done, reservada
position           8           one-hot: my offset from mano (0 = I am mano; n - 1 = postre)
team_size          4           one-hot: 1..4
baza               3           one-hot: the baza being played
baza_result        3 x 3       per baza: won by mine, won by rival, parda
score              2           chinas of mine, rival in the juego
target_falta       3           target, la falta, al cantar (1 if either team is)
juegos             3           juegos won by mine, rival; juegos needed to win the partida
seat_flags         7 x 8       per relative seat: gone a baraja, la mía no vale, bet pares,
                               challenged, sang flor, had his first-round turn, de la mía
pares              17          envite de pares: state one-hot 5 (none, open, deferred, accepted,
                               refused), stake in pares (16 = la falta), previous stake,
                               raiser one-hot 8, accepted a ciegas, void
truco              21          state one-hot 5, level one-hot 4, previous level one-hot 4,
                               raiser one-hot 8
flor               18          flor round one-hot 3 (not yet, running, closed), envite state
                               one-hot 5, stake in flores (11 = la falta), previous, raiser 8
falta_ciegas       8           sent by mine, sent by rival, answer one-hot 6 (none, refused,
                               quiero a ciegas, quiero, con flor quiero, con flor no quiero)
exchange           20          kind one-hot 5 (none, pares, truco, flores, falta a ciegas),
                               answering team is mine, standing answer one-hot 5 (none, luego,
                               no quiero, quiero, raise), its speaker one-hot 8, a ciegas
senas_seen         8 x 11      count of each seña made by relative seat r that I saw (my own,
                               my partners', and the rivals' I intercepted)
senas_left         1           señas I may still make this mano
cante              8           the valor de pares relative seat r declared in the cante (8.2;
                               sung aloud, so public), 0 if he did not sing pares
bets_by_seat       8 x 16      per relative seat, how often he said each of the 14 words
                               (paso .. de la mía) this mano, his highest pares stake said,
                               his highest flores stake said
history            32 x 2      the last 32 public words this mano, oldest first: relative seat + 1,
                               action id + 1 (0 = empty); cards and señas are in their own slices.
                               With bets_by_seat (every word of the mano, counted) and the bet
                               slices above this is the public history of bets and answers.
juego_record       9           the juego's public record (truque_env.engine.record), kept over
                               its manos: manos finished in this juego; the words my team said
                               in it that raise (envíos, la falta, truco ..), accept (quiero, con
                               flor quiero), refuse (no quiero, con flor no quiero) and leave
                               (me voy a baraja, la mía no vale); the same of the rival team
                               (counts above 127 read 127). It follows the history, so the
                               observation before it is the one of checkpoints made before it.
=================  ==========  ================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from truque_env.engine import record as R
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L

MAX_HISTORY = 96
HISTORY_SIZE = 1 + MAX_HISTORY
HISTORY_IN_OBS = 32
NUM_WORDS = 14  # actions 0..13: paso .. de la mía

SLICES_SPEC = (
    ("hand", (40,)),
    ("played_by", (8, 40)),
    ("played_in", (3, 40)),
    ("revealed", (8, 40)),
    ("phase", (9,)),
    ("position", (8,)),
    ("team_size", (4,)),
    ("baza", (3,)),
    ("baza_result", (3, 3)),
    ("score", (2,)),
    ("target_falta", (3,)),
    ("juegos", (3,)),
    ("seat_flags", (7, 8)),
    ("pares", (17,)),
    ("truco", (21,)),
    ("flor", (18,)),
    ("falta_ciegas", (8,)),
    ("exchange", (20,)),
    ("senas_seen", (8, 11)),
    ("senas_left", (1,)),
    ("cante", (8,)),
    ("bets_by_seat", (8, 16)),
    ("history", (HISTORY_IN_OBS, 2)),
    ("juego_record", (R.OBS_RECORD_SIZE,)),  # last: the observation before it is the older one
)


# the parts of the slices that pack several fields, in order (name, width): the same table the
# encoder writes with (observe, below) and the readers read by name (decode, the heuristic, the
# network's features), so no reader types an offset by hand
PARTS_SPEC = {
    "target_falta": (("target", 1), ("falta", 1), ("al_cantar", 1)),
    "juegos": (("mine", 1), ("rival", 1), ("to_win", 1)),
    "juego_record": R.OBS_RECORD_PARTS,
    "seat_flags": (("baraja", 8), ("no_vale", 8), ("bet_pares", 8), ("challenged", 8), ("sang", 8),
                   ("first_round", 8), ("de_la_mia", 8)),
    "pares": (("state", 5), ("stake", 1), ("previous", 1), ("raiser", 8), ("blind_accepted", 1), ("void", 1)),
    "truco": (("state", 5), ("level", 4), ("previous", 4), ("raiser", 8)),
    "flor": (("round", 3), ("envite_state", 5), ("stake", 1), ("previous", 1), ("raiser", 8)),
    "falta_ciegas": (("sent_by_mine", 1), ("sent_by_rival", 1), ("answer", 6)),
    "exchange": (("kind", 5), ("answering_mine", 1), ("standing", 5), ("speaker", 8), ("blind", 1)),
}
# the parts of each row of a per-seat slice (name, width)
ROW_PARTS_SPEC = {
    "bets_by_seat": (("words", NUM_WORDS), ("pares_stake", 1), ("flores_stake", 1)),
}


def _offsets():
    out, pos = {}, 0
    for name, shape in SLICES_SPEC:
        size = int(np.prod(shape))
        out[name] = (pos, shape)
        pos += size
    return out, pos


def _parts(slices):
    out = {}
    for name, parts in PARTS_SPEC.items():
        pos, shape = slices[name]
        end = pos + int(np.prod(shape))
        for part, width in parts:
            out[f"{name}.{part}"] = (pos, pos + width)
            pos += width
        assert pos == end, name  # the parts fill the slice
    for name, parts in ROW_PARTS_SPEC.items():
        _, shape = slices[name]
        pos = 0
        for part, width in parts:
            out[f"{name}.{part}"] = (pos, pos + width)  # within each row
            pos += width
        assert pos == shape[-1], name
    return out


#: name -> (offset, shape) of each slice in the flat observation
SLICES, OBS_SIZE = _offsets()
#: "slice.part" -> (start, stop) in the flat observation (for a per-seat slice: within its row)
PARTS = _parts(SLICES)
O_HAND = SLICES["hand"][0]
O_PLAYED_BY = SLICES["played_by"][0]
O_PLAYED_IN = SLICES["played_in"][0]
O_REVEALED = SLICES["revealed"][0]
O_PHASE = SLICES["phase"][0]
O_POSITION = SLICES["position"][0]
O_TEAM_SIZE = SLICES["team_size"][0]
O_BAZA = SLICES["baza"][0]
O_BAZA_RESULT = SLICES["baza_result"][0]
O_SCORE = SLICES["score"][0]
O_TARGET = SLICES["target_falta"][0]
O_JUEGOS = SLICES["juegos"][0]
O_SEAT_FLAGS = SLICES["seat_flags"][0]
O_PARES = SLICES["pares"][0]
O_TRUCO = SLICES["truco"][0]
O_FLOR = SLICES["flor"][0]
O_FC = SLICES["falta_ciegas"][0]
O_EXCHANGE = SLICES["exchange"][0]
O_SENAS = SLICES["senas_seen"][0]
O_SENAS_LEFT = SLICES["senas_left"][0]
O_CANTE = SLICES["cante"][0]
O_BETS = SLICES["bets_by_seat"][0]
O_HISTORY = SLICES["history"][0]
O_RECORD = SLICES["juego_record"][0]


P_TARGET, P_FALTA, P_AL_CANTAR = (PARTS[f"target_falta.{k}"][0] for k in ("target", "falta", "al_cantar"))
P_JUEGOS_MINE, P_JUEGOS_RIVAL, P_JUEGOS_TO_WIN = (PARTS[f"juegos.{k}"][0] for k in ("mine", "rival", "to_win"))
P_PARES_STATE, P_PARES_STAKE, P_PARES_PREV, P_PARES_RAISER, P_PARES_BLIND, P_PARES_VOID = (
    PARTS[f"pares.{k}"][0] for k in ("state", "stake", "previous", "raiser", "blind_accepted", "void"))
P_TRUCO_STATE, P_TRUCO_LEVEL, P_TRUCO_PREV, P_TRUCO_RAISER = (
    PARTS[f"truco.{k}"][0] for k in ("state", "level", "previous", "raiser"))
P_FLOR_ROUND, P_FLOR_ENV_STATE, P_FLOR_STAKE, P_FLOR_PREV, P_FLOR_RAISER = (
    PARTS[f"flor.{k}"][0] for k in ("round", "envite_state", "stake", "previous", "raiser"))
P_FC_MINE, P_FC_RIVAL, P_FC_ANSWER = (PARTS[f"falta_ciegas.{k}"][0] for k in ("sent_by_mine", "sent_by_rival", "answer"))
P_EX_KIND, P_EX_MINE, P_EX_STANDING, P_EX_SPEAKER, P_EX_BLIND = (
    PARTS[f"exchange.{k}"][0] for k in ("kind", "answering_mine", "standing", "speaker", "blind"))
BETS_ROW = SLICES["bets_by_seat"][1][1]
R_BETS_PARES, R_BETS_FLORES = PARTS["bets_by_seat.pares_stake"][0], PARTS["bets_by_seat.flores_stake"][0]
SEAT_FLAGS = tuple(part for part, _ in PARTS_SPEC["seat_flags"])


def decode(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Every slice (as ``split``) and every part of a packed slice by name (``"pares.stake"``,
    ``"exchange.kind"``; the rows of ``bets_by_seat`` as ``"bets_by_seat.words"`` [8, 14] ...)."""
    obs = np.asarray(obs)
    out = split(obs)
    for name, (a, b) in PARTS.items():
        slice_name = name.split(".")[0]
        if slice_name in ROW_PARTS_SPEC:
            out[name] = out[slice_name][:, a:b]
        elif slice_name == "seat_flags":
            out[name] = obs[a:b]
        else:
            out[name] = obs[a:b] if b - a > 1 else obs[a]
    return out


def split(obs: np.ndarray) -> dict[str, np.ndarray]:
    """The named slices of one observation (views, reshaped)."""
    return {name: obs[off : off + int(np.prod(shape))].reshape(shape) for name, (off, shape) in SLICES.items()}


@njit(cache=True)
def is_public_word(a):
    return a < A.PLAY_BASE or (A.PARES_BASE <= a < A.SENA_BASE)


FLORES_CONTEXT = 0x80  # flag on a history entry: "envío la falta" said in the envite de flores


@njit(cache=True)
def record(s, hist, a):
    """Append the word ``a`` the player to act is about to say (cards and señas are not words)."""
    if is_public_word(a):
        word = a
        ph = s[L.PHASE]
        if ph == L.PH_FLOR_ENVITE or (ph == L.PH_ANSWER and s[L.EX_KIND] == L.EX_FLORES):
            word |= FLORES_CONTEXT
        c = hist[0]
        hist[1 + c % MAX_HISTORY] = (s[L.TO_ACT] << 8) | word
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
def _shown_at_end(s):
    """Mask of the hands shown when the mano is over (ruling 7, 8.5)."""
    n = np.int64(s[L.N_PLAYERS])
    shown = 0
    in_mano = 0
    for seat in range(n):
        if (s[L.FOLDED] >> seat) & 1 == 0:
            in_mano |= 1 << seat
    if s[L.AL_CANTAR] and s[L.CANTE_DONE] and s[L.FLOR_SUNG] == 0:
        return in_mano  # 8.5: everybody shows to prove the cante
    counted_flor = s[L.FLOR_SUNG] & in_mano
    if s[L.FC_ANS] != L.FC_NONE and s[L.FC_ANS] != L.FC_REFUSED:
        counted_flor |= s[L.FC_DECLARED] & in_mano
        for seat in range(n):
            if (in_mano >> seat) & 1 and s[L.FLOR_VAL + seat] > 0:
                if seat % 2 == s[L.FC_TEAM] or s[L.FC_ANS] == L.FC_QUIERO_CIEGAS:
                    counted_flor |= 1 << seat  # flores cantadas a ciegas
    shown |= counted_flor
    pares_counted = s[L.PARES_ST] == L.BET_ACCEPTED and s[L.PARES_VOID] == 0 and counted_flor == 0
    if pares_counted:
        best = -1
        best_seat = -1
        for k in range(n):
            seat = (s[L.MANO_SEAT] + k) % n
            if (in_mano >> seat) & 1 and s[L.PARES_VAL + seat] > best:
                best = s[L.PARES_VAL + seat]
                best_seat = seat
        if best_seat >= 0:
            shown |= 1 << best_seat
    return shown


@njit(cache=True)
def observe(s, hist, me, out):
    """Write what seat ``me`` may know into ``out`` (int8, OBS_SIZE)."""
    out[:] = 0
    n = np.int64(s[L.N_PLAYERS])
    my_team = me % 2
    seen = s[L.CARDS_SEEN] == 1 or s[L.PHASE] == L.PH_DONE
    # cards
    if seen:
        for k in range(3):
            if (s[L.HAND_PLAYED + me] >> k) & 1 == 0:
                out[O_HAND + s[L.HAND + 3 * me + k]] = 1
    for b in range(3):
        for seat in range(n):
            c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
            if c >= 0:
                r = _rel(s, seat, me)
                out[O_PLAYED_BY + r * 40 + c] = 1
                out[O_PLAYED_IN + b * 40 + c] = 1
    up = s[L.CARDS_UP]
    if s[L.PHASE] == L.PH_DONE:
        up |= _shown_at_end(s)
    for seat in range(n):
        if (up >> seat) & 1:
            r = _rel(s, seat, me)
            for k in range(3):
                out[O_REVEALED + r * 40 + s[L.HAND + 3 * seat + k]] = 1
    # where we are
    out[O_PHASE + s[L.PHASE]] = 1
    out[O_POSITION + _rel(s, me, s[L.MANO_SEAT])] = 1
    out[O_TEAM_SIZE + s[L.TEAM_SIZE] - 1] = 1
    if s[L.PHASE] != L.PH_BLIND and s[L.PHASE] != L.PH_CLOSE:
        out[O_BAZA + s[L.BAZA]] = 1
    for b in range(3):
        w = s[L.BAZA_WIN_TEAM + b]
        if w == L.BAZA_PARDA:
            out[O_BAZA_RESULT + 3 * b + 2] = 1
        elif w >= 0:
            out[O_BAZA_RESULT + 3 * b + (0 if w == my_team else 1)] = 1
    out[O_SCORE] = s[L.SCORE + my_team]
    out[O_SCORE + 1] = s[L.SCORE + 1 - my_team]
    out[P_TARGET] = s[L.TARGET]
    out[P_FALTA] = s[L.FALTA]
    out[P_AL_CANTAR] = s[L.AL_CANTAR]
    out[P_JUEGOS_MINE] = s[L.JUEGOS + my_team]
    out[P_JUEGOS_RIVAL] = s[L.JUEGOS + 1 - my_team]
    out[P_JUEGOS_TO_WIN] = s[L.JUEGOS_TO_WIN]
    # per-seat flags
    masks = (s[L.FOLDED], s[L.NO_VALE], s[L.BET_PARES_MASK], s[L.CHALLENGED], s[L.FLOR_SUNG],
             s[L.FIRST_ROUND], s[L.FC_DECLARED])
    for f in range(7):
        m = masks[f]
        for seat in range(n):
            if (m >> seat) & 1:
                out[O_SEAT_FLAGS + f * L.MAX_PLAYERS + _rel(s, seat, me)] = 1
    # pares
    out[P_PARES_STATE + s[L.PARES_ST]] = 1
    out[P_PARES_STAKE] = 16 if s[L.PARES_STAKE] == L.FALTA_NOMINAL else s[L.PARES_STAKE] // 2
    out[P_PARES_PREV] = 16 if s[L.PARES_PREV] == L.FALTA_NOMINAL else s[L.PARES_PREV] // 2
    if s[L.PARES_RAISER] >= 0:
        out[P_PARES_RAISER + _rel(s, s[L.PARES_RAISER], me)] = 1
    out[P_PARES_BLIND] = s[L.PARES_BLIND_ACC]
    out[P_PARES_VOID] = s[L.PARES_VOID]
    # truco
    out[P_TRUCO_STATE + s[L.TRUCO_ST]] = 1
    out[P_TRUCO_LEVEL + s[L.TRUCO_LEVEL]] = 1
    out[P_TRUCO_PREV + s[L.TRUCO_PREV]] = 1
    if s[L.TRUCO_RAISER] >= 0:
        out[P_TRUCO_RAISER + _rel(s, s[L.TRUCO_RAISER], me)] = 1
    # flor
    out[P_FLOR_ROUND + s[L.FLOR_ST]] = 1
    out[P_FLOR_ENV_STATE + s[L.FLOR_ENV_ST]] = 1
    out[P_FLOR_STAKE] = 11 if s[L.FLOR_STAKE] == L.FALTA_NOMINAL else s[L.FLOR_STAKE] // 3
    out[P_FLOR_PREV] = 11 if s[L.FLOR_PREV] == L.FALTA_NOMINAL else s[L.FLOR_PREV] // 3
    if s[L.FLOR_RAISER] >= 0:
        out[P_FLOR_RAISER + _rel(s, s[L.FLOR_RAISER], me)] = 1
    # la falta a ciegas
    if s[L.FC_TEAM] >= 0:
        out[P_FC_MINE if s[L.FC_TEAM] == my_team else P_FC_RIVAL] = 1
    out[P_FC_ANSWER + s[L.FC_ANS]] = 1
    # the exchange under way
    if s[L.PHASE] == L.PH_ANSWER:
        out[P_EX_KIND + s[L.EX_KIND]] = 1
        out[P_EX_MINE] = 1 if s[L.EX_TEAM] == my_team else 0
        best = s[L.EX_BEST]
        code = 4 if best >= L.ANS_RAISE else best
        out[P_EX_STANDING + code] = 1
        if s[L.EX_BEST_SEAT] >= 0:
            out[P_EX_SPEAKER + _rel(s, s[L.EX_BEST_SEAT], me)] = 1
        out[P_EX_BLIND] = s[L.EX_BLIND]
    else:
        out[P_EX_KIND] = 1  # kind "none"
    # señas I saw
    for i in range(s[L.SENA_LOG_N]):
        w = np.int64(s[L.SENA_LOG + i]) & 0x7FFF
        seat = w & 7
        sena = (w >> 3) & 15
        seen_by = (w >> 7) & 0xFF
        if seat == me or (seen_by >> me) & 1:
            out[O_SENAS + _rel(s, seat, me) * 11 + sena] += 1
    if s[L.CARDS_SEEN]:
        out[O_SENAS_LEFT] = max(0, s[L.SENAS_LIMIT] - s[L.SENAS_MADE + me])
    # the public words
    count = hist[0]
    first = max(0, count - MAX_HISTORY)
    for i in range(first, count):
        e = hist[1 + i % MAX_HISTORY]
        seat = e >> 8
        a = e & 0x7F
        r = _rel(s, seat, me)
        if a == A.CANTO_PARES:
            out[O_CANTE + r] = s[L.PARES_VAL + seat]  # 8.5: the engine declares the true value
        if a < NUM_WORDS:
            out[O_BETS + r * BETS_ROW + a] += 1
        elif a < A.FLORES_BASE:  # envío N pares
            out[O_BETS + r * BETS_ROW + R_BETS_PARES] = max(out[O_BETS + r * BETS_ROW + R_BETS_PARES], a - A.PARES_BASE + 1)
        elif a < A.FALTA:
            out[O_BETS + r * BETS_ROW + R_BETS_FLORES] = max(out[O_BETS + r * BETS_ROW + R_BETS_FLORES], a - A.FLORES_BASE + 1)
        elif e & FLORES_CONTEXT:
            out[O_BETS + r * BETS_ROW + R_BETS_FLORES] = 11  # la falta in the envite de flores
        else:
            out[O_BETS + r * BETS_ROW + R_BETS_PARES] = 16  # la falta with the pares
    start = max(first, count - HISTORY_IN_OBS)
    for j, i in enumerate(range(start, count)):
        e = hist[1 + i % MAX_HISTORY]
        out[O_HISTORY + 2 * j] = _rel(s, e >> 8, me) + 1
        out[O_HISTORY + 2 * j + 1] = (e & 0x7F) + 1
    R.observe_record(s, L.REC_MANOS, my_team, out, O_RECORD)  # the juego so far


HIDDEN_SIZE = 8 * 40


@njit(cache=True)
def observe_hidden(s, me, out):
    """Every dealt hand by relative seat (8 x 40): the extra input of a centralised critic.

    Training only (MAPPO, PerfectDou): a policy must never see it.
    """
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
