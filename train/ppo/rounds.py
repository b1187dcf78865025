"""A PPO league that trains exploiters of itself and takes them in: rounds of best responses inside
one budget (issue 17's "exploiters trained against the current policy", PSRO-style).

One command runs the whole plan::

    truque train rounds --config configs/ppo_argentino_league_v4.toml

The file's ``[ppo]`` and ``[env]`` tables are the league run (``train.ppo.loop``), its ``[rounds]``
table this plan (``RoundsConfig``; ``league`` defaults to the same file). The run goes in pieces:

1. the league trains until its clock (cloning data and training, summed over its pieces) reaches
   ``league_minutes[0]``;
2. its policy is exported (``rounds/policy_<k>.pt``) and an exploiter trains against it alone for
   ``exploiter_minutes``, warm-started from it (``train.studies.exploiter``, at the team size
   ``exploiter_team_sizes[k - 1]``, cycled), then plays ``exploiter_juegos`` duplicate juegos
   against it: what a best response of that budget wins against the learner of round ``k``;
3. the exploiter's actor (``rounds/exploiter_<k>.pt``) joins the league's ``bot_opponents`` (with a
   PFSP target of ``exploiter_pfsp_target`` when the league aims its draws at targets) and the
   league resumes exactly until ``league_minutes[k]``;

and so on, one exploiter between consecutive pieces. Why: on the reduced games a league with best
responses as entries is the least exploitable PPO policy (docs/cfr.md); an exploiter trained
against a frozen full-game bot is countered within minutes once it is an entry (docs/league_argentino.md).
The plan must fit ``budget_minutes``: the last piece's limit plus every exploiter's minutes.

Everything lands in the league's ``run_dir``: its own files, and ``rounds/`` with each round's
policy, exploiter run, exploiter actor and result, and ``rounds.json``, the record of the steps
done (written atomically after each). ``--resume`` goes on from the first step not done: a league
piece resumes exactly from its checkpoint; an exploiter cut short trains again from its start.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import Field

from train import config
from truque_env.io import write_json_atomic

RECORD = "rounds.json"


@dataclass
class RoundsConfig:
    """A PPO league that trains exploiters of itself between its pieces and takes them in as entries."""

    league: Path | None = None
    """the league run's config (its [ppo] and [env] tables); none: the file this [rounds] table is in"""
    league_minutes: tuple[Annotated[float, Field(gt=0)], ...] = (90.0, 105.0, 120.0, 135.0)
    """the league's clock (minutes, its cloning data included, summed over its pieces) at the end of
    each piece; one exploiter trains between consecutive pieces"""
    exploiter_config: Path = Path("configs/ppo_argentino_1v1.toml")
    """the exploiters' PPO settings (train.studies.exploiter: its network is the learner's)"""
    exploiter_team_sizes: tuple[Annotated[int, Field(ge=1, le=4)], ...] = (1,)
    """the team size of round k's exploiter: exploiter_team_sizes[(k - 1) % len]"""
    exploiter_minutes: Annotated[float, Field(gt=0)] = 15.0
    """each exploiter's wall-clock budget (its warm start included)"""
    exploiter_juegos: Annotated[int, Field(ge=2)] = 1000
    """duplicate juegos of each exploiter against the policy it was trained against"""
    exploiter_pfsp_target: Annotated[float, Field(ge=0, lt=1)] = 0.5
    """the win rate the league aims at against each exploiter, when it aims its draws at targets
    (pfsp_targets): 0.5, an even game, as against its own snapshots"""
    budget_minutes: Annotated[float, Field(gt=0)] = 180.0
    """the plan's ceiling: the last piece's limit plus every exploiter's minutes (issue 17: 3 hours)"""
    seed: Annotated[int, Field(ge=0)] = 0
    """seeds the exploiters (round k: seed + k); the league keeps its own"""
    resume: bool = False
    """go on from the first step not done (rounds/rounds.json)"""
    overwrite: bool = False
    """start the plan again, deleting the league's run and its rounds/"""

    def validate(self) -> None:
        minutes = tuple(self.league_minutes)
        if not minutes:
            raise ValueError("league_minutes: give the league's clock at the end of each piece")
        if any(b <= a for a, b in zip(minutes, minutes[1:], strict=False)):
            raise ValueError(f"league_minutes must increase (each piece ends later on the league's clock), "
                             f"got {list(minutes)}")
        if not self.exploiter_team_sizes:
            raise ValueError("exploiter_team_sizes: give at least one team size")
        total = self.planned_minutes
        if total > self.budget_minutes:
            raise ValueError(f"the plan takes {total:g} minutes (the league to {minutes[-1]:g}, then "
                             f"{self.rounds} exploiters of {self.exploiter_minutes:g}): more than budget_minutes "
                             f"({self.budget_minutes:g})")
        if self.resume and self.overwrite:
            raise ValueError("resume and overwrite: give one (resume continues the plan, overwrite starts it again)")
        config.check_config(self)

    @property
    def rounds(self) -> int:
        """Exploiters trained: one between consecutive league pieces."""
        return len(self.league_minutes) - 1

    @property
    def planned_minutes(self) -> float:
        return self.league_minutes[-1] + self.rounds * self.exploiter_minutes

    def exploiter_team_size(self, k: int) -> int:
        return self.exploiter_team_sizes[(k - 1) % len(self.exploiter_team_sizes)]

    def plan(self) -> dict:
        """The settings that make the plan (what a resume must not change), as rounds.json holds them."""
        return json.loads(json.dumps({k: v for k, v in config.to_dict(self).items() if k not in ("resume", "overwrite")}))


