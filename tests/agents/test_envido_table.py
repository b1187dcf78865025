"""The bot that plays the envido from the solved table (agents.envido_table): its numba kernel
against a plain-Python twin under random play, the table's legality against the engine's, the
fallbacks, the file checks, and the registry's ``+envido``."""

import numpy as np
import pytest

from agents.envido_table import SHIPPED_TABLE, EnvidoTable, EnvidoTablePolicy
from agents.registry import ARGENTINO_BLIND_FIRST_MANOS, load_policy
from tests.agents import table_helpers
from tests.conftest import ENVIDO_TABLE_TARGET
from train.cfr import envido_argentino as E
from truque_env.io import write_npz_atomic
from truque_env.policy import nth_legal
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import observation as O
from truque_env.traditions.argentino.rules import envido_value
from truque_env.vector import VectorEnv

TARGET = ENVIDO_TABLE_TARGET
SLOT_ACTIONS = [A.QUIERO, A.NO_QUIERO, A.ENVIDO, A.REAL_ENVIDO, A.FALTA_ENVIDO]
SENAS = range(A.SENA_BASE, A.SENA_BASE + A.NUM_SENAS)


class UniformBase(table_helpers.UniformBase):
    """Every legal action alike, at the sizes the envido tables play."""

    team_sizes = (1, 2)


@pytest.fixture(scope="module")
def table_path(envido_table_path):
    return envido_table_path


_part, _slice = table_helpers.readers(O)


def twin(o, mask, p, table, sk):
    """The table's decision read the long way: (used, probabilities, the skeleton's legal slots or None)."""
    p = p.copy()
    if _slice(o, "team_size")[table.team_size - 1] != 1 or _part(o, "target_falta.target")[0] != table.target \
            or mask[A.FLOR]:
        return False, p, None
    # in teams the table's mano is the mano's team: my offset from the mano is even
    i_am_mano = int(np.argmax(_slice(o, "position"))) % 2 == 0
    me = 0 if i_am_mano else 1
    history = [(int(s) - 1, int(a) - 1) for s, a in _slice(o, "history") if s]
    words_said = [a for _, a in history if a not in SENAS]
    if words_said and words_said[-1] == A.TODO_DICHO and mask[A.SIN_LEY_PASO_Y_QUIERO]:
        return _todo_dicho_twin(o, mask, p, table, i_am_mano)
    if any(a == A.TODO_DICHO or A.FLOR <= a <= A.AL_RESTO or A.SIN_LEY_QUIERO_Y_PASO <= a < A.TRUCO
           for _, a in history):
        return False, p, None
    words = {A.ENVIDO: 1, A.REAL_ENVIDO: 2, A.FALTA_ENVIDO: 3,
             A.ENVIDO_Y_TRUCO: 1, A.ENVIDO_Y_TRUCO + 1: 2, A.ENVIDO_Y_TRUCO + 2: 3}
    chain = [(s, a) for s, a in history if a in words]
    double = any(a >= A.ENVIDO_Y_TRUCO for _, a in chain)
    if len(chain) > table.max_raises + 1:
        return False, p, None
    phase, kind = _slice(o, "phase"), _part(o, "exchange.kind")
    mine = _part(o, "exchange.answering_mine")[0] == 1
    if double:
        answering = phase[2] == 1 and kind[3] == 1 and mine and len(chain) == 1
    else:
        answering = phase[2] == 1 and kind[1] == 1 and mine
    may_open = any(mask[A.ENVIDO + k] for k in range(3))
    code = 1
    for _, a in chain:
        code = 4 * code + words[a]
    if not chain:
        if not may_open or _part(o, "envido.state")[0] != 1:
            return False, p, None
        opener_role, opening = me, True
    else:
        if not answering:
            return False, p, None
        opener_role, opening = (me if chain[0][0] % 2 == 0 else 1 - me), False
    node = sk.node_of_code[opener_role, code]
    if node < 0 or sk.player[node] != me:
        return False, p, None
    cards = [c for c in range(40) if _slice(o, "hand")[c] or _slice(o, "played_by")[0, c]]
    t = E.TYPE_OF_VALUE[envido_value(cards)]
    mine, rival = _slice(o, "score")
    a, b = (mine, rival) if i_am_mano else (rival, mine)
    row = table.row_of_code[opener_role, code]
    strat = table.strategies[a, b, row, :, t].astype(np.float64)
    falta = table.target - max(a, b)
    legal_slots = [s for s in range(5) if E.legal_children(sk, falta)[node, s] >= 0]
    senas = sum(p[k] for k in SENAS)
    if opening:
        others = [k for k in range(A.NUM_ACTIONS) if mask[k] and k not in SENAS
                  and not (A.ENVIDO <= k <= A.FALTA_ENVIDO or A.ENVIDO_Y_TRUCO <= k < A.ENVIDO_Y_TRUCO + 3)]
        total = sum(p[k] for k in others)
        new = np.zeros_like(p)
        for k in SENAS:
            new[k] = p[k]
        for k in others:
            new[k] = (1 - senas) * strat[0] * p[k] / total
        for s in (2, 3, 4):
            new[SLOT_ACTIONS[s]] = (1 - senas) * strat[s]
    elif double:  # the envido by the table, the truco by the base's chance of accepting it
        yes = p[A.QUIERO] + p[A.SIN_LEY_PASO_Y_QUIERO] + sum(p[A.Y_QUIERO_RETRUCO + k] for k in range(3))
        no = p[A.NO_QUIERO] + p[A.SIN_LEY_QUIERO_Y_PASO]
        acc = yes / (yes + no)
        new = np.zeros_like(p)
        for k in SENAS:
            new[k] = p[k]
        new[A.QUIERO] = (1 - senas) * strat[0] * acc
        new[A.SIN_LEY_QUIERO_Y_PASO] = (1 - senas) * (strat[0] + strat[2:].sum()) * (1 - acc)
        new[A.SIN_LEY_PASO_Y_QUIERO] = (1 - senas) * strat[1] * acc
        new[A.NO_QUIERO] = (1 - senas) * strat[1] * (1 - acc)
        for k in range(3):
            new[A.Y_QUIERO_RETRUCO + k] = (1 - senas) * strat[2 + k] * acc
    else:
        new = np.zeros_like(p)
        for k in SENAS:
            new[k] = p[k]
        for s in range(5):
            new[SLOT_ACTIONS[s]] = (1 - senas) * strat[s]
    return True, new, (legal_slots, opening, len(chain), double)


