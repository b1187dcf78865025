"""CFR+ in vector form on a public tree: games whose only chance is one deal of a private *type*
to each of two players, every action public, and terminals that pay by a showdown of the types.

Kuhn poker is one (the types are the cards); the envido of truco argentino mano a mano is another
(``train.cfr.envido_argentino``: the types are the envido values). Expanding the deal into the
tree, as ``train.cfr.games`` does for ``train.cfr.solvers``, multiplies the tree by the number of
type pairs (484 for the envido); here the tree holds only the public histories and every node
carries a vector over the types (the "vector form" of CFR: Johanson et al. 2012, *Efficient Nash
equilibrium approximation through Monte Carlo counterfactual regret minimization*, and the public
trees of DeepStack, Moravčík et al. 2017). One iteration costs one sweep of the public tree with a
``types x types`` product at each terminal.

The game, :class:`PublicTreeGame`, as flat arrays (nodes numbered so that a parent comes before
its children; node 0 the root):

* ``player[n]``: 0 or 1 acts at ``n``, or -1 (a terminal);
* ``child[n, a]``: the node action slot ``a`` leads to, -1 where the slot is not legal;
* ``win[n]``, ``lose[n]``: at a terminal, player 0's payoff when his type beats player 1's and
  when it does not (equal for a terminal without a showdown); player 1 gets the negative;
* ``prior[t0, t1]``: the deal's joint probability of the two types;
* ``beats[t0, t1]``: 1 where type t0 wins the showdown against t1 (a share in [0, 1] for a split);
* optionally ``payoff_class[t0, t1]``: which column of ``win`` and ``lose`` (then ``[nodes, classes]``)
  pays a pair of types, for games whose payoffs depend on more than the showdown: a rival of two
  kinds, say, who values the rest of the juego differently (``restricted_nash_response``'s
  ``fixed_win``). Without it every pair is paid by the one column.

An information state is a decision node and the actor's type: the strategy tables are
``[nodes, slots, types]``.

The solver is CFR+ (Tammelin 2014: regret matching+, alternating updates, the average weighted by
the iteration) with one addition for the bots that play the result: **off-path answers**. Where
equilibrium play never goes (an opening no type of the rival chooses), plain CFR leaves the
answer untrained and an opponent who deviates there meets noise. With ``tremble`` = ε > 0 the
opponent's reach is computed as if every legal action were taken with probability at least ε
(the ε-perturbed game of a trembling-hand refinement, as in Farina & Gatti's and Kroer et al.'s
work on refined equilibria): every node is then reached by each rival type in proportion to how
it got to the node's parent, and the answer there is a best answer to a rival who deviates with
whatever hand he held. ``exploitability`` measures the unperturbed game.

``tests/train/test_public_tree.py`` solves Kuhn poker (value -1/18) and checks the result with
``train.cfr.solvers``' exact best response on its expanded tree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit


@dataclass(frozen=True)
class PublicTreeGame:
    player: np.ndarray  # (nodes,) int64
    child: np.ndarray  # (nodes, slots) int64
    win: np.ndarray  # (nodes,) or (nodes, classes) float64
    lose: np.ndarray  # (nodes,) or (nodes, classes) float64
    prior: np.ndarray  # (types0, types1) float64
    beats: np.ndarray  # (types0, types1) float64
    fixed: np.ndarray | None = None  # (nodes, slots, types) float64: NaN, or a type's fixed strategy at a node
    payoff_class: np.ndarray | None = None  # (types0, types1) int64: the column of win and lose paying the pair

    def __post_init__(self):
        n = self.player.shape[0]
        if self.child.ndim != 2 or self.child.shape[0] != n or self.win.shape[:1] != (n,) or \
                self.win.shape != self.lose.shape or self.win.ndim > 2:
            raise ValueError("player, child, win and lose must describe the same nodes")
        if self.prior.shape != self.beats.shape or self.prior.ndim != 2:
            raise ValueError("prior and beats must be (types0, types1) arrays of one shape")
        classes = 1 if self.win.ndim == 1 else self.win.shape[1]
        if self.payoff_class is None and classes != 1:
            raise ValueError("win and lose have several columns: payoff_class must say which pays each pair")
        if self.payoff_class is not None and (self.payoff_class.shape != self.prior.shape or
                                              (self.payoff_class < 0).any() or (self.payoff_class >= classes).any()):
            raise ValueError(f"payoff_class must be a (types0, types1) array of columns of win and lose (0..{classes - 1})")
        if abs(float(self.prior.sum()) - 1.0) > 1e-9 or (self.prior < 0).any():
            raise ValueError("prior must be a probability table")
        if self.fixed is not None:
            if self.fixed.shape != (n, self.child.shape[1], self.num_types):
                raise ValueError("fixed must be a (nodes, slots, types) array")
            f = np.nan_to_num(self.fixed, nan=0.0)
            set_ = ~np.isnan(self.fixed).all(axis=1)  # (nodes, types): where a type's play is fixed
            if ((self.child[:, :, None] < 0) & (f > 0)).any() or (f < 0).any() or \
                    not np.allclose(f.sum(axis=1)[set_], 1.0):
                raise ValueError("a fixed strategy must be a distribution over the legal slots")
        for node in range(n):
            kids = self.child[node][self.child[node] >= 0]
            if self.player[node] >= 0 and kids.size == 0:
                raise ValueError(f"decision node {node} has no legal action")
            if self.player[node] < 0 and kids.size:
                raise ValueError(f"terminal {node} has children")
            if (kids <= node).any():
                raise ValueError(f"node {node}: children must come after their parent")

    @property
    def num_types(self) -> int:
        return max(self.prior.shape)


@njit(cache=True)
def _current_strategy(regret, child, n, nt, out):
    """Regret matching+ at node ``n`` for ``nt`` types into ``out[slots, types]``."""
    slots = child.shape[1]
    for t in range(nt):
        total = 0.0
        legal = 0
        for a in range(slots):
            if child[n, a] >= 0:
                legal += 1
                total += regret[n, a, t]
        for a in range(slots):
            if child[n, a] < 0:
                out[a, t] = 0.0
            elif total > 0.0:
                out[a, t] = regret[n, a, t] / total
            else:
                out[a, t] = 1.0 / legal


@njit(cache=True)
def _strategies(regret, player, child, n0, n1, fixed, sigma):
    """The current strategies; a type whose play is fixed at a node (``fixed`` not NaN) plays that."""
    for n in range(player.size):
        if player[n] >= 0:
            nt = n0 if player[n] == 0 else n1
            _current_strategy(regret, child, n, nt, sigma[n])
            for t in range(nt):
                if not np.isnan(fixed[n, 0, t]):
                    for a in range(child.shape[1]):
                        sigma[n, a, t] = fixed[n, a, t]


@njit(cache=True)
def _reach(player, child, sigma, who, nt, tremble, reach):
    """``who``'s own reach of every node per type under ``sigma`` (mixed with ε-uniform if tremble)."""
    slots = child.shape[1]
    reach[0, :nt] = 1.0
    for n in range(player.size):
        if player[n] < 0:
            continue
        legal = 0
        for a in range(slots):
            if child[n, a] >= 0:
                legal += 1
        for a in range(slots):
            c = child[n, a]
            if c < 0:
                continue
            for t in range(nt):
                if player[n] == who:
                    p = sigma[n, a, t]
                    if tremble > 0.0:
                        p = (1.0 - tremble * legal) * p + tremble
                    reach[c, t] = reach[n, t] * p
                else:
                    reach[c, t] = reach[n, t]


