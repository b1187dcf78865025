"""The envido of truco argentino mano a mano as a solved game (train.cfr.envido_argentino): the
deal, the betting tree against the articles, the payoffs, and the solution's sense."""

from itertools import combinations

import numpy as np
import pytest

from train.cfr import envido_argentino as E
from train.cfr.public_tree import PublicTreeSolver, exploitability
from truque_env.traditions.argentino.rules import envido_value, flor_value


def _synthetic_points(target):
    """The rest of a mano: 1 to 4 tantos to one side (a truco), a little more often to the pie."""
    Q = np.zeros((target + 1, target + 1))
    for k, p in zip([1, 2, 3, 4], [0.3, 0.4, 0.22, 0.08], strict=True):
        Q[k, 0] += 0.45 * p
        Q[0, k] += 0.55 * p
    return Q


def _race(target, g=1.5):
    """A juego's chance from a score in a race of equal players (the mano at a, the pie at b)."""
    i_need = target - np.arange(target)[:, None]
    they_need = target - np.arange(target)[None, :]
    return they_need ** g / (they_need ** g + i_need ** g)


def _code(words):
    code = 1
    for w in words:
        code = 4 * code + {"E": 1, "R": 2, "F": 3}[w]
    return code


@pytest.fixture(scope="module")
def skeleton():
    return E.build_skeleton(3)


def test_a19_a20_the_types_are_the_envido_values_of_every_hand():
    hands = list(combinations(range(40), 3))
    values = {envido_value(h) for h in hands}
    assert values == set(E.ENVIDO_VALUES.tolist())  # 0-7 and 20-33


def test_without_flor_the_prior_is_the_deal_of_one_hand():
    """Every hand has as many disjoint rival hands, so each marginal is one hand's distribution."""
    prior = E.envido_prior(flor=False)
    counts = np.zeros(E.NUM_TYPES)
    for h in combinations(range(40), 3):
        counts[E.TYPE_OF_VALUE[envido_value(h)]] += 1
    np.testing.assert_allclose(prior.sum(axis=1), counts / counts.sum(), atol=1e-12)
    np.testing.assert_allclose(prior, prior.T, atol=1e-12)


def test_a8_a9_with_flor_no_type_holds_a_flor():
    """A flor is sung first and cancels the envido: the prior counts only hands without one."""
    with_flor = E.envido_prior(flor=True)
    no_flor_hands = [h for h in combinations(range(40), 3) if flor_value(h) == 0]
    counts = np.zeros(E.NUM_TYPES)
    for h in no_flor_hands:
        counts[E.TYPE_OF_VALUE[envido_value(h)]] += 1
    # the 33 of a flor (7 and 6 of a suit with a third of it) is gone; 33 stays for 7-6 of a suit + another
    assert with_flor.sum() == pytest.approx(1.0)
    assert abs(with_flor.sum(axis=1) - counts / counts.sum()).max() < 2e-3


def test_a27_ties_go_to_the_mano():
    beats = E.showdown_beats()
    assert beats[E.TYPE_OF_VALUE[27], E.TYPE_OF_VALUE[27]] == 1.0
    assert beats[E.TYPE_OF_VALUE[26], E.TYPE_OF_VALUE[27]] == 0.0
    assert beats[E.TYPE_OF_VALUE[7], E.TYPE_OF_VALUE[20]] == 0.0


@pytest.mark.parametrize("words, stake, refused_pays", [
    ("E", 2, 1),  # A25: a first envite refused pays 1
    ("R", 3, 1),
    ("F", E.FALTA, 1),  # A25: falta refused at once pays 1
    ("EE", 4, 2),  # A25: after raises, the tantos accepted so far
    ("ER", 5, 2),
    ("RF", E.FALTA, 3),  # A25: real envido, falta envido, no quiero pays 3
    ("EER", 7, 4),
    ("EERF", E.FALTA, 7),
])
def test_a23_a25_stakes_and_refusals(skeleton, words, stake, refused_pays):
    node = skeleton.node_of_code[0, _code(words)]
    assert node >= 0
    assert skeleton.player[node] == len(words) % 2  # the rival of the last word answers
    showdown, refused = skeleton.child[node, E.QUIERO], skeleton.child[node, E.NO_QUIERO]
    assert skeleton.kind[showdown] == E.K_SHOWDOWN and skeleton.amount[showdown] == stake
    assert skeleton.kind[refused] == E.K_REFUSED and skeleton.amount[refused] == refused_pays
    assert skeleton.taker[refused] == (len(words) - 1) % 2  # the last raiser's side takes it


