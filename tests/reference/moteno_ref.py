"""Plain-Python reference implementation of one Truque Moteño mano (and of the partida around it).

This is the slow, readable twin of the numba engine: it is written only from ``docs/engine.md``,
the reglamento (``/work/shared/seeds/000_a3a1ca8e9494fdbc.txt``, cited "Art. x.y") and the
rulings (``/work/shared/rules/README.md``, cited "ruling n"). It imports nothing from the engine
under test; it shares with it only the card ids (``truque_env.cards``) and the action ids
(``truque_env.engine.actions``). The valuations (truque power, pares, flor) are written here
again from Arts. 2, 5 and 9.

The mano is written as one Python generator (``RefTable._mano``) that reads like the rules: it
``yield``s every decision point (seat to act, legal action ids) and receives the chosen action.

Readings of docs/engine.md
--------------------------
Points where the contract is silent or ambiguous and the reading chosen here:

R1. *Señas before the cards are visible* (now written in the contract). No señas in BLIND nor
    in the ANSWER exchanges opened by blind bets during the blind round (la falta a ciegas
    included). Señas are allowed in every decision after the deal (CLOSE, CANTE, PLAY,
    FLOR_ROUND, FLOR_ENVITE, RESERVADA and their ANSWERs) to a player not gone a baraja.
R2. *"Holds a card he has not played"* (señas) means: at least one of his three cards has not been
    played with ``juego <card>``. Cards laid face down with ``la mía no vale`` or left face up with
    ``paso`` in the completion round are still "not played", so such a player may still make a
    seña when he is to act (e.g. answering a bet).
R3. *Seña interception.* One ``draw(1000)`` for every rival seat in ascending order, always (also
    when ``p_intercept`` is 0 or 1, and also for rivals gone a baraja). The ``seen_mask`` of
    ``senas_log`` is over the *other* players who saw it (as the contract now says): the sender's
    partners (also those gone a baraja) plus the rivals who intercepted it, never the sender.
R4. *La falta a ciegas* (Art. 12; docs/engine.md "La falta a ciegas"). Team A is the team that
    said it, B its rivals.

    a. *Which falta is a ciegas.* Any ``envío la falta`` said during the blind round: at a blind
       turn, or as a raise by either team in a blind pares exchange (7.7, 12.21; the first
       answering member may then still say ``luego te lo digo``, R5). Said after the deal (CLOSE,
       PLAY) it is an ordinary ``envío la falta``. A blind ``quiero`` to it closes it for good:
       no revoke-right ANSWER in CLOSE (nothing is above la falta).
    b. *The answer with cards* (CLOSE step 1). B's members answer in order after A's raiser.
       "Holds flor" is any flor, a reservada too (nobody can have a flag yet in CLOSE). A later
       member is never offered ``no quiero``. A ``quiero`` sets *bet pares* (R6), which nothing
       later can use. Not accepted and nobody sang: an ordinary refused envite (the refusal pay,
       or the stake before a blind revoque con la falta, 18.2 a, c). Whatever the answer, nobody
       sings flor later (12.4, 12.7: B sings in its answer, before any card; A's flores went
       cantadas with the falta, 12.3).
    c. *``de la mía``* (after ``con flor, no quiero``) is offered to an A player holding flor
       (any flor) at every decision of his first-baza turn until he says it or plays his card,
       also in the completion round of 14.10 (he has not played); after it he acts again.
    d. *Gone a baraja.* "Flores of A" are A's flor hands still in the mano at the end. A flor of
       B sung with ``con flor`` by a player who later went a baraja is lost (13.15: it is not shown
       and no longer counts for the bet, 11.11), but the answer stays what was said (17.5) and its
       sung flor has already annulled the pares (10.5): after ``con flor, quiero`` with A holding no
       flor and B's only singer gone, nobody wins pares-flores chinas (18.2 o with no flor), and
       with A holding flor A's best flor wins 3 per flor still at the table + la falta (m). A
       ``de la mía`` of a player who later went a baraja is lost too: with no declarer left, 18.2 n
       applies (12.8: a flor not declared and shown no longer counts).
    e. *RESERVADA* (12.13, 12.17) is asked when the mano ends, however it ended (bazas decided,
       a challenge refused, a team out of the truque, the completion round), if the answer with
       cards was ``quiero`` and A still holds flor, to each B player still in the mano holding a
       reservada (there are only three piezas, so at most one); señas as anywhere (ruling 3).
       Sung, it and A's flores are "the flores at the table" for the best flor.
    f. *Blind ``quiero``* (18.2 e, q, r): the flores at the table are the flor hands of the players
       still in the mano at the end.
R5. *``luego te lo digo``* is offered to the first answering member in every ANSWER opened during
    the blind round, including the answer to a blind raise (e.g. truco, retruco a ciegas, then
    the truco team may defer). It is never offered after the deal.
R6. *Flags are set when said.* A ``quiero`` or a raise to pares (resp. ``retruco``/``panueve``)
    said with the cards in hand sets the *bet pares* (resp. *challenged*) flag of the player who
    said it, even if a partner's larger answer then stands instead (Art. 17.5, "lo dicho, dicho
    queda"). ``paso`` sets nothing. Answers given in BLIND set nothing.
R7. *Revoke-right ANSWER (CLOSE step 2).* Its answering members are the accepting team (the last
    raiser's rivals) in order after the last raiser; the first member may already ``paso``. If
    all pass, the blind acceptance stands.
R8. *Completion of the first round (14.10).* After a challenge is refused in the first baza, the
    player whose turn it was keeps his turn (now with the truque over), then every later player
    up to the postre (skipping those gone a baraja) has one turn. Options in that mode: ``paso``,
    an envite / ``envío la falta`` (same conditions as in play), ``flor`` (same conditions as in
    play), a seña. Neither ``me voy a baraja`` nor cards. The mano ends after the postre's turn.
    A blind truco refused (in BLIND or in CLOSE) puts the whole first round, from mano, in this
    mode. A challenge refused in the second or third baza ends the mano at once.
R9. *Me voy a baraja* (as amended: "nobody in the truque"). The mano ends when the player's
    team has nobody left in the truque (every member gone a baraja or having said ``la mía no
    vale``). Since ``la mía no vale`` needs a partner still in the truque, every baza then has
    players of both teams; the code still treats a baza without any card as parda and an all-parda
    truque with an empty third baza as won by mano's team, but those cases are unreachable.
R10. *Flor in a mano played al cantar* (now written in the contract). The cante is each
    player's only chance to sing flor: after it ``flor`` is never offered in PLAY, the completion
    round of 14.10 included. A FLOR_ROUND started in the cante runs as usual.
R11. *Flor chinas when singers go a baraja later.* The flores chinas are computed by the outcome
    of the envite de flores (no envite / refused / revoque refused / accepted); in every case only
    singers not gone a baraja count (flores sung, flor values), but the china de derribe of a
    refused first envite is always 1. "Any flor was sung" (pares void) counts every singer, also
    those gone a baraja later.
R12. *Revoque de flores refused* pays 3 per flor sung at the table + the stake accepted before the
    revoque **capped at the falta** (Art. 6.16 / 18.2 j; the contract only writes the cap for
    pares and for an accepted flores envite).
R13. *Dealer rotation.* When a mano ends the dealer (and so ``mano``) advances by one at once;
    ``deal(dealer=None)`` then keeps it. The first dealer is the one drawn at construction.
R14. *Explicit hands.* ``deal(hands=...)`` does not use the generator (no shuffle is drawn).
R15. *Scores after a juego.* When a team reaches the target the scores are reset to (0, 0) at
    once (``scores`` reads (0, 0) right after that mano); ``juego_over`` is True until the next
    deal. ``result()`` is only available once the mano is done.
R16. *Pares of a flor hand* (not sung) is the best pair: a pieza plus any other card, or 20 plus
    two cards of a suit (Art. 5.5, 5.6); a reservada's pares is the sum of two piezas (10.15).
R17. *Forced decisions are still decisions.* Every player of a FLOR_ROUND is asked (legal
    ``["paso"]`` plus señas when he cannot sing), every player sings in CANTE (``canto pares``
    may be his only action), every member of an answering team is asked (``paso`` may be his only
    action), and in the completion round ``paso`` may be the only action. Nothing is skipped
    automatically except players gone a baraja (and, in PLAY, those who said ``la mía no vale``).
R18. *Phase names.* The decisions of CLOSE are all ANSWERs, so ``phase`` never reads CLOSE.
    ``de la mía`` is asked in PLAY; the 12.13 round reads RESERVADA.
"""

