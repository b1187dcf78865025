"""Truco argentino (seeds 003 and 004, ruling 8; elements A1–A41 of ../shared/rules/traditions.md):
the second tradition of the family.

40 cards, 1 contra 1 to 3 contra 3, a juego to 30 tantos (15 malas and 15 buenas). Envido, real
envido and falta envido; flor (on by default) with contraflor and contraflor al resto; truco,
retruco and vale cuatro with *aceptación y rebote*; irse al mazo; "falta envido y truco, todo
dicho" before the cards are looked at; envido y truco a la vez; uno y uno (an option); señas.
The rules as the engine plays them, and the coverage of every element, are docs/rules/argentino.md.

>>> import truque_env
>>> t = truque_env.Table(tradition="argentino", team_size=1, seed=3, todo_dicho=False)
>>> t.deal(hands=["1E 7E 4C", "3O 2O 12B"], dealer=1)
>>> t.legal()[:4]
['envido', 'real envido', 'falta envido', 'envido y truco']

The package is the whole tradition: ``layout`` (the state row), ``actions`` (the catalogue),
``rules`` (valuations as tables), ``kernels`` (the state machine, split along its seams),
``observation``, ``batch`` and ``vector_kernels`` (prange loops naming these kernels, so that numba
caches them), ``metadata`` (bounds), ``config`` (the options and the settings it allows),
``render`` (the table in words).

Valuations (ruling A3, 003 §§12-13): ``power`` is the truco ranking, 14 (el ancho de espadas)
down to 1 (the cuatros); ``hand_values`` gives the envido (A19, A20) and the flor (A6; 0 without
one). There is no turn-up card.
"""

from __future__ import annotations

from truque_env.traditions import TraditionSpec
from truque_env.traditions.argentino import (
    actions,
    batch,
    config,
    kernels,
    layout,
    metadata,
    observation,
)
from truque_env.traditions.argentino import rules as R
from truque_env.traditions.argentino import vector_kernels as vector
from truque_env.traditions.argentino.render import render_state


class ArgentinoValuations:
    """Truco power, envido and flor (truque_env.traditions.argentino.rules)."""

    @staticmethod
    def _no_turnup(turnup) -> None:
        if turnup is not None:
            raise ValueError(f"truco argentino turns up no card (no muestra, no vira); got turnup={turnup!r}")

    def power(self, card, turnup=None) -> int:
        self._no_turnup(turnup)
        return R.power(card)

    def hand_values(self, hand, turnup=None) -> dict[str, int]:
        self._no_turnup(turnup)
        return {"envido": R.envido_value(hand), "flor": R.flor_value(hand)}


SPEC = TraditionSpec(
    name="argentino",
    title="Truco argentino",
    seed_document="003_50e60a52e7fe4de9.txt",
    team_sizes=config.TEAM_SIZES,
    default_target=config.DEFAULT_TARGET,
    sources=("envido", "flor", "truco"),  # A35: envido and flor before the truco
    env_name="truco_argentino_v1",
    valuations=ArgentinoValuations(),
    layout=layout,
    actions=actions,
    kernels=kernels,
    observation=observation,
    batch=batch,
    vector=vector,
    metadata=metadata,
    render=render_state,
    check_settings=config.check_settings,
    reference="tests.reference.argentino_ref",
    options=config.OPTIONS,
    nicknames=R.CARD_NICKNAME,
    rule_words=config.rule_words,
    points="tantos",
)
