"""PPO on a solved game tree: a learned policy whose exploitability is exact (issue 17).

The shipped bots are PPO policies trained against a league; how exploitable such a policy is can
only be estimated on the full game (``train.studies.exploiter`` trains a best response for a fixed
budget). On the games of ``train.cfr.games`` (Kuhn, Leduc and the reduced Truque Moteño games of
``train.cfr.reduced``) the best response is exact (``train.cfr.solvers.exploitability``), so the
same recipe can be measured there, next to CFR's:

* the **policy** is tabular: a logit per (information state, legal action), the one-hot input of
  a linear layer, and a value per information state (the critic; its baseline for the advantage);
* an **update** samples ``episodes`` games from the tree (chance by its probabilities, each
  decision by its player's policy), takes the learner's decisions and their Monte Carlo return
  (the game's payoff to the deciding player: one mano, no discount), and does ``epochs`` passes
  of PPO's clipped surrogate with an entropy bonus;
* **opponents** (``mode``): ``self_play``, the learner on both seats of every game; ``league``,
  prioritised fictitious self-play as ``train.ppo.pfsp`` does on the full game (a ``p_latest``
  share of self-play; otherwise one entry of the league per game, drawn by the learner's recent
  losses to it, ``pfsp_probs``): the past snapshots (one entry each) and, with ``exploiters``,
  the exact best response to the learner, computed every ``exploiter_every`` updates for both
  seats and kept as entries (on the full game an exploiter is a PPO run against the frozen bot;
  here it is exact and costs one tree walk).

What is reported is the exploitability of the learner's **current** policy, the one that would
be shipped (NashConv / 2, in the game's payoff units), every ``eval_every`` updates.

    python -m train.ppo.tree --game truque_7 --mode league --exploiters --updates 400
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import torch
from numba import njit

from train import config
from train.cfr.games import CHANCE, GAMES, TERMINAL, GameTree, load_game
from train.cfr.solvers import best_response, exploitability
from train.ppo.pfsp import pfsp_probs
from truque_env.engine.rng import uniform01

_CHANCE, _TERMINAL = 2, 3  # numba freezes globals: spelled here, checked against the games module
if (CHANCE, TERMINAL) != (_CHANCE, _TERMINAL):
    raise ImportError("train.cfr.games changed the node kinds: update _CHANCE and _TERMINAL in train.ppo.tree")


@njit(cache=True)
def _pick(row, n, u):
    """An index k < n drawn with probability ``row[k]`` by the uniform ``u``."""
    acc = 0.0
    last = 0
    for k in range(n):
        if row[k] > 0.0:
            acc += row[k]
            last = k
            if u < acc:
                return k
    return last  # u fell in the rounding gap above the sum


@njit(cache=True)
def _play(node_player, first_child, num_children, chance_prob, utility, infostate, learner, opponents, opponent_of,
          learner_seat, rng_state, rec_info, rec_action, rec_prob, rec_sign, rec_episode, payoff):
    """Plays ``opponent_of.size`` games from the root; returns how many learner decisions it recorded.

    Game b: the learner (``learner[i, a]``, probabilities) holds seat ``learner_seat[b]``, and the
    other seat is ``opponents[opponent_of[b]]``; ``opponent_of[b] < 0``: the learner holds both.
    Per learner decision: its information state, action, the action's probability, the sign of
    the payoff to its player (+1 player 0, -1 player 1) and the game. ``payoff[b]``: player 0's.
    """
    m = 0
    for b in range(opponent_of.size):
        n = 0
        while node_player[n] != _TERMINAL:
            who, fc, nc = node_player[n], first_child[n], num_children[n]
            u = uniform01(rng_state)
            if who == _CHANCE:
                k = _pick(chance_prob[fc:fc + nc], nc, u)
            else:
                i = infostate[n]
                mine = opponent_of[b] < 0 or who == learner_seat[b]
                row = learner[i] if mine else opponents[opponent_of[b], i]
                k = _pick(row, nc, u)
                if mine:
                    rec_info[m], rec_action[m], rec_prob[m] = i, k, row[k]
                    rec_sign[m], rec_episode[m] = 1.0 if who == 0 else -1.0, b
                    m += 1
            n = fc + k
        payoff[b] = utility[n]
    return m


@dataclass
class TreePPOConfig:
    """PPO on a game tree (also the command line): the learner, its opponents, the budget."""

    game: str = "truque_7"
    """a game of train.cfr.games: kuhn_poker, leduc_poker, truque_tiny, truque_pares6, truque_7, truque_8"""
    mode: Literal["self_play", "league"] = "league"
    """self_play: the learner on both seats; league: PFSP over its snapshots (and exploiters)"""
    exploiters: bool = False
    """league: add the exact best response to the learner every exploiter_every updates"""
    updates: int = 300
    episodes: int = 4096
    """games sampled per update"""
    epochs: int = 4
    """PPO passes over each update's decisions (one minibatch each)"""
    learning_rate: float = 0.003
    """Adam's step on the logits and values (on Kuhn, 400 updates: exploitability about 0.11 at 0.003,
    0.14-0.26 at 0.01, cycling)"""
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    magnet_coef: float = 0.0
    """magnetic mirror descent (Sokota et al., 2023): the loss adds magnet_coef * KL(policy || magnet),
    the magnet a policy table that starts uniform; 0: no magnet"""
    magnet_mix: float = 0.0
    """after each update the magnet moves geometrically toward the learner, magnet ∝ magnet^(1-m) policy^m;
    0 keeps it uniform (the learner then tends to the quantal response equilibrium of magnet_coef)"""
    p_latest: float = 0.2
    """league: the share of self-play games"""
    pfsp_power: float = 2.0
    pfsp_mix: float = 0.25
    pfsp_decay: float = 0.98
    snapshot_every: int = 10
    pool_size: int = 20
    exploiter_every: int = 25
    max_exploiters: int = 10
    """exploiters kept (each is two entries: one per seat); the oldest leave first"""
    eval_every: int = 25
    seed: int = 0
    verbose: bool = False

    def validate(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}; known: {list(GAMES)}")
        if self.mode not in ("self_play", "league"):
            raise ValueError(f"mode must be self_play or league, got {self.mode!r}")
        if self.exploiters and self.mode != "league":
            raise ValueError("exploiters join a league: mode = 'league'")
        for name in ("updates", "episodes", "epochs", "snapshot_every", "pool_size", "exploiter_every",
                     "max_exploiters", "eval_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        for name in ("p_latest", "pfsp_mix", "pfsp_decay", "magnet_mix"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {getattr(self, name)!r}")
        if self.learning_rate <= 0 or self.clip_coef <= 0 or min(self.ent_coef, self.magnet_coef, self.seed) < 0:
            raise ValueError("learning_rate and clip_coef must be > 0, ent_coef, magnet_coef and seed >= 0")
        if self.magnet_mix > 0 and not self.magnet_coef > 0:
            raise ValueError("magnet_mix moves the magnet: set magnet_coef > 0 too")
        config.check_config(self)


