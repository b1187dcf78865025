"""``truque simulate``: play random legal manos on the batched engine and print statistics."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated

import numpy as np
from pydantic import Field

from truque_env.progress import report_console
from truque_env.settings import MatchSettings
from truque_env.traditions import get as get_tradition


@dataclass
class SimulateConfig:
    """Play N uniformly random legal manos and report the tradition's statistics (Moteño: pares,
    flor and chinas)."""

    manos: Annotated[int, Field(ge=1)] = 100_000
    """how many manos to play in all"""
    tradition: str = "moteno"
    """the game (truque_env.traditions())"""
    team_size: int = 3
    """players per team (the tradition's team sizes; Moteño 1..4)"""
    target: int | None = None
    """points to win a juego (default: the tradition's; Moteño 30 chinas, ruling 1)"""
    senas_per_mano: Annotated[int, Field(ge=0)] = 1
    """señas each player may make per mano"""
    p_intercept: Annotated[float, Field(ge=0, le=1)] = 0.1
    """probability that each rival sees each seña (ruling 3)"""
    tables: Annotated[int, Field(ge=1)] = 1024
    """tables stepped in parallel"""
    seed: Annotated[int, Field(ge=0)] = 0
    json_out: Path | None = None
    """also write the statistics as JSON here"""
    progress: bool = True


def simulate(cfg: SimulateConfig) -> dict:
    settings = MatchSettings(cfg.tradition, cfg.team_size, cfg.target, 3, cfg.senas_per_mano, cfg.p_intercept)
    spec = settings.spec
    B, L = spec.batch, spec.layout
    if cfg.manos < 1 or cfg.tables < 1:
        raise ValueError("manos and tables must be positive")
    tables = min(cfg.tables, cfg.manos)
    states = np.zeros((tables, L.STATE_SIZE), dtype=L.STATE_DTYPE)
    seeds = np.arange(tables, dtype=np.int64) + cfg.seed * 1_000_003
    B.init_tables(states, settings.team_size, settings.target, 3, settings.senas_per_mano,
                  settings.p_intercept_permille, seeds)
    stats = np.zeros((tables, B.NUM_STATS), dtype=np.int64)
    rounds = -(-cfg.manos // tables)
    per_table = np.full(tables, cfg.manos // tables, dtype=np.int64)
    per_table[: cfg.manos % tables] += 1  # exactly cfg.manos in all
    policy_seeds = seeds * 7919 + 1

    def play_round(r):
        B.random_manos(states, (per_table > r).astype(np.int64), policy_seeds + r * 104_729, stats)

    from truque_env.progress import Progress

    with Progress("manos", total=cfg.manos, enabled=cfg.progress) as bar:
        done = 0
        for r in range(rounds):
            play_round(r)
            done += int((per_table > r).sum())
            bar.update(done)
    t = stats.sum(axis=0)
    out = {"config": {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(cfg).items()},
           **B.summarize(t)}
    out = json.loads(json.dumps(out, default=float))
    return out


def print_report(res: dict) -> None:
    from rich.table import Table as RichTable

    cfg = res["config"]
    spec = get_tradition(cfg.get("tradition", "moteno"))
    tab = RichTable(title=f"{res['manos']:,} random manos of {spec.title}, {cfg['team_size']} contra {cfg['team_size']}")
    tab.add_column("statistic")
    tab.add_column("value", justify="right")
    for label, text in spec.batch.report_rows(res):
        tab.add_row(label, text)
    report_console().print(tab)


def run(cfg: SimulateConfig) -> dict:
    if cfg.json_out is not None:
        from truque_env.io import check_writable

        check_writable(cfg.json_out)  # before the manos are played, not after
    res = simulate(cfg)
    print_report(res)
    if cfg.json_out is not None:
        from truque_env.io import write_json_atomic

        write_json_atomic(cfg.json_out, res)
    return res
