"""A round-robin league: every pair of named policies plays a duplicate match (``train.eval.duplicate``).

Produces the win-rate matrix (``win_rate[i][j]``: share of the episodes, juegos or partidas,
that policy ``i`` won against ``j``) and **Bradley–Terry** ratings fitted to all the results at
once (maximum likelihood by Hunter's MM iterations, with half a pseudo-win each way in every
pairing so that an undefeated policy still gets a finite rating), reported on the Elo scale
(``400 log10`` of the strength, mean 0). Saved as JSON and drawn as a PNG heatmap.

    truque league --policies random,heuristic --juegos 1000
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import Field

from train.config import match_settings
from train.eval.duplicate import _jsonable, match_settings_of, play_match
from truque_env.io import atomic_output, check_new_output, write_json_atomic
from truque_env.policy import check_team_size
from truque_env.progress import report_console
from truque_env.settings import MatchSettings


def bradley_terry(wins: np.ndarray, prior: float = 0.5, iters: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths from ``wins[i, j]`` (i beat j), normalised to geometric mean 1.

    ``prior`` pseudo-wins are added each way to every pair that played.
    """
    w = np.asarray(wins, dtype=np.float64).copy()
    n = w.shape[0]
    games = w + w.T
    played = games > 0
    np.fill_diagonal(played, False)
    w[played] += prior
    games = w + w.T
    total_wins = w.sum(axis=1)
    p = np.ones(n)
    for _ in range(iters):
        denom = np.where(played, games / (p[:, None] + p[None, :] + 1e-300), 0.0).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.maximum(denom, 1e-300), 1.0)
        new = np.maximum(new, 1e-12)
        new /= math.exp(np.log(new).mean())
        if np.abs(new - p).max() < tol:
            p = new
            break
        p = new
    return p


def bt_elo(wins: np.ndarray) -> np.ndarray:
    """Bradley–Terry ratings on the Elo scale (400 log10 of the strength), mean 0."""
    elo = 400 * np.log10(bradley_terry(wins))
    return elo - elo.mean()


def bt_elo_intervals(wins: np.ndarray, samples: int = 300, seed: int = 0) -> np.ndarray:
    """95% intervals of ``bt_elo`` by a parametric bootstrap: each pairing's decided episodes drawn
    again at its observed rate (binomial), the ratings refitted, the 2.5 and 97.5 percentiles kept
    (rows: policies; columns: low, high)."""
    wins = np.asarray(wins, dtype=np.int64)
    n = wins.shape[0]
    rng = np.random.default_rng(seed)
    iu, ju = np.triu_indices(n, 1)
    decided = wins[iu, ju] + wins[ju, iu]  # draws (a parda partida) carry no result either way
    p_ij = np.where(decided > 0, wins[iu, ju] / np.maximum(decided, 1), 0.5)
    out = np.empty((samples, n))
    for k in range(samples):
        w = np.zeros((n, n))
        a = rng.binomial(decided, p_ij)
        w[iu, ju], w[ju, iu] = a, decided - a
        out[k] = bt_elo(w)
    return np.percentile(out, [2.5, 97.5], axis=0).T


@dataclass
class LeagueResult:
    names: list[str]
    unit: str
    win_rate: list[list[float | None]]
    wins: list[list[int]]
    episodes: list[list[int]]
    ratings: dict  # name -> {"bt_strength", "elo"}
    matches: list[dict]
    config: dict

    def to_dict(self) -> dict:
        return _jsonable(self.__dict__)