def _todo_dicho_twin(o, mask, p, table, i_am_mano):
    """A33: the falta accepted with the table's chance for this seat and envido, the truco with the
    base's (its quiero and "sin ley paso y quiero" against the four answers)."""
    cards = [c for c in range(40) if _slice(o, "hand")[c] or _slice(o, "played_by")[0, c]]
    t = E.TYPE_OF_VALUE[envido_value(cards)]
    mine, rival = _slice(o, "score")
    a, b = (mine, rival) if i_am_mano else (rival, mine)
    if t < 0 or max(a, b) >= table.target:
        return False, p, None
    accept = float(table.todo_dicho[a, b, 0 if i_am_mano else 1, t])
    senas = sum(p[k] for k in SENAS)
    acc = (p[A.QUIERO] + p[A.SIN_LEY_PASO_Y_QUIERO]) / (
        p[A.QUIERO] + p[A.SIN_LEY_PASO_Y_QUIERO] + p[A.NO_QUIERO] + p[A.SIN_LEY_QUIERO_Y_PASO])
    new = np.zeros_like(p)
    for k in SENAS:
        new[k] = p[k]
    new[A.QUIERO] = (1 - senas) * accept * acc
    new[A.SIN_LEY_QUIERO_Y_PASO] = (1 - senas) * accept * (1 - acc)
    new[A.SIN_LEY_PASO_Y_QUIERO] = (1 - senas) * (1 - accept) * acc
    new[A.NO_QUIERO] = (1 - senas) * (1 - accept) * (1 - acc)
    return True, new, "todo dicho"