def league_piece(cfg: RoundsConfig, base, k: int, exploiters: list[str], resume: bool):
    """The league's PPO run for piece ``k``: ``base`` (its config as read) with the exploiters so far
    appended to ``bot_opponents`` (with their PFSP targets if it aims at targets) and the piece's
    time limit."""
    targets = dict(base.pfsp_targets)
    if targets:
        targets.update({e: cfg.exploiter_pfsp_target for e in exploiters})
    piece = dataclasses.replace(base, resume=resume, overwrite=cfg.overwrite and k == 0 and not resume,
                                time_limit_minutes=cfg.league_minutes[k],
                                bot_opponents=(*base.bot_opponents, *exploiters), pfsp_targets=targets)
    piece.validate()
    return piece


def run(cfg: RoundsConfig) -> dict:
    """Train the plan (or what is left of it); the record of every step."""
    from train.ppo.loop import PPOConfig, export_policy, train
    from train.studies.exploiter import ExploiterConfig
    from train.studies.exploiter import run as train_exploiter

    if cfg.league is None:
        raise ValueError("league: give the league's config (truque train rounds --config FILE uses FILE)")
    cfg.validate()
    base = PPOConfig.from_toml(cfg.league)  # a bad league config fails now
    if not base.league:
        raise ValueError(f"{cfg.league}: rounds add exploiters to a league: set league = true in its [ppo]")
    bad = [n for n in cfg.exploiter_team_sizes if n not in base.sizes]
    if bad:
        raise ValueError(f"exploiter_team_sizes {bad} not played by the league (its team sizes: {list(base.sizes)})")
    run_dir = Path(base.run_dir)
    rounds_dir = run_dir / "rounds"
    record_path = rounds_dir / RECORD
    if cfg.resume:
        record = json.loads(record_path.read_text()) if record_path.is_file() else {"plan": cfg.plan(), "steps": []}
        if record["plan"] != cfg.plan():
            changed = sorted(k for k in cfg.plan() if record["plan"].get(k) != cfg.plan()[k])
            raise ValueError(f"{record_path}: a resumed plan keeps its settings; changed: {', '.join(changed)}")
    else:
        if rounds_dir.exists():
            if not cfg.overwrite:
                raise ValueError(f"{str(rounds_dir)!r} holds rounds: --resume to continue them, or --overwrite "
                                 "to start again (deleting them and the league's run)")
            shutil.rmtree(rounds_dir)
        record = {"plan": cfg.plan(), "steps": []}
    done = {(s["step"], s["k"]) for s in record["steps"]}

    def mark(step: dict) -> None:
        record["steps"].append(step)
        write_json_atomic(record_path, record)

    exploiters = [s["exploiter"] for s in record["steps"] if s["step"] == "exploiter"]
    for k in range(len(cfg.league_minutes)):
        if ("league", k) not in done:
            started = (run_dir / "checkpoint.pt").is_file() and (k > 0 or cfg.resume)
            t0 = time.perf_counter()
            state = train(league_piece(cfg, base, k, exploiters, resume=started))
            mark({"step": "league", "k": k, "time_limit_minutes": cfg.league_minutes[k], "update": state.update,
                  "decisions": state.decisions, "league_minutes": state.seconds / 60,
                  "wall_minutes": (time.perf_counter() - t0) / 60, "entries": len(exploiters)})
        if k == cfg.rounds:
            break
        if ("exploiter", k + 1) not in done:
            t0 = time.perf_counter()
            target, actor = rounds_dir / f"policy_{k + 1}.pt", rounds_dir / f"exploiter_{k + 1}.pt"
            export_policy(run_dir / "checkpoint.pt", target)
            size = cfg.exploiter_team_size(k + 1)
            result = train_exploiter(ExploiterConfig(
                target=str(target), config=cfg.exploiter_config, tradition=base.tradition, team_size=size,
                minutes=cfg.exploiter_minutes, juegos=cfg.exploiter_juegos, seed=cfg.seed + k + 1,
                run_dir=rounds_dir / f"exploiter_{k + 1}", out=rounds_dir / f"exploiter_{k + 1}.json",
                overwrite=True))  # a round cut short trains its exploiter again: its folder is the plan's
            shutil.copyfile(result["exploiter"], actor)  # the study's actor, under the plan's name for it
            exploiters.append(str(actor))
            mark({"step": "exploiter", "k": k + 1, "target": str(target), "exploiter": str(actor), "team_size": size,
                  "win_rate": result["exploiter_win_rate"], "wilson95": result["wilson95"],
                  "training_minutes": result["training"]["minutes"], "wall_minutes": (time.perf_counter() - t0) / 60})
            print(f"round {k + 1}: the exploiter of the league at {cfg.league_minutes[k]:g} min wins "
                  f"{result['exploiter_win_rate']:.1%} at {size}v{size}; it joins the league", flush=True)
    return record


def main(argv=None) -> dict:
    import tyro

    return run(tyro.cli(RoundsConfig, args=argv))


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
