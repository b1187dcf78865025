"""Scripted manos of truco argentino: the flor (seed 003 §12; A5-A17) and the numeric statements
AE3 and AE9 of ../shared/rules/traditions.md, with the rulings on the flor's payouts."""

from __future__ import annotations

from truque_env import Table
from truque_env.traditions.argentino import layout as L

FLOR_38, FLOR_27, FLOR_20 = "5O 6O 7O", "7C 10C 11C", "10E 11E 12E"  # 20 + 18, 20 + 7, three figures
NO_FLOR = "4B 5B 1E"


def mano(hands, words=(), team_size=1, dealer=None, scores=None, **options):
    t = Table(tradition="argentino", team_size=team_size, seed=1, todo_dicho=False, **options)
    t.deal(hands=list(hands), dealer=2 * team_size - 1 if dealer is None else dealer, scores=scores)
    for w in words:
        t.act(w)
    return t


def flor_tantos(t):
    while not t.done and t.phase == "answer":
        t.act(t.legal()[0])
    return t.result()["flor"] if t.done else tuple(int(t.state[L.CHINAS + 3 * k + L.SRC_FLOR]) for k in (0, 1))


def test_a8_a_flor_is_sung_at_its_holders_first_word_and_only_by_a_holder():
    t = mano([FLOR_38, NO_FLOR])
    assert [w for w in t.legal() if not w.startswith("seña")] == ["flor"]
    t = mano([NO_FLOR, FLOR_38])
    assert "flor" not in t.legal()  # cannot be sung without one


def test_a6_a7_a_lone_flor_scores_3():
    t = mano([FLOR_38, NO_FLOR], ["flor"])
    assert flor_tantos(t) == (3, 0) and t.phase == "play" and t.to_act == 0


def test_a7_flor_against_flor_the_best_flor_takes_3_per_flor_of_its_own_team():
    t = mano([FLOR_27, FLOR_38], ["flor"])
    assert t.to_act == 1 and {"flor", "con flor me achico", "contraflor", "contraflor al resto"} <= set(t.legal())
    t.act("flor")
    assert flor_tantos(t) == (0, 3) and int(t.state[L.FLOR_WINNER]) == 1


def test_a16_equal_flores_go_to_the_one_nearest_the_mano():
    t = mano(["5O 6O 12O", "5C 6C 11C"], ["flor", "flor"])  # 31 each
    assert flor_tantos(t) == (3, 0)


def test_a11_con_flor_me_achico_gives_the_other_team_its_flores_even_if_the_achicado_is_better():
    t = mano([FLOR_27, FLOR_38], ["flor", "con flor me achico"])
    assert flor_tantos(t) == (3, 0)
    t = mano([FLOR_27, FLOR_38], ["flor", "con flor me achico"], achico_pays=4)  # another table's pay
    assert flor_tantos(t) == (4, 0)


def test_ae3_a12_contraflor_accepted_is_6_to_the_best_flor():
    t = mano([FLOR_27, FLOR_38], ["flor", "contraflor"])
    assert set(t.legal()) >= {"con flor quiero", "con flor me achico", "contraflor al resto"}
    t.act("con flor quiero")
    assert flor_tantos(t) == (0, 6)


def test_ae3_contraflor_is_9_with_three_flores():
    hands = [FLOR_27, FLOR_38, FLOR_20, "4B 5C 1E"]
    t = mano(hands, ["flor"], team_size=2)  # seat 0 sings; seat 2's flor is sung with it (A10)
    assert int(t.state[L.FLOR_SUNG]) == 0b0111
    assert t.to_act == 1  # the rivals' flor answers
    t.act("contraflor")
    assert t.to_act in (0, 2)
    t.act("paso") if "paso" in t.legal() else None
    t.act("con flor quiero")
    assert flor_tantos(t) == (0, 9)


def test_a14_contraflor_answered_con_flor_me_achico_gives_the_contraflor_its_own_flores():
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor", "con flor me achico"])
    assert flor_tantos(t) == (0, 3)


