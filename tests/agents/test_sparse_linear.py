"""The network's sparse input: features of the observation, and the sparse first layer."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents import features as F
from agents.sparse_linear import SparseLinear, int8_csr
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.vector import VectorEnv


def _observations(team_size=3, steps=60, n=32, seed=0):
    env = VectorEnv(n, team_size=team_size, seed=seed)
    obs, mask, *_ = env.reset()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        out.append(obs.copy())
        p = mask / mask.sum(axis=1, keepdims=True)
        obs, mask, *_ = env.step((p.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1))
    return np.concatenate(out)


def test_features_copy_the_observation_and_one_hot_the_history():
    obs = _observations()
    x = F.dense(obs)
    assert x.shape == (obs.shape[0], F.NUM_FEATURES)
    head = obs[:, : F.HISTORY_START].astype(np.float32) * F.SCALE
    assert np.allclose(x[:, : F.HISTORY_START], head)
    hist = x[:, F.HISTORY_BASE :].reshape(obs.shape[0], F.HISTORY_LEN, F.ENTRY_WIDTH)
    raw = obs[:, F.HISTORY_START : F.HISTORY_START + 2 * F.HISTORY_LEN].reshape(obs.shape[0], F.HISTORY_LEN, 2)
    raw = raw.astype(np.int64)
    filled = raw[:, :, 1] > 0
    assert filled.any()  # random play says words
    # a filled entry: exactly one seat and one action set, the ones the raw entry names
    assert (hist[:, :, : 8].sum(axis=2) == filled).all() and (hist[:, :, 8:].sum(axis=2) == filled).all()
    r, e = np.nonzero(filled)
    assert (hist[r, e, raw[r, e, 0] - 1] == 1).all()
    assert (hist[r, e, 8 + raw[r, e, 1] - 1] == 1).all()
    scaled = F.SCALE < 1
    assert x[:, : F.HISTORY_START][:, scaled].max() <= 1.5  # chinas and stakes scaled to about [0, 1]
    assert x.max() <= 8  # the rest: one-hots, flags and counts of words
    assert 0 < x[:, O.SLICES["score"][0]].max()


def test_int8_rows_keep_their_values():
    x = (np.arange(6 * O.HIDDEN_SIZE).reshape(6, -1) % 7 == 0).astype(np.int8) * 3
    indptr, cols, vals = int8_csr(x)
    rows = np.repeat(np.arange(6), np.diff(indptr))
    dense = np.zeros(x.shape, dtype=np.float32)
    dense[rows, cols] = vals
    assert np.array_equal(dense, x)


def test_sampling_follows_the_masked_distribution_and_never_picks_an_illegal_action():
    from train.ppo.loop import sample

    gen = torch.Generator().manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, 2.0, 0.5]]).repeat(20000, 1)
    mask = torch.tensor([[0, 1, 1, 0]]).repeat(20000, 1)
    masked = logits.masked_fill(mask == 0, float("-inf"))
    action, logp = sample(masked, gen)
    assert set(action.tolist()) == {1, 2}
    p2 = float(torch.softmax(torch.tensor([1.0, 2.0]), 0)[1])
    assert abs((action == 2).float().mean().item() - p2) < 0.015
    assert torch.allclose(logp, torch.log_softmax(masked, -1).gather(-1, action[:, None]).squeeze(-1))
    first_only = torch.full((1000, 5), float("-inf"))
    first_only[:, 0] = 0.0
    assert (sample(first_only, gen)[0] == 0).all()
    last_only = torch.full((1000, 5), float("-inf"))
    last_only[:, 4] = 3.0
    assert (sample(last_only, gen)[0] == 4).all()


def test_a_keyed_uniform_that_rounds_to_one_takes_the_last_legal_action():
    """A decision key's uniform within 2**-25 of 1 is 1.0 in float32: it once sampled one past the
    last action (index 77 of 77, a league run stopped on it at update 5,499)."""
    from train.ppo.loop import sample

    logits = torch.tensor([[0.3, 1.0, float("-inf"), 2.0, float("-inf")]]).repeat(3, 1)
    u = np.array([1.0 - 1e-12, 1.0 - 2.0**-26, 0.0])
    assert float(torch.as_tensor(u[0], dtype=torch.float32)) == 1.0  # the rounding itself
    action, logp = sample(logits, u=u)
    assert action.tolist() == [3, 3, 0]  # the last legal action, not the illegal last one nor 5
    assert torch.isfinite(logp).all()


def test_bad_inputs_are_clear_errors():
    with pytest.raises(ValueError, match="int8 observations"):
        F.to_csr(np.zeros((2, O.OBS_SIZE), dtype=np.float32))
    with pytest.raises(ValueError, match="int8 array"):
        int8_csr(np.zeros((2, 3), dtype=np.float32))
    layer = SparseLinear(10, 4)
    with pytest.raises(ValueError, match="outside"):
        layer((np.array([0, 1]), np.array([10]), np.array([1.0], dtype=np.float32)))


def test_sparse_layer_equals_the_dense_layer_in_value_and_gradient():
    obs = _observations(steps=20)
    gen = torch.Generator().manual_seed(0)
    layer = SparseLinear(F.NUM_FEATURES, 16, generator=gen)
    with torch.no_grad():
        layer.bias.normal_(generator=gen)
    weight = layer.weight.detach().clone().requires_grad_()
    bias = layer.bias.detach().clone().requires_grad_()
    y_sparse = layer(F.to_csr(obs))
    y_dense = torch.from_numpy(F.dense(obs)) @ weight + bias
    assert torch.allclose(y_sparse, y_dense, atol=1e-4)
    g = torch.randn(y_dense.shape, generator=gen)
    (y_sparse * g).sum().backward()
    (y_dense * g).sum().backward()
    assert torch.allclose(layer.weight.grad, weight.grad, atol=1e-3)
    assert torch.allclose(layer.bias.grad, bias.grad, atol=1e-4)
    assert layer.weight.grad.shape == weight.grad.shape == (F.NUM_FEATURES, 16)  # (in, out)
    used = np.unique(F.to_csr(obs)[1])  # the features some row has: the only rows with a gradient
    nonzero = np.flatnonzero(layer.weight.grad.abs().sum(dim=1).numpy())
    assert nonzero.size > 0 and set(nonzero.tolist()) <= set(used.tolist())
    # an empty row is the bias alone
    empty = layer((np.array([0, 0]), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)))
    assert torch.equal(empty[0], layer.bias.detach())


def test_actions_fit_the_history_one_hot():
    assert F.ENTRY_WIDTH == 8 + A.NUM_ACTIONS


def _hand_summary_reference(row: np.ndarray) -> set[int]:
    """The hand summary's columns of one observation row, read the slow way (the plain-Python reference rules)."""
    from tests.reference.moteno_ref import flor_value, has_flor, is_reservada, pares_value
    from tests.reference.moteno_ref import truque_power as ref_power

    def truque_power(card):  # the reference ranks 4 (cuatros) .. 20 (el perro); the engine 1 .. 17
        return ref_power(card) - 3

    start = O.SLICES
    hand = [c for c in range(40) if row[start["hand"][0] + c]]
    dealt = sorted(hand + [c for c in range(40) if row[start["played_by"][0] + c]])
    if len(dealt) != 3:
        return set()
    d = F.DERIVED_START
    cols = {d["known"]}
    cols |= {d["pares"] + t for t in range(31) if pares_value(dealt) >= 2 * (t + 1)}
    if has_flor(dealt):
        cols.add(d["flor"])
        if is_reservada(dealt):
            cols.add(d["flor"] + 1)
        cols |= {d["flor_value"] + t for t in range(24) if flor_value(dealt) >= 20 + 3 * t}
    powers = sorted((truque_power(c) for c in hand), reverse=True)
    cols |= {d["power"] + 17 * j + p - 1 for j, p in enumerate(powers)}
    baza = [b for b in range(3) if row[start["baza"][0] + b]]
    table = [c for c in range(40) if baza and row[start["played_in"][0] + 40 * baza[0] + c]]
    if table:
        def seat_of(c):
            return next(r for r in range(8) if row[start["played_by"][0] + 40 * r + c])

        best = max(truque_power(c) for c in table)
        sides = {seat_of(c) % 2 for c in table if truque_power(c) == best}  # 0: my team
        cols |= {d["table"] + best - 1, d["holder"] + (2 if sides == {0, 1} else (0 if sides == {0} else 1))}
        cols.add(d["beat"] + sum(p > best for p in powers))
        cols.add(d["tie"] + sum(p == best for p in powers))
    return cols


