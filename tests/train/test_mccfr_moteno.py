"""MCCFR on the 1 contra 1 mano (train/cfr/mccfr.py, train/cfr/mccfr_kernels.py) and its bot
(agents/cfr_policy.py): the key the trainer computes is the bot's, the table, regret matching,
learning, checkpoints and exact resume, legality, and the registry / evaluator path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents import cfr_abstraction as CA
from agents.cfr_files import load_policy_file
from agents.cfr_policy import CFRPolicy
from agents.registry import load_policy
from train.cfr import mccfr_kernels as MK
from train.cfr.mccfr import (
    MCCFRConfig,
    MCCFRSolver,
    export_policy,
    load_checkpoint,
    train,
)
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import observation as O
from truque_env.vector import VectorEnv

ROOT = Path(__file__).resolve().parents[2]


def _small(tmp_path=None, **kw) -> MCCFRConfig:
    base = dict(iterations=40, capacity_log2=18, log_every=10, eval_every=0, eval_manos=0, checkpoint_every=20,
                run_dir=tmp_path, verbose=False)
    base.update(kw)
    return MCCFRConfig(**base)


def _random_states(steps: int, seed: int, team_size: int = 1, num_envs: int = 32):
    """(state, history, seat, observation, mask) of the env at random-play decisions."""
    env = VectorEnv(num_envs, team_size=team_size, seed=seed)
    obs, mask, seat, _ = env.reset()
    rng_states = np.random.SeedSequence(seed).generate_state(num_envs, dtype=np.uint64).astype(np.int64)
    for _ in range(steps):
        yield env.states.copy(), env.hists.copy(), seat.copy(), obs.copy(), mask.copy()
        obs, mask, seat, *_ = env.step(env.sample_actions(rng_states))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A short run (600 iterations) and its export."""
    d = tmp_path_factory.mktemp("mccfr")
    cfg = _small(d, iterations=600, capacity_log2=20, checkpoint_every=600)
    run = train(cfg)
    export_policy(d / "checkpoint.npz", d / "policy.npz")
    return run, d


def test_key_in_training_is_the_bots_key_from_the_observation():
    """Property over random 1v1 states: the trainer's key (observation kernel on the state) equals the
    key the bot computes from the env's observation; abstract actions map to legal engine actions."""
    ob = np.zeros(O.OBS_SIZE, dtype=np.int8)
    checked = 0
    for states, hists, seats, obs, masks in _random_states(60, seed=5):
        n = len(seats)
        keys = np.zeros(n, dtype=np.int64)
        amasks = np.zeros((n, CA.NUM_ABSTRACT), dtype=np.uint8)
        amaps = np.zeros((n, CA.NUM_ABSTRACT), dtype=np.int64)
        CA.keys_and_actions(obs, masks, keys, amasks, amaps)
        for i in range(n):
            assert CA.state_key(states[i], hists[i], seats[i], ob) == keys[i] != 0
            np.testing.assert_array_equal(ob, obs[i])
            legal = np.flatnonzero(amasks[i])
            assert legal.size >= 1
            assert all(masks[i, amaps[i, k]] == 1 for k in legal)
            assert (amaps[i][amasks[i] == 0] == -1).all()
            assert len(set(amaps[i, legal].tolist())) == legal.size  # distinct engine actions
            checked += 1
    assert checked == 60 * 32


def test_keys_separate_hands_and_scores():
    """Different pares buckets or score contexts give different keys at the first decision with cards."""
    seen = {}
    for _states, _hists, seats, obs, _masks in _random_states(20, seed=9, num_envs=64):
        for i in range(len(seats)):
            o = obs[i]
            if (o[O.O_HAND:O.O_HAND + 40].sum() == 3 and o[O.O_PHASE + 3] == 1 and o[O.O_BAZA] == 1
                    and o[O.O_PARES] == 1):  # first baza, no envite de pares yet: the hand is in the key
                env = int(CA.envite_bucket(o))
                ctx = (CA.dist_bucket(30 - o[O.O_SCORE]), CA.dist_bucket(30 - o[O.O_SCORE + 1]))
                seen.setdefault(CA.infoset_key(o), set()).add((env, ctx, int(CA.power_code(o, True))))
    assert seen and all(len(v) == 1 for v in seen.values())