def test_after_a_falta_only_quiero_or_no_quiero(skeleton):
    node = skeleton.node_of_code[1, _code("EF")]  # the pie opened, the mano raised to the falta
    assert skeleton.player[node] == 1
    assert (skeleton.child[node, 2:] < 0).all()


def test_the_chain_stops_at_max_raises_but_falta_stays(skeleton):
    node = skeleton.node_of_code[0, _code("EEE")]
    assert skeleton.child[node, E.ENVIDO] < 0 and skeleton.child[node, E.REAL_ENVIDO] < 0
    assert skeleton.child[node, E.FALTA_ENVIDO] >= 0
    assert skeleton.node_of_code[0, _code("EEEE")] < 0


def test_a_word_above_the_falta_is_not_offered(skeleton):
    """The engine's ruling on A24's chain: envido and real envido while the stake stays within the
    falta; falta envido always (falta 4: "envido, envido" is 4, legal; "envido, real envido" 5 is not)."""
    child = E.legal_children(skeleton, falta=4)
    node = skeleton.node_of_code[0, _code("E")]
    assert child[node, E.ENVIDO] >= 0 and child[node, E.REAL_ENVIDO] < 0 and child[node, E.FALTA_ENVIDO] >= 0
    root = E.legal_children(skeleton, falta=1)[0]
    assert root[E.ENVIDO] < 0 and root[E.REAL_ENVIDO] < 0 and root[E.FALTA_ENVIDO] >= 0 and root[E.PASO] >= 0


def test_a35_an_envido_that_reaches_the_target_wins_at_once():
    T = 30
    U = E.envido_payoffs(np.full((T, T), 0.5), _synthetic_points(T), 27, 10, T)
    assert U[3, 0] == 1.0 and U[0, 20] == 0.0
    assert 0.0 < U[2, 0] < 1.0 and 0.0 < U[0, 0] < 1.0


def test_a23_a36_the_falta_is_what_the_leader_lacks(skeleton):
    T = 30
    V = np.full((T, T), 0.5)
    U = E.envido_payoffs(V, _synthetic_points(T), 5, 18, T)
    game = E.score_game(skeleton, E.envido_prior(), E.showdown_beats(), U, 5, 18, T)
    falta_open = skeleton.child[0, E.FALTA_ENVIDO]
    showdown = skeleton.child[falta_open, E.QUIERO]
    assert game.win[showdown] == U[12, 0] and game.lose[showdown] == U[0, 12]  # the leader (18) lacks 12
    match = E.score_game(skeleton, E.envido_prior(), E.showdown_beats(), U, 5, 18, T, falta_match=True)
    assert match.win[showdown] == 1.0 and match.lose[showdown] == 0.0  # option "match": the juego


@pytest.fixture(scope="module")
def solved_small():
    T = 8
    cfg = E.EnvidoSolveConfig(target=T, iterations=300)
    return cfg, E.solve_juego(cfg, _synthetic_points(T))


def test_the_juego_is_solved_backwards_and_each_score_is_near_equilibrium(solved_small):
    cfg, sol = solved_small
    V, expl = sol["V"], sol["exploitability"]
    assert expl.max() < 2e-3
    assert ((V > 0) & (V < 1)).all()
    assert (np.diff(V, axis=0) > -1e-3).all()  # more tantos of the mano: a better chance
    assert (np.diff(V, axis=1) < 1e-3).all()


def test_the_answers_follow_the_envido(skeleton):
    """At the first mano of a juego to 30 the mano answering the pie's falta (ties are his, A27):
    33 always accepts, 0 never, and the share accepted does not fall as the envido rises."""
    T = 30
    U = E.envido_payoffs(_race(T), _synthetic_points(T), 0, 0, T)
    game = E.score_game(skeleton, E.envido_prior(), E.showdown_beats(), U, 0, 0, T)
    solver = PublicTreeSolver(game, tremble=1e-3)
    solver.run(500)
    policy = solver.average_policy()
    assert exploitability(game, policy) < 1e-3
    node = skeleton.node_of_code[1, _code("F")]
    accept = policy[node, E.QUIERO]
    assert accept[E.TYPE_OF_VALUE[33]] > 0.99 and accept[E.TYPE_OF_VALUE[0]] < 0.01
    assert (np.diff(accept) > -0.05).all()


