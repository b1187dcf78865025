"""Art. 12, la falta a ciegas, and its lines of Art. 18.2 (d, e, l, m, n, o, p, q, r).

Scripted 1v1 deals (dealer 1, so seat 0 is mano and team A, the team that sends la falta) and
one 2v2 deal for the answers of a team (ruling 4). Scores 10-4, so la falta is 20 chinas.
"""

from __future__ import annotations

import pytest

FALTA = 20
SCORES = (10, 4)


def _deal(t, hands, dealer=1):
    t.deal(hands=hands, dealer=dealer, scores=SCORES)


def _blind(t, *actions):
    """Say the given blind actions in turn order; everybody else passes until the cards are seen."""
    for a in actions:
        t.act(a)
    while t.phase == "blind":
        t.act("paso")


def _play(t, *cards):
    for c in cards:
        t.act(f"juego {c}")


# 1v1 hands: seat 0 (A) and seat 1 (B)
A_PLAIN = "7O 6C 4E"  # pares 7, no flor; 7O is the mata de oros
A_FLOR = "7C 6C 1C"  # flor 20+7+6+1 = 34 (Art. 9.3); pares 20+7+6 = 33
B_PLAIN = "5B 4O 12E"  # pares 5, no flor
B_FLOR = "7B 5B 4B"  # flor 36; pares 20+7+5 = 32
B_RESERVADA = "11B 10O 4E"  # reservada 31+30+4 = 65 (Art. 9.4); pares 61


