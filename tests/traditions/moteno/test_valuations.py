"""Truque Moteño valuations (``truque_env.traditions.moteno.rules``) against the Reglamento del Truque Moteño.

Source: ``/work/shared/seeds/000_a3a1ca8e9494fdbc.txt`` (Arts. 2, 5, 9, 10.15, 13.2) and ruling 2 of
``/work/shared/rules/README.md`` (reyes > caballos > sotas; cards in the same row tie).

The reglamento prints only the numbers of its examples; every test below names the concrete hand
chosen to realise each printed example.

The second half is an exhaustive check against an independent, plain-Python reading of the text
(``ref_*`` functions below), written from the articles, not from the module.
"""

from __future__ import annotations

import itertools
import random

import pytest

from truque_env.cards import NUM_CARDS, parse
from truque_env.traditions.moteno.rules import (
    CARD_NICKNAME,
    PARES_CARD_VALUE,
    flor_value,
    is_reservada,
    pares_value,
    truque_power,
)

# ---------------------------------------------------------------------------------------------
# Independent reference, transcribed from the reglamento
# ---------------------------------------------------------------------------------------------

# Card ids as documented in truque_env/cards.py: suit * 10 + rank_index.
_SUITS = "OCEB"
_RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)


def ref_id(notation: str) -> int:
    rank, suit = int(notation[:-1]), notation[-1]
    return _SUITS.index(suit) * 10 + _RANKS.index(rank)


REF_DECK = [f"{r}{s}" for s in _SUITS for r in _RANKS]  # REF_DECK[i] is the notation of id i

# Art. 2, "El poder de las cartas y su valor": the table, strongest first, one entry per row as
# printed (valor de pares, nombre, cards). Ruling 2: the FIGURAS rows are reyes > caballos > sotas
# and cards within a row are equal. The caballo de bastos, sota de oros and caballo de oros are
# piezas, so the rows "Caballos" and "Sotas" hold only the remaining ones; likewise the matas
# (1E, 1B, 7E, 7O) leave "El Oro y La Copa" and "Sietes" (copas and bastos), as Art. 13.2 says.
ART_2_TABLE = [
    (31, "El Perro", ["11B"]),
    (30, "La Perra", ["10O"]),
    (29, "El Cascabel", ["11O"]),
    (1, "La Espada", ["1E"]),
    (1, "El Basto", ["1B"]),
    (7, "La Mata de espadas", ["7E"]),
    (7, "La Mata de oros", ["7O"]),
    (3, "Treses", ["3O", "3C", "3E", "3B"]),
    (2, "Doses", ["2O", "2C", "2E", "2B"]),
    (1, "El Oro y La Copa", ["1O", "1C"]),
    (0, "Reyes", ["12O", "12C", "12E", "12B"]),
    (0, "Caballos", ["11C", "11E"]),
    (0, "Sotas", ["10C", "10E", "10B"]),
    (7, "Sietes", ["7C", "7B"]),
    (6, "Seises", ["6O", "6C", "6E", "6B"]),
    (5, "Cincos", ["5O", "5C", "5E", "5B"]),
    (4, "Cuatros", ["4O", "4C", "4E", "4B"]),
]
REF_ROW = {card: row for row, (_, _, cards) in enumerate(ART_2_TABLE) for card in cards}

# Art. 5.2: "Caballo de bastos 31, Sota de oros 30, Caballo de oros 29, figuras cero y resto de
# cartas según su número (desde el as que vale 1, hasta el siete que vale 7)."
REF_PIEZA_VALUE = {"11B": 31, "10O": 30, "11O": 29}


def ref_card_value(card: str) -> int:
    if card in REF_PIEZA_VALUE:
        return REF_PIEZA_VALUE[card]
    rank = int(card[:-1])
    return 0 if rank in (10, 11, 12) else rank


def ref_is_pieza(card: str) -> bool:
    return card in REF_PIEZA_VALUE


