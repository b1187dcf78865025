"""truque_env: Truque Moteño (and the Truco family) as a numba-compiled, vectorised engine.

Start with :class:`truque_env.Table` (scripted play, one table), the action catalogue in
:mod:`truque_env.engine.actions` and the state machine in ``docs/engine.md``.
"""

from truque_env import _jit_cache  # noqa: F401  (first: sets the numba cache folder)
from truque_env.cards import card_str, parse  # noqa: I001
from truque_env.table import Table

__all__ = ["Table", "parse", "card_str"]
__version__ = "0.1.0"
