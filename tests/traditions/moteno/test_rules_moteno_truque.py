"""Scripted deals for the truque: Arts. 13 (bazas), 14 (desafíos), 15 (a ciegas), 16 (pardas).

Helpers and conventions: tests/traditions/moteno/test_rules_moteno.py. Mano is seat 0 unless a test says so.
"""

from __future__ import annotations

import pytest

from tests.traditions.moteno.test_rules_moteno import (
    FALTA,
    PARES_BETS,
    STRONG,
    WEAK,
    cards_in,
    chinas,
    legal,
    play,
    play_out,
    result,
    start,
)

# STRONG "1E 1B 4C" against WEAK "3O 2C 5B": 1E-3O and 1B-2C give seat 0 the first two bazas.
STRONG_TRUQUE = ("1E", "3O", "1B", "2C")


# ---------------------------------------------------------------------------------------------
# Art. 13: las bazas
# ---------------------------------------------------------------------------------------------


def test_art_13_5_13_6_13_10_highest_card_wins_and_leads(table_factory):
    """13.5: "gana la baza la carta de mayor poder de truque"; 13.6: "La segunda y la tercera
    comienzan por el que ganó la baza anterior"; 13.10: "Si un equipo gana la 1ª y el otro la
    2ª, se decide el ganador en la 3ª"; 13.13: nobody trucó, one china."""
    t = start(table_factory, ["3O 4C 5E", "2B 12O 6C"])
    play(t, "4C", "6C")  # a seis beats a cuatro
    assert t.to_act == 1
    play(t, "12O", "3O")  # a tres beats a rey
    assert t.to_act == 0
    play(t, "5E")
    assert not t.done
    play(t, "2B")
    assert t.done
    assert chinas(t) == result(truque=(0, 1))


def test_art_13_10_two_bazas_end_the_mano(table_factory):
    """13.10: "si un equipo gana las dos primeras, gana el truque y se acaba la mano." """
    t = start(table_factory, [STRONG, WEAK])
    play(t, *STRONG_TRUQUE)
    assert t.done
    assert chinas(t) == result(truque=(1, 0))


def test_art_13_11_second_baza_parda_la_primera_vale_por_dos(table_factory):
    """13.11: "En caso de empate en la segunda o tercera baza, gana el truque el que ganó la
    primera. Por eso se suele decir: 'la primera vale por dos'." """
    t = start(table_factory, ["1E 3O 5C", "4B 3C 5E"])
    play(t, "1E", "4B", "3O", "3C")
    assert t.done
    assert chinas(t) == result(truque=(1, 0))


def test_art_13_11_third_baza_parda_la_primera_vale_por_dos(table_factory):
    """13.11: "En caso de empate en la segunda o tercera baza, gana el truque el que ganó la
    primera." """
    t = start(table_factory, ["1E 4C 5O", "4B 3C 5E"])
    play(t, "1E", "4B", "4C", "3C")
    assert t.to_act == 1
    play(t, "5E", "5O")
    assert t.done
    assert chinas(t) == result(truque=(1, 0))


def test_art_13_7_partners_equal_winning_cards_the_earlier_leads_2v2(table_factory):
    """13.7: "Si dos compañeros han jugado cartas iguales que son ganadoras de la baza, deberá
    volver el que ha jugado antes (por ir de mano en esa baza)." Two treses of team 0: no
    parda."""
    hands = ["3O 4C 5E", "4B 12O 6C", "3C 7O 6E", "5B 2E 12C"]
    t = start(table_factory, hands)
    play(t, "3O", "4B", "3C", "5B")
    assert t.to_act == 0
    play(t, "4C", "6C", "7O", "12C")  # la mata de oros: team 0 has two bazas
    assert t.done
    assert chinas(t) == result(truque=(1, 0))


# ---------------------------------------------------------------------------------------------
# Art. 13.14-13.16: irse a baraja, la mía no vale
# ---------------------------------------------------------------------------------------------


def test_art_13_14_me_voy_a_baraja_leaves_the_truque_to_the_rivals(table_factory):
    """13.14: "Un jugador puede retirarse del juego en una mano echando sus cartas a la baraja
    (irse a baraja), pero la mano continúa mientras quede algún un jugador en cada equipo." """
    t = start(table_factory, [STRONG, WEAK])
    t.act("me voy a baraja")
    assert t.done
    assert chinas(t) == result(truque=(0, 1))


