"""A Moteño bot that plays the envite de pares from a solved table and everything else as its base.

The table is the envite de pares mano a mano solved at every score by CFR+
(``train.cfr.pares_moteno``, which writes it; this module only reads it). The base is any policy
with ``action_probs`` (the PPO bots, the record switch). At a decision of the envite the table's
mixed strategy for the bot's valor de pares replaces the base's:

* **mandar** (the bot may send pares: at its first turn in the first baza, 6.6-6.9): the table's
  chance of each ``envío N pares`` of its abstraction and of ``envío la falta``; the rest of the
  table's mass (not mandar) goes to the base's other actions in the base's proportions (it plays a
  card, says truco, ...);
* **answering** an envite or a revoque: the table's quiero, no quiero or revoque. The chain of words
  is read from the observation's history; a rival's ``envío N pares`` outside the abstraction is
  read as the nearest of its amounts (on a log scale) above the chain's last word, la falta when
  2N chinas reach it or no amount is left.

* **a blind envite** (Art. 7, ``envío N pares`` said before the deal): "luego te lo digo" (7.2),
  then, with the cards seen, quiero or no quiero by the table's ``blind_answers`` (the sender's
  pares are any hand's: a plain decision). Not against a rival whose juego record shows two
  leaves (``BLIND_RIVAL_LEAVES``: random leaves half its manos): the answers value the rest of the
  juego as even, and against a blind rival the bot's juego is nearly won without gambling on a
  showdown (97% against random; 93.5% with the blind answers), so the base answers him.

Señas keep the base's probability (they do not pass the turn). The table is not used (the base
plays) at another team size than 1 contra 1, at another target than the table's, with a hand that
holds a flor (it is sung, 10.5), after the bot's own blind bets, a blind quiero or la falta a
ciegas (Arts. 7.4, 12), after any word of the flores, and in a chain longer than the table's.

The file (``np.load`` of plain arrays; ``TABLE_FORMAT`` and ``TABLE_VERSION``):
``strategies[a, b, row, slot, type]`` the probability of slot (0 quiero or paso, 1 no quiero, then
``envío N pares`` for each N of ``abstract_n``, then la falta) at decision row ``row`` for a valor de
pares of type ``type`` (``pares_values[type]``), with the mano at ``a`` chinas and the pie at ``b``;
``row_of_code[opener, code]`` the row answering a chain said from ``opener`` (0 the mano, 1 the
pie), coded ``code = 1`` then ``code * (slots - 1) + w`` per word (w = slot - 1); ``player[row]``
who chooses there (0 mano, 1 pie); ``target``, ``max_words``, ``team_size``; ``V[a, b]`` the mano's
chance of the juego and ``Q`` the points of the rest of a mano the solve assumed;
``blind_answers[a, b, seat, N - 1, type]`` the chance of quiero to a blind ``envío N pares`` (seat 0
the mano); ``rival`` and ``rival_share`` (a table solved against a rival's model: its name and
share; "" and 0 for the equilibrium).

``ParesTable.decisions`` reads the other way: which of the table's decisions a player's actions
were (row, type, slot), which is how ``train.cfr.pares_moteno`` counts a rival's envite.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from agents.envido_table import act_from_probs, read_table, share_the_rest, table_strategies
from truque_env.traditions.action_kinds import LEAVE
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import flor_value_nb, is_reservada_nb, pares_value_nb

TABLE_FORMAT = "truque_env.pares_table"
TABLE_VERSION = 2  # 2: with the answers to a blind envite (train.cfr.pares_moteno)
SHIPPED_TABLE = Path(__file__).resolve().parent / "checkpoints" / "pares_moteno_1v1.npz"

HAND = O.SLICES["hand"][0]
PLAYED_BY_ME = O.SLICES["played_by"][0]  # its first row: the cards I played (relative seat 0)
PHASE = O.SLICES["phase"][0]  # blind, close, cante, play, flor_round, flor_envite, answer, done, reservada
PH_PLAY, PH_ANSWER = 3, 6
POSITION = O.SLICES["position"][0]
TEAM_SIZE = O.SLICES["team_size"][0]
SCORE = O.SLICES["score"][0]
TARGET = O.PARTS["target_falta.target"][0]
HISTORY = O.SLICES["history"][0]
HISTORY_LEN = O.HISTORY_IN_OBS
PARES_STATE = O.PARTS["pares.state"][0]  # none, open, deferred, accepted, refused
PARES_BLIND_ACCEPTED = O.PARTS["pares.blind_accepted"][0]
FALTA_SENT_MINE = O.PARTS["falta_ciegas.sent_by_mine"][0]
FALTA_SENT_RIVAL = O.PARTS["falta_ciegas.sent_by_rival"][0]
EX_KIND = O.PARTS["exchange.kind"][0]  # none, pares, truco, flores, falta a ciegas
EX_MINE = O.PARTS["exchange.answering_mine"][0]
EX_BLIND = O.PARTS["exchange.blind"][0]
EX_STANDING = O.PARTS["exchange.standing"][0]  # none, luego, no quiero, quiero, raise
# words after which the table does not know the envite: the flores', the blind answers
FOREIGN_WORDS = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
FOREIGN_WORDS[[A.LUEGO, A.FLOR, A.CON_FLOR_QUIERO, A.CON_FLOR_NO_QUIERO, A.DE_LA_MIA]] = True
FOREIGN_WORDS[A.FLORES_BASE : A.FLORES_BASE + A.MAX_FLORES_N] = True
PARES_WORDS = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)  # the words of the envite (la falta: only pares here)
PARES_WORDS[A.PARES_BASE : A.PARES_BASE + A.MAX_PARES_N] = True
PARES_WORDS[A.FALTA] = True
SENAS = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
SENAS[A.SENA_BASE : A.SENA_BASE + A.NUM_SENAS] = True
USED_OPENING, USED_ANSWER, USED_BLIND = 1, 2, 3
AT_OPENING, AT_ANSWER, AT_BLIND = 1, 2, 3  # the table's decisions (_decision)
# the rival's leaves (me voy a baraja, la mía no vale) in the juego's record: a rival who left two
# manos plays blind (random leaves half of them), and the blind answers gamble on the showdown
RIVAL_LEAVES = O.PARTS["juego_record.rival"][0] + LEAVE
BLIND_RIVAL_LEAVES = 2
BLIND_MAX_N = 3  # the blind envites the table answers: up to tres pares (the rest: the base)
PARES_STAKE = O.PARTS["pares.stake"][0]  # in pares, 16 for la falta


class ParesTable:
    """The arrays of a table file, checked."""

    def __init__(self, path=SHIPPED_TABLE):
        self.path = Path(path)
        z = read_table(self.path, "pares table", "a", TABLE_FORMAT, TABLE_VERSION, "train.cfr.pares_moteno")
        self.target = int(z["target"])
        self.max_words = int(z["max_words"])
        self.team_size = int(z["team_size"])
        if self.team_size != 1:
            raise ValueError(f"{self.path}: a table for {self.team_size} contra {self.team_size}: only 1 contra 1")
        self.strategies = table_strategies(z)
        self.row_of_code = np.ascontiguousarray(z["row_of_code"], dtype=np.int64)
        self.player = np.ascontiguousarray(z["player"], dtype=np.int64)
        self.abstract_n = np.ascontiguousarray(z["abstract_n"], dtype=np.int64)
        self.pares_values = np.ascontiguousarray(z["pares_values"], dtype=np.int64)
        self.V, self.Q = z["V"], z["Q"]
        self.blind_answers = np.ascontiguousarray(z["blind_answers"], dtype=np.float32)
        t, rows, slots = self.target, self.player.size, self.abstract_n.size + 3
        if (self.strategies.shape != (t, t, rows, slots, self.pares_values.size)
                or self.row_of_code.shape != (2, (slots - 1) ** (self.max_words + 2)) or self.row_of_code.max() >= rows
                or (np.diff(self.abstract_n) <= 0).any() or self.abstract_n.min() < 1
                or self.abstract_n.max() > A.MAX_PARES_N
                or self.blind_answers.shape != (t, t, 2, A.MAX_PARES_N, self.pares_values.size)):
            raise ValueError(f"{self.path}: the table's arrays do not fit together")
        self.type_of_value = np.full(64, -1, dtype=np.int64)
        self.type_of_value[self.pares_values] = np.arange(self.pares_values.size)
        # the action of each slot: quiero, no quiero, envío N pares, la falta
        self.slot_action = np.array([A.QUIERO, A.NO_QUIERO, *(A.PARES_BASE + self.abstract_n - 1), A.FALTA],
                                    dtype=np.int64)

    def mix(self, obs: np.ndarray, masks: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """``probs`` (float64, rows of the batch: a base's action probabilities) with the table's
        envite in place, in place; returns per row how it was used (0, ``USED_OPENING``,
        ``USED_ANSWER`` or ``USED_BLIND``). ``obs`` int8 and ``masks`` uint8, C-contiguous."""
        used = np.zeros(obs.shape[0], dtype=np.int64)
        mix_probs(obs, masks, probs, self.strategies, self.row_of_code, self.player, self.type_of_value,
                  self.abstract_n, self.slot_action, self.target, self.max_words, self.blind_answers, used)
        return used

    def decisions(self, obs: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """(rows, 5) int64: (a, b, decision row, type, slot) where ``actions`` are decisions of the
        table's game, the row -1 elsewhere (``table_decisions``)."""
        out = np.empty((obs.shape[0], 5), dtype=np.int64)
        table_decisions(np.ascontiguousarray(obs), np.ascontiguousarray(masks), np.asarray(actions, dtype=np.int64),
                        self.row_of_code, self.player, self.type_of_value, self.abstract_n, self.target,
                        self.max_words, out)
        return out


@njit(cache=True)
def _my_type(o, type_of_value):
    """The type of the valor de pares of the three cards dealt to me (in hand or played: the mano
    answers after his first card); -1 before the deal or with a flor."""
    cards = np.empty(3, dtype=np.int64)
    k = 0
    for c in range(40):
        if o[HAND + c] or o[PLAYED_BY_ME + c]:
            if k == 3:
                return -1
            cards[k] = c
            k += 1
    if k != 3 or flor_value_nb(cards[0], cards[1], cards[2]) > 0 or is_reservada_nb(cards[0], cards[1], cards[2]):
        return -1
    return type_of_value[pares_value_nb(cards[0], cards[1], cards[2])]


@njit(cache=True)
def abstract_word(n, last, falta, abstract_n):
    """The table's word for ``envío n pares`` (n = 0: la falta) after a chain whose last word is
    ``last`` (0 before any): la falta when 2n chinas reach it; else the amount nearest n on a log
    scale among those above ``last`` and below la falta (la falta if none is left)."""
    falta_word = abstract_n.size + 1
    if n == 0 or 2 * n >= falta:
        return falta_word
    best, gap = falta_word, 1e9
    for k in range(last + 1, falta_word):
        m = abstract_n[k - 1]
        if 2 * m >= falta:
            break
        d = abs(np.log(m / n))
        if d < gap:
            best, gap = k, d
    return best


@njit(cache=True)
def _deferred_blind(o):
    """N where the history is a rival's blind ``envío N pares`` that I deferred ("luego te lo digo",
    7.2) and nothing else of the pares or the flores since; 0 otherwise."""
    n = 0
    deferred = False
    for i in range(HISTORY_LEN):
        seat1 = o[HISTORY + 2 * i]
        if seat1 == 0:
            continue
        action = o[HISTORY + 2 * i + 1] - 1
        if PARES_WORDS[action]:
            if n != 0 or action == A.FALTA or seat1 == 1:  # a second word, la falta a ciegas, or mine
                return 0
            n = action - A.PARES_BASE + 1
        elif action == A.LUEGO:
            if n == 0 or deferred or seat1 != 1:
                return 0
            deferred = True
        elif FOREIGN_WORDS[action]:
            return 0
    return n if deferred else 0


@njit(cache=True)
def _row_of(o, row_of_code, player, abstract_n, max_words, me, falta):
    """(the table row of this decision, the chain's last word); row -1 where the table does not know
    the envite. ``me``: 0 mano."""
    base = abstract_n.size + 2
    code = 1
    opener = -1
    words = 0
    last = 0
    for i in range(HISTORY_LEN):
        seat1 = o[HISTORY + 2 * i]
        if seat1 == 0:
            continue
        action = o[HISTORY + 2 * i + 1] - 1
        if FOREIGN_WORDS[action]:
            return -1, 0
        if not PARES_WORDS[action]:
            continue
        if opener < 0:
            opener = seat1 - 1  # relative seat: 0 me, 1 the rival
        if last == base - 1:  # nothing is said over la falta
            return -1, 0
        w = abstract_word(0 if action == A.FALTA else action - A.PARES_BASE + 1, last, falta, abstract_n)
        words += 1
        if words > max_words + 1 or (words > max_words and w != base - 1):
            return -1, 0
        code = base * code + w
        last = w
    if words == 0:
        row = row_of_code[me, 1]
    else:
        row = row_of_code[me if opener == 0 else 1 - me, code]
    if row < 0 or player[row] != me:
        return -1, 0
    return row, last


@njit(cache=True)
def _seat_and_score(o):
    """(my seat: 0 the mano, 1 the pie; the mano's chinas; the pie's)."""
    mine, rival = np.int64(o[SCORE]), np.int64(o[SCORE + 1])
    if o[POSITION] == 1:
        return 0, mine, rival
    return 1, rival, mine


@njit(cache=True)
def _decision(o, mask, target):
    """Which of the table's decisions this observation is: ``AT_OPENING`` (I may mandar, 6.6-6.9),
    ``AT_ANSWER`` (an envite or a revoque to answer, or a blind envite I deferred), ``AT_BLIND`` (a
    blind envite to answer, 7.2), or 0 where the table's game is not played (another team size or
    target, after a blind quiero or la falta a ciegas: Arts. 7 and 12)."""
    if o[TEAM_SIZE] != 1 or o[TARGET] != target:
        return 0
    if o[PARES_BLIND_ACCEPTED] or o[FALTA_SENT_MINE] or o[FALTA_SENT_RIVAL]:
        return 0
    answer_pares = o[PHASE + PH_ANSWER] == 1 and o[EX_KIND + 1] == 1 and o[EX_MINE] == 1
    if answer_pares and o[EX_BLIND] == 1:
        return AT_BLIND
    if o[PHASE + PH_PLAY] == 1 and o[PARES_STATE] == 1 and mask[A.PARES_BASE] == 1:
        return AT_OPENING
    # a standing answer (7.4: the revoke right of a quiero a ciegas) is not the table's
    if answer_pares and o[EX_STANDING] == 1 and o[PARES_STATE + 1] == 1:
        return AT_ANSWER
    return 0


@njit(cache=True)
def table_decisions(obs, masks, actions, row_of_code, player, type_of_value, abstract_n, target, max_words, out):
    """Where a player's ``actions`` are decisions of the table's game: ``out[i]`` = (a, b, row, type,
    slot) of row i (the score as the mano's and the pie's chinas, the table's decision row, the
    player's type, the slot of the action: at an opening any action but the envite's words and the
    señas is slot 0, "paso"), ``row`` -1 where they are not (the blind envites and their deferred
    answers, a seña, the cases the table does not model). What a rival's envite is counted by
    (``train.cfr.pares_moteno``'s model of a rival)."""
    for i in range(obs.shape[0]):
        out[i, :] = -1
        o = obs[i]
        at = _decision(o, masks[i], target)
        act = actions[i]
        if (at != AT_OPENING and at != AT_ANSWER) or SENAS[act]:
            continue
        t = _my_type(o, type_of_value)
        if t < 0:
            continue
        me, a, b = _seat_and_score(o)
        if a >= target or b >= target or (at == AT_ANSWER and _deferred_blind(o) > 0):
            continue
        falta = target - max(a, b)
        row, last = _row_of(o, row_of_code, player, abstract_n, max_words, me, falta)
        if row < 0:
            continue
        if PARES_WORDS[act]:
            slot = 1 + abstract_word(0 if act == A.FALTA else act - A.PARES_BASE + 1, last, falta, abstract_n)
        elif at == AT_OPENING or act == A.QUIERO:
            slot = 0
        elif act == A.NO_QUIERO:
            slot = 1
        else:
            continue
        out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4] = a, b, row, t, slot


