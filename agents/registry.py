"""Policies by name: ``load_policy("random", seed=0, tradition="moteno")``; used by the console
(``truque evaluate``) and, through the entry point ``truque_env.policies``, by the environments.

Known names: ``random`` (``agents.base.RandomPolicy``), ``heuristic`` (``agents.heuristic``,
imported only when asked for) and ``heuristic_sin_senas`` (the same bot ignoring its partners'
señas), ``ppo`` for argentino (``agents/checkpoints/ppo_argentino_v7.pt``: one network for 1 and 2 contra 2,
trained against a league with its envido mano a mano played from the solved table, and played so:
configs/ppo_argentino_league_v7.toml; 1 contra 1 it plays two more envido tables, one against a rival who
has left two manos and one in the juego's first five manos: docs/league_argentino.md), ``ppo_league1`` for
argentino (the league bot shipped before it, ``agents/checkpoints/ppo_argentino.pt``,
configs/ppo_argentino_league.toml) and ``ppo_1v1`` (the argentino
bot shipped before both, 1 contra 1 only),
``heuristic_bluffer`` (the heuristic with its falsos turned up), ``heuristic_faltero`` for argentino (the
heuristic opening the falta envido with every hand, as the league bots' exploiters do) and
``heuristic_enviador`` (opening the envido with every hand, as the exploiter of the faltero's league bot
does), ``heuristic_parero`` for Moteño (sending three pares de falso with every hand it would not bet, as
the 1 contra 1 exploiters of the league bots do), the style bots of
``agents.styles`` for every tradition (``style_raiser``, ``style_caller``, ``style_folder``,
``style_bluffer``), ``ppo`` (the shipped Moteño bot: the network ``agents/checkpoints/ppo_moteno_v20.pt`` for
1, 2 and 3 contra 3, trained against a league aimed at issue 17's targets with its envite de pares 1 contra
1 played from the solved table, configs/ppo_moteno_league_v20.toml from v19's weights, and played so),
``ppo_v19``, ``ppo_v18``, ``ppo_v16``, ``ppo_v13``, ``ppo_v10``, ``ppo_v9`` and ``ppo_v8`` (the bots before it,
``agents/checkpoints/ppo_moteno_v19.pt``, ``ppo_moteno_v18.pt``, ``ppo_moteno_v16.pt``, ``ppo_moteno_v13.pt``,
``ppo_moteno_v10.pt``, ``ppo_moteno_v9.pt`` and ``ppo_moteno_v8.pt``, configs/ppo_moteno_league_v19.toml, v18.toml,
v16.toml, v13.toml, v10.toml, v9.toml and v8.toml, with the same table; the steps between them were not shipped),
``ppo_network`` (the network before it, ``agents/checkpoints/ppo_moteno.pt``, configs/ppo_moteno_league_v5.toml),
``ppo_switch`` (that network that 1 contra 1 reads the rival's record, ``agents.record_switch``: a rival whose record
reads like the scripted heuristic family gets a best response to ``heuristic_bluffer``, one who refuses as
often but accepts less, a policy trained against every bot with that record; ``ppo_switch+pares``, with the
pares table, was the shipped ``ppo`` before v8),
``ppo_league1`` (the first league bot, ``agents/checkpoints/ppo_moteno_league1.pt``,
configs/ppo_moteno_league.toml), ``ppo_3v3`` (the bot shipped before them, trained for 3 contra 3,
``agents/checkpoints/ppo_moteno_3v3.pt``), ``cfr`` (the MCCFR average
policy for 1 contra 1, ``agents/checkpoints/cfr_moteno_1v1.npz``, ``agents.cfr_policy``; ``cfr_threshold`` and
``cfr_pure`` play it thresholded at 0.15 and purified). ``<name or path>+envido`` for argentino is that bot
with the envido mano a mano played from the solved table (``agents.envido_table``; ``ppo_league1+envido``),
and ``<name or path>+pares`` for Moteño that bot with the envite de pares mano a mano played from its
solved table (``agents.pares_table``, ``train.cfr.pares_moteno``; ``ppo_network+pares``). A path to a
checkpoint of ``train.ppo.loop`` loads the learned policy (``agents.ppo_policy.PPOPolicy``; one trained with
its envido or envite de pares from a solved table, ``envido_table`` or ``pares_table``, is played with
that table); a path
ending in ``.npz`` loads a CFR policy (an export or a run checkpoint of ``train.cfr.mccfr``,
its header checked); a file that is neither is a clear ``ValueError``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from agents.base import RandomPolicy


def _random(seed: int):
    return RandomPolicy(seed)


def _heuristic(seed: int):
    try:
        mod = importlib.import_module("agents.heuristic")
    except ModuleNotFoundError as e:
        if e.name in ("agents.heuristic",):
            raise ValueError("policy 'heuristic' is not available: agents/heuristic/ is missing") from e
        raise
    if hasattr(mod, "make_policy"):
        return mod.make_policy(seed=seed)
    cls = getattr(mod, "HeuristicPolicy", None)
    if cls is None:
        raise ValueError("agents.heuristic defines neither make_policy(seed=) nor HeuristicPolicy")
    try:
        return cls(seed=seed)
    except TypeError:  # a deterministic bot without a generator
        return cls()


def _heuristic_without_senas(seed: int):
    """The heuristic bot that ignores its partners' señas: the baseline for the señas channel."""
    from agents.heuristic import make_policy

    return make_policy(seed=seed, config={"use_partner_senas": False})