@njit(cache=True)
def _terminal_values(player, win, lose, prior, beats, cls, who, reach_other, value):
    """Counterfactual values of ``who`` at the terminals: Σ over the rival's types of the deal's
    probability × the rival's reach × ``who``'s payoff."""
    n0, n1 = prior.shape
    for n in range(player.size):
        if player[n] >= 0:
            continue
        if who == 0:
            for t0 in range(n0):
                v = 0.0
                for t1 in range(n1):
                    w = prior[t0, t1] * reach_other[n, t1]
                    c = cls[t0, t1]
                    v += w * (beats[t0, t1] * win[n, c] + (1.0 - beats[t0, t1]) * lose[n, c])
                value[n, t0] = v
        else:
            for t1 in range(n1):
                v = 0.0
                for t0 in range(n0):
                    w = prior[t0, t1] * reach_other[n, t0]
                    c = cls[t0, t1]
                    v -= w * (beats[t0, t1] * win[n, c] + (1.0 - beats[t0, t1]) * lose[n, c])
                value[n, t1] = v


@njit(cache=True)
def _iterate(player, child, win, lose, prior, beats, cls, fixed, regret, avg, start, iterations, tremble,
             sigma, reach_own, reach_other, value):
    n0, n1 = prior.shape
    slots = child.shape[1]
    for it in range(iterations):
        weight = float(start + it + 1)
        for who in range(2):
            nt = n0 if who == 0 else n1
            _strategies(regret, player, child, n0, n1, fixed, sigma)
            _reach(player, child, sigma, who, nt, 0.0, reach_own)
            _reach(player, child, sigma, 1 - who, n1 if who == 0 else n0, tremble, reach_other)
            _terminal_values(player, win, lose, prior, beats, cls, who, reach_other, value)
            for n in range(player.size - 1, -1, -1):
                if player[n] < 0:
                    continue
                for t in range(nt):
                    v = 0.0
                    for a in range(slots):
                        c = child[n, a]
                        if c >= 0:
                            v += (sigma[n, a, t] if player[n] == who else 1.0) * value[c, t]
                    value[n, t] = v
                if player[n] == who:
                    for a in range(slots):
                        c = child[n, a]
                        if c < 0:
                            continue
                        for t in range(nt):
                            r = regret[n, a, t] + value[c, t] - value[n, t]
                            regret[n, a, t] = r if r > 0.0 else 0.0
                            avg[n, a, t] += weight * reach_own[n, t] * sigma[n, a, t]


