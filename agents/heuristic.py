"""``HeuristicPolicy``: a rule-based truquista for Truque Moteño that reads only what a player sees.

It decides from the observation tensor (``truque_env.traditions.moteno.observation``) and the legal mask,
never from the engine state, so it plays in every interface (vector env, PettingZoo, Gymnasium,
the console). Whatever it prefers, it only ever returns an action whose mask entry is 1.

How it judges a hand (Reglamento del Truque Moteño, cited "Art. x.y"):

* **Pares and flores** (Arts. 5, 9): its own value comes from its *dealt* hand (the ``hand``
  slice shrinks as cards are played; ``played_by[0]`` gives the rest back). Every other player's
  value is a distribution over the hands he may hold: all three-card hands without the cards the
  bot knows are elsewhere, containing the cards that player has played or shown, and, for a
  partner who made a seña, only the hands for which that seña is the honest one (the table of
  señas below). The chance that *its team* shows the best value follows exactly from these
  distributions (ties go to the player closest to mano, Arts. 6.22, 11.6).
* **Truque** (Arts. 13, 14, 16): ``simulate_truque`` (numba) deals the cards it has not seen to
  the other players' remaining slots (a partner's signalled card stays in his hand, a partner
  who signalled "ciega" or "flor" gets nothing from the doses up), then plays the rest of the
  bazas out with the card rules below for everybody, from the bazas already decided
  (``baza_result``) and the cards on the table (``TRUQUE_POWER``); the pardas rules decide. This
  gives P(win the truque) for each card it may play now.
* **Card play**: win the baza cheaply (the lowest card that beats the table and likely holds
  against the rivals still to play), otherwise throw the lowest; never overtake a partner who is
  winning the baza; after winning the first baza lead low and keep the matas and piezas for the
  last; a parda where it wins or saves the truque. With ``lookahead`` the rules' card is played
  unless the simulation finds another clearly better.
* **Stakes**: a bet is worth taking when it raises the chance of winning the juego, estimated by
  a race model of the score (``score``, ``target_falta``: la falta, Art. 6.16, and being close to
  the target make it careful when behind and bold when a win ends the juego).

Señas (ruling 3) are honest: once per mano, at its first chance, with probability ``sena_rate``,
it names its best card in this order: perro (11B), perra (10O), cascabel (11O), espada (1E),
basto (1B), mata de espadas (7E), mata de oros (7O), tres, dos; else "flor" if it holds flor,
else "ciega". Falsos (Art. 17.13) come only from ``bluff_envite`` / ``bluff_truco``.

Parameters (``HeuristicConfig``; ``HeuristicConfig.from_dict`` reads a dict or a TOML table):

========================  =======  =================================================================
field                     default  meaning
========================  =======  =================================================================
sena_rate                 0.9      probability of making its honest seña in a mano (at first chance)
use_partner_senas         True     condition partners' hands on their señas (assumed honest)
pares_bet                 0.62     open an envite de pares when P(team wins the pares) >= this
pares_raise               0.78     revoke (or open with ``envío 3 pares``) from this probability
pares_falta               0.88     send / revoke la falta from this probability (score permitting)
flor_bet                  0.62     open the envite de flores when P(team's flor is best) >= this
flor_raise                0.78     revoke an envite de flores from this probability
flor_falta                0.9      send / revoke la falta with the flores from this probability
hide_reservada            True     keep a flor reservada unsung to play the pares (Arts. 10.14, 10.19)
truco_challenge           0.8      say truco when P(team wins the truque) >= this
truco_raise               0.88     retruco / panueve from this probability
respect                   0.08     subtracted from its win probability per rival bet it answers
                                   (an honest rival bets with good cards)
defer                     0.06     team answers: with partners still to answer, accept only when
                                   this much surer; count each partner who declined before as -defer/2
accept_margin             0.0      extra juego equity an accepted bet must bring over refusing
equity_exponent           1.5      race model: P(win juego) = (nb*e)^g / ((nb*e)^g + na^g), na/nb
                                   the chinas each team still needs, g this exponent
skill_edge                4.0      e in the race model: > 1 when it expects to outplay the rivals
                                   (it then avoids coin flips for the juego)
hold_threshold            0.6      play the cheapest winning card that holds against the rivals still
                                   to play with at least this probability
lookahead                 True     check the rules' card against the simulated truque and play a card
                                   whose odds are better by more than ``lookahead_margin``
lookahead_margin          0.02     (see ``lookahead``)
samples                   200      deals simulated to estimate the truque (``simulate_truque``)
bluff_envite              0.04     per mano, probability of a falso envite (1 par) with weak pares
bluff_truco               0.04     per mano, probability of a falso truco with a weak hand
blind_envite              0.02     blind round: probability of ``envío N pares`` a ciegas (Art. 7)
blind_envite_pares        1        N of that blind envite
blind_truco               0.0      blind round: probability of truco a ciegas (Art. 15)
========================  =======  =================================================================

What it does in each phase: ``blind``: ``paso`` (rarely a blind bet), defers any blind bet it
must answer (``luego te lo digo``, Arts. 7.2, 15.2); ``close``/``answer``: answers pares, truco
and flores bets by the stakes and its win probability, la falta a ciegas with or without its
flor (Art. 12); ``cante``: flor if it holds one (else ``canto pares``); ``flor_round``: sings
any flor it may; ``flor_envite``: bets with a strong flor; ``reservada``: sings when its
reservada likely wins (12.13); ``play``: seña, ``de la mía``, flor, envite, truco, then a card.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, fields
from functools import cache

import numpy as np
from numba import njit

from truque_env.cards import CARD_RANK, NUM_CARDS
from truque_env.engine.rng import mix64_int, splitmix_next
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno import rules as M

# ----------------------------------------------------------------------------------------------
# configuration


@dataclass(frozen=True)
class HeuristicConfig:
    """The parameters of ``HeuristicPolicy`` (see the table in the module docstring)."""

    sena_rate: float = 0.9
    use_partner_senas: bool = True
    pares_bet: float = 0.62
    pares_raise: float = 0.78
    pares_falta: float = 0.88
    flor_bet: float = 0.62
    flor_raise: float = 0.78
    flor_falta: float = 0.9
    hide_reservada: bool = True
    truco_challenge: float = 0.8
    truco_raise: float = 0.88
    respect: float = 0.08
    defer: float = 0.06
    accept_margin: float = 0.0
    equity_exponent: float = 1.5
    skill_edge: float = 4.0
    hold_threshold: float = 0.6
    lookahead: bool = True
    lookahead_margin: float = 0.02
    samples: int = 200
    bluff_envite: float = 0.04
    bluff_truco: float = 0.04
    blind_envite: float = 0.02
    blind_envite_pares: int = 1
    blind_truco: float = 0.0

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(v, (bool, np.bool_)):
                    raise ValueError(f"HeuristicConfig.{f.name} must be true or false, got {v!r}")
            elif f.type in ("int", int):
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                    raise ValueError(f"HeuristicConfig.{f.name} must be an integer, got {v!r}")
            elif isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise ValueError(f"HeuristicConfig.{f.name} must be a number, got {v!r}")
        probs = ("sena_rate", "respect", "defer", "pares_bet", "pares_raise", "pares_falta", "flor_bet", "flor_raise",
                 "flor_falta", "truco_challenge", "truco_raise", "hold_threshold", "bluff_envite",
                 "bluff_truco", "blind_envite", "blind_truco")
        for name in probs:
            if not 0.0 <= float(getattr(self, name)) <= 1.0:
                raise ValueError(f"HeuristicConfig.{name} is a probability 0..1, got {getattr(self, name)!r}")
        if not 1 <= self.samples <= 100_000:
            raise ValueError(f"HeuristicConfig.samples must be 1..100000, got {self.samples!r}")
        if not 1 <= self.blind_envite_pares <= A.MAX_PARES_N:
            raise ValueError(f"HeuristicConfig.blind_envite_pares must be 1..{A.MAX_PARES_N}, got {self.blind_envite_pares!r}")
        if self.equity_exponent <= 0 or self.skill_edge <= 0:
            raise ValueError("HeuristicConfig.equity_exponent and skill_edge must be > 0")

    @classmethod
    def from_dict(cls, data: dict | None) -> HeuristicConfig:
        """Build from a dict (e.g. a TOML table); unknown keys raise ``ValueError`` naming them."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown HeuristicConfig key(s): {', '.join(unknown)}; "
                             f"known keys: {', '.join(sorted(known))}")
        return cls(**data)

    @classmethod
    def from_toml(cls, text: str, table: str | None = "heuristic") -> HeuristicConfig:
        """Build from TOML text: the ``[table]`` table if present (or the top level)."""
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib
        doc = tomllib.loads(text)
        if table is not None and table in doc:
            doc = doc[table]
        return cls.from_dict(doc)

    def to_dict(self) -> dict:
        return asdict(self)


