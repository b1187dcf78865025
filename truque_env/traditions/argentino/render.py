"""A readable account of one truco argentino table, in the words of seeds 003 and 004 (the
environments' ``render``).

:func:`render_state` reads an engine state row (``layout``) and, optionally, the table's
public-word history (``observation``). With ``viewer=None`` it is the spectator's view (every
hand, every seña and who saw it); with ``viewer=seat`` only what that player may know: his own
cards once they are looked at, the cards shown at the end, the señas he saw. Bets, bazas, the
words said, the score and the tantos of the mano are public.
"""

from __future__ import annotations

import numpy as np

from truque_env.cards import card_str, hand_str
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.traditions.argentino import observation as O

PHASE_WORDS = ("todo dicho, antes de mirar las cartas", "bazas", "respuesta", "mano terminada")
BET_WORDS = ("no hay", "esperan respuesta", "querido", "no querido", "anulado por la flor")
TRUCO_LEVELS = ("", "truco", "retruco", "vale cuatro")
FLOR_LEVELS = ("flor", "contraflor", "contraflor al resto")
EX_KINDS = ("", "envido", "truco", "envido y truco a la vez", "flor", "uno y uno")
TD_WORDS = ("", "dicho, sin contestar", "anulado por la flor", "si hay flor, contraflor al resto", "contestado")
SOURCES = ("envido", "flor", "truco")


def _v(s, field, k=0) -> int:
    return int(s[field + k])


def _seats(mask: int, n: int) -> list[int]:
    return [q for q in range(n) if (mask >> q) & 1]


def _seat_list(seats) -> str:
    seats = list(seats)
    if not seats:
        return "nadie"
    return f"el jugador {seats[0]}" if len(seats) == 1 else "los jugadores " + ", ".join(str(q) for q in seats)


def _envido_stake(stake: int) -> str:
    return "falta envido" if stake == L.FALTA_NOMINAL else f"{stake} tantos"


def _words(hist) -> list[str]:
    if hist is None:
        return []
    count = int(hist[0])
    out = []
    for i in range(max(0, count - O.MAX_HISTORY), count):
        e = int(hist[1 + i % O.MAX_HISTORY])
        out.append(f"{e >> 8}: {A.ACTION_NAMES[e & 0xFF]}")
    return out


