"""Reduced Truque Moteño games, small enough to solve exactly with CFR (``train.cfr.solvers``).

A reduced game is one mano of Truque Moteño *mano a mano* (1v1, Art. 3), played by the real
numba engine (``truque_env.traditions.moteno.kernels``) on a smaller deck and with a subset of the bets.
Nothing of the rules is written again here: the game tree is expanded by copying the engine's
``int16`` state row at every branch, stepping it with ``kernels.step_unchecked``, and keeping
of ``kernels.legal_mask`` only the actions the configuration allows.

The game
--------
* **Players.** Player 0 is seat 0, the **mano** (the dealer is seat 1, the postre, Art. 4.23);
  player 1 is seat 1. One mano, no señas (ruling 3 allows "no señas"), scores 0 to 0 with
  ``target`` chinas to win (ruling 1; la falta is ``target``; nobody is al cantar, Art. 8).
* **Chance: the deal.** One chance node at the root: every way of giving three cards of
  ``deck`` to each player, ``C(D, 3) * C(D - 3, 3)`` outcomes of equal probability (ruling 6:
  a uniform shuffle), in the order of :meth:`ReducedTruque.deals` (hands as sorted card ids,
  player 0's hand the outer loop). ``kernels.deal_hands`` starts the mano with that deal.
* **Blind round.** Without ``blind`` the apuestas a ciegas (Arts. 7, 15) are skipped: both
  blind turns are ``paso``, applied before the tree starts. With ``blind`` they are decisions
  (the cards are not seen yet, so those information states do not include the hand).
* **Allowed actions** = the engine's legal actions ∩ a fixed set given by the configuration:
  ``paso``, ``quiero``, ``no quiero`` and every ``juego <card>`` always; ``envío N pares`` for
  N in ``pares`` (opening envites and revoques: ``pares = (1, 2)`` allows "un par" and one
  revoque to "dos pares", Arts. 6.1-6.4); ``truco`` / ``retruco`` / ``panueve`` up to level
  ``truco`` (Arts. 14.1-14.7); ``flor`` and ``envío N flores`` for N in ``flores`` if ``flor``
  (Arts. 10, 11); ``me voy a baraja`` if ``baraja`` (13.14); ``envío la falta`` if ``falta``
  (6.16); ``luego te lo digo`` (and the falta-a-ciegas answers) only with ``blind``. A decision
  with a single allowed action stays a node of the tree (a forced move): then every
  information state's histories lie at one depth, as ``train.cfr.solvers``'s exact best response needs.
* **What a player knows** (his information state): his seat, his hand (once the cards are seen),
  the hand of a rival who left his cards face up (14.10, ``CARDS_UP``), and the whole public
  sequence of actions (bets, answers and cards played: everything the seat-relative
  observation shows, with perfect recall). The name reads
  ``"p1 hand=1E 3C 5O | 0:envío 1 par, 1:quiero, 0:juego 3C"``.
* **Utility**: chinas won by player 0's team minus player 1's in this mano, as the engine
  scores it (``CHINAS``: pares, flores and truque, Art. 18.2); zero-sum.

What the reduction changes with respect to the reglamento: the deck (Art. 1 deals from the
40-card baraja); the number of players (Art. 3 allows 1 to 4 per team: we keep 1); a single
mano from 0 to 0 instead of a juego (Art. 18, ruling 1); the bets not in the allowed set are
never offered, which restricts both players' strategies. Not singing a flor one holds is a
legal choice (Art. 10.6: "no es obligatorio cantar todas las flores"), so ``flor = False``
only removes that option; the named games' decks hold no flor at all (no three cards of one
suit, no pieza with two cards of one suit, at most one pieza), so there the question never
arises.

Named games (:data:`REDUCED_GAMES`, usable as ``CFRConfig.game`` and ``load_game(name)``):

=================  =========================================  ==================================
name               deck                                       bets
=================  =========================================  ==================================
``truque_tiny``    6 cards ``1E 7O 3C 2B 12C 5O``             truco (no retruco)
``truque_pares6``  6 cards ``1E 7O 3C 2B 12C 5O``             envío 1 par
``truque_7``       7 cards ``1E 7O 3C 2B 12C 5O 4E``          envío 1 par; truco
``truque_8``       8 cards ``1E 7O 3C 2B 12C 5O 4E 6B``       envío 1 par; truco
=================  =========================================  ==================================

With six cards each player's hand determines the other's (a game of perfect information
after the deal); ``truque_tiny`` is the unit-test game (also as an OpenSpiel game,
``train.cfr.openspiel_game``). Seven and eight cards leave the rival's hand hidden (4 and 10
possible rival hands). Sizes: 14,521 / 10,341 / 508,201 / 2,032,801 nodes; build times and
convergence in ``docs/cfr.md``.

    from train.cfr.reduced import ReducedTruque, build_game
    game = build_game(ReducedTruque(name="mine", deck=("1E", "7O", "3C", "2B", "12C", "5O", "4E"),
                                    pares=(1, 2), truco=2))
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit
from numba import types as nbtypes
from numba.typed import Dict

from truque_env.cards import NUM_CARDS, card_str, parse_card
from truque_env.traditions.moteno import actions as A
from truque_env.traditions.moteno import kernels as K
from truque_env.traditions.moteno import layout as L
from truque_env.traditions.moteno.rules import TRUQUE_POWER, flor_value, pares_value

# node kinds, as train.cfr.games (checked there)
_CHANCE, _TERMINAL = 2, 3
MAX_DEPTH = 64  # decisions in one mano: far above what any configuration reaches
MAX_ALLOWED = 64  # allowed actions at one decision
_ERR_NODES, _ERR_DEPTH, _ERR_INCONSISTENT, _ERR_EMPTY = -1, -2, -3, -4
_INFO_KEY = nbtypes.UniTuple(nbtypes.int64, 3)  # (public sequence id, hand mask, face-up cards mask)


@dataclass(frozen=True)
class ReducedTruque:
    """A reduced game: deck, allowed bets, target (see the module docstring)."""

    name: str
    deck: tuple[str, ...]
    """the cards in play, in notation (``"1E"``, ``"12C"``); at least 6 (three to each player)"""
    pares: tuple[int, ...] = ()
    """allowed ``envío N pares`` (N = 1..15, the stake 2N chinas), for envites and revoques"""
    truco: int = 0
    """highest truco level allowed: 0 none, 1 truco, 2 retruco, 3 panueve"""
    flor: bool = False
    """allow singing flor (Art. 10) and, with ``flores``, the envite de flores (Art. 11)"""
    flores: tuple[int, ...] = ()
    """allowed ``envío N flores`` (needs ``flor``)"""
    baraja: bool = False
    """allow ``me voy a baraja`` (13.14)"""
    falta: bool = False
    """allow ``envío la falta`` (6.16; stake ``target``)"""
    blind: bool = False
    """play the blind round (Arts. 7, 15) with the allowed bets, and ``luego te lo digo``"""
    target: int = 30
    """chinas to win the juego (ruling 1): la falta; nothing else depends on it here"""
    max_nodes: int = 8_000_000
    """a larger tree is refused with a ValueError"""

    def card_ids(self) -> tuple[int, ...]:
        ids = []
        for tok in self.deck:
            try:
                ids.append(parse_card(str(tok)))
            except ValueError as exc:
                raise ValueError(f"reduced game {self.name!r}: {exc}") from None
        return tuple(sorted(ids))

    def validate(self) -> None:
        """A ValueError naming the problem, for any configuration that is not a game."""
        ids = self.card_ids()
        if len(set(ids)) != len(ids):
            dup = sorted({card_str(c) for c in ids if ids.count(c) > 1})
            raise ValueError(f"reduced game {self.name!r}: card(s) {dup} appear twice in the deck")
        if len(ids) < 6:
            raise ValueError(f"reduced game {self.name!r}: a 1v1 mano deals 3 cards to each player, "
                             f"the deck needs at least 6 cards, got {len(ids)}")
        for n in self.pares:
            if not (isinstance(n, (int, np.integer)) and 1 <= n <= A.MAX_PARES_N):
                raise ValueError(f"reduced game {self.name!r}: envío N pares needs 1 <= N <= {A.MAX_PARES_N}, got {n!r}")
        for n in self.flores:
            if not (isinstance(n, (int, np.integer)) and 1 <= n <= A.MAX_FLORES_N):
                raise ValueError(f"reduced game {self.name!r}: envío N flores needs 1 <= N <= {A.MAX_FLORES_N}, got {n!r}")
        if len(set(self.pares)) != len(self.pares) or len(set(self.flores)) != len(self.flores):
            raise ValueError(f"reduced game {self.name!r}: repeated stakes in pares {self.pares} or flores {self.flores}")
        if self.flores and not self.flor:
            raise ValueError(f"reduced game {self.name!r}: flores stakes {self.flores} need flor = True")
        if not isinstance(self.truco, (int, np.integer)) or not 0 <= self.truco <= 3:
            raise ValueError(f"reduced game {self.name!r}: truco is the highest level 0..3 (truco, retruco, "
                             f"panueve), got {self.truco!r}")
        if not (self.pares or self.truco or self.flores or self.falta):
            raise ValueError(f"reduced game {self.name!r}: the allowed bets are empty; allow some of pares, truco, "
                             "flores, falta (a mano with no bet at all is not a betting game)")
        if not 2 <= self.target <= 1000:
            raise ValueError(f"reduced game {self.name!r}: target must be 2..1000 (at 1 the mano is played al cantar, "
                             f"Art. 8), got {self.target}")
        if self.max_nodes < 1:
            raise ValueError(f"reduced game {self.name!r}: max_nodes must be positive")
        if self.num_deals + 1 > self.max_nodes:
            raise ValueError(f"reduced game {self.name!r}: {self.num_deals:,} deals alone exceed max_nodes = "
                             f"{self.max_nodes:,}; use a smaller deck")

    @property
    def num_deals(self) -> int:
        d = len(self.deck)
        return math.comb(d, 3) * math.comb(d - 3, 3) if d >= 6 else 0

    def deals(self) -> np.ndarray:
        """Every deal, ``[num_deals, 2, 3]`` card ids: player 0's hand, player 1's (sorted ids)."""
        ids = self.card_ids()
        out = []
        for h0 in itertools.combinations(ids, 3):
            rest = [c for c in ids if c not in h0]
            for h1 in itertools.combinations(rest, 3):
                out.append((h0, h1))
        return np.asarray(out, dtype=np.int64).reshape(-1, 2, 3)

    def allowed_mask(self) -> np.ndarray:
        """The fixed set of allowed action ids, ``uint8[NUM_ACTIONS]`` (intersected with the legal mask)."""
        m = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
        m[[A.PASO, A.QUIERO, A.NO_QUIERO]] = 1
        m[A.PLAY_BASE:A.PLAY_BASE + NUM_CARDS] = 1
        for n in self.pares:
            m[A.PARES_BASE + n - 1] = 1
        for level in range(self.truco):
            m[A.TRUCO + level] = 1
        if self.flor:
            m[A.FLOR] = 1
            for n in self.flores:
                m[A.FLORES_BASE + n - 1] = 1
        if self.baraja:
            m[A.BARAJA] = 1
        if self.falta:
            m[A.FALTA] = 1
        if self.blind:
            m[A.LUEGO] = 1
            if self.falta and self.flor:  # the answer with cards to la falta a ciegas (12.5-12.8)
                m[[A.CON_FLOR_QUIERO, A.CON_FLOR_NO_QUIERO, A.DE_LA_MIA]] = 1
        return m

    def initial_state(self, deal: np.ndarray) -> np.ndarray:
        """The engine's state row right after ``deal`` (``[2, 3]`` card ids), before the first decision."""
        s = np.zeros(L.STATE_SIZE, dtype=L.STATE_DTYPE)
        K.init_table(s, 1, self.target, 1, 0, 0, 0)  # 1v1, one juego, no señas
        s[L.DEALER] = 1  # seat 0 is mano (4.2, 4.23)
        K.deal_hands(s, np.asarray(deal, dtype=np.int64).reshape(2, 3))
        if not self.blind:
            for _ in range(2):  # both blind turns: paso (Art. 17.19)
                if s[L.PHASE] != L.PH_BLIND or K.step(s, A.PASO) != K.OK:
                    raise RuntimeError("the engine did not offer the blind round's paso")
            if s[L.PHASE] != L.PH_PLAY:
                raise RuntimeError(f"after the blind round the engine is in phase {s[L.PHASE]}, not play")
        return s

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


