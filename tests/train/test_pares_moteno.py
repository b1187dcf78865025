"""The envite de pares of Truque Moteño solved as a game (train.cfr.pares_moteno): the deal, the
betting tree's pays against Arts. 6.16-6.22, the bet abstraction's legality against la falta, and
what an equilibrium must do with hands that cannot lose or cannot win."""

import itertools

import numpy as np
import pytest

from train.cfr import pares_moteno as P
from truque_env.traditions.moteno.rules import flor_value_nb, is_reservada_nb, pares_value_nb

FALTA_WORD = P.SLOT_FALTA - 1


def _word(n):
    return int(np.flatnonzero(P.ABSTRACT_N == n)[0]) + 1


def _node(sk, opener, *words):
    code = 1
    for w in words:
        code = P.NUM_WORDS1 * code + w
    return sk.node_of_code[opener, code]


@pytest.fixture(scope="module")
def sk():
    return P.build_skeleton(3)


def test_art_5_the_types_are_every_valor_de_pares_of_a_hand_without_flor():
    values = {pares_value_nb(*h) for h in itertools.combinations(range(40), 3)
              if not (flor_value_nb(*h) > 0 or is_reservada_nb(*h))}
    assert sorted(values) == list(P.PARES_VALUES)


def test_the_deal_is_every_pair_of_disjoint_hands_without_flor():
    prior = P.pares_prior()
    assert prior.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(prior, prior.T, atol=1e-15)  # the mano's and the pie's hands alike
    # the marginal of a type is its share of the hands without flor, nearly (the other hand's cards
    # are not free): 7 (the highest single card, no pair, no pieza) is a common hand
    assert (prior.sum(axis=1) > 0).all()


def test_art_6_22_a_tie_goes_to_the_mano():
    beats = P.showdown_beats()
    assert (np.diag(beats) == 1).all()
    assert beats[P.TYPE_OF_VALUE[20], P.TYPE_OF_VALUE[21]] == 0
    assert beats[P.TYPE_OF_VALUE[21], P.TYPE_OF_VALUE[20]] == 1


def test_art_6_18_a_first_envite_refused_pays_una_de_miedo(sk):
    for n in P.ABSTRACT_N:
        node = _node(sk, 0, _word(n))
        refused = sk.child[node, P.NO_QUIERO]
        assert sk.kind[refused] == P.K_REFUSED and sk.amount[refused] == 1 and sk.taker[refused] == 0
        accepted = sk.child[node, P.QUIERO]
        assert sk.kind[accepted] == P.K_SHOWDOWN and sk.amount[accepted] == 2 * n


def test_art_6_19_the_revoque_refused_pays_the_stake_before_it(sk):
    """"'un par' - 'un par más' - 'tres pares' - 'no quiero'; se ganan cuatro chinas": the pie's
    revoque, then the mano's, refused by the pie: the mano takes four."""
    node = _node(sk, 0, _word(1), _word(2), _word(3))
    assert sk.player[node] == 1
    refused = sk.child[node, P.NO_QUIERO]
    assert sk.amount[refused] == 4 and sk.taker[refused] == 0


def test_art_6_16_nothing_is_said_over_la_falta_and_the_chain_ends_in_it(sk):
    node = _node(sk, 1, FALTA_WORD)
    assert sk.player[node] == 0
    assert set(np.flatnonzero(sk.child[node] >= 0)) == {P.QUIERO, P.NO_QUIERO}
    # after max_words amounts only la falta is left
    node = _node(sk, 0, _word(1), _word(2), _word(3))
    assert set(np.flatnonzero(sk.child[node] >= 0)) == {P.QUIERO, P.NO_QUIERO, P.SLOT_FALTA}
    # each revoque is above the last word
    node = _node(sk, 0, _word(4))
    raises = [s for s in np.flatnonzero(sk.child[node] >= 0) if 2 <= s < P.SLOT_FALTA]
    assert [int(P.ABSTRACT_N[s - 2]) for s in raises] == [n for n in P.ABSTRACT_N if n > 4]


def test_art_6_7_no_envite_no_pares(sk):
    pie_open = sk.child[0, P.PASO]
    assert sk.player[pie_open] == 1 and sk.node_of_code[1, 1] == pie_open
    none = sk.child[pie_open, P.PASO]
    assert sk.kind[none] == P.K_NONE