# ----------------------------------------------------------------------------------------------
# tables: every three-card hand with its valuations and honest seña


POWER = M.TRUQUE_POWER  # 1 (cuatros) .. 17 (el perro)
POWER_NB = POWER.copy()  # read by the simulation kernel
N_LEVELS = 18  # power levels 0..17, 0 = "no card"
SENA_CARDS = (M.PERRO, M.PERRA, M.CASCABEL, M.ESPADA, M.BASTO, M.MATA_ESPADAS, M.MATA_OROS)
SENA_TRES, SENA_DOS, SENA_FLOR, SENA_CIEGA = 7, 8, 9, 10
POWER_DOS = int(POWER[11])  # 2C: a partner who signals "ciega" or "flor" holds nothing from here up
TOP_POWER = int(POWER[M.MATA_OROS])  # matas and piezas: the cards kept for the last baza


def honest_sena(cards) -> int:
    """Index in ``SENA_NAMES`` of the honest seña for a dealt hand (its best card, ruling 3)."""
    cards = [int(c) for c in cards]
    for k, c in enumerate(SENA_CARDS):
        if c in cards:
            return k
    ranks = [int(CARD_RANK[c]) for c in cards]
    if 3 in ranks:
        return SENA_TRES
    if 2 in ranks:
        return SENA_DOS
    if len(cards) == 3 and M.flor_value_nb(cards[0], cards[1], cards[2]) > 0:
        return SENA_FLOR
    return SENA_CIEGA


def _build_hands():
    hands = np.array(list(itertools.combinations(range(NUM_CARDS), 3)), dtype=np.int64)
    bits = (np.int64(1) << hands[:, 0]) | (np.int64(1) << hands[:, 1]) | (np.int64(1) << hands[:, 2])
    pares = np.array([M.pares_value_nb(a, b, c) for a, b, c in hands], dtype=np.int64)
    flor = np.array([M.flor_value_nb(a, b, c) for a, b, c in hands], dtype=np.int64)
    sena = np.array([honest_sena(h) for h in hands], dtype=np.int64)
    return hands, bits, pares, flor, sena


HANDS, HAND_BITS, HAND_PARES, HAND_FLOR, HAND_SENA = _build_hands()
V_PARES = int(HAND_PARES.max()) + 1
V_FLOR = int(HAND_FLOR.max()) + 1


