"""The envite de pares of Truque Moteño, solved as a small game at every score (mano a mano).

Every exploiter trained against a shipped Moteño bot since the fifth league won on the pares
(docs/league_moteno.md): the last one sent an envite with 91% of its weak hands and the bot refused 82%
of them, and 62% even holding 30-34. The envite is a game of its own inside the mano, small
enough to solve exactly, as the envido of truco argentino is (``train.cfr.envido_argentino``, whose
value of points this module shares): it is written as a
:class:`train.cfr.public_tree.PublicTreeGame` for each score of the juego, solved with CFR+, and the
strategies are written as a table a bot plays from (``agents.pares_table``).

**The game at score (a, b)** (a: the mano's chinas, b: the pie's, both below the target T and
neither al cantar, where there is no envite: Art. 8.1):

* *types*: each player's valor de pares (Art. 5), one of 0-7 and 20-38 (27 types); their joint
  probability is counted over every pair of disjoint hands of the 40 cards, without the hands
  that hold a flor (a flor sung annuls the pares, 10.5, and its holder sings it: the table's bot
  leaves a hand with flor to its base);
* *the betting* (Arts. 6.1-6.19): the mano may mandar at his first turn (6.6, 6.9) or pass (he
  plays his card or says truco); then the pie may mandar at his, or pass and there are no pares
  (6.7). An envite is answered quiero, no quiero, or by a revoque to a larger stake (6.3, 6.4);
  la falta (6.16) ends the raising. The stakes are a **bet abstraction**: ``envío N pares`` for
  N in ``ABSTRACT_N`` (the catalogue has every N up to 15) and la falta; a chain holds at most
  ``max_words`` of them, then only la falta;
* *the payoffs*: accepted, the higher pares win the stake (ties to the mano, 6.22), capped at la
  falta (6.17; the falta is what the leader lacks, ruling 1); refused, the sender of a first
  envite takes one china (6.18) and of a revoque the stake before it (6.19), capped at la falta.
  A stake of 2N chinas at or above la falta *is* la falta, so at each score only the smaller N are
  in the game. A side that reaches the target with the pares wins at once (ruling 1, E9);
* *the value of points*: as for the envido (``envido_payoffs``): a payoff is the mano's chance of
  winning the juego afterwards, the rest of the mano (flores, truque) adding points by a
  distribution ``Q`` measured in a bot's self-play, the next mano with the roles swapped; the
  juego is solved backwards from the scores nearest the target. Al cantar (T - 1) has no envite:
  its value is the rest of the mano by ``Q`` (the cante's china is not modelled there).

**A blind envite** (Art. 7: ``envío N pares`` said before the deal) is not this game: its sender
chose blind, so his pares are any hand's, and the answer with the cards seen is a plain decision
(``blind_answers``: quiero or no quiero by the bot's pares, seat and score). The bot answers a
blind envite "luego te lo digo" (7.2), keeping every answer for after the deal.

**Against a rival's model** (``--rival``): a bot's envite is counted from its play against
``points_of`` (``count_rival_pares``: at each of the table's decision rows, by his type, pooled over
the scores), and each score is solved as the restricted Nash response to that model (Johanson,
Zinkevich and Bowling 2007; ``train.cfr.public_tree.restricted_nash_response``): the rival plays his
model with chance ``rival_share`` and freely otherwise, so the table exploits the model as far as a
free rival's best answer allows. Where a type was seen fewer than ``rival_min_count`` times the
rival is free (the data-biased response's caution, Johanson and Bowling 2009, as a threshold). The
points of the rest of the mano are measured in the same match, by who is mano; the summary says how
much of the rival's play the model covers and the bot's chance in the first mano against the model
and against a best answer.

**What it does not model** (the table's bot leaves these to its base policy; docs/league_moteno.md and
docs/rules/moteno.md): its own blind bets, a revoque of a blind envite, la falta a ciegas (Art. 12), the flores,
2 or 3 contra (the pares of partners), stakes between the abstraction's (a rival's ``envío N
pares`` is read as the nearest of ``ABSTRACT_N`` on a log scale above the chain's last word), the
information in the mano's first card when the pie mandas, and the truque's dependence on what the
pares showed.

Slots: 0 quiero (at an opening: paso), 1 no quiero, then one per word: ``envío N pares`` for each
N of ``ABSTRACT_N`` and la falta (``SLOT_FALTA``). A chain of words is coded ``code = 1``, then
``code = NUM_WORDS1 * code + w`` per word (w = slot - 1: 1.. the amounts, then la falta);
``node_of_code[opener, code]`` is the decision node answering that chain (``code = 1``: the opening
of that side; opener 0 the mano).

    python -m train.cfr.pares_moteno --points-of ppo_network --out agents/checkpoints/pares_moteno_1v1.npz
    python -m train.cfr.pares_moteno --rival heuristic_bluffer --rival-share 0.5 --out <table> --summary <json>
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from train import config
from train.cfr.envido_argentino import (
    _keep_bot_rows,
    _node_rows,
    _points_summary,
    envido_payoffs,
    measure_mano_points,
)
from train.cfr.public_tree import (
    PublicTreeGame,
    PublicTreeSolver,
    best_response_value,
    exploitability,
    profile_value,
    restricted_nash_response,
)
from truque_env.io import check_new_output, write_json_atomic, write_npz_atomic
from truque_env.traditions.moteno.rules import flor_value_nb, is_reservada_nb, pares_value_nb

TABLE_FORMAT = "truque_env.pares_table"
TABLE_VERSION = 2  # 2: with the answers to a blind envite
PARES_VALUES = np.array([*range(8), *range(20, 39)], dtype=np.int64)  # the 27 types (no flor)
NUM_TYPES = PARES_VALUES.size
MAX_PARES_VALUE = 61  # two piezas (a reservada: a flor) make the largest
TYPE_OF_VALUE = np.full(MAX_PARES_VALUE + 1, -1, dtype=np.int64)
TYPE_OF_VALUE[PARES_VALUES] = np.arange(NUM_TYPES)
# the stakes of the abstraction in pares (2N chinas): the bots send 1, 2, 3 and 6 most, and la falta
ABSTRACT_N = np.array([1, 2, 3, 4, 6, 9, 12], dtype=np.int64)
QUIERO, NO_QUIERO = 0, 1
PASO = QUIERO  # the slot of not mandar
SLOT_FALTA = 2 + ABSTRACT_N.size
NUM_SLOTS = SLOT_FALTA + 1
NUM_WORDS1 = NUM_SLOTS - 1  # the base of the chain's code: word ids 1..NUM_SLOTS - 2
FALTA = -1  # the stake of a chain ended by la falta
K_OPEN, K_ANSWER, K_NONE, K_SHOWDOWN, K_REFUSED = range(5)


# -- the deal -----------------------------------------------------------------------------------
@njit(cache=True)
def _count_pairs(type_of_value, out):
    hands = np.zeros((9880, 3), dtype=np.int64)
    k = 0
    for a in range(40):
        for b in range(a + 1, 40):
            for c in range(b + 1, 40):
                hands[k, 0], hands[k, 1], hands[k, 2] = a, b, c
                k += 1
    types = np.empty(9880, dtype=np.int64)
    masks = np.empty(9880, dtype=np.uint64)
    for i in range(9880):
        a, b, c = hands[i, 0], hands[i, 1], hands[i, 2]
        flor = flor_value_nb(a, b, c) > 0 or is_reservada_nb(a, b, c)
        types[i] = -1 if flor else type_of_value[pares_value_nb(a, b, c)]
        masks[i] = (np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b)) | (np.uint64(1) << np.uint64(c))
    for i in range(9880):
        if types[i] < 0:
            continue
        for j in range(9880):
            if types[j] >= 0 and (masks[i] & masks[j]) == 0:
                out[types[i], types[j]] += 1.0


def pares_prior() -> np.ndarray:
    """P(mano's type, pie's type) over every pair of disjoint hands without a flor: (27, 27)."""
    out = np.zeros((NUM_TYPES, NUM_TYPES))
    _count_pairs(TYPE_OF_VALUE, out)
    return out / out.sum()


def showdown_beats() -> np.ndarray:
    """beats[tm, tp] = 1 where the mano's pares win: the higher, ties to the mano (6.22)."""
    return (PARES_VALUES[:, None] >= PARES_VALUES[None, :]).astype(np.float64)