def openskill_ratings(names: list[str], wins: np.ndarray) -> dict:
    """OpenSkill (Plackett-Luce) ratings from the episodes won, fed in a fixed interleaved order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in names}
    n = len(names)
    for i in range(n):
        for j in range(i + 1, n):
            wi, wj = int(wins[i, j]), int(wins[j, i])
            for k in range(max(wi, wj)):  # alternate the two sides' wins: no streak order bias
                for winner, loser, count in ((i, j, wi), (j, i, wj)):
                    if k < count:
                        a, b = current[names[winner]], current[names[loser]]
                        [[a], [b]] = model.rate([[a], [b]])
                        current[names[winner]], current[names[loser]] = a, b
    return {name: {"openskill_mu": r.mu, "openskill_sigma": r.sigma, "openskill_ordinal": r.ordinal()}
            for name, r in current.items()}


def run_league(policies: Mapping[str, Callable[[int], object]], *, settings: MatchSettings | None = None,
               unit: str = "juego", episodes: int = 400, num_envs: int = 256, seed: int = 0, weak_pares: int = 20,
               bootstrap: int = 1000, out_dir=None, progress: bool = False, kept: Mapping | None = None,
               **game) -> LeagueResult:
    """Round-robin of duplicate matches; ``policies``: name -> factory ``seed -> policy``. The game
    is ``settings`` (``truque_env.settings.MatchSettings``) or its fields as keywords.

    Each match gets fresh policies and its own seed derived from ``seed`` and the pair of names'
    positions, so a match's result does not depend on the order the others were played in.
    ``kept``: ``(name_a, name_b) -> (match, wins_a, wins_b, episodes)`` of matches already played
    with these settings, seed and order of names (``kept_matches``), taken as they are, not played.
    With ``out_dir``, writes ``league.json`` and ``league.png`` there.
    """
    kept = dict(kept or {})
    settings = match_settings_of(settings, game)
    names = list(policies)
    if len(names) < 2:
        raise ValueError("a league needs at least two policies")
    if len(set(names)) != len(names):
        raise ValueError(f"policy names must be unique: {names}")
    n = len(names)
    wins = np.zeros((n, n), dtype=np.int64)
    eps = np.zeros((n, n), dtype=np.int64)
    matches = []
    for i in range(n):
        for j in range(i + 1, n):
            if (names[i], names[j]) in kept:
                match, wins[i, j], wins[j, i], eps[i, j] = kept[names[i], names[j]]
                eps[j, i] = eps[i, j]
                matches.append(dict(match))
                continue
            ss = np.random.SeedSequence([int(seed), i, j]).generate_state(3)
            a, b = policies[names[i]](int(ss[0])), policies[names[j]](int(ss[1]))
            match_seed = int(ss[2] >> 1)
            if progress:
                from rich import print as rprint

                rprint(f"[bold]{names[i]}[/] vs [bold]{names[j]}[/]")
            rep = play_match(a, b, names={"A": names[i], "B": names[j]}, settings=settings, unit=unit,
                             episodes=episodes, num_envs=num_envs, seed=match_seed, weak_pares=weak_pares,
                             bootstrap=bootstrap, progress=progress)
            sec = rep.juegos if unit == "juego" else rep.partidas
            wins[i, j], wins[j, i] = sec["wins"]["A"], sec["wins"]["B"]
            eps[i, j] = eps[j, i] = sec["episodes"]
            matches.append({"A": names[i], "B": names[j], "seed": match_seed, "unit": unit,
                            "win_rate_A": sec["win_rate_A"], "wilson95": sec["wilson95"], "paired": sec["paired"],
                            "chinas_net_A_per_mano": rep.chinas_per_mano["net_A"],
                            # the tradition's style counts (train/eval/styles/), both sides: the falsos of the page
                            **({"bluffs": rep.bluffs} if rep.bluffs is not None else {}),
                            **({"answers": rep.answers} if rep.answers is not None else {})})
    rate = [[(wins[i, j] / eps[i, j]) if i != j and eps[i, j] else None for j in range(n)] for i in range(n)]
    strength = bradley_terry(wins)
    elo = 400 * np.log10(strength)
    elo -= elo.mean()
    elo_ci = bt_elo_intervals(wins, seed=seed)
    skill = openskill_ratings(names, wins)
    ratings = {names[i]: {"bt_strength": float(strength[i]), "elo": float(elo[i]),
                          "elo_ci95": [float(elo_ci[i, 0]), float(elo_ci[i, 1])], **skill[names[i]]} for i in range(n)}
    config = league_config(settings, unit, episodes, seed)
    result = LeagueResult(names=names, unit=unit, win_rate=rate, wins=wins.tolist(), episodes=eps.tolist(),
                          ratings=ratings, matches=matches, config=config)
    if out_dir is not None:
        out_dir = Path(out_dir)
        write_json_atomic(out_dir / "league.json", result.to_dict())
        plot_heatmap(result, out_dir / "league.png")
    return result


def league_config(settings: MatchSettings, unit: str, episodes: int, seed: int) -> dict:
    """The settings a league saves with its results (and a partial rerun checks against)."""
    return {"tradition": settings.tradition, "team_size": settings.team_size, "unit": unit,
            "episodes_per_match": 2 * -(-episodes // 2), "target": settings.target,
            "juegos_per_partida": settings.juegos, "senas_per_mano": settings.senas_per_mano,
            "p_intercept": settings.p_intercept, "seed": seed,
            "ratings": "Bradley-Terry (MM fit, 0.5 pseudo-wins each way per pairing), Elo scale 400*log10, mean 0, "
                       "95% interval by a parametric bootstrap of every pairing (300 refits); "
                       "OpenSkill Plackett-Luce (library openskill) over every episode, wins of each pairing "
                       "interleaved in a fixed order"}


def kept_matches(league: dict, names: list[str], config: dict, rerun: set[str]) -> dict:
    """The matches of a saved league (``league.json`` as a dict) that a new league of ``names`` and
    ``config`` would play again move for move: those between two bots not in ``rerun``. The saved
    league must have the same names in the same order (each match's seed comes from the pair's
    positions), or those followed by new ones that ``rerun`` names (a bot added at the end), and the
    same settings and seed; anything else is refused, not mixed in."""
    unknown = sorted(rerun - set(names))
    if unknown:
        raise ValueError(f"cannot play again {unknown}: not among the league's policies {names}")
    saved_names = list(league.get("names") or [])
    added = names[len(saved_names):]
    if names[: len(saved_names)] != saved_names or not set(added) <= rerun:
        raise ValueError(f"the saved league has the policies {league.get('names')}, not {names} in that order "
                         "(or followed by new ones to play): its matches were played with other seeds; play the "
                         "whole league again")
    saved = {k: v for k, v in league.get("config", {}).items() if k != "ratings"}
    if saved != {k: v for k, v in config.items() if k != "ratings"}:
        raise ValueError(f"the saved league was played with other settings ({saved}, not {config})")
    wins, eps = league["wins"], league["episodes"]
    at = {name: k for k, name in enumerate(saved_names)}
    return {(m["A"], m["B"]): (m, wins[at[m["A"]]][at[m["B"]]], wins[at[m["B"]]][at[m["A"]]], eps[at[m["A"]]][at[m["B"]]])
            for m in league["matches"] if m["A"] not in rerun and m["B"] not in rerun}


def plot_heatmap(result: LeagueResult, path) -> None:
    """The win-rate matrix as a PNG (matplotlib, Agg backend), written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = result.names
    n = len(names)
    m = np.array([[np.nan if v is None else v for v in row] for row in result.win_rate], dtype=np.float64)
    order = np.argsort([-result.ratings[x]["elo"] for x in names], kind="stable")
    m = m[np.ix_(order, order)]
    ylabels = [f"{names[k]} ({result.ratings[names[k]]['elo']:+.0f})" for k in order]
    xlabels = [names[k] for k in order]
    fig, ax = plt.subplots(figsize=(max(6.0, 2.5 + 1.0 * n), max(4.5, 1.8 + 0.9 * n)))
    ax.set_facecolor("0.85")  # the diagonal: no self-play
    im = ax.imshow(np.ma.masked_invalid(m), cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(n), labels=xlabels, rotation=45, ha="right")
    ax.set_yticks(range(n), labels=ylabels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("policy (Bradley–Terry Elo)")
    for i in range(n):
        for j in range(n):
            if np.isfinite(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center",
                        color="white" if abs(m[i, j] - 0.5) > 0.3 else "black")
    fig.colorbar(im, ax=ax, label=f"share of {result.unit}s won")
    ax.set_title(f"win rate of row vs column\n({result.unit}s, duplicate deals)", fontsize=11)
    fig.tight_layout()
    try:
        with atomic_output(path, suffix=".tmp.png") as tmp:
            fig.savefig(tmp, dpi=120, format="png")
    finally:
        plt.close(fig)


def print_league(result: LeagueResult, console=None) -> None:
    from rich.table import Table

    console = console or report_console()
    t = Table(title=f"league: share of {result.unit}s won by the row against the column")
    t.add_column("policy")
    t.add_column("Elo (BT) [95%]")
    for name in result.names:
        t.add_column(name)
    for i, name in enumerate(result.names):
        cells = ["–" if v is None else f"{100 * v:.1f}%" for v in result.win_rate[i]]
        r = result.ratings[name]
        ci = f" [{r['elo_ci95'][0]:+.0f}, {r['elo_ci95'][1]:+.0f}]" if "elo_ci95" in r else ""
        t.add_row(name, f"{r['elo']:+.0f}{ci}", *cells)
    console.print(t)


@dataclass
class LeagueConfig:
    """A round-robin of duplicate matches: win-rate matrix, Bradley–Terry ratings, heatmap."""

    policies: str
    """comma-separated policy names (agents.registry) or checkpoint paths; at least two"""
    tradition: str = "moteno"
    """the game (truque_env.traditions())"""
    team_size: int = 3
    unit: Literal["juego", "partida"] = "juego"
    juegos: Annotated[int, Field(ge=1)] = 1000
    """juegos per match when the unit is juego"""
    partidas: Annotated[int, Field(ge=1)] = 100
    """partidas per match when the unit is partida"""
    target: int | None = None
    """points to win a juego (default: the tradition's)"""
    juegos_per_partida: Annotated[int, Field(ge=1)] = 3
    senas_per_mano: Annotated[int, Field(ge=0)] = 1
    p_intercept: Annotated[float, Field(ge=0, le=1)] = 0.1
    num_envs: Annotated[int, Field(ge=2, multiple_of=2)] = 256
    """tables played at once: an even number, the duplicate twins (how many changes the speed, not the outcome)"""
    seed: Annotated[int, Field(ge=0)] = 0
    bootstrap: Annotated[int, Field(ge=0)] = 1000
    out_dir: Path = Path("runs/league")
    """league.json and league.png are written here"""
    overwrite: bool = False
    """replace a league already in out_dir (without it, that is refused)"""
    rerun: str = ""
    """comma-separated policies whose matches are played again (a bot that changed); the others are
    read from the league already in out_dir, which must have the same policies, settings and seed,
    and which is then replaced (rerun is the telling: overwrite is not needed)"""
    progress: bool = True


def run(cfg: LeagueConfig) -> LeagueResult:
    from agents.registry import load_policy

    settings = match_settings(cfg)  # a bad setting fails before any match
    names = [s.strip() for s in cfg.policies.split(",") if s.strip()]
    rerun = {s.strip() for s in cfg.rerun.split(",") if s.strip()}
    kept = None
    if rerun:
        saved = cfg.out_dir / "league.json"
        if not saved.is_file():
            raise FileNotFoundError(f"--rerun plays again part of the league in {saved}, which is not there")
        episodes = cfg.juegos if cfg.unit == "juego" else cfg.partidas
        kept = kept_matches(json.loads(saved.read_text()), names,
                            league_config(settings, cfg.unit, episodes, cfg.seed), rerun)
    else:
        check_new_output(cfg.out_dir / "league.json", cfg.overwrite)
    for name in names:  # fail early on an unknown name, or a bot that does not play this team size
        check_team_size(load_policy(name, seed=0, tradition=cfg.tradition), settings.team_size, name)
    factories = {name: (lambda seed, _n=name: load_policy(_n, seed=seed, tradition=cfg.tradition)) for name in names}
    result = run_league(factories, settings=settings, unit=cfg.unit,
                        episodes=cfg.juegos if cfg.unit == "juego" else cfg.partidas, num_envs=cfg.num_envs,
                        seed=cfg.seed, bootstrap=cfg.bootstrap, out_dir=cfg.out_dir, progress=cfg.progress, kept=kept)
    print_league(result)
    from rich import print as rprint

    rprint(f"written {cfg.out_dir / 'league.json'} and {cfg.out_dir / 'league.png'}")
    return result
