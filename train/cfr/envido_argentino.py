"""The envido of truco argentino, solved as a small game at every score (mano a mano, and teams abstracted).

The PPO bots answer envidos by what their league taught them, and each league run's exploiter
found the answer it could push (docs/league_argentino.md: a falta envido said with anything, refused by a
bot holding 26). The envido is a game of its own inside the mano, small enough to solve exactly:
this module writes it as a :class:`train.cfr.public_tree.PublicTreeGame` for each score of the
juego, solves it with CFR+ (``train.cfr.public_tree``), and writes the strategies as a table a bot
plays from (``agents.envido_table``).

**The game at score (a, b)** (a: the mano's tantos, b: the pie's, both below the target T):

* *types*: each player's envido value (A19, A20), one of 0-7 and 20-33 (22 types); their joint
  probability is counted over every pair of disjoint hands of the 40 cards, without the hands
  that hold a flor when flor is played (a flor is sung first and cancels the envido, A8, A9);
* *the betting* (A23-A26, and the engine's rulings): the mano may open with envido (2), real
  envido (3) or falta envido, or pass (he plays his card or says truco); then the pie may open
  (at his turn, or as his answer to a truco: *el envido está primero*, A22), or pass and the
  envido is over. An envido is answered quiero, no quiero, or raised by envido (+2), real envido
  (+3) or falta envido; a raise is legal while the stake after it stays within the falta (the
  engine's ruling), falta envido always; after a falta only quiero or no quiero;
* *the payoffs*: accepted, the higher envido wins the stake (ties to the mano, A27), a falta what
  the leader lacks (A23, A36; option "match": the juego); refused, the last raiser's side takes
  what stood before the last word (A25: 1 for a first envite). A side that reaches the target
  with the envido wins at once (A35);
* *the value of points*: a payoff is the mano's chance of winning the juego afterwards. The rest
  of the mano (truco, flor) adds points from a measured distribution ``Q`` (the joint points to
  mano and pie, measured in a bot's self-play; ``measure_mano_points``), and the next mano starts
  with the roles swapped. The chance of winning from a score, ``V[a, b]`` (the mano to play with
  a, the pie with b), is this game's value, so the whole juego is solved backwards from the
  scores nearest the target: a mano always adds at least one point, so every score the game's
  payoffs need is solved before it.

**What it does not model** (the table's bot falls back to its base policy there, documented in
docs/rules and docs/league_argentino.md): chains longer than ``max_raises`` envido or real envido words, the
envido said with the truco at once (A34) and todo dicho (A33), flor, the information in the cards
played before the envido (the pie may open after seeing the mano's first card), and the truco's
dependence on what the envido showed. At 2 or 3 contra (``team_size``) the envido is the team's
best, unknown to each player: the game is then the abstraction of ``train.cfr.envido_teams``
(each team one player whose type is the deciding partner's envido; what a partner's words tell
and his own turn to open are not modelled).

The skeleton tree is the same at every score (the legal slots change with the falta):
slots 0 quiero (or, at an opening, paso), 1 no quiero, 2 envido, 3 real envido, 4 falta envido.
A chain of words is coded ``code = 1``, then ``code = 4 * code + w`` per word (w: 1 envido,
2 real envido, 3 falta envido); ``node_of_code[opener, code]`` is the decision node where the
answer to that chain is chosen (``code = 1``: the opening of that side; opener 0 the mano).

    python -m train.cfr.envido_argentino --points-of ppo_league1 --out agents/checkpoints/envido_argentino_1v1.npz
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from train import config
from train.cfr.envido_teams import team_prior_beats
from train.cfr.public_tree import (
    PublicTreeGame,
    PublicTreeSolver,
    best_response_value,
    exploitability,
    profile_value,
    restricted_nash_response,
)
from truque_env.cards import CARD_SUIT
from truque_env.io import check_new_output, write_json_atomic, write_npz_atomic
from truque_env.traditions.argentino.rules import ENVIDO_CARD_VALUE, envido_value_nb, flor_value_nb

TABLE_FORMAT = "truque_env.envido_table"
TABLE_VERSION = 1
ENVIDO_VALUES = np.array([*range(8), *range(20, 34)], dtype=np.int64)  # the 22 types
NUM_TYPES = ENVIDO_VALUES.size
TYPE_OF_VALUE = np.full(41, -1, dtype=np.int64)
TYPE_OF_VALUE[ENVIDO_VALUES] = np.arange(NUM_TYPES)
QUIERO, NO_QUIERO, ENVIDO, REAL_ENVIDO, FALTA_ENVIDO = range(5)
PASO = QUIERO  # the slot of not opening
NUM_SLOTS = 5
WORD_OF_SLOT = {ENVIDO: 1, REAL_ENVIDO: 2, FALTA_ENVIDO: 3}
FALTA = -1  # the stake of a chain ended by falta envido
# skeleton node kinds
K_OPEN, K_ANSWER, K_NONE, K_SHOWDOWN, K_REFUSED = range(5)


# -- the deal -----------------------------------------------------------------------------------
@njit(cache=True)
def _count_pairs(suit, value, flor_played, type_of_value, out):
    hands = np.zeros((9880, 3), dtype=np.int64)
    k = 0
    for a in range(40):
        for b in range(a + 1, 40):
            for c in range(b + 1, 40):
                hands[k, 0], hands[k, 1], hands[k, 2] = a, b, c
                k += 1
    types = np.empty(9880, dtype=np.int64)
    masks = np.empty(9880, dtype=np.uint64)
    keep = np.empty(9880, dtype=np.bool_)
    for i in range(9880):
        a, b, c = hands[i, 0], hands[i, 1], hands[i, 2]
        types[i] = type_of_value[envido_value_nb(a, b, c, suit, value)]
        keep[i] = not (flor_played and flor_value_nb(a, b, c, suit, value) > 0)
        masks[i] = (np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b)) | (np.uint64(1) << np.uint64(c))
    for i in range(9880):
        if not keep[i]:
            continue
        for j in range(9880):
            if keep[j] and (masks[i] & masks[j]) == 0:
                out[types[i], types[j]] += 1.0


def envido_prior(flor: bool = True) -> np.ndarray:
    """P(mano's type, pie's type) over every pair of disjoint hands (without flores when flor is
    played): a (22, 22) table."""
    out = np.zeros((NUM_TYPES, NUM_TYPES))
    _count_pairs(CARD_SUIT, ENVIDO_CARD_VALUE, bool(flor), TYPE_OF_VALUE, out)
    return out / out.sum()


def showdown_beats() -> np.ndarray:
    """beats[tm, tp] = 1 where the mano's envido wins: the higher, ties to the mano (A27)."""
    return (ENVIDO_VALUES[:, None] >= ENVIDO_VALUES[None, :]).astype(np.float64)