def test_table_arrays_fit_the_bot(solved_small):
    cfg, sol = solved_small
    arr = E.table_arrays(cfg, sol, _synthetic_points(cfg.target))
    rows = arr["player"].size
    assert arr["strategies"].shape == (8, 8, rows, 5, E.NUM_TYPES)
    s = arr["strategies"].astype(np.float64)
    total = s.sum(axis=3)
    assert np.allclose(total[total > 0], 1.0, atol=5e-3)
    assert arr["row_of_code"][0, 1] == 0  # the mano's opening is the first row


def test_the_command_writes_a_table_the_bot_reads_and_keeps_what_exists(tmp_path):
    from agents.envido_table import EnvidoTable

    out, summary = tmp_path / "table.npz", tmp_path / "table.json"
    argv = ["--points-of", "heuristic", "--manos", "1000", "--target", "6", "--iterations", "30", "--out", str(out),
            "--summary", str(summary)]
    result = E.main(argv)
    table = EnvidoTable(out)
    assert table.target == 6 and table.strategies.shape[:2] == (6, 6)
    assert result["mano_points"]["manos"] == 1000 and 0 < result["juego_chance_of_the_first_mano"] < 1
    Q = table.Q
    assert Q[0, 0] == 0 and Q.sum() == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(FileExistsError):
        E.main(argv)
    with pytest.raises(ValueError, match="manos"):
        E.main([*argv, "--manos", "10", "--overwrite"])


def test_the_command_at_2_contra_2_measures_there_and_writes_a_team_table(tmp_path):
    """``--team-size 2``: the points measured at 2 contra 2, the deal of the team abstraction
    (train.cfr.envido_teams), a table the bot plays at that size."""
    from agents.envido_table import EnvidoTable

    out, summary = tmp_path / "table.npz", tmp_path / "table.json"
    result = E.main(["--points-of", "heuristic", "--manos", "1000", "--target", "6", "--iterations", "30",
                     "--team-size", "2", "--deal-samples", "20000", "--out", str(out), "--summary", str(summary)])
    table = EnvidoTable(out)
    assert table.team_size == 2 and "2 contra 2" in result["description"]
    assert 0 < result["juego_chance_of_the_first_mano"] < 1
    with pytest.raises(ValueError, match="team_size must be 1, 2 or 3"):
        E.main(["--team-size", "4", "--out", str(tmp_path / "x.npz"), "--summary", str(tmp_path / "x.json")])


def test_the_shipped_table_is_this_skeletons_solution():
    """agents/checkpoints/envido_argentino_1v1.npz (python -m train.cfr.envido_argentino --points-of
    ppo_league1, then named ppo):
    its rows are this module's tree, and its summary says how near equilibrium each score is."""
    import json
    from pathlib import Path

    from agents.envido_table import SHIPPED_TABLE, EnvidoTable

    table = EnvidoTable(SHIPPED_TABLE)
    sk = E.build_skeleton(table.max_raises)
    decision = np.flatnonzero(sk.player >= 0)
    row = np.full(sk.player.size, -1)
    row[decision] = np.arange(decision.size)
    np.testing.assert_array_equal(table.row_of_code, np.where(sk.node_of_code >= 0, row[sk.node_of_code], -1))
    np.testing.assert_array_equal(table.player, sk.player[decision])
    assert (table.target, table.flor, table.falta_match) == (30, True, False)
    summary = json.loads((Path(__file__).parents[2] / "benchmarks/results/envido_argentino_1v1.json").read_text())
    assert summary["exploitability"]["max"] < 1e-3 and summary["table"] == "agents/checkpoints/envido_argentino_1v1.npz"
    assert 0.45 < table.V[0, 0] < 0.55 and (np.diff(table.V, axis=0) > -1e-3).all()


