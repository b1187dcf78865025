"""The ``truque`` console command: ``truque simulate --manos N`` (more subcommands as they land)."""

from __future__ import annotations

import tyro

from train.evaluate import EvaluateConfig
from train.evaluate import run as run_evaluate
from train.league import LeagueConfig
from train.league import run as run_league
from truque_env.play import PlayConfig
from truque_env.play import run as run_play
from truque_env.simulate import SimulateConfig
from truque_env.simulate import run as run_simulate


def main(argv=None) -> None:
    commands = {"simulate": SimulateConfig, "play": PlayConfig, "evaluate": EvaluateConfig, "league": LeagueConfig}
    cfg = tyro.extras.subcommand_cli_from_dict(commands, args=argv, prog="truque")
    if isinstance(cfg, SimulateConfig):
        run_simulate(cfg)
    elif isinstance(cfg, PlayConfig):
        run_play(cfg)
    elif isinstance(cfg, EvaluateConfig):
        run_evaluate(cfg)
    elif isinstance(cfg, LeagueConfig):
        run_league(cfg)


if __name__ == "__main__":
    main()