@pytest.mark.parametrize("team_size", [1, 3])
def test_hand_summary_agrees_with_the_rules_read_the_slow_way(team_size):
    obs = _observations(team_size=team_size, steps=80, n=16, seed=team_size)
    x = F.dense(obs, hand_features=True)
    assert x.shape == (obs.shape[0], F.NUM_FEATURES_HAND)
    assert np.array_equal(x[:, : F.NUM_FEATURES], F.dense(obs))  # the same features before it
    seen = np.zeros(F.NUM_FEATURES_HAND - F.NUM_FEATURES, dtype=bool)
    for i in range(obs.shape[0]):
        got = set(np.flatnonzero(x[i, F.NUM_FEATURES :]) + F.NUM_FEATURES)
        assert got == _hand_summary_reference(obs[i]), i
        seen[np.flatnonzero(x[i, F.NUM_FEATURES :])] = True
    # random play reaches every part of it: cards on the table, beaten or not, flores
    for name in ("known", "table", "holder", "beat", "tie"):
        assert seen[F.DERIVED_START[name] - F.NUM_FEATURES], name
    if team_size == 3:
        assert seen[F.DERIVED_START["flor"] - F.NUM_FEATURES]


def test_hand_features_widen_the_first_layer_and_survive_a_checkpoint(tmp_path):
    from agents.ppo_policy import PPOPolicy
    from train.ppo.loop import PPOConfig, train

    cfg = PPOConfig(team_size=1, num_envs=8, num_steps=8, total_decisions=64, hidden=16, hand_features=True,
                    run_dir=tmp_path / "run", progress=False, tensorboard=False, checkpoint_every=1)
    train(cfg)
    policy = PPOPolicy(tmp_path / "run" / "checkpoint.pt")
    assert policy.agent.hand_features and policy.agent.actor_in.in_features == F.NUM_FEATURES_HAND
    obs = _observations(team_size=1, steps=4, n=8)
    mask = np.ones((obs.shape[0], A.NUM_ACTIONS), dtype=np.uint8)
    assert policy.act_batch(obs, mask).shape == (obs.shape[0],)
    with pytest.raises(ValueError, match="hand_features"):  # resuming with the other input
        train(PPOConfig(**{**cfg.__dict__, "hand_features": False, "resume": True, "total_decisions": 128}))


