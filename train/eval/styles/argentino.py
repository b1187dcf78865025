"""What a duplicate match counts of the players' style in truco argentino: bets by the strength of
the hand (falsos), bets won without a showdown, blind bets (*todo dicho*), the answers to the
rivals' bets by the strength of the hand, and señas with their honesty.

The same sections as Moteño's (``train/eval/styles/moteno.py``: ``bluffs``, ``senas``) with the
argentine bets, plus ``answers``: how often a player refuses (or raises) an envido by his envido
value, and a truco by his hand. That is where a bot that bets well can still be robbed: a
rival who opens the falta envido with every hand (an exploiter of the shipped bot does) wins
whenever the bot refuses a hand that beats most of his.
"""

from __future__ import annotations

import numpy as np

from train.eval.styles import moteno
from train.eval.styles.common import (
    NO_CARD,
    SIDES,
    AnswerTally,
    BetTally,
    count_senas,
    held_cards,
    print_answers,
    print_bluffs,
    print_senas,
    senas_section,
)
from truque_env.cards import card_id
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino.rules import (
    ANCHO_BASTO,
    ANCHO_ESPADAS,
    POWER,
    SIETE_ESPADAS,
    SIETE_OROS,
)

BET_KINDS = ("envido", "truco")
POWER_OF = np.append(POWER, 0)  # truco power per card id, 0 for NO_CARD
POWER_TRES = int(POWER[card_id(3, "O")])  # the treses (the four matas are above)
# the envido value bins of the answers: below 20 no two cards of a suit; 33 is the most (003)
ENVIDO_EDGES = np.array([20, 26, 29, 31])
ENVIDO_BINS = ("<20", "20-25", "26-28", "29-30", "31-33")
TRUCO_BINS = ("weak", "strong")

_ENVIDO_WORDS = (A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO)
_DOUBLE = tuple(range(A.ENVIDO_Y_TRUCO, A.ENVIDO_Y_TRUCO + 3))  # envido (real, falta) y truco: A34
_Y_QUIERO = tuple(range(A.Y_QUIERO_RETRUCO, A.Y_QUIERO_VALE_CUATRO + 3))  # raise the envido, raise the truco
_TRUCO_WORDS = (A.TRUCO, A.RETRUCO, A.VALE_CUATRO)
ENVIDO_BETS = np.array([*_ENVIDO_WORDS, *_DOUBLE, *_Y_QUIERO])
TRUCO_BETS = np.array([*_DOUBLE, *_Y_QUIERO, *_TRUCO_WORDS])
# the answers, per kind: the words that answer it, and of them those that refuse or raise it
ENVIDO_ANSWERS = np.array([A.QUIERO, A.NO_QUIERO, *_ENVIDO_WORDS, A.SIN_LEY_QUIERO_Y_PASO,
                           A.SIN_LEY_PASO_Y_QUIERO, *_Y_QUIERO])
ENVIDO_REFUSALS = np.array([A.NO_QUIERO, A.SIN_LEY_PASO_Y_QUIERO])
ENVIDO_RAISES = np.array([*_ENVIDO_WORDS, *_Y_QUIERO])
TRUCO_ANSWERS = np.array([A.QUIERO, A.NO_QUIERO, A.SIN_LEY_QUIERO_Y_PASO, A.SIN_LEY_PASO_Y_QUIERO, *_Y_QUIERO,
                          A.RETRUCO, A.VALE_CUATRO, A.MAZO])
TRUCO_REFUSALS = np.array([A.NO_QUIERO, A.SIN_LEY_QUIERO_Y_PASO, A.MAZO])
TRUCO_RAISES = np.array([*_Y_QUIERO, A.RETRUCO, A.VALE_CUATRO])


def _sena_tables() -> np.ndarray:
    """``SIGNAL[k, card]``: the cards the seña k names (row ``nada``: every card the others name)."""
    sig = np.zeros((A.NUM_SENAS, NO_CARD + 1), dtype=np.bool_)
    for k, card in enumerate((ANCHO_ESPADAS, ANCHO_BASTO, SIETE_ESPADAS, SIETE_OROS)):
        sig[k, card] = True
    for suit in "OCEB":
        sig[A.SENA_NAMES.index("tres"), card_id(3, suit)] = True
        sig[A.SENA_NAMES.index("dos"), card_id(2, suit)] = True
    sig[A.SENA_NAMES.index("nada")] = sig.any(axis=0)
    return sig


SIGNAL = _sena_tables()
SENA_FLOR = A.SENA_NAMES.index("flor")
SENA_NADA = A.SENA_NAMES.index("nada")

DEFINITIONS = {
    "weak_pares": "(argentino) an envido bet (envido, real envido, falta envido; opening, raising, or said with "
                  "the truco, A34) by a player whose envido value < weak_pares (below 20: no two cards of a suit); "
                  "todo dicho, said before the cards are seen (A33), is counted apart as a blind bet",
    "weak_truco": "(argentino) truco / retruco / vale cuatro (alone or in a double call) said with the cards seen by "
                  "a player holding no unplayed card of truco power >= the treses (the four matas, the treses) "
                  "whose team has won no baza yet",
    "bet_when_weak": moteno.DEFINITIONS["bet_when_weak"],
    "refused": moteno.DEFINITIONS["refused"],
    "answers": "(argentino) decisions answering a rival's envido (or truco) with a word of that exchange, by the "
               "answerer's envido value (for the truco: weak or strong hand, as for the bets): refused = no "
               "quiero (for the truco also the mazo, and of a double call the half refused), raised = a higher "
               "bet of the same kind; each envido bin's falta: of those answers, the ones to a falta envido "
               "(alone or with the truco); CI: Wilson",
    "honest_sena": "(argentino) a seña naming a card (ancho de espadas, ancho de basto, siete de espadas, siete de "
                   "oros) if the signaller holds it unplayed; tres / dos if he holds an unplayed three / two; flor "
                   "if his hand has flor; nada if he holds none of the cards the others name. CI: Wilson",
}


