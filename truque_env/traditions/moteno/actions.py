"""The flat action catalogue, in the reglamento's words.

One integer per action; the same ids in every environment and in the engine. Amounts are the
*total* stake after the action (Art. 6.2: a revoque is said like an envite): ``envío 3 pares``
opens an envite of six chinas, or answers a smaller envite by revoking to six.

======  ==========================  =====================================================
id      name                        meaning (article)
======  ==========================  =====================================================
0       paso                        pass: nothing a ciegas (17.19); no flor (10.9); "la mía es
                                    pequeña" in the envite de flores (11.3); let a partner's
                                    answer stand (ruling 4); leave the cards on the table when
                                    the truque is over in the first round (14.10)
1       quiero                      accept (6.3, 14.5)
2       no quiero                   refuse (6.3, 14.5)
3       luego te lo digo            defer the answer to a blind bet until after the deal (7.2, 15.2)
4       flor                        sing flor (10.4)
5       canto pares                 sing one's pares when playing al cantar (8.2); the value is
                                    declared truthfully by the engine
6       truco                       challenge (14.1)
7       retruco                     raise the truco to six (14.6)
8       panueve                     raise the retruco to nine (14.7)
9       me voy a baraja             leave the mano (13.14)
10      la mía no vale              lay the remaining cards face down, out of the truque (13.16)
11      con flor, quiero            answer la falta a ciegas with flor (12.7)
12      con flor, no quiero         (12.7)
13      de la mía                   declare a flor against "con flor, no quiero" (12.8)
14..53  juego <card>                play that card (13.3); 14 + card id
54..68  envío N pares               N = 1..15, the stake 2N chinas (6.1, 6.15)
69..78  envío N flores              N = 1..10, the stake 3N chinas (11.1 b)
79      envío la falta              la falta (6.16, 11.8, 12.1)
80..90  seña: <name>                a free message to the table (ruling 3); does not pass the turn
======  ==========================  =====================================================
"""

from __future__ import annotations

from truque_env.cards import NUM_CARDS, card_str
from truque_env.traditions import action_kinds as K

PASO = 0
QUIERO = 1
NO_QUIERO = 2
LUEGO = 3
FLOR = 4
CANTO_PARES = 5
TRUCO = 6
RETRUCO = 7
PANUEVE = 8
BARAJA = 9
NO_VALE = 10
CON_FLOR_QUIERO = 11
CON_FLOR_NO_QUIERO = 12
DE_LA_MIA = 13
PLAY_BASE = 14
MAX_PARES_N = 15
PARES_BASE = PLAY_BASE + NUM_CARDS  # 54: envío 1 par
MAX_FLORES_N = 10
FLORES_BASE = PARES_BASE + MAX_PARES_N  # 69: envío 1 flor
FALTA = FLORES_BASE + MAX_FLORES_N  # 79
SENA_BASE = FALTA + 1  # 80
SENA_NAMES = (
    "perro",
    "perra",
    "cascabel",
    "espada",
    "basto",
    "mata de espadas",
    "mata de oros",
    "tres",
    "dos",
    "flor",
    "ciega",
)
NUM_SENAS = len(SENA_NAMES)
NUM_ACTIONS = SENA_BASE + NUM_SENAS  # 91

_FIXED = (
    "paso",
    "quiero",
    "no quiero",
    "luego te lo digo",
    "flor",
    "canto pares",
    "truco",
    "retruco",
    "panueve",
    "me voy a baraja",
    "la mía no vale",
    "con flor, quiero",
    "con flor, no quiero",
    "de la mía",
)


def _names() -> tuple[str, ...]:
    names = list(_FIXED)
    names += [f"juego {card_str(c)}" for c in range(NUM_CARDS)]
    names += ["envío 1 par"] + [f"envío {n} pares" for n in range(2, MAX_PARES_N + 1)]
    names += ["envío 1 flor"] + [f"envío {n} flores" for n in range(2, MAX_FLORES_N + 1)]
    names += ["envío la falta"]
    names += [f"seña: {s}" for s in SENA_NAMES]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _names()
_BY_NAME = {n: i for i, n in enumerate(ACTION_NAMES)}


def _kinds() -> tuple[int, ...]:
    kind = [K.OTHER] * NUM_ACTIONS  # paso, luego te lo digo, flor, canto pares, de la mía
    for a in (TRUCO, RETRUCO, PANUEVE, *range(PARES_BASE, FALTA + 1)):  # the envíos, la falta, the truques
        kind[a] = K.RAISE
    kind[QUIERO] = kind[CON_FLOR_QUIERO] = K.ACCEPT
    kind[NO_QUIERO] = kind[CON_FLOR_NO_QUIERO] = K.REFUSE
    kind[BARAJA] = kind[NO_VALE] = K.LEAVE
    kind[PLAY_BASE:PARES_BASE] = [K.PLAY] * NUM_CARDS
    kind[SENA_BASE:] = [K.SENA] * NUM_SENAS
    return tuple(kind)


ACTION_KIND: tuple[int, ...] = _kinds()  # truque_env.traditions.action_kinds, per action id


def action_id(name: str) -> int:
    """Id of an action by its name (``"envío 2 pares"``, ``"juego 11B"``); ``ValueError`` if unknown."""
    key = " ".join(name.strip().split())
    if key in _BY_NAME:
        return _BY_NAME[key]
    if key.startswith("juego "):  # accept any spelling of the card: "juego 11b"
        from truque_env.cards import parse_card

        return PLAY_BASE + parse_card(key[6:])
    raise ValueError(f"unknown action {name!r}; actions are named like 'quiero', 'truco', 'juego 7E', 'envío 2 pares'")


def action_name(action: int) -> str:
    if not 0 <= int(action) < NUM_ACTIONS:
        raise ValueError(f"action id {action!r} out of range 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[int(action)]
