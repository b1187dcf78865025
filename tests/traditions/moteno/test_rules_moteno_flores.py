"""Scripted deals for the flores: Arts. 9 (values), 10 (el cante), 11 (el envite de flores).

Helpers and conventions: tests/traditions/moteno/test_rules_moteno.py. Mano is seat 0 unless a test says so.
"""

from __future__ import annotations

import pytest

from tests.traditions.moteno.test_rules_moteno import (
    FALTA,
    FLORES_BETS,
    chinas,
    flores_raises,
    ints,
    legal,
    play,
    play_out,
    result,
    start,
)

# 1v1: seat 0's flor is worth 64 (el perro with 7C 6C: 20 + 7 + 6 + 31, Art. 9.3), seat 1's 31.
F0 = "7C 6C 11B"
F1 = "5E 4E 2E"
# 11B-4E, 7C-2E, 5E-6C: seat 0 wins the first and third bazas
F_TRUQUE = ("11B", "4E", "7C", "2E", "5E", "6C")
RESERVADA = "11B 10O 5E"  # two piezas (9.2): 31 + 30 + 5 = 66 (9.4); pares 61


def both_sing(t):
    """Seat 0 (mano) sings, seat 1 sings in the flor round; the envite de flores follows."""
    t.act("flor")
    assert t.to_act == 1
    assert legal(t) == {"flor", "paso"}
    t.act("flor")
    assert t.to_act == 0  # 11.3: "comienza hablando el que va de mano"
    assert legal(t) == {"paso", FALTA} | set(FLORES_BETS)


# ---------------------------------------------------------------------------------------------
# Art. 9: the values decide the dispute
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand0, hand1, flores",
    [
        # 9.1/9.3: "(20+7+6)+31=64" > (20+5+4)+2 = 31
        ("7C 6C 11B", "5E 4E 2E", (9, 0)),
        # 9.4: a reservada 30 + 29 + 0 = 59 loses to a flor of 64
        ("10O 11O 12C", "7C 6C 11B", (0, 9)),
        # 9.4: "31+30+5=66" > 20 + 7 + 6 + 29 = 62
        ("11B 10O 5E", "7B 6B 11O", (9, 0)),
        # 9.3: "(20+0+0)+0=20" < 31
        ("12C 11C 10C", "5E 4E 2E", (0, 9)),
    ],
)
def test_art_9_flor_values_decide_the_envite(table_factory, hand0, hand1, flores):
    """9.3: "Para obtener el valor de una flor, se cuentan veinte [...] más la suma de los valores
    de las tres cartas." 9.4: la reservada: "sumando el valor de las tres cartas". Envío una flor -
    quiero: three per flor sung and three for the flor staked (11.7)."""
    t = start(table_factory, [hand0, hand1])
    both_sing(t)
    t.act("envío 1 flor")
    t.act("quiero")
    play_out(t)
    assert chinas(t)["flores"] == flores
    assert chinas(t)["pares"] == (0, 0)


@pytest.mark.parametrize("dealer", [1, 0])
def test_art_11_6_flor_tie_goes_to_the_mano(table_factory, dealer):
    """11.6: "el equipo ganador será el que al final de la mano enseñe la flor mayor. Y si hay
    empate, se gana por la mano." Both flores are worth 20 + 7 + 6 + 5 = 38."""
    t = start(table_factory, ["7C 6C 5C", "7B 6B 5B"], dealer=dealer)
    mano = (dealer + 1) % 2
    t.act("flor")
    t.act("flor")
    assert t.to_act == mano
    t.act("envío 1 flor")
    t.act("quiero")
    play_out(t)
    assert chinas(t)["flores"] == ((9, 0) if mano == 0 else (0, 9))


# ---------------------------------------------------------------------------------------------
# Art. 10: el cante de las flores
# ---------------------------------------------------------------------------------------------


def test_art_10_1_10_6_unsung_flor_plays_the_pares(table_factory):
    """10.1: "Para que una flor sea válida debe cantarse." 10.6: "un jugador que lleve flor puede
    decidir no cantarla (bien sea para disputar los pares [...]), pero si no la canta, sabe que
    no podrá ganarse las tres chinas de flor." 10.8: only in the first baza."""
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"])  # flor 38, pares 33; pares 4
    assert "flor" in legal(t)
    t.act("envío 1 par")
    t.act("quiero")
    assert "flor" not in legal(t)
    play(t, "7C", "12O", "4E", "5C")
    assert t.to_act == 0
    assert "flor" not in legal(t)
    play(t, "6C", "3B")  # 12O, 5C, 3B: seat 1
    assert chinas(t) == result(pares=(2, 0), truque=(0, 1))