@njit(cache=True)
def mix_probs(obs, masks, probs, strategies, row_of_code, player, type_of_value, abstract_n, slot_action, target,
              max_words, blind_answers, used):
    """The base's ``probs`` (rows of the batch) with the table's envite in place, where it applies;
    ``used[i]`` says where it did (0, ``USED_OPENING``, ``USED_ANSWER`` or ``USED_BLIND``: a blind
    envite answered "luego te lo digo", then with the cards by ``blind_answers``)."""
    for i in range(obs.shape[0]):
        used[i] = 0
        o = obs[i]
        mask = masks[i]
        at = _decision(o, mask, target)
        if at == 0:
            continue
        p = probs[i]
        senas = 0.0
        for act in range(p.size):
            if SENAS[act]:
                senas += p[act]
        rest = 1.0 - senas
        blind_rival = o[RIVAL_LEAVES] >= BLIND_RIVAL_LEAVES
        if at == AT_BLIND:
            if mask[A.LUEGO] and not blind_rival and o[PARES_STAKE] <= BLIND_MAX_N:  # 7.2: a blind envite is answered after the deal, every answer kept
                for act in range(p.size):
                    if not SENAS[act]:
                        p[act] = 0.0
                p[A.LUEGO] = rest
                used[i] = USED_BLIND
            continue
        answering, opening = at == AT_ANSWER, at == AT_OPENING
        t = _my_type(o, type_of_value)
        if t < 0:
            continue
        me, a, b = _seat_and_score(o)
        if a >= target or b >= target:
            continue
        if answering and not blind_rival:
            n = _deferred_blind(o)
            if 0 < n <= BLIND_MAX_N:  # the blind envite deferred: quiero or no quiero, by the sender's any hand
                if not (mask[A.QUIERO] and mask[A.NO_QUIERO]):
                    continue
                accept = blind_answers[a, b, me, n - 1, t]
                for act in range(p.size):
                    if not SENAS[act]:
                        p[act] = 0.0
                p[A.QUIERO] = rest * accept
                p[A.NO_QUIERO] = rest * (1.0 - accept)
                used[i] = USED_BLIND
                continue
        row, _ = _row_of(o, row_of_code, player, abstract_n, max_words, me, target - max(a, b))
        if row < 0:
            continue
        strat = strategies[a, b, row]
        ok = True
        for slot in range(slot_action.size):
            if strat[slot, t] > 0.0 and not (opening and slot == 0) and not mask[slot_action[slot]]:
                ok = False  # the table's legality should be the engine's: never guess
        if not ok:
            continue
        if opening:
            if not share_the_rest(p, mask, PARES_WORDS, SENAS, rest * strat[0, t]):
                continue
            for slot in range(2, slot_action.size):
                p[slot_action[slot]] = rest * strat[slot, t]
            used[i] = USED_OPENING
        else:
            for act in range(p.size):
                if not SENAS[act]:
                    p[act] = 0.0
            for slot in range(slot_action.size):
                p[slot_action[slot]] = rest * strat[slot, t]
            used[i] = USED_ANSWER


