"""What the tests of the solved tables' bots (agents.envido_table, agents.pares_table) share: a base
that plays every legal action alike, and readers of an observation's named parts."""

import numpy as np


class UniformBase:
    """Every legal action alike (a base with action_probs)."""

    def action_probs(self, obs, masks):
        m = np.asarray(masks, dtype=np.float64)
        return m / m.sum(axis=1, keepdims=True)


def readers(layout):
    """(part, block) for the tradition's observation ``layout``: ``part(o, name)`` the slice of
    ``layout.PARTS[name]``, ``block(o, name)`` that of ``layout.SLICES[name]`` in its shape."""

    def part(o, name):
        lo, hi = layout.PARTS[name]
        return o[lo:hi]

    def block(o, name):
        lo, shape = layout.SLICES[name]
        return o[lo : lo + int(np.prod(shape))].reshape(shape)

    return part, block


def assert_row_is_twins(probs, expected, mask):
    """A table bot's probabilities at one row: its twin's, nothing on an illegal action, summing to 1."""
    np.testing.assert_allclose(probs, expected, atol=1e-5)
    assert abs(probs[mask == 0]).max(initial=0) == 0  # nothing illegal
    assert abs(probs.sum() - 1.0) <= 1e-5
