"""Truco argentino (seeds 003 and 004, ruling 8; elements A1–A41 of ../shared/rules/traditions.md):
being built (issue 16). What exists: its card and hand valuations (``rules``), checked on every
hand against the plain-Python reference. It is registered, and so playable in every environment,
once its package defines ``SPEC``; until then ``UNDER_CONSTRUCTION`` keeps the registry from
listing it.
"""

UNDER_CONSTRUCTION = "the valuations exist; the engine, environments and bots of issue 16 do not yet"