from __future__ import annotations

import math
import numbers

from tests.reference.record_ref import JuegoRecord
from truque_env.cards import NUM_CARDS, card_id, card_str, parse
from truque_env.traditions.moteno.actions import (
    ACTION_NAMES,
    BARAJA,
    CANTO_PARES,
    CON_FLOR_NO_QUIERO,
    CON_FLOR_QUIERO,
    DE_LA_MIA,
    FALTA,
    FLOR,
    FLORES_BASE,
    LUEGO,
    MAX_FLORES_N,
    MAX_PARES_N,
    NO_QUIERO,
    NO_VALE,
    NUM_ACTIONS,
    NUM_SENAS,
    PANUEVE,
    PARES_BASE,
    PASO,
    PLAY_BASE,
    QUIERO,
    RETRUCO,
    SENA_BASE,
    TRUCO,
    action_id,
)

MASK64 = (1 << 64) - 1

# --------------------------------------------------------------------------------------------
# Card valuations, written again from the reglamento (Arts. 2, 5, 9; ruling 2)
# --------------------------------------------------------------------------------------------

PERRO = card_id(11, "B")  # caballo de bastos
PERRA = card_id(10, "O")  # sota de oros
CASCABEL = card_id(11, "O")  # caballo de oros
PIEZAS = (PERRO, PERRA, CASCABEL)  # Art. 2 "PIEZAS"


def _suit(card: int) -> int:
    return card // 10


def _rank(card: int) -> int:
    return (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)[card % 10]


def truque_power(card: int) -> int:
    """Truque power of a card, higher beats lower (Art. 2 table, Art. 13.2, ruling 2).

    Piezas (perro > perra > cascabel), matas (espada > basto > 7 de espadas > 7 de oros),
    treses, doses, ases de oros y copas, figuras (reyes > caballos > sotas, ruling 2), sietes de
    copas y bastos, seises, cincos, cuatros. Cards in the same row tie (ruling 2).
    """
    named = {
        PERRO: 20,
        PERRA: 19,
        CASCABEL: 18,
        card_id(1, "E"): 17,  # la espada
        card_id(1, "B"): 16,  # el basto
        card_id(7, "E"): 15,  # la mata de espadas
        card_id(7, "O"): 14,  # la mata de oros
    }
    if card in named:
        return named[card]
    by_rank = {3: 13, 2: 12, 1: 11, 12: 10, 11: 9, 10: 8, 7: 7, 6: 6, 5: 5, 4: 4}
    return by_rank[_rank(card)]


def card_pares(card: int) -> int:
    """Pares value of one card (Art. 5.2): perro 31, perra 30, cascabel 29, figuras 0, the rest
    their number."""
    if card == PERRO:
        return 31
    if card == PERRA:
        return 30
    if card == CASCABEL:
        return 29
    r = _rank(card)
    return 0 if r >= 10 else r


def _ligadas(a: int, b: int) -> bool:
    """Two cards are ligadas when they share a suit or one of them is a pieza (Art. 5.6: a pieza
    liga with any card)."""
    return a in PIEZAS or b in PIEZAS or _suit(a) == _suit(b)


def _pair_value(a: int, b: int) -> int:
    """Pares value of two ligadas: 20 + both if no pieza (5.5); a pieza already carries its 20
    (5.6), so pieza + the other card (two piezas: their sum, 10.15)."""
    if a in PIEZAS or b in PIEZAS:
        return card_pares(a) + card_pares(b)
    return 20 + card_pares(a) + card_pares(b)


def pares_value(hand) -> int:
    """Pares of three cards (Arts. 5.3-5.6): the best ligadas pair, else the highest card."""
    hand = list(hand)
    best = max(card_pares(c) for c in hand)  # 5.4: sin ligar, the highest card
    for i in range(3):
        for j in range(i + 1, 3):
            if _ligadas(hand[i], hand[j]):
                best = max(best, _pair_value(hand[i], hand[j]))
    return best


def is_reservada(hand) -> bool:
    """Flor reservada: two piezas (Art. 9.2)."""
    return sum(1 for c in hand if c in PIEZAS) >= 2


def has_flor(hand) -> bool:
    """Three ligadas cards (Art. 9.1): three of a suit, or a pieza with two cards of one suit, or
    a reservada (9.2)."""
    hand = list(hand)
    if is_reservada(hand):
        return True
    piezas = [c for c in hand if c in PIEZAS]
    others = [c for c in hand if c not in PIEZAS]
    if not piezas:
        return _suit(hand[0]) == _suit(hand[1]) == _suit(hand[2])
    return _suit(others[0]) == _suit(others[1])


def flor_value(hand) -> int:
    """Value of a flor (Arts. 9.3, 9.4): 20 + the three card values; a reservada is the plain sum
    (its 20 is inside the piezas). ``ValueError`` if the hand is no flor."""
    if not has_flor(hand):
        raise ValueError(f"{[card_str(c) for c in hand]} is no flor")
    total = sum(card_pares(c) for c in hand)
    return total if is_reservada(hand) else 20 + total


