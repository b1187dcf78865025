"""Shared fixtures: every scripted rules test runs against each implementation of the mano.

``table_factory(team_size=..., target=..., seed=..., senas_per_mano=..., p_intercept=...)``
returns a fresh table with the common scripted API (see docs/engine.md and tests/reference):
``deal(hands, dealer, scores)``, ``to_act``, ``legal()``, ``act(name)``, ``done``, ``result()``,
``scores``.
"""

from __future__ import annotations

import importlib

import pytest


def _implementations():
    impls = []
    for label, module, attr in (
        ("engine", "truque_env.table", "Table"),
        ("reference", "tests.reference.moteno_ref", "RefTable"),
    ):
        try:
            impls.append(pytest.param(getattr(importlib.import_module(module), attr), id=label))
        except (ImportError, AttributeError):
            continue
    return impls


@pytest.fixture(params=_implementations())
def table_factory(request):
    cls = request.param

    def make(**kwargs):
        return cls(**kwargs)

    return make
