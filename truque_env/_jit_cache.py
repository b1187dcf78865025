"""Where numba caches the compiled kernels: a folder keyed by a digest of the kernel sources.

numba's ``cache=True`` checks only the timestamp of the file that defines a function, not of
the modules it calls: a kernel in ``batch.py`` (or in a test) would keep running stale code
compiled from an older ``kernels.py``. Keying the whole cache folder by a digest of every
numba source of the package, and of its sibling packages ``train`` and ``agents`` (their kernels
call each other's and the engine's: ``train/cfr/mccfr_kernels.py`` once ran stale code this way),
makes any change to them start a fresh cache. Must run before any ``@njit`` function is defined
(``truque_env/__init__.py`` imports it first).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba


def _digest() -> str:
    root = Path(__file__).parent
    h = hashlib.sha1()
    for package in (root, root.parent / "train", root.parent / "agents"):
        if not (package / "__init__.py").exists():
            continue  # an install without the sibling packages
        for path in sorted(package.rglob("*.py")):
            source = path.read_bytes()
            constants = path.parent.name == "engine" or "traditions" in path.parts or path.name == "cards.py"
            if b"njit" not in source and not constants:
                continue  # only the numba sources (and the constants they read) key the cache
            h.update(path.relative_to(root.parent).as_posix().encode())
            h.update(source)
    return h.hexdigest()[:16]


def configure() -> None:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    base_dir = Path(base) if base else Path.home() / ".cache"
    if not os.environ.get("NUMBA_CACHE_DIR"):
        base_dir = base_dir / "truque_env" / "numba"
    numba.config.CACHE_DIR = str(base_dir / _digest())


configure()
