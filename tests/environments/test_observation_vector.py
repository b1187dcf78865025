"""The observation tensor (what a player may know) and the vector environment."""

from __future__ import annotations

import numpy as np
import pytest

from truque_env import Table
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno import observation as O
from truque_env.vector import RewardAccumulator, VectorEnv


def test_slices_tile_the_observation():
    offsets = sorted((off, int(np.prod(shape))) for off, shape in O.SLICES.values())
    pos = 0
    for off, size in offsets:
        assert off == pos
        pos += size
    assert pos == O.OBS_SIZE


def _random_mid_mano(team_size, seed, steps):
    t = Table(team_size=team_size, seed=seed, senas_per_mano=1)
    hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    rng = np.random.default_rng(seed)
    t.deal()
    for _ in range(steps):
        if t.done:
            break
        legal = t.legal_ids()
        a = legal[rng.integers(len(legal))]
        assert O.step_recording(t.state, hist, a) == 0
    return t, hist


def _observe(t, hist, seat):
    out = np.zeros(O.OBS_SIZE, dtype=np.int8)
    O.observe(t.state, hist, seat, out)
    return out


@pytest.mark.parametrize("team_size", [1, 2, 3, 4])
def test_hidden_cards_do_not_change_what_a_player_observes(team_size):
    """Two states that differ only in cards a player cannot see give him the same observation."""
    checked = 0
    for seed in range(200):
        t, hist = _random_mid_mano(team_size, seed, steps=int(np.random.default_rng(seed).integers(1, 40)))
        if t.done:
            continue
        s = t.state
        n = 2 * team_size
        me = int(seed % n)
        # the hidden cards: unplayed cards of the others, not laid face up, plus the undealt deck
        hidden_slots = [
            L.HAND + 3 * q + k
            for q in range(n)
            if q != me and not (int(s[L.CARDS_UP]) >> q) & 1
            for k in range(3)
            if not (int(s[L.HAND_PLAYED + q]) >> k) & 1
        ]
        dealt = {int(c) for c in s[L.HAND : L.HAND + 3 * n]}
        pool = [int(s[i]) for i in hidden_slots] + [c for c in range(40) if c not in dealt]
        rng = np.random.default_rng(seed + 1000)
        rng.shuffle(pool)
        before = _observe(t, hist, me)
        other = t.state.copy()
        for i, c in zip(hidden_slots, pool, strict=False):
            other[i] = c
        t2 = Table(team_size=team_size)
        t2.state[:] = other
        assert np.array_equal(before, _observe(t2, hist, me)), f"seed {seed}"
        checked += 1
    assert checked > 40


def test_own_cards_hidden_during_the_blind_round_and_seen_after():
    t = Table(team_size=1, seed=2)
    hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    t.deal(hands=["11B 7E 3C", "1E 2O 4C"], dealer=1)
    obs = O.split(_observe(t, hist, 0))
    assert obs["hand"].sum() == 0 and obs["phase"][L.PH_BLIND] == 1
    t.act("paso")
    t.act("paso")
    obs = O.split(_observe(t, hist, 0))
    assert sorted(np.flatnonzero(obs["hand"])) == sorted([38, 26, 12])  # 11B, 7E, 3C


def test_senas_seen_partner_always_rival_only_when_intercepted():
    t = Table(team_size=2, seed=0, senas_per_mano=1, p_intercept=0.0)
    hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    t.deal(hands=["11B 7E 3C", "1E 2O 4C", "5O 6O 7O", "1B 2B 3B"], dealer=3)
    while t.phase == "blind":
        t.act("paso")
    t.act("seña: perro")  # seat 0
    partner = O.split(_observe(t, hist, 2))["senas_seen"]
    rival = O.split(_observe(t, hist, 1))["senas_seen"]
    own = O.split(_observe(t, hist, 0))["senas_seen"]
    perro = A.SENA_NAMES.index("perro")
    assert partner[2, perro] == 1  # seat 0 is relative seat 2 for seat 2 (n=4)
    assert own[0, perro] == 1
    assert rival.sum() == 0