def test_ae9_a15_contraflor_al_resto_won_by_the_leader_is_the_juego():
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor al resto"], scores=(12, 8))
    assert set(t.legal()) >= {"con flor quiero", "con flor no quiero"}
    t.act("con flor quiero")
    assert t.done and t.juegos == (1, 0) and t.result()["flor"] == (18, 0)  # what the leader lacked


def test_ae9_a15_contraflor_al_resto_won_by_the_trailer_is_what_the_leader_lacked_plus_3_per_flor():
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor al resto", "con flor quiero"], scores=(0, 20))
    assert flor_tantos(t) == (16, 0) and not t.done  # the leader lacked 10, + 3 per flor
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor al resto", "con flor quiero"], scores=(8, 12))
    assert t.done and t.result()["flor"] == (24, 0) and t.juegos == (1, 0)  # 8 + 24: out at once (A35)


def test_a13_al_resto_de_ambos_variant_the_winner_takes_the_juego():
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor al resto", "con flor quiero"], scores=(0, 20),
             contraflor_al_resto="match")
    assert t.done and t.juegos == (1, 0)


def test_a14_al_resto_refused_pays_what_stood_before_it():
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor al resto", "con flor no quiero"])
    assert flor_tantos(t) == (0, 3)  # al resto straight after the flor: 3 per flor of its team
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor", "contraflor al resto", "con flor no quiero"])
    assert flor_tantos(t) == (6, 0)  # the contraflor, implicitly accepted: 3 per flor at the table
    t = mano([FLOR_38, FLOR_27], ["flor", "contraflor", "contraflor al resto", "con flor no quiero"],
             al_resto_refused_pays=4)
    assert flor_tantos(t) == (4, 0)


def test_a9_a_sung_flor_cancels_the_envido_said_before_it():
    t = mano([NO_FLOR, FLOR_38], ["envido"])
    assert t.to_act == 1 and [w for w in t.legal() if not w.startswith("seña")] == ["flor"]
    t.act("flor")
    assert int(t.state[L.ENV_ST]) == L.BET_VOID and flor_tantos(t) == (0, 3)
    assert t.phase == "play" and t.to_act == 0 and "envido" not in t.legal()


def test_a9_a_flor_cancels_an_envido_already_accepted_by_a_partner():
    # 2 contra 2: seat 1 answers seat 0's envido before his partner seat 3 (who holds flor) speaks
    hands = ["7O 6O 1E", "4C 5B 12B", "1O 2C 3B", FLOR_20]
    t = mano(hands, ["envido", "quiero"], team_size=2)
    assert int(t.state[L.CHINAS + L.SRC_ENVIDO]) == 2 and not t.done
    for card in ("juego 1E", "juego 4C", "juego 1O"):
        t.act(card)
    assert t.to_act == 3 and [w for w in t.legal() if not w.startswith("seña")] == ["flor"]
    t.act("flor")
    assert int(t.state[L.ENV_ST]) == L.BET_VOID and flor_tantos(t) == (0, 3)
    assert int(t.state[L.CHINAS + L.SRC_ENVIDO]) == 0


def test_a9_a_truco_waits_for_the_flor():
    t = mano([NO_FLOR, FLOR_38], ["truco"])
    t.act("flor")
    assert t.phase == "answer" and t.to_act == 1 and {"quiero", "no quiero"} <= set(t.legal())
    t.act("quiero")
    assert flor_tantos(t) == (0, 3)


def test_a5_flor_off_three_of_a_suit_is_an_envido_of_20_plus_its_two_highest():
    t = mano([FLOR_38, "7C 5B 1E"], flor=False)
    assert "flor" not in t.legal()
    t.act("envido")
    t.act("quiero")  # 5O 6O 7O counts 33 (A20, AE11) against 7
    assert int(t.state[L.CHINAS + L.SRC_ENVIDO]) == 2 and int(t.state[L.FLOR_SUNG]) == 0