def test_art_6_16_6_17_stakes_at_or_above_la_falta_are_la_falta():
    """0 - 27 to 30: la falta is three; only un par (two) stays below it. An accepted falta pays
    three, and the revoque refused over un par pays two."""
    sk = P.build_skeleton(3)
    T = 30
    Q = np.zeros((T + 1, T + 1))
    Q[1, 0] = Q[0, 1] = 0.5
    U = np.arange((T + 1) ** 2, dtype=np.float64).reshape(T + 1, T + 1)  # every pay tells its points apart
    game = P.score_game(sk, P.pares_prior(), P.showdown_beats(), U, 0, 27, T)
    root_words = [s for s in np.flatnonzero(game.child[0] >= 0) if s >= 2]
    assert root_words == [2, P.SLOT_FALTA]  # envío 1 par and la falta
    falta = _node(sk, 0, FALTA_WORD)
    assert game.win[game.child[falta, P.QUIERO]] == U[3, 0] and game.lose[game.child[falta, P.QUIERO]] == U[0, 3]
    over = _node(sk, 0, _word(1), FALTA_WORD)
    assert game.win[game.child[over, P.NO_QUIERO]] == U[0, 2]  # the pie's revoque: the pie takes two


@pytest.fixture(scope="module")
def solved(pares_table):
    cfg, out, points, _ = pares_table
    return cfg, out, points


def test_the_solve_is_an_equilibrium_at_every_score(solved):
    cfg, out, _ = solved
    T = cfg.target
    live = np.array([[max(a, b) < T - 1 for b in range(T)] for a in range(T)])
    assert out["exploitability"][live].max() < 5e-3
    assert ((out["V"] > 0) & (out["V"] < 1)).all()
    # the side nearer the target is likelier to win the juego
    assert out["V"][T - 2, 0] > out["V"][0, 0] > out["V"][0, T - 2]


def _own_reach(sk, child, strat, who, t):
    """The chance that ``who`` holding type ``t`` plays his way to each node (the rival's words free)."""
    reach = np.zeros(sk.player.size)
    reach[0] = 1.0
    for n in range(sk.player.size):  # parents come before their children
        if sk.player[n] < 0 or reach[n] == 0:
            continue
        for slot in np.flatnonzero(child[n] >= 0):
            own = strat[n, slot, t] if sk.player[n] == who else 1.0
            reach[child[n, slot]] += reach[n] * own
    return reach


def test_art_6_20_6_22_the_sure_winner_never_refuses_and_the_sure_loser_never_accepts(solved):
    """The mano holding the top pares wins every showdown: refusing only gives chinas away. The
    pie holding 0 loses every showdown: accepting only pays more than refusing. (Where the hand's
    own play leads: elsewhere its strategy is never played. Within 1%: the average strategy keeps
    the first iterations' uniform play.)"""
    cfg, out, _ = solved
    sk = out["skeleton"]
    row = out["node_row"]
    for a, b in [(0, 0), (3, 2), (5, 0)]:
        child = P.legal_children(sk, cfg.target - max(a, b))
        strat = np.zeros((sk.player.size, P.NUM_SLOTS, P.NUM_TYPES))
        strat[row >= 0] = out["strategies"][a, b][row[row >= 0]]
        checked = 0
        for who, t, never in ((0, P.NUM_TYPES - 1, P.NO_QUIERO), (1, 0, P.QUIERO)):
            reach = _own_reach(sk, child, strat, who, t)
            for node in np.flatnonzero((sk.kind == P.K_ANSWER) & (sk.player == who) & (reach > 1e-3)):
                assert strat[node, never, t] < 1e-2, (a, b, who, node)
                checked += 1
        assert checked > 3


def test_the_table_file_holds_the_solve(solved, tmp_path):
    from agents.pares_table import ParesTable
    from truque_env.io import write_npz_atomic

    cfg, out, Q = solved
    path = tmp_path / "t.npz"
    write_npz_atomic(path, P.table_arrays(cfg, out, Q), compressed=True)
    table = ParesTable(path)
    assert table.target == cfg.target and table.max_words == cfg.max_words
    np.testing.assert_allclose(table.strategies, out["strategies"], atol=2e-3)
    # a file of another kind is refused, with its name
    bad = tmp_path / "bad.npz"
    write_npz_atomic(bad, {"format": np.array("something else"), "version": np.array(1)})
    with pytest.raises(ValueError, match="not a pares table"):
        ParesTable(bad)
    with pytest.raises(ValueError, match="no pares table"):
        ParesTable(tmp_path / "missing.npz")


