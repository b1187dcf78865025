"""The settings of a match, once for the whole suite: which game is played at the table.

>>> from truque_env.settings import MatchSettings
>>> MatchSettings(team_size=2).target          # the tradition's default
30
>>> MatchSettings(team_size=9)
Traceback (most recent call last):
ValueError: team_size must be 1..4 (Art. 3: tables of 2 to 8), got 9

``Table``, ``VectorEnv``, the PettingZoo and Gymnasium environments, ``simulate``, the duplicate
evaluator, the league, the trainers and the analysis all take one :class:`MatchSettings` (or its
fields as keywords) instead of six parallel arguments; checkpoints and datasets store
:meth:`MatchSettings.to_dict` and refuse a mismatch with :meth:`MatchSettings.check_same`.

The fields every tradition has are checked here; the tradition's own limits (team sizes, target,
señas per mano) and its rule options by the tradition (``TraditionSpec.check_settings``). An
unknown tradition or option is a ``ValueError`` naming the known ones.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from truque_env.traditions import TraditionSpec, is_int, traditions
from truque_env.traditions import get as get_tradition


@dataclass(frozen=True)
class MatchSettings:
    tradition: str = "moteno"
    team_size: int = 3
    target: int | None = None
    """points to win a juego; None: the tradition's default"""
    juegos: int = 3
    """juegos per partida (best of juegos)"""
    senas_per_mano: int = 1
    p_intercept: float = 0.1
    """the chance that a rival intercepts a seña (ruling 3)"""
    options: dict[str, Any] = field(default_factory=dict)
    """the tradition's rule options (TraditionSpec.options); missing ones take their defaults"""

    def __post_init__(self):
        spec = get_tradition(self.tradition)
        if not isinstance(self.options, dict):
            raise ValueError(f"options must be a dict of {self.tradition}'s rule options, got {self.options!r}")
        unknown = sorted(set(self.options) - set(spec.options))
        if unknown:
            known = ", ".join(spec.options) or "none"
            raise ValueError(f"unknown option {unknown[0]!r} for {self.tradition}; known options: {known}")
        object.__setattr__(self, "options", {**spec.options, **self.options})
        if self.target is None:
            object.__setattr__(self, "target", spec.default_target)
        if not is_int(self.juegos) or self.juegos < 1 or self.juegos % 2 == 0:
            raise ValueError(f"juegos must be an odd number >= 1 (a partida is best of juegos), got {self.juegos!r}")
        try:
            p = float(self.p_intercept)
        except (TypeError, ValueError):
            raise ValueError(f"p_intercept must be a probability in steps of 0.001, got {self.p_intercept!r}") from None
        if not 0.0 <= p <= 1.0 or abs(round(p * 1000) - p * 1000) > 1e-6 or isinstance(self.p_intercept, bool):
            raise ValueError(f"p_intercept must be a probability in steps of 0.001, got {self.p_intercept!r}")
        spec.check_settings(self)
        for name in ("team_size", "target", "juegos", "senas_per_mano"):
            object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def spec(self) -> TraditionSpec:
        return get_tradition(self.tradition)

    @property
    def n_players(self) -> int:
        return 2 * self.team_size

    @property
    def p_intercept_permille(self) -> int:
        return round(float(self.p_intercept) * 1000)

    def new_states(self, count: int | None = None) -> np.ndarray:
        """Zeroed state rows (``count`` of them, or one 1-D row) carrying these settings' rule
        words (header ``RULES``), ready for ``kernels.init_table``, which keeps them."""
        L = self.spec.layout
        states = np.zeros((1 if count is None else count, L.STATE_SIZE), dtype=L.STATE_DTYPE)
        states[:, L.RULES : L.RULES + len(self.rules)] = self.rules
        return states[0] if count is None else states

    @property
    def rules(self) -> np.ndarray:
        """The rule words of the options (TraditionSpec.rules_array)."""
        return self.spec.rules_array(self.options)

    def to_dict(self) -> dict[str, Any]:
        """The settings with the sizes of the tradition's spaces, as stored in checkpoints and datasets."""
        spec = self.spec
        return {**asdict(self), "obs_size": int(spec.observation.OBS_SIZE), "num_actions": int(spec.actions.NUM_ACTIONS)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchSettings:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def check_same(self, stored: dict[str, Any], what: str, keys=None) -> None:
        """Raise a ValueError naming every setting (of ``keys``, default all, and the space sizes)
        in which ``stored`` (a ``to_dict`` of old, maybe without newer keys) differs from these."""
        mine = self.to_dict()
        keys = tuple(keys or mine)
        # stored before the family: the tradition was moteno and had no options
        defaults = {"tradition": "moteno", "options": {}}
        diff = [f"{k}: {stored.get(k, defaults.get(k))!r} there, {mine[k]!r} here" for k in keys
                if k in mine and k in stored | defaults and stored.get(k, defaults.get(k)) != mine[k]
                and not (k == "options" and {**self.spec.options, **stored.get(k, {})} == mine[k])]
        if diff:
            raise ValueError(f"{what} was made for other settings ({'; '.join(diff)})")


def settings_from(tradition="moteno", team_size=3, target=None, juegos=3, senas_per_mano=1, p_intercept=0.1,
                  **options) -> MatchSettings:
    """MatchSettings from keywords, the tradition's rule options among them (``Table(**kwargs)`` style)."""
    return MatchSettings(tradition, team_size, target, juegos, senas_per_mano, p_intercept, options)


def parse_options(items, tradition: str) -> dict[str, Any]:
    """Rule options from ``NAME=VALUE`` strings (the command line's ``--option``), each value read
    as the type of the option's default (``true``/``false`` for a switch, an integer, a word); a
    ValueError naming the problem for a malformed item, an unknown option or a bad value."""
    spec = get_tradition(tradition)
    out: dict[str, Any] = {}
    for item in items:
        name, sep, text = str(item).partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name:
            raise ValueError(f"--option {item!r}: write NAME=VALUE (e.g. flor=false)")
        if name not in spec.options:
            known = ", ".join(spec.options) or "none"
            raise ValueError(f"unknown option {name!r} for {tradition}; known options: {known}")
        default = spec.options[name]
        if isinstance(default, bool):
            words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
            if text.lower() not in words:
                raise ValueError(f"--option {name}: {text!r} is not true or false")
            out[name] = words[text.lower()]
        elif isinstance(default, int):
            try:
                out[name] = int(text)
            except ValueError:
                raise ValueError(f"--option {name}: {text!r} is not an integer") from None
        else:
            out[name] = text
    return out


def resolve_tradition(tradition="moteno", variant=None) -> str:
    """The tradition named by ``tradition=``, or by ``variant=``, its deprecated alias (kept for one
    release); a ``ValueError`` naming the known traditions for an unknown one."""
    if variant is not None:
        warnings.warn("variant= is deprecated: use tradition=", DeprecationWarning, stacklevel=3)
        if tradition not in ("moteno", variant):
            raise ValueError(f"tradition={tradition!r} and variant={variant!r} disagree: give tradition= alone")
        if variant not in traditions():
            raise ValueError(f"unknown variant {variant!r} (variant= is the deprecated name of tradition=); "
                             f"known traditions: {', '.join(traditions())}")
        return variant
    get_tradition(tradition)
    return tradition


def recorded_game(record: dict | None) -> dict[str, Any]:
    """What a checkpoint or dataset says of its game: ``tradition``, ``options``, ``obs_size``,
    ``num_actions``. Files written before the family record none of them: they are Truque
    Moteño's, with its observation and actions of that time (1270 and 91)."""
    record = dict(record or {})
    tradition = record.get("tradition", "moteno")
    legacy = {"obs_size": 1270, "num_actions": 91} if tradition == "moteno" else {}
    return {"tradition": tradition, "options": dict(record.get("options") or {}),
            "obs_size": record.get("obs_size", legacy.get("obs_size")),
            "num_actions": record.get("num_actions", legacy.get("num_actions"))}


def check_made_for(record: dict | None, tradition: str, what: str) -> None:
    """A ValueError unless the checkpoint or dataset ``what`` (its record: ``MatchSettings.to_dict``
    or a config holding ``tradition``) was made for ``tradition``, with its observation and
    action sizes and rule options as the installed engine has them. The observation may also be the
    one from before the juego's record was appended to it (a network that does not read the record
    reads the same entries; a dataset's arrays are checked by their own shape)."""
    game = recorded_game(record)
    spec = get_tradition(tradition)
    if game["tradition"] != tradition:
        raise ValueError(f"{what} was made for {game['tradition']}, not for {tradition}")
    mine = {"obs_size": int(spec.observation.OBS_SIZE), "num_actions": int(spec.actions.NUM_ACTIONS)}
    # the juego's record was appended to the observation after the history: a file made before it
    # (its observation the prefix up to the history) reads the same entries as it did
    tail = spec.observation.SLICES.get("juego_record")
    before_record = int(tail[0]) if tail is not None and int(tail[0]) + int(tail[1][0]) == mine["obs_size"] else None
    for key, value in mine.items():
        if game[key] != value and not (key == "obs_size" and game[key] == before_record):
            raise ValueError(f"{what} has {key} {game[key]}, {tradition} has {value} here "
                             "(made with another version of the engine)")
    options = {**spec.options, **game["options"]}
    if set(options) != set(spec.options):
        raise ValueError(f"{what} has rule options {sorted(game['options'])} that {tradition} does not know")