CHECKPOINTS = Path(__file__).parent / "checkpoints"
# configs/ppo_moteno_league_v20.toml (resumed to 38.7M decisions): 1, 2 and 3 contra 3, its envite de pares
# 1 contra 1 from the solved table it was trained with (MOTENO_PARES_TABLE, recorded in the file; issue 17)
MOTENO_BOT = CHECKPOINTS / "ppo_moteno_v20.pt"
# the league bots shipped before it, newest first, registered as ppo_v<n> and played with the same table
# (configs/ppo_moteno_league_v<n>.toml)
MOTENO_EARLIER_BOTS = {n: CHECKPOINTS / f"ppo_moteno_v{n}.pt" for n in (19, 18, 16, 13, 10, 9, 8)}
MOTENO_BOT_SIZES = (1, 2, 3)
MOTENO_V5_BOT = CHECKPOINTS / "ppo_moteno.pt"  # the one before v8 (configs/ppo_moteno_league_v5.toml): ppo_network
MOTENO_LEAGUE1_BOT = CHECKPOINTS / "ppo_moteno_league1.pt"  # the one before it (configs/ppo_moteno_league.toml)
STRONG_BOT = CHECKPOINTS / "ppo_moteno_3v3.pt"  # the bot shipped before both (docs/training.md): any size
# ppo_switch: the v5 network (ppo_network) that 1 contra 1 reads the rival's record (agents.record_switch; docs/league_moteno.md,
# "Reading the rival"), in two layers, the first sign read first:
# - a rival who, over 3 manos or more, raised 0.5 to 1.6 bets per mano, refused 0.35 to 0.75 and accepted at
#   least 0.3, and never left a mano, reads like the scripted heuristic family (the heuristic accepts 0.41 per
#   mano, heuristic_bluffer 0.39; the shipped ppo 0.20, ppo_league1 0.23): the best response to
#   heuristic_bluffer (warm started from MOTENO_V5_BOT, train.studies.exploiter, 25 min), which wins 94% against it;
# - otherwise a rival who raised 0.5 to 1.6, refused at least 0.35 and never left (random leaves half the
#   manos) gets the policy trained against every bot with that record, ppo among them
#   (configs/ppo_moteno_reader_1v1.toml, 40 min from the best response).
MOTENO_VS_BLUFFER = {1: CHECKPOINTS / "ppo_moteno_vs_bluffer_1v1.pt"}
MOTENO_BLUFFER_SIGN = {1: (3, {"refuse": (0.35, 0.75), "raise": (0.5, 1.6), "accept": (0.3, float("inf")),
                               "leave": (0.0, 0.0)})}
