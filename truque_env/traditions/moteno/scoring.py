"""End of the mano: the chinas of each source (Art. 18.2), la falta a ciegas (Art. 12) and the score (ruling 1).

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.engine.record import close_mano
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.helpers import (
    _best_seat,
    _bit,
    _has,
    _has_flor,
    _in_mano,
    _in_mano_mask,
    _is_reservada,
    _n,
    _popcount,
    _team_mask,
    pares_refusal_pay,
    truco_refusal_pay,
)

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
        s[L.CHINAS + 3 * (s[L.PARES_RAISER] % 2) + L.SRC_PARES] = pares_refusal_pay(s)  # 18.2 a, c


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
        chinas = truco_refusal_pay(s[L.TRUCO_PREV])
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
    close_mano(s, L.REC_MANOS, winner >= 0)  # a new juego starts with an empty record
    if winner >= 0:
        s[L.JUEGOS + winner] += 1
        s[L.SCORE] = 0
        s[L.SCORE + 1] = 0
        if s[L.JUEGOS + winner] >= s[L.JUEGOS_TO_WIN]:
            s[L.PARTIDA_OVER] = 1
    s[L.DEALER] = (s[L.DEALER] + 1) % _n(s)  # 4.2
    s[L.MANO_COUNT] += 1


