"""Scripted deals for the pares: Arts. 5 (values), 6 (envite), 7 (a ciegas), 8 (al cantar).

Helpers and conventions: tests/traditions/moteno/test_rules_moteno.py. Mano is seat 0 unless a test says so.
"""

from __future__ import annotations

import pytest

from tests.traditions.moteno.test_rules_moteno import (
    FALTA,
    FLORES_BETS,
    PARES_BETS,
    STRONG,
    WEAK,
    cards_in,
    chinas,
    ints,
    legal,
    pares_raises,
    pass_blind,
    play,
    play_out,
    result,
    start,
)

# Two 1v1 hands used for the pares: seat 0 has pares 33 (7C 6C linked, Art. 5.5), seat 1 has 5.
# Played 1E-4B, 7C-12E, 5O-6C the truque goes to seat 0 (first and third bazas).
GOOD = "7C 6C 1E"
BAD = "5O 4B 12E"
GOOD_TRUQUE = ("1E", "4B", "7C", "12E", "5O", "6C")
# The same hands with the seats swapped: seat 1 wins pares and truque (12E-1E, 7C-5O).
BAD_GOOD_TRUQUE = ("12E", "1E", "7C", "5O")


# ---------------------------------------------------------------------------------------------
# Art. 5: the values decide the dispute
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand0, hand1, pares",
    [
        # 5.4 "se cuenta el valor de la carta más alta": 7 (not 7+6+5) < 5.5 "veinte por tener
        # ligado sin pieza": 20 + 0 + 0
        ("7O 6C 5E", "12C 11C 1E", (0, 2)),
        # 5.5: 20 + 7 + 6 = 33 > 5.6 la perra with figuras: 30 + 0
        ("7C 6C 1E", "12B 11E 10O", (2, 0)),
        # 5.6 "el valor de la pieza más el valor de la carta más alta": el perro 31 + 3 = 34 <
        # la perra 30 + 5 = 35
        ("11B 3C 2E", "10O 4C 5E", (0, 2)),
        # 5.6 el cascabel 29 + 0 = 29 > 5.5 20 + 6 + 2 = 28
        ("11O 12C 10B", "6B 2B 4O", (2, 0)),
        # 5.6 31 + 7 = 38 > 5.5 20 + 7 + 6 = 33
        ("11B 7C 4E", "7E 6E 5O", (2, 0)),
    ],
)
def test_art_5_pares_values_decide_the_envite(table_factory, hand0, hand1, pares):
    """5.3: "El valor en pares de las cartas de un jugador no es la suma del valor individual de
    las tres cartas, sino que depende de cómo se combinen: sin ligar, ligadas sin pieza o ligadas
    con pieza." (5.2, 5.4-5.6, 18.2 b)"""
    t = start(table_factory, [hand0, hand1])
    t.act("envío 1 par")
    t.act("quiero")
    play_out(t)
    assert chinas(t)["pares"] == pares


@pytest.mark.parametrize("dealer", [1, 0])
def test_art_6_22_pares_tie_goes_to_the_mano(table_factory, dealer):
    """6.22: "Si [...] hay empate entre jugadores que tienen el mismo valor de pares, ganará el
    que va de mano (gana por la mano)." Both hands are worth 20 + 7 + 6 = 33."""
    t = start(table_factory, ["7C 6C 2O", "7B 6B 3E"], dealer=dealer)
    mano = (dealer + 1) % 2
    assert t.to_act == mano
    t.act("envío 1 par")
    t.act("quiero")
    play_out(t)
    assert chinas(t)["pares"] == ((2, 0) if mano == 0 else (0, 2))


# ---------------------------------------------------------------------------------------------
# Art. 6: the envite de pares
# ---------------------------------------------------------------------------------------------


def test_art_6_3_three_answers_to_an_envite(table_factory):
    """6.3: "Ante un envite hay tres respuestas posibles; aceptar diciendo: 'quiero', no aceptar
    diciendo: 'no quiero', o aumentar la apuesta con un revoque." (6.1, 6.15: the smallest
    envite is un par; a revoque must raise)"""
    t = start(table_factory, [GOOD, BAD])
    assert "envío 1 par" in legal(t)
    t.act("envío 1 par")
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero"} | pares_raises(2)
    assert "envío 1 par" not in legal(t)


