"""Card notation of ``truque_env.cards``: ids, ``parse``, ``card_str``, ``hand_str``, ``card_name``.

The notation is the printed rank followed by the suit letter (``11B``, ``7E``); a card id is
``suit * 10 + rank_index`` with suits ``O C E B`` and ranks ``1 2 3 4 5 6 7 10 11 12``.
"""

from __future__ import annotations

import re

import pytest

from truque_env.cards import (
    CARD_RANK,
    CARD_SUIT,
    NUM_CARDS,
    card_name,
    card_str,
    hand_str,
    parse,
    parse_card,
)
from truque_env.traditions import get as get_tradition
from truque_env.traditions.moteno.rules import CARD_NICKNAME

# Written out from the module docstring, not taken from the module's tables.
SUIT_LETTERS = "OCEB"
PRINTED_RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
ALL_NOTATIONS = [f"{r}{s}" for s in SUIT_LETTERS for r in PRINTED_RANKS]  # in id order


def test_deck_has_40_distinct_cards():
    assert NUM_CARDS == 40
    assert len(ALL_NOTATIONS) == 40
    assert len({card_str(c) for c in range(NUM_CARDS)}) == 40


@pytest.mark.parametrize("card", range(40))
def test_round_trip_every_card(card):
    text = card_str(card)
    assert text == ALL_NOTATIONS[card]
    assert parse_card(text) == card
    assert parse(text) == [card]
    assert parse(text, count=1) == [card]


def test_id_layout_matches_documented_formula():
    for s, suit in enumerate(SUIT_LETTERS):
        for i, rank in enumerate(PRINTED_RANKS):
            cid = parse_card(f"{rank}{suit}")
            assert cid == s * 10 + i
            assert CARD_SUIT[cid] == s
            assert CARD_RANK[cid] == rank


def test_round_trip_whole_deck_as_one_hand():
    text = hand_str(range(40))
    assert text == " ".join(ALL_NOTATIONS)
    assert parse(text, count=40) == list(range(40))


def test_parse_example():
    # The parse() docstring says [37, 26, 12]; 37 is 10B, 11B is 3 * 10 + 8 = 38.
    assert parse("11B 7E 3C") == [38, 26, 12]
    assert card_str(31) == "2B"


def test_parse_separators_and_sequences():
    assert parse("11B,7E,3C") == [38, 26, 12]
    assert parse("  11B ,  7E\t3C \n") == [38, 26, 12]
    assert parse(["11B", "7E", "3C"]) == [38, 26, 12]
    assert parse(("11B", "7E", "3C"), count=3) == [38, 26, 12]


def test_parse_keeps_order():
    assert parse("3C 7E 11B") == [12, 26, 38]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("11b", 38), ("7e", 26), ("3c", 12), ("10o", 7), ("12b", 39), ("1O", 0)],
)
def test_lowercase_accepted(text, expected):
    assert parse_card(text) == expected
    assert parse(text) == [expected]


def test_lowercase_hand():
    assert parse("11b 7e 3c", count=3) == parse("11B 7E 3C", count=3)


BAD_TOKENS = ["13O", "0B", "8C", "9E", "11X", "B11", "1", "O", "11", "11BB", "-1O", "1.5O"]


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_parse_card_unknown_raises_naming_token(token):
    with pytest.raises(ValueError, match=re.escape(repr(token))):
        parse_card(token)


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_parse_unknown_in_hand_raises_naming_token(token):
    with pytest.raises(ValueError, match=re.escape(repr(token))):
        parse(f"7E {token} 3C")


def test_parse_card_empty_raises_naming_token():
    with pytest.raises(ValueError, match=re.escape("card ''")):
        parse_card("")
    with pytest.raises(ValueError, match=re.escape("card ''")):
        parse(["7E", "", "3C"])


def test_parse_empty_text_is_no_cards_but_fails_a_count():
    assert parse("") == []
    with pytest.raises(ValueError, match="expected 3 cards, got 0"):
        parse("", count=3)


@pytest.mark.parametrize(
    ("text", "dup"),
    [("11B 7E 11B", "11B"), ("11B 7E 11b", "11b"), ("3c 3C", "3C"), (["1E", "1E"], "1E")],
)
def test_parse_duplicate_raises_naming_token(text, dup):
    with pytest.raises(ValueError, match=re.escape(f"{dup!r} appears twice")):
        parse(text)


@pytest.mark.parametrize(
    ("text", "count", "got"),
    [("11B 7E", 3, 2), ("11B 7E 3C 4O", 3, 4), ("11B", 3, 1), ("11B 7E", 1, 2)],
)
def test_parse_wrong_count_raises(text, count, got):
    with pytest.raises(
        ValueError, match=re.escape(f"expected {count} cards, got {got} in {text!r}")
    ):
        parse(text, count=count)


@pytest.mark.parametrize("card", [-1, 40, 41, 100])
def test_card_str_out_of_range(card):
    with pytest.raises(ValueError, match=str(card)):
        card_str(card)


def test_hand_str():
    assert hand_str([38, 26, 12]) == "11B 7E 3C"
    assert hand_str([38, -1, 12]) == "11B 3C"  # -1 (no card) is skipped
    assert hand_str([]) == ""
    assert hand_str(parse("12b 1o")) == "12B 1O"


@pytest.mark.parametrize(
    ("text", "nickname", "base"),
    [
        ("11B", "el perro", "caballo de bastos"),
        ("10O", "la perra", "sota de oros"),
        ("11O", "el cascabel", "caballo de oros"),
        ("1E", "la espada", "1 de espadas"),
    ],
)
def test_nicknames(text, nickname, base):
    """Art. 2: the nicknames are Moteño's (the tradition's table); the card alone has its base name."""
    assert card_name(parse_card(text), CARD_NICKNAME) == f"{base} ({nickname})"
    assert get_tradition("moteno").card_name(parse_card(text)) == f"{base} ({nickname})"
    assert card_name(parse_card(text)) == base


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("12C", "rey de copas"),
        ("11E", "caballo de espadas"),
        ("10B", "sota de bastos"),
        ("4O", "4 de oros"),
    ],
)
def test_card_name_without_nickname(text, name):
    assert card_name(parse_card(text), CARD_NICKNAME) == name


def test_every_card_has_a_name():
    names = {card_name(c) for c in range(NUM_CARDS)}
    assert len(names) == 40
