"""The cante (Art. 8): playing al cantar, the pares sung in turn.

Part of the Moteño kernels (``kernels.py`` is the entry point); every function takes one state row ``s``.
"""

from __future__ import annotations

from numba import njit

from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.bazas import _start_play
from truque_env.traditions.moteno.helpers import _best_seat, _in_mano_mask, _n
from truque_env.traditions.moteno.scoring import _finish

# ------------------------------------------------------------------------------------------
# the cante (Art. 8)






@njit(cache=True)
def _advance_cante(s):
    n = _n(s)
    nxt = (s[L.TURN] + 1) % n
    if nxt == s[L.MANO_SEAT]:
        s[L.CANTE_DONE] = 1
        s[L.FLOR_ST] = 2  # the cante was each player's chance to sing flor
        winner = _best_seat(s, L.PARES_VAL, _in_mano_mask(s))
        team = winner % 2
        s[L.CHINAS + 3 * team + L.SRC_PARES] = 1  # 18.2 f
        if s[L.SCORE + team] == s[L.TARGET] - 1:
            _finish(s)  # 8.4: the team al cantar wins the juego without the truque
        else:
            _start_play(s)
        return
    s[L.TURN] = nxt
    s[L.TO_ACT] = nxt


