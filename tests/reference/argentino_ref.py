"""Plain-Python reference of truco argentino: the valuations, written from seed 003 and ruling A3
without the engine's tables (tests compare the two on every card and every three-card hand), and
the mano and the partida (``RefTable``, below), written from docs/rules/argentino.md and the
seeds. It shares with the engine only the card ids and the action ids."""

from __future__ import annotations

import math
import numbers
from itertools import combinations

from tests.reference.record_ref import JuegoRecord
from truque_env.cards import NUM_CARDS, card_str, parse
from truque_env.traditions.argentino import actions as ACT

RANKING = "1E 1B 7E 7O 3* 2* 1O=1C 12* 11* 10* 7C=7B 6* 5* 4*"  # ruling A3, strongest first


def _cards():
    return [(rank, suit) for suit in "OCEB" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]


def power(rank: int, suit: str) -> int:
    """How many ranking rows lie below the card's row (the weakest row is 1)."""
    rows = RANKING.split()
    for k, row in enumerate(rows):
        for item in row.split("="):
            r, s = item[:-1], item[-1]
            if int(r) == rank and s in ("*", suit):
                return len(rows) - k
    raise ValueError((rank, suit))


def index(rank: int) -> int:
    """The card's points for envido and flor: the number, the figures nothing (003)."""
    return 0 if rank in (10, 11, 12) else rank


def envido(hand) -> int:
    """Best of: any two cards of a suit (20 + both), any single card (its index) (003 §envido; a
    hand of three of a suit takes its best two, A20)."""
    best = max(index(r) for r, _ in hand)
    for (r1, s1), (r2, s2) in combinations(hand, 2):
        if s1 == s2:
            best = max(best, 20 + index(r1) + index(r2))
    return best


def flor(hand) -> int:
    suits = {s for _, s in hand}
    return 20 + sum(index(r) for r, _ in hand) if len(suits) == 1 else 0


ALL_CARDS = _cards()


# ==============================================================================================
# The mano and the partida: a plain-Python twin of the engine, written from docs/rules/argentino.md
# ("The mano as the engine plays it"), seeds 003/004 and the rulings of traditions.md, cited by
# element ("A30"). It imports only the card ids and the action ids; the mano is one generator
# (RefTable._mano) that yields every decision (seat, legal ids, phase) and receives the action.
# ==============================================================================================

