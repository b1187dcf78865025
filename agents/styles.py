"""Style bots: players with one betting style and no judgement, for training and evaluating against.

A bot that beats one opponent may only exploit it; these are the styles a robust bot must also beat
(issue 17). Each reads nothing but the action mask and what each action does to the stakes
(``ACTION_KIND`` of the tradition's actions, ``truque_env.traditions.action_kinds``), so one class
serves every tradition. Cards are played at random: what is measured against them is betting.

=================  ==========================================================================
registry name      how it plays
=================  ==========================================================================
style_raiser       always bets and raises, never refuses or leaves: raise > accept > play
style_caller       accepts every bet and never bets: accept > play > other > refuse > raise
style_folder       refuses every bet and never bets: refuse > play > other > accept > raise
style_bluffer      at each decision where it may bet, bets with probability 1/2 whatever its
                   hand; otherwise plays, and answers a bet by a coin (accept or refuse)
=================  ==========================================================================

A style ranks the kinds; a decision takes the best-ranked kind that has a legal action, and one of
that kind's legal actions uniformly at random (the envite it opens, the card it plays). Señas are
never made, and leaving (baraja, mazo) is last for every style. The heuristic with its bluffing
turned up (``heuristic_bluffer`` in ``agents.registry``) is the fifth style, one with judgement.

Every draw comes from the row's decision key when the caller passes keys (``truque_env.policy``),
from the bot's own seeded generator otherwise; the decision is a few array operations per batch.
"""

from __future__ import annotations

import numpy as np

from truque_env.policy import key_uniforms, nth_legal
from truque_env.traditions import action_kinds as K
from truque_env.traditions import get as get_tradition

_UNRANKED = 99  # a kind chosen only when nothing else is legal (señas)


def _ranks(*order) -> np.ndarray:
    """Rank per kind from best to worst; a tuple in ``order`` is one rank shared by its kinds."""
    rank = np.full(len(K.KIND_NAMES), _UNRANKED, dtype=np.int64)
    for r, kinds in enumerate(order):
        for kind in (kinds if isinstance(kinds, tuple) else (kinds,)):
            rank[kind] = r
    return rank


# per style, one or two rank tables: the second is used at the rows whose coin falls below P_FIRST
STYLES = {
    "raiser": (_ranks(K.RAISE, K.ACCEPT, K.PLAY, K.OTHER, K.REFUSE, K.LEAVE),),
    "caller": (_ranks(K.ACCEPT, K.PLAY, K.OTHER, K.REFUSE, K.RAISE, K.LEAVE),),
    "folder": (_ranks(K.REFUSE, K.PLAY, K.OTHER, K.ACCEPT, K.RAISE, K.LEAVE),),
    # the coin: bet now (whatever the hand), or play and answer bets by a second coin
    "bluffer": (_ranks(K.PLAY, (K.ACCEPT, K.REFUSE), K.OTHER, K.RAISE, K.LEAVE),
                _ranks(K.RAISE, K.PLAY, (K.ACCEPT, K.REFUSE), K.OTHER, K.LEAVE)),
}
P_FIRST = 0.5  # the bluffer's coin: the second table (bet) at half its decisions


class StylePolicy:
    """One of ``STYLES`` for ``tradition``: ``act_batch(obs, masks, keys=None)``, every team size."""

    def __init__(self, style: str, tradition: str = "moteno", seed: int = 0):
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
        self.style = style
        self.name = f"style_{style}"
        kind = np.asarray(get_tradition(tradition).actions.ACTION_KIND, dtype=np.int64)
        # rank of each action id under each table of the style: (tables, actions)
        self._rank = np.stack([table[kind] for table in STYLES[style]])
        self.rng = np.random.default_rng(seed)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, keys: np.ndarray | None = None) -> np.ndarray:
        legal = np.asarray(action_masks) > 0
        n = legal.shape[0]
        if keys is not None:  # every draw from the row's key: the same decision in any batch
            coin, pick = key_uniforms(keys, 1), key_uniforms(keys, 2)
        else:
            coin, pick = self.rng.random(n), self.rng.random(n)
        table = (coin < P_FIRST).astype(np.int64) if len(self._rank) > 1 else np.zeros(n, dtype=np.int64)
        rank = np.where(legal, self._rank[table], _UNRANKED + 1)
        best = rank.min(axis=1)
        return nth_legal(rank == best[:, None], pick)  # uniformly among the best kind's legal actions

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.act_batch(observation[None], np.asarray(action_mask)[None])[0])