MOTENO_READER_ALT = {1: CHECKPOINTS / "ppo_moteno_reader_1v1.pt"}
MOTENO_SIGN_RATES = {1: (3, {"refuse": (0.35, float("inf")), "raise": (0.5, 1.6), "leave": (0.0, 0.0)})}
MOTENO_READER_LAYERS = ((MOTENO_VS_BLUFFER, MOTENO_BLUFFER_SIGN), (MOTENO_READER_ALT, MOTENO_SIGN_RATES))
MOTENO_PARES_TABLE = CHECKPOINTS / "pares_moteno_1v1.npz"  # train.cfr.pares_moteno: the envite de pares, 1 contra 1
CFR_BOT = CHECKPOINTS / "cfr_moteno_1v1.npz"  # docs/cfr_mccfr.md: 1 contra 1 only
# configs/ppo_argentino_league_v7.toml: 1 and 2 contra 2, played with the solved envido table (issue 17)
ARGENTINO_BOT = CHECKPOINTS / "ppo_argentino_v7.pt"
ARGENTINO_BOT_SIZES = (1, 2)
# its envido against a rival who left two manos (random's blind play): train.cfr.envido_argentino with
# --rival random --blind-share (docs/league_argentino.md, "Against random: a table for the blind rival")
ARGENTINO_BLIND_TABLE = CHECKPOINTS / "envido_argentino_1v1_blind.npz"
# ... and 2 contra 2, in the team abstraction of train.cfr.envido_teams (--team-size 2; docs/league_argentino.md,
# "2 contra 2: the envido tables of the team"); at 2 contra 2 it plays no other table
ARGENTINO_BLIND_TABLE_2V2 = CHECKPOINTS / "envido_argentino_2v2_blind.npz"
# the sign: the leaves (al mazo) of the rival's team in the juego, by team size. Three in a team: there
# a player may leave alone (A30) and a rival who left twice on purpose won 2.3 points more against it
ARGENTINO_BLIND_LEAVES = {1: 2, 2: 3}
# ... and in the juego's first manos, before the sign can show, a table for a rival blind with chance
# 0.7 (--mixture-of; docs/league_argentino.md, "The first manos: a prior over the rival's kind")
ARGENTINO_BLIND_FIRST_MANOS = 5
ARGENTINO_PRIOR_TABLE = CHECKPOINTS / "envido_argentino_1v1_prior.npz"
ARGENTINO_PRIOR_TABLE_2V2 = CHECKPOINTS / "envido_argentino_2v2_prior.npz"
ARGENTINO_LEAGUE1_BOT = CHECKPOINTS / "ppo_argentino.pt"  # the one before it (configs/ppo_argentino_league.toml)
ARGENTINO_1V1_BOT = CHECKPOINTS / "ppo_argentino_1v1.pt"  # the one before both (configs/ppo_argentino_1v1.toml)


def _shipped(name: str, path: Path):
    if not path.exists():
        raise ValueError(f"policy {name!r} is not available: {path} is missing")


def _shipped_ppo(name: str, path: Path, **kw):
    """A shipped PPO bot; with ``team_sizes``, check_team_size refuses the sizes it never played."""

    def make(seed: int):
        _shipped(name, path)
        from agents.ppo_policy import PPOPolicy

        return PPOPolicy(path, seed=seed, name=name, **kw)

    return make


def _shipped_ppo_with_switch(name: str, path: Path, layers: tuple, pares_table: Path | None = None, **kw):
    """A shipped PPO bot that plays other shipped policies once the rival's record shows a sign.
    ``layers``: ``(alts, sign_rates)`` pairs, the first read first (``alts``: team size -> the policy's
    file; ``sign_rates``: size -> (min_manos, rates); agents.record_switch). Each layer is a
    ``RecordSwitchPolicy`` whose base is the next layer's switch, the last one's the network.
    With ``pares_table`` (Moteño's) the envite de pares mano a mano of all of it is played from that
    table (agents.pares_table)."""
    network = _shipped_ppo(name, path, **kw)

    def make(seed: int):
        from agents.ppo_policy import PPOPolicy
        from agents.record_switch import RecordSign, RecordSwitchPolicy

        tradition = kw.get("tradition", "moteno")
        policy = network(seed)
        for depth in reversed(range(len(layers))):  # the innermost first; each alt has a seed of its own
            alts, sign_rates = layers[depth]
            for alt in alts.values():
                _shipped(name, alt)
            players = {size: PPOPolicy(alt, seed=seed + 1 + size + 10 * depth, tradition=tradition,
                                       name=f"{name}:{alt.stem}") for size, alt in alts.items()}
            signs = {size: RecordSign(min_manos=m, rates=dict(rates)) for size, (m, rates) in sign_rates.items()}
            policy = RecordSwitchPolicy(policy, players, signs, tradition=tradition, name=name)
        if pares_table is None:
            return policy
        from agents.pares_table import ParesTablePolicy

        _shipped(name, pares_table)
        return ParesTablePolicy(policy, pares_table, seed=seed + 100, name=name)

    return make


