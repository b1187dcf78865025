"""``truque play``: a person plays Truque Moteño in the terminal, against (and with) bots.

The person takes one seat of a table of any team size (1..4); every other seat is a bot named
like the registry names them (``random``, ``heuristic``, ...; ``agents.registry.load_policy``
when that module is there, else the local bots below). A bot acts on its own observation
(:func:`truque_env.traditions.moteno.observation.observe` over the table state and the public-word history
kept here), never on hidden information; the person sees what his seat may know: his cards once
the blind round is over, the cards on the table per baza, every word said, the señas of his
partners and those of the rivals he intercepted, the cards shown face up, the score.

The game loop (:func:`play`) reads lines from an input function and writes to a rich
``Console``, so tests drive it with scripted input::

    console = Console(file=io.StringIO(), width=100)
    play(PlayConfig(manos=1), input_fn=iter(["1", "1", "salir"]).__next__, console=console)
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import numpy as np
from pydantic import Field
from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from truque_env.cards import card_name, card_str, parse_card
from truque_env.io import write_text_atomic
from truque_env.policy import check_team_size
from truque_env.settings import MatchSettings, parse_options
from truque_env.table import Table
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.helpers import pares_refusal_pay, truco_refusal_pay
from truque_env.traditions.moteno.rules import CARD_NICKNAME, TRUQUE_POWER

LOCAL_BOTS = ("random",)
GOODBYE = "¡Hasta otra!"
PROMPT = "¿Qué haces? "

PHASE_WORDS = {
    "blind": "apuestas a ciegas",
    "close": "cierre de las apuestas a ciegas",
    "cante": "al cantar (el cante)",
    "play": "bazas",
    "flor_round": "ronda de flor",
    "flor_envite": "envite de flores",
    "answer": "respuesta a una apuesta",
    "done": "mano terminada",
    "reservada": "la reservada (12.13)",
}
BET_STATE = ("", "sin responder", "luego te lo digo", "querido", "no querido")
TRUCO_WORDS = ("", "truco", "retruco", "panueve")
EX_KIND_WORDS = ("", "al envite de pares", "al truco", "al envite de flores", "a la falta a ciegas")
FC_WORDS = ("sin responder", "no quiero", "quiero a ciegas", "quiero", "con flor, quiero",
            "con flor, no quiero")


@dataclass
class PlayConfig:
    """Play Truque Moteño in the terminal: you take a seat, bots take the others."""

    tradition: str = "moteno"
    """the game (truque_env.traditions()); Moteño has the full terminal game, any other tradition
    is played in its own words (its render) and its actions' names"""
    team_size: int = 1
    """players per team (1..4): 1 is mano a mano, 2 is dos contra dos, ..."""
    seat: Annotated[int, Field(ge=0)] = 0
    """your seat (0..2*team_size-1); partners sit at the seats of the same parity"""
    partner: str = "random"
    """bot for your partners' seats (a name of agents.registry, e.g. random, heuristic)"""
    rivals: str = "random"
    """bot for the rivals' seats"""
    bots: tuple[str, ...] = ()
    """per-seat bots as SEAT=NAME, overriding --partner/--rivals (e.g. 1=heuristic 3=random)"""
    target: Annotated[int, Field(ge=2)] = 30
    """chinas to win a juego (ruling 1)"""
    juegos: Annotated[int, Field(ge=1)] = 3
    """the partida is best of this many juegos (odd)"""
    senas_per_mano: Annotated[int, Field(ge=0)] = 1
    """señas each player may make per mano"""
    p_intercept: Annotated[float, Field(ge=0, le=1)] = 0.1
    """probability that each rival sees a seña (ruling 3)"""
    seed: Annotated[int, Field(ge=0)] = 0
    """seeds the deals, the señas intercepted and the bots"""
    manos: Annotated[int, Field(ge=0)] = 0
    """stop after this many manos (0: play until the partida is over)"""
    save_log: Path | None = None
    """write the whole account of each mano to a text file in this folder"""
    pause: bool = True
    """wait for Enter between manos"""
    option: tuple[str, ...] = ()
    """the tradition's rule options as NAME=VALUE (e.g. flor=false; docs/rules/)"""


