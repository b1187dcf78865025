"""Truque Moteño (Mota del Cuervo, *Reglamento del Truque Moteño*, 2008): the first tradition.

The rules are ``../shared/seeds/000_a3a1ca8e9494fdbc.txt`` with the rulings 1-9 of
``../shared/rules/README.md``; the state machine is docs/engine.md and the coverage table
docs/rules/moteno.md.

The package is the whole tradition: ``layout`` (the state row: the common header, then the mano),
``actions`` (the catalogue), ``rules`` (valuations as tables), ``kernels`` (the state machine,
split along its seams: see its docstring), ``observation``, ``batch`` and ``vector_kernels``
(prange loops that name these kernels, so that numba caches them), ``metadata`` (bounds),
``config`` (the settings it allows), ``render`` (the table in words).

Valuations (Arts. 2, 5, 9; ruling 2): ``power`` is the poder de truque, 17 (el perro) down to 1
(the cuatros); ``hand_values`` gives the valor de pares (Art. 5) and de la flor (Art. 9, 0 when
the hand has none; a reservada is a flor). There is no turn-up card.
"""

from __future__ import annotations

from truque_env.traditions import TraditionSpec
from truque_env.traditions.moteno import (
    actions,
    batch,
    config,
    kernels,
    layout,
    metadata,
    observation,
)
from truque_env.traditions.moteno import rules as M
from truque_env.traditions.moteno import vector_kernels as vector
from truque_env.traditions.moteno.render import render_state


class MotenoValuations:
    """Poder de truque, valor de pares and valor de la flor (truque_env.traditions.moteno.rules)."""

    @staticmethod
    def _no_turnup(turnup) -> None:
        if turnup is not None:
            raise ValueError(f"Truque Moteño turns up no card (no muestra, no vira); got turnup={turnup!r}")

    def power(self, card, turnup=None) -> int:
        self._no_turnup(turnup)
        return M.truque_power(card)

    def hand_values(self, hand, turnup=None) -> dict[str, int]:
        self._no_turnup(turnup)
        return {"pares": M.pares_value(hand), "flor": M.flor_value(hand)}


SPEC = TraditionSpec(
    name="moteno",
    title="Truque Moteño",
    seed_document="000_a3a1ca8e9494fdbc.txt",
    team_sizes=config.TEAM_SIZES,
    default_target=config.DEFAULT_TARGET,
    sources=("pares", "flores", "truque"),  # Art. 17.3: pares and flores before the truque
    env_name="truque_moteno_v1",
    valuations=MotenoValuations(),
    layout=layout,
    actions=actions,
    kernels=kernels,
    observation=observation,
    batch=batch,
    vector=vector,
    metadata=metadata,
    render=render_state,
    check_settings=config.check_settings,
    reference="tests.reference.moteno_ref",
    options=config.OPTIONS,
    nicknames=M.CARD_NICKNAME,
    points="chinas",
)
