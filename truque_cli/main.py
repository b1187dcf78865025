"""The ``truque`` console command.

    truque simulate --manos N             random manos and their statistics
    truque train ppo --config FILE.toml   PPO self-play (overrides: --num-envs 256 ...)
    truque train cfr --config FILE.toml   CFR / CFR+ / LCFR / DCFR / MCCFR on Kuhn or Leduc poker
    truque train mccfr --config FILE.toml MCCFR on the full 1 contra 1 mano (train/cfr/mccfr.py)
    truque train mccfr-export CKPT OUT    the average policy of an MCCFR run, to ship as the cfr bot
    truque train export RUN.pt OUT.pt     the actor of a PPO run's checkpoint, to ship as a bot
    truque play                           a person against bots
    truque evaluate --a X --b Y           a duplicate-deal match
    truque league --policies X,Y,Z        a round-robin league
"""

from __future__ import annotations

import tyro

from train.eval.duplicate import EvaluateConfig
from train.eval.duplicate import run as run_evaluate
from train.eval.league import LeagueConfig
from train.eval.league import run as run_league
from truque_cli.play import PlayConfig
from truque_cli.play import run as run_play
from truque_env.simulate import SimulateConfig
from truque_env.simulate import run as run_simulate


def train_main(argv: list[str]) -> None:
    """``truque train ppo|cfr|mccfr [--config FILE] [overrides]``: the TOML gives the defaults, flags override."""
    if argv and argv[0] == "cfr":
        from train.cfr.solvers import main as cfr_main

        cfr_main(argv[1:], prog="truque train cfr")
        return
    if argv and argv[0] == "mccfr":
        from train.cfr.mccfr import main as mccfr_main

        mccfr_main(argv[1:], prog="truque train mccfr")
        return
    if argv and argv[0] == "mccfr-export":
        from train.cfr.mccfr import export_main

        export_main(argv[1:])
        return
    if argv and argv[0] == "export":
        if len(argv) != 3:
            raise SystemExit("usage: truque train export RUN_CHECKPOINT.pt OUT.pt")
        from pathlib import Path

        from train.ppo.loop import export_policy

        export_policy(Path(argv[1]), Path(argv[2]))
        print(f"wrote {argv[2]}")
        return
    if not argv or argv[0] != "ppo":
        raise SystemExit("usage: truque train ppo|cfr|mccfr|mccfr-export|export [--config FILE.toml] "
                         "[--setting value ...]")
    from train.ppo.loop import main as ppo_main

    ppo_main(argv[1:], prog="truque train ppo")


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
