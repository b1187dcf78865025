"""Fair evaluation: duplicate matches, the report's statistics, the league, the registry."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from agents.base import RandomPolicy
from agents.registry import known_policies, load_policy
from train.eval.duplicate import (
    Z95,
    DuplicateMatch,
    bootstrap_ratio_ci,
    play_match,
    ratio_ci,
    wilson,
)
from train.eval.league import bradley_terry, run_league
from train.eval.styles.moteno import PARES_BINS, PARES_EDGES
from truque_env.cards import card_id
from truque_env.traditions import get as get_tradition
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import TRUQUE_POWER, pares_value

PERRO = card_id(11, "B")
SENA_PERRO = A.SENA_BASE + A.SENA_NAMES.index("perro")
NON_BETS = np.zeros(A.NUM_ACTIONS, dtype=bool)
NON_BETS[[A.PASO, A.QUIERO, A.NO_QUIERO, A.LUEGO, A.FLOR, A.CANTO_PARES, A.BARAJA, A.NO_VALE,
          A.CON_FLOR_QUIERO, A.CON_FLOR_NO_QUIERO, A.DE_LA_MIA]] = True
NON_BETS[A.PLAY_BASE : A.PARES_BASE] = True


class Refuser:
    """``no quiero`` whenever legal, else the first legal action."""

    name = "refuser"

    def act_batch(self, obs, masks):
        return np.where(masks[:, A.NO_QUIERO] == 1, A.NO_QUIERO, masks.argmax(axis=1))


class FirstLegal:
    name = "first"

    def act_batch(self, obs, masks):
        return masks.argmax(axis=1)


class _Scripted:
    """Random among the legal non-bets (no bets, no señas), except what ``choose`` returns (>= 0)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, o, m):
        a = self.choose(o, m)
        if a >= 0:
            return a
        legal = np.flatnonzero(m & NON_BETS)
        if legal.size == 0:
            legal = np.flatnonzero(m)
        return int(legal[self.rng.integers(legal.size)])


class PerroSignaller(_Scripted):
    """Makes the seña "perro" whenever it may; counts how often it really held el perro."""

    def __init__(self, seed):
        super().__init__(seed)
        self.made = self.holding = 0

    def choose(self, o, m):
        if m[SENA_PERRO]:
            self.made += 1
            self.holding += int(o[O.O_HAND + PERRO])
            return SENA_PERRO
        return -1


class Bluffer(_Scripted):
    """Opens the envite (1 par) and says truco whenever it may, keeping its own tally of weak ones."""

    def __init__(self, seed):
        super().__init__(seed)
        self.pares = self.pares_weak = self.truco = self.truco_weak = 0

    def choose(self, o, m):
        hand = np.flatnonzero(o[O.O_HAND : O.O_HAND + 40])
        if m[A.PARES_BASE] and hand.size == 3:  # the cards are seen: an envite in the first baza
            self.pares += 1
            self.pares_weak += int(pares_value([int(c) for c in hand]) < 20)
            return A.PARES_BASE
        if m[A.TRUCO] and hand.size > 0:
            won = o[O.O_BAZA_RESULT : O.O_BAZA_RESULT + 9].reshape(3, 3)[:, 0].any()
            strong = (TRUQUE_POWER[hand] >= TRUQUE_POWER[card_id(3, "O")]).any()
            self.truco += 1
            self.truco_weak += int(not won and not strong)
            return A.TRUCO
        return -1


