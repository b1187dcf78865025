"""The ``truque`` console command.

    truque simulate --manos N             random manos and their statistics
    truque train ppo --config FILE.toml   PPO self-play (overrides: --num-envs 256 ...)
    truque play                           a person against bots
    truque evaluate --a X --b Y           a duplicate-deal match
    truque league --policies X,Y,Z        a round-robin league
"""

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


def train_main(argv: list[str]) -> None:
    """``truque train ppo [--config FILE] [overrides]``: the TOML gives the defaults, flags override."""
    if not argv or argv[0] != "ppo":
        raise SystemExit("usage: truque train ppo [--config FILE.toml] [--setting value ...]")
    from pathlib import Path

    from train.ppo import PPOConfig, train

    rest = list(argv[1:])
    default = PPOConfig()
    if "--config" in rest:
        i = rest.index("--config")
        if i + 1 >= len(rest):
            raise SystemExit("--config needs a file")
        default = PPOConfig.from_toml(Path(rest[i + 1]))
        del rest[i : i + 2]
    cfg = tyro.cli(PPOConfig, default=default, args=rest, prog="truque train ppo")
    train(cfg)


def main(argv=None) -> None:
    import sys

    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "train":
        train_main(args[1:])
        return
    commands = {"simulate": SimulateConfig, "play": PlayConfig, "evaluate": EvaluateConfig, "league": LeagueConfig}
    cfg = tyro.extras.subcommand_cli_from_dict(commands, args=args, prog="truque")
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
