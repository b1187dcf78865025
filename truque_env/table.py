"""``Table``: the scripted API over one table of the numba engine, for tests and researchers.

>>> t = Table(team_size=1, seed=7)
>>> t.deal(hands=["1E 3O 4C", "7O 2B 5C"], dealer=1)
>>> t.to_act, t.legal()[:3]
(0, ['paso', 'truco', 'envío 1 par'])

Actions are given by name (``"envío 2 pares"``, ``"juego 7E"``) or id. An illegal action raises
``ValueError`` listing the legal ones and leaves the state unchanged.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from truque_env.cards import card_str, hand_str, parse
from truque_env.engine import actions as A
from truque_env.engine import kernels as K
from truque_env.engine import layout as L
from truque_env.traditions import get as get_tradition
from truque_env.traditions import traditions

SOURCES = ("pares", "flores", "truque")


def resolve_tradition(tradition="moteno", variant=None) -> str:
    """The tradition named by ``tradition=``, or by ``variant=``, its deprecated alias (kept for one
    release); a ``ValueError`` naming the known traditions for an unknown one."""
    if variant is not None:
        warnings.warn("variant= is deprecated: use tradition=", DeprecationWarning, stacklevel=3)
        if tradition not in ("moteno", variant):
            raise ValueError(f"tradition={tradition!r} and variant={variant!r} disagree: give tradition= alone")
        if variant not in traditions():
            raise ValueError(f"unknown variant {variant!r} (variant= is the deprecated name of tradition=); "
                             f"known traditions: {', '.join(traditions())}")
        return variant
    get_tradition(tradition)
    return tradition


def validate_config(tradition, team_size, target, juegos, senas_per_mano, p_intercept) -> int:
    """Check a table configuration; returns p_intercept in permille. Raises ValueError."""
    get_tradition(tradition)
    if not isinstance(team_size, (int, np.integer)) or not 1 <= team_size <= 4:
        raise ValueError(f"team_size must be 1..4 (Art. 3: tables of 2 to 8), got {team_size!r}")
    if not isinstance(target, (int, np.integer)) or not 2 <= target <= 100:
        raise ValueError(f"target must be an integer 2..100 chinas (ruling 1), got {target!r}")
    if not isinstance(juegos, (int, np.integer)) or juegos < 1 or juegos % 2 == 0:
        raise ValueError(f"juegos must be an odd number >= 1 (a partida is best of juegos), got {juegos!r}")
    max_senas = L.MAX_SENA_LOG // (2 * team_size)
    if not isinstance(senas_per_mano, (int, np.integer)) or not 0 <= senas_per_mano <= max_senas:
        raise ValueError(f"senas_per_mano must be 0..{max_senas} for team_size {team_size}, got {senas_per_mano!r}")
    permille = round(float(p_intercept) * 1000)
    if not 0.0 <= float(p_intercept) <= 1.0 or abs(permille - float(p_intercept) * 1000) > 1e-6:
        raise ValueError(f"p_intercept must be a probability in steps of 0.001, got {p_intercept!r}")
    return permille


@dataclass
class LogEntry:
    seat: int
    action: str
    note: str = ""

    def __str__(self) -> str:
        who = f"jugador {self.seat}: " if self.seat >= 0 else "— "
        return who + self.action + (f" ({self.note})" if self.note else "")


class Table:
    """One table of Truque Moteño. See docs/engine.md for the rules as implemented.

    ``juegos`` configures the partida (best of ``juegos``); the property ``juegos`` afterwards
    gives the juegos won by each team.
    """

    def __init__(self, tradition="moteno", team_size=1, target=30, juegos=3, senas_per_mano=1,
                 p_intercept=0.1, seed=0, variant=None):
        tradition = resolve_tradition(tradition, variant)
        permille = validate_config(tradition, team_size, target, juegos, senas_per_mano, p_intercept)
        self.tradition, self.team_size, self.target = tradition, int(team_size), int(target)
        self.variant = tradition  # the deprecated name
        self.juegos_per_partida, self.senas_per_mano, self.p_intercept = int(juegos), int(senas_per_mano), p_intercept
        self.seed = int(seed)
        self.log: list[LogEntry] = []
        self.state = np.zeros(L.STATE_SIZE, dtype=L.STATE_DTYPE)
        K.init_table(self.state, self.team_size, self.target, self.juegos_per_partida, self.senas_per_mano, permille, self.seed)
        self._mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)

    # -- the deal ---------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return 2 * self.team_size

    def deal(self, hands=None, dealer=None, scores=None) -> None:
        """Start a mano: random deal from the table's generator, or the given hands (seat order)."""
        s = self.state
        if s[L.PHASE] != L.PH_DONE:
            raise ValueError("a mano is in progress: finish it before dealing again")
        if s[L.PARTIDA_OVER]:
            raise ValueError("the partida is over")
        n = self.n_players
        if dealer is not None:
            if not 0 <= int(dealer) < n:
                raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
            s[L.DEALER] = int(dealer)
        if scores is not None:
            s0, s1 = (int(x) for x in scores)
            if not (0 <= s0 < self.target and 0 <= s1 < self.target):
                raise ValueError(f"scores must be 0..{self.target - 1}, got {scores!r}")
            s[L.SCORE], s[L.SCORE + 1] = s0, s1
        self.log = []
        if hands is None:
            K.deal_random(s)
        else:
            K.deal_hands(s, self._parse_hands(hands))
        self.log.append(LogEntry(-1, "reparto", f"da el jugador {int(s[L.DEALER])}, es mano el {int(s[L.MANO_SEAT])}"))

    def _parse_hands(self, hands) -> np.ndarray:
        n = self.n_players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands (one per seat), got {len(hands)}")
        arr = np.zeros((n, 3), dtype=np.int64)
        seen: dict[int, int] = {}
        for seat, h in enumerate(hands):
            cards = parse(h, count=3) if isinstance(h, str) else [int(c) for c in h]
            if len(cards) != 3:
                raise ValueError(f"seat {seat}: a hand has 3 cards, got {len(cards)}")
            for c in cards:
                if not 0 <= c < 40:
                    raise ValueError(f"seat {seat}: card id {c} out of range 0..39")
                if c in seen:
                    raise ValueError(f"card {card_str(c)} dealt twice (seats {seen[c]} and {seat})")
                seen[c] = seat
            arr[seat] = cards
        return arr

    # -- acting -----------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        return int(self.state[L.TO_ACT])

    @property
    def done(self) -> bool:
        return int(self.state[L.PHASE]) == L.PH_DONE

    @property
    def phase(self) -> str:
        return L.PHASE_NAMES[int(self.state[L.PHASE])]

    def legal_ids(self) -> list[int]:
        K.legal_mask(self.state, self._mask)
        return [int(i) for i in np.flatnonzero(self._mask)]

    def legal(self) -> list[str]:
        return [A.ACTION_NAMES[i] for i in self.legal_ids()]

    def act(self, action) -> None:
        a = A.action_id(action) if isinstance(action, str) else int(action)
        legal = self.legal_ids()
        if self.done:
            raise ValueError("the mano is over: deal() the next one")
        if a not in legal:
            name = A.ACTION_NAMES[a] if 0 <= a < A.NUM_ACTIONS else repr(action)
            raise ValueError(
                f"illegal action {name!r} for jugador {self.to_act} ({self.phase}); legal: "
                + ", ".join(A.ACTION_NAMES[i] for i in legal)
            )
        seat = self.to_act
        n_senas = int(self.state[L.SENA_LOG_N])
        bazas_before = self._bazas_decided()
        K.step_unchecked(self.state, a)
        note = ""
        if a >= A.SENA_BASE and int(self.state[L.SENA_LOG_N]) > n_senas:
            seen = int(self.state[L.SENA_LOG + n_senas]) >> 7
            note = "la ven " + (", ".join(str(q) for q in range(self.n_players) if seen >> q & 1) or "nadie")
        self.log.append(LogEntry(seat, A.ACTION_NAMES[a], note))
        for b in range(bazas_before, self._bazas_decided()):
            team = int(self.state[L.BAZA_WIN_TEAM + b])
            won = "parda" if team == L.BAZA_PARDA else f"la gana el equipo {team} (jugador {int(self.state[L.BAZA_WIN_SEAT + b])})"
            self.log.append(LogEntry(-1, f"baza {b + 1}", won))
        if self.done:
            self.log.append(LogEntry(-1, "fin de la mano", self._result_note()))

    def _bazas_decided(self) -> int:
        return sum(int(self.state[L.BAZA_WIN_TEAM + b]) != L.BAZA_UNDECIDED for b in range(3))

    # -- results ----------------------------------------------------------------------------
    def result(self) -> dict:
        """Chinas won this mano by each team, by source: ``{"pares": (t0, t1), ...}``."""
        c = self.state[L.CHINAS : L.CHINAS + 6]
        return {src: (int(c[i]), int(c[3 + i])) for i, src in enumerate(SOURCES)}

    def _result_note(self) -> str:
        r = self.result()
        return "; ".join(f"{k}: {v[0]}-{v[1]}" for k, v in r.items())

    @property
    def scores(self) -> tuple[int, int]:
        return int(self.state[L.SCORE]), int(self.state[L.SCORE + 1])

    @property
    def juegos(self) -> tuple[int, int]:
        """Juegos won by each team in the partida."""
        return int(self.state[L.JUEGOS]), int(self.state[L.JUEGOS + 1])

    @property
    def juego_over(self) -> bool:
        """True when the last mano ended a juego."""
        return self.done and int(self.state[L.LAST_JUEGO_WINNER]) >= 0

    @property
    def partida_over(self) -> bool:
        return bool(self.state[L.PARTIDA_OVER])

    @property
    def dealer(self) -> int:
        return int(self.state[L.DEALER])

    @property
    def mano(self) -> int:
        return int(self.state[L.MANO_SEAT])

    @property
    def hands(self) -> list[list[int]]:
        h = self.state[L.HAND : L.HAND + 3 * self.n_players]
        return [[int(c) for c in h[3 * i : 3 * i + 3]] for i in range(self.n_players)]

    @property
    def senas_log(self) -> list[tuple[int, int, int]]:
        out = []
        for i in range(int(self.state[L.SENA_LOG_N])):
            w = int(self.state[L.SENA_LOG + i])
            out.append((w & 7, (w >> 3) & 15, (w >> 7) & 0xFF))
        return out

    def render(self) -> str:
        """A readable account of the mano so far."""
        lines = [f"Truque Moteño, {self.team_size} contra {self.team_size}; tanteo {self.scores[0]}-{self.scores[1]}"]
        for seat, h in enumerate(self.hands):
            lines.append(f"  jugador {seat} (equipo {seat % 2}): {hand_str(h)}")
        lines += [f"  {e}" for e in self.log]
        return "\n".join(lines)