# --------------------------------------------------------------------------------------------
# Helpers on action ids
# --------------------------------------------------------------------------------------------

PARDA = -1


def _is_play(a: int) -> bool:
    return PLAY_BASE <= a < PLAY_BASE + NUM_CARDS


def _is_pares_envio(a: int) -> bool:
    return PARES_BASE <= a < PARES_BASE + MAX_PARES_N


def _is_flores_envio(a: int) -> bool:
    return FLORES_BASE <= a < FLORES_BASE + MAX_FLORES_N


def _is_sena(a: int) -> bool:
    return SENA_BASE <= a < SENA_BASE + NUM_SENAS


def _is_raise(a: int) -> bool:
    return _is_pares_envio(a) or _is_flores_envio(a) or a in (FALTA, RETRUCO, PANUEVE)


def _nominal(a: int) -> float:
    """Nominal stake of a bet/raise action: ``envío N pares`` 2N, ``envío N flores`` 3N, la falta
    infinite (6.16, 11.8), truco 3 / retruco 6 / panueve 9 (14.12)."""
    if _is_pares_envio(a):
        return 2 * (a - PARES_BASE + 1)
    if _is_flores_envio(a):
        return 3 * (a - FLORES_BASE + 1)
    if a == FALTA:
        return math.inf
    return {TRUCO: 3, RETRUCO: 6, PANUEVE: 9}[a]


def _outcome(standing: int) -> str:
    """The words an exchange ended on, for the branch tally: luego, no quiero, quiero or a raise."""
    return {LUEGO: "luego", NO_QUIERO: "no quiero", QUIERO: "quiero"}.get(standing, "raise")


def _answer_rank(a: int) -> tuple[int, float]:
    """Order of answers (ruling 4, 17.8): luego < no quiero < quiero < raises by size."""
    if a == LUEGO:
        return (0, 0)
    if a == NO_QUIERO:
        return (1, 0)
    if a == QUIERO:
        return (2, 0)
    return (3, _nominal(a))


class _Bet:
    """One apuesta: pares, flores or truco.

    ``stake`` is the current nominal stake (chinas; ``inf`` for la falta; 3/6/9 for the truco),
    ``prev`` the stake accepted before the last raise (``None`` for a first bet), ``raiser`` the
    seat that made the last bet, ``status`` one of open / pending / accepted / refused.
    """

    def __init__(self, kind: str, raiser: int, stake: float):
        self.kind = kind
        self.raiser = raiser
        self.stake = stake
        self.prev: float | None = None
        self.status = "open"
        self.accepted_blind = False
        self.blind_falta = False  # la falta said a ciegas (Art. 12; 7.6, 7.7, 12.21)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"_Bet({self.kind}, raiser={self.raiser}, stake={self.stake}, prev={self.prev}, {self.status})"


def word_kind(name: str) -> str | None:
    """What a word does to the stakes, for the juego's record: the envíos, la falta and the truques
    raise; quiero and con flor, quiero accept; no quiero and con flor, no quiero refuse; me voy a
    baraja and la mía no vale leave; anything else (paso, cards, señas, flor ..) is not counted."""
    if name.startswith("envío") or name in ("truco", "retruco", "panueve"):
        return "raise"
    return {"quiero": "accept", "con flor, quiero": "accept", "no quiero": "refuse",
            "con flor, no quiero": "refuse", "me voy a baraja": "leave", "la mía no vale": "leave"}.get(name)


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------


