"""``truque simulate``: play random legal manos on the batched engine and print statistics."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated

import numpy as np
from pydantic import Field

from truque_env.engine.rng import mix64_array
from truque_env.progress import report_console
from truque_env.settings import MatchSettings, parse_options
from truque_env.threads import WATCH
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
    """tables stepped in parallel (the speed, not the result: streams of 32 manos, see MANOS_PER_STREAM)"""
    seed: Annotated[int, Field(ge=0)] = 0
    option: tuple[str, ...] = ()
    """the tradition's rule options as NAME=VALUE (e.g. flor=false todo_dicho=false; docs/rules/)"""
    json_out: Path | None = None
    """also write the statistics as JSON here"""
    overwrite: bool = False
    """replace a file already at json_out (without it, that is refused)"""
    progress: bool = True


MANOS_PER_STREAM = 32
"""Manos are played in streams of this many consecutive manos, each stream from a fresh partida
seeded by the seed and the stream's number (and going on into new partidas), so that the result
is a function of ``seed`` and ``manos`` only: ``tables`` sets how many streams run at once."""


def stream_seeds(seed: int, streams: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(table seed, random player's seed) of each stream, non-negative int64."""
    x = mix64_array(np.uint64(seed) * np.uint64(1 << 32) + streams.astype(np.uint64))
    return (x >> np.uint64(1)).astype(np.int64), (mix64_array(x ^ np.uint64(0x5EED)) >> np.uint64(1)).astype(np.int64)


def simulate(cfg: SimulateConfig) -> dict:
    settings = MatchSettings(cfg.tradition, cfg.team_size, cfg.target, 3, cfg.senas_per_mano, cfg.p_intercept,
                             parse_options(cfg.option, cfg.tradition))
    spec = settings.spec
    B = spec.batch
    if cfg.manos < 1 or cfg.tables < 1:
        raise ValueError("manos and tables must be positive")
    n_streams = -(-cfg.manos // MANOS_PER_STREAM)
    tables = min(cfg.tables, n_streams)
    states = settings.new_states(tables)  # zeros with the rule words
    stats = np.zeros((tables, B.NUM_STATS), dtype=np.int64)

    def play_streams(first: int, count: int) -> None:
        streams = first + np.arange(count)
        manos = np.minimum(MANOS_PER_STREAM, cfg.manos - streams * MANOS_PER_STREAM).astype(np.int64)
        table_seeds, player_seeds = stream_seeds(cfg.seed, streams)
        B.init_tables(states[:count], settings.team_size, settings.target, 3, settings.senas_per_mano,
                      settings.p_intercept_permille, table_seeds)
        B.random_manos(states[:count], manos, player_seeds, stats[:count])

    from truque_env.progress import Progress

    with Progress("manos", total=cfg.manos, enabled=cfg.progress) as bar:
        for first in range(0, n_streams, tables):
            WATCH.tick()  # fewer threads while another process is busy on the cores
            count = min(tables, n_streams - first)
            play_streams(first, count)
            bar.update(min(cfg.manos, (first + count) * MANOS_PER_STREAM))
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
        from truque_env.io import check_new_output

        check_new_output(cfg.json_out, cfg.overwrite)  # before the manos are played, not after
    res = simulate(cfg)
    print_report(res)
    if cfg.json_out is not None:
        from truque_env.io import write_json_atomic

        write_json_atomic(cfg.json_out, res)
    return res