def test_vector_env_shapes_zero_sum_and_determinism():
    def run(seed):
        env = VectorEnv(64, team_size=2, episode="mano", seed=seed)
        obs, mask, seat, info = env.reset()
        assert obs.shape == (64, O.OBS_SIZE) and mask.shape == (64, A.NUM_ACTIONS)
        rng = np.arange(64, dtype=np.int64) + seed
        trace = []
        for _ in range(300):
            a = env.sample_actions(rng)
            assert (mask[np.arange(64), a] == 1).all()
            obs, mask, seat, rew, term, info = env.step(a)
            assert np.allclose(rew.sum(axis=1), 0)  # zero-sum between teams
            assert (rew[:, 4:] == 0).all()
            trace.append((a.copy(), rew.copy(), term.copy(), obs.copy()))
        return trace

    a, b = run(3), run(3)
    assert all(np.array_equal(x, y) for ta, tb in zip(a, b, strict=True) for x, y in zip(ta, tb, strict=True))
    assert sum(t[2].sum() for t in a) > 0


def test_vector_env_observation_matches_single_table():
    env = VectorEnv(8, team_size=3, seed=5)
    obs, mask, seat, _ = env.reset()
    for _ in range(50):
        for i in range(8):
            out = np.zeros(O.OBS_SIZE, dtype=np.int8)
            O.observe(env.states[i], env.hists[i], int(seat[i]), out)
            assert np.array_equal(out, obs[i])
            assert int(env.states[i, L.TO_ACT]) == seat[i]
        obs, mask, seat, *_ = env.step(env.sample_actions(np.arange(8, dtype=np.int64)))


def test_juego_episodes_reward_the_winner():
    env = VectorEnv(32, team_size=1, episode="juego", target=10, seed=1)
    env.reset()
    rng = np.arange(32, dtype=np.int64)
    acc = RewardAccumulator(32)
    total = np.zeros(32)
    ended = 0
    winners = {0: 0, 1: 0}
    for _ in range(3000):
        before = env.states.copy()
        actions = env.sample_actions(rng)
        _, _, _, rew, term, _ = env.step(actions)
        acc.on_step(rew, term)
        total += rew[:, 0]
        assert np.array_equal(rew[:, 1], -rew[:, 0])  # zero-sum between the teams
        for i in np.flatnonzero(term):
            # the table was reset: replay its last step on a copy with the scalar kernel to see
            # who won the juego, and check the reward went to that team
            shadow = before[i].copy()
            K.step_unchecked(shadow, int(actions[i]))
            winner = int(shadow[L.LAST_JUEGO_WINNER])
            assert winner in (0, 1)
            assert rew[i, 0] == shadow[L.SCORED] - shadow[L.SCORED + 1]
            # seat 0 is of team 0: its juego total is positive exactly when team 0 won
            assert (total[i] > 0) == (winner == 0) and total[i] != 0
            winners[winner] += 1
            total[i] = 0
            ended += 1
    assert ended > 50 and min(winners.values()) > 10


def test_vector_env_illegal_action_is_a_clear_error_and_changes_nothing():
    env = VectorEnv(4, team_size=1, seed=0)
    _, mask, _, _ = env.reset()
    before = env.states.copy()
    actions = np.array([int(np.flatnonzero(mask[i])[0]) for i in range(4)])
    actions[2] = A.QUIERO  # nothing to answer in the blind round
    with pytest.raises(ValueError, match="table 2: illegal action quiero"):
        env.step(actions)
    assert np.array_equal(before, env.states)
    with pytest.raises(ValueError, match="shape"):
        env.step(actions[:3])
    with pytest.raises(ValueError, match="episode"):
        VectorEnv(4, episode="set")


def test_duplicate_deals_repeat_whatever_is_played():
    """Tables with one deal seed get the same hands mano after mano, even when play differs."""
    env = VectorEnv(4, team_size=2, episode="juego", seed=0)
    env.reset(table_seeds=[7, 7, 8, 8], deal_seeds=[100, 100, 100, 200])
    hands = {i: [] for i in range(4)}
    rng = np.arange(4, dtype=np.int64) * 31 + 1  # different random play on every table
    for _ in range(400):
        for i in range(4):
            if int(env.states[i, L.MANO_COUNT]) > len(hands[i]) - 1:
                hands[i].append(tuple(env.states[i, L.HAND : L.HAND + 12]))
        env.step(env.sample_actions(rng))
    k = min(len(hands[0]), len(hands[1]), len(hands[2]))
    assert k >= 5
    assert hands[0][:k] == hands[1][:k]  # same deal seed, same table seed
    # same deal seed, another first dealer: the same deck, dealt from another seat
    def by_seat(h):
        return sorted(tuple(sorted(h[3 * q : 3 * q + 3])) for q in range(4))

    assert [by_seat(h) for h in hands[0][:k]] == [by_seat(h) for h in hands[2][:k]]
    assert hands[0][:k] != hands[3][:k]


