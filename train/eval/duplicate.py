"""Fair evaluation of two policies: duplicate matches on the vector env, and a report.

**Duplicate deals.** Tables come in twins ``2k, 2k + 1`` that share a table seed (so the same
first dealer) and a deal seed (so the k-th mano of both is the same deal, docs/engine.md
"Duplicate deals"). On table ``2k`` side A holds team 0 and side B team 1; on the twin the
teams are swapped, so each side plays the other's cards against the same cards, and card luck
cancels within the pair. An *episode* (the unit of play) is a ``juego`` or a ``partida``; a pair
is finished when both twins finished one episode, and its two tables are then re-seeded with
the next pair's seeds (a twin that finishes first keeps playing filler moves, not counted,
until its partner is done). In ``partida`` units the twins deal the same k-th mano, but a juego
won earlier on one twin than on the other shifts which juego that mano belongs to: the pairing
is exact per partida, not per juego.

**Batched play.** Each step, the tables' rows are grouped by the policy that controls the seat
to act and each policy's ``act_batch`` sees its rows only.

**A match is a function of its seed.** Each table of a pair has its own random stream per
seat, keyed by the match seed, the pair and the twin like the deals; the ``n``-th decision of a
seat gets the ``n``-th key of its stream, and every policy that takes keys (the shipped bots do:
truque_env.policy, "Decision keys") draws from it. So the outcome does not depend on
``num_envs``: any number of tables plays the same juegos, decision for decision (a policy
without ``keys`` and with random draws of its own is the exception).

**Referee bookkeeping.** The evaluator reads the table states (hands, valuations, bets) as a
referee: before each step it copies the states and steps the copy with the batched kernel, so
it has the state after every decision even when the vector env has already dealt the next mano.
Bets and señas are detected from the action taken and these two states, in numpy.

**Definitions** (also written into every report, ``Report.definitions``):

* *win rate*: share of episodes won by side A; 95% CI by the **Wilson score interval**
  (episodes treated as independent) and, accounting for the pairing, with each duplicate pair as
  one unit (its share of the pair's episodes won by A: 0, 0.5 or 1 for juegos): a normal CI of
  the ratio estimator over pairs and a percentile **bootstrap** over pairs.
* *chinas per mano* by source (pares, flores, truque): chinas *won* in the mano (as the engine
  reports them, before the cut at the target), averaged over manos; CI: normal, ratio estimator
  with the duplicate pair as the cluster.
* *envite de pares with a weak hand*: an ``envío N pares`` / ``envío la falta`` said with the
  cards seen, opening the envite or revoking (a raise in a pares exchange), by a player whose
  valor de pares is below ``weak_pares`` (default 20: below 20 the hand has no two cards of a
  suit and no pieza, Art. 5). Blind bets (a ciegas) are counted apart: nobody has seen a card.
* *challenge with a weak hand*: ``truco``, ``retruco`` or ``panueve`` said with the cards seen by
  a player none of whose unplayed cards has truque power at least that of the treses (piezas,
  matas, treses) and whose team has not won a baza yet (a parda is not a win).
* *won without a showdown*: the bet was the last raise of its exchange and the rivals refused
  it (``no quiero``): the final bet state is *refused* with this player as the raiser.
* *answers*: the decisions answering a rival's envite (or truco) with the cards seen, by the
  answerer's valor de pares (bins ``<20`` .. ``35+``; for the truco weak or strong, as for the
  bets): how often he refuses (``no quiero``, for the truco also the baraja) or raises, and of
  the envite's answers those to la falta. A hand that beats most of the bettor's and refuses
  is where a rival who bets everything wins.
* *truco argentino* (``train/eval/styles/argentino.py``): the same with its bets: an envido bet
  (envido, real envido, falta envido, alone or with the truco) is weak below ``weak_pares`` of
  envido; a weak truco hand holds no unplayed card from the treses up (the matas, the treses) and
  has won no baza. The answers are counted by the answerer's envido value bins (``<20`` ..
  ``31-33``), and of the envido's answers those to a falta envido.
* *honest seña*: a seña naming a card (perro, perra, cascabel, espada, basto, mata de espadas,
  mata de oros) if the signaller still holds that card unplayed; ``tres`` / ``dos`` if he holds
  an unplayed three / two; ``flor`` if his hand has flor; ``ciega`` if he holds none of the cards
  the other señas name (those seven, the treses and the doses). CI: Wilson.

    truque evaluate --a random --b random --team-size 3 --juegos 2000
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import Field

from agents.base import act_batch
from train.config import match_settings
from train.eval.stats import Z95, bootstrap_ratio_ci, ratio_ci, wilson  # noqa: F401  (re-exported)
from train.eval.styles import STYLES
from truque_env.engine import header as H
from truque_env.engine.rng import mix64_array
from truque_env.io import check_new_output, write_json_atomic
from truque_env.policy import check_team_size
from truque_env.progress import report_console
from truque_env.settings import MatchSettings
from truque_env.traditions import get as get_tradition
from truque_env.vector import VectorEnv

SIDES = ("A", "B")
UNITS = ("juego", "partida")


# --------------------------------------------------------------------------------------------
# the vector env with per-table re-seeding


def pair_seeds(seed: int, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(table seed, deal seed, bots' seed) of each duplicate pair, from the match seed (63-bit,
    non-negative)."""
    out = np.empty((len(pairs), 3), dtype=np.uint64)
    for k, p in enumerate(pairs):
        out[k] = np.random.SeedSequence([int(seed), int(p)]).generate_state(3, dtype=np.uint64)
    out >>= np.uint64(1)
    out = out.astype(np.int64)
    return out[:, 0], out[:, 1], out[:, 2]