def test_art_10_2_18_2_g_each_flor_sung_is_worth_three_2v2(table_factory):
    """10.2: "Cada flor cantada vale tres chinas." 18.2 g) "'Llevo flor' - y no canta ninguna
    flor el equipo rival.- Tres chinas por cada flor cantada." """
    hands = ["7C 6C 5C", "12O 3B 4E", "7E 6E 2E", "5O 4B 12C"]
    t = start(table_factory, hands)
    t.act("flor")
    assert t.to_act == 1 and legal(t) == {"paso"}
    t.act("paso")
    assert t.to_act == 2 and legal(t) == {"flor", "paso"}
    t.act("flor")
    assert t.to_act == 3 and legal(t) == {"paso"}
    t.act("paso")
    assert t.to_act == 0  # one team sang: no envite de flores, the singer plays
    play_out(t)
    assert chinas(t)["flores"] == (6, 0)
    assert chinas(t)["pares"] == (0, 0)


def test_art_10_9_later_players_sing_or_pass_not_from_behind_2v2(table_factory):
    """10.9: "Cuando un jugador canta flor, los siguientes hasta el postre deberán ir diciendo
    por turno si cantan flor o pasan [...] (si no es reservada no se puede cantar desde atrás)."
    10.7: "Después de jugar ya no le vale, salvo que sea reservada." """
    hands = ["7B 6B 2B", "7C 6C 5C", "7E 6E 2E", "12O 3B 4E"]  # flores 35, 38, 35, none
    t = start(table_factory, hands)
    assert "flor" in legal(t)
    play(t, "2B")  # seat 0 plays without singing his flor
    assert t.to_act == 1
    t.act("flor")
    assert t.to_act == 2 and legal(t) == {"flor", "paso"}
    t.act("flor")
    assert t.to_act == 3 and legal(t) == {"paso"}
    t.act("paso")
    assert t.to_act == 0 and legal(t) == {"paso"}  # his flor is behind and not reservada
    t.act("paso")
    # both teams sang: the envite de flores between the singers, from the mano: 1, then 2
    assert t.to_act == 1
    t.act("paso")
    assert t.to_act == 2
    t.act("paso")
    assert t.to_act == 1  # play resumes with the singer
    play_out(t)
    # 11.10: nobody envidó; seat 1's 38 beats seat 2's 35: three for team 1's one flor
    assert chinas(t)["flores"] == (0, 3)


def test_art_10_10_who_bet_pares_cannot_sing_flor(table_factory):
    """10.10: "No es válida la flor cantada por un jugador que antes haya apostado a los pares:
    mandando, revocando o queriendo." """
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"])
    t.act("envío 1 par")
    t.act("quiero")
    assert t.to_act == 0
    assert "flor" not in legal(t)  # seat 0 mandó
    t = start(table_factory, ["12O 3B 4E", "7C 6C 5C"])
    t.act("envío 1 par")
    t.act("quiero")
    play(t, "12O")
    assert t.to_act == 1
    assert "flor" not in legal(t)  # seat 1 quiso
    play_out(t)
    assert chinas(t)["pares"] == (0, 2)  # 20 + 7 + 6 = 33 against 4
    assert chinas(t)["flores"] == (0, 0)


def test_art_10_5_10_11_no_quiero_then_flor_annuls_the_pares(table_factory):
    """10.11: "podrá decir: 'no quiero' y luego en su turno de juego, cantar la flor." 10.5: "En
    el momento que se canta una flor, se anula todo lo dicho sobre los pares." The china of the
    refusal is annulled too."""
    t = start(table_factory, ["7C 6C 1E", "7E 6E 2E"])
    t.act("envío 1 par")
    t.act("no quiero")
    play(t, "1E")
    assert "flor" in legal(t)
    t.act("flor")
    assert t.to_act == 0 and legal(t) == {"paso"}
    t.act("paso")
    assert t.to_act == 1
    play(t, "6E", "7C", "7E", "2E", "6C")  # 1E; then 7E and 2E: seat 1
    assert t.done
    assert chinas(t) == result(flores=(0, 3), truque=(0, 1))


def test_art_10_12_who_challenged_cannot_sing_flor(table_factory):
    """10.12: "No es válida la flor cantada por un jugador que antes haya apostado al truque:
    trucando, retrucando o echando panueve." """
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"])
    t.act("truco")
    t.act("quiero")
    assert t.to_act == 0
    assert "flor" not in legal(t)
    play_out(t)  # 5C-12O, 4E-6C, 7C-3B: seat 1 wins the first and third bazas
    assert chinas(t) == result(truque=(0, 3))


def test_art_10_13_quiero_to_truco_then_sing_flor(table_factory):
    """10.13: "es válido querer a un desafío de truque y después cantar flor (en el truque se
    puede ir al quiero)." """
    t = start(table_factory, ["5O 4B 12E", "7E 6E 2E"])
    t.act("truco")
    t.act("quiero")
    play(t, "12E")
    assert "flor" in legal(t)
    t.act("flor")
    t.act("paso")  # seat 0, behind, without flor
    assert t.to_act == 1
    play(t, "2E", "7E", "5O")  # 2E beats 12E, 7E beats 5O
    assert t.done
    assert chinas(t) == result(flores=(0, 3), truque=(0, 3))


