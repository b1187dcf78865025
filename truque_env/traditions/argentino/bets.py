"""The bets: a team's answer (the first answer binds, A29, A32), the envido chain (A23-A26), the
truco ladder with *aceptación y rebote* (A37, A40), the double calls (A33, A34), the flor and its
answers (A7-A17), uno y uno (A39), and the blind round of todo dicho (A33).

Part of the argentino kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.helpers import (
    _count_team,
    _has,
    _in_mano,
    _n,
    truco_value,
)
from truque_env.traditions.argentino.scoring import (
    _add,
    _al_resto_worth,
    _best_flor_team,
    _cancel_envido,
    _check_out,
    _close_mano,
    _envido_refused,
    _flores,
    _showdown,
)


# -- the walk of an answering team -------------------------------------------------------------
@njit(cache=True)
def _walker_ok(s, seat):
    if seat % 2 != s[L.EX_TEAM] or not _in_mano(s, seat):
        return False
    if s[L.EX_KIND] == L.EX_FLOR:
        return _has(s[L.FLOR_SUNG], seat) == 1  # only flores answer a flor (A11, A14)
    return True


@njit(cache=True)
def _walk_after(s, seat):
    """The next member of the answering team after ``seat`` in turn order, before the walk comes
    back to its start (the seat after the raiser); -1 when there is none."""
    n = _n(s)
    start = s[L.EX_RAISER]
    k = (seat - start + n) % n
    for j in range(k + 1, n):
        q = (start + j) % n
        if _walker_ok(s, q):
            return q
    return -1


@njit(cache=True)
def _open(s, kind, raiser):
    """The rivals of ``raiser`` answer ``kind``; the first of them in turn order speaks first."""
    s[L.EX_KIND] = kind
    s[L.EX_TEAM] = 1 - raiser % 2
    s[L.EX_RAISER] = raiser
    w = _walk_after(s, raiser)
    s[L.EX_POS] = w
    s[L.TO_ACT] = w
    s[L.PHASE] = L.PH_ANSWER


@njit(cache=True)
def _resume(s):
    """An exchange closed and the mano goes on: a truco waiting for its answer takes it up again
    (A9, A22: the envido or the flor came first), else the turn holder plays."""
    if s[L.TRUCO_ST] == L.BET_OPEN:
        w = s[L.TRUCO_WALKER]
        s[L.TRUCO_WALKER] = -1
        s[L.EX_KIND] = L.EX_TRUCO
        s[L.EX_TEAM] = 1 - s[L.TRUCO_RAISER] % 2
        s[L.EX_RAISER] = s[L.TRUCO_RAISER]
        s[L.EX_POS] = w
        s[L.TO_ACT] = w
        s[L.PHASE] = L.PH_ANSWER
        return
    s[L.EX_KIND] = L.EX_NONE
    s[L.PHASE] = L.PH_PLAY
    s[L.TO_ACT] = s[L.TURN]


@njit(cache=True)
def _start_play(s):
    s[L.CARDS_SEEN] = 1
    s[L.PHASE] = L.PH_PLAY
    s[L.BAZA_LEAD] = s[L.MANO_SEAT]
    s[L.TURN] = s[L.MANO_SEAT]
    s[L.TO_ACT] = s[L.MANO_SEAT]
    s[L.EX_KIND] = L.EX_NONE


# -- envido ------------------------------------------------------------------------------------
@njit(cache=True)
def _envido_raise(s, k, p):
    """Raise k (envido +2, real envido +3, falta envido) by ``p``: the stake standing is accepted by
    the raise (A37) and is what a refusal pays now (A25)."""
    s[L.ENV_PREV] = s[L.ENV_STAKE]
    s[L.ENV_STAKE] = L.FALTA_NOMINAL if k == 2 else s[L.ENV_STAKE] + 2 + k
    s[L.ENV_RAISER] = p


@njit(cache=True)
def _envido_open_bet(s, k, p):
    s[L.ENV_ST] = L.BET_OPEN
    s[L.ENV_STAKE] = L.FALTA_NOMINAL if k == 2 else 2 + k
    s[L.ENV_PREV] = 1  # A25: a first envite refused pays 1
    s[L.ENV_RAISER] = p


@njit(cache=True)
def say_envido(s, p, k, as_answer):
    """``p`` opens the envido (k: envido, real envido, falta envido) at his turn, or as his answer
    to a truco (A22, *el envido está primero*: the truco waits for his answer)."""
    if as_answer:
        s[L.TRUCO_WALKER] = p
    _envido_open_bet(s, k, p)
    _open(s, L.EX_ENVIDO, p)


@njit(cache=True)
def say_envido_y_truco(s, p, k):
    """A34: envido (k) and truco at once; the rivals answer both."""
    _envido_open_bet(s, k, p)
    _truco_call(s, p)
    _open(s, L.EX_DOUBLE, p)


# -- truco -------------------------------------------------------------------------------------
@njit(cache=True)
def _truco_call(s, p):
    s[L.TRUCO_PREV] = s[L.TRUCO_LEVEL] if s[L.TRUCO_ST] == L.BET_ACCEPTED else 0
    s[L.TRUCO_LEVEL] += 1
    s[L.TRUCO_ST] = L.BET_OPEN
    s[L.TRUCO_RAISER] = p


@njit(cache=True)
def say_truco(s, p):
    """Truco, or retruco / vale cuatro by the team that accepted the last call (A37, A40)."""
    _truco_call(s, p)
    _open(s, L.EX_TRUCO, p)


@njit(cache=True)
def _truco_accepted(s, team):
    s[L.TRUCO_ST] = L.BET_ACCEPTED
    s[L.HAB_TEAM] = team


@njit(cache=True)
def _truco_refused(s):
    """A40: a refused call pays the level accepted before it (1 when none) and ends the mano."""
    team = s[L.TRUCO_RAISER] % 2
    s[L.TRUCO_ST] = L.BET_REFUSED
    s[L.TRUCO_WINNER] = team
    _add(s, team, L.SRC_TRUCO, truco_value(s[L.TRUCO_PREV]))


# -- the flor ----------------------------------------------------------------------------------
@njit(cache=True)
def sing_flor(s, x):
    """``x`` sings his flor (A8: obligatory, so at his first decision). Every other flor at the
    table is sung with it (A10: the holders sing in turn; nothing else is theirs to say); every
    envido said before is cancelled (A9); a truco waiting for an answer waits for the flor (A9)."""
    kind = s[L.EX_KIND] if s[L.PHASE] == L.PH_ANSWER else L.EX_NONE
    s[L.FLOR_SUNG] = s[L.FLOR_HOLD] & ~s[L.FOLDED]
    _cancel_envido(s)
    if kind == L.EX_TRUCO or kind == L.EX_DOUBLE:
        s[L.TRUCO_WALKER] = x
    elif kind == L.EX_UNO:
        s[L.UNO_ST] = L.UNO_REFUSED  # a flor is not uno y uno
    s[L.EX_KIND] = L.EX_NONE
    n = _n(s)
    c0 = _count_team(s[L.FLOR_SUNG], 0, n)
    c1 = _count_team(s[L.FLOR_SUNG], 1, n)
    if c0 == 0 or c1 == 0:  # no rival flor: 3 per flor (003)
        team = 0 if c1 == 0 else 1
        _add(s, team, L.SRC_FLOR, 3 * (c0 + c1))
        _flor_closed(s)
        return
    s[L.FLOR_ST] = L.FLOR_BETTING
    s[L.FLOR_LEVEL] = L.FL_FLOR
    s[L.FLOR_RAISER] = x
    _open(s, L.EX_FLOR, x)


@njit(cache=True)
def _flor_closed(s):
    s[L.FLOR_ST] = L.FLOR_CLOSED
    s[L.EX_KIND] = L.EX_NONE
    if not _check_out(s):
        _resume(s)


@njit(cache=True)
def _answer_flor(s, w, a):
    raiser_team = s[L.FLOR_RAISER] % 2
    total = _flores(s, 0) + _flores(s, 1)
    if a == A.FLOR:  # flor against flor: the best flor's team, 3 per flor of its own (A7)
        team = _best_flor_team(s)
        _add(s, team, L.SRC_FLOR, 3 * _flores(s, team))
    elif a == A.ME_ACHICO:  # A11, A14: the other team takes 3 per flor it sang (or the table's pay)
        pay = s[L.RULES + 1]
        _add(s, raiser_team, L.SRC_FLOR, pay if pay > 0 else 3 * _flores(s, raiser_team))
    elif a == A.CONTRAFLOR:  # A12
        s[L.FLOR_LEVEL] = L.FL_CONTRA
        s[L.FLOR_CONTRA] = 1
        s[L.FLOR_RAISER] = w
        _open(s, L.EX_FLOR, w)
        return
    elif a == A.AL_RESTO:  # A13
        s[L.FLOR_LEVEL] = L.FL_AL_RESTO
        s[L.FLOR_RAISER] = w
        _open(s, L.EX_FLOR, w)
        return
    elif a == A.CON_FLOR_QUIERO:
        team = _best_flor_team(s)
        if s[L.FLOR_LEVEL] == L.FL_CONTRA:  # A12: 3 per flor at the table to the best
            _add(s, team, L.SRC_FLOR, 3 * total)
        else:  # A15
            _add(s, team, L.SRC_FLOR, _al_resto_worth(s, team))
    else:  # con flor no quiero to al resto (A14): what stood before it
        pay = s[L.RULES + 2]
        if pay == 0:
            pay = 3 * total if s[L.FLOR_CONTRA] else 3 * _flores(s, raiser_team)
        _add(s, raiser_team, L.SRC_FLOR, pay)
    _flor_closed(s)


# -- answers -----------------------------------------------------------------------------------
@njit(cache=True)
def answer(s, w, a):
    """The walker ``w`` of the answering team says ``a`` (a legal answer, not a seña)."""
    kind = s[L.EX_KIND]
    team = s[L.EX_TEAM]
    if a == A.PASO:  # let the next partner answer
        nxt = _walk_after(s, w)
        s[L.EX_POS] = nxt
        s[L.TO_ACT] = nxt
        return
    if a == A.FLOR and kind != L.EX_FLOR:
        sing_flor(s, w)
        return
    if kind == L.EX_FLOR:
        _answer_flor(s, w, a)
    elif kind == L.EX_ENVIDO:
        if a == A.QUIERO:
            s[L.ENV_ST] = L.BET_ACCEPTED
            _showdown(s)
        elif a == A.NO_QUIERO:
            s[L.ENV_ST] = L.BET_REFUSED
            _envido_refused(s)
        else:  # a raise implies quiero (A37, rebote)
            _envido_raise(s, a - A.ENVIDO, w)
            _open(s, L.EX_ENVIDO, w)
            return
        s[L.EX_KIND] = L.EX_NONE
        if not _check_out(s):  # A35: its tantos may end the mano
            _resume(s)
    elif kind == L.EX_TRUCO:
        if a == A.QUIERO:
            _truco_accepted(s, team)
            _resume(s)
        elif a == A.NO_QUIERO:
            _truco_refused(s)
            _close_mano(s)
        else:  # el envido está primero (A22)
            say_envido(s, w, a - A.ENVIDO, True)
    elif kind == L.EX_DOUBLE:
        if A.Y_QUIERO_RETRUCO <= a < A.Y_QUIERO_VALE_CUATRO + 3:
            # A34: "real envido y quiero retruco" passes a double answer back
            k = (a - A.Y_QUIERO_RETRUCO) % 3
            _envido_raise(s, k, w)
            _truco_accepted(s, team)
            _truco_call(s, w)
            _open(s, L.EX_DOUBLE, w)
            return
        envido_yes = a == A.QUIERO or a == A.SIN_LEY_QUIERO_Y_PASO
        truco_yes = a == A.QUIERO or a == A.SIN_LEY_PASO_Y_QUIERO
        if envido_yes:
            s[L.ENV_ST] = L.BET_ACCEPTED
            _showdown(s)
        else:
            s[L.ENV_ST] = L.BET_REFUSED
            _envido_refused(s)
        if s[L.TD_ST] == L.TD_SAID:
            s[L.TD_ST] = L.TD_ANSWERED
        s[L.EX_KIND] = L.EX_NONE
        if not truco_yes:
            _truco_refused(s)
            _close_mano(s)
            return
        _truco_accepted(s, team)
        if not _check_out(s):  # A35: its tantos may end the mano
            _resume(s)
    else:  # uno y uno (A39): one tanto each without playing the mano
        if a == A.QUIERO:
            s[L.UNO_ST] = L.UNO_ACCEPTED
            _add(s, 0, L.SRC_TRUCO, 1)
            _add(s, 1, L.SRC_TRUCO, 1)
            _close_mano(s)
        else:
            s[L.UNO_ST] = L.UNO_REFUSED
            _resume(s)


@njit(cache=True)
def propose_uno_y_uno(s, p):
    s[L.UNO_ST] = L.UNO_OPEN
    _open(s, L.EX_UNO, p)


# -- the blind round: falta envido y truco, todo dicho (A33) ----------------------------------
@njit(cache=True)
def _end_blind(s):
    """The cards are looked at. Todo dicho said: a flor in play annuls it; flor on both sides
    leaves "si hay flor, contraflor al resto" standing; else the rivals answer both bets."""
    s[L.CARDS_SEEN] = 1
    s[L.BAZA_LEAD] = s[L.MANO_SEAT]
    s[L.TURN] = s[L.MANO_SEAT]
    if s[L.TD_ST] != L.TD_SAID:
        _start_play(s)
        return
    p = s[L.TD_SEAT]
    hold = s[L.FLOR_HOLD]
    if hold != 0:
        n = _n(s)
        if _count_team(hold, 0, n) > 0 and _count_team(hold, 1, n) > 0:
            s[L.TD_ST] = L.TD_FLOR
            s[L.FLOR_SUNG] = hold
            s[L.FLOR_ST] = L.FLOR_BETTING
            s[L.FLOR_LEVEL] = L.FL_AL_RESTO
            s[L.FLOR_RAISER] = p
            _open(s, L.EX_FLOR, p)
            return
        s[L.TD_ST] = L.TD_ANNULLED
        _start_play(s)
        return
    _envido_open_bet(s, 2, p)  # falta envido ...
    _truco_call(s, p)  # ... y truco
    _open(s, L.EX_DOUBLE, p)


@njit(cache=True)
def blind_word(s, p, a):
    if a == A.TODO_DICHO:
        s[L.TD_ST] = L.TD_SAID
        s[L.TD_SEAT] = p
        _end_blind(s)
        return
    s[L.BLIND_POS] += 1
    if s[L.BLIND_POS] >= _n(s):
        _end_blind(s)
    else:
        s[L.TO_ACT] = (s[L.MANO_SEAT] + s[L.BLIND_POS]) % _n(s)
