"""Counterfactual regret minimisation on small games: CFR, CFR+, Linear and Discounted CFR, MCCFR.

The games (``kuhn_poker``, ``leduc_poker``, and the reduced Truque Moteño games ``truque_tiny``,
``truque_pares6``, ``truque_7``, ``truque_8`` of ``train.cfr.reduced``, docs/cfr.md) are fully
expanded trees of flat arrays (``train.cfr.games``); the regret and cumulative-policy tables are
``[num_infostates, max_actions]`` float64 arrays, and every iteration runs inside a numba kernel.

Solvers (``solver = ...``), all with alternating updates (player 0's regrets and average are
updated, then player 1's against player 0's new strategy; one iteration updates both):

* ``cfr``: vanilla CFR (Zinkevich et al. 2007), regret matching, uniform averaging;
* ``cfr_plus``: CFR+ (Tammelin 2014): regret matching+, linear averaging, iteration ``t`` weighted
  ``max(t - delay, 0)`` (``delay = 0`` is OpenSpiel's CFR+);
* ``lcfr``: Linear CFR (Brown & Sandholm 2019): regrets and average weighted by ``t``;
* ``dcfr``: Discounted CFR (α, β, γ) (Brown & Sandholm 2019): after iteration ``t``, positive
  regrets are multiplied by t^α/(t^α+1), negative ones by t^β/(t^β+1), the average by (t/(t+1))^γ;
  defaults 1.5, 0, 2;
* ``mccfr_external``: Monte Carlo CFR with external sampling (Lanctot et al. 2009): the updated
  player explores every action, chance and the opponent are sampled; the opponent's average
  policy gets its current strategy where it was sampled (OpenSpiel's "simple" averaging);
* ``mccfr_outcome``: outcome sampling (Lanctot et al. 2009): one terminal history per update, the
  updated player's actions drawn ε-greedily (``exploration``, default 0.6 as OpenSpiel), regrets
  importance weighted by the sample's probability; the opponent's average is updated at its own
  nodes with weight π_opp·π_chance / q(h) (stochastically weighted averaging; unbiased like
  OpenSpiel's π_player / q(h) at the updated player's nodes, and of lower variance: on Leduc, 1M
  iterations, exploitability 0.127 against 0.204, mean of 4 seeds).

The four full-width solvers compute OpenSpiel's iterates exactly (``tests/train/test_cfr.py`` compares
them with ``open_spiel``'s solvers when ``pyspiel`` is installed); ``benchmarks/bench_cfr.py``
measures the speed against OpenSpiel's C++ solvers.

Evaluation by exact best response (a tree walk over the average policy): ``nash_conv`` = BR0 + BR1
(each player's best-response value against the other's policy), ``exploitability`` = NashConv / 2,
as OpenSpiel defines them for two-player zero-sum games; ``policy_value`` is player 0's expected
payoff of a profile.

A run (``train``) evaluates every ``eval_every`` iterations, appends (iteration, solver seconds,
exploitability) to ``run_dir/log.json`` and checkpoints to ``run_dir/checkpoint.npz`` (atomic;
``--resume`` continues bit for bit, RNG state included). ``iterations`` is the run's total.

    python -m train.cfr.solvers --config configs/cfr_leduc.toml
    python -m train.cfr.solvers --game kuhn_poker --solver dcfr --iterations 1000 --run-dir runs/cfr_kuhn

In Python::

    from train.cfr.solvers import Solver, exploitability
    from train.cfr.games import load_game
    game = load_game("leduc_poker")
    s = Solver(game, "cfr_plus")
    s.run(1000)
    exploitability(game, s.average_policy())     # < 1e-3
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from numba import njit

# importing truque_env (for its atomic JSON writer) also sets the numba cache folder
from train import config
from train.cfr.games import CHANCE, GAMES, TERMINAL, GameTree, load_game
from truque_env.engine.rng import uniform01
from truque_env.io import read_npz, write_json_atomic, write_npz_atomic

SOLVERS = ("cfr", "cfr_plus", "lcfr", "dcfr", "mccfr_external", "mccfr_outcome")
_SCHEME = {"cfr": 0, "cfr_plus": 1, "lcfr": 2, "dcfr": 3}  # the full-width solvers
_CFR, _CFR_PLUS, _LCFR, _DCFR = 0, 1, 2, 3
# the node kinds as the kernels see them: numba freezes globals when it compiles, and its cache
# only watches this file, so they are spelled here and checked against the games module
_CHANCE, _TERMINAL = 2, 3
if (CHANCE, TERMINAL) != (_CHANCE, _TERMINAL):
    raise ImportError("train.cfr.games changed the node kinds: update _CHANCE and _TERMINAL in train.cfr.solvers")
CHECKPOINT_FORMAT = "truque_env.cfr"
CHECKPOINT_VERSION = 1


# ------------------------------------------------------------------------------------------
# random numbers inside numba: splitmix64 on a one-element uint64 state (checkpointed)


@njit(cache=True)
def _sample(probs, offset, n, rng_state):
    """An index k < n drawn with probability ``probs[offset + k]``."""
    u = uniform01(rng_state)
    acc = 0.0
    last = 0
    for k in range(n):
        p = probs[offset + k]
        if p > 0.0:
            acc += p
            last = k
            if u < acc:
                return k
    return last  # u fell in the rounding gap above the sum


@njit(cache=True)
def _regret_matching_row(regrets, i, n, out):
    total = 0.0
    for a in range(n):
        if regrets[i, a] > 0.0:
            total += regrets[i, a]
    for a in range(n):
        out[a] = (max(regrets[i, a], 0.0) / total) if total > 0.0 else 1.0 / n


@njit(cache=True)
def _regret_matching(regrets, num_actions, sigma):
    for i in range(num_actions.size):
        _regret_matching_row(regrets, i, num_actions[i], sigma[i])


# ------------------------------------------------------------------------------------------
# full-width CFR, CFR+, LCFR, DCFR: a forward sweep (reach) and a backward sweep (values, updates)


@njit(cache=True)
def _full_width_iterations(node_player, first_child, num_children, parent, chance_prob, utility, infostate,
                           infostate_player, num_actions, regrets, cum_policy, start_iteration, iterations,
                           scheme, alpha, beta, gamma, delay, sigma, reach_own, reach_other, value):
    num_nodes = node_player.size
    for it in range(iterations):
        t = start_iteration + it + 1
        regret_weight, policy_weight = 1.0, 1.0
        pos_discount, neg_discount, policy_discount = 1.0, 1.0, 1.0
        if scheme == _CFR_PLUS:
            policy_weight = float(max(t - delay, 0))
        elif scheme == _LCFR:
            regret_weight, policy_weight = float(t), float(t)
        elif scheme == _DCFR:
            ta, tb = float(t) ** alpha, float(t) ** beta
            pos_discount, neg_discount = ta / (ta + 1.0), tb / (tb + 1.0)
            policy_discount = (t / (t + 1.0)) ** gamma
        for player in range(2):
            sign = 1.0 if player == 0 else -1.0
            _regret_matching(regrets, num_actions, sigma)
            # reach: the updated player's own, and everybody else's (opponent and chance)
            reach_own[0], reach_other[0] = 1.0, 1.0
            for n in range(1, num_nodes):
                par = parent[n]
                who = node_player[par]
                own, other = reach_own[par], reach_other[par]
                if who == _CHANCE:
                    other *= chance_prob[n]
                elif who == player:
                    own *= sigma[infostate[par], n - first_child[par]]
                else:
                    other *= sigma[infostate[par], n - first_child[par]]
                reach_own[n], reach_other[n] = own, other
            # values (player 0's payoff) bottom up; the updated player's regrets and average
            for n in range(num_nodes - 1, -1, -1):
                who = node_player[n]
                if who == _TERMINAL:
                    value[n] = utility[n]
                    continue
                fc, nc = first_child[n], num_children[n]
                v = 0.0
                if who == _CHANCE:
                    for k in range(nc):
                        v += chance_prob[fc + k] * value[fc + k]
                else:
                    i = infostate[n]
                    for k in range(nc):
                        v += sigma[i, k] * value[fc + k]
                    if who == player:
                        w = sign * reach_other[n] * regret_weight
                        if w != 0.0:
                            for k in range(nc):
                                regrets[i, k] += w * (value[fc + k] - v)
                        wp = reach_own[n] * policy_weight
                        if wp != 0.0:
                            for k in range(nc):
                                cum_policy[i, k] += wp * sigma[i, k]
                value[n] = v
            if scheme == _CFR_PLUS or scheme == _DCFR:
                for i in range(num_actions.size):
                    if infostate_player[i] != player:
                        continue
                    for a in range(num_actions[i]):
                        r = regrets[i, a]
                        if scheme == _CFR_PLUS:
                            regrets[i, a] = max(r, 0.0)
                        else:
                            regrets[i, a] = r * (pos_discount if r > 0.0 else neg_discount)
                            cum_policy[i, a] *= policy_discount


# ------------------------------------------------------------------------------------------
# Monte Carlo CFR


@njit(cache=True)
def _external_sampling_iterations(node_player, first_child, num_children, chance_prob, utility, infostate,
                                  regrets, cum_policy, iterations, rng_state, stack, expanded, chosen, value,
                                  sigma_row):
    """Depth first with an explicit stack: a node is expanded (its children pushed), then closed."""
    for _ in range(iterations):
        for player in range(2):
            sign = 1.0 if player == 0 else -1.0
            top = 0
            stack[0] = 0
            expanded[0] = False
            while top >= 0:
                n = stack[top]
                who = node_player[n]
                if who == _TERMINAL:
                    value[n] = utility[n]
                    top -= 1
                    continue
                fc, nc = first_child[n], num_children[n]
                if not expanded[n]:
                    expanded[n] = True
                    if who == player:  # explore every action
                        for k in range(nc):
                            top += 1
                            stack[top] = fc + k
                            expanded[fc + k] = False
                        continue
                    if who == _CHANCE:
                        c = fc + _sample(chance_prob, fc, nc, rng_state)
                    else:  # the opponent plays its current strategy, which also enters its average
                        i = infostate[n]
                        _regret_matching_row(regrets, i, nc, sigma_row)
                        for k in range(nc):
                            cum_policy[i, k] += sigma_row[k]
                        c = fc + _sample(sigma_row, 0, nc, rng_state)
                    chosen[n] = c
                    top += 1
                    stack[top] = c
                    expanded[c] = False
                    continue
                # closing: the children's values are known
                if who == player:
                    i = infostate[n]
                    _regret_matching_row(regrets, i, nc, sigma_row)  # unchanged since expansion (perfect recall)
                    v = 0.0
                    for k in range(nc):
                        v += sigma_row[k] * value[fc + k]
                    for k in range(nc):
                        regrets[i, k] += sign * (value[fc + k] - v)
                    value[n] = v
                else:
                    value[n] = value[chosen[n]]
                top -= 1


@njit(cache=True)
def _outcome_sampling_iterations(node_player, first_child, num_children, chance_prob, utility, infostate,
                                 regrets, cum_policy, iterations, rng_state, exploration, path_node, path_action,
                                 path_other, path_sample, path_q, path_sigma, sample_row):
    for _ in range(iterations):
        for player in range(2):
            sign = 1.0 if player == 0 else -1.0
            # one history down: reach of the others (opponent and chance) and of the sample
            n, depth, other, sampled = 0, 0, 1.0, 1.0
            while node_player[n] != _TERMINAL:
                who = node_player[n]
                fc, nc = first_child[n], num_children[n]
                if who == _CHANCE:
                    k = _sample(chance_prob, fc, nc, rng_state)
                    other *= chance_prob[fc + k]
                    sampled *= chance_prob[fc + k]
                    n = fc + k
                    continue
                i = infostate[n]
                _regret_matching_row(regrets, i, nc, path_sigma[depth])
                for a in range(nc):
                    s = path_sigma[depth, a]
                    sample_row[a] = exploration / nc + (1.0 - exploration) * s if who == player else s
                k = _sample(sample_row, 0, nc, rng_state)
                path_node[depth], path_action[depth] = n, k
                path_other[depth], path_sample[depth], path_q[depth] = other, sampled, sample_row[k]
                if who != player:
                    other *= path_sigma[depth, k]
                sampled *= sample_row[k]
                depth += 1
                n = fc + k
            # back up: the sampled child's value is importance weighted, the others' are 0
            v = sign * utility[n]
            for d in range(depth - 1, -1, -1):
                n = path_node[d]
                i, nc, k = infostate[n], num_children[n], path_action[d]
                child_value = v / path_q[d]
                v = path_sigma[d, k] * child_value
                w = path_other[d] / path_sample[d]
                if node_player[n] == player:
                    for a in range(nc):
                        regrets[i, a] += w * ((child_value if a == k else 0.0) - v)
                else:
                    for a in range(nc):
                        cum_policy[i, a] += w * path_sigma[d, a]


# ------------------------------------------------------------------------------------------
# exact evaluation


@njit(cache=True)
def _best_response_value(node_player, first_child, num_children, parent, level_start, chance_prob, utility,
                         infostate, policy, br_player, reach_other, value, q, br_action):
    """``br_player``'s best-response value against ``policy``; its actions go to ``br_action``.

    Level by level from the bottom: an information state's histories all lie on one level, so
    its action values q (counterfactual: weighted by the reach of chance and the opponent) are
    complete before any of its nodes takes its value from the best action.
    """
    num_nodes = node_player.size
    reach_other[0] = 1.0
    for n in range(1, num_nodes):
        par = parent[n]
        who = node_player[par]
        r = reach_other[par]
        if who == _CHANCE:
            r *= chance_prob[n]
        elif who != br_player:
            r *= policy[infostate[par], n - first_child[par]]
        reach_other[n] = r
    sign = 1.0 if br_player == 0 else -1.0
    q[:, :] = 0.0
    for d in range(level_start.size - 2, -1, -1):
        lo, hi = level_start[d], level_start[d + 1]
        for n in range(lo, hi):
            if node_player[n] == br_player:
                i, fc, w = infostate[n], first_child[n], sign * reach_other[n]
                for k in range(num_children[n]):
                    q[i, k] += w * value[fc + k]
        for n in range(lo, hi):
            who = node_player[n]
            if who == _TERMINAL:
                value[n] = utility[n]
                continue
            fc, nc = first_child[n], num_children[n]
            v = 0.0
            if who == _CHANCE:
                for k in range(nc):
                    v += chance_prob[fc + k] * value[fc + k]
            elif who == br_player:
                i = infostate[n]
                best = 0
                for k in range(1, nc):
                    if q[i, k] > q[i, best]:
                        best = k
                br_action[i] = best
                v = value[fc + best]
            else:
                i = infostate[n]
                for k in range(nc):
                    v += policy[i, k] * value[fc + k]
            value[n] = v
    return sign * value[0]


@njit(cache=True)
def _policy_value(node_player, first_child, num_children, chance_prob, utility, infostate, policy, value):
    for n in range(node_player.size - 1, -1, -1):
        who = node_player[n]
        if who == _TERMINAL:
            value[n] = utility[n]
            continue
        fc, nc = first_child[n], num_children[n]
        v = 0.0
        for k in range(nc):
            v += (chance_prob[fc + k] if who == _CHANCE else policy[infostate[n], k]) * value[fc + k]
        value[n] = v
    return value[0]


def uniform_policy(game: GameTree) -> np.ndarray:
    """Every legal action equally likely: a ``[num_infostates, max_actions]`` table."""
    legal = np.arange(game.max_actions)[None, :] < game.num_actions[:, None]
    return legal / game.num_actions[:, None]


def normalize_policy(game: GameTree, weights: np.ndarray) -> np.ndarray:
    """Rows of non-negative weights (a cumulative policy) as probabilities; uniform where all are 0."""
    legal = np.arange(game.max_actions)[None, :] < game.num_actions[:, None]
    w = np.where(legal, np.maximum(weights, 0.0), 0.0)
    total = w.sum(axis=1, keepdims=True)
    return np.where(total > 0.0, w / np.where(total > 0.0, total, 1.0), uniform_policy(game))


def _check_policy(game: GameTree, policy: np.ndarray) -> np.ndarray:
    policy = np.ascontiguousarray(policy, dtype=np.float64)
    if policy.shape != game.table_shape:
        raise ValueError(f"a {game.name} policy has shape {game.table_shape}, got {policy.shape}")
    return policy


def best_response(game: GameTree, policy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
    """``player``'s best-response value against the other player's part of ``policy``, and the
    best response itself (an action index per information state; only ``player``'s are meaningful)."""
    policy = _check_policy(game, policy)
    br_action = np.zeros(game.num_infostates, dtype=np.int64)
    v = _best_response_value(game.node_player, game.first_child, game.num_children, game.parent, game.level_start,
                             game.chance_prob, game.utility, game.infostate, policy, player,
                             np.zeros(game.num_nodes), np.zeros(game.num_nodes), np.zeros(game.table_shape), br_action)
    return float(v), br_action


def nash_conv(game: GameTree, policy: np.ndarray) -> float:
    """BR0 + BR1: what both players together gain by best responding (0 at an equilibrium)."""
    return best_response(game, policy, 0)[0] + best_response(game, policy, 1)[0]


def exploitability(game: GameTree, policy: np.ndarray) -> float:
    """NashConv / 2 (OpenSpiel's ``exploitability`` for two players)."""
    return nash_conv(game, policy) / 2.0


def policy_value(game: GameTree, policy: np.ndarray) -> float:
    """Player 0's expected payoff when both players follow ``policy``."""
    policy = _check_policy(game, policy)
    return float(_policy_value(game.node_player, game.first_child, game.num_children, game.chance_prob, game.utility,
                               game.infostate, policy, np.zeros(game.num_nodes)))


def policy_dict(game: GameTree, policy: np.ndarray) -> dict[str, dict[str, float]]:
    """``{information state name: {action name: probability}}``, for reading a policy."""
    return {name: {a: float(policy[i, k]) for k, a in enumerate(game.action_names[i])}
            for i, name in enumerate(game.infostate_names)}


# ------------------------------------------------------------------------------------------
# the solver


class Solver:
    """One solver's regret and cumulative-policy tables on one game, advanced by ``run(iterations)``.

    ``regrets`` and ``cumulative_policy`` are ``[num_infostates, max_actions]``; ``iteration`` counts
    completed iterations (each updates both players); ``rng_state`` is the sampling solvers'
    splitmix64 state, derived from ``seed``.
    """

    def __init__(self, game: GameTree, solver: str = "cfr_plus", *, alpha: float = 1.5, beta: float = 0.0,
                 gamma: float = 2.0, delay: int = 0, exploration: float = 0.6, seed: int = 0):
        if solver not in SOLVERS:
            raise ValueError(f"unknown solver {solver!r}; known: {list(SOLVERS)}")
        if delay < 0 or not 0.0 < exploration <= 1.0 or seed < 0:
            raise ValueError(f"need delay >= 0, 0 < exploration <= 1, seed >= 0; got {delay}, {exploration}, {seed}")
        self.game, self.solver = game, solver
        self.alpha, self.beta, self.gamma, self.delay, self.exploration = alpha, beta, gamma, delay, exploration
        self.regrets = np.zeros(game.table_shape)
        self.cumulative_policy = np.zeros(game.table_shape)
        self.iteration = 0
        self.rng_state = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)
        n, depth = game.num_nodes, game.level_start.size
        if solver in _SCHEME:
            self._scratch = (np.zeros(game.table_shape), np.zeros(n), np.zeros(n), np.zeros(n))
        elif solver == "mccfr_external":
            self._scratch = (np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.int64),
                             np.zeros(n), np.zeros(game.max_actions))
        else:
            self._scratch = (np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64), np.zeros(depth),
                             np.zeros(depth), np.zeros(depth), np.zeros((depth, game.max_actions)),
                             np.zeros(game.max_actions))
        self.run(0)  # compile (or load) the kernel now, not inside a timed run

    def run(self, iterations: int) -> None:
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        g = self.game
        if self.solver in _SCHEME:
            _full_width_iterations(g.node_player, g.first_child, g.num_children, g.parent, g.chance_prob, g.utility,
                                   g.infostate, g.infostate_player, g.num_actions, self.regrets,
                                   self.cumulative_policy, self.iteration, iterations, _SCHEME[self.solver],
                                   float(self.alpha), float(self.beta), float(self.gamma), int(self.delay),
                                   *self._scratch)
        elif self.solver == "mccfr_external":
            _external_sampling_iterations(g.node_player, g.first_child, g.num_children, g.chance_prob, g.utility,
                                          g.infostate, self.regrets, self.cumulative_policy, iterations,
                                          self.rng_state, *self._scratch)
        else:
            _outcome_sampling_iterations(g.node_player, g.first_child, g.num_children, g.chance_prob, g.utility,
                                         g.infostate, self.regrets, self.cumulative_policy, iterations,
                                         self.rng_state, float(self.exploration), *self._scratch)
        self.iteration += iterations

    def average_policy(self) -> np.ndarray:
        """The average strategy (the one that converges to an equilibrium)."""
        return normalize_policy(self.game, self.cumulative_policy)

    def current_policy(self) -> np.ndarray:
        """Regret matching on the current regrets."""
        return normalize_policy(self.game, self.regrets)


