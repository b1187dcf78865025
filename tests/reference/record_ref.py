"""The juego's public record, written again in plain Python for the references (the twin of
``truque_env.engine.record``): how often each team raised, accepted, refused and left the mano in
the juego in progress, and how many manos of it have finished. Each reference classifies its own
words by name (``moteno_ref.word_kind``, ``argentino_ref.word_kind``), not by the engine's table."""

from __future__ import annotations

KINDS = ("raise", "accept", "refuse", "leave")


class JuegoRecord:
    def __init__(self):
        self.manos = 0
        self.words = [[0] * len(KINDS), [0] * len(KINDS)]

    def count(self, seat: int, kind: str | None) -> None:
        """A word said by ``seat``; ``kind`` None: a word the record does not count (paso, a card ..)."""
        if kind is not None:
            self.words[seat % 2][KINDS.index(kind)] += 1

    def close_mano(self, juego_won: bool) -> None:
        if juego_won:
            self.__init__()
        else:
            self.manos += 1

    def as_dict(self) -> dict:
        """In the form of ``truque_env.Table.juego_record``: ``{"manos": m, "raise": (team 0, team 1), ...}``."""
        return {"manos": self.manos, **{k: (self.words[0][i], self.words[1][i]) for i, k in enumerate(KINDS)}}