def test_art_6_4_revoques_until_quiero(table_factory):
    """6.4: "así pueden seguir revoques sucesivos hasta que se cierre la apuesta con: 'quiero' o
    'no quiero'." Un par - dos pares - tres pares - quiero: six chinas to the best pares."""
    t = start(table_factory, [GOOD, BAD])
    t.act("envío 1 par")
    t.act("envío 2 pares")
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero"} | pares_raises(4)
    t.act("envío 3 pares")
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero"} | pares_raises(6)
    t.act("quiero")
    assert t.to_act == 0  # the exchange is closed; the mano still has to play
    play(t, *GOOD_TRUQUE)
    assert t.done
    assert chinas(t) == result(pares=(6, 0), truque=(1, 0))
    assert ints(t.scores) == (7, 0)


def test_art_6_6_postre_may_mandar_but_not_after_the_first_baza(table_factory):
    """6.6: "sólo pueden hacerse durante la primera baza (el primero que puede envidar es el mano
    y el último el postre); y ningún envite es válido después de que el postre haya jugado su
    primera carta." 6.7: "nadie se ganará ninguna china de pares, por muchos que lleve." """
    t = start(table_factory, [STRONG, WEAK])
    play(t, "1E")
    assert t.to_act == 1
    assert set(PARES_BETS) | {FALTA} <= legal(t)  # the postre may still mandar
    play(t, "3O")
    assert t.to_act == 0
    assert not (set(PARES_BETS) | {FALTA}) & legal(t)
    play(t, "1B", "2C")
    assert t.done
    assert chinas(t) == result(truque=(1, 0))


def test_art_6_8_no_envite_after_a_flor(table_factory):
    """6.8: "No es válido ningún envite de pares después de haberse cantado alguna flor." """
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"])
    t.act("flor")
    assert t.to_act == 1
    assert legal(t) == {"paso"}  # seat 1 has no flor
    t.act("paso")
    assert t.to_act == 0
    names = legal(t)
    assert not (set(PARES_BETS) | set(FLORES_BETS) | {FALTA, "flor"}) & names
    play(t, "7C")
    assert not (set(PARES_BETS) | {FALTA}) & legal(t)
    play(t, "12O", "4E", "5C", "6C", "3B")  # 12O, 5C and 3B win: seat 1 has two bazas
    assert t.done
    assert chinas(t) == result(flores=(3, 0), truque=(0, 1))


def test_art_6_10_any_rival_answers_even_after_playing_2v2(table_factory):
    """6.10: "A un envite de pares puede responder cualquier jugador del equipo rival, aunque
    haya jugado ya su primera carta." Seat 3 refuses, seat 1 (who has played) accepts: the
    quiero stands (17.8)."""
    hands = [GOOD, BAD, "3O 2C 12C", "11O 7B 4E"]  # pares 33, 5, 22, 29 + 7 = 36
    t = start(table_factory, hands)
    play(t, "6C", "4B")
    assert t.to_act == 2
    t.act("envío 1 par")
    assert t.to_act == 3  # team 1 answers in order after the raiser: 3, then 1
    assert "paso" not in legal(t)
    t.act("no quiero")
    assert t.to_act == 1
    assert legal(t) == {"paso", "quiero"} | pares_raises(2)
    t.act("quiero")
    assert t.to_act == 2
    play_out(t)
    assert chinas(t)["pares"] == (0, 2)  # seat 3 shows 36


def test_art_6_13_player_who_trucoed_cannot_mandar(table_factory):
    """6.13: "No es válido el envite de un jugador que antes haya lanzado un desafío de truque
    diciendo: 'truco', o haya respondido a un desafío del rival con: 'retruco' o 'panueve'." """
    t = start(table_factory, [STRONG, WEAK])
    t.act("truco")
    t.act("retruco")
    t.act("quiero")
    assert t.to_act == 0
    assert not (set(PARES_BETS) | {FALTA}) & legal(t)  # seat 0 trucó
    play(t, "1E")
    assert t.to_act == 1
    assert not (set(PARES_BETS) | {FALTA}) & legal(t)  # seat 1 retrucó
    play_out(t)  # 3O, then 4C-2C, 5B-1B: seat 0 wins the first and third bazas
    assert chinas(t) == result(truque=(6, 0))