@pytest.mark.parametrize("tradition", ["moteno", "argentino"])
def test_juego_record_features_come_last_scaled_and_leave_the_others_as_they_were(tradition):
    from truque_env.traditions import get as get_tradition

    env = VectorEnv(16, tradition=tradition, team_size=1, seed=5)
    obs, *_ = env.reset()
    rows, rng = [], np.arange(16, dtype=np.int64)
    for _ in range(150):  # uniform play: several manos of each juego
        obs, *_ = env.step(env.sample_actions(rng))
        rows.append(obs.copy())
    obs = np.concatenate(rows)
    start, (width,) = get_tradition(tradition).observation.SLICES["juego_record"]
    record = obs[:, start : start + width]
    assert (record[:, 0] > 0).any() and (record[:, 1:] > 0).any()  # manos finished, words counted
    lay = F.layout_for(tradition)
    for hand in (False, True):
        plain = F.dense(obs, hand_features=hand, tradition=tradition)
        x = F.dense(obs, hand_features=hand, tradition=tradition, juego_record=True)
        assert x.shape[1] == lay.width(hand, juego_record=True) == plain.shape[1] + width
        assert np.array_equal(x[:, : plain.shape[1]], plain)  # a network without the record reads what it did
        assert np.allclose(x[:, plain.shape[1] :], record * F.RECORD_SCALE)


