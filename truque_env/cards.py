"""The 40-card Spanish deck as integer ids, and the card notation used everywhere.

A card id is ``suit * 10 + rank_index``:

=========  =====================================  =========================
suit       letter                                 ids
=========  =====================================  =========================
oros       ``O``                                  0..9
copas      ``C``                                  10..19
espadas    ``E``                                  20..29
bastos     ``B``                                  30..39
=========  =====================================  =========================

``rank_index`` 0..9 stands for the ranks ``1 2 3 4 5 6 7 10 11 12`` (as, dos, ..., siete,
sota, caballo, rey). The notation is the rank number followed by the suit letter:
``11B`` is el perro, ``10O`` la perra, ``11O`` el cascabel, ``1E`` la espada.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

NUM_CARDS = 40
SUITS = "OCEB"
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
RANK_NAMES = {10: "sota", 11: "caballo", 12: "rey"}

#: suit of each card id (0 oros, 1 copas, 2 espadas, 3 bastos)
CARD_SUIT = np.array([c // 10 for c in range(NUM_CARDS)], dtype=np.int64)
#: printed rank of each card id (1..7, 10, 11, 12)
CARD_RANK = np.array([RANKS[c % 10] for c in range(NUM_CARDS)], dtype=np.int64)


def card_id(rank: int, suit: str) -> int:
    """Id of the card of printed ``rank`` (1..7, 10..12) and suit letter (``O C E B``)."""
    if rank not in RANKS:
        raise ValueError(f"no rank {rank!r} in the Spanish 40-card deck (ranks are {RANKS})")
    if suit not in SUITS or len(suit) != 1:
        raise ValueError(f"unknown suit {suit!r}: use one of O (oros), C (copas), E (espadas), B (bastos)")
    return SUITS.index(suit) * 10 + RANKS.index(rank)


def card_str(card: int) -> str:
    """The notation of a card id: ``card_str(31) == "2B"``."""
    if not 0 <= int(card) < NUM_CARDS:
        raise ValueError(f"card id {card!r} out of range 0..39")
    return f"{CARD_RANK[card]}{SUITS[CARD_SUIT[card]]}"


def parse_card(token: str) -> int:
    """Parse one card in notation (``"11B"``, ``"7e"``); raises ``ValueError`` naming the token."""
    t = token.strip().upper()
    if len(t) < 2 or not t[:-1].isdigit():
        raise ValueError(f"card {token!r} does not parse: write the rank then the suit letter, e.g. 11B or 7E")
    try:
        return card_id(int(t[:-1]), t[-1])
    except ValueError as exc:
        raise ValueError(f"card {token!r} does not parse: {exc}") from None


def parse(text: str | list[str] | tuple[str, ...], count: int | None = None) -> list[int]:
    """Parse cards separated by spaces or commas into ids.

    ``parse("11B 7E 3C") == [38, 26, 12]``. An unknown card or a duplicate raises
    ``ValueError`` naming the bad token; so does a wrong number of cards when ``count`` is given.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else [str(t) for t in text]
    ids: list[int] = []
    seen: dict[int, str] = {}
    for tok in tokens:
        cid = parse_card(tok)
        if cid in seen:
            raise ValueError(f"card {tok!r} appears twice (first as {seen[cid]!r})")
        seen[cid] = tok
        ids.append(cid)
    if count is not None and len(ids) != count:
        raise ValueError(f"expected {count} cards, got {len(ids)} in {text!r}")
    return ids


def parse_hand(hand, count: int = 3) -> list[int]:
    """A hand of ``count`` different cards, from notation (``"7E 6E 3B"``) or ids; a
    ``ValueError`` naming what is wrong otherwise."""
    if isinstance(hand, str):
        return parse(hand, count=count)
    cards = [parse_card(c) if isinstance(c, str) else int(c) for c in hand]
    if len(cards) != count:
        raise ValueError(f"a hand has {count} cards, got {len(cards)}")
    if len(set(cards)) != count:
        raise ValueError(f"a hand cannot hold the same card twice: {cards}")
    for c in cards:
        if not 0 <= c < NUM_CARDS:
            raise ValueError(f"card id {c} out of range 0..{NUM_CARDS - 1}")
    return cards


def parse_one(card) -> int:
    """One card, from notation (``"11B"``) or its id."""
    cid = parse(card, count=1)[0] if isinstance(card, str) else int(card)
    if not 0 <= cid < NUM_CARDS:
        raise ValueError(f"card id {cid} out of range 0..{NUM_CARDS - 1}")
    return cid


def hand_str(cards) -> str:
    """The notation of several cards, space separated (ids of -1 are skipped)."""
    return " ".join(card_str(int(c)) for c in cards if int(c) >= 0)


def card_name(card: int, nicknames: Mapping[int, str] | None = None) -> str:
    """A readable Spanish name: ``"caballo de bastos"``, with the card's nickname in a tradition
    when given its table (``card_name(38, CARD_NICKNAME) == "caballo de bastos (el perro)"`` with
    Moteño's, ``truque_env.traditions.moteno.rules.CARD_NICKNAME``; ``spec.card_name`` of a
    tradition does this). The nicknames are the tradition's: this module knows none of them."""
    rank = int(CARD_RANK[card])
    base = f"{RANK_NAMES.get(rank, str(rank))} de {SUIT_NAMES[CARD_SUIT[card]]}"
    nick = (nicknames or {}).get(int(card))
    return f"{base} ({nick})" if nick else base
