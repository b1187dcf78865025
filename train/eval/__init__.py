"""Evaluation: duplicate matches with their statistics (``duplicate.py``, ``truque evaluate``)
and round-robin leagues with ratings (``league.py``, ``truque league``)."""
