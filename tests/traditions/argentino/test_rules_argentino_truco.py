"""Scripted manos of truco argentino: the bazas and the truco (rulings A3, A4, A40; A37), irse al
mazo (A30, AE5), todo dicho (A33, AE10), envido y truco a la vez (A34), uno y uno (A39), señas
(A41), and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from truque_env import Table
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L


def mano(hands, words=(), team_size=1, dealer=None, scores=None, **options):
    options.setdefault("todo_dicho", False)
    t = Table(tradition="argentino", team_size=team_size, seed=1, **options)
    t.deal(hands=list(hands), dealer=2 * team_size - 1 if dealer is None else dealer, scores=scores)
    for w in words:
        t.act(w)
    return t


def cards(t, *names):
    for c in names:
        t.act(f"juego {c}")


# -- bazas (ruling A4) --------------------------------------------------------------------------
def test_a3_a4_the_higher_card_wins_the_baza_and_two_bazas_win_the_truco():
    t = mano(["1E 4C 5C", "1B 7C 6B"])
    cards(t, "1E", "1B")  # the ancho de espadas beats the ancho de basto
    assert int(t.state[L.BAZA_WIN_TEAM]) == 0 and t.to_act == 0
    cards(t, "5C", "6B")
    assert int(t.state[L.BAZA_WIN_TEAM + 1]) == 1 and t.to_act == 1
    cards(t, "7C", "4C")
    assert t.done and t.result()["truco"] == (0, 1)  # no truco called: 1 tanto


def test_a4_rivals_equal_cards_are_parda_the_first_baza_winner_wins_on_a_parda_second():
    t = mano(["1E 3O 4C", "7C 3C 5B"])
    cards(t, "1E", "7C", "3O", "3C")
    assert int(t.state[L.BAZA_WIN_TEAM + 1]) == L.BAZA_PARDA
    assert t.done and t.result()["truco"] == (1, 0)


def test_a4_a_parda_first_the_second_decides_after_a_parda_the_mano_leads():
    t = mano(["3O 1E 4C", "3C 7C 5B"], dealer=0)  # seat 1 is mano
    cards(t, "3C", "3O")
    assert int(t.state[L.BAZA_WIN_TEAM]) == L.BAZA_PARDA and t.to_act == 1  # the mano leads
    cards(t, "7C", "1E")
    assert t.done and t.result()["truco"] == (1, 0)


def test_a4_three_pardas_go_to_the_mano():
    t = mano(["3O 2E 4B", "3C 2B 4C"])
    cards(t, "3O", "3C", "2E", "2B", "4B", "4C")
    assert t.done and t.result()["truco"] == (1, 0)


def test_a4_split_bazas_and_a_parda_third_go_to_the_winner_of_the_first():
    t = mano(["1E 4O 6O", "7C 3C 6B"])
    cards(t, "1E", "7C", "4O", "3C")
    assert t.to_act == 1
    cards(t, "6B", "6O")
    assert t.done and t.result()["truco"] == (1, 0)


def test_a4_partners_equal_cards_are_not_parda_the_earlier_card_wins():
    t = mano(["3O 4O 5E", "4C 5C 6B", "3C 6E 7B", "4B 5B 10O"], team_size=2)
    cards(t, "3O", "4C", "3C", "4B")
    assert int(t.state[L.BAZA_WIN_TEAM]) == 0 and int(t.state[L.BAZA_WIN_SEAT]) == 0


# -- the truco ladder (A37, A40, ruling 8) -------------------------------------------------------
def test_a40_truco_2_retruco_3_vale_cuatro_4_and_a_refusal_pays_the_last_accepted():
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["truco", "no quiero"])
    assert t.result()["truco"] == (1, 0)
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["truco", "quiero", "juego 1E", "retruco", "no quiero"])
    assert t.result()["truco"] == (0, 2)
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["truco", "quiero", "juego 1E", "retruco", "quiero", "juego 1B",
                                         "vale cuatro", "no quiero"])
    assert t.result()["truco"] == (3, 0)
    t = mano(["1E 1B 5C", "4B 7C 6B"], ["truco", "quiero", "juego 1E", "retruco", "quiero", "juego 4B",
                                         "vale cuatro", "quiero"])
    cards(t, "1B", "7C")
    assert t.done and t.result()["truco"] == (4, 0)


def test_ae8_a37_only_the_side_that_accepted_may_raise_and_truco_must_be_accepted_first():
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["truco"])
    assert "retruco" not in t.legal()
    with pytest.raises(ValueError, match="illegal action 'retruco'"):
        t.act("retruco")
    t.act("quiero")
    assert t.to_act == 0 and not {"truco", "retruco"} & set(t.legal())  # seat 0 called: not his to raise
    t.act("juego 1E")
    assert "retruco" in t.legal()  # seat 1 accepted: his side may raise
    assert int(t.state[L.HAB_TEAM]) == 1


# -- irse al mazo (A30, AE5) ---------------------------------------------------------------------
def test_ae5_a30_al_mazo_before_the_first_card_gives_2_later_1():
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["me voy al mazo"])
    assert t.result() == {"envido": (0, 1), "flor": (0, 0), "truco": (0, 1)}
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["juego 1E", "juego 1B", "me voy al mazo"])
    assert t.result() == {"envido": (0, 0), "flor": (0, 0), "truco": (0, 1)}  # his team played a card
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["juego 4C", "juego 1B", "me voy al mazo"])  # seat 1 leads and leaves
    assert t.result() == {"envido": (0, 0), "flor": (0, 0), "truco": (1, 0)}


def test_a30_after_an_accepted_truco_the_mazo_pays_its_level_and_no_envido():
    t = mano(["1E 4C 5C", "1B 7C 6B"], ["truco", "quiero", "me voy al mazo"])
    assert t.result() == {"envido": (0, 0), "flor": (0, 0), "truco": (0, 2)}


def test_a30_in_2v2_one_player_leaves_and_his_partner_plays_on():
    t = mano(["1E 4C 5C", "1B 7C 6B", "2O 3O 4E", "2C 3B 7O"], team_size=2)
    t.act("me voy al mazo")  # seat 0 leaves: seat 2 stays for team 0
    assert not t.done and t.to_act == 1 and int(t.state[L.FOLDED]) == 1
    cards(t, "1B", "2O", "2C")
    assert int(t.state[L.BAZA_WIN_TEAM]) == 1
    t.act("me voy al mazo")  # seat 1 leads the second baza and leaves; seat 3 stays
    assert t.to_act == 2


# -- todo dicho (A33, AE10) ---------------------------------------------------------------------
def test_a33_todo_dicho_is_said_before_looking_and_answered_for_both():
    t = mano(["1E 4C 5C", "1B 7C 6B"], todo_dicho=True)
    assert t.phase == "blind" and set(t.legal()) == {"paso", "falta envido y truco, todo dicho"}
    t.act("falta envido y truco, todo dicho")
    assert t.phase == "answer" and t.to_act == 1
    assert {"quiero", "no quiero", "sin ley quiero y paso", "sin ley paso y quiero"} <= set(t.legal())
    t.act("no quiero")  # each part pays its refusal: falta 1, truco 1
    assert t.result() == {"envido": (1, 0), "flor": (0, 0), "truco": (1, 0)}


def test_a33_sin_ley_quiero_y_paso_accepts_the_falta_only_sin_ley_paso_y_quiero_the_truco_only():
    t = mano(["7O 6O 5C", "1B 7C 6B"], ["falta envido y truco, todo dicho", "sin ley quiero y paso"],
             todo_dicho=True, scores=(10, 20))
    assert t.result() == {"envido": (10, 0), "flor": (0, 0), "truco": (1, 0)}  # the falta is 10; truco refused
    t = mano(["7O 6O 5C", "1B 7C 6B"], ["falta envido y truco, todo dicho", "sin ley paso y quiero"],
             todo_dicho=True)
    assert not t.done and int(t.state[L.TRUCO_ST]) == L.BET_ACCEPTED
    assert int(t.state[L.CHINAS + L.SRC_ENVIDO]) == 1 and t.phase == "play"


def test_ae10_quiero_y_paso_without_sin_ley_is_quiero_and_paso_y_quiero_is_no_quiero():
    assert A.action_id("quiero y paso") == A.QUIERO
    assert A.action_id("paso y quiero") == A.NO_QUIERO
    t = mano(["7O 6O 5C", "1B 7C 6B"], ["falta envido y truco, todo dicho", "quiero y paso"], todo_dicho=True)
    assert int(t.state[L.TRUCO_ST]) == L.BET_ACCEPTED and int(t.state[L.ENV_ST]) == L.BET_ACCEPTED


def test_a33_a_flor_in_play_annuls_todo_dicho_and_flor_on_both_sides_leaves_contraflor_al_resto():
    t = mano(["5O 6O 7O", "1B 7C 6B"], ["falta envido y truco, todo dicho"], todo_dicho=True)
    assert int(t.state[L.TD_ST]) == L.TD_ANNULLED and t.phase == "play" and t.legal()[0] == "flor"
    t = mano(["5O 6O 7O", "10C 11C 12C"], ["paso", "falta envido y truco, todo dicho"], todo_dicho=True)
    assert int(t.state[L.TD_ST]) == L.TD_FLOR and t.to_act == 0
    assert {"con flor quiero", "con flor no quiero"} <= set(t.legal())
    t.act("con flor quiero")  # al resto: seat 0's 38 wins, the juego (0-0: a leader)
    assert t.done and t.juegos == (1, 0)


# -- envido y truco a la vez (A34) --------------------------------------------------------------
def test_a34_envido_y_truco_the_rivals_answer_both():
    t = mano(["7O 6O 5C", "1B 7C 6B"], ["envido y truco"])
    assert {"quiero", "no quiero", "sin ley quiero y paso", "sin ley paso y quiero",
            "envido y quiero retruco", "real envido y quiero retruco", "falta envido y quiero retruco"} <= set(t.legal())
    t.act("real envido y quiero retruco")  # "es el otro jugador quien debe responder por los dos"
    assert t.to_act == 0 and int(t.state[L.TRUCO_LEVEL]) == 2 and int(t.state[L.ENV_STAKE]) == 5
    t.act("sin ley quiero y paso")  # the envido (5, seat 0's 33) yes; the retruco no: 2 to seat 1
    assert t.result() == {"envido": (5, 0), "flor": (0, 0), "truco": (0, 2)}


# -- uno y uno (A39) ------------------------------------------------------------------------------
def test_a39_uno_y_uno_by_agreement_one_tanto_each_without_playing():
    t = mano(["7O 6O 5C", "1B 7C 6B"])
    assert "uno y uno" not in t.legal()  # off by default
    t = mano(["7O 6O 5C", "1B 7C 6B"], ["uno y uno", "quiero"], uno_y_uno=True)
    assert t.result() == {"envido": (0, 0), "flor": (0, 0), "truco": (1, 1)}
    t = mano(["7O 6O 5C", "1B 7C 6B"], ["uno y uno", "no quiero"], uno_y_uno=True)
    assert t.to_act == 0 and "uno y uno" not in t.legal()
    with pytest.raises(ValueError, match="mano a mano"):
        Table(tradition="argentino", team_size=2, uno_y_uno=True)


# -- señas (A41, ruling 3) -------------------------------------------------------------------------
def test_a41_senas_the_argentine_vocabulary_partners_see_rivals_intercept():
    assert A.SENA_NAMES == ("ancho de espadas", "ancho de basto", "siete de espadas", "siete de oros", "tres",
                            "dos", "flor", "nada")
    t = Table(tradition="argentino", team_size=2, seed=5, todo_dicho=False, p_intercept=1.0)
    t.deal(hands=["1E 4C 5C", "1B 7C 6B", "2O 3O 4O", "2C 3B 7O"], dealer=3)
    t.act("seña: ancho de espadas")
    assert t.to_act == 0 and t.senas_log == [(0, 0, 0b1110)]  # the partner and both rivals (p = 1)
    assert not any(w.startswith("seña") for w in t.legal())  # one per mano by default


# -- bad input ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kwargs", "match"), [
    ({"team_size": 4}, "team_size must be 1, 2 or 3"),
    ({"florr": True}, "unknown option 'florr'"),
    ({"flor": "yes"}, "option flor must be True or False"),
    ({"falta_envido": "todo"}, "option falta_envido must be 'leader' or 'match'"),
    ({"achico_pays": -1}, "option achico_pays"),
    ({"target": 1}, "target must be an integer 2..100"),
])
def test_bad_settings_are_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Table(tradition="argentino", **kwargs)


def test_an_illegal_word_or_a_bad_card_is_a_clear_error_and_changes_nothing():
    t = mano(["1E 4C 5C", "1B 7C 6B"])
    before = t.state.copy()
    with pytest.raises(ValueError, match="illegal action 'quiero'"):
        t.act("quiero")
    with pytest.raises(ValueError, match="unknown action"):
        t.act("retrucazo")
    with pytest.raises(ValueError):
        t.act("juego 9E")
    assert np.array_equal(t.state, before)
    with pytest.raises(ValueError, match="seat 1"):
        Table(tradition="argentino", team_size=1).deal(hands=["1E 4C 5C", "1B 7C 9B"])


@pytest.mark.parametrize("team_size", [1, 2, 3])
def test_a31_nobody_sees_a_card_that_was_not_played_or_shown(team_size):
    """A31 by construction: the observation holds one's own cards, the cards played, and at the end
    the hands shown (the envido's winner, A28, and the best flor, A17); never another hand."""
    from truque_env import VectorEnv
    from truque_env.traditions.argentino import observation as O

    env = VectorEnv(16, tradition="argentino", team_size=team_size, seed=9)
    obs, mask, seat, _ = env.reset()
    rng = np.arange(16, dtype=np.int64)
    n = 2 * team_size
    one = np.zeros(O.OBS_SIZE, dtype=np.int8)
    for _ in range(120):
        for i in range(16):
            s, me = env.states[i], int(seat[i])
            for viewer in range(n):
                O.observe(s, env.hists[i], viewer, one)
                parts = O.split(one)
                mine = set(int(c) for c in s[L.HAND + 3 * viewer : L.HAND + 3 * viewer + 3])
                assert set(np.flatnonzero(parts["hand"]).tolist()) <= mine
                played = set(int(c) for c in s[L.PLAYED : L.PLAYED + 3 * L.MAX_PLAYERS] if c >= 0)
                assert set(np.flatnonzero(parts["played_by"].sum(axis=0)).tolist()) == played
                assert not parts["revealed"].any()  # while the mano is on (the env deals the next at once)
            assert me == int(s[L.TO_ACT])
        obs, mask, seat, *_ = env.step(env.sample_actions(rng))


def test_a17_a28_the_winners_hands_are_shown_when_the_mano_is_over():
    from truque_env.traditions.argentino import observation as O

    t = mano(["7O 6O 5C", "1B 7C 4B"], ["envido", "quiero", "me voy al mazo"])
    assert t.done and int(t.state[L.ENV_WINNER]) == 0
    obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
    O.observe(t.state, np.zeros(O.HISTORY_SIZE, dtype=np.int16), 1, obs)
    rev = O.split(obs)["revealed"]
    assert sorted(np.flatnonzero(rev[1]).tolist()) == sorted(int(c) for c in t.state[L.HAND : L.HAND + 3])
    assert not rev[0].any()