def ref_suit(card: str) -> str:
    return card[-1]


def ref_pares(hand: list[str]) -> int:
    """Art. 5: the best way to "ligar" the three cards, enumerated literally.

    * 5.4 sin ligar: the value of a single card (the highest one counts);
    * 5.5 two cards linked without pieza (two non-pieza cards of one suit): 20 + both values;
    * 5.6 a pieza links with any other card (the 20 are already in its value): pieza + that card.
    The player counts the way that suits him best (5.6: "la carta que más le conviene").
    """
    ways = [ref_card_value(c) for c in hand]
    for x, y in itertools.combinations(hand, 2):
        if ref_is_pieza(x) or ref_is_pieza(y):
            ways.append(ref_card_value(x) + ref_card_value(y))
        elif ref_suit(x) == ref_suit(y):
            ways.append(20 + ref_card_value(x) + ref_card_value(y))
    return max(ways)


def ref_is_reservada(hand: list[str]) -> bool:
    """Art. 9.2: two piezas together make a flor reservada."""
    return sum(ref_is_pieza(c) for c in hand) >= 2


def ref_flor(hand: list[str]) -> int:
    """Art. 9: the flor value, 0 when the three cards are not linked.

    9.1 a flor is three cards of one suit, or a pieza with two other cards of one suit;
    9.2 two piezas are a flor reservada; 9.3 a flor counts 20 + the three values;
    9.4 a reservada counts the three values (its 20 are in the piezas).
    """
    total = sum(ref_card_value(c) for c in hand)
    if ref_is_reservada(hand):
        return total
    if len({ref_suit(c) for c in hand}) == 1:
        return 20 + total
    for i, c in enumerate(hand):
        others = hand[:i] + hand[i + 1 :]
        if ref_is_pieza(c) and ref_suit(others[0]) == ref_suit(others[1]):
            return 20 + total
    return 0


def ids(text: str) -> list[int]:
    return [ref_id(t) for t in text.split()]


# ---------------------------------------------------------------------------------------------
# Art. 2 (and 13.2, ruling 2): the power order table and the valor de pares column
# ---------------------------------------------------------------------------------------------


def test_art_2_table_transcription_covers_the_deck_once():
    cards = [c for _, _, row in ART_2_TABLE for c in row]
    assert sorted(cards) == sorted(REF_DECK)
    assert [ref_id(c) for c in REF_DECK] == list(range(40))
    assert parse(" ".join(REF_DECK)) == list(range(40))  # my id formula agrees with the notation


def test_art_2_power_order_table():
    # 17 rows, strongest first: el perro 17 .. cuatros 1 (module docstring), and for every pair of
    # cards the order (and the ties) of the table.
    for card in REF_DECK:
        assert truque_power(ref_id(card)) == len(ART_2_TABLE) - REF_ROW[card], card
        assert truque_power(card) == truque_power(ref_id(card))
    for a, b in itertools.product(REF_DECK, repeat=2):
        pa, pb = truque_power(ref_id(a)), truque_power(ref_id(b))
        ra, rb = REF_ROW[a], REF_ROW[b]
        assert (pa > pb) == (ra < rb), (a, b)
        assert (pa == pb) == (ra == rb), (a, b)


def test_art_2_ruling_2_reyes_caballos_sotas_and_same_row_ties():
    p = truque_power
    # reyes > caballos > sotas (ruling 2)
    assert p("12E") > p("11E") > p("10E")
    assert p("12B") > p("11C") > p("10B")
    assert min(p(f"12{s}") for s in _SUITS) > max(p(c) for c in ("11C", "11E"))
    assert min(p(c) for c in ("11C", "11E")) > max(p(c) for c in ("10C", "10E", "10B"))
    # same-row cards tie
    assert len({p(f"3{s}") for s in _SUITS}) == 1
    assert len({p(f"2{s}") for s in _SUITS}) == 1
    assert p("1O") == p("1C")
    assert p("7C") == p("7B")
    assert len({p(f"12{s}") for s in _SUITS}) == 1
    assert p("11C") == p("11E")
    assert p("10C") == p("10E") == p("10B")
    # piezas and matas are each alone in their row
    assert p("11B") > p("10O") > p("11O") > p("1E") > p("1B") > p("7E") > p("7O") > p("3O")
    # Art. 13.2 order of the groups
    assert p("3B") > p("2B") > p("1O") > p("12O")
    assert p("10C") > p("7C") > p("6O") > p("5O") > p("4O")
    assert p("11B") == 17 and p("4C") == 1