def test_art_6_13_6_14_partner_of_the_challenger_and_rival_may_mandar_2v2(table_factory):
    """6.13: "el jugador que desafía al truque después no puede mandar"; 6.14: "se puede querer
    (o no querer) a un desafío de truque y después mandar." Only the challenger is barred."""
    hands = [GOOD, BAD, "3O 2C 12C", "11O 7B 4E"]  # pares 33, 5, 22, 36
    t = start(table_factory, hands)
    t.act("truco")
    t.act("quiero")  # seat 1
    t.act("paso")  # seat 3
    assert t.to_act == 0
    assert not (set(PARES_BETS) | {FALTA}) & legal(t)
    play(t, "1E")
    assert "envío 1 par" in legal(t)  # seat 1 answered the truco: he may mandar
    play(t, "4B")
    assert t.to_act == 2
    assert "envío 1 par" in legal(t)  # the challenger's partner may mandar
    t.act("envío 1 par")
    t.act("quiero")  # seat 3
    t.act("paso")  # seat 1
    play_out(t)
    assert chinas(t)["pares"] == (0, 2)  # seat 3 shows 36


def test_art_6_14_quiero_to_truco_then_mandar(table_factory):
    """6.14: "se puede querer (o no querer) a un desafío de truque y después mandar." """
    t = start(table_factory, [BAD, GOOD])
    t.act("truco")
    t.act("quiero")
    play(t, "12E")
    assert t.to_act == 1
    t.act("envío 1 par")
    t.act("quiero")
    play(t, "1E", "7C", "5O")
    assert t.done
    assert chinas(t) == result(pares=(0, 2), truque=(0, 3))


def test_art_6_15_6_16_6_17_accepted_envite_capped_at_the_falta(table_factory):
    """6.17: "si se acepta el envite, se sabe que el equipo que gane se llevará como máximo las
    chinas de la falta." 20 - 10: la falta is 10, the envite of ten pares (20) wins 10."""
    t = start(table_factory, [BAD, GOOD], scores=(20, 10))
    t.act("envío 10 pares")
    t.act("quiero")
    play(t, *BAD_GOOD_TRUQUE)
    assert chinas(t) == result(pares=(0, 10), truque=(0, 1))
    assert ints(t.scores) == (20, 21)


def test_art_6_16_envio_la_falta_accepted(table_factory):
    """6.16: "para mandar exactamente las chinas que faltan se dice: 'envío la falta'." No
    revoque is possible over la falta."""
    t = start(table_factory, [BAD, GOOD], scores=(20, 10))
    t.act(FALTA)
    assert legal(t) == {"quiero", "no quiero"}
    t.act("quiero")
    play(t, *BAD_GOOD_TRUQUE)
    assert chinas(t) == result(pares=(0, 10), truque=(0, 1))
    assert ints(t.scores) == (20, 21)


def test_art_6_16_refused_revoque_capped_at_the_falta(table_factory):
    """6.16: "El máximo número de chinas que se pueden ganar en un envite, son las que le faltan
    para ganar el juego al equipo que va por delante". 0 - 27: the four chinas of 6.19's
    example are capped at a falta of 3."""
    t = start(table_factory, [GOOD, BAD], scores=(0, 27))
    t.act("envío 1 par")
    t.act("envío 2 pares")
    t.act("envío 3 pares")
    t.act("no quiero")
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(3, 0), truque=(1, 0))
    assert ints(t.scores) == (4, 27)


def test_art_6_18_18_2_a_envite_refused_una_de_miedo(table_factory):
    """6.18: "Se gana una china el equipo que hace un envite al que no quiere el rival ('una de
    no querer' o 'una de miedo')." Even an envite of two pares."""
    t = start(table_factory, [GOOD, BAD])
    t.act("envío 2 pares")
    t.act("no quiero")
    assert t.to_act == 0
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(1, 0), truque=(1, 0))
    assert ints(t.scores) == (2, 0)