# -- bots -------------------------------------------------------------------------------------
def load_bot(name: str, seed: int, tradition: str = "moteno"):
    """A policy by name: ``agents.registry.load_policy(name, seed)`` if that module exists,
    else the local bots (``random``). Raises ``ValueError`` for an unknown name."""
    key = name.strip()
    try:
        registry = importlib.import_module("agents.registry")  # may not be there (yet)
    except ImportError as exc:
        registry, why = None, exc
    if registry is not None:
        try:
            return registry.load_policy(key, seed, tradition)
        except (KeyError, ValueError, NotImplementedError) as exc:
            msg = exc.args[0] if exc.args else str(exc)
            raise ValueError(f"bot {name!r}: {msg}") from None
    if key.lower() == "random":
        from agents.base import RandomPolicy

        return RandomPolicy(seed)
    raise ValueError(f"unknown bot {name!r}; available here: {', '.join(LOCAL_BOTS)} "
                     f"(agents.registry not importable: {why})")


def bot_names(cfg: PlayConfig) -> dict[int, str]:
    """The bot name of every seat but the person's; raises ``ValueError`` on a bad --bots."""
    n = 2 * cfg.team_size
    names = {q: (cfg.partner if q % 2 == cfg.seat % 2 else cfg.rivals) for q in range(n) if q != cfg.seat}
    for spec in cfg.bots:
        seat_s, sep, name = spec.partition("=")
        if not sep or not seat_s.strip().isdigit() or not name.strip():
            raise ValueError(f"--bots takes SEAT=NAME (e.g. 1=heuristic), got {spec!r}")
        q = int(seat_s)
        if q == cfg.seat:
            raise ValueError(f"seat {q} is yours: no bot there")
        if not 0 <= q < n:
            raise ValueError(f"--bots {spec!r}: seats are 0..{n - 1} at a table of {n}")
        names[q] = name.strip()
    return names


def bot_seed(seed: int, seat: int) -> int:
    return int(np.random.SeedSequence([int(seed) & 0xFFFFFFFF, 1 + seat]).generate_state(1)[0])


# -- reading the person's choice --------------------------------------------------------------
class ChoiceError(ValueError):
    """A line that is neither a command nor a legal action; the message says why, in Spanish."""


COMMANDS = {"?": "help", "ayuda": "help", "help": "help", "log": "log", "salir": "quit",
            "mesa": "table", "quit": "quit", "exit": "quit"}


