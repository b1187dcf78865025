"""Configs of the trainers: one dataclass is the TOML file, the command line and the checkpoint's record.

``from_toml(cls, path, section, **overrides)`` reads ``[section]`` of a TOML file (unknown keys are
a clear error; strings become ``Path`` and lists tuples where the field says so);
The game itself may be given in an ``[env]`` table (``tradition``, ``team_size``, ``target``,
``senas_per_mano``, ``p_intercept``, ``episode``: the match settings, ``truque_env.settings``),
beside ``[section]``; ``match_settings(cfg)`` gives them as one ``MatchSettings``.
``cli(cls, argv, prog, section)`` parses ``[--config FILE.toml] [--setting value ...]`` with tyro,
the file giving the defaults and the flags overriding them; ``to_dict`` is the plain form stored in
checkpoints. The dataclass's ``validate()`` is called on what comes out.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from truque_env.io import tomllib
from truque_env.settings import MatchSettings, parse_options


def from_toml(cls, path: Path, section: str, **overrides):
    with open(path, "rb") as f:
        try:
            raw = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{path}: not valid TOML ({exc})") from None
    data = dict(raw.get(section, raw))
    fields = {f.name: str(f.type) for f in dataclasses.fields(cls)}
    env = raw.get("env", {}) if section in raw else data.pop("env", {})
    game = {f.name for f in dataclasses.fields(MatchSettings)} | {"episode"}
    if not game & set(fields):  # a config that plays no game itself (truque train rounds): [env] is another's
        env = {}
    if env:  # the game: [env] tradition = "moteno", team_size = 3, ... (truque_env.settings.MatchSettings)
        if not isinstance(env, dict):
            raise ValueError(f"{path}: [env] must be a table of match settings")
        bad = sorted(k for k in env if k not in game or k not in fields)
        if bad:
            raise ValueError(f"{path}: [env] {bad[0]!r} is not a match setting of this config; "
                             f"known: {sorted(k for k in game if k in fields)}")
        twice = sorted(set(env) & set(data))
        if twice:
            raise ValueError(f"{path}: {twice[0]!r} given in [env] and in [{section}]: give it once")
        data.update(env)
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ValueError(f"{path}: unknown settings {unknown}; known: {sorted(fields)}")
    data.update(overrides)
    for key, value in data.items():
        if isinstance(value, str) and "Path" in fields[key]:
            data[key] = Path(value)
        elif isinstance(value, list) and fields[key].startswith("tuple"):
            data[key] = tuple(value)
    cfg = check_types(cls, data, f"{path}: ")
    cfg.validate()
    return cfg


def cli(cls, argv, prog: str, section: str):
    import tyro

    args = list(argv)
    try:
        path = take_config(args)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    default = cls() if path is None else from_toml(cls, path, section)
    cfg = tyro.cli(cls, default=default, args=args, prog=prog)
    cfg.validate()  # the trainers' validate() checks every field's type too (check_config)
    return cfg


def take_config(args: list[str]) -> Path | None:
    """Remove ``--config FILE`` (or ``--config=FILE``) from ``args``; the file, or None."""
    for i, a in enumerate(args):
        if a == "--config":
            if i + 1 >= len(args):
                raise ValueError("--config needs a file: --config FILE.toml")
            path = args[i + 1]
            del args[i : i + 2]
            return Path(path)
        if a.startswith("--config="):
            del args[i]
            return Path(a.split("=", 1)[1])
    return None


def match_settings(cfg) -> MatchSettings:
    """The match settings of a trainer's or tool's config: its tradition, team_size, target,
    senas_per_mano, p_intercept and juegos_per_partida fields (the ones it lacks take their
    defaults; a config's ``juegos`` counts juegos to play, not a partida's length)."""
    names = ("tradition", "team_size", "target", "senas_per_mano", "p_intercept", "options")
    given = {n: getattr(cfg, n) for n in names if hasattr(cfg, n)}
    if getattr(cfg, "option", ()):  # the command line's --option NAME=VALUE
        given["options"] = {**given.get("options", {}), **parse_options(cfg.option, given.get("tradition", "moteno"))}
    if hasattr(cfg, "juegos_per_partida"):
        given["juegos"] = cfg.juegos_per_partida
    return MatchSettings(**given)


def check_types(cls, data: dict, where: str = ""):
    """``cls(**data)``, every field checked against its type and its bounds (pydantic, strict: a
    string is not a number or a boolean, ``"no"`` is not False, ``1.5`` is not an int); a
    ValueError naming the key otherwise. Bounds are ``Annotated[..., Field(ge=...)]`` in ``cls``."""
    import json

    from pydantic import TypeAdapter, ValidationError

    plain = {k: (str(v) if isinstance(v, Path) else list(v) if isinstance(v, tuple) else v) for k, v in data.items()}
    try:
        return TypeAdapter(cls).validate_json(json.dumps(plain), strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(p) for p in err["loc"]) or "?"
        got = f" (got {err['input']!r})" if "input" in err and not isinstance(err["input"], dict) else ""
        raise ValueError(f"{where}{key}: {err['msg'][:1].lower()}{err['msg'][1:]}{got}") from None
    except TypeError as exc:  # a value JSON cannot hold
        raise ValueError(f"{where}{exc}") from None


def check_config(cfg):
    """``cfg`` again, checked as ``check_types`` checks a TOML file (the command line's values too)."""
    return check_types(type(cfg), to_dict_shallow(cfg))


def to_dict_shallow(cfg) -> dict:
    return {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg)}