def test_art_6_19_18_2_c_revoque_refused_pays_stake_before_it(table_factory):
    """6.19: "Por ejemplo: 'un par' - 'un par más' - 'tres pares' - 'no quiero'; se ganan cuatro
    chinas." """
    t = start(table_factory, [GOOD, BAD])
    t.act("envío 1 par")  # un par (2)
    t.act("envío 2 pares")  # un par más (4)
    t.act("envío 3 pares")  # tres pares (6)
    t.act("no quiero")
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(4, 0), truque=(1, 0))


def test_art_6_19_la_falta_as_revoque_refused_pays_stake_before_it(table_factory):
    """6.19: "Cuando se hace un revoque al que no quiere el rival, se ganan las chinas apostadas
    hasta ese revoque." Un par - la falta - no quiero: two chinas."""
    t = start(table_factory, [GOOD, BAD])
    t.act("envío 1 par")
    t.act(FALTA)
    assert legal(t) == {"quiero", "no quiero"}
    t.act("no quiero")
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(0, 2), truque=(1, 0))


def test_art_6_20_18_2_b_best_pares_wins_even_without_speaking_2v2(table_factory):
    """6.20: "las chinas apostadas las ganará el jugador que al final de la mano enseñe las
    cartas con mayor valor de pares, aunque él no haya participado en los envites." """
    hands = [BAD, GOOD, "11O 7B 4E", "3O 2C 12C"]  # pares 5, 33, 36, 22
    t = start(table_factory, hands)
    t.act("envío 1 par")  # seat 0
    t.act("quiero")  # seat 1
    t.act("paso")  # seat 3
    play_out(t)
    assert chinas(t)["pares"] == (2, 0)  # seat 2, who never spoke, shows 36


# ---------------------------------------------------------------------------------------------
# Art. 7: the envite de pares a ciegas
# ---------------------------------------------------------------------------------------------


def test_art_7_2_7_3_blind_envite_answered_after_the_deal(table_factory):
    """7.2: "se puede responder en el acto (responder a ciegas), o dejar pendiente la respuesta
    [...] 'luego te lo digo'." 7.3: "debe quedar cerrada antes de empezar a disputarse el
    truque." """
    t = start(table_factory, [GOOD, BAD], blind=False)
    t.act("envío 1 par")  # seat 0, a ciegas
    assert t.to_act == 1
    # (a revoque with la falta a ciegas is Art. 12, 7.7: left out here)
    blind_raises = pares_raises(2) - {FALTA}
    assert legal(t) - {FALTA} == {"luego te lo digo", "quiero", "no quiero"} | blind_raises
    t.act("luego te lo digo")
    assert t.to_act == 1  # seat 1's own blind turn: the envite is made, the truco is not
    assert legal(t) == {"paso", "truco"}
    t.act("paso")
    # the cards are dealt: the envite is answered before any card
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero"} | pares_raises(2)
    t.act("quiero")
    assert t.to_act == 0
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(2, 0), truque=(1, 0))


def test_art_7_1_blind_envite_refused_a_ciegas(table_factory):
    """7.1: "El envite de pares a ciegas es un caso particular del envite de pares (Artículo 6)":
    refused, it wins una de miedo (6.18)."""
    t = start(table_factory, [BAD, GOOD], blind=False)
    t.act("envío 3 pares")
    t.act("no quiero")
    assert t.to_act == 1
    assert legal(t) == {"paso", "truco"}
    t.act("paso")
    assert t.to_act == 0
    play(t, *BAD_GOOD_TRUQUE)
    assert chinas(t) == result(pares=(1, 0), truque=(0, 1))


def test_art_7_4_quiero_a_ciegas_then_revoke_after_the_deal(table_factory):
    """7.4: "A un envite a ciegas se puede querer en el acto (querer a ciegas), y revocar después
    de repartidas las cartas [...] y siempre se tiene ese derecho, aunque no se diga." """
    t = start(table_factory, [BAD, GOOD], blind=False)
    t.act("envío 1 par")
    t.act("quiero")  # seat 1, a ciegas
    assert t.to_act == 1
    assert legal(t) == {"paso", "truco"}
    t.act("paso")
    # the cards are dealt: seat 1 keeps the right to revoke; the quiero already stands
    assert t.to_act == 1
    assert legal(t) == {"paso"} | pares_raises(2)
    t.act("envío 3 pares")
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero"} | pares_raises(6)
    t.act("no quiero")
    assert t.to_act == 0
    play(t, *BAD_GOOD_TRUQUE)
    # the revoque refused wins the two chinas accepted a ciegas (6.19)
    assert chinas(t) == result(pares=(0, 2), truque=(0, 1))