# -- a rival unlike the bot: his own points, a blind envido, todo dicho ----------------------------
def test_with_two_alike_sides_the_rivals_solve_is_the_self_play_solve(solved_small):
    """Q given twice (the bot mano, the rival mano) with the same points is the self-play game:
    the same strategies and chances, the pie's chance the complement of the mano's."""
    cfg, sol = solved_small
    Q = _synthetic_points(cfg.target)
    pair = E.solve_juego(cfg, np.stack([Q, Q]))
    np.testing.assert_allclose(pair["strategies"], sol["strategies"], atol=1e-6)
    np.testing.assert_allclose(pair["V"], sol["V"], atol=1e-9)
    np.testing.assert_allclose(pair["V_pie"], 1.0 - sol["V"], atol=1e-9)
    np.testing.assert_allclose(pair["todo_dicho"], sol["todo_dicho"])
    assert (pair["worst"] <= pair["V"] + 1e-3).all()  # a rival's best answer takes no more than the equilibrium


def test_a_stronger_bot_values_the_juego_higher_and_risks_less():
    """The bot takes 3 tantos of the rest of a mano to the rival's 1: its chance of the juego rises
    above one half, and it accepts a falta at the juego's first mano with no more hands."""
    T = 8
    cfg = E.EnvidoSolveConfig(target=T, iterations=300)
    even = _synthetic_points(T)
    strong = np.zeros((2, T + 1, T + 1))
    strong[0, 3, 0] = strong[0, 0, 1] = 0.5  # the bot mano: 3 to him or 1 to the rival
    strong[1, 1, 0] = strong[1, 0, 3] = 0.5  # the rival mano: 1 to the rival or 3 to the bot
    a, b = E.solve_juego(cfg, even), E.solve_juego(cfg, strong)
    assert b["V"][0, 0] > 0.7 and b["V_pie"][0, 0] > 0.7
    sk = E.build_skeleton(cfg.max_raises)
    row = b["node_row"][sk.node_of_code[1, _code("F")]]  # the mano answers the pie's falta
    assert b["strategies"][0, 0, row, E.QUIERO].sum() <= a["strategies"][0, 0, row, E.QUIERO].sum() + 1e-3


def test_the_blind_rival_opens_and_answers_as_random_does(skeleton):
    falta = 30
    child = E.legal_children(skeleton, falta)
    s = E.blind_strategy(skeleton.player, skeleton.kind, child, 1, 0.18)
    rival = skeleton.player == 1
    legal = child >= 0
    np.testing.assert_allclose(s[rival].sum(axis=1), 1.0)
    assert (s[~rival] == 0).all() and (s[~legal[:, :, None].repeat(E.NUM_TYPES, 2)] == 0).all()
    opening = skeleton.node_of_code[1, 1]
    np.testing.assert_allclose(s[opening, :, 0], [1 - 3 * 0.18, 0.0, 0.18, 0.18, 0.18])
    answer = skeleton.node_of_code[0, _code("E")]  # the mano opened: the pie (the rival) answers
    np.testing.assert_allclose(s[answer, legal[answer], 0], 1.0 / legal[answer].sum())
    assert np.ptp(s, axis=2).max() == 0.0  # whatever he holds


def test_against_a_blind_rival_the_table_wins_more_and_a_rational_one_takes_little(solved_small):
    """The restricted Nash response (blind_share): against a rival whose envido is blind 90% of
    the time the table plays otherwise than the equilibrium and is worth more; a rational rival's
    best answer to it costs the bot little next to what the blind rival gives."""
    cfg, _ = solved_small
    T = cfg.target
    Q = np.stack([_synthetic_points(T)] * 2)
    free = E.solve_juego(cfg, Q)
    blind = E.solve_juego(E.EnvidoSolveConfig(target=T, iterations=300, blind_share=0.9), Q)
    assert np.abs(blind["strategies"] - free["strategies"]).max() > 0.5
    assert blind["V"][0, 0] > free["V"][0, 0] + 0.1 and blind["V_pie"][0, 0] > free["V_pie"][0, 0] + 0.1
    assert free["V"][0, 0] - blind["worst"][0, 0] < 0.05
    assert free["V_pie"][0, 0] - blind["worst_pie"][0, 0] < 0.05


