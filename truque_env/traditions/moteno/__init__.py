"""Truque Moteño (Mota del Cuervo, *Reglamento del Truque Moteño*, 2008): the first tradition.

The rules are ``../shared/seeds/000_a3a1ca8e9494fdbc.txt`` with the rulings 1-9 of
``../shared/rules/README.md``; the state machine is docs/engine.md and the coverage table
docs/rules/moteno.md. The engine is ``truque_env.engine`` (to move here with the family seam).

Valuations (Arts. 2, 5, 9; ruling 2): ``power`` is the poder de truque, 17 (el perro) down to 1
(the cuatros); ``hand_values`` gives the valor de pares (Art. 5) and de la flor (Art. 9, 0 when
the hand has none; a reservada is a flor). There is no turn-up card.
"""

from __future__ import annotations

from truque_env.rules import moteno as M
from truque_env.traditions import TraditionSpec


class MotenoValuations:
    """Poder de truque, valor de pares and valor de la flor (truque_env.rules.moteno)."""

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
    team_sizes=(1, 2, 3, 4),  # Art. 3, ruling 9
    default_target=30,  # ruling 1
    sources=("pares", "flores", "truque"),  # Art. 17.3: pares and flores before the truque
    env_name="truque_moteno_v0",
    valuations=MotenoValuations(),
)
