"""Truco argentino valuations: the numeric statements of traditions.md (AE1, AE2, AE11), ruling A3,
and every card and three-card hand against the plain-Python reference (tests/reference)."""

from __future__ import annotations

from itertools import combinations

import pytest

from tests.reference import argentino_ref as R
from truque_env.cards import NUM_CARDS, card_id
from truque_env.traditions.argentino import rules as AR


def test_ae1_flor_5_6_7_is_38_and_three_figures_are_20():
    assert AR.flor_value("5O 6O 7O") == 38
    assert AR.flor_value("10E 11E 12E") == 20
    assert AR.flor_value("5O 6O 7C") == 0


def test_ae2_envido_6_7_is_33_three_figures_0_two_figures_of_a_suit_20():
    assert AR.envido_value("6E 7E 1B") == 33
    assert AR.envido_value("10O 11C 12E") == 0
    assert AR.envido_value("10O 11O 12E") == 20
    assert AR.envido_value("7O 5C 12B") == 7  # different suits: the highest card


def test_ae11_an_unsung_flor_7_6_5_counts_20_plus_13():
    assert AR.envido_value("7C 6C 5C") == 33


def test_ruling_a3_ranking():
    order = ["1E", "1B", "7E", "7O", "3O", "2C", "1O", "12B", "11E", "10C", "7C", "6B", "5O", "4E"]
    powers = [AR.power(c) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    assert AR.power("1O") == AR.power("1C") and AR.power("7C") == AR.power("7B")
    assert AR.power("3O") == AR.power("3B") and AR.power("4O") == 1 and AR.power("1E") == 14


def test_every_card_and_every_hand_agrees_with_the_reference():
    for c, (rank, suit) in enumerate(R.ALL_CARDS):
        assert card_id(rank, suit) == c
        assert AR.power(c) == R.power(rank, suit)
    hands = 0
    for hand in combinations(range(NUM_CARDS), 3):
        cards = [R.ALL_CARDS[c] for c in hand]
        assert AR.envido_value(hand) == R.envido(cards), hand
        assert AR.flor_value(hand) == R.flor(cards), hand
        hands += 1
    assert hands == 9880


@pytest.mark.parametrize("bad", ["7E 7E 3B", "7E 3B", "13E 1B 2B", [1, 2, 40]])
def test_a_bad_hand_is_a_clear_error(bad):
    with pytest.raises(ValueError):
        AR.envido_value(bad)


def test_the_public_valuations_are_the_same_interface_as_motenos():
    import truque_env

    v = truque_env.valuations("argentino")
    assert v.power("1E") == 14 and v.power(card_id(4, "C")) == 1
    assert v.hand_values("7E 6E 3B") == {"envido": 33, "flor": 0}
    assert v.hand_values([card_id(5, "O"), card_id(6, "O"), card_id(7, "O")]) == {"envido": 33, "flor": 38}
    with pytest.raises(ValueError, match="turns up no card"):
        v.power("1E", turnup="4C")


def test_a_tradition_under_construction_is_not_registered(tmp_path, monkeypatch):
    """A package that says UNDER_CONSTRUCTION instead of defining SPEC is skipped by the registry."""
    import truque_env
    from truque_env import traditions as T

    pkg = tmp_path / "en_obra"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('UNDER_CONSTRUCTION = "only its valuations exist"\n')
    monkeypatch.setattr(T, "__path__", [*T.__path__, str(tmp_path)])
    T._registry.cache_clear()
    try:
        assert "en_obra" not in truque_env.traditions() and "argentino" in truque_env.traditions()
        with pytest.raises(ValueError, match="unknown tradition 'en_obra'"):
            truque_env.valuations("en_obra")
    finally:
        monkeypatch.undo()
        T._registry.cache_clear()