def test_twins_get_the_same_deals_and_swap_teams():
    m = DuplicateMatch(RandomPolicy(1), RandomPolicy(2), team_size=2, episodes=48, num_envs=8, seed=5, target=30)
    n = 4
    # A's policy sits where B's sits on the twin
    assert (m.ctrl[0::2, :n] == m.ctrl[1::2, :n][:, [1, 0, 3, 2]]).all()
    assert set(m.ctrl[0, :n : 2]) != set(m.ctrl[1, :n : 2])
    env_step = m.env.step
    checked_steps = []

    def checked(actions):  # the evaluator's own after-state is the env's, until the mano is re-dealt
        s0 = m.env.states.copy()
        out = env_step(actions)
        s1 = s0.copy()
        get_tradition("moteno").batch.step_unchecked_tables(s1, actions)
        same = s1[:, L.PHASE] != L.PH_DONE
        assert (s1[same] == m.env.states[same]).all()
        done = ~same
        assert (out[3][done, 0] == s1[done, L.SCORED] - s1[done, L.SCORED + 1]).all()
        checked_steps.append(int(done.sum()))
        return out

    m.env.step = checked
    deals: dict = {}
    compared = 0
    while not m.finished:
        st = m.env.states
        for i in np.flatnonzero(m.active):
            key = (int(m.pair_of_table[i]), int(st[i, L.MANO_COUNT]))
            hands = tuple(st[i, L.HAND : L.HAND + 3 * n]) + (int(st[i, L.DEALER]),)
            mine = deals.setdefault(key, {})
            if i not in mine:
                mine[i] = hands
                if len(mine) == 2:
                    a, b = mine.values()
                    assert a == b, f"pair {key[0]}, mano {key[1]}: twins dealt differently"
                    compared += 1
        m.step()
    assert compared >= 25
    assert sum(checked_steps) > 0
    assert m.stats.pair_eps.tolist() == [2] * 24


def _outcome(report) -> dict:
    d = report.to_dict()
    d["config"].pop("num_envs")
    return d


@pytest.mark.parametrize(("a", "b", "team_size", "juegos"), [
    ("random", "random", 3, 120),
    ("heuristic", "random", 2, 24),
    ("ppo", "random", 3, 120),
    ("cfr", "random", 1, 120),
])
def test_a_match_does_not_depend_on_num_envs(a, b, team_size, juegos):
    """Issue 15.7: the bots draw from random streams per table and seat keyed like the deals, so
    any number of tables plays the same juegos (the report is identical but for num_envs)."""
    reports = [_outcome(play_match(load_policy(a, seed=1), load_policy(b, seed=2), team_size=team_size,
                                   episodes=juegos, num_envs=n, seed=11, bootstrap=50)) for n in (6, 32)]
    assert reports[0] == reports[1]
    assert reports[0]["juegos"]["episodes"] == juegos
    other = _outcome(play_match(load_policy(a, seed=1), load_policy(b, seed=2), team_size=team_size,
                                episodes=juegos, num_envs=6, seed=12, bootstrap=50))
    assert other["manos"] != reports[0]["manos"] or other["juegos"] != reports[0]["juegos"]


def test_num_envs_must_be_even():
    with pytest.raises(ValueError, match="even number of tables"):
        DuplicateMatch(RandomPolicy(1), RandomPolicy(2), team_size=1, episodes=10, num_envs=3)


def test_random_vs_random_report(tmp_path):
    rep = play_match(RandomPolicy(11), RandomPolicy(12), team_size=3, episodes=400, num_envs=256, seed=1,
                     bootstrap=500)
    j = rep.juegos
    assert j["episodes"] == 400 and sum(j["wins"].values()) == 400
    for ci in (j["wilson95"], j["paired"]["normal95"], j["paired"]["bootstrap95"]):
        assert ci[0] < 0.5 < ci[1]
    assert sum(j["pair_outcomes"].values()) == 200
    assert rep.manos >= 400
    for side in ("A", "B"):
        for src in ("pares", "flores", "truque"):
            c = rep.chinas_per_mano[side][src]
            assert c["mean"] >= 0 and c["ci95"][0] <= c["mean"] <= c["ci95"][1]
    net = rep.chinas_per_mano["net_A"]["ci95"]
    assert net[0] < 0 < net[1]
    path = tmp_path / "out" / "report.json"
    rep.save(path)
    assert [p.name for p in path.parent.iterdir()] == ["report.json"]  # no temporary file left
    back = json.loads(path.read_text())
    assert back == rep.to_dict()
    assert back["juegos"]["wins"]["A"] == j["wins"]["A"]
    assert "Wilson" in back["definitions"]["win_rate"]


