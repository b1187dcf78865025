"""Truco argentino as a PettingZoo AEC environment (``truco_argentino_v1``).

>>> from truque_env import truco_argentino_v1
>>> env = truco_argentino_v1.env(team_size=2, episode="mano", seed=7)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

``env()`` and ``raw_env()`` are ``truque_env.env(tradition="argentino", ...)`` and
``truque_env.raw_env(tradition="argentino", ...)``: the family's AEC adapter (its mechanics,
``reset``/``seed``/``render``/``illegal_action``, are the ones of :mod:`truque_env.pettingzoo_env`)
over the argentino engine, ``truque_env/traditions/argentino/``. The rules as played, and every
rule element with its test, are in ``docs/rules/argentino.md``.

The game
========

40 cards; 1 contra 1, 2 contra 2 or 3 contra 3 (``team_size``), partners alternate; a juego to 30
tantos (15 malas and 15 buenas; ``target``). Each mano: the blind round of *falta envido y
truco, todo dicho* (before the cards are looked at), the flor (obligatory: a holder's only word
at his first decision), the envido (envido 2, real envido 3, falta envido: what the leader
lacks), envido y truco a la vez, the truco (2, retruco 3, vale cuatro 4; accepted before it is
raised, raised by the side that accepted), three bazas (pardas between rivals), irse al mazo,
señas. A team answers through its members in turn, each may leave it to the next (``paso``),
the first answer binds.

Agents and teams
================

``player_0 .. player_{n-1}``; the team of ``player_k`` is ``k % 2`` (``env.teams``,
``info["team"]``). Turns follow the game, not a fixed cycle: a word does not pass the turn, a
team answers member by member, the winner of a baza leads the next.

Actions
=======

``Discrete(77)``, the flat catalogue of ``truque_env.traditions.argentino.actions``
(``ACTION_NAMES``); the legal ones are the 1s of ``observation["action_mask"]``.

======  ===================================  ==============================================
id      name                                 when
======  ===================================  ==============================================
0       paso                                 no todo dicho; leave the answer to a partner
1, 2    quiero, no quiero                    answer (both bets of a double call)
3       falta envido y truco, todo dicho     the blind round
4..9    flor, con flor me achico, con flor   the flor and its answers
        quiero, con flor no quiero,
        contraflor, contraflor al resto
10..12  envido, real envido, falta envido    open or raise the envido
13..15  ... y truco                          both at once
16, 17  sin ley quiero y paso / paso y       accept the envido only / the truco only
        quiero
18..23  ... y quiero retruco / vale cuatro   a double answer passed back
24..26  truco, retruco, vale cuatro
27      me voy al mazo
28      uno y uno                            (option ``uno_y_uno``, 1 contra 1)
29..68  juego <card>                         29 + card id (``truque_env.cards``)
69..76  seña: <name>                         ancho de espadas, ancho de basto, siete de
                                             espadas, siete de oros, tres, dos, flor, nada
======  ===================================  ==============================================

An illegal action raises ``ValueError`` naming it and the legal ones, and changes nothing
(``illegal_action="penalty"``: the episode ends, the offender gets ``-target``).

Observations
============

``Dict({"observation": Box(0, 127, (OBS_SIZE,), int8), "action_mask": Box(0, 1, (77,), int8)})``;
``truque_env.traditions.argentino.observation`` documents the slices (its module docstring)
and names them: ``split(obs)``, ``decode(obs)`` (the packed parts by name, ``"envido.stake"``).
Seats are relative to the agent; the hand, the cards played, the cards shown at the end (the
envido's and the flor's winners), the bets, the envido declared in the showdown, the señas the
agent saw, the last 32 public words, and the juego's record of each team's bets and answers.

Rewards
=======

When a mano ends every agent of a team gets its team's scored tantos minus the rival's
(envido, flor, then truco; a team reaching the target adds no more than it lacked); divided by
``target`` with ``scale_rewards=True``; every other step 0.

Options
=======

The rule options are keyword arguments (``docs/rules/argentino.md``, "The options"):
``flor=True``, ``todo_dicho=True``, ``falta_envido="leader"|"match"``,
``contraflor_al_resto="leader"|"match"``, ``uno_y_uno=False``, ``achico_pays=0``,
``al_resto_refused_pays=0``. An unknown option, a bad value or a team size of 4 is a
``ValueError``.

Version history
===============

* v0: first release. 77 actions; the observation of 1301 entries (the slices described above
  but the last); rewards in tantos scored at each mano's end; episodes mano / juego / partida.
* v1: the observation ends with the juego's public record (``juego_record``: the manos of the
  juego and each team's raises, acceptances, refusals and leaves in it), ``OBS_SIZE`` = 1310
  entries; the 1301 before it are v0's, entry for entry.
"""

from __future__ import annotations

from truque_env.pettingzoo_env import env as _env
from truque_env.pettingzoo_env import raw_env as _raw_env

TRADITION = "argentino"


def raw_env(**kwargs):
    """The AEC environment of truco argentino (keywords as :class:`truque_env.pettingzoo_env.raw_env`)."""
    if kwargs.setdefault("tradition", TRADITION) != TRADITION:
        raise ValueError(f"truco_argentino_v1 plays argentino, not {kwargs['tradition']!r}")
    return _raw_env(**kwargs)


def env(**kwargs):
    """``raw_env`` with PettingZoo's classic wrappers."""
    if kwargs.setdefault("tradition", TRADITION) != TRADITION:
        raise ValueError(f"truco_argentino_v1 plays argentino, not {kwargs['tradition']!r}")
    return _env(**kwargs)
