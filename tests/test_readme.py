"""The README's Python tour runs as written."""

from __future__ import annotations

import re
from pathlib import Path


def test_readme_python_blocks_run(capsys):
    text = (Path(__file__).parents[1] / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "{'pares': (4, 0), 'flores': (0, 0), 'truque': (1, 0)}" in out
    assert "baza 1" in out