def _random_play(table_path, team_size=1, steps=400, seed=0, target=TARGET):
    """The table's bot (on a uniform base) at the even seats, a uniform player at the odd ones (who
    also says the envido with the truco, which the table's bot never does); yields the bot's rows."""
    env = VectorEnv(64, tradition="argentino", team_size=team_size, target=target, seed=seed)
    env.reset(seed=seed)
    pol = EnvidoTablePolicy(UniformBase(), table_path, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mine = env.seat % 2 == 0
        obs, mask = env.obs[mine].copy(), env.mask[mine].copy()
        probs = pol.action_probs(obs, mask)
        yield obs, mask, probs, pol
        actions = nth_legal(env.mask, rng.random(64))
        actions[mine] = pol.act_batch(obs, mask, keys=rng.integers(0, 2**63, size=int(mine.sum()), dtype=np.uint64))
        env.step(actions)


@pytest.mark.parametrize("team_size", [1, 2])
def test_the_kernel_is_its_twin_and_the_table_legality_is_the_engines(table_path, envido_table_2v2_path, team_size):
    """Mano a mano, and at 2 contra 2 with the team table (the mano's team is the table's mano; an
    opener of my team is at an even relative seat)."""
    path = table_path if team_size == 1 else envido_table_2v2_path
    table, sk = EnvidoTable(path), E.build_skeleton(3)
    assert table.team_size == team_size
    base = UniformBase()
    used = {"opening": 0, "answer": 0, "double": 0, "todo dicho": 0}
    for obs, mask, probs, _ in _random_play(path, team_size=team_size, steps=400):
        base_p = base.action_probs(obs, mask)
        for i in range(obs.shape[0]):
            applies, expected, legal = twin(obs[i], mask[i], base_p[i], table, sk)
            table_helpers.assert_row_is_twins(probs[i], expected, mask[i])
            if legal == "todo dicho":
                used["todo dicho"] += 1
            elif applies:
                legal_slots, opening, words, double = legal
                actions = [A.QUIERO, A.NO_QUIERO, *range(A.Y_QUIERO_RETRUCO, A.Y_QUIERO_RETRUCO + 3)] if double \
                    else SLOT_ACTIONS
                engine = [s for s in range(2 if opening else 0, 5) if mask[i][actions[s]]]
                table_slots = [s for s in legal_slots if not (opening and s == 0)]
                if words < table.max_raises:
                    assert table_slots == engine  # the skeleton's legal words are the engine's
                else:
                    assert set(table_slots) <= set(engine)
                used["double" if double else "opening" if opening else "answer"] += 1
    assert used["opening"] > 100 and used["answer"] > 100 and used["double"] > 20 and used["todo dicho"] > 20


def test_not_used_at_another_team_size_nor_at_another_target(table_path, envido_table_2v2_path):
    for path, team_size, target in ((table_path, 2, TARGET), (table_path, 1, 10), (envido_table_2v2_path, 1, TARGET),
                                    (envido_table_2v2_path, 2, 10)):
        seen = list(_random_play(path, team_size=team_size, steps=60, target=target))
        for obs, mask, probs, _ in seen:
            np.testing.assert_allclose(probs, UniformBase().action_probs(obs, mask))
        assert seen[-1][3].used == 0


def test_the_same_seed_gives_the_same_trajectory(table_path):
    a = [x for _, _, x, _ in _random_play(table_path, steps=40, seed=3)]
    b = [x for _, _, x, _ in _random_play(table_path, steps=40, seed=3)]
    assert len(a) == len(b) == 40
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_a_bad_table_is_a_clear_error(tmp_path, table_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a table")
    with pytest.raises(ValueError, match="envido table"):
        EnvidoTable(bad)
    with pytest.raises(ValueError, match="no envido table"):
        EnvidoTable(tmp_path / "missing.npz")
    z = dict(np.load(table_path))
    z["strategies"] = z["strategies"][:, :, :3]
    cut = tmp_path / "cut.npz"
    write_npz_atomic(cut, z)
    with pytest.raises(ValueError, match="do not fit"):
        EnvidoTable(cut)
    with pytest.raises(ValueError, match="action_probs"):
        EnvidoTablePolicy(object(), table_path)


def test_the_registry_adds_the_table_to_a_bot():
    if not SHIPPED_TABLE.exists():
        pytest.skip("the shipped table is built by train.cfr.envido_argentino")
    pol = load_policy("ppo+envido", tradition="argentino")
    assert isinstance(pol, EnvidoTablePolicy) and pol.name == "ppo+envido" and pol.team_sizes == (1, 2)
    assert pol.table.target == 30 and pol.table.flor and not pol.table.falta_match
    shipped = load_policy("ppo", tradition="argentino")  # the table already: "+envido" adds nothing
    assert shipped.blind_table is not None and shipped.blind_table.rival == "random"
    assert shipped.blind_first_manos == ARGENTINO_BLIND_FIRST_MANOS > 0 and shipped.blind_leaves == {1: 2, 2: 3}
    assert shipped.prior_table is not None and shipped.prior_table.rival.startswith("random with chance 0.7")
    assert shipped.prior_table.V_pie is not None and shipped.prior_table.has_todo_dicho
    # 2 contra 2: the team's blind and prior tables (train.cfr.envido_teams), and no plain table there
    assert sorted(shipped.tables) == [1] and sorted(shipped.blind_tables) == sorted(shipped.prior_tables) == [1, 2]
    assert shipped.blind_tables[2].rival == "random" and shipped.prior_tables[2].rival.startswith("random with chance 0.7")
    assert pol.blind_table is not None and pol.table.path == shipped.table.path
    with pytest.raises(ValueError, match="action_probs"):
        load_policy("heuristic+envido", tradition="argentino")
    with pytest.raises(ValueError, match="argentino"):
        load_policy("ppo+envido", tradition="moteno")


@pytest.fixture(scope="module")
def blind_table_path(tmp_path_factory):
    """A table against a rival whose envido is blind 90% of the time and who gives away more of the
    rest of the mano (train.cfr.envido_argentino: two distributions of points, blind_share)."""
    T = TARGET
    Q = np.zeros((2, T + 1, T + 1))
    Q[0, 2, 0] = Q[0, 0, 1] = 0.5  # the bot mano
    Q[1, 1, 0] = Q[1, 0, 2] = 0.5  # the rival mano
    cfg = E.EnvidoSolveConfig(target=T, iterations=200, blind_share=0.9, todo_dicho=True)
    path = tmp_path_factory.mktemp("blind") / "blind.npz"
    write_npz_atomic(path, E.table_arrays(cfg, E.solve_juego(cfg, Q), Q), compressed=True)
    return path


@pytest.mark.parametrize("leaves, rate, first", [(2, 0.0, 0), (1, 0.0, 0), (1, 0.34, 0), (2, 0.0, 2)])
def test_the_blind_table_plays_against_a_rival_who_leaves_manos(table_path, blind_table_path, leaves, rate, first):
    """Rows where the juego's record shows the sign (the rival left ``blind_leaves`` manos, al mazo,
    and at least ``blind_leave_rate`` of the manos finished) take the blind rival's table, and so do
    the rows of the juego's first ``blind_first_manos`` manos; the others the table. The record's
    fields are the rival's leaves and the manos finished. Two leaves and no first manos by default."""
    from agents.envido_table import RECORD_MANOS, RIVAL_LEAVES

    assert RECORD_MANOS == O.SLICES["juego_record"][0] and RIVAL_LEAVES == RECORD_MANOS + 1 + 4 + 3  # his 4th kind
    both = EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_leaves=leaves,
                             blind_leave_rate=rate, blind_first_manos=first)
    default = EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path)
    assert default.blind_leaves == 2 and default.blind_first_manos == 0
    plain, blind_only = EnvidoTablePolicy(UniformBase(), table_path), EnvidoTablePolicy(UniformBase(), blind_table_path)
    seen = {True: 0, False: 0}
    differ = early = 0
    for obs, mask, _, _ in _random_play(table_path, steps=300, seed=4):
        left = obs[:, RIVAL_LEAVES].astype(int)
        blind = ((left >= leaves) & (left >= rate * obs[:, RECORD_MANOS])) | (obs[:, RECORD_MANOS] < first)
        early += int(((obs[:, RECORD_MANOS] < first) & (left < leaves)).sum())
        got = both.action_probs(obs, mask)
        expected = np.where(blind[:, None], blind_only.action_probs(obs, mask), plain.action_probs(obs, mask))
        np.testing.assert_allclose(got, expected)
        differ += int((np.abs(blind_only.action_probs(obs, mask) - plain.action_probs(obs, mask)).max(axis=1) > 1e-3).sum())
        for b in (True, False):
            seen[b] += int((blind == b).sum())
    assert seen[True] > 100 and seen[False] > 100 and differ > 20
    assert (early > 100) == (first > 0)  # rows blind by the first manos alone


