"""The reduced Truque Moteño games (``train.cfr.reduced``) as OpenSpiel Python games.

So that OpenSpiel's own algorithms (CFR, CFR+, ``exploitability.nash_conv``) run on the same
games as ``train.cfr.solvers``. The OpenSpiel state wraps the numba engine's state row directly: a
chance node deals (outcome ``d`` is deal ``d`` of ``ReducedTruque.deals()``, probability
``1 / num_deals``), then every action is an engine action id (0..90, ``truque_env.traditions.moteno.actions``)
applied with ``kernels.step``; the legal actions are the engine's legal mask intersected with the
configuration's allowed set, the returns player 0's chinas minus player 1's. The information
state string is :func:`train.cfr.reduced.infostate_name` of the player's hand, the rival's
face-up cards and the public history, the names ``train.cfr.solvers``'s trees use; so a policy of one
side maps onto the other by name.

    import pyspiel
    from train.cfr.openspiel_game import load_openspiel_game
    game = load_openspiel_game("truque_tiny")      # "python_truque_reduced(game=truque_tiny)"
    from open_spiel.python.algorithms import cfr, exploitability
    solver = cfr.CFRPlusSolver(game)

OpenSpiel is a test dependency (``pip install open_spiel``); without it the functions here raise
an ``ImportError`` that says so.
"""

from __future__ import annotations

import numpy as np

from train.cfr.reduced import (
    REDUCED_GAMES,
    ReducedTruque,
    allowed_actions,
    hand_text,
    infostate_name,
    utility,
)
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L

SHORT_NAME = "python_truque_reduced"
_REGISTERED = False
_DATA: dict[str, _GameData] = {}


def _pyspiel():
    try:
        import pyspiel
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("train.cfr.openspiel_game needs OpenSpiel: pip install open_spiel "
                          f"(the tests' optional dependency); import failed: {exc}") from None
    return pyspiel


class _GameData:
    """What every state of one reduced game shares: the deals, their starting rows, the allowed set."""

    def __init__(self, config: ReducedTruque):
        config.validate()
        self.config = config
        self.deals = config.deals()
        self.roots = np.stack([config.initial_state(d) for d in self.deals])
        self.allowed = config.allowed_mask()
        self.prob = 1.0 / len(self.deals)


def _max_chinas(c: ReducedTruque) -> int:
    """A bound on the chinas one team can win in a mano of ``c`` (Art. 18.2)."""
    pares = min(max([2 * n for n in c.pares] + ([c.target] if c.falta else []) + [0]), c.target)
    flores = (6 + min(max([3 * n for n in c.flores] + ([c.target] if c.falta else []) + [0]), c.target) + 1) if c.flor else 0
    truque = (1, 3, 6, 9)[c.truco]
    return pares + flores + truque + (c.target if c.falta else 0)