def test_art_7_4_right_to_revoke_may_be_let_pass(table_factory):
    """7.4: "querer con derecho a revocar": passing on the right keeps the quiero a ciegas."""
    t = start(table_factory, [GOOD, BAD], blind=False)
    t.act("envío 1 par")
    t.act("quiero")
    t.act("paso")  # seat 1's blind turn
    assert t.to_act == 1
    t.act("paso")  # seat 1 does not revoke
    assert t.to_act == 0
    assert cards_in(legal(t))
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(2, 0), truque=(1, 0))


def test_art_7_5_blind_envite_then_sing_flor(table_factory):
    """7.5: "Cualquier jugador puede participar con su equipo en un envite de pares a ciegas [...]
    y después, cuando se han repartido las cartas, cantar flor si la lleva." The flor annuls the
    pares (10.5)."""
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"], blind=False)
    t.act("envío 1 par")  # seat 0, a ciegas
    t.act("quiero")  # seat 1, a ciegas
    t.act("paso")  # seat 1's blind turn
    t.act("paso")  # seat 1 does not revoke
    assert t.to_act == 0
    assert "flor" in legal(t)
    t.act("flor")
    t.act("paso")  # seat 1 has no flor
    play(t, "7C", "12O", "4E", "5C", "6C", "3B")  # 12O, 5C, 3B: seat 1 wins the truque
    assert chinas(t) == result(flores=(3, 0), truque=(0, 1))


# ---------------------------------------------------------------------------------------------
# Art. 8: al cantar
# ---------------------------------------------------------------------------------------------


def test_art_8_2_8_4_18_2_f_team_al_cantar_wins_the_cante_and_the_juego(table_factory):
    """8.4: "Si gana el cante un jugador del equipo que está al cantar, ya no será necesario
    disputar el truque; enseña los pares cantados y su equipo gana el juego." 15.7: no truco a
    ciegas al cantar."""
    t = start(table_factory, [GOOD, BAD], scores=(29, 10), blind=False)
    assert t.to_act == 0
    assert legal(t) == {"canto pares"}  # no blind round, no truco before the cante
    t.act("canto pares")
    assert t.to_act == 1
    assert legal(t) == {"canto pares"}
    t.act("canto pares")
    assert t.done
    assert chinas(t) == result(pares=(1, 0))
    assert t.juego_over
    assert ints(t.juegos) == (1, 0)


def test_art_8_2_cante_won_by_the_rivals_then_the_truque(table_factory):
    """8.2: "el que más pares canta (y después lo demuestra) gana la china del cante"; 15.7:
    "Primero se canta y después, si no está decidido el ganador del juego, entonces se puede
    trucar." No envite de pares al cantar."""
    t = start(table_factory, [BAD, GOOD], scores=(29, 10), blind=False)
    t.act("canto pares")
    t.act("canto pares")
    assert not t.done
    assert t.to_act == 0
    names = legal(t)
    assert "truco" in names
    assert not (set(PARES_BETS) | {FALTA}) & names
    play(t, *BAD_GOOD_TRUQUE)
    assert chinas(t) == result(pares=(0, 1), truque=(0, 1))
    assert ints(t.scores) == (29, 12)
    assert not t.juego_over


def test_art_8_3_flor_annuls_the_cante(table_factory):
    """8.3: "Cuando se están cantando los pares y un jugador canta flor, se anula el cante y se
    disputan las flores." """
    t = start(table_factory, [BAD, "7C 6C 5C"], scores=(29, 10), blind=False)
    t.act("canto pares")
    assert legal(t) == {"canto pares", "flor"}
    t.act("flor")
    assert t.to_act == 0  # seat 0 is behind the singer and has no reservada
    assert legal(t) == {"paso"}
    t.act("paso")
    assert t.to_act == 0  # play begins with the mano
    play(t, "12E", "7C", "5O", "6C", "5C", "4B")  # 12E; then 6C and 5C: seat 1
    assert chinas(t) == result(flores=(0, 3), truque=(0, 1))
    assert ints(t.scores) == (29, 14)


