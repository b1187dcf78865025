"""Threads that give way to a co-tenant (issue 15.8).

numba's parallel kernels and torch run on GNU OpenMP, whose idle threads spin at every barrier
before they sleep. Alone on the cores that is the fastest. Beside another busy process, a thread
that lost its time slice leaves the others spinning on the core it needs, and on 2 cores a
training run fell to a third of its speed. No fixed setting does well in both cases
(``benchmarks/results/bench_cotenant_settings.json``): threads that sleep when idle
(``OMP_WAIT_POLICY=PASSIVE``, ``GOMP_SPINCOUNT=1000``) keep more than half the speed beside a
co-tenant but cost up to half of it alone, because waking a sleeping thread is slow on this
kind of machine; one thread is immune to co-tenants and slow alone.

So the suite keeps the libraries' spinning threads while it has the cores to itself and drops to
the threads the cores can hold when others are busy: ``WATCH.tick()``, called by the loops that
launch parallel kernels (``VectorEnv.step``, ``truque simulate``; the PPO trainer registers
torch's thread count as a listener), looks at most once per ``PERIOD`` seconds at how much CPU
the rest of the machine used since the last look (``/proc/stat`` minus this process's own
time) and sets ``numba.set_num_threads`` (and the listeners) to ``round(cores - others)``, at
least 1, at most numba's own maximum. A tick between looks is one clock read.
``benchmarks/bench_cotenant.py`` measures it beside the fixed settings in the same run.

``TRUQUE_THREADS=library`` turns the watch off (the thread counts stay as the libraries set
them); it is also off where ``/proc/stat`` cannot be read, or with one core.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable

PERIOD = 1.0
"""seconds between two looks at the machine"""

SWITCH = "TRUQUE_THREADS"
"""``library``: no watch; ``truque`` (or unset): the watch"""


def threads_for(others: float, cores: int, most: int) -> int:
    """Threads to run beside ``others`` cores' worth of other processes' work."""
    return max(1, min(most, round(cores - others)))


def _read_proc_stat() -> tuple[float, float]:
    """(busy seconds of all CPUs, wall-clock seconds) since boot, from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    hz = os.sysconf("SC_CLK_TCK")
    idle = v[3] + v[4]  # idle + iowait
    return (sum(v[:8]) - idle) / hz, time.monotonic()


def _own_seconds() -> float:
    t = os.times()
    return t.user + t.system


class CoTenantWatch:
    """Sets numba's (and the listeners') thread count from the other processes' CPU use."""

    def __init__(self, period: float = PERIOD, reader: Callable[[], tuple[float, float]] = _read_proc_stat,
                 own: Callable[[], float] = _own_seconds, enabled: bool | None = None):
        self.period, self.reader, self.own = period, reader, own
        self.listeners: dict[str, Callable[[int], None]] = {}  # by name: re-registering replaces
        self.cores = os.cpu_count() or 1
        self.threads: int | None = None  # None: not set yet (the libraries' own count)
        self.others = 0.0
        self._next = 0.0
        self._last: tuple[float, float, float] | None = None
        if enabled is None:
            enabled = _enabled_by_environment() and self.cores > 1
        self.enabled = enabled
        if self.enabled:
            try:
                self._last = (*self.reader(), self.own())
            except (OSError, ValueError, IndexError):
                self.enabled = False

    def listen(self, name: str, fn: Callable[[int], None]) -> None:
        """Call ``fn(threads)`` whenever the count changes (and now, if the watch set one already)."""
        self.listeners[name] = fn
        if self.threads is not None:
            fn(self.threads)

    def tick(self) -> None:
        """Look at the machine if ``period`` seconds went by since the last look (cheap otherwise)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + self.period
        self.look()

    def look(self) -> int | None:
        """Look now: the others' CPU use since the last look, and the thread count for it."""
        busy, wall = self.reader()
        own = self.own()
        if self._last is not None:
            b0, w0, o0 = self._last
            if wall - w0 > 0:
                self.others = max(0.0, ((busy - b0) - (own - o0)) / (wall - w0))
                self._set(threads_for(self.others, self.cores, _numba_most()))
        self._last = (busy, wall, own)
        return self.threads

    def _set(self, n: int) -> None:
        if n == self.threads:
            return
        self.threads = n
        import numba

        numba.set_num_threads(n)
        for fn in self.listeners.values():
            fn(n)


def _numba_most() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def _enabled_by_environment() -> bool:
    value = os.environ.get(SWITCH, "")
    if value not in ("", "truque", "library"):
        warnings.warn(f"{SWITCH}={value!r} is neither 'truque' nor 'library': the thread counts stay as the "
                      "libraries set them", RuntimeWarning, stacklevel=3)
        return False
    return value != "library"


WATCH = CoTenantWatch()
