"""Shared fixtures: every scripted rules test runs against each implementation of the mano.

``table_factory(team_size=..., target=..., seed=..., senas_per_mano=..., p_intercept=...)``
returns a fresh table with the common scripted API (see docs/engine.md and tests/reference):
``deal(hands, dealer, scores)``, ``to_act``, ``legal()``, ``act(name)``, ``done``, ``result()``,
``scores``.

Both implementations are imported outright: one that fails to import is a collection error that
fails the run, never a parameter quietly dropped (a scripted test that ran on one implementation
alone would pass with the other broken or gone).
"""

from __future__ import annotations

import pytest

from tests.reference.moteno_ref import RefTable
from truque_env.table import Table

IMPLEMENTATIONS = {"engine": Table, "reference": RefTable}


@pytest.fixture(params=list(IMPLEMENTATIONS.values()), ids=list(IMPLEMENTATIONS))
def table_factory(request):
    cls = request.param

    def make(**kwargs):
        return cls(**kwargs)

    return make


@pytest.fixture(scope="module")
def tiny():
    """The reduced game truque_tiny (train.cfr.reduced), built once per module that uses it."""
    from train.cfr.reduced import load_build

    return load_build("truque_tiny")


def pytest_terminal_summary(terminalreporter):
    """Print the branches the differential test reached (tests/differential.py)."""
    from tests.differential import COVERAGE, format_coverage

    if COVERAGE:
        terminalreporter.write_sep("-", "differential: branches reached (engine and reference agree on all)")
        terminalreporter.write_line(format_coverage(COVERAGE))