def _shipped_ppo_with_envido_table(name: str, path: Path, blind_table: tuple[Path, ...] = (),
                                   blind_first_manos: int = 0, prior_table: tuple[Path, ...] = (),
                                   blind_leaves: int | dict[int, int] = 2, **kw):
    """A shipped PPO bot trained with its envido played from the solved table (``envido_table``,
    train/ppo/table_envido.py), played the same way (agents.envido_table); with ``blind_table`` (one
    per team size), that table plays the envido against a rival who has left two manos of the juego
    (blind play; ``blind_leaves`` the leaves asked, by team size), and ``prior_table`` (or the blind
    table) in the juego's first ``blind_first_manos`` manos."""
    network = _shipped_ppo(name, path, **kw)

    def make(seed: int):
        policy = network(seed)
        if policy.envido_table is None:
            raise ValueError(f"policy {name!r}: {path} was not trained with an envido table")
        for table in (*blind_table, *prior_table):
            _shipped(name, table)
        return _with_its_envido_table(policy, seed, name, blind_table, blind_first_manos, prior_table, blind_leaves)

    return make


def _shipped_ppo_with_its_table(name: str, path: Path, table: Path, **kw):
    """A shipped PPO bot trained with its envite played from a solved table (``pares_table`` or
    ``envido_table``, train/ppo/table_envido.py), played with it (``_with_its_table``); ``table`` is
    the shipped file it must have recorded."""
    network = _shipped_ppo(name, path, **kw)

    def make(seed: int):
        policy = network(seed)
        recorded = policy.pares_table or policy.envido_table
        if recorded is None or _recorded_table(recorded, name, "solved").resolve() != table.resolve():
            raise ValueError(f"policy {name!r}: {path} was not trained with the table {table}")
        return _with_its_table(policy, seed, name)

    return make


def _with_its_envido_table(policy, seed: int, name: str, blind_table: tuple[Path, ...] = (),
                           blind_first_manos: int = 0, prior_table: tuple[Path, ...] = (),
                           blind_leaves: int | dict[int, int] = 2):
    """A checkpoint trained with its envido from a solved table (``envido_table``), played with that
    table (``_recorded_table``)."""
    from agents.envido_table import EnvidoTablePolicy

    table = _recorded_table(policy.envido_table, name, "envido")
    return EnvidoTablePolicy(policy, table, seed=seed + 1, name=name, blind_table=blind_table,
                             blind_first_manos=blind_first_manos, prior_table=prior_table, blind_leaves=blind_leaves)


def _with_its_table(policy, seed: int, name: str):
    """A checkpoint as it was trained: with the envido (argentino) or the envite de pares (Moteño)
    of the solved table it recorded, if it recorded one."""
    if policy.envido_table is not None:
        return _with_its_envido_table(policy, seed, name)
    if policy.pares_table is not None:
        from agents.pares_table import ParesTablePolicy

        return ParesTablePolicy(policy, _recorded_table(policy.pares_table, name, "pares"), seed=seed + 1, name=name)
    return policy


def _recorded_table(recorded: str, name: str, what: str) -> Path:
    """The table a checkpoint recorded: the path, from here or from the project's root (a table that
    is not there is a clear error, never another table)."""
    recorded = Path(recorded)
    candidates = [recorded] if recorded.is_absolute() else [recorded, Path(__file__).resolve().parents[1] / recorded]
    table = next((c for c in candidates if c.exists()), None)
    if table is None:
        raise ValueError(f"{name}: trained with the {what} table {str(recorded)!r}, which is not there")
    return table


def _shipped_cfr(name: str, **how):
    """The MCCFR bot, as averaged or thresholded or purified (agents/cfr_policy.py); ``cfr`` keeps
    the file's name."""

    def make(seed: int):
        _shipped(name, CFR_BOT)
        from agents.cfr_policy import CFRPolicy

        return CFRPolicy(CFR_BOT, seed=seed, name=None if name == "cfr" else name, **how)

    return make


