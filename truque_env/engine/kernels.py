"""Numba kernels of the Truque Moteño mano: init, deal, legal mask, step (docs/engine.md).

Every kernel takes one table's state row ``s`` (``int16``, layout in ``layout.py``). Pure
functions of the state: the only chance is the table's own generator inside the state.
Comments cite the reglamento ("6.19" is Art. 6.19).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.engine import actions as A
from truque_env.engine import layout as L
from truque_env.engine.rng import draw, rng_set, splitmix_next
from truque_env.rules.moteno import TRUQUE_POWER, flor_value_nb, is_reservada_nb, pares_value_nb

# step() return codes
OK = 0
ERR_ILLEGAL = 1
ERR_DONE = 2

# ------------------------------------------------------------------------------------------
# small helpers


@njit(cache=True, inline="always")
def _bit(seat):
    return 1 << seat


@njit(cache=True, inline="always")
def _has(mask, seat):
    return (mask >> seat) & 1


@njit(cache=True)
def _n(s):
    return np.int64(s[L.N_PLAYERS])


@njit(cache=True)
def _offset_from_mano(s, seat):
    n = _n(s)
    return (seat - s[L.MANO_SEAT] + n) % n


@njit(cache=True)
def _in_mano(s, seat):
    return _has(s[L.FOLDED], seat) == 0


@njit(cache=True)
def _in_truque(s, seat):
    return _has(s[L.FOLDED], seat) == 0 and _has(s[L.NO_VALE], seat) == 0


@njit(cache=True)
def _team_in_truque(s, team):
    for seat in range(team, _n(s), 2):
        if _in_truque(s, seat):
            return True
    return False


@njit(cache=True)
def _has_flor(s, seat):
    return s[L.FLOR_VAL + seat] > 0


@njit(cache=True)
def _is_reservada(s, seat):
    return _has(s[L.RESERVADA], seat) == 1


@njit(cache=True)
def _unplayed(s, seat):
    return 3 - ((s[L.HAND_PLAYED + seat] & 1) + ((s[L.HAND_PLAYED + seat] >> 1) & 1) + ((s[L.HAND_PLAYED + seat] >> 2) & 1))


@njit(cache=True)
def _refusal_pay_truco(prev_level):
    # 14.14, 18.2 s-u: truco refused 1, retruco refused 3, panueve refused 6
    if prev_level == 0:
        return 1
    return 3 * prev_level


# ------------------------------------------------------------------------------------------
# table set-up and the deal


@njit(cache=True)
def init_table(s, team_size, target, juegos, senas_limit, p_intercept_permille, seed):
    """Configure a fresh table and draw the first dealer (Art. 4.1, ruling 6)."""
    s[:] = 0
    s[L.N_PLAYERS] = 2 * team_size
    s[L.TEAM_SIZE] = team_size
    s[L.TARGET] = target
    s[L.JUEGOS_TO_WIN] = (juegos + 1) // 2
    s[L.SENAS_LIMIT] = senas_limit
    s[L.P_INTERCEPT] = p_intercept_permille
    s[L.LAST_JUEGO_WINNER] = -1
    rng_set(s, np.uint64(seed))
    s[L.DEALER] = draw(s, 2 * team_size)
    s[L.PHASE] = L.PH_DONE
    s[L.TO_ACT] = -1


@njit(cache=True)
def set_deal_stream(s, deal_seed):
    """Deal from ``deal_seed`` and the mano count from now on (for duplicate deals)."""
    s[L.DEAL_STREAM] = 1
    x = np.uint64(deal_seed)
    for w in range(4):
        v = np.int64((x >> np.uint64(16 * w)) & np.uint64(0xFFFF))
        s[L.DEAL_SEED + w] = v - 65536 if v >= 32768 else v


@njit(cache=True)
def _reset_mano(s):
    n = _n(s)
    s[L.MANO_SEAT] = (s[L.DEALER] + 1) % n  # mano: right of the dealer, who is postre (4.23)
    lead = max(s[L.SCORE], s[L.SCORE + 1])
    s[L.FALTA] = s[L.TARGET] - lead  # 6.16
    s[L.AL_CANTAR] = 1 if (s[L.SCORE] == s[L.TARGET] - 1 or s[L.SCORE + 1] == s[L.TARGET] - 1) else 0
    for f in (
        L.BLIND_TURN, L.BAZA, L.TRUQUE_OVER, L.FIRST_ROUND, L.FOLDED, L.NO_VALE,
        L.BET_PARES_MASK, L.CHALLENGED, L.FLOR_SUNG, L.CARDS_UP, L.PARES_ST, L.PARES_STAKE,
        L.PARES_PREV, L.PARES_BLIND_ACC, L.PARES_VOID, L.TRUCO_ST, L.TRUCO_LEVEL, L.TRUCO_PREV,
        L.FLOR_ST, L.FLOR_ENV_ST, L.FLOR_STAKE, L.FLOR_PREV, L.FLOR_POS, L.FLOR_FROM_CANTE,
        L.FE_POS, L.CANTE_DONE, L.CARDS_SEEN, L.FC_ANS, L.FC_DECLARED, L.RES_POS, L.RES_DONE, L.EX_KIND, L.EX_POS, L.EX_BEST, L.EX_BLIND, L.SENA_LOG_N,
    ):
        s[f] = 0
    for f in (L.TRUQUE_WINNER, L.PARES_RAISER, L.TRUCO_RAISER, L.FLOR_RAISER, L.FLOR_STARTER,
              L.EX_TEAM, L.EX_RAISER, L.EX_BEST_SEAT, L.FC_TEAM):
        s[f] = -1
    for i in range(L.MAX_PLAYERS):
        s[L.HAND_PLAYED + i] = 0
        s[L.SENAS_MADE + i] = 0
        s[L.PARES_VAL + i] = 0
        s[L.FLOR_VAL + i] = 0
    s[L.RESERVADA] = 0
    for i in range(3 * L.MAX_PLAYERS):
        s[L.PLAYED + i] = -1
        s[L.HAND + i] = -1
    for b in range(3):
        s[L.BAZA_WIN_TEAM + b] = L.BAZA_UNDECIDED
        s[L.BAZA_WIN_SEAT + b] = -1
    for i in range(6):
        s[L.CHINAS + i] = 0
    s[L.SCORED] = 0
    s[L.SCORED + 1] = 0
    s[L.LAST_JUEGO_WINNER] = -1


@njit(cache=True)
def _value_hands(s):
    reservada = 0
    for seat in range(_n(s)):
        a = s[L.HAND + 3 * seat]
        b = s[L.HAND + 3 * seat + 1]
        c = s[L.HAND + 3 * seat + 2]
        s[L.PARES_VAL + seat] = pares_value_nb(a, b, c)
        s[L.FLOR_VAL + seat] = flor_value_nb(a, b, c)
        if is_reservada_nb(a, b, c):
            reservada |= _bit(seat)
    s[L.RESERVADA] = reservada


@njit(cache=True)
def _start_blind(s):
    if s[L.AL_CANTAR]:
        # 15.7 and Art. 8: no apuestas a ciegas in a mano played al cantar
        _start_close(s)
    else:
        s[L.PHASE] = L.PH_BLIND
        s[L.TO_ACT] = s[L.MANO_SEAT]


@njit(cache=True)
def deal_random(s):
    """Start a mano with a uniform shuffle from the table's generator (4.11, ruling 6)."""
    _reset_mano(s)
    deck = np.arange(40)
    if s[L.DEAL_STREAM] == 1:
        # duplicate deals: the n-th mano's deal depends only on DEAL_SEED and n
        x = np.uint64(0)
        for w in range(4):
            x |= np.uint64(np.int64(s[L.DEAL_SEED + w]) & 0xFFFF) << np.uint64(16 * w)
        x ^= np.uint64(np.int64(s[L.MANO_COUNT]) & 0xFFFF) * np.uint64(0xD1B54A32D192ED03)
        for i in range(39, 0, -1):
            x, z = splitmix_next(x)
            j = np.int64(z % np.uint64(i + 1))
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
    else:
        for i in range(39, 0, -1):
            j = draw(s, i + 1)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
    n = _n(s)
    for k in range(3 * n):
        seat = (s[L.MANO_SEAT] + k) % n
        s[L.HAND + 3 * seat + k // n] = deck[k]
    _value_hands(s)
    _start_blind(s)


@njit(cache=True)
def deal_hands(s, hands):
    """Start a mano with given hands (``hands[seat, slot]``); used by scripted deals."""
    _reset_mano(s)
    for seat in range(_n(s)):
        for k in range(3):
            s[L.HAND + 3 * seat + k] = hands[seat, k]
    _value_hands(s)
    _start_blind(s)


# ------------------------------------------------------------------------------------------
# exchanges (answers by a team, ruling 4)


@njit(cache=True)
def _ex_member_ok(s, seat):
    if seat % 2 != s[L.EX_TEAM] or not _in_mano(s, seat):
        return False
    if s[L.EX_KIND] == L.EX_FLORES and _has(s[L.FLOR_SUNG], seat) == 0:
        return False  # 11.4: only the rival singers answer
    return True


@njit(cache=True)
def _ex_seek(s, start_pos):
    """Move to the first answering member at offset >= start_pos; False when none is left."""
    n = _n(s)
    for k in range(start_pos, n):
        seat = (s[L.EX_RAISER] + k) % n
        if _ex_member_ok(s, seat):
            s[L.EX_POS] = k
            s[L.TO_ACT] = seat
            return True
    return False


@njit(cache=True)
def _open_exchange(s, kind, raiser, blind, ret, best):
    s[L.PHASE] = L.PH_ANSWER
    s[L.EX_KIND] = kind
    s[L.EX_RAISER] = raiser
    s[L.EX_TEAM] = 1 - raiser % 2
    s[L.EX_BEST] = best
    s[L.EX_BEST_SEAT] = -1
    s[L.EX_BLIND] = blind
    s[L.EX_RETURN] = ret
    # The answering team always has a member in the mano here (else the mano would be over),
    # and in the envite de flores a singer. No recursion into _resolve_exchange: numba's
    # cache cannot hold recursive call graphs.
    _ex_seek(s, 1)


@njit(cache=True)
def _stake_field(kind):
    if kind == L.EX_PARES or kind == L.EX_FALTA_CIEGAS:
        return L.PARES_ST
    if kind == L.EX_TRUCO:
        return L.TRUCO_ST
    return L.FLOR_ENV_ST


@njit(cache=True)
def _team_mask(s, team):
    m = 0
    for seat in range(team, _n(s), 2):
        m |= _bit(seat)
    return m


@njit(cache=True)
def _resolve_falta_ciegas(s):
    """12.5-12.11: B accepted or not (largest answer), and sang its flores or not."""
    b_team = 1 - s[L.FC_TEAM]
    sung = (s[L.FLOR_SUNG] & _team_mask(s, b_team)) != 0
    accepted = s[L.EX_BEST] == L.ANS_QUIERO
    if accepted:
        s[L.PARES_ST] = L.BET_ACCEPTED
        s[L.FC_ANS] = L.FC_CON_FLOR_QUIERO if sung else L.FC_QUIERO
    else:
        s[L.PARES_ST] = L.BET_REFUSED
        s[L.FC_ANS] = L.FC_CON_FLOR_NO_QUIERO if sung else L.FC_REFUSED
    # 12.3, 12.4, 12.7: B answered with the cards, before any card, and only then could it sing its
    # flores; A's flores van cantadas with the falta. Whatever the answer (a plain "no quiero"
    # too), no flor is sung later.
    s[L.FLOR_ST] = 2
    if sung:
        s[L.PARES_VOID] = 1


@njit(cache=True)
def _resolve_exchange(s):
    kind = s[L.EX_KIND]
    best = s[L.EX_BEST]
    st = _stake_field(kind)
    if best >= L.ANS_RAISE:
        # the raise accepts the stake and raises it (6.4); the other team answers now
        seat = s[L.EX_BEST_SEAT]
        if kind == L.EX_PARES:
            s[L.PARES_PREV] = s[L.PARES_STAKE]
            s[L.PARES_STAKE] = best - L.ANS_RAISE
            s[L.PARES_RAISER] = seat
            if s[L.EX_BLIND] == 1 and s[L.PARES_STAKE] == L.FALTA_NOMINAL:
                s[L.FC_TEAM] = seat % 2  # 7.7, 12.21: revoking a ciegas with la falta
        elif kind == L.EX_TRUCO:
            s[L.TRUCO_PREV] = s[L.TRUCO_LEVEL]
            s[L.TRUCO_LEVEL] = best - L.ANS_RAISE
            s[L.TRUCO_RAISER] = seat
        else:
            s[L.FLOR_PREV] = s[L.FLOR_STAKE]
            s[L.FLOR_STAKE] = best - L.ANS_RAISE
            s[L.FLOR_RAISER] = seat
        s[L.EX_RAISER] = seat
        s[L.EX_TEAM] = 1 - seat % 2
        s[L.EX_BEST] = L.ANS_NONE
        s[L.EX_BEST_SEAT] = -1
        if _ex_seek(s, 1):
            return
        best = L.ANS_QUIERO  # nobody left to answer: cannot happen while a team is in the mano
    if kind == L.EX_FALTA_CIEGAS:
        _resolve_falta_ciegas(s)
    elif best == L.ANS_LUEGO:
        s[st] = L.BET_DEFERRED  # 7.2, 15.2
    elif best == L.ANS_NO_QUIERO:
        s[st] = L.BET_REFUSED
        if kind == L.EX_TRUCO:
            # 14.9: a refused challenge ends the truque for the raiser's team
            s[L.TRUQUE_OVER] = 1
            s[L.TRUQUE_WINNER] = s[L.TRUCO_RAISER] % 2
        if kind == L.EX_PARES and s[L.FC_TEAM] >= 0:
            s[L.FC_ANS] = L.FC_REFUSED
    else:
        s[st] = L.BET_ACCEPTED
        if kind == L.EX_PARES and s[L.EX_BLIND] == 1:
            if s[L.FC_TEAM] >= 0:
                s[L.FC_ANS] = L.FC_QUIERO_CIEGAS  # 12.12: every flor goes cantada
                s[L.FLOR_ST] = 2
            else:
                s[L.PARES_BLIND_ACC] = 1  # 7.4: querer a ciegas keeps the right to revoke
    s[L.EX_KIND] = 0
    ret = s[L.EX_RETURN]
    if ret == L.RET_BLIND:
        _next_blind(s)
    elif ret == L.RET_CLOSE:
        _start_close(s)
    elif ret == L.RET_FLOR_ENVITE:
        _end_flor(s)
    else:
        _resume_play(s)


# ------------------------------------------------------------------------------------------
# blind round and closing


@njit(cache=True)
def _next_blind(s):
    s[L.PHASE] = L.PH_BLIND
    s[L.BLIND_TURN] += 1
    if s[L.BLIND_TURN] >= _n(s):
        _start_close(s)
    else:
        s[L.TO_ACT] = (s[L.MANO_SEAT] + s[L.BLIND_TURN]) % _n(s)


@njit(cache=True)
def _start_close(s):
    """Close blind bets before any card (17.21: the envite first, then the truco)."""
    s[L.PHASE] = L.PH_CLOSE
    s[L.CARDS_SEEN] = 1
    if s[L.PARES_ST] == L.BET_DEFERRED:
        s[L.PARES_ST] = L.BET_OPEN
        kind = L.EX_FALTA_CIEGAS if s[L.FC_TEAM] >= 0 else L.EX_PARES
        _open_exchange(s, kind, s[L.PARES_RAISER], 0, L.RET_CLOSE, L.ANS_NONE)
        return
    if s[L.PARES_BLIND_ACC] == 1:
        s[L.PARES_BLIND_ACC] = 0
        s[L.PARES_ST] = L.BET_OPEN
        # 7.4: the accepting team may revoke; its standing answer is already "quiero"
        _open_exchange(s, L.EX_PARES, s[L.PARES_RAISER], 0, L.RET_CLOSE, L.ANS_QUIERO)
        return
    if s[L.TRUCO_ST] == L.BET_DEFERRED:
        s[L.TRUCO_ST] = L.BET_OPEN
        _open_exchange(s, L.EX_TRUCO, s[L.TRUCO_RAISER], 0, L.RET_CLOSE, L.ANS_NONE)
        return
    if s[L.AL_CANTAR] and s[L.CANTE_DONE] == 0:
        s[L.PHASE] = L.PH_CANTE
        s[L.TURN] = s[L.MANO_SEAT]
        s[L.TO_ACT] = s[L.MANO_SEAT]
        return
    _start_play(s)


# ------------------------------------------------------------------------------------------
# the bazas


@njit(cache=True)
def _first_in_truque_from_mano(s):
    n = _n(s)
    for k in range(n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _in_truque(s, seat):
            return seat
    return -1


@njit(cache=True)
def _start_play(s):
    s[L.PHASE] = L.PH_PLAY
    s[L.BAZA] = 0
    s[L.TURN] = _first_in_truque_from_mano(s)
    s[L.TO_ACT] = s[L.TURN]


@njit(cache=True)
def _resume_play(s):
    """Back to the turn holder after a bet, or on to the next turn if the truque just ended."""
    s[L.PHASE] = L.PH_PLAY
    if s[L.TRUQUE_OVER] == 1 and s[L.BAZA] > 0:
        _finish(s)  # 14.9: refused after the first baza, the mano is over
        return
    s[L.TO_ACT] = s[L.TURN]


@njit(cache=True)
def _completion_mode(s):
    return s[L.TRUQUE_OVER] == 1 and s[L.BAZA] == 0


@njit(cache=True)
def _advance_turn(s):
    """After the turn holder played (or passed, or left), find who is next (13.3, 14.10)."""
    n = _n(s)
    b = s[L.BAZA]
    turn = s[L.TURN]
    if _completion_mode(s):
        for k in range(1, n + 1):
            seat = (turn + k) % n
            if _in_mano(s, seat) and _has(s[L.FIRST_ROUND], seat) == 0:
                s[L.TURN] = seat
                s[L.TO_ACT] = seat
                return
        _finish(s)
        return
    for k in range(1, n + 1):
        seat = (turn + k) % n
        if _in_truque(s, seat) and s[L.PLAYED + b * L.MAX_PLAYERS + seat] < 0:
            s[L.TURN] = seat
            s[L.TO_ACT] = seat
            return
    _resolve_baza(s)


@njit(cache=True)
def _resolve_baza(s):
    n = _n(s)
    b = s[L.BAZA]
    best = -1
    for seat in range(n):
        c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
        if c >= 0 and TRUQUE_POWER[c] > best:
            best = TRUQUE_POWER[c]
    teams = 0
    win_seat = -1
    win_off = 99
    for seat in range(n):
        c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
        if c >= 0 and TRUQUE_POWER[c] == best:
            teams |= 1 << (seat % 2)
            off = _offset_from_mano(s, seat)
            if off < win_off:  # closest to mano: 16.5; among partners the earlier player, 13.7
                win_off = off
                win_seat = seat
    if teams == 3:
        s[L.BAZA_WIN_TEAM + b] = L.BAZA_PARDA  # 16.1
    else:
        # the earlier of equal partners leads next (13.7): earliest in this baza's order
        lead = s[L.TURN]  # last to play; the baza began right after the previous leader...
        win_seat = -1
        start = -1
        for k in range(n):  # find the leader: the first of the baza's order who played
            seat = (lead + 1 + k) % n
            if s[L.PLAYED + b * L.MAX_PLAYERS + seat] >= 0:
                start = seat
                break
        for k in range(n):
            seat = (start + k) % n
            c = s[L.PLAYED + b * L.MAX_PLAYERS + seat]
            if c >= 0 and TRUQUE_POWER[c] == best:
                win_seat = seat
                break
        s[L.BAZA_WIN_TEAM + b] = win_seat % 2
    s[L.BAZA_WIN_SEAT + b] = win_seat
    w0 = s[L.BAZA_WIN_TEAM]
    w1 = s[L.BAZA_WIN_TEAM + 1]
    w2 = s[L.BAZA_WIN_TEAM + 2]
    winner = -1
    if b == 1:
        if w0 == L.BAZA_PARDA:
            if w1 != L.BAZA_PARDA:
                winner = w1  # after pardas the second decides (16.2)
        elif w1 == w0 or w1 == L.BAZA_PARDA:
            winner = w0  # two bazas (13.10), or la primera vale por dos (13.11)
    elif b == 2:
        if w2 != L.BAZA_PARDA:
            winner = w2
        elif w0 != L.BAZA_PARDA:
            winner = w0  # 13.11
        else:
            winner = win_seat % 2  # three pardas: por la mano (16.5)
    if winner >= 0:
        s[L.TRUQUE_OVER] = 1
        s[L.TRUQUE_WINNER] = winner
        _finish(s)
        return
    s[L.BAZA] = b + 1
    if s[L.BAZA_WIN_TEAM + b] == L.BAZA_PARDA:
        s[L.TURN] = _first_in_truque_from_mano(s)  # 16.2, 16.4: after pardas, mano begins
    else:
        s[L.TURN] = s[L.BAZA_WIN_SEAT + b]  # 13.6: el que gana vuelve
    s[L.TO_ACT] = s[L.TURN]


# ------------------------------------------------------------------------------------------
# flores


@njit(cache=True)
def _flor_eligible(s, seat):
    """May sing flor now (10.7, 10.10, 10.12, 10.18)."""
    if not _has_flor(s, seat) or not _in_mano(s, seat) or _has(s[L.FLOR_SUNG], seat):
        return False
    if _is_reservada(s, seat):
        return True
    return _has(s[L.BET_PARES_MASK], seat) == 0 and _has(s[L.CHALLENGED], seat) == 0


@njit(cache=True)
def _flor_round_seat_ahead(s, seat):
    return _offset_from_mano(s, seat) > _offset_from_mano(s, s[L.FLOR_STARTER])


@njit(cache=True)
def _start_flor_round(s, singer, from_cante):
    s[L.FLOR_SUNG] |= _bit(singer)
    s[L.PARES_VOID] = 1  # 6.8, 10.5: una flor anula los pares
    s[L.FLOR_ST] = 1
    s[L.FLOR_STARTER] = singer
    s[L.FLOR_FROM_CANTE] = from_cante
    s[L.PHASE] = L.PH_FLOR_ROUND
    _flor_round_seek(s, 1)


@njit(cache=True)
def _flor_round_seek(s, start):
    n = _n(s)
    for k in range(start, n):
        seat = (s[L.FLOR_STARTER] + k) % n
        if _in_mano(s, seat):
            s[L.FLOR_POS] = k
            s[L.TO_ACT] = seat
            return
    _end_flor_round(s)


@njit(cache=True)
def _end_flor_round(s):
    s[L.FLOR_ST] = 2
    sung0 = False
    sung1 = False
    for seat in range(_n(s)):
        if _has(s[L.FLOR_SUNG], seat):
            if seat % 2 == 0:
                sung0 = True
            else:
                sung1 = True
    if sung0 and sung1:
        s[L.PHASE] = L.PH_FLOR_ENVITE  # 11.2: flores in both teams must be disputed
        _flor_envite_seek(s, 0)
    else:
        _end_flor(s)


@njit(cache=True)
def _flor_envite_seek(s, start):
    n = _n(s)
    for k in range(start, n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _has(s[L.FLOR_SUNG], seat) and _in_mano(s, seat):
            s[L.FE_POS] = k
            s[L.TO_ACT] = seat
            return
    _end_flor(s)  # 11.3: everybody passed


@njit(cache=True)
def _end_flor(s):
    if s[L.FLOR_FROM_CANTE] == 1:
        s[L.CANTE_DONE] = 1
        _start_play(s)  # 8.3: the cante was annulled; the truque follows
    else:
        _resume_play(s)


# ------------------------------------------------------------------------------------------
# the cante (Art. 8)


@njit(cache=True)
def _best_seat(s, values_field, candidates_mask):
    """Seat with the highest value among candidates, closest to mano on ties (6.22, 11.6)."""
    n = _n(s)
    best = -1
    best_seat = -1
    for k in range(n):
        seat = (s[L.MANO_SEAT] + k) % n
        if _has(candidates_mask, seat) and s[values_field + seat] > best:
            best = s[values_field + seat]
            best_seat = seat
    return best_seat


@njit(cache=True)
def _in_mano_mask(s):
    m = 0
    for seat in range(_n(s)):
        if _in_mano(s, seat):
            m |= _bit(seat)
    return m


@njit(cache=True)
def _advance_cante(s):
    n = _n(s)
    nxt = (s[L.TURN] + 1) % n
    if nxt == s[L.MANO_SEAT]:
        s[L.CANTE_DONE] = 1
        s[L.FLOR_ST] = 2  # the cante was each player's chance to sing flor
        winner = _best_seat(s, L.PARES_VAL, _in_mano_mask(s))
        team = winner % 2
        s[L.CHINAS + 3 * team + L.SRC_PARES] = 1  # 18.2 f
        if s[L.SCORE + team] == s[L.TARGET] - 1:
            _finish(s)  # 8.4: the team al cantar wins the juego without the truque
        else:
            _start_play(s)
        return
    s[L.TURN] = nxt
    s[L.TO_ACT] = nxt


# ------------------------------------------------------------------------------------------
# end of the mano: chinas (Art. 18.2) and the score (ruling 1)


@njit(cache=True)
def _score_pares(s):
    if s[L.PARES_VOID] == 1 or s[L.AL_CANTAR] == 1:
        return
    falta = s[L.FALTA]
    if s[L.PARES_ST] == L.BET_ACCEPTED:
        winner = _best_seat(s, L.PARES_VAL, _in_mano_mask(s))  # 6.20, 6.22
        s[L.CHINAS + 3 * (winner % 2) + L.SRC_PARES] = min(s[L.PARES_STAKE], falta)  # 18.2 b
    elif s[L.PARES_ST] == L.BET_REFUSED:
        pay = 1 if s[L.PARES_PREV] == 0 else min(s[L.PARES_PREV], falta)  # 18.2 a, c
        s[L.CHINAS + 3 * (s[L.PARES_RAISER] % 2) + L.SRC_PARES] = pay


@njit(cache=True)
def _score_flores(s):
    valid = s[L.FLOR_SUNG] & _in_mano_mask(s)
    if valid == 0:
        return
    count0 = 0
    count1 = 0
    for seat in range(_n(s)):
        if _has(valid, seat):
            if seat % 2 == 0:
                count0 += 1
            else:
                count1 += 1
    falta = s[L.FALTA]
    st = s[L.FLOR_ENV_ST]
    if st == L.BET_REFUSED:
        team = s[L.FLOR_RAISER] % 2
        own = count0 if team == 0 else count1
        if s[L.FLOR_PREV] == 0:
            s[L.CHINAS + 3 * team + L.SRC_FLORES] = 3 * own + 1  # 11.5, 18.2 h: derribe
        else:  # 11.9, 18.2 k: the revoque refused, no derribe
            s[L.CHINAS + 3 * team + L.SRC_FLORES] = 3 * (count0 + count1) + min(s[L.FLOR_PREV], falta)
        return
    team = _best_seat(s, L.FLOR_VAL, valid) % 2
    if st == L.BET_ACCEPTED:  # 11.7, 11.8, 18.2 j
        s[L.CHINAS + 3 * team + L.SRC_FLORES] = 3 * (count0 + count1) + min(s[L.FLOR_STAKE], falta)
    else:  # 18.2 g, 11.10: the best flor shown wins its team's sung flores
        s[L.CHINAS + 3 * team + L.SRC_FLORES] = 3 * (count0 if team == 0 else count1)


@njit(cache=True)
def _score_truque(s):
    if s[L.TRUQUE_OVER] == 0:
        return  # 8.4: the cante decided the juego
    team = s[L.TRUQUE_WINNER]
    st = s[L.TRUCO_ST]
    if st == L.BET_ACCEPTED:
        chinas = 3 * s[L.TRUCO_LEVEL]  # 14.12, 18.2 v
    elif st == L.BET_REFUSED:
        chinas = _refusal_pay_truco(s[L.TRUCO_PREV])
    else:
        chinas = 1  # 13.13
    s[L.CHINAS + 3 * team + L.SRC_TRUQUE] = chinas


@njit(cache=True)
def _flores_held(s, team):
    """Mask of the players of ``team`` still in the mano who hold flor (flores van cantadas)."""
    m = 0
    for seat in range(team, _n(s), 2):
        if _in_mano(s, seat) and _has_flor(s, seat):
            m |= _bit(seat)
    return m


@njit(cache=True)
def _popcount(m):
    c = 0
    while m:
        c += m & 1
        m >>= 1
    return c


@njit(cache=True)
def _reservada_seek(s, start):
    """12.13, 12.17: B players holding a reservada they did not sing, in order from mano."""
    n = _n(s)
    b_team = 1 - s[L.FC_TEAM]
    for k in range(start, n):
        seat = (s[L.MANO_SEAT] + k) % n
        if (seat % 2 == b_team and _in_mano(s, seat) and _is_reservada(s, seat)
                and _has(s[L.FLOR_SUNG], seat) == 0):
            s[L.RES_POS] = k
            s[L.TO_ACT] = seat
            s[L.PHASE] = L.PH_RESERVADA
            return True
    return False


@njit(cache=True)
def _score_falta_ciegas(s):
    """Art. 12 and 18.2 d, e, l-r (docs/engine.md, "La falta a ciegas")."""
    a_team = s[L.FC_TEAM]
    b_team = 1 - a_team
    falta = s[L.FALTA]
    ans = s[L.FC_ANS]
    in_mano = _in_mano_mask(s)
    fa = _flores_held(s, a_team)
    if ans == L.FC_QUIERO_CIEGAS:
        fb = _flores_held(s, b_team)
    else:
        fb = s[L.FLOR_SUNG] & _team_mask(s, b_team) & in_mano
    na = _popcount(fa)
    nb = _popcount(fb)
    if ans == L.FC_CON_FLOR_NO_QUIERO:
        nd = _popcount(s[L.FC_DECLARED] & in_mano)
        if nd > 0:
            s[L.CHINAS + 3 * a_team + L.SRC_FLORES] = 3 * nd + 1  # 18.2 l
        else:
            s[L.CHINAS + 3 * b_team + L.SRC_FLORES] = 3 * nb  # 18.2 n
        return
    a_wins_flores = 3 * na
    b_wins_flores = 3 * nb
    by_pares = False
    if ans == L.FC_CON_FLOR_QUIERO:
        disputed = na > 0  # 18.2 m; without A's flor, 18.2 o (a flor was sung: no pares)
        a_wins_flores = 0
    elif ans == L.FC_QUIERO:
        by_pares = na == 0  # 18.2 d
        disputed = na > 0 and nb > 0  # 12.13: a reservada sung at the end
        b_wins_flores = 0
    else:  # querer a ciegas, 18.2 e, q, r
        by_pares = na + nb == 0
        disputed = na > 0 and nb > 0
    if by_pares:
        winner = _best_seat(s, L.PARES_VAL, in_mano)
        s[L.CHINAS + 3 * (winner % 2) + L.SRC_PARES] = falta
    elif disputed:
        winner = _best_seat(s, L.FLOR_VAL, fa | fb)
        s[L.CHINAS + 3 * (winner % 2) + L.SRC_FLORES] = 3 * (na + nb) + falta
    elif na > 0 and a_wins_flores > 0:
        s[L.CHINAS + 3 * a_team + L.SRC_FLORES] = a_wins_flores  # 18.2 p, q
    else:
        s[L.CHINAS + 3 * b_team + L.SRC_FLORES] = b_wins_flores  # 18.2 o, q


@njit(cache=True)
def _finish(s):
    """The bazas are over: a last word for a reservada (12.13) if due, then the chinas."""
    if (s[L.FC_ANS] == L.FC_QUIERO and s[L.RES_DONE] == 0
            and _flores_held(s, s[L.FC_TEAM]) != 0 and _reservada_seek(s, 0)):
        return
    _close_mano(s)


@njit(cache=True)
def _close_mano(s):
    fc = s[L.FC_ANS]
    if fc == L.FC_NONE or fc == L.FC_REFUSED:
        _score_pares(s)
        _score_flores(s)
    else:
        _score_falta_ciegas(s)
    _score_truque(s)
    s[L.PHASE] = L.PH_DONE
    s[L.TO_ACT] = -1
    # 17.3: pares-flores count before truque; the first team to reach the target wins (ruling 1)
    winner = -1
    s[L.SCORED] = 0
    s[L.SCORED + 1] = 0
    for src in range(3):
        for team in range(2):
            s[L.SCORE + team] += s[L.CHINAS + 3 * team + src]
            s[L.SCORED + team] += s[L.CHINAS + 3 * team + src]
            if winner < 0 and s[L.SCORE + team] >= s[L.TARGET]:
                winner = team
        if winner >= 0:
            break
    s[L.LAST_JUEGO_WINNER] = winner
    if winner >= 0:
        s[L.JUEGOS + winner] += 1
        s[L.SCORE] = 0
        s[L.SCORE + 1] = 0
        if s[L.JUEGOS + winner] >= s[L.JUEGOS_TO_WIN]:
            s[L.PARTIDA_OVER] = 1
    s[L.DEALER] = (s[L.DEALER] + 1) % _n(s)  # 4.2
    s[L.MANO_COUNT] += 1


# ------------------------------------------------------------------------------------------
# legal actions


@njit(cache=True)
def _mark_raises(s, mask, kind, above):
    """Raises strictly above the answer value ``above`` (ANS_RAISE + nominal)."""
    if kind == L.EX_PARES:
        if s[L.PARES_STAKE] == L.FALTA_NOMINAL:
            return
        for k in range(1, A.MAX_PARES_N + 1):
            if L.ANS_RAISE + 2 * k > above:
                mask[A.PARES_BASE + k - 1] = 1
        if above < L.ANS_RAISE + L.FALTA_NOMINAL:  # nothing above la falta
            mask[A.FALTA] = 1
    elif kind == L.EX_FLORES:
        if s[L.FLOR_STAKE] == L.FALTA_NOMINAL:
            return
        for k in range(1, A.MAX_FLORES_N + 1):
            if L.ANS_RAISE + 3 * k > above:
                mask[A.FLORES_BASE + k - 1] = 1
        if above < L.ANS_RAISE + L.FALTA_NOMINAL:
            mask[A.FALTA] = 1
    else:
        lvl = s[L.TRUCO_LEVEL]
        if lvl < 3 and L.ANS_RAISE + lvl + 1 > above:
            mask[A.TRUCO + lvl] = 1  # RETRUCO = TRUCO + 1, PANUEVE = TRUCO + 2


@njit(cache=True)
def _raise_floor(s, kind):
    if kind == L.EX_PARES:
        return L.ANS_RAISE + s[L.PARES_STAKE]
    if kind == L.EX_FLORES:
        return L.ANS_RAISE + s[L.FLOR_STAKE]
    return L.ANS_RAISE + s[L.TRUCO_LEVEL]


@njit(cache=True)
def _can_envite(s, seat):
    """6.6-6.9, 6.13: mandar pares with three cards, in the first baza."""
    return (
        s[L.BAZA] == 0
        and s[L.PARES_ST] == L.BET_NONE
        and s[L.FLOR_ST] == 0
        and s[L.AL_CANTAR] == 0
        and _has(s[L.CHALLENGED], seat) == 0
    )


@njit(cache=True)
def _mark_open_envite(mask):
    for k in range(A.MAX_PARES_N):
        mask[A.PARES_BASE + k] = 1
    mask[A.FALTA] = 1


@njit(cache=True)
def legal_mask(s, mask):
    """Write the legal actions of the player to act into ``mask`` (uint8, NUM_ACTIONS)."""
    mask[:] = 0
    ph = s[L.PHASE]
    if ph == L.PH_DONE:
        return
    p = s[L.TO_ACT]
    # señas (ruling 3): free, while holding cards, after the deal
    if s[L.CARDS_SEEN] and s[L.SENAS_MADE + p] < s[L.SENAS_LIMIT] and _in_mano(s, p) and _unplayed(s, p) > 0:
        for k in range(A.NUM_SENAS):
            mask[A.SENA_BASE + k] = 1
    if ph == L.PH_BLIND:
        mask[A.PASO] = 1
        if s[L.PARES_ST] == L.BET_NONE:
            _mark_open_envite(mask)  # with "envío la falta": la falta a ciegas (12.1)
        if s[L.TRUCO_ST] == L.BET_NONE:
            mask[A.TRUCO] = 1
    elif ph == L.PH_ANSWER:
        kind = s[L.EX_KIND]
        best = s[L.EX_BEST]
        if kind == L.EX_FALTA_CIEGAS:
            # 12.5-12.7 and ruling 4: accept or not, with or without singing one's flor
            flor = _has_flor(s, p)
            if best == L.ANS_NONE:
                mask[A.NO_QUIERO] = 1
                mask[A.QUIERO] = 1
                if flor:
                    mask[A.CON_FLOR_NO_QUIERO] = 1
                    mask[A.CON_FLOR_QUIERO] = 1
            else:
                mask[A.PASO] = 1
                if best < L.ANS_QUIERO:
                    mask[A.QUIERO] = 1
                    if flor:
                        mask[A.CON_FLOR_NO_QUIERO] = 1
                if flor:
                    mask[A.CON_FLOR_QUIERO] = 1
        elif best == L.ANS_NONE:
            if s[L.EX_BLIND] == 1:
                mask[A.LUEGO] = 1
            mask[A.NO_QUIERO] = 1
            mask[A.QUIERO] = 1
            _mark_raises(s, mask, kind, _raise_floor(s, kind))
        else:
            mask[A.PASO] = 1
            if best < L.ANS_NO_QUIERO:
                mask[A.NO_QUIERO] = 1
            if best < L.ANS_QUIERO:
                mask[A.QUIERO] = 1
            _mark_raises(s, mask, kind, max(best, _raise_floor(s, kind)))
    elif ph == L.PH_CANTE:
        mask[A.CANTO_PARES] = 1
        if _has_flor(s, p):
            mask[A.FLOR] = 1
    elif ph == L.PH_FLOR_ROUND:
        mask[A.PASO] = 1
        if _flor_round_seat_ahead(s, p):
            if _flor_eligible(s, p):
                mask[A.FLOR] = 1
        elif _is_reservada(s, p) and _flor_eligible(s, p):
            mask[A.FLOR] = 1  # 10.9, 10.17: only a reservada is sung from behind
    elif ph == L.PH_FLOR_ENVITE:
        mask[A.PASO] = 1
        for k in range(A.MAX_FLORES_N):
            mask[A.FLORES_BASE + k] = 1
        mask[A.FALTA] = 1
    elif ph == L.PH_RESERVADA:
        mask[A.PASO] = 1
        mask[A.FLOR] = 1
    elif ph == L.PH_PLAY:
        b = s[L.BAZA]
        if b == 0 and s[L.FLOR_ST] == 0 and _flor_eligible(s, p):
            mask[A.FLOR] = 1
        if (b == 0 and s[L.FC_ANS] == L.FC_CON_FLOR_NO_QUIERO and p % 2 == s[L.FC_TEAM]
                and _has_flor(s, p) and _has(s[L.FC_DECLARED], p) == 0):
            mask[A.DE_LA_MIA] = 1  # 12.8, 12.9: before playing his first card
        if _can_envite(s, p):
            _mark_open_envite(mask)
        if _completion_mode(s):
            mask[A.PASO] = 1  # 14.10: leave the three cards face up
            return
        for k in range(3):
            if (s[L.HAND_PLAYED + p] >> k) & 1 == 0:
                mask[A.PLAY_BASE + s[L.HAND + 3 * p + k]] = 1
        if s[L.TRUCO_ST] == L.BET_NONE:
            mask[A.TRUCO] = 1
        elif s[L.TRUCO_ST] == L.BET_ACCEPTED and s[L.TRUCO_RAISER] % 2 != p % 2 and s[L.TRUCO_LEVEL] < 3:
            mask[A.TRUCO + s[L.TRUCO_LEVEL]] = 1  # 14.8
        mask[A.BARAJA] = 1
        if b >= 1:
            for q in range(p % 2, _n(s), 2):
                if q != p and _in_truque(s, q):
                    mask[A.NO_VALE] = 1  # 13.16: "ésa es", a partner still plays
                    break


# ------------------------------------------------------------------------------------------
# step


@njit(cache=True)
def _answer_value(s, a):
    if a == A.LUEGO:
        return L.ANS_LUEGO
    if a == A.NO_QUIERO:
        return L.ANS_NO_QUIERO
    if a == A.QUIERO:
        return L.ANS_QUIERO
    if a == A.FALTA:
        return L.ANS_RAISE + L.FALTA_NOMINAL
    if A.PARES_BASE <= a < A.PARES_BASE + A.MAX_PARES_N:
        return L.ANS_RAISE + 2 * (a - A.PARES_BASE + 1)
    if A.FLORES_BASE <= a < A.FLORES_BASE + A.MAX_FLORES_N:
        return L.ANS_RAISE + 3 * (a - A.FLORES_BASE + 1)
    return L.ANS_RAISE + (a - A.TRUCO + 1)  # retruco 2, panueve 3


@njit(cache=True)
def _pares_nominal(a):
    if a == A.FALTA:
        return L.FALTA_NOMINAL
    return 2 * (a - A.PARES_BASE + 1)


@njit(cache=True)
def _make_sena(s, p, sena):
    n = _n(s)
    seen = 0
    for q in range(n):
        if q == p:
            continue
        if q % 2 == p % 2:
            seen |= _bit(q)  # ruling 3: partners always see
    for q in range(n):
        if q % 2 != p % 2 and draw(s, 1000) < s[L.P_INTERCEPT]:
            seen |= _bit(q)  # each rival independently, p_intercept
    i = s[L.SENA_LOG_N]
    if i < L.MAX_SENA_LOG:
        s[L.SENA_LOG + i] = p | (sena << 3) | (seen << 7)
        s[L.SENA_LOG_N] = i + 1
    s[L.SENAS_MADE + p] += 1


@njit(cache=True)
def _play_card(s, p, card):
    for k in range(3):
        if s[L.HAND + 3 * p + k] == card:
            s[L.HAND_PLAYED + p] |= 1 << k
    s[L.PLAYED + s[L.BAZA] * L.MAX_PLAYERS + p] = card


@njit(cache=True)
def _step_play(s, p, a):
    b = s[L.BAZA]
    if a == A.DE_LA_MIA:
        s[L.FC_DECLARED] |= _bit(p)  # 12.8; he still plays his turn
        return
    if a == A.FLOR:
        _start_flor_round(s, p, 0)
        return
    if A.PARES_BASE <= a < A.PARES_BASE + A.MAX_PARES_N or a == A.FALTA:
        s[L.PARES_ST] = L.BET_OPEN
        s[L.PARES_STAKE] = _pares_nominal(a)
        s[L.PARES_PREV] = 0
        s[L.PARES_RAISER] = p
        s[L.BET_PARES_MASK] |= _bit(p)
        _open_exchange(s, L.EX_PARES, p, 0, L.RET_PLAY, L.ANS_NONE)
        return
    if a == A.TRUCO or a == A.RETRUCO or a == A.PANUEVE:
        s[L.TRUCO_PREV] = s[L.TRUCO_LEVEL]
        s[L.TRUCO_LEVEL] = a - A.TRUCO + 1
        s[L.TRUCO_ST] = L.BET_OPEN
        s[L.TRUCO_RAISER] = p
        s[L.CHALLENGED] |= _bit(p)
        _open_exchange(s, L.EX_TRUCO, p, 0, L.RET_PLAY, L.ANS_NONE)
        return
    if b == 0:
        s[L.FIRST_ROUND] |= _bit(p)
    if a == A.PASO:  # 14.10
        s[L.CARDS_UP] |= _bit(p)
        _advance_turn(s)
        return
    if a == A.BARAJA:
        s[L.FOLDED] |= _bit(p)
        if not _team_in_truque(s, p % 2):  # nobody of his team left to play the bazas
            s[L.TRUQUE_OVER] = 1
            s[L.TRUQUE_WINNER] = 1 - p % 2
            _finish(s)
            return
        _advance_turn(s)
        return
    if a == A.NO_VALE:
        s[L.NO_VALE] |= _bit(p)
        _advance_turn(s)
        return
    _play_card(s, p, a - A.PLAY_BASE)
    _advance_turn(s)


@njit(cache=True)
def step(s, a):
    """Apply action ``a`` of the player to act. Returns OK, or an error code (state unchanged)."""
    ph = s[L.PHASE]
    if ph == L.PH_DONE:
        return ERR_DONE
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    if a < 0 or a >= A.NUM_ACTIONS or mask[a] == 0:
        return ERR_ILLEGAL
    step_unchecked(s, a)
    return OK


@njit(cache=True)
def step_unchecked(s, a):
    """Apply a legal action (the caller checked the mask)."""
    ph = s[L.PHASE]
    p = s[L.TO_ACT]
    if a >= A.SENA_BASE:
        _make_sena(s, p, a - A.SENA_BASE)
        return
    if ph == L.PH_BLIND:
        if a == A.PASO:
            _next_blind(s)
        elif a == A.TRUCO:  # 15.1: truco a ciegas
            s[L.TRUCO_ST] = L.BET_OPEN
            s[L.TRUCO_LEVEL] = 1
            s[L.TRUCO_PREV] = 0
            s[L.TRUCO_RAISER] = p
            _open_exchange(s, L.EX_TRUCO, p, 1, L.RET_BLIND, L.ANS_NONE)
        else:  # 7.1: envite de pares a ciegas; 12.1: la falta a ciegas
            if a == A.FALTA:
                s[L.FC_TEAM] = p % 2
            s[L.PARES_ST] = L.BET_OPEN
            s[L.PARES_STAKE] = _pares_nominal(a)
            s[L.PARES_PREV] = 0
            s[L.PARES_RAISER] = p
            _open_exchange(s, L.EX_PARES, p, 1, L.RET_BLIND, L.ANS_NONE)
    elif ph == L.PH_ANSWER and s[L.EX_KIND] == L.EX_FALTA_CIEGAS:
        if a == A.CON_FLOR_QUIERO or a == A.CON_FLOR_NO_QUIERO:
            s[L.FLOR_SUNG] |= _bit(p)  # 12.7: "con flor" sings his flor
        if a == A.QUIERO or a == A.CON_FLOR_QUIERO:
            s[L.EX_BEST] = L.ANS_QUIERO
        elif a != A.PASO and s[L.EX_BEST] == L.ANS_NONE:
            s[L.EX_BEST] = L.ANS_NO_QUIERO
        if not _ex_seek(s, s[L.EX_POS] + 1):
            _resolve_exchange(s)
    elif ph == L.PH_RESERVADA:
        if a == A.FLOR:
            s[L.FLOR_SUNG] |= _bit(p)  # 12.13
        if not _reservada_seek(s, s[L.RES_POS] + 1):
            s[L.RES_DONE] = 1
            _close_mano(s)
    elif ph == L.PH_ANSWER:
        if a != A.PASO:
            v = _answer_value(s, a)
            s[L.EX_BEST] = v
            s[L.EX_BEST_SEAT] = p
            if s[L.EX_BLIND] == 0:
                if s[L.EX_KIND] == L.EX_PARES and v >= L.ANS_QUIERO:
                    s[L.BET_PARES_MASK] |= _bit(p)  # 10.10: querer or revocar
                elif s[L.EX_KIND] == L.EX_TRUCO and v >= L.ANS_RAISE:
                    s[L.CHALLENGED] |= _bit(p)  # 6.13
        if not _ex_seek(s, s[L.EX_POS] + 1):
            _resolve_exchange(s)
    elif ph == L.PH_CANTE:
        if a == A.FLOR:
            _start_flor_round(s, p, 1)  # 8.3: the flor annuls the cante
        else:
            _advance_cante(s)
    elif ph == L.PH_FLOR_ROUND:
        if a == A.FLOR:
            s[L.FLOR_SUNG] |= _bit(p)
        _flor_round_seek(s, s[L.FLOR_POS] + 1)
    elif ph == L.PH_FLOR_ENVITE:
        if a == A.PASO:
            _flor_envite_seek(s, s[L.FE_POS] + 1)
        else:
            s[L.FLOR_ENV_ST] = L.BET_OPEN
            s[L.FLOR_STAKE] = L.FALTA_NOMINAL if a == A.FALTA else 3 * (a - A.FLORES_BASE + 1)
            s[L.FLOR_PREV] = 0
            s[L.FLOR_RAISER] = p
            _open_exchange(s, L.EX_FLORES, p, 0, L.RET_FLOR_ENVITE, L.ANS_NONE)
    else:
        _step_play(s, p, a)


# ------------------------------------------------------------------------------------------
# queries


@njit(cache=True)
def to_act(s):
    """Seat of the player to act, -1 when the mano is over."""
    return s[L.TO_ACT]


@njit(cache=True)
def mano_result(s, out):
    """Chinas won this mano: ``out[team, source]`` (sources pares, flores, truque); True when over."""
    for team in range(2):
        for src in range(3):
            out[team, src] = s[L.CHINAS + 3 * team + src]
    return s[L.PHASE] == L.PH_DONE
