"""The learner's envido played from a solved table while PPO learns the rest (``envido_table``).

With ``envido_table`` set (truco argentino), the learner and the league's snapshots of it play as
``agents.envido_table.EnvidoTablePolicy`` plays over the network: at a decision of the envido of a
1 contra 1 table the table's mixed strategy replaces the network's. The learner's moves are drawn
from that mixed policy, which is what the exported network plays as ``<policy.pt>+envido``, and
are trained where the network chose, so that the network learns the truco, the cards and the
señas around an envido it does not choose:

* a seña at one of the table's decisions: the mix keeps the network's probability; trained as
  any decision;
* at an opening, an action that is neither an envido word nor a seña (a card, the truco, an answer
  to a truco): the network's choice once the table has said "paso". Trained under the mask with
  the envido words and the señas taken out: its probability there is the network's over what is
  left, which is exactly the mixed policy's chance of it given "paso" and no seña;
* the table's words (an opening, an answer; after an envido said with the truco the answer to the
  truco too, which the table takes from the network's chance of accepting it): not trained. For
  the network they are a part of the game, like a forced move: the rewards after them run to its
  previous decision (``train.ppo.loop._gae``).

2 contra 2 tables (the table models 1 contra 1), other targets and the cases the table does not
model (``agents.envido_table``) are played and trained as without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from agents.envido_table import OPENINGS, SENAS, USED_OPENING, EnvidoTable, sample_probs
from agents.ppo_network import sample

NOT_AFTER_PASO = OPENINGS | SENAS  # what the network cannot choose once the table said paso


class TableEnvido:
    """The table of ``path`` (``agents.envido_table.EnvidoTable``, checked) and the two ways the
    rollout plays with it: the learner's (trained where the network chose) and a snapshot's."""

    def __init__(self, path: Path | str):
        self.table = EnvidoTable(path)

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
        trained = (used == 0) | SENAS[a]
        paso = (used == USED_OPENING) & ~OPENINGS[a] & ~SENAS[a]
        trained |= paso
        trained_mask[paso] &= ~NOT_AFTER_PASO
        restricted = logits.masked_fill(torch.from_numpy(paso[:, None] & NOT_AFTER_PASO), float("-inf"))
        logp = torch.log_softmax(restricted, dim=-1).gather(-1, action[:, None]).squeeze(-1)
        return a, logp.numpy(), trained_mask, trained

    def opponent(self, logits: torch.Tensor, obs: np.ndarray, mask: np.ndarray, gen: torch.Generator) -> np.ndarray:
        """A snapshot's actions: drawn from the mixed policy."""
        return self._mixed(logits, obs, mask, gen)[0].numpy()
