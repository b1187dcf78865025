"""MCCFR on the full 1 contra 1 mano of Truque Moteño (mano a mano, Art. 3.1), on the real engine.

The abstraction (information-set keys computed from the acting seat's observation vector, 17
abstract actions) is ``agents.cfr_abstraction`` and the reading of the files ``agents.cfr_files``
(both on the bot side, which needs them to act), the traversal kernels ``train.cfr.mccfr_kernels``;
this module is the run:
the config (also the command line and the TOML file, section ``[mccfr]``), progress and log,
atomic checkpoints with bit-exact ``--resume``, and the export of the average policy as a small
file for the bot (``agents.cfr_policy``, registered as ``cfr``).

**Algorithm.** Monte Carlo CFR with *average strategy sampling* (AS-MCCFR, Gibson et al. 2012),
a form of external sampling: chance (the deal, the scores) and the opponent are sampled (the
opponent from its current strategy), and at the traverser's nodes each legal abstract action is
explored with probability ``min(1, max(epsilon, (beta w + tau s(a)) / (beta w + sum s)))`` (``s``
the cumulative average strategy, ``w`` the iteration weight) with the usual ``1/q`` importance
weights. ``epsilon = 1`` is plain external sampling (Lanctot et al. 2009). Why not plain external
sampling: a traversal of the full mano explores ~7,000 nodes (the traverser may bet, raise or
play any card at every turn), 15 iterations per second; average strategy sampling keeps the same
unbiased estimates and, once the average strategy has settled, skips most of the actions it no
longer plays: 10-20x more deals per second. Why not outcome sampling: one terminal per
traversal, with ~10 decisions of the traverser each among 3-8 actions, gives importance weights
of 1e4-1e6: far noisier estimates. Alternating updates, linear weighting (iteration ``t`` adds
regrets and average with weight ``t``, as Linear CFR) by default.

**Utility**: the chinas of the mano, the side's minus the rival's, each capped at its distance to
the target at the start of the mano (ruling 1: the first to reach the target wins the juego at
once, later chinas are not scored; Art. 17.3: pares and flores count before the truque; the
amounts of Art. 18.2). Each traversal draws both scores uniformly in ``0..target-1`` (so every
score context of the key is trained) and the first dealer from the table's generator.

    truque train mccfr --config configs/mccfr_moteno_1v1.toml
    truque train mccfr --config configs/mccfr_moteno_1v1.toml --resume
    truque train mccfr-export runs/mccfr_moteno_1v1/checkpoint.npz agents/checkpoints/cfr_moteno_1v1.npz
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents import cfr_abstraction as CA
from agents import cfr_abstraction_argentino
from agents.cfr_files import (
    CHECKPOINT_FORMAT,
    CHECKPOINT_VERSION,
    POLICY_FORMAT,
    POLICY_VERSION,
    average_policy_rows,
    read_checkpoint,
)
from train import config
from train.cfr import mccfr_kernels as MK
from train.cfr import mccfr_kernels_argentino
from truque_env.io import write_json_atomic, write_npz_atomic
from truque_env.settings import MatchSettings
from truque_env.traditions import get as get_tradition

# the traversal kernels and the abstraction of each tradition the trainer plays (one module each:
# numba caches no loop that takes the engine as an argument, docs/engine.md)
GAMES = {"moteno": (MK, CA), "argentino": (mccfr_kernels_argentino, cfr_abstraction_argentino)}

# settings that change a run's iterates: a resumed run must have the same ones
SHAPING = ("tradition", "team_size", "target", "capacity_log2", "linear", "epsilon", "tau", "beta", "seed")


@dataclass
class MCCFRConfig:
    """An MCCFR run on the 1 contra 1 mano: also the command line (tyro) and the TOML (``[mccfr]``)."""

    tradition: str = "moteno"
    """the game: moteno or argentino (each with its abstraction, agents.cfr_abstraction*)"""
    team_size: int = 1
    """players per team: only 1 (mano a mano) is supported"""
    target: int = 30
    """chinas to win a juego (ruling 1); the scores of the training manos are drawn below it"""
    iterations: int = 100_000
    """the run's total number of iterations (one traversal per player each); a resumed run goes on up to it"""
    max_seconds: float = 0.0
    """stop (with a checkpoint) after this much solver time in this session; 0: no limit"""
    capacity_log2: int = 23
    """the table holds 2**capacity_log2 information sets (at most 90% filled); 23: 8.4M, 1.1 GB"""
    linear: bool = True
    """weight iteration t's regrets and average by t (Linear CFR); False: uniform"""
    epsilon: float = 0.05
    """average strategy sampling: least exploration probability of an action; 1 = external sampling"""
    tau: float = 2.0
    """average strategy sampling: an action is explored with probability ~ tau x its average probability"""
    beta: float = 1.0
    """average strategy sampling: explore everything until the row's average weighs ~beta iterations"""
    seed: int = 0
    """the seed stream of the deals, scores and samples"""
    log_every: int = 1000
    """iterations between progress lines"""
    eval_every: int = 20_000
    """iterations between test matches against random play (0: only at the end)"""
    eval_manos: int = 2000
    """manos of each test match (fixed deals)"""
    checkpoint_every: int = 50_000
    """iterations between checkpoints (one is always written at the end)"""
    run_dir: Path | None = Path("runs/mccfr_moteno_1v1")
    """checkpoint.npz and log.json go here (None: no files)"""
    resume: bool = False
    """continue the run in run_dir from its checkpoint"""
    overwrite: bool = False
    """start a fresh run in a run_dir that holds one, deleting it (without this, such a run_dir is refused)"""
    export: Path | None = None
    """at the end, also write the compact average policy for the bot here (see export_policy)"""
    export_max_states: int = 1_200_000
    """the export keeps the information sets of largest average-strategy weight, at most this many"""
    verbose: bool = True

    def validate(self) -> None:
        if self.tradition not in GAMES:
            get_tradition(self.tradition)  # an unknown tradition: its own clear error
            raise ValueError(f"MCCFR has no abstraction for {self.tradition!r}; it plays {', '.join(GAMES)}")
        if self.team_size != 1:
            raise ValueError(f"MCCFR plays 1 contra 1 only (team_size = 1), got team_size = {self.team_size}")
        if not 2 <= self.target <= 127:
            raise ValueError(f"target must be in 2..127 (the observation is int8), got {self.target}")
        if not 10 <= self.capacity_log2 <= 30:
            raise ValueError(f"capacity_log2 must be in 10..30, got {self.capacity_log2}")
        for name in ("iterations", "seed", "eval_every", "eval_manos"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        for name in ("log_every", "checkpoint_every", "export_max_states"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        if not 0.0 < self.epsilon <= 1.0 or not self.tau > 0.0 or not self.beta >= 0.0:
            raise ValueError(f"need 0 < epsilon <= 1, tau > 0, beta >= 0; got {self.epsilon}, {self.tau}, {self.beta}")
        if self.max_seconds < 0:
            raise ValueError(f"max_seconds must be >= 0, got {self.max_seconds}")
        if self.resume and self.run_dir is None:
            raise ValueError("resume needs a run_dir")
        config.check_config(self)  # and every field's type (pydantic), the key named

    @classmethod
    def from_toml(cls, path: Path, **overrides) -> MCCFRConfig:
        return config.from_toml(cls, path, "mccfr", **overrides)


class MCCFRSolver:
    """The tables of a run and ``run(iterations)``; ``iteration`` counts completed iterations."""

    def __init__(self, cfg: MCCFRConfig):
        cfg.validate()
        self.cfg = cfg
        self.kernels, self.abstraction = MKT, CAT = GAMES[cfg.tradition]
        self.settings = MatchSettings(cfg.tradition, 1, cfg.target, 1, 0, 0.0)
        spec = self.settings.spec
        layout, obs, actions = spec.layout, spec.observation, spec.actions
        cap = 1 << cfg.capacity_log2
        self.keys = np.zeros(cap, dtype=np.int64)
        self.regrets = np.zeros((cap, CAT.NUM_ABSTRACT), dtype=np.float32)
        self.cum_policy = np.zeros((cap, CAT.NUM_ABSTRACT), dtype=np.float32)
        self.info = np.zeros(MK.INFO_SIZE, dtype=np.int64)
        self.info[MK.I_MAX_FILL] = int(cap * MK.MAX_LOAD)
        self.iteration = 0
        d = MK.MAX_DEPTH
        self._scratch = (self.settings.new_states(d), np.zeros((d, obs.HISTORY_SIZE), dtype=np.int16),
                         np.zeros((d, obs.OBS_SIZE), dtype=np.int8), np.zeros((d, actions.NUM_ACTIONS), dtype=np.uint8),
                         np.zeros((d, CAT.NUM_ABSTRACT), dtype=np.uint8), np.zeros((d, CAT.NUM_ABSTRACT), dtype=np.int64),
                         np.zeros((d, CAT.NUM_ABSTRACT)), np.zeros((d, CAT.NUM_ABSTRACT)))
        assert MKT.MAX_DEPTH == d and layout.STATE_SIZE == self._scratch[0].shape[1]
        self._sampling = np.array([cfg.epsilon, cfg.tau, cfg.beta], dtype=np.float64)
        self._rng = np.zeros(1, dtype=np.uint64)
        self._dist = np.zeros(2, dtype=np.int64)

    @property
    def capacity(self) -> int:
        return self.keys.size

    @property
    def num_infostates(self) -> int:
        return int(self.info[MK.I_FILL])

    @property
    def nodes(self) -> int:
        """Decision nodes visited by the traversals of this session."""
        return int(self.info[MK.I_NODES])

    def run(self, iterations: int) -> None:
        if iterations < 0:
            raise ValueError(f"iterations must be >= 0, got {iterations}")
        c = self.cfg
        done = self.kernels.run_iterations(self.iteration, iterations, c.seed, c.target, c.linear, self._sampling, *self._scratch,
                                 self.keys, self.regrets, self.cum_policy, self._rng, self._dist, self.info)
        stop = int(self.info[MK.I_STOP])
        if stop:
            self.info[MK.I_STOP] = 0
            if stop == MK.STOP_FULL:
                raise ValueError(f"the MCCFR table is full: {self.num_infostates:,} information sets in "
                                 f"{self.capacity:,} slots (at most {MK.MAX_LOAD:.0%} filled) at iteration "
                                 f"{self.iteration + done + 1}; raise capacity_log2 (now {c.capacity_log2}) and start "
                                 "again from the last checkpoint's settings")
            raise ValueError(f"a mano went deeper than {MK.MAX_DEPTH} decisions (iteration {self.iteration + done + 1})")
        self.iteration += done

    def slots(self) -> np.ndarray:
        return np.flatnonzero(self.keys)

    def test_match(self, manos: int, seed: int = 12345) -> tuple[float, float]:
        """(mean capped chinas per mano of the average policy against random play, share of its
        decisions at unseen information sets)."""
        info = np.zeros(MK.INFO_SIZE, dtype=np.int64)
        v = self.kernels.match_vs_random(manos, seed, self.cfg.target, self.keys, self.cum_policy, info,
                                         self.settings.rules)
        return float(v), float(info[MK.I_MISSES] / max(1, info[MK.I_LOOKUPS]))


# ------------------------------------------------------------------------------------------
# checkpoints: .npz of plain arrays (the filled rows and their slots), atomic, no pickle

def save_checkpoint(path: Path, solver: MCCFRSolver, seconds: float, log: list[dict]) -> None:
    slots = solver.slots()
    rows = np.array([[r["iteration"], r["seconds"], r["infostates"], r["vs_random"], r["miss_rate"]] for r in log],
                    dtype=np.float64).reshape(-1, 5)
    arrays = {"format": np.array(CHECKPOINT_FORMAT), "version": np.array(CHECKPOINT_VERSION),
              "config": np.array(json.dumps(config.to_dict(solver.cfg))),
              "abstraction": np.array(json.dumps(solver.abstraction.describe_abstraction())),
              "iteration": np.array(solver.iteration, dtype=np.int64), "seconds": np.array(float(seconds)),
              "capacity": np.array(solver.capacity, dtype=np.int64), "slots": slots, "keys": solver.keys[slots],
              "regrets": solver.regrets[slots], "cum_policy": solver.cum_policy[slots], "log": rows}
    write_npz_atomic(path, arrays)


def load_checkpoint(path: Path, cfg: MCCFRConfig | None = None) -> dict:
    """The arrays of a checkpoint, validated (``agents.cfr_files.read_checkpoint``); with ``cfg``,
    a ValueError unless the run settings match."""
    ck = read_checkpoint(path)
    if cfg is not None:
        theirs = {"tradition": "moteno", **json.loads(str(ck["config"]))}  # runs before the field were Moteño's
        config.check_same_settings(path, theirs, cfg, SHAPING)
    return ck


def restore(solver: MCCFRSolver, ck: dict) -> None:
    """Put a checkpoint's tables back in their slots (bit for bit)."""
    if int(ck["capacity"]) != solver.capacity:
        raise ValueError(f"checkpoint capacity {int(ck['capacity'])} != this run's {solver.capacity}")
    solver.keys[:] = 0
    solver.regrets[:] = 0
    solver.cum_policy[:] = 0
    s = ck["slots"]
    solver.keys[s], solver.regrets[s], solver.cum_policy[s] = ck["keys"], ck["regrets"], ck["cum_policy"]
    solver.info[MK.I_FILL] = s.size
    solver.iteration = int(ck["iteration"])


# ------------------------------------------------------------------------------------------
# the compact policy for the bot


def export_policy(checkpoint: Path, out: Path, max_states: int = 1_200_000) -> dict:
    """Write the average policy of a run's checkpoint as the bot's file: the ``max_states``
    information sets of largest average-strategy weight (those the self-play reaches most), keys
    sorted, probabilities float16; ``np.savez_compressed``, atomic. Returns a summary."""
    ck = load_checkpoint(checkpoint)
    tradition = json.loads(str(ck["config"])).get("tradition", "moteno")
    if tradition != "moteno":  # the bot (agents.cfr_policy) reads Moteño's abstraction only
        raise ValueError(f"{checkpoint}: an MCCFR run of {tradition}; only Moteño's average policy ships as "
                         "the cfr bot (its bot for argentino comes with its strength, a later issue)")
    total = ck["cum_policy"].astype(np.float64).sum(axis=1)
    keep = np.flatnonzero(total > 0)
    if keep.size > max_states:
        keep = keep[np.argsort(-total[keep], kind="stable")[:max_states]]
    keys = ck["keys"][keep]
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    policy = average_policy_rows(ck["cum_policy"][keep][order]).astype(np.float16)
    cfg = json.loads(str(ck["config"]))
    header = {"source": str(checkpoint), "iteration": int(ck["iteration"]), "team_size": cfg.get("team_size", 1),
              "target": cfg.get("target"), "infostates_in_run": int(ck["keys"].size), "infostates": int(keys.size),
              "weight_kept": float(total[keep].sum() / max(total.sum(), 1e-300)),
              "settings": MatchSettings(team_size=int(cfg.get("team_size", 1)), target=cfg.get("target")).to_dict()}
    write_npz_atomic(out, {"format": np.array(POLICY_FORMAT), "version": np.array(POLICY_VERSION),
                           "abstraction": np.array(json.dumps(CA.describe_abstraction())),
                           "header": np.array(json.dumps(header)), "keys": keys, "policy": policy}, compressed=True)
    header["bytes"] = Path(out).stat().st_size
    return header


# ------------------------------------------------------------------------------------------
# the run


@dataclass
class MCCFRRun:
    solver: MCCFRSolver
    seconds: float = 0.0
    """solver time over all sessions (tests, checkpoints and compilation left out)"""
    log: list[dict] = field(default_factory=list)


def train(cfg: MCCFRConfig) -> MCCFRRun:
    cfg.validate()
    if cfg.run_dir is not None:
        config.prepare_run_dir(cfg.run_dir, cfg.resume, cfg.overwrite, ("checkpoint.npz", "log.json"), "checkpoint.npz")
    run = MCCFRRun(MCCFRSolver(cfg))
    solver = run.solver
    ckpt_path = cfg.run_dir / "checkpoint.npz" if cfg.run_dir is not None else None
    if cfg.resume:
        ck = load_checkpoint(ckpt_path, cfg)
        restore(solver, ck)
        run.seconds = float(ck["seconds"])
        run.log = [{"iteration": int(r[0]), "seconds": float(r[1]), "infostates": int(r[2]), "vs_random": float(r[3]),
                    "miss_rate": float(r[4])} for r in ck["log"]]
    t_compile = time.perf_counter()
    solver.run(0)  # compile (or load) the kernels outside the timed loop
    if cfg.verbose and time.perf_counter() - t_compile > 1:
        print(f"kernels compiled in {time.perf_counter() - t_compile:.0f} s", flush=True)

    def evaluate():
        v, miss = solver.test_match(cfg.eval_manos) if cfg.eval_manos else (float("nan"), float("nan"))
        run.log.append({"iteration": solver.iteration, "seconds": run.seconds, "infostates": solver.num_infostates,
                        "vs_random": v, "miss_rate": miss})
        if cfg.run_dir is not None:
            write_json_atomic(cfg.run_dir / "log.json", {"config": config.to_dict(cfg), "log": run.log})
        if cfg.verbose:
            print(f"  test match: {v:+.3f} chinas per mano against random play (capped), "
                  f"{miss:.1%} of its decisions at unseen information sets", flush=True)

    session_start = run.seconds
    step = 16  # iterations per kernel call, adapted to ~2-8 s so that max_seconds is kept closely

    def out_of_time() -> bool:
        return cfg.max_seconds > 0 and run.seconds - session_start >= cfg.max_seconds

    def next_boundary(every: int) -> int:
        return (solver.iteration // every + 1) * every if every else cfg.iterations

    while solver.iteration < cfg.iterations and not out_of_time():
        stop = min(cfg.iterations, next_boundary(cfg.log_every), next_boundary(cfg.eval_every),
                   next_boundary(cfg.checkpoint_every))
        t_start, n0, i0 = run.seconds, solver.nodes, solver.iteration
        while solver.iteration < stop and not out_of_time():
            t0 = time.perf_counter()
            solver.run(min(step, stop - solver.iteration))
            dt = time.perf_counter() - t0
            run.seconds += dt
            step = step * 2 if dt < 2.0 else (max(1, step // 2) if dt > 8.0 else step)
        dt = max(run.seconds - t_start, 1e-9)
        done = solver.iteration >= cfg.iterations or out_of_time()
        if cfg.verbose and (done or solver.iteration % cfg.log_every == 0):
            print(f"mccfr 1v1 iteration {solver.iteration:>9,}  {(solver.iteration - i0) / dt:7.1f} it/s  "
                  f"{(solver.nodes - n0) / dt / 1e3:6.0f}k nodes/s  infostates {solver.num_infostates:>10,} "
                  f"({solver.num_infostates / solver.capacity:.0%} of the table)  {run.seconds:8.1f} s", flush=True)
        if done or (cfg.eval_every and solver.iteration % cfg.eval_every == 0):
            evaluate()
        if ckpt_path is not None and (done or solver.iteration % cfg.checkpoint_every == 0):
            save_checkpoint(ckpt_path, solver, run.seconds, run.log)
    if not run.log or run.log[-1]["iteration"] != solver.iteration:
        evaluate()
        if ckpt_path is not None:
            save_checkpoint(ckpt_path, solver, run.seconds, run.log)
    if cfg.export is not None:
        if ckpt_path is None:
            raise ValueError("export needs a run_dir (it reads the run's checkpoint)")
        summary = export_policy(ckpt_path, cfg.export, cfg.export_max_states)
        if cfg.verbose:
            print(f"exported {summary['infostates']:,} information sets ({summary['weight_kept']:.1%} of the "
                  f"average-strategy weight) to {cfg.export} ({summary['bytes'] / 1e6:.1f} MB)", flush=True)
    return run


def main(argv=None, prog: str = "python -m train.cfr.mccfr") -> MCCFRRun:
    """``[--config FILE.toml] [--setting value ...]``: the TOML gives the defaults, flags override."""
    import sys

    return train(config.cli(MCCFRConfig, sys.argv[1:] if argv is None else argv, prog, "mccfr"))


def export_main(argv: list[str]) -> None:
    """``CHECKPOINT.npz OUT.npz [--max-states N]``"""
    args = list(argv)
    max_states = 1_200_000
    if "--max-states" in args:
        i = args.index("--max-states")
        if i + 1 >= len(args):
            raise SystemExit("--max-states needs a number")
        max_states = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 2:
        raise SystemExit("usage: truque train mccfr-export RUN/checkpoint.npz OUT.npz [--max-states N]")
    s = export_policy(Path(args[0]), Path(args[1]), max_states)
    print(f"wrote {args[1]}: {s['infostates']:,} of {s['infostates_in_run']:,} information sets "
          f"({s['weight_kept']:.1%} of the average-strategy weight), {s['bytes'] / 1e6:.1f} MB")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