class ParesTablePolicy:
    """``base`` (a Moteño policy with ``action_probs``) with the envite de pares played from ``table``
    mano a mano; the base plays everything else, and every decision at other team sizes."""

    tradition = "moteno"

    def __init__(self, base, table=SHIPPED_TABLE, seed: int = 0, name: str | None = None):
        if not hasattr(base, "action_probs"):
            raise ValueError(f"the pares table needs a base policy with action_probs, got {type(base).__name__}")
        self.base = base
        self.table = table if isinstance(table, ParesTable) else ParesTable(table)
        self.name = name or f"{getattr(base, 'name', 'base')}+pares"
        if hasattr(base, "team_sizes"):
            self.team_sizes = base.team_sizes
        self.rng = np.random.default_rng(seed)
        self.used = 0  # decisions the table took (counted, for the studies)

    def action_probs(self, observations, action_masks) -> np.ndarray:
        obs = np.ascontiguousarray(observations, dtype=np.int8)
        masks = np.ascontiguousarray(action_masks, dtype=np.uint8)
        probs = np.array(self.base.action_probs(obs, masks), dtype=np.float64)
        used = self.table.mix(obs, masks, probs)
        self.used += int((used > 0).sum())
        return probs

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        return act_from_probs(self, observations, action_masks, keys)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])