def test_art_10_14_10_15_hidden_reservada_wins_the_pares(table_factory):
    """10.14: "La flor reservada tiene el privilegio de poder ocultarse [...] y esto le permite
    disputar la jugada de pares." 10.15: "una flor reservada no tiene rival que la pueda
    vencer". 10.19: not sung, it wins no chinas of flor."""
    t = start(table_factory, [RESERVADA, "7C 6C 1E"])
    assert "flor" in legal(t)
    t.act("envío 1 par")
    t.act("quiero")
    play(t, "11B", "1E", "10O", "7C")
    assert t.done
    assert chinas(t) == result(pares=(2, 0), truque=(1, 0))


@pytest.mark.parametrize("reservada_sings, flores", [(False, (0, 3)), (True, (6, 0))])
def test_art_10_16_10_19_reservada_must_be_sung_to_count_2v2(
    table_factory, reservada_sings, flores
):
    """10.16: "Cuando cualquier otro jugador, aunque sea un compañero, canta flor [...], la flor
    reservada ya no se puede ocultar y debe cantarse para que sea válida." 10.19: "al no
    cantarla no puede disputar la flor ni ganar chinas con ella." """
    # flores: seat 0 38, seat 2 reservada 66, seat 3 62; seat 1 none
    hands = ["7C 6C 5C", "12O 3B 4E", RESERVADA, "7B 6B 11O"]
    t = start(table_factory, hands)
    t.act("flor")
    t.act("paso")  # seat 1
    assert t.to_act == 2 and legal(t) == {"flor", "paso"}
    t.act("flor" if reservada_sings else "paso")
    t.act("flor")  # seat 3
    # envite de flores: every singer from the mano passes (11.10)
    for _ in range(3 if reservada_sings else 2):
        t.act("paso")
    assert t.to_act == 0
    if not reservada_sings:
        play(t, "7C", "12O")
        assert t.to_act == 2
        assert "flor" not in legal(t)  # 10.17: too late once the singer has played again
    play_out(t)
    # not sung: 62 beats 38, three for team 1's flor; sung: 66 wins, three for each of team 0's
    assert chinas(t)["flores"] == flores


def test_art_10_17_reservada_sung_from_behind(table_factory):
    """10.17: "Cuando se canta una flor reservada que se ha quedado atrás, debe cantarse antes
    de que vuelva a hablar o jugar el primero que cantó flor"."""
    t = start(table_factory, [RESERVADA, "7C 6C 5C"])
    play(t, "5E")  # seat 0 hides his reservada and plays
    t.act("flor")  # seat 1
    assert t.to_act == 0
    assert legal(t) == {"flor", "paso"}  # a reservada may be sung from behind
    t.act("flor")
    assert t.to_act == 0  # the envite de flores starts with the mano
    t.act("paso")
    t.act("paso")
    assert t.to_act == 1  # seat 1 still has to play his first card
    play(t, "7C", "6C", "11B", "10O", "5C")  # 7C; then 11B and 10O: seat 0
    assert t.done
    assert chinas(t) == result(flores=(3, 0), truque=(1, 0))


def test_art_10_18_reservada_after_betting_pares_and_truco(table_factory):
    """10.18: "es válido cantar una flor reservada después de haber apostado a los pares o al
    truque." The flor annuls the accepted envite (10.5)."""
    t = start(table_factory, [RESERVADA, "7C 6C 1E"])
    t.act("envío 1 par")
    t.act("quiero")
    t.act("truco")
    t.act("quiero")
    assert t.to_act == 0
    assert "flor" in legal(t)
    t.act("flor")
    t.act("paso")
    play(t, "11B", "1E", "10O", "7C")
    assert t.done
    assert chinas(t) == result(flores=(3, 0), truque=(3, 0))


# ---------------------------------------------------------------------------------------------
# Art. 11: el envite de flores
# ---------------------------------------------------------------------------------------------


def test_art_11_5_18_2_h_i_envite_refused_derribe(table_factory):
    """11.5: "Cuando se envida contra una flor rival y no quiere, esa flor ha sido derribada y el
    que envidó se gana una china de derribe además de las chinas de su flor". 18.2 i) "Flor
    derribada o vencida.- Su equipo no se gana ninguna china por las flores." """
    t = start(table_factory, [F0, F1])
    both_sing(t)
    t.act("envío 1 flor")
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero"} | flores_raises(3)
    t.act("no quiero")
    assert t.to_act == 0
    play(t, *F_TRUQUE)
    assert chinas(t) == result(flores=(4, 0), truque=(1, 0))