def envido_bin(value: np.ndarray) -> np.ndarray:
    """The index in ``ENVIDO_BINS`` of each envido value."""
    return np.searchsorted(ENVIDO_EDGES, value, side="right")


class StyleStats:
    """Numpy accumulators of the bets, answers and señas of each side."""

    def __init__(self, num_tables: int, weak_pares: int):
        self.weak_envido = weak_pares
        self.tally = BetTally(num_tables)
        self.blind_bets = np.zeros(2, dtype=np.int64)  # todo dicho, both kinds at once
        # of the envido answers, those to a falta envido: where a refusal is cheap and a call may end the juego
        self.answers = AnswerTally(len(ENVIDO_BINS))
        self.senas = np.zeros((2, A.NUM_SENAS), dtype=np.int64)
        self.senas_honest = np.zeros((2, A.NUM_SENAS), dtype=np.int64)

    def clear_tables(self, idx) -> None:
        self.tally.clear_tables(idx)

    def observe(self, t, S0, S1, a, p, side, mask, done) -> None:
        """The decisions on the active tables ``t``: states ``S0`` before and ``S1`` after (int64
        rows), actions ``a`` by seats ``p`` of ``side``, their legal ``mask``; ``done``: the rows
        whose mano ended."""
        team = p % 2
        seen = S0[:, L.CARDS_SEEN] == 1
        held = held_cards(L, S0, p)  # the actor's unplayed cards (NO_CARD for played slots)
        envido = S0[np.arange(t.size), L.ENVIDO_VAL + p]
        strong_card = (POWER_OF[held] >= POWER_TRES).any(axis=1)
        won_baza = (S0[:, L.BAZA_WIN_TEAM : L.BAZA_WIN_TEAM + 3] == team[:, None]).any(axis=1)
        weak = np.stack([envido < self.weak_envido, ~strong_card & ~won_baza], axis=1)

        r = np.flatnonzero(a >= A.SENA_BASE)
        if r.size:
            count_senas(self.senas, self.senas_honest, a[r] - A.SENA_BASE, side[r], held[r], SIGNAL, SENA_NADA,
                        SENA_FLOR, S0[r, L.FLOR_VAL + p[r]] > 0)

        # bets with the cards seen, and their chances (a seña does not pass the turn: counted once)
        np.add.at(self.blind_bets, side, ((a == A.TODO_DICHO) & ~seen).astype(np.int64))
        chance_row = seen & (a < A.SENA_BASE)
        for kind, words in ((0, ENVIDO_BETS), (1, TRUCO_BETS)):
            self.tally.count(t, kind, mask[:, words].any(axis=1) & chance_row, np.isin(a, words) & seen, side, p,
                             weak[:, kind])

        # answers to the rivals' bets, by the answerer's hand
        answering = S0[:, L.PHASE] == L.PH_ANSWER
        exk = S0[:, L.EX_KIND]
        truco_bin = (~weak[:, 1]).astype(np.int64)  # 0 weak, 1 strong
        for kind, kinds, words, refusals, raises, bins in (
                (0, (L.EX_ENVIDO, L.EX_DOUBLE), ENVIDO_ANSWERS, ENVIDO_REFUSALS, ENVIDO_RAISES, envido_bin(envido)),
                (1, (L.EX_TRUCO, L.EX_DOUBLE), TRUCO_ANSWERS, TRUCO_REFUSALS, TRUCO_RAISES, truco_bin)):
            r = np.flatnonzero(answering & np.isin(exk, kinds) & np.isin(a, words))
            falta = S0[r, L.ENV_STAKE] == L.FALTA_NOMINAL if kind == 0 else None
            self.answers.count(kind, side[r], bins[r], np.isin(a[r], refusals), np.isin(a[r], raises), falta)

        self.tally.settle(t, done, S1, ((L.ENV_ST, L.ENV_RAISER), (L.TRUCO_ST, L.TRUCO_RAISER)), L.BET_REFUSED)

    def report(self, manos: int, rate) -> dict:
        """The report's sections ``bluffs``, ``answers`` and ``senas`` (``rate(k, n)``: a count with its
        Wilson CI)."""
        both = np.repeat(self.blind_bets[:, None], 2, axis=1)  # todo dicho is a blind bet of both kinds
        bluffs = self.tally.sections(both, BET_KINDS, manos, rate)
        answers = self.answers.sections(BET_KINDS, (ENVIDO_BINS, TRUCO_BINS), rate)
        senas = {side: senas_section(self.senas[si], self.senas_honest[si], A.SENA_NAMES, manos, rate)
                 for si, side in enumerate(SIDES)}
        return {"bluffs": bluffs, "answers": answers, "senas": senas}


def print_sections(d: dict, console, fmt_rate) -> None:
    """The report's bluffs, answers and señas as tables."""
    print_bluffs(d, console, fmt_rate, BET_KINDS)
    print_answers(d, console, fmt_rate, BET_KINDS, "of it, falta envido")
    print_senas(d, console, fmt_rate, A.SENA_NAMES)