def test_hash_table_and_full_table_error():
    keys = np.zeros(1 << 10, dtype=np.int64)
    info = np.zeros(MK.INFO_SIZE, dtype=np.int64)
    info[MK.I_MAX_FILL] = int(keys.size * MK.MAX_LOAD)
    rng = np.random.default_rng(0)
    new = rng.integers(1, 2**62, size=int(keys.size * MK.MAX_LOAD)) & ~np.int64(0x3FF) | 5  # one home slot
    new = np.unique(new)[:200]
    slots = np.zeros(new.size, dtype=np.int64)
    MK.table_insert_many(keys, new, info, slots)
    assert (slots >= 0).all() and np.unique(slots).size == new.size and info[MK.I_FILL] == new.size
    assert all(MK.table_find(keys, k) == s for k, s in zip(new, slots, strict=True))
    MK.table_insert_many(keys, new, info, slots)  # again: same slots, nothing added
    assert info[MK.I_FILL] == new.size and all(MK.table_find(keys, k) == s for k, s in zip(new, slots, strict=True))
    assert MK.table_find(keys, np.int64(123456789)) == -1
    info[MK.I_MAX_FILL] = new.size  # full
    assert MK.table_insert(keys, np.int64(987654321), info) == -1
    solver = MCCFRSolver(_small(capacity_log2=10))
    with pytest.raises(ValueError, match="table is full.*capacity_log2"):
        solver.run(50)


def test_regret_matching_sums_to_one_over_legal_actions():
    rng = np.random.default_rng(1)
    regrets = rng.normal(size=(200, CA.NUM_ABSTRACT)).astype(np.float32)
    regrets[::7] = -np.abs(regrets[::7])  # rows with no positive regret: uniform
    out = np.zeros(CA.NUM_ABSTRACT)
    for row in range(200):
        amask = (rng.random(CA.NUM_ABSTRACT) < 0.4).astype(np.uint8)
        amask[rng.integers(CA.NUM_ABSTRACT)] = 1
        MK.regret_matching(regrets, row, amask, out)
        assert out.sum() == pytest.approx(1.0) and (out >= 0).all() and (out[amask == 0] == 0).all()
        pos = np.where(amask == 1, np.maximum(regrets[row], 0), 0)
        want = pos / pos.sum() if pos.sum() > 0 else amask / amask.sum()
        np.testing.assert_allclose(out, want, rtol=1e-6)


def test_short_training_beats_random_play_better_than_uniform(trained):
    run, _ = trained
    untrained = MCCFRSolver(_small())
    before, miss_before = untrained.test_match(2000, seed=3)
    after, miss_after = run.solver.test_match(2000, seed=3)
    assert miss_before == 1.0 and miss_after < 0.6
    assert after > before + 0.5, (before, after)
    assert run.solver.num_infostates > 1000


def test_checkpoint_round_trip_and_corrupt_file(trained, tmp_path):
    run, d = trained
    ck = load_checkpoint(d / "checkpoint.npz", run.solver.cfg)
    assert int(ck["iteration"]) == 600 and ck["keys"].size == run.solver.num_infostates
    s = ck["slots"]
    np.testing.assert_array_equal(ck["regrets"], run.solver.regrets[s])
    np.testing.assert_array_equal(ck["cum_policy"], run.solver.cum_policy[s])
    with pytest.raises(ValueError, match="another run: seed"):
        load_checkpoint(d / "checkpoint.npz", _small(d, iterations=600, capacity_log2=20, seed=1))
    bad = tmp_path / "bad.npz"
    bad.write_bytes((d / "checkpoint.npz").read_bytes()[:5000])
    with pytest.raises(ValueError, match="not a readable"):
        load_checkpoint(bad)
    with pytest.raises(ValueError, match="not a readable"):
        CFRPolicy(bad)
    other = tmp_path / "other.npz"
    np.savez(other, a=np.zeros(3))
    with pytest.raises(ValueError, match="not a CFR policy"):
        load_policy(str(other))


def test_resume_is_bit_exact(tmp_path):
    straight = train(_small(tmp_path / "a", iterations=40))
    train(_small(tmp_path / "b", iterations=20))
    resumed = train(_small(tmp_path / "b", iterations=40, resume=True))
    a, b = straight.solver, resumed.solver
    assert a.iteration == b.iteration == 40
    np.testing.assert_array_equal(a.keys, b.keys)
    np.testing.assert_array_equal(a.regrets, b.regrets)
    np.testing.assert_array_equal(a.cum_policy, b.cum_policy)


def test_bot_plays_only_legal_actions_and_counts_misses(trained):
    _, d = trained
    bot = CFRPolicy(d / "policy.npz", seed=0)
    for _, _, _, obs, masks in _random_states(80, seed=11, num_envs=64):
        acts = bot.act_batch(obs, masks)
        assert (masks[np.arange(len(acts)), acts] == 1).all()
        probs = bot.action_probs(obs, masks)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0)
        assert (probs[masks == 0] == 0).all()
        assert (probs[:, A.SENA_BASE:] == 0).all()  # the bot never makes señas
    assert bot.lookups > 0 and 0 < bot.misses < bot.lookups and 0 < bot.miss_rate < 1
    obs3, masks3 = next(_random_states(1, seed=1, team_size=3))[3:]
    with pytest.raises(ValueError, match="1 contra 1 only"):
        bot.act_batch(obs3, masks3)


