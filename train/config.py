"""Configs of the trainers: one dataclass is the TOML file, the command line and the checkpoint's record.

``from_toml(cls, path, section, **overrides)`` reads ``[section]`` of a TOML file (unknown keys are
a clear error; strings become ``Path`` and lists tuples where the field says so);
``cli(cls, argv, prog, section)`` parses ``[--config FILE.toml] [--setting value ...]`` with tyro,
the file giving the defaults and the flags overriding them; ``to_dict`` is the plain form stored in
checkpoints. The dataclass's ``validate()`` is called on what comes out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path


def from_toml(cls, path: Path, section: str, **overrides):
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    with open(path, "rb") as f:
        data = tomllib.load(f)
    data = data.get(section, data)
    fields = {f.name: str(f.type) for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ValueError(f"{path}: unknown settings {unknown}; known: {sorted(fields)}")
    data.update(overrides)
    for key, value in data.items():
        if isinstance(value, str) and "Path" in fields[key]:
            data[key] = Path(value)
        elif isinstance(value, list) and fields[key].startswith("tuple"):
            data[key] = tuple(value)
    cfg = cls(**data)
    cfg.validate()
    return cfg


def cli(cls, argv, prog: str, section: str):
    import tyro

    args = list(argv)
    default = cls()
    if "--config" in args:
        i = args.index("--config")
        if i + 1 >= len(args):
            raise SystemExit("--config needs a file")
        default = from_toml(cls, Path(args[i + 1]), section)
        del args[i : i + 2]
    cfg = tyro.cli(cls, default=default, args=args, prog=prog)
    cfg.validate()
    return cfg


def to_dict(cfg) -> dict:
    return {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(cfg).items()}


def check_same_settings(path, theirs: dict, cfg, keys, what: str = "run") -> None:
    """A ValueError unless the checkpoint's settings ``theirs`` equal ``cfg``'s for every key."""
    for key in keys:
        mine = getattr(cfg, key)
        mine = str(mine) if isinstance(mine, Path) else mine  # paths are stored as strings
        if theirs.get(key) != mine:
            raise ValueError(f"{path}: checkpoint from another {what}: {key} = {theirs.get(key)!r}, this run has {mine!r}")
