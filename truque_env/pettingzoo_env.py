"""Truque Moteño as a PettingZoo AEC environment (``truque_moteno_v1``).

>>> import truque_env
>>> env = truque_env.env(team_size=1, episode="mano", seed=7)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

A thin adapter over the numba engine: one engine state row (``truque_env.traditions.moteno.layout``) and
one public-word history array; ``step`` is ``observation.step_recording``, ``observe`` is
``observation.observe`` (the same seat-relative encoding as ``truque_env.vector.VectorEnv``).
No rule lives here: the legal actions, the chinas and the chance all come from the engine, and
the only chance is the table's own generator (``docs/engine.md``, "Chance").

Agents and teams
================

``player_0 .. player_{n-1}`` for the ``n = 2 * team_size`` seats; the team of ``player_k`` is
``k % 2`` (partners alternate, Art. 3), in ``env.teams`` and in every agent's ``info["team"]``.
The agent to act is ``agent_selection``: turns follow the reglamento, not a fixed cycle (a
seña does not pass the turn; a team answers a bet member by member; the winner of a baza
leads the next), so one agent may act several times in a row.

Actions
=======

``Discrete(91)``, the flat catalogue of ``truque_env.traditions.moteno.actions`` (names in
``ACTION_NAMES``); the legal ones are the 1s of ``observation["action_mask"]`` (only the agent
to act has any).

======  ==========================  =================================================
id      name                        when
======  ==========================  =================================================
0       paso                        nothing a ciegas; no flor; let a partner's answer stand
1, 2    quiero, no quiero           answer a bet
3       luego te lo digo            defer the answer to a blind bet until after the deal
4       flor                        sing flor
5       canto pares                 al cantar (Art. 8)
6..8    truco, retruco, panueve     challenge the truque, raise it
9       me voy a baraja             leave the mano
10      la mía no vale              out of the truque, a partner's card stands
11, 12  con flor, quiero / no ...   answer la falta a ciegas with flor (Art. 12)
13      de la mía                   declare a flor against "con flor, no quiero"
14..53  juego <card>                play a card: 14 + card id (``truque_env.cards``)
54..68  envío N pares               N = 1..15: envite or revoque of 2N chinas
69..78  envío N flores              N = 1..10: envite de flores of 3N chinas
79      envío la falta              la falta (pares, flores, or a ciegas)
80..90  seña: <name>                perro, perra, cascabel, espada, basto, mata de
                                    espadas, mata de oros, tres, dos, flor, ciega
======  ==========================  =================================================

An illegal action raises ``ValueError`` naming it and the legal ones; the table is left as it
was. ``illegal_action="penalty"`` instead wraps the env in PettingZoo's
``TerminateIllegalWrapper``: the episode ends at once (every agent terminated and truncated)
and the offender alone gets ``illegal_reward`` (``-target`` chinas, ``-1.0`` with
``scale_rewards``: losing a whole juego). ``raw_env`` itself always raises.

Observations
============

``Dict({"observation": Box(0, 127, (OBS_SIZE,), int8), "action_mask": Box(0, 1, (91,), int8)})``
(``OBS_SIZE`` of ``truque_env.traditions.moteno.observation``).
``observation`` is what that agent may know, seats relative to him (``r = 0`` himself, even
``r`` partners, odd ``r`` rivals); ``truque_env.traditions.moteno.observation.split(obs)`` names its slices:

================  =========  ====================================================================
slice             shape      meaning
================  =========  ====================================================================
hand              40         my cards not yet played (zero until the cards are seen)
played_by         8 x 40     card played, in any baza, by relative seat r
played_in         3 x 40     card played in baza b
revealed          8 x 40     cards of relative seat r seen face up (14.10; shown at the end)
phase             9          one-hot: blind, close, cante, play, flor_round, flor_envite, answer,
                             done, reservada
position          8          one-hot: my offset from mano
team_size         4          one-hot: 1..4
baza              3          one-hot: the baza being played
baza_result       3 x 3      per baza: won by mine, won by rival, parda
score             2          chinas of mine, rival in the juego
target_falta      3          target, la falta, al cantar
juegos            3          juegos won by mine, rival; juegos needed to win the partida
seat_flags        7 x 8      per relative seat: a baraja, la mía no vale, bet pares, challenged,
                             sang flor, had his first-round turn, de la mía
pares             17         envite de pares: state, stake, previous stake, raiser, a ciegas, void
truco             21         state, level, previous level, raiser
flor              18         flor round, envite de flores state, stake, previous, raiser
falta_ciegas      8          sent by mine / rival, how it was answered
exchange          20         the answer under way: kind, answering team is mine, standing
                             answer, its speaker, a ciegas
senas_seen        8 x 11     señas made by relative seat r that I saw, by seña
senas_left        1          señas I may still make this mano
bets_by_seat      8 x 16     per relative seat: each word said this mano, highest stakes said
history           32 x 2     the last 32 public words: relative seat + 1, action id + 1
juego_record      9          the juego so far: manos finished; my team's raises, acceptances,
                             refusals and leaves (baraja, la mía no vale); the rival team's
================  =========  ====================================================================

Rewards
=======

Chinas are scored when a mano ends (pares and flores, then the truque, Art. 17.3; the count
stops as soon as a team reaches the target, ruling 1: the state's ``SCORED``). At that step
every agent of a team gets its team's scored chinas minus the rival team's (zero-sum; divided
by ``target`` with ``scale_rewards=True``); every other step rewards 0. As usual in AEC,
``last()`` returns what an agent earned since its previous turn.

Episodes
========

``episode="mano"`` ends after one mano; ``"juego"`` (default) when a team reaches the target;
``"partida"`` when a team has won ``(juegos + 1) // 2`` juegos. The end terminates every agent.
Within an episode the next mano is dealt at once from the table's generator (the dealer moves
one seat, Art. 4.2) and play goes on: the agents never see the finished mano's last state
except at the end of the episode. ``max_cycles`` (default ``None``) truncates every agent when
the agent to act has already made ``max_cycles`` decisions in the episode.

``reset(seed=s)`` starts a fresh table: ``kernels.init_table`` with seed ``s`` (first dealer
drawn, Art. 4.1), then a random deal: the same seed gives the same trajectory for the same
actions. ``reset()`` without a seed continues the table's own generator, like the auto-reset of
``VectorEnv``: with ``episode="mano"`` the next mano of the partida (scores kept; a new partida
once one is over), otherwise a new partida. The very first ``reset()`` uses the constructor's
``seed`` (fresh OS entropy when it is ``None``). Nothing here uses a global generator.

``render_mode="ansi"`` returns ``truque_env.render.render_state`` of the table (every hand:
the spectator's view), ``"human"`` prints it after every step.

Version history
===============

The version goes up whenever the action ids, the observation encoding, the rewards or the
episode rules change (anything that makes recorded data or trained policies incompatible).

* v0: first release. 91 actions; observation of 1270 entries (the slices above but the last);
  rewards in chinas scored at each mano's end; episodes mano / juego / partida.
* v1: the observation ends with the juego's public record (``juego_record``: the manos of the
  juego and each team's raises, acceptances, refusals and leaves in it), ``OBS_SIZE = 1279``
  entries. The 1270 before it are v0's, entry for entry: policies trained on v0 play on unchanged
  (their checkpoints load), recorded v0 observations need the 9 entries appended.
"""

