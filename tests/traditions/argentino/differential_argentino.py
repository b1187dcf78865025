"""The argentino differential driver: the numba engine and the plain-Python reference
(tests/reference/argentino_ref.py) play the same manos and must agree at every decision (seat to
act, phase, legal ids, the juego's record of words) and after every mano (tantos by source,
scores, juegos, dealer, señas, the record).

Uniform play rarely reaches the flor's answers or the double calls, so the driver steers:

* **styles**: each partida draws a weight per kind of action (cards, paso, quiero, no quiero,
  envido words, double calls and answers, flor words, truco words, mazo, uno y uno, señas);
  a decision picks a legal kind by weight, then an action of it uniformly; one partida in five
  plays uniformly.
* **deals**: half the manos are shuffled by the tables' generators; the other half are dealt by
  hand with flores on both sides, flores in one team, and mirrored hands (pardas).
* **scores and options**: manos start near the target (the falta small, los tantos finales), and
  each partida draws its rule options (flor off, no todo dicho, the "match" variants, the fixed
  refusal pays, uno y uno in 1 contra 1).

The engine is driven through its kernels on the state of a ``Table``.
"""

from __future__ import annotations

import collections
import random

import numpy as np

from tests.reference.argentino_ref import RefTable
from truque_env import Table
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import kernels as K
from truque_env.traditions.argentino import layout as L

KINDS = ("card", "paso", "quiero", "no quiero", "envido", "double", "sin ley", "flor", "truco", "mazo", "uno",
         "seña", "todo dicho")


def _kind(a: int) -> str:
    if a >= A.SENA_BASE:
        return "seña"
    if a >= A.PLAY_BASE:
        return "card"
    if a in (A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO):
        return "envido"
    if A.ENVIDO_Y_TRUCO <= a < A.ENVIDO_Y_TRUCO + 3 or A.Y_QUIERO_RETRUCO <= a < A.Y_QUIERO_VALE_CUATRO + 3:
        return "double"
    if a in (A.SIN_LEY_PASO_Y_QUIERO, A.SIN_LEY_QUIERO_Y_PASO):
        return "sin ley"
    if A.FLOR <= a <= A.AL_RESTO:
        return "flor"
    return {A.PASO: "paso", A.QUIERO: "quiero", A.NO_QUIERO: "no quiero", A.TODO_DICHO: "todo dicho",
            A.TRUCO: "truco", A.RETRUCO: "truco", A.VALE_CUATRO: "truco", A.MAZO: "mazo", A.UNO_Y_UNO: "uno"}[a]


KIND_OF = [KINDS.index(_kind(a)) for a in range(A.NUM_ACTIONS)]


def _options(rng: random.Random, team_size: int) -> dict:
    if rng.random() < 0.4:
        return {}
    return {"flor": rng.random() < 0.75, "todo_dicho": rng.random() < 0.6,
            "falta_envido": rng.choice(("leader", "match")), "contraflor_al_resto": rng.choice(("leader", "match")),
            "uno_y_uno": team_size == 1 and rng.random() < 0.5, "achico_pays": rng.choice((0, 0, 4)),
            "al_resto_refused_pays": rng.choice((0, 0, 4))}


SUITS = "OCEB"
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)


def _scripted_hands(rng: random.Random, n: int) -> list[list[int]]:
    """Hands with flores (on both sides, or in one team) or mirrored ranks (pardas)."""
    deck = list(range(40))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    style = rng.choice(("flores", "flores", "one team", "mirror"))
    if style == "mirror":  # seat q and q+1 hold the same ranks in other suits where possible
        by_rank = collections.defaultdict(list)
        for c in deck:
            by_rank[c % 10].append(c)
        ranks = rng.sample(range(10), 3)
        for q in range(n):
            for r in ranks:
                hands[q].append(by_rank[r].pop() if by_rank[r] else None)
        used = {c for h in hands for c in h if c is not None}
        rest = [c for c in deck if c not in used]
        return [[c if c is not None else rest.pop() for c in h] for h in hands]
    flor_seats = [q for q in range(n) if (style == "flores" and rng.random() < 0.6)
                  or (style == "one team" and q % 2 == 0 and rng.random() < 0.7)]
    if style == "flores" and len({q % 2 for q in flor_seats}) < 2:
        flor_seats = [0, 1]
    suits = list(range(4))
    rng.shuffle(suits)
    pool = {s: [c for c in deck if c // 10 == s] for s in range(4)}
    for i, q in enumerate(flor_seats):
        s = suits[i % 4] if len(pool[suits[i % 4]]) >= 3 else max(pool, key=lambda k: len(pool[k]))
        hands[q] = [pool[s].pop() for _ in range(3)]
    used = {c for h in hands for c in h}
    rest = [c for c in deck if c not in used]
    for q in range(n):
        while len(hands[q]) < 3:
            hands[q].append(rest.pop())
    return hands


COVERAGE: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)


def run(team_size: int, manos: int, first_seed: int = 0) -> collections.Counter:
    """Play ``manos`` manos on both implementations; assert they agree; the words said, tallied."""
    rng = random.Random(first_seed * 7919 + team_size)
    tally: collections.Counter = collections.Counter()
    played = 0
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    partida = 0
    while played < manos:
        seed = first_seed + partida
        partida += 1
        options = _options(rng, team_size)
        target = rng.choice((30, 30, 30, 15, 9, 5))
        eng = Table(tradition="argentino", team_size=team_size, target=target, seed=seed, **options)
        ref = RefTable(team_size=team_size, target=target, seed=seed, **options)
        uniform = rng.random() < 0.2
        weights = [rng.random() ** 2 for _ in KINDS]
        s = eng.state
        while not eng.partida_over and played < manos:
            hands = _scripted_hands(rng, 2 * team_size) if rng.random() < 0.5 else None
            scores = None
            if rng.random() < 0.3:
                scores = (rng.randrange(target), rng.randrange(target))
            eng.deal(hands=hands, scores=scores)
            ref.deal(hands=hands, scores=scores)
            assert eng.hands == ref.hands and eng.mano == ref.mano
            while s[L.PHASE] != L.PH_DONE:
                K.legal_mask(s, mask)
                legal = [int(a) for a in np.flatnonzero(mask)]
                assert (int(s[L.TO_ACT]), L.PHASE_NAMES[int(s[L.PHASE])], legal) == (
                    ref.to_act, ref.phase, ref.legal_ids()), (options, eng.render())
                if uniform:
                    a = rng.choice(legal)
                else:
                    kinds = sorted({KIND_OF[a] for a in legal})
                    k = rng.choices(kinds, [weights[k] + 1e-3 for k in kinds])[0]
                    a = rng.choice([a for a in legal if KIND_OF[a] == k])
                tally[A.ACTION_NAMES[a] if a < A.PLAY_BASE else _kind(a)] += 1
                K.step_unchecked(s, a)
                ref.act(a)
                assert eng.juego_record == ref.record.as_dict(), (options, eng.render())
            assert ref.done
            assert eng.result() == ref.result(), (options, eng.render())
            assert (eng.scores, eng.juegos, eng.dealer) == (ref.scores, ref.juegos, ref.dealer)
            assert eng.senas_log == ref.senas_log
            assert eng.juego_record == ref.record.as_dict(), (options, eng.render())  # manos counted, or a new juego
            played += 1
            tally["manos"] += 1
        assert eng.partida_over == ref.partida_over
    COVERAGE[team_size].update(tally)
    return tally
