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