def _heuristic_argentino(seed: int):
    from agents.heuristic_argentino import make_policy

    return make_policy(seed=seed)


def _heuristic_bluffer(seed: int):
    """The Moteño heuristic with its falsos turned up (a style of issue 17): 0.5, not 0.04, per mano."""
    from agents.heuristic import make_policy

    return make_policy(seed=seed, config={"bluff_envite": 0.5, "bluff_truco": 0.5})


def _heuristic_parero(seed: int):
    """The Moteño heuristic that sends three pares de falso with every hand it would not bet (its honest
    envites unchanged): how the 1 contra 1 exploiters of the league bots bet the pares (docs/league_moteno.md),
    a style to train and measure against."""
    from agents.heuristic import make_policy

    return make_policy(seed=seed, config={"bluff_envite": 1.0, "bluff_envite_pares": 3})


def _heuristic_argentino_bluffer(seed: int):
    """The argentino heuristic with its falsos turned up: 0.5 per decision, not 0.05 and 0.06."""
    from agents.heuristic_argentino import make_policy

    return make_policy(seed=seed, config={"bluff_envido": 0.5, "bluff_truco": 0.5})


def _heuristic_argentino_faltero(seed: int):
    """The argentino heuristic that opens the falta envido with every hand it may: how the exploiters
    of the league bots win (docs/league_argentino.md), a style to train and measure against."""
    from agents.heuristic_argentino import make_policy

    return make_policy(seed=seed, config={"bluff_falta": 1.0})


def _heuristic_argentino_enviador(seed: int):
    """The argentino heuristic that opens the envido with every hand it may (the plain envido; the
    real envido or the falta with the hands it would open them with anyway): how the exploiter of
    the faltero's league bot wins (docs/league_argentino.md), a style to train and measure against."""
    from agents.heuristic_argentino import make_policy

    return make_policy(seed=seed, config={"bluff_envido": 1.0})


# the bots of each tradition; random plays every tradition (it reads only the mask), and so do the
# style bots (agents.styles: the mask and the tradition's ACTION_KIND)
BOTS = {"moteno": {"heuristic": _heuristic, "heuristic_sin_senas": _heuristic_without_senas,
                   "ppo": _shipped_ppo_with_its_table("ppo", MOTENO_BOT, MOTENO_PARES_TABLE, team_sizes=MOTENO_BOT_SIZES),
                   **{f"ppo_v{n}": _shipped_ppo_with_its_table(f"ppo_v{n}", path, MOTENO_PARES_TABLE,
                                                               team_sizes=MOTENO_BOT_SIZES)
                      for n, path in MOTENO_EARLIER_BOTS.items()},
                   "ppo_switch": _shipped_ppo_with_switch("ppo_switch", MOTENO_V5_BOT, MOTENO_READER_LAYERS,
                                                          team_sizes=MOTENO_BOT_SIZES),
                   "ppo_network": _shipped_ppo("ppo_network", MOTENO_V5_BOT, team_sizes=MOTENO_BOT_SIZES),
                   "ppo_league1": _shipped_ppo("ppo_league1", MOTENO_LEAGUE1_BOT, team_sizes=MOTENO_BOT_SIZES),
                   "ppo_3v3": _shipped_ppo("ppo_3v3", STRONG_BOT), "cfr": _shipped_cfr("cfr"),
                   "cfr_threshold": _shipped_cfr("cfr_threshold", threshold=0.15),
                   "cfr_pure": _shipped_cfr("cfr_pure", purify=True), "heuristic_bluffer": _heuristic_bluffer,
                   "heuristic_parero": _heuristic_parero},
        "argentino": {"heuristic": _heuristic_argentino, "heuristic_bluffer": _heuristic_argentino_bluffer,
                      "heuristic_faltero": _heuristic_argentino_faltero,
                      "heuristic_enviador": _heuristic_argentino_enviador,
                      "ppo": _shipped_ppo_with_envido_table("ppo", ARGENTINO_BOT,
                                                            blind_table=(ARGENTINO_BLIND_TABLE, ARGENTINO_BLIND_TABLE_2V2),
                                                            blind_first_manos=ARGENTINO_BLIND_FIRST_MANOS,
                                                            prior_table=(ARGENTINO_PRIOR_TABLE, ARGENTINO_PRIOR_TABLE_2V2),
                                                            blind_leaves=ARGENTINO_BLIND_LEAVES,
                                                            tradition="argentino", team_sizes=ARGENTINO_BOT_SIZES),
                      "ppo_league1": _shipped_ppo("ppo_league1", ARGENTINO_LEAGUE1_BOT, tradition="argentino",
                                                  team_sizes=ARGENTINO_BOT_SIZES),
                      "ppo_1v1": _shipped_ppo("ppo_1v1", ARGENTINO_1V1_BOT, tradition="argentino", team_sizes=(1,))}}
