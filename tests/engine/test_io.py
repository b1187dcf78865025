"""Atomic writes (truque_env/io.py): the file appears whole, with a plain file's mode, or not at all."""

from __future__ import annotations

import numpy as np
import pytest

from truque_env.io import atomic_output, read_npz, write_npz_atomic


def test_written_files_get_the_umask_mode_not_mkstemps_private_one(tmp_path, monkeypatch):
    from truque_env import io

    monkeypatch.setattr(io, "_UMASK", 0o022)
    write_npz_atomic(tmp_path / "a.npz", {"x": np.arange(3)})
    assert (tmp_path / "a.npz").stat().st_mode & 0o777 == 0o644  # mkstemp alone gives 0o600


def test_npz_round_trip_and_a_failed_write_leaves_nothing(tmp_path):
    write_npz_atomic(tmp_path / "b.npz", {"x": np.arange(4), "y": np.ones((2, 2))}, compressed=True)
    back = read_npz(tmp_path / "b.npz", "test archive")
    assert sorted(back) == ["x", "y"] and back["x"].tolist() == [0, 1, 2, 3]
    with pytest.raises(RuntimeError), atomic_output(tmp_path / "c.bin") as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("interrupted")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.npz"]


def test_a_file_that_is_not_an_npz_is_a_clear_error(tmp_path):
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a readable test archive"):
        read_npz(tmp_path / "bad.npz", "test archive")
    with pytest.raises(FileNotFoundError):
        read_npz(tmp_path / "missing.npz", "test archive")
