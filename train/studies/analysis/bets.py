"""Does it bluff? Bet rates by hand strength and their profit (``bet_frequencies``) and their plot
(``plot_bet_frequencies``): measurement 5 of ``train.studies.analysis``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from train.eval.duplicate import _rate, wilson
from train.eval.styles.moteno import NO_CARD, PARES_BINS, POWER_OF, POWER_TRES, pares_bin
from train.studies.analysis.selfplay import (
    POWER_MATA,
    POWER_PIEZA,
    TRUCO_BINS,
    _held_cards,
    _self_play,
)
from truque_env.io import atomic_output
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L

# --------------------------------------------------------------------------------------------
# 5. bets by hand strength


def truco_bin(held: np.ndarray, won_baza: np.ndarray) -> np.ndarray:
    """Strength bin of each hand for the truque (``TRUCO_BINS``); ``held`` (k, 3), NO_CARD = played."""
    best = POWER_OF[held].max(axis=1)
    return np.select([(best < POWER_TRES) & ~won_baza, best < POWER_TRES, best < POWER_MATA, best < POWER_PIEZA],
                     [0, 1, 2, 3], 4).astype(np.int64)


@dataclass
class BetFrequencies:
    """Counts per strength bin (``[kind, bin]``, kind 0 = pares, 1 = truco), see ``bet_frequencies``."""

    chances: np.ndarray  # decisions with the cards seen where the bet was legal
    bets: np.ndarray  # ... where the player bet
    refused: np.ndarray  # bets won without a showdown (the rivals said no quiero)
    manos: int
    team_size: int
    bins: tuple = (PARES_BINS, TRUCO_BINS)

    def to_dict(self) -> dict:
        out = {"manos": self.manos, "team_size": self.team_size}
        for kind, name in enumerate(("pares", "truco")):
            rows = []
            for b, label in enumerate(self.bins[kind]):
                rows.append({"bin": label, "chances": int(self.chances[kind, b]),
                             "bet": _rate(self.bets[kind, b], self.chances[kind, b]),
                             "won_without_showdown": _rate(self.refused[kind, b], self.bets[kind, b])})
            bets = self.bets[kind]
            out[name] = {
                "by_bin": rows,
                "bets": int(bets.sum()),
                "bets_per_mano": float(bets.sum()) / self.manos if self.manos else None,
                # the evaluator's weak hands are bin 0 (weak pares < 20; weak truco: débil)
                "weak": {"bet_when_weak": _rate(bets[0], self.chances[kind, 0]),
                         "bet_when_strong": _rate(bets[1:].sum(), self.chances[kind, 1:].sum()),
                         "weak_share_of_bets": _rate(bets[0], bets.sum()),
                         "weak_won_without_showdown": _rate(self.refused[kind, 0], bets[0]),
                         "strong_won_without_showdown": _rate(self.refused[kind, 1:].sum(), bets[1:].sum())},
            }
        return out


def bet_frequencies(policy, team_size: int = 3, manos: int = 2000, p_intercept: float = 0.1, seed: int = 0,
                    num_envs: int = 64) -> BetFrequencies:
    """How often ``policy`` bets pares and challenges the truque, by hand strength (the package docstring, 5).

    The bet, chance and refusal rules are ``train.eval.styles.moteno.StyleStats.observe``'s, binned finer.
    """
    nb = (len(PARES_BINS), len(TRUCO_BINS))
    chances = np.zeros((2, max(nb)), dtype=np.int64)
    bets = np.zeros_like(chances)
    refused = np.zeros_like(chances)
    pend_seat = pend_bin = None  # the last bet of each kind in each table's running mano
    for st in _self_play(policy, team_size=team_size, manos=manos, p_intercept=p_intercept, seed=seed,
                         num_envs=num_envs):
        if pend_seat is None:
            n_tables = int(st.table.max()) + 1  # the first step has every table
            pend_seat = np.full((n_tables, 2), -1, dtype=np.int64)
            pend_bin = np.zeros((n_tables, 2), dtype=np.int64)
        S0, S1, a, p, t, m = st.s0.astype(np.int64), st.s1.astype(np.int64), st.action, st.seat, st.table, st.mask
        rows = np.arange(a.size)
        ph, exk = S0[:, L.PHASE], S0[:, L.EX_KIND]
        seen = S0[:, L.CARDS_SEEN] == 1
        cards, unplayed = _held_cards(S0, p)
        held = np.where(unplayed, cards, NO_CARD)
        team = p % 2
        won_baza = (S0[:, L.BAZA_WIN_TEAM : L.BAZA_WIN_TEAM + 3] == team[:, None]).any(axis=1)
        strength = np.stack([pares_bin(S0[rows, L.PARES_VAL + p]), truco_bin(held, won_baza)], axis=1)
        pares_word = ((a >= A.PARES_BASE) & (a < A.FLORES_BASE)) | (a == A.FALTA)
        pares_ctx = (ph == L.PH_PLAY) | (ph == L.PH_BLIND) | ((ph == L.PH_ANSWER) & (exk == L.EX_PARES))
        is_bet = np.stack([pares_word & pares_ctx & seen, (a >= A.TRUCO) & (a <= A.PANUEVE) & seen], axis=1)
        can = np.stack([m[:, A.PARES_BASE : A.FLORES_BASE].any(axis=1) | (m[:, A.FALTA] == 1),
                        m[:, A.TRUCO : A.PANUEVE + 1].any(axis=1)], axis=1)
        chance = can & (seen & (a < A.SENA_BASE))[:, None]  # a seña does not pass the turn
        chance[:, 0] &= pares_ctx
        for kind in (0, 1):
            np.add.at(chances[kind], strength[chance[:, kind], kind], 1)
            r = np.flatnonzero(is_bet[:, kind])
            np.add.at(bets[kind], strength[r, kind], 1)
            pend_seat[t[r], kind] = p[r]  # a later raise supersedes the pending bet
            pend_bin[t[r], kind] = strength[r, kind]
        # the mano is over: were the last bets refused (won without a showdown)?
        r = np.flatnonzero(S1[:, L.PHASE] == L.PH_DONE)
        for kind, stf, raiser in ((0, L.PARES_ST, L.PARES_RAISER), (1, L.TRUCO_ST, L.TRUCO_RAISER)):
            ps = pend_seat[t[r], kind]
            won = (ps >= 0) & (S1[r, stf] == L.BET_REFUSED) & (S1[r, raiser] == ps)
            np.add.at(refused[kind], pend_bin[t[r[won]], kind], 1)
            pend_seat[t[r], kind] = -1
    return BetFrequencies(chances=chances, bets=bets, refused=refused, manos=manos, team_size=team_size)


# --------------------------------------------------------------------------------------------
# 6. the plot


def _bet_rows(result) -> tuple[list, list]:
    """Per kind: (labels, [(bets, chances), ...]) from a BetFrequencies or its ``to_dict()``."""
    d = result.to_dict() if isinstance(result, BetFrequencies) else result
    out = []
    for kind in ("pares", "truco"):
        if kind not in d or "by_bin" not in d[kind]:
            raise ValueError(f"a bet-frequency result needs '{kind}.by_bin' (BetFrequencies.to_dict())")
        rows = d[kind]["by_bin"]
        out.append(([r["bin"] for r in rows], [(r["bet"]["count"], r["bet"]["of"]) for r in rows]))
    return out


def plot_bet_frequencies(results_by_policy: dict, path) -> Path:
    """A PNG with two panels (pares, truco): bet rate by strength bin, one line per policy, Wilson CIs.

    ``results_by_policy``: ``{"ppo": BetFrequencies, "heuristic": ...}`` (or their ``to_dict()``).
    Written atomically (a temporary file, then ``os.replace``).
    """
    if not results_by_policy:
        raise ValueError("results_by_policy is empty: give at least one policy's bet frequencies")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.2))
    FigureCanvasAgg(fig)  # the Agg backend, without touching pyplot's global state
    axes = fig.subplots(1, 2)
    titles = ("envite de pares, by valor de pares", "truco, by hand strength")
    n_pol = len(results_by_policy)
    for name_i, (name, result) in enumerate(results_by_policy.items()):
        for kind, (labels, counts) in enumerate(_bet_rows(result)):
            x = np.arange(len(labels)) + (name_i - (n_pol - 1) / 2) * 0.08  # separate the error bars
            rate = np.array([k / n if n else np.nan for k, n in counts])
            lo = np.array([rate[i] - (wilson(k, n) or (np.nan, np.nan))[0] for i, (k, n) in enumerate(counts)])
            hi = np.array([(wilson(k, n) or (np.nan, np.nan))[1] - rate[i] for i, (k, n) in enumerate(counts)])
            ax = axes[kind]
            ax.errorbar(x, rate, yerr=np.vstack([lo, hi]), marker="o", capsize=3, label=str(name))
            ax.set_xticks(np.arange(len(labels)))
            ax.set_xticklabels(labels, rotation=15)
    for ax, title in zip(axes, titles, strict=True):
        ax.set_title(title)
        ax.set_ylabel("bet rate when legal (95% Wilson CI)")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    path = Path(path)
    with atomic_output(path, suffix=".tmp.png") as tmp:
        fig.savefig(tmp, dpi=110, format="png")
    return path
