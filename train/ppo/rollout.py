"""Rollouts of the PPO trainer (``train.ppo.loop``): one function, run by the single process on all
tables or by each Ray worker (``train.ppo.ray_workers``) on a shard of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import torch

from agents.ppo_network import Agent, sample
from agents.sparse_linear import int8_csr
from train.config import match_settings
from train.ppo.pfsp import LeagueTables
from train.ppo.table_envido import TableEnvido
from truque_env.engine import header as H
from truque_env.engine.record import OBS_RECORD_SIZE
from truque_env.policy import act_batch as policy_act_batch
from truque_env.vector import VectorEnv

if TYPE_CHECKING:
    from train.ppo.loop import PPOConfig

# ------------------------------------------------------------------------------------------
# rollouts: one function, run by the single process on all tables or by each Ray worker on a shard


class Tables(NamedTuple):
    """Who plays each table in one rollout: drawn by the learner (a worker gets its slice)."""

    learner_team: np.ndarray  # the learner's team, 0 or 1
    self_play: np.ndarray  # the learner holds the other team too (both teams' decisions are trained on)
    bot: np.ndarray  # who holds the other team otherwise: -2 a snapshot, j >= 0 bots[j] (-1: self play)

    def shard(self, lo: int, hi: int) -> Tables:
        return Tables(*(x[lo:hi] for x in self))


def draw_tables(cfg: PPOConfig, update: int, np_rng: np.random.Generator) -> Tables:
    N = cfg.num_envs
    # swapping every update puts the learner on both sides of one juego (see swap_teams_every_update)
    learner_team = (np.arange(N) + (update if cfg.swap_teams_every_update else 0)) % 2
    draw = np_rng.random(N)
    self_play = draw < cfg.p_latest
    bot = np.where(draw < cfg.p_latest + cfg.p_bot, -1, -2)
    if cfg.bot_opponents:
        bot = np.where(self_play | (bot == -2), bot, np_rng.integers(len(cfg.bot_opponents), size=N))
    return Tables(learner_team, self_play, bot)


def opponent_kinds(cfg: PPOConfig, tables: Tables) -> np.ndarray:
    """Per table, the index in ``cfg.critic_opponent_kinds`` of who holds the other team (zeros
    without ``critic_knows_opponent``: the critic then reads nothing of it)."""
    kinds = cfg.critic_opponent_kinds
    if not kinds:
        return np.zeros(len(tables.bot), dtype=np.int64)
    bot_kind = np.array([kinds.index(name) for name in cfg.bot_opponents] or [0], dtype=np.int64)
    return np.where(tables.self_play, 0, np.where(tables.bot == -2, 1, bot_kind[np.maximum(tables.bot, 0)]))


@dataclass
class Rollout:
    """What ``num_steps`` decisions on some tables leave for GAE and the PPO update.

    The trained decisions, packed in (step, table) order: ``obs``, ``hidden`` (every hand, for the
    centralised critic), ``mask``, ``action``, ``logp`` and where they were taken (``t``, ``i``).
    ``kind``: per trained decision, who held the other team (``opponent_kinds``).
    Per (step, table): ``value`` (the critic's, denormalised; meaningful where trained), ``seat``,
    ``trained``, ``rew`` (every seat's) and ``term``. ``last_values[i, q]``: the critic's value
    of seat ``q``'s position at the end, to bootstrap what is left.
    """

    obs: np.ndarray
    hidden: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    logp: np.ndarray
    t: np.ndarray
    i: np.ndarray
    kind: np.ndarray
    value: np.ndarray
    seat: np.ndarray
    trained: np.ndarray
    rew: np.ndarray
    term: np.ndarray
    last_values: np.ndarray
    finished_entry: np.ndarray  # league runs: each juego that ended, its league entry (-1 self-play)
    finished_result: np.ndarray  # and the learner's result (1 won, 0 lost)

    @staticmethod
    def concat(parts: list[Rollout]) -> Rollout:
        """The rollouts of consecutive shards of tables as one (table indices counted over all)."""
        per_step = ("value", "seat", "trained", "rew", "term")  # (T, n, ...): tables on axis 1
        whole = {name: np.concatenate([getattr(p, name) for p in parts], axis=1 if name in per_step else 0)
                 for name in Rollout.__dataclass_fields__}
        first = np.cumsum([0] + [p.value.shape[1] for p in parts[:-1]])  # each shard's first table
        whole["i"] = np.concatenate([p.i + f for p, f in zip(parts, first, strict=True)])
        return Rollout(**whole)


def _hands(cfg: PPOConfig, h):  # the critic's view of every hand (centralised critic only)
    return int8_csr(h) if cfg.centralized_critic else None


def rollout(env: VectorEnv, agent: Agent, opponent: Agent, bots: list, tables: Tables, gen: torch.Generator,
            cfg: PPOConfig, ret_stats, league: LeagueTables | None = None, probs: np.ndarray | None = None,
            envido: TableEnvido | None = None) -> Rollout:
    """``num_steps`` decisions on every table of ``env``, going on from where it stands.

    Only decisions with a choice go through a network: the learner's are sampled from ``agent``
    (and trained on), the other team's from the snapshot ``opponent`` or a fixed bot, as
    ``tables`` says; a forced move is its only legal action. Samples draw from ``gen``.
    With a ``league`` (``train.ppo.pfsp``) the tables are the league's: a table whose juego ends
    gets its next opponent at once, drawn with the entries' probabilities ``probs``.
    With ``envido`` (``cfg.envido_table`` or ``cfg.pares_table``) the learner and the snapshot play the
    envite from the table, and the learner's table-played decisions are not trained (``train.ppo.table_envido``).
    """
    if league is not None:
        tables = Tables(league.learner_team, league.self_play, league.bot)  # the league's arrays: redrawn in place
    finished_entry, finished_result = [], []
    T, N = cfg.num_steps, env.num_envs
    Obs, Act = env.spec.observation, env.spec.actions  # the tradition's observation and actions
    # the trained decisions, packed (at most T * N of them)
    s_obs = np.zeros((T * N, Obs.OBS_SIZE), dtype=np.int8)
    s_hidden = np.zeros((T * N, Obs.HIDDEN_SIZE), dtype=np.int8)
    s_mask = np.zeros((T * N, Act.NUM_ACTIONS), dtype=np.uint8)
    s_action = np.zeros(T * N, dtype=np.int64)
    s_logp = np.zeros(T * N, dtype=np.float32)
    s_t = np.zeros(T * N, dtype=np.int64)
    s_i = np.zeros(T * N, dtype=np.int64)
    s_kind = np.zeros(T * N, dtype=np.int64)
    # per (step, table)
    b_value = np.zeros((T, N), dtype=np.float32)
    b_seat = np.zeros((T, N), dtype=np.int64)
    b_trained = np.zeros((T, N), dtype=np.bool_)
    b_rew = np.zeros((T, N, H.MAX_PLAYERS), dtype=np.float32)
    b_term = np.zeros((T, N), dtype=np.bool_)
    hidden_np = np.zeros((N, Obs.HIDDEN_SIZE), dtype=np.int8)
    obs_np, mask_np, seat_np = env.obs, env.mask, env.seat
    kind = opponent_kinds(cfg, tables)  # what the critic reads of the other team (when it reads it)
    m = 0
    for t in range(T):
        if league is not None and t:
            kind = opponent_kinds(cfg, tables)  # tables redrawn at a juego's end
        choice = (mask_np != 0).sum(axis=1) > 1
        learner = tables.self_play | (seat_np % 2 == tables.learner_team)
        action = mask_np.argmax(axis=1)  # a forced move: its only legal action
        li = np.flatnonzero(choice & learner)
        untrained = None  # the learner's rows played by the envido table
        fi = np.flatnonzero(choice & ~learner)
        with torch.no_grad():
            if li.size:
                if cfg.centralized_critic:
                    Obs.observe_hidden_seats(env.states, seat_np, hidden_np)
                o, h, mk = obs_np[li], hidden_np[li], mask_np[li]
                csr = agent.csr(o)
                logits = agent.logits_csr(csr, torch.from_numpy(mk))
                v = agent.value_csr(csr, _hands(cfg, h), kind[li]).numpy()
                b_value[t, li] = _denorm(v, cfg, ret_stats)
                if envido is None:
                    a, logp = sample(logits, gen)
                    action[li], tr = a.numpy(), slice(None)
                    logp = logp.numpy()
                else:  # the table's words are played, not trained (a "paso"'s mask is what is left)
                    action[li], logp, mk, tr = envido.learner(logits, o, mk, gen)
                    untrained = li[~tr]
                    li, o, h, mk, logp = li[tr], o[tr], h[tr], mk[tr], logp[tr]
                k = slice(m, m + li.size)
                s_obs[k], s_hidden[k], s_mask[k], s_action[k], s_logp[k] = o, h, mk, action[li], logp
                s_t[k], s_i[k], s_kind[k] = t, li, kind[li]
                m += li.size
            snap = fi[tables.bot[fi] == -2]
            if snap.size:
                logits = opponent.logits_csr(opponent.csr(obs_np[snap]), torch.from_numpy(mask_np[snap]))
                action[snap] = sample(logits, gen)[0].numpy() if envido is None else \
                    envido.opponent(logits, obs_np[snap], mask_np[snap], gen)
            for j, bot in enumerate(bots):
                bi = fi[tables.bot[fi] == j]
                if bi.size:
                    if league is None:
                        action[bi] = bot.act_batch(obs_np[bi], mask_np[bi])
                    else:  # decision keys from the league's generator: bots that take them decide rows in parallel
                        keys = league.rng.integers(0, np.iinfo(np.int64).max, size=bi.size, dtype=np.int64)
                        action[bi] = policy_act_batch(bot, obs_np[bi], mask_np[bi], keys.astype(np.uint64))
        b_seat[t], b_trained[t] = seat_np, choice & learner
        if untrained is not None:
            b_trained[t, untrained] = False
        obs_np, mask_np, seat_np, rew, term, _ = env.step(action)
        b_rew[t], b_term[t] = rew, term
        if league is not None:
            done = league.on_step(rew, term, probs)
            if done is not None:
                finished_entry.append(done[0])
                finished_result.append(done[1])
    if league is not None:
        kind = opponent_kinds(cfg, tables)

    # what every seat's position is worth at the end
    last_values = np.zeros((N, H.MAX_PLAYERS), dtype=np.float32)
    o_q = np.zeros((N, Obs.OBS_SIZE), dtype=np.int8)
    h_q = np.zeros((N, Obs.HIDDEN_SIZE), dtype=np.int8)
    with torch.no_grad():
        for q in range(2 * cfg.team_size):
            Obs.observe_seats(env.states, env.hists, np.full(N, q, dtype=np.int64), o_q, h_q)
            v = agent.value_csr(agent.csr(o_q), _hands(cfg, h_q), kind).numpy()
            last_values[:, q] = _denorm(v, cfg, ret_stats)
    return Rollout(s_obs[:m], s_hidden[:m], s_mask[:m], s_action[:m], s_logp[:m], s_t[:m], s_i[:m], s_kind[:m],
                   b_value, b_seat, b_trained, b_rew, b_term, last_values,
                   np.concatenate(finished_entry) if finished_entry else np.zeros(0, dtype=np.int64),
                   np.concatenate(finished_result) if finished_result else np.zeros(0))


def _with_record(saved: np.ndarray, width: int, record_size: int) -> np.ndarray:
    """A checkpoint's table rows (or observations) as this engine has them: rows written before the
    juego's record was appended to both (``truque_env.engine.record``) get an empty one, which is
    what the tables would hold had they had it (a network without ``juego_record`` never reads it,
    so the run goes on exactly); rows of any other width are refused by the copy."""
    if saved.ndim == 2 and saved.shape[1] + record_size == width:
        return np.concatenate([saved, np.zeros((saved.shape[0], record_size), dtype=saved.dtype)], axis=1)
    return saved


class Sampler:
    """The tables of one process and whoever plays them besides the learner; ``rollout`` collects.

    The single-process run has one over all tables, drawing its samples from the learner's own
    generator; each Ray worker (``train.ppo.ray_workers``) has one over its shard (tables
    ``first_table, ...``, dealt from the same table seeds) with generators of its own.
    """

    def __init__(self, cfg: PPOConfig, gen: torch.Generator, first_table: int = 0, num_tables: int | None = None,
                 bot_seed: int | None = None):
        from agents.registry import load_policy

        n = cfg.num_envs if num_tables is None else num_tables
        self.cfg, self.gen = cfg, gen
        self.env = VectorEnv(n, settings=match_settings(cfg), episode=cfg.episode, scale_rewards=True, seed=cfg.seed,
                             reward=cfg.reward)
        self.env.reset(table_seeds=np.int64(cfg.seed) * cfg.num_envs + first_table + np.arange(n, dtype=np.int64))
        self.opponent = Agent.from_config(cfg)
        bot_seed = cfg.seed if bot_seed is None else bot_seed
        self.bots = [load_policy(name, seed=bot_seed + j, tradition=cfg.tradition) for j, name in enumerate(cfg.bot_opponents)]
        self.league = LeagueTables(n, cfg.seed, first_table, cfg.p_latest) if cfg.league else None
        # the table models 1 contra 1: at other sizes it would never apply
        self.envido = TableEnvido.of(cfg.tradition, cfg.table[1]) if cfg.table is not None and cfg.team_size == 1 else None

    def rollout(self, agent: Agent, opponent_state: dict, ret_stats, tables: Tables | None,
                probs: np.ndarray | None = None) -> Rollout:
        """``tables``: who plays each table this time; a league run passes None and the entries'
        probabilities ``probs`` instead (its tables keep their opponent for the juego)."""
        self.opponent.load_state_dict(opponent_state)
        if self.league is not None:
            self.league.start(probs)
        return rollout(self.env, agent, self.opponent, self.bots, tables, self.gen, self.cfg, ret_stats,
                       self.league, probs, self.envido)

    def state(self) -> dict:
        """The tables and the bots' generators, for the checkpoint (the generator is the caller's)."""
        env = self.env
        return {"env_states": torch.from_numpy(env.states.copy()), "env_hists": torch.from_numpy(env.hists.copy()),
                "env_mask": torch.from_numpy(env.mask.copy()), "env_obs": torch.from_numpy(env.obs.copy()),
                "env_seat": torch.from_numpy(env.seat.copy()), "bot_rngs": [_rng_state(bot) for bot in self.bots],
                **({"league_tables": self.league.state()} if self.league is not None else {})}

    def load_state(self, ckpt: dict) -> None:
        if "env_states" not in ckpt:
            raise ValueError(f"checkpoint written by a run with {len(ckpt.get('workers', []))} Ray workers: "
                             "resume it with the same num_workers")
        env = self.env
        env.states[:] = _with_record(ckpt["env_states"].numpy(), env.states.shape[1], H.RECORD_SIZE)
        env.hists[:] = ckpt["env_hists"].numpy()
        env.mask[:] = ckpt["env_mask"].numpy()
        env.obs[:] = _with_record(ckpt["env_obs"].numpy(), env.obs.shape[1], OBS_RECORD_SIZE)
        env.seat[:] = ckpt["env_seat"].numpy()
        env.team[:] = env.seat % 2
        for bot, state in zip(self.bots, ckpt.get("bot_rngs", []), strict=False):
            if state is not None:
                bot.rng.bit_generator.state = state
        if self.league is not None:
            if "league_tables" not in ckpt:
                raise ValueError("checkpoint written by a run without the league: resume with league = false")
            self.league.load_state(ckpt["league_tables"])

    def close(self) -> None:
        pass


class MixedSizes:
    """``Sampler``'s methods over several team sizes (``cfg.team_sizes``): consecutive blocks of
    the tables (``cfg.tables_per_size``: equal shares, or ``team_size_tables``), one ``Sampler`` per
    size (tables ``first_table, ...`` dealt from the same table seeds as in a run of one size),
    drawing from the learner's generator in turn; their rollouts are concatenated as the Ray
    workers' are (``Rollout.concat``)."""

    def __init__(self, cfg: PPOConfig, gen: torch.Generator):
        import dataclasses

        counts = cfg.tables_per_size
        self.first = np.concatenate([[0], np.cumsum(counts)]).astype(int)  # size j: tables first[j]:first[j + 1]
        self.samplers = [Sampler(dataclasses.replace(cfg, team_size=k, team_sizes=(), team_size_tables=()),
                                 gen, first_table=int(self.first[j]), num_tables=counts[j], bot_seed=cfg.seed + 1000 * j)
                         for j, k in enumerate(cfg.sizes)]

    def rollout(self, agent: Agent, opponent_state: dict, ret_stats, tables: Tables | None,
                probs: np.ndarray | None = None) -> Rollout:
        by_size = probs is not None and probs.ndim == 2  # pfsp_by_team_size: a row of probabilities per size
        parts = []
        for j, s in enumerate(self.samplers):
            part = s.rollout(agent, opponent_state, ret_stats, None if tables is None else tables.shard(self.first[j], self.first[j + 1]),
                             probs[j] if by_size else probs)
            if by_size:  # size j's entries are counted apart: entry e of size j is j * entries + e
                part.finished_entry = np.where(part.finished_entry >= 0, part.finished_entry + j * probs.shape[1], -1)
            parts.append(part)
        return Rollout.concat(parts)

    def state(self) -> dict:
        return {"team_size_samplers": [s.state() for s in self.samplers]}

    def load_state(self, ckpt: dict) -> None:
        states = ckpt.get("team_size_samplers")
        if states is None or len(states) != len(self.samplers):
            raise ValueError("checkpoint written by a run with other team_sizes: resume with the same team_sizes")
        for s, state in zip(self.samplers, states, strict=True):
            s.load_state(state)

    def close(self) -> None:
        pass


def _denorm(v: np.ndarray, cfg: PPOConfig, stats) -> np.ndarray:
    return v * np.sqrt(stats[1]) + stats[0] if cfg.norm_values else v


def _rng_state(bot):
    """A bot's numpy generator state (so that a resumed run meets the same bot draws), if it has one."""
    rng = getattr(bot, "rng", None)
    return rng.bit_generator.state if isinstance(rng, np.random.Generator) else None
