"""The benchmark scripts (``benchmarks/*.py``) meet a user as every command does: a result already
written is not replaced unless asked (``--overwrite``), the refusal comes before any measuring, and
a mistake is one line ``error: ...`` (``truque_env.command.run_command``), not a traceback."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
# every script that writes a result file (jit_probe.py prints its figures for a test to read)
WRITERS = ["bench_cfr", "bench_cotenant", "bench_engine", "bench_envs", "bench_heuristic", "bench_startup",
           "bench_train", "cfr_convergence"]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_writing_benchmark_is_checked_here():
    scripts = {p.stem for p in BENCHMARKS.glob("*.py")} - {"jit_probe", "__init__"}
    assert scripts == set(WRITERS)


@pytest.mark.parametrize("name", WRITERS)
def test_a_benchmark_refuses_to_replace_a_result_before_measuring_anything(name, tmp_path, monkeypatch):
    out = tmp_path / "result.json"
    out.write_text('{"kept": true}')
    module = _script(name)
    # were anything measured, these would be called first: the refusal must come before them
    for measure in ("bench_ours", "bench_fused", "bench_vector", "bench_decisions", "bench_config", "run_child",
                    "run_solver", "_probe"):
        if hasattr(module, measure):
            monkeypatch.setattr(module, measure, lambda *a, **k: pytest.fail("measured before refusing"))
    with pytest.raises(FileExistsError, match="exists: --overwrite to replace it"):
        module.main(["--out", str(out)])
    assert out.read_text() == '{"kept": true}'


def test_cfr_convergence_also_keeps_its_plot_and_merges_when_told(tmp_path):
    module = _script("cfr_convergence")
    png = tmp_path / "convergence.png"
    png.write_bytes(b"a plot")
    with pytest.raises(FileExistsError, match="convergence.png"):
        module.main(["--out", str(tmp_path / "new.json"), "--png", str(png)])
    assert png.read_bytes() == b"a plot" and not (tmp_path / "new.json").exists()


def test_a_benchmarks_mistake_is_one_line_at_the_command_line(tmp_path):
    out = tmp_path / "result.json"
    out.write_text("{}")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_startup.py"), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"error: {str(out)!r} exists: --overwrite to replace it, or another path"]
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_startup.py"), "--repeats", "0",
                           "--out", str(tmp_path / "new.json")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.strip() == "error: --repeats must be at least 1, got 0"
