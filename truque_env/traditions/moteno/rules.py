"""Truque Moteño card valuations (Reglamento del Truque Moteño, Arts. 2, 5, 9; ruling 2).

Three properties of a card and two of a hand:

* ``truque_power(card)``: poder de truque (Art. 2, 13.2), 1 (cuatros) .. 17 (el perro). Cards in
  the same row of the Art. 2 table share a power and tie (ruling 2: reyes > caballos > sotas).
* ``PARES_CARD_VALUE``: valor de pares of one card (Art. 5.2).
* ``pares_value(hand)``: valor de pares of three cards (Arts. 5.3–5.6).
* ``flor_value(hand)``: valor de la flor (Art. 9), 0 when the hand has no flor; a *flor reservada*
  (two piezas, Art. 9.2) is a flor.

The numba kernels call the ``*_nb`` functions on the same tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from truque_env.cards import NUM_CARDS, SUITS, card_id, parse_hand, parse_one

PERRO = card_id(11, "B")
PERRA = card_id(10, "O")
CASCABEL = card_id(11, "O")
ESPADA = card_id(1, "E")
BASTO = card_id(1, "B")
MATA_ESPADAS = card_id(7, "E")
MATA_OROS = card_id(7, "O")
PIEZAS = (PERRO, PERRA, CASCABEL)
MATAS = (ESPADA, BASTO, MATA_ESPADAS, MATA_OROS)

CARD_NICKNAME = {
    PERRO: "el perro",
    PERRA: "la perra",
    CASCABEL: "el cascabel",
    ESPADA: "la espada",
    BASTO: "el basto",
    MATA_ESPADAS: "la mata de espadas",
    MATA_OROS: "la mata de oros",
}


def _build_power() -> np.ndarray:
    """Art. 2 table, strongest first; one row per power level (ruling 2 splits the FIGURAS)."""
    rows = [
        [(11, "B")],  # el perro
        [(10, "O")],  # la perra
        [(11, "O")],  # el cascabel
        [(1, "E")],  # la espada
        [(1, "B")],  # el basto
        [(7, "E")],  # mata de espadas
        [(7, "O")],  # mata de oros
        [(3, s) for s in SUITS],  # treses
        [(2, s) for s in SUITS],  # doses
        [(1, "O"), (1, "C")],  # el oro y la copa
        [(12, s) for s in SUITS],  # reyes
        [(11, "C"), (11, "E")],  # caballos (11B, 11O are piezas)
        [(10, "C"), (10, "E"), (10, "B")],  # sotas (10O is a pieza)
        [(7, "C"), (7, "B")],  # sietes
        [(6, s) for s in SUITS],
        [(5, s) for s in SUITS],
        [(4, s) for s in SUITS],
    ]
    power = np.zeros(NUM_CARDS, dtype=np.int64)
    for i, row in enumerate(rows):
        for rank, suit in row:
            power[card_id(rank, suit)] = len(rows) - i
    assert (power > 0).all(), "every card has a row in the Art. 2 table"
    return power


#: poder de truque per card id, 1..17
TRUQUE_POWER = _build_power()


def _build_pares_card_value() -> np.ndarray:
    """Art. 5.2: caballo de bastos 31, sota de oros 30, caballo de oros 29, figuras 0, rest their number."""
    value = np.zeros(NUM_CARDS, dtype=np.int64)
    for c in range(NUM_CARDS):
        rank = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)[c % 10]
        value[c] = rank if rank <= 7 else 0
    value[PERRO], value[PERRA], value[CASCABEL] = 31, 30, 29
    return value


PARES_CARD_VALUE = _build_pares_card_value()
IS_PIEZA = np.zeros(NUM_CARDS, dtype=np.bool_)
IS_PIEZA[list(PIEZAS)] = True
CARD_SUIT_TABLE = np.array([c // 10 for c in range(NUM_CARDS)], dtype=np.int64)


@njit(cache=True)
def pares_value_nb(a, b, c):
    """Valor de pares of the three cards a, b, c (Art. 5)."""
    va = PARES_CARD_VALUE[a]
    vb = PARES_CARD_VALUE[b]
    vc = PARES_CARD_VALUE[c]
    if IS_PIEZA[a] or IS_PIEZA[b] or IS_PIEZA[c]:
        # 5.6: a pieza links with the card that suits it best: its value plus the highest other.
        # Piezas (29..31) outvalue every other card, so this is the two highest values.
        hi = max(va, vb, vc)
        lo = min(va, vb, vc)
        return hi + (va + vb + vc - hi - lo)
    sa = CARD_SUIT_TABLE[a]
    sb = CARD_SUIT_TABLE[b]
    sc = CARD_SUIT_TABLE[c]
    best = -1
    if sa == sb:  # 5.5: twenty for two linked cards, plus their values
        best = max(best, 20 + va + vb)
    if sa == sc:
        best = max(best, 20 + va + vc)
    if sb == sc:
        best = max(best, 20 + vb + vc)
    if best >= 0:
        return best
    return max(va, vb, vc)  # 5.4: three suits, the highest card


@njit(cache=True)
def flor_value_nb(a, b, c):
    """Valor de la flor of a, b, c (Art. 9); 0 when the three cards are not linked."""
    npiezas = IS_PIEZA[a] + IS_PIEZA[b] + IS_PIEZA[c]
    total = PARES_CARD_VALUE[a] + PARES_CARD_VALUE[b] + PARES_CARD_VALUE[c]
    if npiezas >= 2:  # 9.2, 9.4: reservada, the twenty go in the piezas
        return total
    if npiezas == 1:  # 9.1: a pieza with two cards of one suit
        if IS_PIEZA[a]:
            linked = CARD_SUIT_TABLE[b] == CARD_SUIT_TABLE[c]
        elif IS_PIEZA[b]:
            linked = CARD_SUIT_TABLE[a] == CARD_SUIT_TABLE[c]
        else:
            linked = CARD_SUIT_TABLE[a] == CARD_SUIT_TABLE[b]
        return 20 + total if linked else 0
    if CARD_SUIT_TABLE[a] == CARD_SUIT_TABLE[b] and CARD_SUIT_TABLE[b] == CARD_SUIT_TABLE[c]:
        return 20 + total  # 9.1, 9.3: three cards of one suit
    return 0


@njit(cache=True)
def is_reservada_nb(a, b, c):
    """Flor reservada: two (or three) piezas (Art. 9.2)."""
    return IS_PIEZA[a] + IS_PIEZA[b] + IS_PIEZA[c] >= 2


def truque_power(card) -> int:
    """Poder de truque of one card (id or notation), 17 for el perro down to 1 for the cuatros."""
    return int(TRUQUE_POWER[parse_one(card)])


def pares_value(hand) -> int:
    """Valor de pares of a hand of three cards (ids or notation like ``"11B 7E 3C"``), Art. 5."""
    a, b, c = parse_hand(hand)
    return int(pares_value_nb(a, b, c))


def flor_value(hand) -> int:
    """Valor de la flor of three cards, 0 when they are not a flor (Art. 9)."""
    a, b, c = parse_hand(hand)
    return int(flor_value_nb(a, b, c))


def is_reservada(hand) -> bool:
    """True for a flor reservada (two piezas, Art. 9.2)."""
    a, b, c = parse_hand(hand)
    return bool(is_reservada_nb(a, b, c))