def test_bad_settings_are_refused(tmp_path):
    with pytest.raises(ValueError, match="max_words"):
        P.run(P.ParesSolveConfig(max_words=0, out=tmp_path / "t.npz", summary=tmp_path / "s.json"))
    cfg = P.ParesSolveConfig(target=8)
    with pytest.raises(ValueError, match="distribution of points"):
        P.solve_juego(cfg, np.ones((9, 9)))


def test_art_7_2_a_blind_envite_is_answered_by_the_chance_against_any_hand(solved):
    """After "luego te lo digo" the bot answers with its cards a sender who chose blind: quiero with
    every hand at least as good as one that accepts, the sure winner (the mano's top pares) always,
    the sure loser (the pie's 0) never; a larger envite is accepted by fewer hands."""
    cfg, out, _ = solved
    blind = out["blind_answers"]
    T = cfg.target
    assert blind.shape == (T, T, 2, 15, P.NUM_TYPES)
    for a, b in [(0, 0), (3, 2), (5, 0), (0, 5)]:
        for seat in (0, 1):
            acc = blind[a, b, seat]
            assert (np.diff(acc, axis=1) >= 0).all()  # better pares accept at least as often
            assert (np.diff(acc.sum(axis=1)) <= 0).all()  # more pares sent, fewer hands accept
        assert (blind[a, b, 0, :, -1] == 1).all() and (blind[a, b, 1, :, 0] == 0).all()
    # against any hand, un par is taken by most: the pie at 0-0 accepts it from 20 at the latest
    assert blind[0, 0, 1, 0, P.TYPE_OF_VALUE[20]] == 1


def test_the_command_writes_the_table_and_its_summary(tmp_path):
    """``python -m train.cfr.pares_moteno`` end to end, small: the points from random's self-play
    (juegos to 4), every score solved, the table readable, the summary with its load and config."""
    import json

    from agents.pares_table import ParesTable

    cfg = P.ParesSolveConfig(points_of="random", manos=1000, target=4, iterations=20, out=tmp_path / "t.npz",
                             summary=tmp_path / "s.json")
    P.run(cfg)
    table = ParesTable(cfg.out)
    assert table.target == 4 and table.strategies.shape[:2] == (4, 4)
    summary = json.loads(cfg.summary.read_text())
    assert summary["mano_points"]["manos"] == 1000 and summary["config"]["target"] == 4
    assert len(summary["load_average_before"]) == 3
    with pytest.raises(FileExistsError, match="--overwrite"):  # nothing written is lost
        P.run(cfg)


# -- a rival's model and the restricted Nash response to it ---------------------------------------
def _points(T):
    points = np.zeros((T + 1, T + 1))
    points[1, 0] = points[0, 1] = 0.3
    points[2, 0] = points[0, 2] = 0.2
    return points


def test_the_model_of_a_rival_is_his_counted_frequencies_where_he_was_seen_enough(sk):
    T = 8
    game = P.score_game(sk, P.pares_prior(), P.showdown_beats(), P.envido_payoffs(np.full((T, T), 0.5), _points(T),
                                                                                  0, 4, T), 0, 4, T)
    decision, _ = P.decision_rows(sk)
    row = {int(n): r for r, n in enumerate(decision)}
    counts = np.zeros((decision.size, P.NUM_SLOTS, P.NUM_TYPES))
    answer = _node(sk, 0, _word(1))  # the pie answers un par
    counts[row[answer], P.QUIERO, 5] = 30
    counts[row[answer], P.NO_QUIERO, 5] = 10
    counts[row[answer], P.QUIERO, 6] = 3  # seen too seldom: free
    opening = _node(sk, 0)  # the mano's opening: not the pie's node
    counts[row[opening], P.PASO, 5] = 50
    pie_opening = sk.child[opening, P.PASO]
    counts[row[pie_opening], 2 + int(np.flatnonzero(P.ABSTRACT_N == 3)[0]), 7] = 40  # tres pares: la falta at 4
    model = P.model_strategy(counts, game, decision, 1, min_count=20)
    np.testing.assert_allclose(model[answer, :, 5], [0.75, 0.25] + [0.0] * (P.NUM_SLOTS - 2))
    assert np.isnan(model[answer, :, 6]).all() and np.isnan(model[opening]).all()
    # 6.16, 6.17: six chinas at a falta of four are la falta
    assert model[pie_opening, P.SLOT_FALTA, 7] == 1.0 and np.nansum(model[pie_opening, :, 7]) == 1.0