@njit(cache=True)
def _best_response(player, child, win, lose, prior, beats, cls, fixed, policy, who, reach_other, value):
    """``who``'s best-response value against the other's ``policy`` (exact: an information state
    is one node and one type, so the maximum is taken per node and type; a type whose play the
    game fixes plays it)."""
    n0, n1 = prior.shape
    nt = n0 if who == 0 else n1
    slots = child.shape[1]
    _reach(player, child, policy, 1 - who, n1 if who == 0 else n0, 0.0, reach_other)
    _terminal_values(player, win, lose, prior, beats, cls, who, reach_other, value)
    for n in range(player.size - 1, -1, -1):
        if player[n] < 0:
            continue
        for t in range(nt):
            best = -1e300
            total = 0.0
            kept = 0.0
            for a in range(slots):
                c = child[n, a]
                if c >= 0:
                    total += value[c, t]
                    if value[c, t] > best:
                        best = value[c, t]
                    if player[n] == who and not np.isnan(fixed[n, 0, t]):
                        kept += fixed[n, a, t] * value[c, t]
            if player[n] != who:
                value[n, t] = total
            else:
                value[n, t] = kept if not np.isnan(fixed[n, 0, t]) else best
    v = 0.0
    for t in range(nt):
        v += value[0, t]
    return v


@njit(cache=True)
def _profile_value(player, child, win, lose, prior, beats, cls, policy, reach0, reach1):
    n0, n1 = prior.shape
    _reach(player, child, policy, 0, n0, 0.0, reach0)
    _reach(player, child, policy, 1, n1, 0.0, reach1)
    v = 0.0
    for n in range(player.size):
        if player[n] >= 0:
            continue
        for t0 in range(n0):
            for t1 in range(n1):
                w = prior[t0, t1] * reach0[n, t0] * reach1[n, t1]
                c = cls[t0, t1]
                v += w * (beats[t0, t1] * win[n, c] + (1.0 - beats[t0, t1]) * lose[n, c])
    return v


