"""Exchanges, answered by a team (ruling 4), and the blind round with its closing (Arts. 7, 15, 17).

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.bazas import _resume_play, _start_play
from truque_env.traditions.moteno.flores import _end_flor
from truque_env.traditions.moteno.helpers import _has, _in_mano, _n, _team_mask

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


