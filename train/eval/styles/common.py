"""What the traditions' style statistics share (``moteno.py``, ``argentino.py``): the cards a
player still holds, and the report's bluff and seña sections with their tables."""

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
