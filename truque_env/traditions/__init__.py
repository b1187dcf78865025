"""The registry of traditions: each Truco tradition is one package under ``truque_env/traditions/``.

>>> import truque_env
>>> truque_env.traditions()
('moteno',)
>>> v = truque_env.valuations("moteno")
>>> v.power("11B"), v.hand_values("7E 6E 3B")
(17, {'pares': 33, 'flor': 0})

A tradition package exposes ``SPEC``, a :class:`TraditionSpec`: its name, title, seed document,
team sizes, default target, the three sources of its points, its PettingZoo name and its
valuations. The registry finds the packages by scanning this folder (``pkgutil``), so a new
tradition is added by writing its package: nothing here or in the environments is edited.

The valuations are the same interface in every tradition: ``power(card, turnup=None)`` (a larger
number beats a smaller, equal numbers tie) and ``hand_values(hand, turnup=None)`` (a dict of the
tradition's hand values: ``{"pares": ..., "flor": ...}`` in Moteño), with cards and hands as
strings (``"7E 6E 3B"``) or card ids. ``turnup`` is the muestra or vira of the traditions that
turn one up; giving one to a tradition without it is a ``ValueError``.

(``truque_env.traditions`` as an attribute of the package is the function; import from this module
with ``from truque_env.traditions import get, TraditionSpec``.)

This module is the seam of the family (docs/engine.md): today it registers Truque Moteño, whose
engine is still ``truque_env.engine``; the environments take ``tradition=`` next.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from typing import Protocol


class Valuations(Protocol):
    def power(self, card, turnup=None) -> int: ...

    def hand_values(self, hand, turnup=None) -> dict[str, int]: ...


@dataclass(frozen=True)
class TraditionSpec:
    name: str
    """the registry name (``tradition=`` everywhere)"""
    title: str
    seed_document: str
    """the rules it implements: a file of ../shared/seeds/"""
    team_sizes: tuple[int, ...]
    default_target: int
    """points to win a juego (or chico) by default"""
    sources: tuple[str, str, str]
    """the three sources of points of a mano, in the order they are scored"""
    env_name: str
    """the PettingZoo name"""
    valuations: Valuations


@cache
def _registry() -> dict[str, TraditionSpec]:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        spec = getattr(importlib.import_module(f"{__name__}.{info.name}"), "SPEC", None)
        if not isinstance(spec, TraditionSpec) or spec.name != info.name:
            raise RuntimeError(f"truque_env/traditions/{info.name}/ must define SPEC, a TraditionSpec named {info.name!r}")
        found[spec.name] = spec
    return found


def traditions() -> tuple[str, ...]:
    """The names of the registered traditions."""
    return tuple(_registry())


def get(name: str) -> TraditionSpec:
    """The spec of tradition ``name``; a ``ValueError`` naming the known ones otherwise."""
    try:
        return _registry()[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown tradition {name!r}; known: {', '.join(traditions())}") from None


def valuations(name: str) -> Valuations:
    """The card and hand valuations of tradition ``name``."""
    return get(name).valuations
