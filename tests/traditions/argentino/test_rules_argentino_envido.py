"""Scripted manos of truco argentino: the envido (seed 003 §13; A19-A28, A35, A36) and the
numeric statements AE4, AE6, AE7, AE8 of ../shared/rules/traditions.md."""

from __future__ import annotations

import pytest

from truque_env import Table
from truque_env.traditions.argentino import layout as L

# seat 0 holds 33 of envido (7O 6O), seat 1 holds 5 (no two of a suit)
STRONG, WEAK = "7O 6O 1E", "4C 5B 12E"


def mano(words=(), hands=(STRONG, WEAK), team_size=1, dealer=1, scores=None, **options):
    """A table after the deal (seat 0 is mano with dealer 1 in 1 contra 1) and ``words`` said."""
    t = Table(tradition="argentino", team_size=team_size, seed=1, todo_dicho=False, **options)
    t.deal(hands=list(hands), dealer=dealer, scores=scores)
    for w in words:
        t.act(w)
    return t


def finish(t):
    """End the mano without more tantos of envido: whoever is to play goes al mazo."""
    while not t.done:
        t.act("me voy al mazo" if "me voy al mazo" in t.legal() else "no quiero")
    return t.result()


def test_ae4_envido_is_2_real_envido_3():
    assert finish(mano(["envido", "quiero"]))["envido"] == (2, 0)
    assert finish(mano(["real envido", "quiero"]))["envido"] == (3, 0)


def test_ae4_a25_a_first_envite_refused_pays_1_real_or_falta_refused_at_once_1():
    assert finish(mano(["envido", "no quiero"]))["envido"] == (1, 0)
    assert finish(mano(["real envido", "no quiero"]))["envido"] == (1, 0)
    assert finish(mano(["falta envido", "no quiero"]))["envido"] == (1, 0)


def test_ae4_a25_real_envido_falta_envido_no_quiero_pays_3():
    # 003: "si el primero echa real envido y el otro responde falta envido, y si el primero contestara
    # no quiero, el segundo ganaría 3 tantos"
    assert finish(mano(["real envido", "falta envido", "no quiero"]))["envido"] == (0, 3)


def test_a25_after_raises_a_refusal_pays_the_tantos_accepted_so_far():
    assert finish(mano(["envido", "envido", "no quiero"]))["envido"] == (0, 2)
    assert finish(mano(["envido", "envido", "real envido", "no quiero"]))["envido"] == (4, 0)
    assert finish(mano(["envido", "real envido", "quiero"]))["envido"] == (5, 0)


def test_a26_no_quiero_pays_regardless_of_the_hands():
    assert finish(mano(["envido", "no quiero"], hands=(WEAK, STRONG)))["envido"] == (1, 0)


def test_ae8_a37_envido_is_raised_without_quiero_and_the_raise_accepts_it():
    t = mano(["envido"])
    assert {"quiero", "no quiero", "envido", "real envido", "falta envido"} <= set(t.legal())
    t.act("real envido")  # "Envido - real envido": the envido is accepted by the raise
    t.act("no quiero")
    assert finish(t)["envido"] == (0, 2)


def test_a27_the_highest_envido_wins_and_a_tie_goes_to_the_mano():
    assert finish(mano(["envido", "quiero"], hands=(WEAK, STRONG)))["envido"] == (0, 2)
    # 27 each (7C 10C and 7B 12B): the mano wins
    tie = ("7C 10C 1E", "7B 12B 4O")
    assert finish(mano(["envido", "quiero"], hands=tie))["envido"] == (2, 0)
    assert finish(mano(["envido", "quiero"], hands=tie, dealer=0))["envido"] == (0, 2)


def test_a27_a28_the_showdown_declares_from_the_mano_son_buenas_and_the_winner_shows():
    t = mano(["envido", "quiero"], hands=(WEAK, STRONG))
    # the mano declares 5; the other's 33 is better and is declared; the winner is seat 1
    assert int(t.state[L.ENV_SHOWN]) == 0b11 and int(t.state[L.ENV_WINNER]) == 1
    t2 = mano(["envido", "quiero"])
    assert int(t2.state[L.ENV_SHOWN]) == 0b01  # seat 1's 5 is worse: "son buenas", not declared


def test_a22_no_envido_after_the_player_played_his_first_card_or_after_the_truco_was_accepted():
    t = mano(["juego 1E"])
    assert "envido" in t.legal()  # the pie has not played yet
    t.act("juego 4C")
    assert t.to_act == 0 and "envido" not in t.legal()  # the second baza
    t = mano(["truco", "quiero"])
    assert t.to_act == 0 and not {"envido", "real envido", "falta envido"} & set(t.legal())