def test_art_11_3_la_mia_es_pequena_then_the_next_singer_envida(table_factory):
    """11.3: "comienza hablando el que va de mano, que puede mandar o pasar; si pasa, hablará el
    siguiente [...] Decir: 'la mía es pequeña', significa lo mismo que decir: 'paso'." The
    smaller flor derriba the larger one: three of it and one of derribe."""
    t = start(table_factory, [F0, F1])
    both_sing(t)
    t.act("paso")
    assert t.to_act == 1
    assert legal(t) == {"paso", FALTA} | set(FLORES_BETS)
    t.act("envío 1 flor")
    assert t.to_act == 0
    t.act("no quiero")
    assert t.to_act == 0
    play(t, *F_TRUQUE)
    assert chinas(t) == result(flores=(0, 4), truque=(1, 0))


def test_art_11_9_18_2_k_flor_revoque_refused(table_factory):
    """11.9: "Si hay apuesta con revoque cerrada en 'no quiero', el que revocó se llevará tres
    chinas de cada flor cantada más otras tres por cada flor apostada hasta el revoque."
    18.2 k) "(los revoques no tienen derribe)". Two flores sung + one staked: nine."""
    t = start(table_factory, [F0, F1])
    both_sing(t)
    t.act("envío 1 flor")
    t.act("envío 2 flores")
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero"} | flores_raises(6)
    t.act("no quiero")
    play(t, *F_TRUQUE)
    assert chinas(t) == result(flores=(0, 9), truque=(1, 0))


def test_art_11_7_18_2_j_flor_envite_accepted(table_factory):
    """11.7: "Si hay apuesta cerrada en 'quiero', el equipo que gane se llevará tres chinas de
    cada flor cantada más otras tres por cada flor apostada." 64 beats 31: 6 + 6 = 12 for two
    flores staked."""
    t = start(table_factory, [F0, F1])
    both_sing(t)
    t.act("envío 1 flor")
    t.act("envío 2 flores")
    t.act("quiero")
    play(t, *F_TRUQUE)
    assert chinas(t) == result(flores=(12, 0), truque=(1, 0))


def test_art_11_8_flor_falta_accepted(table_factory):
    """11.8: "Si se cerró en 'quiero' una apuesta de la falta, se ganarán tres chinas de cada flor
    cantada más las chinas de la falta." 10 - 20: la falta is 10; 6 + 10 = 16."""
    t = start(table_factory, [F0, F1], scores=(10, 20))
    both_sing(t)
    t.act(FALTA)
    assert legal(t) == {"quiero", "no quiero"}
    t.act("quiero")
    play(t, *F_TRUQUE)
    assert chinas(t) == result(flores=(16, 0), truque=(1, 0))
    assert ints(t.scores) == (27, 20)


def test_art_11_10_all_pass_the_highest_flor_wins_its_own(table_factory):
    """11.10: "Cuando pasan todos y no hay envite, el equipo que al final de la mano enseñe la
    flor mayor, ganará las chinas de sus flores cantadas." """
    t = start(table_factory, [F0, F1])
    both_sing(t)
    t.act("paso")
    t.act("paso")
    assert t.to_act == 0
    play(t, *F_TRUQUE)
    assert chinas(t) == result(flores=(3, 0), truque=(1, 0))


# flores: seat 0 38, seat 2 35, seat 3 62; seat 1 none
HANDS_11_4 = ["7C 6C 5C", "12O 3B 4E", "7E 6E 2E", "7B 6B 11O"]


@pytest.mark.parametrize("answer, flores", [("no quiero", (7, 0)), ("quiero", (0, 12))])
def test_art_11_4_only_the_rival_singers_answer_2v2(table_factory, answer, flores):
    """11.4: "El primer envite solamente lo puede hacer el jugador que tenga el turno para hablar
    y lo hace en nombre de su equipo [...] Después podrá responder cualquier jugador del equipo
    rival que lleve flor." 18.2 h) "el derribe siempre es una china, aunque se derriben varias
    flores rivales"."""
    t = start(table_factory, HANDS_11_4)
    t.act("flor")
    t.act("paso")  # seat 1
    t.act("flor")  # seat 2
    t.act("flor")  # seat 3
    assert t.to_act == 0  # the singers speak from the mano: 0, 2, 3
    t.act("paso")
    assert t.to_act == 2
    t.act("envío 1 flor")
    assert t.to_act == 3  # seat 1 did not sing: only seat 3 answers
    assert legal(t) == {"quiero", "no quiero"} | flores_raises(3)
    t.act(answer)
    assert t.to_act == 0
    play_out(t)
    # refused: 3 for each of team 0's two flores + 1 de derribe;
    # accepted: seat 3's 62 wins 3 for each of the three flores sung + 3 for the flor staked
    assert chinas(t)["flores"] == flores
