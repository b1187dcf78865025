"""The differential driver: the numba engine and the plain-Python reference play the same manos.

Both implementations get the same seed, the same deals and the same actions, and must agree at
every decision (player to act, phase, legal action ids, the juego's record of words) and after
every mano (chinas by source, scores, juegos, señas seen, the next dealer, the record). Uniform random play ends a juego in two or three
manos and rarely bets, so the driver steers play towards the rare branches:

* **styles**: each partida draws a weight per kind of action (cards, paso, quiero, no quiero,
  luego, flor words, small and large bets, truco words, baraja, la mía no vale, señas); a
  decision picks a kind among the legal ones by weight, then an action of that kind uniformly.
  One partida in five plays uniformly at random over the legal actions, as the old test did.
* **deals**: half the manos are shuffled by the tables' own generator (so the two generators
  are compared too); the other half are dealt by hand with flores, reservadas (two piezas) and
  *mirrored* hands, where a player and a rival hold cards of equal power (pardas, Art. 16).
* **scores**: some manos start near the target or with a team *al cantar* (Art. 8), and the
  targets include short ones, so la falta is small and its caps bind (6.16, 18.2 b, j).
* **partidas**: play goes on into new partidas (new tables, new seeds) until the mano budget.

Which branches were reached is tallied by the reference (``RefTable.branches``) and by the
driver (deal kinds, starts), kept in ``COVERAGE`` by team size and printed at the end of the
pytest run (``tests/conftest.py``). The engine is driven through its kernels (``legal_mask``,
``step_unchecked``) on the state array of a ``Table``, without ``Table.act``'s logging, so that
10⁴ manos per team size fit in CI.
"""

from __future__ import annotations

import collections
import random

import numpy as np

from tests.reference.moteno_ref import RefTable
from truque_env import Table
from truque_env.cards import card_id
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L

# --------------------------------------------------------------------------------------------
# kinds of action, for the styles

KINDS = ("card", "paso", "quiero", "no quiero", "luego", "flor", "bet", "big bet", "truco",
         "baraja", "no vale", "seña", "canto")


def _kind_of_action() -> list[int]:
    k = KINDS.index
    out = []
    for a in range(A.NUM_ACTIONS):
        if A.PLAY_BASE <= a < A.PLAY_BASE + 40:
            out.append(k("card"))
        elif A.PARES_BASE <= a < A.PARES_BASE + A.MAX_PARES_N:
            out.append(k("bet") if a - A.PARES_BASE < 4 else k("big bet"))
        elif A.FLORES_BASE <= a < A.FLORES_BASE + A.MAX_FLORES_N or a == A.FALTA:
            out.append(k("big bet"))
        elif a >= A.SENA_BASE:
            out.append(k("seña"))
        else:
            out.append(k({A.PASO: "paso", A.QUIERO: "quiero", A.NO_QUIERO: "no quiero", A.LUEGO: "luego",
                          A.FLOR: "flor", A.CON_FLOR_QUIERO: "flor", A.CON_FLOR_NO_QUIERO: "flor",
                          A.DE_LA_MIA: "flor", A.CANTO_PARES: "canto", A.TRUCO: "truco",
                          A.RETRUCO: "truco", A.PANUEVE: "truco", A.BARAJA: "baraja",
                          A.NO_VALE: "no vale"}[a]))
    return out


KIND_OF = _kind_of_action()


# words a style may say whenever it can: the ones the rare lines of 18.2 need in sequence (la
# falta a ciegas, luego, the answers con flor, de la mía, the raises of the truco)
EAGER_WORDS = (A.FALTA, A.LUEGO, A.CON_FLOR_NO_QUIERO, A.CON_FLOR_QUIERO, A.DE_LA_MIA, A.FLOR,
               A.QUIERO, A.NO_QUIERO, A.PASO, A.RETRUCO, A.PANUEVE, A.BARAJA, A.NO_VALE)


class Style:
    """How one partida is played: weights per kind of action, and eager words said whenever
    legal (nine times in ten). ``weights`` None: uniform over the legal actions."""

    def __init__(self, rng: random.Random):
        self.weights: list[float] | None = None
        self.eager: frozenset[int] = frozenset()
        if rng.random() < 0.2:
            return
        w = [2.0 ** rng.uniform(-4, 4) for _ in KINDS]
        w[KINDS.index("card")] *= 4  # the mano must still get played most of the time
        self.weights = w
        if rng.random() < 0.5:
            self.eager = frozenset(a for a in EAGER_WORDS if rng.random() < 0.3)

    def choose(self, rng: random.Random, legal: list[int]) -> int:
        if self.weights is None:
            return rng.choice(legal)
        if self.eager:
            eager = [a for a in legal if a in self.eager]
            if eager and rng.random() < 0.9:
                return rng.choice(eager)
        by_kind: dict[int, list[int]] = {}
        for a in legal:
            by_kind.setdefault(KIND_OF[a], []).append(a)
        kinds = list(by_kind)
        kind = rng.choices(kinds, weights=[self.weights[k] for k in kinds])[0]
        return rng.choice(by_kind[kind])