def _bits(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << int(c)
    return out


def _seat_pmf(values, size, excluded: int, known: int, sena: int, flor_only: bool):
    """Distribution of ``values`` over the hands a seat may hold (see the module docstring)."""
    counts, n, counts_sena, n_sena = _seat_counts(values, size, HAND_BITS, HAND_FLOR, HAND_SENA, excluded, known,
                                                  sena, flor_only)
    if sena >= 0 and n_sena > 0:  # a seña that contradicts what it saw is ignored
        counts, n = counts_sena, n_sena
    if n == 0:
        return None
    return counts / n


@njit(cache=True)
def _seat_counts(values, size, bits, flor, senas, excluded, known, sena, flor_only):
    """Counts of ``values`` < size over the hands without ``excluded`` cards, with all ``known``
    ones (and a flor if ``flor_only``), and how many hands: all of them, and those whose honest
    seña is ``sena``. One pass instead of numpy masks over the 9,880 hands."""
    counts = np.zeros(size, dtype=np.int64)
    counts_sena = np.zeros(size, dtype=np.int64)
    n = 0
    n_sena = 0
    for h in range(bits.shape[0]):
        b = bits[h]
        if (b & excluded) != 0 or (b & known) != known or (flor_only and flor[h] <= 0):
            continue
        v = values[h]
        n += 1
        if v < size:
            counts[v] += 1
        if senas[h] == sena:
            n_sena += 1
            if v < size:
                counts_sena[v] += 1
    return counts, n, counts_sena, n_sena


def _team_best_prob(entries) -> float:
    """P(the best value belongs to one of ours); ``entries``: (ours, pmf) in order from mano.

    Ties go to the player closest to mano (Arts. 6.22, 11.6): a player beats the ones after him
    on equal values and loses to the ones before him.
    """
    le = [np.cumsum(p) for _, p in entries]
    lt = [c - p for c, (_, p) in zip(le, entries, strict=True)]
    total = 0.0
    for i, (ours, p) in enumerate(entries):
        if not ours:
            continue
        prod = p.copy()
        for j in range(len(entries)):
            if j != i:
                prod *= lt[j] if j < i else le[j]
        total += float(prod.sum())
    return total


def _point(value: int, size: int) -> np.ndarray:
    p = np.zeros(size)
    p[min(int(value), size - 1)] = 1.0
    return p


@cache
def _decided(res: str):
    """Truque result for our team from baza outcomes W/L/P (Arts. 13.10, 13.11, 16): 1, 0, 0.5, None."""
    if res.count("W") >= 2:
        return 1.0
    if res.count("L") >= 2:
        return 0.0
    if len(res) >= 2:
        a, b = res[0], res[1]
        if a != "P" and b == "P":
            return 1.0 if a == "W" else 0.0
        if a == "P" and b != "P":
            return 1.0 if b == "W" else 0.0
    if len(res) == 3:
        if res[2] != "P":
            return 1.0 if res[2] == "W" else 0.0
        if res[0] != "P":
            return 1.0 if res[0] == "W" else 0.0
        return 0.5  # pardas the three: by the mano (16.5), either team
    return None


# ----------------------------------------------------------------------------------------------
# the observation, read once per decision

PH_NAMES = ("blind", "close", "cante", "play", "flor_round", "flor_envite", "answer", "done", "reservada")
EX_NONE, EX_PARES, EX_TRUCO, EX_FLORES, EX_FALTA = range(5)
ANS_NONE, ANS_LUEGO, ANS_NO, ANS_QUIERO, ANS_RAISE = range(5)
F_BARAJA, F_NO_VALE, F_BET_PARES, F_CHALLENGED, F_SANG, F_FIRST_ROUND, F_DE_LA_MIA = range(7)


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


def _span(name: str, a: int = 0, b: int | None = None) -> slice:
    """Entries a:b of slice ``name`` (flattened) in the list of the small fields."""
    off = _SLICE_OF[name][0] - _O_FIELDS
    return slice(off + a, off + (_SLICE_OF[name][1] - _SLICE_OF[name][0] if b is None else b))


_S_PHASE, _S_TEAM_SIZE, _S_POSITION, _S_BAZA = (_span(k) for k in ("phase", "team_size", "position", "baza"))
_S_BARAJA, _S_NO_VALE, _S_SANG = (_span("seat_flags", 8 * f, 8 * f + 8) for f in (F_BARAJA, F_NO_VALE, F_SANG))
_S_SCORE, _S_TARGET_FALTA = _span("score"), _span("target_falta")
_S_EX_KIND, _S_EX_STANDING, _S_EX_BLIND = _span("exchange", 0, 5), _span("exchange", 6, 11), _span("exchange", 19, 20)


def _onehot_list(seg: list) -> int:
    """``_onehot`` of a list: the index of the first maximum, -1 if that is 0."""
    m = max(seg)
    return seg.index(m) if m else -1


class _Slices(dict):
    """name -> the observation's slice, reshaped; made on first use (most are never read)."""

    def __init__(self, obs: np.ndarray):
        super().__init__()
        self.obs = obs

    def __missing__(self, name: str) -> np.ndarray:
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
    def pares_stake_chinas(self, which: int = 5) -> int:
        """The stake (which=5) or previous stake (which=6) of the envite de pares, in chinas."""
        v = int(self.s["pares"][which])
        return self.falta if v == 16 else 2 * v

    def flor_stake_chinas(self, which: int = 8) -> int:
        v = int(self.s["flor"][which])
        return self.falta if v == 11 else 3 * v

    def truco_level(self) -> int:
        return max(0, _onehot(self.s["truco"][5:9]))

    def truco_state(self) -> int:
        return _onehot(self.s["truco"][0:5])

    def pares_state(self) -> int:
        return _onehot(self.s["pares"][0:5])


# ----------------------------------------------------------------------------------------------
# the policy


class HeuristicPolicy:
    """A rule-based player; ``act(observation, action_mask) -> int`` (see the module docstring)."""

    name = "heuristic"
    # An internal error raises (the default: a bug must not pass as a move); debug = False falls
    # back to a safe action instead and counts it in ``internal_errors``.
    debug = True

    def __init__(self, config: HeuristicConfig | dict | None = None, seed: int | None = 0):
        if config is None:
            config = HeuristicConfig()
        elif isinstance(config, dict):
            config = HeuristicConfig.from_dict(config)
        self.cfg = config
        self.rng = np.random.default_rng(seed)
        self._salt = int(self.rng.integers(1 << 62))
        self.internal_errors = 0

    # -- the interface -----------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask)
        if not (mask > 0).any():
            raise ValueError("no legal action in the mask")
        try:
            a = self._decide(View(observation), mask)
        except Exception:  # never let a reading mistake become an illegal move
            if self.debug:
                raise
            self.internal_errors += 1
            a = -1
        if a is None or not 0 <= a < mask.shape[0] or mask[a] == 0:
            a = self._fallback(mask)
        return int(a)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return np.array([self.act(o, m) for o, m in zip(observations, action_masks, strict=True)],
                        dtype=np.int64)

    @staticmethod
    def _fallback(mask) -> int:
        """A safe legal action: pass, refuse, sing pares, the lowest card; never leave the mano."""
        for a in (A.PASO, A.CANTO_PARES, A.NO_QUIERO, A.QUIERO):
            if mask[a]:
                return a
        cards = [c for c in range(NUM_CARDS) if mask[A.PLAY_BASE + c]]
        if cards:
            return A.PLAY_BASE + min(cards, key=lambda c: POWER[c])
        legal = [a for a in np.flatnonzero(mask) if a not in (A.BARAJA, A.NO_VALE) and a < A.SENA_BASE]
        if legal:
            return int(legal[0])
        return int(np.flatnonzero(mask)[0])

    # -- per-mano coins ----------------------------------------------------------------------
    def _coin(self, v: View, purpose: int) -> float:
        """A uniform draw fixed for this player's mano (same hand, seat and score), per purpose."""
        key = _bits(v.dealt)
        key = key * 131 + v.position * 17 + v.n
        key = key * 257 + v.mine * 101 + v.theirs
        key = key ^ (int(v.s["juegos"][0]) << 50) ^ (int(v.s["juegos"][1]) << 54)
        h = mix64_int(self._salt ^ mix64_int(key * 8 + purpose))
        return (h >> 11) / float(1 << 53)

    # -- dispatch ------------------------------------------------------------------------------
    def _decide(self, v: View, mask) -> int | None:
        if v.phase == "blind":
            return self._blind(v, mask)
        sena = self._sena(v, mask)
        if sena is not None:
            return sena
        if v.phase == "answer":
            return self._answer(v, mask)
        if v.phase == "cante":
            return self._cante(v, mask)
        if v.phase == "flor_round":
            return self._flor_round(v, mask)
        if v.phase == "flor_envite":
            return self._flor_envite(v, mask)
        if v.phase == "reservada":
            return self._reservada(v, mask)
        if v.phase == "play":
            return self._play(v, mask)
        return None

    # -- juego equity --------------------------------------------------------------------------
    def _equity(self, v: View, mine: int, theirs: int) -> float:
        """P(we win the juego) at this score: a race model (see the parameter table)."""
        na, nb = v.target - mine, v.target - theirs
        if na <= 0:
            return 1.0
        if nb <= 0:
            return 0.0
        g = self.cfg.equity_exponent
        x = (nb * self.cfg.skill_edge) ** g
        return x / (x + na**g)

    def _eq_lottery(self, v: View, outcomes) -> float:
        """Expected equity of ``[(prob, our chinas, their chinas), ...]``."""
        return sum(p * self._equity(v, v.mine + g, v.theirs + t) for p, g, t in outcomes)

    def _eq_bet(self, v: View, p: float, stake: int) -> float:
        """Equity of a bet of ``stake`` chinas accepted, won with probability ``p``."""
        return self._eq_lottery(v, [(p, stake, 0), (1 - p, 0, stake)])

    # -- estimates ---------------------------------------------------------------------------
    def _excluded_for(self, v: View, r: int) -> int:
        """Cards seat r cannot hold: mine and every card known to be elsewhere."""
        out = _bits(v.dealt)
        for q in range(1, v.n):
            if q != r:
                out |= _bits(v.known_cards(q))
        return out

    def _value_entries(self, v: View, kind: str, seats):
        """(ours, pmf) per seat in ``seats`` (ordered from mano) of pares or flor values."""
        values, size = (HAND_PARES, V_PARES) if kind == "pares" else (HAND_FLOR, V_FLOR)
        mine = v.my_pares() if kind == "pares" else v.my_flor()
        entries = []
        cache = {}
        for r in seats:
            if r == 0:
                entries.append((True, _point(mine, size)))
                continue
            sena = v.partner_sena(r) if (v.ours(r) and self.cfg.use_partner_senas) else -1
            known = _bits(v.known_cards(r))
            excluded = self._excluded_for(v, r)
            key = (excluded, known, sena)
            if key not in cache:
                pmf = _seat_pmf(values, size, excluded, known, sena, kind == "flor")
                cache[key] = pmf if pmf is not None else np.full(size, 1.0 / size)
            entries.append((v.ours(r), cache[key]))
        return entries

    def pares_prob(self, v: View) -> float:
        """P(a player of my team shows the best pares), among the players still in the mano."""
        seats = [r for r in v.order_from_mano() if v.in_mano(r)]
        return _team_best_prob(self._value_entries(v, "pares", seats))

    def flor_prob(self, v: View) -> float:
        """P(my team's best sung flor beats the rivals' sung flores); I count as a singer."""
        seats = [r for r in v.order_from_mano() if v.in_mano(r) and (r == 0 or v.sang(r))]
        if not any(not v.ours(r) for r in seats):
            return 1.0
        return _team_best_prob(self._value_entries(v, "flor", seats))

    def flor_prob_of_seat(self, v: View, r: int) -> float:
        """P(relative seat r holds flor) from what the bot knows."""
        excluded = self._excluded_for(v, r)
        pmf = _seat_pmf(HAND_FLOR, V_FLOR, excluded, _bits(v.known_cards(r)), -1, False)
        return 0.0 if pmf is None else float(1.0 - pmf[0])

    def _unseen_cards(self, v: View):
        if "unseen" not in v.cache:
            v.cache["unseen"] = self._read_unseen_cards(v)
        return list(v.cache["unseen"])  # a copy: callers may keep or change it

    @staticmethod
    def _read_unseen_cards(v: View):
        seen = set(v.dealt)
        for r in range(1, v.n):
            seen.update(v.known_cards(r))
        return [c for c in range(NUM_CARDS) if c not in seen]

    @staticmethod
    def _level_cdf(cards) -> np.ndarray:
        """P(power <= x) for x = 0..17 of a card drawn from ``cards``."""
        if not len(cards):
            return np.ones(N_LEVELS)
        counts = np.bincount(POWER[np.asarray(cards, dtype=np.int64)], minlength=N_LEVELS)[:N_LEVELS]
        return np.cumsum(counts) / counts.sum()

    def truco_prob(self, v: View) -> float:
        """P(my team wins the truque) from here, by simulation (see ``simulate_truque``)."""
        if "truco" not in v.cache:
            d = _decided(v.baza_results())
            v.cache["truco"] = d if d is not None else max(self.truco_by_card(v).values())
        return v.cache["truco"]

    def truco_by_card(self, v: View) -> dict:
        """P(my team wins the truque) for each card I may play now (key -1: I have played here)."""
        if "truco_by_card" in v.cache:
            return v.cache["truco_by_card"]
        n = v.n
        # per relative seat, as lists (numpy item writes are slow), made arrays for the kernel
        left = [0] * 8
        in_truque = [0] * 8
        table = [-1] * 8
        known = [-1] * 8
        weak = [0] * 8
        unseen = self._unseen_cards(v)
        for r in range(n):
            in_truque[r] = v.in_truque(r)
            left[r] = len(v.hand) if r == 0 else 3 - len(v.played_by(r))
            table[r] = v.card_in_baza(r, v.baza)
            if r > 0 and v.ours(r) and self.cfg.use_partner_senas:
                sena = v.partner_sena(r)
                if 0 <= sena < len(SENA_CARDS) and SENA_CARDS[sena] in unseen:
                    known[r] = SENA_CARDS[sena]
                weak[r] = sena in (SENA_FLOR, SENA_CIEGA)
        held = set(known)
        pool = np.array([c for c in unseen if c not in held], dtype=np.int64)
        results = [-1] * 3
        for b, ch in enumerate(v.baza_results()):
            results[b] = "WLP".index(ch)
        turn = self._turn_holder(v)
        mano = (n - v.position) % n
        seed = int(self.rng.integers(1 << 62))
        hand = np.array(sorted(v.hand), dtype=np.int64)
        candidates = [-1] if table[0] >= 0 or not v.hand else list(v.hand)
        # the same deals for every card (common random numbers), simulated in one call
        i64 = np.int64
        odds = simulate_truque_cards(n, hand, np.array(left, dtype=i64), np.array(in_truque, dtype=i64),
                                     np.array(table, dtype=i64), np.array(known, dtype=i64),
                                     np.array(weak, dtype=i64), pool, np.array(results, dtype=i64), v.baza,
                                     turn, mano, np.array(candidates, dtype=i64), self.cfg.samples, seed)
        out = {c: float(p) for c, p in zip(candidates, odds, strict=True)}
        v.cache["truco_by_card"] = out
        return out

    @staticmethod
    def _turn_holder(v: View) -> int:
        """Relative seat to play next in the current baza (me, unless I am answering a bet)."""
        if v.phase != "answer":
            return 0
        lead = v.leader(v.baza)
        for k in range(v.n):
            r = (lead + k) % v.n
            if v.in_truque(r) and v.card_in_baza(r, v.baza) < 0:
                return r
        return 0

    # -- señas ---------------------------------------------------------------------------------
    def _sena(self, v: View, mask) -> int | None:
        """Honest seña, once per mano, at the first chance, with probability ``sena_rate``."""
        if len(v.dealt) != 3 or v.my_sena_count() > 0:
            return None
        a = A.SENA_BASE + honest_sena(v.dealt)
        if not mask[a] or int(v.s["senas_left"][0]) <= 0:
            return None
        if self._coin(v, 1) >= self.cfg.sena_rate:
            return None
        return a

    # -- blind round ---------------------------------------------------------------------------
    def _blind(self, v: View, mask) -> int:
        if mask[A.LUEGO]:
            return A.LUEGO  # 7.2, 15.2: answer once the cards are seen
        if v.ex_kind not in (EX_NONE, -1) and mask[A.PASO]:
            return A.PASO  # a partner already answered (or deferred) this blind bet
        if v.ex_kind not in (EX_NONE, -1):
            return A.NO_QUIERO if mask[A.NO_QUIERO] else None
        u = self.rng.random()
        cfg = self.cfg
        envite = A.PARES_BASE + cfg.blind_envite_pares - 1
        if u < cfg.blind_envite and mask[envite]:
            return envite
        if u < cfg.blind_envite + cfg.blind_truco and mask[A.TRUCO]:
            return A.TRUCO
        return A.PASO

    # -- answers -------------------------------------------------------------------------------
    def _answer(self, v: View, mask) -> int | None:
        if v.ex_blind and mask[A.LUEGO]:
            return A.LUEGO
        if v.ex_blind and mask[A.PASO]:
            return A.PASO
        if v.ex_kind == EX_PARES:
            return self._answer_pares(v, mask)
        if v.ex_kind == EX_TRUCO:
            return self._answer_truco(v, mask)
        if v.ex_kind == EX_FLORES:
            return self._answer_flores(v, mask)
        if v.ex_kind == EX_FALTA:
            return self._answer_falta_ciegas(v, mask)
        return None

    @staticmethod
    def _give(mask, choice: int, rank: int, standing: int) -> int:
        """Say ``choice`` only if it is larger than the standing answer (17.8), else ``paso``."""
        if standing > ANS_NONE and rank <= standing and mask[A.PASO]:
            return A.PASO
        if mask[choice]:
            return choice
        return A.PASO if mask[A.PASO] else choice

    def _raise_options(self, mask, base: int, count: int, unit: int, v: View):
        """Legal raises as (action, stake in chinas): N pares/flores and la falta."""
        out = [(base + k, min(unit * (k + 1), v.falta)) for k in range(count) if mask[base + k]]
        if mask[A.FALTA]:
            out.append((A.FALTA, v.falta))
        return out

    def _choose_stake(self, v: View, p: float, options, gates) -> tuple[int, float]:
        """Best equity among raise ``options`` [(action, chinas)], each gated by a probability."""
        best, best_eq = None, -1.0
        for action, chinas in options:
            if p < gates(action, chinas):
                continue
            eq = self._eq_bet(v, p, chinas)
            if eq > best_eq:
                best, best_eq = action, eq
        return best, best_eq

    def _pares_gate(self, action, chinas):
        cfg = self.cfg
        return cfg.pares_falta if action == A.FALTA else cfg.pares_raise

    def _team_shift(self, v: View, raiser: int, singers_only: bool = False) -> float:
        """Shift of my win probability for answering as one of several (ruling 4, 17.8).

        Any member's acceptance stands, so a member with partners still to answer accepts only
        clearly (``defer``), and a member whose partners declined before him counts their hands
        as weaker (``defer / 2`` each).
        """
        if raiser < 0 or v.team_size == 1:
            return 0.0
        members = [r for r in range(0, v.n, 2)
                   if v.in_mano(r) and (r == 0 or not singers_only or v.sang(r))]
        mine = (0 - raiser) % v.n
        after = sum(1 for r in members if (r - raiser) % v.n > mine)
        before = sum(1 for r in members if (r - raiser) % v.n < mine)
        shift = -self.cfg.defer if after else 0.0
        if v.ex_standing == ANS_NO:
            shift -= self.cfg.defer / 2 * before
        return shift

    def _answer_pares(self, v: View, mask) -> int:
        p = self.pares_prob(v)
        prev = v.pares_stake_chinas(6)
        p_eff = p - self.cfg.respect * (2 if prev else 1)
        p_eff = min(1.0, max(0.0, p_eff + self._team_shift(v, _onehot(v.s["pares"][7:15]))))
        stake = min(v.pares_stake_chinas(5), v.falta)
        refuse_pay = min(prev, v.falta) if prev else 1
        eq_accept = self._eq_bet(v, p_eff, stake)
        eq_refuse = self._eq_lottery(v, [(1.0, 0, refuse_pay)])
        raises = self._raise_options(mask, A.PARES_BASE, A.MAX_PARES_N, 2, v)
        # a sensible revoque: the first one at least doubling the stake, or la falta
        double = [o for o in raises if o[0] != A.FALTA and o[1] >= 2 * stake][:1]
        options = double + [o for o in raises if o[0] == A.FALTA]
        raise_a, eq_raise = self._choose_stake(v, p_eff, options, self._pares_gate)
        standing = v.ex_standing
        if raise_a is not None and eq_raise > eq_accept:
            return self._give(mask, raise_a, ANS_RAISE, standing)
        if eq_accept >= eq_refuse + self.cfg.accept_margin:
            return self._give(mask, A.QUIERO, ANS_QUIERO, standing)
        return self._give(mask, A.NO_QUIERO, ANS_NO, standing)

    def _answer_truco(self, v: View, mask) -> int:
        p = self.truco_prob(v) - self.cfg.respect + self._team_shift(v, _onehot(v.s["truco"][13:21]))
        p = min(1.0, max(0.0, p))
        level = v.truco_level()
        stake = 3 * level
        refuse_pay = {1: 1, 2: 3, 3: 6}.get(level, 1)
        eq_accept = self._eq_bet(v, p, stake)
        eq_refuse = self._eq_lottery(v, [(1.0, 0, refuse_pay)])
        standing = v.ex_standing
        nxt = A.TRUCO + level  # retruco after truco, panueve after retruco
        if level < 3 and mask[nxt] and p >= self.cfg.truco_raise:
            return self._give(mask, nxt, ANS_RAISE, standing)
        if eq_accept >= eq_refuse + self.cfg.accept_margin:
            return self._give(mask, A.QUIERO, ANS_QUIERO, standing)
        return self._give(mask, A.NO_QUIERO, ANS_NO, standing)

    def _flores_counts(self, v: View):
        us = sum(1 for r in range(0, v.n, 2) if v.sang(r) and v.in_mano(r))
        them = sum(1 for r in range(1, v.n, 2) if v.sang(r) and v.in_mano(r))
        return max(us, 1), them

    def _flor_gate(self, action, chinas):
        cfg = self.cfg
        return cfg.flor_falta if action == A.FALTA else cfg.flor_raise

    def _answer_flores(self, v: View, mask) -> int:
        p = self.flor_prob(v) - self.cfg.respect + self._team_shift(v, _onehot(v.s["flor"][10:18]), True)
        p = min(1.0, max(0.0, p))
        us, them = self._flores_counts(v)
        table = 3 * (us + them)
        stake = min(v.flor_stake_chinas(8), v.falta)
        prev = v.flor_stake_chinas(9)
        # refusing: 3 per flor they sang + 1 de derribe (11.5), or the revoque's pay (11.9)
        refuse = [(1.0, 0, 3 * them + 1)] if not prev else [(1.0, 0, table + prev)]
        eq_refuse = self._eq_lottery(v, refuse)
        eq_accept = self._eq_lottery(v, [(p, table + stake, 0), (1 - p, 0, table + stake)])
        options = self._raise_options(mask, A.FLORES_BASE, A.MAX_FLORES_N, 3, v)
        options = [o for o in options if o[0] != A.FALTA][:1] + [o for o in options if o[0] == A.FALTA]
        best_raise, best_eq = None, eq_accept
        for action, chinas in options:
            if p < self._flor_gate(action, chinas):
                continue
            eq = self._eq_lottery(v, [(p, table + chinas, 0), (1 - p, 0, table + chinas)])
            if eq > best_eq:
                best_raise, best_eq = action, eq
        standing = v.ex_standing
        if best_raise is not None:
            return self._give(mask, best_raise, ANS_RAISE, standing)
        if eq_accept >= eq_refuse + self.cfg.accept_margin:
            return self._give(mask, A.QUIERO, ANS_QUIERO, standing)
        return self._give(mask, A.NO_QUIERO, ANS_NO, standing)

    def _answer_falta_ciegas(self, v: View, mask) -> int:
        """Answer la falta a ciegas with the cards (Art. 12.5-12.7; 18.2 d, l-p)."""
        F = v.falta
        rivals = [r for r in range(1, v.n, 2) if v.in_mano(r)]
        p_no_flor = 1.0
        for r in rivals:
            p_no_flor *= 1.0 - self.flor_prob_of_seat(v, r)
        p_flor_a = 1.0 - p_no_flor  # roughly one flor when they have any
        prev = v.pares_stake_chinas(6)
        refuse_pay = min(prev, F) if prev else 1
        p_pares = self.pares_prob(v)
        options = {
            A.NO_QUIERO: [(1.0, 0, refuse_pay)],
            # 18.2 d / p; a reservada is sung at the end against their flor (12.13)
            A.QUIERO: [(p_no_flor * p_pares, F, 0), (p_no_flor * (1 - p_pares), 0, F)]
            + ([(p_flor_a, 3 * 2 + F, 0)] if v.my_reservada() else [(p_flor_a, 0, 3)]),
        }
        if v.my_flor() > 0 and not v.my_reservada():
            pf = self._flor_vs_rivals(v, rivals)
            options[A.CON_FLOR_NO_QUIERO] = [(p_no_flor, 3, 0), (p_flor_a, 0, 4)]  # 18.2 n, l
            options[A.CON_FLOR_QUIERO] = [(p_no_flor, 3, 0), (p_flor_a * pf, 6 + F, 0),
                                          (p_flor_a * (1 - pf), 0, 6 + F)]  # 18.2 o, m
        rank = {A.NO_QUIERO: 1, A.CON_FLOR_NO_QUIERO: 2, A.QUIERO: 3, A.CON_FLOR_QUIERO: 4}
        scored = sorted(((self._eq_lottery(v, o), rank[a], a) for a, o in options.items()), reverse=True)
        standing = v.ex_standing
        for _, _, a in scored:
            if mask[a]:
                if standing == ANS_QUIERO and a == A.QUIERO:
                    return A.PASO if mask[A.PASO] else a
                if standing == ANS_NO and a == A.NO_QUIERO:
                    return A.PASO if mask[A.PASO] else a
                return a
        return A.PASO if mask[A.PASO] else None

    def _flor_vs_rivals(self, v: View, rivals) -> float:
        """P(my flor beats one rival flor), rivals assumed to hold exactly one."""
        seats = [r for r in v.order_from_mano() if r == 0 or r == rivals[0]] if rivals else [0]
        if len(seats) < 2:
            return 1.0
        entries = self._value_entries(v, "flor", seats)
        return _team_best_prob(entries)

    # -- cante, flores -------------------------------------------------------------------------
    def _wants_to_sing(self, v: View) -> bool:
        if v.my_flor() <= 0:
            return False
        return not (v.my_reservada() and self.cfg.hide_reservada)

    def _cante(self, v: View, mask) -> int:
        if mask[A.FLOR] and self._wants_to_sing(v):
            return A.FLOR
        return A.CANTO_PARES

    def _flor_round(self, v: View, mask) -> int:
        # somebody sang: the pares are void (10.5), so a reservada is sung too (10.16)
        if mask[A.FLOR] and v.my_flor() > 0:
            return A.FLOR
        return A.PASO

    def _flor_envite(self, v: View, mask) -> int:
        """Speak in the envite de flores (Art. 11.3): bet with a strong flor, else pass."""
        if not v.sang(0):
            return A.PASO
        p = self.flor_prob(v)
        us, them = self._flores_counts(v)
        table = 3 * (us + them)
        cfg = self.cfg
        options = [(A.FLORES_BASE, 3)]
        if p >= cfg.flor_raise:
            options.append((A.FLORES_BASE + 1, 6))
        if p >= cfg.flor_falta:
            options.append((A.FALTA, v.falta))
        if p < cfg.flor_bet:
            return A.PASO
        best, best_eq = A.PASO, -1.0
        for a, chinas in options:
            if not mask[a]:
                continue
            eq = self._eq_lottery(v, [(p, table + min(chinas, v.falta), 0), (1 - p, 0, table + min(chinas, v.falta))])
            if eq > best_eq:
                best, best_eq = a, eq
        return best

    def _reservada(self, v: View, mask) -> int:
        """12.13: sing the reservada at the end if it likely beats their flor."""
        rivals = [r for r in range(1, v.n, 2) if v.in_mano(r)]
        pf = self._flor_vs_rivals(v, rivals) if rivals else 1.0
        F = v.falta
        eq_sing = self._eq_lottery(v, [(pf, 6 + F, 0), (1 - pf, 0, 6 + F)])
        eq_pass = self._eq_lottery(v, [(1.0, 0, 3)])
        return A.FLOR if eq_sing > eq_pass and mask[A.FLOR] else A.PASO

    # -- play ----------------------------------------------------------------------------------
    def _play(self, v: View, mask) -> int | None:
        if mask[A.DE_LA_MIA]:
            return A.DE_LA_MIA  # 12.8: declare the flor against "con flor, no quiero"
        if mask[A.FLOR] and self._sing_in_play(v):
            return A.FLOR
        envite = self._envite(v, mask)
        if envite is not None:
            return envite
        challenge = self._challenge(v, mask)
        if challenge is not None:
            return challenge
        cards = [c for c in v.hand if mask[A.PLAY_BASE + c]]
        if not cards:
            return A.PASO if mask[A.PASO] else None  # 14.10: the truque is over, cards face up
        return A.PLAY_BASE + self._choose_card(v, cards)

    def _sing_in_play(self, v: View) -> bool:
        """Sing unless hiding a reservada, or unless a pares bet we are winning is worth more."""
        if not self._wants_to_sing(v):
            return False
        if v.pares_state() == 3:  # an accepted envite: singing voids it (6.8, 10.5)
            p = self.pares_prob(v)
            stake = min(v.pares_stake_chinas(5), v.falta)
            return 3 >= (2 * p - 1) * stake
        return True

    def _envite(self, v: View, mask) -> int | None:
        """Open the envite de pares (Art. 6) by P(team wins), a falso now and then (17.13)."""
        if not mask[A.PARES_BASE]:
            return None
        if v.my_flor() > 0 and self._wants_to_sing(v) and mask[A.FLOR]:
            return None
        p = self.pares_prob(v)
        cfg = self.cfg
        if p < cfg.pares_bet:
            if self._coin(v, 2) < cfg.bluff_envite:
                return A.PARES_BASE  # envío 1 par, de falso
            return None
        options = [(A.PARES_BASE, 2)]
        if p >= cfg.pares_raise:
            options.append((A.PARES_BASE + 2, min(6, v.falta)))
        if p >= cfg.pares_falta and mask[A.FALTA]:
            options.append((A.FALTA, v.falta))
        best, best_eq = None, -1.0
        for a, chinas in options:
            eq = self._eq_bet(v, p, chinas)
            if mask[a] and eq > best_eq:
                best, best_eq = a, eq
        return best

    def _challenge(self, v: View, mask) -> int | None:
        """Truco / retruco / panueve (Art. 14) when the truque looks won, or de falso."""
        action = next((a for a in (A.TRUCO, A.RETRUCO, A.PANUEVE) if mask[a]), None)
        if action is None:
            return None
        if action == A.TRUCO and v.baza == 0 and self._pares_flor_pending(v, mask):
            return None  # 6.13, 10.12: talk pares and flores before challenging
        p = self.truco_prob(v)
        if action == A.TRUCO:
            if p >= self.cfg.truco_challenge:
                return action
            if p < 0.5 and self._coin(v, 3) < self.cfg.bluff_truco:
                return action
            return None
        return action if p >= self.cfg.truco_raise else None

    def _pares_flor_pending(self, v: View, mask) -> bool:
        """True while I could still sing flor or envidar later in this baza."""
        return bool(mask[A.FLOR] and v.my_flor() > 0)

    # -- card play -----------------------------------------------------------------------------
    def _choose_card(self, v: View, cards) -> int:
        """The rules' card, unless the look-ahead finds a card clearly better for the truque."""
        rule = self._rule_card(v, cards)
        if len(cards) == 1 or not self.cfg.lookahead:
            return rule
        odds = self.truco_by_card(v)
        best = max(odds[c] for c in cards)
        if best <= odds[rule] + self.cfg.lookahead_margin:
            return rule
        good = [c for c in cards if odds[c] >= best - self.cfg.lookahead_margin]
        return min(good, key=lambda c: (POWER[c], c))

    def _rule_card(self, v: View, cards) -> int:
        """Win cheaply, else throw the lowest; don't overtake a partner; keep the top for last."""
        cards = sorted(cards, key=lambda c: (POWER[c], c))
        if len(cards) == 1:
            return cards[0]
        b = v.baza
        ours_best, theirs_best = 0, 0
        rivals_after, partners_after = [], 0
        for r in range(1, v.n):
            if not v.in_truque(r):
                continue
            c = v.card_in_baza(r, b)
            if c >= 0:
                if v.ours(r):
                    ours_best = max(ours_best, int(POWER[c]))
                else:
                    theirs_best = max(theirs_best, int(POWER[c]))
            elif v.ours(r):
                partners_after += 1
            else:
                rivals_after.append(3 - len(v.played_by(r)))
        cdf = self._level_cdf(self._unseen_cards(v))

        def holds(power: int) -> float:
            p = 1.0
            for left in rivals_after:
                p *= cdf[power] ** left
            return p

        res = v.baza_results()
        lowest = cards[0]
        if ours_best > theirs_best:
            return lowest  # a partner is winning the baza: don't overtake him
        beating = [c for c in cards if POWER[c] > theirs_best]
        if theirs_best == 0 and ours_best == 0:  # I lead the baza
            return self._lead(v, cards, res, holds)
        if beating:
            for c in beating:
                if holds(int(POWER[c])) >= self.cfg.hold_threshold:
                    return c
            if not rivals_after:
                return beating[0]
            if partners_after == 0:
                return beating[-1]  # the best chance of the team, it is on me
            return lowest
        tying = [c for c in cards if POWER[c] == theirs_best]
        useless_parda = res[:1] == "L" and b >= 1  # a parda now leaves the truque to them (13.11)
        if tying and partners_after == 0 and not useless_parda:
            return tying[0]  # parda rather than a lost baza (after winning the first: a win)
        return lowest

    def _lead(self, v: View, cards, res: str, holds) -> int:
        """The first card of a baza: low after winning the first (the top waits for the last)."""
        if v.baza == 1 and res == "W":
            return cards[0]
        if v.baza == 1 and res in ("L", "P"):
            return cards[-1]  # this baza decides (or must be won)
        for c in cards:  # the first baza: the cheapest card likely to hold
            if POWER[c] < TOP_POWER and holds(int(POWER[c])) >= self.cfg.hold_threshold:
                return c
        return cards[-1] if holds(int(POWER[cards[-1]])) >= self.cfg.hold_threshold else cards[0]



# ----------------------------------------------------------------------------------------------
# the truque by simulation


@njit(cache=True)
def _result_of(res, nres):
    """1 won, 0 lost, 2 all pardas (by the mano), -1 undecided; res: 0 W, 1 L, 2 P (13.10, 16)."""
    w = 0
    lo = 0
    for i in range(nres):
        if res[i] == 0:
            w += 1
        elif res[i] == 1:
            lo += 1
    if w >= 2:
        return 1
    if lo >= 2:
        return 0
    if nres >= 2:
        if res[0] != 2 and res[1] == 2:
            return 1 if res[0] == 0 else 0
        if res[0] == 2 and res[1] != 2:
            return 1 if res[1] == 0 else 0
    if nres == 3:
        if res[2] != 2:
            return 1 if res[2] == 0 else 0
        if res[0] != 2:
            return 1 if res[0] == 0 else 0
        return 2
    return -1


@njit(cache=True)
def _pick(hp, r, cnt, team_best, rival_best):
    """Index in ``hp[r]`` (the powers of seat r's cards) of the card a simulated player plays: a
    partner winning, the lowest; else the cheapest card that beats the rivals; else the lowest.
    Leading: the highest."""
    lo = 0
    hi = 0
    for i in range(1, cnt):
        if hp[r, i] < hp[r, lo]:
            lo = i
        if hp[r, i] > hp[r, hi]:
            hi = i
    if team_best == 0 and rival_best == 0:
        return hi
    if team_best > rival_best:
        return lo
    best = -1
    for i in range(cnt):
        p = hp[r, i]
        if p > rival_best and (best < 0 or p < hp[r, best]):
            best = i
    return best if best >= 0 else lo


# exact ``z % d`` for the shuffle's small d (2..40) without a 64-bit division, the deal's main
# cost: z = hi * 2**32 + lo, and each part < 2**32 is reduced in float64, where every step is
# exact (see ``_fmod_small``); tests/test_heuristic_golden.py checks it against ``%``.
_MOD_D = np.arange(NUM_CARDS + 1, dtype=np.float64)
_MOD_INV = 1.0 / np.maximum(_MOD_D, 1.0)
_MOD_2_32 = np.array([float((1 << 32) % max(d, 1)) for d in range(NUM_CARDS + 1)])


@njit(cache=True)
def _fmod_small(x, d, inv):
    """x mod d for integers 0 <= x < 2**32, 1 <= d <= 40 held exactly in float64: x * inv is
    off the true quotient by < 2**-20 (far below 1/d), so floor() errs by at most one (when
    x / d is an integer), which the correction undoes; q * d and x - q * d are exact."""
    q = np.floor(x * inv)
    r = x - q * d
    if r < 0.0:
        r += d
    elif r >= d:
        r -= d
    return r


@njit(cache=True)
def _mod_small(z, d):
    """``z % d`` (uint64 z, 1 <= d <= NUM_CARDS) as an int64, exactly; see ``_fmod_small``."""
    df = _MOD_D[d]
    inv = _MOD_INV[d]
    hi = _fmod_small(float(z >> np.uint64(32)), df, inv)
    lo = _fmod_small(float(z & np.uint64(0xFFFFFFFF)), df, inv)
    return np.int64(_fmod_small(hi * _MOD_2_32[d] + lo, df, inv))


@njit(cache=True)
def _deal(n, my_hand, left, known, weak, deck, state, hands, cnt, power):
    """One deal of ``simulate_truque``: shuffle ``deck`` in place (from the order the last deal
    left) and fill ``hands``/``cnt``; returns the new RNG state. Independent of my first card."""
    m = deck.shape[0]
    for i in range(m - 1, 0, -1):
        state, z = splitmix_next(state)
        j = _mod_small(z, i + 1) if i < NUM_CARDS else np.int64(z % np.uint64(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    pos = 0
    for r in range(n):
        cnt[r] = 0
        if r == 0:
            for i in range(my_hand.shape[0]):
                hands[0, i] = my_hand[i]
            cnt[0] = my_hand.shape[0]
            continue
        need = left[r]
        if known[r] >= 0 and need > 0:
            hands[r, 0] = known[r]
            cnt[r] = 1
        while cnt[r] < need and pos < m:
            if weak[r] == 1:  # bring a card below the doses to the front, if any is left
                for j in range(pos, m):
                    if power[deck[j]] < POWER_DOS:
                        t = deck[pos]
                        deck[pos] = deck[j]
                        deck[j] = t
                        break
            hands[r, cnt[r]] = deck[pos]
            cnt[r] += 1
            pos += 1
    return state


@njit(cache=True)
def _play_out(n, hands, hp, cnt, in_truque, table0, results0, baza0, turn, mano, first_card, table, res,
              order, power):
    """Play one deal to the end (``hands``, their powers ``hp`` and ``cnt`` are consumed); the
    outcome as ``_result_of``.

    Seats run 0..n-1, so the turn order steps with a wrap instead of ``%``, and each team's best
    card on the table is kept as cards fall instead of rescanning the table for every player.
    """
    for i in range(3):
        res[i] = results0[i]
    nres = baza0
    b = baza0
    first = turn
    for r in range(n):
        table[r] = table0[r]
    outcome = _result_of(res, nres)
    while outcome < 0 and b < 3:
        best0 = 0  # each team's best power on the table
        best1 = 0
        for r in range(n):
            if table[r] >= 0:
                if r & 1 == 0:
                    best0 = max(best0, power[table[r]])
                else:
                    best1 = max(best1, power[table[r]])
        # the players still to play in this baza, from the turn holder
        k = 0
        r = first
        for _ in range(n):
            if in_truque[r] == 1 and table[r] < 0 and cnt[r] > 0:
                order[k] = r
                k += 1
            r += 1
            if r == n:
                r = 0
        for q in range(k):
            r = order[q]
            if r & 1 == 0:
                ours, theirs = best0, best1
            else:
                ours, theirs = best1, best0
            if r == 0 and b == baza0 and first_card >= 0:
                i = 0
                for j in range(cnt[0]):
                    if hands[0, j] == first_card:
                        i = j
            else:
                i = _pick(hp, r, cnt[r], ours, theirs)
            pc = hp[r, i]
            table[r] = hands[r, i]
            cnt[r] -= 1
            hands[r, i] = hands[r, cnt[r]]
            hp[r, i] = hp[r, cnt[r]]
            if r & 1 == 0:
                best0 = max(best0, pc)
            else:
                best1 = max(best1, pc)
        # resolve the baza (13.5, 13.7, 16.1): the first of the highest, from the leader
        b0 = best0
        b1 = best1
        top = max(b0, b1)
        win_seat = -1
        r = first
        for _ in range(n):
            if table[r] >= 0 and power[table[r]] == top:
                win_seat = r
                break
            r += 1
            if r == n:
                r = 0
        if b0 == b1:
            res[b] = 2
            first = mano
        else:
            res[b] = 0 if b0 > b1 else 1
            first = win_seat
        b += 1
        nres = b
        if res[nres - 1] == 2 and nres == 3 and res[0] == 2 and res[1] == 2:
            # all pardas: the player closest to mano among the highest of the third (16.5)
            best_off = n
            owner = 0
            for r in range(n):
                if table[r] >= 0 and power[table[r]] == top:
                    o = (r - mano + n) % n
                    if o < best_off:
                        best_off = o
                        owner = r % 2
            return 1 if owner == 0 else 0
        for r in range(n):
            table[r] = -1
        outcome = _result_of(res, nres)
    return outcome


@njit(cache=True)
def simulate_truque_cards(n, my_hand, left, in_truque, table0, known, weak, pool, results0, baza0,
                          turn, mano, first_cards, samples, seed):
    """``simulate_truque`` for each card of ``first_cards`` at once, on the same deals: entry k
    is bit-identical to ``simulate_truque(..., first_cards[k], samples, seed)``, since the deals
    (the RNG stream and the deck's order) never depend on the first card. Dealing once per
    sample instead of once per card is most of the saving."""
    power = POWER_NB
    state = np.uint64(seed)
    dealt = np.zeros((8, 3), dtype=np.int64)
    dealt_cnt = np.zeros(8, dtype=np.int64)
    dealt_hp = np.zeros((8, 3), dtype=np.int64)  # the powers of the dealt cards
    hands = np.zeros((8, 3), dtype=np.int64)
    hp = np.zeros((8, 3), dtype=np.int64)
    cnt = np.zeros(8, dtype=np.int64)
    table = np.zeros(8, dtype=np.int64)
    res = np.zeros(3, dtype=np.int64)
    order = np.zeros(8, dtype=np.int64)
    deck = pool.copy()
    nc = first_cards.shape[0]
    totals = np.zeros(nc)
    for _ in range(samples):
        state = _deal(n, my_hand, left, known, weak, deck, state, dealt, dealt_cnt, power)
        for r in range(n):
            for i in range(dealt_cnt[r]):
                dealt_hp[r, i] = power[dealt[r, i]]
        for k in range(nc):
            for r in range(n):
                for i in range(dealt_cnt[r]):
                    hands[r, i] = dealt[r, i]
                    hp[r, i] = dealt_hp[r, i]
                cnt[r] = dealt_cnt[r]
            outcome = _play_out(n, hands, hp, cnt, in_truque, table0, results0, baza0, turn, mano,
                                first_cards[k], table, res, order, power)
            if outcome == 1:
                totals[k] += 1.0
            elif outcome == 2:
                totals[k] += 0.5
    return totals / samples


@njit(cache=True)
def simulate_truque(n, my_hand, left, in_truque, table0, known, weak, pool, results0, baza0,
                    turn, mano, first_card, samples, seed):
    """P(team 0 wins the truque): the unseen cards dealt at random to the other players'
    remaining slots (a partner's signalled card kept in his hand, a partner who signalled
    "ciega"/"flor" drawing only cards below the doses), then every player, me included after
    ``first_card``, plays by ``_pick``. Relative seats: even = my team; play order r+1."""
    first_cards = np.full(1, first_card, dtype=np.int64)
    return simulate_truque_cards(n, my_hand, left, in_truque, table0, known, weak, pool, results0,
                                 baza0, turn, mano, first_cards, samples, seed)[0]


def make_policy(seed: int = 0, config: HeuristicConfig | dict | None = None) -> HeuristicPolicy:
    """The registry hook (``agents.registry``)."""
    return HeuristicPolicy(config, seed=seed)