MASK64 = (1 << 64) - 1
CARD = [((c // 10), (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)[c % 10]) for c in range(NUM_CARDS)]  # (suit, rank) of each id
SUIT_LETTER = "OCEB"

ENVIDO_WORDS = (ACT.ENVIDO, ACT.REAL_ENVIDO, ACT.FALTA_ENVIDO)
FALTA = "falta"


def card_power(card: int) -> int:
    suit, rank = CARD[card]
    return power(rank, SUIT_LETTER[suit])


def hand_envido(hand) -> int:
    return envido([(CARD[c][1], SUIT_LETTER[CARD[c][0]]) for c in hand])


def hand_flor(hand) -> int:
    return flor([(CARD[c][1], SUIT_LETTER[CARD[c][0]]) for c in hand])


class _Over(Exception):
    """The mano ended (a refusal, a team al mazo, tantos that take a team out, the bazas)."""


OPTION_DEFAULTS = {"flor": True, "todo_dicho": True, "falta_envido": "leader", "contraflor_al_resto": "leader",
                   "uno_y_uno": False, "achico_pays": 0, "al_resto_refused_pays": 0}


def word_kind(name: str) -> str | None:
    """What a word does to the stakes, for the juego's record: every envido, truco and flor bet
    raises (the double words and todo dicho too); quiero, con flor quiero and sin ley accept; no
    quiero, con flor no quiero and con flor me achico refuse; al mazo leaves; the rest (paso,
    flor, uno y uno, cards, señas) is not counted."""
    if name in ("quiero", "con flor quiero") or name.startswith("sin ley"):
        return "accept"
    if name in ("no quiero", "con flor no quiero", "con flor me achico"):
        return "refuse"
    if name == "me voy al mazo":
        return "leave"
    if any(w in name for w in ("envido", "truco", "retruco", "vale cuatro", "contraflor")):
        return "raise"
    return None


class RefTable:
    """A table of ``2 * team_size`` players playing a partida of truco argentino."""

    def __init__(self, team_size: int = 1, target: int = 30, juegos: int = 3, senas_per_mano: int = 1,
                 p_intercept: float = 0.1, seed: int = 0, **options):
        unknown = set(options) - set(OPTION_DEFAULTS)
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}")
        self.opt = {**OPTION_DEFAULTS, **options}
        if team_size not in (1, 2, 3):
            raise ValueError("team_size 1..3")
        self.team_size, self.n, self.target, self.n_juegos = team_size, 2 * team_size, target, juegos
        self.senas_per_mano = senas_per_mano
        permille = round(float(p_intercept) * 1000)
        assert math.isclose(float(p_intercept) * 1000, permille, abs_tol=1e-9)
        self.permille = permille
        self._x = int(seed) & MASK64
        self._dealer = self._draw(self.n)
        self._scores = [0, 0]
        self._juegos = [0, 0]
        self._juego_over = False
        self.record = JuegoRecord()  # the juego's public record (truque_env.engine.record)
        self._in_progress = False
        self._pending = None
        self._result = None
        self.hands: list[list[int]] = []

    # -- the generator (splitmix64, as docs/engine.md "Chance") -------------------------------
    def _next(self) -> int:
        self._x = (self._x + 0x9E3779B97F4A7C15) & MASK64
        z = self._x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def _draw(self, k: int) -> int:
        return self._next() % k

    # -- public ---------------------------------------------------------------------------------
    dealer = property(lambda self: self._dealer)
    mano = property(lambda self: (self._dealer + 1) % self.n)
    scores = property(lambda self: (self._scores[0], self._scores[1]))
    juegos = property(lambda self: (self._juegos[0], self._juegos[1]))
    juego_over = property(lambda self: self._juego_over)
    done = property(lambda self: not self._in_progress)

    @property
    def partida_over(self) -> bool:
        return max(self._juegos) >= (self.n_juegos + 1) // 2

    @property
    def to_act(self) -> int:
        return self._pending[0] if self._in_progress else -1

    @property
    def phase(self) -> str:
        return self._pending[2] if self._in_progress else "done"

    def legal_ids(self) -> list[int]:
        return list(self._pending[1]) if self._in_progress else []

    def legal(self) -> list[str]:
        return [ACT.ACTION_NAMES[a] for a in self.legal_ids()]

    def result(self) -> dict:
        if self._result is None or self._in_progress:
            raise ValueError("no finished mano")
        return dict(self._result)

    def deal(self, hands=None, dealer=None, scores=None) -> None:
        if self._in_progress:
            raise ValueError("a mano is in progress")
        if self.partida_over:
            raise ValueError("the partida is over")
        if dealer is not None:
            if not isinstance(dealer, numbers.Integral) or not 0 <= dealer < self.n:
                raise ValueError("bad dealer")
            self._dealer = int(dealer)
        if scores is not None:
            self._scores = [int(v) for v in scores]
        if hands is None:
            deck = list(range(NUM_CARDS))
            for i in range(NUM_CARDS - 1, 0, -1):
                j = self._draw(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            hands = [[-1] * 3 for _ in range(self.n)]
            for k in range(3 * self.n):  # one at a time from the mano
                hands[(self.mano + k) % self.n][k // self.n] = deck[k]
        else:
            hands = [parse(h, count=3) if isinstance(h, str) else [int(c) for c in h] for h in hands]
            flat = [c for h in hands for c in h]
            if len(set(flat)) != len(flat):
                raise ValueError(f"cards dealt twice: {sorted(card_str(c) for c in flat if flat.count(c) > 1)}")
        self.hands = [list(h) for h in hands]
        self._start_mano()

    def act(self, action) -> None:
        a = ACT.action_id(action) if isinstance(action, str) else int(action)
        if not self._in_progress or a not in self._pending[1]:
            raise ValueError(f"illegal action {a!r}; legal: {self.legal()}")
        self.record.count(self.to_act, word_kind(ACT.ACTION_NAMES[a]))
        self._advance(a)

    def _advance(self, a) -> None:
        try:
            self._pending = next(self._flow) if a is None else self._flow.send(a)
        except StopIteration:
            self._finish()

    # -- the mano -------------------------------------------------------------------------------
    def _start_mano(self) -> None:
        n = self.n
        self._juego_over = False
        self._result = None
        self.unplayed = [list(h) for h in self.hands]
        self.played_any = [False] * n
        self.gone = [False] * n
        self.senas_made = [0] * n
        self.senas_log = []
        self.visible = False
        self.falta = self.target - max(self._scores)  # A23
        self.flor_on = self.opt["flor"]
        self.holds_flor = [self.flor_on and hand_flor(h) > 0 for h in self.hands]
        self.sung: list[int] = []  # the flores sung
        self.flor_state = "none"  # none, betting, closed
        self.env = None  # {"st", "stake", "prev", "raiser"}
        self.truco = {"st": "none", "level": 0, "prev": 0, "raiser": None, "hab": None}
        self.td = None  # None, "said", "annulled", "flor", "answered"
        self.uno = None  # None, "open", "refused"
        self.points = {"envido": [0, 0], "flor": [0, 0], "truco": [0, 0]}
        self.baza = 0
        self.bazas: list[int] = []  # team that won each baza, 2 parda
        self.first_baza_played: set[int] = set()
        self._in_progress = True
        self._flow = self._mano()
        self._advance(None)

    def _mano(self):
        try:
            yield from self._blind_round()
            yield from self._play()
        except _Over:
            return

    def _ask(self, seat, options, phase):
        while True:
            opts = set(options)
            if self.visible and not self.gone[seat] and self.unplayed[seat] and self.senas_made[seat] < self.senas_per_mano:
                opts.update(range(ACT.SENA_BASE, ACT.SENA_BASE + ACT.NUM_SENAS))  # ruling 3
            a = yield (seat, sorted(opts), phase)
            if a >= ACT.SENA_BASE:
                mask = 0
                for q in range(self.n):
                    if q % 2 == seat % 2 and q != seat:
                        mask |= 1 << q
                for q in range(self.n):
                    if q % 2 != seat % 2 and self._draw(1000) < self.permille:
                        mask |= 1 << q
                self.senas_made[seat] += 1
                self.senas_log.append((seat, a - ACT.SENA_BASE, mask))
                continue
            return a

    # -- A33: falta envido y truco, todo dicho ----------------------------------------------------
    def _blind_round(self):
        said = None
        if self.opt["todo_dicho"]:
            for k in range(self.n):
                seat = (self.mano + k) % self.n
                if (yield from self._ask(seat, [ACT.PASO, ACT.TODO_DICHO], "blind")) == ACT.TODO_DICHO:
                    said = seat
                    break
        self.visible = True
        if said is None:
            return
        self.td = "said"
        holders = [s for s in range(self.n) if self.holds_flor[s]]
        if holders:
            if {s % 2 for s in holders} == {0, 1}:  # "si hay flor, contraflor al resto"
                self.td = "flor"
                self.sung = holders
                self.flor_state = "betting"
                yield from self._flor_betting(said, "al resto")
            else:
                self.td = "annulled"  # any flor in play annuls it
            return
        yield from self._double(said, 2)

    # -- the walk of an answering team (the first answer binds, A29, A32) ---------------------------
    def _unsung(self, seat) -> bool:
        return self.holds_flor[seat] and seat not in self.sung and not self.gone[seat]

    def _walk(self, raiser, options, start=0, flor=False):
        team = 1 - raiser % 2
        walkers = [(raiser + k) % self.n for k in range(1, self.n)]
        walkers = [s for s in walkers if s % 2 == team and not self.gone[s] and (not flor or s in self.sung)]
        i = start
        while True:
            w = walkers[i]
            if not flor and self._unsung(w):
                yield from self._ask(w, [ACT.FLOR], "answer")
                return i, w, ACT.FLOR
            opts = list(options(w))
            if i < len(walkers) - 1:
                opts.append(ACT.PASO)
            a = yield from self._ask(w, opts, "answer")
            if a == ACT.PASO:
                i += 1
                continue
            return i, w, a

    # -- envido -------------------------------------------------------------------------------------
    def _envido_possible(self) -> bool:
        return (self.env is None and not self.sung and self.truco["st"] != "accepted"
                and self.td in (None, "annulled") and self.uno != "open")

    def _may_envidar(self, seat) -> bool:
        return self._envido_possible() and self.baza == 0 and seat not in self.first_baza_played

    def _openings(self):
        return [ACT.ENVIDO + k for k in range(3) if k == 2 or 2 + k <= self.falta]

    def _raises(self, base=ACT.ENVIDO):
        stake = self.env["stake"]
        if stake == FALTA:
            return []
        return [base + k for k in range(3) if k == 2 or stake + 2 + k <= self.falta]

    def _open_envido(self, p, k):
        self.env = {"st": "open", "stake": FALTA if k == 2 else 2 + k, "prev": 1, "raiser": p}

    def _raise_envido(self, p, k):
        e = self.env
        e["prev"] = e["stake"]
        e["stake"] = FALTA if k == 2 else e["stake"] + 2 + k
        e["raiser"] = p

    def _envido_accepted(self):
        self.env["st"] = "accepted"
        alive = [s for s in range(self.n) if not self.gone[s]]
        order = sorted(alive, key=lambda s: (s - self.mano) % self.n)
        winner = max(order, key=lambda s: (hand_envido(self.hands[s]), -order.index(s)))
        team = winner % 2
        if self.env["stake"] != FALTA:
            worth = self.env["stake"]
        elif self.opt["falta_envido"] == "match":
            worth = self.target - self._scores[team]
        else:
            worth = self.falta
        self.points["envido"][team] += worth

    def _envido_refused(self):
        self.env["st"] = "refused"
        self.points["envido"][self.env["raiser"] % 2] += self.env["prev"]

    def _envido(self, p, k):
        self._open_envido(p, k)
        raiser = p
        while True:
            _, w, a = yield from self._walk(raiser, lambda w: [ACT.QUIERO, ACT.NO_QUIERO] + self._raises())
            if a == ACT.FLOR:
                yield from self._sing_flor(w, "envido")
                return
            if a == ACT.QUIERO:
                self._envido_accepted()
                self._check_out()
                return
            if a == ACT.NO_QUIERO:
                self._envido_refused()
                self._check_out()
                return
            self._raise_envido(w, a - ACT.ENVIDO)
            raiser = w

    # -- truco --------------------------------------------------------------------------------------
    @staticmethod
    def _value(level) -> int:
        return 1 if level == 0 else level + 1

    def _call_truco(self, p):
        t = self.truco
        t["prev"] = t["level"] if t["st"] == "accepted" else 0
        t["level"] += 1
        t["st"] = "open"
        t["raiser"] = p

    def _refuse_truco(self):
        t = self.truco
        t["st"] = "refused"
        self.points["truco"][t["raiser"] % 2] += self._value(t["prev"])
        raise _Over

    def _accept_truco(self, team):
        self.truco["st"] = "accepted"
        self.truco["hab"] = team

    def _truco_answers(self, start=0):
        raiser = self.truco["raiser"]

        def options(w):
            opts = [ACT.QUIERO, ACT.NO_QUIERO]
            if self.truco["level"] == 1 and self._may_envidar(w):  # A22, el envido está primero
                opts += self._openings()
            return opts

        i = start
        while True:
            i, w, a = yield from self._walk(raiser, options, start=i)
            if a == ACT.FLOR:
                yield from self._sing_flor(w, "truco")
                continue
            if a == ACT.QUIERO:
                self._accept_truco(1 - raiser % 2)
                return
            if a == ACT.NO_QUIERO:
                self._refuse_truco()
            yield from self._envido(w, a - ACT.ENVIDO)

    # -- A34 (and A33): both at once -------------------------------------------------------------
    def _double(self, p, k):
        self._open_envido(p, k)
        self._call_truco(p)
        raiser = p

        def options(w):
            opts = [ACT.QUIERO, ACT.NO_QUIERO, ACT.SIN_LEY_QUIERO_Y_PASO, ACT.SIN_LEY_PASO_Y_QUIERO]
            level = self.truco["level"]
            if level < 3:
                opts += self._raises(ACT.Y_QUIERO_RETRUCO if level == 1 else ACT.Y_QUIERO_VALE_CUATRO)
            return opts

        while True:
            i, w, a = yield from self._walk(raiser, options)
            team = w % 2
            if a == ACT.FLOR:  # the envido is cancelled; the truco waits for w's answer
                yield from self._sing_flor(w, "double")
                yield from self._truco_answers(start=i)
                return
            if ACT.Y_QUIERO_RETRUCO <= a < ACT.Y_QUIERO_VALE_CUATRO + 3:
                self._raise_envido(w, (a - ACT.Y_QUIERO_RETRUCO) % 3)
                self._accept_truco(team)
                self._call_truco(w)
                raiser = w
                continue
            if a in (ACT.QUIERO, ACT.SIN_LEY_QUIERO_Y_PASO):
                self._envido_accepted()
            else:
                self._envido_refused()
            if self.td == "said":
                self.td = "answered"
            if a in (ACT.NO_QUIERO, ACT.SIN_LEY_QUIERO_Y_PASO):
                self._refuse_truco()
            self._accept_truco(team)
            self._check_out()
            return

    # -- the flor (A6-A17) ---------------------------------------------------------------------------
    def _count(self, team) -> int:
        return sum(1 for s in self.sung if s % 2 == team)

    def _best_flor_team(self) -> int:
        order = sorted(self.sung, key=lambda s: (s - self.mano) % self.n)
        return max(order, key=lambda s: (hand_flor(self.hands[s]), -order.index(s))) % 2

    def _sing_flor(self, x, context):
        self.sung = [s for s in range(self.n) if self.holds_flor[s] and not self.gone[s]]
        if self.env is not None:  # A9: cancels every envido said before
            self.env["st"] = "void"
        self.points["envido"] = [0, 0]
        if context == "uno":
            self.uno = "refused"
        c = [self._count(0), self._count(1)]
        if c[0] == 0 or c[1] == 0:
            self.points["flor"][0 if c[1] == 0 else 1] += 3 * (c[0] + c[1])
            self.flor_state = "closed"
            self._check_out()
            return
        self.flor_state = "betting"
        yield from self._flor_betting(x, "flor")

    def _flor_betting(self, raiser, level):
        contra = False
        total = len(self.sung)
        options = {"flor": [ACT.FLOR, ACT.ME_ACHICO, ACT.CONTRAFLOR, ACT.AL_RESTO],
                   "contra": [ACT.CON_FLOR_QUIERO, ACT.ME_ACHICO, ACT.AL_RESTO],
                   "al resto": [ACT.CON_FLOR_QUIERO, ACT.CON_FLOR_NO_QUIERO]}
        while True:
            _, w, a = yield from self._walk(raiser, lambda w, level=level: options[level], flor=True)
            rt = raiser % 2
            if a == ACT.CONTRAFLOR:
                level, contra, raiser = "contra", True, w
                continue
            if a == ACT.AL_RESTO:
                level, raiser = "al resto", w
                continue
            if a == ACT.FLOR:
                t = self._best_flor_team()
                self.points["flor"][t] += 3 * self._count(t)
            elif a == ACT.ME_ACHICO:
                self.points["flor"][rt] += self.opt["achico_pays"] or 3 * self._count(rt)
            elif a == ACT.CON_FLOR_QUIERO and level == "contra":
                self.points["flor"][self._best_flor_team()] += 3 * total
            elif a == ACT.CON_FLOR_QUIERO:
                t = self._best_flor_team()
                mine, theirs = self._scores[t], self._scores[1 - t]
                if self.opt["contraflor_al_resto"] == "match" or mine >= theirs:
                    self.points["flor"][t] += self.target - mine
                else:
                    self.points["flor"][t] += self.target - theirs + 3 * total
            else:
                pay = self.opt["al_resto_refused_pays"] or (3 * total if contra else 3 * self._count(rt))
                self.points["flor"][rt] += pay
            self.flor_state = "closed"
            self._check_out()
            return

    def _check_out(self):
        """A35: envido or flor tantos that take a team out end the mano, unless a flor is unsung."""
        if any(self._unsung(s) for s in range(self.n)):
            return
        for t in (0, 1):
            got = self.points["envido"][t] + self.points["flor"][t]
            if got > 0 and self._scores[t] + got >= self.target:
                raise _Over

    # -- uno y uno (A39) -----------------------------------------------------------------------------
    def _uno_y_uno(self, p):
        self.uno = "open"
        _, w, a = yield from self._walk(p, lambda w: [ACT.QUIERO, ACT.NO_QUIERO])
        if a == ACT.FLOR:
            yield from self._sing_flor(w, "uno")
            return
        if a == ACT.QUIERO:
            self.points["truco"][0] += 1
            self.points["truco"][1] += 1
            raise _Over
        self.uno = "refused"

    # -- the bazas -----------------------------------------------------------------------------------
    def _play(self):
        lead = self.mano
        for b in range(3):
            self.baza = b
            cards = {}
            for k in range(self.n):
                seat = (lead + k) % self.n
                if not self.gone[seat]:
                    yield from self._turn(seat, b, cards)
            best = max(card_power(c) for c in cards.values())
            order = [(lead + k) % self.n for k in range(self.n) if (lead + k) % self.n in cards]
            top = [s for s in order if card_power(cards[s]) == best]
            parda = len({s % 2 for s in top}) == 2
            self.bazas.append(2 if parda else top[0] % 2)
            winner = self._truco_winner()
            if winner is not None:
                t = self.truco
                self.points["truco"][winner] += self._value(t["level"] if t["st"] == "accepted" else 0)
                raise _Over
            if parda:
                lead = next((self.mano + k) % self.n for k in range(self.n) if not self.gone[(self.mano + k) % self.n])
            else:
                lead = top[0]

    def _truco_winner(self):
        r = self.bazas
        if len(r) == 2:
            if r[0] != 2 and r[1] in (r[0], 2):
                return r[0]
            if r[0] == 2 and r[1] != 2:
                return r[1]
        if len(r) == 3:
            if r[2] != 2:
                return r[2]
            return self.mano % 2 if r[0] == 2 else r[0]
        return None

    def _turn(self, seat, b, cards):
        while True:
            if self._unsung(seat):  # A8: the flor first
                yield from self._ask(seat, [ACT.FLOR], "play")
                yield from self._sing_flor(seat, None)
                continue
            opts = [ACT.PLAY_BASE + c for c in self.unplayed[seat]] + [ACT.MAZO]
            if self._may_envidar(seat):
                for a in self._openings():
                    opts.append(a)
                    if self.truco["st"] == "none":
                        opts.append(ACT.ENVIDO_Y_TRUCO + (a - ACT.ENVIDO))
            t = self.truco
            if t["st"] == "none":
                opts.append(ACT.TRUCO)
            elif t["st"] == "accepted" and t["hab"] == seat % 2 and t["level"] < 3:
                opts.append(ACT.TRUCO + t["level"])
            if (self.opt["uno_y_uno"] and self.uno is None and t["st"] == "none" and self.env is None
                    and not self.sung and self.td in (None, "annulled") and not any(self.played_any)
                    and max(self._scores) < self.target - 1):
                opts.append(ACT.UNO_Y_UNO)
            a = yield from self._ask(seat, opts, "play")
            if a >= ACT.PLAY_BASE:
                card = a - ACT.PLAY_BASE
                self.unplayed[seat].remove(card)
                self.played_any[seat] = True
                cards[seat] = card
                if b == 0:
                    self.first_baza_played.add(seat)
                return
            if a == ACT.MAZO:
                self._leave(seat)
                return
            if a in ENVIDO_WORDS:
                yield from self._envido(seat, a - ACT.ENVIDO)
            elif ACT.ENVIDO_Y_TRUCO <= a < ACT.ENVIDO_Y_TRUCO + 3:
                yield from self._double(seat, a - ACT.ENVIDO_Y_TRUCO)
            elif a == ACT.UNO_Y_UNO:
                yield from self._uno_y_uno(seat)
            else:
                self._call_truco(seat)
                yield from self._truco_answers()

    def _leave(self, p):
        """A30: the last of a team concedes the truco (and 1 of envido while it could be played)."""
        self.gone[p] = True
        team = p % 2
        if any(not self.gone[q] for q in range(team, self.n, 2)):
            return
        rivals = 1 - team
        if self._envido_possible() and not any(self.played_any[q] for q in range(team, self.n, 2)):
            self.points["envido"][rivals] += 1
        t = self.truco
        self.points["truco"][rivals] += self._value(t["level"] if t["st"] == "accepted" else 0)
        raise _Over

    # -- the score (A35) -----------------------------------------------------------------------------
    def _finish(self) -> None:
        self._result = {k: tuple(v) for k, v in self.points.items()}
        for src in ("envido", "flor", "truco"):
            for t in (0, 1):
                self._scores[t] += min(self.points[src][t], self.target - self._scores[t])
                if self._scores[t] >= self.target and not self._juego_over:
                    self._juegos[t] += 1
                    self._juego_over = True
            if self._juego_over:
                self._scores = [0, 0]
                break
        self.record.close_mano(self._juego_over)
        self._in_progress = False
        self._pending = None
        self._dealer = (self._dealer + 1) % self.n