def test_a_refuser_loses_clearly_to_random():
    rep = play_match(Refuser(), RandomPolicy(3), team_size=2, episodes=160, num_envs=160, seed=2, target=20,
                     bootstrap=500)
    j = rep.juegos
    assert j["wilson95"][1] < 0.5 and j["paired"]["normal95"][1] < 0.5 and j["paired"]["bootstrap95"][1] < 0.5
    assert rep.chinas_per_mano["net_A"]["ci95"][1] < 0


def test_bluff_statistics_match_the_bluffers_own_tally():
    bluffer = Bluffer(4)
    rep = play_match(bluffer, Refuser(), team_size=2, episodes=120, num_envs=120, seed=3, target=20,
                     bootstrap=0)
    p, t = rep.bluffs["A"]["pares"], rep.bluffs["A"]["truco"]
    assert bluffer.pares > 20 and bluffer.truco > 20
    assert p["bets_with_cards"] == bluffer.pares and p["weak"]["count"] == bluffer.pares_weak
    assert t["bets_with_cards"] == bluffer.truco and t["weak"]["count"] == bluffer.truco_weak
    assert 0 < bluffer.pares_weak < bluffer.pares and 0 < bluffer.truco_weak < bluffer.truco
    assert p["blind_bets"] == 0 and t["blind_bets"] == 0
    assert p["bet_when_weak"]["rate"] == 1.0 and p["bet_when_strong"]["rate"] == 1.0  # at every chance
    assert 0 < t["bet_when_weak"]["rate"] <= 1.0
    # the refuser refuses every bet: each one is won without a showdown
    assert p["weak_refused"]["count"] == bluffer.pares_weak
    assert p["strong_refused"]["count"] == bluffer.pares - bluffer.pares_weak
    assert t["weak_refused"]["count"] + t["strong_refused"]["count"] == bluffer.truco
    assert rep.bluffs["B"]["pares"]["bets_with_cards"] == 0  # "no quiero" and first-legal never envida


class Envidador(_Scripted):
    """Opens the envite with ``word`` (envío 1 par or envío la falta) whenever it may in the first
    baza with its three cards, and says truco whenever it may; counts its envites and its trucos."""

    def __init__(self, seed, word):
        super().__init__(seed)
        self.word = word
        self.envites = self.trucos = 0

    def choose(self, o, m):
        # in the play (la falta is also a word of the envite de flores, 11.8)
        if m[self.word] and o[O.O_PHASE + L.PH_PLAY] and o[O.O_HAND : O.O_HAND + 40].sum() == 3:
            self.envites += 1
            return self.word
        if m[A.TRUCO] and o[O.O_HAND : O.O_HAND + 40].any():
            self.trucos += 1
            return A.TRUCO
        return -1


class Answerer(_Scripted):
    """Answers every envite de pares and every truco with ``word`` (quiero or no quiero); tallies its
    envite answers by its valor de pares (``PARES_BINS``) and its truco answers."""

    def __init__(self, seed, word):
        super().__init__(seed)
        self.word = word
        self.pares_bins = np.zeros(len(PARES_BINS), dtype=np.int64)
        self.truco = 0

    def choose(self, o, m):
        if not m[self.word]:
            return -1
        if o[O.P_EX_KIND + L.EX_PARES]:
            # the dealt hand: the cards held and those this player (relative seat 0) played
            dealt = [*np.flatnonzero(o[O.O_HAND : O.O_HAND + 40]), *np.flatnonzero(o[O.O_PLAYED_BY : O.O_PLAYED_BY + 40])]
            self.pares_bins[np.digitize(pares_value([int(c) for c in dealt]), PARES_EDGES)] += 1
        elif o[O.P_EX_KIND + L.EX_TRUCO]:
            self.truco += 1
        return self.word