@pytest.mark.parametrize("tradition", ["moteno", "argentino"])
def test_record_rates_follow_the_record_as_counts_per_mano_finished(tradition):
    from truque_env.traditions import get as get_tradition

    env = VectorEnv(16, tradition=tradition, team_size=1, seed=6)
    obs, *_ = env.reset()
    rows, rng = [], np.arange(16, dtype=np.int64)
    for _ in range(150):
        obs, *_ = env.step(env.sample_actions(rng))
        rows.append(obs.copy())
    obs = np.concatenate(rows)
    start, (width,) = get_tradition(tradition).observation.SLICES["juego_record"]
    record = obs[:, start : start + width].astype(np.float64)
    first_mano = record[:, 0] == 0
    assert first_mano.any() and (~first_mano).any()
    lay = F.layout_for(tradition)
    with_record = F.dense(obs, tradition=tradition, juego_record=True)
    x = F.dense(obs, tradition=tradition, juego_record=True, record_rates=True)
    assert x.shape[1] == lay.width(False, True, True) == with_record.shape[1] + width - 1
    assert np.array_equal(x[:, : with_record.shape[1]], with_record)  # the record's columns as they were
    rates = x[:, with_record.shape[1] :]
    # mine x 4, the rival's x 4, per mano finished; nothing in the first mano, whatever was said in it
    expected = np.where(first_mano[:, None], 0.0, record[:, 1:] / np.maximum(record[:, :1], 1)) * F.RATES_SCALE
    assert np.allclose(rates, expected) and rates.max() > 0
    assert (record[first_mano, 1:] > 0).any()  # words said in a first mano: counted, not yet a rate
    with pytest.raises(ValueError, match="record_rates divides the juego_record's counts"):
        F.dense(obs, tradition=tradition, record_rates=True)


def _argentino_summary_reference(row: np.ndarray, base: int) -> set[int]:
    """Argentino's hand summary of one observation row, read the slow way (tests/reference/argentino_ref.py)."""
    from tests.reference import argentino_ref as R
    from truque_env.traditions.argentino import observation as AO

    start = AO.SLICES
    hand = [c for c in range(40) if row[start["hand"][0] + c]]
    dealt = sorted(hand + [c for c in range(40) if row[start["played_by"][0] + c]])
    if len(dealt) != 3:
        return set()
    d = {k: base + v for k, v in F.ARG_START.items()}
    cols = {d["known"]}
    steps = [1, 2, 3, 4, 5, 6, 7, *range(20, 34)]
    cols |= {d["envido"] + j for j, v in enumerate(steps) if R.hand_envido(dealt) >= v}
    if R.hand_flor(dealt):
        cols.add(d["flor"])
        cols |= {d["flor_value"] + j for j in range(19) if R.hand_flor(dealt) >= 20 + j}
    powers = sorted((R.card_power(c) for c in hand), reverse=True)
    cols |= {d["power"] + 14 * j + p - 1 for j, p in enumerate(powers)}
    baza = [b for b in range(3) if row[start["baza"][0] + b]]
    table = [c for c in range(40) if baza and row[start["played_in"][0] + 40 * baza[0] + c]]
    if table:
        def seat_of(c):
            return next(r for r in range(8) if row[start["played_by"][0] + 40 * r + c])

        best = max(R.card_power(c) for c in table)
        sides = {seat_of(c) % 2 for c in table if R.card_power(c) == best}
        cols |= {d["table"] + best - 1, d["holder"] + (2 if sides == {0, 1} else (0 if sides == {0} else 1))}
        cols.add(d["beat"] + sum(p > best for p in powers))
        cols.add(d["tie"] + sum(p == best for p in powers))
    return cols


@pytest.mark.parametrize("team_size", [1, 3])
def test_argentino_hand_summary_agrees_with_the_reference(team_size):
    from truque_env.vector import VectorEnv

    env = VectorEnv(16, tradition="argentino", team_size=team_size, seed=team_size)
    obs, *_ = env.reset()
    rows = []
    for _ in range(60):
        obs, *_ = env.step(env.sample_actions(np.arange(16, dtype=np.int64)))
        rows.append(obs.copy())
    obs = np.concatenate(rows)
    lay = F.layout_for("argentino")
    x = F.dense(obs, hand_features=True, tradition="argentino")
    assert x.shape == (obs.shape[0], lay.width(True)) and lay.width(True) == lay.num_features + F.ARG_DERIVED_WIDTH
    assert np.array_equal(x[:, : lay.num_features], F.dense(obs, tradition="argentino"))
    seen = np.zeros(F.ARG_DERIVED_WIDTH, dtype=bool)
    for i in range(obs.shape[0]):
        got = set(np.flatnonzero(x[i, lay.num_features :]) + lay.num_features)
        assert got == _argentino_summary_reference(obs[i], lay.num_features), i
        seen[np.flatnonzero(x[i, lay.num_features :])] = True
    for name in ("known", "envido", "table", "holder", "beat", "tie"):
        assert seen[F.ARG_START[name]], name
