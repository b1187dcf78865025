"""The rule options of truco argentino and the settings it allows (checked for
``truque_env.settings.MatchSettings``).

The defaults are the rulings of ``../shared/rules/traditions.md`` (ruling 8 and the A-rulings):

=======================  =========  ===========================================================
option                   default    meaning
=======================  =========  ===========================================================
``flor``                 True       flor is played (003 §12, ruling 8: many tables play without;
                                    off, three of a suit is an envido of 20 + its two highest, A20)
``todo_dicho``           True       the blind round of "falta envido y truco, todo dicho" (A33)
``falta_envido``         "leader"   a falta envido is worth what the leader lacks (A23, A36);
                                    "match": its winner wins the juego (003's variant)
``contraflor_al_resto``  "leader"   al resto won by the leader is the juego, by the trailer what
                                    the leader lacked + 3 per flor (A13, A15); "match": the juego
``uno_y_uno``            False      "uno y uno" may be proposed (A39; 1 contra 1 only)
``achico_pays``          0          what "con flor me achico" gives the other team: 0 is the
                                    ruling (3 per flor it sang); another table's fixed pay (4)
``al_resto_refused_pays`` 0         what "con flor no quiero" to al resto gives: 0 is the ruling
                                    (what stood before it); another table's fixed pay (4)
=======================  =========  ===========================================================

The kernels read them from the header's ``RULES`` words (``rule_words``): word 0 the flags,
word 1 ``achico_pays``, word 2 ``al_resto_refused_pays``.
"""

from __future__ import annotations

from truque_env.traditions import is_int

TEAM_SIZES = (1, 2, 3)  # ruling 9 (A1): 1 contra 1 to 3 contra 3
DEFAULT_TARGET = 30  # ruling 8 (A2): 15 malas + 15 buenas
MAX_SENA_LOG = 16

OPTIONS: dict = {
    "flor": True,
    "todo_dicho": True,
    "falta_envido": "leader",
    "contraflor_al_resto": "leader",
    "uno_y_uno": False,
    "achico_pays": 0,
    "al_resto_refused_pays": 0,
}

# bits of RULES word 0
R_FLOR = 1
R_TODO_DICHO = 2
R_FALTA_MATCH = 4
R_AL_RESTO_MATCH = 8
R_UNO_Y_UNO = 16
VARIANTS = ("leader", "match")


def _check_options(options) -> None:
    for name in ("flor", "todo_dicho", "uno_y_uno"):
        if not isinstance(options[name], bool):
            raise ValueError(f"option {name} must be True or False, got {options[name]!r}")
    for name in ("falta_envido", "contraflor_al_resto"):
        if options[name] not in VARIANTS:
            raise ValueError(f"option {name} must be 'leader' or 'match', got {options[name]!r}")
    for name in ("achico_pays", "al_resto_refused_pays"):
        v = options[name]
        if not is_int(v) or not 0 <= v <= 30:
            raise ValueError(f"option {name} must be 0 (the ruling) or a fixed pay 1..30, got {v!r}")


def rule_words(options) -> tuple[int, int, int]:
    """The options (every one of OPTIONS, as MatchSettings completes them) as RULES words."""
    _check_options(options)
    flags = ((R_FLOR if options["flor"] else 0) | (R_TODO_DICHO if options["todo_dicho"] else 0)
             | (R_FALTA_MATCH if options["falta_envido"] == "match" else 0)
             | (R_AL_RESTO_MATCH if options["contraflor_al_resto"] == "match" else 0)
             | (R_UNO_Y_UNO if options["uno_y_uno"] else 0))
    return flags, int(options["achico_pays"]), int(options["al_resto_refused_pays"])


def check_settings(settings) -> None:
    """Raise ValueError for a team size, target, señas per mano or option argentino does not allow."""
    team_size, target, senas = settings.team_size, settings.target, settings.senas_per_mano
    if not is_int(team_size) or team_size not in TEAM_SIZES:
        raise ValueError(f"team_size must be 1, 2 or 3 for truco argentino (ruling 9), got {team_size!r}")
    if not is_int(target) or not 2 <= target <= 100:
        raise ValueError(f"target must be an integer 2..100 tantos (ruling 8: 30), got {target!r}")
    max_senas = MAX_SENA_LOG // (2 * team_size)
    if not is_int(senas) or not 0 <= senas <= max_senas:
        raise ValueError(f"senas_per_mano must be 0..{max_senas} for team_size {team_size}, got {senas!r}")
    _check_options(settings.options)
    if settings.options["uno_y_uno"] and team_size != 1:
        raise ValueError("option uno_y_uno is played mano a mano only (004, A39): team_size must be 1")
