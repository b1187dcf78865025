"""The files of the 1 contra 1 MCCFR bot: an exported policy, or a run's checkpoint, read safely.

Both are ``.npz`` files of plain arrays (no pickle, ``truque_env.io.read_npz``). The trainer
(``train.cfr.mccfr``) writes them and adds its resume check (same settings); reading and
validating them is here, on the bot side, so that loading the ``cfr`` bot never needs the
trainer.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents import cfr_abstraction as CA
from agents import cfr_abstraction_argentino as CAA
from truque_env.io import read_npz

CHECKPOINT_FORMAT = "truque_env.mccfr_moteno"
CHECKPOINT_VERSION = 1
POLICY_FORMAT = "truque_env.cfr_policy"
POLICY_VERSION = 1

# the abstraction of each tradition's runs (a run's config names its tradition; Moteño's before it did)
ABSTRACTIONS = {"moteno": CA, "argentino": CAA}

_KEYS = ("format", "version", "config", "abstraction", "iteration", "seconds", "capacity", "slots", "keys", "regrets",
         "cum_policy", "log")


def read_checkpoint(path: Path) -> dict:
    """The arrays of an MCCFR run's checkpoint, validated against the abstraction of the run's
    tradition (a clear ValueError for anything else)."""
    path = Path(path)
    ck = read_npz(path, "MCCFR checkpoint")
    if any(k not in ck for k in _KEYS) or str(ck["format"]) != CHECKPOINT_FORMAT:
        raise ValueError(f"{path}: not a truque_env MCCFR (1 contra 1) checkpoint")
    try:
        tradition = json.loads(str(ck["config"])).get("tradition", "moteno")
    except (ValueError, AttributeError):
        raise ValueError(f"{path}: not a truque_env MCCFR (1 contra 1) checkpoint (its config)") from None
    if tradition not in ABSTRACTIONS:
        raise ValueError(f"{path}: an MCCFR run of {tradition!r}; runs of {', '.join(ABSTRACTIONS)} are read here")
    abstraction = ABSTRACTIONS[tradition]
    if int(ck["version"]) != CHECKPOINT_VERSION:
        raise ValueError(f"{path}: checkpoint version {int(ck['version'])}, this code reads {CHECKPOINT_VERSION}")
    abst = json.loads(str(ck["abstraction"]))
    if abst != abstraction.describe_abstraction():
        raise ValueError(f"{path}: made with another abstraction ({abst}); this code has "
                         f"{abstraction.describe_abstraction()}")
    cap, slots, keys = int(ck["capacity"]), ck["slots"], ck["keys"]
    n = slots.shape[0] if slots.ndim == 1 else -1
    if (cap < 1 or cap & (cap - 1) or n < 0 or slots.dtype != np.int64 or keys.shape != (n,)
            or keys.dtype != np.int64 or ck["regrets"].shape != (n, abstraction.NUM_ABSTRACT)
            or ck["cum_policy"].shape != (n, abstraction.NUM_ABSTRACT) or ck["regrets"].dtype != np.float32
            or ck["cum_policy"].dtype != np.float32 or int(ck["iteration"]) < 0
            or (n and (slots.min() < 0 or slots.max() >= cap or np.unique(slots).size != n or (keys == 0).any()))
            or not np.isfinite(ck["regrets"]).all() or not np.isfinite(ck["cum_policy"]).all()):
        raise ValueError(f"{path}: a damaged MCCFR checkpoint (tables, slots or iteration)")
    return ck


def average_policy_rows(cum_policy: np.ndarray) -> np.ndarray:
    """Rows of cumulative weights as probabilities (rows of zero weight stay zero)."""
    w = np.maximum(cum_policy.astype(np.float64), 0.0)
    total = w.sum(axis=1, keepdims=True)
    return np.divide(w, total, out=np.zeros_like(w), where=total > 0)


def load_policy_file(path: Path) -> tuple[np.ndarray, np.ndarray, dict]:
    """(sorted keys, float32 probabilities [n, NUM_ABSTRACT], header) from an exported policy or a
    run's checkpoint; a clear ValueError for anything else."""
    path = Path(path)
    z = read_npz(path, "CFR policy")
    fmt = str(z.get("format", ""))
    if fmt == CHECKPOINT_FORMAT:
        ck = read_checkpoint(path)
        if json.loads(str(ck["abstraction"])) != CA.describe_abstraction():  # the bot reads Moteño's
            raise ValueError(f"{path}: a CFR policy of another abstraction ({str(ck['abstraction'])})")
        keep = ck["cum_policy"].astype(np.float64).sum(axis=1) > 0
        keys, policy = ck["keys"][keep], average_policy_rows(ck["cum_policy"][keep])
        header = {**json.loads(str(ck["config"])), "iteration": int(ck["iteration"])}
    elif fmt == POLICY_FORMAT:
        if int(z["version"]) != POLICY_VERSION:
            raise ValueError(f"{path}: CFR policy version {int(z['version'])}, this code reads {POLICY_VERSION}")
        if json.loads(str(z["abstraction"])) != CA.describe_abstraction():
            raise ValueError(f"{path}: a CFR policy of another abstraction ({str(z['abstraction'])})")
        keys, policy, header = z["keys"], z["policy"], json.loads(str(z["header"]))
        if (keys.ndim != 1 or keys.dtype != np.int64 or policy.shape != (keys.size, CA.NUM_ABSTRACT)
                or not np.isfinite(policy).all() or (policy < 0).any()):
            raise ValueError(f"{path}: a damaged CFR policy file (keys or probabilities)")
    else:
        raise ValueError(f"{path}: not a CFR policy (an export of train.cfr.mccfr) nor an MCCFR checkpoint")
    order = np.argsort(keys, kind="stable")
    keys, policy = keys[order], policy[order].astype(np.float32)
    if keys.size and (np.diff(keys) == 0).any():
        raise ValueError(f"{path}: repeated information-set keys")
    if int(header.get("team_size", 1)) != 1:
        raise ValueError(f"{path}: a policy for team_size {header.get('team_size')}; the CFR bot plays 1 contra 1")
    return keys, policy, header