def test_art_18_2_e_blind_quiero_no_flor_pares_win_the_falta(table_factory):
    """12.12, 18.2 e: "a ciegas, quiero – y a ningún equipo le sale flor.- El que gane los pares gana las chinas de la falta"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, "5B 4B 12O"])  # B: pares 20+5+4 = 29 beat A's 7
    _blind(t, "envío la falta", "quiero")
    assert t.phase == "play" and t.to_act == 0
    assert "flor" not in t.legal() and "envío 1 par" not in t.legal()  # the envite is closed
    _play(t, "7O", "12O", "6C", "5B")  # A wins two bazas
    assert t.done
    assert t.result() == {"pares": (0, FALTA), "flores": (0, 0), "truque": (1, 0)}
    assert t.scores == (11, 24)


def test_art_18_2_q_blind_quiero_only_one_team_has_flor(table_factory):
    """18.2 q: "a ciegas, quiero – y un equipo lleva flor y el otro no.- ... se ganan tres chinas cada una"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_FLOR])
    _blind(t, "envío la falta", "quiero")
    assert "flor" not in t.legal()  # 12.12: the flores van cantadas, nobody sings
    _play(t, "7O", "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (0, 3), "truque": (1, 0)}


def test_art_18_2_r_blind_quiero_both_teams_have_flor(table_factory):
    """18.2 r: "los dos equipos llevan flor.- ... la mayor se gana tres chinas y la falta" (3 per flor, 11.8)."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_FLOR])  # B's flor 36 beats A's 34
    _blind(t, "envío la falta", "quiero")
    _play(t, "7C", "7B", "6C", "5B")  # 7C ties 7B (both sietes): parda; then 6C beats 5B
    assert t.result() == {"pares": (0, 0), "flores": (0, 3 * 2 + FALTA), "truque": (1, 0)}


def test_art_7_2_luego_te_lo_digo_then_answer_with_cards(table_factory):
    """7.2, 12.4: the answer can wait for the cards; it must come before any card is played."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_FLOR])
    t.act("envío la falta")
    assert t.legal() == ["quiero", "no quiero", "luego te lo digo"]  # no raise above la falta
    t.act("luego te lo digo")
    t.act("paso")  # B's own blind turn
    assert t.phase == "answer" and t.to_act == 1
    assert t.legal()[:4] == ["quiero", "no quiero", "con flor, quiero", "con flor, no quiero"]


def test_art_18_2_d_quiero_with_cards_a_has_no_flor(table_factory):
    """12.5, 18.2 d: "con las cartas, quiero – y el equipo que mandó la falta no lleva flor.- El que gane los pares gana la falta"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_PLAIN])
    _blind(t, "envío la falta", "luego te lo digo")
    assert "con flor, quiero" not in t.legal()  # B holds no flor
    t.act("quiero")
    _play(t, "7O", "5B", "6C", "4O")
    assert t.result() == {"pares": (FALTA, 0), "flores": (0, 0), "truque": (1, 0)}


def test_art_12_6_quiero_without_singing_the_flor_disputes_with_pares(table_factory):
    """12.6: B holds flor but answers "quiero" to dispute with the pares; its flor is then not sung."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_FLOR])  # B's pares 32 beat A's 7
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("quiero")
    _play(t, "7O", "7B", "6C", "5B")
    assert t.result() == {"pares": (0, FALTA), "flores": (0, 0), "truque": (1, 0)}


def test_art_18_2_p_quiero_with_cards_a_shows_flor(table_factory):
    """12.6, 18.2 p: "quiero – y el equipo que mandó la falta lleva flor.- ... tres chinas por cada flor enseñada"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_PLAIN])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("quiero")
    assert "flor" not in t.legal()  # 12.3: A's flor is already sung
    _play(t, "7C", "5B", "6C", "4O")
    assert t.result() == {"pares": (0, 0), "flores": (3, 0), "truque": (1, 0)}


def test_art_12_13_reservada_sung_at_the_end_disputes_the_falta(table_factory):
    """12.13, 12.17: with a reservada B may want with the pares and sing it at the end against A's flor."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_RESERVADA])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("quiero")
    _play(t, "1C", "4E", "7C", "11B")  # 1C beats 4E; then el perro beats 7C: baza each
    t.act("juego 10O")  # B leads the third with la perra
    t.act("juego 6C")
    assert t.phase == "reservada" and t.to_act == 1 and t.legal() == ["paso", "flor"]
    t.act("flor")
    assert t.done
    assert t.result() == {"pares": (0, 0), "flores": (0, 3 * 2 + FALTA), "truque": (0, 1)}


def test_art_12_13_reservada_kept_hidden(table_factory):
    """10.19, 12.13: not singing the reservada leaves A's flor to win its three chinas (18.2 p)."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_RESERVADA])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("quiero")
    _play(t, "1C", "4E", "7C", "11B", "10O", "6C")
    t.act("paso")
    assert t.result() == {"pares": (0, 0), "flores": (3, 0), "truque": (0, 1)}


def test_art_18_2_m_con_flor_quiero_both_flores(table_factory):
    """12.10, 18.2 m: "con flor, quiero – ... se enseñan las flores ... la mayor se gana tres chinas y la falta"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_FLOR])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("con flor, quiero")
    assert "de la mía" not in t.legal()  # 12.10: A need not declare
    _play(t, "7C", "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (0, 3 * 2 + FALTA), "truque": (1, 0)}


def test_art_18_2_o_con_flor_quiero_a_has_no_flor(table_factory):
    """12.11, 18.2 o: "con flor, quiero – y el equipo que mandó la falta no lleva ninguna flor.- El rival se gana tres chinas por cada flor cantada"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_FLOR])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("con flor, quiero")
    _play(t, "7O", "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (0, 3), "truque": (1, 0)}


def test_art_18_2_l_con_flor_no_quiero_de_la_mia(table_factory):
    """12.8, 18.2 l: "con flor, no quiero – de la mía.- ... tres chinas por cada flor declarada, más una china de derribe"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_FLOR])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("con flor, no quiero")
    assert t.to_act == 0 and "de la mía" in t.legal()  # 12.9: at his turn, before his first card
    t.act("de la mía")
    assert "de la mía" not in t.legal()
    _play(t, "7C", "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (3 + 1, 0), "truque": (1, 0)}


def test_art_18_2_n_con_flor_no_quiero_a_has_no_flor(table_factory):
    """18.2 n: "con flor, no quiero – y el equipo que mandó la falta no lleva ninguna flor.- El equipo rival se gana tres chinas por cada flor cantada"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_FLOR])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("con flor, no quiero")
    assert "de la mía" not in t.legal()
    _play(t, "7O", "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (0, 3), "truque": (1, 0)}


def test_art_12_8_undeclared_flor_no_longer_counts(table_factory):
    """12.8: "si no la declara, ya no le valdrá enseñarla después y el equipo rival se ganará las chinas de sus flores"."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_FLOR])
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("con flor, no quiero")
    _play(t, "7C")  # plays without "de la mía"
    assert "de la mía" not in t.legal()
    _play(t, "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (0, 3), "truque": (1, 0)}


@pytest.mark.parametrize("hands", [[A_FLOR, B_FLOR], [A_PLAIN, B_FLOR], [A_FLOR, B_PLAIN]])
def test_art_12_4_12_7_no_quiero_with_cards_closes_the_flores(table_factory, hands):
    """12.4: "El equipo rival debe contestar a la falta antes de jugar ninguna carta, después ya no
    le vale querer con los pares ni cantar las flores"; 12.7: B sings its flor in that answer.
    After a plain "no quiero" with the cards, nobody sings flor: B's chance was the answer, A's
    flores went cantadas with the falta (12.3). A wins the refusal china (18.2 a)."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, hands)
    _blind(t, "envío la falta", "luego te lo digo")
    t.act("no quiero")
    assert t.phase == "play" and t.to_act == 0
    assert "flor" not in t.legal() and "envío 1 par" not in t.legal()
    t.act(f"juego {hands[0].split()[0]}")
    assert t.to_act == 1 and "flor" not in t.legal()  # after the mano's first card: never
    t.act(f"juego {hands[1].split()[0]}")
    while not t.done:
        assert "flor" not in t.legal()
        t.act(next(a for a in t.legal() if a.startswith("juego")))
    assert t.result()["pares"] == (1, 0) and t.result()["flores"] == (0, 0)


def test_art_18_2_a_falta_a_ciegas_refused_blind(table_factory):
    """18.2 a: a blind "no quiero" to la falta is una de no querer; flores are then sung as usual (Art. 10)."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_PLAIN, B_FLOR])
    _blind(t, "envío la falta", "no quiero")
    t.act("juego 7O")
    assert "flor" in t.legal()  # B may still sing its flor in its turn
    t.act("flor")  # the flor annuls the pares, una de no querer included (10.5)
    t.act("paso")  # 10.9: seat 0, behind, is asked too (only a reservada could be sung from there)
    _play(t, "7B", "6C", "5B")
    assert t.result() == {"pares": (0, 0), "flores": (0, 3), "truque": (1, 0)}


def test_art_7_7_blind_revoque_with_la_falta_is_falta_a_ciegas(table_factory):
    """7.7, 12.21: revoking a blind envite de pares with la falta a ciegas brings in the rules of Art. 12."""
    t = table_factory(team_size=1, seed=0, senas_per_mano=0)
    _deal(t, [A_FLOR, B_PLAIN])  # here B (seat 1) sends la falta; A (seat 0) holds the flor
    t.act("envío 2 pares")
    t.act("envío la falta")  # B revokes a ciegas with la falta
    assert t.to_act == 0 and t.legal() == ["quiero", "no quiero", "luego te lo digo"]
    t.act("luego te lo digo")
    t.act("paso")  # B's blind turn
    assert t.to_act == 0
    assert t.legal()[:4] == ["quiero", "no quiero", "con flor, quiero", "con flor, no quiero"]
    t.act("con flor, no quiero")  # B has no flor to declare: A wins its sung flor (18.2 n)
    _play(t, "7C", "5B", "6C", "4O")
    assert t.result() == {"pares": (0, 0), "flores": (3, 0), "truque": (1, 0)}


@pytest.mark.parametrize("second, expected_flores", [("paso", (0, 3)), ("con flor, quiero", (0, 3 * 3 + FALTA))])
def test_ruling_4_team_answer_to_la_falta_a_ciegas(table_factory, second, expected_flores):
    """Ruling 4, 17.8: each member of B answers in turn; any quiero accepts, each "con flor" sings that member's flor."""
    t = table_factory(team_size=2, seed=0, senas_per_mano=0)
    # dealer 3: seat 0 is mano; team A = seats 0, 2; team B = seats 1, 3
    t.deal(hands=["7C 6C 1C", "7B 5B 4B", "5O 4C 12B", "3E 2E 1E"], dealer=3, scores=SCORES)
    _blind(t, "envío la falta", "luego te lo digo", "paso")  # seat 3 passes on for the team
    while t.phase == "blind":
        t.act("paso")
    assert t.to_act == 1
    t.act("con flor, no quiero")  # seat 1 sings (flor 36) and refuses
    assert t.to_act == 3
    assert "con flor, quiero" in t.legal() and "quiero" in t.legal()
    t.act(second)
    # flores: A 34 (seat 0); B 36 (seat 1) and, if sung, 26 (seat 3: 20 + 3 + 2 + 1)
    if second == "paso":  # refused, B sang: A may declare "de la mía" but chooses not to here
        assert t.to_act == 0 and "de la mía" in t.legal()
    for _ in range(12):
        if t.done:
            break
        legal = [a for a in t.legal() if a.startswith("juego")]
        t.act(legal[0])
    assert t.done
    assert t.result()["flores"] == expected_flores