def test_art_8_4_team_al_cantar_wins_the_cante_2v2(table_factory):
    """8.4: "Si gana el cante un jugador del equipo que está al cantar [...] su equipo gana el
    juego." Every player sings in turn; seat 3 shows the most."""
    hands = ["1E 3O 4C", "7O 2B 5C", "6O 4B 12E", "7E 6E 3B"]  # pares 4, 7, 6, 33
    t = start(table_factory, hands, scores=(10, 29), blind=False)
    for seat in range(4):
        assert t.to_act == seat
        t.act("canto pares")
    assert t.done
    assert chinas(t) == result(pares=(0, 1))
    assert t.juego_over
    assert ints(t.juegos) == (0, 1)


def test_art_17_20_blind_bets_restrict_nothing_later(table_factory):
    """17.20 a): "Disputar los pares a ciegas (mandar, querer o revocar) y después, con las cartas
    en la mano; revocar a los pares o cantar flor si la lleva"; b) "Disputar el truque a ciegas
    [...] y después de repartidas las cartas mandar o cantar flor." (15.4)"""
    t = start(table_factory, [GOOD, BAD], blind=False)
    t.act("truco")  # seat 0, a ciegas
    t.act("quiero")
    t.act("paso")
    assert t.to_act == 0
    assert "envío 1 par" in legal(t)  # the blind challenger may mandar
    t.act("envío 1 par")
    t.act("quiero")
    play(t, *GOOD_TRUQUE)
    assert chinas(t) == result(pares=(2, 0), truque=(3, 0))


def test_art_17_19_blind_round_starts_at_the_mano_2v2(table_factory):
    """17.19: the blind round goes once round the table starting at the mano (dealer + 1)."""
    hands = ["1E 3O 4C", "7O 2B 5C", "6O 4B 12E", "7E 6E 3B"]
    t = start(table_factory, hands, dealer=1, blind=False)
    pass_blind(t, 4, first=2)
    assert t.to_act == 2


def test_art_8_3_flor_in_the_cante_wins_the_juego(table_factory):
    """8.3: "se anula el cante y se disputan las flores. Eso quiere decir que los jugadores
    siguientes no tendrán que cantar los pares, sino las flores." Team 0 al cantar derriba the
    rival flor: 3 + 1 chinas end the juego (ruling 1)."""
    t = start(table_factory, ["7C 6C 5C", "5E 4E 2E"], scores=(29, 0), blind=False)
    assert legal(t) == {"canto pares", "flor"}
    t.act("flor")
    assert t.to_act == 1
    assert legal(t) == {"flor", "paso"}  # the next player sings flores, not pares
    t.act("flor")
    t.act("envío 1 flor")
    t.act("no quiero")
    assert t.to_act == 0
    play_out(t)
    assert chinas(t)["flores"] == (4, 0)
    assert chinas(t)["pares"] == (0, 0)
    assert t.juego_over
    assert ints(t.juegos) == (1, 0)


def test_art_8_3_the_cante_is_the_only_chance_to_sing_flor(table_factory):
    """8.3: "Cuando se están cantando los pares y un jugador canta flor, se anula el cante";
    docs/engine.md (CANTE): the cante is each player's only chance to sing flor in that mano. Seat
    0 sings his pares instead of his flor and cannot sing it later."""
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"], scores=(10, 29), blind=False)
    assert legal(t) == {"canto pares", "flor"}
    t.act("canto pares")  # 20 + 7 + 6 = 33
    t.act("canto pares")  # 4
    assert not t.done
    assert t.to_act == 0
    assert "flor" not in legal(t)
    play(t, "7C", "12O", "4E", "5C", "6C", "3B")  # 12O, 5C, 3B: seat 1
    assert chinas(t) == result(pares=(1, 0), truque=(0, 1))
    # the cante china to team 0 (11), then the truque takes team 1 to 30: juego over (ruling 1)
    assert t.juego_over and ints(t.juegos) == (0, 1)
    assert ints(t.scores) == (0, 0)
