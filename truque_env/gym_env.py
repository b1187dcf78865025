"""Truque Moteño as a single-agent Gymnasium environment: one learner seat, policies at the others.

>>> import truque_env
>>> env = truque_env.make_gym(seat=0, team_size=1, episode="mano")
>>> obs, info = env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

``make_gym(seat=0, opponents="random", partners="random", **env_kwargs)`` builds a
:class:`TruqueGymEnv` over the PettingZoo ``raw_env`` of ``truque_env.pettingzoo_env`` (same
``env_kwargs``: ``team_size``, ``target``, ``episode``, ``senas``, ``scale_rewards``, ...; its
module documentation lists the actions, the observation slices, the rewards and the episodes).

* The learner holds ``seat`` (team ``seat % 2``). ``partners`` (the other seats of his team) and
  ``opponents`` (the rival seats) are policies: objects with ``act(observation, action_mask) ->
  int`` (``agents.base.Policy``), a name of ``agents.registry`` (``"random"``, ``"heuristic"``) or
  the path of a ``train.ppo.loop`` checkpoint. Give one for
  every such seat, or a list: one per partner / rival seat in increasing seat order, or one per
  seat of the table (entries of the other seats are ignored).
* ``step(action)`` applies the learner's action, then lets the other seats act on their own
  observations until the learner must act again or the episode ends. The learner sees only his
  own observations (the same ``Dict`` as the AEC env: ``observation``, ``action_mask``) and
  gets as reward the sum of his team's rewards since his previous decision.
* ``Discrete(91)`` actions. An illegal action raises ``ValueError`` (the table unchanged);
  with ``illegal_action="penalty"`` it ends the episode instead, with reward ``-target``
  (``-1.0`` scaled) and ``info["illegal_action"] = True``. The action space is a
  :class:`LegalDiscrete`: ``action_space.sample()`` with no mask draws uniformly among the
  learner's legal actions *in the current state* (what a random agent, or
  ``gymnasium.utils.env_checker.check_env``, steps with); with a mask it is ``Discrete.sample``.
  ``step`` never replaces an action it is given.
* ``reset(seed=s)`` seeds the table (``kernels.init_table`` with ``s``) and the built-in random
  policies (from ``np_random``); ``reset()`` continues the table's generator as the AEC env
  does. Policies you pass are not reseeded. A ``seed`` given to ``make_gym`` is used by the
  first ``reset()`` without one and also seeds ``action_space``'s sampler. An episode that
  ends before the learner's first decision (in argentino a todo dicho the others answer can
  end the juego) is skipped: ``reset`` returns at his first decision of the next one.
* ``action_masks()`` returns the learner's legal actions as booleans (the convention of
  maskable policy-gradient libraries).
"""

from __future__ import annotations

