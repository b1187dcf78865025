"""The style sections of an argentino duplicate match (train/eval/styles/argentino.py): bets by the
strength of the hand, bets won without a showdown, the answers to the rivals' bets by the
answerer's hand, and honest señas, each checked against a scripted player's own tally."""

from __future__ import annotations

import numpy as np
import pytest

from train.eval.duplicate import play_match
from train.eval.styles.argentino import ENVIDO_BINS, envido_bin
from truque_env.cards import card_id
from truque_env.settings import MatchSettings
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino import observation as O
from truque_env.traditions.argentino.rules import POWER, envido_value

NO_FLOR = {"flor": False}  # a flor voids an envido (A9): without it every envido is answered


def settings(team_size=1, **options):
    return MatchSettings("argentino", team_size, 15, options={**NO_FLOR, **options})


def dealt_hand(o) -> list[int]:
    """The three cards the player to act was dealt: held, and played by him (relative seat 0)."""
    held = np.flatnonzero(o[O.O_HAND : O.O_HAND + 40])
    played = np.flatnonzero(o[O.O_PLAYED_BY : O.O_PLAYED_BY + 40])
    return sorted([*held.tolist(), *played.tolist()])


def answering(o, kind) -> bool:
    return bool(o[O.P_EX_KIND + kind]) or bool(o[O.P_EX_KIND + L.EX_DOUBLE])


class _Scripted:
    """Paso at a blind turn, else a random card, except what ``choose`` returns (>= 0)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, o, m):
        a = self.choose(o, m)
        if a >= 0:
            return a
        if m[A.PASO]:
            return A.PASO
        legal = np.flatnonzero(m[A.PLAY_BASE : A.SENA_BASE]) + A.PLAY_BASE
        if legal.size == 0:
            legal = np.flatnonzero(m[: A.SENA_BASE])
        return int(legal[self.rng.integers(legal.size)])

    def choose(self, o, m):
        return -1


class Better(_Scripted):
    """Opens the envido (or the first envido bet of ``order`` it may) whenever it may with the cards
    seen, and says truco whenever it may after it; keeps its own tally of its bets, of the weak ones
    and of its falta envidos."""

    def __init__(self, seed, order=(A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO)):
        super().__init__(seed)
        self.order = order
        self.envido = self.envido_weak = self.falta = self.truco = self.truco_weak = 0

    def choose(self, o, m):
        hand = dealt_hand(o)
        words = [w for w in self.order if m[w]]  # some scores leave the falta only
        if words and not answering(o, L.EX_ENVIDO):
            self.envido += 1
            self.envido_weak += int(envido_value(hand) < 20)
            self.falta += int(words[0] == A.FALTA_ENVIDO)
            return words[0]
        if m[A.TRUCO]:
            held = np.flatnonzero(o[O.O_HAND : O.O_HAND + 40])
            won = o[O.O_BAZA_RESULT : O.O_BAZA_RESULT + 9].reshape(3, 3)[:, 0].any()
            strong = (POWER[held] >= POWER[card_id(3, "O")]).any()
            self.truco += 1
            self.truco_weak += int(not won and not strong)
            return A.TRUCO
        return -1


class Answerer(_Scripted):
    """Answers every envido and truco with ``word`` (quiero or no quiero); tallies its envido
    answers by its envido value and its truco answers."""

    def __init__(self, seed, word):
        super().__init__(seed)
        self.word = word
        self.envido_bins = np.zeros(len(ENVIDO_BINS), dtype=np.int64)
        self.truco = 0

    def choose(self, o, m):
        if not m[self.word]:
            return -1
        if answering(o, L.EX_ENVIDO) and o[O.P_EX_KIND + L.EX_ENVIDO]:
            self.envido_bins[envido_bin(np.array([envido_value(dealt_hand(o))]))[0]] += 1
        elif o[O.P_EX_KIND + L.EX_TRUCO]:
            self.truco += 1
        return self.word


@pytest.mark.parametrize("order", [(A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO), (A.FALTA_ENVIDO,)],
                         ids=["envido first", "falta only"])
@pytest.mark.parametrize("word", [A.QUIERO, A.NO_QUIERO])
def test_envido_and_truco_bets_and_answers_match_the_players_own_tallies(word, order):
    better, answerer = Better(1, order), Answerer(2, word)
    rep = play_match(better, answerer, settings=settings(), episodes=60, num_envs=60, seed=3, bootstrap=0)
    env, tru = rep.bluffs["A"]["envido"], rep.bluffs["A"]["truco"]
    # a falta envido called ends the juego (A23: it is worth what the leader lacks), before any truco
    trucos = not (order == (A.FALTA_ENVIDO,) and word == A.QUIERO)
    assert better.envido > 50 and (better.truco > 50 if trucos else better.truco == 0)
    assert env["bets_with_cards"] == better.envido and env["weak"]["count"] == better.envido_weak
    assert tru["bets_with_cards"] == better.truco and tru["weak"]["count"] == better.truco_weak
    assert 0 < better.envido_weak < better.envido and (0 < better.truco_weak < better.truco or not trucos)
    assert env["blind_bets"] == 0  # the better passes at the blind turn (no todo dicho)
    assert env["bet_when_weak"]["rate"] == 1.0 and env["bet_when_strong"]["rate"] == 1.0  # at every chance
    refused = env["weak_refused"]["count"] + env["strong_refused"]["count"]
    assert refused == (better.envido if word == A.NO_QUIERO else 0)
    # the answers: every envido of the better is answered once, in the bin of the answerer's envido
    ans = rep.answers["B"]["envido"]
    assert [r["bin"] for r in ans] == list(ENVIDO_BINS)
    assert [r["answered"] for r in ans] == answerer.envido_bins.tolist()
    assert sum(answerer.envido_bins) == better.envido
    assert all(r["refused"]["rate"] == (1.0 if word == A.NO_QUIERO else 0.0) for r in ans if r["answered"])
    assert all(r["raised"]["count"] == 0 for r in ans)
    # of them, the answers to a falta envido (A23): each of the better's falta envidos, once
    assert sum(r["falta"]["answered"] for r in ans) == better.falta > 0
    if order == (A.FALTA_ENVIDO,):
        assert better.falta == better.envido
    else:
        assert better.falta < better.envido / 4  # only where the score leaves the falta alone
    assert all(r["falta"]["refused"]["rate"] == (1.0 if word == A.NO_QUIERO else 0.0) for r in ans
               if r["falta"]["answered"])
    truco_answers = rep.answers["B"]["truco"]
    assert sum(r["answered"] for r in truco_answers) == answerer.truco and (answerer.truco > 0 or not trucos)
    assert rep.bluffs["B"]["envido"]["bets_with_cards"] == 0 and rep.bluffs["B"]["truco"]["bets_with_cards"] == 0
    assert all(r["answered"] == 0 for r in rep.answers["A"]["envido"])  # nobody bet against the better


class TodoDicho(_Scripted):
    """Says "falta envido y truco, todo dicho" at every blind turn (A33)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.said = 0

    def choose(self, o, m):
        if m[A.TODO_DICHO]:
            self.said += 1
            return A.TODO_DICHO
        return -1


