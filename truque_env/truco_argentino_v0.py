"""Out of date: ``truque_env.truco_argentino_v1`` replaced it (its observation ends with the juego's
record; see its version history). As PettingZoo does with an old version, ``env()`` and
``raw_env()`` here raise an error naming the new one rather than give the new observation under
the old name."""

from __future__ import annotations


def _out_of_date(*_args, **_kwargs):
    raise ValueError("truco_argentino_v0 is out of date: use truque_env.truco_argentino_v1 (its observation "
                     "ends with the juego's record; see its version history)")


env = raw_env = _out_of_date