# ------------------------------------------------------------------------------------------
# the config (also the command line and the TOML file)


@dataclass
class CFRConfig:
    """A CFR run: also the command line (tyro) and the TOML config (section ``[cfr]``)."""

    game: Literal["kuhn_poker", "leduc_poker", "truque_tiny", "truque_pares6", "truque_7", "truque_8"] = "leduc_poker"
    """kuhn_poker, leduc_poker, or a reduced Truque Moteño game of train.cfr.reduced"""
    solver: Literal["cfr", "cfr_plus", "lcfr", "dcfr", "mccfr_external", "mccfr_outcome"] = "cfr_plus"
    iterations: int = 1000
    """the run's total number of iterations (a resumed run continues up to it)"""
    alpha: float = 1.5
    """DCFR: positive regrets are multiplied by t^alpha / (t^alpha + 1) after iteration t"""
    beta: float = 0.0
    """DCFR: negative regrets are multiplied by t^beta / (t^beta + 1)"""
    gamma: float = 2.0
    """DCFR: the average policy is multiplied by (t / (t + 1))^gamma"""
    delay: int = 0
    """CFR+: iteration t enters the average with weight max(t - delay, 0)"""
    exploration: float = 0.6
    """outcome-sampling MCCFR: the updated player samples uniformly with this probability"""
    seed: int = 0
    """the sampling solvers' random numbers"""
    eval_every: int = 100
    """iterations between exploitability evaluations (0: only at the end)"""
    run_dir: Path | None = Path("runs/cfr")
    """checkpoint.npz and log.json go here (None: no files)"""
    checkpoint_every: int = 1000
    """iterations between checkpoints (one is always written at the end)"""
    resume: bool = False
    """continue the run in run_dir from its checkpoint"""
    overwrite: bool = False
    """start a fresh run in a run_dir that holds one, deleting it (without this, such a run_dir is refused)"""
    verbose: bool = True
    """print a line per evaluation"""

    def validate(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}; known: {list(GAMES)}")
        if self.solver not in SOLVERS:
            raise ValueError(f"unknown solver {self.solver!r}; known: {list(SOLVERS)}")
        for name in ("iterations", "eval_every", "delay", "seed"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        if self.checkpoint_every < 1:
            raise ValueError(f"checkpoint_every must be positive, got {self.checkpoint_every!r}")
        if not 0.0 < self.exploration <= 1.0:
            raise ValueError(f"exploration must be in (0, 1], got {self.exploration!r}")
        for name in ("alpha", "beta", "gamma"):
            if math.isnan(getattr(self, name)):
                raise ValueError(f"{name} must be a number, got nan")
        if self.resume and self.run_dir is None:
            raise ValueError("resume needs a run_dir")
        config.check_config(self)  # and every field's type (pydantic), the key named

    @classmethod
    def from_toml(cls, path: Path, **overrides) -> CFRConfig:
        return config.from_toml(cls, path, "cfr", **overrides)

    def make_solver(self) -> Solver:
        return Solver(load_game(self.game), self.solver, alpha=self.alpha, beta=self.beta, gamma=self.gamma,
                      delay=self.delay, exploration=self.exploration, seed=self.seed)


def _shaping_settings(solver: str) -> tuple[str, ...]:
    """The settings besides the game and solver that change a run's iterates."""
    return {"dcfr": ("alpha", "beta", "gamma"), "cfr_plus": ("delay",), "mccfr_external": ("seed",),
            "mccfr_outcome": ("seed", "exploration")}.get(solver, ())


# ------------------------------------------------------------------------------------------
# checkpoints: .npz of plain arrays, written atomically, read with allow_pickle=False

_CHECKPOINT_KEYS = ("format", "version", "game", "solver", "config", "regrets", "cumulative_policy", "iteration",
                    "rng_state", "seconds", "log")


def save_checkpoint(path: Path, solver: Solver, cfg: CFRConfig, seconds: float, log: list[dict]) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = np.array([[r["iteration"], r["seconds"], r["exploitability"]] for r in log], dtype=np.float64)
    arrays = {"format": np.array(CHECKPOINT_FORMAT), "version": np.array(CHECKPOINT_VERSION),
              "game": np.array(solver.game.name), "solver": np.array(solver.solver),
              "config": np.array(json.dumps(config.to_dict(cfg))), "regrets": solver.regrets,
              "cumulative_policy": solver.cumulative_policy, "iteration": np.array(solver.iteration, dtype=np.int64),
              "rng_state": solver.rng_state, "seconds": np.array(seconds), "log": rows.reshape(-1, 3)}
    write_npz_atomic(path, arrays)


def load_checkpoint(path: Path, cfg: CFRConfig | None = None) -> dict:
    """The arrays of a checkpoint; with ``cfg``, a ValueError unless it comes from the same run settings."""
    path = Path(path)
    ckpt = read_npz(path, "truque_env CFR checkpoint")
    if (any(k not in ckpt for k in _CHECKPOINT_KEYS) or str(ckpt["format"]) != CHECKPOINT_FORMAT
            or int(ckpt["version"]) != CHECKPOINT_VERSION):
        raise ValueError(f"{path}: not a truque_env CFR checkpoint of version {CHECKPOINT_VERSION}")
    game, solver = str(ckpt["game"]), str(ckpt["solver"])
    if game not in GAMES or solver not in SOLVERS:
        raise ValueError(f"{path}: checkpoint of an unknown game or solver ({game!r}, {solver!r})")
    shape = load_game(game).table_shape
    if (ckpt["regrets"].shape != shape or ckpt["cumulative_policy"].shape != shape
            or not np.isfinite(ckpt["regrets"]).all() or not np.isfinite(ckpt["cumulative_policy"]).all()
            or ckpt["rng_state"].shape != (1,) or ckpt["rng_state"].dtype != np.uint64 or int(ckpt["iteration"]) < 0):
        raise ValueError(f"{path}: a damaged CFR checkpoint (tables, iteration or RNG state)")
    if cfg is not None:
        config.check_same_settings(path, json.loads(str(ckpt["config"])), cfg,
                                   ("game", "solver", *_shaping_settings(cfg.solver)))
    return ckpt


# ------------------------------------------------------------------------------------------
# the run


@dataclass
class CFRRun:
    """What ``train`` returns: the solver (tables, iteration) and the log of evaluations."""

    solver: Solver
    seconds: float = 0.0
    """solver time (evaluation, checkpoints and JIT compilation left out), over resumes"""
    log: list[dict] = field(default_factory=list)

    @property
    def exploitability(self) -> float:
        return self.log[-1]["exploitability"]


def train(cfg: CFRConfig) -> CFRRun:
    cfg.validate()
    if cfg.run_dir is not None:
        config.prepare_run_dir(cfg.run_dir, cfg.resume, cfg.overwrite, ("checkpoint.npz", "log.json"), "checkpoint.npz")
    run = CFRRun(cfg.make_solver())
    solver = run.solver
    ckpt_path = cfg.run_dir / "checkpoint.npz" if cfg.run_dir is not None else None
    if cfg.resume:
        ckpt = load_checkpoint(ckpt_path, cfg)
        solver.regrets[:] = ckpt["regrets"]
        solver.cumulative_policy[:] = ckpt["cumulative_policy"]
        solver.rng_state[:] = ckpt["rng_state"]
        solver.iteration = int(ckpt["iteration"])
        run.seconds = float(ckpt["seconds"])
        run.log = [{"iteration": int(i), "seconds": float(s), "exploitability": float(e)} for i, s, e in ckpt["log"]]

    def evaluate():
        e = exploitability(solver.game, solver.average_policy())
        run.log.append({"iteration": solver.iteration, "seconds": run.seconds, "exploitability": e})
        if cfg.run_dir is not None:
            write_json_atomic(cfg.run_dir / "log.json", {"config": config.to_dict(cfg), "log": run.log})
        if cfg.verbose:
            print(f"{cfg.solver} {cfg.game} iteration {solver.iteration:>9,} seconds {run.seconds:9.2f} "
                  f"exploitability {e:.6g}", flush=True)

    if not run.log:
        evaluate()  # the starting point (uniform play for a fresh run)
    while solver.iteration < cfg.iterations:
        stop = min(cfg.iterations, (solver.iteration // cfg.checkpoint_every + 1) * cfg.checkpoint_every)
        if cfg.eval_every:
            stop = min(stop, (solver.iteration // cfg.eval_every + 1) * cfg.eval_every)
        t0 = time.perf_counter()
        solver.run(stop - solver.iteration)
        run.seconds += time.perf_counter() - t0
        done = solver.iteration == cfg.iterations
        if done or (cfg.eval_every and solver.iteration % cfg.eval_every == 0):
            evaluate()
        if ckpt_path is not None and (done or solver.iteration % cfg.checkpoint_every == 0):
            save_checkpoint(ckpt_path, solver, cfg, run.seconds, run.log)
    return run


def main(argv=None, prog: str = "python -m train.cfr.solvers") -> CFRRun:
    """``[--config FILE.toml] [--setting value ...]``: the TOML gives the defaults, flags override."""
    import sys

    return train(config.cli(CFRConfig, sys.argv[1:] if argv is None else argv, prog, "cfr"))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
