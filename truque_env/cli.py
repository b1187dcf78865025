"""The ``truque`` console command: ``truque simulate --manos N`` (more subcommands as they land)."""

from __future__ import annotations

import tyro

from truque_env.simulate import SimulateConfig
from truque_env.simulate import run as run_simulate


def main(argv=None) -> None:
    commands = {"simulate": SimulateConfig}
    cfg = tyro.extras.subcommand_cli_from_dict(commands, args=argv, prog="truque")
    if isinstance(cfg, SimulateConfig):
        run_simulate(cfg)


if __name__ == "__main__":
    main()
