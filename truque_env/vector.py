"""``VectorEnv``: many tables stepped at once by the batched kernels; numpy in, numpy out.

Every table always has exactly one player to act. ``reset()`` and ``step(actions)`` return,
per table ``i``:

=================  =====================  ====================================================
name               shape, dtype           meaning
=================  =====================  ====================================================
``obs``            (N, OBS_SIZE) int8     what the player to act may know (the slices of
                                          its tradition's ``observation`` module)
``mask``           (N, NUM_ACTIONS) uint8 his legal actions
``seat``           (N,) int64             his seat; ``team = seat % 2``
``team``           (N,) int64
``rewards``        (N, 8) float32         what *every* seat earned in this step: its team's
                                          points minus the rival team's (zero-sum), scored
                                          when a mano ends; with ``reward="juego"`` +1 / -1
                                          to the team that wins / loses a juego, when it is
                                          won; seats >= n are 0
``terminated``     (N,) bool              the episode (a mano, a juego or a partida) ended in
                                          this step; the table was reset and ``obs`` is
                                          already the first decision of the next episode
=================  =====================  ====================================================

**Assigning rewards to trajectories.** Keep one trajectory per (table, seat). When seat ``q``
decides at step ``t``, its reward for that decision is the sum of ``rewards[i, q]`` over the
steps ``t, t+1, ...`` up to (not including) its next decision on that table, or up to the step
whose ``terminated[i]`` is true, which also ends ``q``'s trajectory (every seat's trajectory
ends when the table's episode does). ``RewardAccumulator`` below does this bookkeeping.

An illegal action raises ``ValueError`` naming the table, the action and the legal ones;
the tables are left as they were (all actions are checked before any table moves).
"""

from __future__ import annotations

import numpy as np

from truque_env.engine import header as H
from truque_env.settings import MatchSettings, resolve_tradition
from truque_env.threads import WATCH

EPISODES = {"mano": H.EPISODE_MANO, "juego": H.EPISODE_JUEGO, "partida": H.EPISODE_PARTIDA}
REWARDS = ("points", "juego")  # the points of each mano (team minus rival), or +1 / -1 for a juego won / lost