def test_todo_dicho_is_a_blind_bet_of_both_kinds_not_a_bet_with_cards():
    p = TodoDicho(4)
    rep = play_match(p, Answerer(5, A.QUIERO), settings=settings(), episodes=20, num_envs=20, seed=6, bootstrap=0)
    env, tru = rep.bluffs["A"]["envido"], rep.bluffs["A"]["truco"]
    assert p.said > 0 and env["blind_bets"] == tru["blind_bets"] == p.said
    assert env["bets_with_cards"] == 0 and tru["bets_with_cards"] == 0


class TresSignaller(_Scripted):
    """Makes the seña "tres" whenever it may; counts how often it held an unplayed tres."""

    def __init__(self, seed):
        super().__init__(seed)
        self.made = self.holding = 0

    def choose(self, o, m):
        sena = A.SENA_BASE + A.SENA_NAMES.index("tres")
        if m[sena]:
            held = np.flatnonzero(o[O.O_HAND : O.O_HAND + 40])
            self.made += 1
            self.holding += int(any(c == card_id(3, s) for c in held for s in "OCEB"))
            return sena
        return -1


def test_an_argentino_sena_is_honest_when_the_signaller_holds_what_it_names():
    sig = TresSignaller(7)
    rep = play_match(sig, _Scripted(8), settings=settings(2), episodes=40, num_envs=40, seed=9, bootstrap=0)
    s = rep.senas["A"]
    assert s["tres"]["count"] == sig.made > 20
    assert s["tres"]["honest"]["count"] == sig.holding and 0 < sig.holding < sig.made
    assert all(s[k]["count"] == 0 for k in A.SENA_NAMES if k != "tres")