import weakref

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from truque_env.pettingzoo_env import _action_id, check_seed, observation_space, raw_env
from truque_env.policy import RandomPolicy, load_named


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` with no mask draws a legal action of the bound env.

    Bound to a :class:`TruqueGymEnv`, ``sample()`` draws uniformly (from the space's own
    ``np_random``) among the actions legal for the learner in the env's current state; when
    there is none (the episode is over) or the space is unbound, it draws from all ``n``.
    ``sample(mask=...)`` / ``sample(probability=...)`` behave as in ``Discrete``.
    """

    def __init__(self, n: int, seed=None):
        super().__init__(n, seed=seed)
        self._env_ref = None

    def bind(self, env) -> None:
        self._env_ref = weakref.ref(env)

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._env_ref is not None:
            env = self._env_ref()
            if env is not None:
                legal = env.action_masks().astype(np.int8)
                if legal.any():
                    return super().sample(mask=legal)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_env_ref"] = None  # a pickled space is unbound
        return state

    def __repr__(self) -> str:
        return f"LegalDiscrete({self.n})"


def _policies_for(spec, seats: list[int], n: int, role: str, tradition: str = "moteno") -> tuple[dict[int, object], list[int]]:
    """The policy of each seat in ``seats``, and the seats whose policy is a built-in one."""
    if isinstance(spec, (list, tuple)):
        if len(spec) == len(seats):
            chosen = dict(zip(seats, spec, strict=True))
        elif len(spec) == n:
            chosen = {q: spec[q] for q in seats}
        else:
            raise ValueError(f"{role}: give one policy, or a list of {len(seats)} (one per {role[:-1]} seat "
                             f"{seats}) or of {n} (one per seat); got {len(spec)}")
    else:
        chosen = dict.fromkeys(seats, spec)
    out, builtin = {}, []
    for q, p in chosen.items():
        if isinstance(p, str) and p == "random":
            p = RandomPolicy(seed=None)
            builtin.append(q)
        elif isinstance(p, str):  # a bot by name ("heuristic") or a checkpoint path (the registered loader)
            try:
                p = load_named(p, seed=q, tradition=tradition)
            except ValueError as exc:
                raise ValueError(f"{role}: {exc}") from None
        elif not callable(getattr(p, "act", None)):
            raise TypeError(f"{role}: seat {q} needs a policy with act(observation, action_mask), got {p!r}")
        out[q] = p
    return out, builtin


class TruqueGymEnv(gym.Env, EzPickle):
    """One learner seat at a Truque Moteño table (see the module documentation).

    Pickling (``EzPickle``) rebuilds the env from its constructor arguments: call ``reset``.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, seat: int = 0, opponents="random", partners="random", **env_kwargs):
        EzPickle.__init__(self, seat=seat, opponents=opponents, partners=partners, **env_kwargs)
        render_mode = env_kwargs.pop("render_mode", None)
        illegal_action = env_kwargs.pop("illegal_action", "raise")
        self._seed = check_seed(env_kwargs.pop("seed", None))
        self.aec = raw_env(illegal_action=illegal_action, **env_kwargs)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        n = self.aec.n_players
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1} for team_size {self.aec.team_size}, got {seat!r}")
        self.seat, self.team = int(seat), int(seat) % 2
        self.agent = self.aec.possible_agents[self.seat]
        partner_seats = [q for q in range(n) if q % 2 == self.team and q != self.seat]
        rival_seats = [q for q in range(n) if q % 2 != self.team]
        mine, b_mine = _policies_for(partners, partner_seats, n, "partners", self.aec.tradition)
        rivals, b_rivals = _policies_for(opponents, rival_seats, n, "opponents", self.aec.tradition)
        #: the policy at every other seat
        self.policies = {**mine, **rivals}
        #: the seats whose policy was built here from "random" (reseeded by reset(seed=...))
        self._builtin = sorted(b_mine + b_rivals)
        self.observation_space = observation_space(self.aec.spec.observation.OBS_SIZE, self.aec.spec.actions.NUM_ACTIONS)
        self.action_space = LegalDiscrete(self.aec.spec.actions.NUM_ACTIONS, seed=self._seed)  # its sampler too
        self.action_space.bind(self)
        self._started = False
        self._over = False

    def __setstate__(self, state):
        EzPickle.__setstate__(self, state)
        self.action_space.bind(self)  # EzPickle copied a fresh env's attributes: bind to this one

    # -- what the learner sees ---------------------------------------------------------------
    @property
    def state(self) -> np.ndarray:
        """The engine state of the table (read only)."""
        return self.aec.state

    def _obs(self):
        return self.aec.observe(self.agent)

    def _info(self) -> dict:
        return {"team": self.team, "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (booleans); all False when he is not to act."""
        mask = np.zeros(self.aec.spec.actions.NUM_ACTIONS, dtype=bool)
        if self.aec.agent_selection == self.agent and self.aec._live(self.agent):
            mask[self.aec.legal_actions()] = True
        return mask

    # -- reset / step ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = check_seed(seed)
        first = not self._started
        if seed is None and first:
            seed = self._seed
        super().reset(seed=seed)
        if seed is not None or first:
            for q in self._builtin:
                self.policies[q].rng = np.random.default_rng(int(self.np_random.integers(2**63)))
            self.aec.reset(seed=seed if seed is not None else int(self.np_random.integers(2**63)))
        else:
            self.aec.reset()
        self._started = True
        self._over = False
        self._play_others()
        while not self.aec._live(self.agent) or self.aec.agent_selection != self.agent:
            # the episode ended before the learner's first decision (in argentino a todo dicho
            # answered by the others can end the juego): it is not his episode, the next one is
            self.aec.reset()
            self._play_others()
        return self._obs(), self._info()

    def step(self, action):
        if not self._started:
            raise ValueError("call reset() before step()")
        if self._over:
            raise ValueError("the episode is over: call reset()")
        a = _action_id(action)
        if self.aec.illegal_action == "penalty" and a not in self.aec.legal_actions():
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), float(self.aec.illegal_reward), True, False, info
        self.aec.step(a)  # raises ValueError on an illegal action, the table unchanged
        self._play_others()
        terminated = bool(self.aec.terminations[self.agent])
        truncated = bool(self.aec.truncations[self.agent]) and not terminated
        self._over = terminated or truncated
        reward = float(self.aec._cumulative_rewards[self.agent])
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._info()

    def _play_others(self) -> None:
        aec = self.aec
        while aec.agent_selection != self.agent and aec._live(aec.agent_selection):
            agent = aec.agent_selection
            q = aec.seats[agent]
            o = aec.observe(agent)
            a = self.policies[q].act(o["observation"], o["action_mask"])
            try:
                aec.step(a)
            except ValueError as exc:
                raise ValueError(f"the policy at seat {q} chose an illegal action: {exc}") from exc

    # -- render ------------------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            gym.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self.aec.spec.render(self.aec.state, self.aec.hist, viewer=self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.aec.close()


def make_gym(seat: int = 0, opponents="random", partners="random", **env_kwargs) -> TruqueGymEnv:
    """A :class:`TruqueGymEnv`: the learner at ``seat``, policies elsewhere (module documentation)."""
    return TruqueGymEnv(seat=seat, opponents=opponents, partners=partners, **env_kwargs)
