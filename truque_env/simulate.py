"""``truque simulate``: play random legal manos on the batched engine and print statistics."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from truque_env.engine import batch as B
from truque_env.engine import layout as L
from truque_env.table import validate_config


@dataclass
class SimulateConfig:
    """Play N uniformly random legal manos and report pares, flor and chinas statistics."""

    manos: int = 100_000
    """how many manos to play in all"""
    team_size: int = 3
    """players per team (1..4)"""
    target: int = 30
    """chinas to win a juego (ruling 1)"""
    senas_per_mano: int = 1
    """señas each player may make per mano"""
    p_intercept: float = 0.1
    """probability that each rival sees each seña (ruling 3)"""
    tables: int = 1024
    """tables stepped in parallel"""
    seed: int = 0
    json_out: Path | None = None
    """also write the statistics as JSON here"""
    progress: bool = True


def simulate(cfg: SimulateConfig) -> dict:
    permille = validate_config("moteno", cfg.team_size, cfg.target, 3, cfg.senas_per_mano, cfg.p_intercept)
    if cfg.manos < 1 or cfg.tables < 1:
        raise ValueError("manos and tables must be positive")
    tables = min(cfg.tables, cfg.manos)
    states = np.zeros((tables, L.STATE_SIZE), dtype=L.STATE_DTYPE)
    seeds = np.arange(tables, dtype=np.int64) + cfg.seed * 1_000_003
    B.init_tables(states, cfg.team_size, cfg.target, 3, cfg.senas_per_mano, permille, seeds)
    stats = np.zeros((tables, B.NUM_STATS), dtype=np.int64)
    rounds = -(-cfg.manos // tables)
    per_table = np.full(tables, cfg.manos // tables, dtype=np.int64)
    per_table[: cfg.manos % tables] += 1  # exactly cfg.manos in all
    policy_seeds = seeds * 7919 + 1

    def play_round(r):
        B.random_manos(states, (per_table > r).astype(np.int64), policy_seeds + r * 104_729, stats)

    if cfg.progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn()) as bar:
            task = bar.add_task("manos", total=cfg.manos)
            for r in range(rounds):
                play_round(r)
                bar.update(task, advance=int((per_table > r).sum()))
    else:
        for r in range(rounds):
            play_round(r)
    t = stats.sum(axis=0)
    manos = int(t[B.ST_MANOS])
    out = {
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(cfg).items()},
        "manos": manos,
        "decisions_per_mano": t[B.ST_DECISIONS] / manos,
        "hands_with_flor": t[B.ST_HANDS_WITH_FLOR] / t[B.ST_HANDS],
        "mean_pares_value": t[B.ST_PARES_VALUE_SUM] / t[B.ST_HANDS],
        "manos_with_flor_sung": t[B.ST_MANOS_WITH_FLOR_SUNG] / manos,
        "manos_with_pares_envite": t[B.ST_MANOS_WITH_PARES_BET] / manos,
        "manos_with_truco": t[B.ST_MANOS_WITH_TRUCO] / manos,
        "chinas_per_mano": {
            "pares": t[B.ST_PARES_CHINAS] / manos,
            "flores": t[B.ST_FLORES_CHINAS] / manos,
            "truque": t[B.ST_TRUQUE_CHINAS] / manos,
        },
        "juegos_finished": int(t[B.ST_JUEGOS]),
        "senas_per_mano": t[B.ST_SENAS] / manos,
    }
    out = json.loads(json.dumps(out, default=float))
    return out


def print_report(res: dict) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    cfg = res["config"]
    tab = RichTable(title=f"{res['manos']:,} random manos, {cfg['team_size']} contra {cfg['team_size']}")
    tab.add_column("statistic")
    tab.add_column("value", justify="right")
    tab.add_row("hands with flor", f"{res['hands_with_flor']:.4f}")
    tab.add_row("mean valor de pares", f"{res['mean_pares_value']:.2f}")
    tab.add_row("manos with a flor sung", f"{res['manos_with_flor_sung']:.4f}")
    tab.add_row("manos with an envite de pares", f"{res['manos_with_pares_envite']:.4f}")
    tab.add_row("manos with a truco", f"{res['manos_with_truco']:.4f}")
    for src, v in res["chinas_per_mano"].items():
        tab.add_row(f"chinas per mano: {src}", f"{v:.3f}")
    tab.add_row("decisions per mano", f"{res['decisions_per_mano']:.1f}")
    tab.add_row("señas per mano", f"{res['senas_per_mano']:.2f}")
    tab.add_row("juegos finished", f"{res['juegos_finished']:,}")
    Console().print(tab)


def run(cfg: SimulateConfig) -> dict:
    res = simulate(cfg)
    print_report(res)
    if cfg.json_out is not None:
        from truque_env.io import write_json_atomic

        write_json_atomic(cfg.json_out, res)
    return res
