"""Small two-player zero-sum games as fully expanded trees of flat numpy arrays (for ``train.cfr.solvers``).

A :class:`GameTree` is the whole game tree laid out breadth-first, the way OpenSpiel's tabular
algorithms see a game, but as arrays a numba kernel can sweep:

* ``node_player[n]``: 0 or 1 (a decision), ``CHANCE`` or ``TERMINAL``;
* ``first_child[n]``, ``num_children[n]``: the children of ``n`` are the nodes
  ``first_child[n] .. first_child[n] + num_children[n] - 1``, in the order of the actions
  (OpenSpiel's action ids, ascending; chance outcomes in OpenSpiel's order too);
* ``parent[n]`` (-1 at the root, node 0) and ``depth[n]``; ``level_start[d]`` is the first node
  of depth ``d`` (breadth-first order keeps every level contiguous and parents before children);
* ``chance_prob[n]``: the probability of the chance outcome that leads to ``n`` (1 below a decision);
* ``utility[n]``: player 0's payoff at a terminal node (player 1 gets ``-utility``);
* ``infostate[n]``: at a decision node, the row of the per-information-state tables (-1 elsewhere).

Per information state ``i``: ``infostate_player[i]``, ``num_actions[i]`` (the legal actions are
the first ``num_actions[i]`` columns of a ``[num_infostates, max_actions]`` table),
``infostate_names[i]`` and ``action_names[i]``.

Information-state names, for inspection:

* Kuhn poker: ``"<card>:<history>"``, the player's card (``J``, ``Q``, ``K``) and the betting so far
  in ``p`` (pass) and ``b`` (bet): ``"K:pb"`` is player 0 holding the king after pass, bet.
* Leduc poker: ``"<card>:<round 1>"`` in the first round and ``"<card>|<public>:<round 1>/<round 2>"``
  in the second, with the cards ``Js Jh Qs Qh Ks Kh`` (two suits: OpenSpiel tells the two cards of
  a rank apart, which gives its 936 information states) and the actions ``f`` (fold), ``c``
  (check/call), ``r`` (bet/raise): ``"Qh|Ks:rc/cr"``.

Rules as in OpenSpiel. Kuhn: cards J < Q < K, ante 1, player 0 acts first, pass or bet 1; the value
of the game for player 0 is -1/18. Leduc: six cards (J, Q, K in two suits), ante 1, player 0 starts
both rounds, bets of 2 in the first round and 4 in the second, at most two bets/raises per round,
fold legal only when facing a bet; at showdown a pair with the public card beats a high card, then
the higher rank wins, equal ranks split the pot.

Every information state's histories must lie at one depth (true of both games; the exact best
response of ``train.cfr.solvers`` relies on it); the builder checks it.

Besides the two poker games, ``load_game`` knows the reduced Truque Moteño games of
``train.cfr.reduced`` (``truque_tiny``, ``truque_pares6``, ``truque_7``, ``truque_8``): one 1v1
mano on a small deck with a subset of the bets, expanded by the real numba engine.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

CHANCE = 2
TERMINAL = 3
POKER_GAMES = ("kuhn_poker", "leduc_poker")
TRUQUE_GAMES = ("truque_tiny", "truque_pares6", "truque_7", "truque_8")  # train.cfr.reduced.REDUCED_GAMES
GAMES = POKER_GAMES + TRUQUE_GAMES


@dataclass(frozen=True)
class GameTree:
    """A two-player zero-sum game, fully expanded (see the module docstring for every array)."""

    name: str
    node_player: np.ndarray  # int64 [N]
    first_child: np.ndarray  # int64 [N]
    num_children: np.ndarray  # int64 [N]
    parent: np.ndarray  # int64 [N]
    depth: np.ndarray  # int64 [N]
    level_start: np.ndarray  # int64 [max depth + 2]
    chance_prob: np.ndarray  # float64 [N]
    utility: np.ndarray  # float64 [N], player 0's payoff at terminals
    infostate: np.ndarray  # int64 [N], -1 off decision nodes
    infostate_player: np.ndarray  # int64 [I]
    num_actions: np.ndarray  # int64 [I]
    infostate_names: list[str]
    action_names: list[tuple[str, ...]]

    @property
    def num_nodes(self) -> int:
        return int(self.node_player.size)

    @property
    def num_infostates(self) -> int:
        return int(self.num_actions.size)

    @property
    def max_actions(self) -> int:
        return int(self.num_actions.max())

    @property
    def table_shape(self) -> tuple[int, int]:
        """The shape of the regret and average-policy tables."""
        return self.num_infostates, self.max_actions

    def infostate_index(self, name: str) -> int:
        return self.infostate_names.index(name)


# ------------------------------------------------------------------------------------------
# a game for the builder: states as small Python objects (built once, never in a hot path)


class _State:
    """What the builder asks of a state; ``children`` is ``[(action name, probability or None, state)]``."""

    def player(self) -> int: ...  # 0, 1, CHANCE or TERMINAL
    def children(self) -> list: ...
    def infostate_name(self) -> str: ...
    def utility(self) -> float: ...


def build_tree(name: str, root: _State) -> GameTree:
    """Expand ``root`` breadth first into a :class:`GameTree`."""
    players, firsts, counts, parents, depths, probs, utils, infos = [], [], [], [], [], [], [], []
    names: dict[str, int] = {}
    info_player, info_actions, info_depth, action_names = [], [], [], []
    queue = deque([(root, -1, 1.0, 0)])
    next_index = 1  # where the next node's children go: the end of the queue so far
    while queue:
        state, parent, prob, depth = queue.popleft()
        player = state.player()
        players.append(player)
        parents.append(parent)
        probs.append(prob)
        depths.append(depth)
        utils.append(state.utility() if player == TERMINAL else 0.0)
        kids = [] if player == TERMINAL else state.children()
        if player != TERMINAL and not kids:
            raise ValueError(f"{name}: a non-terminal state without children")
        firsts.append(next_index if kids else -1)
        counts.append(len(kids))
        next_index += len(kids)
        if player in (0, 1):
            key = state.infostate_name()
            labels = tuple(label for label, _, _ in kids)
            if key not in names:
                names[key] = len(names)
                info_player.append(player)
                info_actions.append(len(kids))
                info_depth.append(depth)
                action_names.append(labels)
            i = names[key]
            if (info_player[i], action_names[i], info_depth[i]) != (player, labels, depth):
                raise ValueError(f"{name}: information state {key!r} is not consistent (player, actions or depth)")
            infos.append(i)
        else:
            infos.append(-1)
        if player == CHANCE and abs(sum(p for _, p, _ in kids) - 1.0) > 1e-12:
            raise ValueError(f"{name}: chance probabilities do not sum to 1")
        for _, p, child in kids:
            queue.append((child, len(players) - 1, p if player == CHANCE else 1.0, depth + 1))
    depth_arr = np.asarray(depths, dtype=np.int64)
    level_start = np.searchsorted(depth_arr, np.arange(depth_arr.max() + 2)).astype(np.int64)
    return GameTree(
        name=name,
        node_player=np.asarray(players, dtype=np.int64),
        first_child=np.asarray(firsts, dtype=np.int64),
        num_children=np.asarray(counts, dtype=np.int64),
        parent=np.asarray(parents, dtype=np.int64),
        depth=depth_arr,
        level_start=level_start,
        chance_prob=np.asarray(probs, dtype=np.float64),
        utility=np.asarray(utils, dtype=np.float64),
        infostate=np.asarray(infos, dtype=np.int64),
        infostate_player=np.asarray(info_player, dtype=np.int64),
        num_actions=np.asarray(info_actions, dtype=np.int64),
        infostate_names=list(names),
        action_names=action_names,
    )


# ------------------------------------------------------------------------------------------
# Kuhn poker

_KUHN_CARDS = "JQK"


class _Kuhn(_State):
    def __init__(self, cards: tuple[int, ...] = (), history: str = ""):
        self.cards, self.history = cards, history

    def player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.history in ("pp", "bp", "bb", "pbp", "pbb"):
            return TERMINAL
        return len(self.history) % 2

    def children(self) -> list:
        if len(self.cards) < 2:
            left = [c for c in range(3) if c not in self.cards]
            return [(_KUHN_CARDS[c], 1.0 / len(left), _Kuhn(self.cards + (c,))) for c in left]
        return [(a, None, _Kuhn(self.cards, self.history + a)) for a in "pb"]

    def infostate_name(self) -> str:
        return f"{_KUHN_CARDS[self.cards[len(self.history) % 2]]}:{self.history}"

    def utility(self) -> float:
        h = self.history
        if h == "bp":
            return 1.0  # player 1 folds
        if h == "pbp":
            return -1.0  # player 0 folds
        stake = 2.0 if "b" in h else 1.0
        return stake if self.cards[0] > self.cards[1] else -stake


# ------------------------------------------------------------------------------------------
# Leduc poker

_LEDUC_CARDS = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")  # rank = card // 2, as OpenSpiel
_LEDUC_RAISE = (2, 4)
_LEDUC_MAX_RAISES = 2


class _Leduc(_State):
    def __init__(self, cards=(), rounds=("",), contrib=(1, 1)):
        self.cards = cards  # player 0's, player 1's, then the public card
        self.rounds = rounds  # the action strings of the rounds so far
        self.contrib = contrib

    def _round_over(self) -> bool:
        h = self.rounds[-1]
        return len(h) >= 2 and h[-1] == "c"

    def _folded(self) -> bool:
        return self.rounds[-1].endswith("f")

    def player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self._folded() or (len(self.rounds) == 2 and self._round_over()):
            return TERMINAL
        if self._round_over():
            return CHANCE  # the public card
        return len(self.rounds[-1]) % 2

    def children(self) -> list:
        if len(self.cards) < 2 or self._round_over():
            left = [c for c in range(6) if c not in self.cards]
            rounds = self.rounds if len(self.cards) < 2 else self.rounds + ("",)
            return [(_LEDUC_CARDS[c], 1.0 / len(left), _Leduc(self.cards + (c,), rounds, self.contrib)) for c in left]
        h = self.rounds[-1]
        me = len(h) % 2
        stake = max(self.contrib)
        out = []
        if self.contrib[me] < stake:
            out.append(("f", None, _Leduc(self.cards, self.rounds[:-1] + (h + "f",), self.contrib)))
        called = list(self.contrib)
        called[me] = stake
        out.append(("c", None, _Leduc(self.cards, self.rounds[:-1] + (h + "c",), tuple(called))))
        if h.count("r") < _LEDUC_MAX_RAISES:
            raised = list(self.contrib)
            raised[me] = stake + _LEDUC_RAISE[len(self.rounds) - 1]
            out.append(("r", None, _Leduc(self.cards, self.rounds[:-1] + (h + "r",), tuple(raised))))
        return out

    def infostate_name(self) -> str:
        me = len(self.rounds[-1]) % 2
        card = _LEDUC_CARDS[self.cards[me]]
        if len(self.rounds) == 1:
            return f"{card}:{self.rounds[0]}"
        return f"{card}|{_LEDUC_CARDS[self.cards[2]]}:{self.rounds[0]}/{self.rounds[1]}"

    def utility(self) -> float:
        if self._folded():
            folder = (len(self.rounds[-1]) - 1) % 2
            return -float(self.contrib[0]) if folder == 0 else float(self.contrib[1])
        public = self.cards[2] // 2
        ranks = [self.cards[0] // 2, self.cards[1] // 2]
        strength = [(r == public, r) for r in ranks]  # a pair first, then the rank
        if strength[0] == strength[1]:
            return 0.0
        return float(self.contrib[1]) if strength[0] > strength[1] else -float(self.contrib[0])


_CACHE: dict[str, GameTree] = {}


def load_game(name: str) -> GameTree:
    """The tree of a game by name (:data:`GAMES`: the two poker games and the reduced Truque
    Moteño games of ``train.cfr.reduced``), built once per process."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; known: {list(GAMES)}")
    if name not in _CACHE:
        if name in TRUQUE_GAMES:
            from train.cfr.reduced import load_build

            _CACHE[name] = load_build(name).tree
        else:
            _CACHE[name] = build_tree(name, _Kuhn() if name == "kuhn_poker" else _Leduc())
    return _CACHE[name]
