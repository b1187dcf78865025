"""A readable account of one table, in the reglamento's words (the environments' ``render``).

:func:`render_state` reads an engine state row (``truque_env.traditions.moteno.layout``) and, optionally,
the table's public-word history (``truque_env.traditions.moteno.observation``). With ``viewer=None`` it is
the spectator's view (every hand, every seña and who saw it); with ``viewer=seat`` it shows only
what that player may know: his own cards once the blind round is over, the cards laid face up
or shown at the end (the ``revealed`` slice of his observation), the señas he saw. Bets, bazas,
the words said, the score and the chinas of the mano are public.
"""

from __future__ import annotations

import numpy as np

from truque_env.cards import card_str, hand_str
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O

PHASE_WORDS = (
    "apuestas a ciegas",
    "cierre de las apuestas a ciegas",
    "al cantar (el cante)",
    "bazas",
    "ronda de flor",
    "envite de flores",
    "respuesta",
    "mano terminada",
    "la reservada (12.13)",
)
BET_WORDS = ("no hay", "abierto: esperan respuesta", "luego te lo digo", "querido", "no querido")
TRUCO_LEVELS = ("", "truco", "retruco", "panueve")
TRUCO_CHINAS = (0, 3, 6, 9)
FC_WORDS = ("", "no quiero", "quiero a ciegas", "quiero (con las cartas)", "con flor, quiero",
            "con flor, no quiero")
EX_KINDS = ("", "envite de pares", "truco", "envite de flores", "la falta a ciegas")
SOURCES = ("pares", "flores", "truque")


def _v(s, field, k=0) -> int:
    return int(s[field + k])


def _seats(mask: int, n: int) -> list[int]:
    return [q for q in range(n) if (mask >> q) & 1]


def _seat_list(seats) -> str:
    seats = list(seats)
    if not seats:
        return "nadie"
    if len(seats) == 1:
        return f"el jugador {seats[0]}"
    return "los jugadores " + ", ".join(str(q) for q in seats)


def _pares_stake(stake: int) -> str:
    if stake == L.FALTA_NOMINAL:
        return "la falta"
    if stake == 2:
        return "1 par (2 chinas)"
    return f"{stake // 2} pares ({stake} chinas)"


def _flores_stake(stake: int) -> str:
    if stake == L.FALTA_NOMINAL:
        return "la falta"
    n = stake // 3
    return f"{n} flor{'es' if n != 1 else ''} ({stake} chinas)"


def _answer_word(kind: int, best: int) -> str:
    if best == L.ANS_NONE:
        return "nadie ha contestado aún"
    if best == L.ANS_LUEGO:
        return "luego te lo digo"
    if best == L.ANS_NO_QUIERO:
        return "no quiero"
    if best == L.ANS_QUIERO:
        return "quiero"
    v = best - L.ANS_RAISE
    if kind == L.EX_TRUCO:
        return TRUCO_LEVELS[v] if 0 < v < 4 else f"subida {v}"
    if kind == L.EX_FLORES:
        return "envío " + _flores_stake(v)
    return "envío " + _pares_stake(v)


def _words(s, hist) -> list[str]:
    """The public words of the mano, oldest first (the last ``MAX_HISTORY`` kept)."""
    if hist is None:
        return []
    count = int(hist[0])
    out = []
    for i in range(max(0, count - O.MAX_HISTORY), count):
        e = int(hist[1 + i % O.MAX_HISTORY])
        seat, word = e >> 8, e & 0x7F
        name = A.ACTION_NAMES[word]
        if e & O.FLORES_CONTEXT:
            name += " (flores)"
        out.append(f"{seat}: {name}")
    return out


def _revealed_for(s, hist, viewer: int) -> dict[int, list[int]]:
    """Cards of other seats the viewer has seen face up (his observation's ``revealed`` slice)."""
    h = hist if hist is not None else np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
    O.observe(np.asarray(s), h, viewer, obs)
    rev = O.split(obs)["revealed"]
    n = _v(s, L.N_PLAYERS)
    out = {}
    for r in range(1, n):
        cards = [int(c) for c in np.flatnonzero(rev[r])]
        if cards:
            out[(viewer + r) % n] = cards
    return out


