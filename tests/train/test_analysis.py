"""Señas and falsos measurements (the package train/studies/analysis/): MI, causal influence, ablation, bets, plot, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from agents.base import RandomPolicy
from agents.heuristic import honest_sena
from agents.registry import load_policy
from train.eval.duplicate import MatchStats, _jsonable
from train.eval.styles.moteno import NO_CARD
from train.studies import analysis as AN
from train.studies.analysis.influence import _variants
from train.studies.analysis.selfplay import _self_play
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SENAS = slice(O.O_SENAS, O.O_SENAS + 8 * A.NUM_SENAS)


@pytest.fixture(scope="module")
def heuristic_records():
    return AN.collect_senas(load_policy("heuristic", seed=0), team_size=3, manos=60, seed=0)


@pytest.fixture(scope="module")
def heuristic_bets():
    return AN.bet_frequencies(load_policy("heuristic", seed=0), team_size=3, manos=150, seed=0)


# ---------------------------------------------------------------------------------------------
# 1, 2: señas and their mutual information with the hand


def test_records_are_plain_arrays_and_reproducible():
    a = AN.collect_senas(RandomPolicy(3), team_size=2, manos=40, seed=5)
    b = AN.collect_senas(RandomPolicy(3), team_size=2, manos=40, seed=5)
    c = AN.collect_senas(RandomPolicy(3), team_size=2, manos=40, seed=6)
    n = len(a)
    assert n > 0 and a.cards.shape == (n, 3) and a.unplayed.shape == (n, 3) and a.unplayed.dtype == bool
    for f in ("sena", "cards", "unplayed", "pares", "flor", "seat", "mano"):
        assert isinstance(getattr(a, f), np.ndarray)
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert not np.array_equal(a.cards[: min(n, len(c))], c.cards[: min(n, len(c))])
    assert a.sena.min() >= 0 and a.sena.max() <= AN.NO_SENA
    assert a.mano.min() >= 0 and a.mano.max() < 40 and (a.seat < 4).all()
    # one seña per player per mano (senas_per_mano = 1)
    made = a.made
    keys = a.mano[made] * 8 + a.seat[made]
    assert np.unique(keys).size == keys.size


def test_hand_class_is_the_heuristics_honest_sena(heuristic_records):
    r = heuristic_records
    full = r.unplayed.all(axis=1)
    assert full.any()
    cls = AN.hand_class(r)
    expected = np.array([honest_sena(h) for h in r.cards[full]])
    assert np.array_equal(cls[full], expected)
    # the heuristic signals its honest seña, so each seña made is its hand class (cards unplayed)
    made = r.made & full
    assert np.array_equal(r.sena[made], cls[made])


def test_mutual_information_estimator_on_known_tables():
    plug, mm = AN.mutual_information_bits(np.array([[10, 10], [30, 30]]))
    assert plug == pytest.approx(0.0, abs=1e-12)
    # Miller–Madow adds ((2 - 1) + (2 - 1) - (4 - 1)) / (2 N) nats: below 0 for independent data
    assert mm == pytest.approx(-1 / (2 * 80 * math.log(2)))
    plug, mm = AN.mutual_information_bits(np.array([[25, 0], [0, 25]]))
    assert plug == pytest.approx(1.0)
    assert mm == pytest.approx(1.0 + 1 / (2 * 50 * math.log(2)))
    batch = np.stack([np.array([[25, 0], [0, 25]]), np.array([[10, 10], [30, 30]])])
    assert AN.mutual_information_bits(batch)[0] == pytest.approx([1.0, 0.0], abs=1e-12)


def test_heuristic_senas_carry_information(heuristic_records):
    mi = AN.senas_mutual_information(heuristic_records, bootstrap=300, seed=0)
    hc = mi["features"]["hand_class"]
    assert mi["senas_made"] > 50
    assert hc["mi_bits"] > 1.0 and hc["bootstrap95"][0] > 0.5
    assert hc["bootstrap95"][0] <= hc["mi_bits"] <= hc["bootstrap95"][1]
    assert hc["mi_bits"] <= hc["feature_entropy_bits"] + 1e-9
    assert mi["features"]["honest:ciega"]["mi_bits"] > 0.2
    assert mi["honesty"]["all"]["rate"] == 1.0  # the heuristic never lies with a seña
    assert set(mi["features"]) == {"hand_class", "pares_bin", *(f"honest:{n}" for n in A.SENA_NAMES)}
    assert sum(mi["symbol_counts"].values()) == mi["decisions"] == len(heuristic_records)
    json.dumps(_jsonable(mi))
    assert AN.senas_mutual_information(heuristic_records, bootstrap=300, seed=0) == mi


def test_random_senas_carry_no_information():
    rec = AN.collect_senas(RandomPolicy(0), team_size=3, manos=120, seed=0)
    mi = AN.senas_mutual_information(rec, bootstrap=300, seed=0)
    hc = mi["features"]["hand_class"]
    assert abs(hc["mi_bits"]) < 0.05
    assert hc["bootstrap95"][0] <= 0.0 <= hc["bootstrap95"][1] or hc["bootstrap95"][1] < 0.05
    assert mi["honesty"]["all"]["rate"] < 0.5  # random señas are mostly false


# ---------------------------------------------------------------------------------------------
# 3: causal influence


def test_causal_influence_heuristic_reads_partners_senas():
    ci = AN.causal_influence(load_policy("heuristic", seed=0), team_size=3, manos=30, seed=0, max_decisions=120,
                             bootstrap=200)
    assert ci["units"] == 120
    assert ci["kl_bits"]["mean"] > 0.01 and ci["kl_bits"]["bootstrap95"][0] > 0
    assert 0 < ci["tv"]["mean"] <= 1 and ci["changed_share"]["mean"] > 0
    assert ci["kl_bits"]["mean"] <= math.log2(12) + 1e-9


@pytest.mark.parametrize("name", ["heuristic_sin_senas", "random"])
def test_causal_influence_is_zero_when_senas_are_ignored(name):
    units = AN.influence_units(load_policy(name, seed=0), team_size=3, manos=30, seed=0, max_decisions=120)
    assert units.kl_bits.size == 120
    assert (units.kl_bits == 0).all() and (units.tv == 0).all() and not units.changed.any()


def test_causal_influence_without_partners_has_no_units():
    ci = AN.causal_influence(RandomPolicy(0), team_size=1, manos=10, seed=0)
    assert ci["units"] == 0 and ci["kl_bits"]["mean"] is None


def test_counterfactual_variants_edit_only_that_row():
    obs = np.zeros((2, O.OBS_SIZE), dtype=np.int8)
    obs[:, 0] = 7
    obs[0, O.O_SENAS + 2 * A.NUM_SENAS + 4] = 1  # partner 2 said "basto"
    obs[1, O.O_SENAS + 4 * A.NUM_SENAS + 9] = 1  # partner 4 said "flor"
    obs[1, O.O_SENAS + 1 * A.NUM_SENAS + 0] = 1  # an intercepted rival seña stays
    var, actual = _variants(obs, np.array([2, 4]))
    assert var.shape == (2, 12, O.OBS_SIZE) and list(actual) == [4, 9]
    for u, r in enumerate((2, 4)):
        rows = var[u, :, SENAS].reshape(12, 8, A.NUM_SENAS)
        assert np.array_equal(rows[:11, r], np.eye(11, dtype=np.int8)) and not rows[11, r].any()
        other = np.delete(rows, r, axis=1)
        assert (other == obs[u, SENAS].reshape(8, A.NUM_SENAS)[np.arange(8) != r][None]).all()
        assert (var[u, :, : O.O_SENAS] == obs[u, : O.O_SENAS]).all()


# ---------------------------------------------------------------------------------------------
# 4: the señas channel cut


class Spy:
    """Random play that keeps what it was shown."""

    name = "spy"

    def __init__(self):
        self.inner = RandomPolicy(1)
        self.seen = []

    def act_batch(self, obs, masks):
        self.seen.append((obs.copy(), masks.copy()))
        return self.inner.act_batch(obs, masks)


def test_senas_ablated_cuts_the_channel():
    steps = list(_self_play(RandomPolicy(0), team_size=3, manos=20, p_intercept=0.5, seed=0, num_envs=8))
    obs = np.concatenate([s.obs for s in steps])
    masks = np.concatenate([s.mask for s in steps])
    others = obs[:, SENAS].reshape(-1, 8, A.NUM_SENAS)[:, 1:].any(axis=(1, 2))
    assert others.any() and masks[:, A.SENA_BASE :].any()
    spy = Spy()
    ablated = AN.SenasAblated(spy)
    acts = ablated.act_batch(obs, masks)
    seen_obs, seen_masks = spy.seen[0]
    rows = seen_obs[:, SENAS].reshape(-1, 8, A.NUM_SENAS)
    assert not rows[:, 1:].any()  # every other seat's señas zeroed
    assert np.array_equal(rows[:, 0], obs[:, SENAS].reshape(-1, 8, A.NUM_SENAS)[:, 0])
    assert np.array_equal(seen_obs[:, : O.O_SENAS], obs[:, : O.O_SENAS])
    assert np.array_equal(seen_obs[:, SENAS.stop :], obs[:, SENAS.stop :])
    other_legal = masks[:, : A.SENA_BASE].any(axis=1)
    assert not seen_masks[other_legal, A.SENA_BASE :].any()
    assert not (acts[other_legal] >= A.SENA_BASE).any()
    assert (masks[np.arange(len(acts)), acts] == 1).all()
    assert not (obs[:, SENAS] == 0).all()  # the caller's arrays are not modified
    # the renormalised distribution: uniform over the legal non-señas
    p = AN.SenasAblated(RandomPolicy(0)).action_probs(obs, masks)
    assert np.allclose(p.sum(axis=1), 1) and not p[other_legal, A.SENA_BASE :].any()
    expected = (masks * (np.arange(A.NUM_ACTIONS) < A.SENA_BASE)).astype(float)
    assert np.allclose(p[other_legal], (expected / expected.sum(axis=1, keepdims=True))[other_legal])
    # a policy without action_probs stays without (callers fall back to its action)
    assert not hasattr(AN.SenasAblated(load_policy("heuristic")), "action_probs")


def test_senas_ablation_report_fields():
    out = AN.senas_ablation(load_policy("heuristic", seed=0), team_size=2, juegos=2, seed=0, bootstrap=50)
    assert out["juegos"] == 2 and 0 <= out["wins_full"] <= 2
    assert out["win_rate_full"] == out["wins_full"] / 2
    assert {"wilson95", "paired_bootstrap95", "pair_outcomes", "manos", "net_chinas_per_mano_full",
            "senas_per_mano", "names"} <= set(out)
    assert out["senas_per_mano"]["ablated"] == 0 and out["senas_per_mano"]["full"] > 0
    json.dumps(out)


def test_senas_ablation_against_another_player_plays_both_forms_on_the_same_deals():
    out = AN.senas_ablation_against(lambda seed: load_policy("heuristic", seed=seed),
                                    lambda seed: RandomPolicy(seed), team_size=2, juegos=4, seed=3, bootstrap=20)
    full, cut = out["full"], out["ablated"]
    assert full["juegos"] == cut["juegos"] == 4
    assert cut["senas_per_mano"] == 0 and full["senas_per_mano"] > 0
    assert "sin señas" in cut["names"]["A"] and full["names"]["B"] == cut["names"]["B"]
    d = out["difference"]
    assert d["win_rate"] == pytest.approx(full["win_rate"] - cut["win_rate"])
    assert d["normal95"][0] <= d["win_rate"] <= d["normal95"][1]
    json.dumps(out)
    with pytest.raises(ValueError, match="needs juegos"):
        AN.run(AN.AnalysisConfig(policy="random", ablation_opponent="heuristic", manos=5))


def test_the_analysis_refuses_to_replace_a_result_unless_told(tmp_path):
    """No command overwrites a result without being told to: out (and the plot) are checked before any play."""
    out = tmp_path / "a.json"
    out.write_text("{}")
    cfg = dict(policy="random", team_size=1, manos=5, influence_decisions=5, num_envs=4, bootstrap=5)
    with pytest.raises(FileExistsError, match="--overwrite"):
        AN.run(AN.AnalysisConfig(out=out, **cfg))
    assert out.read_text() == "{}"
    with pytest.raises(FileExistsError, match="--overwrite"):
        AN.run(AN.AnalysisConfig(out=tmp_path / "b.json", plot=out, **cfg))
    assert not (tmp_path / "b.json").exists()
    AN.run(AN.AnalysisConfig(out=out, overwrite=True, **cfg))
    assert json.loads(out.read_text())["config"]["overwrite"] is True


# ---------------------------------------------------------------------------------------------
# 5: bets by hand strength


def test_bet_bins_agree_with_the_evaluator():
    """The same self-play through train.eval.duplicate's MatchStats (its Moteño style counts): bin 0 is its weak hand, the rest strong."""
    bets = AN.bet_frequencies(RandomPolicy(2), team_size=2, manos=150, seed=4, num_envs=16)
    stats = MatchStats(1, 16, weak_pares=20)
    for st in _self_play(RandomPolicy(2), team_size=2, manos=150, p_intercept=0.1, seed=4, num_envs=16):
        n = 16
        full = {k: np.zeros((n, *getattr(st, k).shape[1:]), dtype=getattr(st, k).dtype)
                for k in ("s0", "s1", "action", "seat", "mask")}
        for k in full:
            full[k][st.table] = getattr(st, k)
        active = np.zeros(n, dtype=bool)
        active[st.table] = True
        stats.observe(full["s0"], full["action"], full["seat"], full["s1"], active,
                      np.tile([0, 1], (n, 1)), np.zeros(n, dtype=np.int64), full["mask"])
    for name, mine in (("chances", bets.chances), ("bets", bets.bets), ("refused", bets.refused)):
        theirs = getattr(stats.style.tally, name).sum(axis=0)  # [kind, weak] summed over the two teams
        assert theirs[:, 1].tolist() == mine[:, 0].tolist(), name
        assert theirs[:, 0].tolist() == mine[:, 1:].sum(axis=1).tolist(), name
    assert bets.bets.sum() > 0 and bets.refused.sum() > 0


