"""Scripted deals for the Reglamento del Truque Moteño: general rules and shared helpers.

Every test deals fixed hands, scripts every word said at the table and checks the chinas of
the mano (``result()``) by hand-computed values. Each runs against every implementation of the
mano (fixture ``table_factory``, tests/conftest.py). The state machine is docs/engine.md; the
articles are quoted from ``../shared/seeds/000_a3a1ca8e9494fdbc.txt``; rulings from
``../shared/rules/README.md``.

Themes: this file (helpers, Art. 17 answers by a team, ruling 1 juego/partida, illegal
actions), ``test_rules_moteno_pares.py`` (Arts. 5-8), ``test_rules_moteno_flores.py``
(Arts. 9-11), ``test_rules_moteno_truque.py`` (Arts. 13-16).

Card notation: rank then suit letter O C E B (``11B`` el perro, ``10O`` la perra, ``11O`` el
cascabel, ``1E`` la espada). Unless a test says otherwise the dealer is the last seat, so the
mano is seat 0 and seats play 0, 1, ... in order; seat ``s`` is on team ``s % 2``.
"""

from __future__ import annotations

import pytest

from truque_env.traditions.moteno.actions import action_id

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

#: every envite de pares by name, smallest first (envío 1 par .. envío 15 pares)
PARES_BETS = ["envío 1 par"] + [f"envío {n} pares" for n in range(2, 16)]
#: every envite de flores by name (envío 1 flor .. envío 10 flores)
FLORES_BETS = ["envío 1 flor"] + [f"envío {n} flores" for n in range(2, 11)]
FALTA = "envío la falta"


def pares_raises(stake: int) -> set[str]:
    """The pares revoques allowed over a nominal stake of ``stake`` chinas (2N > stake, or la falta)."""
    return {name for n, name in enumerate(PARES_BETS, start=1) if 2 * n > stake} | {FALTA}


def flores_raises(stake: int) -> set[str]:
    """The flores revoques allowed over a stake of ``stake`` chinas (3N > stake, or la falta)."""
    return {name for n, name in enumerate(FLORES_BETS, start=1) if 3 * n > stake} | {FALTA}