def register() -> None:
    """Register ``python_truque_reduced`` with pyspiel (once); its parameter ``game`` names a reduced game."""
    global _REGISTERED
    if _REGISTERED:
        return
    pyspiel = _pyspiel()

    game_type = pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Reduced Truque Moteño (one 1v1 mano on the numba engine)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"game": "truque_tiny"},
    )

    class TruqueObserver:
        """Information state strings only (perfect recall), as ``train.cfr.reduced`` names them."""

        def __init__(self, iig_obs_type, params):
            if params:
                raise ValueError(f"observation parameters not supported, got {params}")
            self.tensor = np.zeros(0, np.float32)
            self.dict = {}

        def set_from(self, state, player):
            pass

        def string_from(self, state, player):
            return state.infostate_string(player)

    class TruqueState(pyspiel.State):
        def __init__(self, game, key: str):
            super().__init__(game)
            self._key = key
            self._row = None  # the engine row once dealt
            self._history = b""  # the public actions: bytes seat, action, seat, action, ...
            self._player = pyspiel.PlayerId.CHANCE

        # pyspiel clones a Python state by deep-copying its __dict__: keep it to a row and atomic values
        # --- the OpenSpiel API
        def current_player(self):
            return self._player

        def _legal_actions(self, player):
            return allowed_actions(self._row, _DATA[self._key].allowed)

        def chance_outcomes(self):
            data = _DATA[self._key]
            return [(d, data.prob) for d in range(len(data.deals))]

        def _apply_action(self, action):
            data = _DATA[self._key]
            if self._row is None:
                self._row = data.roots[action].copy()
            else:
                seat = int(self._row[L.TO_ACT])
                if not data.allowed[action] or K.step(self._row, action) != K.OK:
                    raise ValueError(f"action {action} ({A.ACTION_NAMES[action]}) is not allowed here")
                self._history += bytes((seat, int(action)))
            done = self._row[L.PHASE] == L.PH_DONE
            self._player = pyspiel.PlayerId.TERMINAL if done else int(self._row[L.TO_ACT])

        def _action_to_string(self, player, action):
            if player == pyspiel.PlayerId.CHANCE:
                h0, h1 = _DATA[self._key].deals[action]
                return f"deal {hand_text(h0)} / {hand_text(h1)}"
            return A.ACTION_NAMES[action]

        def is_terminal(self):
            return self._player == pyspiel.PlayerId.TERMINAL

        def returns(self):
            if not self.is_terminal():
                return [0.0, 0.0]
            u = utility(self._row)
            return [u, -u]

        def __str__(self):
            if self._row is None:
                return "(deal)"
            hands = [hand_text(self._row[L.HAND + 3 * p:L.HAND + 3 * p + 3]) for p in range(2)]
            return f"{hands[0]} / {hands[1]} | " + ", ".join(f"{s}:{A.ACTION_NAMES[a]}" for s, a in self._pairs())

        def _pairs(self):
            h = self._history
            return [(h[k], h[k + 1]) for k in range(0, len(h), 2)]

        # --- information
        def infostate_string(self, player: int) -> str:
            row = self._row
            if row is None:
                return infostate_name(player, None, [], [])
            seen = bool(row[L.CARDS_SEEN]) or row[L.PHASE] == L.PH_DONE
            hand = [int(c) for c in row[L.HAND + 3 * player:L.HAND + 3 * player + 3]] if seen else None
            other = 1 - player
            up = [int(c) for c in row[L.HAND + 3 * other:L.HAND + 3 * other + 3]] if (row[L.CARDS_UP] >> other) & 1 else []
            return infostate_name(player, hand, up, self._pairs())

    class TruqueGame(pyspiel.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            key = str(params.get("game", "truque_tiny"))
            if key not in REDUCED_GAMES:
                raise ValueError(f"unknown reduced game {key!r}; known: {list(REDUCED_GAMES)}")
            if key not in _DATA:
                _DATA[key] = _GameData(REDUCED_GAMES[key])
            data = _DATA[key]
            bound = float(_max_chinas(data.config))
            info = pyspiel.GameInfo(
                num_distinct_actions=A.NUM_ACTIONS,
                max_chance_outcomes=len(data.deals),
                num_players=2,
                min_utility=-bound,
                max_utility=bound,
                utility_sum=0.0,
                max_game_length=L.MAX_PLAYERS * 16,  # a bound: far above the decisions of a 1v1 mano
            )
            super().__init__(game_type, info, {"game": key})
            self._key = key

        def new_initial_state(self):
            return TruqueState(self, self._key)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return TruqueObserver(iig_obs_type, params)

    pyspiel.register_game(game_type, TruqueGame)
    _REGISTERED = True


def add_game(config: ReducedTruque) -> None:
    """Make a reduced game not among the named ones loadable (by ``config.name``)."""
    config.validate()
    REDUCED_GAMES.setdefault(config.name, config)
    if REDUCED_GAMES[config.name] != config:
        raise ValueError(f"a different reduced game is already named {config.name!r}")


def load_openspiel_game(name: str):
    """The pyspiel game of the reduced game ``name`` (``python_truque_reduced(game=name)``)."""
    if name not in REDUCED_GAMES:
        raise ValueError(f"unknown reduced game {name!r}; known: {list(REDUCED_GAMES)}")
    register()
    return _pyspiel().load_game(SHORT_NAME, {"game": name})


def tabular_policy_from(game, infostate_names: list[str], info_actions: np.ndarray, policy: np.ndarray):
    """An OpenSpiel (Python) ``TabularPolicy`` of the Python ``game`` holding our ``policy`` (rows
    named by ``infostate_names``, columns the engine action ids ``info_actions``, -1 padded)."""
    from open_spiel.python import policy as os_policy

    tab = os_policy.TabularPolicy(game)
    index = {name: i for i, name in enumerate(infostate_names)}
    for key, row in tab.state_lookup.items():
        i = index.get(key)
        if i is None:
            raise KeyError(f"OpenSpiel information state {key!r} is not in our tree")
        acts = info_actions[i]
        k = int((acts >= 0).sum())
        tab.action_probability_array[row, :] = 0.0
        tab.action_probability_array[row, acts[:k]] = policy[i, :k]
    return tab


def policy_from_openspiel(policy_table: dict, infostate_names: list[str], info_actions: np.ndarray,
                          efg_index: dict | None = None) -> np.ndarray:
    """Our ``[num_infostates, max_actions]`` table from an OpenSpiel policy table
    (``{information state string: [(action, probability), ...]}``, e.g. the ``policy_table()`` of a
    C++ solver's average policy) of the Python game, or of its EFG export given its ``efg_index``."""
    index = {name: i for i, name in enumerate(infostate_names)}
    efg_name, efg_engine = {}, {}
    if efg_index is not None:
        for name, (key, ids) in efg_index.items():
            efg_name[key] = name
            efg_engine[key] = {v: k for k, v in ids.items()}
    out = np.zeros((len(infostate_names), info_actions.shape[1]))
    seen = np.zeros(len(infostate_names), dtype=bool)
    for key, pairs in policy_table.items():
        i = index[efg_name[key] if efg_index is not None else key]
        seen[i] = True
        acts = [int(a) for a in info_actions[i] if a >= 0]
        for a, p in pairs:
            engine = efg_engine[key][int(a)] if efg_index is not None else int(a)
            out[i, acts.index(engine)] = p
    if not seen.all():
        raise KeyError(f"{int((~seen).sum())} of our information states are missing from the OpenSpiel policy")
    return out


# ------------------------------------------------------------------------------------------
# the same game, exported by walking the pyspiel game, as a Gambit .efg that OpenSpiel's C++ loads


def _efg_text(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def to_efg(game) -> tuple[str, dict]:
    """The pyspiel ``game`` (any two-player game with explicit chance) as a Gambit EFG string,
    written by walking it through the OpenSpiel API only: chance outcomes and probabilities,
    legal actions, information state strings and returns. Information sets are numbered per
    player and named by the information state string; the actions of a decision are its legal
    actions in ascending order. Also returns counts (nodes by kind, information states)."""
    lines = [f'EFG 2 R "{_efg_text(str(game))}" {{ "p0" "p1" }}', '""']
    infosets: dict[tuple[int, str], int] = {}
    per_player = [0, 0]
    counts = {"chance": 0, "decision": 0, "terminal": 0}
    next_outcome = 1
    stack = [game.new_initial_state()]
    while stack:  # preorder, children in the order of their actions
        state = stack.pop()
        if state.is_terminal():
            r = state.returns()
            lines.append(f't "" {next_outcome} "" {{ {r[0]!r} {r[1]!r} }}')
            next_outcome += 1
            counts["terminal"] += 1
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            body = " ".join(f'"{a}" {p!r}' for a, p in outcomes)
            lines.append(f'c "" {counts["chance"] + 1} "" {{ {body} }} 0')
            counts["chance"] += 1
            kids = [state.child(a) for a, _ in outcomes]
        else:
            player = state.current_player()
            key = (player, state.information_state_string(player))
            if key not in infosets:
                per_player[player] += 1
                infosets[key] = per_player[player]
            number = infosets[key]
            actions = state.legal_actions()
            body = " ".join(f'"{a}"' for a in actions)
            lines.append(f'p "" {player + 1} {number} "{_efg_text(key[1])}" {{ {body} }} 0')
            counts["decision"] += 1
            kids = [state.child(a) for a in actions]
        stack.extend(reversed(kids))
    counts["infostates"] = len(infosets)
    return "\n".join(lines) + "\n", counts


_EXPORTS: dict[str, tuple[str, dict]] = {}


def export_efg(name: str) -> tuple[str, dict]:
    """:func:`to_efg` of the reduced game ``name`` (once per process): the EFG text and the counts."""
    if name not in _EXPORTS:
        _EXPORTS[name] = to_efg(load_openspiel_game(name))
    return _EXPORTS[name]


def load_efg(name: str):
    """OpenSpiel's C++ ``efg_game`` of the reduced game ``name``, exported from the Python game by
    :func:`to_efg` (so that OpenSpiel's C++ CFR and exploitability run at C++ speed on it), and
    its index ``{our information state name: (efg information state string, {engine action id:
    efg action id})}``, read from the efg game's own states."""
    pyspiel = _pyspiel()
    text, _ = export_efg(name)
    game = pyspiel.load_efg_game(text)
    index: dict[str, tuple[str, dict[int, int]]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        key = state.information_state_string()
        if key not in index:
            index[efg_infostate_name(key)] = (key, {int(state.action_to_string(a)): a for a in state.legal_actions()})
        stack.extend(state.child(a) for a in state.legal_actions())
    return game, index


def efg_policy(efg_index: dict, infostate_names: list[str], info_actions: np.ndarray, policy: np.ndarray):
    """Our ``policy`` as a C++ ``pyspiel.TabularPolicy`` of the EFG export (see :func:`load_efg`)."""
    table = {}
    for i, name in enumerate(infostate_names):
        key, ids = efg_index[name]
        acts = [int(a) for a in info_actions[i] if a >= 0]
        table[key] = [(ids[a], float(policy[i, k])) for k, a in enumerate(acts)]
    return _pyspiel().TabularPolicy(table)


def efg_infostate_name(efg_string: str) -> str:
    """Our information state name inside an efg_game information state string (``"0-0-12-<name>"``)."""
    return efg_string.split("-", 3)[3]