def test_art_2_valor_de_pares_column():
    # The Art. 2 table's second column (and Art. 5.2) against the module's per-card table.
    for value, name, cards in ART_2_TABLE:
        for card in cards:
            assert PARES_CARD_VALUE[ref_id(card)] == value, (name, card)
            assert ref_card_value(card) == value, (name, card)


def test_art_2_nicknames():
    assert CARD_NICKNAME[ref_id("11B")] == "el perro"
    assert CARD_NICKNAME[ref_id("10O")] == "la perra"
    assert CARD_NICKNAME[ref_id("11O")] == "el cascabel"
    assert CARD_NICKNAME[ref_id("1E")] == "la espada"
    assert CARD_NICKNAME[ref_id("1B")] == "el basto"
    assert CARD_NICKNAME[ref_id("7E")] == "la mata de espadas"
    assert CARD_NICKNAME[ref_id("7O")] == "la mata de oros"


# ---------------------------------------------------------------------------------------------
# Art. 5: pares
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # printed "7": 7C is the highest of three suits, no pieza
        pytest.param("7C 5O 2E", 7, id="7"),
        # printed "4": 4B over 3O and 1C
        pytest.param("4B 3O 1C", 4, id="4"),
        # printed "0": three figuras of three suits (11C and 10E are not piezas)
        pytest.param("12O 11C 10E", 0, id="0"),
    ],
)
def test_art_5_4_three_unlinked(hand, expected):
    assert pares_value(hand) == expected
    assert pares_value(ids(hand)) == expected
    assert ref_pares(hand.split()) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # printed "20 + (7 + 6) = 33": 7C 6C linked, 5E unlinked
        pytest.param("7C 6C 5E", 33, id="20+(7+6)=33"),
        # printed "20 + (6 + 0) = 26": 6E with the rey de espadas; the 7B alone would be only 7
        pytest.param("6E 12E 7B", 26, id="20+(6+0)=26"),
        # printed "20 + (0 + 0) = 20": two figuras of copas, the 5O alone would be only 5
        pytest.param("12C 10C 5O", 20, id="20+(0+0)=20"),
    ],
)
def test_art_5_5_two_linked_without_pieza(hand, expected):
    assert pares_value(hand) == expected
    assert pares_value(ids(hand)) == expected
    assert ref_pares(hand.split()) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # printed "31 + 7 = 38": el perro with the mata de oros (7O); the 3C does not count
        pytest.param("11B 7O 3C", 38, id="31+7=38"),
        # printed "30 + 6 = 36": la perra with 6E; the 2C does not count
        pytest.param("10O 6E 2C", 36, id="30+6=36"),
        # printed "29 + 0 = 29": el cascabel with two figuras
        pytest.param("11O 12E 10B", 29, id="29+0=29"),
    ],
)
def test_art_5_6_linked_with_pieza(hand, expected):
    assert pares_value(hand) == expected
    assert pares_value(ids(hand)) == expected
    assert ref_pares(hand.split()) == expected


def test_art_5_6_pieza_links_with_the_card_that_suits_it_best():
    # "Una pieza siempre liga con la carta que más le conviene", whatever the suits.
    assert pares_value("11B 2B 7C") == 31 + 7  # not with the 2 of its own suit
    assert pares_value("11O 7C 6C") == 29 + 7  # 36 beats the 20 + (7 + 6) = 33 of the pair
    assert pares_value("10O 12O 4E") == 30 + 4  # no 20 added for a same-suited figura


