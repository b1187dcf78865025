"""Plain-Python reference of the truco argentino valuations, written from seed 003 and ruling A3
without the engine's tables (tests compare the two on every card and every three-card hand)."""

from __future__ import annotations

from itertools import combinations

RANKING = "1E 1B 7E 7O 3* 2* 1O=1C 12* 11* 10* 7C=7B 6* 5* 4*"  # ruling A3, strongest first


def _cards():
    return [(rank, suit) for suit in "OCEB" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def power(rank: int, suit: str) -> int:
    """How many ranking rows lie below the card's row (the weakest row is 1)."""
    rows = RANKING.split()
    for k, row in enumerate(rows):
        for item in row.split("="):
            r, s = item[:-1], item[-1]
            if int(r) == rank and s in ("*", suit):
                return len(rows) - k
    raise ValueError((rank, suit))


def index(rank: int) -> int:
    """The card's points for envido and flor: the number, the figures nothing (003)."""
    return 0 if rank in (10, 11, 12) else rank


def envido(hand) -> int:
    """Best of: any two cards of a suit (20 + both), any single card (its index) (003 §envido; a
    hand of three of a suit takes its best two, A20)."""
    best = max(index(r) for r, _ in hand)
    for (r1, s1), (r2, s2) in combinations(hand, 2):
        if s1 == s2:
            best = max(best, 20 + index(r1) + index(r2))
    return best


def flor(hand) -> int:
    suits = {s for _, s in hand}
    return 20 + sum(index(r) for r, _ in hand) if len(suits) == 1 else 0


ALL_CARDS = _cards()
