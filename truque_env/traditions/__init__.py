"""The registry of traditions: each Truco tradition is one package under ``truque_env/traditions/``.

>>> import truque_env
>>> truque_env.traditions()
('argentino', 'moteno')
>>> v = truque_env.valuations("moteno")
>>> v.power("11B"), v.hand_values("7E 6E 3B")
(17, {'pares': 33, 'flor': 0})

A tradition package exposes ``SPEC``, a :class:`TraditionSpec`: its name, title, seed document,
team sizes, default target, the three sources of its points, its PettingZoo name and its
valuations. The registry finds the packages by scanning this folder (``pkgutil``), so a new
tradition is added by writing its package: nothing here or in the environments is edited. A
package that is being built sets ``UNDER_CONSTRUCTION`` (why) instead of ``SPEC`` and is not
listed until it defines ``SPEC``.

The valuations are the same interface in every tradition: ``power(card, turnup=None)`` (a larger
number beats a smaller, equal numbers tie) and ``hand_values(hand, turnup=None)`` (a dict of the
tradition's hand values: ``{"pares": ..., "flor": ...}`` in Moteño), with cards and hands as
strings (``"7E 6E 3B"``) or card ids. ``turnup`` is the muestra or vira of the traditions that
turn one up; giving one to a tradition without it is a ``ValueError``.

(This module is callable: ``truque_env.traditions()`` is :func:`traditions`, and
``truque_env.traditions.moteno`` is still the package of Truque Moteño.)

Each spec also names the modules of its engine (layout, actions, kernels, observation, the
batch and vector loops, metadata, rendering, the settings check): the environments (``Table``,
``VectorEnv``, PettingZoo, Gymnasium, ``simulate``) read everything through it, so they are the
same code for every tradition (docs/engine.md, "The family").
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from truque_env.cards import card_name


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
    # -- the engine of the tradition: modules of its package, read by the environments --------
    layout: ModuleType
    """the state row: the common header (truque_env.engine.header) then the tradition's tail"""
    actions: ModuleType
    """NUM_ACTIONS, ACTION_NAMES, ACTION_KIND (truque_env.traditions.action_kinds), action_id(name), SENA_BASE, SENA_NAMES"""
    kernels: ModuleType
    """init_table, set_deal_stream, deal_random, deal_hands, legal_mask, step, step_unchecked, OK"""
    observation: ModuleType
    """OBS_SIZE, SLICES, split, HISTORY_SIZE, MAX_HISTORY, observe, step_recording"""
    batch: ModuleType
    """the prange loops over many tables: init_tables, set_deal_streams, random_manos, STAT_NAMES"""
    vector: ModuleType
    """the vector env's loops: vec_reset, vec_step, reset_tables, next_mano, sample_legal, EPISODE_*"""
    metadata: ModuleType
    """bounds: max_decisions_per_mano, max_manos_per_juego, max_chinas_per_mano"""
    render: Callable[..., str]
    """render_state(state, hist=None, viewer=None): the table in the tradition's words"""
    check_settings: Callable[[Any], None]
    """raises ValueError for match settings the tradition does not allow (truque_env.settings)"""
    reference: str = ""
    """the dotted path of the plain-Python twin of the engine (tests only)"""
    options: Mapping[str, Any] = field(default_factory=dict)
    """the tradition's rule options and their defaults (tradition=..., **options)"""
    nicknames: Mapping[int, str] = field(default_factory=dict)
    """the cards' nicknames in the tradition"""
    points: str = "points"
    """what the tradition calls its points (Moteño's chinas, argentino's tantos), for reports"""
    rule_words: Callable[[Mapping[str, Any]], tuple[int, ...]] | None = None
    """the rule options (all of them, checked) as the words of the header's ``RULES`` field, which
    the kernels read; None: a tradition without options (the words stay 0)"""

    def rules_array(self, options: Mapping[str, Any]) -> np.ndarray:
        """The ``RULES`` words of a table playing with ``options`` (int16, ``NUM_RULE_WORDS``)."""
        from truque_env.engine.header import NUM_RULE_WORDS

        words = np.zeros(NUM_RULE_WORDS, dtype=np.int16)
        if self.rule_words is not None:
            given = self.rule_words(options)
            words[: len(given)] = given
        return words

    def card_name(self, card: int) -> str:
        """The card's Spanish name with its nickname in this tradition."""
        return card_name(card, self.nicknames)


@cache
def _registry() -> dict[str, TraditionSpec]:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if spec is None and getattr(module, "UNDER_CONSTRUCTION", None):
            continue  # a tradition being built (its reason in UNDER_CONSTRUCTION): listed once it has a SPEC
        if not isinstance(spec, TraditionSpec) or spec.name != info.name:
            raise RuntimeError(f"truque_env/traditions/{info.name}/ must define SPEC, a TraditionSpec named {info.name!r}")
        found[spec.name] = spec
    return found


def is_int(x) -> bool:
    """An integer (Python's or numpy's), not a bool: for the checks of settings (truque_env.settings
    and each tradition's config)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def is_number(x) -> bool:
    """A real number (an integer or a float, Python's or numpy's), not a bool: as ``is_int``."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


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


class _Registry(types.ModuleType):
    """This module, callable: ``truque_env.traditions()`` lists the registered traditions."""

    def __call__(self) -> tuple[str, ...]:
        return traditions()


sys.modules[__name__].__class__ = _Registry
