"""The MCCFR trainer on truco argentino (train/cfr/mccfr.py with ``tradition = "argentino"``,
train/cfr/mccfr_kernels_argentino.py, agents/cfr_abstraction_argentino.py): the abstraction maps
only to legal engine actions and never leaves a decision without one, the key reads only the
observation, a short run learns and resumes bit for bit, the rule options reach its manos.
(Strength is a later issue: here the run only has to run right.)"""

from __future__ import annotations

import numpy as np
import pytest

from agents import cfr_abstraction_argentino as CAA
from train.cfr.mccfr import MCCFRConfig, MCCFRSolver, export_policy, train
from truque_env.traditions.argentino import actions as A
from truque_env.traditions.argentino import layout as L
from truque_env.vector import VectorEnv


def _small(tmp_path=None, **kw) -> MCCFRConfig:
    base = dict(tradition="argentino", iterations=40, capacity_log2=17, log_every=10, eval_every=0, eval_manos=0,
                checkpoint_every=20, run_dir=tmp_path, verbose=False)
    base.update(kw)
    return MCCFRConfig(**base)


def test_abstract_actions_are_legal_and_every_decision_has_one():
    env = VectorEnv(64, tradition="argentino", team_size=1, seed=3)
    obs, mask, *_ = env.reset()
    rng = np.arange(64, dtype=np.int64)
    amask = np.zeros(CAA.NUM_ABSTRACT, dtype=np.uint8)
    amap = np.zeros(CAA.NUM_ABSTRACT, dtype=np.int64)
    seen = np.zeros(CAA.NUM_ABSTRACT, dtype=np.int64)
    for _ in range(400):
        for i in range(64):
            n = CAA.abstract_actions(mask[i], amask, amap)
            assert n >= 1 and n == int(amask.sum())
            assert all(mask[i, amap[k]] == 1 for k in np.flatnonzero(amask))
            seen += amask
        obs, mask, *_ = env.step(env.sample_actions(rng))
    assert (seen > 0).all(), [CAA.ABSTRACT_NAMES[k] for k in np.flatnonzero(seen == 0)]


def test_the_key_reads_the_observation_and_separates_hands():
    env = VectorEnv(64, tradition="argentino", team_size=1, seed=4)
    obs, mask, seat, _ = env.reset()
    rng = np.arange(64, dtype=np.int64)
    for _ in range(6):  # past the blind round, where nothing is seen yet
        obs, mask, seat, *_ = env.step(env.sample_actions(rng))
    keys = {int(CAA.infoset_key(o)) for o in obs}
    assert 0 not in keys and len(keys) > 1
    ob = np.zeros_like(obs[0])
    for i in range(8):
        assert CAA.state_key(env.states[i], env.hists[i], seat[i], ob) == CAA.infoset_key(obs[i])


def test_a_short_run_learns_and_resumes_bit_for_bit(tmp_path):
    run = train(_small(tmp_path / "a", iterations=60, checkpoint_every=30))
    solver = run.solver
    assert solver.iteration == 60 and solver.num_infostates > 100
    assert np.abs(solver.regrets).sum() > 0 and solver.cum_policy.sum() > 0
    v, miss = solver.test_match(200)
    assert np.isfinite(v) and 0 <= miss <= 1
    half = train(_small(tmp_path / "b", iterations=30, checkpoint_every=30))
    assert half.solver.iteration == 30
    resumed = train(_small(tmp_path / "b", iterations=60, checkpoint_every=30, resume=True))
    s2 = resumed.solver
    assert np.array_equal(solver.keys, s2.keys)
    assert np.array_equal(solver.regrets, s2.regrets) and np.array_equal(solver.cum_policy, s2.cum_policy)
    with pytest.raises(ValueError, match="only Moteño's average policy ships"):
        export_policy(tmp_path / "a" / "checkpoint.npz", tmp_path / "p.npz")


def test_its_manos_play_the_tradition_with_its_rules():
    solver = MCCFRSolver(_small())
    assert solver.settings.tradition == "argentino"
    assert int(solver._scratch[0][0, L.RULES]) == int(solver.settings.rules[0]) != 0  # flor and todo dicho on
    solver.run(5)
    assert solver.num_infostates > 0


def test_a_tradition_without_an_abstraction_is_refused():
    with pytest.raises(ValueError, match="unknown tradition 'uruguayo'"):
        MCCFRConfig(tradition="uruguayo").validate()
    assert A.NUM_ACTIONS == 77


def test_a_moteno_checkpoint_from_before_the_tradition_field_still_resumes(tmp_path):
    """Runs checkpointed before MCCFRConfig had ``tradition`` were Moteño's: their config lacks it."""
    import json

    from truque_env.io import read_npz, write_npz_atomic

    train(MCCFRConfig(iterations=4, capacity_log2=17, log_every=2, eval_every=0, eval_manos=0, checkpoint_every=4,
                      run_dir=tmp_path, verbose=False))
    path = tmp_path / "checkpoint.npz"
    arrays = read_npz(path, "MCCFR checkpoint")
    cfg = json.loads(str(arrays["config"]))
    del cfg["tradition"]
    write_npz_atomic(path, {**arrays, "config": np.array(json.dumps(cfg))})
    run = train(MCCFRConfig(iterations=6, capacity_log2=17, log_every=2, eval_every=0, eval_manos=0,
                            checkpoint_every=2, run_dir=tmp_path, verbose=False, resume=True))
    assert run.solver.iteration == 6
