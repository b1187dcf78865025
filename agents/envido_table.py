"""A bot that plays the envido from a solved table and everything else as its base policy.

The table is the envido of truco argentino mano a mano solved at every score by CFR+
(``train.cfr.envido_argentino``, which writes it; this module only reads it). The base is any
policy with ``action_probs`` (the PPO bots). At a decision of the envido the table's mixed
strategy for the bot's envido value replaces the base's:

* **answering** an envido chain (quiero, no quiero, or a raise): the table's answer; answering an
  envido said with the truco (A34), the table answers the envido and the base's own chance of
  accepting the truco answers the truco (quiero, the two "sin ley" answers, no quiero; a raise of
  the envido comes with "y quiero retruco", or is "sin ley quiero y paso" when the truco is refused);
* **opening** (the bot may say envido, real envido or falta envido: at its turn in the first baza
  before its card, or as its answer to a truco, A22): the table's chance of each opening word; the
  rest of the table's mass ("paso") goes to the base's other actions in the base's proportions
  (it plays a card, says truco, accepts a truco ...). The envido said together with the truco
  (A34) is left out: the table says when to open and with what.

* **answering todo dicho** (A33), when the table has those answers (``todo_dicho``, written by
  ``--todo-dicho``): the falta accepted with the table's chance for the bot's seat and envido, the
  truco with the base's own chance of accepting it.

Señas keep the base's probability (they do not pass the turn: the envido decision is taken at the
bot's next word, once). A table plays at its own team size (``team_size`` in the file, 1 if absent):
at 2 or 3 contra it is the team abstraction of ``train.cfr.envido_teams``, whose mano is the mano's
team and whose pie is the other. The table is not used (the base plays as it is) at another team
size, at another target than the table's, after todo dicho (but for its answer, above) or a flor,
after the first answer to an envido said with the truco, and in a chain longer than the table's
(``max_raises``).

``EnvidoTablePolicy`` may hold a second table, for a blind rival (``blind_table``: solved against
random, ``--rival random --blind-share``). It plays instead of the first against a rival the juego's
record shows leaving manos (al mazo) ``blind_leaves`` times, 2 by default: a rival who gave that
sign once on purpose could use the second table (docs/league_argentino.md). With ``blind_first_manos`` k it
also plays in the juego's first k manos, before the record can show the sign: a prior that the
rival may be blind, which the manos without a leave then overrule. ``prior_table`` plays those
first manos instead, if given: a table solved for a rival blind with some chance and rational
otherwise (``--mixture-of``). The table is built for the engine's
default options (flor played, the falta worth what the leader lacks); the file records them.

The file (``np.load`` of plain arrays, no pickles; ``TABLE_FORMAT`` and ``TABLE_VERSION``):
``strategies[a, b, row, slot, type]`` the probability of slot (0 quiero or paso, 1 no quiero,
2 envido, 3 real envido, 4 falta envido) at decision row ``row`` for an envido value of type
``type`` (``envido_values[type]``), with the mano at ``a`` tantos and the pie at ``b``;
``row_of_code[opener, code]`` the row answering a chain said from ``opener`` (0 the mano, 1 the
pie), the chain coded ``code = 1`` then ``4 * code + w`` per word (w 1 envido, 2 real envido, 3 falta
envido; code 1 is that side's opening); ``player[row]`` who chooses there (0 mano, 1 pie);
``target``, ``flor``, ``falta_match``, ``max_raises``, ``team_size``; ``V[a, b]`` the mano's chance of the juego and
``Q`` the points of the rest of a mano the solve assumed. Optional: ``todo_dicho[a, b, seat, type]``
the chance of accepting the falta of todo dicho (seat 0 the mano); ``rival`` the rival the table was
solved against ("" for self-play), with ``Q`` then two distributions (the bot mano, the rival mano)
and ``V_pie`` the bot's chance as pie. A table for a rival of two kinds (``--mixture-of``) names both
in ``rival`` and keeps the blind table's ``Q``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from truque_env.cards import CARD_SUIT
from truque_env.engine.header import REC_KINDS
from truque_env.io import read_npz
from truque_env.policy import key_uniforms
from truque_env.traditions import is_int, is_number
from truque_env.traditions.action_kinds import LEAVE
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import observation as O
from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE, envido_value_nb

TABLE_FORMAT = "truque_env.envido_table"
TABLE_VERSION = 1
SHIPPED_TABLE = Path(__file__).resolve().parent / "checkpoints" / "envido_argentino_1v1.npz"

PHASE = O.SLICES["phase"][0]  # blind, play, answer, done
POSITION = O.SLICES["position"][0]
TEAM_SIZE = O.SLICES["team_size"][0]
SCORE = O.SLICES["score"][0]
HISTORY = O.SLICES["history"][0]
HISTORY_LEN = O.HISTORY_IN_OBS
TARGET = O.PARTS["target_falta.target"][0]
ENV_STATE = O.PARTS["envido.state"][0]  # none, open, accepted, refused, void
EX_KIND = O.PARTS["exchange.kind"][0]  # none, envido, truco, double, flor, uno y uno
EX_MINE = O.PARTS["exchange.answering_mine"][0]
# the actions of the slots (0 quiero / paso, 1 no quiero, 2 envido, 3 real envido, 4 falta envido)
SLOT_ACTION = np.array([A.QUIERO, A.NO_QUIERO, A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO], dtype=np.int64)
# words after which the table does not know the envido: todo dicho, the flor's, the double calls
FOREIGN_WORDS = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
FOREIGN_WORDS[[A.TODO_DICHO, A.FLOR, A.ME_ACHICO, A.CON_FLOR_QUIERO, A.CON_FLOR_NO_QUIERO, A.CONTRAFLOR,
               A.AL_RESTO]] = True
FOREIGN_WORDS[A.SIN_LEY_QUIERO_Y_PASO : A.TRUCO] = True  # answers to a double: the table answers only the first
OPENINGS = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)  # the envido said at a turn, alone or with the truco
OPENINGS[A.ENVIDO : A.FALTA_ENVIDO + 1] = True
OPENINGS[A.ENVIDO_Y_TRUCO : A.ENVIDO_Y_TRUCO + 3] = True
SENA_BASE, NUM_SENAS = A.SENA_BASE, A.NUM_SENAS
SENAS = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)  # the señas: they keep the base's probability
SENAS[SENA_BASE : SENA_BASE + NUM_SENAS] = True
USED_OPENING, USED_ANSWER = 1, 2  # how mix_probs used the table at a row (0: not at all)
# the juego's public record in the observation (truque_env.engine.record): manos finished, then my
# count of each of the first REC_KINDS action kinds, then the rival's; a rival who leaves manos
# (al mazo) shows blind play
RECORD_MANOS = O.SLICES["juego_record"][0]
MY_LEAVES = RECORD_MANOS + 1 + LEAVE
RIVAL_LEAVES = RECORD_MANOS + 1 + REC_KINDS + LEAVE


def read_table(path: Path, what: str, article: str, table_format: str, version: int, made_by: str) -> dict:
    """The arrays of a solved table's file (``what``: "envido table", "pares table"), its format and
    version checked; a missing or foreign file is a ValueError naming it. Shared with
    ``agents.pares_table``."""
    if not path.exists():
        raise ValueError(f"no {what} at {str(path)!r}")
    z = read_npz(path, what)
    if str(z.get("format", "")) != table_format or int(z.get("version", -1)) != version:
        raise ValueError(f"{path}: not {article} {what} of version {version} ({made_by})")
    return z


def table_strategies(z: dict) -> np.ndarray:
    """A table's ``strategies`` [.., slot, type] (stored as float16) with each row summed to 1 again,
    as float32 (rows of zeros stay zero)."""
    s = np.asarray(z["strategies"], dtype=np.float64)
    total = s.sum(axis=3, keepdims=True)
    return np.ascontiguousarray(np.where(total > 0, s / np.where(total > 0, total, 1), 0), dtype=np.float32)


class EnvidoTable:
    """The arrays of a table file, checked."""

    def __init__(self, path=SHIPPED_TABLE):
        self.path = Path(path)
        z = read_table(self.path, "envido table", "an", TABLE_FORMAT, TABLE_VERSION, "train.cfr.envido_argentino")
        self.target = int(z["target"])
        self.flor, self.falta_match = bool(z["flor"]), bool(z["falta_match"])
        self.max_raises = int(z["max_raises"])
        self.team_size = int(z["team_size"]) if "team_size" in z else 1  # tables before teams: mano a mano
        if self.team_size not in (1, 2, 3):
            raise ValueError(f"{self.path}: a table for {self.team_size} contra {self.team_size}: sizes are 1, 2 and 3")
        self.strategies = table_strategies(z)
        self.row_of_code = np.ascontiguousarray(z["row_of_code"], dtype=np.int64)
        self.player = np.ascontiguousarray(z["player"], dtype=np.int64)
        self.envido_values = np.ascontiguousarray(z["envido_values"], dtype=np.int64)
        self.V, self.Q = z["V"], z["Q"]
        self.V_pie = z["V_pie"] if "V_pie" in z else None  # a table against a rival: the bot's chance as pie
        # the answers to "falta envido y truco, todo dicho" (A33); tables written before them have none
        self.has_todo_dicho = "todo_dicho" in z
        td = np.asarray(z["todo_dicho"], dtype=np.float32) if self.has_todo_dicho else np.zeros((1, 1, 2, 1), np.float32)
        self.todo_dicho = np.ascontiguousarray(td)
        self.rival = str(z["rival"]) if "rival" in z else ""
        t, rows = self.target, self.player.size
        if self.has_todo_dicho and self.todo_dicho.shape != (t, t, 2, self.envido_values.size):
            raise ValueError(f"{self.path}: the table's arrays do not fit together")
        if (self.strategies.shape != (t, t, rows, SLOT_ACTION.size, self.envido_values.size)
                or self.row_of_code.shape != (2, 4 ** (self.max_raises + 2)) or self.row_of_code.max() >= rows):
            raise ValueError(f"{self.path}: the table's arrays do not fit together")
        self.type_of_value = np.full(41, -1, dtype=np.int64)
        self.type_of_value[self.envido_values] = np.arange(self.envido_values.size)

    def mix(self, obs: np.ndarray, masks: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """``probs`` (float64, rows of the batch: a base's action probabilities) with the table's
        envido in place, in place; returns per row how it was used (``mix_probs``: 0, ``USED_OPENING``
        or ``USED_ANSWER``). ``obs`` int8 and ``masks`` uint8, C-contiguous."""
        used = np.zeros(obs.shape[0], dtype=np.int64)
        mix_probs(obs, masks, probs, self.strategies, self.row_of_code, self.player, self.type_of_value, self.target,
                  self.max_raises, CARD_SUIT, ENVIDO_CARD_VALUE, self.todo_dicho, self.has_todo_dicho, self.team_size,
                  used)
        return used


@njit(cache=True)
def _my_envido(o, suit, value):
    cards = np.empty(3, dtype=np.int64)
    if O.my_cards(o, cards) != 3:
        return -1
    return envido_value_nb(cards[0], cards[1], cards[2], suit, value)


@njit(cache=True)
def _chain(o, max_words):
    """The envido words of the mano so far from the history: (code, opener's relative seat, words,
    whether the first came with the truco, A34), or code -1 when the table does not know this
    envido (a foreign word, too long a chain)."""
    code = 1
    opener = -1
    words = 0
    double = False
    for i in range(HISTORY_LEN):
        seat1 = o[HISTORY + 2 * i]
        if seat1 == 0:
            continue
        action = o[HISTORY + 2 * i + 1] - 1
        if FOREIGN_WORDS[action]:
            return -1, -1, 0, False
        word = -1
        if A.ENVIDO <= action <= A.FALTA_ENVIDO:
            word = action - A.ENVIDO
        elif A.ENVIDO_Y_TRUCO <= action < A.ENVIDO_Y_TRUCO + 3:
            word = action - A.ENVIDO_Y_TRUCO
            double = True
        if word >= 0:
            if opener < 0:
                opener = seat1 - 1
            words += 1
            if words > max_words:
                return -1, -1, 0, False
            code = 4 * code + word + 1
    return code, opener, words, double


@njit(cache=True)
def _my_team_is_mano(o):
    """Whether the mano is of my team: my offset from the mano (the one-hot position) is even."""
    for offset in range(0, 8, 2):
        if o[POSITION + offset] == 1:
            return True
    return False


@njit(cache=True)
def _row_of(o, row_of_code, player, max_raises):
    """The table row of this decision and whether it is an opening; row -1 where the table is not used.
    In teams the table's mano is the mano's team and its pie the other (train.cfr.envido_teams)."""
    me = 0 if _my_team_is_mano(o) else 1
    code, opener, words, double = _chain(o, max_raises + 1)
    if code < 0:
        return -1, False
    if words == 0:
        if o[ENV_STATE] != 1:  # no envido yet
            return -1, False
        row = row_of_code[me, 1]
        opening = True
    else:
        kind = EX_KIND + (3 if double else 1)  # answering the envido, or the double call that opened it
        if not (o[PHASE + 2] == 1 and o[kind] == 1 and o[EX_MINE] == 1 and (words == 1 or not double)):
            return -1, False
        opener_role = me if opener % 2 == 0 else 1 - me  # relative seats of my team are even
        row = row_of_code[opener_role, code]
        opening = False
    if row < 0 or player[row] != me:
        return -1, False
    return row, opening


@njit(cache=True)
def _todo_dicho_unanswered(o):
    """Whether the rival's "falta envido y truco, todo dicho" (A33) waits for this player's answer."""
    said = -1
    for i in range(HISTORY_LEN):
        seat1 = o[HISTORY + 2 * i]
        if seat1 == 0:
            continue
        action = o[HISTORY + 2 * i + 1] - 1
        if action == A.TODO_DICHO:
            said = i
        elif said >= 0 and not SENAS[action]:
            return False
    return said >= 0


@njit(cache=True)
def _rest_after_senas(p):
    """The probability left to the table's words: all but the señas' (they keep the base's)."""
    senas = 0.0
    for k in range(NUM_SENAS):
        senas += p[SENA_BASE + k]
    return 1.0 - senas


@njit(cache=True)
def _clear_words(p):
    """Every action but the señas to 0, for the table to fill in."""
    for act in range(p.size):
        if not SENAS[act]:
            p[act] = 0.0


@njit(cache=True)
def _answer_todo_dicho(p, mask, accept):
    """The answer to todo dicho: the falta accepted with chance ``accept`` (the table's), the truco
    with the base's own chance (its quiero and "sin ley paso y quiero" against the four answers)."""
    for act in (A.QUIERO, A.NO_QUIERO, A.SIN_LEY_QUIERO_Y_PASO, A.SIN_LEY_PASO_Y_QUIERO):
        if not mask[act]:
            return False
    rest = _rest_after_senas(p)
    yes = p[A.QUIERO] + p[A.SIN_LEY_PASO_Y_QUIERO]
    no = p[A.NO_QUIERO] + p[A.SIN_LEY_QUIERO_Y_PASO]
    acc = yes / (yes + no) if yes + no > 0.0 else 0.5
    _clear_words(p)
    p[A.QUIERO] = rest * accept * acc
    p[A.SIN_LEY_QUIERO_Y_PASO] = rest * accept * (1.0 - acc)
    p[A.SIN_LEY_PASO_Y_QUIERO] = rest * (1.0 - accept) * acc
    p[A.NO_QUIERO] = rest * (1.0 - accept) * (1.0 - acc)
    return True


@njit(cache=True)
def share_the_rest(p, mask, words, senas, mass):
    """An opening from a table: the table's words (``words``) to 0 and ``mass`` (the table's chance of
    not opening) spread over the base's other legal actions in the base's proportions (alike if the
    base gave them none); the señas (``senas``) keep theirs. False, and ``p`` untouched, when the base
    has no other legal action."""
    others = 0.0
    count = 0
    for act in range(p.size):
        if mask[act] and not words[act] and not senas[act]:
            others += p[act]
            count += 1
    if count == 0:
        return False
    for act in range(p.size):
        if senas[act]:
            continue
        if words[act]:
            p[act] = 0.0
        elif mask[act]:
            p[act] = mass * (p[act] / others if others > 0.0 else 1.0 / count)
    return True


@njit(cache=True)
def mix_probs(obs, masks, probs, strategies, row_of_code, player, type_of_value, target, max_raises, suit, value,
              todo_dicho, has_todo_dicho, team_size, used):
    """The base's ``probs`` (rows of the batch) with the table's envido in place, where it applies;
    ``used[i]`` says where it did: 0 not used, ``USED_OPENING`` (the table says whether to open and
    with what, the base's other actions share the rest), ``USED_ANSWER`` (the table answers; after
    an envido said with the truco, the base's chance of accepting the truco answers the truco)."""
    n = obs.shape[0]
    for i in range(n):
        used[i] = 0
        o = obs[i]
        if o[TEAM_SIZE + team_size - 1] != 1 or o[TARGET] != target:  # team_size: one-hot 1..3
            continue
        mask = masks[i]
        if mask[A.FLOR]:  # a flor to sing comes first (A8) and cancels the envido (A9)
            continue
        if has_todo_dicho and mask[A.SIN_LEY_PASO_Y_QUIERO] and _todo_dicho_unanswered(o):
            t = type_of_value[_my_envido(o, suit, value)]
            mano = _my_team_is_mano(o)
            mine, rival = o[SCORE], o[SCORE + 1]
            a, b = (mine, rival) if mano else (rival, mine)
            if t >= 0 and a < target and b < target:
                if _answer_todo_dicho(probs[i], mask, todo_dicho[a, b, 0 if mano else 1, t]):
                    used[i] = USED_ANSWER
            continue
        may_open = False
        for k in range(3):
            if mask[A.ENVIDO + k]:
                may_open = True
        double = o[PHASE + 2] == 1 and o[EX_KIND + 3] == 1
        answering = (o[PHASE + 2] == 1 and o[EX_KIND + 1] == 1) or double
        if not (may_open or answering):
            continue
        row, opening = _row_of(o, row_of_code, player, max_raises)
        if row < 0 or (opening and not may_open):
            continue
        t = type_of_value[_my_envido(o, suit, value)]
        if t < 0:
            continue
        mine, rival = o[SCORE], o[SCORE + 1]
        a, b = (mine, rival) if _my_team_is_mano(o) else (rival, mine)
        if a >= target or b >= target:
            continue
        strat = strategies[a, b, row]
        ok = True
        for slot in range(5):
            act = SLOT_ACTION[slot] if not (double and slot >= 2) else A.Y_QUIERO_RETRUCO + slot - 2
            if strat[slot, t] > 0.0 and not (opening and slot == 0) and not mask[act]:
                ok = False  # the table's legality should be the engine's: never guess
        if not ok:
            continue
        p = probs[i]
        rest = _rest_after_senas(p)
        if opening:
            if not share_the_rest(p, mask, OPENINGS, SENAS, rest * strat[0, t]):
                continue
            for slot in range(2, 5):
                p[SLOT_ACTION[slot]] = rest * strat[slot, t]
        elif double:
            # A34: the table answers the envido; the truco is accepted with the base's own chance
            yes = p[A.QUIERO] + p[A.SIN_LEY_PASO_Y_QUIERO]
            for k in range(3):
                yes += p[A.Y_QUIERO_RETRUCO + k]
            no = p[A.NO_QUIERO] + p[A.SIN_LEY_QUIERO_Y_PASO]
            acc = yes / (yes + no) if yes + no > 0.0 else 0.5
            _clear_words(p)
            raise_ = strat[2, t] + strat[3, t] + strat[4, t]
            p[A.QUIERO] = rest * strat[0, t] * acc
            # a raise comes with the truco accepted (y quiero retruco): refusing the truco, quiero the envido
            p[A.SIN_LEY_QUIERO_Y_PASO] = rest * (strat[0, t] + raise_) * (1.0 - acc)
            p[A.SIN_LEY_PASO_Y_QUIERO] = rest * strat[1, t] * acc
            p[A.NO_QUIERO] = rest * strat[1, t] * (1.0 - acc)
            for k in range(3):
                p[A.Y_QUIERO_RETRUCO + k] = rest * strat[2 + k, t] * acc
        else:
            _clear_words(p)
            for slot in range(5):
                p[SLOT_ACTION[slot]] = rest * strat[slot, t]
        used[i] = USED_OPENING if opening else USED_ANSWER


@njit(cache=True)
def sample_probs(probs, masks, u, out):
    """``out[i]``: the action of row i by inverse CDF over the legal actions' ``probs`` at ``u[i]``."""
    for i in range(probs.shape[0]):
        total = 0.0
        for a in range(probs.shape[1]):
            if masks[i, a]:
                total += probs[i, a]
        x = u[i] * total
        acc = 0.0
        last = -1
        for a in range(probs.shape[1]):
            if masks[i, a] and probs[i, a] > 0.0:
                acc += probs[i, a]
                last = a
                if x < acc:
                    break
        if last < 0:  # no mass on a legal action (cannot come from mix_probs): the first legal one
            for a in range(probs.shape[1]):
                if masks[i, a]:
                    last = a
                    break
        out[i] = last


def act_from_probs(policy, observations, action_masks, keys=None) -> np.ndarray:
    """The actions of a table policy (``policy.action_probs``, the base's with the table's in place),
    drawn by inverse CDF with the decision keys, or ``policy.rng`` without them."""
    masks = np.ascontiguousarray(action_masks, dtype=np.uint8)
    if masks.ndim != 2 or not (masks > 0).any(axis=1).all():
        raise ValueError("a row of the masks has no legal action")
    probs = policy.action_probs(observations, masks)
    u = policy.rng.random(masks.shape[0]) if keys is None else key_uniforms(keys)
    out = np.empty(masks.shape[0], dtype=np.int64)
    sample_probs(probs, masks, u, out)
    return out


_KEEP = object()  # set_blind_play: a setting not given


def _tables_by_size(given, what: str) -> dict[int, EnvidoTable]:
    """One table (a table or its path) or several, one per team size (a tuple or list), by team size."""
    if given is None:
        return {}
    out: dict[int, EnvidoTable] = {}
    for t in given if isinstance(given, (tuple, list)) else (given,):
        t = t if isinstance(t, EnvidoTable) else EnvidoTable(t)
        if t.team_size in out:
            raise ValueError(f"two {what}s for {t.team_size} contra {t.team_size}: {out[t.team_size].path} and {t.path}")
        out[t.team_size] = t
    return out


def _first(tables: dict[int, EnvidoTable]) -> EnvidoTable | None:
    return tables[min(tables)] if tables else None


class EnvidoTablePolicy:
    """``base`` (a policy with ``action_probs``) with the envido played from ``table``, and from
    ``blind_table`` against a rival who left ``blind_leaves`` manos of the juego (and at least
    ``blind_leave_rate`` of the manos finished), and in the juego's first ``blind_first_manos`` manos
    whoever the rival (``prior_table`` there instead, if given). Each may be one table or one per
    team size (a tuple): each plays at its own size (``EnvidoTable.team_size``). A size without a
    blind or prior table plays its table there, and a size without a table (a blind table alone,
    say) leaves the base those rows."""

    tradition = "argentino"

    def __init__(self, base, table=SHIPPED_TABLE, seed: int = 0, name: str | None = None,
                 blind_table=None, blind_leaves: int | dict[int, int] = 2, blind_leave_rate: float = 0.0, blind_first_manos: int = 0,
                 prior_table=None):
        if not hasattr(base, "action_probs"):
            raise ValueError(f"the envido table needs a base policy with action_probs, got {type(base).__name__}")
        self.base = base
        self.tables = _tables_by_size(table, "table")
        if not self.tables:
            raise ValueError("the envido table policy needs a table")
        # against a rival who has left manos this juego (blind play, as random's): these tables instead
        self.blind_tables = _tables_by_size(blind_table, "blind table")
        self.target = self.table.target
        for t in self.tables.values():
            if t.target != self.target:
                raise ValueError(f"{t.path}: a table for target {t.target}, and another for {self.target}")
        for t in self.blind_tables.values():
            if t.target != self.target:
                raise ValueError("the blind rival's table and the table are for different targets")
        self.blind_leaves, self.blind_leave_rate, self.blind_first_manos, self.prior_tables = 2, 0.0, 0, {}
        self.set_blind_play(blind_leaves=blind_leaves, blind_leave_rate=blind_leave_rate,
                            blind_first_manos=blind_first_manos, prior_table=prior_table)
        self.name = name or f"{getattr(base, 'name', 'base')}+envido"
        if hasattr(base, "team_sizes"):
            self.team_sizes = base.team_sizes
        self.rng = np.random.default_rng(seed)
        self.used = 0  # decisions the table took (counted, for the studies)

    # the smallest team size's tables (mano a mano's, where there is one): what the 1v1 studies vary
    @property
    def table(self) -> EnvidoTable:
        return _first(self.tables)

    @property
    def blind_table(self) -> EnvidoTable | None:
        return _first(self.blind_tables)

    @property
    def prior_table(self) -> EnvidoTable | None:
        return _first(self.prior_tables)

    def set_blind_play(self, *, blind_leaves=_KEEP, blind_leave_rate=_KEEP, blind_first_manos=_KEEP,
                       prior_table=_KEEP) -> None:
        """Change when the blind and prior tables play (the settings not given stay; ``prior_table``
        replaces every size's), checked as a whole before any is set: the constructor and the
        studies that vary them use this one check."""
        leaves = self.blind_leaves if blind_leaves is _KEEP else blind_leaves
        rate = self.blind_leave_rate if blind_leave_rate is _KEEP else blind_leave_rate
        first = self.blind_first_manos if blind_first_manos is _KEEP else blind_first_manos
        priors = self.prior_tables if prior_table is _KEEP else _tables_by_size(prior_table, "prior table")
        # the sign: the rival left at least blind_leaves manos, and at least blind_leave_rate of those finished.
        # Two leaves, not one: a rival who left once on purpose to meet the blind table won 78% of juegos
        # against it (72% without the trick); leaving twice gained him nothing (docs/league_argentino.md). One
        # number for every team size, or one per size ({1: 2, 2: 3}: a player leaves alone in a team, A30)
        per_size = leaves if isinstance(leaves, dict) else dict.fromkeys((1, 2, 3), leaves)
        if not per_size or any(k not in (1, 2, 3) or not is_int(v) or v < 1 for k, v in per_size.items()) \
                or not is_number(rate) or not 0.0 <= rate <= 1.0:
            raise ValueError(f"blind_leaves must be an integer >= 1 (or one per team size 1-3) and blind_leave_rate "
                             f"in [0, 1], got {leaves!r} and {rate!r}")
        if missing := sorted(set(self.blind_tables) - set(per_size)):
            raise ValueError(f"blind_leaves gives no number for {missing[0]} contra {missing[0]}, which has a blind table")
        # the prior: before the record can show the sign, the rival may be blind. Random shows it late
        # (two leaves by the fifth mano in most juegos) and takes most of its points in the first manos
        if not is_int(first) or first < 0:
            raise ValueError(f"blind_first_manos must be an integer >= 0, got {first!r}")
        if first and not self.blind_tables:
            raise ValueError("blind_first_manos needs a blind_table")
        if priors and not first:
            raise ValueError("a prior_table plays the juego's first blind_first_manos manos: give them (k >= 1)")
        for prior in priors.values():
            if prior.target != self.target:
                raise ValueError(f"{prior.path}: a prior table for target {prior.target}, the bot plays to "
                                 f"{self.target}")
        self.blind_leaves = {k: int(v) for k, v in per_size.items()} if isinstance(leaves, dict) else int(leaves)
        self.blind_leave_rate = float(rate)
        self.blind_first_manos, self.prior_tables = int(first), priors

    def action_probs(self, observations, action_masks) -> np.ndarray:
        obs = np.ascontiguousarray(observations, dtype=np.int8)
        masks = np.ascontiguousarray(action_masks, dtype=np.uint8)
        probs = np.array(self.base.action_probs(obs, masks), dtype=np.float64)
        used = self.mix(obs, masks, probs)
        self.used += int((used > 0).sum())
        return probs

    def mix(self, obs: np.ndarray, masks: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """``EnvidoTable.mix`` with the table for this row's team size and rival: the blind table where
        he showed the sign, the prior table (or the blind one) in the juego's first manos, else the
        table. Each table leaves the rows of other team sizes alone."""
        used = np.zeros(obs.shape[0], dtype=np.int64)
        leaves = obs[:, RIVAL_LEAVES].astype(np.int64)
        for size in sorted({*self.tables, *self.blind_tables, *self.prior_tables}):
            need = self.blind_leaves if isinstance(self.blind_leaves, int) else self.blind_leaves.get(size, 0)
            # a size without a blind table may be left out of blind_leaves: it shows no sign (need 0 would be any row)
            sign = (leaves >= need) & (leaves >= self.blind_leave_rate * obs[:, RECORD_MANOS]) & (need > 0)
            early = ~sign & (obs[:, RECORD_MANOS] < self.blind_first_manos)
            table, blind = self.tables.get(size), self.blind_tables.get(size)
            prior = self.prior_tables.get(size, blind)
            plain = np.ones(obs.shape[0], dtype=np.bool_)
            routes = [(plain, table)]  # no table at this size: the base plays those rows
            if blind is not None:
                plain &= ~sign
                routes.append((sign, blind))
            if prior is not None:
                plain &= ~early
                routes.append((early, prior))
            if len(routes) == 1:
                used = np.maximum(used, table.mix(obs, masks, probs))
                continue
            for which, t in routes:
                rows = np.flatnonzero(which)
                if rows.size and t is not None:
                    part = np.ascontiguousarray(probs[rows])
                    used[rows] = np.maximum(used[rows], t.mix(np.ascontiguousarray(obs[rows]),
                                                              np.ascontiguousarray(masks[rows]), part))
                    probs[rows] = part
        return used

    def act_batch(self, observations, action_masks, keys=None) -> np.ndarray:
        return act_from_probs(self, observations, action_masks, keys)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])