def normalize(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form: ``"Envío 2 Pares"`` -> ``"envio 2 pares"``."""
    t = unicodedata.normalize("NFKD", text.casefold())
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    for ch in ",:;.!¡¿":
        t = t.replace(ch, " ")
    return " ".join(t.split())


_WORD_NAMES = frozenset(normalize(A.ACTION_NAMES[a]) for a in range(A.SENA_BASE))  # words and cards, not señas


def parse_choice(text: str, legal: list[int]) -> tuple[str, object]:
    """``("action", id)`` or ``("command", name)``; raises :class:`ChoiceError`.

    Accepts the number of a listed action (1-based), the name of a legal action in any case and
    with or without accents (``"envío 2 pares"``, ``"ENVIO 2 PARES"``, ``"juego 7e"``), a bare
    card (``"7e"`` is ``juego 7E``) and the commands ``?``/``ayuda``, ``log``, ``mesa``, ``salir``.
    """
    raw = text.strip()
    if not raw:
        raise ChoiceError(f"Escribe el número de una acción (1–{len(legal)}) o su nombre; «?» para la ayuda.")
    key = normalize(raw)
    if raw in COMMANDS or key in COMMANDS:
        return "command", COMMANDS.get(raw, COMMANDS.get(key))
    if key.isdigit():
        k = int(key)
        if 1 <= k <= len(legal):
            return "action", legal[k - 1]
        raise ChoiceError(f"No hay acción {k}: elige un número del 1 al {len(legal)}.")
    by_name = {normalize(A.ACTION_NAMES[a]): a for a in legal}
    if key in by_name:
        return "action", by_name[key]
    if key.startswith("sena ") and f"sena {key[5:]}" in by_name:  # "seña perro"
        return "action", by_name[f"sena {key[5:]}"]
    if f"sena {key}" in by_name:  # "dos", as the señas line lists it
        if key in _WORD_NAMES:  # "flor" is also a word: never make a seña of a word that cannot be said
            raise ChoiceError(f"«{raw}» no se puede decir ahora; para la seña escribe «seña {key}».")
        return "action", by_name[f"sena {key}"]
    card_text = key[6:] if key.startswith("juego ") else key
    if key.startswith("juego ") or (key[:1].isdigit() and key[-1:].isalpha() and " " not in key):
        try:
            card = parse_card(card_text)
        except ValueError:
            raise ChoiceError(f"«{card_text.upper()}» no es una carta de la baraja: se escribe el número "
                              "(1–7, 10, 11, 12) y la letra del palo (O oros, C copas, E espadas, "
                              "B bastos), p. ej. 11B o 7E.") from None
        a = A.PLAY_BASE + card
        if a in legal:
            return "action", a
        if not any(A.PLAY_BASE <= x < A.PARES_BASE for x in legal):
            raise ChoiceError("Ahora no puedes jugar carta.")
        raise ChoiceError(f"No tienes el {card_str(card)} en la mano.")
    known = {normalize(name): a for a, name in enumerate(A.ACTION_NAMES)}
    if key in known:
        raise ChoiceError(f"«{A.ACTION_NAMES[known[key]]}» no se puede decir ahora: elige una de la lista.")
    raise ChoiceError(f"No entiendo «{raw}»: escribe el número de una acción (1–{len(legal)}) o su nombre; "
                      "«?» para la ayuda.")


# -- words and cards --------------------------------------------------------------------------
def card_label(card: int) -> str:
    """``11B (el perro)``, ``7C (7 de copas)``."""
    nick = CARD_NICKNAME.get(int(card))
    return f"{card_str(card)} ({nick or card_name(card)})"


def action_label(a: int) -> str:
    if A.PLAY_BASE <= a < A.PARES_BASE:
        return f"juego {card_label(a - A.PLAY_BASE)}"
    return A.ACTION_NAMES[a]


def _stake_pares(stake: int) -> str:
    return "la falta" if stake == L.FALTA_NOMINAL else f"{stake} chinas"


HELP = """\
[bold]Cómo se juega aquí[/bold]
  Cuando te toca se listan tus acciones legales, numeradas. Escribe el número o el nombre
  (da igual mayúsculas y acentos): «3», «truco», «envío 2 pares», «juego 7e» o sólo «7e».
  Órdenes: [bold]?[/bold] o [bold]ayuda[/bold] (esta ayuda) · [bold]mesa[/bold] (ver la mesa) ·
  [bold]log[/bold] (todo lo dicho en la mano) · [bold]salir[/bold] (dejar la partida).
[bold]Palabras del reglamento[/bold]
  [bold]chinas[/bold]: los tantos. Gana el juego el primer equipo que llega al tanteo;
    la partida, quien gana más juegos.
  [bold]a ciegas[/bold]: antes de ver las cartas cada uno puede pasar, envidar pares o decir
    truco (Arts. 7, 15); «luego te lo digo» deja la respuesta para cuando se vean las cartas.
  [bold]pares[/bold]: el valor de la mano para el envite (Art. 5). «envío N pares» apuesta 2N
    chinas, «envío la falta» lo que le falta al que va delante; se responde quiero,
    no quiero o revocando.
  [bold]flor[/bold]: tres cartas ligadas (Art. 9); se canta en la primera baza («flor») y anula
    los pares. Con flor en los dos equipos, el envite de flores: «envío N flores» (3N chinas).
  [bold]truco / retruco / panueve[/bold]: el desafío del truque, 3 / 6 / 9 chinas si se quiere
    (Art. 14).
  [bold]baza[/bold]: cada vuelta de cartas; gana el truque (1 china sin desafío) quien gana dos
    bazas. Manda la carta de más poder: el perro (11B), la perra (10O), el cascabel (11O),
    la espada (1E), el basto (1B), las matas (7E, 7O), los treses, los doses, ...
  [bold]seña[/bold]: un aviso a los compañeros, que siempre la ven; cada rival la pilla a veces.
    No pasa el turno.
  [bold]me voy a baraja[/bold]: dejar la mano. [bold]la mía no vale[/bold]: bajar las cartas y
    que valga la del compañero.
"""


@dataclass
class Game:
    """One partida: the table, the bots, the public-word history, what the person was shown."""

    cfg: PlayConfig
    input_fn: Callable[[], str]
    console: Console
    policies: dict[int, object]
    names: dict[int, str]
    echo: bool = False
    table: Table = field(init=False)
    hist: np.ndarray = field(init=False)
    cursor: int = 0
    dealt_by: tuple[int, int] = (0, 1)
    mano_no: int = 0
    saved: list[Path] = field(default_factory=list)

    def __post_init__(self):
        c = self.cfg
        self.table = Table(team_size=c.team_size, target=c.target, juegos=c.juegos,
                           senas_per_mano=c.senas_per_mano, p_intercept=c.p_intercept, seed=c.seed)
        self.hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
        self.me = c.seat
        self.n = 2 * c.team_size
        self._obs = np.zeros(O.OBS_SIZE, dtype=np.int8)
        self._mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)

    # -- output helpers ------------------------------------------------------------------
    def say(self, *objs, **kw) -> None:
        self.console.print(*objs, highlight=False, **kw)

    def who(self, seat: int, article: bool = False) -> Text:
        """``tú``, ``jugador 2 (compañero)``, ``jugador 1 (rival)`` (``el jugador 1`` in a sentence)."""
        the = "el " if article else ""
        if seat == self.me:
            return Text("tú", style="bold cyan")
        if seat % 2 == self.me % 2:
            return Text(f"{the}jugador {seat} (compañero)", style="green")
        return Text(f"{the}jugador {seat} (rival)", style="red")

    def team_word(self, team: int) -> str:
        return "nosotros" if team == self.me % 2 else "ellos"

    def observation(self, seat: int) -> np.ndarray:
        O.observe(self.table.state, self.hist, seat, self._obs)
        return self._obs

    # -- the log as the person sees it ---------------------------------------------------
    def visible_log(self) -> list[tuple[int, Text]]:
        """(index in table.log, line) for every entry the person may know of."""
        t, out, k = self.table, [], 0
        senas = t.senas_log
        for i, e in enumerate(t.log):
            if e.seat < 0:
                note = e.note
                if e.action.startswith("baza "):
                    line = Text(f"— {e.action}: ") + self.baza_outcome(note)
                elif e.action == "fin de la mano":
                    line = Text(f"— fin de la mano ({self.result_words()})", style="bold")
                else:
                    line = Text(str(e))
                out.append((i, line))
                continue
            if e.action.startswith("seña:"):
                seat, _sena, seen = senas[k] if k < len(senas) else (e.seat, 0, 0)
                k += 1
                if seat != self.me and not (seen >> self.me) & 1:
                    continue  # a rival's seña the person did not intercept
                out.append((i, Text.assemble(self.who(e.seat), ": ", (e.action, "magenta"))))
                continue
            words = action_label(A.action_id(e.action)) if e.action.startswith("juego ") else e.action
            if e.action == "canto pares":
                words += f" ({int(t.state[L.PARES_VAL + e.seat])})"
            out.append((i, Text.assemble(self.who(e.seat), ": ", (words, "bold"))))
        return out

    def baza_outcome(self, note: str) -> Text:
        """``la gana el equipo 0 (jugador 2)`` in the person's words."""
        if "la gana el equipo" not in note:
            return Text(note)
        team = int(note.split("equipo ")[1][0])
        seat = int(note.rsplit("jugador ", 1)[1].rstrip(")"))
        return Text.assemble("la gana ", self.who(seat), f" ({self.team_word(team)})")

    def flush_log(self) -> None:
        for i, line in self.visible_log():
            if i >= self.cursor:
                self.say(Text("  ") + line)
        self.cursor = len(self.table.log)

    # -- the table as the person sees it -------------------------------------------------
    def my_cards(self) -> list[int]:
        hand = O.split(self.observation(self.me))["hand"]
        cards = [int(c) for c in np.flatnonzero(hand)]
        return sorted(cards, key=lambda c: -int(TRUQUE_POWER[c]))

    def bazas(self) -> list[tuple[list[tuple[int, int]], str]]:
        """Per baza begun: the cards in the order played and the outcome, from the log."""
        out: list[tuple[list[tuple[int, int]], str]] = [([], "")]
        for e in self.table.log:
            if e.seat >= 0 and e.action.startswith("juego "):
                out[-1][0].append((e.seat, A.action_id(e.action) - A.PLAY_BASE))
            elif e.seat < 0 and e.action.startswith("baza "):
                out[-1] = (out[-1][0], e.note)
                out.append(([], ""))
        return [b for b in out if b[0] or b[1]]

    def bets(self) -> list[Text]:
        s, out = self.table.state, []
        if s[L.FC_TEAM] >= 0:
            out.append(Text(f"la falta a ciegas de {self.team_word(int(s[L.FC_TEAM]))}: "
                            f"{FC_WORDS[int(s[L.FC_ANS])]}"))
        st = int(s[L.PARES_ST])
        if st:
            line = f"envite de pares: {_stake_pares(int(s[L.PARES_STAKE]))}, {BET_STATE[st]}"
            if s[L.PARES_VOID]:
                line += " (anulado: se cantó flor)"
            elif st == L.BET_REFUSED:  # the stake said is not what is paid (18.2 a, c)
                line += f": {self._pays(pares_refusal_pay(s), int(s[L.PARES_RAISER]))}"
            out.append(Text(line))
        st = int(s[L.TRUCO_ST])
        if st:
            line = f"{TRUCO_WORDS[int(s[L.TRUCO_LEVEL])]}: {BET_STATE[st]}"
            if st == L.BET_REFUSED:  # 14.14, 18.2 s-u
                line += f": {self._pays(truco_refusal_pay(int(s[L.TRUCO_PREV])), int(s[L.TRUCO_RAISER]))}"
            out.append(Text(line))
        sung = [q for q in range(self.n) if (int(s[L.FLOR_SUNG]) >> q) & 1]
        if sung:
            out.append(Text.assemble("flor cantada: ", *self._join(sung)))
        st = int(s[L.FLOR_ENV_ST])
        if st:
            stake = int(s[L.FLOR_STAKE])
            out.append(Text(f"envite de flores: {'la falta' if stake == L.FALTA_NOMINAL else f'{stake} chinas'}, "
                            f"{BET_STATE[st]}"))
        return out

    def _pays(self, chinas: int, raiser: int) -> str:
        return f"{chinas} {'china' if chinas == 1 else 'chinas'} para {self.team_word(raiser % 2)}"

    def _join(self, seats) -> list[Text]:
        parts: list[Text] = []
        for i, q in enumerate(seats):
            if i:
                parts.append(Text(", "))
            parts.append(self.who(q))
        return parts

    def senas_seen(self) -> list[Text]:
        out = []
        for seat, sena, seen in self.table.senas_log:
            if seat == self.me or (seen >> self.me) & 1:
                out.append(Text.assemble(self.who(seat), ": ", (A.SENA_NAMES[sena], "magenta")))
        return out

    def revealed(self) -> list[Text]:
        """The cards of the others seen face up, each with why (14.10, or shown at the end)."""
        rev = O.split(self.observation(self.me))["revealed"]
        up = int(self.table.state[L.CARDS_UP])
        out = []
        for r in range(1, self.n):
            seat = (self.me + r) % self.n
            cards = [int(c) for c in np.flatnonzero(rev[r])]
            if cards:
                why = (" (las dejó boca arriba al pasar tras el truco no querido, 14.10)" if (up >> seat) & 1
                       else " (enseñadas al final de la mano)")
                out.append(Text.assemble(self.who(seat), ": ", " · ".join(card_label(c) for c in cards),
                                         (why, "dim")))
        return out

    def score_line(self) -> Text:
        t, me = self.table, self.me % 2
        s, j = t.scores, t.juegos
        need = (t.juegos_per_partida + 1) // 2
        falta = int(t.state[L.FALTA])
        return Text(f"Tanteo: nosotros {s[me]}, ellos {s[1 - me]} (juego a {t.target} chinas"
                    + (f"; la falta: {falta}" if not t.done else "") + f") · juegos: nosotros {j[me]}, "
                    f"ellos {j[1 - me]} (gana la partida quien gane {need})", style="bold")

    def table_panel(self) -> Panel:
        t, s = self.table, self.table.state
        lines: list = [self.score_line()]
        partners = [q for q in range(self.n) if q % 2 == self.me % 2 and q != self.me]
        intro = Text(f"Eres el jugador {self.me}, del equipo {self.me % 2}")
        if partners:
            mates = ", ".join(str(q) for q in partners)
            intro += Text(f"; tu compañero: jugador {mates}" if len(partners) == 1
                          else f"; tus compañeros: jugadores {mates}", style="green")
        dealer, mano = self.dealt_by
        intro += Text.assemble(". Da ", self.who(dealer, True), "; es mano ", self.who(mano, True), ".")
        lines.append(intro)
        phase = PHASE_WORDS.get(t.phase, t.phase)
        if t.phase in ("play", "flor_round", "flor_envite", "answer") and s[L.CARDS_SEEN]:
            phase += f" · baza {int(s[L.BAZA]) + 1}"
        if s[L.AL_CANTAR]:
            phase += " · se juega al cantar"
        lines.append(Text(f"Fase: {phase}"))
        if t.phase == "answer" and int(s[L.EX_TEAM]) == self.me % 2:
            lines.append(Text.assemble("Responde tu equipo ", EX_KIND_WORDS[int(s[L.EX_KIND])],
                                       " del ", self.who(int(s[L.EX_RAISER])), style="yellow"))
        cards = self.my_cards()
        if s[L.CARDS_SEEN] or t.done:
            hand = Text("Tus cartas: ") + Text(" · ".join(card_label(c) for c in cards) or "(ninguna)",
                                               style="bold")
            flor = int(s[L.FLOR_VAL + self.me])
            extra = f"   pares: {int(s[L.PARES_VAL + self.me])}"
            if flor:
                extra += f" · flor: {flor}" + (" (reservada)" if (int(s[L.RESERVADA]) >> self.me) & 1 else "")
            lines.append(hand + Text(extra, style="dim"))
        else:
            lines.append(Text("Tus cartas: boca abajo (apuestas a ciegas: nadie ha visto sus cartas)"))
        for b, (played, note) in enumerate(self.bazas()):
            row = Text(f"Baza {b + 1}: ")
            for i, (q, c) in enumerate(played):
                row += Text.assemble(("  " if i else ""), self.who(q), " ", (card_label(c), "bold"))
            if note:
                row += Text("  → ") + self.baza_outcome(note)
            lines.append(row)
        bets = self.bets()
        if bets:
            lines.append(Text("Apuestas: ") + Text(" · ").join(bets))
        words = [(e.seat, e.action) for e in t.log if e.seat >= 0 and not e.action.startswith(("juego ", "seña:"))]
        if words:
            said = Text("Dicho: ")
            for i, (q, w) in enumerate(words):
                said += Text.assemble(("; " if i else ""), self.who(q), " ", (w, "bold"))
            lines.append(said)
        senas = self.senas_seen()
        if senas:
            lines.append(Text("Señas que has visto: ") + Text(" · ").join(senas))
        shown = self.revealed()
        if shown:
            lines.append(Text("Cartas boca arriba:"))
            lines += [Text("  ") + line for line in shown]
        return Panel(Group(*lines), title=f"Mano {self.mano_no}", title_align="left")

    def show_legal(self, legal: list[int]) -> None:
        """The legal actions, numbered; the señas on one line of their own."""
        items = [Text.assemble((f"{k:>2}", "bold cyan"), " ", action_label(a))
                 for k, a in enumerate(legal, 1) if a < A.SENA_BASE]
        self.say(Text("Tus acciones:", style="bold"))
        self.say(Columns(items, padding=(0, 3)))
        senas = [(k, a) for k, a in enumerate(legal, 1) if a >= A.SENA_BASE]
        if senas:
            line = Text("Señas (no pasan el turno): ", style="magenta")
            for i, (k, a) in enumerate(senas):
                line += Text.assemble((" · " if i else ""), (str(k), "bold cyan"), " ", A.SENA_NAMES[a - A.SENA_BASE])
            self.say(line)

    # -- the person's turn ---------------------------------------------------------------
    def read(self, prompt: str) -> str | None:
        """A line from the person; None on end of input (EOF or Ctrl-C)."""
        self.say(Text(prompt, style="bold"), end="")
        try:
            line = self.input_fn()
        except (EOFError, KeyboardInterrupt):
            self.say()
            return None
        if self.echo:
            self.say(line)
        return line

    def ask(self) -> int | None:
        """The person's action id; None when he quits."""
        legal = self.table.legal_ids()
        self.say(self.table_panel())
        self.show_legal(legal)
        while True:
            line = self.read(PROMPT)
            if line is None:
                return None
            try:
                kind, value = parse_choice(line, legal)
            except ChoiceError as exc:
                self.say(Text(str(exc), style="bold red"))
                continue
            if kind == "action":
                return int(value)
            if value == "quit":
                return None
            if value == "help":
                self.say(HELP)
            elif value == "log":
                self.say(Text(f"Mano {self.mano_no}, todo lo dicho hasta ahora:", style="bold"))
                for _, entry in self.visible_log():
                    self.say(Text("  ") + entry)
            elif value == "table":
                self.say(self.table_panel())
            self.show_legal(legal)

    def bot_action(self, seat: int) -> int:
        obs = self.observation(seat)
        K.legal_mask(self.table.state, self._mask)
        a = int(self.policies[seat].act(obs.copy(), self._mask.copy()))
        if not (0 <= a < A.NUM_ACTIONS and self._mask[a]):
            raise RuntimeError(f"bot {self.names[seat]!r} at seat {seat} chose an illegal action {a}")
        return a

    # -- a mano --------------------------------------------------------------------------
    def result_words(self) -> str:
        r = self.table.result()
        me = self.me % 2
        parts = [f"{src}: nosotros {v[me]}, ellos {v[1 - me]}" for src, v in r.items() if v != (0, 0)]
        return "; ".join(parts) or "nadie gana chinas"

    def play_mano(self) -> bool:
        """Play one mano; False if the person quit."""
        t = self.table
        t.deal()
        self.dealt_by = (t.dealer, t.mano)
        O.reset_history(self.hist)
        self.cursor = 0
        self.mano_no += 1
        self.say(Rule(f"Mano {self.mano_no}"))
        self.flush_log()
        while not t.done:
            seat = t.to_act
            a = self.ask() if seat == self.me else self.bot_action(seat)
            if a is None:
                return False
            O.record(t.state, self.hist, a)
            t.act(a)
            self.flush_log()
        self.say(self.table_panel())
        winner = int(t.state[L.LAST_JUEGO_WINNER])
        if winner >= 0:
            self.say(Text("¡Juego para nosotros!" if winner == self.me % 2 else "Juego para ellos.",
                          style="bold green" if winner == self.me % 2 else "bold red"))
        if self.cfg.save_log is not None:
            self.saved.append(self.save(self.cfg.save_log))
            self.say(Text(f"(mano guardada en {self.saved[-1]})", style="dim"))
        return True

    def save(self, folder: Path) -> Path:
        t = self.table
        head = [f"Partida con semilla {self.cfg.seed}, mano {self.mano_no}; la persona en el asiento {self.me}"]
        head += [f"  jugador {q}: bot {self.names[q]}" for q in sorted(self.names)]
        body = [t.render(), f"Resultado: {t._result_note()}",
                f"Tanteo después de la mano: {t.scores[0]}-{t.scores[1]}; juegos {t.juegos[0]}-{t.juegos[1]}"]
        path = Path(folder) / f"truque_s{self.cfg.seed}_mano{self.mano_no:03d}.txt"
        write_text_atomic(path, "\n".join(head + body) + "\n")
        return path

    def run(self) -> dict:
        bots = " · ".join(f"jugador {q}: {self.names[q]}" for q in sorted(self.names))
        self.say(Rule("Truque Moteño"))
        self.say(Text(f"{self.cfg.team_size} contra {self.cfg.team_size}; tú eres el jugador {self.me} "
                      f"(equipo {self.me % 2}). Bots: {bots}. Escribe «?» para la ayuda."))
        quit_ = False
        while not self.table.partida_over:
            if not self.play_mano():
                quit_ = True
                break
            if self.cfg.manos and self.mano_no >= self.cfg.manos:
                break
            if self.table.partida_over:
                break
            if self.cfg.pause:
                line = self.read("Pulsa Enter para la siguiente mano (o «salir»): ")
                if line is None or normalize(line) in ("salir", "quit", "exit"):
                    quit_ = True
                    break
        t = self.table
        if t.partida_over:
            j, me = t.juegos, self.me % 2
            self.say(Text("¡Habéis ganado la partida!" if j[me] > j[1 - me] else "Has perdido la partida.",
                          style="bold"))
        self.say(Text(GOODBYE, style="bold"))
        return {"manos": self.mano_no, "scores": t.scores, "juegos": t.juegos, "quit": quit_,
                "partida_over": t.partida_over, "logs": list(self.saved)}


def play(cfg: PlayConfig, input_fn: Callable[[], str] | None = None, console: Console | None = None,
         policies: dict[int, object] | None = None, echo: bool | None = None) -> dict:
    """Run a game: the person's lines come from ``input_fn`` (default ``input``; ``EOFError`` ends the game).

    ``policies`` gives bot objects for some seats directly (tests); the other bot seats are
    loaded by name. ``echo`` writes each line read to the console (default: when the console is
    not a terminal, so a transcript reads like the game). Returns a summary: manos played,
    scores, juegos, whether the person quit, the log files written.
    """
    console = console or Console()
    input_fn = input_fn or (lambda: input())  # looked up at each call (tests patch builtins.input)
    MatchSettings(cfg.tradition, cfg.team_size, cfg.target, cfg.juegos, cfg.senas_per_mano, cfg.p_intercept,
                  parse_options(cfg.option, cfg.tradition))
    n = 2 * cfg.team_size
    if not 0 <= cfg.seat < n:
        raise ValueError(f"--seat must be 0..{n - 1} at a table of {n}, got {cfg.seat}")
    if cfg.manos < 0:
        raise ValueError(f"--manos must be >= 0, got {cfg.manos}")
    names = bot_names(cfg)
    chosen = dict(policies or {})
    for q, name in names.items():
        if q in chosen:
            names[q] = getattr(chosen[q], "name", type(chosen[q]).__name__)
        else:
            chosen[q] = load_bot(name, bot_seed(cfg.seed, q), cfg.tradition)
        check_team_size(chosen[q], cfg.team_size, names[q])
    if cfg.tradition != "moteno":  # a tradition without a terminal game of its own: its render
        from truque_cli.play_plain import play_plain

        return play_plain(cfg, input_fn, console, chosen)
    game = Game(cfg, input_fn, console, chosen, names,
                echo=(not console.is_terminal) if echo is None else echo)
    return game.run()


def run(cfg: PlayConfig) -> None:
    """The ``truque play`` command."""
    console = Console()
    try:
        play(cfg, console=console)  # a ValueError is the command line's one "error: ..." line
    except KeyboardInterrupt:  # Ctrl-C while the bots play
        console.print(Text("\n" + GOODBYE, style="bold"))