def decision_keys(stream_seeds: np.ndarray, seats: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The ``counts``-th key of the random stream of each (table, seat): a hash of the table's
    stream seed, the seat and the count (docs/engine.md, "Random streams of the bots")."""
    c = counts.astype(np.uint64) * np.uint64(H.MAX_PLAYERS) + seats.astype(np.uint64)
    return mix64_array(stream_seeds.astype(np.uint64) ^ mix64_array(c))


# --------------------------------------------------------------------------------------------
# statistics


class MatchStats:
    """Numpy accumulators of a duplicate match (per pair, per side), the same for every tradition;
    ``style`` holds the tradition's bluff and seña counts (train/eval/styles/), or is None."""

    def __init__(self, n_pairs: int, num_tables: int, weak_pares: int, spec=None):
        spec = spec or get_tradition("moteno")
        self.L, self.sources = spec.layout, spec.sources
        self.pair_eps = np.zeros(n_pairs, dtype=np.int64)  # episodes finished (2 per pair)
        self.pair_eps_a = np.zeros(n_pairs, dtype=np.int64)  # ... won by side A
        self.pair_juegos = np.zeros(n_pairs, dtype=np.int64)
        self.pair_juegos_a = np.zeros(n_pairs, dtype=np.int64)
        self.pair_manos = np.zeros(n_pairs, dtype=np.int64)
        self.pair_chinas = np.zeros((n_pairs, 2, 3), dtype=np.int64)  # [pair, side, source]
        style = STYLES.get(spec.name)
        self.style = style.StyleStats(num_tables, weak_pares) if style else None

    def clear_tables(self, idx) -> None:
        if self.style is not None:
            self.style.clear_tables(idx)

    def observe(self, s0, actions, seats, s1, active, side_of_team, pair_of_table, mask) -> None:
        """One decision on every table: ``s0`` before, ``s1`` after (not yet re-dealt); ``mask``
        the legal actions of the decision."""
        L = self.L
        t = np.flatnonzero(active)
        if t.size == 0:
            return
        S0, S1, a, p = s0[t].astype(np.int64), s1[t].astype(np.int64), actions[t], seats[t]
        side = side_of_team[t, p % 2]
        r = np.flatnonzero(S1[:, L.PHASE] == L.PH_DONE)  # the mano is over
        if self.style is not None:
            self.style.observe(t, S0, S1, a, p, side, mask[t], r)
        if r.size:
            tr = t[r]
            pair = pair_of_table[tr]
            chinas = S1[r, L.CHINAS : L.CHINAS + 6].reshape(-1, 2, 3)  # [row, team, source]
            side_t0 = side_of_team[tr, 0]
            by_side = np.where(side_t0[:, None, None] == 0, chinas, chinas[:, ::-1])
            np.add.at(self.pair_chinas, pair, by_side)
            np.add.at(self.pair_manos, pair, 1)
            # juegos won in this mano
            w = S1[r, L.LAST_JUEGO_WINNER]
            jr = np.flatnonzero(w >= 0)
            if jr.size:
                win_side = side_of_team[tr[jr], w[jr]]
                np.add.at(self.pair_juegos, pair[jr], 1)
                np.add.at(self.pair_juegos_a, pair[jr], (win_side == 0).astype(np.int64))

    def episode_ends(self, tables, winner_team, side_of_team, pair_of_table) -> None:
        pair = pair_of_table[tables]
        np.add.at(self.pair_eps, pair, 1)
        np.add.at(self.pair_eps_a, pair, (side_of_team[tables, winner_team] == 0).astype(np.int64))


# --------------------------------------------------------------------------------------------
# the match


def match_settings_of(settings: MatchSettings | None, game: dict) -> MatchSettings:
    """``settings``, or the match settings given as keywords (``team_size=``, ``target=``,
    ``juegos_per_partida=``, ``senas_per_mano=``, ``p_intercept=``, ``tradition=``); not both."""
    game = dict(game)
    if "juegos_per_partida" in game:
        game["juegos"] = game.pop("juegos_per_partida")
    if settings is not None:
        if game:
            raise ValueError(f"give the match settings once: settings= or {', '.join(sorted(game))}")
        return settings
    return MatchSettings(**game)


def _seat_policies(side, team_size: int) -> list:
    """A side is one policy for the whole team or a list, one per team member (seat ``team + 2j``)."""
    if isinstance(side, (list, tuple)):
        if len(side) != team_size:
            raise ValueError(f"a side given per seat needs {team_size} policies, got {len(side)}")
        return list(side)
    return [side] * team_size


class DuplicateMatch:
    """Side A against side B over ``episodes`` episodes (juegos or partidas) in duplicate pairs.

    ``a`` and ``b``: a policy, or a list of ``team_size`` policies (one per team member). Use
    ``run()`` for the whole match, or ``step()`` to advance all tables by one decision.
    """

    def __init__(self, a, b, *, settings: MatchSettings | None = None, unit: str = "juego", episodes: int = 2000,
                 num_envs: int = 256, seed: int = 0, weak_pares: int = 20, **game):
        settings = match_settings_of(settings, game)
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
        if episodes < 1:
            raise ValueError("episodes must be positive")
        if num_envs < 2 or num_envs % 2:
            raise ValueError(f"num_envs must be an even number of tables (duplicate twins), got {num_envs}")
        self.settings, self.unit, self.seed = settings, unit, seed
        self.spec = settings.spec
        team_size = settings.team_size
        self.n_pairs = -(-episodes // 2)
        tables = 2 * max(1, min(self.n_pairs, num_envs // 2))
        self.env = VectorEnv(tables, settings=settings, episode=unit, seed=seed)
        seats_of = (_seat_policies(a, team_size), _seat_policies(b, team_size))
        for pol in (*seats_of[0], *seats_of[1]):  # a bot that cannot play this size fails now, not mid-match
            check_team_size(pol, team_size)
        self.policies: list = []
        index: dict[int, int] = {}
        for pols in seats_of:
            for pol in pols:
                if id(pol) not in index:
                    index[id(pol)] = len(self.policies)
                    self.policies.append(pol)
        # side_of_team[table, team]: 0 (A) or 1 (B); twins swap teams
        parity = np.arange(tables) % 2
        self.side_of_team = np.stack([parity, 1 - parity], axis=1).astype(np.int64)
        self.ctrl = np.full((tables, H.MAX_PLAYERS), -1, dtype=np.int64)  # policy index per seat
        for seat in range(2 * team_size):
            for i in range(tables):
                side = self.side_of_team[i, seat % 2]
                self.ctrl[i, seat] = index[id(seats_of[side][seat // 2])]
        self.stats = MatchStats(self.n_pairs, tables, weak_pares, self.spec)
        self.pair_of_table = np.full(tables, -1, dtype=np.int64)
        self.active = np.zeros(tables, dtype=np.bool_)
        first = np.arange(tables // 2)
        ts, ds, bs = pair_seeds(seed, first)
        self.env.reset(table_seeds=np.repeat(ts, 2), deal_seeds=np.repeat(ds, 2))
        self.pair_of_table[:] = np.repeat(first, 2)
        # the bots' random streams: one per table (twins apart) and seat, counted per seat
        self.stream_seed = np.zeros(tables, dtype=np.uint64)
        self.decisions = np.zeros((tables, H.MAX_PLAYERS), dtype=np.int64)
        self._set_streams(np.arange(tables), np.repeat(bs, 2))
        self.active[:] = True
        self.next_pair = tables // 2
        self.pairs_done = 0
        self.steps = 0

    @property
    def finished(self) -> bool:
        return self.pairs_done >= self.n_pairs

    def step(self) -> None:
        env = self.env
        obs, mask, seat = env.obs, env.mask, env.seat.copy()
        actions = mask.argmax(axis=1).astype(np.int64)  # filler for tables waiting for their twin
        tables = np.arange(env.num_envs)
        pol = np.where(self.active, self.ctrl[tables, seat], -1)
        keys = decision_keys(self.stream_seed, seat, self.decisions[tables, seat])
        self.decisions[tables, seat] += 1
        for k, policy in enumerate(self.policies):
            rows = np.flatnonzero(pol == k)
            if rows.size:
                actions[rows] = act_batch(policy, obs[rows], mask[rows], keys[rows])
        mask = mask.copy()  # the env overwrites it with the next decision's
        s0 = env.states.copy()
        env.step(actions)  # raises on an illegal action, naming it
        s1 = s0.copy()
        self.spec.batch.step_unchecked_tables(s1, actions)
        self.stats.observe(s0, actions, seat, s1, self.active, self.side_of_team, self.pair_of_table, mask)
        ended = np.flatnonzero(env.terminated & self.active)
        if ended.size:
            winner = s1[ended, H.LAST_JUEGO_WINNER].astype(np.int64)
            self.stats.episode_ends(ended, winner, self.side_of_team, self.pair_of_table)
            self.active[ended] = False
            self._restart_finished_pairs(np.unique(ended // 2))
        self.steps += 1

    def _restart_finished_pairs(self, slots) -> None:
        slots = slots[~self.active[2 * slots] & ~self.active[2 * slots + 1]]
        if slots.size == 0:
            return
        self.pairs_done += slots.size
        slots = slots[: max(0, self.n_pairs - self.next_pair)]
        if slots.size == 0:
            return
        pairs = self.next_pair + np.arange(slots.size)
        self.next_pair += slots.size
        ts, ds, bs = pair_seeds(self.seed, pairs)
        tables = np.stack([2 * slots, 2 * slots + 1], axis=1).ravel()
        self.env.reset_tables(tables, np.repeat(ts, 2), np.repeat(ds, 2))
        self._set_streams(tables, np.repeat(bs, 2))
        self.stats.clear_tables(tables)
        self.pair_of_table[tables] = np.repeat(pairs, 2)
        self.active[tables] = True

    def _set_streams(self, tables, pair_bot_seeds) -> None:
        twin = (tables % 2).astype(np.uint64)  # the twins' streams differ
        self.stream_seed[tables] = mix64_array(pair_bot_seeds.astype(np.uint64) * np.uint64(2) + twin)
        self.decisions[tables] = 0

    def run(self, progress: bool = False) -> MatchStats:
        if not progress:
            while not self.finished:
                self.step()
            return self.stats
        from truque_env.progress import Progress

        with Progress(f"duplicate pairs of {self.unit}s", total=self.n_pairs, transient=True) as bar:
            while not self.finished:
                self.step()
                bar.update(self.pairs_done)
        return self.stats


# --------------------------------------------------------------------------------------------
# the report


def _rate(k, n) -> dict:
    k, n = int(k), int(n)
    return {"count": k, "of": n, "rate": (k / n) if n else None, "wilson95": wilson(k, n)}


def _win_section(wins_a: np.ndarray, total: np.ndarray, rng, reps: int, paired_exact: bool) -> dict:
    n, k = int(total.sum()), int(wins_a.sum())
    mean, normal = ratio_ci(wins_a, total)
    out = {
        "episodes": n,
        "wins": {"A": k, "B": n - k},
        "win_rate_A": (k / n) if n else None,
        "wilson95": wilson(k, n),
        "paired": {"pairs": int((total > 0).sum()), "mean": mean if n else None, "normal95": normal,
                   "bootstrap95": bootstrap_ratio_ci(wins_a, total, rng, reps)},
    }
    if paired_exact:
        out["pair_outcomes"] = {"A won both": int((wins_a == 2).sum()), "split": int((wins_a == 1).sum()),
                                "B won both": int((wins_a == 0).sum())}
    return out


DEFINITIONS = {
    "win_rate": "share of episodes won by side A. wilson95: Wilson score interval, episodes treated as "
                "independent. paired: each duplicate pair is one unit (A's share of the pair's episodes: "
                "0, 0.5, 1 for juegos); normal95 is the ratio estimator's normal CI over pairs, "
                "bootstrap95 a percentile bootstrap over pairs",
    "chinas_per_mano": "points (chinas in Moteño) won in the mano by source (before the cut at the target), "
                       "per mano; CI: normal, ratio estimator clustered by duplicate pair",
}


@dataclass
class Report:
    """What a duplicate match measured; ``to_dict()`` is the JSON written by ``save``."""

    names: dict
    config: dict
    juegos: dict
    partidas: dict | None
    manos: int
    chinas_per_mano: dict
    bluffs: dict | None
    """the tradition's style sections (train/eval/styles/); None for a tradition without one"""
    senas: dict | None
    definitions: dict = field(default_factory=lambda: dict(DEFINITIONS))
    answers: dict | None = None
    """the answers to the rivals' bets by the answerer's hand, for a tradition whose style module
    counts them (both traditions'; reports written before Moteño's counted them have none)"""

    def to_dict(self) -> dict:
        return _jsonable(asdict(self))

    def save(self, path) -> None:
        write_json_atomic(path, self.to_dict())

    def print(self, console=None) -> None:
        print_report(self, console)


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return None if not math.isfinite(float(x)) else float(x)
    if isinstance(x, Path):
        return str(x)
    return x


def build_report(stats: MatchStats, names: dict, config: dict, unit: str, seed: int = 0,
                 bootstrap: int = 2000) -> Report:
    rng = np.random.default_rng([int(seed), 0xB007])
    if unit == "juego":
        juegos = _win_section(stats.pair_eps_a, stats.pair_eps, rng, bootstrap, paired_exact=True)
        partidas = None
    else:
        juegos = _win_section(stats.pair_juegos_a, stats.pair_juegos, rng, bootstrap, paired_exact=False)
        partidas = _win_section(stats.pair_eps_a, stats.pair_eps, rng, bootstrap, paired_exact=True)
    manos = int(stats.pair_manos.sum())
    chinas: dict = {}
    for si, side in enumerate(SIDES):
        chinas[side] = {}
        for src, name in enumerate(stats.sources):
            mean, ci = ratio_ci(stats.pair_chinas[:, si, src], stats.pair_manos)
            chinas[side][name] = {"mean": mean, "ci95": ci}
        mean, ci = ratio_ci(stats.pair_chinas[:, si].sum(axis=1), stats.pair_manos)
        chinas[side]["total"] = {"mean": mean, "ci95": ci}
    net = stats.pair_chinas[:, 0].sum(axis=1) - stats.pair_chinas[:, 1].sum(axis=1)
    mean, ci = ratio_ci(net, stats.pair_manos)
    chinas["net_A"] = {"mean": mean, "ci95": ci}
    defs = dict(DEFINITIONS)
    bluffs = senas = answers = None
    if stats.style is not None:
        style = stats.style.report(manos, _rate)
        bluffs, senas, answers = style["bluffs"], style["senas"], style.get("answers")
        defs.update(STYLES[config.get("tradition", "moteno")].DEFINITIONS)
        defs["weak_pares"] = defs["weak_pares"].replace("weak_pares", f"{config.get('weak_pares', 20)}", 1)
    return Report(names=names, config=config, juegos=juegos, partidas=partidas, manos=manos,
                  chinas_per_mano=chinas, bluffs=bluffs, senas=senas, definitions=defs, answers=answers)


def play_match(a, b, *, names: dict | None = None, settings: MatchSettings | None = None, unit: str = "juego",
               episodes: int = 2000, num_envs: int = 256, seed: int = 0, weak_pares: int = 20,
               bootstrap: int = 2000, progress: bool = False, **game) -> Report:
    """Play a duplicate match of ``a`` (side A) against ``b`` (side B) and return its report.

    The game is ``settings`` (a ``truque_env.settings.MatchSettings``) or its fields as keywords."""
    settings = match_settings_of(settings, game)
    config = {"tradition": settings.tradition, "team_size": settings.team_size, "unit": unit,
              "episodes": 2 * -(-episodes // 2), "target": settings.target,
              "juegos_per_partida": settings.juegos, "senas_per_mano": settings.senas_per_mano,
              "p_intercept": settings.p_intercept, "num_envs": num_envs, "seed": seed, "weak_pares": weak_pares,
              "bootstrap": bootstrap}
    match = DuplicateMatch(a, b, settings=settings, unit=unit, episodes=episodes, num_envs=num_envs, seed=seed,
                           weak_pares=weak_pares)
    stats = match.run(progress=progress)
    names = names or {"A": _name_of(a), "B": _name_of(b)}
    return build_report(stats, names, config, unit, seed=seed, bootstrap=bootstrap)


def _name_of(side) -> str:
    if isinstance(side, (list, tuple)):
        return ",".join(_name_of(p) for p in side)
    return str(getattr(side, "name", type(side).__name__))


# --------------------------------------------------------------------------------------------
# console


def _fmt_ci(ci, pct: bool = False) -> str:
    if ci is None:
        return "–"
    if pct:
        return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _fmt_rate(r: dict) -> str:
    if not r["of"]:
        return "–"
    lo, hi = r["wilson95"]
    return f"{100 * r['rate']:.1f}% [{100 * lo:.1f}–{100 * hi:.1f}] {r['count']}/{r['of']}"


def print_report(report: Report, console=None) -> None:
    from rich.table import Table

    console = console or report_console()
    d = report.to_dict() if isinstance(report, Report) else report
    names = d["names"]
    cfg = d["config"]
    console.print(f"[bold]A = {names['A']}[/]  vs  [bold]B = {names['B']}[/]   "
                  f"{cfg['team_size']} contra {cfg['team_size']}, {cfg['episodes']} {cfg['unit']}s in duplicate "
                  f"pairs, {d['manos']} manos, seed {cfg['seed']}")
    t = Table(title="win rate of side A (95% CI)")
    for col in ("unit", "episodes", "A wins", "win rate", "Wilson", "paired normal", "paired bootstrap"):
        t.add_column(col)
    for unit in ("juegos", "partidas"):
        w = d[unit]
        if w is None:
            continue
        rate = w["win_rate_A"]
        t.add_row(unit, str(w["episodes"]), str(w["wins"]["A"]), "–" if rate is None else f"{100 * rate:.1f}%",
                  _fmt_ci(w["wilson95"], True), _fmt_ci(w["paired"]["normal95"], True),
                  _fmt_ci(w["paired"]["bootstrap95"], True))
    console.print(t)
    spec = get_tradition(cfg.get("tradition", "moteno"))
    t = Table(title=f"{spec.points} won per mano (95% CI, clustered by pair)")
    t.add_column("source")
    for side in SIDES:
        t.add_column(f"{side} ({names[side]})")
    sources = spec.sources
    for src in (*sources, "total"):
        t.add_row(src, *(f"{d['chinas_per_mano'][s][src]['mean']:.3f} "
                         f"{_fmt_ci(d['chinas_per_mano'][s][src]['ci95'])}" for s in SIDES))
    net = d["chinas_per_mano"]["net_A"]
    t.add_row("net A − B", f"{net['mean']:+.3f} {_fmt_ci(net['ci95'])}", "")
    console.print(t)
    style = STYLES.get(cfg.get("tradition", "moteno"))
    if style is not None and d.get("bluffs") is not None:
        style.print_sections(d, console, _fmt_rate)


@dataclass
class EvaluateConfig:
    """A duplicate match between two policies: win rates, chinas, bluffs and señas, with CIs."""

    a: str = "random"
    """side A: a policy name (agents.registry) or checkpoint path; comma-separated for one per seat"""
    b: str = "random"
    """side B, as side A"""
    tradition: str = "moteno"
    """the game (truque_env.traditions())"""
    team_size: int = 3
    """players per team (1..4)"""
    unit: Literal["juego", "partida"] = "juego"
    """the episode: juegos or partidas"""
    juegos: Annotated[int, Field(ge=1)] = 2000
    """juegos to play when the unit is juego (rounded up to an even number: duplicate pairs)"""
    partidas: Annotated[int, Field(ge=1)] = 200
    """partidas to play when the unit is partida (rounded up to an even number)"""
    target: int | None = None
    """points to win a juego (default: the tradition's; Moteño 30 chinas)"""
    juegos_per_partida: Annotated[int, Field(ge=1)] = 3
    """a partida is won by the first to win (juegos_per_partida + 1) // 2 juegos"""
    senas_per_mano: Annotated[int, Field(ge=0)] = 1
    p_intercept: Annotated[float, Field(ge=0, le=1)] = 0.1
    option: tuple[str, ...] = ()
    """the tradition's rule options as NAME=VALUE (e.g. flor=false todo_dicho=false; docs/rules/)"""
    num_envs: Annotated[int, Field(ge=2, multiple_of=2)] = 256
    """tables played at once: an even number, the duplicate twins (how many changes the speed, not the outcome)"""
    seed: Annotated[int, Field(ge=0)] = 0
    """seeds the deals, the first dealers and the policies"""
    weak_pares: Annotated[int, Field(ge=0)] = 20
    """a pares bet by a hand worth less than this is a bluff (truco argentino: an envido bet by a hand whose
    envido is less than this)"""
    bootstrap: Annotated[int, Field(ge=0)] = 2000
    """bootstrap resamples for the paired CI"""
    out: Path = Path("runs/evaluate/report.json")
    """the report as JSON (written atomically)"""
    overwrite: bool = False
    """replace a report already at out (without it, that is refused)"""
    progress: bool = True


def load_side(spec: str, team_size: int, seed: int, side: int, tradition: str = "moteno"):
    """A side from the console: one name, or one name per seat (comma-separated)."""
    from agents.registry import load_policy

    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise ValueError(f"empty policy spec {spec!r}")
    if len(names) == 1:
        return load_policy(names[0], seed=_policy_seed(seed, side, 0), tradition=tradition)
    if len(names) != team_size:
        raise ValueError(f"{spec!r}: give one policy, or one per seat ({team_size})")
    loaded: dict[str, object] = {}
    for j, n in enumerate(names):
        if n not in loaded:
            loaded[n] = load_policy(n, seed=_policy_seed(seed, side, j), tradition=tradition)
    return [loaded[n] for n in names]


def _policy_seed(seed: int, side: int, j: int) -> int:
    return int(np.random.SeedSequence([int(seed), 0x9011C1, side, j]).generate_state(1)[0])


def run(cfg: EvaluateConfig) -> Report:
    settings = match_settings(cfg)  # a bad setting fails before any bot loads or any juego is played
    check_new_output(cfg.out, cfg.overwrite)  # so does an --out that could not be written at the end
    a = load_side(cfg.a, cfg.team_size, cfg.seed, 0, cfg.tradition)
    b = load_side(cfg.b, cfg.team_size, cfg.seed, 1, cfg.tradition)
    for spec, side in ((cfg.a, a), (cfg.b, b)):
        for name, pol in zip([n.strip() for n in spec.split(",")] * cfg.team_size, _seat_policies(side, cfg.team_size),
                             strict=False):
            check_team_size(pol, cfg.team_size, name)
    episodes = cfg.juegos if cfg.unit == "juego" else cfg.partidas
    report = play_match(a, b, names={"A": cfg.a, "B": cfg.b}, settings=settings, unit=cfg.unit,
                        episodes=episodes, num_envs=cfg.num_envs, seed=cfg.seed, weak_pares=cfg.weak_pares,
                        bootstrap=cfg.bootstrap, progress=cfg.progress)
    report.print()
    report.save(cfg.out)
    from rich import print as rprint

    rprint(f"report written to {cfg.out}")
    return report