class RefTable:
    """A table of ``2 * team_size`` players playing a partida of Truque Moteño (see module doc)."""

    def __init__(
        self,
        variant: str = "moteno",
        team_size: int = 1,
        target: int = 30,
        juegos: int = 3,
        senas_per_mano: int = 1,
        p_intercept: float = 0.1,
        seed: int = 0,
        branches=None,
    ):
        if variant != "moteno":
            raise ValueError(f"unknown variant {variant!r}: the reference implements only 'moteno'")
        if not isinstance(team_size, int) or not 1 <= team_size <= 4:
            raise ValueError(f"team_size must be 1..4 (Art. 3, ruling 9), got {team_size!r}")
        if not isinstance(target, int) or target < 1:
            raise ValueError(f"target must be a positive integer, got {target!r}")
        if not isinstance(juegos, int) or juegos < 1:
            raise ValueError(f"juegos must be a positive integer, got {juegos!r}")
        if not isinstance(senas_per_mano, int) or senas_per_mano < 0:
            raise ValueError(
                f"senas_per_mano must be a non-negative integer, got {senas_per_mano!r}"
            )
        p = float(p_intercept)
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p_intercept must be a probability in [0, 1], got {p_intercept!r}")
        permille = round(p * 1000)
        if not math.isclose(p * 1000, permille, abs_tol=1e-9):
            raise ValueError(f"p_intercept {p_intercept!r} is not a whole number of permille")
        self.variant = variant
        self.team_size = team_size
        self.n = 2 * team_size
        self.target = target
        self.n_juegos = juegos
        self.senas_per_mano = senas_per_mano
        self.p_intercept_permille = permille
        self._x = int(seed) & MASK64  # splitmix64 state, x = seed
        self._dealer = self._draw(self.n)  # first dealer: Art. 4.1's cut, ruling 6
        self._scores = [0, 0]
        self._juegos = [0, 0]
        self._juego_over = False
        self.record = JuegoRecord()  # the juego's public record (truque_env.engine.record)
        self._in_progress = False
        self._flow = None
        self._pending: tuple[int, list[int], str] | None = None
        self._result: dict | None = None
        self._phase = "DONE"
        self.hands: list[list[int]] = []
        self.senas_log: list[tuple[int, int, int]] = []
        # a Counter (or None): the branches this table reaches, by key (see _hit); the
        # differential test reads it to show which rules its random play exercised
        self.branches = branches

    def _hit(self, *key) -> None:
        """Tally one branch: ("phase", name), ("exchange", kind, outcome), ("18.2", line), ..."""
        if self.branches is not None:
            self.branches[key] += 1

    # ---------------------------------------------------------------- the generator
    def _next(self) -> int:
        """splitmix64 (docs/engine.md, "Chance")."""
        self._x = (self._x + 0x9E3779B97F4A7C15) & MASK64
        z = self._x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def _draw(self, k: int) -> int:
        return self._next() % k

    # ---------------------------------------------------------------- public properties
    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def mano(self) -> int:
        """The seat to the right of the dealer (Art. 4.23)."""
        return (self._dealer + 1) % self.n

    @property
    def postre(self) -> int:
        return self._dealer

    @property
    def scores(self) -> tuple[int, int]:
        return (self._scores[0], self._scores[1])

    @property
    def juegos(self) -> tuple[int, int]:
        return (self._juegos[0], self._juegos[1])

    @property
    def juego_over(self) -> bool:
        return self._juego_over

    @property
    def partida_over(self) -> bool:
        need = (self.n_juegos + 1) // 2
        return max(self._juegos) >= need

    @property
    def done(self) -> bool:
        return not self._in_progress

    @property
    def to_act(self) -> int:
        return self._pending[0] if self._in_progress and self._pending else -1

    @property
    def phase(self) -> str:
        """blind, cante, play, flor_round, flor_envite, answer, reservada or done (docs/engine.md)."""
        if not self._in_progress or self._pending is None:
            return "done"
        return self._pending[2].lower()

    def legal_ids(self) -> list[int]:
        if not self._in_progress or self._pending is None:
            return []
        return list(self._pending[1])

    def legal(self) -> list[str]:
        return [ACTION_NAMES[a] for a in self.legal_ids()]

    def result(self) -> dict:
        if self._result is None or self._in_progress:
            raise ValueError("no finished mano: result() is available once the mano is done")
        return dict(self._result)

    # ---------------------------------------------------------------- dealing
    def deal(self, hands=None, dealer=None, scores=None) -> None:
        """Start a mano (see the module docstring for the readings R13, R14)."""
        if self._in_progress:
            raise ValueError("a mano is in progress: finish it before dealing again")
        if self.partida_over:
            raise ValueError("the partida is over")
        n = self.n
        if dealer is not None:
            if not isinstance(dealer, numbers.Integral) or not 0 <= dealer < n:
                raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
            dealer = int(dealer)
        if scores is not None:
            s0, s1 = (int(v) for v in scores)
            for v in (s0, s1):
                if not 0 <= v < self.target:
                    raise ValueError(f"scores must be in 0..{self.target - 1}, got {scores!r}")
        parsed = None
        if hands is not None:
            parsed = self._parse_hands(hands)
        # all checks passed: change the state
        if dealer is not None:
            self._dealer = dealer
        if scores is not None:
            self._scores = [s0, s1]
        mano = self.mano
        if parsed is None:
            deck = list(range(NUM_CARDS))
            for i in range(NUM_CARDS - 1, 0, -1):  # Fisher-Yates from the table's generator
                j = self._draw(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            parsed = [[-1] * 3 for _ in range(n)]
            for k in range(3 * n):  # one at a time, three rounds, from mano (Art. 4.11)
                parsed[(mano + k) % n][k // n] = deck[k]
        self.hands = [list(h) for h in parsed]
        self._start_mano()

    def _parse_hands(self, hands) -> list[list[int]]:
        if len(hands) != self.n:
            raise ValueError(f"expected {self.n} hands, got {len(hands)}")
        out = []
        for h in hands:
            if isinstance(h, str):
                cards = parse(h, count=3)
            else:
                items = list(h)
                if all(isinstance(c, numbers.Integral) for c in items):
                    for c in items:
                        if not 0 <= c < NUM_CARDS:
                            raise ValueError(f"card id {c!r} out of range 0..39")
                    cards = [int(c) for c in items]
                else:
                    cards = parse([str(c) for c in items])
                if len(cards) != 3:
                    raise ValueError(f"every hand has 3 cards, got {h!r}")
            out.append(list(cards))
        flat = [c for h in out for c in h]
        if len(set(flat)) != len(flat):
            dup = sorted({card_str(c) for c in flat if flat.count(c) > 1})
            raise ValueError(f"cards dealt twice: {', '.join(dup)}")
        return out

    def _start_mano(self) -> None:
        n = self.n
        self._juego_over = False
        self._result = None
        self._unplayed = [list(h) for h in self.hands]  # cards not yet played with "juego"
        self._gone = [False] * n  # me voy a baraja (13.14)
        self._novale = [False] * n  # la mía no vale (13.16)
        self._bet_pares = [False] * n  # flag: bet pares with cards in hand (10.10)
        self._challenged = [False] * n  # flag: truco/retruco/panueve with cards in hand (6.13)
        self._senas_made = [0] * n
        self.senas_log = []
        self._falta = self.target - max(self._scores)  # Art. 6.16, ruling 1
        self._al_cantar = [self._scores[t] == self.target - 1 for t in (0, 1)]  # Art. 8.1
        self._visible = False  # the cards are seen only after BLIND
        self._pares_bet: _Bet | None = None
        self._flores_bet: _Bet | None = None
        self._truco: _Bet | None = None
        self._truco_level = 0  # accepted challenge: 0 (none), 3, 6, 9
        self._truco_team: int | None = None  # team that made the last accepted challenge
        self._truque_refused: tuple[int, int] | None = None  # (team paid, chinas)
        self._truque_winner: int | None = None
        self._flor_round_done = False
        self._singers: list[int] = []
        self._cante_winner: int | None = None  # team that won the cante (Art. 8.2)
        self._completion = False  # completing the first round, truque over (14.10)
        # la falta a ciegas (Art. 12): its outcome once closed (None, "blind_quiero", "quiero",
        # "con_flor_quiero", "con_flor_no_quiero"), team A, B's singers, A's "de la mía"
        self._falta_mode: str | None = None
        self._falta_team: int | None = None
        self._falta_b_sang: list[int] = []
        self._de_la_mia: list[int] = []
        self._reservada_sang: list[int] = []
        self._flor_closed = False  # flores van cantadas: nobody sings flor later (12.3, 12.12)
        self._bazas: list[dict] = []
        self._phase = "BLIND"
        self._in_progress = True
        self._flow = self._mano()
        self._advance(None)

    # ---------------------------------------------------------------- acting
    def act(self, action) -> None:
        if not self._in_progress:
            raise ValueError("no mano in progress: call deal()")
        if isinstance(action, str):
            a = action_id(action)
        else:
            a = int(action)
            if not 0 <= a < NUM_ACTIONS:
                raise ValueError(f"action id {action!r} out of range 0..{NUM_ACTIONS - 1}")
        if a not in self._pending[1]:
            raise ValueError(
                f"illegal action {ACTION_NAMES[a]!r} for seat {self.to_act} in {self.phase}; "
                f"legal: {', '.join(self.legal())}"
            )
        self.record.count(self.to_act, word_kind(ACTION_NAMES[a]))
        self._advance(a)

    def _advance(self, action) -> None:
        try:
            if action is None:
                self._pending = next(self._flow)
            else:
                self._pending = self._flow.send(action)
        except StopIteration:
            self._pending = None
            self._finish()

    def _ask(self, seat: int, options, phase: str):
        """One decision of ``seat``. Señas are added here (ruling 3): they do not pass the turn."""
        while True:
            opts = set(options)
            if self._can_sena(seat):
                opts.update(range(SENA_BASE, SENA_BASE + NUM_SENAS))
            self._phase = phase
            self._hit("phase", phase)
            a = yield (seat, sorted(opts), phase)
            if _is_sena(a):
                self._do_sena(seat, a - SENA_BASE)
                continue
            return a

    def _can_sena(self, seat: int) -> bool:
        # R1, R2: after the deal, while holding an unplayed card, fewer than senas_per_mano made
        return (
            self._visible
            and not self._gone[seat]
            and len(self._unplayed[seat]) > 0
            and self._senas_made[seat] < self.senas_per_mano
        )

    def _do_sena(self, seat: int, index: int) -> None:
        team = seat % 2
        mask = 0
        for s in range(self.n):
            if s % 2 == team and s != seat:  # partners always see it (R3: not the sender)
                mask |= 1 << s
        for s in range(self.n):  # each rival, ascending: intercepted with p_intercept
            if s % 2 != team and self._draw(1000) < self.p_intercept_permille:
                mask |= 1 << s
        self._senas_made[seat] += 1
        self.senas_log.append((seat, index, mask))

    # ---------------------------------------------------------------- seats and orders
    def _order_from(self, start: int) -> list[int]:
        return [(start + i) % self.n for i in range(self.n)]

    def _order_after(self, seat: int) -> list[int]:
        return [(seat + i) % self.n for i in range(1, self.n)]

    def _pos(self, seat: int) -> int:
        """Distance from mano: "closest to mano" is the smallest (Arts. 6.22, 11.6, 16.5)."""
        return (seat - self.mano) % self.n

    def _in_truque(self, seat: int) -> bool:
        return not self._gone[seat] and not self._novale[seat]

    def _can_flor(self, seat: int) -> bool:
        """Flor at one's turn in the first baza (10.7, 10.10, 10.12, 10.18)."""
        hand = self.hands[seat]
        if self._flor_round_done or self._flor_closed or not has_flor(hand):
            return False
        if any(self._al_cantar):  # the cante was his only chance to sing flor (Art. 8)
            return False
        return is_reservada(hand) or not (self._bet_pares[seat] or self._challenged[seat])

    def _can_envite(self, seat: int) -> bool:
        """Envite de pares at one's turn in the first baza (6.6-6.9, 6.13, Art. 8)."""
        return (
            self._pares_bet is None
            and not self._flor_round_done
            and not self._flor_closed
            and not any(self._al_cantar)
            and not self._challenged[seat]
        )

    # ---------------------------------------------------------------- the mano
    def _mano(self):
        # BLIND, skipped when either team is al cantar (15.7, Art. 8)
        if not any(self._al_cantar):
            yield from self._blind_round()
        self._visible = True  # the deal becomes visible
        yield from self._close()
        if any(self._al_cantar):
            ended = yield from self._cante()
            if ended:
                return
        yield from self._play()
        yield from self._reservada_round()

    def _blind_round(self):
        """Apuestas a ciegas (Arts. 7, 15, 17.19-17.21): one blind turn per seat from mano."""
        for seat in self._order_from(self.mano):
            opts = [PASO]
            if self._pares_bet is None:
                opts += list(range(PARES_BASE, PARES_BASE + MAX_PARES_N)) + [FALTA]  # 7.6, 12.1
            if self._truco is None:
                opts.append(TRUCO)
            a = yield from self._ask(seat, opts, "BLIND")
            if _is_pares_envio(a) or a == FALTA:
                pb = self._pares_bet = _Bet("pares", seat, _nominal(a))
                pb.blind_falta = a == FALTA  # la falta a ciegas (12.1)
                yield from self._exchange(pb, luego_ok=True)
                if pb.blind_falta:  # also when la falta came as a blind revoque (7.7, 12.21)
                    self._falta_team = pb.raiser % 2
                    if pb.status == "accepted":  # quiero a ciegas (12.12): closed
                        self._falta_mode = "blind_quiero"
                        self._flor_closed = True
                    # no quiero a ciegas: an ordinary refused envite; luego: CLOSE
                elif pb.status == "accepted":
                    pb.accepted_blind = True  # querer con derecho a revocar, 7.4
            elif a == TRUCO:
                self._truco = _Bet("truco", seat, 3)
                yield from self._exchange(self._truco, luego_ok=True)
                if self._truco.status == "refused":
                    self._completion = True  # the whole first round completes (14.10)

    def _close(self):
        """Closing the blind bets before any card, envite first (7.3, 7.4, 15.3, 15.5, 17.21)."""
        pb = self._pares_bet
        if pb is not None and pb.status == "pending" and pb.blind_falta:
            yield from self._falta_answer(pb)  # the answer with cards (12.4-12.7)
        elif pb is not None and pb.status == "pending":
            yield from self._exchange(pb, luego_ok=False)
        elif pb is not None and pb.status == "accepted" and pb.accepted_blind:
            yield from self._exchange(pb, luego_ok=False, revoke_right=True)
        tb = self._truco
        if tb is not None and tb.status == "pending":
            yield from self._exchange(tb, luego_ok=False)
            if tb.status == "refused":
                self._completion = True

    def _cante(self):
        """Al cantar (Art. 8). Returns True when the mano ends at once (8.4)."""
        for seat in self._order_from(self.mano):
            if self._gone[seat]:
                continue
            opts = [CANTO_PARES]
            if has_flor(self.hands[seat]):
                opts.append(FLOR)
            a = yield from self._ask(seat, opts, "CANTE")
            if a == FLOR:  # 8.3: the first flor annuls the cante
                self._hit("rule", "8.3 flor in the cante")
                yield from self._flor_round(seat)
                return False
        w = self._best_pares_seat()
        self._cante_winner = w % 2  # 18.2 f: one china
        if self._al_cantar[w % 2]:
            self._hit("rule", "8.4 the team al cantar wins the cante")
        return self._al_cantar[w % 2]

    # ---------------------------------------------------------------- ANSWER
    def _answerers(self, bet: _Bet) -> list[int]:
        team = 1 - bet.raiser % 2
        seats = [s for s in self._order_after(bet.raiser) if s % 2 == team and not self._gone[s]]
        if bet.kind == "flores":  # 11.4: only those who sang flor
            seats = [s for s in seats if s in self._singers]
        return seats

    def _raise_options(self, bet: _Bet, standing) -> list[int]:
        floor = bet.stake
        if standing is not None and _is_raise(standing):
            floor = _nominal(standing)  # a later answer must be strictly larger (17.8)
        opts = []
        if bet.kind == "pares":
            opts += [a for a in range(PARES_BASE, PARES_BASE + MAX_PARES_N) if _nominal(a) > floor]
            if floor != math.inf:  # a ciegas: la falta a ciegas (7.7, 12.21)
                opts.append(FALTA)
        elif bet.kind == "flores":
            opts += [
                a for a in range(FLORES_BASE, FLORES_BASE + MAX_FLORES_N) if _nominal(a) > floor
            ]
            if floor != math.inf:
                opts.append(FALTA)
        else:  # truco: only the next level (14.6, 14.7)
            nxt = {3: RETRUCO, 6: PANUEVE}.get(bet.stake)
            if nxt is not None and standing != nxt:
                opts.append(nxt)
        return opts

    def _exchange(self, bet: _Bet, luego_ok: bool, revoke_right: bool = False):
        """An exchange of answers by a team (6.3-6.4, 6.10, 14.5-14.7, 11.4, 17.8; ruling 4)."""
        saved_phase = self._phase
        bet.status = "open"
        standing_init = QUIERO if revoke_right else None
        while True:
            standing = standing_init
            giver = None
            for seat in self._answerers(bet):
                if standing is None:  # the first member must answer
                    opts = ([LUEGO] if luego_ok else []) + [NO_QUIERO, QUIERO]
                else:  # later members: paso or a strictly larger answer
                    opts = [PASO] + [
                        a for a in (NO_QUIERO, QUIERO) if _answer_rank(a) > _answer_rank(standing)
                    ]
                opts += self._raise_options(bet, standing)
                a = yield from self._ask(seat, opts, "ANSWER")
                if self._visible:  # R6: flags set by what was said with the cards in hand
                    if bet.kind == "pares" and (a == QUIERO or _is_raise(a)):
                        self._bet_pares[seat] = True
                    if bet.kind == "truco" and a in (RETRUCO, PANUEVE):
                        self._challenged[seat] = True
                if a != PASO:
                    standing, giver = a, seat
            standing_init = None
            self._hit("exchange", bet.kind + (" a ciegas" if not self._visible else "")
                      + (" revoke right" if revoke_right else ""), _outcome(standing))
            if standing == LUEGO:
                bet.status = "pending"  # luego te lo digo (7.2, 15.2)
                break
            if standing == NO_QUIERO:
                bet.status = "refused"
                break
            if standing == QUIERO:
                bet.status = "accepted"
                break
            # a raise: the stake is accepted and raised; the other team answers (6.4)
            bet.prev = bet.stake
            bet.stake = _nominal(standing)
            bet.raiser = giver
            if bet.kind == "pares" and standing == FALTA and not self._visible:
                bet.blind_falta = True  # revocar con la falta a ciegas (7.7, 12.21)
        if bet.kind == "truco":
            if bet.status == "accepted":
                self._truco_level = int(bet.stake)
                self._truco_team = bet.raiser % 2
            elif bet.status == "refused":  # 14.9, 14.14
                pay = 1 if bet.prev is None else int(bet.prev)
                self._truque_refused = (bet.raiser % 2, pay)
        self._phase = saved_phase

    # ---------------------------------------------------------------- la falta a ciegas
    def _falta_answer(self, bet: _Bet):
        """B answers la falta a ciegas with the cards (12.4-12.7, 17.8; ruling 4).

        The team's answer is accepted-or-not (any quiero accepts) plus which members sang flor
        (the two *con flor* answers sing it).
        """
        saved_phase = self._phase
        accepted = False
        sang: list[int] = []
        for i, seat in enumerate(self._answerers(bet)):
            flor = has_flor(self.hands[seat])
            if i == 0:
                opts = [NO_QUIERO, QUIERO]
                if flor:
                    opts += [CON_FLOR_NO_QUIERO, CON_FLOR_QUIERO]
            elif not accepted:
                opts = [PASO, QUIERO] + ([CON_FLOR_NO_QUIERO, CON_FLOR_QUIERO] if flor else [])
            else:
                opts = [PASO] + ([CON_FLOR_QUIERO] if flor else [])
            a = yield from self._ask(seat, opts, "ANSWER")
            if a == QUIERO:
                self._bet_pares[seat] = True  # R6
            if a in (QUIERO, CON_FLOR_QUIERO):
                accepted = True
            if a in (CON_FLOR_QUIERO, CON_FLOR_NO_QUIERO):
                sang.append(seat)
        self._falta_b_sang = sang
        self._hit("exchange", "falta a ciegas with cards",
                  ("con flor " if sang else "") + ("quiero" if accepted else "no quiero"))
        self._flor_closed = True  # 12.3, 12.4, 12.7: whatever the answer, no flor is sung later
        if not accepted and not sang:  # an ordinary refused envite (18.2 a, c)
            bet.status = "refused"
        else:  # A's flores van cantadas (12.3); no envite later
            bet.status = "accepted" if accepted else "refused"
            self._falta_mode = ("con_flor_" if sang else "") + ("quiero" if accepted else "no_quiero")
        self._phase = saved_phase

    def _flores_of(self, team: int) -> list[int]:
        """Seats of ``team`` still in the mano holding a flor."""
        return [s for s in range(self.n) if s % 2 == team and not self._gone[s] and has_flor(self.hands[s])]

    def _reservada_round(self):
        """RESERVADA (12.13, 12.17): after ``quiero`` with the cards, if A holds flor, each player
        of B still in the mano with a reservada (none of B sang), in order from mano, says
        ``flor`` or ``paso``."""
        if self._falta_mode != "quiero" or not self._flores_of(self._falta_team):
            return
        b = 1 - self._falta_team
        for seat in self._order_from(self.mano):
            if seat % 2 == b and not self._gone[seat] and is_reservada(self.hands[seat]):
                a = yield from self._ask(seat, [PASO, FLOR], "RESERVADA")
                if a == FLOR:
                    self._reservada_sang.append(seat)

    def _falta_chinas(self) -> tuple[list[int], list[int]]:
        """Pares and flores chinas of la falta a ciegas (18.2 d, e, l-r; docs/engine.md)."""
        falta = self._falta
        pares = [0, 0]
        flores = [0, 0]
        a = self._falta_team
        b = 1 - a
        mode = self._falta_mode
        flores_a = self._flores_of(a)
        b_sang = [s for s in self._falta_b_sang if not self._gone[s]]
        if mode == "blind_quiero":  # 18.2 e, q, r
            table = flores_a + self._flores_of(b)
            teams = {s % 2 for s in table}
            if not table:
                pares[self._best_pares_seat() % 2] += falta  # e
                self._hit("18.2", "e")
            elif len(teams) == 1:
                flores[teams.pop()] += 3 * len(table)  # q
                self._hit("18.2", "q")
            else:
                flores[self._best_flor_seat(table) % 2] += 3 * len(table) + falta  # r
                self._hit("18.2", "r")
        elif mode == "quiero":  # 18.2 d, p; 12.13
            if not flores_a:
                pares[self._best_pares_seat() % 2] += falta  # d
                self._hit("18.2", "d")
            elif not self._reservada_sang:
                flores[a] += 3 * len(flores_a)  # p
                self._hit("18.2", "p")
            else:
                table = flores_a + self._reservada_sang
                flores[self._best_flor_seat(table) % 2] += 3 * len(table) + falta  # 12.13
                self._hit("rule", "12.13 reservada sung against A's flores")
        elif mode == "con_flor_quiero":  # 18.2 m, o
            if not flores_a:
                flores[b] += 3 * len(b_sang)  # o
                self._hit("18.2", "o")
            else:
                table = flores_a + b_sang
                flores[self._best_flor_seat(table) % 2] += 3 * len(table) + falta  # m
                self._hit("18.2", "m")
        elif mode == "con_flor_no_quiero":  # 18.2 l, n
            declared = [s for s in self._de_la_mia if not self._gone[s]]
            if declared:
                flores[a] += 3 * len(declared) + 1  # l
                self._hit("18.2", "l")
            else:
                flores[b] += 3 * len(b_sang)  # n
                self._hit("18.2", "n")
        return pares, flores

    # ---------------------------------------------------------------- flores
    def _flor_round(self, singer: int):
        """FLOR_ROUND (10.9, 10.16, 10.17, 8.3), then FLOR_ENVITE if both teams sang."""
        saved_phase = self._phase
        self._flor_round_done = True  # flor closed for the mano; pares void (6.8, 10.5)
        self._singers.append(singer)
        p = self._pos(singer)
        order = self._order_from(self.mano)
        ahead = [s for s in order if self._pos(s) > p and not self._gone[s]]
        behind = [s for s in order if self._pos(s) < p and not self._gone[s]]
        for seat in ahead:  # any flor, if eligible
            hand = self.hands[seat]
            opts = [PASO]
            if has_flor(hand) and (
                is_reservada(hand) or not (self._bet_pares[seat] or self._challenged[seat])
            ):
                opts.append(FLOR)
            a = yield from self._ask(seat, opts, "FLOR_ROUND")
            if a == FLOR:
                self._singers.append(seat)
        for seat in behind:  # only a reservada from behind (10.9, 10.17)
            opts = [PASO] + ([FLOR] if is_reservada(self.hands[seat]) else [])
            a = yield from self._ask(seat, opts, "FLOR_ROUND")
            if a == FLOR:
                self._singers.append(seat)
        if len({s % 2 for s in self._singers}) == 2:
            yield from self._flor_envite()
        self._phase = saved_phase

    def _flor_envite(self):
        """FLOR_ENVITE (Art. 11): singers from mano speak until an envite or all pass (11.3)."""
        singers = sorted((s for s in self._singers if not self._gone[s]), key=self._pos)
        for seat in singers:
            opts = [PASO] + list(range(FLORES_BASE, FLORES_BASE + MAX_FLORES_N)) + [FALTA]
            a = yield from self._ask(seat, opts, "FLOR_ENVITE")
            if a != PASO:
                self._flores_bet = _Bet("flores", seat, _nominal(a))
                yield from self._exchange(self._flores_bet, luego_ok=False)
                return

    # ---------------------------------------------------------------- PLAY
    def _can_de_la_mia(self, seat: int, baza: int) -> bool:
        """After ``con flor, no quiero``: a player of A with flor declares it at his turn in the
        first baza, before playing (12.8, 12.9)."""
        return (
            baza == 0
            and self._falta_mode == "con_flor_no_quiero"
            and seat % 2 == self._falta_team
            and seat not in self._de_la_mia
            and has_flor(self.hands[seat])
        )

    def _turn_options(self, seat: int, baza: int) -> list[int]:
        if self._completion:  # 14.10: truque over, the first round completes
            opts = [PASO]
            if self._can_de_la_mia(seat, baza):
                opts.append(DE_LA_MIA)
            if self._can_envite(seat):
                opts += list(range(PARES_BASE, PARES_BASE + MAX_PARES_N)) + [FALTA]
            if self._can_flor(seat):
                opts.append(FLOR)
            return opts
        opts = [PLAY_BASE + c for c in self._unplayed[seat]]  # 13.3
        if self._can_de_la_mia(seat, baza):
            opts.append(DE_LA_MIA)
        if baza == 0 and self._can_flor(seat):
            opts.append(FLOR)
        if baza == 0 and self._can_envite(seat):
            opts += list(range(PARES_BASE, PARES_BASE + MAX_PARES_N)) + [FALTA]
        if self._truque_refused is None:
            if self._truco is None:
                opts.append(TRUCO)  # 14.4
            elif self._truco.status == "accepted" and self._truco_team != seat % 2:
                nxt = {3: RETRUCO, 6: PANUEVE}.get(self._truco_level)  # 14.8
                if nxt is not None:
                    opts.append(nxt)
        opts.append(BARAJA)  # 13.14
        if baza >= 1 and any(
            s != seat and s % 2 == seat % 2 and self._in_truque(s) for s in range(self.n)
        ):
            opts.append(NO_VALE)  # 13.16
        return opts

    def _turn(self, seat: int, baza: int, cards: list):
        """One turn in a baza. Returns True when the mano ends during it."""
        while True:
            a = yield from self._ask(seat, self._turn_options(seat, baza), "PLAY")
            if _is_play(a):
                card = a - PLAY_BASE
                self._unplayed[seat].remove(card)
                cards.append((seat, card))
                return False
            if a == PASO:  # completion round: leave the cards on the table (14.10)
                self._hit("rule", "14.10 completion round turn")
                return False
            if a == FLOR:
                yield from self._flor_round(seat)
                continue
            if a == DE_LA_MIA:  # 12.8, 12.9: then his turn goes on
                self._de_la_mia.append(seat)
                self._hit("rule", "12.8 de la mía")
                continue
            if _is_pares_envio(a) or a == FALTA:
                self._bet_pares[seat] = True  # 10.10
                self._pares_bet = _Bet("pares", seat, _nominal(a))
                yield from self._exchange(self._pares_bet, luego_ok=False)
                continue
            if a in (TRUCO, RETRUCO, PANUEVE):
                self._challenged[seat] = True  # 6.13, 10.12
                if a == TRUCO:
                    self._truco = _Bet("truco", seat, 3)
                else:
                    self._truco.prev = self._truco.stake
                    self._truco.stake = _nominal(a)
                    self._truco.raiser = seat
                yield from self._exchange(self._truco, luego_ok=False)
                if self._truco.status == "refused":
                    if baza == 0:
                        self._completion = True  # 14.10: the same player keeps his turn
                        continue
                    return True  # 14.9: the truque is over and so is the mano
                continue
            if a == BARAJA:
                self._gone[seat] = True
                team = seat % 2
                if not any(self._in_truque(s) for s in range(self.n) if s % 2 == team):  # 13.14
                    self._truque_winner = 1 - team
                    self._hit("rule", "13.14 a team goes a baraja")
                    return True
                self._hit("rule", "13.14 one player goes a baraja")
                return False
            if a == NO_VALE:
                self._novale[seat] = True
                self._hit("rule", "13.16 la mía no vale")
                return False
            raise AssertionError(f"unhandled action {a}")  # pragma: no cover

    def _play(self):
        """The bazas (Arts. 13, 14, 16)."""
        lead = self.mano
        for baza in range(3):
            cards: list[tuple[int, int]] = []
            for seat in self._order_from(lead):
                if not self._in_truque(seat):
                    continue
                ended = yield from self._turn(seat, baza, cards)
                if ended:
                    return
            if self._completion:  # the first round is complete; the truque was refused
                return
            result, winner = self._resolve_baza(cards)
            self._bazas.append({"cards": cards, "result": result, "winner": winner})
            self._hit("baza", f"{baza + 1}: " + ("parda" if result == PARDA else "won"))
            decided = self._truque_decided()
            if decided is not None:
                self._truque_winner = decided
                return
            lead = self.mano if result == PARDA else winner  # 13.6, 16.2, 16.4

    def _resolve_baza(self, cards) -> tuple[int, int | None]:
        """Highest power wins (13.5); both teams on it: parda (16.1); partners: the earlier (13.7).

        A team with nobody in the baza loses it; nobody at all: parda (R9).
        """
        if not cards:
            return PARDA, None
        top = max(truque_power(c) for _, c in cards)
        top_seats = [s for s, c in cards if truque_power(c) == top]  # in playing order
        if len({s % 2 for s in top_seats}) == 2:
            return PARDA, None
        return top_seats[0] % 2, top_seats[0]

    def _truque_decided(self) -> int | None:
        """Who won the truque so far (13.10, 13.11, 16.4, 16.5), or None."""
        r = [b["result"] for b in self._bazas]
        if len(r) < 2:
            return None
        for t in (0, 1):
            if r.count(t) >= 2:
                return t
        r1, r2 = r[0], r[1]
        if len(r) == 2:
            if r1 != PARDA and r2 == PARDA:
                return r1
            if r1 == PARDA and r2 != PARDA:
                return r2
            return None  # split or double parda: the third decides
        r3 = r[2]
        if r1 != PARDA and r2 != PARDA:  # split
            return r3 if r3 != PARDA else r1
        # r1 and r2 parda
        if r3 != PARDA:
            return r3
        third = self._bazas[2]["cards"]
        self._hit("rule", "16.5 three pardas: por la mano")
        if not third:
            return self.mano % 2  # R9
        top = max(truque_power(c) for _, c in third)
        seat = min((s for s, c in third if truque_power(c) == top), key=self._pos)
        return seat % 2  # 16.5: "gana por la mano"

    # ---------------------------------------------------------------- DONE
    def _best_pares_seat(self) -> int:
        seats = [s for s in range(self.n) if not self._gone[s]]
        return min(seats, key=lambda s: (-pares_value(self.hands[s]), self._pos(s)))

    def _best_flor_seat(self, singers) -> int:
        return min(singers, key=lambda s: (-flor_value(self.hands[s]), self._pos(s)))

    def _finish(self) -> None:
        falta = self._falta
        pares = [0, 0]
        flores = [0, 0]
        truque = [0, 0]
        if self._falta_mode is not None:  # la falta a ciegas replaces pares and flores
            pares, flores = self._falta_chinas()
        elif not self._flor_round_done:  # a flor annuls the pares (6.8, 10.5)
            if self._cante_winner is not None:
                pares[self._cante_winner] += 1  # 18.2 f
                self._hit("18.2", "f")
            pb = self._pares_bet
            if pb is not None and pb.status == "accepted":  # 6.20, 6.22, 18.2 b
                w = self._best_pares_seat()
                pares[w % 2] += int(min(pb.stake, falta))
                self._hit("18.2", "b")
            elif pb is not None and pb.status == "refused":  # 6.18, 6.19, 18.2 a, c
                pay = 1 if pb.prev is None else pb.prev
                pares[pb.raiser % 2] += int(min(pay, falta))
                self._hit("18.2", "a" if pb.prev is None else "c")
        singers = [s for s in self._singers if not self._gone[s]]  # 13.15
        if singers and self._falta_mode is None:
            count = [sum(1 for s in singers if s % 2 == t) for t in (0, 1)]
            fb = self._flores_bet
            if fb is None:
                if count[0] and count[1]:  # both sang, no envite (11.10)
                    t = self._best_flor_seat(singers) % 2
                    self._hit("rule", "11.10 both teams sang, no envite")
                    self._hit("18.2", "i")
                else:  # only one team sang (18.2 g)
                    t = 0 if count[0] else 1
                    self._hit("18.2", "g")
                flores[t] += 3 * count[t]
            elif fb.status == "refused":
                t = fb.raiser % 2
                if fb.prev is None:  # 11.5, 18.2 h: tres de ella y una de derribe
                    flores[t] += 3 * count[t] + 1
                    self._hit("18.2", "h")
                    self._hit("18.2", "i")  # the refusing team's flores are derribadas
                else:  # 11.9, 18.2 k (R12: capped at the falta)
                    flores[t] += 3 * (count[0] + count[1]) + int(min(fb.prev, falta))
                    self._hit("18.2", "k")
            elif fb.status == "accepted":  # 11.7, 11.8, 18.2 j
                t = self._best_flor_seat(singers) % 2
                flores[t] += 3 * (count[0] + count[1]) + int(min(fb.stake, falta))
                self._hit("18.2", "j")
                if count[1 - t]:
                    self._hit("18.2", "i")  # the loser's flores are vencidas
        if self._truque_refused is not None:  # 14.14, 18.2 s-u
            t, pay = self._truque_refused
            truque[t] += pay
            self._hit("18.2", {1: "s", 3: "t", 6: "u"}[pay])
        elif self._truque_winner is not None:  # 13.13, 18.2 v
            truque[self._truque_winner] += self._truco_level if self._truco_level else 1
            if self._truco_level:
                self._hit("18.2", "v")
            else:
                self._hit("rule", "13.13 truque without a challenge")
        self._result = {"pares": tuple(pares), "flores": tuple(flores), "truque": tuple(truque)}
        # the score, source by source, pares-flores first (17.3); the target ends the juego at once
        for source in (pares, flores, truque):
            for t in (0, 1):
                if source[t] == 0:
                    continue
                self._scores[t] += source[t]
                if self._scores[t] >= self.target:
                    self._hit("rule", "18.1 a juego won")
                    self._juegos[t] += 1
                    self._scores = [0, 0]
                    self._juego_over = True
                    break
            if self._juego_over:
                break
        self.record.close_mano(self._juego_over)
        self._in_progress = False
        self._phase = "DONE"
        self._dealer = (self._dealer + 1) % self.n  # R13: the dealer rotates (Art. 4.2)
