"""``Table``: the scripted API over one table of the numba engine, for tests and researchers.

>>> t = Table(team_size=1, seed=7)
>>> t.deal(hands=["1E 3O 4C", "7O 2B 5C"], dealer=1)
>>> t.to_act, t.legal()[:3]
(0, ['paso', 'truco', 'envío 1 par'])

Actions are given by name (``"envío 2 pares"``, ``"juego 7E"``) or id. An illegal action raises
``ValueError`` listing the legal ones and leaves the state unchanged.

The table plays any registered tradition (``tradition=``, default ``"moteno"``; its rule
options as keywords): its engine modules come from the tradition's spec.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from truque_env.cards import card_str, hand_str, parse_hand
from truque_env.engine.header import REC_KINDS, RECORD_SIZE
from truque_env.settings import MatchSettings, resolve_tradition
from truque_env.traditions.action_kinds import KIND_NAMES


@dataclass
class LogEntry:
    seat: int
    action: str
    note: str = ""

    def __str__(self) -> str:
        who = f"jugador {self.seat}: " if self.seat >= 0 else "— "
        return who + self.action + (f" ({self.note})" if self.note else "")


class Table:
    """One table of a tradition (Truque Moteño by default). See docs/engine.md for the rules as implemented.

    ``juegos`` configures the partida (best of ``juegos``); the property ``juegos`` afterwards
    gives the juegos won by each team.
    """

    def __init__(self, tradition="moteno", team_size=1, target=None, juegos=3, senas_per_mano=1,
                 p_intercept=0.1, seed=0, variant=None, **options):
        tradition = resolve_tradition(tradition, variant)
        self.settings = MatchSettings(tradition, team_size, target, juegos, senas_per_mano, p_intercept, options)
        self.spec = spec = self.settings.spec
        self._L, self._A, self._K = spec.layout, spec.actions, spec.kernels
        self.tradition, self.team_size, self.target = tradition, self.settings.team_size, self.settings.target
        self.variant = tradition  # the deprecated name
        self.juegos_per_partida, self.senas_per_mano, self.p_intercept = self.settings.juegos, self.settings.senas_per_mano, p_intercept
        self.seed = int(seed)
        self.log: list[LogEntry] = []
        self.state = self.settings.new_states()  # zeros with the rule words
        self._K.init_table(self.state, self.team_size, self.target, self.juegos_per_partida, self.senas_per_mano,
                           self.settings.p_intercept_permille, self.seed)
        self._mask = np.zeros(self._A.NUM_ACTIONS, dtype=np.uint8)

    # -- the deal ---------------------------------------------------------------------------
    @property
    def n_players(self) -> int:
        return 2 * self.team_size

    def deal(self, hands=None, dealer=None, scores=None) -> None:
        """Start a mano: random deal from the table's generator, or the given hands (seat order)."""
        s = self.state
        if s[self._L.PHASE] != self._L.PH_DONE:
            raise ValueError("a mano is in progress: finish it before dealing again")
        if s[self._L.PARTIDA_OVER]:
            raise ValueError("the partida is over")
        n = self.n_players
        if dealer is not None:
            if not 0 <= int(dealer) < n:
                raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
            s[self._L.DEALER] = int(dealer)
        if scores is not None:
            s0, s1 = (int(x) for x in scores)
            if not (0 <= s0 < self.target and 0 <= s1 < self.target):
                raise ValueError(f"scores must be 0..{self.target - 1}, got {scores!r}")
            s[self._L.SCORE], s[self._L.SCORE + 1] = s0, s1
        self.log = []
        if hands is None:
            self._K.deal_random(s)
        else:
            self._K.deal_hands(s, self._parse_hands(hands))
        self.log.append(LogEntry(-1, "reparto", f"da el jugador {int(s[self._L.DEALER])}, es mano el {int(s[self._L.MANO_SEAT])}"))

    def _parse_hands(self, hands) -> np.ndarray:
        n = self.n_players
        if len(hands) != n:
            raise ValueError(f"expected {n} hands (one per seat), got {len(hands)}")
        arr = np.zeros((n, 3), dtype=np.int64)
        seen: dict[int, int] = {}
        for seat, h in enumerate(hands):
            try:
                cards = parse_hand(h)
            except ValueError as exc:
                raise ValueError(f"seat {seat}: {exc}") from None
            for c in cards:
                if c in seen:
                    raise ValueError(f"card {card_str(c)} dealt twice (seats {seen[c]} and {seat})")
                seen[c] = seat
            arr[seat] = cards
        return arr

    # -- acting -----------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        return int(self.state[self._L.TO_ACT])

    @property
    def done(self) -> bool:
        return int(self.state[self._L.PHASE]) == self._L.PH_DONE

    @property
    def phase(self) -> str:
        return self._L.PHASE_NAMES[int(self.state[self._L.PHASE])]

    def legal_ids(self) -> list[int]:
        self._K.legal_mask(self.state, self._mask)
        return [int(i) for i in np.flatnonzero(self._mask)]

    def legal(self) -> list[str]:
        return [self._A.ACTION_NAMES[i] for i in self.legal_ids()]

    def act(self, action) -> None:
        a = self._A.action_id(action) if isinstance(action, str) else int(action)
        legal = self.legal_ids()
        if self.done:
            raise ValueError("the mano is over: deal() the next one")
        if a not in legal:
            name = self._A.ACTION_NAMES[a] if 0 <= a < self._A.NUM_ACTIONS else repr(action)
            raise ValueError(
                f"illegal action {name!r} for jugador {self.to_act} ({self.phase}); legal: "
                + ", ".join(self._A.ACTION_NAMES[i] for i in legal)
            )
        seat = self.to_act
        n_senas = int(self.state[self._L.SENA_LOG_N])
        bazas_before = self._bazas_decided()
        self._K.step_unchecked(self.state, a)
        note = ""
        if a >= self._A.SENA_BASE and int(self.state[self._L.SENA_LOG_N]) > n_senas:
            seen = int(self.state[self._L.SENA_LOG + n_senas]) >> 7
            note = "la ven " + (", ".join(str(q) for q in range(self.n_players) if seen >> q & 1) or "nadie")
        self.log.append(LogEntry(seat, self._A.ACTION_NAMES[a], note))
        for b in range(bazas_before, self._bazas_decided()):
            team = int(self.state[self._L.BAZA_WIN_TEAM + b])
            won = "parda" if team == self._L.BAZA_PARDA else f"la gana el equipo {team} (jugador {int(self.state[self._L.BAZA_WIN_SEAT + b])})"
            self.log.append(LogEntry(-1, f"baza {b + 1}", won))
        if self.done:
            self.log.append(LogEntry(-1, "fin de la mano", self._result_note()))

    def _bazas_decided(self) -> int:
        return sum(int(self.state[self._L.BAZA_WIN_TEAM + b]) != self._L.BAZA_UNDECIDED for b in range(3))

    # -- results ----------------------------------------------------------------------------
    def result(self) -> dict:
        """Chinas won this mano by each team, by source: ``{"pares": (t0, t1), ...}``."""
        c = self.state[self._L.CHINAS : self._L.CHINAS + 6]
        return {src: (int(c[i]), int(c[3 + i])) for i, src in enumerate(self.spec.sources)}

    def _result_note(self) -> str:
        r = self.result()
        return "; ".join(f"{k}: {v[0]}-{v[1]}" for k, v in r.items())

    @property
    def scores(self) -> tuple[int, int]:
        return int(self.state[self._L.SCORE]), int(self.state[self._L.SCORE + 1])

    @property
    def juegos(self) -> tuple[int, int]:
        """Juegos won by each team in the partida."""
        return int(self.state[self._L.JUEGOS]), int(self.state[self._L.JUEGOS + 1])

    @property
    def juego_over(self) -> bool:
        """True when the last mano ended a juego."""
        return self.done and int(self.state[self._L.LAST_JUEGO_WINNER]) >= 0

    @property
    def partida_over(self) -> bool:
        return bool(self.state[self._L.PARTIDA_OVER])

    @property
    def juego_record(self) -> dict[str, object]:
        """The juego's public record (``truque_env.engine.record``): ``manos`` finished in the juego
        in progress, and per kind of word (``raise``, ``accept``, ``refuse``, ``leave``) how often
        each team said one in it: ``{"manos": 2, "raise": (3, 1), ...}``."""
        row = [int(v) for v in self.state[self._L.REC_MANOS : self._L.REC_MANOS + RECORD_SIZE]]
        out: dict[str, object] = {"manos": row[0]}
        for k, kind in enumerate(KIND_NAMES[:REC_KINDS]):
            out[kind] = (row[1 + k], row[1 + REC_KINDS + k])
        return out

    @property
    def dealer(self) -> int:
        return int(self.state[self._L.DEALER])

    @property
    def mano(self) -> int:
        return int(self.state[self._L.MANO_SEAT])

    @property
    def hands(self) -> list[list[int]]:
        h = self.state[self._L.HAND : self._L.HAND + 3 * self.n_players]
        return [[int(c) for c in h[3 * i : 3 * i + 3]] for i in range(self.n_players)]

    @property
    def senas_log(self) -> list[tuple[int, int, int]]:
        out = []
        for i in range(int(self.state[self._L.SENA_LOG_N])):
            w = int(self.state[self._L.SENA_LOG + i])
            out.append((w & 7, (w >> 3) & 15, (w >> 7) & 0xFF))
        return out

    def render(self) -> str:
        """A readable account of the mano so far."""
        lines = [f"{self.spec.title}, {self.team_size} contra {self.team_size}; tanteo {self.scores[0]}-{self.scores[1]}"]
        for seat, h in enumerate(self.hands):
            lines.append(f"  jugador {seat} (equipo {seat % 2}): {hand_str(h)}")
        lines += [f"  {e}" for e in self.log]
        return "\n".join(lines)

