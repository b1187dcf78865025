"""``python -m train.studies.analysis``: every measurement of one policy (``cli.py``)."""

from train.studies.analysis.cli import main

if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