@pytest.mark.parametrize("bet", [A.PARES_BASE, A.FALTA], ids=["un par", "la falta"])
@pytest.mark.parametrize("word", [A.QUIERO, A.NO_QUIERO])
def test_answers_to_envites_and_trucos_match_the_answerers_own_tally(word, bet):
    better, answerer = Envidador(1, bet), Answerer(2, word)
    rep = play_match(better, answerer, team_size=1, episodes=60, num_envs=60, seed=3, bootstrap=0)
    assert better.envites > 40
    ans = rep.answers["B"]["pares"]
    # every envite of the better is answered once, in the bin of the answerer's valor de pares
    assert [r["bin"] for r in ans] == list(PARES_BINS)
    assert [r["answered"] for r in ans] == answerer.pares_bins.tolist()
    assert sum(answerer.pares_bins) == better.envites
    assert sum(1 for r in ans if r["answered"]) >= 3  # hands of several strengths were dealt
    assert all(r["refused"]["rate"] == (1.0 if word == A.NO_QUIERO else 0.0) for r in ans if r["answered"])
    assert all(r["raised"]["count"] == 0 for r in ans)
    # of them, the answers to la falta (6.16): all of them, or none
    assert [r["falta"]["answered"] for r in ans] == (answerer.pares_bins.tolist() if bet == A.FALTA
                                                     else [0] * len(PARES_BINS))
    truco = rep.answers["B"]["truco"]
    assert [r["bin"] for r in truco] == ["weak", "strong"]
    assert sum(r["answered"] for r in truco) == answerer.truco == better.trucos > 0
    assert all(r["refused"]["rate"] == (1.0 if word == A.NO_QUIERO else 0.0) for r in truco if r["answered"])
    assert all(r["answered"] == 0 for r in rep.answers["A"]["pares"])  # nobody bet against the better


def test_sena_statistics_on_a_signaller():
    sig = PerroSignaller(6)
    rep = play_match(sig, FirstLegal(), team_size=2, episodes=80, num_envs=80, seed=4, target=20, bootstrap=0)
    s = rep.senas["A"]
    assert s["perro"]["count"] == sig.made > 50
    assert s["perro"]["honest"]["count"] == sig.holding  # honest exactly when holding el perro
    assert 0 < sig.holding < sig.made
    lo, hi = s["perro"]["honest"]["wilson95"]
    assert lo < 3 / 40 < hi  # three cards of forty
    assert all(s[k]["count"] == 0 for k in A.SENA_NAMES if k != "perro")
    assert rep.senas["B"]["all"]["count"] == 0