class VectorEnv:
    """``num_envs`` tables of one tradition (``tradition=``, its rule options as keywords, or
    ``settings=`` a :class:`truque_env.settings.MatchSettings`), stepped by its batched kernels."""

    def __init__(self, num_envs: int, tradition: str = "moteno", team_size: int = 3, target: int | None = None,
                 juegos: int = 3, episode: str = "juego", senas_per_mano: int = 1, p_intercept: float = 0.1,
                 scale_rewards: bool = False, seed: int = 0, variant: str | None = None,
                 settings: MatchSettings | None = None, reward: str = "points", **options):
        if settings is None:
            tradition = resolve_tradition(tradition, variant)
            settings = MatchSettings(tradition, team_size, target, juegos, senas_per_mano, p_intercept, options)
        self.settings = settings
        self.spec = spec = settings.spec
        tradition, team_size, target, juegos = settings.tradition, settings.team_size, settings.target, settings.juegos
        permille, senas_per_mano = settings.p_intercept_permille, settings.senas_per_mano
        L, A, Obs = spec.layout, spec.actions, spec.observation
        self._A, self._B, self._VK = A, spec.batch, spec.vector
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {sorted(REWARDS)}, got {reward!r}")
        if reward == "juego" and episode == "mano":
            raise ValueError("reward='juego' pays at the end of a juego: the episode must be juego or partida")
        self.reward = reward
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {sorted(EPISODES)}, got {episode!r}")
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = int(num_envs)
        self.tradition, self.team_size, self.target, self.juegos = tradition, team_size, target, juegos
        self.variant = tradition  # the deprecated name
        self.episode = episode
        self.n_players = 2 * team_size
        self.reward_scale = 1.0 / target if scale_rewards else 1.0
        self._permille, self._senas = permille, senas_per_mano
        n = self.num_envs
        self.states = settings.new_states(n)  # zeros with the rule words
        self.hists = np.zeros((n, Obs.HISTORY_SIZE), dtype=np.int16)
        self.obs = np.zeros((n, Obs.OBS_SIZE), dtype=np.int8)
        self.mask = np.zeros((n, A.NUM_ACTIONS), dtype=np.uint8)
        self.seat = np.zeros(n, dtype=np.int64)
        self.team = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, L.MAX_PLAYERS), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self._errors = np.zeros(n, dtype=np.int64)
        self._seed = seed

    @property
    def obs_size(self) -> int:
        return int(self.spec.observation.OBS_SIZE)

    @property
    def num_actions(self) -> int:
        return int(self._A.NUM_ACTIONS)

    def reset(self, seed: int | None = None, table_seeds=None, deal_seeds=None):
        """Start a fresh partida on every table.

        Table ``i`` is seeded with ``seed * num_envs + i``, or with ``table_seeds[i]``. With
        ``deal_seeds``, table ``i`` deals its k-th mano from ``deal_seeds[i]`` and k only
        (docs/engine.md, "Duplicate deals"): tables sharing a deal seed and a table seed get the
        same deals and the same first dealer, whatever is played.
        """
        if seed is not None:
            self._seed = seed
        if table_seeds is None:
            seeds = np.arange(self.num_envs, dtype=np.int64) + np.int64(self._seed) * self.num_envs
        else:
            seeds = np.asarray(table_seeds, dtype=np.int64)
            if seeds.shape != (self.num_envs,):
                raise ValueError(f"table_seeds must have shape ({self.num_envs},), got {seeds.shape}")
        self._B.init_tables(self.states, self.team_size, self.target, self.juegos, self._senas, self._permille, seeds)
        if deal_seeds is not None:
            deal_seeds = np.asarray(deal_seeds, dtype=np.int64)
            if deal_seeds.shape != (self.num_envs,):
                raise ValueError(f"deal_seeds must have shape ({self.num_envs},), got {deal_seeds.shape}")
            self._B.set_deal_streams(self.states, deal_seeds)
        self._VK.vec_reset(self.states, self.hists, self.obs, self.mask, self.seat, self.team)
        self.rewards[:] = 0
        self.terminated[:] = False
        return self.obs, self.mask, self.seat, {"team": self.team}

    def reset_tables(self, idx, table_seeds, deal_seeds=None) -> None:
        """Start a fresh partida on the tables ``idx`` only (the others go on), seeded like ``reset``.

        ``deal_seeds``: duplicate deals for those tables (docs/engine.md); ``None``: none.
        """
        idx = np.asarray(idx, dtype=np.int64)
        table_seeds = np.asarray(table_seeds, dtype=np.int64)
        deal_seeds = np.full(idx.shape, -1, dtype=np.int64) if deal_seeds is None else np.asarray(deal_seeds, dtype=np.int64)
        if not (idx.shape == table_seeds.shape == deal_seeds.shape) or idx.ndim != 1:
            raise ValueError("idx, table_seeds and deal_seeds must be 1-D and of one length")
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_envs):
            raise ValueError(f"table indices must be in 0..{self.num_envs - 1}")
        self._VK.reset_tables(self.states, self.hists, self.obs, self.mask, self.seat, self.team, idx, self.team_size,
                        self.target, self.juegos, self._senas, self._permille, table_seeds, deal_seeds)
        self.rewards[idx] = 0
        self.terminated[idx] = False

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be an integer array of shape ({self.num_envs},), got {actions.shape} {actions.dtype}")
        actions = actions.astype(np.int64, copy=False)
        ok = (actions >= 0) & (actions < self._A.NUM_ACTIONS)
        ok[ok] = self.mask[np.flatnonzero(ok), actions[ok]] == 1
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            a = int(actions[i])
            name = self._A.ACTION_NAMES[a] if 0 <= a < self._A.NUM_ACTIONS else repr(a)
            legal = ", ".join(self._A.ACTION_NAMES[j] for j in np.flatnonzero(self.mask[i]))
            raise ValueError(f"table {i}: illegal action {name} for seat {int(self.seat[i])}; legal: {legal}")
        WATCH.tick()  # fewer threads while another process is busy on the cores (truque_env/threads.py)
        self._VK.vec_step(self.states, self.hists, actions, EPISODES[self.episode], self.reward_scale,
                          self.reward == "juego", self.obs,
                    self.mask, self.seat, self.team, self.rewards, self.terminated, self._errors)
        return self.obs, self.mask, self.seat, self.rewards, self.terminated, {"team": self.team}

    def sample_actions(self, rng_states: np.ndarray) -> np.ndarray:
        """Uniformly random legal actions (``rng_states``: int64 per table, advanced in place)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self._VK.sample_legal(self.mask, rng_states, out)
        return out


class RewardAccumulator:
    """Per-(table, seat) reward bookkeeping for trainers (see the module docstring).

    Call ``on_decision(seat)`` with the seats about to act (before ``step``), then
    ``on_step(rewards, terminated)`` with what ``step`` returned. ``pending[i, q]`` holds what
    seat ``q`` of table ``i`` earned since its last decision; ``take(i, q)`` returns it and clears it.
    """

    def __init__(self, num_envs: int):
        self.pending = np.zeros((num_envs, H.MAX_PLAYERS), dtype=np.float64)
        self.last_decision = np.full((num_envs, H.MAX_PLAYERS), -1, dtype=np.int64)
        self.t = 0

    def on_step(self, rewards: np.ndarray, terminated: np.ndarray) -> np.ndarray:
        """Add this step's rewards; returns, for terminated tables, the final pending rewards."""
        self.pending += rewards
        final = np.where(terminated[:, None], self.pending, 0.0)
        self.pending[terminated] = 0.0
        self.t += 1
        return final

    def take(self, seats: np.ndarray) -> np.ndarray:
        """Rewards since the last decision of each table's acting seat (cleared)."""
        idx = np.arange(seats.shape[0])
        out = self.pending[idx, seats].copy()
        self.pending[idx, seats] = 0.0
        return out