def test_art_13_14_baraja_after_an_accepted_truco(table_factory):
    """13.14 and 14.15: the team left in the mano wins the truque, and with it the three chinas
    of the accepted truco."""
    t = start(table_factory, [STRONG, WEAK])
    t.act("truco")
    t.act("quiero")
    play(t, "4C", "3O")
    assert t.to_act == 1
    assert "me voy a baraja" in legal(t)
    play(t, "2C")
    t.act("me voy a baraja")  # seat 0, with the two matas, leaves
    assert t.done
    assert chinas(t) == result(truque=(0, 3))


def test_art_13_15_baraja_cards_do_not_count_for_pares_2v2(table_factory):
    """13.15: "Cuando un jugador se va a baraja, abandona completamente la mano y sus cartas ya no
    cuentan para los pares ni para las flores." The mano goes on with seats 1, 2, 3."""
    hands = ["11B 7C 4E", "7E 6E 3B", "5O 4B 12E", "3O 2C 12C"]  # pares 38, 33, 5, 22
    t = start(table_factory, hands)
    t.act("envío 1 par")
    t.act("quiero")  # seat 1
    t.act("paso")  # seat 3
    assert t.to_act == 0
    t.act("me voy a baraja")
    assert not t.done
    assert t.to_act == 1
    play_out(t)
    assert chinas(t)["pares"] == (0, 2)  # seat 1's 33 is the best left


def test_art_13_15_flor_of_a_player_gone_a_baraja_is_lost(table_factory):
    """13.15: "sus cartas ya no cuentan para los pares ni para las flores" (docs/engine.md: a
    flor he sang is lost)."""
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"])
    t.act("flor")
    t.act("paso")
    assert t.to_act == 0
    t.act("me voy a baraja")
    assert t.done
    assert chinas(t) == result(truque=(0, 1))


def test_art_13_16_la_mia_no_vale_cards_still_count_for_pares_2v2(table_factory):
    """13.16: "un jugador puede tirar, en su sitio y boca abajo, las cartas que le quedan por
    jugar; queriendo decir con ello que se retira de la disputa del truque. Pero como no se va a
    baraja, sus cartas pueden valer para los pares y las flores." """
    hands = ["11B 7C 4E", "7E 6E 3B", "1B 3C 2O", "3O 2C 12C"]  # pares 38, 33, 3, 22
    t = start(table_factory, hands)
    assert "la mía no vale" not in legal(t)  # not in the first baza
    t.act("envío 1 par")
    t.act("quiero")  # seat 1
    t.act("paso")  # seat 3
    play(t, "11B", "6E", "3C", "12C")  # el perro: seat 0 leads the second baza
    assert t.to_act == 0
    assert "la mía no vale" in legal(t)
    t.act("la mía no vale")
    assert t.to_act == 1
    play(t, "7E", "1B", "3O")  # el basto beats la mata de espadas: team 0 has two bazas
    assert t.done
    assert chinas(t) == result(pares=(2, 0), truque=(1, 0))


def test_art_13_16_la_mia_no_vale_needs_a_partner(table_factory):
    """13.16: "dejar su carta boca abajo diciendo: 'la mía no vale' o 'ésa es' (la de su
    compañero)": in a mano a mano there is no partner's card to stand for his."""
    t = start(table_factory, ["1E 4C 5O", "4B 3C 5E"])
    play(t, "1E", "4B")
    assert t.to_act == 0
    assert "la mía no vale" not in legal(t)


# ---------------------------------------------------------------------------------------------
# Art. 14: los desafíos de truque
# ---------------------------------------------------------------------------------------------


def test_art_14_5_14_6_14_7_14_13_answers_to_each_challenge(table_factory):
    """14.5: "'quiero', 'no quiero' o 'retruco'"; 14.6: "'quiero', 'no quiero' o 'panueve'";
    14.7/14.13: "Cuando se echa panueve, ya no es posible aumentar la apuesta". 14.12: panueve
    accepted is nine chinas (18.2 v)."""
    t = start(table_factory, [STRONG, WEAK])
    t.act("truco")
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero", "retruco"}
    t.act("retruco")
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero", "panueve"}
    t.act("panueve")
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero"}
    t.act("quiero")
    assert t.to_act == 0
    assert not {"truco", "retruco", "panueve"} & legal(t)
    play(t, *STRONG_TRUQUE)
    assert chinas(t) == result(truque=(9, 0))


