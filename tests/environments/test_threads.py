"""Threads that give way to a co-tenant (truque_env/threads.py, issue 15.8): the thread count
follows the other processes' CPU use, looked at once per period, and can be turned off."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import pytest

from truque_env import threads
from truque_env.threads import CoTenantWatch, threads_for


def test_threads_for_the_others_load():
    assert threads_for(0.0, 2, 2) == 2
    assert threads_for(0.3, 2, 2) == 2
    assert threads_for(1.0, 2, 2) == 1  # one busy co-tenant on two cores
    assert threads_for(1.9, 2, 2) == 1  # never below one
    assert threads_for(0.0, 8, 4) == 4  # never above numba's maximum
    assert threads_for(2.2, 8, 8) == 6


class FakeMachine:
    """/proc/stat and this process's CPU time, advanced by hand."""

    def __init__(self):
        self.busy = self.wall = self.own = 0.0

    def run(self, seconds, ours, others):
        self.wall += seconds
        self.own += ours * seconds
        self.busy += (ours + others) * seconds


def test_the_watch_follows_a_co_tenant_and_tells_its_listeners():
    m = FakeMachine()
    w = CoTenantWatch(reader=lambda: (m.busy, m.wall), own=lambda: m.own, enabled=True)
    w.cores = 2
    seen = []
    most = numba.config.NUMBA_NUM_THREADS
    before = numba.get_num_threads()
    try:
        w.listen("test", seen.append)
        m.run(1.0, ours=2.0, others=0.0)
        assert w.look() == min(2, most) and w.others == 0.0
        m.run(1.0, ours=1.0, others=1.0)  # a co-tenant took a core
        assert w.look() == 1 and numba.get_num_threads() == 1 and abs(w.others - 1.0) < 1e-9
        m.run(1.0, ours=1.0, others=0.0)  # it left
        assert w.look() == min(2, most) and numba.get_num_threads() == min(2, most)
        assert seen == [min(2, most), 1, min(2, most)]
    finally:
        numba.set_num_threads(before)


def test_ticks_look_at_most_once_per_period():
    m = FakeMachine()
    looks = []

    def reader():
        looks.append(1)
        return m.busy, m.wall

    w = CoTenantWatch(period=60.0, reader=reader, own=lambda: m.own, enabled=True)
    for _ in range(1000):
        w.tick()
    assert len(looks) == 2  # the first reading at start, one look at the first tick


@pytest.mark.alone  # the parallel suite's other worker would be a second co-tenant
def test_a_real_co_tenant_is_seen_and_its_end_too():
    most = numba.config.NUMBA_NUM_THREADS
    if most < 2 or most != (os.cpu_count() or 1):
        pytest.skip("needs numba on every core, and two at least")
    w = CoTenantWatch(enabled=True)
    if not w.enabled:
        pytest.skip("no /proc/stat")
    before = numba.get_num_threads()
    busy = subprocess.Popen([sys.executable, "-c", "while True:\n    pass"])
    try:
        time.sleep(0.3)
        w.look()
        time.sleep(1.0)
        assert w.look() == threads_for(w.others, w.cores, most) < most and w.others > 0.6  # 1 on 2 cores
        during = w.others
    finally:
        busy.kill()
        busy.wait()
        numba.set_num_threads(before)
    time.sleep(1.0)
    w.look()
    assert w.others < during - 0.5  # the co-tenant's core is free again (whatever else the machine runs)


def test_the_switch(monkeypatch):
    monkeypatch.setenv("TRUQUE_THREADS", "library")
    assert not CoTenantWatch().enabled
    monkeypatch.setenv("TRUQUE_THREADS", "truque")
    assert CoTenantWatch().enabled == ((threads.os.cpu_count() or 1) > 1)
    monkeypatch.setenv("TRUQUE_THREADS", "fast")
    with pytest.warns(RuntimeWarning, match="neither 'truque' nor 'library'"):
        assert not CoTenantWatch().enabled