# -- the skeleton -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Skeleton:
    """The betting tree common to every score (arrays over nodes; see the module docstring)."""

    player: np.ndarray  # 0 mano, 1 pie, -1 terminal
    child: np.ndarray  # (nodes, NUM_SLOTS)
    kind: np.ndarray  # K_OPEN, K_ANSWER, K_NONE, K_SHOWDOWN, K_REFUSED
    amount: np.ndarray  # terminal: the stake won (FALTA for la falta) or the refusal's pay, in chinas
    taker: np.ndarray  # refused terminal: 0 the mano takes, 1 the pie
    node_of_code: np.ndarray  # (2, NUM_WORDS1 ** (max_words + 2))
    max_words: int


def build_skeleton(max_words: int = 3) -> Skeleton:
    """Breadth first (parents before children); chains of at most ``max_words`` amounts, each above
    the last, then la falta."""
    falta_word = SLOT_FALTA - 1
    rows: list[dict] = []
    node_of_code = np.full((2, NUM_WORDS1 ** (max_words + 2)), -1, dtype=np.int64)
    queue: list[int] = []

    def add(**row) -> int:
        rows.append(row)
        return len(rows) - 1

    root = add(player=0, kind=K_OPEN, opener=0, words=())
    queue.append(root)
    node_of_code[0, 1] = root
    while queue:
        n = queue.pop(0)
        row = rows[n]
        row["child"] = [-1] * NUM_SLOTS
        if row["kind"] == K_OPEN:
            opener = row["player"]
            if opener == 0:  # the mano passes: the pie may mandar (6.6)
                row["child"][PASO] = add(player=1, kind=K_OPEN, opener=1, words=())
                node_of_code[1, 1] = row["child"][PASO]
            else:  # 6.7: no envite in the first baza, no pares
                row["child"][PASO] = add(player=-1, kind=K_NONE)
            for w in range(1, falta_word + 1):
                row["child"][w + 1] = add(player=1 - opener, kind=K_ANSWER, opener=opener, words=(w,))
            queue.extend(c for c in row["child"] if c >= 0 and rows[c]["player"] >= 0)
            continue
        opener, words = row["opener"], row["words"]
        code = 1
        for w in words:
            code = NUM_WORDS1 * code + w
        node_of_code[opener, code] = n
        stake = FALTA if words[-1] == falta_word else 2 * int(ABSTRACT_N[words[-1] - 1])
        # 6.18: a first envite refused pays one; 6.19: a revoque the stake before it
        prev = 1 if len(words) == 1 else 2 * int(ABSTRACT_N[words[-2] - 1])
        raiser = (opener + len(words) - 1) % 2
        row["child"][QUIERO] = add(player=-1, kind=K_SHOWDOWN, amount=stake)
        row["child"][NO_QUIERO] = add(player=-1, kind=K_REFUSED, amount=prev, taker=raiser)
        if stake != FALTA:  # the answerer revokes; the raiser answers him
            top = words[-1]
            if len(words) < max_words:
                for w in range(top + 1, falta_word):
                    row["child"][w + 1] = add(player=raiser, kind=K_ANSWER, opener=opener, words=(*words, w))
            row["child"][SLOT_FALTA] = add(player=raiser, kind=K_ANSWER, opener=opener, words=(*words, falta_word))
        queue.extend(c for c in row["child"] if c >= 0 and rows[c]["player"] >= 0)
    n = len(rows)
    child = np.full((n, NUM_SLOTS), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        if "child" in row:
            child[i] = row["child"]
    return Skeleton(
        player=np.array([r["player"] for r in rows], dtype=np.int64),
        child=child,
        kind=np.array([r["kind"] for r in rows], dtype=np.int64),
        amount=np.array([r.get("amount", 0) for r in rows], dtype=np.int64),
        taker=np.array([r.get("taker", -1) for r in rows], dtype=np.int64),
        node_of_code=node_of_code,
        max_words=max_words,
    )


def legal_children(sk: Skeleton, falta: int) -> np.ndarray:
    """The skeleton's children without the amounts whose stake reaches la falta: 2N chinas at or
    above it are la falta (6.16, 6.17), which stays (the engine's catalogue, ``envío la falta``)."""
    child = sk.child.copy()
    over = np.zeros(NUM_SLOTS, dtype=np.bool_)
    over[2:SLOT_FALTA] = 2 * ABSTRACT_N >= falta
    child[:, over] = -1
    return child


def score_game(sk: Skeleton, prior: np.ndarray, beats: np.ndarray, U: np.ndarray, a: int, b: int,
               target: int) -> PublicTreeGame:
    """The envite at score (a, b) with payoffs U (``envido_payoffs``: U[dm, dp] the mano's chance)."""
    falta = target - max(a, b)
    n = sk.player.size
    win, lose = np.zeros(n), np.zeros(n)
    for i in range(n):
        # 6.16: every pay is capped at la falta (amounts above it sit under illegal words: unreachable)
        kind = sk.kind[i]
        amount = falta if sk.amount[i] == FALTA else min(sk.amount[i], falta)
        if kind == K_NONE:
            win[i] = lose[i] = U[0, 0]
        elif kind == K_REFUSED:
            win[i] = lose[i] = U[amount, 0] if sk.taker[i] == 0 else U[0, amount]
        elif kind == K_SHOWDOWN:
            win[i], lose[i] = U[amount, 0], U[0, amount]
    return PublicTreeGame(sk.player, legal_children(sk, falta), win, lose, prior, beats)


def blind_answers(U: np.ndarray, prior: np.ndarray, beats: np.ndarray, a: int, b: int, target: int) -> np.ndarray:
    """[seat, N - 1, type]: whether the bot answering a blind ``envío N pares`` (Art. 7; N = 1..15)
    with its cards seen, after "luego te lo digo" (7.2), accepts it (seat 0 the mano, 1 the pie), with
    the mano's chances ``U`` (``envido_payoffs``) at score (a, b). The sender spoke before the deal,
    so his pares are any hand's: the answer is a plain decision, no game. Accepted, the showdown pays
    2N capped at la falta (ties to the mano, 6.22); refused, the sender takes one (6.18). A revoque is
    not among the answers (the table's simplification). 1 where accepting is better, 0 where refusing
    is, 0.5 where they are equal."""
    falta = target - max(a, b)
    out = np.zeros((2, 15, NUM_TYPES))
    mano_wins = (prior * beats).sum(axis=1) / prior.sum(axis=1)  # the mano's chance with each type
    pie_wins = (prior * (1.0 - beats)).sum(axis=0) / prior.sum(axis=0)
    for n in range(1, 16):
        stake = min(2 * n, falta)
        accept_mano = mano_wins * U[stake, 0] + (1.0 - mano_wins) * U[0, stake]
        accept_pie = pie_wins * (1.0 - U[0, stake]) + (1.0 - pie_wins) * (1.0 - U[stake, 0])
        for seat, acc, ref in ((0, accept_mano, U[0, 1]), (1, accept_pie, 1.0 - U[1, 0])):
            out[seat, n - 1] = np.where(np.isclose(acc, ref, rtol=0.0, atol=1e-12), 0.5, (acc > ref).astype(np.float64))
    return out


def decision_rows(sk: Skeleton) -> tuple[np.ndarray, np.ndarray]:
    """The skeleton's decision nodes (the table's rows, in order) and ``row_of_code`` (the row
    answering each chain, -1 where there is none: ``agents.pares_table``'s format)."""
    decision = np.flatnonzero(sk.player >= 0)
    node_row = _node_rows(sk, decision)
    return decision, np.where(sk.node_of_code >= 0, node_row[np.maximum(sk.node_of_code, 0)], -1)


def count_rival_pares(policy, rival, manos: int, target: int = 30, max_words: int = 3, seed: int = 0,
                      num_envs: int = 512) -> np.ndarray:
    """counts[row, slot, type]: how often ``rival``, playing 1 contra 1 against ``policy`` for
    ``manos`` manos, chose each slot at each of the table's decision rows with each valor de pares
    (``agents.pares_table.table_decisions``: his openings and his answers to envites that are not
    blind), pooled over the scores."""
    from agents.pares_table import table_decisions
    from truque_env.policy import act_batch
    from truque_env.vector import VectorEnv

    sk = build_skeleton(max_words)
    decision, row_of_code = decision_rows(sk)
    player = sk.player[decision]
    env = VectorEnv(num_envs, tradition="moteno", team_size=1, target=target, episode="juego", seed=seed)
    env.reset(seed=seed)
    L, step = env.spec.layout, env.spec.batch.step_unchecked_tables
    counts = np.zeros((decision.size, NUM_SLOTS, NUM_TYPES))
    out = np.empty((num_envs, 5), dtype=np.int64)
    seen = 0
    while seen < manos:
        actions = np.empty(env.num_envs, dtype=np.int64)
        for who, side in ((0, policy), (1, rival)):
            rows = np.flatnonzero(env.team == who)
            if rows.size:
                actions[rows] = act_batch(side, env.obs[rows], env.mask[rows])
        r = np.flatnonzero(env.team == 1)
        got = out[: r.size]
        table_decisions(env.obs[r], env.mask[r], actions[r], row_of_code, player, TYPE_OF_VALUE, ABSTRACT_N, target,
                        max_words, got)
        ok = got[:, 2] >= 0
        np.add.at(counts, (got[ok, 2], got[ok, 4], got[ok, 3]), 1.0)
        after = env.states.copy()
        step(after, actions)  # the manos that end here, before the env deals the next
        seen += int((after[:, L.PHASE] == L.PH_DONE).sum())
        env.step(actions)
    return counts


def model_strategy(counts: np.ndarray, game: PublicTreeGame, decision: np.ndarray, who: int,
                   min_count: int) -> np.ndarray:
    """[nodes, slots, types]: the modelled play of player ``who`` in ``game`` (one score's): at his
    nodes, each type's frequencies in ``counts`` over the slots legal at this score, where he was
    seen at least ``min_count`` times; NaN elsewhere (free there). An amount counted at another
    score whose stake here reaches la falta is la falta here (6.16, as the engine reads it)."""
    legal = game.child[decision] >= 0  # (rows, slots)
    c = counts.copy()
    over = ~legal[:, 2:SLOT_FALTA] & legal[:, SLOT_FALTA : SLOT_FALTA + 1]
    c[:, SLOT_FALTA] += (c[:, 2:SLOT_FALTA] * over[:, :, None]).sum(axis=1)
    c *= legal[:, :, None]
    total = c.sum(axis=1)  # (rows, types)
    known = (total >= max(min_count, 1)) & (game.player[decision] == who)[:, None]
    freq = c / np.where(total > 0, total, 1.0)[:, None, :]
    out = np.full((game.player.size, NUM_SLOTS, NUM_TYPES), np.nan)
    out[decision] = np.where(known[:, None, :], freq, np.nan)
    return out


@dataclass
class ParesSolveConfig:
    """The envite de pares of Truque Moteño solved at every score; the table a bot plays from."""

    points_of: str = "ppo_network"
    """the bot whose self-play measures the points of the rest of the mano (registry name or checkpoint)"""
    manos: int = 100_000
    """manos of that self-play"""
    target: int = 30
    max_words: int = 3
    """amounts in a chain the table answers (then only la falta)"""
    iterations: int = 1000
    """CFR+ iterations at each score"""
    tremble: float = 1e-3
    """ε of the off-path answers (train.cfr.public_tree)"""
    seed: int = 0
    rival: str | None = None
    """a bot whose envite is modelled from its play (registry name or checkpoint): the table is then
    the restricted Nash response to it (``rival_share``), not the equilibrium"""
    rival_share: float = 0.5
    """with a rival: the chance that he plays his model (``count_rival_pares``), the rest of the time
    freely (a best responder to the table); 0 is the equilibrium, 1 the best response to the model"""
    rival_manos: int = 200_000
    """manos of the rival's play against ``points_of`` that his model is counted from"""
    rival_min_count: int = 30
    """decisions of a type at a node below which the model leaves the rival free there (data-biased:
    an unseen or rare decision is not guessed)"""
    out: Path = Path("agents/checkpoints/pares_moteno_1v1.npz")
    summary: Path = Path("benchmarks/results/pares_moteno_1v1.json")
    overwrite: bool = False
    """replace the table and the summary (without it, existing files are refused)"""


def solve_juego(cfg: ParesSolveConfig, Q: np.ndarray, progress=None, model: np.ndarray | None = None) -> dict:
    """Every score's envite, from the scores nearest the target back to 0 to 0. Returns the
    strategies [a, b, decision row, slot, type], ``V[a, b]`` (the mano's chance at a to b), each
    score's exploitability (in the juego's chance) and the answers to a blind envite
    (``blind_answers``, [a, b, seat, N - 1, type]).

    With a rival's ``model`` (``count_rival_pares``' counts) each score is two games, the bot mano
    and the rival mano, each the restricted Nash response to the model (``cfg.rival_share``,
    ``model_strategy``; the rest of the juego valued by the game with the roles swapped), and the
    table keeps the bot's rows of each (as ``train.cfr.envido_argentino`` does against a rival).
    ``V`` is then the bot's chance as mano, ``V_pie[a, b]`` its chance as pie, and ``worst``/
    ``worst_pie`` its chances against a free rival's best answer: what the response gives up."""
    T = cfg.target
    sk = build_skeleton(cfg.max_words)
    prior, beats = pares_prior(), showdown_beats()
    Q = np.asarray(Q, dtype=np.float64)
    pair = Q if Q.ndim == 3 else Q[None]  # with a rival: Q[m] the points of the game m (the bot mano at 0)
    if pair.shape[1:] != (T + 1, T + 1) or pair.shape[0] not in ((1, 2) if model is not None else (1,)) \
            or (abs(pair.sum(axis=(1, 2)) - 1.0) > 1e-9).any() or (pair[:, 0, 0] != 0.0).any():
        raise ValueError(f"Q must be a ({T + 1}, {T + 1}) distribution of points with Q[0, 0] = 0 (with a rival's "
                         "model, or two of them: the bot mano, the rival mano)")
    decision, _ = decision_rows(sk)
    mano_rows = sk.player[decision] == 0
    games = 1 if model is None else 2  # m: 0 the bot is mano, 1 the rival is
    strategies = np.zeros((T, T, decision.size, NUM_SLOTS, NUM_TYPES), dtype=np.float32)
    blind = np.zeros((T, T, 2, 15, NUM_TYPES), dtype=np.float32)
    V, expl, worst = np.zeros((games, T, T)), np.zeros((games, T, T)), np.zeros((games, T, T))
    for total in range(2 * T - 2, -1, -1):
        for a in range(max(0, total - T + 1), min(T - 1, total) + 1):
            b = total - a
            for m in range(games):
                # after this mano the other side is mano: its chance there is V of the other game
                U = envido_payoffs(V[games - 1 - m], pair[m % pair.shape[0]], a, b, T)
                if max(a, b) == T - 1:  # al cantar: no envite (8.1)
                    V[m, a, b] = U[0, 0]
                    worst[m, a, b] = U[0, 0] if m == 0 else 1.0 - U[0, 0]  # the bot's chance
                    continue
                answers = blind_answers(U, prior, beats, a, b, T)
                if model is None:
                    blind[a, b] = answers
                else:  # the bot's seat in this game: the mano when m is 0
                    blind[a, b, m] = answers[m]
                game = score_game(sk, prior, beats, U, a, b, T)
                played = game
                if model is not None:  # the rival is player 1 when the bot is mano (m 0), else player 0
                    played = restricted_nash_response(
                        game, 1 - m, cfg.rival_share, model_strategy(model, game, decision, 1 - m, cfg.rival_min_count))
                solver = PublicTreeSolver(played, tremble=cfg.tremble)
                solver.run(cfg.iterations)
                policy = solver.average_policy()
                if model is None:
                    strategies[a, b] = policy[decision][..., :NUM_TYPES]
                else:
                    _keep_bot_rows(strategies[a, b], policy, decision, mano_rows, m)
                    bot = np.where((game.player == m)[:, None, None], policy[:, :, :NUM_TYPES], 0.0)
                    br = best_response_value(game, bot, 1 - m)
                    worst[m, a, b] = -br if m == 0 else 1.0 - br  # player 1's payoff is minus the mano's chance
                V[m, a, b] = profile_value(played, policy)
                expl[m, a, b] = exploitability(played, policy)
            if progress is not None:
                progress()
    node_row = _node_rows(sk, decision)
    out = {"strategies": strategies, "V": V[0], "exploitability": expl.max(axis=0), "skeleton": sk,
           "node_row": node_row, "decision": decision, "blind_answers": blind}
    if model is not None:
        out["V_pie"] = 1.0 - V[1]
        out["worst"], out["worst_pie"] = worst[0], worst[1]
    return out


def table_arrays(cfg: ParesSolveConfig, solved: dict, Q: np.ndarray) -> dict:
    """The table as ``agents.pares_table`` reads it (plain arrays; the format in its docstring)."""
    sk = solved["skeleton"]
    decision, row_of_code = decision_rows(sk)
    return {
        "format": np.array(TABLE_FORMAT), "version": np.array(TABLE_VERSION),
        "target": np.array(cfg.target), "max_words": np.array(cfg.max_words), "team_size": np.array(1),
        "abstract_n": ABSTRACT_N, "pares_values": PARES_VALUES,
        "strategies": solved["strategies"].astype(np.float16),
        "blind_answers": solved["blind_answers"].astype(np.float16),
        "row_of_code": row_of_code,
        "player": sk.player[decision], "kind": sk.kind[decision],
        "V": solved["V"].astype(np.float32), "Q": np.asarray(Q, dtype=np.float32),
        "rival": np.array(cfg.rival or ""), "rival_share": np.array(cfg.rival_share if cfg.rival else 0.0),
    }


def run(cfg: ParesSolveConfig) -> dict:
    from agents.registry import load_policy
    from truque_env.progress import Progress

    if cfg.manos < 1000 or cfg.iterations < 1 or cfg.target < 3 or cfg.max_words < 1:
        raise ValueError(f"manos must be >= 1000, iterations >= 1, target >= 3 and max_words >= 1 (got {cfg.manos}, "
                         f"{cfg.iterations}, {cfg.target}, {cfg.max_words})")
    if not 0.0 <= cfg.rival_share <= 1.0 or cfg.rival_manos < 1000 or cfg.rival_min_count < 1:
        raise ValueError(f"rival_share must be in [0, 1], rival_manos >= 1000 and rival_min_count >= 1 (got "
                         f"{cfg.rival_share}, {cfg.rival_manos}, {cfg.rival_min_count})")
    check_new_output(cfg.out, cfg.overwrite)
    check_new_output(cfg.summary, cfg.overwrite)
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    points = load_policy(cfg.points_of, seed=cfg.seed, tradition="moteno")
    rival = None if cfg.rival is None else load_policy(cfg.rival, seed=cfg.seed + 1, tradition="moteno")
    # with a rival: the points of the rest of the mano in the match against him, by who is mano
    Q = measure_mano_points(points, cfg.manos, cfg.target, cfg.seed, tradition="moteno", rival=rival)
    model = None if rival is None else count_rival_pares(points, rival, cfg.rival_manos, cfg.target, cfg.max_words,
                                                         cfg.seed)
    t1 = time.perf_counter()
    with Progress("pares solved at every score", total=cfg.target * cfg.target, transient=True) as bar:
        done = [0]

        def tick():
            done[0] += 1
            bar.update(done[0])

        solved = solve_juego(cfg, Q, progress=tick, model=model)
    t2 = time.perf_counter()
    write_npz_atomic(cfg.out, table_arrays(cfg, solved, Q), compressed=True)
    expl = solved["exploitability"]
    summary = {
        "description": "the envite de pares of Truque Moteño 1 contra 1 solved by CFR+ at every score "
                       "(train.cfr.pares_moteno)",
        "table": str(cfg.out),
        "mano_points": {"manos": cfg.manos, **_points_summary(Q if rival is None else Q[0], cfg.target)},
        "juego_chance_of_the_first_mano": float(solved["V"][0, 0]),
        "exploitability": {"max": float(expl.max()), "mean": float(expl.mean()),
                           "unit": "the juego's winning chance: what a best responder to the table gains at one score"},
        **({} if rival is None else {"rival": _rival_summary(cfg, model, solved, Q)}),
        "minutes": {"measure": (t1 - t0) / 60, "solve": (t2 - t1) / 60},
        "load_average_before": list(load_before), "load_average_after": list(os.getloadavg()),
        "config": config.to_dict(cfg),
    }
    write_json_atomic(cfg.summary, summary)
    print(f"wrote {cfg.out} and {cfg.summary}: exploitability at most {expl.max():.2e} of a juego, "
          f"the mano's chance in the first mano {solved['V'][0, 0]:.3f}")
    return summary


def _rival_summary(cfg: ParesSolveConfig, model: np.ndarray, solved: dict, Q: np.ndarray) -> dict:
    counted = model.sum(axis=1)  # (rows, types)
    return {"name": cfg.rival, "share": cfg.rival_share, "manos": cfg.rival_manos, "min_count": cfg.rival_min_count,
            "decisions_counted": float(counted.sum()),
            "decisions_at_modelled_nodes": float(counted[counted >= cfg.rival_min_count].sum() / max(counted.sum(), 1)),
            "mano_points_rival_mano": _points_summary(Q[1], cfg.target),
            "first_mano": {"bot_mano": float(solved["V"][0, 0]), "bot_pie": float(solved["V_pie"][0, 0]),
                           "bot_mano_against_a_best_answer": float(solved["worst"][0, 0]),
                           "bot_pie_against_a_best_answer": float(solved["worst_pie"][0, 0])}}


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(ParesSolveConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
