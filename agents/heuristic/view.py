"""The observation, read once per decision: the named slices and what the bot derives from them.

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there)."""

from __future__ import annotations

import numpy as np

from agents.heuristic.hands import POWER
from truque_env.cards import NUM_CARDS
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno import rules as M

# ----------------------------------------------------------------------------------------------
# the observation, read once per decision

PH_NAMES = ("blind", "close", "cante", "play", "flor_round", "flor_envite", "answer", "done", "reservada")
EX_NONE, EX_PARES, EX_TRUCO, EX_FLORES, EX_FALTA = range(5)
ANS_NONE, ANS_LUEGO, ANS_NO, ANS_QUIERO, ANS_RAISE = range(5)
F_BARAJA, F_NO_VALE, F_BET_PARES, F_CHALLENGED, F_SANG, F_FIRST_ROUND, F_DE_LA_MIA = (
    O.SEAT_FLAGS.index(f) for f in ("baraja", "no_vale", "bet_pares", "challenged", "sang", "first_round", "de_la_mia"))


def _onehot(v) -> int:
    i = int(v.argmax())
    return i if v[i] else -1


_SLICES = [(name, off, off + int(np.prod(shape)), shape) for name, (off, shape) in O.SLICES.items()]
_SLICE_OF = {name: (a, b, shape) for name, a, b, shape in _SLICES}
# the 0/1 card matrices at the start of the observation, read in one pass by ``View``
_O_HAND, _O_PLAYED_BY, _O_PLAYED_IN, _O_REVEALED = (O.SLICES[k][0] for k in ("hand", "played_by", "played_in",
                                                                               "revealed"))
