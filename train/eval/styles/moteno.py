"""What a duplicate match counts of the players' style in Truque Moteño: bets by the strength of
the hand (falsos), bets won without a showdown, blind bets, the answers to the rivals' bets by the
strength of the hand, and señas with their honesty.

The answers are where a bot that bets well can still be robbed: a rival who sends three pares or
la falta with every hand wins whenever the bot refuses a hand that beats most of his (the 1 contra
1 exploiters of the league bots do, docs/league_moteno.md).

The evaluator (``train/eval/duplicate.py``) is the same for every tradition; a tradition with a
style module registered in ``train/eval/styles/__init__.py`` also gets these sections of the
report (``bluffs``, ``senas``). The definitions are in ``DEFINITIONS`` and in every report.
"""

from __future__ import annotations

import numpy as np

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
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.rules import TRUQUE_POWER

BET_KINDS = ("pares", "truco")
POWER_TRES = int(TRUQUE_POWER[card_id(3, "O")])  # treses: 10 (the piezas and matas are above)
# the valor de pares bins (Art. 5): below 20 no two cards of a suit and no pieza; 35 and up a pieza
# (29..31) with a card of 4..6 or more, or two piezas
PARES_EDGES = (20, 25, 30, 35)
PARES_BINS = ("<20", "20-24", "25-29", "30-34", "35+")
TRUCO_BINS = ("weak", "strong")


def pares_bin(pares: np.ndarray) -> np.ndarray:
    """Bin index of a valor de pares: ``<20``, ``20-24``, ``25-29``, ``30-34``, ``35+`` (``PARES_BINS``)."""
    return np.digitize(np.asarray(pares), PARES_EDGES).astype(np.int64)


_PARES_RAISES = np.array([*range(A.PARES_BASE, A.FLORES_BASE), A.FALTA])
PARES_ANSWERS = np.array([A.QUIERO, A.NO_QUIERO, *_PARES_RAISES])
TRUCO_RAISES = np.array([A.RETRUCO, A.PANUEVE])
TRUCO_ANSWERS = np.array([A.QUIERO, A.NO_QUIERO, A.BARAJA, *TRUCO_RAISES])
TRUCO_REFUSALS = np.array([A.NO_QUIERO, A.BARAJA])


def _sena_tables() -> np.ndarray:
    """``SIGNAL[k, card]``: the cards the seña k names (row ``ciega``: every named card)."""
    sig = np.zeros((A.NUM_SENAS, NO_CARD + 1), dtype=np.bool_)
    named = {"perro": [(11, "B")], "perra": [(10, "O")], "cascabel": [(11, "O")], "espada": [(1, "E")],
             "basto": [(1, "B")], "mata de espadas": [(7, "E")], "mata de oros": [(7, "O")],
             "tres": [(3, s) for s in "OCEB"], "dos": [(2, s) for s in "OCEB"]}
    for k, name in enumerate(A.SENA_NAMES):
        for rank, suit in named.get(name, []):
            sig[k, card_id(rank, suit)] = True
    sig[A.SENA_NAMES.index("ciega")] = sig.any(axis=0)
    return sig


SIGNAL = _sena_tables()
SENA_FLOR = A.SENA_NAMES.index("flor")
SENA_CIEGA = A.SENA_NAMES.index("ciega")
POWER_OF = np.append(TRUQUE_POWER, 0)  # power per card id, 0 for NO_CARD


DEFINITIONS = {
    "weak_pares": "envío N pares / envío la falta with the cards seen (envite or revoque) by a player whose "
                  "valor de pares < weak_pares (below 20: no two cards of a suit and no pieza); blind bets "
                  "are counted apart",
    "weak_truco": "truco / retruco / panueve with the cards seen by a player holding no unplayed card of truque "
                  "power >= the treses (piezas, matas, treses) whose team has won no baza yet",
    "bet_when_weak": "bets with a weak hand / decisions (señas aside) where such a bet was legal with a weak hand; "
                     "bet_when_strong likewise. CI: Wilson",
    "refused": "the bet was the last raise of its exchange and the rivals answered no quiero (won without "
               "a showdown); CI: Wilson",
    "answers": "decisions answering a rival's envite de pares (or truco) with the cards seen, by the answerer's "
               "valor de pares (for the truco: weak or strong hand, as for the bets): refused = no quiero (for "
               "the truco also me voy a baraja), raised = a revoque (retruco, panueve); each pares bin's falta: "
               "of those answers, the ones to la falta; a partner's paso is not an answer; CI: Wilson",
    "honest_sena": "card señas: the signaller holds that card unplayed; tres / dos: holds an unplayed three / "
                   "two; flor: his hand has flor; ciega: holds none of the cards the other señas name. CI: Wilson",
}


