"""The Moteño bot that plays the envite de pares from the solved table (agents.pares_table): its
numba kernel against a plain-Python twin under random play, the table's words against the
engine's legal ones, the reading of amounts outside the abstraction, the fallbacks, and the
registry's entry."""

import math

import numpy as np
import pytest

from agents.pares_table import ParesTable, ParesTablePolicy, abstract_word
from tests.agents import table_helpers
from train.cfr import pares_moteno as P
from truque_env.policy import nth_legal
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.traditions.moteno.rules import flor_value, is_reservada, pares_value
from truque_env.vector import VectorEnv

PHASE = O.SLICES["phase"][0]
SENAS = range(A.SENA_BASE, A.SENA_BASE + A.NUM_SENAS)
FLOR_WORDS = {A.LUEGO, A.FLOR, A.CON_FLOR_QUIERO, A.CON_FLOR_NO_QUIERO, A.DE_LA_MIA,
              *range(A.FLORES_BASE, A.FLORES_BASE + A.MAX_FLORES_N)}
PARES_WORDS = {*range(A.PARES_BASE, A.PARES_BASE + A.MAX_PARES_N), A.FALTA}


_part, _slice = table_helpers.readers(O)


def word_of(n, last, falta):
    """abstract_word the long way: la falta at or above it, else the nearest amount (log scale)
    above the last word and below la falta, la falta if none is left."""
    falta_word = P.ABSTRACT_N.size + 1
    if n == 0 or 2 * n >= falta:
        return falta_word
    options = [k for k in range(last + 1, falta_word) if 2 * P.ABSTRACT_N[k - 1] < falta]
    if not options:
        return falta_word
    return min(options, key=lambda k: (abs(math.log(P.ABSTRACT_N[k - 1] / n)), k))


def twin(o, mask, p, table, sk):
    """The table's decision read the long way: (used, probabilities, (the skeleton's legal slots, opening))."""
    p = p.copy()
    if _slice(o, "team_size")[0] != 1 or _part(o, "target_falta.target")[0] != table.target:
        return False, p, None
    if _part(o, "pares.blind_accepted")[0] or _part(o, "falta_ciegas.sent_by_mine")[0] \
            or _part(o, "falta_ciegas.sent_by_rival")[0]:
        return False, p, None
    phase, state, kind = _slice(o, "phase"), _part(o, "pares.state"), _part(o, "exchange.kind")
    senas = sum(p[k] for k in SENAS)
    new = np.zeros_like(p)
    for k in SENAS:
        new[k] = p[k]
    answer_pares = phase[6] == 1 and kind[1] == 1 and _part(o, "exchange.answering_mine")[0] == 1
    blind_rival = _part(o, "juego_record.rival")[3] >= 2  # two leaves: the base answers blind envites
    if answer_pares and _part(o, "exchange.blind")[0] == 1:  # 7.2: luego te lo digo
        if not mask[A.LUEGO] or blind_rival or _part(o, "pares.stake")[0] > 3:  # up to tres pares
            return False, p, None
        new[A.LUEGO] = 1 - senas
        return True, new, "blind"
    opening = phase[3] == 1 and state[0] == 1 and mask[A.PARES_BASE]
    answering = answer_pares and _part(o, "exchange.standing")[0] == 1 and state[1] == 1
    if not (opening or answering):
        return False, p, None
    hand = [c for c in range(40) if _slice(o, "hand")[c] or _slice(o, "played_by")[0, c]]
    if len(hand) != 3 or flor_value(hand) > 0 or is_reservada(hand):
        return False, p, None
    t = P.TYPE_OF_VALUE[pares_value(hand)]
    me = 0 if _slice(o, "position")[0] == 1 else 1
    mine, rival = (int(x) for x in _slice(o, "score"))
    a, b = (mine, rival) if me == 0 else (rival, mine)
    falta = table.target - max(a, b)
    history = [(int(s) - 1, int(x) - 1) for s, x in _slice(o, "history") if s]
    words = [(s, x) for s, x in history if x in PARES_WORDS or x in FLOR_WORDS]
    if answering and not blind_rival and len(words) == 2 and words[0][0] == 1 and words[0][1] != A.FALTA \
            and words[1] == (0, A.LUEGO) and words[0][1] - A.PARES_BASE + 1 <= 3:
        if not (mask[A.QUIERO] and mask[A.NO_QUIERO]):
            return False, p, None
        accept = float(table.blind_answers[a, b, me, words[0][1] - A.PARES_BASE, t])
        new[A.QUIERO], new[A.NO_QUIERO] = (1 - senas) * accept, (1 - senas) * (1 - accept)
        return True, new, "blind"
    if any(x in FLOR_WORDS for _, x in history):
        return False, p, None
    chain = [(s, x) for s, x in history if x in PARES_WORDS]
    code, last = 1, 0
    for i, (_, x) in enumerate(chain):
        if last == P.SLOT_FALTA - 1:
            return False, p, None
        w = word_of(0 if x == A.FALTA else x - A.PARES_BASE + 1, last, falta)
        if i >= table.max_words and w != P.SLOT_FALTA - 1:
            return False, p, None
        code, last = P.NUM_WORDS1 * code + w, w
    if len(chain) > table.max_words + 1:
        return False, p, None
    opener = me if not chain or chain[0][0] == 0 else 1 - me
    node = sk.node_of_code[opener, code]
    if node < 0 or sk.player[node] != me:
        return False, p, None
    row = table.row_of_code[opener, code]
    where = (a, b, row, t, last, falta, opening)  # what table_decisions reads
    strat = table.strategies[a, b, row, :, t].astype(np.float64)
    if any(strat[s] > 0 and not (opening and s == 0) and not mask[table.slot_action[s]] for s in range(P.NUM_SLOTS)):
        return False, p, ("guard", where)
    if opening:
        others = [k for k in range(A.NUM_ACTIONS) if mask[k] and k not in SENAS and k not in PARES_WORDS]
        total = sum(p[k] for k in others)
        for k in others:
            new[k] = (1 - senas) * strat[0] * p[k] / total
        for s in range(2, P.NUM_SLOTS):
            new[table.slot_action[s]] = (1 - senas) * strat[s]
    else:
        for s in range(P.NUM_SLOTS):
            new[table.slot_action[s]] = (1 - senas) * strat[s]
    legal = [s for s in range(P.NUM_SLOTS) if P.legal_children(sk, falta)[node, s] >= 0]
    return True, new, (legal, opening, len(chain), where)