def test_heuristic_bets_pares_with_strong_hands(heuristic_bets):
    b = heuristic_bets
    assert (b.bets <= b.chances).all() and (b.refused <= b.bets).all()
    d = b.to_dict()
    for kind, k in (("pares", 0), ("truco", 1)):
        rows = d[kind]["by_bin"]
        assert [r["bin"] for r in rows] == list((AN.PARES_BINS, AN.TRUCO_BINS)[k])
        assert sum(r["chances"] for r in rows) == b.chances[k].sum()
        assert sum(r["bet"]["count"] for r in rows) == d[kind]["bets"] == b.bets[k].sum()
        w = d[kind]["weak"]
        assert w["bet_when_weak"]["count"] + w["bet_when_strong"]["count"] == d[kind]["bets"]
        assert w["bet_when_weak"]["of"] + w["bet_when_strong"]["of"] == b.chances[k].sum()
    weak_rate = b.bets[0, 0] / b.chances[0, 0]
    strong_rate = b.bets[0, 3:].sum() / b.chances[0, 3:].sum()  # valor de pares 30 and up
    assert strong_rate > weak_rate + 0.1
    assert d["truco"]["by_bin"][4]["bet"]["rate"] > d["truco"]["by_bin"][0]["bet"]["rate"]
    json.dumps(_jsonable(d))


