"""Atomic writes: nothing written is lost half-way (write to a temporary file, then rename).

``atomic_output(path)`` gives a temporary path in the same folder; when the ``with`` block ends
without an error the file is flushed to disk and renamed onto ``path``, otherwise removed. Every
file the project writes for keeps (checkpoints, datasets, results, plots, logs of play) goes
through it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_output(path, suffix: str = ".tmp") -> Iterator[Path]:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
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