def test_a_prior_table_plays_the_first_manos_and_the_sign_still_wins(table_path, blind_table_path):
    """With ``prior_table``, the rows of the juego's first ``blind_first_manos`` manos take it, rows
    with the sign take the blind table even then, the others the table. Here the tables are swapped
    about so that each route gives other probabilities: the prior is the blind fixture, the "blind
    table" the plain one."""
    from agents.envido_table import RECORD_MANOS, RIVAL_LEAVES

    routed = EnvidoTablePolicy(UniformBase(), table_path, blind_table=table_path, blind_leaves=1, blind_first_manos=2,
                               prior_table=blind_table_path)
    plain, prior = EnvidoTablePolicy(UniformBase(), table_path), EnvidoTablePolicy(UniformBase(), blind_table_path)
    early_seen = sign_seen = differ = 0
    for obs, mask, _, _ in _random_play(table_path, steps=300, seed=4):
        sign = obs[:, RIVAL_LEAVES] >= 1
        early = ~sign & (obs[:, RECORD_MANOS] < 2)
        expected = np.where(early[:, None], prior.action_probs(obs, mask), plain.action_probs(obs, mask))
        np.testing.assert_allclose(routed.action_probs(obs, mask), expected)
        differ += int((np.abs(expected - plain.action_probs(obs, mask)).max(axis=1) > 1e-3).sum())
        early_seen += int(early.sum())
        sign_seen += int((sign & (obs[:, RECORD_MANOS] < 2)).sum())
    assert early_seen > 100 and sign_seen > 20 and differ > 20


