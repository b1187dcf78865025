"""The learner's envite played from a solved table while PPO learns the rest (``envido_table``,
``pares_table``).

With ``envido_table`` (truco argentino: the envido, ``agents.envido_table``) or ``pares_table``
(Truque Moteño: the envite de pares, ``agents.pares_table``) set, the learner and the league's
snapshots of it play as the table's policy plays over the network: at a decision of the envite of
a 1 contra 1 table the table's mixed strategy replaces the network's. The learner's moves are drawn
from that mixed policy, which is what the exported network plays as ``<policy.pt>+envido`` (or
``+pares``), and are trained where the network chose, so that the network learns the truco, the
cards and the señas around an envite it does not choose:

* a seña at one of the table's decisions: the mix keeps the network's probability; trained as
  any decision;
* at an opening, an action that is neither a word of the envite nor a seña (a card, the truco, an
  answer to a truco): the network's choice once the table has said "paso". Trained under the mask
  with the envite's words and the señas taken out: its probability there is the network's over
  what is left, which is exactly the mixed policy's chance of it given "paso" and no seña;
* the table's words (an opening, an answer, Moteño's answers to a blind envite; after an envido
  said with the truco the answer to the truco too, which the table takes from the network's chance
  of accepting it): not trained. For the network they are a part of the game, like a forced move:
  the rewards after them run to its previous decision (``train.ppo.loop._gae``).

Other team sizes (the tables model 1 contra 1), other targets and the cases a table does not model
(its module's docstring) are played and trained as without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from agents.envido_table import sample_probs
from agents.ppo_network import sample


class TableEnvido:
    """A solved table (with ``mix(obs, masks, probs)``, checked when read) and its opening words,
    and the two ways the rollout plays with it: the learner's (trained where the network chose) and
    a snapshot's. ``TableEnvido.of(tradition, path)`` reads the tradition's table."""

    def __init__(self, table, openings: np.ndarray, senas: np.ndarray, used_opening: int):
        self.table, self.openings, self.senas, self.used_opening = table, openings, senas, used_opening
        self.not_after_paso = openings | senas  # what the network cannot choose once the table said paso

    @classmethod
    def of(cls, tradition: str, path: Path | str) -> TableEnvido:
        """Truco argentino's envido table or Moteño's pares table at ``path``."""
        if tradition == "argentino":
            from agents import envido_table as T

            return cls(T.EnvidoTable(path), T.OPENINGS, T.SENAS, T.USED_OPENING)
        if tradition == "moteno":
            from agents import pares_table as T

            return cls(T.ParesTable(path), T.PARES_WORDS, T.SENAS, T.USED_OPENING)
        raise ValueError(f"no solved envite table for {tradition}")

    def _mixed(self, logits: torch.Tensor, obs: np.ndarray, mask: np.ndarray, gen: torch.Generator):
        """The actions drawn from the mixed policy (one uniform per row from ``gen``) and how the
        table was used at each row."""
        probs = torch.softmax(logits.double(), dim=-1).numpy().copy()
        used = self.table.mix(np.ascontiguousarray(obs), np.ascontiguousarray(mask), probs)
        u = torch.rand(len(obs), generator=gen, dtype=torch.float64)
        action, _ = sample(logits, u=u.float())
        rows = np.flatnonzero(used)
        if rows.size:
            table_action = np.empty(rows.size, dtype=np.int64)
            sample_probs(probs[rows], np.ascontiguousarray(mask[rows]), u.numpy()[rows], table_action)
            action = action.clone()
            action[rows] = torch.from_numpy(table_action)
        return action, used

    def learner(self, logits: torch.Tensor, obs: np.ndarray, mask: np.ndarray, gen: torch.Generator):
        """The learner's decisions at these rows (``logits`` the network's, masked by ``mask``):
        ``(action, logp, trained_mask, trained)``: the action taken, and for the decisions trained
        (``trained``) the mask they are trained under and the log-probability of the action there."""
        action, used = self._mixed(logits, obs, mask, gen)
        a = action.numpy()
        trained_mask = mask.copy()
        senas = self.senas[a]
        trained = (used == 0) | senas
        paso = (used == self.used_opening) & ~self.openings[a] & ~senas
        trained |= paso
        trained_mask[paso] &= ~self.not_after_paso
        restricted = logits.masked_fill(torch.from_numpy(paso[:, None] & self.not_after_paso), float("-inf"))
        logp = torch.log_softmax(restricted, dim=-1).gather(-1, action[:, None]).squeeze(-1)
        return a, logp.numpy(), trained_mask, trained

    def opponent(self, logits: torch.Tensor, obs: np.ndarray, mask: np.ndarray, gen: torch.Generator) -> np.ndarray:
        """A snapshot's actions: drawn from the mixed policy."""
        return self._mixed(logits, obs, mask, gen)[0].numpy()
