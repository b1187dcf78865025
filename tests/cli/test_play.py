"""``truque play``: the terminal game driven by scripted input (truque_cli/play.py)."""

from __future__ import annotations

import io
import re
import sys

import numpy as np
import pytest
from rich.console import Console

from truque_cli.play import (
    GOODBYE,
    PROMPT,
    ChoiceError,
    Game,
    PlayConfig,
    load_bot,
    parse_choice,
    play,
)
from truque_env.policy import RandomPolicy
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O


def console() -> Console:
    return Console(file=io.StringIO(), width=200, color_system=None)


def scripted(lines, then="eof"):
    """An input function: the given lines, then EOF (or "1" forever with then="1")."""
    it = iter(lines)

    def read():
        try:
            return next(it)
        except StopIteration:
            if then == "eof":
                raise EOFError from None
            return then

    return read


class Signer:
    """Makes a seña whenever it may, else the first legal action; checks it sees only its own cards."""

    name = "signer"

    def __init__(self, seat=None):
        self.seat = seat
        self.hands_seen = []

    def act(self, observation, action_mask):
        self.hands_seen.append(np.flatnonzero(O.split(observation)["hand"]).tolist())
        senas = [a for a in range(A.SENA_BASE, A.NUM_ACTIONS) if action_mask[a]]
        return senas[0] if senas else int(np.flatnonzero(action_mask)[0])


# -- parsing the person's line ---------------------------------------------------------------
def test_parse_choice_numbers_names_cards_commands():
    legal = [A.PASO, A.TRUCO, A.action_id("juego 7E"), A.action_id("envío 2 pares"), A.action_id("seña: perro")]
    assert parse_choice("1", legal) == ("action", A.PASO)
    assert parse_choice(" 2 ", legal) == ("action", A.TRUCO)
    assert parse_choice("TRUCO", legal) == ("action", A.TRUCO)
    assert parse_choice("envío 2 pares", legal) == ("action", legal[3])
    assert parse_choice("Envio  2 PARES", legal) == ("action", legal[3])  # case, accents, spaces
    assert parse_choice("juego 7e", legal) == ("action", legal[2])
    assert parse_choice("7e", legal) == ("action", legal[2])  # a bare card plays it
    assert parse_choice("seña perro", legal) == ("action", legal[4])
    assert parse_choice("?", legal) == ("command", "help")
    assert parse_choice("Ayuda", legal) == ("command", "help")
    assert parse_choice("log", legal) == ("command", "log")
    assert parse_choice("salir", legal) == ("command", "quit")
    for bad, msg in [("", "Escribe el número"), ("xyz", "No entiendo «xyz»"), ("99", "No hay acción 99"),
                     ("0", "No hay acción 0"), ("juego 13O", "«13O» no es una carta"),
                     ("juego 3C", "No tienes el 3C"), ("quiero", "«quiero» no se puede decir ahora"),
                     ("envío 3 pares", "no se puede decir ahora")]:
        with pytest.raises(ChoiceError, match=re.escape(msg)):
            parse_choice(bad, legal)
    with pytest.raises(ChoiceError, match="no puedes jugar carta"):
        parse_choice("7E", [A.QUIERO, A.NO_QUIERO])


def test_a_sena_is_typed_as_the_senas_line_lists_it():
    """Issue 15: the señas line lists «30 dos»; «dos» must make that seña."""
    legal = [A.PASO, A.action_id("seña: dos"), A.action_id("seña: flor"), A.action_id("seña: mata de oros")]
    assert parse_choice("dos", legal) == ("action", legal[1])
    assert parse_choice("Mata de Oros", legal) == ("action", legal[3])
    assert parse_choice("seña flor", legal) == ("action", legal[2])
    # «flor» is a word too: when it cannot be sung it is not quietly turned into the seña
    with pytest.raises(ChoiceError, match="para la seña escribe «seña flor»"):
        parse_choice("flor", legal)
    assert parse_choice("flor", [A.FLOR, legal[2]]) == ("action", A.FLOR)


def test_the_table_says_what_a_refusal_pays_and_why_cards_are_face_up():
    """Issue 15: a refused «envío 4 pares» (8 chinas) pays 1 china (18.2 a), a refused truco 1 (18.2 s); the
    cards left face up after a refused truco say why (14.10)."""
    game = Game(PlayConfig(team_size=1, seat=1, seed=0), scripted([]), console(), {0: RandomPolicy(0)}, {0: "random"})
    t = game.table
    t.deal(hands=["1E 1B 7E", "4O 5C 6B"], dealer=1)
    for word in ("envío 4 pares", "no quiero", "paso", "truco", "no quiero", "paso"):
        O.record(t.state, game.hist, A.action_id(word))
        t.act(word)
    bets = [str(line) for line in game.bets()]
    assert "envite de pares: 8 chinas, no querido: 1 china para ellos" in bets  # 4 pares, 2 chinas each
    assert "truco: no querido: 1 china para ellos" in bets
    shown = [str(line) for line in game.revealed()]
    assert len(shown) == 1 and shown[0].startswith("jugador 0 (rival): ")
    assert "boca arriba al pasar tras el truco no querido, 14.10" in shown[0]


# -- whole games -----------------------------------------------------------------------------
def test_scripted_mano_by_numbers_1v1():
    con = console()
    out = play(PlayConfig(team_size=1, manos=1, seed=3), input_fn=scripted([], then="1"), console=con)
    text = con.file.getvalue()
    assert out["manos"] == 1 and not out["quit"]
    assert "fin de la mano" in text and GOODBYE in text
    assert "Tus cartas:" in text and "Tus acciones:" in text and "Tanteo: nosotros" in text
    assert "jugador 1 (rival):" in text  # the bot's words appear in the log as they happen
    assert text.count(PROMPT) >= 2
    assert re.search(r"\b\d+[OCEB] \(", text)  # cards named like 11B (el perro)