from __future__ import annotations

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from truque_env.settings import MatchSettings, resolve_tradition

EPISODES = ("mano", "juego", "partida")
ILLEGAL_ACTIONS = ("raise", "penalty")
OBS_HIGH = 127  # every entry of the observation is 0..127 (counts, chinas <= target <= 100, ids)


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's classic wrappers; keyword arguments as :class:`raw_env`."""
    e = raw_env(**kwargs)
    if e.illegal_action == "penalty":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=e.illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def check_seed(seed) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**63:
        raise ValueError(f"seed must be an integer 0..2**63-1 or None, got {seed!r}")
    return int(seed)


def fresh_seed() -> int:
    """A seed from the operating system's entropy (never a global generator)."""
    return int(np.random.SeedSequence().entropy % (2**63))


def observation_space(obs_size: int, num_actions: int) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0, OBS_HIGH, (obs_size,), np.int8),
        "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
    })


class raw_env(AECEnv, EzPickle):
    """One table of a tradition (Truque Moteño by default), one agent per seat (see the module
    documentation). ``metadata["name"]`` is the tradition's (``truque_moteno_v1``); its rule
    options are keyword arguments."""

    metadata = {"name": "truque_moteno_v1", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, tradition: str = "moteno", team_size: int = 3, target: int | None = None, juegos: int = 3,
                 episode: str = "juego", senas: bool = True, senas_per_mano: int = 1,
                 p_intercept: float = 0.1, scale_rewards: bool = False, illegal_action: str = "raise",
                 render_mode: str | None = None, seed: int | None = None, max_cycles: int | None = None,
                 variant: str | None = None, **options):
        tradition = resolve_tradition(tradition, variant)
        EzPickle.__init__(self, tradition=tradition, team_size=team_size, target=target, juegos=juegos,
                          episode=episode, senas=senas, senas_per_mano=senas_per_mano,
                          p_intercept=p_intercept, scale_rewards=scale_rewards,
                          illegal_action=illegal_action, render_mode=render_mode, seed=seed,
                          max_cycles=max_cycles, **options)
        super().__init__()
        if not senas:
            senas_per_mano = 0
        self.settings = MatchSettings(tradition, team_size, target, juegos, senas_per_mano, p_intercept, options)
        self.spec = spec = self.settings.spec
        self._A, self._K, self._L, self._O, self._VK = spec.actions, spec.kernels, spec.layout, spec.observation, spec.vector
        self.metadata = {**raw_env.metadata, "name": spec.env_name}
        self._permille = self.settings.p_intercept_permille
        target = self.settings.target
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if max_cycles is not None and (not isinstance(max_cycles, (int, np.integer)) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.tradition, self.team_size, self.target, self.juegos = tradition, int(team_size), int(target), int(juegos)
        self.variant = tradition  # the deprecated name
        self.episode, self.senas_per_mano, self.p_intercept = episode, int(senas_per_mano), p_intercept
        self.scale_rewards, self.illegal_action, self.render_mode = bool(scale_rewards), illegal_action, render_mode
        self.max_cycles = None if max_cycles is None else int(max_cycles)
        self.reward_scale = 1.0 / self.target if self.scale_rewards else 1.0
        #: the reward of an illegal action under ``illegal_action="penalty"``: a whole juego lost
        self.illegal_reward = -1.0 if self.scale_rewards else -float(self.target)
        self._seed = check_seed(seed)

        self.n_players = 2 * self.team_size
        self.possible_agents = [f"player_{i}" for i in range(self.n_players)]
        self.agents = self.possible_agents[:]
        self.seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.teams = {a: i % 2 for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self._O.OBS_SIZE, self._A.NUM_ACTIONS) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._A.NUM_ACTIONS) for a in self.possible_agents}

        #: the engine state of the table and its public-word history (read them, don't write)
        self.state = self.settings.new_states()  # zeros with the rule words
        self.hist = np.zeros(self._O.HISTORY_SIZE, dtype=np.int16)
        self._mask = np.zeros(self._A.NUM_ACTIONS, dtype=np.uint8)
        self._has_table = False
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self._decisions: dict[str, int] = {}
        self.agent_selection = self.possible_agents[0]

    # -- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- reset -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = check_seed(seed)
        if seed is None and not self._has_table:
            seed = self._seed if self._seed is not None else fresh_seed()
        if seed is not None:
            self._K.init_table(self.state, self.team_size, self.target, self.juegos, self.senas_per_mano,
                         self._permille, seed)
            self._has_table = True
        elif self.episode != "mano":
            self.spec.batch.new_partida(self.state)  # as VectorEnv's auto-reset: a new partida, the generator goes on
        self._new_mano()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"team": self.teams[a]} for a in self.agents}
        self._decisions = dict.fromkeys(self.agents, 0)
        self.agent_selection = self._agent_to_act()

    def _new_mano(self) -> None:
        self._VK.next_mano(self.state, self.hist)  # the same kernel as VectorEnv's auto-reset

    def _agent_to_act(self) -> str:
        return self.possible_agents[int(self.state[self._L.TO_ACT])]

    # -- observe -----------------------------------------------------------------------------
    def observe(self, agent):
        obs = np.zeros(self._O.OBS_SIZE, dtype=np.int8)
        self._O.observe(self.state, self.hist, self.seats[agent], obs)
        mask = np.zeros(self._A.NUM_ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and self._live(agent) and self.state[self._L.PHASE] != self._L.PH_DONE:
            self._K.legal_mask(self.state, self._mask)
            mask[:] = self._mask
        return {"observation": obs, "action_mask": mask}

    def _live(self, agent) -> bool:
        return not (self.terminations.get(agent, True) or self.truncations.get(agent, True))

    def legal_actions(self) -> list[int]:
        """Ids of the legal actions of the agent to act (empty when the episode is over)."""
        if self.state[self._L.PHASE] == self._L.PH_DONE:
            return []
        self._K.legal_mask(self.state, self._mask)
        return [int(i) for i in np.flatnonzero(self._mask)]

    # -- step --------------------------------------------------------------------------------
    def step(self, action) -> None:
        agent = self.agent_selection
        if not self._live(agent):
            self._was_dead_step(action)
            return
        a = _action_id(action)
        err = self._O.step_recording(self.state, self.hist, a)
        if err != self._K.OK:
            legal = ", ".join(f"{i} {self._A.ACTION_NAMES[i]}" for i in self.legal_actions())
            name = f"{a} ({self._A.ACTION_NAMES[a]})" if 0 <= a < self._A.NUM_ACTIONS else f"{a} (out of range 0..{self._A.NUM_ACTIONS - 1})"
            raise ValueError(f"illegal action {name} for {agent} "
                             f"({self._L.PHASE_NAMES[int(self.state[self._L.PHASE])]}); legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self._decisions[agent] += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        ended = False
        if self.state[self._L.PHASE] == self._L.PH_DONE:
            net = float(int(self.state[self._L.SCORED]) - int(self.state[self._L.SCORED + 1])) * self.reward_scale
            for ag in self.agents:
                self.rewards[ag] = (net if self.teams[ag] == 0 else -net) + 0.0
            if self.episode == "mano":
                ended = True
            elif self.episode == "juego":
                ended = int(self.state[self._L.LAST_JUEGO_WINNER]) >= 0
            else:
                ended = bool(self.state[self._L.PARTIDA_OVER])
            if ended:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self._new_mano()
        if not ended:
            self.agent_selection = self._agent_to_act()
            if self.max_cycles is not None and self._decisions[self.agent_selection] >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- render ------------------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self.spec.render(self.state, self.hist)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _action_id(action) -> int:
    """The integer id of an action (Python or NumPy integer, or a 0-d integer array)."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"an action is an integer id, got {action!r}")
    return int(action)