def test_art_5_3_pares_is_not_the_sum():
    # 5.3: the value is not the sum of the three cards.
    assert pares_value("7C 6O 5E") == 7
    assert pares_value("7C 6C 5C") == 20 + 7 + 6  # the third card does not count


# ---------------------------------------------------------------------------------------------
# Art. 9: flores
# ---------------------------------------------------------------------------------------------


def test_art_9_1_flor_needs_three_linked_cards():
    assert flor_value("7C 6C 5C") == 20 + 18  # three cards of one suit
    assert flor_value("11O 7E 6E") == 20 + 29 + 13  # a pieza with two cards of one suit
    assert flor_value("7C 6C 5E") == 0  # only two linked
    assert flor_value("11B 7B 6C") == 0  # a pieza with two cards of different suits
    assert flor_value("11B 7O 3C") == 0


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # printed "(20+7+6)+31=64": 7C 6C linked without pieza, plus el perro
        pytest.param("7C 6C 11B", 64, id="(20+7+6)+31=64"),
        # printed "(20+5+4)+2=31": three espadas
        pytest.param("5E 4E 2E", 31, id="(20+5+4)+2=31"),
        # printed "(20+0+0)+0=20": three figuras of copas (11C, 10C are not piezas)
        pytest.param("12C 11C 10C", 20, id="(20+0+0)+0=20"),
    ],
)
def test_art_9_3_flor_values(hand, expected):
    assert flor_value(hand) == expected
    assert flor_value(ids(hand)) == expected
    assert ref_flor(hand.split()) == expected
    assert not is_reservada(hand)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # printed "31+30+29=90": the three piezas
        pytest.param("11B 10O 11O", 90, id="31+30+29=90"),
        # printed "31+30+5=66": el perro, la perra and a 5 of a suit linked to neither
        pytest.param("11B 10O 5E", 66, id="31+30+5=66"),
        # printed "30+29+0=59": la perra, el cascabel and a figura
        pytest.param("10O 11O 12B", 59, id="30+29+0=59"),
    ],
)
def test_art_9_4_reservada_values(hand, expected):
    assert is_reservada(hand)
    assert flor_value(hand) == expected
    assert flor_value(ids(hand)) == expected
    assert ref_flor(hand.split()) == expected


def test_art_9_4_reservada_gets_no_twenty_even_when_suited():
    # Two piezas plus a card of one of their suits is still a reservada: the three values, no 20.
    assert is_reservada("11B 10O 7B")
    assert flor_value("11B 10O 7B") == 31 + 30 + 7
    assert flor_value("10O 11O 5O") == 30 + 29 + 5


def test_art_9_2_two_piezas_make_a_reservada_which_is_a_flor():
    for a, b in itertools.combinations(["11B", "10O", "11O"], 2):
        for other in ("4C", "12E", "7B", "1O"):
            hand = f"{a} {b} {other}"
            assert is_reservada(hand), hand
            assert flor_value(hand) > 0, hand  # a reservada is a flor
    assert is_reservada("11B 10O 11O")
    # one pieza is not a reservada, with or without flor
    assert not is_reservada("11B 7C 6C") and flor_value("11B 7C 6C") == 64
    assert not is_reservada("11B 7C 6E") and flor_value("11B 7C 6E") == 0
    assert not is_reservada("7C 6C 5C")


def test_art_10_15_reservada_beats_any_non_reservada_in_pares():
    # The weakest reservada in pares (la perra + el cascabel = 59) against the strongest
    # non-reservada pares (el perro + a siete = 38).
    assert pares_value("10O 11O 12C") == 59
    assert pares_value("11B 7O 7E") == 38
    assert pares_value("10O 11O 12C") > pares_value("11B 7O 7E")
    # and over every hand of the deck
    reservadas, others = [], []
    for hand in itertools.combinations(range(NUM_CARDS), 3):
        (reservadas if is_reservada(hand) else others).append(pares_value(hand))
    assert len(reservadas) == 3 * 37 + 1
    assert min(reservadas) > max(others)
    assert max(others) == 38 and min(reservadas) == 59