def render_state(state, hist=None, viewer: int | None = None) -> str:
    """The table in words: cards, bazas, bets, señas, score and chinas (see the module doc)."""
    s = np.asarray(state)
    n = _v(s, L.N_PLAYERS)
    if n == 0:
        return "Truque Moteño: mesa sin configurar"
    if viewer is not None and not 0 <= int(viewer) < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    ts = n // 2
    phase = _v(s, L.PHASE)
    dealt = _v(s, L.HAND) >= 0
    lines = []

    # -- the partida -----------------------------------------------------------------------
    target = _v(s, L.TARGET)
    to_win = _v(s, L.JUEGOS_TO_WIN)
    lines.append(f"Truque Moteño, {ts} contra {ts}: juego a {target} chinas, "
                 f"partida al mejor de {2 * to_win - 1} juego{'s' if to_win > 1 else ''}")
    teams = [f"equipo {t} ({_seat_list(range(t, n, 2))})" for t in range(2)]
    lines.append(f"Tanteo: {teams[0]} {_v(s, L.SCORE)}, {teams[1]} {_v(s, L.SCORE, 1)} chinas; "
                 f"juegos {_v(s, L.JUEGOS)}-{_v(s, L.JUEGOS, 1)}")
    if not dealt:
        lines.append(f"Sin repartir; da el jugador {_v(s, L.DEALER)}")
        return "\n".join(lines)
    mano = _v(s, L.MANO_SEAT)
    postre = (mano - 1) % n
    head = f"Mano {_v(s, L.MANO_COUNT) + (0 if phase == L.PH_DONE else 1)}: es mano el jugador {mano}, postre el {postre}"
    head += f"; la falta son {_v(s, L.FALTA)} chinas"
    if _v(s, L.AL_CANTAR):
        head += "; se juega al cantar"
    lines.append(head)
    where = f"Fase: {PHASE_WORDS[phase]}"
    if phase in (L.PH_PLAY, L.PH_FLOR_ROUND, L.PH_FLOR_ENVITE, L.PH_ANSWER) and _v(s, L.CARDS_SEEN):
        where += f", baza {_v(s, L.BAZA) + 1}"
    if phase != L.PH_DONE:
        where += f"; le toca al jugador {_v(s, L.TO_ACT)}"
    lines.append(where)

    # -- cards -----------------------------------------------------------------------------
    seen = _v(s, L.CARDS_SEEN) == 1 or phase == L.PH_DONE
    folded, no_vale = _v(s, L.FOLDED), _v(s, L.NO_VALE)
    sung, reservada = _v(s, L.FLOR_SUNG), _v(s, L.RESERVADA)

    def notes(q: int, own: bool) -> str:
        out = []
        if own:
            out.append(f"pares {_v(s, L.PARES_VAL, q)}")
            if _v(s, L.FLOR_VAL, q) > 0:
                out.append(f"flor de {_v(s, L.FLOR_VAL, q)}" + (", reservada" if (reservada >> q) & 1 else ""))
        if (folded >> q) & 1:
            out.append("se fue a baraja")
        if (no_vale >> q) & 1:
            out.append("la mía no vale")
        if (sung >> q) & 1:
            out.append("cantó flor")
        if (_v(s, L.FC_DECLARED) >> q) & 1:
            out.append("de la mía")
        return f" [{'; '.join(out)}]" if out else ""

    def hand_of(q: int) -> tuple[list[int], list[int]]:
        played = _v(s, L.HAND_PLAYED, q)
        cards = [_v(s, L.HAND, 3 * q + k) for k in range(3)]
        return [c for k, c in enumerate(cards) if not (played >> k) & 1], [c for k, c in enumerate(cards) if (played >> k) & 1]

    if viewer is None:
        lines.append("Cartas:")
        for q in range(n):
            left, played = hand_of(q)
            txt = hand_str(left) or "ninguna"
            if played:
                txt += f" (jugadas: {hand_str(played)})"
            lines.append(f"  jugador {q} (equipo {q % 2}): {txt}{notes(q, True)}")
        if not seen:
            lines.append("  (nadie ha visto aún sus cartas: apuestas a ciegas)")
    else:
        v = int(viewer)
        lines.append(f"Vista del jugador {v} (equipo {v % 2}):")
        if seen:
            left, _ = hand_of(v)
            lines.append(f"  tus cartas: {hand_str(left) or 'ninguna'}{notes(v, True)}")
        else:
            lines.append("  tus cartas: boca abajo (apuestas a ciegas)")
        for q, cards in sorted(_revealed_for(s, hist, v).items()):
            lines.append(f"  a la vista, del jugador {q}: {hand_str(cards)}")
        for q in range(n):
            if q != v and notes(q, False):
                lines.append(f"  jugador {q}:{notes(q, False)}")

    # -- bazas -----------------------------------------------------------------------------
    bazas = []
    for b in range(3):
        plays = [(q, _v(s, L.PLAYED, b * L.MAX_PLAYERS + q)) for q in range(n)]
        plays = [(q, c) for q, c in plays if c >= 0]
        w = _v(s, L.BAZA_WIN_TEAM, b)
        if not plays and w == L.BAZA_UNDECIDED:
            continue
        prev = _v(s, L.BAZA_WIN_SEAT, b - 1) if b > 0 else -1
        lead = prev if prev >= 0 else mano  # 13.6; after a parda the mano leads (16.2, 16.4)
        order = sorted(plays, key=lambda qc, lead=lead: (qc[0] - lead) % n)
        txt = ", ".join(f"{q}: {card_str(c)}" for q, c in order) or "sin cartas"
        if w == L.BAZA_PARDA:
            res = "parda"
        elif w >= 0:
            res = f"la gana el equipo {w}" + (f" (jugador {_v(s, L.BAZA_WIN_SEAT, b)})" if _v(s, L.BAZA_WIN_SEAT, b) >= 0 else "")
        else:
            res = "en juego"
        bazas.append(f"  baza {b + 1}: {txt} -> {res}")
    if bazas:
        lines.append("Bazas:")
        lines += bazas
    if _v(s, L.TRUQUE_OVER) and _v(s, L.TRUQUE_WINNER) >= 0:
        lines.append(f"  el truque es del equipo {_v(s, L.TRUQUE_WINNER)}")

    # -- bets ------------------------------------------------------------------------------
    lines.append("Apuestas:")
    pst = _v(s, L.PARES_ST)
    if pst == L.BET_NONE:
        lines.append("  envite de pares: no hay" + ("" if not _v(s, L.AL_CANTAR) else " (al cantar no se envida)"))
    else:
        txt = f"  envite de pares: {_pares_stake(_v(s, L.PARES_STAKE))} del jugador {_v(s, L.PARES_RAISER)}, {BET_WORDS[pst]}"
        if _v(s, L.PARES_PREV):
            txt += f" (antes querido: {_pares_stake(_v(s, L.PARES_PREV))})"
        if _v(s, L.PARES_BLIND_ACC):
            txt += "; querido a ciegas, se puede revocar"
        if _v(s, L.PARES_VOID):
            txt += "; anulado por la flor"
        lines.append(txt)
    fst = _v(s, L.FLOR_ST)
    flor = "  flor: " + ("nadie ha cantado" if sung == 0 else f"cantada por {_seat_list(_seats(sung, n))}")
    if fst == 1:
        flor += " (ronda de flor en curso)"
    fe = _v(s, L.FLOR_ENV_ST)
    if fe != L.BET_NONE:
        flor += f"; envite de flores: {_flores_stake(_v(s, L.FLOR_STAKE))} del jugador {_v(s, L.FLOR_RAISER)}, {BET_WORDS[fe]}"
    lines.append(flor)
    tst = _v(s, L.TRUCO_ST)
    if tst == L.BET_NONE:
        lines.append("  truque: nadie ha trucado (vale 1 china)")
    else:
        lvl = _v(s, L.TRUCO_LEVEL)
        txt = f"  truque: {TRUCO_LEVELS[lvl]} ({TRUCO_CHINAS[lvl]} chinas) del jugador {_v(s, L.TRUCO_RAISER)}, {BET_WORDS[tst]}"
        lines.append(txt)
    fc_team = _v(s, L.FC_TEAM)
    if fc_team >= 0:
        ans = _v(s, L.FC_ANS)
        lines.append(f"  falta a ciegas: la envió el equipo {fc_team}; "
                     + (f"contestada: {FC_WORDS[ans]}" if ans else "sin contestar aún"))
    if phase == L.PH_ANSWER:
        kind = _v(s, L.EX_KIND)
        txt = f"  respuesta en curso: {EX_KINDS[kind]}, contesta el equipo {_v(s, L.EX_TEAM)}"
        if _v(s, L.EX_BLIND):
            txt += " (a ciegas)"
        best = _v(s, L.EX_BEST)
        if kind == L.EX_FALTA_CIEGAS:
            txt += "; de momento " + ("quiero" if best == L.ANS_QUIERO else "no quiero" if best else "nadie ha contestado")
        else:
            txt += f"; de momento: {_answer_word(kind, best)}"
            if _v(s, L.EX_BEST_SEAT) >= 0 and best > L.ANS_NONE:
                txt += f" (jugador {_v(s, L.EX_BEST_SEAT)})"
        lines.append(txt)

    # -- señas -----------------------------------------------------------------------------
    senas = []
    for i in range(_v(s, L.SENA_LOG_N)):
        w = _v(s, L.SENA_LOG, i) & 0x7FFF
        q, sena, seen_by = w & 7, (w >> 3) & 15, (w >> 7) & 0xFF
        name = A.SENA_NAMES[sena]
        if viewer is None:
            senas.append(f"  jugador {q}: seña de {name} (la ven {_seat_list(_seats(seen_by, n))})")
        elif q == viewer or (seen_by >> viewer) & 1:
            senas.append(f"  jugador {q}: seña de {name}" + (" (tuya)" if q == viewer else ""))
    if senas:
        lines.append("Señas" + (" que viste:" if viewer is not None else ":"))
        lines += senas

    # -- words -----------------------------------------------------------------------------
    words = _words(s, hist)
    if words:
        lines.append("Dicho en la mano (jugador: palabra): " + "; ".join(words))

    # -- chinas ----------------------------------------------------------------------------
    if phase == L.PH_DONE:
        ch = [[_v(s, L.CHINAS, 3 * t + k) for k in range(3)] for t in range(2)]
        parts = ", ".join(f"{SOURCES[k]} {ch[0][k]}-{ch[1][k]}" for k in range(3))
        lines.append(f"Chinas de la mano (equipo 0-equipo 1): {parts}; "
                     f"apuntadas {_v(s, L.SCORED)}-{_v(s, L.SCORED, 1)}")
        w = _v(s, L.LAST_JUEGO_WINNER)
        if w >= 0:
            lines.append(f"El equipo {w} gana el juego"
                         + ("; y la partida" if _v(s, L.PARTIDA_OVER) else ""))
    return "\n".join(lines)
