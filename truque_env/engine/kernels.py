"""Deprecated: ``truque_env.engine.kernels`` moved to ``truque_env.traditions.moteno.kernels`` (kept for one release).

This file makes the old name the same module object as the new one. It is an alias of a Moteño
module, so it belongs to the traditions layer (tests/test_layers.py); nothing in the package
imports it.
"""

import sys
import warnings

from truque_env.traditions.moteno import kernels as _moved

warnings.warn("truque_env.engine.kernels is deprecated: import truque_env.traditions.moteno.kernels", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