def _random_play(path, team_size=1, steps=500, seed=0, target=8):
    """The table's bot (on a uniform base) at the even seats, a uniform player at the odd ones
    (who sends every amount of the catalogue); yields the bot's rows before each step. In the
    blind round both pass, but in one table of eight: a blind bet takes the table out of the mano."""
    env = VectorEnv(64, tradition="moteno", team_size=team_size, target=target, seed=seed)
    env.reset(seed=seed)
    pol = ParesTablePolicy(table_helpers.UniformBase(), path, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mine = env.seat % 2 == 0
        obs, mask = env.obs[mine].copy(), env.mask[mine].copy()
        yield obs, mask, pol.action_probs(obs, mask), pol
        actions = nth_legal(env.mask, rng.random(64))
        actions[mine] = pol.act_batch(obs, mask, keys=rng.integers(0, 2**63, size=int(mine.sum()), dtype=np.uint64))
        blind = env.obs[:, PHASE] == 1
        actions[blind & (np.arange(64) % 8 != 0)] = A.PASO
        env.step(actions)


def test_the_kernel_is_its_twin_and_the_tables_words_are_the_engines(pares_table):
    cfg, out, _, path = pares_table
    table, sk = ParesTable(path), out["skeleton"]
    base = table_helpers.UniformBase()
    used = {"opening": 0, "answer": 0, "blind": 0}
    for obs, mask, probs, _ in _random_play(path):
        base_p = base.action_probs(obs, mask)
        for i in range(obs.shape[0]):
            applies, expected, legal = twin(obs[i], mask[i], base_p[i], table, sk)
            table_helpers.assert_row_is_twins(probs[i], expected, mask[i])
            if not applies:
                continue
            if legal == "blind":
                used["blind"] += 1
                continue
            legal_slots, opening, _, _ = legal
            used["opening" if opening else "answer"] += 1
            if opening:  # 6.16: every amount below la falta and la falta itself are the engine's to say
                engine = [s for s in range(2, P.NUM_SLOTS) if mask[i][table.slot_action[s]]]
                assert [s for s in legal_slots if s >= 2] == [s for s in engine if s in legal_slots]
                assert P.SLOT_FALTA in engine and all(s in engine for s in legal_slots if s >= 2)
    assert used["opening"] > 50 and used["answer"] > 50 and used["blind"] > 20


def decision_twin(where, action):
    """table_decisions the long way: (a, b, row, type, slot) of ``action`` at a decision of the
    table's game (``where``, from the twin), None where it is not one (a seña, another word)."""
    a, b, row, t, last, falta, opening = where
    if action in SENAS:
        return None
    if action in PARES_WORDS:
        slot = 1 + word_of(0 if action == A.FALTA else action - A.PARES_BASE + 1, last, falta)
    elif opening or action == A.QUIERO:
        slot = 0
    elif action == A.NO_QUIERO:
        slot = 1
    else:
        return None
    return (a, b, row, t, slot)


def test_the_decisions_a_rivals_play_is_counted_by_are_their_twins(pares_table):
    """ParesTable.decisions (train.cfr.pares_moteno's model of a rival counts them) for every legal
    action at the bot's rows under random play: the table's decisions by the twin's reading, -1 at
    every other row and action."""
    _, out, _, path = pares_table
    table, sk = ParesTable(path), out["skeleton"]
    base = table_helpers.UniformBase()
    counted = {"opening": 0, "answer": 0}
    for obs, mask, _, _ in _random_play(path, steps=250):
        base_p = base.action_probs(obs, mask)
        for i in range(obs.shape[0]):
            applies, _, legal = twin(obs[i], mask[i], base_p[i], table, sk)
            where = None
            if applies and legal != "blind":
                where = legal[3]
            elif legal is not None and legal[0] == "guard":
                where = legal[1]
            actions = np.flatnonzero(mask[i])
            got = table.decisions(np.repeat(obs[i : i + 1], actions.size, axis=0),
                                  np.repeat(mask[i : i + 1], actions.size, axis=0), actions)
            for action, row in zip(actions, got, strict=True):
                expected = None if where is None else decision_twin(where, int(action))
                assert (tuple(int(x) for x in row) if row[2] >= 0 else None) == expected, (i, action)
                if expected is not None:
                    counted["opening" if where[6] else "answer"] += 1
    assert counted["opening"] > 100 and counted["answer"] > 100


def test_amounts_outside_the_abstraction_are_read_as_the_nearest_above_the_chain():
    n = P.ABSTRACT_N
    falta_word = n.size + 1
    word = {int(m): k + 1 for k, m in enumerate(n)}
    assert abstract_word(2, 0, 30, n) == word[2]  # an amount of the abstraction is itself
    assert abstract_word(5, 0, 30, n) == word[6]  # log 6/5 < log 5/4
    assert abstract_word(7, 0, 30, n) == word[6]
    assert abstract_word(5, word[6], 30, n) == word[9]  # above the chain's last word
    assert abstract_word(13, word[12], 30, n) == falta_word  # nothing left below la falta
    assert abstract_word(0, 0, 30, n) == falta_word  # envío la falta
    assert abstract_word(4, 0, 8, n) == falta_word  # 6.17: eight chinas at a falta of eight
    assert abstract_word(3, 0, 8, n) == word[3]
    for m in range(1, 16):
        for last in range(falta_word):
            for falta in (3, 8, 17, 30):
                assert abstract_word(m, last, falta, n) == word_of(m, last, falta)


def test_the_base_plays_where_the_table_does_not_know_the_game(pares_table):
    """2 contra 2 (the pares of partners are not in the table), another target."""
    *_, path = pares_table
    for team_size, target in ((2, 8), (1, 9)):
        env = VectorEnv(32, tradition="moteno", team_size=team_size, target=target, seed=3)
        env.reset(seed=3)
        pol = ParesTablePolicy(table_helpers.UniformBase(), path)
        rng = np.random.default_rng(0)
        for _ in range(200):
            probs = pol.action_probs(env.obs, env.mask)
            np.testing.assert_allclose(probs, table_helpers.UniformBase().action_probs(env.obs, env.mask))
            env.step(nth_legal(env.mask, rng.random(32)))
        assert pol.used == 0


def test_the_table_needs_a_base_with_probabilities(pares_table):
    *_, path = pares_table
    with pytest.raises(ValueError, match="action_probs"):
        ParesTablePolicy(object(), path)


def test_the_registry_plays_a_moteno_bot_with_the_table():
    """``<bot>+pares``: any Moteño bot with action probabilities; ``ppo`` has the table already."""
    from agents.ppo_policy import PPOPolicy
    from agents.registry import MOTENO_PARES_TABLE, load_policy

    table = ParesTable(MOTENO_PARES_TABLE)
    assert (table.target, table.team_size, table.max_words) == (30, 1, 3)
    bot = load_policy("ppo_network+pares", seed=0)
    assert isinstance(bot, ParesTablePolicy) and isinstance(bot.base, PPOPolicy) and bot.name == "ppo_network+pares"
    shipped = load_policy("ppo+pares", seed=0)
    assert isinstance(shipped, ParesTablePolicy) and not isinstance(shipped.base, ParesTablePolicy)
    assert shipped.name == "ppo+pares"
    with pytest.raises(ValueError, match="Moteño's"):
        load_policy("ppo+pares", tradition="argentino")


def test_the_shipped_ppo_is_its_network_with_the_table_1_contra_1_only():
    """At 2 contra 2 ``ppo`` is its network (trained with the table, configs/ppo_moteno_league_v20.toml)
    action for action; 1 contra 1 the table takes the envite's decisions."""
    from agents.ppo_policy import PPOPolicy
    from agents.registry import MOTENO_BOT, load_policy

    for team_size in (2, 1):
        ppo, switch = load_policy("ppo", seed=0), PPOPolicy(MOTENO_BOT, seed=0)
        env = VectorEnv(32, tradition="moteno", team_size=team_size, seed=5)
        env.reset(seed=5)
        rng = np.random.default_rng(1)
        differ = 0
        for _ in range(120):
            a, b = ppo.action_probs(env.obs, env.mask), switch.action_probs(env.obs, env.mask)
            differ += int((np.abs(a - b).max(axis=1) > 1e-6).sum())
            env.step(nth_legal(env.mask, rng.random(32)))
        if team_size == 2:
            assert differ == 0 and ppo.used == 0
        else:
            assert 20 < differ <= ppo.used  # only where the table played