def test_strength_bins():
    assert AN.pares_bin(np.array([0, 7, 19, 20, 24, 25, 29, 30, 34, 35, 61])).tolist() == [0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    from truque_env.cards import card_id

    nc = NO_CARD
    hands = np.array([[card_id(4, "O"), card_id(12, "C"), nc],  # a rey at best
                      [card_id(4, "O"), card_id(12, "C"), nc],
                      [card_id(3, "B"), card_id(2, "C"), nc],
                      [card_id(7, "O"), nc, nc],
                      [card_id(1, "E"), card_id(3, "E"), nc],
                      [card_id(10, "O"), nc, nc]])
    won = np.array([False, True, False, False, True, False])
    assert AN.truco_bin(hands, won).tolist() == [0, 1, 2, 3, 3, 4]


# ---------------------------------------------------------------------------------------------
# 6, 7: plot and command line


def test_plot_is_a_png(tmp_path, heuristic_bets):
    rnd = AN.bet_frequencies(RandomPolicy(0), team_size=3, manos=40, seed=0)
    path = AN.plot_bet_frequencies({"heuristic": heuristic_bets, "random": rnd.to_dict()}, tmp_path / "p" / "bets.png")
    assert path.read_bytes()[:8] == PNG_MAGIC
    assert [p.name for p in path.parent.iterdir()] == ["bets.png"]  # no temporary file left
    with pytest.raises(ValueError, match="empty"):
        AN.plot_bet_frequencies({}, tmp_path / "x.png")


def test_plot_bins_with_no_bets_or_all_bets(tmp_path):
    """wilson(0, 3) once had a lower bound of +1e-17 (and wilson(n, n) an upper bound below 1),
    which handed matplotlib a negative error bar."""
    def rows(*counts):
        return {"by_bin": [{"bin": f"bin {i}", "bet": {"count": k, "of": n}} for i, (k, n) in enumerate(counts)]}

    result = {"pares": rows((0, 3), (3, 3), (0, 0), (1, 7)), "truco": rows((12, 12), (0, 6), (2, 5))}
    path = AN.plot_bet_frequencies({"edges": result}, tmp_path / "edges.png")
    assert path.read_bytes()[:8] == PNG_MAGIC


def test_cli_writes_json_and_plot_reproducibly(tmp_path):
    args = ["--policy", "random", "--team-size", "2", "--manos", "30", "--juegos", "2", "--bootstrap", "100",
            "--influence-decisions", "50", "--num-envs", "8", "--compare", "random"]
    a = AN.main([*args, "--out", str(tmp_path / "a.json"), "--plot", str(tmp_path / "a.png")])
    AN.main([*args, "--out", str(tmp_path / "b.json")])
    da = json.loads((tmp_path / "a.json").read_text())
    db = json.loads((tmp_path / "b.json").read_text())
    assert {"senas_mutual_information", "causal_influence", "bet_frequencies", "senas_ablation",
            "definitions", "config"} <= set(da)
    assert da["causal_influence"]["kl_bits"]["mean"] == 0.0  # random ignores señas
    assert (tmp_path / "a.png").read_bytes()[:8] == PNG_MAGIC
    for key in ("senas_mutual_information", "causal_influence", "bet_frequencies", "senas_ablation"):
        assert da[key] == db[key], key  # same seed, same numbers
    assert a["config"]["manos"] == 30


def test_bad_inputs_are_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown policy"):
        AN.main(["--policy", "no_such_bot", "--out", str(tmp_path / "r.json")])
    with pytest.raises(ValueError, match="team_size"):
        AN.main(["--policy", "random", "--team-size", "0", "--out", str(tmp_path / "r.json")])
    with pytest.raises(ValueError, match="team_size"):
        AN.collect_senas(RandomPolicy(0), team_size=0, manos=10)
    with pytest.raises(ValueError, match="team_size"):
        AN.senas_ablation(RandomPolicy(0), team_size=0, juegos=2)
    with pytest.raises(ValueError, match="manos"):
        AN.bet_frequencies(RandomPolicy(0), manos=0)
    with pytest.raises(ValueError, match="max_decisions"):
        AN.causal_influence(RandomPolicy(0), manos=5, max_decisions=0)
    with pytest.raises(ValueError, match="policy needs"):
        AN.collect_senas(object(), manos=5)
    with pytest.raises(ValueError, match="SenaRecords"):
        AN.senas_mutual_information({"sena": np.zeros(3)})
    assert not (tmp_path / "r.json").exists()


def test_a_learned_policy_goes_through_action_probs():
    """The path a PPO checkpoint takes (an untrained actor here): distributions, not copies."""
    from agents.ppo_policy import PPOPolicy
    from train.ppo.loop import Agent

    policy = PPOPolicy.from_agent(Agent(32, False, seed=0), seed=0)
    units = AN.influence_units(policy, team_size=2, manos=10, seed=0, max_decisions=40)
    assert units.kl_bits.size > 0 and np.isfinite(units.kl_bits).all() and (units.kl_bits >= 0).all()
    assert (units.kl_bits <= math.log2(12) + 1e-9).all() and (units.tv <= 1 + 1e-9).all()
    assert hasattr(AN.SenasAblated(policy), "action_probs")