# --------------------------------------------------------------------------------------------
# deals with equal and linked cards

PIEZAS = [card_id(11, "B"), card_id(10, "O"), card_id(11, "O")]
# cards that tie in truque power (Art. 2, ruling 2), without the piezas and the matas
TIE_GROUPS = [
    [card_id(3, s) for s in "OCEB"], [card_id(2, s) for s in "OCEB"], [card_id(1, "O"), card_id(1, "C")],
    [card_id(12, s) for s in "OCEB"], [card_id(11, "C"), card_id(11, "E")],
    [card_id(10, "C"), card_id(10, "E"), card_id(10, "B")], [card_id(7, "C"), card_id(7, "B")],
    [card_id(6, s) for s in "OCEB"], [card_id(5, s) for s in "OCEB"], [card_id(4, s) for s in "OCEB"],
]
DEAL_KINDS = ("flor", "pieza flor", "reservada", "mirror", "random")


def crafted_deal(rng: random.Random, n: int) -> tuple[list[list[int]], list[str]]:
    """Hands for ``n`` seats: each seat gets a flor, a pieza flor, a reservada, a hand mirrored
    by the next seat (a rival: cards of equal power) or random cards; what could not be
    satisfied from the cards left is filled at random."""
    free = set(range(40))
    hands: list[list[int] | None] = [None] * n
    kinds = ["random"] * n

    def take(cards):
        for c in cards:
            free.discard(c)
        return list(cards)

    mirrored_table = rng.random() < 0.25  # every seat mirrored by the next: pardas all round
    for seat in range(n):
        if hands[seat] is not None:
            continue
        kind = "mirror" if mirrored_table else rng.choice(DEAL_KINDS)
        if kind == "flor":
            suit = rng.randrange(4)
            pool = [c for c in free if c // 10 == suit and c not in PIEZAS]
            if len(pool) >= 3:
                hands[seat], kinds[seat] = take(rng.sample(pool, 3)), kind
        elif kind == "pieza flor":
            piezas = [c for c in PIEZAS if c in free]
            suit = rng.randrange(4)
            pool = [c for c in free if c // 10 == suit and c not in PIEZAS]
            if piezas and len(pool) >= 2:
                hands[seat], kinds[seat] = take([rng.choice(piezas)] + rng.sample(pool, 2)), kind
        elif kind == "reservada":
            piezas = [c for c in PIEZAS if c in free]
            if len(piezas) >= 2:
                two = take(rng.sample(piezas, 2))
                hands[seat], kinds[seat] = two + take([rng.choice(sorted(free))]), kind
        elif kind == "mirror" and hands[(seat + 1) % n] is None:
            groups = [g for g in TIE_GROUPS if sum(c in free for c in g) >= 2]
            if len(groups) >= 3:
                mine, theirs = [], []
                for g in rng.sample(groups, 3):
                    a, b = rng.sample([c for c in g if c in free], 2)
                    mine.append(a)
                    theirs.append(b)
                hands[seat], hands[(seat + 1) % n] = take(mine), take(theirs)
                kinds[seat] = kinds[(seat + 1) % n] = kind
    for seat in range(n):
        if hands[seat] is None:
            hands[seat] = take(rng.sample(sorted(free), 3))
    return hands, kinds


# --------------------------------------------------------------------------------------------
# playing

COVERAGE: dict[int, collections.Counter] = {}


class Disagreement(AssertionError):
    pass


def _check(cond: bool, what: str, eng: Table, ref: RefTable, history: list[str]) -> None:
    if not cond:
        raise Disagreement(f"{what}\nseed {eng.seed}, team_size {eng.team_size}, target {eng.target}\n"
                           f"hands {eng.hands}\nactions so far: {', '.join(history)}")


def play_partida(team_size: int, seed: int, max_manos: int, tally: collections.Counter,
                 via_table: bool = False) -> int:
    """Play one partida (at most ``max_manos`` manos) on both implementations; returns the manos.

    ``via_table``: step the engine with ``Table.act`` (its legality check and log) instead of
    the bare kernel."""
    rng = random.Random(seed)
    style = Style(rng)
    target = rng.choice((30, 30, 15, 6, 3))
    senas = rng.randrange(0, L.MAX_SENA_LOG // (2 * team_size) + 1)
    p = rng.choice((0.0, 0.1, 0.5, 1.0))
    juegos = rng.choice((1, 3))
    cfg = dict(team_size=team_size, seed=seed, senas_per_mano=senas, p_intercept=p, target=target, juegos=juegos)
    eng, ref = Table(**cfg), RefTable(branches=tally, **cfg)
    n = 2 * team_size
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    state = eng.state
    tally["start", "uniform play" if style.weights is None else
          "styled play, eager words" if style.eager else "styled play"] += 1
    manos = 0
    while manos < max_manos and not eng.partida_over:
        _check(not ref.partida_over, "partida over differs", eng, ref, [])
        scores = None
        if rng.random() < 0.2:  # near the target, al cantar (Art. 8) included
            scores = tuple(min(target - 1, max(0, target - rng.choice((1, 1, 2, 3, target)))) for _ in range(2))
            tally["start", "scores set near the target"] += 1
        dealer = rng.randrange(n) if rng.random() < 0.2 else None
        if rng.random() < 0.5:
            hands, kinds = crafted_deal(rng, n)
            for k in kinds:
                tally["deal", k] += 1
        else:
            hands = None
            tally["deal", "shuffled by the tables"] += 1
        eng.deal(hands=hands, dealer=dealer, scores=scores)
        ref.deal(hands=hands, dealer=dealer, scores=scores)
        history: list[str] = []
        _check(eng.hands == ref.hands, "the deal differs", eng, ref, history)
        _check((eng.dealer, eng.mano, eng.scores) == (ref.dealer, ref.mano, ref.scores), "dealer or scores differ",
               eng, ref, history)
        while int(state[L.PHASE]) != L.PH_DONE:
            _check(not ref.done, "the reference ended the mano, the engine did not", eng, ref, history)
            K.legal_mask(state, mask)
            legal = np.flatnonzero(mask).tolist()
            seat = int(state[L.TO_ACT])
            _check(seat == ref.to_act, f"to act: engine {seat}, reference {ref.to_act}", eng, ref, history)
            _check(L.PHASE_NAMES[int(state[L.PHASE])] == ref.phase,
                   f"phase: engine {L.PHASE_NAMES[int(state[L.PHASE])]}, reference {ref.phase}", eng, ref, history)
            ref_legal = ref.legal_ids()
            _check(legal == ref_legal, f"legal actions of jugador {seat}:\n engine    "
                   f"{[A.ACTION_NAMES[a] for a in legal]}\n reference {ref.legal()}", eng, ref, history)
            a = style.choose(rng, legal)
            history.append(f"{seat}:{A.ACTION_NAMES[a]}")
            if via_table:
                eng.act(a)
            else:
                K.step_unchecked(state, a)
            ref.act(a)
            _check(eng.juego_record == ref.record.as_dict(), f"juego record: engine {eng.juego_record}, "
                   f"reference {ref.record.as_dict()}", eng, ref, history)
        _check(ref.done, "the engine ended the mano, the reference did not", eng, ref, history)
        _check(eng.result() == ref.result(), f"chinas: engine {eng.result()}, reference {ref.result()}",
               eng, ref, history)
        _check((eng.scores, eng.juegos) == (ref.scores, ref.juegos), "scores or juegos differ", eng, ref, history)
        _check(eng.senas_log == ref.senas_log, "señas seen differ", eng, ref, history)
        _check((eng.dealer, eng.partida_over) == (ref.dealer, ref.partida_over), "next dealer or partida over differ",
               eng, ref, history)
        _check(eng.juego_record == ref.record.as_dict(), f"juego record after the mano: engine "
               f"{eng.juego_record}, reference {ref.record.as_dict()}", eng, ref, history)
        manos += 1
    tally["start", "partida played to its end"] += int(eng.partida_over)
    return manos


def run(team_size: int, manos: int, first_seed: int = 0, via_table: bool = False) -> collections.Counter:
    """Play partidas from ``first_seed`` on until ``manos`` manos have been compared."""
    tally = COVERAGE.setdefault(team_size, collections.Counter())
    done, seed = 0, first_seed
    while done < manos:
        done += play_partida(team_size, seed, min(60, manos - done), tally, via_table)
        seed += 1
    tally["start", "manos compared"] += done
    return tally


def format_coverage(coverage: dict[int, collections.Counter]) -> str:
    """A table: one row per branch, one column of counts per team size."""
    sizes = sorted(coverage)
    keys = sorted({k for c in coverage.values() for k in c}, key=lambda k: (k[0], k[1:]))
    head = f"{'branch':<66}" + "".join(f"{f'{s}v{s}':>9}" for s in sizes)
    lines = [head]
    for k in keys:
        label = " / ".join(str(x) for x in k)
        lines.append(f"{label:<66}" + "".join(f"{coverage[s][k]:>9}" for s in sizes))
    return "\n".join(lines)