def test_cante_values_are_public():
    """8.2: each player sings his pares aloud in the cante; everybody observes the values."""
    t = Table(team_size=1, seed=0)
    hist = np.zeros(O.HISTORY_SIZE, dtype=np.int16)
    t.deal(hands=["11B 7E 3C", "1E 2O 4C"], dealer=1, scores=(29, 10))  # team 0 al cantar
    assert t.phase == "cante"
    for _ in range(2):
        a = A.action_id("canto pares")
        O.step_recording(t.state, hist, a)
    cante = O.split(_observe(t, hist, 1))["cante"]
    assert cante[1] == 38  # seat 0 is relative seat 1 for seat 1: el perro + 7 = 38
    assert cante[0] == 4  # his own: 1E 2O 4C, three suits, the highest is 4


def test_decode_names_the_parts_the_encoder_writes():
    """One table of parts (observation.PARTS) for the encoder and every reader: after seat 0's
    'envío 2 pares' a ciegas, the rival to answer reads the bet by name."""
    import truque_env
    from truque_env.traditions.moteno import layout as Lm
    from truque_env.traditions.moteno import observation as Om

    assert all(b > a for a, b in Om.PARTS.values())
    env = truque_env.raw_env(team_size=1, seed=0)
    env.reset(seed=0)
    bettor = env.agent_selection
    env.step(A.action_id("envío 2 pares"))
    me = env.agent_selection
    assert me != bettor
    d = Om.decode(env.observe(me)["observation"])
    assert int(np.argmax(d["pares.state"])) == Lm.BET_OPEN and int(d["pares.stake"]) == 2
    assert int(np.argmax(d["pares.raiser"])) == 1  # relative seat 1: my rival
    assert int(np.argmax(d["exchange.kind"])) == Lm.EX_PARES and int(d["exchange.answering_mine"]) == 1
    assert int(np.argmax(d["exchange.standing"])) == 0 and int(d["exchange.blind"]) == 1
    assert int(d["target_falta.target"]) == 30 and int(d["juegos.to_win"]) == 2
    assert d["bets_by_seat.pares_stake"].shape == (8, 1) and int(d["bets_by_seat.pares_stake"][1, 0]) == 2
    assert int(np.argmax(d["truco.state"])) == Lm.BET_NONE


@pytest.mark.parametrize("tradition", ["moteno", "argentino"])
def test_juego_reward_pays_one_to_the_juego_winner_and_nothing_else(tradition):
    """``reward="juego"``: +1 / -1 to the teams when a juego is won, 0 for the points of a mano."""
    pts = VectorEnv(16, tradition=tradition, team_size=1, seed=5, episode="juego")
    win = VectorEnv(16, tradition=tradition, team_size=1, seed=5, episode="juego", reward="juego")
    pts.reset()
    win.reset()
    rng_a, rng_b = np.arange(16, dtype=np.int64), np.arange(16, dtype=np.int64)
    juegos = 0
    for _ in range(400):
        _, _, _, r_pts, term_pts, _ = pts.step(pts.sample_actions(rng_a))
        _, _, _, r_win, term_win, _ = win.step(win.sample_actions(rng_b))
        assert np.array_equal(term_pts, term_win)  # the same play: only the rewards differ
        assert set(np.unique(r_win[:, :2])) <= {-1.0, 0.0, 1.0}
        assert (r_win[~term_win] == 0).all()
        ended = np.flatnonzero(term_win)
        juegos += ended.size
        for i in ended:  # (the winner's last mano may still net it fewer points than the rival's)
            assert r_win[i, 0] == -r_win[i, 1] and abs(r_win[i, 0]) == 1
    assert juegos > 0
    with pytest.raises(ValueError, match="episode must be juego or partida"):
        VectorEnv(2, tradition=tradition, episode="mano", reward="juego")
    with pytest.raises(ValueError, match="reward must be one of"):
        VectorEnv(2, tradition=tradition, reward="tantos")
