"""Deprecated: ``truque_env.rules.moteno`` moved to ``truque_env.traditions.moteno.rules`` (kept for one release).

This file makes the old name the same module object as the new one. It is an alias of a Moteño
module, so it belongs to the traditions layer (tests/test_layers.py); nothing in the package
imports it.
"""

import sys
import warnings

from truque_env.traditions.moteno import rules as _moved

warnings.warn("truque_env.rules.moteno is deprecated: import truque_env.traditions.moteno.rules", DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _moved