def test_a_bad_blind_rival_is_refused():
    T = 8
    with pytest.raises(ValueError, match="needs a rival"):
        E.solve_juego(E.EnvidoSolveConfig(target=T, blind_share=0.5), _synthetic_points(T))
    with pytest.raises(ValueError, match="blind_share"):
        E.solve_juego(E.EnvidoSolveConfig(target=T, blind_share=1.5), np.stack([_synthetic_points(T)] * 2))
    with pytest.raises(ValueError, match="Q must be"):
        E.solve_juego(E.EnvidoSolveConfig(target=T), np.stack([_synthetic_points(T)] * 3))


def test_a33_todo_dicho_is_answered_by_the_chance_of_any_hand():
    """A33: the sayer spoke before looking, so the answer weighs the falta won by the answerer's
    envido against any hand (ties to the mano, A27) with the refusal's 1 tanto: at the juego's first
    mano a 33 accepts in either seat, a 0 refuses, and the more envido the readier to accept."""
    T = 30
    U = E.envido_payoffs(_race(T), _synthetic_points(T), 0, 0, T)
    ans = E.todo_dicho_answers(U, E.envido_prior(), E.showdown_beats(), 0, 0, T)
    for seat in (0, 1):
        assert ans[seat, E.TYPE_OF_VALUE[33]] == 1.0 and ans[seat, E.TYPE_OF_VALUE[0]] == 0.0
        assert (np.diff(ans[seat]) >= 0).all()
    # at 29 to 29 the falta is 1 tanto, as the refusal: the mano, who wins ties, accepts with anything
    U = E.envido_payoffs(_race(T), _synthetic_points(T), 29, 29, T)
    assert (E.todo_dicho_answers(U, E.envido_prior(), E.showdown_beats(), 29, 29, T)[0] == 1.0).all()


# -- the prior over the rival's kind: blind with a chance, rational otherwise ---------------------
def _as_table(cfg, solved, Q):
    """What solve_mixture reads of a table (agents.envido_table.EnvidoTable), in float64."""
    from pathlib import Path
    from types import SimpleNamespace

    return SimpleNamespace(V=solved["V"], V_pie=solved.get("V_pie"), Q=Q, target=cfg.target, flor=cfg.flor,
                           falta_match=cfg.falta_match, max_raises=cfg.max_raises, team_size=cfg.team_size, path=Path("t.npz"),
                           rival="")


@pytest.fixture(scope="module")
def two_kinds():
    """A self-play table, and a table against a blind rival the bot outplays in the rest of the mano
    (a juego to 6: the two-kind games double the rival's types)."""
    T = 6
    cfg = E.EnvidoSolveConfig(target=T, iterations=300)
    sol = E.solve_juego(cfg, _synthetic_points(T))
    strong = np.zeros((2, T + 1, T + 1))
    strong[0, 3, 0] = strong[0, 0, 1] = 0.5  # the bot mano: 3 to him or 1 to the rival
    strong[1, 1, 0] = strong[1, 0, 3] = 0.5  # the rival mano: 1 to the rival or 3 to the bot
    blind_cfg = E.EnvidoSolveConfig(target=T, iterations=300, blind_share=1.0, todo_dicho=True)
    blind = E.solve_juego(blind_cfg, strong)
    return _as_table(cfg, sol, _synthetic_points(T)), _as_table(cfg, blind, strong), sol, blind


@pytest.fixture(scope="module")
def mixtures(two_kinds):
    """solve_mixture at shares 0, 0.5 and 1 (solved once for the tests below)."""
    rational, blind, _, _ = two_kinds
    T = rational.target
    return {share: E.solve_mixture(E.EnvidoSolveConfig(target=T, iterations=300, blind_share=share), rational, blind)
            for share in (0.0, 0.5, 1.0)}