# the named games; decks without flor (no three of a suit, no pieza)
_SIX = ("1E", "7O", "3C", "2B", "12C", "5O")
REDUCED_GAMES: dict[str, ReducedTruque] = {
    "truque_tiny": ReducedTruque("truque_tiny", _SIX, truco=1),
    "truque_pares6": ReducedTruque("truque_pares6", _SIX, pares=(1,)),
    "truque_7": ReducedTruque("truque_7", _SIX + ("4E",), pares=(1,), truco=1),
    "truque_8": ReducedTruque("truque_8", _SIX + ("4E", "6B"), pares=(1,), truco=1),
}


# ------------------------------------------------------------------------------------------
# information states


def hand_text(cards) -> str:
    return " ".join(card_str(c) for c in sorted(int(c) for c in cards))


def infostate_name(player: int, hand, up, history) -> str:
    """The information state's name: ``player``'s ``hand`` (None while unseen), the rival's
    face-up cards ``up`` (empty if none) and the public ``history`` of ``(seat, action)``."""
    head = f"p{player} hand={hand_text(hand) if hand is not None else '?'}"
    if len(up):
        head += f" up={hand_text(up)}"
    return head + " | " + ", ".join(f"{seat}:{A.ACTION_NAMES[a]}" for seat, a in history)