def test_art_14_8_only_the_rival_may_raise_after_a_quiero(table_factory):
    """14.8: "Cuando se quiere a un truque o a un retruque, se continúan jugando las cartas y
    después podrá retrucar o echar panueve el jugador rival que tenga el turno de juego, antes
    de echar su carta a la mesa." """
    t = start(table_factory, [STRONG, WEAK])
    t.act("truco")
    t.act("quiero")
    assert t.to_act == 0
    assert not {"truco", "retruco", "panueve"} & legal(t)
    play(t, "1E")
    names = legal(t)
    assert "retruco" in names and not {"truco", "panueve"} & names
    t.act("retruco")
    assert legal(t) == {"quiero", "no quiero", "panueve"}
    t.act("quiero")
    assert t.to_act == 1
    assert not {"truco", "retruco", "panueve"} & legal(t)
    play(t, "3O")
    assert t.to_act == 0
    assert "panueve" in legal(t)
    play(t, "1B", "2C")
    assert chinas(t) == result(truque=(6, 0))


@pytest.mark.parametrize(
    "words, truque",
    [
        (["truco", "no quiero"], (1, 0)),  # 18.2 s) "Una de no querer"
        (["truco", "retruco", "no quiero"], (0, 3)),  # 18.2 t) "Tres de truque"
        (["truco", "retruco", "panueve", "no quiero"], (6, 0)),  # 18.2 u) "Seis de retruque"
    ],
)
def test_art_14_9_14_14_18_2_s_t_u_challenge_refused(table_factory, words, truque):
    """14.14: "Cuando un jugador truca, se gana una china si el equipo rival no quiere. De la
    misma manera, si retruca y no quieren se gana las tres del truque, y si echa panueve y no
    quieren se gana las seis chinas del retruque." 14.9: the truque is over."""
    t = start(table_factory, [STRONG, WEAK])
    play(t, "1E", "3O")  # second baza: no first round to complete
    assert t.to_act == 0
    for word in words:
        t.act(word)
    assert t.done
    assert chinas(t) == result(truque=truque)


@pytest.mark.parametrize(
    "words, truque",
    [
        (["truco", "quiero"], (3, 0)),
        (["truco", "retruco", "quiero"], (6, 0)),
        (["truco", "retruco", "panueve", "quiero"], (9, 0)),
    ],
)
def test_art_14_12_14_15_18_2_v_challenge_accepted(table_factory, words, truque):
    """14.15: "Cuando se quiere a un desafío se juegan las cartas y el equipo que gane el truque
    (dos bazas), se ganará las chinas apostadas en el desafío." 14.12: three, six, nine."""
    t = start(table_factory, [STRONG, WEAK])
    play(t, "1E", "3O")
    for word in words:
        t.act(word)
    assert not t.done
    play(t, "1B", "2C")
    assert t.done
    assert chinas(t) == result(truque=truque)


def test_art_14_10_refused_truco_completes_the_first_round(table_factory):
    """14.10: "se habrá terminado la disputa del truque, pero se debe completar la primera ronda
    de turnos de juego para que se pueda disputar la jugada de pares o flores [...] así cada uno
    tendrá su turno [...] para mandar pares o cantar flor si la lleva." (6.14)"""
    t = start(table_factory, ["5O 4B 12E", "7C 6C 1E"])  # pares 5 and 33
    t.act("truco")
    t.act("no quiero")
    assert not t.done
    assert t.to_act == 0
    assert legal(t) == {"paso"}  # he trucó: no envite (6.13); the cards stay on the table
    t.act("paso")
    assert t.to_act == 1
    names = legal(t)
    assert {"paso", "envío 1 par"} <= names
    assert not cards_in(names) and "truco" not in names
    t.act("envío 1 par")
    t.act("quiero")  # seat 0 may still answer the envite
    assert t.to_act == 1
    assert legal(t) == {"paso"}
    t.act("paso")
    assert t.done
    assert chinas(t) == result(pares=(0, 2), truque=(1, 0))


