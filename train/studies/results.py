"""The result file of a study that plays a bot against opponents: one shape for all of them."""

from __future__ import annotations

import os

from train import config
from truque_env.io import write_json_atomic


def side_b_wins(juegos: dict) -> dict:
    """The win rate of side B (the studied bot) from a match report's ``juegos`` section, with its
    Wilson interval and the number of juegos."""
    return {"win_rate": 1.0 - juegos["win_rate_A"],
            "wilson95": [1.0 - juegos["wilson95"][1], 1.0 - juegos["wilson95"][0]], "juegos": juegos["episodes"]}


def write_study_result(cfg, description: str, load_before, results: dict, **extra) -> dict:
    """Write ``cfg.out`` atomically: the description, the bot (``cfg.policy``, its tradition and team
    size), ``results``, any ``extra`` fields, the machine's load before and after, and the config."""
    result = {"description": description, "policy": cfg.policy, "tradition": cfg.tradition,
              "team_size": cfg.team_size, "results": results, **extra,
              "load_average_before": list(load_before), "load_average_after": list(os.getloadavg()),
              "config": config.to_dict(cfg)}
    write_json_atomic(cfg.out, result)
    print(f"wrote {cfg.out}")
    return result