@dataclass
class TreePPORun:
    """What ``train`` returns: the learner's final policy and the log of its exploitability."""

    game: GameTree
    policy: np.ndarray
    seconds: float = 0.0
    """training time (sampling and updates; the evaluations and the exploiters' tree walks left out)"""
    log: list[dict] = field(default_factory=list)

    @property
    def exploitability(self) -> float:
        return self.log[-1]["exploitability"]


@dataclass
class _Entry:
    """A league entry: its policy table, the seat it plays (-1: either) and the learner's decayed
    results against it (one win and one loss as the prior, in ``pfsp_probs``)."""

    table: np.ndarray
    seat: int = -1
    wins: float = 0.0
    games: float = 0.0


def _probs(logits: torch.Tensor, legal: torch.Tensor) -> np.ndarray:
    with torch.no_grad():
        return torch.softmax(logits.masked_fill(~legal, -torch.inf), dim=-1).double().numpy()


def _deterministic(game: GameTree, actions: np.ndarray) -> np.ndarray:
    """A best response (an action per information state) as a policy table."""
    table = np.zeros(game.table_shape)
    table[np.arange(game.num_infostates), actions] = 1.0
    return table


def train(cfg: TreePPOConfig) -> TreePPORun:
    """Trains on one torch thread: with two, the backward pass's sums came out in another order from
    run to run, and the same seed ended with another exploitability in the third digit on the truque games."""
    cfg.validate()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _train(cfg)
    finally:
        torch.set_num_threads(threads)


