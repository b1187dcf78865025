"""PPO with the envite played from a solved table (``envido_table`` for truco argentino's envido,
``pares_table`` for Moteño's envite de pares; train/ppo/table_envido.py): what is trained and under
which mask, that the probabilities trained on are the network's, the config's checks, and a run that
trains, evaluates and is reproducible."""

from pathlib import Path

import numpy as np
import pytest
import torch

from agents import envido_table, pares_table
from agents.ppo_network import Agent, evaluate_actions
from tests.conftest import ENVIDO_TABLE_TARGET, PARES_TABLE_TARGET
from train.ppo.loop import PPOConfig, load_checkpoint, train
from train.ppo.rollout import Sampler, draw_tables


def _tiny(run_dir: Path, table: Path, **kw) -> PPOConfig:
    base = dict(tradition="argentino", team_size=1, target=ENVIDO_TABLE_TARGET, num_envs=32, num_steps=24,
                total_decisions=32 * 24 * 2, hidden=32, update_epochs=1, num_minibatches=2, snapshot_every=1,
                pool_size=2, checkpoint_every=1, run_dir=run_dir, progress=False, log_every=1000, seed=5,
                torch_threads=1, tensorboard=False, p_latest=0.3, envido_table=table)
    base.update(kw)
    return PPOConfig(**base)


def _pares_path(request) -> Path:
    return request.getfixturevalue("pares_table")[3]


# each tradition's table: its setting, the test table, its module (the words of its openings), the target
TABLES = {"argentino": ("envido_table", lambda request: request.getfixturevalue("envido_table_path"), envido_table,
                        ENVIDO_TABLE_TARGET),
          "moteno": ("pares_table", _pares_path, pares_table, PARES_TABLE_TARGET)}


def _tiny_of(table_of: str, request, run_dir: Path, **kw) -> PPOConfig:
    """A tiny run of ``table_of``'s tradition with its table (``kw`` overrides any setting)."""
    setting, path, _, target = TABLES[table_of]
    kw = {"tradition": table_of, "target": target, "envido_table": None, setting: path(request), **kw}
    return _tiny(run_dir, None, **kw)


@pytest.mark.parametrize("tradition", ["argentino", "moteno"])
def test_the_tables_words_are_played_not_trained_and_a_paso_is_trained_on_what_is_left(tmp_path, request, tradition):
    cfg = _tiny_of(tradition, request, tmp_path)
    cfg.validate()
    T = TABLES[tradition][2]
    OPENINGS = T.PARES_WORDS if tradition == "moteno" else T.OPENINGS
    SENAS, USED_ANSWER, USED_OPENING = T.SENAS, T.USED_ANSWER, T.USED_OPENING
    # the answers a table plays entirely (Moteño's blind answers too)
    answered = (USED_ANSWER, T.USED_BLIND) if tradition == "moteno" else (USED_ANSWER,)
    gen = torch.Generator().manual_seed(cfg.seed)
    sampler = Sampler(cfg, gen)
    agent = Agent.from_config(cfg)
    if tradition == "moteno":  # an untrained network bets blind in most manos (Art. 7), before any opening
        with torch.no_grad():
            agent.actor[-1].bias[pares_table.A.PASO] += 4.0
    opening_words = answers = restricted = senas = 0
    learner = sampler.envido.learner
    seen = []

    def spy(logits, obs, mask, g):  # what the table decided at the learner's rows
        out = learner(logits, obs, mask, g)
        seen.append((obs.copy(), mask.copy(), *out))
        return out

    sampler.envido.learner = spy
    table = sampler.envido.table
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
        assert not (np.isin(used, answered) & ~SENAS[ro.action]).any()
    for obs, mask, action, _logp, trained_mask, trained in seen:
        used = table.mix(obs, mask, np.ones(mask.shape))
        opening_words += int((OPENINGS[action] & (used > 0)).sum())
        answers += int((np.isin(used, answered) & ~SENAS[action]).sum())
        senas += int((SENAS[action] & (used > 0)).sum())
        assert not trained[OPENINGS[action] & (used > 0)].any()  # the table's words: not trained
        assert not trained[np.isin(used, answered) & ~SENAS[action]].any()
        paso = (used == USED_OPENING) & ~OPENINGS[action] & ~SENAS[action]
        assert trained[paso].all() and trained[used == 0].all() and trained[SENAS[action]].all()
        restricted += int(paso.sum())
        assert not (trained_mask[paso][:, OPENINGS | SENAS]).any()  # a paso: the network chose from the rest
        assert (trained_mask[~paso] == mask[~paso]).all()
        assert mask[np.arange(len(action)), action].all()
    assert opening_words > 5 and answers > 5 and senas > 0 and restricted > 5
    assert sampler.envido.table.target == TABLES[tradition][3]


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