class StyleStats:
    """Numpy accumulators of the bets and señas of each side (per side, per kind of bet)."""

    def __init__(self, num_tables: int, weak_pares: int):
        self.weak_pares = weak_pares
        self.tally = BetTally(num_tables)
        self.answers = AnswerTally(len(PARES_BINS))
        self.blind_bets = np.zeros((2, 2), dtype=np.int64)  # [side, kind]
        self.senas = np.zeros((2, A.NUM_SENAS), dtype=np.int64)
        self.senas_honest = np.zeros((2, A.NUM_SENAS), dtype=np.int64)

    def clear_tables(self, idx) -> None:
        self.tally.clear_tables(idx)

    def observe(self, t, S0, S1, a, p, side, mask, done) -> None:
        """The decisions on the active tables ``t``: states ``S0`` before and ``S1`` after (int64
        rows), actions ``a`` by seats ``p`` of ``side``, their legal ``mask``; ``done``: the rows
        whose mano ended."""
        team = p % 2
        rows = np.arange(t.size)
        ph = S0[:, L.PHASE]
        seen = S0[:, L.CARDS_SEEN] == 1
        held = held_cards(L, S0, p)  # the actor's unplayed cards (NO_CARD for played slots)
        can_bet = np.stack([mask[:, A.PARES_BASE : A.FLORES_BASE].any(axis=1) | (mask[:, A.FALTA] == 1),
                            mask[:, A.TRUCO : A.PANUEVE + 1].any(axis=1)], axis=1)

        r = np.flatnonzero(a >= A.SENA_BASE)
        if r.size:
            count_senas(self.senas, self.senas_honest, a[r] - A.SENA_BASE, side[r], held[r], SIGNAL, SENA_CIEGA,
                        SENA_FLOR, S0[r, L.FLOR_VAL + p[r]] > 0)

        # bets: envites / revoques de pares, and challenges of the truque
        exk = S0[:, L.EX_KIND]
        pares_word = ((a >= A.PARES_BASE) & (a < A.FLORES_BASE)) | (a == A.FALTA)
        pares_ctx = (ph == L.PH_PLAY) | (ph == L.PH_BLIND) | ((ph == L.PH_ANSWER) & (exk == L.EX_PARES))
        is_pares = pares_word & pares_ctx
        is_truco = (a == A.TRUCO) | (a == A.RETRUCO) | (a == A.PANUEVE)
        np.add.at(self.blind_bets, (side, np.zeros_like(side)), (is_pares & ~seen).astype(np.int64))
        np.add.at(self.blind_bets, (side, np.ones_like(side)), (is_truco & ~seen).astype(np.int64))
        weak_pares = S0[rows, L.PARES_VAL + p] < self.weak_pares
        strong_card = (POWER_OF[held] >= POWER_TRES).any(axis=1)
        won_baza = (S0[:, L.BAZA_WIN_TEAM : L.BAZA_WIN_TEAM + 3] == team[:, None]).any(axis=1)
        weak_truco = ~strong_card & ~won_baza
        not_sena = a < A.SENA_BASE  # a seña does not pass the turn: count the decision once
        chance = can_bet & (seen & not_sena)[:, None]
        chance[:, 0] &= pares_ctx
        for kind, is_bet, weak in ((0, is_pares & seen, weak_pares), (1, is_truco & seen, weak_truco)):
            self.tally.count(t, kind, chance[:, kind], is_bet, side, p, weak)

        # answers to the rivals' bets with the cards seen, by the answerer's hand
        answering = (ph == L.PH_ANSWER) & seen
        r = np.flatnonzero(answering & (exk == L.EX_PARES) & np.isin(a, PARES_ANSWERS))
        self.answers.count(0, side[r], pares_bin(S0[r, L.PARES_VAL + p[r]]), a[r] == A.NO_QUIERO,
                           np.isin(a[r], _PARES_RAISES), S0[r, L.PARES_STAKE] == L.FALTA_NOMINAL)
        r = np.flatnonzero(answering & (exk == L.EX_TRUCO) & np.isin(a, TRUCO_ANSWERS))
        self.answers.count(1, side[r], (~weak_truco[r]).astype(np.int64), np.isin(a[r], TRUCO_REFUSALS),
                           np.isin(a[r], TRUCO_RAISES))
        self.tally.settle(t, done, S1, ((L.PARES_ST, L.PARES_RAISER), (L.TRUCO_ST, L.TRUCO_RAISER)), L.BET_REFUSED)

    def report(self, manos: int, rate) -> dict:
        """The report's sections ``bluffs``, ``answers`` and ``senas`` (``rate(k, n)``: a count with its
        Wilson CI)."""
        senas = {side: senas_section(self.senas[si], self.senas_honest[si], A.SENA_NAMES, manos, rate)
                 for si, side in enumerate(SIDES)}
        return {"bluffs": self.tally.sections(self.blind_bets, BET_KINDS, manos, rate),
                "answers": self.answers.sections(BET_KINDS, (PARES_BINS, TRUCO_BINS), rate), "senas": senas}


def print_sections(d: dict, console, fmt_rate) -> None:
    """The report's bluffs, answers and señas as tables."""
    print_bluffs(d, console, fmt_rate, BET_KINDS)
    print_answers(d, console, fmt_rate, BET_KINDS, "of it, la falta")
    print_senas(d, console, fmt_rate, A.SENA_NAMES)