def start(table_factory, hands, dealer=None, scores=(0, 0), target=30, blind=True):
    """A table dealt ``hands`` (seat i gets hands[i]); mano is ``dealer + 1``.

    The dealer defaults to the last seat, so the mano is seat 0. With ``blind=True`` every seat
    says "paso" in the blind round (nothing a ciegas, Art. 17.19).
    """
    n = len(hands)
    t = table_factory(team_size=n // 2, target=target, seed=0, senas_per_mano=0, p_intercept=0.1)
    if dealer is None:
        dealer = n - 1
    t.deal(hands=list(hands), dealer=dealer, scores=tuple(scores))
    if blind:
        pass_blind(t, n, first=(dealer + 1) % n)
    return t


def pass_blind(t, count, first=None):
    """``count`` blind turns of "paso" in seat order (from ``first`` when given): nobody bets a ciegas."""
    for i in range(count):
        if first is not None:
            assert t.to_act == (first + i) % count
        names = legal(t)
        assert not any(a.startswith("juego ") for a in names), "no card is played a ciegas"
        t.act("paso")


def legal(t) -> set[str]:
    return set(t.legal())


def cards_in(names) -> set[str]:
    return {a for a in names if a.startswith("juego ")}


def play(t, *cards):
    """Play each card in turn ("juego <card>"); the seat to act must hold it."""
    for card in cards:
        t.act(f"juego {card}")


def play_out(t, limit=200):
    """Finish the mano without any bet: each seat plays its lowest card id; "paso" when no card
    may be played (completing the first round, 14.10)."""
    for _ in range(limit):
        if t.done:
            return
        names = t.legal()
        cards = sorted(cards_in(names), key=action_id)
        if cards:
            t.act(cards[0])
        elif "paso" in names:
            t.act("paso")
        else:
            raise AssertionError(f"play_out: nothing to play among {sorted(names)}")
    raise AssertionError("play_out: the mano did not end")


def chinas(t) -> dict[str, tuple[int, int]]:
    """``result()`` as plain int tuples: chinas won this mano by team, per source."""
    r = t.result()
    return {k: tuple(int(x) for x in r[k]) for k in ("pares", "flores", "truque")}


def ints(pair) -> tuple[int, ...]:
    return tuple(int(x) for x in pair)


def result(pares=(0, 0), flores=(0, 0), truque=(0, 0)):
    return {"pares": pares, "flores": flores, "truque": truque}


# 1v1 hands used throughout: seat 0 wins the truque when it leads its matas.
STRONG = "1E 1B 4C"  # la espada, el basto: pares 4 (three suits, Art. 5.4)
WEAK = "3O 2C 5B"  # pares 5


# ---------------------------------------------------------------------------------------------
# Art. 17: turns, answers by a team (17.8), blind bets closed in order (17.21)
# ---------------------------------------------------------------------------------------------


def test_art_17_19_blind_turn_offers_paso_envite_truco(table_factory):
    """17.19: "Antes del reparto [...] los equipos tienen un turno de juego [...] para hacer
    apuestas a ciegas." No card is played a ciegas. (Whether ``envío la falta`` a ciegas, Art. 12,
    is offered is left out: see docs/rules/moteno.md.)"""
    t = start(table_factory, [STRONG, WEAK], blind=False)
    assert t.to_act == 0
    assert legal(t) - {FALTA} == {"paso", "truco"} | set(PARES_BETS)
    t.act("paso")
    assert t.to_act == 1
    assert legal(t) - {FALTA} == {"paso", "truco"} | set(PARES_BETS)
    t.act("paso")
    assert t.to_act == 0
    assert cards_in(legal(t)) == {"juego 1E", "juego 1B", "juego 4C"}


def test_art_17_4_first_turn_offers_cards_envite_truco_baraja(table_factory):
    """17.4: "Con las cartas repartidas [...] solamente está habilitado para iniciar una apuesta
    (mandar, cantar flor o trucar), el jugador que tiene el turno de juego." (6.9, 14.4, 13.14)"""
    t = start(table_factory, [STRONG, WEAK])
    assert t.to_act == 0
    assert legal(t) == (
        {"juego 1E", "juego 1B", "juego 4C", "truco", "me voy a baraja", FALTA} | set(PARES_BETS)
    )


def test_art_17_8_largest_answer_stands_2v2_quiero_beats_no_quiero(table_factory):
    """17.8: "se considera válida la respuesta que supone una apuesta mayor [...] un jugador
    dice: 'no quiero' y otro compañero dice: 'quiero', entonces vale el quiero"."""
    hands = ["1E 3O 4C", "7O 2B 5C", "6O 4B 12E", "7E 6E 3B"]
    t = start(table_factory, hands)
    play(t, "1E", "7O", "4B", "3B")  # la espada wins the first baza for team 0
    assert t.to_act == 0
    t.act("truco")
    assert t.to_act == 1  # the rival team answers in order after the raiser: seats 1, 3
    assert "paso" not in legal(t)  # the first member must answer
    t.act("no quiero")
    assert t.to_act == 3
    assert legal(t) == {"paso", "quiero", "retruco"}  # only larger answers than "no quiero"
    t.act("quiero")
    assert not t.done  # the truco was accepted after all
    assert t.to_act == 0
    # second baza: 3O (s0) 2B (s1) 12E (s2) 6E (s3): the tres wins, team 0 has two bazas
    play(t, "3O", "2B", "12E", "6E")
    assert t.done
    assert chinas(t) == result(truque=(3, 0))


def test_art_17_8_largest_answer_stands_2v2_retruco_beats_quiero(table_factory):
    """17.8: "se considera válida la respuesta que supone una apuesta mayor"; a retruco given by
    the second member stands over his partner's answer, and the other team answers it."""
    hands = ["1E 3O 4C", "7O 2B 5C", "6O 4B 12E", "7E 6E 3B"]
    t = start(table_factory, hands)
    play(t, "1E", "7O", "4B", "3B")
    t.act("truco")
    t.act("quiero")  # seat 1
    assert t.to_act == 3
    assert legal(t) == {"paso", "retruco"}
    t.act("retruco")  # seat 3: the retruco stands; team 0 answers in order after seat 3: 0, 2
    assert t.to_act == 0
    assert legal(t) == {"quiero", "no quiero", "panueve"}
    t.act("no quiero")
    assert t.to_act == 2
    assert legal(t) == {"paso", "quiero", "panueve"}
    t.act("paso")  # "no quiero" stands: the retruco refused pays the three of the truco (14.14)
    assert t.done
    assert chinas(t) == result(truque=(0, 3))


HANDS_3V3 = [
    "1E 3O 4C",  # s0 pares 4
    "7O 2B 5C",  # s1 pares 7
    "6O 4B 12E",  # s2 pares 6
    "7E 6E 3B",  # s3 pares 20 + 7 + 6 = 33
    "12O 2C 5E",  # s4 pares 5
    "11C 10B 4O",  # s5 pares 4
]


def test_art_17_8_largest_answer_stands_3v3_revoque_refused(table_factory):
    """17.8: "uno dice: 'un par más' y un compañero dice: 'la falta', entonces vale la falta";
    here seat 5's larger revoque stands over seat 1's and its refusal pays the stake before it."""
    t = start(table_factory, HANDS_3V3)
    t.act("envío 1 par")  # seat 0, two chinas
    assert t.to_act == 1  # team 1 answers in order after the raiser: 1, 3, 5
    t.act("envío 2 pares")
    assert t.to_act == 3
    assert legal(t) == {"paso"} | pares_raises(4)  # no quiero/quiero are smaller than the revoque
    t.act("paso")
    assert t.to_act == 5
    t.act("envío 3 pares")  # the largest answer stands: seat 5 is the raiser
    assert t.to_act == 0  # team 0 answers in order after seat 5: 0, 2, 4
    t.act("no quiero")
    assert t.to_act == 2
    t.act("paso")
    assert t.to_act == 4
    t.act("paso")
    assert t.to_act == 0  # the exchange is closed; the mano plays his first card
    play_out(t)
    # 6.19: the revoque refused wins the chinas staked before it: the two of "envío 1 par"
    assert chinas(t)["pares"] == (0, 2)


def test_art_17_8_largest_answer_stands_3v3_quiero_after_no_quiero(table_factory):
    """17.8: "un jugador dice: 'no quiero' y otro compañero dice: 'quiero', entonces vale el
    quiero" (three answers in a table of six)."""
    t = start(table_factory, HANDS_3V3)
    t.act("envío 2 pares")  # seat 0, four chinas
    t.act("no quiero")  # seat 1
    assert legal(t) == {"paso", "quiero"} | pares_raises(4)
    t.act("paso")  # seat 3
    t.act("quiero")  # seat 5: the quiero stands
    assert t.to_act == 0
    play_out(t)
    # 6.20: seat 3 shows the highest pares (33): team 1 wins the four chinas
    assert chinas(t)["pares"] == (0, 4)


def test_art_17_21_blind_envite_closed_before_blind_truco(table_factory):
    """17.21: "se debe cerrar primero la apuesta del envite y después la del truque. Esto siempre
    es así, aunque el truque se lanzase antes que el envite." (also 15.5)"""
    t = start(table_factory, [STRONG, WEAK], blind=False)
    t.act("truco")  # seat 0, a ciegas
    assert legal(t) == {"luego te lo digo", "quiero", "no quiero", "retruco"}
    t.act("luego te lo digo")  # seat 1 defers
    assert t.to_act == 1  # seat 1's own blind turn
    assert legal(t) - {FALTA} == {"paso"} | set(PARES_BETS)  # the truco is already made
    t.act("envío 1 par")
    assert t.to_act == 0
    assert "luego te lo digo" in legal(t)
    t.act("luego te lo digo")
    # the cards are dealt: first the envite is closed ...
    assert t.to_act == 0
    names = legal(t)
    assert {"quiero", "no quiero"} <= names
    assert "luego te lo digo" not in names and "retruco" not in names and not cards_in(names)
    t.act("quiero")
    # ... then the truco
    assert t.to_act == 1
    assert legal(t) == {"quiero", "no quiero", "retruco"}
    t.act("quiero")
    assert t.to_act == 0
    play(t, "1E", "3O", "1B", "2C")
    assert t.done
    # pares: seat 1 shows 5, seat 0 shows 4; truque: seat 0 wins two bazas, truco accepted
    assert chinas(t) == result(pares=(0, 2), truque=(3, 0))


# ---------------------------------------------------------------------------------------------
# Art. 18 / ruling 1: the juego ends at the target, scores, partida
# ---------------------------------------------------------------------------------------------


def test_art_18_2_scores_add_the_chinas_of_the_mano(table_factory):
    """18.1: "Los puntos o tantos apostados y anotados se llaman chinas y se disputan por
    juegos." The chinas of the mano are added to the juego scores."""
    t = start(table_factory, ["7C 6C 1E", "5O 4B 12E"], scores=(3, 4))
    t.act("envío 1 par")
    t.act("quiero")
    play(t, "1E", "4B", "7C", "12E", "5O", "6C")  # 1E wins, 12E wins and leads, 6C wins
    assert chinas(t) == result(pares=(2, 0), truque=(1, 0))
    assert ints(t.scores) == (6, 4)
    assert not t.juego_over


def test_ruling_1_juego_ends_at_target_later_chinas_not_scored(table_factory):
    """Ruling 1: a juego is won by the first team to reach ``target`` chinas; the chinas of
    pares-flores count before those of the truque (17.3), so the truque of that mano is reported
    but not scored; the scores start again from 0."""
    # falta = 30 - 28 = 2
    t = start(table_factory, ["7C 6C 1E", "3O 2B 12E"], scores=(28, 27))
    t.act("envío 1 par")
    t.act("quiero")
    play(t, "7C", "3O", "2B", "6C")  # seat 1 wins the first two bazas
    assert t.done
    assert chinas(t) == result(pares=(2, 0), truque=(0, 1))
    assert t.juego_over
    assert ints(t.juegos) == (1, 0)
    assert ints(t.scores) == (0, 0)
    assert not t.partida_over


def test_ruling_1_chinas_past_target_end_the_juego(table_factory):
    """Ruling 1: "Chinas that would pass the target still end the juego at once." A retruco
    accepted (six chinas) from 27 wins the juego of 30."""
    t = start(table_factory, [STRONG, WEAK], scores=(27, 5))
    t.act("truco")
    t.act("retruco")
    t.act("quiero")
    play(t, "1E", "3O", "1B", "2C")
    assert chinas(t) == result(truque=(6, 0))
    assert t.juego_over
    assert ints(t.juegos) == (1, 0)
    assert ints(t.scores) == (0, 0)


def test_ruling_1_partida_best_of_three_juegos(table_factory):
    """Ruling 1: "a partida is the best of ``juegos`` juegos, default 3"; each juego here is won
    by the cante of a team al cantar (Art. 8.4)."""
    t = table_factory(team_size=1, target=30, seed=0, senas_per_mano=0, p_intercept=0.1)
    good, bad = "7C 6C 1E", "5O 4B 12E"  # pares 33 and 5

    def cante_mano(hands, dealer, scores):
        t.deal(hands=hands, dealer=dealer, scores=scores)
        t.act("canto pares")
        t.act("canto pares")
        assert t.done and t.juego_over

    cante_mano([good, bad], dealer=1, scores=(29, 3))  # team 0 al cantar wins the cante
    assert ints(t.juegos) == (1, 0) and not t.partida_over
    cante_mano([bad, good], dealer=0, scores=(4, 29))  # team 1 al cantar wins the cante
    assert ints(t.juegos) == (1, 1) and not t.partida_over
    cante_mano([good, bad], dealer=1, scores=(29, 28))
    assert ints(t.juegos) == (2, 1)
    assert t.partida_over


# ---------------------------------------------------------------------------------------------
# illegal actions (ruling 5: the environment only offers legal actions)
# ---------------------------------------------------------------------------------------------


def _snapshot(t):
    return (t.to_act, sorted(t.legal()), bool(t.done))


@pytest.mark.parametrize(
    "setup, bad",
    [
        ("blind", "quiero"),  # nothing to answer
        ("blind", "juego 1E"),  # no card is played a ciegas
        ("blind", "retruco"),  # no truco to raise
        ("play", "juego 3O"),  # seat 1's card
        ("play", "juego 7E"),  # nobody holds it
        ("play", "quiero"),
        ("play", "flor"),  # seat 0 has no flor
        ("play", "la mía no vale"),  # first baza, and no partner
        ("play", "retruco"),
        ("play", "paso"),
        ("play", "envío 16 pares"),  # not in the catalogue
        ("play", "grito"),  # not a word of the game
        ("answer", "paso"),  # the first member must answer
        ("answer", "envío 1 par"),  # a revoque must raise (6.4)
        ("answer", "juego 3O"),  # the envite must be closed before playing (6.11)
        ("answer", "luego te lo digo"),  # only for blind bets (7.2)
        ("answer", "truco"),
    ],
)
def test_illegal_action_raises_and_leaves_state_unchanged(table_factory, setup, bad):
    """17.7, 17.11, 6.11 (ruling 5): an action out of turn, a confusing word or a bet that is
    not allowed is refused with ValueError, and the table is left exactly as it was."""
    t = start(table_factory, [STRONG, WEAK], blind=(setup != "blind"))
    if setup == "answer":
        t.act("envío 1 par")
    before = _snapshot(t)
    with pytest.raises(ValueError):
        t.act(bad)
    assert _snapshot(t) == before
    # and the table still plays on normally
    if setup == "answer":
        t.act("quiero")
    elif setup == "blind":
        pass_blind(t, 2)
    play(t, "1E", "3O", "1B", "2C")
    assert t.done


def test_no_action_after_the_mano_is_over(table_factory):
    """13.10: "si un equipo gana las dos primeras, gana el truque y se acaba la mano." Nothing
    more may be said or played."""
    t = start(table_factory, [STRONG, WEAK])
    play(t, "1E", "3O", "1B", "2C")
    assert t.done
    with pytest.raises(ValueError):
        t.act("juego 4C")
    with pytest.raises(ValueError):
        t.act("truco")


# ---------------------------------------------------------------------------------------------
# Arts. 3, 4: tables and deals; Art. 17.1-17.2, 17.9: bets in general
# ---------------------------------------------------------------------------------------------


def test_art_3_1_four_a_side_table_every_member_answers(table_factory):
    """3.1: "disputando partidas entre dos equipos cuyo número de jugadores puede variar entre dos
    y cuatro." A table of eight: the four members of team 1 answer in turn (17.8)."""
    hands = [
        "1E 3O 4C",  # s0 pares 4
        "7O 2B 5C",  # s1 7
        "6O 4B 12E",  # s2 6
        "7E 6E 3B",  # s3 33
        "12O 2C 5E",  # s4 5
        "11C 10B 4O",  # s5 4
        "2O 3C 6B",  # s6 6
        "7B 5B 1C",  # s7 20 + 7 + 5 = 32
    ]
    t = start(table_factory, hands)
    t.act("envío 1 par")
    for seat, word in ((1, "no quiero"), (3, "paso"), (5, "paso"), (7, "quiero")):
        assert t.to_act == seat
        t.act(word)
    assert t.to_act == 0
    play_out(t)
    assert chinas(t)["pares"] == (0, 2)  # seat 3's 33 beats seat 7's 32


def test_art_4_11_4_21_random_deal_three_cards_each(table_factory):
    """4.11: "se reparten tres cartas a cada jugador" (ruling 6: a uniform shuffle from the
    table's own generator); 4.21: nobody plays until everyone has his three cards."""
    t = table_factory(team_size=2, target=30, seed=5, senas_per_mano=0, p_intercept=0.1)
    t.deal(dealer=3)
    pass_blind(t, 4, first=0)
    seen = set()
    for seat in range(4):
        assert t.to_act == seat
        cards = sorted(cards_in(legal(t)), key=action_id)
        assert len(cards) == 3
        seen |= set(cards)
        t.act(cards[0])
    assert len(seen) == 12


def test_art_4_2_dealer_rotates_each_mano(table_factory):
    """4.2: "En cada tanda de juego o mano le toca dar a un jugador distinto y va pasando el turno
    por todos, rotando en el sentido normal de juego"; mano is the seat after the dealer (4.23)."""
    t = start(table_factory, [STRONG, WEAK], dealer=1)
    play(t, "1E", "3O", "1B", "2C")
    t.deal(hands=[STRONG, WEAK])  # no dealer given: the next one deals
    assert t.to_act == 1  # the new mano opens the blind round
    pass_blind(t, 2, first=1)
    assert t.to_act == 1
    assert ints(t.scores) == (1, 0)


def test_art_17_1_every_mano_starts_afresh(table_factory):
    """17.1: "se juegan manos independientes y lo que se diga en una mano no tiene ninguna validez
    para la mano siguiente." """
    t = start(table_factory, [STRONG, WEAK])
    t.act("truco")
    t.act("quiero")
    play(t, "1E", "3O", "1B", "2C")
    assert chinas(t) == result(truque=(3, 0))
    t.deal(hands=[STRONG, WEAK], dealer=1, scores=t.scores)
    pass_blind(t, 2, first=0)
    assert {"truco", "envío 1 par"} <= legal(t)  # the truco and flags of the last mano are gone
    play(t, "1E", "3O", "1B", "2C")
    assert chinas(t) == result(truque=(1, 0))
    assert ints(t.scores) == (4, 0)


def test_art_17_2_blind_pares_above_the_falta_is_still_pares(table_factory):
    """17.2: "mandar tres pares a ciegas, tiene las reglas propias de los pares a ciegas
    (Artículo 7), aunque falten menos de seis chinas". It is no falta a ciegas (Art. 12): no
    "con flor" answers; accepted, it pays at most la falta (4)."""
    t = start(table_factory, ["7C 6C 1E", "5O 4B 12E"], scores=(0, 26), blind=False)
    t.act("envío 3 pares")
    t.act("luego te lo digo")
    t.act("paso")
    names = legal(t)
    assert "quiero" in names
    assert not {"con flor, quiero", "con flor, no quiero"} & names
    t.act("quiero")
    play(t, "1E", "4B", "7C", "12E", "5O", "6C")
    assert chinas(t) == result(pares=(4, 0), truque=(1, 0))
    assert ints(t.scores) == (5, 26)


def test_art_17_9_flor_y_truco_in_that_order(table_factory):
    """17.9: "No vale decir: 'truco y la falta' o 'truco y flor' (el mismo jugador no puede
    mandar o cantar flor después de trucar). En este caso debe decirse: 'la falta y truco' o
    'flor y truco'." """
    t = start(table_factory, ["7C 6C 5C", "12O 3B 4E"])
    t.act("flor")
    t.act("paso")
    assert "truco" in legal(t)  # flor y truco
    t.act("truco")
    t.act("quiero")
    play(t, "7C", "12O", "4E", "5C", "6C", "3B")  # 12O, 5C, 3B: seat 1
    assert chinas(t) == result(flores=(3, 0), truque=(0, 3))
    t = start(table_factory, [STRONG, WEAK])
    t.act(FALTA)
    t.act("no quiero")
    assert "truco" in legal(t)  # la falta y truco
    t.act("truco")
    t.act("quiero")
    assert not (set(PARES_BETS) | {FALTA, "flor"}) & legal(t)
    play(t, "1E", "3O", "1B", "2C")
    assert chinas(t) == result(pares=(1, 0), truque=(3, 0))


def test_ruling_3_sena_by_the_player_to_act_does_not_pass_the_turn(table_factory):
    """Ruling 3 (Art. 19 is missing): señas are free messages; docs/engine.md: the player to act
    may make up to ``senas_per_mano`` of them, never during the blind round, and a seña does not
    pass the turn."""
    t = table_factory(team_size=1, target=30, seed=0, senas_per_mano=1, p_intercept=0.0)
    t.deal(hands=[STRONG, WEAK], dealer=1, scores=(0, 0))
    assert not any(a.startswith("seña") for a in legal(t))  # nobody has cards yet
    pass_blind(t, 2, first=0)
    before = legal(t)
    senas = {a for a in before if a.startswith("seña: ")}
    assert "seña: espada" in senas and len(senas) == 11
    t.act("seña: espada")
    assert t.to_act == 0
    assert legal(t) == before - senas  # one seña per mano here
    play(t, "1E", "3O", "1B", "2C")
    assert chinas(t) == result(truque=(1, 0))
