"""The settings Truque Moteño allows (checked for ``truque_env.settings.MatchSettings``).

Moteño has no rule options: the rulings 1-9 of ``../shared/rules/README.md`` settle its gaps.
"""

from __future__ import annotations

from truque_env.traditions import is_int
from truque_env.traditions.moteno import layout as L

OPTIONS: dict = {}
TEAM_SIZES = (1, 2, 3, 4)  # Art. 3 (tables of 2 to 8), ruling 9
DEFAULT_TARGET = 30  # ruling 1


def check_settings(settings) -> None:
    """Raise ValueError for a team size, target or señas per mano Moteño does not allow."""
    team_size, target, senas = settings.team_size, settings.target, settings.senas_per_mano
    if not is_int(team_size) or team_size not in TEAM_SIZES:
        raise ValueError(f"team_size must be 1..4 (Art. 3: tables of 2 to 8), got {team_size!r}")
    if not is_int(target) or not 2 <= target <= 100:
        raise ValueError(f"target must be an integer 2..100 chinas (ruling 1), got {target!r}")
    max_senas = L.MAX_SENA_LOG // (2 * team_size)
    if not is_int(senas) or not 0 <= senas <= max_senas:
        raise ValueError(f"senas_per_mano must be 0..{max_senas} for team_size {team_size}, got {senas!r}")
