"""The style statistics of a duplicate match, per tradition (bluffs, señas): optional.

``STYLES[tradition]`` is a module with ``StyleStats(num_tables, weak_pares)`` (``observe``,
``clear_tables``, ``report``), ``print_sections`` and ``DEFINITIONS``. The evaluator plays and
reports win rates and points by source for every tradition; the tradition named here also gets
its bluff and seña sections (Moteño's: ``moteno.py``; truco argentino's: ``argentino.py``, which
also reports the answers to the rivals' bets, ``answers``).
"""

from __future__ import annotations

from train.eval.styles import argentino, moteno

STYLES = {"moteno": moteno, "argentino": argentino}
