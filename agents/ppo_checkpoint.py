"""Reading a PPO checkpoint (a run's, or an exported policy's): what a bot needs to load one.

The trainer (``train.ppo.loop``) writes these files and adds its own check that a resumed run has the
same settings; the format itself is checked here, on the bot side, so that loading a bot never
needs the trainer. Loading is safe (``torch.load(weights_only=True)``); a truncated or foreign
file is a clear ``ValueError``.
"""

from __future__ import annotations

from pathlib import Path

import torch

FORMAT = "truque_env.ppo"
CHECKPOINT_VERSION = 2  # 2: sparse feature input layers


def actor_weights(model: dict) -> dict:
    """The actor's part of a checkpoint's weights: all a bot plays with (a run's critic stays behind)."""
    return {k: v for k, v in model.items() if k.startswith("actor")}


def read_checkpoint(path: Path) -> dict:
    """The checkpoint at ``path`` as a dict (``FileNotFoundError`` if there is none)."""
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except FileNotFoundError:
        raise
    except Exception as exc:  # a truncated or foreign file
        raise ValueError(f"{path}: not a readable truque_env checkpoint ({type(exc).__name__}: {exc})") from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != FORMAT or ckpt.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{path}: not a truque_env PPO checkpoint of version {CHECKPOINT_VERSION}")
    if isinstance(ckpt.get("config"), dict):
        ckpt["config"].setdefault("hand_features", False)  # settings added after the first checkpoints
        ckpt["config"].setdefault("juego_record", False)
        ckpt["config"].setdefault("record_rates", False)
    return ckpt