def test_a22_el_envido_esta_primero_the_truco_is_answered_after_the_envido():
    t = mano(["truco"])
    assert {"quiero", "no quiero", "envido", "real envido", "falta envido"} <= set(t.legal())
    assert "retruco" not in t.legal()  # AE8: truco must be accepted before it is raised
    t.act("envido")
    assert t.to_act == 0 and t.phase == "answer"
    t.act("quiero")  # the envido: seat 0's 33 wins 2
    assert t.to_act == 1 and set(t.legal()) & {"quiero", "no quiero"} == {"quiero", "no quiero"}
    assert not {"envido", "real envido"} & set(t.legal())
    t.act("no quiero")  # now the truco: refused, 1 to seat 0
    assert t.result() == {"envido": (2, 0), "flor": (0, 0), "truco": (1, 0)}


def test_a23_falta_envido_is_what_the_leader_lacks():
    assert finish(mano(["falta envido", "quiero"], scores=(10, 22)))["envido"] == (8, 0)


def test_ae7_a36_the_leader_winning_the_falta_in_malas_wins_the_juego():
    t = mano(["falta envido", "quiero"], scores=(10, 5))  # both in malas; the leader has 33
    assert t.done and t.result()["envido"] == (20, 0) and t.juegos == (1, 0)  # at once, no truco (A35)
    t = mano(["falta envido", "quiero"], hands=(WEAK, STRONG), scores=(10, 5))
    assert t.result()["envido"] == (0, 20) and not t.juego_over  # the trailer takes what the leader lacked
    assert t.done is False or t.scores[1] == 25


def test_falta_envido_option_match_gives_the_juego():
    t = mano(["falta envido", "quiero"], hands=(WEAK, STRONG), scores=(10, 5), falta_envido="match")
    assert t.done and t.juegos == (0, 1)


def test_ae6_a35_when_a_side_lacks_1_an_envido_is_worth_1():
    # team 0 lacks 1: the falta is 1, so envido and real envido (2, 3) are beyond it and only the
    # falta envido is offered (the ruling on the chain); won by the rivals it scores 1, not 3
    t = mano([], hands=(STRONG, WEAK), dealer=0, scores=(29, 10))  # seat 1 is mano
    words = set(t.legal())
    assert "falta envido" in words and not {"envido", "real envido"} & words
    t.act("falta envido")
    t.act("quiero")
    assert t.result()["envido"] == (1, 0) and t.juegos == (1, 0)  # seat 0's 33: the juego at once
    t = mano(["falta envido", "quiero"], hands=(WEAK, STRONG), dealer=1, scores=(29, 10))
    assert finish(t)["envido"] == (0, 1)


def test_a35_tantos_that_take_a_team_out_win_at_once_and_score_only_what_it_lacked():
    t = Table(tradition="argentino", team_size=1, seed=1, todo_dicho=False)
    t.deal(hands=["7O 6O 1O", "4C 5B 12E"], dealer=1, scores=(28, 20))
    t.act("flor")  # a lone flor: 3 tantos, but team 0 lacked 2
    assert t.done and t.juegos == (1, 0) and t.result()["flor"] == (3, 0)
    assert int(t.state[L.SCORED]) == 2 and t.result()["truco"] == (0, 0)  # the truco is not played


def test_a24_a_raise_beyond_the_falta_is_not_offered_only_falta_envido():
    t = mano(["envido"], scores=(0, 26))  # the falta is 4: envido + envido = 4 is fine, + real = 5 is not
    assert {"envido", "falta envido"} <= set(t.legal()) and "real envido" not in t.legal()


@pytest.mark.parametrize("team_size", [2, 3])
def test_a21_a29_a32_any_member_answers_for_the_team_and_the_first_answer_binds(team_size):
    n = 2 * team_size
    hands = ["7O 6O 1E", "4C 5B 12E", "1O 2C 3B", "4O 5C 6B", "10O 11C 12C", "10E 11B 4E"][:n]
    t = Table(tradition="argentino", team_size=team_size, seed=1, todo_dicho=False)
    t.deal(hands=hands, dealer=n - 1)
    t.act("envido")
    assert t.to_act == 1 and "paso" in t.legal()  # seat 1 may leave it to his partner
    t.act("paso")
    assert t.to_act == 3
    if team_size == 3:
        t.act("paso")
        assert t.to_act == 5
    assert "paso" not in t.legal()  # the last member must answer
    t.act("quiero")  # binds the team: no other answer is asked
    assert t.phase == "play" and t.to_act == 0