ENVIDO_SUFFIX = "+envido"  # "<bot>+envido": the bot with the envido played from the solved table
PARES_SUFFIX = "+pares"  # "<bot>+pares" (Moteño): the bot with the envite de pares mano a mano from the solved table
# each suffix: (its tradition, the module and class of the policy that plays the table over the bot)
TABLE_SUFFIXES = {ENVIDO_SUFFIX: ("argentino", "agents.envido_table", "EnvidoTablePolicy"),
                  PARES_SUFFIX: ("moteno", "agents.pares_table", "ParesTablePolicy")}
TRADITION_NAMES = {"argentino": "argentino", "moteno": "Moteño"}
STYLE_BOTS = ("style_raiser", "style_caller", "style_folder", "style_bluffer")


def _every_tradition_bot(name: str, seed: int, tradition: str):
    if name == "random":
        return _random(seed)
    from agents.styles import StylePolicy

    return StylePolicy(name.removeprefix("style_"), tradition=tradition, seed=seed)


def known_policies(tradition: str = "moteno") -> list[str]:
    """The registry names of the bots of ``tradition`` (a ValueError for an unknown tradition)."""
    from truque_env.traditions import get

    get(tradition)
    return sorted({"random", *STYLE_BOTS, *BOTS.get(tradition, {})})


def load_policy(name_or_path: str, seed: int = 0, tradition: str = "moteno"):
    """A fresh policy by registry name (seeded with ``seed``) for ``tradition``, or from a checkpoint
    path. A bot that does not exist for the tradition is a ValueError naming the ones that do."""
    key = name_or_path.strip()
    known = known_policies(tradition)
    for suffix, (table_tradition, module, cls) in TABLE_SUFFIXES.items():
        if not (key.endswith(suffix) and len(key) > len(suffix)):
            continue
        if tradition != table_tradition:
            raise ValueError(f"{key!r}: the solved {suffix[1:]} table is {TRADITION_NAMES[table_tradition]}'s, "
                             f"not {tradition}'s")
        table_policy = getattr(importlib.import_module(module), cls)
        base = load_policy(key.removesuffix(suffix), seed=seed, tradition=tradition)
        if isinstance(base, table_policy):  # it plays from its table already (``ppo``)
            base.name = key
            return base
        return table_policy(base, seed=seed + 1, name=key)  # a base without action_probs: its ValueError
    if key == "random" or key in STYLE_BOTS:
        return _every_tradition_bot(key, seed, tradition)
    if key in BOTS.get(tradition, {}):
        return BOTS[tradition][key](seed)
    if any(key in bots for bots in BOTS.values()):
        raise ValueError(f"no {key!r} bot for {tradition}; known policies for {tradition}: {', '.join(known)}")
    path = Path(key)
    if path.suffix == ".npz":
        if not path.exists():
            raise ValueError(f"no CFR policy at {key!r}")
        from agents.cfr_policy import CFRPolicy

        return CFRPolicy(path, seed=seed, tradition=tradition)
    if path.suffix in (".pt", ".pth", ".ckpt") or path.exists():
        if not path.exists():
            raise ValueError(f"no checkpoint at {key!r}")
        from agents.ppo_policy import PPOPolicy

        policy = PPOPolicy(path, seed=seed, tradition=tradition)
        return _with_its_table(policy, seed, key)
    raise ValueError(f"unknown policy {name_or_path!r}; known policies: {', '.join(known)} "
                     "(or a path to a checkpoint)")
