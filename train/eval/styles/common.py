"""What the traditions' style statistics share (``moteno.py``, ``argentino.py``): the cards a
player still holds, and the report's bluff, answer and seña sections with their tables."""

from __future__ import annotations

import numpy as np

SIDES = ("A", "B")
NO_CARD = 40  # sentinel for a played slot: one column past the card ids in the style modules' tables


def held_cards(L, S0: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The cards seat ``p`` of each state row still holds, ``(k, 3)``, ``NO_CARD`` for a played slot
    (``L``: the tradition's layout; both keep ``HAND`` and the played-slot bits ``HAND_PLAYED``)."""
    rows = np.arange(p.size)
    slots = np.arange(3)
    hand = S0[rows[:, None], L.HAND + 3 * p[:, None] + slots]
    played = (S0[rows, L.HAND_PLAYED + p][:, None] >> slots) & 1
    return np.where(played == 0, hand, NO_CARD)


class BetTally:
    """Bets of two kinds (``[side, kind, weak]``: weak 1, strong 0), the decisions where each was
    legal, and which of them were refused: the last raise of its exchange, answered no quiero."""

    def __init__(self, num_tables: int):
        self.bets = np.zeros((2, 2, 2), dtype=np.int64)
        self.refused = np.zeros((2, 2, 2), dtype=np.int64)
        self.chances = np.zeros((2, 2, 2), dtype=np.int64)
        # the last bet of each kind in the running mano, per table: seat (-1 none), side, weak
        self.pend_seat = np.full((num_tables, 2), -1, dtype=np.int64)
        self.pend_side = np.zeros((num_tables, 2), dtype=np.int64)
        self.pend_weak = np.zeros((num_tables, 2), dtype=np.int64)

    def clear_tables(self, idx) -> None:
        self.pend_seat[idx] = -1

    def count(self, t, kind: int, chance, is_bet, side, p, weak) -> None:
        """Rows (boolean over the decisions of tables ``t``) where a bet of ``kind`` was legal
        (``chance``) and where it was made (``is_bet``), by seats ``p`` of ``side``."""
        r = np.flatnonzero(chance)
        if r.size:
            np.add.at(self.chances, (side[r], kind, weak[r].astype(np.int64)), 1)
        r = np.flatnonzero(is_bet)
        if r.size:
            w = weak[r].astype(np.int64)
            np.add.at(self.bets, (side[r], kind, w), 1)
            # a later raise supersedes the pending bet (it was accepted by being raised)
            self.pend_seat[t[r], kind] = p[r]
            self.pend_side[t[r], kind] = side[r]
            self.pend_weak[t[r], kind] = w

    def settle(self, t, done, S1, fields, refused_state: int) -> None:
        """The manos over (rows ``done``): was each kind's last bet refused? ``fields``: per kind,
        the state's (bet state, raiser) columns."""
        if done.size == 0:
            return
        tr = t[done]
        for kind, (st, raiser) in enumerate(fields):
            ps = self.pend_seat[tr, kind]
            has = ps >= 0
            if has.any():
                ref = (S1[done, st] == refused_state) & (S1[done, raiser] == ps) & has
                np.add.at(self.refused, (self.pend_side[tr, kind], kind, self.pend_weak[tr, kind]),
                          ref.astype(np.int64))
            self.pend_seat[tr, kind] = -1

    def sections(self, blind_bets, kinds, manos: int, rate) -> dict:
        """The report's ``bluffs``: per side, per kind (``blind_bets[side, kind]``)."""
        return {side: {kname: bluff_section(self.bets[si, kind], self.refused[si, kind], self.chances[si, kind],
                                            blind_bets[si, kind], manos, rate)
                       for kind, kname in enumerate(kinds)}
                for si, side in enumerate(SIDES)}


class AnswerTally:
    """Answers to the rivals' bets of two kinds, by a bin of the answerer's hand (``[side, kind, bin]``):
    answered, refused, raised; and of the first kind's answers (the envite), those to la falta."""

    def __init__(self, num_bins: int):
        self.answered = np.zeros((2, 2, num_bins), dtype=np.int64)
        self.refused = np.zeros_like(self.answered)
        self.raised = np.zeros_like(self.answered)
        self.falta_answered = np.zeros((2, num_bins), dtype=np.int64)  # [side, bin]
        self.falta_refused = np.zeros_like(self.falta_answered)

    def count(self, kind: int, side, bins, refused, raised, falta=None) -> None:
        """One kind's answers by ``side`` in hand ``bins``; ``refused``, ``raised``, ``falta``
        (an answer to la falta, first kind only): booleans per answer."""
        if side.size == 0:
            return
        at = (side, kind, bins)
        refused = refused.astype(np.int64)
        np.add.at(self.answered, at, 1)
        np.add.at(self.refused, at, refused)
        np.add.at(self.raised, at, raised.astype(np.int64))
        if falta is not None:
            falta = falta.astype(np.int64)
            np.add.at(self.falta_answered, (side, bins), falta)
            np.add.at(self.falta_refused, (side, bins), refused * falta)

    def sections(self, kinds, bin_labels, rate) -> dict:
        """The report's ``answers``: per side, per kind, a row per bin of ``bin_labels[kind]``; the
        first kind's rows also say how its answers to la falta went."""
        out = {}
        for si, side in enumerate(SIDES):
            out[side] = {}
            for kind, kname in enumerate(kinds):
                rows = []
                for b, label in enumerate(bin_labels[kind]):
                    n = self.answered[si, kind, b]
                    row = {"bin": label, "answered": int(n), "refused": rate(self.refused[si, kind, b], n),
                           "raised": rate(self.raised[si, kind, b], n)}
                    if kind == 0:
                        row["falta"] = {"answered": int(self.falta_answered[si, b]),
                                        "refused": rate(self.falta_refused[si, b], self.falta_answered[si, b])}
                    rows.append(row)
                out[side][kname] = rows
        return out


def print_answers(d: dict, console, fmt_rate, kinds, falta_label: str) -> None:
    """The report's ``answers`` as a table (nothing for a report without them)."""
    from rich.table import Table

    if d.get("answers") is None:
        return
    t = Table(title="answers to the rivals' bets: refused (no quiero) by the answerer's hand; Wilson 95% CI")
    for col in ("side", "bet", "refused, by the answerer's hand (of answers)"):
        t.add_column(col)
    for side in SIDES:
        for kind in kinds:
            t.add_row(side, kind, "; ".join(f"{r['bin']}: {fmt_rate(r['refused'])}" for r in d["answers"][side][kind]))
        first = d["answers"][side][kinds[0]]
        if all("falta" in r for r in first):  # reports from before the split have none
            t.add_row(side, falta_label, "; ".join(f"{r['bin']}: {fmt_rate(r['falta']['refused'])}" for r in first))
    console.print(t)


def count_senas(made, honest, k, side, held, signal, any_of_the_others: int, flor: int, has_flor) -> None:
    """Add the señas ``k`` (>= 0 rows only) made by ``side`` holding ``held``: a card seña is honest
    when one of its ``signal`` cards is held; the seña ``any_of_the_others`` (ciega, nada) when none
    of theirs is; ``flor`` when ``has_flor``."""
    hit = signal[k[:, None], held].any(axis=1)
    ok = np.where(k == any_of_the_others, ~hit, hit)
    ok = np.where(k == flor, has_flor, ok)
    np.add.at(made, (side, k), 1)
    np.add.at(honest, (side, k), ok.astype(np.int64))


def bluff_section(bets, refused, chances, blind_bets: int, manos: int, rate) -> dict:
    """One side's counts of one kind of bet, ``[strong, weak]`` each, as the report writes them."""
    all_bets = int(bets.sum())
    return {
        "bets_with_cards": all_bets,
        "bets_per_mano": all_bets / manos if manos else None,
        "blind_bets": int(blind_bets),
        "weak": rate(bets[1], all_bets),
        "weak_per_mano": int(bets[1]) / manos if manos else None,
        "bet_when_weak": rate(bets[1], chances[1]),
        "bet_when_strong": rate(bets[0], chances[0]),
        "weak_refused": rate(refused[1], bets[1]),
        "strong_refused": rate(refused[0], bets[0]),
    }


def senas_section(made, honest, names, manos: int, rate) -> dict:
    """One side's señas (``made[k]``, ``honest[k]`` per seña) and their total, as the report writes them."""
    out = {}
    for k, name in enumerate(names):
        c = int(made[k])
        out[name] = {"count": c, "per_mano": c / manos if manos else None, "honest": rate(honest[k], c)}
    total = int(made.sum())
    out["all"] = {"count": total, "per_mano": total / manos if manos else None, "honest": rate(honest.sum(), total)}
    return out


def print_bluffs(d: dict, console, fmt_rate, kinds) -> None:
    from rich.table import Table

    t = Table(title="bluffs: bets with a weak hand, and refused (won without a showdown); Wilson 95% CI")
    for col in ("side", "bet", "with cards", "blind", "weak", "bet when weak", "weak refused", "strong refused"):
        t.add_column(col)
    for side in SIDES:
        for kind in kinds:
            b = d["bluffs"][side][kind]
            t.add_row(side, kind, str(b["bets_with_cards"]), str(b["blind_bets"]), fmt_rate(b["weak"]),
                      fmt_rate(b["bet_when_weak"]), fmt_rate(b["weak_refused"]), fmt_rate(b["strong_refused"]))
    console.print(t)


def print_senas(d: dict, console, fmt_rate, names) -> None:
    from rich.table import Table

    t = Table(title="señas: made per mano, and honest (Wilson 95% CI)")
    for col in ("seña", *(f"{s} per mano" for s in SIDES), *(f"{s} honest" for s in SIDES)):
        t.add_column(col)
    for name in (*names, "all"):
        rows = [d["senas"][s][name] for s in SIDES]
        t.add_row(name, *(f"{r['per_mano']:.3f}" if r["per_mano"] is not None else "–" for r in rows),
                  *(fmt_rate(r["honest"]) for r in rows))
    console.print(t)
