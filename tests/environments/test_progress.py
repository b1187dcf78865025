"""Progress of long work (truque_env.progress): a bar with done/total and the time left on a
terminal of 80 columns, plain periodic lines into a file (issue 15, 3)."""

from __future__ import annotations

import io
import re

from truque_env.progress import Progress, report_console


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_into_a_file_plain_lines_with_done_total_and_time_left():
    out = io.StringIO()
    bar = Progress("ppo", total=300, unit="updates", stream=out, every=0.0)
    bar.update(12, note="SPS 33,412")
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2  # one per update here (every=0), one at the end
    assert re.fullmatch(r"ppo: 12/300 updates \(4\.0%\), \d:\d\d:\d\d elapsed, about \d+:\d\d:\d\d left, SPS 33,412",
                        lines[0]), lines[0]


def test_into_a_file_nothing_between_the_periodic_lines():
    out = io.StringIO()
    with Progress("manos", total=10, stream=out, every=3600.0) as bar:
        for k in range(10):
            bar.update(k + 1)
    assert out.getvalue().splitlines() == [out.getvalue().splitlines()[0]]  # only the closing line
    assert out.getvalue().startswith("manos: 10/10 (100.0%)")


def test_on_an_80_column_terminal_the_bar_shows_the_count_and_the_note(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    term = _Terminal()
    bar = Progress("ppo", total=300, stream=term)
    bar.update(12, note="SPS 33,412")
    bar.close()
    text = term.getvalue()
    assert "12/300" in text and "SPS 33,412" in text and "━" in text


def test_disabled_prints_nothing():
    out = io.StringIO()
    with Progress("x", total=5, stream=out, enabled=False) as bar:
        bar.update(5)
    assert out.getvalue() == ""


def test_a_report_into_a_file_is_160_columns_wide(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert report_console().width == 160  # pytest's output is not a terminal