def test_a_bad_blind_table_setting_is_refused(table_path, blind_table_path):
    with pytest.raises(ValueError, match="different targets"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=_other_target(blind_table_path))
    for bad in ({"blind_leaves": 0}, {"blind_leaves": 1.5}, {"blind_leave_rate": 2.0}):
        with pytest.raises(ValueError, match="blind_leaves must be"):
            EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, **bad)
    for bad in (-1, 1.5):
        with pytest.raises(ValueError, match="blind_first_manos must be"):
            EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_first_manos=bad)
    with pytest.raises(ValueError, match="needs a blind_table"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_first_manos=3)
    with pytest.raises(ValueError, match="prior_table plays the juego's first"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, prior_table=blind_table_path)
    with pytest.raises(ValueError, match="a prior table for target"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_first_manos=2,
                          prior_table=_other_target(blind_table_path))
    with pytest.raises(ValueError, match="no envido table"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_first_manos=2,
                          prior_table=table_path.parent / "missing.npz")


def test_set_blind_play_keeps_what_is_not_given_and_refuses_as_a_whole(table_path, blind_table_path):
    """The studies change the settings through ``set_blind_play``: the same checks as the constructor,
    the settings not given stay, and a refused change leaves every setting as it was."""
    bot = EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_leaves=3,
                            blind_first_manos=4, prior_table=blind_table_path)
    prior = bot.prior_table
    bot.set_blind_play(blind_leaves=1)
    assert (bot.blind_leaves, bot.blind_leave_rate, bot.blind_first_manos, bot.prior_table) == (1, 0.0, 4, prior)
    with pytest.raises(ValueError, match="prior_table plays the juego's first"):
        bot.set_blind_play(blind_first_manos=0)  # the prior table would be left without its manos
    with pytest.raises(ValueError, match="blind_first_manos must be"):
        bot.set_blind_play(blind_leaves=2, blind_first_manos=-1)
    assert (bot.blind_leaves, bot.blind_first_manos, bot.prior_table) == (1, 4, prior)
    bot.set_blind_play(blind_first_manos=0, prior_table=None)
    assert (bot.blind_first_manos, bot.prior_table) == (0, None)
    with pytest.raises(ValueError, match="needs a blind_table"):
        EnvidoTablePolicy(UniformBase(), table_path).set_blind_play(blind_first_manos=1)