def _arrays(game: PublicTreeGame):
    """The game's arrays as the kernels take them: win and lose as [nodes, classes], and the classes."""
    n = game.player.size
    cls = np.zeros(game.prior.shape, dtype=np.int64) if game.payoff_class is None else game.payoff_class
    return (np.ascontiguousarray(game.player, dtype=np.int64), np.ascontiguousarray(game.child, dtype=np.int64),
            np.ascontiguousarray(game.win.reshape(n, -1), dtype=np.float64),
            np.ascontiguousarray(game.lose.reshape(n, -1), dtype=np.float64),
            np.ascontiguousarray(game.prior, dtype=np.float64), np.ascontiguousarray(game.beats, dtype=np.float64),
            np.ascontiguousarray(cls, dtype=np.int64))


def _fixed(game: PublicTreeGame) -> np.ndarray:
    shape = (game.player.size, game.child.shape[1], game.num_types)
    return np.full(shape, np.nan) if game.fixed is None else np.ascontiguousarray(game.fixed, dtype=np.float64)


def _work(game: PublicTreeGame):
    shape = (game.player.size, game.num_types)
    return np.zeros(shape), np.zeros(shape), np.zeros(shape)


class PublicTreeSolver:
    """CFR+ on one :class:`PublicTreeGame`; ``run(k)`` adds k iterations, ``average_policy()`` is
    the result: ``[nodes, slots, types]`` probabilities (rows of terminals and of types a player
    does not have are zero)."""

    def __init__(self, game: PublicTreeGame, tremble: float = 0.0):
        slots = game.child.shape[1]
        if not 0.0 <= tremble * slots < 1.0:
            raise ValueError(f"tremble must be in [0, 1/slots), got {tremble}")
        self.game, self.tremble = game, float(tremble)
        shape = (game.player.size, slots, game.num_types)
        self.regret = np.zeros(shape)
        self.avg = np.zeros(shape)
        self.sigma = np.zeros(shape)
        self.fixed = _fixed(game)
        self.iterations = 0

    def run(self, iterations: int) -> None:
        reach_own, reach_other, value = _work(self.game)
        _iterate(*_arrays(self.game), self.fixed, self.regret, self.avg, self.iterations, int(iterations),
                 self.tremble, self.sigma, reach_own, reach_other, value)
        self.iterations += int(iterations)

    def current_policy(self) -> np.ndarray:
        n0, n1 = self.game.prior.shape
        out = np.zeros_like(self.regret)
        _strategies(self.regret, *_arrays(self.game)[:2], n0, n1, self.fixed, out)
        return out

    def average_policy(self) -> np.ndarray:
        """The weighted average; where a type never reached a node, the current strategy (what
        CFR+ would answer there, trained by the rivals' reach alone)."""
        total = self.avg.sum(axis=1, keepdims=True)
        current = self.current_policy()
        return np.where(total > 0.0, self.avg / np.where(total > 0.0, total, 1.0), current)


