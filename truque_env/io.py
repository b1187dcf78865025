"""Atomic writes: nothing written is lost half-way (write to a temporary file, then rename).

``atomic_output(path)`` gives a temporary path in the same folder; when the ``with`` block ends
without an error the file is flushed to disk and renamed onto ``path``, otherwise removed. Every
file the project writes for keeps (checkpoints, datasets, results, plots, logs of play) goes
through it. The file gets the mode a plain ``open`` would give (``0o666`` less the umask), not
``mkstemp``'s private ``0o600``. ``write_npz_atomic`` / ``read_npz`` are the numpy archives'
pair: the reader turns a truncated or foreign file into a ``ValueError`` naming what was expected.
``tomllib`` is the TOML reader every config reader of the project imports from here: the standard
library's, or its backport ``tomli`` on Python 3.10.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

try:  # re-exported: the config readers import it from here
    import tomllib  # noqa: F401
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # noqa: F401

_UMASK = os.umask(0)  # read once (os.umask can only be read by setting it)
os.umask(_UMASK)


@contextmanager
def atomic_output(path, suffix: str = ".tmp") -> Iterator[Path]:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp's 0o600 would make shipped files private
    try:
        yield Path(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path, text: str) -> None:
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json_atomic(path, data) -> None:
    write_text_atomic(path, json.dumps(data, indent=2) + "\n")


def write_npz_atomic(path, arrays: dict, compressed: bool = False) -> None:
    """``np.savez`` (or ``savez_compressed``) of ``arrays`` to ``path``, atomically."""
    with atomic_output(path) as tmp, open(tmp, "wb") as f:
        (np.savez_compressed if compressed else np.savez)(f, **arrays)


def read_npz(path, what: str) -> dict:
    """Every array of an ``.npz`` (no pickles); a file that is not one is a ValueError about ``what``."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise
    except Exception as exc:  # truncated, corrupt or not an npz
        raise ValueError(f"{path}: not a readable {what} ({type(exc).__name__}: {exc})") from None


def check_new_output(path, overwrite: bool) -> None:
    """``check_writable``, and a ``FileExistsError`` if ``path`` holds a result already and the user
    did not say ``overwrite``: no command replaces a result without being told to."""
    path = Path(path)
    if path.is_file() and not overwrite:
        raise FileExistsError(f"{str(path)!r} exists: --overwrite to replace it, or another path")
    check_writable(path)


def check_writable(path) -> None:
    """A clear error now, before any work, if ``path`` could not be written later: its folder is
    made if missing (as the atomic writes do) and must take a file; ``path`` must not be a folder."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a folder; give a file to write")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ValueError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)
