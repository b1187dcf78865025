"""PPO with the envido played from a solved table (``envido_table``, train/ppo/table_envido.py):
what is trained and under which mask, that the probabilities trained on are the network's, the
config's checks, and a run that trains, evaluates and is reproducible."""

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.envido_table import OPENINGS, SENAS, USED_ANSWER, USED_OPENING, EnvidoTable
from agents.ppo_network import Agent, evaluate_actions
from tests.conftest import ENVIDO_TABLE_TARGET
from train.ppo.loop import PPOConfig, load_checkpoint, train
from train.ppo.rollout import Sampler, draw_tables


def _tiny(run_dir: Path, table: Path, **kw) -> PPOConfig:
    base = dict(tradition="argentino", team_size=1, target=ENVIDO_TABLE_TARGET, num_envs=32, num_steps=24,
                total_decisions=32 * 24 * 2, hidden=32, update_epochs=1, num_minibatches=2, snapshot_every=1,
                pool_size=2, checkpoint_every=1, run_dir=run_dir, progress=False, log_every=1000, seed=5,
                torch_threads=1, tensorboard=False, p_latest=0.3, envido_table=table)
    base.update(kw)
    return PPOConfig(**base)


def test_the_tables_words_are_played_not_trained_and_a_paso_is_trained_on_what_is_left(tmp_path, envido_table_path):
    cfg = _tiny(tmp_path, envido_table_path)
    cfg.validate()
    gen = torch.Generator().manual_seed(cfg.seed)
    sampler = Sampler(cfg, gen)
    agent = Agent.from_config(cfg)
    opening_words = answers = restricted = senas = 0
    learner = sampler.envido.learner
    seen = []

    def spy(logits, obs, mask, g):  # what the table decided at the learner's rows
        out = learner(logits, obs, mask, g)
        seen.append((obs.copy(), mask.copy(), *out))
        return out

    sampler.envido.learner = spy
    table = EnvidoTable(envido_table_path)
    rng = np.random.default_rng(0)
    for update in range(3):
        ro = sampler.rollout(agent, agent.state_dict(), (0.0, 1.0), draw_tables(cfg, update, rng))
        # the probabilities trained on are the network's under the mask stored with each decision
        with torch.no_grad():
            mk = torch.from_numpy(ro.mask)
            logp, _ = evaluate_actions(agent.logits_csr(agent.csr(ro.obs), mk), mk, torch.from_numpy(ro.action))
        np.testing.assert_allclose(logp.numpy(), ro.logp, atol=1e-5)
        assert ro.mask[np.arange(len(ro.action)), ro.action].all()
        # where the table decided, only señas and the network's choices after a "paso" are trained
        probs = np.full(ro.mask.shape, 1.0)
        used = table.mix(ro.obs, ro.mask, probs)
        assert not ((used == USED_ANSWER) & ~SENAS[ro.action]).any()
    for obs, mask, action, _logp, trained_mask, trained in seen:
        used = table.mix(obs, mask, np.ones(mask.shape))
        opening_words += int((OPENINGS[action] & (used > 0)).sum())
        answers += int(((used == USED_ANSWER) & ~SENAS[action]).sum())
        senas += int((SENAS[action] & (used > 0)).sum())
        assert not trained[OPENINGS[action] & (used > 0)].any()  # the table's words: not trained
        assert not trained[(used == USED_ANSWER) & ~SENAS[action]].any()
        paso = (used == USED_OPENING) & ~OPENINGS[action] & ~SENAS[action]
        assert trained[paso].all() and trained[used == 0].all() and trained[SENAS[action]].all()
        restricted += int(paso.sum())
        assert not (trained_mask[paso][:, OPENINGS | SENAS]).any()  # a paso: the network chose from the rest
        assert (trained_mask[~paso] == mask[~paso]).all()
        assert mask[np.arange(len(action)), action].all()
    assert opening_words > 5 and answers > 5 and senas > 0 and restricted > 5


def test_the_envido_table_setting_is_checked(tmp_path, envido_table_path):
    with pytest.raises(ValueError, match="truco argentino's, not moteno's"):
        _tiny(tmp_path, envido_table_path, tradition="moteno").validate()
    with pytest.raises(ValueError, match="1 contra 1"):
        _tiny(tmp_path, envido_table_path, team_size=2).validate()
    with pytest.raises(ValueError, match="solved for juegos to 8, not to this run's target 30"):
        _tiny(tmp_path, envido_table_path, target=30).validate()
    with pytest.raises(ValueError, match="no envido table at"):
        _tiny(tmp_path, tmp_path / "none.npz").validate()
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a table")
    with pytest.raises(ValueError, match="bad.npz"):
        _tiny(tmp_path, bad).validate()


def test_a_run_with_the_table_trains_evaluates_as_plus_envido_and_is_reproducible(tmp_path, envido_table_path):
    runs = []
    for name in ("a", "b"):
        cfg = _tiny(tmp_path / name, envido_table_path, team_sizes=(1, 2), eval_every=2, eval_juegos=4,
                    eval_opponents=("random",), league=True, bot_opponents=("heuristic",))
        run = train(cfg)
        assert run.update == 2
        runs.append(load_checkpoint(tmp_path / name / "checkpoint.pt", cfg)["model"])
        assert (tmp_path / name / "evals" / "000002_random_1v1.json").exists()
    for k in runs[0]:
        assert torch.equal(runs[0][k], runs[1][k]), k


def test_a_checkpoint_trained_with_the_table_is_played_with_it(tmp_path, envido_table_path):
    """agents.registry: the exported policy of such a run loads with its table (as it was trained);
    its table gone, loading it is a clear error, never the network alone or another table."""
    import shutil

    from agents.envido_table import EnvidoTablePolicy
    from agents.ppo_policy import PPOPolicy
    from agents.registry import load_policy
    from train.ppo.loop import export_policy

    table = tmp_path / "table.npz"
    shutil.copy(envido_table_path, table)
    train(_tiny(tmp_path / "run", table, total_decisions=32 * 24))
    export_policy(tmp_path / "run" / "checkpoint.pt", tmp_path / "policy.pt")
    bot = load_policy(str(tmp_path / "policy.pt"), tradition="argentino")
    assert isinstance(bot, EnvidoTablePolicy) and isinstance(bot.base, PPOPolicy)
    assert bot.table.path == table and bot.name == str(tmp_path / "policy.pt")
    table.unlink()
    with pytest.raises(ValueError, match="trained with the envido table .*table.npz', which is not there"):
        load_policy(str(tmp_path / "policy.pt"), tradition="argentino")
