"""The ``truque`` console command: every command is a subcommand of one tyro CLI.

    truque simulate --manos N                     random manos and their statistics
    truque play                                   a person against bots
    truque evaluate --a X --b Y                   a duplicate-deal match
    truque league --policies X,Y,Z                a round-robin league
    truque train ppo --config FILE.toml           PPO self-play (flags override the file)
    truque train cfr --config FILE.toml           CFR / CFR+ / LCFR / DCFR / MCCFR on Kuhn, Leduc, reduced Truque
    truque train mccfr --config FILE.toml         MCCFR on the full 1 contra 1 mano
    truque train rounds --config FILE.toml        a PPO league that trains exploiters of itself and takes them in
    truque train mccfr-export CKPT OUT            the average policy of an MCCFR run, to ship as the cfr bot
    truque train export RUN.pt OUT.pt             the actor of a PPO run's checkpoint, to ship as a bot

``truque --help`` lists them, ``truque COMMAND --help`` gives a command's settings. A user's
mistake (a bad setting, a missing file, an unknown bot) is one line ``error: ...`` on stderr and
exit status 2; ``--debug`` (or the environment variable ``TRUQUE_DEBUG=1``) shows the traceback.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Union

import tyro

from train import config as train_config
from train.cfr.mccfr import MCCFRConfig
from train.cfr.solvers import CFRConfig
from train.eval.duplicate import EvaluateConfig
from train.eval.league import LeagueConfig
from train.ppo.loop import PPOConfig
from train.ppo.rounds import RoundsConfig
from truque_cli.play import PlayConfig
from truque_env.command import run_command
from truque_env.io import check_new_output
from truque_env.simulate import SimulateConfig


@dataclasses.dataclass
class ExportConfig:
    """The actor of a PPO run's checkpoint (all a bot needs), to ship as a bot."""

    checkpoint: tyro.conf.Positional[Path]
    """the run's checkpoint.pt"""
    out: tyro.conf.Positional[Path]
    """the policy file to write"""
    overwrite: bool = False
    """replace OUT if it exists"""


@dataclasses.dataclass
class MCCFRExportConfig:
    """The average policy of an MCCFR run, compacted, to ship as the cfr bot."""

    checkpoint: tyro.conf.Positional[Path]
    """the run's checkpoint.npz"""
    out: tyro.conf.Positional[Path]
    """the policy file to write"""
    max_states: int = 1_200_000
    """keep the information sets of largest average-strategy weight, at most this many"""
    overwrite: bool = False
    """replace OUT if it exists"""


# the trainers read their defaults from a TOML file (--config FILE.toml, its [section]); flags override
TRAINERS = {"ppo": (PPOConfig, "ppo", "PPO self-play against a pool of snapshots"),
            "cfr": (CFRConfig, "cfr", "the CFR family with exact exploitability (Kuhn, Leduc, reduced Truque)"),
            "mccfr": (MCCFRConfig, "mccfr", "external-sampling MCCFR on the full 1 contra 1 mano"),
            "rounds": (RoundsConfig, "rounds", "a PPO league (the file's [ppo]) that trains exploiters of itself "
                                               "between its pieces and takes them in as entries")}
CONFIG_HELP = (" --config FILE.toml gives the defaults (its [{section}] table, and [env] for the game); "
               "the flags below override them.")


class UserError(ValueError):
    """A mistake in what the user asked for, said in one line."""


def _trainer_default(cls, section: str, path: Path | None):
    if path is None:
        return cls()
    if not path.is_file():
        raise UserError(f"--config {str(path)!r}: no such file")
    cfg = train_config.from_toml(cls, path, section)
    if cls is RoundsConfig and cfg.league is None:  # the league's [ppo] is in the same file
        cfg = dataclasses.replace(cfg, league=path)
    return cfg


def command_type(args: list[str]):
    """The CLI as one type (a union of subcommands); ``args`` loses a trainer's ``--config``."""
    config_path = train_config.take_config(args)
    chosen = args[1] if len(args) > 1 and args[0] == "train" else None
    if config_path is not None and chosen not in TRAINERS:
        raise UserError("--config is for truque train ppo|cfr|mccfr|rounds")
    trainers = [Annotated[cls, tyro.conf.subcommand(
        name, default=_trainer_default(cls, section, config_path if name == chosen else None),
        description=f"{desc}.{CONFIG_HELP.format(section=section)}")]
        for name, (cls, section, desc) in TRAINERS.items()]
    trainers += [Annotated[MCCFRExportConfig, tyro.conf.subcommand("mccfr-export")],
                 Annotated[ExportConfig, tyro.conf.subcommand("export")]]
    train = dataclasses.make_dataclass("Train", [("command", tyro.conf.OmitArgPrefixes[Union[tuple(trainers)]])])  # noqa: UP007
    train.__doc__ = "Train a bot: ppo, cfr, mccfr, rounds; export a run's policy to ship it."
    return Union[  # noqa: UP007  (built at run time: each trainer's default may come from its --config)
        Annotated[SimulateConfig, tyro.conf.subcommand("simulate")],
        Annotated[PlayConfig, tyro.conf.subcommand("play")],
        Annotated[EvaluateConfig, tyro.conf.subcommand("evaluate")],
        Annotated[LeagueConfig, tyro.conf.subcommand("league")],
        Annotated[train, tyro.conf.subcommand("train")],
    ]


def run(cfg) -> None:
    """Do what the parsed command says (every setting's type and bounds checked first, pydantic)."""
    if not dataclasses.is_dataclass(cfg) or type(cfg).__name__ != "Train":
        cfg = train_config.check_config(cfg)
    if isinstance(cfg, SimulateConfig):
        from truque_env.simulate import run as run_simulate

        run_simulate(cfg)
    elif isinstance(cfg, PlayConfig):
        from truque_cli.play import run as run_play

        run_play(cfg)
    elif isinstance(cfg, EvaluateConfig):
        from train.eval.duplicate import run as run_evaluate

        run_evaluate(cfg)
    elif isinstance(cfg, LeagueConfig):
        from train.eval.league import run as run_league

        run_league(cfg)
    else:  # train
        _train(cfg.command)


def _train(cmd) -> None:
    if isinstance(cmd, PPOConfig):
        from train.ppo.loop import train

        train(cmd)  # which validates it
    elif isinstance(cmd, CFRConfig):
        from train.cfr.solvers import train

        train(cmd)  # which validates it
    elif isinstance(cmd, MCCFRConfig):
        from train.cfr.mccfr import train

        train(cmd)  # which validates it
    elif isinstance(cmd, RoundsConfig):
        from train.ppo.rounds import run as run_rounds

        run_rounds(cmd)  # which validates it
    elif isinstance(cmd, MCCFRExportConfig):
        from train.cfr.mccfr import export_policy

        check_new_output(cmd.out, cmd.overwrite)  # a shipped policy is not replaced unless told to
        s = export_policy(cmd.checkpoint, cmd.out, cmd.max_states)
        print(f"wrote {cmd.out}: {s['infostates']:,} of {s['infostates_in_run']:,} information sets "
              f"({s['weight_kept']:.1%} of the average-strategy weight), {s['bytes'] / 1e6:.1f} MB")
    else:
        from train.ppo.loop import export_policy

        check_new_output(cmd.out, cmd.overwrite)
        export_policy(cmd.checkpoint, cmd.out)
        print(f"wrote {cmd.out}")


def main(argv=None) -> None:
    run_command(lambda args: run(tyro.cli(command_type(args), args=args, prog="truque",
                                          config=(tyro.conf.OmitSubcommandPrefixes,))), argv)


if __name__ == "__main__":
    main()
