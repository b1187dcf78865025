"""Regenerate ``docs/results.md``: every bot against everyone, at each tradition and team size.

    python docs/make_results_page.py          # the page from the committed measurements (seconds)
    python docs/make_results_page.py --run    # first measure everything again (hours; alone on the cores)
    python docs/make_results_page.py --run --tradition argentino    # only that tradition's leagues
    python docs/make_results_page.py --run --rerun ppo   # only the matches of a bot that changed

What the page holds, and where each number comes from (all under ``benchmarks/results/``):

* **Leagues** (``leagues/<tradition>_<k>v<k>/league.json`` and ``league.png``, by
  ``train.eval.league``): a round robin of duplicate matches between every bot that plays that
  size (``SECTIONS`` below): Bradley–Terry ratings with bootstrap intervals, OpenSkill, each bot's
  win rate against random, the heuristic and its worst opponent, and the head-to-head matrix.
* **Falsos and señas** of the Moteño bots (``analysis/<bot>_<k>v<k>.json``, by
  ``train.studies.analysis``): how often each bets with a weak hand and how often that bet wins
  without a showdown; the mutual information between its señas and its hand, their causal
  influence on a partner, and the señas ablation against itself and **against the heuristic**.
* **Falsos and answers** of the argentino bots (from their league matches, whose reports count
  them, ``train/eval/styles/argentino.py``): weak-hand bets and how often they win without a
  showdown; how often the bot refuses an envido holding 29 or more, against the heuristic and
  against a rival who bets everything.
* **Exploitability** (``exploiter_*.json``, by ``train.studies.exploiter``): how much a PPO
  exploiter trained against the frozen bot wins against it; and on the reduced games, where it is
  exact (``reduced_exploitability.json``, by ``train.studies.reduced_exploitability``), PPO's
  next to CFR's.

A missing measurement is said on the page, with the command that makes it; no number is typed
in by hand.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
LEAGUES = RESULTS / "leagues"
ANALYSES = RESULTS / "analysis"
PAGE = ROOT / "docs" / "results.md"
PICTURES = ROOT / "docs" / "results"

STYLES = ["style_raiser", "style_caller", "style_folder", "style_bluffer"]
# the exploiters' weapons, scripted (agents/registry.py): the heuristic opening the falta envido, or
# the envido, with every hand; last in the lists, since a pairing's deals follow from its place in them
ARGENTINO_ENVIDO_STYLES = ["heuristic_faltero", "heuristic_enviador"]
# Moteño's league bots shipped before ``ppo`` (agents/registry.py's MOTENO_EARLIER_BOTS), oldest first: last in
# each Moteño list, and a newly shipped one appended, so that the other pairings keep their deals
MOTENO_EARLIER_PPO = ["ppo_v8", "ppo_v9", "ppo_v10", "ppo_v13", "ppo_v16", "ppo_v18", "ppo_v19"]
# (tradition, team size, the bots of its league: registry names or checkpoint paths). ``ppo`` is each
# tradition's league bot (issue 17; argentino's plays its envido mano a mano from the solved table);
# ``ppo_league1`` (each tradition's first league bot), ``ppo_3v3`` and ``ppo_1v1`` the bots shipped before them;
# Moteño's ``ppo`` is the v20 network with the envite de pares 1 contra 1 from the solved table
# (agents/pares_table.py), MOTENO_EARLIER_PPO the bots shipped before it; ``ppo_network`` is v5's network, ``ppo_switch`` that
# network reading the rival's record 1 contra 1 (agents/record_switch.py), ``ppo_switch+pares`` with the table
# (the bots appended after ``ppo`` changed are last in their lists, so that the other pairings keep their deals);
# ``cfr_pure`` the MCCFR bot purified (agents/cfr_policy.py); ``ppo_league1+envido`` argentino's first league bot
# with the envido played from the solved table (agents/envido_table.py; 2 contra 2 it is ``ppo_league1``).
SECTIONS = [
    ("moteno", 1, ["random", "heuristic", "heuristic_bluffer", *STYLES, "ppo", "ppo_league1", "ppo_3v3", "cfr",
                   "cfr_pure", "ppo_network", "ppo_switch", "ppo_switch+pares",
                   *MOTENO_EARLIER_PPO]),
    ("moteno", 2, ["random", "heuristic", "heuristic_bluffer", *STYLES, "ppo", "ppo_league1", "ppo_3v3", "ppo_network",
                   *MOTENO_EARLIER_PPO]),
    ("moteno", 3, ["random", "heuristic", "heuristic_bluffer", *STYLES, "ppo", "ppo_league1", "ppo_3v3", "ppo_network",
                   *MOTENO_EARLIER_PPO]),
    ("argentino", 1, ["random", "heuristic", "heuristic_bluffer", *STYLES, "ppo", "ppo_1v1", *ARGENTINO_ENVIDO_STYLES,
                      "ppo_league1+envido", "ppo_league1"]),
    ("argentino", 2, ["random", "heuristic", "heuristic_bluffer", *STYLES, "ppo", *ARGENTINO_ENVIDO_STYLES,
                      "ppo_league1"]),
]
# the Moteño bots whose falsos and señas are measured: (label, policy, the training page's file of the
# same measurement, read when the analysis with the ablation against the heuristic is missing)
ANALYSED = [("heuristic", "heuristic", "analysis_heuristic_{k}v{k}.json"),
            ("ppo_3v3", "ppo_3v3", "analysis_ppo_{k}v{k}.json"), ("ppo_league1", "ppo_league1", None),
            ("ppo_network", "ppo_network", None), ("ppo", "ppo", None)]
ANALYSIS_SIZES = (3,)
# the argentino bots whose falsos and answers the page shows (from their league matches), and the envido
# bins of train/eval/styles/argentino.py that are strong
ARGENTINO_FALSOS = ("heuristic", "heuristic_bluffer", "ppo", "ppo_league1", "ppo_1v1", "ppo_league1+envido")
STRONG_ENVIDO = ("29-30", "31-33")
LEAGUE_JUEGOS = 2000
ANALYSIS_JUEGOS = 4000


# runs whose exported policy was shipped: the run's name -> the shipped file's stem (agents/checkpoints)
SHIPPED_RUNS = {"ppo_argentino_league_v7": "ppo_argentino_v7"}


def label(name: str) -> str:
    """A bot's name on the page: its registry name, a checkpoint's file stem, or for a run's own
    policy (``runs/<run>/policy.pt``, a bot measured but not shipped) the run's name, with the
    piece for a policy exported after one (``runs/<run>/policy_piece3.pt``); ``+envido`` (the bot
    with the solved envido table, agents.envido_table) stays on the label."""
    if name.endswith("+envido"):
        return label(name.removesuffix("+envido")) + "+envido"
    if not name.endswith((".pt", ".npz")):
        return name
    path = Path(name)
    if path.stem == "policy" and path.parent.name in SHIPPED_RUNS:
        return SHIPPED_RUNS[path.parent.name]
    if path.stem in ("policy", "checkpoint"):
        return f"{path.parent.name} (run, not shipped)"
    if path.stem.startswith("policy_"):
        return f"{path.parent.name} {path.stem.removeprefix('policy_')} (run, not shipped)"
    return path.stem


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def league_dir(tradition: str, size: int) -> Path:
    return LEAGUES / f"{tradition}_{size}v{size}"


# ----------------------------------------------------------------------------------------------
# measuring (--run)


def run_all(juegos: int, analysis_juegos: int, traditions=("moteno", "argentino"), rerun: tuple[str, ...] = ()) -> None:
    """Measure the leagues (and Moteño's analyses) of ``traditions`` again; with ``rerun``, only the
    matches and analyses of those bots, the rest read from the leagues already measured."""
    from train.eval.league import LeagueConfig
    from train.eval.league import run as run_league

    for tradition, size, bots in SECTIONS:
        if tradition not in traditions or (rerun and not set(rerun) & set(bots)):
            continue
        run_league(LeagueConfig(policies=",".join(bots), tradition=tradition, team_size=size, juegos=juegos,
                                out_dir=league_dir(tradition, size), overwrite=True, progress=False,
                                rerun=",".join(b for b in rerun if b in bots)))
    from train.studies.analysis import AnalysisConfig
    from train.studies.analysis import run as run_analysis

    for size in ANALYSIS_SIZES if "moteno" in traditions else ():
        for name, policy, _ in ANALYSED:
            if rerun and policy not in rerun:
                continue
            run_analysis(AnalysisConfig(policy=policy, team_size=size, juegos=analysis_juegos,
                                        ablation_opponent="heuristic", out=ANALYSES / f"{name}_{size}v{size}.json",
                                        overwrite=True))


# ----------------------------------------------------------------------------------------------
# the page


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _num(x, fmt: str) -> str:
    return "–" if x is None else format(x, fmt)


def _ci(ci) -> str:
    return "" if not ci else f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _match(league: dict, bot: str, other: str):
    """The league's match of ``bot`` and ``other`` and ``bot``'s side in it ("A" or "B"), or (None, None)."""
    for m in league["matches"]:
        if (m["A"], m["B"]) in ((bot, other), (other, bot)):
            return m, "A" if m["A"] == bot else "B"
    return None, None


def _rate(league: dict, a: str, b: str):
    """(a's win rate against b, its Wilson interval) from the league's matches."""
    m, side = _match(league, a, b)
    if m is None:
        return None, None
    if side == "A":
        return m["win_rate_A"], m["wilson95"]
    lo, hi = m["wilson95"] or (None, None)
    return 1 - m["win_rate_A"], (None if lo is None else [1 - hi, 1 - lo])


def league_section(tradition: str, size: int, bots: list[str]) -> list[str]:
    path = league_dir(tradition, size) / "league.json"
    title = f"### {tradition}, {size} contra {size}"
    if not path.exists():
        return [title, "", f"Not measured yet: `python docs/make_results_page.py --run` "
                           f"(or `truque league --tradition {tradition} --team-size {size} --policies "
                           f"{','.join(bots)} --out-dir {_rel(path.parent)}`).", ""]
    league = json.loads(path.read_text())
    names = league["names"]
    by_elo = sorted(names, key=lambda n: -league["ratings"][n]["elo"])
    lines = [title, "", f"{league['config']['episodes_per_match']:,} duplicate juegos per pairing, seed "
                        f"{league['config']['seed']}; Elo: Bradley–Terry with its 95% bootstrap interval.", "",
             "| bot | Elo (BT) [95%] | OpenSkill μ ± σ | vs random | vs heuristic | worst matchup |",
             "|---|---|---|---|---|---|"]
    for n in by_elo:
        r = league["ratings"][n]
        ci = r.get("elo_ci95")
        elo = f"{r['elo']:+.0f}" + (f" [{ci[0]:+.0f}, {ci[1]:+.0f}]" if ci else "")
        skill = f"{r['openskill_mu']:.1f} ± {r['openskill_sigma']:.1f}" if "openskill_mu" in r else "–"
        cells = []
        for other in ("random", "heuristic"):
            w, wci = _rate(league, n, other) if other in names and other != n else (None, None)
            cells.append(_pct(w) + _ci(wci))
        worst = min(((_rate(league, n, o)[0], o) for o in names if o != n), default=(None, ""))
        lines.append(f"| {label(n)} | {elo} | {skill} | {cells[0]} | {cells[1]} | "
                     f"{_pct(worst[0])} against {label(worst[1])} |")
    png = path.parent / "league.png"
    if png.exists():
        PICTURES.mkdir(parents=True, exist_ok=True)
        dst = PICTURES / f"league_{tradition}_{size}v{size}.png"
        shutil.copyfile(png, dst)
        lines += ["", f"![head to head, {tradition} {size}v{size}](results/{dst.name})"]
    return [*lines, ""]


def _bet(freq: dict, kind: str, first_bin: bool = True):
    rows = freq[kind]["by_bin"]
    row = rows[0] if first_bin else rows[-1]
    return row["bet"]["rate"], row["won_without_showdown"]["rate"]


def analysis_section() -> list[str]:
    lines = ["## Falsos and señas (Moteño)", "",
             "Weak hands: valor de pares < 20, or a truque hand *débil* (no unplayed card from the treses up and no "
             "baza won). *won* = the bet was the last raise and the rivals said no quiero. I(seña; hand): mutual "
             "information between the seña made and the hand's class, bits. Influence: KL in bits of a partner's "
             "action distribution when the seña he saw is changed. Ablation: the bot with its señas channel cut "
             "(no seña made, none read) against itself and against the heuristic, on the same deals.", "",
             "| bot | size | weak pares bet / won | weak truco bet / won | I(seña; hand) | influence | "
             "ablation vs itself | señas' worth vs heuristic |", "|---|---|---|---|---|---|---|---|"]
    for size in ANALYSIS_SIZES:
        for name, _policy, fallback in ANALYSED:
            path = ANALYSES / f"{name}_{size}v{size}.json"
            if not path.exists() and fallback:  # the training page's measurement (no ablation against the heuristic)
                path = RESULTS / fallback.format(k=size)
            if not path.exists():
                lines.append(f"| {name} | {size}v{size} | not measured yet (`--run`) | | | | | |")
                continue
            a = json.loads(path.read_text())
            freq = next(iter(a["bet_frequencies"].values()))
            pb, pw = _bet(freq, "pares")
            tb, tw = _bet(freq, "truco")
            mi = a["senas_mutual_information"]["features"]["hand_class"]["mi_bits"]
            kl = a["causal_influence"]["kl_bits"]["mean"]
            ab = a.get("senas_ablation")
            vs_self = f"{_pct(ab['win_rate_full'])}{_ci(ab['wilson95'])}" if ab else "–"
            against = a.get("senas_ablation_against")
            if against:
                d = against["difference"]
                worth = (f"{100 * d['win_rate']:+.1f} points [{100 * d['normal95'][0]:+.1f}, {100 * d['normal95'][1]:+.1f}] "
                         f"({_pct(against['full']['win_rate'])} with, {_pct(against['ablated']['win_rate'])} without)")
            else:
                worth = "–"
            lines.append(f"| {name} | {size}v{size} | {_pct(pb)} / {_pct(pw)} | {_pct(tb)} / {_pct(tw)} | "
                         f"{_num(mi, '.2f')} | {_num(kl, '.3f')} | {vs_self} | {worth} |")
    return [*lines, ""]


def _refused_strong_envido(match: dict, side: str):
    """The share of the rival's envidos that ``side`` refused holding 29 or more of envido."""
    rows = [r for r in match["answers"][side]["envido"] if r["bin"] in STRONG_ENVIDO]
    n = sum(r["answered"] for r in rows)
    return (sum(r["refused"]["count"] for r in rows) / n if n else None), n


def argentino_falsos_section() -> list[str]:
    """Truco argentino's falsos and answers, read from the league matches (train/eval/styles/argentino.py)."""
    lines = ["## Falsos and answers (argentino)", "",
             "From each bot's league match against the heuristic (the heuristic's own: against random), and against "
             "`style_raiser`, who bets and raises "
             "everything: a rival's envido is then no sign of his hand, and refusing it with a strong one gives "
             "points away (the exploiters of the argentino bots bet it that way). Weak: envido < 20, or a truco "
             "hand with no unplayed card from the treses up and no baza won. *won* = the bet was the last raise and "
             "the rivals said no quiero. *refuses 29+*: of the rival's envidos answered holding 29 to 33 of envido, "
             "the share refused.", "",
             "| bot | size | weak envido bet / won | weak truco bet / won | refuses 29+ (vs heuristic or random) | "
             "refuses 29+ (vs style_raiser) |", "|---|---|---|---|---|---|"]
    for tradition, size, bots in SECTIONS:
        if tradition != "argentino":
            continue
        path = league_dir(tradition, size) / "league.json"
        league = json.loads(path.read_text()) if path.exists() else None
        for bot in (b for b in bots if b in ARGENTINO_FALSOS):
            rival = "random" if bot == "heuristic" else "heuristic"
            m, side = _match(league, bot, rival) if league else (None, None)
            r, rside = _match(league, bot, "style_raiser") if league else (None, None)
            if m is None or "answers" not in m:
                lines.append(f"| {label(bot)} | {size}v{size} | not measured yet (`--run --tradition argentino`) "
                             "| | | |")
                continue
            b = m["bluffs"][side]
            bets = [f"{_pct(b[k]['bet_when_weak']['rate'])} / {_pct(b[k]['weak_refused']['rate'])}"
                    for k in ("envido", "truco")]
            refusals = []
            for match, sd in ((m, side), (r, rside)):
                share, n = _refused_strong_envido(match, sd) if match is not None and "answers" in match else (None, 0)
                refusals.append(f"{_pct(share)} of {n:,}" if n else "–")
            lines.append(f"| {label(bot)} | {size}v{size} | {bets[0]} | {bets[1]} | {refusals[0]} | {refusals[1]} |")
    return [*lines, ""]


# exploiters of a registry name that has meant more than one bot: what each one played
EXPLOITED_AS = {
    "exploiter_ppo_argentino_blind_1v1": "ppo with the blind table (shipped before the prior table)",
    "exploiter_ppo_argentino_first5_1v1": "ppo with the blind table in the first five manos (a try, not shipped)",
    "exploiter_ppo_argentino_prior_1v1": "ppo (shipped: v7 with its three envido tables)",
    "exploiter_ppo_argentino_prior_2v2": "ppo 2 contra 2 (shipped: v7 with the team's prior and blind tables)",
    "exploiter_ppo_league5_moteno_1v1": "ppo_network (the fifth league run's network, shipped as ppo before the "
                                        "record switch; measured under the name ppo_league5)",
    "exploiter_ppo_moteno_switch_1v1": "the network with the first record switch (to its best response to "
                                       "heuristic_bluffer alone; measured under the name ppo, then ppo_reader)",
    "exploiter_ppo_reader_layers_1v1": "ppo_switch (the network with its two layers of record switch, shipped as "
                                       "ppo before the pares table; measured under the name ppo_reader)",
    "exploiter_ppo_pares_noblind_1v1": "ppo_switch with the first pares table (before its answers to a blind "
                                       "envite; not shipped)",
    "exploiter_ppo_pares_1v1": "ppo_switch+pares (the two-layer record switch with the envite de pares from the "
                               "solved table; shipped as ppo before v8)",
    "exploiter_ppo_moteno_league_v8_1v1": "ppo_v8 (the v8 network, trained around the solved envite de pares, "
                                          "with that table; shipped as ppo before v9)",
    "exploiter_ppo_moteno_league_v9_1v1": "ppo_v9 (the v9 network, v8 one PSRO step further, with the pares "
                                          "table; shipped as ppo before v10)",
    "exploiter_ppo_moteno_league_v10_1v1": "ppo_v10 (the v10 network, v9 one PSRO step further, with the "
                                           "pares table; shipped as ppo before v13)",
    "exploiter_ppo_moteno_league_v10_1v1_105M": "ppo_v10 (the same exploiter run continued to v9's exploiter's "
                                                "105M decisions, on a slower machine)",
    "exploiter_ppo_moteno_league_v10_3v3": "ppo_v10 3 contra 3, the exploiter swapping sides mid-juego",
    "exploiter_ppo_moteno_league_v10_3v3_one_side": "ppo_v10 3 contra 3",
    "exploiter_ppo_moteno_league_v10_1v1_one_side": "ppo_v10",
    "exploiter_ppo_moteno_league_v11_1v1_one_side": "the v11 network (v10 one PSRO step further with both its "
                                                    "exploiters, with the pares table; not shipped)",
    "exploiter_ppo_moteno_league_v11_3v3_one_side": "the v11 network 3 contra 3 (not shipped)",
    "exploiter_ppo_moteno_league_v12_1v1_one_side": "the v12 network (v11 one PSRO step further with both its "
                                                    "exploiters, with the pares table; not shipped)",
    "exploiter_ppo_moteno_league_v12_3v3_one_side": "the v12 network 3 contra 3 (not shipped)",
    "exploiter_ppo_moteno_league_v13_1v1_one_side": "ppo_v13 (the v13 network, v12 one PSRO step further "
                                                    "with both its exploiters and the heuristic weighted up, with "
                                                    "the pares table; shipped as ppo before v16)",
    "exploiter_ppo_moteno_league_v13_2v2_one_side": "ppo_v13 2 contra 2",
    "exploiter_ppo_moteno_league_v13_3v3_one_side": "ppo_v13 3 contra 3",
    "exploiter_ppo_moteno_league_v14_1v1_one_side": "the v14 network (v13 one PSRO step further with both its "
                                                    "exploiters and 3 contra 3 weighted up; not shipped)",
    "exploiter_ppo_moteno_league_v14_3v3_one_side": "the v14 network 3 contra 3 (not shipped)",
    "exploiter_ppo_moteno_league_v15_1v1_one_side": "the v15 network (v13 one PSRO step further with its three "
                                                    "exploiters, v14 and v14's two; not shipped)",
    "exploiter_ppo_moteno_league_v15_2v2_one_side": "the v15 network 2 contra 2 (not shipped)",
    "exploiter_ppo_moteno_league_v15_3v3_one_side": "the v15 network 3 contra 3 (not shipped)",
    "exploiter_ppo_moteno_league_v16_1v1_one_side": "ppo_v16 (the v16 network, v15 one PSRO step further "
                                                    "with its three exploiters and random weighted up, with the "
                                                    "pares table; shipped as ppo before v18)",
    "exploiter_ppo_moteno_league_v16_2v2_one_side": "ppo_v16 2 contra 2",
    "exploiter_ppo_moteno_league_v16_3v3_one_side": "ppo_v16 3 contra 3",
    "exploiter_juego_ppo_moteno_league_v16_1v1": "ppo_v16",
    "exploiter_juego_ppo_moteno_league_v16_2v2": "ppo_v16 2 contra 2",
    "exploiter_juego_ppo_moteno_league_v16_3v3": "ppo_v16 3 contra 3",
    "exploiter_juego_ppo_moteno_league_v18_1v1": "ppo_v18 (the v18 network, v16 one PSRO step further with "
                                                 "its exploiters, the one on the juego's result weighted up, with "
                                                 "the pares table; shipped as ppo before v19)",
    "exploiter_juego_ppo_moteno_league_v18_2v2": "ppo_v18 2 contra 2",
    "exploiter_juego_ppo_moteno_league_v18_3v3": "ppo_v18 3 contra 3",
    "exploiter_juego_ppo_moteno_league_v19_1v1": "ppo_v19 (the v19 network, v18 one PSRO step further with "
                                                 "the five exploiters on the juego's result, with the pares "
                                                 "table; shipped as ppo before v20)",
    "exploiter_juego_ppo_moteno_league_v19_1v1_94M": "ppo_v19 (the same exploiter run continued past v18's "
                                                     "exploiter's 94.5M decisions)",
    "exploiter_juego_ppo_moteno_league_v19_2v2": "ppo_v19 2 contra 2",
    "exploiter_juego_ppo_moteno_league_v19_3v3": "ppo_v19 3 contra 3",
    "exploiter_juego_ppo_moteno_league_v20_1v1": "ppo (shipped: the v20 network, v19 one PSRO step further with "
                                                 "its three exploiters on the juego's result, with the pares table)",
    "exploiter_juego_ppo_moteno_league_v20_2v2": "ppo (v20) 2 contra 2",
    "exploiter_juego_ppo_moteno_league_v20_2v2_33M": "ppo (v20) 2 contra 2 (the same exploiter run continued to "
                                                     "v19's exploiter's 32.7M decisions)",
    "exploiter_juego_ppo_moteno_league_v20_2v2_44M": "ppo (v20) 2 contra 2 (the same run continued to v22's own "
                                                     "2 contra 2 exploiter's 44.1M decisions)",
    "exploiter_juego_ppo_moteno_league_v20_3v3": "ppo (v20) 3 contra 3",
    "exploiter_juego_ppo_moteno_league_v21_1v1": "the v21 network (v20 one PSRO step further, the pares "
                                                 "exploiter weighted up, with the pares table; not shipped)",
    "exploiter_juego_ppo_moteno_league_v21_2v2": "the v21 network 2 contra 2 (not shipped)",
    "exploiter_juego_ppo_moteno_league_v21_3v3": "the v21 network 3 contra 3 (not shipped)",
    "exploiter_juego_ppo_moteno_league_v22_1v1": "the v22 network (v21 one PSRO step further with its three "
                                                 "exploiters and v20 weighted up, with the pares table; not "
                                                 "shipped)",
    "exploiter_juego_ppo_moteno_league_v22_2v2": "the v22 network 2 contra 2 (not shipped)",
    "exploiter_juego_ppo_moteno_league_v22_3v3": "the v22 network 3 contra 3 (not shipped)",
    "exploiter_juego_ppo_moteno_league_v23_2v2": "the v23 network 2 contra 2 (v22 one PSRO step further, the 2 "
                                                 "contra 2 exploiters weighted up; not measured further yet)",
    "exploiter_ppo_moteno_league_v17_1v1_one_side": "the v17 network (v16 one PSRO step further with its three "
                                                    "exploiters, random weighted up again; not shipped)",
    "exploiter_ppo_argentino_prior_2v2_one_side_seed1": "ppo 2 contra 2 (one side, seed 1: it stopped betting "
                                                        "the envido too)",
    "exploiter_ppo_argentino_prior_2v2_one_side_clone": "ppo 2 contra 2 (one side, started from a clone of "
                                                        "its play, tables included)",
    "exploiter_ppo_argentino_prior_1v1_one_side": "ppo (shipped: v7 with its three envido tables)",
    "exploiter_ppo_argentino_prior_2v2_one_side": "ppo 2 contra 2 (one side: it stopped betting the envido, "
                                                  "league.md; the swapped run's 78.5% is the figure)",
}


def _learns_on(study: dict) -> str:
    """The exploiter's reward: ``[ppo] reward`` of the config file it trained with (the trainer's default,
    ``PPOConfig.reward``, is each mano's points). Read as TOML, not as a PPOConfig, which would require the
    run's behaviour-cloning data on disk. The study records the file, not its contents; every committed
    exploiter ran after its config last changed its reward."""
    config = study.get("config", {}).get("config")
    if config is None:
        return "not recorded"
    return {"points": "points", "juego": "the juego"}[_config_reward(config)]


@functools.cache
def _config_reward(config: str) -> str:
    """``[ppo] reward`` of a PPO config file, read once per file (many exploiters share a config)."""
    from train.ppo.loop import PPOConfig
    from truque_env.io import tomllib

    with open(ROOT / config, "rb") as f:
        return tomllib.load(f).get("ppo", {}).get("reward", PPOConfig.reward)


def _exploiter_order(path: Path) -> list:
    """Rows beside their bot: an exploiter trained on the juego's result (``exploiter_juego_<bot>``) sorts
    with the ones on points of the same bot and size (``exploiter_<bot>``), and versions in number order
    (v9 before v10)."""
    stem = path.stem.replace("exploiter_juego_", "exploiter_")
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", stem)]


def exploitability_section() -> list[str]:
    lines = ["## Exploitability", "",
             "A PPO exploiter trained against the frozen bot alone (warm-started from it), then duplicate juegos "
             "against it: how much a best response of that budget wins. `ppo_moteno` is the v5 network "
             "(`ppo_network`; `ppo_switch` switches 1 contra 1 to other networks on the rival's record, and "
             "`ppo_switch+pares` plays the envite de pares over it from a solved table), Moteño's `ppo` before v8, "
             "`ppo_argentino_v7+envido` argentino's (the network of the v7 league run, played with the solved "
             "envido table), each trained against a league; `ppo_moteno_league1` and `ppo_argentino` (the first "
             "league bots, each now `ppo_league1`), `ppo_moteno_3v3` and `ppo_argentino_1v1` the bots before them "
             "([league.md](league.md)).", "",
             "*sides*: whether the exploiter held one side of each table for the whole juego, as a best response "
             "must (`train.studies.exploiter` since December 2026), or swapped sides with the target mid-juego at "
             "every update, as every exploiter before did: those learnt against a mix of the target and "
             "themselves and understate what the target concedes (v10 3 contra 3: 38.8% swapped, 61.8% one side; "
             "[league.md](league.md#the-exploiters-swapped-sides-mid-juego)).", "",
             "*learns on*: the exploiter's reward, read from the PPO config it trained with (`[ppo] reward`): each "
             "mano's points, or the juego's result as the league bots learn. On points, Moteño's exploiters "
             "understated what a bot concedes (v16 1 contra 1: 59.9% on points, 69.8% on the juego; 2 contra 2: "
             "56.1% and 76.4%; [league_moteno_psro.md](league_moteno_psro.md#v16s-exploiter-trained-on-the-juegos-result)).", "",
             "| bot | tradition | size | exploiter wins | juegos | training | sides | learns on |",
             "|---|---|---|---|---|---|---|---|"]
    paths = sorted(RESULTS.glob("exploiter_*.json"), key=_exploiter_order)
    for path in paths:
        e = json.loads(path.read_text())
        t = e.get("training", {})
        name = EXPLOITED_AS.get(path.stem, label(e["target"]))
        lines.append(f"| {name} | {e['tradition']} | {e['team_size']}v{e['team_size']} | "
                     f"{_pct(e['exploiter_win_rate'])}{_ci(e['wilson95'])} | {e['report']['juegos']['episodes']:,} | "
                     f"{t.get('minutes', 0):.0f} min, {t.get('decisions', 0) / 1e6:.0f}M decisions | "
                     f"{'swapped' if e.get('config', {}).get('swap_teams_every_update', True) else 'one'} | "
                     f"{_learns_on(e)} |")
    if not paths:
        lines.append("| not measured yet | | | | | | | |")
    return [*lines, ""]


REDUCED_LABELS = {"cfr_plus": "CFR+ (average)", "ppo_self_play": "PPO self-play", "ppo_league": "PPO league (PFSP)",
                  "ppo_league_exploiters": "PPO league + exploiters", "ppo_magnet": "PPO self-play + magnet",
                  "ppo_league_exploiters_magnet": "PPO league + exploiters + magnet"}


def reduced_section() -> list[str]:
    lines = ["## Exact exploitability on the reduced games", "",
             "The training recipe of the shipped bots (PPO, alone or against a PFSP league) run on games small "
             "enough for an exact best response (`train.ppo.tree`, tabular), next to CFR+ on the same games "
             "(`train.cfr.solvers`): exploitability (NashConv / 2, in the game's payoff: chips for Kuhn, chinas "
             "for the truque games) of PPO's current policy and of CFR+'s average policy, at the end (and the "
             "lowest on the way)."]
    path = RESULTS / "reduced_exploitability.json"
    if not path.exists():
        return [*lines, "", "Not measured yet: `python -m train.studies.reduced_exploitability "
                            f"--out {_rel(path)}`.", ""]
    r = json.loads(path.read_text())
    c = r["config"]
    lines += ["", f"PPO: {c['updates']:,} updates of {c['episodes']:,} sampled games each; CFR+: "
                  f"{c['cfr_iterations']:,} full-width iterations. Uniform play is the starting point of both.", "",
              "| game | uniform | " + " | ".join(REDUCED_LABELS[m] for m in r["methods"]) + " |",
              "|---|---|" + "---|" * len(r["methods"])]
    for game, g in r["games"].items():
        cells = [f"{g['final'][m]:.3g} ({g['best'][m]:.3g}), {g['curves'][m][-1]['seconds']:.0f} s" for m in r["methods"]]
        lines.append(f"| {game} | {g['uniform']:.3g} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def render() -> str:
    out = ["# Results: every bot against everyone", "",
           "Generated by `python docs/make_results_page.py` from the measurements in `benchmarks/results/` "
           "(`--run` makes them again). Duplicate deals throughout (`train.eval.duplicate`): each deal is played "
           "twice with the seats swapped.", "", "## Leagues", ""]
    for tradition, size, bots in SECTIONS:
        out += league_section(tradition, size, bots)
    out += analysis_section()
    out += argentino_falsos_section()
    out += exploitability_section()
    out += reduced_section()
    return "\n".join(out).rstrip() + "\n"


def main(argv=None) -> None:
    from truque_env.io import write_text_atomic

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="measure every league and analysis again first")
    ap.add_argument("--tradition", choices=sorted({t for t, _, _ in SECTIONS}), action="append",
                    help="with --run: only this tradition's leagues (and analyses); repeatable")
    ap.add_argument("--rerun", action="append", default=[],
                    help="with --run: measure again only this bot's matches (a bot that changed); repeatable")
    ap.add_argument("--juegos", type=int, default=LEAGUE_JUEGOS, help="juegos per league pairing (with --run)")
    ap.add_argument("--analysis-juegos", type=int, default=ANALYSIS_JUEGOS, help="juegos per ablation match")
    ap.add_argument("--out", type=Path, default=PAGE)
    args = ap.parse_args(argv)
    if (args.tradition or args.rerun) and not args.run:
        ap.error("--tradition and --rerun pick what --run measures again; give --run too")
    unknown = sorted(set(args.rerun) - {b for _, _, bots in SECTIONS for b in bots})
    if unknown:
        ap.error(f"--rerun {', '.join(unknown)}: not in any league of the page")
    if args.run:
        run_all(args.juegos, args.analysis_juegos, tuple(args.tradition or {t for t, _, _ in SECTIONS}),
                tuple(args.rerun))
    write_text_atomic(args.out, render())
    print(f"wrote {args.out}")


if __name__ == "__main__":
    from truque_env.command import run_command

    run_command(main)