def test_bad_inputs_get_a_message_and_the_prompt_again():
    con = console()
    out = play(PlayConfig(team_size=1, manos=1, seed=3),
               input_fn=scripted(["xyz", "99", "juego 13O", "", "1"], then="1"), console=con)
    text = con.file.getvalue()
    assert out["manos"] == 1
    p = re.escape(PROMPT)
    pattern = (p + r"xyz\n.*No entiendo «xyz».*\n" + p + r"99\n.*No hay acción 99.*\n" + p
               + r"juego 13O\n.*«13O» no es una carta.*\n" + p + r"\n.*Escribe el número.*\n" + p + "1\n")
    assert re.search(pattern, text), text[:3000]


def test_eof_and_salir_exit_cleanly():
    con = console()
    out = play(PlayConfig(team_size=1, seed=3), input_fn=scripted([]), console=con)
    assert out["quit"] and out["manos"] == 1 and GOODBYE in con.file.getvalue()

    con = console()
    out = play(PlayConfig(team_size=1, seed=3), input_fn=scripted(["?", "log", "salir"]), console=con)
    text = con.file.getvalue()
    assert out["quit"] and GOODBYE in text
    assert "Palabras del reglamento" in text and "todo lo dicho hasta ahora" in text

    def interrupted():
        raise KeyboardInterrupt

    con = console()
    assert play(PlayConfig(team_size=1, seed=3), input_fn=interrupted, console=con)["quit"]


def test_2v2_shows_partner_senas_and_only_intercepted_rival_senas():
    partner, rivals = Signer(2), {1: Signer(1), 3: Signer(3)}
    con = console()
    play(PlayConfig(team_size=2, manos=1, seed=5, p_intercept=0.0),
         input_fn=scripted([], then="1"), console=con, policies={2: partner, **rivals})
    text = con.file.getvalue()
    assert "jugador 2 (compañero): seña: perro" in text
    assert "Señas que has visto: jugador 2 (compañero): perro" in text
    assert "(rival): seña" not in text and "(rival): perro" not in text  # none intercepted

    con = console()
    play(PlayConfig(team_size=2, manos=1, seed=5, p_intercept=1.0),
         input_fn=scripted([], then="1"), console=con, policies={2: Signer(2), 1: Signer(1), 3: Signer(3)})
    assert re.search(r"jugador [13] \(rival\): seña: perro", con.file.getvalue())

    # the bots acted on their own observation: never a card they were not dealt
    for bot in (partner, *rivals.values()):
        assert bot.hands_seen and all(len(h) <= 3 for h in bot.hands_seen)


def test_saved_logs_one_file_per_mano(tmp_path):
    con = console()
    out = play(PlayConfig(team_size=2, manos=2, seed=7, save_log=tmp_path / "logs"),
               input_fn=scripted([], then="1"), console=con)
    files = sorted((tmp_path / "logs").iterdir())
    assert [f.name for f in files] == ["truque_s7_mano001.txt", "truque_s7_mano002.txt"]
    assert out["logs"] == files
    for f in files:
        body = f.read_text(encoding="utf-8")
        assert "fin de la mano" in body and "jugador 3 (equipo 1)" in body and "Resultado:" in body


def test_bots_by_name_and_bad_configs(monkeypatch):
    assert hasattr(load_bot("random", 1), "act")
    with pytest.raises(ValueError, match="nosuchbot"):
        load_bot("nosuchbot", 0)
    monkeypatch.setitem(sys.modules, "agents.registry", None)  # the registry missing: local bots
    assert hasattr(load_bot("random", 1), "act")
    with pytest.raises(ValueError, match="available here: random"):
        load_bot("heuristic", 0)
    for cfg, msg in [(PlayConfig(team_size=1, seat=2), "seat"), (PlayConfig(bots=("1:random",)), "SEAT=NAME"),
                     (PlayConfig(bots=("0=random",)), "yours"), (PlayConfig(bots=("5=random",)), "seats are"),
                     (PlayConfig(team_size=5), "team_size")]:
        with pytest.raises(ValueError, match=msg):
            play(cfg, input_fn=scripted([]), console=console())


def test_cli_play_subcommand(monkeypatch, capsys):
    from truque_cli.main import main

    def eof(*_):
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    main(["play", "--team-size", "2", "--seat", "1", "--partner", "random", "--bots", "0=random", "--seed", "4"])
    assert GOODBYE in capsys.readouterr().out


def test_truco_argentino_is_played_in_its_own_words_against_the_heuristic():
    """``truque play --tradition argentino``: the table in argentine words (its render), the
    actions by number or name, the heuristic at the other seats, the rule options as --option."""
    import io

    from rich.console import Console

    from truque_cli.play import PlayConfig, play

    out = io.StringIO()
    cfg = PlayConfig(tradition="argentino", team_size=2, manos=2, seed=5, rivals="heuristic", partner="heuristic",
                     option=("todo_dicho=false",))
    res = play(cfg, input_fn=iter(["retrucazo"] + ["1"] * 300).__next__, console=Console(file=out, width=110))
    text = out.getvalue()
    assert res["manos"] == 2 and not res["quit"]
    assert text.startswith("Truco argentino, 2 contra 2") and "tus cartas:" in text and "[envido " in text
    assert "No entiendo «retrucazo»" in text and "fin de la mano 2" in text
    assert "falta envido y truco, todo dicho" not in text  # the option reached the table