@pytest.mark.parametrize("tradition", ["argentino", "moteno"])
def test_a_run_with_the_table_trains_evaluates_with_it_and_is_reproducible(tmp_path, request, tradition):
    """Two sizes (the table at 1 contra 1), the evaluations played with the table, the same seed the
    same weights."""
    runs = []
    for name in ("a", "b"):
        cfg = _tiny_of(tradition, request, tmp_path / name, team_sizes=(1, 2), eval_every=2, eval_juegos=4,
                       eval_opponents=("random",), league=True, bot_opponents=("heuristic",))
        run = train(cfg)
        assert run.update == 2
        runs.append(load_checkpoint(tmp_path / name / "checkpoint.pt", cfg)["model"])
        assert (tmp_path / name / "evals" / "000002_random_1v1.json").exists()
    for k in runs[0]:
        assert torch.equal(runs[0][k], runs[1][k]), k


@pytest.mark.parametrize("tradition", ["argentino", "moteno"])
def test_a_checkpoint_trained_with_the_table_is_played_with_it(tmp_path, request, tradition):
    """agents.registry: the exported policy of such a run loads with its table (as it was trained);
    its table gone, loading it is a clear error, never the network alone or another table."""
    import shutil

    from agents.envido_table import EnvidoTablePolicy
    from agents.pares_table import ParesTablePolicy
    from agents.ppo_policy import PPOPolicy
    from agents.registry import load_policy
    from train.ppo.loop import export_policy

    setting, path, *_ = TABLES[tradition]
    table = tmp_path / "table.npz"
    shutil.copy(path(request), table)
    train(_tiny_of(tradition, request, tmp_path / "run", total_decisions=32 * 24, **{setting: table}))
    export_policy(tmp_path / "run" / "checkpoint.pt", tmp_path / "policy.pt")
    bot = load_policy(str(tmp_path / "policy.pt"), tradition=tradition)
    assert isinstance(bot, EnvidoTablePolicy if tradition == "argentino" else ParesTablePolicy)
    assert isinstance(bot.base, PPOPolicy)
    assert bot.table.path == table and bot.name == str(tmp_path / "policy.pt")
    table.unlink()
    what = "envido" if tradition == "argentino" else "pares"
    with pytest.raises(ValueError, match=f"trained with the {what} table .*table.npz', which is not there"):
        load_policy(str(tmp_path / "policy.pt"), tradition=tradition)


def test_the_pares_table_setting_is_checked(tmp_path, request, envido_table_path):
    path = _pares_path(request)
    with pytest.raises(ValueError, match="pares_table: the solved envite de pares is Moteño's, not argentino's"):
        _tiny_of("moteno", request, tmp_path, tradition="argentino").validate()
    with pytest.raises(ValueError, match="envido_table .truco argentino. or pares_table .Moteño., not both"):
        _tiny_of("moteno", request, tmp_path, envido_table=envido_table_path).validate()
    with pytest.raises(ValueError, match="pares_table plays 1 contra 1"):
        _tiny_of("moteno", request, tmp_path, team_size=2).validate()
    with pytest.raises(ValueError, match="pares_table .* is solved for juegos to 8, not to this run's target 30"):
        _tiny_of("moteno", request, tmp_path, target=30).validate()
    with pytest.raises(ValueError, match="no pares table at"):
        _tiny_of("moteno", request, tmp_path, pares_table=tmp_path / "none.npz").validate()
    with pytest.raises(ValueError, match="envido_table: the solved envido is truco argentino's, not moteno's"):
        _tiny_of("moteno", request, tmp_path, pares_table=None, envido_table=envido_table_path).validate()
    assert _tiny_of("moteno", request, tmp_path).table == ("pares_table", path)
