"""A real training process killed between two checkpoints (``kill -9``), then resumed: the log
ends where the checkpoint ends, so no update is logged twice (issue 15, item 2)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

CONFIG = Path(__file__).parents[2] / "configs" / "ppo_tiny.toml"


def _updates(path: Path) -> list[int]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line)["update"])
        except (ValueError, KeyError):
            pass  # a line cut by the kill
    return out


@pytest.mark.skipif(shutil.which("truque") is None, reason="the truque command is not installed")
def test_a_run_killed_between_checkpoints_resumes_without_logging_an_update_twice(tmp_path):
    run = tmp_path / "run"
    args = ["truque", "train", "ppo", "--config", str(CONFIG), "--run-dir", str(run), "--total-decisions",
            str(256 * 2000), "--checkpoint-every", "20", "--log-every", "1", "--no-tensorboard", "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    metrics = run / "metrics.jsonl"
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:  # until the log holds rows past the checkpoint of update 20
            if max(_updates(metrics), default=0) >= 24 or proc.poll() is not None:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.stderr.read().decode()
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    before = _updates(metrics)
    assert max(before) >= 24  # logged after the last checkpoint, which is update 20 (or 40)
    # resume and stop at update 50: what the killed run logged after its checkpoint is played again
    done = subprocess.run(["truque", "train", "ppo", "--config", str(CONFIG), "--run-dir", str(run), "--resume",
                           "--total-decisions", str(256 * 50), "--checkpoint-every", "20", "--log-every", "1",
                           "--no-tensorboard", "--no-progress"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    after = _updates(metrics)
    assert after == list(range(1, 51))  # each update once, in order
    assert not list(run.glob(".*.tmp"))
    # and a fresh run into it is refused, naming the ways on
    again = subprocess.run(["truque", "train", "ppo", "--config", str(CONFIG), "--run-dir", str(run)],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and again.stderr.startswith("error: run_dir") and "--overwrite" in again.stderr


KILLED_IN_SAVE = """
import os, signal, sys
from pathlib import Path
import torch
import train.ppo.loop as loop

path = Path(sys.argv[1])
loop.save_checkpoint(path, {"update": 1, "weights": torch.arange(1000.0)})
real_save = torch.save

def save_then_die(obj, f, *args, **kwargs):  # the bytes half written, then killed inside the save
    real_save(obj, f, *args, **kwargs)
    with open(f, "r+b") as fh:
        fh.truncate(os.path.getsize(f) // 2)
    os.kill(os.getpid(), signal.SIGKILL)

torch.save = save_then_die
loop.save_checkpoint(path, {"update": 2, "weights": torch.arange(1000.0)})
"""


def test_a_process_killed_inside_the_checkpoint_write_keeps_the_previous_checkpoint(tmp_path):
    """Issue 15.2: SIGKILL in the middle of a checkpoint write leaves the last good checkpoint whole
    (the write goes to a temporary file, renamed only once complete) and the next start removes the
    half-written temporary file."""
    import sys

    import torch

    from train.config import prepare_run_dir

    ckpt = tmp_path / "checkpoint.pt"
    proc = subprocess.run([sys.executable, "-c", KILLED_IN_SAVE, str(ckpt)], capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL
    assert torch.load(ckpt, weights_only=True)["update"] == 1  # the previous one, intact
    leftovers = list(tmp_path.glob(".checkpoint.pt.*.tmp"))
    assert len(leftovers) == 1 and leftovers[0].stat().st_size > 0
    prepare_run_dir(tmp_path, resume=True, overwrite=False, run_files=("checkpoint.pt",), checkpoint="checkpoint.pt")
    assert not list(tmp_path.glob(".*.tmp")) and ckpt.exists()
