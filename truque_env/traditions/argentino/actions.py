"""The flat action catalogue of truco argentino, in the words of seeds 003 and 004.

One integer per action, the same ids in every environment and in the engine. "The only word
that accepts is QUIERO and NO QUIERO refuses" (004, A38): the catalogue has no other; the
"quiero y paso" and "paso y quiero" said without "sin ley" are read as 004 reads them,
``quiero`` and ``no quiero`` (A33, AE10: ``action_id`` takes them as those).

======  ===================================  =====================================================
id      name                                 meaning
======  ===================================  =====================================================
0       paso                                 no "todo dicho" at a blind turn (A33); let a partner
                                             answer for the team (ruling 4, the first answer binds)
1       quiero                               accept (the bet, or both bets of a double call)
2       no quiero                            refuse (both of a double call)
3       falta envido y truco, todo dicho     before the cards are looked at (A33)
4       flor                                 sing flor (obligatory, A8); answer a flor with one
5       con flor me achico                   (A11, A14)
6       con flor quiero                      accept a contraflor or al resto (A11, A14)
7       con flor no quiero                   refuse an al resto (A14)
8       contraflor                           (A11, A12)
9       contraflor al resto                  (A11, A13)
10      envido                               2, or +2 as a raise (A23, A24)
11      real envido                          3, or +3
12      falta envido                         (A23)
13-15   envido / real envido / falta envido  both at once (A34)
        y truco
16      sin ley quiero y paso                accept the envido only (A33, A34)
17      sin ley paso y quiero                accept the truco only
18-20   envido / real envido / falta envido  a double answer (A34): raise the envido and
        y quiero retruco                     accept the truco raising it
21-23   ... y quiero vale cuatro             the same against a retruco
24      truco                                (A40)
25      retruco                              after accepting a truco (A37)
26      vale cuatro                          after accepting a retruco
27      me voy al mazo                       (A30)
28      uno y uno                            (A39, an option)
29..68  juego <card>                         play that card; 29 + card id
69..76  seña: <name>                         a free message (A41, ruling 3); does not pass the turn
======  ===================================  =====================================================
"""

from __future__ import annotations

from truque_env.cards import NUM_CARDS, card_str
from truque_env.traditions import action_kinds as K

PASO = 0
QUIERO = 1
NO_QUIERO = 2
TODO_DICHO = 3
FLOR = 4
ME_ACHICO = 5
CON_FLOR_QUIERO = 6
CON_FLOR_NO_QUIERO = 7
CONTRAFLOR = 8
AL_RESTO = 9
ENVIDO = 10
REAL_ENVIDO = 11
FALTA_ENVIDO = 12
ENVIDO_Y_TRUCO = 13  # + 0, 1, 2: envido, real envido, falta envido
SIN_LEY_QUIERO_Y_PASO = 16
SIN_LEY_PASO_Y_QUIERO = 17
Y_QUIERO_RETRUCO = 18  # + 0, 1, 2
Y_QUIERO_VALE_CUATRO = 21  # + 0, 1, 2
TRUCO = 24
RETRUCO = 25
VALE_CUATRO = 26
MAZO = 27
UNO_Y_UNO = 28
PLAY_BASE = 29
SENA_BASE = PLAY_BASE + NUM_CARDS  # 69
SENA_NAMES = (  # ruling A41
    "ancho de espadas",
    "ancho de basto",
    "siete de espadas",
    "siete de oros",
    "tres",
    "dos",
    "flor",
    "nada",
)
NUM_SENAS = len(SENA_NAMES)
NUM_ACTIONS = SENA_BASE + NUM_SENAS  # 77
NUM_WORDS = PLAY_BASE  # the spoken words: 0 .. uno y uno

ENVIDO_WORDS = ("envido", "real envido", "falta envido")
_FIXED = (
    "paso",
    "quiero",
    "no quiero",
    "falta envido y truco, todo dicho",
    "flor",
    "con flor me achico",
    "con flor quiero",
    "con flor no quiero",
    "contraflor",
    "contraflor al resto",
    *ENVIDO_WORDS,
    *(f"{w} y truco" for w in ENVIDO_WORDS),
    "sin ley quiero y paso",
    "sin ley paso y quiero",
    *(f"{w} y quiero retruco" for w in ENVIDO_WORDS),
    *(f"{w} y quiero vale cuatro" for w in ENVIDO_WORDS),
    "truco",
    "retruco",
    "vale cuatro",
    "me voy al mazo",
    "uno y uno",
)


def _names() -> tuple[str, ...]:
    names = list(_FIXED)
    names += [f"juego {card_str(c)}" for c in range(NUM_CARDS)]
    names += [f"seña: {s}" for s in SENA_NAMES]
    assert len(names) == NUM_ACTIONS and names[UNO_Y_UNO] == "uno y uno"
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _names()
_BY_NAME = {n: i for i, n in enumerate(ACTION_NAMES)}


def _kinds() -> tuple[int, ...]:
    kind = [K.OTHER] * NUM_ACTIONS  # paso, flor, uno y uno
    # todo dicho, contraflor (al resto), the envidos (alone, y truco, y quiero retruco / vale cuatro), the trucos
    for a in (TODO_DICHO, CONTRAFLOR, AL_RESTO, *range(ENVIDO, SIN_LEY_QUIERO_Y_PASO),
              *range(Y_QUIERO_RETRUCO, TRUCO), TRUCO, RETRUCO, VALE_CUATRO):
        kind[a] = K.RAISE
    kind[QUIERO] = kind[CON_FLOR_QUIERO] = kind[SIN_LEY_QUIERO_Y_PASO] = kind[SIN_LEY_PASO_Y_QUIERO] = K.ACCEPT
    kind[NO_QUIERO] = kind[CON_FLOR_NO_QUIERO] = kind[ME_ACHICO] = K.REFUSE
    kind[MAZO] = K.LEAVE
    kind[PLAY_BASE:SENA_BASE] = [K.PLAY] * NUM_CARDS
    kind[SENA_BASE:] = [K.SENA] * NUM_SENAS
    return tuple(kind)


ACTION_KIND: tuple[int, ...] = _kinds()  # truque_env.traditions.action_kinds, per action id
ALIASES = {
    "quiero y paso": QUIERO,  # 004: without "sin ley" it accepts everything (AE10)
    "paso y quiero": NO_QUIERO,  # ... and this refuses everything
    "todo dicho": TODO_DICHO,
    "al mazo": MAZO,
}


def action_id(name: str) -> int:
    """Id of an action by its name (``"real envido"``, ``"juego 1E"``); ``ValueError`` if unknown."""
    key = " ".join(name.strip().lower().split())
    if key in _BY_NAME:
        return _BY_NAME[key]
    if key in ALIASES:
        return ALIASES[key]
    if key.startswith("juego "):  # any spelling of the card: "juego 1e"
        from truque_env.cards import parse_card

        return PLAY_BASE + parse_card(key[6:])
    raise ValueError(f"unknown action {name!r}; actions are named like 'quiero', 'envido', 'truco', "
                     "'juego 1E', 'contraflor al resto'")


def action_name(action: int) -> str:
    if not 0 <= int(action) < NUM_ACTIONS:
        raise ValueError(f"action id {action!r} out of range 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[int(action)]