def test_art_14_11_first_round_goes_on_until_a_flor_or_the_postre_2v2(table_factory):
    """14.11: "Aunque, durante la ronda que se juega con las tres cartas juntas, se produzca una
    apuesta a los pares, no se enseñarán las cartas y se continuará la ronda hasta que salga
    alguna flor o se llegue al postre." The flor annuls the envite (10.5)."""
    hands = ["5O 4B 12E", "7B 6B 3O", "7C 6C 5C", "12O 3B 4E"]  # seat 2 has flor
    t = start(table_factory, hands)
    t.act("truco")
    t.act("no quiero")  # seat 1
    t.act("paso")  # seat 3: the truco is refused
    assert t.to_act == 0
    t.act("paso")
    assert t.to_act == 1
    t.act("envío 1 par")
    assert t.to_act == 2  # team 0 answers in order after seat 1: 2, 0
    t.act("no quiero")
    t.act("paso")  # seat 0
    assert t.to_act == 1
    t.act("paso")
    assert t.to_act == 2
    assert "flor" in legal(t)
    t.act("flor")
    for seat in (3, 0, 1):  # the flor round: seat 3, then the players behind
        assert t.to_act == seat and legal(t) == {"paso"}
        t.act("paso")
    assert t.to_act == 2
    t.act("paso")
    assert t.to_act == 3
    t.act("paso")
    assert t.done
    assert chinas(t) == result(flores=(3, 0), truque=(1, 0))


# ---------------------------------------------------------------------------------------------
# Art. 15: los desafíos de truque a ciegas
# ---------------------------------------------------------------------------------------------


def test_art_15_1_15_4_blind_truco_quiero_a_ciegas(table_factory):
    """15.1: "también son válidos los desafíos de truque a ciegas"; 15.4: "Cualquier jugador
    puede participar con su equipo en un desafío a ciegas [...] y después, con las cartas
    repartidas, mandar o cantar flor si la lleva." """
    t = start(table_factory, [STRONG, WEAK], blind=False)
    t.act("truco")
    assert legal(t) == {"luego te lo digo", "quiero", "no quiero", "retruco"}
    t.act("quiero")
    assert t.to_act == 1
    assert legal(t) - {FALTA} == {"paso"} | set(PARES_BETS)  # his blind turn: no second truco
    t.act("paso")
    assert t.to_act == 0
    names = legal(t)
    assert "envío 1 par" in names
    assert not {"truco", "retruco"} & names
    play(t, *STRONG_TRUQUE)
    assert chinas(t) == result(truque=(3, 0))


def test_art_15_2_15_3_blind_truco_answered_after_the_deal(table_factory):
    """15.2: "el equipo rival podrá responder en el acto (querer o retrucar, también a ciegas) o
    esperar a tener las cartas para responder." 15.3: "debe darse antes de jugar la primera
    carta." """
    t = start(table_factory, [STRONG, WEAK], blind=False)
    t.act("truco")
    t.act("luego te lo digo")
    assert t.to_act == 1
    t.act("paso")
    assert t.to_act == 1  # the cards are dealt: the truco is answered before any card
    assert legal(t) == {"quiero", "no quiero", "retruco"}
    t.act("retruco")
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero", "panueve"}
    t.act("quiero")
    assert t.to_act == 0
    play(t, *STRONG_TRUQUE)
    assert chinas(t) == result(truque=(6, 0))


def test_art_15_6_blind_truco_answered_in_close_then_the_mano_may_mandar(table_factory):
    """15.6: "dicho jugador podrá mandar o cantar flor antes de responder al desafío de truque"
    (simplified, docs/engine.md CLOSE: the pending blind truco is answered before the first
    turn; the mano may then mandar at his turn, 6.14)."""
    t = start(table_factory, [WEAK, STRONG], blind=False)
    t.act("paso")  # seat 0, the mano
    t.act("truco")  # seat 1, a ciegas
    t.act("luego te lo digo")  # seat 0
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero", "retruco"}
    t.act("quiero")
    assert t.to_act == 0
    assert "envío 1 par" in legal(t)
    t.act("envío 1 par")
    t.act("quiero")
    play(t, "3O", "1E", "1B", "2C")  # la espada and el basto: seat 1
    assert chinas(t) == result(pares=(2, 0), truque=(0, 3))