# ---------------------------------------------------------------------------------------------
# Exhaustive check against the independent reference
# ---------------------------------------------------------------------------------------------

ALL_HANDS = list(itertools.combinations(range(NUM_CARDS), 3))


def test_reference_counts_sanity():
    # Hand-counted, to check the reference itself: 37 non-pieza cards (oros 8, copas 10,
    # espadas 10, bastos 9). Flores: no pieza, three of a suit C(8,3)+2*C(10,3)+C(9,3) = 380;
    # one pieza with two non-piezas of a suit 3*(C(8,2)+2*C(10,2)+C(9,2)) = 3*154 = 462;
    # two or three piezas 3*37+1 = 112. Total 954.
    hands = [[REF_DECK[c] for c in h] for h in ALL_HANDS]
    assert len(hands) == 9880
    assert sum(ref_is_reservada(h) for h in hands) == 112
    assert sum(ref_flor(h) > 0 for h in hands) == 380 + 462 + 112


def test_exhaustive_pares_flor_reservada_match_reference():
    mismatches = []
    for hand in ALL_HANDS:
        names = [REF_DECK[c] for c in hand]
        got = (pares_value(hand), flor_value(hand), is_reservada(hand))
        want = (ref_pares(names), ref_flor(names), ref_is_reservada(names))
        if got != want:
            mismatches.append((" ".join(names), got, want))
    assert not mismatches, f"{len(mismatches)} hands differ, e.g. {mismatches[:10]}"


def test_exhaustive_notation_input_agrees_with_ids():
    for hand in ALL_HANDS[::7]:
        text = " ".join(REF_DECK[c] for c in hand)
        assert pares_value(text) == pares_value(hand)
        assert flor_value(text) == flor_value(hand)
        assert is_reservada(text) == is_reservada(hand)


def _order_sample():
    rng = random.Random(20080101)
    sample = rng.sample(ALL_HANDS, 1500)
    # every hand with a pieza in it is where order could matter most
    sample += [h for h in ALL_HANDS if any(REF_DECK[c] in REF_PIEZA_VALUE for c in h)][::3]
    return sample


def test_valuations_do_not_depend_on_order():
    for hand in _order_sample():
        names = [REF_DECK[c] for c in hand]
        want = (ref_pares(names), ref_flor(names), ref_is_reservada(names))
        for perm in itertools.permutations(hand):
            got = (pares_value(perm), flor_value(perm), is_reservada(perm))
            assert got == want, (" ".join(REF_DECK[c] for c in perm), got, want)


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------

BAD_HANDS = [
    pytest.param([0, 1], id="two-cards"),
    pytest.param([0, 1, 2, 3], id="four-cards"),
    pytest.param([], id="no-cards"),
    pytest.param([5, 5, 6], id="duplicate"),
    pytest.param([38, 7, 38], id="duplicate-piezas"),
    pytest.param([0, 1, 40], id="id-40"),
    pytest.param([0, 1, -1], id="id-minus-1"),
    pytest.param("11B 7E", id="text-two-cards"),
    pytest.param("11B 7E 11b", id="text-duplicate"),
    pytest.param("11B 7E 13O", id="text-unknown"),
]


@pytest.mark.parametrize("func", [pares_value, flor_value, is_reservada])
@pytest.mark.parametrize("hand", BAD_HANDS)
def test_bad_hand_raises(func, hand):
    with pytest.raises(ValueError):
        func(hand)


@pytest.mark.parametrize("card", [40, -1, 100, "11B 7E", "11B 11B", "13O", "", "11X"])
def test_truque_power_bad_card_raises(card):
    with pytest.raises(ValueError):
        truque_power(card)