def test_the_mixture_at_share_0_is_the_self_play_table_and_at_share_1_the_blind_one(two_kinds, mixtures):
    """Known answers of solve_mixture: with no chance of a blind rival the game at every score is the
    self-play one (the rational table's values), with certainty it is the blind table's game. Todo
    dicho is answered as the blind table answers it at every share."""
    _, _, sol, blind_sol = two_kinds
    none, sure = mixtures[0.0], mixtures[1.0]
    np.testing.assert_allclose(none["strategies"], sol["strategies"], atol=1e-6)
    np.testing.assert_allclose(none["V"], sol["V"], atol=1e-9)
    np.testing.assert_allclose(none["V_pie"], 1.0 - sol["V"], atol=1e-9)
    np.testing.assert_allclose(sure["strategies"], blind_sol["strategies"], atol=1e-6)
    np.testing.assert_allclose(sure["V"], blind_sol["V"], atol=1e-9)
    np.testing.assert_allclose(sure["V_pie"], blind_sol["V_pie"], atol=1e-9)
    np.testing.assert_allclose(sure["blind_value"], blind_sol["V"], atol=1e-9)
    for solved in mixtures.values():  # only a blind rival says todo dicho
        np.testing.assert_allclose(solved["todo_dicho"], blind_sol["todo_dicho"])


def test_the_more_blind_the_rival_may_be_the_more_the_table_takes_from_him_and_gives_a_rational_one(mixtures):
    rows = [mixtures[s] for s in (0.0, 0.5, 1.0)]
    for key in ("blind_value", "blind_value_pie"):
        got = [r[key][0, 0] for r in rows]
        assert got[0] < got[1] - 1e-3 and got[1] < got[2] + 1e-3
    for key in ("worst", "worst_pie"):
        got = [r[key][0, 0] for r in rows]
        assert got[0] > got[1] + 1e-3 and got[1] > got[2] - 1e-3
    assert max(r["exploitability"].max() for r in rows) < 5e-3


def test_a_bad_mixture_is_refused(two_kinds, tmp_path):
    rational, blind, _, _ = two_kinds
    cfg = E.EnvidoSolveConfig(target=rational.target, iterations=3, blind_share=0.5)
    with pytest.raises(ValueError, match="self-play table, then"):
        E.solve_mixture(cfg, blind, rational)
    with pytest.raises(ValueError, match="another game"):
        E.solve_mixture(E.EnvidoSolveConfig(target=rational.target + 1, blind_share=0.5), rational, blind)
    with pytest.raises(ValueError, match="blind_share"):
        E.solve_mixture(E.EnvidoSolveConfig(target=rational.target, blind_share=2.0), rational, blind)
    with pytest.raises(ValueError, match="give no rival"):
        E.run(E.EnvidoSolveConfig(mixture_of=(tmp_path / "a.npz", tmp_path / "b.npz"), rival="random",
                                  out=tmp_path / "t.npz", summary=tmp_path / "t.json"))


def test_the_mixture_command_writes_a_table_the_bot_reads(two_kinds, tmp_path):
    """``--mixture-of RATIONAL BLIND --blind-share p``: the table and its summary, read back."""
    import json

    from agents.envido_table import EnvidoTable
    from truque_env.io import write_npz_atomic

    _, _, sol, blind_sol = two_kinds
    T = sol["V"].shape[0]
    cfg = E.EnvidoSolveConfig(target=T, todo_dicho=True)
    paths = tmp_path / "rational.npz", tmp_path / "blind.npz"
    write_npz_atomic(paths[0], E.table_arrays(cfg, sol, _synthetic_points(T)), compressed=True)
    strong = np.asarray(two_kinds[1].Q)
    write_npz_atomic(paths[1], E.table_arrays(E.EnvidoSolveConfig(target=T, rival="random", todo_dicho=True),
                                              blind_sol, strong), compressed=True)
    out, summary = tmp_path / "mix.npz", tmp_path / "mix.json"
    E.main(["--mixture-of", str(paths[0]), str(paths[1]), "--blind-share", "0.5", "--target", str(T),
            "--iterations", "20", "--todo-dicho", "--out", str(out), "--summary", str(summary)])
    table = EnvidoTable(out)
    assert table.target == T and table.has_todo_dicho and table.V_pie is not None
    assert table.rival.startswith("random with chance 0.5")
    saved = json.loads(summary.read_text())
    assert saved["mixture_of"] == [str(p) for p in paths] and "against_the_blind_rival" in saved
    assert 0.0 < saved["against_a_rational_rivals_best_answer"]["first_mano"] < 1.0
