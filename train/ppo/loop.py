"""PPO self-play for Truque Moteño on the vector env (CleanRL style: read it top to bottom).

One policy is shared by every seat it controls and sees only its seat-relative observation
(``truque_env.traditions.moteno.observation``). The critic can also see every hand (a centralised critic,
as in MAPPO and PerfectDou; ``--no-centralized-critic`` turns it off): training only.

Self-play against a pool: in each rollout, every table has the learner on one team and, on the
other, with probability ``p_latest`` the learner itself (both teams' decisions are then
trained on), with probability ``p_bot`` a fixed bot drawn from ``bot_opponents`` (registry
names, e.g. the heuristic: a league's fixed opponents) or else one frozen snapshot drawn from
the pool of past policies.

With ``league = true`` the opponents are a league met by prioritised fictitious self-play
(``train/ppo/pfsp.py``): a table keeps its opponent (and the learner its team) for a whole juego,
and the next juego's opponent is drawn from the snapshots and ``bot_opponents`` with weights
that grow with the learner's recent losses to each (AlphaStar's PFSP), so training goes where
the learner is weakest instead of where it already wins. ``team_sizes = [1, 2, 3]`` trains one
network on several team sizes at once (the tables split evenly; the observation says the size).

A cloned start (``bc_dataset``) can be kept near its clone: ``anchor_coef`` adds KL(clone || policy)
to the loss, so the actor leaves the bot it copied only where the advantages keep pulling it away,
not where a rare decision drifts with the rest of the network (``masked_kl``). With several kinds of
opponent in the mix, ``critic_knows_opponent`` tells the critic who holds the other team (training
only): the values against random and against the heuristic differ, and one averaged value makes
the decisions that end a juego look better against random than they are.

``magnet_coef`` adds KL(policy || magnet) instead, the magnet an exponential average of the learner's
own weights (``magnet_ema``): magnetic mirror descent, whose current policy settles where plain
self-play's cycles (on Kuhn poker's tree, tabular, its last iterate ends 5 times less exploitable: docs/cfr.md).

Rewards are chinas of the seat's team minus the rival's, divided by ``target``, scored when a
mano ends. A decision's return runs to the same seat's next decision (GAE per (table, seat)
trajectory, ``_gae`` below).

Rollouts on Ray workers (``train/ppo/ray_workers.py``; ``pip install truque_env[ray]``): with
``--num-workers N`` each of N actors plays ``num_envs / N`` of the tables with ``rollout``
(the single process's code) and the learner concatenates what they send back for one GAE and
PPO update. ``--ray-address`` runs them on a cluster: ``ray start --head`` on one machine,
``ray start --address HEAD:6379`` on the others (each with this package installed), then
``--ray-address auto`` on the head. A worker run resumes exactly with the same number of
workers; its numbers are not a single-process run's (each worker samples from a generator of
its own). The single process stays the default.

The network is in ``agents/ppo_network.py``, the rollout (``rollout``, ``Sampler``) in
``train/ppo/rollout.py``; this file is the configuration, GAE, the checkpoints and the update loop.

    truque train ppo --config configs/ppo_moteno_3v3.toml
    python -m train.ppo.loop --total-decisions 20000 --num-envs 64   # a smoke run
    python -m train.ppo.loop --config configs/ppo_moteno_3v3.toml --num-workers 2   # on Ray actors
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
import torch
from numba import njit, prange
from pydantic import Field
from torch import nn

from agents.ppo_checkpoint import CHECKPOINT_VERSION, FORMAT, actor_weights, read_checkpoint
from agents.ppo_network import Agent, evaluate_actions, sample  # noqa: F401 (sample: the public API)
from train import config
from train.ppo.pfsp import LeagueStats, allowed_losses, entry_names, pfsp_probs
from train.ppo.rollout import (  # noqa: F401
    MixedSizes,
    Rollout,
    Sampler,
    Tables,
    _denorm,
    _hands,
    _rng_state,
    draw_tables,
    opponent_kinds,
)
from truque_env.engine import header as H
from truque_env.io import atomic_output, write_text_atomic
from truque_env.settings import check_made_for
from truque_env.threads import WATCH


@dataclass
class PPOConfig:
    """Hyperparameters: also the command line (tyro) and the TOML config."""

    # the game (or in the TOML's [env] table)

    tradition: str = "moteno"
    """the game (truque_env.traditions())"""
    team_size: Annotated[int, Field(ge=1)] = 3
    """players per team"""
    team_sizes: tuple[int, ...] = ()
    """train one network on several team sizes at once: the tables split evenly among them (in
    this order; team_size is then the first); empty: team_size alone"""
    team_size_tables: tuple[int, ...] = ()
    """with team_sizes: how many of the num_envs tables each size plays (in team_sizes' order, summing
    to num_envs), to spend more decisions where the game is larger; empty: equal shares"""
    target: Annotated[int, Field(ge=2)] = 30
    """points to win a juego (Moteño: 30 chinas, ruling 1)"""
    episode: Literal["mano", "juego", "partida"] = "juego"
    """what an episode is: mano, juego or partida (rewards and resets at its end)"""
    reward: Literal["points", "juego"] = "points"
    """what is learnt: the points of each mano (the team's minus the rival's, / target), or +1 / -1
    for each juego won / lost (what wins, not what scores: a falta envido is the juego)"""
    senas_per_mano: Annotated[int, Field(ge=0)] = 1
    """señas each player may make per mano"""
    p_intercept: Annotated[float, Field(ge=0, le=1)] = 0.1
    """the chance that a rival sees each seña (ruling 3)"""
    # rollouts

    num_envs: Annotated[int, Field(ge=1)] = 512
    """tables played at once"""
    num_steps: Annotated[int, Field(ge=1)] = 32
    """decisions per table in one rollout"""
    total_decisions: Annotated[int, Field(ge=1)] = 50_000_000
    """stop after this many decisions (all seats, all tables)"""
    num_workers: Annotated[int, Field(ge=1)] = 1
    """Ray actors that collect the rollouts, each on num_envs / num_workers tables (1: this process);
    more than 1 needs Ray: pip install truque_env[ray]"""
    ray_address: str | None = None
    """the Ray cluster of the workers (ray start --head prints it; "auto": the one on this machine);
    given, rollouts go to Ray workers even with num_workers = 1"""
    # optimisation

    learning_rate: Annotated[float, Field(ge=0)] = 3e-4
    """Adam's step size"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over total_decisions"""
    gamma: Annotated[float, Field(ge=0, le=1)] = 0.999
    """discount per decision"""
    gae_lambda: Annotated[float, Field(ge=0, le=1)] = 0.95
    """GAE's lambda"""
    num_minibatches: Annotated[int, Field(ge=1)] = 4
    """minibatches per epoch of an update"""
    update_epochs: Annotated[int, Field(ge=1)] = 3
    """passes over each rollout"""
    clip_coef: Annotated[float, Field(gt=0)] = 0.2
    """PPO's clipping of the probability ratio"""
    ent_coef: Annotated[float, Field(ge=0)] = 0.01
    """weight of the entropy bonus"""
    vf_coef: Annotated[float, Field(ge=0)] = 0.5
    """weight of the value loss"""
    max_grad_norm: Annotated[float, Field(gt=0)] = 0.5
    """gradients are clipped to this norm"""
    norm_values: bool = True
    """normalise value targets with running statistics"""
    hidden: Annotated[int, Field(ge=1)] = 256
    """width of the hidden layers"""
    centralized_critic: bool = True
    """the critic also sees every hand (training only; the actor plays on what its seat knows)"""
    critic_knows_opponent: bool = False
    """the critic also reads who holds the other team at the table: the learner itself, a snapshot or
    which bot (training only, like the hidden hands; the actor cannot know it). One value averaged
    over the mix's opponents judges a decision that ends the juego against the average: against random,
    a falta envido accepted with 80% to win looks no worse than playing on, which wins 96%"""
    hand_features: bool = False
    """give the network the hand summary of agents.features (valor de pares and flor, poder de truque)"""
    juego_record: bool = False
    """give the network the juego's public record (truque_env.engine.record): how often each team raised,
    accepted, refused and left in the juego so far, so that one policy may tell whom it plays (random's blind
    bets, a bluffer's falsos, a caller who never folds) as a player at the table does"""
    record_rates: bool = False
    """with juego_record: also each of the record's counts divided by the manos finished (agents.features),
    the rates that tell a rival who bets every mano from one who bets when he holds the cards, given as
    rates rather than left for the network to divide"""
    value_warmup_updates: Annotated[int, Field(ge=0)] = 0
    """updates at the start that train the critic only (for a cloned actor)"""
    anchor_coef: Annotated[float, Field(ge=0)] = 0.0
    """weight of KL(warm start || policy) in each minibatch's loss: the actor stays near the policy it
    started as (the clone of bc_dataset, or init_from's) wherever the rollouts' advantages do not pull it
    away (the KL-regularised search of piKL, Jacob et al. 2022; AlphaStar's KL to its supervised policy).
    0: off; above 0 it needs bc_dataset or init_from"""
    anchor_decay_updates: Annotated[int, Field(ge=0)] = 0
    """the anchor's weight falls linearly from anchor_coef at the first update to 0 at this update, and
    stays 0 after it (the run then leaves its warm start as far as the advantages pull it: to beat a
    bot by a wide margin is to stop playing like it); 0: anchor_coef throughout"""
    magnet_coef: Annotated[float, Field(ge=0)] = 0.0
    """weight of KL(policy || magnet) in each minibatch's loss: magnetic mirror descent (Sokota et al.,
    2023), whose last iterate, in the tabular case, settles near an equilibrium of a two-player zero-sum
    game where plain self-play's cycles around it (train.ppo.tree measures it exactly on the reduced games:
    docs/cfr.md). The magnet is a copy of the actor's start, outside the optimizer, that follows the
    learner slowly (magnet_ema). 0: off"""
    magnet_ema: Annotated[float, Field(gt=0, le=1)] = 0.01
    """after each update every weight of the magnet moves this share of the way to the learner's"""
    # warm start by behaviour cloning (train/ppo/bc.py)

    bc_dataset: Path | None = None
    """a bot's decisions (python -m train.ppo.bc ...) cloned into the actor before a fresh run"""
    bc_policy: str | None = None
    """instead of bc_dataset: the bot (a registry name) whose decisions a fresh run collects first, into
    run_dir/bc.npz (and bc.json, its record), then clones; the collection counts in time_limit_minutes"""
    bc_decisions: Annotated[int, Field(ge=1)] = 1_000_000
    """with bc_policy: decisions collected, split evenly among the team sizes"""
    bc_opponents: tuple[str, ...] = ()
    """with bc_policy: the bots at the other team's seats while it is collected (none: it plays itself)"""
    bc_seed: Annotated[int, Field(ge=0)] = 0
    """with bc_policy: the collection's seed (as python -m train.ppo.bc --seed)"""
    bc_epochs: Annotated[int, Field(ge=1)] = 2
    """epochs of behaviour cloning on bc_dataset"""
    bc_learning_rate: Annotated[float, Field(gt=0)] = 1e-3
    """learning rate of the behaviour cloning"""
    init_from: Path | None = None
    """start a fresh run from the weights of a checkpoint (a run's or an exported policy's); its actor
    must fit this network, its critic is taken only when it fits too (a critic that knew its opponents
    does not fit one that does not): otherwise the critic starts fresh, as from an exported policy"""
    envido_table: Path | None = None
    """truco argentino: a solved envido table (agents/checkpoints/envido_argentino_1v1.npz, written by
    python -m train.cfr.envido_argentino) that plays the learner's and its snapshots' envido at the
    1 contra 1 tables; the network learns the rest around it (train/ppo/table_envido.py), and its
    checkpoints play with that table (agents.registry reads it from their config)"""
    pares_table: Path | None = None
    """Truque Moteño: a solved table of the envite de pares (agents/checkpoints/pares_moteno_1v1.npz,
    written by python -m train.cfr.pares_moteno) that plays the learner's and its snapshots' envite
    at the 1 contra 1 tables, as envido_table does argentino's envido (train/ppo/table_envido.py)"""
    # self-play pool

    pool_size: Annotated[int, Field(ge=1)] = 8
    """past snapshots kept as opponents"""
    snapshot_every: Annotated[int, Field(ge=1)] = 20
    """updates between snapshots added to the pool"""
    p_latest: Annotated[float, Field(ge=0, le=1)] = 0.5
    """probability that a table's other team is the learner itself (the rest: snapshots and bots)"""
    bot_opponents: tuple[str, ...] = ()
    """fixed bots (agents.registry names or checkpoint paths) that hold the other team at some tables; a
    resumed run may append more (an exploiter trained against the run's checkpoint joins its league)"""
    p_bot: Annotated[float, Field(ge=0, le=1)] = 0.0
    """probability that a table's other team is one of bot_opponents (not the learner, not a snapshot)"""
    swap_teams_every_update: bool = True
    """without ``league``: the learner takes the other team at every table each update, mid-juego (the
    runs before this option). False: each table's learner keeps one team (even tables team 0, odd team
    1), so a juego is the learner against the same side from its first decision to its last: what a best
    response (train.studies.exploiter) needs, or its returns mix its own play into its rival's"""
    league: bool = False
    """prioritised fictitious self-play (train/ppo/pfsp.py): a table keeps its opponent for a whole
    juego, drawn from the league (the snapshots, each of bot_opponents) by the learner's recent
    results against each; p_latest is then the share of self-play juegos, p_bot unused"""
    pfsp_power: Annotated[float, Field(ge=0)] = 2.0
    """the weight of an entry the learner wins a share w of juegos against: (1 - w) ** pfsp_power"""
    pfsp_targets: dict[str, Annotated[float, Field(ge=0, lt=1)]] = field(default_factory=dict)
    """win rates the learner should reach against league entries ("snapshot" or a bot of
    bot_opponents; in TOML an inline table: {random = 0.97, heuristic = 0.6}): an entry's weight is
    then its loss rate over the one its target allows, ((1 - w) / (1 - target)) ** pfsp_power, so the
    league meets most the entries furthest from their targets; an entry not named: (1 - w) ** pfsp_power"""
    pfsp_mix: Annotated[float, Field(ge=0, le=1)] = 0.2
    """the share of league draws spread evenly over the entries (none is ever dropped)"""
    pfsp_decay: Annotated[float, Field(gt=0, le=1)] = 0.98
    """per update, the weight left to the results counted so far (recent juegos count most)"""
    pfsp_by_team_size: bool = False
    """with team_sizes: each size counts its own results and draws its own opponents (a weakness at
    one size does not hide behind strength at another)"""
    # the run

    seed: Annotated[int, Field(ge=0)] = 1
    """seeds the tables, the network's initial weights and every draw of the run"""
    torch_threads: Annotated[int, Field(ge=1)] = 2
    """threads torch may use"""
    run_dir: Path = Path("runs/ppo")
    """the run's folder: checkpoint.pt, metrics.jsonl, tb/, evals/"""
    checkpoint_every: Annotated[int, Field(ge=1)] = 50
    """updates between checkpoints"""
    resume: bool = False
    """continue the run in run_dir from its checkpoint (the log is cut back to where the checkpoint stands)"""
    overwrite: bool = False
    """start a fresh run in a run_dir that holds one, deleting it (without this, such a run_dir is refused)"""
    time_limit_minutes: Annotated[float, Field(ge=0)] = 0.0
    """stop (with a checkpoint) after the update at which the run's wall time, summed over its resumes
    and counting the warm start and evaluations, reaches this (0: no limit); the learning rate still
    anneals over total_decisions, so the trajectory up to the stop is the seed's"""
    decision_limit: Annotated[int, Field(ge=0)] = 0
    """stop (with a checkpoint) after the update at which the run's decisions, summed over its resumes, reach
    this (0: no limit); unlike total_decisions it leaves the learning rate's schedule alone, so the run up to
    the stop is the seed's: a budget in decisions, the same on a fast host and a slow one"""
    log_every: Annotated[int, Field(ge=1)] = 5
    """updates between printed lines"""
    progress: bool = True
    """show a progress bar"""
    tensorboard: bool = True
    """write TensorBoard logs to run_dir/tb (metrics.jsonl is always written)"""
    eval_every: Annotated[int, Field(ge=0)] = 0
    """updates between evaluations against eval_opponents (0: never)"""
    eval_juegos: Annotated[int, Field(ge=1)] = 200
    """juegos of each evaluation (duplicate pairs)"""
    eval_opponents: tuple[str, ...] = ("heuristic", "random")

    def validate(self) -> None:
        config.match_settings(self)  # the tradition and its limits: a ValueError naming the bad one
        from agents.features import layout_for

        layout_for(self.tradition).width(self.hand_features, self.juego_record, self.record_rates)  # what it has
        if self.episode not in ("mano", "juego", "partida"):
            raise ValueError(f"episode must be mano, juego or partida, got {self.episode!r}")
        if self.reward == "juego" and self.episode == "mano":
            raise ValueError("reward = 'juego' pays when a juego is won: episode must be juego or partida")
        for name in ("num_envs", "num_steps", "total_decisions", "num_minibatches", "update_epochs", "hidden",
                     "pool_size", "snapshot_every", "checkpoint_every", "log_every", "torch_threads", "eval_juegos",
                     "bc_epochs", "num_workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        if self.team_sizes:
            if self.team_sizes[0] != self.team_size:
                raise ValueError(f"team_sizes {list(self.team_sizes)} must start with team_size ({self.team_size})")
            if len(set(self.team_sizes)) != len(self.team_sizes):
                raise ValueError(f"team_sizes {list(self.team_sizes)} repeats a size")
            for k in self.team_sizes:
                config.match_settings(dataclasses.replace(self, team_size=k))  # each size valid for the tradition
            if self.team_size_tables:
                if len(self.team_size_tables) != len(self.team_sizes) or min(self.team_size_tables) < 1 \
                        or sum(self.team_size_tables) != self.num_envs:
                    raise ValueError(f"team_size_tables {list(self.team_size_tables)} must give each of team_sizes "
                                     f"{list(self.team_sizes)} at least one table and sum to num_envs ({self.num_envs})")
            elif self.num_envs % len(self.team_sizes):
                raise ValueError(f"num_envs ({self.num_envs}) must be a multiple of the number of team_sizes "
                                 f"({len(self.team_sizes)}): each size plays an equal share of the tables")
            if self.distributed:
                raise ValueError("team_sizes (several sizes in one run) runs in one process: num_workers = 1")
        if self.num_envs % self.num_workers:
            raise ValueError(f"num_envs ({self.num_envs}) must be a multiple of num_workers ({self.num_workers}): "
                             "each worker plays an equal shard of the tables")
        if not 0.0 <= self.p_latest <= 1.0 or not 0.0 <= self.p_bot <= 1.0 - self.p_latest:
            raise ValueError(f"p_latest and p_bot must be probabilities with p_latest + p_bot <= 1, "
                             f"got {self.p_latest!r} and {self.p_bot!r}")
        if self.league:
            if self.episode != "juego":
                raise ValueError("league = true draws an opponent per juego: episode must be 'juego'")
            if self.p_bot > 0:
                raise ValueError("league = true draws the opponents by their results: leave p_bot at 0")
            if self.distributed:
                raise ValueError("league = true runs in one process: num_workers = 1")
        if self.pfsp_targets:
            if not self.league:
                raise ValueError("pfsp_targets weighs the league's draws: set league = true")
            unknown = sorted(set(self.pfsp_targets) - set(entry_names(self.bot_opponents)))
            if unknown:
                raise ValueError(f"pfsp_targets names {unknown}, not league entries: "
                                 f"{list(dict.fromkeys(entry_names(self.bot_opponents)))}")
        if self.team_size_tables and not self.team_sizes:
            raise ValueError("team_size_tables splits the tables among team_sizes: give team_sizes too")
        if self.pfsp_by_team_size and not (self.league and len(self.sizes) > 1):
            raise ValueError("pfsp_by_team_size needs league = true and several team_sizes")
        if self.p_bot > 0 and not self.bot_opponents:
            raise ValueError("p_bot > 0 needs bot_opponents")
        if self.eval_every < 0 or self.value_warmup_updates < 0 or self.time_limit_minutes < 0 or self.decision_limit < 0:
            raise ValueError("eval_every, value_warmup_updates, time_limit_minutes and decision_limit must be >= 0")
        from agents.registry import load_policy

        for name in (*self.eval_opponents, *self.bot_opponents) if self.eval_every else self.bot_opponents:
            load_policy(name, tradition=self.tradition)  # an unknown bot fails now, not after an hour of training
        for name in ("bc_dataset", "init_from"):
            path = getattr(self, name)  # a resumed run has its warm start in its checkpoint: never read again
            if path is not None and not self.resume and not Path(path).exists():
                raise ValueError(f"{name} {str(path)!r} does not exist")
        starts = [name for name in ("bc_dataset", "bc_policy", "init_from") if getattr(self, name) is not None]
        if len(starts) > 1:
            raise ValueError(f"give one warm start, not {' and '.join(starts)}")
        if self.anchor_coef > 0 and not starts:
            raise ValueError("anchor_coef > 0 keeps the actor near its warm start: give bc_dataset, bc_policy or init_from")
        if self.anchor_decay_updates and not self.anchor_coef > 0:
            raise ValueError("anchor_decay_updates decays the anchor: set anchor_coef > 0 too")
        if self.bc_policy is not None:
            for name in (self.bc_policy, *self.bc_opponents):
                load_policy(name, tradition=self.tradition)  # an unknown bot fails now
        if self.table is not None:
            self._check_table()
        config.check_config(self)  # and every field's type and bounds (pydantic), the key named

    @property
    def table(self) -> tuple[str, Path] | None:
        """The solved envite the learner plays from, as (its setting's name, its path); None without."""
        given = [(name, getattr(self, name)) for name in ("envido_table", "pares_table") if getattr(self, name) is not None]
        return given[0] if given else None

    def _check_table(self) -> None:
        from train.ppo.table_envido import TableEnvido

        if self.envido_table is not None and self.pares_table is not None:
            raise ValueError("give envido_table (truco argentino) or pares_table (Moteño), not both")
        name, path = self.table
        of = {"envido_table": ("argentino", "the solved envido is truco argentino's"),
              "pares_table": ("moteno", "the solved envite de pares is Moteño's")}[name]
        if self.tradition != of[0]:
            raise ValueError(f"{name}: {of[1]}, not {self.tradition}'s")
        if 1 not in self.sizes:
            raise ValueError(f"{name} plays 1 contra 1 tables: train team size 1 (team_size or team_sizes)")
        table = TableEnvido.of(self.tradition, path).table  # a missing or corrupt table: a ValueError naming it
        if table.target != self.target:
            raise ValueError(f"{name} {str(path)!r} is solved for juegos to {table.target}, "
                             f"not to this run's target {self.target}")

    @property
    def critic_opponent_kinds(self) -> tuple[str, ...]:
        """What the critic tells apart at the other team with ``critic_knows_opponent`` (index = kind):
        the learner itself, a snapshot, each bot of ``bot_opponents`` once; empty without it."""
        if not self.critic_knows_opponent:
            return ()
        return ("self", "snapshot", *dict.fromkeys(self.bot_opponents))

    @property
    def sizes(self) -> tuple[int, ...]:
        """The team sizes trained on: ``team_sizes``, or ``team_size`` alone."""
        return tuple(self.team_sizes) or (self.team_size,)

    @property
    def tables_per_size(self) -> tuple[int, ...]:
        """How many tables each of ``sizes`` plays: ``team_size_tables``, or equal shares."""
        return tuple(self.team_size_tables) or (self.num_envs // len(self.sizes),) * len(self.sizes)

    @property
    def distributed(self) -> bool:
        """Rollouts on Ray workers (``train.ppo.ray_workers``) rather than in this process."""
        return self.num_workers > 1 or self.ray_address is not None

    @classmethod
    def from_toml(cls, path: Path, **overrides) -> PPOConfig:
        return config.from_toml(cls, path, "ppo", **overrides)


# ------------------------------------------------------------------------------------------
# GAE over (table, seat) trajectories


@njit(cache=True, parallel=True)
def _gae(seats, trained, rewards, terminated, values, last_values, gamma, lam, adv):
    """Advantages of the trained decisions; a seat's decision is credited until its next one.

    ``seats[t, i]`` acted at step t on table i; ``rewards[t, i, q]`` and ``terminated[t, i]``
    came out of that step. ``last_values[i, q]`` bootstraps what is left after the rollout.
    Decisions that are not trained (forced single-option moves, a frozen opponent's) are part
    of the environment: the rewards after them keep running to the seat's previous decision.
    (A seat is trained or frozen for a whole rollout, so a frozen seat's chain is never read.)
    """
    T, N = seats.shape
    for i in prange(N):
        for q in range(H.MAX_PLAYERS):
            acc = 0.0
            next_v = last_values[i, q]
            next_adv = 0.0
            for t in range(T - 1, -1, -1):
                if terminated[t, i]:
                    acc = 0.0
                    next_v = 0.0
                    next_adv = 0.0
                acc += rewards[t, i, q]
                if seats[t, i] == q and trained[t, i]:
                    delta = acc + gamma * next_v - values[t, i]
                    a = delta + gamma * lam * next_adv
                    adv[t, i] = a
                    next_adv = a
                    next_v = values[t, i]
                    acc = 0.0


# ------------------------------------------------------------------------------------------
# checkpoints: atomic, loaded with weights_only=True


def masked_kl(p_logits, q_logits, mask):
    """KL(p || q) per row over the legal actions (illegal ones carry -inf logits in both and no
    probability: they add nothing, rather than the nan of 0 * -inf). The anchor's term is
    KL(anchor || policy), the magnet's KL(policy || magnet)."""
    legal = mask != 0
    p_logp = torch.log_softmax(p_logits, dim=-1).masked_fill(~legal, 0.0)
    q_logp = torch.log_softmax(q_logits, dim=-1).masked_fill(~legal, 0.0)
    return (p_logp.exp() * (p_logp - q_logp)).sum(-1)


def anchor_weight(cfg: PPOConfig, update: int) -> float:
    """The anchor's weight at ``update`` (0-based): ``anchor_coef``, or with ``anchor_decay_updates``
    its linear decay to 0 at that update (by update count, so a run and its resumes agree)."""
    if not cfg.anchor_decay_updates:
        return cfg.anchor_coef
    return cfg.anchor_coef * max(0.0, 1.0 - update / cfg.anchor_decay_updates)


def ppo_loss(logp, old_logp, adv, entropy, value, ret, cfg: PPOConfig, critic_only: bool = False, anchor_kl=None,
             anchor_coef: float | None = None, magnet_kl=None):
    """The loss of one minibatch, to minimise, and its terms (detached, for the logs).

    The clipped surrogate of Schulman et al. (2017, eq. 7) on advantages normalised within the
    minibatch, minus ``ent_coef`` times the mean entropy, plus ``vf_coef`` times the squared
    value error (halved), plus ``anchor_coef`` (default ``cfg.anchor_coef``; the loop passes
    ``anchor_weight``) times the mean ``anchor_kl`` (``masked_kl`` of the warm start's logits, when
    there is an anchor), plus ``magnet_coef`` times the mean ``magnet_kl`` (KL(policy || magnet), when
    there is a magnet); ``critic_only`` (the value warm-up of a cloned actor) keeps the value term alone.
    """
    logratio = logp - old_logp
    ratio = logratio.exp()
    a = (adv - adv.mean()) / (adv.std(unbiased=False) + 1e-8)
    policy = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
    value_loss = 0.5 * ((value - ret) ** 2).mean()
    ent = entropy.mean()
    loss = cfg.vf_coef * value_loss if critic_only else policy - cfg.ent_coef * ent + cfg.vf_coef * value_loss
    if anchor_kl is not None and not critic_only:
        loss = loss + (cfg.anchor_coef if anchor_coef is None else anchor_coef) * anchor_kl.mean()
    if magnet_kl is not None and not critic_only:
        loss = loss + cfg.magnet_coef * magnet_kl.mean()
    with torch.no_grad():
        terms = {"policy": policy.detach(), "value": value_loss.detach(), "entropy": ent.detach(),
                 "approx_kl": ((ratio - 1) - logratio).mean(),
                 "clipfrac": ((ratio - 1).abs() > cfg.clip_coef).float().mean()}
        if anchor_kl is not None:
            terms["anchor_kl"] = anchor_kl.mean()
        if magnet_kl is not None:
            terms["magnet_kl"] = magnet_kl.mean()
    return loss, terms


def save_checkpoint(path: Path, payload: dict) -> None:
    with atomic_output(path) as tmp:
        torch.save(payload, tmp)


def load_checkpoint(path: Path, cfg: PPOConfig | None = None) -> dict:
    """The checkpoint (``agents.ppo_checkpoint.read_checkpoint``); with ``cfg``, also refused
    unless it was made with the same settings (a resume)."""
    ckpt = read_checkpoint(path)
    if cfg is not None:
        check_made_for(ckpt.get("settings") or ckpt["config"], cfg.tradition, f"{path}")
        # num_workers: the workers' own check names it (a run resumes with the workers that wrote it)
        keys = [f.name for f in dataclasses.fields(PPOConfig)
                if f.name not in (*SAFE_TO_CHANGE_ON_RESUME, "num_workers", "bot_opponents", "pfsp_targets")]
        stored = {**config.to_dict(PPOConfig()), **ckpt["config"]}  # a setting added since: its default
        config.check_same_settings(path, stored, cfg, keys, what="config",
                                   hint=f"a resumed run keeps its settings; these may change: "
                                        f"{', '.join(SAFE_TO_CHANGE_ON_RESUME)}, and bot_opponents may grow")
        before = tuple(stored["bot_opponents"])
        if tuple(cfg.bot_opponents[:len(before)]) != before:  # new entries (an exploiter of the run) join at the end
            raise ValueError(f"{path}: bot_opponents may only grow on resume, new bots after the run's "
                             f"{list(before)}; got {list(cfg.bot_opponents)}")
        # the targets the run had stay; a new entry may come with one of its own
        targets, new = dict(stored["pfsp_targets"]), set(cfg.bot_opponents[len(before):]) - set(before)
        kept = {k: v for k, v in cfg.pfsp_targets.items() if k not in new}
        if kept != targets:
            raise ValueError(f"{path}: checkpoint from another config: pfsp_targets = {targets!r}, this run has "
                             f"{dict(cfg.pfsp_targets)!r} (a resumed run keeps its targets; only the bots it "
                             f"adds to bot_opponents may bring targets of their own)")
    return ckpt


def export_policy(checkpoint: Path, out: Path) -> None:
    """Write the actor alone (all a bot needs) from a run's checkpoint: the file to ship.

    Same format and loader (``kind`` = ``"policy"``); a run cannot resume from it.
    """
    ckpt = load_checkpoint(Path(checkpoint))
    actor = actor_weights(ckpt["model"])
    save_checkpoint(Path(out), {"format": FORMAT, "version": CHECKPOINT_VERSION, "kind": "policy",
                                "config": ckpt["config"], "settings": ckpt.get("settings"), "model": actor, "update": ckpt["update"],
                                "decisions": ckpt["decisions"], "seconds": ckpt.get("seconds", 0.0)})


def _grow_critic_opponents(ckpt: dict, agent: Agent) -> None:
    """Bots appended to ``bot_opponents`` on resume (``load_checkpoint`` allows only that) are new kinds
    at the end of ``critic_opponent_kinds``: the critic's table of opponents gains their rows, zero
    as a new table starts, and so do Adam's moments for it. The rows already learned stay. Applied
    to every weight set the checkpoint holds: the learner, its anchor, its magnet and its snapshots."""
    key = "critic_opponent.weight"
    if not agent.critic_opponents:
        return
    rows = agent.critic_opponents

    def grow(t: torch.Tensor) -> torch.Tensor:
        return t if t.shape[0] == rows else torch.cat([t, t.new_zeros(rows - t.shape[0], *t.shape[1:])])

    for weights in (ckpt["model"], ckpt.get("anchor"), ckpt.get("magnet"), *ckpt["pool"]):
        if weights is not None and key in weights:
            weights[key] = grow(weights[key])
    index = [name for name, _ in agent.named_parameters()].index(key)  # the optimizer's one group, in this order
    moments = ckpt["optimizer"]["state"].get(index, {})
    for name in ("exp_avg", "exp_avg_sq"):
        if name in moments:
            moments[name] = grow(moments[name])


# ------------------------------------------------------------------------------------------
# the run


@dataclass
class RunState:
    update: int = 0
    decisions: int = 0
    pool: list = field(default_factory=list)  # snapshot state_dicts
    seconds: float = 0.0  # wall time of the run, over its resumes
    stopped_by_time_limit: bool = False
    stopped_by_decision_limit: bool = False


RUN_FILES = ("checkpoint.pt", "metrics.jsonl", "tb", "evals", "bc.npz", "bc.json")  # what a run writes in its run_dir
# what a resumed run may change: how it is watched, evaluated, checkpointed and stopped; any other
# setting would change the run's trajectory, so a resume with another value is refused
SAFE_TO_CHANGE_ON_RESUME = ("resume", "overwrite", "run_dir", "progress", "tensorboard", "log_every", "eval_every",
                            "eval_juegos", "eval_opponents", "checkpoint_every", "time_limit_minutes", "torch_threads",
                            "total_decisions", "decision_limit", "ray_address")  # a run may be extended (the learning rate anneals over the new total)


def _critic_fits(agent, model: dict) -> bool:
    """Whether a checkpoint's critic has this network's critic weights, names and shapes alike."""
    own = {k: v.shape for k, v in agent.state_dict().items() if not k.startswith("actor")}
    theirs = {k: v.shape for k, v in model.items() if not k.startswith("actor")}
    return own == theirs


def train(cfg: PPOConfig, in_process_workers: bool = False) -> RunState:
    """Train; rollouts in this process, or on Ray workers (``num_workers > 1`` or a ``ray_address``).

    ``in_process_workers``: the workers' shards played one after another in this process, without
    Ray: the same numbers as the Ray workers (for tests and debugging).
    """
    cfg.validate()
    config.prepare_run_dir(cfg.run_dir, cfg.resume, cfg.overwrite, RUN_FILES, "checkpoint.pt")
    torch.set_num_threads(cfg.torch_threads)
    # beside a busy co-tenant torch gives way too, never above torch_threads (truque_env/threads.py)
    WATCH.listen("torch", lambda n, most=cfg.torch_threads: torch.set_num_threads(min(n, most)))
    gen = torch.Generator().manual_seed(cfg.seed)
    if cfg.distributed or in_process_workers:
        from train.ppo.ray_workers import Workers

        sampler = Workers(cfg, use_ray=not in_process_workers)
    elif len(cfg.sizes) > 1:
        sampler = MixedSizes(cfg, gen)
    else:
        sampler = Sampler(cfg, gen)
    try:
        return _train(cfg, sampler, gen)
    finally:
        sampler.close()


def _train(cfg: PPOConfig, sampler, gen: torch.Generator) -> RunState:
    t_start = time.perf_counter()
    ckpt_path = cfg.run_dir / "checkpoint.pt"
    np_rng = np.random.default_rng(cfg.seed)
    agent = Agent.from_config(cfg)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5, fused=True)
    run = RunState()
    ret_stats = (0.0, 1.0)  # running mean and variance of the returns (value normalisation)
    entries = len(entry_names(cfg.bot_opponents))
    groups = len(cfg.sizes) if cfg.pfsp_by_team_size else 1  # results kept per team size, or for all
    allowed = allowed_losses(cfg.pfsp_targets, entry_names(cfg.bot_opponents)) if cfg.pfsp_targets else None
    league = LeagueStats(groups * entries) if cfg.league else None

    if cfg.resume:
        ckpt = load_checkpoint(ckpt_path, cfg)
        if ckpt.get("kind", "run") != "run":
            raise ValueError(f"{ckpt_path}: an exported policy (actor only); a run resumes from its own checkpoint")
        _grow_critic_opponents(ckpt, agent)
        agent.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
        run = RunState(ckpt["update"], ckpt["decisions"], list(ckpt["pool"]), float(ckpt.get("seconds", 0.0)))
        gen.set_state(ckpt["torch_rng"])
        np_rng.bit_generator.state = ckpt["numpy_rng"]
        ret_stats = tuple(ckpt["ret_stats"])
        sampler.load_state(ckpt)  # the tables where they stood, the bots' generators (and the workers')
        if league is not None:
            league.load_state(ckpt["league_stats"], groups)
    elif cfg.init_from is not None:
        init = load_checkpoint(cfg.init_from)
        model = init["model"]
        if not _critic_fits(agent, model):  # e.g. a league run's critic that knew its opponents: the actor
            model = actor_weights(model)  # alone, the critic learns anew
        try:
            missing, unexpected = agent.load_state_dict(model, strict=False)
        except RuntimeError as exc:  # shapes differ: another hidden size
            raise ValueError(f"init_from {cfg.init_from}: its network does not fit this config ({exc})") from None
        if unexpected or any(k.startswith("actor") for k in missing):
            raise ValueError(f"init_from {cfg.init_from}: its network does not fit this config")
        if not missing and "ret_stats" in init:  # the critic came along: so do its value statistics
            ret_stats = tuple(init["ret_stats"])
    elif cfg.bc_dataset is not None or cfg.bc_policy is not None:  # warm start: clone a bot's decisions into the actor
        from train.ppo.bc import collect_mixed, fit, load_dataset, save_dataset

        dataset = cfg.bc_dataset
        if cfg.bc_policy is not None:  # collected first, into the run (the time limit counts it)
            data, record = collect_mixed(cfg.bc_policy, cfg.tradition, cfg.sizes, cfg.bc_decisions, seed=cfg.bc_seed,
                                         opponents=tuple(cfg.bc_opponents), target=cfg.target,
                                         p_intercept=cfg.p_intercept, progress=cfg.progress)
            dataset = cfg.run_dir / "bc.npz"
            save_dataset(dataset, data, record)  # and bc.json beside it
        fit(agent, load_dataset(dataset, cfg.tradition), epochs=cfg.bc_epochs, lr=cfg.bc_learning_rate, seed=cfg.seed)
    if not run.pool:
        run.pool.append({k: v.clone() for k, v in agent.state_dict().items()})
    anchor = None
    if cfg.anchor_coef > 0:  # the warm start, frozen (a resumed run reads it back: it is not the weights now)
        anchor = Agent.from_config(cfg)
        anchor.load_state_dict(ckpt["anchor"] if cfg.resume else agent.state_dict())
        anchor.requires_grad_(False)
    magnet = None
    if cfg.magnet_coef > 0:  # starts as the actor starts, then follows it (magnet_ema)
        magnet = Agent.from_config(cfg)
        magnet.load_state_dict(ckpt["magnet"] if cfg.resume else agent.state_dict())
        magnet.requires_grad_(False)
    # the log's clock is the time limit's: it has run since t_start (the warm start included)
    log = _Log(cfg, resumed=cfg.resume, seconds=run.seconds + time.perf_counter() - t_start, at=run)

    T, N = cfg.num_steps, cfg.num_envs
    batch = T * N
    num_updates = -(-cfg.total_decisions // batch)
    progress = _progress(cfg, num_updates, run.update)
    train_seconds, decisions_at_start, seconds_at_start = 0.0, run.decisions, run.seconds

    while run.update < num_updates:
        t_update = time.perf_counter()
        lr = cfg.learning_rate * (1.0 - run.update / num_updates) if cfg.anneal_lr else cfg.learning_rate
        optimizer.param_groups[0]["lr"] = lr
        # which team the learner holds at each table, and who holds the other team (a league run:
        # the tables keep theirs for the juego, and a new juego's is drawn with these probabilities)
        probs = None
        if league is not None:  # (entries,), or (sizes, entries) with pfsp_by_team_size
            probs = np.stack([pfsp_probs(league.wins[g * entries:(g + 1) * entries],
                                         league.games[g * entries:(g + 1) * entries], cfg.pfsp_power, cfg.pfsp_mix,
                                         allowed)
                              for g in range(groups)])
            probs = probs[0] if groups == 1 else probs
        tables = draw_tables(cfg, run.update, np_rng) if league is None else None
        opponent = run.pool[int(np_rng.integers(len(run.pool)))]

        # ---- rollout (on the workers' shards, concatenated, when there are workers) ------
        ro = sampler.rollout(agent, opponent, ret_stats, tables, probs)
        if league is not None:
            league.decay(cfg.pfsp_decay)
            league.add(ro.finished_entry, ro.finished_result)
        m = len(ro.action)
        run.decisions += batch
        rollout_seconds = time.perf_counter() - t_update

        # ---- advantages ----------------------------------------------------------------
        adv = np.zeros((T, N), dtype=np.float32)
        _gae(ro.seat, ro.trained, ro.rew, ro.term, ro.value, ro.last_values, cfg.gamma, cfg.gae_lambda, adv)
        f_adv = adv[ro.t, ro.i]
        f_ret = f_adv + ro.value[ro.t, ro.i]
        if cfg.norm_values:
            mean = 0.99 * ret_stats[0] + 0.01 * float(f_ret.mean())
            ret_stats = (mean, 0.99 * ret_stats[1] + 0.01 * float(f_ret.var() + 1e-8))
            f_ret = (f_ret - ret_stats[0]) / np.sqrt(ret_stats[1])
        f_adv, f_ret = torch.from_numpy(f_adv), torch.from_numpy(f_ret.astype(np.float32))
        f_action, f_logp = torch.from_numpy(ro.action), torch.from_numpy(ro.logp)

        # ---- PPO update ----------------------------------------------------------------
        mb_size = max(1, m // cfg.num_minibatches)
        warmup = run.update < cfg.value_warmup_updates  # a cloned actor waits for its critic
        anchor_now = anchor_weight(cfg, run.update)
        stats = {}
        for _ in range(cfg.update_epochs):
            perm = torch.randperm(m, generator=gen).numpy()
            for start in range(0, m - mb_size + 1, mb_size):  # whole minibatches only
                mb = perm[start : start + mb_size]
                mk = torch.from_numpy(ro.mask[mb])
                csr = agent.csr(ro.obs[mb])
                logits = agent.logits_csr(csr, mk)
                logp, entropy = evaluate_actions(logits, mk, f_action[mb])
                value = agent.value_csr(csr, _hands(cfg, ro.hidden[mb]), ro.kind[mb])
                anchor_kl = None
                if anchor is not None and anchor_now > 0:  # a decayed anchor costs nothing
                    with torch.no_grad():
                        anchor_logits = anchor.logits_csr(csr, mk)
                    anchor_kl = masked_kl(anchor_logits, logits, mk)
                magnet_kl = None
                if magnet is not None:
                    with torch.no_grad():
                        magnet_logits = magnet.logits_csr(csr, mk)
                    magnet_kl = masked_kl(logits, magnet_logits, mk)
                loss, terms = ppo_loss(logp, f_logp[mb], f_adv[mb], entropy, value, f_ret[mb], cfg,
                                       critic_only=warmup, anchor_kl=anchor_kl, anchor_coef=anchor_now,
                                       magnet_kl=magnet_kl)
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                optimizer.step()
                stats = {f"loss/{k}": v.item() for k, v in terms.items()}
        if magnet is not None:  # the magnet follows the learner: an exponential average of its weights
            with torch.no_grad():
                for m_w, w in zip(magnet.state_dict().values(), agent.state_dict().values(), strict=True):
                    if m_w.is_floating_point():
                        m_w.lerp_(w, cfg.magnet_ema)
        run.update += 1
        update_seconds = time.perf_counter() - t_update
        train_seconds += update_seconds

        # ---- pool, logs, evaluation, checkpoints -----------------------------------------
        if run.update % cfg.snapshot_every == 0:
            run.pool.append({k: v.clone() for k, v in agent.state_dict().items()})
            run.pool = run.pool[-cfg.pool_size :]
        sps = (run.decisions - decisions_at_start) / train_seconds
        stats.update({"perf/decisions_per_second": sps, "perf/update_seconds": update_seconds,
                      "perf/rollout_seconds": rollout_seconds, "perf/trained_decisions": m,
                      "perf/trained_share": m / batch, "charts/learning_rate": lr,
                      **({"charts/anchor_coef": anchor_now} if anchor is not None else {}),
                      "charts/return_mean": ret_stats[0], "charts/return_std": float(np.sqrt(ret_stats[1]))})
        if league is not None:  # each entry's recent win rate and its share of the draws
            names = [n.replace("/", "_") for n in entry_names(cfg.bot_opponents)]  # a checkpoint path as a bot
            rates = league.win_rates().reshape(groups, entries)
            for g, (rate_row, p_row) in enumerate(zip(rates, probs.reshape(groups, entries), strict=True)):
                where = f"{cfg.sizes[g]}v{cfg.sizes[g]}/" if groups > 1 else ""
                for name, w, p in zip(names, rate_row, p_row, strict=True):
                    stats[f"league/{where}{name}/win_rate"] = float(w)
                    stats[f"league/{where}{name}/p"] = float(p)
            stats["league/juegos_finished"] = float(len(ro.finished_entry))
        log.scalars(run, stats)
        if progress is not None:
            progress.update(run.update, sps, stats)
        elif run.update % cfg.log_every == 0:
            print(f"update {run.update}/{num_updates} decisions {run.decisions:,} SPS {sps:,.0f} "
                  + " ".join(f"{k.split('/')[-1]} {v:.3f}" for k, v in stats.items() if k.startswith("loss")))
        if cfg.eval_every and (run.update % cfg.eval_every == 0 or run.update == num_updates):
            log.evaluation(run, agent)
        run.seconds = seconds_at_start + time.perf_counter() - t_start
        out_of_time = 0 < cfg.time_limit_minutes * 60 <= run.seconds
        out_of_decisions = 0 < cfg.decision_limit <= run.decisions and not out_of_time  # the time limit names a tie
        if run.update % cfg.checkpoint_every == 0 or run.update == num_updates or out_of_time or out_of_decisions:
            save_checkpoint(ckpt_path, {
                "format": FORMAT, "version": CHECKPOINT_VERSION, "config": config.to_dict(cfg),
                "settings": config.match_settings(cfg).to_dict(),  # the game, with its obs and action sizes
                "model": agent.state_dict(), "optimizer": optimizer.state_dict(),
                "update": run.update, "decisions": run.decisions, "pool": run.pool, "seconds": run.seconds,
                "torch_rng": gen.get_state(), "numpy_rng": np_rng.bit_generator.state, "ret_stats": ret_stats,
                **sampler.state(),  # the tables and the bots' generators (the workers': theirs too)
                **({"anchor": anchor.state_dict()} if anchor is not None else {}),
                **({"magnet": magnet.state_dict()} if magnet is not None else {}),
                **({"league_stats": league.state()} if league is not None else {}),
            })
            log.flush()
        if out_of_time or out_of_decisions:
            run.stopped_by_time_limit, run.stopped_by_decision_limit = out_of_time, out_of_decisions
            limit = (f"the time limit ({cfg.time_limit_minutes:g} min)" if out_of_time
                     else f"the decision limit ({cfg.decision_limit:,})")
            print(f"stopped at {limit}: update {run.update}, {run.decisions:,} decisions, "
                  f"{run.seconds / 60:.1f} min; checkpoint {ckpt_path}")
            break
    if progress is not None:
        progress.close()
    log.close()
    return run


class _Log:
    """TensorBoard scalars (``run_dir/tb``) and the same numbers as JSON lines (``run_dir/metrics.jsonl``).

    Evaluations against fixed bots (``eval_opponents``) use the duplicate-deal evaluator
    (``train.eval.duplicate.play_match``); each full report is kept as ``run_dir/evals/<update>_<bot>.json``.
    """

    def __init__(self, cfg: PPOConfig, resumed: bool, seconds: float = 0.0, at: RunState | None = None):
        self.cfg = cfg
        cfg.run_dir.mkdir(parents=True, exist_ok=True)
        path = cfg.run_dir / "metrics.jsonl"
        purge_step = None
        if resumed and at is not None:
            # the log ends where the checkpoint ends: rows written after it (a run killed between two
            # checkpoints) are played again by the resumed run, so they go
            if path.exists():
                kept = [line for line in path.read_text().splitlines(keepends=True)
                        if line.strip() and json.loads(line).get("update", 0) <= at.update]
                write_text_atomic(path, "".join(kept))
            for report in (cfg.run_dir / "evals").glob("*.json"):
                if report.name[:6].isdigit() and int(report.name[:6]) > at.update:
                    report.unlink()
            purge_step = at.decisions + 1  # TensorBoard hides the events after the checkpoint
        self.lines = open(path, "a" if resumed else "w")
        self.tb = None
        if cfg.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(str(cfg.run_dir / "tb"), purge_step=purge_step)
        self.t0 = time.time() - seconds  # wall_seconds runs on over resumes

    def scalars(self, run: RunState, values: dict) -> None:
        row = {"update": run.update, "decisions": run.decisions, "wall_seconds": time.time() - self.t0, **values}
        self.lines.write(json.dumps(row) + "\n")
        if self.tb is not None:
            for k, v in values.items():
                self.tb.add_scalar(k, v, run.decisions)

    def evaluation(self, run: RunState, agent: Agent) -> None:
        from agents.ppo_policy import PPOPolicy
        from agents.registry import load_policy
        from train.eval.duplicate import play_match

        cfg = self.cfg
        learner = PPOPolicy.from_agent(agent, seed=cfg.seed + run.update, name=f"ppo@{run.update}")
        if cfg.envido_table is not None:  # as it plays in the rollouts and once exported
            from agents.envido_table import EnvidoTablePolicy

            learner = EnvidoTablePolicy(learner, cfg.envido_table, seed=cfg.seed + run.update, name=f"ppo@{run.update}+envido")
        if cfg.pares_table is not None:
            from agents.pares_table import ParesTablePolicy

            learner = ParesTablePolicy(learner, cfg.pares_table, seed=cfg.seed + run.update, name=f"ppo@{run.update}+pares")
        several = len(cfg.sizes) > 1  # then each size is evaluated, and named in the files and scalars
        for size in cfg.sizes:
            settings = config.match_settings(dataclasses.replace(cfg, team_size=size))
            tag = f"_{size}v{size}" if several else ""
            for name in cfg.eval_opponents:
                opponent = load_policy(name, seed=cfg.seed + run.update, tradition=cfg.tradition)
                report = play_match(learner, opponent, settings=settings, episodes=cfg.eval_juegos,
                                    num_envs=min(256, 2 * -(-cfg.eval_juegos // 2)), seed=cfg.seed * 7919 + run.update,
                                    bootstrap=200)
                report.save(cfg.run_dir / "evals" / f"{run.update:06d}_{name}{tag}.json")
                prefix = f"eval/{name}/{size}v{size}" if several else f"eval/{name}"
                self.scalars(run, {f"{prefix}/{k}": v for k, v in eval_summary(report).items()})

    def flush(self) -> None:
        self.lines.flush()
        if self.tb is not None:
            self.tb.flush()

    def close(self) -> None:
        self.flush()
        self.lines.close()
        if self.tb is not None:
            self.tb.close()


def eval_summary(report) -> dict:
    """The scalars logged from an evaluation report: side A (the learner) against the bot."""
    j = report.juegos
    lo, hi = j["wilson95"] or (float("nan"), float("nan"))
    out = {"win_rate": j["win_rate_A"], "win_rate_lo95": lo, "win_rate_hi95": hi}
    for source, v in report.chinas_per_mano["A"].items():
        out[f"chinas_per_mano/{source}"] = v["mean"]
    if report.bluffs is not None:  # the tradition's style statistics (train/eval/styles/), when it has them
        for kind, b in report.bluffs["A"].items():
            out[f"bluff/{kind}_bet_when_weak"] = b["bet_when_weak"]["rate"]
            out[f"bluff/{kind}_weak_refused"] = b["weak_refused"]["rate"]
            out[f"bluff/{kind}_weak_per_mano"] = b["weak_per_mano"]
    if report.senas is not None:
        senas = [v for v in report.senas["A"].values() if isinstance(v, dict) and "count" in v]
        made = sum(v["count"] for v in senas)
        honest = sum(v["honest"]["count"] for v in senas if "honest" in v)
        out["senas/per_mano"] = made / max(1, report.manos)
        out["senas/honest_rate"] = honest / made if made else float("nan")
    return {k: (float("nan") if v is None else float(v)) for k, v in out.items()}


class _progress:
    """The run's progress (``truque_env.progress``): a bar with the updates done and the time left
    on a terminal, a plain line every 30 s otherwise; the note is the steps per second."""

    def __new__(cls, cfg, total, done):
        if not cfg.progress:
            return None
        return super().__new__(cls)

    def __init__(self, cfg, total, done):
        from truque_env.progress import Progress

        self.bar = Progress("ppo", total, done, unit="updates")

    def update(self, done, sps, stats):
        self.bar.update(done, note=f"SPS {sps:,.0f}")

    def close(self):
        self.bar.close()


def main(argv=None, prog: str = "python -m train.ppo.loop"):
    """``[--config FILE.toml] [--setting value ...]``: the TOML gives the defaults, flags override."""
    import sys

    train(config.cli(PPOConfig, sys.argv[1:] if argv is None else argv, prog, "ppo"))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
