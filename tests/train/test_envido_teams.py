"""The envido deal at 2 contra 2 seen by one player of each team (train.cfr.envido_teams): mano a
mano it is the exact deal, and at 2 contra 2 a plain-Python count of A27's showdown agrees."""

import numpy as np
import pytest

from train.cfr import envido_argentino as E
from train.cfr.envido_teams import team_prior_beats
from truque_env.traditions.argentino.rules import envido_value, flor_value


def test_mano_a_mano_the_sampled_deal_is_the_exact_one():
    prior, beats = team_prior_beats(1, E.TYPE_OF_VALUE, E.NUM_TYPES, samples=1_000_000, seed=1)
    exact = E.envido_prior()
    assert np.abs(prior - exact).max() < 5e-4
    dealt = prior > 0
    np.testing.assert_array_equal(beats[dealt], E.showdown_beats()[dealt])  # one showdown per pair of values


def _python_count(deals: int, seed: int):
    """A27 the long way: from the mano, the highest tantos win, ties to the one nearest the mano;
    seats 0 and 2 are the mano's team. Returns the mano team's share, and its share when a mano-team
    player holds 33 and a pie-team player 20."""
    rng = np.random.default_rng(seed)
    won = kept = 0
    for _ in range(deals):
        cards = rng.permutation(40)[:12]
        hands = [list(cards[3 * s : 3 * s + 3]) for s in range(4)]
        if any(flor_value(h) > 0 for h in hands):
            continue  # a flor cancels the envido (A9)
        values = [envido_value(h) for h in hands]
        best = max(range(4), key=lambda s: (values[s], -s))
        kept += 1
        won += best % 2 == 0
    return won / kept, kept


def test_at_2_contra_2_the_showdown_is_a27s():
    prior, beats = team_prior_beats(2, E.TYPE_OF_VALUE, E.NUM_TYPES, samples=1_000_000, seed=2)
    share, kept = _python_count(20_000, seed=3)
    sampled = float((prior * beats).sum())
    assert abs(sampled - share) < 4 * np.sqrt(share * (1 - share) / kept)
    # the mano's team wins more than half (ties), less than mano a mano: a rival partner may hold more
    assert 0.5 < sampled < float((E.envido_prior() * E.showdown_beats()).sum())
    # from 20 up, the better my envido the likelier my team's showdown, and any 20 beats any hand below
    # (below 20 the partner's hand decides: a flat third or so)
    by_mine = (prior * beats).sum(axis=1) / prior.sum(axis=1)
    assert (np.diff(by_mine[E.TYPE_OF_VALUE[20]:]) > 0).all()
    assert by_mine[E.TYPE_OF_VALUE[20]:].min() > by_mine[: E.TYPE_OF_VALUE[20]].max()
    assert np.ptp(by_mine[: E.TYPE_OF_VALUE[20]]) < 0.06
    # with 33 (the most) a mano-team player loses only to a 33 of the pie's first player (nearer the mano)
    t33, t20 = E.TYPE_OF_VALUE[33], E.TYPE_OF_VALUE[20]
    assert 0.99 < beats[t33, t20] <= 1.0


def test_the_same_seed_gives_the_same_deal_and_bad_settings_are_refused():
    a = team_prior_beats(2, E.TYPE_OF_VALUE, E.NUM_TYPES, samples=50_000, seed=5)
    b = team_prior_beats(2, E.TYPE_OF_VALUE, E.NUM_TYPES, samples=50_000, seed=5)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    with pytest.raises(ValueError, match="team_size must be 1, 2 or 3"):
        team_prior_beats(4, E.TYPE_OF_VALUE, E.NUM_TYPES)
    with pytest.raises(ValueError, match="samples must be a positive integer"):
        team_prior_beats(2, E.TYPE_OF_VALUE, E.NUM_TYPES, samples=0)