def _plain(v):
    """Paths as strings, in tuples and lists too (a JSON file or a checkpoint keeps them so)."""
    if isinstance(v, Path):
        return str(v)
    if isinstance(v, (tuple, list)):
        return type(v)(_plain(x) for x in v)
    return v


def to_dict(cfg) -> dict:
    return {k: _plain(v) for k, v in dataclasses.asdict(cfg).items()}


def check_same_settings(path, theirs: dict, cfg, keys, what: str = "run", hint: str = "") -> None:
    """A ValueError unless the checkpoint's settings ``theirs`` equal ``cfg``'s for every key."""
    for key in keys:
        mine = getattr(cfg, key)
        mine = str(mine) if isinstance(mine, Path) else mine  # paths are stored as strings
        stored = theirs.get(key)
        if isinstance(stored, list) and isinstance(mine, tuple):
            stored = tuple(stored)
        if stored != mine:
            more = f" ({hint})" if hint else ""
            raise ValueError(f"{path}: checkpoint from another {what}: {key} = {stored!r}, this run has {mine!r}{more}")


def prepare_run_dir(run_dir: Path, resume: bool, overwrite: bool, run_files: tuple[str, ...],
                    checkpoint: str) -> None:
    """Make ``run_dir`` ready for a run, never losing one without being told to.

    * the temporary files of a write that was killed (``.name.XXXX.tmp``, ``truque_env.io``) go;
    * a resume needs the checkpoint;
    * a fresh run into a folder that holds a run (any of ``run_files``) is refused unless
      ``overwrite``, which deletes those files first (the folder's other files stay).
    """
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise ValueError(f"run_dir {str(run_dir)!r} is a file, not a folder")
    if run_dir.is_dir():
        for stale in run_dir.glob(".*.tmp"):
            stale.unlink(missing_ok=True)
    if resume:
        if overwrite:
            raise ValueError("resume and overwrite: give one (resume continues the run, overwrite starts it again)")
        if not (run_dir / checkpoint).is_file():
            raise ValueError(f"nothing to resume: {str(run_dir / checkpoint)!r} does not exist")
        return
    held = [name for name in run_files if (run_dir / name).exists()]
    if not held:
        return
    if not overwrite:
        raise ValueError(f"run_dir {str(run_dir)!r} holds a run ({', '.join(held)}): --resume to continue it, "
                         "another --run-dir for a new one, or --overwrite to start it again (deleting it)")
    import shutil

    for name in held:
        path = run_dir / name
        shutil.rmtree(path) if path.is_dir() else path.unlink()