def test_thresholding_and_purification_trim_the_average_strategy(trained):
    """Ganzfried & Sandholm 2012 (agents/cfr_policy.py): below the threshold an action is dropped and
    the rest renormalised, the most probable always kept; purified, the most probable alone."""
    _, d = trained
    raw = CFRPolicy(d / "policy.npz", seed=0)
    cut = CFRPolicy(d / "policy.npz", seed=0, threshold=0.3)
    pure = CFRPolicy(d / "policy.npz", seed=0, purify=True)
    trimmed_some = False
    for _, _, _, obs, masks in _random_states(40, seed=13, num_envs=64):
        p, c, q = (b.action_probs(obs, masks) for b in (raw, cut, pure))
        np.testing.assert_allclose(c.sum(axis=1), 1.0)
        np.testing.assert_allclose(q.sum(axis=1), 1.0)
        keys, legal, _ = raw._prepare(obs, masks)
        seen = np.isin(keys, raw.keys) | (legal.sum(axis=1) == 1)
        np.testing.assert_array_equal(q[~seen], p[~seen])  # an unseen information set stays uniform
        np.testing.assert_array_equal(c[~seen], p[~seen])
        p, c, q = p[seen], c[seen], q[seen]
        best = q.argmax(axis=1)  # purified: one action, a most probable one (the first of a tie)
        rows = np.arange(len(best))
        assert (q[rows, best] == 1.0).all() and (p[rows, best] == p.max(axis=1)).all()
        assert (c[rows, best] > 0).all()  # the same one is never dropped by the threshold
        kept = p >= 0.3
        kept[rows, best] = True
        assert (c[~kept] == 0).all()  # below the threshold: dropped
        expect = np.where(kept, p, 0.0)
        np.testing.assert_allclose(c, expect / expect.sum(axis=1, keepdims=True), atol=1e-12)
        trimmed_some |= bool((kept != (p > 0)).any())
        acts = pure.act_batch(obs[seen], masks[seen])
        assert (acts == best).all()
    assert trimmed_some  # the run's average strategy had weights below 0.3 to drop
    with pytest.raises(ValueError, match=r"threshold must be in \[0, 1\)"):
        CFRPolicy(d / "policy.npz", threshold=1.0)
    with pytest.raises(ValueError, match="not both"):
        CFRPolicy(d / "policy.npz", threshold=0.2, purify=True)
    assert load_policy("cfr_pure").purify and load_policy("cfr_threshold").threshold == 0.15


def test_registry_and_evaluator(trained):
    from train.eval.duplicate import play_match

    _, d = trained
    bot = load_policy(str(d / "policy.npz"), seed=2)
    assert isinstance(bot, CFRPolicy)
    also = load_policy(str(d / "checkpoint.npz"), seed=2)  # a run's checkpoint plays too
    assert also.keys.size >= bot.keys.size
    report = play_match(bot, load_policy("random", seed=1), team_size=1, episodes=4, num_envs=4, bootstrap=10)
    assert report.juegos["episodes"] == 4
    keys, policy, header = load_policy_file(d / "policy.npz")
    assert policy.dtype == np.float32 and header["iteration"] == 600
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, atol=2e-3)


def test_config_file_and_errors(tmp_path):
    cfg = MCCFRConfig.from_toml(ROOT / "configs" / "mccfr_moteno_1v1.toml")
    assert cfg.team_size == 1 and cfg.export is not None
    with pytest.raises(ValueError, match="1 contra 1"):
        MCCFRConfig(team_size=2).validate()
    with pytest.raises(ValueError, match="resume needs"):
        MCCFRConfig(resume=True, run_dir=None).validate()
    with pytest.raises(ValueError, match="nothing to resume: .*checkpoint.npz. does not exist"):
        train(_small(tmp_path / "none", resume=True))
    json.dumps(CA.describe_abstraction())


def test_shipped_bot_plays_in_every_interface():
    """The registry name ``cfr``: the shipped file, small; a rival in the Gymnasium env and in ``truque play``."""
    import io

    from rich.console import Console

    from truque_cli.play import PlayConfig, play
    from truque_env import make_gym

    bot = load_policy("cfr", seed=0)
    assert bot.keys.size > 0 and (ROOT / "agents" / "checkpoints" / "cfr_moteno_1v1.npz").stat().st_size < 20e6
    env = make_gym(seat=0, opponents="cfr", team_size=1)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(200):  # the learner's seat plays at random; the cfr bot answers
        mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    assert terminated or truncated
    env2 = make_gym(seat=0, opponents="cfr", team_size=2)
    obs, info = env2.reset(seed=0)
    with pytest.raises(ValueError, match="1 contra 1 only"):  # at the bot's first decision
        for _ in range(50):
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            obs, *_, info = env2.step(int(np.flatnonzero(mask)[0]))

    con = Console(file=io.StringIO(), width=100, color_system=None)
    out = play(PlayConfig(team_size=1, rivals="cfr", manos=1, seed=3), input_fn=lambda: "1", console=con)
    assert out["manos"] == 1 and "fin de la mano" in con.file.getvalue()
