"""Engine invariants under random legal play, determinism, batching, and bad input.

The invariant run plays manos inside a numba kernel so the slow form reaches 10^6 manos.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from truque_env import Table
from truque_env.engine.rng import splitmix_next
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import batch as B
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L

# error codes of the invariant kernel
EMPTY_MASK, NEGATIVE_CHINAS, FALTA_CAP, BAD_HAND, DUPLICATE_CARD, ILLEGAL_CARD, BAD_TO_ACT = range(1, 8)


@njit(cache=True)
def _check_manos(s, n_manos, seed, errors):
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    x = np.uint64(seed)
    n = s[L.N_PLAYERS]
    for _ in range(n_manos):
        if s[L.PARTIDA_OVER]:
            B.new_partida(s)
        K.deal_random(s)
        seen = np.zeros(40, dtype=np.int64)
        for seat in range(n):
            for k in range(3):
                c = s[L.HAND + 3 * seat + k]
                if c < 0 or c >= 40:
                    errors[BAD_HAND] += 1
                else:
                    seen[c] += 1
        for c in range(40):
            if seen[c] > 1:
                errors[DUPLICATE_CARD] += 1
        while s[L.PHASE] != L.PH_DONE:
            p = s[L.TO_ACT]
            if p < 0 or p >= n:
                errors[BAD_TO_ACT] += 1
                break
            K.legal_mask(s, mask)
            count = 0
            for a in range(A.NUM_ACTIONS):
                count += mask[a]
                # a card offered must be in the player's hand and not yet played
                if mask[a] and A.PLAY_BASE <= a < A.PLAY_BASE + 40:
                    ok = False
                    for k in range(3):
                        if s[L.HAND + 3 * p + k] == a - A.PLAY_BASE and (s[L.HAND_PLAYED + p] >> k) & 1 == 0:
                            ok = True
                    if not ok:
                        errors[ILLEGAL_CARD] += 1
            if count == 0:
                errors[EMPTY_MASK] += 1
                break
            x, z = splitmix_next(x)
            k = np.int64(z % np.uint64(count))
            for a in range(A.NUM_ACTIONS):
                if mask[a]:
                    if k == 0:
                        K.step_unchecked(s, a)
                        break
                    k -= 1
        for i in range(6):
            if s[L.CHINAS + i] < 0:
                errors[NEGATIVE_CHINAS] += 1
        for team in range(2):
            # 6.16-6.17: an envite de pares never wins more than la falta
            if s[L.CHINAS + 3 * team + L.SRC_PARES] > max(s[L.FALTA], 1):
                errors[FALTA_CAP] += 1


def _run_invariants(team_size, manos, seed, senas=1):
    t = Table(team_size=team_size, seed=seed, senas_per_mano=senas, target=30)
    errors = np.zeros(8, dtype=np.int64)
    _check_manos(t.state, manos, seed + 17, errors)
    assert errors.sum() == 0, dict(zip(
        ["", "empty mask", "negative chinas", "falta cap", "bad hand", "duplicate card", "illegal card", "bad to_act"],
        errors.tolist(), strict=True))


@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_random_play_invariants_short(team_size):
    _run_invariants(team_size, 3000, seed=team_size)


@pytest.mark.slow
@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_random_play_invariants_million_manos(team_size):
    _run_invariants(team_size, 1_000_000, seed=100 + team_size)
    _run_invariants(team_size, 10_000, seed=200 + team_size, senas=0)


def _trajectory(seed, team_size, manos=30):
    rng = np.random.default_rng(seed)
    t = Table(team_size=team_size, seed=seed)
    out = []
    for _ in range(manos):
        if t.partida_over:
            break
        t.deal()
        while not t.done:
            legal = t.legal_ids()
            a = legal[rng.integers(len(legal))]
            out.append((t.to_act, a))
            t.act(a)
        out.append(tuple(t.result().values()))
    return out, t.state.copy()


def test_same_seed_same_trajectory():
    a, sa = _trajectory(5, 2)
    b, sb = _trajectory(5, 2)
    c, _ = _trajectory(6, 2)
    assert a == b and np.array_equal(sa, sb)
    assert a != c


def test_batched_kernels_match_single_table():
    n_tables, team_size = 16, 2
    states = np.zeros((n_tables, L.STATE_SIZE), dtype=L.STATE_DTYPE)
    seeds = np.arange(n_tables, dtype=np.int64) * 3 + 1
    B.init_tables(states, team_size, 30, 3, 1, 100, seeds)
    tables = [Table(team_size=team_size, seed=int(sd)) for sd in seeds]
    for i, t in enumerate(tables):
        assert np.array_equal(states[i], t.state)
    B.deal_where(states, np.ones(n_tables, dtype=np.bool_))
    for t in tables:
        t.deal()
    masks = np.zeros((n_tables, A.NUM_ACTIONS), dtype=np.uint8)
    errors = np.zeros(n_tables, dtype=np.int64)
    rng = np.random.default_rng(0)
    for _ in range(60):
        B.legal_masks(states, masks)
        actions = np.full(n_tables, -1, dtype=np.int64)
        for i, t in enumerate(tables):
            legal = t.legal_ids()
            assert legal == list(np.flatnonzero(masks[i])) or t.done
            if not t.done:
                actions[i] = legal[rng.integers(len(legal))]
                t.act(int(actions[i]))
        B.step_tables(states, actions, masks, errors)
        for i, t in enumerate(tables):
            assert np.array_equal(states[i], t.state)
            assert errors[i] == (K.OK if actions[i] >= 0 else K.ERR_DONE)


def test_step_kernel_rejects_illegal_and_keeps_state():
    t = Table(team_size=1, seed=3)
    t.deal()
    before = t.state.copy()
    assert K.step(t.state, A.QUIERO) == K.ERR_ILLEGAL  # nothing to answer during the blind round
    assert K.step(t.state, 10_000) == K.ERR_ILLEGAL
    assert np.array_equal(before, t.state)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"variant": "uruguayo"}, "unknown variant"),
        ({"team_size": 5}, "team_size"),
        ({"team_size": 0}, "team_size"),
        ({"target": 1}, "target"),
        ({"juegos": 2}, "juegos"),
        ({"senas_per_mano": 3, "team_size": 4}, "senas_per_mano"),
        ({"p_intercept": 1.5}, "p_intercept"),
        ({"p_intercept": 0.1234}, "p_intercept"),
    ],
)
def test_bad_config_is_a_clear_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Table(**kwargs)


def test_bad_deals_are_clear_errors():
    t = Table(team_size=1)
    with pytest.raises(ValueError, match="expected 2 hands"):
        t.deal(hands=["11B 7E 3C"])
    with pytest.raises(ValueError, match="dealt twice"):
        t.deal(hands=["11B 7E 3C", "11B 1E 2O"])
    with pytest.raises(ValueError, match="13O"):
        t.deal(hands=["11B 7E 3C", "13O 1E 2O"])
    with pytest.raises(ValueError, match="dealer"):
        t.deal(dealer=2)
    with pytest.raises(ValueError, match="scores"):
        t.deal(scores=(30, 0))
    t.deal()
    with pytest.raises(ValueError, match="in progress"):
        t.deal()


def test_illegal_action_names_the_legal_ones_and_keeps_state():
    t = Table(team_size=1, seed=1)
    t.deal(hands=["11B 7E 3C", "1E 2O 4C"], dealer=1)
    before = t.state.copy()
    with pytest.raises(ValueError, match=r"illegal action 'quiero'.*legal: paso, truco"):
        t.act("quiero")
    with pytest.raises(ValueError, match="unknown action"):
        t.act("tuco")  # 17.11: a confusing word is no action
    with pytest.raises(ValueError, match="does not parse"):
        t.act("juego 13O")
    assert np.array_equal(before, t.state)


def test_state_fits_in_512_bytes():
    assert L.STATE_BYTES <= 512


def test_query_kernels_agree_with_the_table():
    t = Table(team_size=2, seed=4)
    t.deal()
    rng = np.random.default_rng(4)
    out = np.zeros((2, 3), dtype=np.int64)
    while not t.done:
        assert K.to_act(t.state) == t.to_act
        assert not K.mano_result(t.state, out)
        legal = t.legal_ids()
        t.act(legal[rng.integers(len(legal))])
    assert K.to_act(t.state) == -1
    assert K.mano_result(t.state, out)
    assert {src: (int(out[0, i]), int(out[1, i])) for i, src in enumerate(("pares", "flores", "truque"))} == t.result()


@njit(cache=True)
def _longest_mano(s, n_manos, seed):
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    x = np.uint64(seed)
    longest = 0
    most_chinas = 0
    for _ in range(n_manos):
        if s[L.PARTIDA_OVER]:
            B.new_partida(s)
        K.deal_random(s)
        steps = 0
        while s[L.PHASE] != L.PH_DONE:
            K.legal_mask(s, mask)
            x, a = B._pick_uniform(mask, x)
            K.step_unchecked(s, a)
            steps += 1
        longest = max(longest, steps)
        for team in range(2):
            most_chinas = max(most_chinas, s[L.CHINAS + 3 * team] + s[L.CHINAS + 3 * team + 1] + s[L.CHINAS + 3 * team + 2])
    return longest, most_chinas


@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_metadata_bounds_hold_under_random_play(team_size):
    from truque_env.traditions.moteno import metadata as M

    t = Table(team_size=team_size, seed=9, senas_per_mano=2)
    longest, most = _longest_mano(t.state, 5000, 9)
    assert 0 < longest <= M.max_decisions_per_mano(team_size, 2)
    assert most <= M.max_chinas_per_mano(team_size, 30)