def test_art_15_3_14_10_blind_truco_refused_first_round_completed(table_factory):
    """14.10 with a truco a ciegas refused before the deal: the truque is over, and every player
    still has his turn of the first round to mandar or sing flor."""
    t = start(table_factory, [STRONG, WEAK], blind=False)
    t.act("truco")
    t.act("no quiero")
    assert t.to_act == 1
    t.act("paso")
    assert t.to_act == 0
    names = legal(t)
    assert {"paso", "envío 1 par"} <= names  # the blind challenger may still mandar (15.4)
    assert not cards_in(names)
    t.act("envío 1 par")
    t.act("quiero")
    assert t.to_act == 0
    t.act("paso")
    assert t.to_act == 1
    t.act("paso")
    assert t.done
    # pares: seat 1 shows 5 against 4
    assert chinas(t) == result(pares=(0, 2), truque=(1, 0))


# ---------------------------------------------------------------------------------------------
# Art. 16: la jugada de pardas
# ---------------------------------------------------------------------------------------------


def test_art_16_1_16_2_parda_first_second_starts_with_the_mano_2v2(table_factory):
    """16.1: "Cuando las mayores cartas jugadas por los dos equipos en la primera baza tienen el
    mismo poder, la baza queda empatada"; 16.2: "La segunda baza [...] se jugará empezando por el
    mano". The second decides."""
    # dealer 1: mano is seat 2; order 2, 3, 0, 1
    hands = ["3C 4O 6B", "5B 6O 7C", "4E 1E 12B", "3O 5C 2B"]
    t = start(table_factory, hands, dealer=1)
    assert t.to_act == 2
    play(t, "4E", "3O", "3C", "5B")  # a tres of each team: parda
    assert t.to_act == 2
    play(t, "1E", "2B", "4O", "7C")
    assert t.done
    assert chinas(t) == result(truque=(1, 0))


def test_art_16_1_13_7_two_partners_and_a_rival_on_the_best_card_is_parda_2v2(table_factory):
    """16.1: both teams' best cards are equal, so the baza is parda, even when two partners hold
    that power (13.7 only orders partners among themselves). Then the second baza decides (16.2).
    Counting the partners' tie as a win of theirs would give team 0 the first and third bazas."""
    hands = ["3O 4C 12C", "3C 7O 4B", "3E 4O 6C", "5B 6O 7C"]
    t = start(table_factory, hands)
    play(t, "3O", "3C", "3E", "5B")  # treses of seats 0 and 2 (team 0) and of seat 1 (team 1)
    assert t.to_act == 0  # parda: mano leads (16.2)
    play(t, "4C", "7O", "4O", "6O")  # la mata de oros: team 1 wins the second, and the truque
    assert t.done
    assert chinas(t) == result(truque=(0, 1))


@pytest.mark.parametrize("dealer", [0, 1])
def test_art_16_4_16_5_three_pardas_por_la_mano(table_factory, dealer):
    """16.4: "Si la segunda baza [...] vuelve a quedar parda, se decidirá el ganador del truque
    disputando la tercera baza [...] comenzando otra vez el turno por el mano." 16.5: "(pardas
    las tres bazas); entonces se ganará el truque por la mano." 16.6: one may still trucar."""
    t = start(table_factory, ["3O 2C 12E", "3E 2B 12B"], dealer=dealer)
    mano = (dealer + 1) % 2
    first = {0: ("3O", "2C", "12E"), 1: ("3E", "2B", "12B")}
    other = 1 - mano
    for i in range(3):
        assert t.to_act == mano
        if i == 2:
            assert "truco" in legal(t)
        play(t, first[mano][i], first[other][i])
    assert t.done
    assert chinas(t) == result(truque=(1, 0) if mano == 0 else (0, 1))


def test_art_13_14_baraja_when_the_partner_said_la_mia_no_vale_2v2(table_factory):
    """13.14: "la mano continúa mientras quede algún un jugador en cada equipo" (docs/engine.md:
    in the truque). Seat 0 said "la mía no vale"; when seat 2 goes a baraja team 0 has nobody
    left in the truque."""
    hands = ["11B 7C 4E", "7E 6E 3B", "1B 3C 2O", "3O 2C 12C"]
    t = start(table_factory, hands)
    play(t, "11B", "6E", "3C", "12C")
    t.act("la mía no vale")
    play(t, "7E")
    assert t.to_act == 2
    t.act("me voy a baraja")
    assert t.done
    assert chinas(t) == result(truque=(0, 1))