def state_infostate_name(s: np.ndarray, history) -> str:
    """``infostate_name`` of the player to act in the engine row ``s``."""
    p = int(s[L.TO_ACT])
    seen = bool(s[L.CARDS_SEEN])
    hand = [int(c) for c in s[L.HAND + 3 * p:L.HAND + 3 * p + 3]] if seen else None
    up = []
    if (s[L.CARDS_UP] >> (1 - p)) & 1:
        up = [int(c) for c in s[L.HAND + 3 * (1 - p):L.HAND + 3 * (1 - p) + 3]]
    return infostate_name(p, hand, up, history)


def allowed_actions(s: np.ndarray, allowed: np.ndarray) -> list[int]:
    """The allowed actions of the player to act (ascending ids); [] when the mano is over."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    K.legal_mask(s, mask)
    return [int(a) for a in np.flatnonzero(mask & allowed)]


def utility(s: np.ndarray) -> float:
    """Player 0's chinas minus player 1's in this mano (the engine's CHINAS)."""
    c = s[L.CHINAS:L.CHINAS + 6].astype(np.int64)
    return float(c[0:3].sum() - c[3:6].sum())


# ------------------------------------------------------------------------------------------
# the tree, expanded depth first inside numba


@njit(cache=True)
def _cards_mask(s, seat):
    m = np.int64(0)
    for k in range(3):
        m |= np.int64(1) << np.int64(s[L.HAND + 3 * seat + k])
    return m


@njit(cache=True)
def _expand(roots, allowed, max_nodes, node_parent, node_depth, node_player, node_util, node_info, node_action,
            node_deal, info_player, info_depth, info_nact, info_sig0, info_sig1, info_pub, info_hand, info_up,
            pub_parent, pub_action, pub_seat):
    """Preorder depth-first expansion of every deal's mano. Returns (nodes, infostates, pub) or an error code.

    Node 0 is the chance root; its children are the deals, in order. An information state is the
    key (public sequence id, own hand mask, face-up rival cards mask); its allowed actions (two
    64-bit signatures), player and depth must agree over all its histories.
    """
    num_deals = roots.shape[0]
    S = roots.shape[1]
    stack_s = np.empty((MAX_DEPTH + 1, S), dtype=roots.dtype)
    stack_node = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    stack_pub = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    stack_acts = np.empty((MAX_DEPTH + 1, MAX_ALLOWED), dtype=np.int64)
    stack_nact = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    stack_pos = np.zeros(MAX_DEPTH + 1, dtype=np.int64)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
    pub_ids = Dict.empty(key_type=nbtypes.int64, value_type=nbtypes.int64)
    info_ids = Dict.empty(key_type=_INFO_KEY, value_type=nbtypes.int64)
    n_nodes, n_info, n_pub = 1, 0, 1  # pub 0: the empty public sequence
    pub_parent[0], pub_action[0], pub_seat[0] = -1, -1, -1
    node_parent[0], node_depth[0], node_player[0], node_util[0] = -1, 0, _CHANCE, 0.0
    node_info[0], node_action[0], node_deal[0] = -1, -1, -1
    for d in range(num_deals):
        k = 1  # stack level = tree depth
        stack_s[1, :] = roots[d]
        stack_pub[1] = 0
        parent = 0
        action = d
        while True:
            # ---- visit the node on top of the stack (level k), child of `parent` by `action`
            if n_nodes >= max_nodes:
                return _ERR_NODES, 0, 0
            n = n_nodes
            n_nodes += 1
            s = stack_s[k]
            node_parent[n], node_depth[n], node_action[n], node_deal[n] = parent, k, action, d
            stack_node[k] = n
            stack_pos[k] = 0
            if s[L.PHASE] == L.PH_DONE:
                node_player[n] = _TERMINAL
                tot = 0
                for src in range(3):
                    tot += np.int64(s[L.CHINAS + src]) - np.int64(s[L.CHINAS + 3 + src])
                node_util[n] = float(tot)
                node_info[n] = -1
                stack_nact[k] = 0
            else:
                p = np.int64(s[L.TO_ACT])
                node_player[n] = p
                node_util[n] = 0.0
                K.legal_mask(s, mask)
                na = 0
                sig0, sig1 = np.int64(0), np.int64(0)
                for a in range(A.NUM_ACTIONS):
                    if mask[a] != 0 and allowed[a] != 0:
                        if na >= MAX_ALLOWED:
                            return _ERR_INCONSISTENT, 0, 0
                        stack_acts[k, na] = a
                        na += 1
                        if a < 63:
                            sig0 |= np.int64(1) << np.int64(a)
                        else:
                            sig1 |= np.int64(1) << np.int64(a - 63)
                if na == 0:
                    return _ERR_EMPTY, n, 0
                stack_nact[k] = na
                hand = _cards_mask(s, p) if s[L.CARDS_SEEN] else np.int64(0)
                up = _cards_mask(s, 1 - p) if (s[L.CARDS_UP] >> (1 - p)) & 1 else np.int64(0)
                key = (stack_pub[k], hand, up)
                if key in info_ids:
                    i = info_ids[key]
                else:
                    i = -1
                if i < 0:
                    i = n_info
                    n_info += 1
                    info_ids[key] = i
                    info_player[i], info_depth[i], info_nact[i] = p, k, na
                    info_sig0[i], info_sig1[i] = sig0, sig1
                    info_pub[i], info_hand[i], info_up[i] = stack_pub[k], hand, up
                elif (info_player[i] != p or info_depth[i] != k or info_sig0[i] != sig0 or info_sig1[i] != sig1):
                    return _ERR_INCONSISTENT, n, i
                node_info[n] = i
            # ---- descend to the next unexpanded child, backing up as needed
            while k >= 1 and stack_pos[k] >= stack_nact[k]:
                k -= 1
            if k < 1:
                break
            if k + 1 > MAX_DEPTH:
                return _ERR_DEPTH, 0, 0
            a = stack_acts[k, stack_pos[k]]
            stack_pos[k] += 1
            stack_s[k + 1, :] = stack_s[k]
            seat = np.int64(stack_s[k][L.TO_ACT])
            K.step_unchecked(stack_s[k + 1], a)
            pkey = stack_pub[k] * 128 + a
            if pkey in pub_ids:
                q = pub_ids[pkey]
            else:
                q = -1
            if q < 0:
                q = n_pub
                n_pub += 1
                pub_ids[pkey] = q
                pub_parent[q], pub_action[q], pub_seat[q] = stack_pub[k], a, seat
            stack_pub[k + 1] = q
            parent = stack_node[k]
            action = a
            k += 1
    return n_nodes, n_info, n_pub


def _pub_strings(pub_parent, pub_action, pub_seat) -> list[str]:
    out = [""] * pub_parent.size
    for q in range(1, pub_parent.size):  # a parent is numbered before its children
        tok = f"{pub_seat[q]}:{A.ACTION_NAMES[pub_action[q]]}"
        par = out[pub_parent[q]]
        out[q] = f"{par}, {tok}" if par else tok
    return out


def _mask_cards(mask: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if (int(mask) >> c) & 1]


@dataclass
class ReducedBuild:
    """The built tree with what the reduced game adds to a ``GameTree`` (per node, per information state)."""

    config: ReducedTruque
    tree: object  # train.cfr.games.GameTree
    deals: np.ndarray  # [num_deals, 2, 3]
    node_action: np.ndarray  # engine action id leading to the node (the deal index below the root)
    node_deal: np.ndarray  # the deal above the node (-1 at the root)
    info_actions: np.ndarray  # [num_infostates, max_actions] engine action ids, -1 padding
    info_hand: list  # the acting player's hand per information state (None while unseen)
    seconds: float = 0.0


def build(config: ReducedTruque) -> ReducedBuild:
    """Expand ``config``'s game into a ``GameTree`` (breadth-first, the layout ``train.cfr.solvers`` sweeps)."""
    from train.cfr.games import GameTree

    config.validate()
    t0 = time.perf_counter()
    deals = config.deals()
    roots = np.stack([config.initial_state(deal) for deal in deals])
    cap = int(config.max_nodes)
    i64 = np.int64
    node_parent, node_depth = np.empty(cap, i64), np.empty(cap, np.int16)
    node_player, node_util = np.empty(cap, np.int8), np.empty(cap, np.float64)
    node_info, node_action, node_deal = np.empty(cap, i64), np.empty(cap, np.int32), np.empty(cap, np.int32)
    info_player, info_depth, info_nact = np.empty(cap, np.int8), np.empty(cap, np.int16), np.empty(cap, np.int16)
    info_sig0, info_sig1, info_pub = np.empty(cap, i64), np.empty(cap, i64), np.empty(cap, i64)
    info_hand, info_up = np.empty(cap, i64), np.empty(cap, i64)
    pub_parent, pub_action, pub_seat = np.empty(cap, i64), np.empty(cap, np.int16), np.empty(cap, np.int8)
    n, ni, npub = _expand(roots, config.allowed_mask(), cap, node_parent, node_depth, node_player, node_util,
                          node_info, node_action, node_deal, info_player, info_depth, info_nact, info_sig0,
                          info_sig1, info_pub, info_hand, info_up, pub_parent, pub_action, pub_seat)
    if n == _ERR_NODES:
        raise ValueError(f"reduced game {config.name!r}: the tree has more than max_nodes = {cap:,} nodes; "
                         "use a smaller deck or fewer bets (or raise max_nodes)")
    if n == _ERR_DEPTH:
        raise ValueError(f"reduced game {config.name!r}: a mano deeper than {MAX_DEPTH} decisions")
    if n == _ERR_EMPTY:
        raise ValueError(f"reduced game {config.name!r}: at some decision (node {ni}) none of the engine's legal "
                         "actions is allowed; allow more actions")
    if n == _ERR_INCONSISTENT:
        raise ValueError(f"reduced game {config.name!r}: information state {npub} is not consistent "
                         "(player, allowed actions or depth differ between its histories)")
    # preorder restricted to one depth is breadth-first order: a stable sort by depth gives it
    depth = node_depth[:n].astype(i64)
    order = np.argsort(depth, kind="stable")
    inv = np.empty(n, i64)
    inv[order] = np.arange(n)
    parent = np.where(node_parent[:n][order] >= 0, inv[np.maximum(node_parent[:n][order], 0)], -1)
    depth = depth[order]
    num_children = np.bincount(parent[1:], minlength=n).astype(i64)
    first_child = np.full(n, -1, i64)
    kids = np.arange(1, n)
    first = np.ones(n - 1, dtype=bool)
    first[1:] = parent[2:] != parent[1:-1]
    first_child[parent[1:][first]] = kids[first]
    player = node_player[:n][order].astype(i64)
    chance_prob = np.ones(n)
    chance_prob[parent == 0] = 1.0 / len(deals)
    level_start = np.searchsorted(depth, np.arange(depth.max() + 2)).astype(i64)
    nact = info_nact[:ni].astype(i64)
    # the allowed actions of each information state, from its signature
    info_actions = np.full((ni, int(nact.max())), -1, i64)
    sig = np.stack([info_sig0[:ni], info_sig1[:ni]], axis=1)
    for b in range(A.NUM_ACTIONS):
        word, bit = (0, b) if b < 63 else (1, b - 63)
        has = (sig[:, word] >> bit) & 1 == 1
        if has.any():
            col = (info_actions >= 0).sum(axis=1)
            info_actions[has, col[has]] = b
    pub_txt = _pub_strings(pub_parent[:npub], pub_action[:npub], pub_seat[:npub])
    names, hands = [], []
    cards_of = {}
    for i in range(ni):
        h = int(info_hand[i])
        hand = None if h == 0 else cards_of.setdefault(h, _mask_cards(h))
        up = _mask_cards(info_up[i]) if info_up[i] else []
        names.append(f"p{info_player[i]} hand={hand_text(hand) if hand is not None else '?'}"
                     + (f" up={hand_text(up)}" if up else "") + " | " + pub_txt[info_pub[i]])
        hands.append(hand)
    action_names = [tuple(A.ACTION_NAMES[a] for a in row[:k]) for row, k in zip(info_actions.tolist(), nact, strict=True)]
    tree = GameTree(
        name=config.name,
        node_player=player,
        first_child=first_child,
        num_children=num_children,
        parent=parent,
        depth=depth,
        level_start=level_start,
        chance_prob=chance_prob,
        utility=node_util[:n][order].copy(),
        infostate=node_info[:n][order].astype(i64),
        infostate_player=info_player[:ni].astype(i64),
        num_actions=nact,
        infostate_names=names,
        action_names=action_names,
    )
    return ReducedBuild(config=config, tree=tree, deals=deals, node_action=node_action[:n][order].astype(i64),
                        node_deal=node_deal[:n][order].astype(i64), info_actions=info_actions, info_hand=hands,
                        seconds=time.perf_counter() - t0)


_BUILDS: dict[str, ReducedBuild] = {}


def load_build(name: str) -> ReducedBuild:
    """The build of a named reduced game (:data:`REDUCED_GAMES`), once per process."""
    if name not in REDUCED_GAMES:
        raise ValueError(f"unknown reduced game {name!r}; known: {list(REDUCED_GAMES)}")
    if name not in _BUILDS:
        _BUILDS[name] = build(REDUCED_GAMES[name])
    return _BUILDS[name]


def build_game(config: ReducedTruque):
    """The ``GameTree`` of a reduced game (for ``train.cfr.solvers``'s solvers and exact best response)."""
    return build(config).tree


# ------------------------------------------------------------------------------------------
# hand strength and the equilibrium's bluffing frequencies


def hand_strength(hand) -> dict:
    """The engine's valuations of a hand: valor de pares (Art. 5), truque power (sum of the three
    cards' poder de truque, Art. 2) and valor de la flor (Art. 9, 0 without flor)."""
    cards = [int(c) for c in hand]
    return {"pares": pares_value(cards), "truque": int(sum(TRUQUE_POWER[c] for c in cards)),
            "flor": flor_value(cards)}


def _bins(values: np.ndarray, num_bins: int) -> np.ndarray:
    """Bin index 0..num_bins-1 of each value by rank (ties kept in one bin; 0 = weakest)."""
    order = np.unique(values)
    rank = np.searchsorted(order, values)  # dense rank of the distinct values
    return np.minimum(rank * num_bins // max(len(order), 1), num_bins - 1)


def action_frequencies(b: ReducedBuild, policy: np.ndarray, num_bins: int = 4) -> dict:
    """How often each player opens the pares envite and says truco, by hand-strength bin.

    For each player and each bin of his hands (by valor de pares for the envite, by truque power
    for truco; bin 0 the weakest, bins by rank of the distinct values among the reduced deck's
    hands), the probability that, holding a hand of that bin, he makes that bet at some point of
    the mano when both play ``policy`` (the deal uniform): the equilibrium's bluffing frequency
    is bin 0's. An "opening" envite is an ``envío N pares`` said in the play phase (not a
    revoque); truco is the first challenge. A bet the game does not allow gives ``None``. For the
    envite, ``probability_when_offered`` is the same given that the player's turn to open came
    (for player 1 it excludes the manos where player 0 opened first; not given with the blind round,
    which offers a second chance).
    """
    tree = b.tree
    n = tree.num_nodes
    reach = np.zeros(n)
    reach[0] = 1.0
    par = tree.parent
    # forward: reach of every node (breadth-first order: parents first)
    prob = np.ones(n)
    dec = np.flatnonzero(par >= 0)
    pp = par[dec]
    who = tree.node_player[pp]
    chance = who == _CHANCE
    prob[dec[chance]] = tree.chance_prob[dec[chance]]
    nd = dec[~chance]
    prob[nd] = policy[tree.infostate[par[nd]], nd - tree.first_child[par[nd]]]
    for d in range(1, tree.level_start.size - 1):
        lo, hi = tree.level_start[d], tree.level_start[d + 1]
        reach[lo:hi] = reach[par[lo:hi]] * prob[lo:hi]
    act = b.node_action
    # an opening bet is said at a decision that is not an answer: an answer always offers "quiero",
    # no other decision does
    is_decision_child = np.zeros(n, dtype=bool)
    is_decision_child[nd] = True
    quiero_offered = (b.info_actions == A.QUIERO).any(axis=1)
    parent_phase_play = np.zeros(n, dtype=bool)
    parent_phase_play[nd] = ~quiero_offered[tree.infostate[par[nd]]]
    pares_open = is_decision_child & parent_phase_play & (act >= A.PARES_BASE) & (act < A.PARES_BASE + A.MAX_PARES_N)
    truco = is_decision_child & (act == A.TRUCO) & parent_phase_play
    # decisions where a player may open the envite: a pares action offered, not an answer
    pares_offered = ((b.info_actions >= A.PARES_BASE) & (b.info_actions < A.PARES_BASE + A.MAX_PARES_N)).any(axis=1)
    info = tree.infostate
    is_offer = {}
    for p in range(2):
        ok = np.zeros(n, dtype=bool)
        d_nodes = np.flatnonzero(info >= 0)
        i = info[d_nodes]
        ok[d_nodes] = pares_offered[i] & ~quiero_offered[i] & (tree.infostate_player[i] == p)
        is_offer[p] = ok
    deals = b.deals
    strengths = [[hand_strength(deals[k, p]) for k in range(len(deals))] for p in range(2)]
    out = {"num_bins": num_bins, "players": {}}
    for p in range(2):
        pares_v = np.array([s["pares"] for s in strengths[p]])
        truque_v = np.array([s["truque"] for s in strengths[p]])
        mover = tree.node_player[np.maximum(par, 0)] == p
        res = {}
        offered = {"pares_envite": bool(b.config.pares), "truco": b.config.truco >= 1}
        for label, values, edges in (("pares_envite", pares_v, pares_open), ("truco", truque_v, truco)):
            if not offered[label]:
                res[label] = None  # not a bet of this game
                continue
            bins = _bins(values, num_bins)
            e = np.flatnonzero(edges & mover)
            mass = np.bincount(bins[b.node_deal[e]], weights=reach[e], minlength=num_bins)
            deal_mass = np.bincount(bins, minlength=num_bins) / len(deals)
            # the envite can be opened at most once per mano by a player, at one decision (his first-baza
            # turn before his first card, 6.9): the probability given that turn came is well defined
            offer = None
            if label == "pares_envite" and not b.config.blind:  # a ciegas there would be a second chance
                at = np.flatnonzero(is_offer[p])
                offer = np.bincount(bins[b.node_deal[at]], weights=reach[at], minlength=num_bins)
            rows = []
            for k in range(num_bins):
                sel = bins == k
                row = {"bin": k, "value_range": [int(values[sel].min()), int(values[sel].max())] if sel.any() else None,
                       "deal_probability": float(deal_mass[k]),
                       "probability": float(mass[k] / deal_mass[k]) if deal_mass[k] > 0 else None}
                if offer is not None:
                    row["probability_when_offered"] = float(mass[k] / offer[k]) if offer[k] > 0 else None
                rows.append(row)
            res[label] = {"by_bin": rows, "overall": float(mass.sum()),
                          "weakest": rows[0]["probability"], "strongest": rows[-1]["probability"]}
        out["players"][str(p)] = res
    return out