def restricted_nash_response(game: PublicTreeGame, who: int, share: float, strategy: np.ndarray,
                             fixed_win: np.ndarray | None = None,
                             fixed_lose: np.ndarray | None = None) -> PublicTreeGame:
    """The game in which ``who`` plays the fixed ``strategy`` ([nodes, slots, who's types]) with
    probability ``share`` and plays freely otherwise, not knowing which before the deal; his rival
    does not know either. Its equilibrium is Johanson, Zinkevich and Bowling's *restricted Nash
    response* (2007): the rival's side of it exploits the fixed play as far as ``share`` allows
    while a free player could punish it for the rest; share 0 is the game's Nash equilibrium,
    share 1 the best response to ``strategy``.

    ``who``'s types are doubled: the first half plays freely, the second (``t + types``) the fixed
    ``strategy``; the rival's types and the tree are unchanged. The terminals pay as ``game``'s, or,
    with ``fixed_win`` and ``fixed_lose`` ((nodes,) each), a deal of the fixed half is paid by those
    instead (``payoff_class``): a rival of two kinds who differ beyond this game, as a blind player,
    whom the bot outplays in the rest of the juego, and a rational one."""
    if who not in (0, 1) or not 0.0 <= share <= 1.0:
        raise ValueError(f"who must be 0 or 1 and share in [0, 1], got {who} and {share}")
    nt = game.prior.shape[who]
    if game.fixed is not None or game.payoff_class is not None:
        raise ValueError("the game already fixes some play or has payoff classes")
    strategy = np.asarray(strategy, dtype=np.float64)
    if strategy.shape != (game.player.size, game.child.shape[1], nt):
        raise ValueError(f"strategy must be (nodes, slots, {nt})")
    prior = np.concatenate([game.prior * (1.0 - share), game.prior * share], axis=who)
    beats = np.concatenate([game.beats, game.beats], axis=who)
    other = game.prior.shape[1 - who]
    types = 2 * nt
    width = max(types, other)
    fixed = np.full((game.player.size, game.child.shape[1], width), np.nan)
    mine = game.player == who
    fixed[mine, :, nt:types] = strategy[mine]
    if (fixed_win is None) != (fixed_lose is None):
        raise ValueError("give both fixed_win and fixed_lose, or neither")
    if fixed_win is None:
        return PublicTreeGame(game.player, game.child, game.win, game.lose, prior, beats, fixed)
    fixed_win, fixed_lose = np.asarray(fixed_win, dtype=np.float64), np.asarray(fixed_lose, dtype=np.float64)
    if fixed_win.shape != game.win.shape or fixed_lose.shape != game.lose.shape or game.win.ndim != 1:
        raise ValueError(f"fixed_win and fixed_lose must be ({game.player.size},) like the game's win and lose")
    half = np.zeros(prior.shape, dtype=np.int64)
    if who == 0:
        half[nt:, :] = 1
    else:
        half[:, nt:] = 1
    return PublicTreeGame(game.player, game.child, np.stack([game.win, fixed_win], axis=1),
                          np.stack([game.lose, fixed_lose], axis=1), prior, beats, fixed, half)


def best_response_value(game: PublicTreeGame, policy: np.ndarray, player: int) -> float:
    reach_other, value, _ = _work(game)
    return float(_best_response(*_arrays(game), _fixed(game), np.ascontiguousarray(policy, dtype=np.float64),
                                int(player), reach_other, value))


def profile_value(game: PublicTreeGame, policy: np.ndarray) -> float:
    """Player 0's expected payoff when both play ``policy``."""
    r0, r1, _ = _work(game)
    return float(_profile_value(*_arrays(game), np.ascontiguousarray(policy, dtype=np.float64), r0, r1))


def exploitability(game: PublicTreeGame, policy: np.ndarray) -> float:
    """NashConv / 2, as ``train.cfr.solvers`` and OpenSpiel define it for zero-sum games."""
    return 0.5 * (best_response_value(game, policy, 0) + best_response_value(game, policy, 1))


def kuhn_poker() -> PublicTreeGame:
    """Kuhn poker as a public tree (the rules of ``train.cfr.games``: J < Q < K, ante 1, bets of 1,
    player 0 first). Slots: 0 pass (check or fold), 1 bet (bet or call)."""
    # nodes: 0 root (p0); 1 "p" (p1); 2 "b" (p1); 3 "pp" T; 4 "pb" (p0); 5 "bp" T (p1 folds);
    # 6 "bb" T; 7 "pbp" T (p0 folds); 8 "pbb" T
    player = np.array([0, 1, 1, -1, 0, -1, -1, -1, -1])
    child = np.full((9, 2), -1)
    child[0] = (1, 2)
    child[1] = (3, 4)
    child[2] = (5, 6)
    child[4] = (7, 8)
    win = np.array([0, 0, 0, 1, 0, 1, 2, -1, 2], dtype=np.float64)
    lose = np.array([0, 0, 0, -1, 0, 1, -2, -1, -2], dtype=np.float64)
    prior = (1.0 - np.eye(3)) / 6.0
    beats = np.triu(np.ones((3, 3)), 1).T  # beats[t0, t1] = t0 > t1
    return PublicTreeGame(player, child, win, lose, prior, beats)
