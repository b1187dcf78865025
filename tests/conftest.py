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


ENVIDO_TABLE_TARGET = 8  # juegos to 8: the envido table of the tests is solved in a few seconds


def _test_envido_table(tmp_path_factory, team_size):
    import numpy as np

    from train.cfr import envido_argentino as E
    from truque_env.io import write_npz_atomic

    target = ENVIDO_TABLE_TARGET
    points = np.zeros((target + 1, target + 1))
    points[1, 0] = points[0, 1] = 0.25
    points[2, 0] = points[0, 2] = 0.15
    points[3, 0] = points[0, 3] = 0.1
    cfg = E.EnvidoSolveConfig(target=target, iterations=200, todo_dicho=True, team_size=team_size,
                              deal_samples=200_000)
    path = tmp_path_factory.mktemp("envido") / f"table_{team_size}v{team_size}.npz"
    write_npz_atomic(path, E.table_arrays(cfg, E.solve_juego(cfg, points), points), compressed=True)
    return path


@pytest.fixture(scope="session")
def envido_table_path(tmp_path_factory):
    """An envido table of truco argentino (train.cfr.envido_argentino) for juegos to
    ``ENVIDO_TABLE_TARGET``, with a made-up points distribution for the rest of the mano."""
    return _test_envido_table(tmp_path_factory, 1)


@pytest.fixture(scope="session")
def envido_table_2v2_path(tmp_path_factory):
    """The same at 2 contra 2: the team abstraction of train.cfr.envido_teams (200,000 deals)."""
    return _test_envido_table(tmp_path_factory, 2)


PARES_TABLE_TARGET = 8  # juegos to 8: the pares table of the tests is solved in a few seconds


@pytest.fixture(scope="session")
def pares_table(tmp_path_factory):
    """The envite de pares of Truque Moteño (train.cfr.pares_moteno) solved for juegos to
    ``PARES_TABLE_TARGET`` with a made-up points distribution for the rest of the mano: (config,
    the solve's output, the points, the table's file)."""
    import numpy as np

    from train.cfr import pares_moteno as P
    from truque_env.io import write_npz_atomic

    target = PARES_TABLE_TARGET
    points = np.zeros((target + 1, target + 1))
    points[1, 0] = points[0, 1] = 0.3
    points[2, 0] = points[0, 2] = 0.2
    cfg = P.ParesSolveConfig(target=target, iterations=300)
    out = P.solve_juego(cfg, points)
    path = tmp_path_factory.mktemp("pares") / "pares_1v1.npz"
    write_npz_atomic(path, P.table_arrays(cfg, out, points), compressed=True)
    return cfg, out, points, path


def pytest_terminal_summary(terminalreporter):
    """Print the branches the differential test reached (tests/differential.py)."""
    from tests.differential import COVERAGE, format_coverage

    if COVERAGE:
        terminalreporter.write_sep("-", "differential: branches reached (engine and reference agree on all)")
        terminalreporter.write_line(format_coverage(COVERAGE))


@pytest.fixture
def fixed_threads(monkeypatch):
    """One numba thread and one torch thread, the co-tenant watch off (it sets the counts from the
    machine's load, truque_env/threads.py): the sparse layer's gradient sums one partial per numba
    thread, so a test comparing parameters bit for bit must not see the count change under it."""
    import numba
    import torch

    from truque_env.threads import WATCH

    monkeypatch.setattr(WATCH, "enabled", False)
    monkeypatch.setattr(WATCH, "threads", None)  # no count left by an earlier test's watch
    threads, torch_threads = numba.get_num_threads(), torch.get_num_threads()
    numba.set_num_threads(1)
    torch.set_num_threads(1)
    yield
    numba.set_num_threads(threads)
    torch.set_num_threads(torch_threads)
