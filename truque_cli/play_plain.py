"""``truque play`` for a tradition without a terminal game of its own: the table in the
tradition's own words (its ``render``), the legal actions by number or name.

Truque Moteño has the full game of ``truque_cli/play.py`` (its words, the señas, the log); any
other registered tradition is played here through the PettingZoo environment, so a new
tradition can be played as soon as it is registered. The bots act on their own observations.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from truque_cli.play import normalize
from truque_env.engine import header as H
from truque_env.pettingzoo_env import raw_env
from truque_env.settings import parse_options

GOODBYE = "¡Hasta la próxima!"


def choose(text: str, legal: list[int], names) -> int | str:
    """The action a line names (its number in the list, 1-based, or its name in any case, with or
    without accents), or ``"quit"``; a ValueError in Spanish otherwise."""
    key = normalize(text)
    if key in ("salir", "quit", "exit"):
        return "quit"
    if key.isdigit() and 1 <= int(key) <= len(legal):
        return legal[int(key) - 1]
    by_name = {normalize(names[a]): a for a in legal}
    if key in by_name:
        return by_name[key]
    raise ValueError(f"No entiendo «{text.strip()}»: escribe el número de una acción (1–{len(legal)}) o su nombre.")


def play_plain(cfg, input_fn: Callable[[], str], console: Console, policies: dict[int, object]) -> dict:
    """One partida of ``cfg.tradition`` with the person at ``cfg.seat`` (a ``PlayConfig``)."""
    env = raw_env(tradition=cfg.tradition, team_size=cfg.team_size, target=cfg.target, juegos=cfg.juegos,
                  senas_per_mano=cfg.senas_per_mano, p_intercept=cfg.p_intercept, episode="partida",
                  **parse_options(cfg.option, cfg.tradition))
    env.reset(seed=cfg.seed)
    spec, names = env.spec, env.spec.actions.ACTION_NAMES
    me, manos, quit_ = cfg.seat, 0, False
    console.print(Text(f"{spec.title}, {cfg.team_size} contra {cfg.team_size}: eres el jugador {me}", style="bold"))
    while env.agents and not quit_:
        agent = env.agent_selection
        seat = env.seats[agent]
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        played = int(env.state[H.MANO_COUNT])
        obs = env.observe(agent)
        if seat == me:
            legal = env.legal_actions()
            console.print(spec.render(env.state, env.hist, viewer=me), highlight=False, markup=False)
            console.print("  ".join(f"{k}) {names[a]}" for k, a in enumerate(legal, 1)), highlight=False, markup=False)
            while True:
                try:
                    line = input_fn()
                except EOFError:
                    line = "salir"
                try:
                    choice = choose(line, legal, names)
                    break
                except ValueError as exc:
                    console.print(Text(str(exc), style="yellow"))
            if choice == "quit":
                quit_ = True
                break
            env.step(choice)
        else:
            action = int(policies[seat].act(obs["observation"], obs["action_mask"]))
            console.print(f"jugador {seat}: {names[action]}", highlight=False)
            env.step(action)
        if int(env.state[H.MANO_COUNT]) != played:  # a mano ended
            manos += 1
            s = env.state
            console.print(Text(f"fin de la mano {manos}: tanteo {int(s[H.SCORE])}-{int(s[H.SCORE + 1])}, "
                               f"juegos {int(s[H.JUEGOS])}-{int(s[H.JUEGOS + 1])}", style="bold"))
            if cfg.manos and manos >= cfg.manos:
                break
    console.print(Text(GOODBYE, style="bold"))
    s = env.state
    return {"manos": manos, "scores": (int(s[H.SCORE]), int(s[H.SCORE + 1])),
            "juegos": (int(s[H.JUEGOS]), int(s[H.JUEGOS + 1])), "quit": quit_,
            "partida_over": bool(s[H.PARTIDA_OVER]), "logs": []}