def test_the_restricted_nash_response_is_the_equilibrium_at_share_0_and_takes_a_folder_at_share_1(pares_table):
    """Against a rival who refuses every envite (his model at every answer), the bot's best response
    (share 1) is to send with every hand: each envite takes una de miedo. At share 0 the model is
    ignored: the equilibrium again, whose mano does not send with every hand."""
    cfg, out, points, _ = pares_table
    sk = out["skeleton"]
    decision, _ = P.decision_rows(sk)
    folder = np.zeros((decision.size, P.NUM_SLOTS, P.NUM_TYPES))
    folder[sk.kind[decision] == P.K_ANSWER, P.NO_QUIERO] = 100
    folder[sk.kind[decision] == P.K_OPEN, P.PASO] = 100
    import dataclasses

    quick = dataclasses.replace(cfg, iterations=150)
    for share in (0.0, 1.0):
        got = P.solve_juego(dataclasses.replace(quick, rival_share=share), points, model=folder)
        sends = 1.0 - got["strategies"][0, 0, 0, P.PASO]  # the mano's opening (row 0), by type
        if share == 1.0:
            assert sends.min() > 0.97
            assert got["V"][0, 0] > out["V"][0, 0] + 0.05  # it beats the folder by more than the equilibrium
            assert got["worst"][0, 0] < got["V"][0, 0]  # and a free rival could punish it
        else:
            assert sends.min() < 0.5
            np.testing.assert_allclose(got["V"][0, 0], out["V"][0, 0], atol=2e-2)
            assert got["worst"][0, 0] == pytest.approx(got["V"][0, 0], abs=2e-2)


def test_a_rivals_envite_is_counted_at_the_tables_rows():
    """count_rival_pares: style_folder refuses every envite it meets and never sends one; random (whose
    openings are counted) sends at some and passes at others."""
    from agents.registry import load_policy

    T = 8
    sk = P.build_skeleton(3)
    decision, _ = P.decision_rows(sk)
    kinds = sk.kind[decision]
    folder = P.count_rival_pares(load_policy("random", seed=1, tradition="moteno"),
                                 load_policy("style_folder", seed=2, tradition="moteno"), 1500, target=T, seed=3)
    answers = folder[kinds == P.K_ANSWER]
    assert answers.sum() > 50 and answers[:, P.NO_QUIERO].sum() == answers.sum()
    assert folder[kinds == P.K_OPEN][:, 2:].sum() == 0 and folder[kinds == P.K_OPEN].sum() > 50  # random bets blind most manos
    rand = P.count_rival_pares(load_policy("style_folder", seed=1, tradition="moteno"),
                               load_policy("random", seed=2, tradition="moteno"), 1500, target=T, seed=3)
    openings = rand[kinds == P.K_OPEN]
    assert openings[:, P.PASO].sum() > 0 and openings[:, 2:].sum() > 0
    assert (rand[sk.player[decision] == -1].sum() == 0) and rand.shape == (decision.size, P.NUM_SLOTS, P.NUM_TYPES)


def test_the_command_solves_the_response_to_a_rival_and_says_what_it_gives_up(tmp_path):
    """``--rival``: the points and the model from the match against him, the table the bot plays
    (agents.pares_table reads it), and the summary with the model's coverage and the bot's chances
    against the rival's model and against a best answer."""
    import json

    from agents.pares_table import ParesTable

    cfg = P.ParesSolveConfig(points_of="random", rival="style_folder", rival_share=0.8, manos=1000, rival_manos=1000,
                             rival_min_count=5, target=4, iterations=20, out=tmp_path / "t.npz",
                             summary=tmp_path / "s.json")
    P.run(cfg)
    assert ParesTable(cfg.out).target == 4
    rival = json.loads(cfg.summary.read_text())["rival"]
    assert rival["name"] == "style_folder" and rival["share"] == 0.8 and rival["decisions_counted"] > 0
    first = rival["first_mano"]
    assert first["bot_mano_against_a_best_answer"] <= first["bot_mano"] + 1e-6
    with pytest.raises(ValueError, match="rival_share must be in"):
        P.run(P.ParesSolveConfig(rival="style_folder", rival_share=1.5, out=tmp_path / "u.npz",
                                 summary=tmp_path / "u.json"))