def _train(cfg: TreePPOConfig) -> TreePPORun:
    game = load_game(cfg.game)
    rows, cols = game.table_shape
    legal = torch.from_numpy(np.arange(cols)[None, :] < game.num_actions[:, None])
    logits = torch.zeros((rows, cols), dtype=torch.float32, requires_grad=True)  # uniform play to start
    values = torch.zeros(rows, dtype=torch.float32, requires_grad=True)
    optim = torch.optim.Adam([logits, values], lr=cfg.learning_rate)
    np_rng = np.random.default_rng(np.random.SeedSequence([cfg.seed, 0x7EE]))
    rng_state = np.random.SeedSequence([cfg.seed, 0x7EE, 1]).generate_state(1, dtype=np.uint64)
    E = cfg.episodes
    depth = game.level_start.size
    rec = (np.zeros(E * depth, dtype=np.int64), np.zeros(E * depth, dtype=np.int64), np.zeros(E * depth),
           np.zeros(E * depth), np.zeros(E * depth, dtype=np.int64))
    payoff = np.zeros(E)
    # the league's entries, each with its own decayed counts: snapshots, then exploiters (one per seat)
    snapshots: list[_Entry] = []
    exploiters: list[_Entry] = []
    run = TreePPORun(game, _probs(logits, legal))
    log_magnet = torch.log_softmax(torch.zeros((rows, cols)).masked_fill(~legal, -torch.inf), dim=-1)

    def evaluate(update: int):
        e = exploitability(game, run.policy)
        run.log.append({"update": update, "seconds": run.seconds, "episodes": update * E, "exploitability": e})
        if cfg.verbose:
            print(f"tree ppo {cfg.game} {cfg.mode} update {update:>5} seconds {run.seconds:8.2f} exploitability {e:.5g}",
                  flush=True)

    evaluate(0)
    for update in range(1, cfg.updates + 1):
        t0 = time.perf_counter()
        entries = snapshots + exploiters
        learner_seat = np_rng.integers(2, size=E)
        opponent_of = np.full(E, -1, dtype=np.int64)
        opponents = np.zeros((1, rows, cols))
        if entries:
            wins, games = np.array([e.wins for e in entries]), np.array([e.games for e in entries])
            drawn = np_rng.choice(len(entries), size=E, p=pfsp_probs(wins, games, cfg.pfsp_power, cfg.pfsp_mix))
            opponent_of = np.where(np_rng.random(E) < cfg.p_latest, -1, drawn)
            seat_of = np.array([e.seat for e in entries])[np.maximum(opponent_of, 0)]
            # an exploiter holds the seat it best-responds from; a snapshot either
            learner_seat = np.where((opponent_of >= 0) & (seat_of >= 0), 1 - seat_of, learner_seat)
            opponents = np.stack([e.table for e in entries])
        m = _play(game.node_player, game.first_child, game.num_children, game.chance_prob, game.utility,
                  game.infostate, run.policy, opponents, opponent_of, learner_seat, rng_state, *rec, payoff)
        info, action, old_prob, sign, episode = (torch.from_numpy(r[:m]) for r in rec)
        ret = (sign * torch.from_numpy(payoff)[episode]).float()
        if entries:  # the learner's results against each entry met (a draw counts half)
            mine = np.where(learner_seat == 0, payoff, -payoff)
            result = np.where(mine > 0, 1.0, np.where(mine < 0, 0.0, 0.5))
            met = np.bincount(opponent_of[opponent_of >= 0], minlength=len(entries))
            won = np.bincount(opponent_of[opponent_of >= 0], weights=result[opponent_of >= 0], minlength=len(entries))
            for e, g, w in zip(entries, met, won, strict=True):
                e.games = cfg.pfsp_decay * e.games + g
                e.wins = cfg.pfsp_decay * e.wins + w
        old_logp = torch.log(old_prob.float())
        for _ in range(cfg.epochs):
            logp_all = torch.log_softmax(logits.masked_fill(~legal, -torch.inf), dim=-1)[info]
            logp = logp_all.gather(1, action[:, None]).squeeze(1)
            adv = ret - values[info].detach()
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            ratio = torch.exp(logp - old_logp)
            policy_loss = -torch.min(ratio * adv, torch.clamp(ratio, 1 - cfg.clip_coef, 1 + cfg.clip_coef) * adv).mean()
            p_all = logp_all.exp()
            entropy = -(p_all * logp_all.masked_fill(~legal[info], 0.0)).sum(-1).mean()
            value_loss = 0.5 * ((values[info] - ret) ** 2).mean()
            loss = policy_loss - cfg.ent_coef * entropy + value_loss
            if cfg.magnet_coef > 0:  # KL(policy || magnet) at the states sampled, over the legal actions
                gap = (logp_all - log_magnet[info]).masked_fill(~legal[info], 0.0)
                loss = loss + cfg.magnet_coef * (p_all * gap).sum(-1).mean()
            optim.zero_grad()
            loss.backward()
            optim.step()
        run.policy = _probs(logits, legal)
        if cfg.magnet_mix > 0:
            with torch.no_grad():
                mixed = (1 - cfg.magnet_mix) * log_magnet + cfg.magnet_mix * torch.log_softmax(
                    logits.masked_fill(~legal, -torch.inf), dim=-1)
                log_magnet = torch.log_softmax(mixed.masked_fill(~legal, -torch.inf), dim=-1)
        run.seconds += time.perf_counter() - t0
        if cfg.mode == "league" and update % cfg.snapshot_every == 0:
            snapshots = (snapshots + [_Entry(run.policy.copy())])[-cfg.pool_size:]
        if cfg.exploiters and update % cfg.exploiter_every == 0:
            for seat in (0, 1):  # seat `seat`'s best response to the learner on the other seat
                exploiters.append(_Entry(_deterministic(game, best_response(game, run.policy, seat)[1]), seat))
            exploiters = exploiters[-2 * cfg.max_exploiters:]
        if update % cfg.eval_every == 0 or update == cfg.updates:
            evaluate(update)
    return run


def main(argv=None, prog: str = "python -m train.ppo.tree") -> TreePPORun:
    import sys

    cfg = config.cli(TreePPOConfig, sys.argv[1:] if argv is None else argv, prog, "tree_ppo")
    cfg.verbose = True
    return train(cfg)


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
