"""Progress of long work, readable wherever the output goes.

On a terminal: a bar with what is done of the total and the time left (rich), and a short note
(``SPS 33,412``) that never squeezes the bar out, from 80 columns up. Sent to a file or a pipe:
a plain line every ``every`` seconds (and at the end), flushed, so a log can be watched with
``tail -f``: ``ppo: 12/300 updates (4.0%), 0:03:10 elapsed, about 1:16:00 left, SPS 33,412``.

    with Progress("manos", total=100_000) as bar:
        for ...:
            bar.update(done, note="...")
"""

from __future__ import annotations

import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    def __init__(self, what: str, total: int, done: int = 0, unit: str = "", enabled: bool = True,
                 every: float = 30.0, stream=None, transient: bool = False):
        self.what, self.total, self.unit, self.enabled, self.every = what, int(total), unit, enabled, every
        self.stream = stream or sys.stderr
        self.done, self.note = int(done), ""
        self.t0 = self.last_line = time.monotonic()
        self.done0 = self.done
        self.bar = None
        if enabled and self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as RichProgress

            self.bar = RichProgress(TextColumn(what), BarColumn(bar_width=None), MofNCompleteColumn(),
                                    TimeRemainingColumn(), TextColumn("{task.fields[note]}"),
                                    console=Console(file=self.stream), transient=transient, expand=False)
            self.bar.start()
            self.task = self.bar.add_task(what, total=self.total, completed=self.done, note="")

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def update(self, done: int, note: str = "") -> None:
        self.done, self.note = int(done), note
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, note=note)
        elif time.monotonic() - self.last_line >= self.every:
            self._line()

    def _line(self) -> None:
        self.last_line = now = time.monotonic()
        elapsed = now - self.t0
        rate = (self.done - self.done0) / elapsed if elapsed > 0 else 0.0
        left = f", about {_clock((self.total - self.done) / rate)} left" if rate > 0 and self.done < self.total else ""
        pct = 100.0 * self.done / self.total if self.total else 100.0
        unit = f" {self.unit}" if self.unit else ""
        note = f", {self.note}" if self.note else ""
        print(f"{self.what}: {self.done:,}/{self.total:,}{unit} ({pct:.1f}%), {_clock(elapsed)} elapsed{left}{note}",
              file=self.stream, flush=True)

    def close(self) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        else:
            self._line()
        self.enabled = False


def report_console():
    """A rich console for a report: the terminal's width, or 160 columns into a file or a pipe
    (rich's default of 80 there would cut the tables' confidence intervals)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=160)
