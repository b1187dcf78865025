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