_O_CARDS_END = _SLICE_OF["revealed"][1]
_CARD_ROWS = _O_CARDS_END // NUM_CARDS
_R_PLAYED_BY, _R_PLAYED_IN, _R_REVEALED = (o // NUM_CARDS for o in (_O_PLAYED_BY, _O_PLAYED_IN, _O_REVEALED))
assert _O_HAND == 0 and _CARD_ROWS * NUM_CARDS == _O_CARDS_END
assert _R_PLAYED_IN == _R_PLAYED_BY + 8 and _R_REVEALED == _R_PLAYED_IN + 3 and _CARD_ROWS == _R_REVEALED + 8
assert O.SLICES["senas_seen"][1] == (8, A.NUM_SENAS)  # View.partner_sena reads it flat


# the fields View reads at once, from ``phase`` to ``exchange`` (offsets relative to phase)
_O_FIELDS = _SLICE_OF["phase"][0]
_O_FIELDS_END = _SLICE_OF["exchange"][1]
assert all(_O_FIELDS <= _SLICE_OF[k][0] < _O_FIELDS_END for k in ("team_size", "position", "baza", "seat_flags",
                                                                  "score", "target_falta"))


def _span(name: str) -> slice:
    """Slice ``name`` (flattened), or part ``name`` of one (``"exchange.kind"``), in the list of the small fields."""
    a, b = O.PARTS[name] if name in O.PARTS else _SLICE_OF[name][:2]
    return slice(a - _O_FIELDS, b - _O_FIELDS)


_S_PHASE, _S_TEAM_SIZE, _S_POSITION, _S_BAZA = (_span(k) for k in ("phase", "team_size", "position", "baza"))
_S_BARAJA, _S_NO_VALE, _S_SANG = (_span(f"seat_flags.{f}") for f in ("baraja", "no_vale", "sang"))
_S_SCORE, _S_TARGET_FALTA = _span("score"), _span("target_falta")
_S_EX_KIND, _S_EX_STANDING, _S_EX_BLIND = (_span(f"exchange.{k}") for k in ("kind", "standing", "blind"))


def _onehot_list(seg: list) -> int:
    """``_onehot`` of a list: the index of the first maximum, -1 if that is 0."""
    m = max(seg)
    return seg.index(m) if m else -1


class _Slices(dict):
    """name -> the observation's slice, reshaped, or a part of one (``"pares.raiser"``, the names
    of ``observation.PARTS``); made on first use (most are never read)."""

    def __init__(self, obs: np.ndarray):
        super().__init__()
        self.obs = obs

    def __missing__(self, name: str) -> np.ndarray:
        if name in O.PARTS:  # a part of a packed slice, by name (the encoder's own table)
            a, b = O.PARTS[name]
            out = self[name] = self.obs[a:b]
            return out
        a, b, shape = _SLICE_OF[name]
        out = self[name] = self.obs[a:b].reshape(shape)
        return out


class View:
    """The named slices of one observation plus what the bot derives from them."""

    def __init__(self, obs: np.ndarray):
        obs = np.asarray(obs)
        sl = _Slices(obs)
        self.s = sl
        # the small fields (phase .. exchange) as one Python list: numpy per-element reads are slow
        x = obs[_O_FIELDS:_O_FIELDS_END].tolist()
        self.phase = PH_NAMES[_onehot_list(x[_S_PHASE])]
        self.team_size = _onehot_list(x[_S_TEAM_SIZE]) + 1
        self.n = 2 * self.team_size
        self.position = max(0, _onehot_list(x[_S_POSITION]))  # my offset from mano
        self.baza = max(0, _onehot_list(x[_S_BAZA]))
        # hand, played_by, played_in and revealed: 20 rows of 40 cards, read by one flatnonzero
        # (ascending: each row's cards come out sorted, as ``np.flatnonzero`` per row gave them)
        rows_of: list[list[int]] = [[] for _ in range(_CARD_ROWS)]
        for i in np.flatnonzero(obs[:_O_CARDS_END]).tolist():
            rows_of[i // NUM_CARDS].append(i % NUM_CARDS)
        self.hand = rows_of[0]
        self._played = rows_of[_R_PLAYED_BY:_R_PLAYED_BY + 8]
        self._in_baza = [set(cards) for cards in rows_of[_R_PLAYED_IN:_R_PLAYED_IN + 3]]
        self._revealed = rows_of[_R_REVEALED:_R_REVEALED + 8]
        self.my_played = self._played[0]
        self.dealt = sorted(self.hand + self.my_played)
        baraja = x[_S_BARAJA]
        self._in_mano = [f == 0 for f in baraja]
        self._in_truque = [f == 0 and g == 0 for f, g in zip(baraja, x[_S_NO_VALE], strict=True)]
        self._sang = [f == 1 for f in x[_S_SANG]]
        self.mine, self.theirs = x[_S_SCORE]
        self.target, self.falta, self.al_cantar = x[_S_TARGET_FALTA]
        if self.target <= 0:
            self.target = 30
        if self.falta <= 0:
            self.falta = max(1, self.target - max(self.mine, self.theirs))
        self.ex_kind = _onehot_list(x[_S_EX_KIND])
        self.ex_standing = _onehot_list(x[_S_EX_STANDING])
        self.ex_blind = x[_S_EX_BLIND][0]
        self._results: str | None = None
        self._first_sena: list[int] | None = None
        self.cache: dict = {}

    @property
    def flags(self) -> np.ndarray:
        """seat_flags (7, 8): baraja, no vale, bet pares, challenged, sang, first round, de la mía."""
        return self.s["seat_flags"]

    # -- seats ---------------------------------------------------------------------------------
    def ours(self, r: int) -> bool:
        return r % 2 == 0

    def in_mano(self, r: int) -> bool:
        return self._in_mano[r]

    def in_truque(self, r: int) -> bool:
        return self._in_truque[r]

    def from_mano(self, r: int) -> int:
        """Offset of relative seat ``r`` from mano (0 = mano)."""
        return (self.position + r) % self.n

    def order_from_mano(self):
        return sorted(range(self.n), key=self.from_mano)

    def played_by(self, r: int):
        return self._played[r]

    def known_cards(self, r: int):
        """Cards of relative seat r the bot has seen: played, or face up."""
        return self._played[r] + self._revealed[r]

    def card_in_baza(self, r: int, b: int) -> int:
        """The card relative seat r played in baza b, -1 if none (the lowest, were there two)."""
        if 0 <= r < 8 and 0 <= b < 3:
            ib = self._in_baza[b]
            for c in self._played[r]:  # ascending
                if c in ib:
                    return c
            return -1
        both = np.flatnonzero(self.s["played_by"][r] & self.s["played_in"][b])
        return int(both[0]) if both.size else -1

    def partner_sena(self, r: int) -> int:
        """The seña relative seat r made that I saw (the best one if several), -1 if none."""
        if self._first_sena is None:  # every seat's at once: one flatnonzero instead of one per seat
            first = [-1] * 8
            for i in np.flatnonzero(self.s["senas_seen"]).tolist():
                if first[i // A.NUM_SENAS] < 0:
                    first[i // A.NUM_SENAS] = i % A.NUM_SENAS
            self._first_sena = first
        return self._first_sena[r]

    def my_sena_count(self) -> int:
        return sum(self.s["senas_seen"][0].tolist())  # a list: numpy's sum is slow on 11 entries

    def sang(self, r: int) -> bool:
        return self._sang[r]

    def leader(self, b: int) -> int:
        """Relative seat from which baza b is played (13.6, 13.7, 16.2, 16.4): mano, or the winner
        of the previous baza (play starts with him, or the next still in the truque)."""
        mano = (self.n - self.position) % self.n
        res = self.baza_results()
        if b == 0 or len(res) < b or res[b - 1] == "P":
            return mano
        prev = self.leader(b - 1)
        team = 0 if res[b - 1] == "W" else 1
        best, seat = -1, mano
        for k in range(self.n):  # the highest card of the winning team; the earlier one on ties
            r = (prev + k) % self.n
            c = self.card_in_baza(r, b - 1)
            if r % 2 == team and c >= 0 and POWER[c] > best:
                best, seat = int(POWER[c]), r
        return seat

    def baza_results(self) -> str:
        if self._results is None:  # read once: leader() and the card rules ask often
            self._results = self._read_baza_results()
        return self._results

    def _read_baza_results(self) -> str:
        out = ""
        for b in range(3):
            row = self.s["baza_result"][b]
            if row[0]:
                out += "W"
            elif row[1]:
                out += "L"
            elif row[2]:
                out += "P"
            else:
                break
        return out

    # -- my hand -------------------------------------------------------------------------------
    def my_pares(self) -> int:
        if len(self.dealt) != 3:
            return 0
        return int(M.pares_value_nb(*self.dealt))

    def my_flor(self) -> int:
        if len(self.dealt) != 3:
            return 0
        return int(M.flor_value_nb(*self.dealt))

    def my_reservada(self) -> bool:
        return len(self.dealt) == 3 and bool(M.is_reservada_nb(*self.dealt))

    # -- bets ----------------------------------------------------------------------------------
    def pares_stake_chinas(self, which: str = "stake") -> int:
        """The stake (``"stake"``) or previous stake (``"previous"``) of the envite de pares, in chinas."""
        v = int(self.s[f"pares.{which}"][0])
        return self.falta if v == 16 else 2 * v

    def flor_stake_chinas(self, which: str = "stake") -> int:
        v = int(self.s[f"flor.{which}"][0])
        return self.falta if v == 11 else 3 * v

    def truco_level(self) -> int:
        return max(0, _onehot(self.s["truco.level"]))

    def truco_state(self) -> int:
        return _onehot(self.s["truco.state"])

    def pares_state(self) -> int:
        return _onehot(self.s["pares.state"])