def render_state(state, hist=None, viewer: int | None = None) -> str:
    """The table in words: cards, bazas, bets, señas, score and tantos (see the module doc)."""
    s = np.asarray(state)
    n = _v(s, L.N_PLAYERS)
    if n == 0:
        return "Truco argentino: mesa sin configurar"
    if viewer is not None and not 0 <= int(viewer) < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    ts = n // 2
    phase = _v(s, L.PHASE)
    target = _v(s, L.TARGET)
    to_win = _v(s, L.JUEGOS_TO_WIN)
    lines = [f"Truco argentino, {ts} contra {ts}: a {target} tantos ({target // 2} malas y {target - target // 2} "
             f"buenas), partida al mejor de {2 * to_win - 1} juego{'s' if to_win > 1 else ''}"]
    lines.append(f"Tanteo: equipo 0 ({_seat_list(range(0, n, 2))}) {_v(s, L.SCORE)}, equipo 1 "
                 f"({_seat_list(range(1, n, 2))}) {_v(s, L.SCORE, 1)}; juegos {_v(s, L.JUEGOS)}-{_v(s, L.JUEGOS, 1)}")
    if _v(s, L.HAND) < 0:
        lines.append(f"Sin repartir; da el jugador {_v(s, L.DEALER)}")
        return "\n".join(lines)
    mano = _v(s, L.MANO_SEAT)
    lines.append(f"Mano {_v(s, L.MANO_COUNT) + (0 if phase == L.PH_DONE else 1)}: es mano el jugador {mano}; "
                 f"la falta son {_v(s, L.FALTA)} tantos")
    where = f"Fase: {PHASE_WORDS[phase]}"
    if phase in (L.PH_PLAY, L.PH_ANSWER):
        where += f", baza {_v(s, L.BAZA) + 1}"
    if phase != L.PH_DONE:
        where += f"; le toca al jugador {_v(s, L.TO_ACT)}"
    lines.append(where)

    seen = _v(s, L.CARDS_SEEN) == 1 or phase == L.PH_DONE
    folded, sung = _v(s, L.FOLDED), _v(s, L.FLOR_SUNG)

    def notes(q: int, own: bool) -> str:
        out = []
        if own:
            out.append(f"envido {_v(s, L.ENVIDO_VAL, q)}")
            if _v(s, L.FLOR_VAL, q) > 0:
                out.append(f"flor de {_v(s, L.FLOR_VAL, q)}")
        if (folded >> q) & 1:
            out.append("se fue al mazo")
        if (sung >> q) & 1:
            out.append("cantó flor")
        if (_v(s, L.ENV_SHOWN) >> q) & 1:
            out.append(f"cantó {_v(s, L.ENVIDO_VAL, q)} de envido")
        return f" [{'; '.join(out)}]" if out else ""

    def hand_of(q: int):
        played = _v(s, L.HAND_PLAYED, q)
        cards = [_v(s, L.HAND, 3 * q + k) for k in range(3)]
        return ([c for k, c in enumerate(cards) if not (played >> k) & 1],
                [c for k, c in enumerate(cards) if (played >> k) & 1])

    if viewer is None:
        lines.append("Cartas:")
        for q in range(n):
            left, played = hand_of(q)
            txt = hand_str(left) or "ninguna"
            if played:
                txt += f" (jugadas: {hand_str(played)})"
            lines.append(f"  jugador {q} (equipo {q % 2}): {txt}{notes(q, True)}")
        if not seen:
            lines.append("  (nadie ha mirado aún sus cartas)")
    else:
        v = int(viewer)
        lines.append(f"Vista del jugador {v} (equipo {v % 2}):")
        lines.append(f"  tus cartas: {hand_str(hand_of(v)[0]) or 'ninguna'}{notes(v, True)}" if seen
                     else "  tus cartas: boca abajo (aún sin mirar)")
        h = hist if hist is not None else np.zeros(O.HISTORY_SIZE, dtype=np.int16)
        obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
        O.observe(s, h, v, obs)
        rev = O.split(obs)["revealed"]
        for r in range(1, n):
            cards = [int(c) for c in np.flatnonzero(rev[r])]
            if cards:
                lines.append(f"  a la vista, del jugador {(v + r) % n}: {hand_str(cards)}")
        for q in range(n):
            if q != v and notes(q, False):
                lines.append(f"  jugador {q}:{notes(q, False)}")

    bazas = []
    for b in range(3):
        plays = [(q, _v(s, L.PLAYED, b * L.MAX_PLAYERS + q)) for q in range(n)]
        plays = [(q, c) for q, c in plays if c >= 0]
        w = _v(s, L.BAZA_WIN_TEAM, b)
        if not plays:
            continue
        txt = ", ".join(f"{q}: {card_str(c)}" for q, c in plays)
        res = "parda" if w == L.BAZA_PARDA else (f"la gana el equipo {w} (jugador {_v(s, L.BAZA_WIN_SEAT, b)})"
                                                 if w >= 0 else "en juego")
        bazas.append(f"  baza {b + 1}: {txt} -> {res}")
    if bazas:
        lines.append("Bazas:")
        lines += bazas

    lines.append("Cantos:")
    est = _v(s, L.ENV_ST)
    if est == L.BET_NONE:
        lines.append("  envido: no hay")
    else:
        txt = f"  envido: {_envido_stake(_v(s, L.ENV_STAKE))} del jugador {_v(s, L.ENV_RAISER)}, {BET_WORDS[est]}"
        if est == L.BET_OPEN or est == L.BET_REFUSED:
            txt += f" (no quiero paga {_v(s, L.ENV_PREV)})"
        if _v(s, L.ENV_WINNER) >= 0:
            txt += f"; lo gana el jugador {_v(s, L.ENV_WINNER)}"
        lines.append(txt)
    flor = "  flor: " + ("nadie ha cantado" if sung == 0 else f"cantada por {_seat_list(_seats(sung, n))}")
    if _v(s, L.FLOR_ST) != L.FLOR_NONE and sung and _v(s, L.FLOR_RAISER) >= 0:
        flor += f"; {FLOR_LEVELS[_v(s, L.FLOR_LEVEL)]} del jugador {_v(s, L.FLOR_RAISER)}"
    lines.append(flor)
    tst = _v(s, L.TRUCO_ST)
    if tst == L.BET_NONE:
        lines.append("  truco: nadie lo ha cantado (vale 1 tanto)")
    else:
        lvl = _v(s, L.TRUCO_LEVEL)
        txt = f"  truco: {TRUCO_LEVELS[lvl]} ({lvl + 1} tantos) del jugador {_v(s, L.TRUCO_RAISER)}, {BET_WORDS[tst]}"
        if tst == L.BET_ACCEPTED and lvl < 3:
            txt += f"; puede subirlo el equipo {_v(s, L.HAB_TEAM)}"
        lines.append(txt)
    if _v(s, L.TD_ST) != L.TD_NONE:
        lines.append(f"  falta envido y truco, todo dicho (jugador {_v(s, L.TD_SEAT)}): {TD_WORDS[_v(s, L.TD_ST)]}")
    if phase == L.PH_ANSWER:
        lines.append(f"  respuesta en curso: {EX_KINDS[_v(s, L.EX_KIND)]}, contesta el equipo {_v(s, L.EX_TEAM)}")

    senas = []
    for i in range(_v(s, L.SENA_LOG_N)):
        w = _v(s, L.SENA_LOG, i) & 0x7FFF
        q, sena, seen_by = w & 7, (w >> 3) & 15, (w >> 7) & 0xFF
        if viewer is None:
            senas.append(f"  jugador {q}: seña de {A.SENA_NAMES[sena]} (la ven {_seat_list(_seats(seen_by, n))})")
        elif q == viewer or (seen_by >> viewer) & 1:
            senas.append(f"  jugador {q}: seña de {A.SENA_NAMES[sena]}" + (" (tuya)" if q == viewer else ""))
    if senas:
        lines.append("Señas" + (" que viste:" if viewer is not None else ":"))
        lines += senas
    words = _words(hist)
    if words:
        lines.append("Dicho en la mano (jugador: palabra): " + "; ".join(words))
    if phase == L.PH_DONE:
        ch = [[_v(s, L.CHINAS, 3 * t + k) for k in range(3)] for t in range(2)]
        parts = ", ".join(f"{SOURCES[k]} {ch[0][k]}-{ch[1][k]}" for k in range(3))
        lines.append(f"Tantos de la mano (equipo 0-equipo 1): {parts}; apuntados {_v(s, L.SCORED)}-{_v(s, L.SCORED, 1)}")
        w = _v(s, L.LAST_JUEGO_WINNER)
        if w >= 0:
            lines.append(f"El equipo {w} gana el juego" + ("; y la partida" if _v(s, L.PARTIDA_OVER) else ""))
    return "\n".join(lines)
