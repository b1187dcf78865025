"""The layers run one way: engine -> traditions -> environments -> agents -> train -> command line.

Every module of the suite is parsed (ast) and each import it names, at the top of the file or
inside a function, ``importlib.import_module("...")`` and ``__import__("...")`` with a constant
name included, must be of its own layer or one below. (The environments find the bots by name
through an entry point, ``truque_env.policy``, never by importing them.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# (module prefix, layer); the longest matching prefix decides
LAYERS = (
    ("truque_env._jit_cache", 0), ("truque_env.io", 0), ("truque_env.command", 0), ("truque_env.cards", 0),
    ("truque_env.engine", 0),
    ("truque_env.traditions", 1),
    # deprecated aliases of the Moteño modules that moved into its tradition package (one release)
    *((f"truque_env.engine.{m}", 1) for m in ("layout", "actions", "kernels", "observation", "batch",
                                                "vector_kernels", "metadata")),
    ("truque_env.rules", 1), ("truque_env.render", 1),
    ("truque_env", 2),  # the environments: Table, VectorEnv, PettingZoo, Gymnasium, policies by name
    ("agents", 3),
    ("train", 4),
    ("truque_cli", 5),
)
NAMES = ("engine", "traditions", "environments", "agents", "train", "command line")


def layer_of(module: str) -> int | None:
    best = None
    for prefix, layer in LAYERS:
        if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, layer)
    return None if best is None else best[1]


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file."""
    here = _module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                out.append((node.lineno, ".".join(base + ([node.module] if node.module else []))))
            elif node.module:
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                out.append((node.lineno, node.args[0].value))
    return out


def upward_imports(root: Path = ROOT) -> list[str]:
    found = []
    for package in ("truque_env", "agents", "train", "truque_cli"):
        for path in sorted((root / package).rglob("*.py")):
            mine = layer_of(_module_name(path, root))
            for line, module in imports_of(path, root):
                theirs = layer_of(module)
                if theirs is not None and theirs > mine:
                    found.append(f"{path.relative_to(root)}:{line} ({NAMES[mine]}) imports {module} ({NAMES[theirs]})")
    return found


def test_no_module_imports_from_a_layer_above_it():
    assert upward_imports() == []


@pytest.mark.parametrize("source, expected", [
    ("from train.ppo.loop import train\n", "imports train.ppo.loop (train)"),
    ("def f():\n    import agents.registry\n", "imports agents.registry (agents)"),
    ("import importlib\nimportlib.import_module('truque_cli.main')\n", "imports truque_cli.main (command line)"),
])
def test_the_walk_sees_imports_inside_functions_and_by_name(tmp_path, source, expected):
    probe = tmp_path / "truque_env" / "engine" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(source)
    found = upward_imports(tmp_path)
    assert len(found) == 1 and expected in found[0] and "(engine)" in found[0], found


def test_relative_imports_are_resolved(tmp_path):
    probe = tmp_path / "agents" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("from . import registry\nfrom ..train import ppo\n")
    assert imports_of(probe, tmp_path) == [(1, "agents"), (2, "train")]


def test_every_package_module_has_a_layer():
    for package in ("truque_env", "agents", "train", "truque_cli"):
        for path in (ROOT / package).rglob("*.py"):
            assert layer_of(_module_name(path)) is not None, path