def deal_of(team_size: int, flor: bool, samples: int = 4_000_000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(prior, beats) of the envido game: exact mano a mano, the team abstraction of
    ``train.cfr.envido_teams`` at 2 or 3 contra (sampled; ``samples`` deals from ``seed``)."""
    if team_size == 1:
        return envido_prior(flor), showdown_beats()
    return team_prior_beats(team_size, TYPE_OF_VALUE, NUM_TYPES, flor, samples, seed)


# -- the skeleton -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Skeleton:
    """The betting tree common to every score (arrays over nodes; see the module docstring)."""

    player: np.ndarray  # 0 mano, 1 pie, -1 terminal
    child: np.ndarray  # (nodes, 5)
    kind: np.ndarray  # K_OPEN, K_ANSWER, K_NONE, K_SHOWDOWN, K_REFUSED
    stake_after: np.ndarray  # (nodes, 5): the stake an envido or real envido word makes (legal if <= falta)
    amount: np.ndarray  # terminal: the stake won (FALTA for a falta) or the refusal's pay
    taker: np.ndarray  # refused terminal: 0 the mano's side takes, 1 the pie's
    node_of_code: np.ndarray  # (2, 4 ** (max_raises + 2))
    max_raises: int


def build_skeleton(max_raises: int = 3) -> Skeleton:
    """Breadth first (parents before children); chains of at most ``max_raises`` envido or real
    envido words, then only falta envido."""
    size = 4 ** (max_raises + 2)
    rows: list[dict] = []
    node_of_code = np.full((2, size), -1, dtype=np.int64)
    queue: list[tuple] = []

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
        row["stake_after"] = [0] * NUM_SLOTS
        if row["kind"] == K_OPEN:
            opener = row["player"]
            if opener == 0:  # the mano passes: the pie may open
                row["child"][PASO] = add(player=1, kind=K_OPEN, opener=1, words=())
                node_of_code[1, 1] = row["child"][PASO]
            else:
                row["child"][PASO] = add(player=-1, kind=K_NONE)
            for slot, w in WORD_OF_SLOT.items():
                row["child"][slot] = add(player=1 - opener, kind=K_ANSWER, opener=opener, words=(w,))
                row["stake_after"][slot] = 1 + w if slot != FALTA_ENVIDO else 0  # envido 2, real envido 3
            queue.extend(c for c in row["child"] if c >= 0 and rows[c]["player"] >= 0)
            continue
        # an answer to the chain row["words"] said from row["opener"]
        opener, words = row["opener"], row["words"]
        code = 1
        for w in words:
            code = 4 * code + w
        node_of_code[opener, code] = n
        stake, prev = 0, 1
        for i, w in enumerate(words):
            if i:
                prev = stake
            stake = FALTA if w == 3 else stake + 1 + w
        raiser = (opener + len(words) - 1) % 2
        row["child"][QUIERO] = add(player=-1, kind=K_SHOWDOWN, amount=stake)
        row["child"][NO_QUIERO] = add(player=-1, kind=K_REFUSED, amount=prev, taker=raiser)
        if stake != FALTA:  # the answerer raises; the raiser answers him
            if len(words) < max_raises:
                for slot in (ENVIDO, REAL_ENVIDO):
                    w = WORD_OF_SLOT[slot]
                    row["child"][slot] = add(player=raiser, kind=K_ANSWER, opener=opener, words=(*words, w))
                    row["stake_after"][slot] = stake + 1 + w
            row["child"][FALTA_ENVIDO] = add(player=raiser, kind=K_ANSWER, opener=opener, words=(*words, 3))
        queue.extend(c for c in row["child"] if c >= 0 and rows[c]["player"] >= 0)
    n = len(rows)
    child = np.full((n, NUM_SLOTS), -1, dtype=np.int64)
    stake_after = np.zeros((n, NUM_SLOTS), dtype=np.int64)
    for i, row in enumerate(rows):
        if "child" in row:
            child[i] = row["child"]
            stake_after[i] = row["stake_after"]
    return Skeleton(
        player=np.array([r["player"] for r in rows], dtype=np.int64),
        child=child,
        kind=np.array([r["kind"] for r in rows], dtype=np.int64),
        stake_after=stake_after,
        amount=np.array([r.get("amount", 0) for r in rows], dtype=np.int64),
        taker=np.array([r.get("taker", -1) for r in rows], dtype=np.int64),
        node_of_code=node_of_code,
        max_raises=max_raises,
    )


def blind_strategy(player: np.ndarray, kind: np.ndarray, child: np.ndarray, who: int, opening: float) -> np.ndarray:
    """A blind envido, the same for every type ([nodes, slots, types]): ``who`` opens with each
    legal word with chance ``opening`` (passing the rest) and answers with any legal slot alike,
    as the random policy does whatever it holds."""
    legal = (child >= 0).astype(np.float64)
    out = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1.0)
    opens = (player == who) & (kind == K_OPEN)
    words = legal[opens].copy()
    words[:, PASO] = 0.0
    out[opens] = words * opening
    out[opens, PASO] = 1.0 - out[opens].sum(axis=1)
    out[player != who] = 0.0
    return np.repeat(out[:, :, None], NUM_TYPES, axis=2)


def todo_dicho_answers(U: np.ndarray, prior: np.ndarray, beats: np.ndarray, a: int, b: int, target: int,
                       falta_match: bool = False) -> np.ndarray:
    """[seat, type]: whether the bot answering "falta envido y truco, todo dicho" (A33) at score
    (a, b) accepts the falta (seat 0 the mano, 1 the pie), with the mano's chances ``U``
    (``envido_payoffs``). The sayer spoke before looking at his cards, so his envido is any hand's:
    the answer is a plain decision, no game. Accepted, the showdown pays the falta (ties to the
    mano, A27); refused, the sayer takes 1 (the engine's ruling on A33); the truco is answered apart.
    1 where accepting is better, 0 where refusing is, 0.5 where they are equal."""
    falta = target - max(a, b)
    won_m, won_p = (target - a, target - b) if falta_match else (falta, falta)
    won_m, won_p = min(won_m, target), min(won_p, target)
    out = np.zeros((2, NUM_TYPES))
    with np.errstate(invalid="ignore", divide="ignore"):
        mano_wins = (prior * beats).sum(axis=1) / prior.sum(axis=1)  # the mano's chance with each type
        pie_wins = (prior * (1.0 - beats)).sum(axis=0) / prior.sum(axis=0)
    accept_mano = mano_wins * U[won_m, 0] + (1.0 - mano_wins) * U[0, won_p]
    refuse_mano = U[0, 1]
    accept_pie = pie_wins * (1.0 - U[0, won_p]) + (1.0 - pie_wins) * (1.0 - U[won_m, 0])
    refuse_pie = 1.0 - U[1, 0]
    for seat, acc, ref in ((0, accept_mano, refuse_mano), (1, accept_pie, refuse_pie)):
        out[seat] = np.where(np.isclose(acc, ref, rtol=0.0, atol=1e-12), 0.5, (acc > ref).astype(np.float64))
        out[seat][~np.isfinite(acc)] = 0.0  # a type that cannot be held (a flor's)
    return out


def legal_children(sk: Skeleton, falta: int) -> np.ndarray:
    """The skeleton's children with the envido and real envido words above the falta removed (the
    engine's ruling: a word is legal while its stake stays within the falta; falta envido always)."""
    child = sk.child.copy()
    over = (sk.stake_after > falta) & ((np.arange(NUM_SLOTS) == ENVIDO) | (np.arange(NUM_SLOTS) == REAL_ENVIDO))
    child[over] = -1
    return child


# -- the value of points ------------------------------------------------------------------------
def _after_mano(V: np.ndarray, x: int, y: int, target: int) -> float:
    """The mano's chance after the mano ends at x (his) to y: the next mano is the pie's."""
    if x >= target and y >= target:
        return 0.5
    if x >= target:
        return 1.0
    if y >= target:
        return 0.0
    return 1.0 - V[y, x]


def envido_payoffs(V: np.ndarray, Q: np.ndarray, a: int, b: int, target: int) -> np.ndarray:
    """U[dm, dp]: the mano's chance of winning the juego when the envido gives him dm and the pie
    dp (0..target), then the rest of the mano gives points by ``Q`` (Q[tm, tp], Q[0, 0] = 0)."""
    U = np.zeros((target + 1, target + 1))
    tm, tp = np.nonzero(Q)
    q = Q[tm, tp]
    for dm in range(target + 1):
        for dp in range(target + 1):
            if a + dm >= target:
                U[dm, dp] = 1.0  # A35: the envido takes him out at once
            elif b + dp >= target:
                U[dm, dp] = 0.0
            elif dm == 0 or dp == 0:
                U[dm, dp] = sum(w * _after_mano(V, a + dm + x, b + dp + y, target) for w, x, y in zip(q, tm, tp, strict=True))
    return U


def score_game(sk: Skeleton, prior: np.ndarray, beats: np.ndarray, U: np.ndarray, a: int, b: int, target: int,
               falta_match: bool = False) -> PublicTreeGame:
    """The envido at score (a, b) with payoffs U (``envido_payoffs``)."""
    falta = target - max(a, b)
    n = sk.player.size
    win, lose = np.zeros(n), np.zeros(n)
    for i in range(n):
        # stakes above the falta sit below words the falta makes illegal: unreachable, cut to fit U
        kind, amount = sk.kind[i], min(sk.amount[i], target)
        if kind == K_NONE:
            win[i] = lose[i] = U[0, 0]
        elif kind == K_REFUSED:
            win[i] = lose[i] = U[amount, 0] if sk.taker[i] == 0 else U[0, amount]
        elif kind == K_SHOWDOWN:
            if amount == FALTA:
                won_m, won_p = (target - a, target - b) if falta_match else (falta, falta)
            else:
                won_m = won_p = amount
            win[i], lose[i] = U[won_m, 0], U[0, won_p]
    return PublicTreeGame(sk.player, legal_children(sk, falta), win, lose, prior, beats)


@dataclass
class EnvidoSolveConfig:
    """The envido of truco argentino solved at every score; the table a bot plays from."""

    points_of: str = "ppo_league1"
    """the bot whose self-play measures the points of the rest of the mano (registry name or checkpoint;
    the shipped table used ppo_league1, then named ppo)"""
    rival: str | None = None
    """a rival that plays the rest of the mano unlike ``points_of`` (registry name or checkpoint):
    the points are measured in ``points_of`` against it, and the table is ``points_of``'s side of
    the envido against a rival whose truco is that rival's (``solve_juego``); none: self-play"""
    manos: int = 100_000
    """manos of that self-play (or of the match against the rival)"""
    team_size: int = 1
    """players per team: at 2 (or 3) contra, the team abstraction of ``train.cfr.envido_teams`` (each
    team one player whose type is the deciding partner's envido, the partners' hands chance at the
    showdown), the points measured at that size, and the table played at that size only"""
    deal_samples: int = 4_000_000
    """deals sampled for the team abstraction's prior and showdown shares (``team_size`` > 1)"""
    target: int = 30
    flor: bool = True
    """flor is played (the engine's default option): hands with a flor are not envido types"""
    falta_match: bool = False
    """the option falta_envido = "match" (its winner takes the juego) instead of the leader's lack"""
    max_raises: int = 3
    """envido and real envido words in a chain the table answers (then only falta envido)"""
    todo_dicho: bool = False
    """write the answers to "falta envido y truco, todo dicho" (A33, ``todo_dicho_answers``); without
    them the base answers it. They are exact for the rest of the juego as ``Q`` values it, so a
    self-play ``Q`` (even players) takes a blind falta as a fair lottery (at 0 to 0, with 21 or
    more), which lost 14 points of juegos against random; for a table against a rival"""
    blind_share: float = 0.0
    """with a rival: the chance that his envido is blind (``blind_strategy``: random's), the rest
    rational; the table is then the restricted Nash response to that play (0: the equilibrium)"""
    blind_opening: float = 0.18
    """the blind rival's chance of opening with each envido word (random opens 18% with each, and
    passes 46%: measured in random's play)"""
    mixture_of: tuple[Path, Path] | None = None
    """two tables, (rational, blind): solve instead for a rival who is blind with chance
    ``blind_share`` (his envido ``blind_strategy``, the rest of his juego as the blind table valued
    it) and rational otherwise (as the first table valued it): the prior over the rival's kind
    before the record shows it (``solve_mixture``). No points are measured: each table's Q and V
    value its kind"""
    iterations: int = 1000
    """CFR+ iterations at each score"""
    tremble: float = 1e-3
    """ε of the off-path answers (train.cfr.public_tree)"""
    seed: int = 0
    out: Path = Path("agents/checkpoints/envido_argentino_1v1.npz")
    summary: Path = Path("benchmarks/results/envido_argentino_1v1.json")
    overwrite: bool = False
    """replace the table and the summary (without it, existing files are refused)"""


def measure_mano_points(policy, manos: int, target: int = 30, seed: int = 0, num_envs: int = 512,
                        rival=None, team_size: int = 1, tradition: str = "argentino") -> np.ndarray:
    """Q[tm, tp]: the distribution of the points the mano's side and the pie's side take in a mano
    *besides the envido* (truco, flor, al mazo), in ``policy``'s self-play at ``team_size`` contra
    ``team_size`` (argentino, default options). Manos that the envido ended (A35) are left out; points are cut at ``target``.
    ``tradition="moteno"`` measures the points besides the pares (flores and truque) the same way
    (``train.cfr.pares_moteno``): both layouts keep source 0 for the envido or the pares.

    With a ``rival``, ``policy`` plays team 0 against it and the result is two distributions:
    ``Q[0]`` of the manos where ``policy`` was mano, ``Q[1]`` where the rival was (``solve_juego``)."""
    from truque_env.policy import act_batch
    from truque_env.vector import VectorEnv

    env = VectorEnv(num_envs, tradition=tradition, team_size=team_size, target=target, episode="juego", seed=seed)
    env.reset(seed=seed)
    L, step = env.spec.layout, env.spec.batch.step_unchecked_tables
    counts = np.zeros((1 if rival is None else 2, target + 1, target + 1))
    seen = 0
    while seen < manos:
        if rival is None:
            actions = act_batch(policy, env.obs, env.mask)
        else:
            actions = np.empty(env.num_envs, dtype=np.int64)
            for who, side in ((0, policy), (1, rival)):
                rows = np.flatnonzero(env.team == who)
                if rows.size:
                    actions[rows] = act_batch(side, env.obs[rows], env.mask[rows])
        after = env.states.copy()
        step(after, actions)  # the mano's end as it is, before the env deals the next
        env.step(actions)
        r = np.flatnonzero(after[:, L.PHASE] == L.PH_DONE)
        if r.size == 0:
            continue
        won = after[r, L.CHINAS : L.CHINAS + 6].astype(np.int64).reshape(-1, 2, 3)
        rest = won[:, :, 1] + won[:, :, 2]  # flor and truco (argentino), flores and truque (Moteño)
        mano_team = after[r, L.MANO_SEAT].astype(np.int64) % 2
        tm, tp = rest[np.arange(r.size), mano_team], rest[np.arange(r.size), 1 - mano_team]
        keep = (tm + tp) > 0
        which = np.zeros(r.size, dtype=np.int64) if rival is None else mano_team  # the policy is team 0
        np.add.at(counts, (which[keep], np.minimum(tm[keep], target), np.minimum(tp[keep], target)), 1.0)
        seen += int(keep.sum())
    Q = counts / counts.sum(axis=(1, 2), keepdims=True)
    return Q[0] if rival is None else Q


def _keep_bot_rows(table: np.ndarray, policy: np.ndarray, decision: np.ndarray, mano_rows: np.ndarray, m: int) -> None:
    """Into one score's ``table`` [rows, slots, types], the bot's rows of the game where it sits at
    ``m`` (0 mano: the mano's rows; 1 pie: the pie's), its own types only (the table's: a rival's
    are doubled). Shared with ``train.cfr.pares_moteno``."""
    rows = mano_rows if m == 0 else ~mano_rows
    table[rows] = policy[decision][rows][..., : table.shape[-1]]


def _node_rows(sk: Skeleton, decision: np.ndarray) -> np.ndarray:
    """The table row of each node of the skeleton (-1 at terminals)."""
    node_row = np.full(sk.player.size, -1, dtype=np.int64)
    node_row[decision] = np.arange(decision.size)
    return node_row


def solve_juego(cfg: EnvidoSolveConfig, Q: np.ndarray, progress=None) -> dict:
    """Every score of the juego, from the target down: the strategies ``[a, b, node, slot, type]``
    (float32), ``V[a, b]`` and each score's exploitability (in chances of the juego).

    ``Q`` is one distribution (T+1, T+1) when both sides play the rest of the mano alike (a bot's
    self-play), or two (2, T+1, T+1) when they do not (``measure_mano_points`` with a rival):
    ``Q[0]`` with the bot as mano, ``Q[1]`` with the rival as mano, each as (mano's, pie's) points.
    Then the games differ by who is mano: at each score the game with the bot as mano gives the
    table's mano rows, the game with the rival as mano its pie rows, so the table is the bot's
    strategy in both seats (the rival's is the other half of each equilibrium, not kept). ``V`` is
    then the bot's chance as mano and ``V_pie[a, b]`` its chance as pie (the rival mano at a)."""
    T = cfg.target
    sk = build_skeleton(cfg.max_raises)
    prior, beats = deal_of(cfg.team_size, cfg.flor, cfg.deal_samples, cfg.seed)
    Q = np.asarray(Q, dtype=np.float64)
    pair = Q if Q.ndim == 3 else Q[None]
    if pair.shape[0] not in (1, 2) or pair.shape[1:] != (T + 1, T + 1) or any(
            abs(q.sum() - 1.0) > 1e-9 or q[0, 0] != 0.0 for q in pair):
        raise ValueError(f"Q must be one or two ({T + 1}, {T + 1}) distributions of points, each with Q[0, 0] = 0")
    if cfg.blind_share and len(pair) == 1:
        raise ValueError("blind_share needs a rival: two distributions of points")
    if not 0.0 <= cfg.blind_share <= 1.0 or not 0.0 <= 3 * cfg.blind_opening <= 1.0:
        raise ValueError(f"blind_share must be in [0, 1] and blind_opening in [0, 1/3], got {cfg.blind_share} "
                         f"and {cfg.blind_opening}")
    decision = np.flatnonzero(sk.player >= 0)
    mano_rows = sk.player[decision] == 0
    strategies = np.zeros((T, T, decision.size, NUM_SLOTS, NUM_TYPES), dtype=np.float32)
    # the mano's chance at the start of a mano, by who is mano: [0] the bot (or either, alike), [1] the rival
    V = np.zeros((pair.shape[0], T, T))
    expl = np.zeros((pair.shape[0], T, T))
    worst = np.zeros((pair.shape[0], T, T))  # the bot's chance against a rational rival's best answer
    todo_dicho = np.zeros((T, T, 2, NUM_TYPES), dtype=np.float32)
    for total in range(2 * T - 2, -1, -1):
        for a in range(max(0, total - T + 1), min(T - 1, total) + 1):
            b = total - a
            for m in range(pair.shape[0]):
                # after this mano the other side is mano: its chance there is V of the other game
                U = envido_payoffs(V[len(pair) - 1 - m], pair[m], a, b, T)
                answers = todo_dicho_answers(U, prior, beats, a, b, T, cfg.falta_match)
                if len(pair) == 1:
                    todo_dicho[a, b] = answers
                else:  # the bot's seat in this game: the mano when m is 0
                    todo_dicho[a, b, m] = answers[m]
                game = score_game(sk, prior, beats, U, a, b, T, cfg.falta_match)
                played = game
                if cfg.blind_share:  # the rival is player 1 when the bot is mano (m 0), else player 0
                    played = restricted_nash_response(
                        game, 1 - m, cfg.blind_share,
                        blind_strategy(game.player, sk.kind, game.child, 1 - m, cfg.blind_opening))
                solver = PublicTreeSolver(played, tremble=cfg.tremble)
                solver.run(cfg.iterations)
                policy = solver.average_policy()
                if len(pair) == 2:
                    bot = np.where((game.player == m)[:, None, None], policy[:, :, :NUM_TYPES], 0.0)
                    br = best_response_value(game, bot, 1 - m)
                    worst[m, a, b] = -br if m == 0 else 1.0 - br  # player 1's payoff is minus the mano's chance
                if len(pair) == 1:
                    strategies[a, b] = policy[decision]
                else:
                    _keep_bot_rows(strategies[a, b], policy, decision, mano_rows, m)
                V[m, a, b] = profile_value(played, policy)
                expl[m, a, b] = exploitability(played, policy)
            if progress is not None:
                progress()
    out = {"strategies": strategies, "V": V[0], "exploitability": expl.max(axis=0), "skeleton": sk,
           "node_row": _node_rows(sk, decision), "decision": decision, "todo_dicho": todo_dicho}
    if len(pair) == 2:
        out["V_pie"] = 1.0 - V[1]
        out["worst"], out["worst_pie"] = worst[0], worst[1]
    return out


def solve_mixture(cfg: EnvidoSolveConfig, rational, blind, progress=None) -> dict:
    """Every score's envido against a rival of two kinds, not known when the mano starts: blind
    with chance ``cfg.blind_share`` and rational otherwise. ``rational`` and ``blind`` are tables
    (``agents.envido_table.EnvidoTable``): a self-play one, whose ``Q`` and ``V`` value the rest
    of the juego against a rational rival, and one solved against the blind rival (two ``Q`` and
    ``V``/``V_pie``: the rest of the juego against him). The game at each score and seat is the
    restricted Nash response to ``blind_strategy`` whose blind deals are paid by the blind table's
    values and the rest by the rational one's (``public_tree.restricted_nash_response`` with
    ``fixed_win``). Scores do not depend on each other: after this mano each kind's juego goes on
    as its table values it (the kind is taken as known from the next mano on). The answers to todo
    dicho are the blind kind's: only a blind rival says it.

    The result is ``solve_juego``'s with two games per score (the bot mano, the bot pie);
    ``worst``/``worst_pie`` are the bot's chances against a rational rival's best answer and
    ``blind_value``/``blind_value_pie`` against the blind rival, each in its kind's values."""
    T = cfg.target
    if rational.V_pie is not None or blind.V_pie is None or np.ndim(blind.Q) != 3:
        raise ValueError("mixture_of takes a self-play table, then a table solved against a rival (--rival)")
    game_of = (T, cfg.flor, cfg.falta_match, cfg.max_raises, cfg.team_size)
    for table in (rational, blind):
        if (table.target, table.flor, table.falta_match, table.max_raises, table.team_size) != game_of:
            raise ValueError(f"{table.path}: solved for another game (target, flor, falta_match, max_raises, "
                             f"team_size) than {game_of}")
    if not 0.0 <= cfg.blind_share <= 1.0 or not 0.0 <= 3 * cfg.blind_opening <= 1.0:
        raise ValueError(f"blind_share must be in [0, 1] and blind_opening in [0, 1/3], got {cfg.blind_share} "
                         f"and {cfg.blind_opening}")
    sk = build_skeleton(cfg.max_raises)
    prior, beats = deal_of(cfg.team_size, cfg.flor, cfg.deal_samples, cfg.seed)
    Vr, Qr = np.asarray(rational.V, dtype=np.float64), np.asarray(rational.Q, dtype=np.float64)
    # the blind game's mano chance by who is mano: [0] the bot, [1] the rival (solve_juego's V)
    Vb = np.stack([np.asarray(blind.V, dtype=np.float64), 1.0 - np.asarray(blind.V_pie, dtype=np.float64)])
    Qb = np.asarray(blind.Q, dtype=np.float64)
    decision = np.flatnonzero(sk.player >= 0)
    mano_rows = sk.player[decision] == 0
    strategies = np.zeros((T, T, decision.size, NUM_SLOTS, NUM_TYPES), dtype=np.float32)
    V, expl, worst, against_blind = (np.zeros((2, T, T)) for _ in range(4))
    todo_dicho = np.zeros((T, T, 2, NUM_TYPES), dtype=np.float32)
    share = cfg.blind_share
    for a in range(T):
        for b in range(T):
            Ur = envido_payoffs(Vr, Qr, a, b, T)
            for m in range(2):
                Ub = envido_payoffs(Vb[1 - m], Qb[m], a, b, T)
                # todo dicho is answered as the blind kind's: no rational bot says it (a falta said
                # blind), so the word itself shows the kind (docs/league_argentino.md, "the first manos")
                todo_dicho[a, b, m] = todo_dicho_answers(Ub, prior, beats, a, b, T, cfg.falta_match)[m]
                game = score_game(sk, prior, beats, Ur, a, b, T, cfg.falta_match)
                paid_blind = score_game(sk, prior, beats, Ub, a, b, T, cfg.falta_match)
                fixed = blind_strategy(game.player, sk.kind, game.child, 1 - m, cfg.blind_opening)
                played = restricted_nash_response(game, 1 - m, share, fixed, paid_blind.win, paid_blind.lose)
                solver = PublicTreeSolver(played, tremble=cfg.tremble)
                solver.run(cfg.iterations)
                policy = solver.average_policy()
                bot = np.where((game.player == m)[:, None, None], policy[:, :, :NUM_TYPES], 0.0)
                br = best_response_value(game, bot, 1 - m)
                worst[m, a, b] = -br if m == 0 else 1.0 - br  # player 1's payoff is minus the mano's chance
                vb = profile_value(paid_blind, np.where((game.player == m)[:, None, None], bot, fixed))
                against_blind[m, a, b] = vb if m == 0 else 1.0 - vb
                _keep_bot_rows(strategies[a, b], policy, decision, mano_rows, m)
                V[m, a, b] = profile_value(played, policy)
                expl[m, a, b] = exploitability(played, policy)
            if progress is not None:
                progress()
    return {"strategies": strategies, "V": V[0], "V_pie": 1.0 - V[1], "exploitability": expl.max(axis=0),
            "skeleton": sk, "node_row": _node_rows(sk, decision), "decision": decision, "todo_dicho": todo_dicho,
            "worst": worst[0], "worst_pie": worst[1], "blind_value": against_blind[0],
            "blind_value_pie": against_blind[1]}


def table_arrays(cfg: EnvidoSolveConfig, solved: dict, Q: np.ndarray) -> dict:
    """The table as ``agents.envido_table`` reads it (plain arrays; the format in its docstring)."""
    sk = solved["skeleton"]
    decision = solved["decision"]
    return {
        "format": np.array(TABLE_FORMAT), "version": np.array(TABLE_VERSION),
        "target": np.array(cfg.target), "flor": np.array(cfg.flor), "falta_match": np.array(cfg.falta_match),
        "max_raises": np.array(cfg.max_raises), "team_size": np.array(cfg.team_size),
        "envido_values": ENVIDO_VALUES,
        "strategies": solved["strategies"].astype(np.float16),
        **({"todo_dicho": solved["todo_dicho"].astype(np.float16)} if cfg.todo_dicho else {}),
        "row_of_code": np.where(sk.node_of_code >= 0, solved["node_row"][np.maximum(sk.node_of_code, 0)], -1),
        "player": sk.player[decision], "kind": sk.kind[decision],
        "V": solved["V"].astype(np.float32), "Q": Q.astype(np.float32),
        **({"V_pie": solved["V_pie"].astype(np.float32)} if "V_pie" in solved else {}),
        "rival": np.array(cfg.rival or ""),
    }


def _points_summary(Q: np.ndarray, target: int) -> dict:
    tm, tp = np.nonzero(Q)
    return {"mean_mano": float((Q.sum(axis=1) * np.arange(target + 1)).sum()),
            "mean_pie": float((Q.sum(axis=0) * np.arange(target + 1)).sum()),
            "support": [[int(a), int(b), float(Q[a, b])] for a, b in zip(tm, tp, strict=True) if Q[a, b] >= 1e-3]}


def run(cfg: EnvidoSolveConfig) -> dict:
    from agents.registry import load_policy
    from truque_env.progress import Progress

    if cfg.manos < 1000 or cfg.iterations < 1 or cfg.target < 2:
        raise ValueError(f"manos must be >= 1000, iterations >= 1 and target >= 2 (got {cfg.manos}, {cfg.iterations}, "
                         f"{cfg.target})")
    if cfg.team_size not in (1, 2, 3) or cfg.deal_samples < 1000:
        raise ValueError(f"team_size must be 1, 2 or 3 and deal_samples >= 1000 (got {cfg.team_size}, "
                         f"{cfg.deal_samples})")
    if cfg.mixture_of is not None and cfg.rival is not None:
        raise ValueError("mixture_of reads both kinds' points from its tables: give no rival")
    check_new_output(cfg.out, cfg.overwrite)
    check_new_output(cfg.summary, cfg.overwrite)
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    if cfg.mixture_of is None:
        rival = None if cfg.rival is None else load_policy(cfg.rival, seed=cfg.seed + 1, tradition="argentino")
        Q = measure_mano_points(load_policy(cfg.points_of, seed=cfg.seed, tradition="argentino"), cfg.manos,
                                cfg.target, cfg.seed, rival=rival, team_size=cfg.team_size)
    else:
        from agents.envido_table import EnvidoTable

        rational, blind = (EnvidoTable(p) for p in cfg.mixture_of)
        Q = np.asarray(blind.Q, dtype=np.float64)
    t1 = time.perf_counter()
    with Progress("envido solved at every score", total=cfg.target * cfg.target, transient=True) as bar:
        done = [0]

        def tick():
            done[0] += 1
            bar.update(done[0])

        solved = solve_juego(cfg, Q, progress=tick) if cfg.mixture_of is None else \
            solve_mixture(cfg, rational, blind, progress=tick)
    t2 = time.perf_counter()
    arrays = table_arrays(cfg, solved, Q)
    if cfg.mixture_of is not None:  # its Q is the blind table's; the rational kind is valued by the other's
        arrays["rival"] = np.array(f"{blind.rival or 'blind'} with chance {cfg.blind_share}, else rational "
                                   f"({rational.path.name})")
    write_npz_atomic(cfg.out, arrays, compressed=True)
    expl = solved["exploitability"]
    summary = {
        "description": f"the envido of truco argentino {cfg.team_size} contra {cfg.team_size} solved by CFR+ at every "
                       "score (train.cfr.envido_argentino" + (", the team abstraction of train.cfr.envido_teams)"
                                                              if cfg.team_size > 1 else ")"),
        "table": str(cfg.out),
        **({"mano_points": {"manos": cfg.manos, **_points_summary(Q if Q.ndim == 2 else Q[0], cfg.target)}}
           if cfg.mixture_of is None else {"mixture_of": [str(p) for p in cfg.mixture_of]}),
        "juego_chance_of_the_first_mano": float(solved["V"][0, 0]),
        "exploitability": {"max": float(expl.max()), "mean": float(expl.mean()),
                           "unit": "the juego's winning chance: what a best responder to the table gains at one score"},
        **({"rival": cfg.rival, "mano_points_rival_mano": _points_summary(Q[1], cfg.target)}
           if Q.ndim == 3 and cfg.mixture_of is None else {}),
        **({"juego_chance_of_the_first_mano_as_pie": float(solved["V_pie"][0, 0]),
            "against_a_rational_rivals_best_answer": {
                "first_mano": float(solved["worst"][0, 0]), "first_mano_as_pie": float(solved["worst_pie"][0, 0]),
                "unit": "the bot's chance of the juego in the envido game at that score when the rival, rational, "
                        "best-answers the table (the rest of the juego as the solve valued it)"}} if Q.ndim == 3 else {}),
        **({"against_the_blind_rival": {
            "first_mano": float(solved["blind_value"][0, 0]), "first_mano_as_pie": float(solved["blind_value_pie"][0, 0]),
            "unit": "the bot's chance of the juego in the envido game at that score against the blind rival's envido "
                    "(the rest of the juego as the blind table valued it)"}} if cfg.mixture_of is not None else {}),
        "minutes": {"measure": (t1 - t0) / 60, "solve": (t2 - t1) / 60},
        "load_average_before": list(load_before), "load_average_after": list(os.getloadavg()),
        "config": config.to_dict(cfg),
    }
    write_json_atomic(cfg.summary, summary)
    print(f"wrote {cfg.out} and {cfg.summary}: exploitability at most {expl.max():.2e} of a juego, "
          f"the mano's chance in the first mano {solved['V'][0, 0]:.3f}")
    return summary


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(EnvidoSolveConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