def test_league_writes_matrix_and_heatmap(tmp_path):
    pols = {"random": RandomPolicy, "refuser": lambda seed: Refuser(), "first": lambda seed: FirstLegal()}
    res = run_league(pols, team_size=1, episodes=60, num_envs=60, target=15, seed=7, bootstrap=100,
                     out_dir=tmp_path)
    data = json.loads((tmp_path / "league.json").read_text())
    rate = np.array([[np.nan if v is None else v for v in row] for row in data["win_rate"]])
    assert rate.shape == (3, 3) and np.isnan(np.diag(rate)).all()
    off = ~np.eye(3, dtype=bool)
    assert np.allclose((rate + rate.T)[off], 1.0)
    assert data["names"] == ["random", "refuser", "first"] and len(data["matches"]) == 3
    assert set(data["ratings"]) == set(pols) and abs(sum(r["elo"] for r in data["ratings"].values())) < 1e-6
    assert all(r["elo_ci95"][0] <= r["elo"] <= r["elo_ci95"][1] for r in data["ratings"].values())
    assert res.ratings["random"]["elo"] > res.ratings["refuser"]["elo"]
    assert res.ratings["random"]["openskill_mu"] > res.ratings["refuser"]["openskill_mu"]
    png = (tmp_path / "league.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000


def test_bradley_terry():
    p = bradley_terry(np.array([[0, 30, 40], [10, 0, 25], [5, 15, 0]]))
    assert p[0] > p[1] > p[2] and abs(np.log(p).mean()) < 1e-9
    assert np.isfinite(bradley_terry(np.array([[0, 10], [0, 0]]))).all()  # undefeated: still finite


def test_bradley_terry_intervals_hold_the_estimate_and_shrink_with_more_games():
    from train.eval.league import bt_elo, bt_elo_intervals

    wins = np.array([[0, 30, 40], [10, 0, 25], [5, 15, 0]])
    elo = bt_elo(wins)
    ci = bt_elo_intervals(wins, samples=200, seed=1)
    assert ((ci[:, 0] <= elo) & (elo <= ci[:, 1])).all()
    wide = ci[:, 1] - ci[:, 0]
    narrow = np.diff(bt_elo_intervals(wins * 16, samples=200, seed=1), axis=1)[:, 0]
    assert (narrow < 0.5 * wide).all()  # 16 times the games: about a quarter of the width
    assert np.array_equal(ci, bt_elo_intervals(wins, samples=200, seed=1))  # seeded


@pytest.mark.parametrize("k, n, lo, hi", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of
    # seven methods", Statistics in Medicine 17:857-872, Table II, method 3 (score, no correction)
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe_1998(k, n, lo, hi):
    got = wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_matches_scipy_on_a_grid():
    """scipy's independent implementation (binomtest(...).proportion_ci(method="wilson"))."""
    from scipy.stats import binomtest

    for n in (1, 2, 3, 5, 10, 37, 100, 1000, 2000, 10_000):
        for k in sorted({0, 1, n // 7, n // 3, n // 2, n - 1, n}):
            ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
            assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12), (k, n)


def test_wilson_edges_are_exact_and_the_interval_holds_the_rate():
    assert wilson(0, 0) is None
    for n in range(1, 2001):
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0  # not 1e-17 nor 1 - 1e-16
        for k in (0, n // 2, n):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo, hi = wilson(0.5, 1)  # a tie counted as half a win
    assert 0.0 < lo < 0.5 < hi < 1.0
    for k, n in ((3, 2), (-1, 5), (1, -1)):
        with pytest.raises(ValueError, match="0 <= k <= n"):
            wilson(k, n)


def test_wilson_covers_95_percent():
    """Coverage by simulation: a halved (or doubled) variance would cover about 83% (99%)."""
    rng = np.random.default_rng(0)
    for p, n in ((0.3, 50), (0.55, 400), (0.9, 120)):
        ks = rng.binomial(n, p, size=4000)
        cover = np.mean([lo <= p <= hi for lo, hi in (wilson(k, n) for k in ks)])
        assert 0.935 <= cover <= 0.965, (p, n, cover)


def test_ratio_ci_is_the_cluster_standard_error():
    """With one trial per cluster the ratio estimator is the mean and its CI mean +- z s/sqrt(m);
    with clusters of two trials each, the same on the per-cluster rates."""
    rng = np.random.default_rng(1)
    x = rng.binomial(1, 0.6, size=500).astype(float)
    r, (lo, hi) = ratio_ci(x, np.ones_like(x))
    se = x.std(ddof=1) / np.sqrt(x.size)
    assert r == pytest.approx(x.mean()) and (lo, hi) == pytest.approx((x.mean() - Z95 * se, x.mean() + Z95 * se))
    k = rng.binomial(2, 0.6, size=500).astype(float)
    r, (lo, hi) = ratio_ci(k, np.full_like(k, 2.0))
    se = (k / 2).std(ddof=1) / np.sqrt(k.size)
    assert (lo, hi) == pytest.approx((r - Z95 * se, r + Z95 * se))
    assert ratio_ci(np.zeros(3), np.zeros(3))[1] is None and ratio_ci(np.ones(1), np.ones(1))[1] is None


def test_bootstrap_ratio_ci_covers_95_percent():
    rng = np.random.default_rng(2)
    hits = 0
    for _ in range(300):
        den = rng.integers(1, 4, size=80).astype(float)
        num = rng.binomial(den.astype(int), 0.4).astype(float)
        lo, hi = bootstrap_ratio_ci(num, den, rng, reps=400)
        hits += lo <= 0.4 <= hi
    assert 0.90 <= hits / 300 <= 0.985
    assert bootstrap_ratio_ci(np.ones(1), np.ones(1), rng) is None


def test_registry():
    assert "random" in known_policies()
    assert isinstance(load_policy("random", seed=1), RandomPolicy)
    with pytest.raises(ValueError, match="known policies: .*random"):
        load_policy("no-such-bot")
    assert set(known_policies()) >= {"random", "heuristic", "heuristic_sin_senas", "ppo", "cfr"}
    from agents.heuristic import HeuristicPolicy

    bot = load_policy("heuristic", seed=0)  # a broken registration is an error here, not a pass
    assert isinstance(bot, HeuristicPolicy)
    assert isinstance(load_policy("heuristic_sin_senas", seed=0), HeuristicPolicy)


def test_cli_evaluate(tmp_path, capsys):
    from truque_cli.main import main

    out = tmp_path / "r.json"
    main(["evaluate", "--a", "random", "--b", "random,random", "--team-size", "2", "--juegos", "20", "--target",
          "10", "--num-envs", "20", "--out", str(out), "--no-progress"])
    data = json.loads(out.read_text())
    assert data["names"] == {"A": "random", "B": "random,random"} and data["juegos"]["episodes"] == 20
    assert "win rate of side A" in capsys.readouterr().out


def test_a_league_plays_again_only_the_matches_of_the_bots_it_is_told_to(tmp_path, monkeypatch):
    """LeagueConfig.rerun: the other matches are read from the saved league (the same seeds would
    play them move for move), so the league is the one a full run writes; other settings or another
    order of the policies are refused, not mixed in."""
    import train.eval.league as league
    from train.eval.league import LeagueConfig
    from train.eval.league import run as run_cli

    kw = dict(policies="random,style_folder,style_caller", team_size=1, juegos=20, target=15, num_envs=20,
              bootstrap=50, progress=False)
    run_cli(LeagueConfig(**kw, out_dir=tmp_path / "full"))
    full = json.loads((tmp_path / "full" / "league.json").read_text())
    shutil.copytree(tmp_path / "full", tmp_path / "part")
    played = []
    real = league.play_match
    monkeypatch.setattr(league, "play_match", lambda *a, **k: played.append(k["names"]) or real(*a, **k))
    run_cli(LeagueConfig(**kw, out_dir=tmp_path / "part", rerun="style_caller"))
    assert played == [{"A": "random", "B": "style_caller"}, {"A": "style_folder", "B": "style_caller"}]
    assert json.loads((tmp_path / "part" / "league.json").read_text()) == full
    # a bot added at the end, named in rerun: only its matches are played, the rest kept
    grown = dict(kw, policies="random,style_folder,style_caller,style_raiser")
    run_cli(LeagueConfig(**grown, out_dir=tmp_path / "grown_full"))
    shutil.copytree(tmp_path / "full", tmp_path / "grown")
    played.clear()
    run_cli(LeagueConfig(**grown, out_dir=tmp_path / "grown", rerun="style_raiser"))
    assert played == [{"A": n, "B": "style_raiser"} for n in ("random", "style_folder", "style_caller")]
    assert json.loads((tmp_path / "grown" / "league.json").read_text()) == \
        json.loads((tmp_path / "grown_full" / "league.json").read_text())
    with pytest.raises(ValueError, match="in that order"):  # added, but not named to be played
        run_cli(LeagueConfig(**grown, out_dir=tmp_path / "part", rerun="random"))
    for change, said in (({"rerun": "nobody"}, "not among"),
                         ({"policies": "style_folder,random,style_caller", "rerun": "random"}, "in that order"),
                         ({"juegos": 22, "rerun": "random"}, "other settings")):
        with pytest.raises(ValueError, match=said):
            run_cli(LeagueConfig(**{**kw, **change}, out_dir=tmp_path / "part"))
    with pytest.raises(FileNotFoundError, match="not there"):
        run_cli(LeagueConfig(**kw, out_dir=tmp_path / "none", rerun="random"))