@pytest.mark.parametrize("team_size", [1, 2])
def test_tables_of_two_team_sizes_each_play_at_their_own(table_path, envido_table_2v2_path, blind_table_path,
                                                          team_size):
    """One table per team size: at each size the bot plays as the bot with that size's table alone
    (and its blind table, given for 1 contra 1 only: at 2 contra 2 the sign changes nothing)."""
    both = EnvidoTablePolicy(UniformBase(), (table_path, envido_table_2v2_path), blind_table=blind_table_path,
                             blind_leaves=1)
    assert sorted(both.tables) == [1, 2] and both.table.team_size == 1
    alone = EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_leaves=1) \
        if team_size == 1 else EnvidoTablePolicy(UniformBase(), envido_table_2v2_path)
    used = 0
    for obs, mask, _, _ in _random_play(table_path, team_size=team_size, steps=200, seed=6):
        expected = alone.action_probs(obs, mask)
        np.testing.assert_allclose(both.action_probs(obs, mask), expected)
        used += int((np.abs(expected - UniformBase().action_probs(obs, mask)).max(axis=1) > 1e-6).sum())
    assert used > 50


@pytest.mark.parametrize("leaves", [1, 2])
def test_a_blind_table_alone_at_a_size_plays_only_after_the_sign(table_path, envido_table_2v2_path, leaves):
    """At 2 contra 2 with a blind table and no table: the base plays until the rival shows the sign
    (the leaves asked at that size), then the blind table (here the 2v2 fixture in that role)."""
    from agents.envido_table import RIVAL_LEAVES

    bot = EnvidoTablePolicy(UniformBase(), table_path, blind_table=envido_table_2v2_path, blind_leaves={2: leaves})
    team = EnvidoTablePolicy(UniformBase(), envido_table_2v2_path)
    signed = 0
    for obs, mask, _, _ in _random_play(table_path, team_size=2, steps=300, seed=7):
        sign = obs[:, RIVAL_LEAVES] >= leaves
        expected = np.where(sign[:, None], team.action_probs(obs, mask), UniformBase().action_probs(obs, mask))
        np.testing.assert_allclose(bot.action_probs(obs, mask), expected)
        signed += int((sign & (np.abs(expected - UniformBase().action_probs(obs, mask)).max(axis=1) > 1e-6)).sum())
    assert signed > 20


def test_tables_by_team_size_are_checked(table_path, envido_table_2v2_path, blind_table_path):
    with pytest.raises(ValueError, match="two tables for 1 contra 1"):
        EnvidoTablePolicy(UniformBase(), (table_path, blind_table_path))
    with pytest.raises(ValueError, match="blind_leaves must be"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_leaves={4: 2})
    with pytest.raises(ValueError, match="no number for 1 contra 1"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=blind_table_path, blind_leaves={2: 3})
    with pytest.raises(ValueError, match="two blind tables for 1 contra 1"):
        EnvidoTablePolicy(UniformBase(), table_path, blind_table=(blind_table_path, table_path))
    with pytest.raises(ValueError, match="needs a table"):
        EnvidoTablePolicy(UniformBase(), ())
    with pytest.raises(ValueError, match="a table for target"):
        EnvidoTablePolicy(UniformBase(), (table_path, _other_target(envido_table_2v2_path)))


def _other_target(path):
    z = dict(np.load(path))
    z["target"] = np.array(int(z["target"]) + 1)
    t = int(z["target"])
    z["strategies"] = np.zeros((t, t, *z["strategies"].shape[2:]), dtype=np.float16)
    z["todo_dicho"] = np.zeros((t, t, *z["todo_dicho"].shape[2:]), dtype=np.float16)
    out = path.with_name("other_target.npz")
    write_npz_atomic(out, z)
    return out
