"""The readable twin of the kernels: the decision per kind of word (bets, answers, flores, cards, señas), one row at a time in Python.

Part of the Moteño heuristic (``agents.heuristic``; the bot is described there). The shipped
bot, ``policy.HeuristicPolicy``, decides with ``kernels.py`` (and the three kernel modules under it); this class is the specification
those kernels follow decision for decision (the golden trace and the agreement tests check
both), kept to read and to test against, not to play: the kernels decide 3 to 5 times as many rows
per second on one core, 5 to 6 times with the decision keys on two (benchmarks/bench_heuristic.py)."""

from __future__ import annotations

import numpy as np

from agents.heuristic.config import HeuristicConfig, seeded
from agents.heuristic.hands import (
    HAND_FLOR,
    HAND_PARES,
    N_LEVELS,
    POWER,
    SENA_CARDS,
    SENA_CIEGA,
    SENA_FLOR,
    TOP_POWER,
    V_FLOR,
    V_PARES,
    _bits,
    _decided,
    _point,
    _seat_pmf,
    _team_best_prob,
    honest_sena,
)
from agents.heuristic.simulation import simulate_truque_cards
from agents.heuristic.view import (
    ANS_NO,
    ANS_NONE,
    ANS_QUIERO,
    ANS_RAISE,
    EX_FALTA,
    EX_FLORES,
    EX_NONE,
    EX_PARES,
    EX_TRUCO,
    View,
    _onehot,
)
from truque_env.cards import NUM_CARDS
from truque_env.engine.rng import mix64_int
from truque_env.traditions.moteno import actions as A

# ----------------------------------------------------------------------------------------------
# the policy


class ReferenceHeuristic:
    """The heuristic in plain Python; ``act(observation, action_mask) -> int`` (see the module docstring)."""

    name = "heuristic"
    # An internal error raises (the default: a bug must not pass as a move); debug = False falls
    # back to a safe action instead and counts it in ``internal_errors``.
    debug = True

    def __init__(self, config: HeuristicConfig | dict | None = None, seed: int | None = 0):
        self.cfg, self.rng, self._salt = seeded(config, seed)
        self.internal_errors = 0
        self._key: int | None = None  # the decision key of the row being decided (act_batch's keys)
        self._draws = 0  # draws taken from it so far

    # -- the interface -----------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask)
        if not (mask > 0).any():
            raise ValueError("no legal action in the mask")
        try:
            a = self._decide(View(observation), mask)
        except Exception:  # never let a reading mistake become an illegal move
            if self.debug:
                raise
            self.internal_errors += 1
            a = -1
        if a is None or not 0 <= a < mask.shape[0] or mask[a] == 0:
            a = self._fallback(mask)
        return int(a)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, keys=None) -> np.ndarray:
        """One decision per row; with ``keys`` (decision keys, truque_env.policy) the row's random
        draws come from its key instead of the bot's generator."""
        if keys is None:
            return np.array([self.act(o, m) for o, m in zip(observations, action_masks, strict=True)],
                            dtype=np.int64)
        out = np.empty(len(observations), dtype=np.int64)
        try:
            for i, (o, m) in enumerate(zip(observations, action_masks, strict=True)):
                self._key, self._draws = int(np.uint64(keys[i])), 0
                out[i] = self.act(o, m)
        finally:
            self._key = None
        return out

    def _random(self) -> float:
        """A uniform draw in [0, 1): from the decision key when there is one, else the generator."""
        if self._key is None:
            return float(self.rng.random())
        return (self._keyed_bits() >> 11) / float(1 << 53)

    def _random_seed(self) -> int:
        """A seed in [0, 2**62) for a simulation, drawn like ``_random``."""
        if self._key is None:
            return int(self.rng.integers(1 << 62))
        return self._keyed_bits() >> 2

    def _keyed_bits(self) -> int:
        self._draws += 1
        return mix64_int(self._key ^ mix64_int(0x5EED0000 + self._draws))

    @staticmethod
    def _fallback(mask) -> int:
        """A safe legal action: pass, refuse, sing pares, the lowest card; never leave the mano."""
        for a in (A.PASO, A.CANTO_PARES, A.NO_QUIERO, A.QUIERO):
            if mask[a]:
                return a
        cards = [c for c in range(NUM_CARDS) if mask[A.PLAY_BASE + c]]
        if cards:
            return A.PLAY_BASE + min(cards, key=lambda c: POWER[c])
        legal = [a for a in np.flatnonzero(mask) if a not in (A.BARAJA, A.NO_VALE) and a < A.SENA_BASE]
        if legal:
            return int(legal[0])
        return int(np.flatnonzero(mask)[0])

    # -- per-mano coins ----------------------------------------------------------------------
    def _coin(self, v: View, purpose: int) -> float:
        """A uniform draw fixed for this player's mano (same hand, seat and score), per purpose."""
        key = _bits(v.dealt)
        key = key * 131 + v.position * 17 + v.n
        key = key * 257 + v.mine * 101 + v.theirs
        key = key ^ (int(v.s["juegos.mine"][0]) << 50) ^ (int(v.s["juegos.rival"][0]) << 54)
        h = mix64_int(self._salt ^ mix64_int(key * 8 + purpose))
        return (h >> 11) / float(1 << 53)

    # -- dispatch ------------------------------------------------------------------------------
    def _decide(self, v: View, mask) -> int | None:
        if v.phase == "blind":
            return self._blind(v, mask)
        sena = self._sena(v, mask)
        if sena is not None:
            return sena
        if v.phase == "answer":
            return self._answer(v, mask)
        if v.phase == "cante":
            return self._cante(v, mask)
        if v.phase == "flor_round":
            return self._flor_round(v, mask)
        if v.phase == "flor_envite":
            return self._flor_envite(v, mask)
        if v.phase == "reservada":
            return self._reservada(v, mask)
        if v.phase == "play":
            return self._play(v, mask)
        return None

    # -- juego equity --------------------------------------------------------------------------
    def _equity(self, v: View, mine: int, theirs: int) -> float:
        """P(we win the juego) at this score: a race model (see the parameter table)."""
        na, nb = v.target - mine, v.target - theirs
        if na <= 0:
            return 1.0
        if nb <= 0:
            return 0.0
        g = self.cfg.equity_exponent
        x = (nb * self.cfg.skill_edge) ** g
        return x / (x + na**g)

    def _eq_lottery(self, v: View, outcomes) -> float:
        """Expected equity of ``[(prob, our chinas, their chinas), ...]``."""
        return sum(p * self._equity(v, v.mine + g, v.theirs + t) for p, g, t in outcomes)

    def _eq_bet(self, v: View, p: float, stake: int) -> float:
        """Equity of a bet of ``stake`` chinas accepted, won with probability ``p``."""
        return self._eq_lottery(v, [(p, stake, 0), (1 - p, 0, stake)])

    # -- estimates ---------------------------------------------------------------------------
    def _excluded_for(self, v: View, r: int) -> int:
        """Cards seat r cannot hold: mine and every card known to be elsewhere."""
        out = _bits(v.dealt)
        for q in range(1, v.n):
            if q != r:
                out |= _bits(v.known_cards(q))
        return out

    def _value_entries(self, v: View, kind: str, seats):
        """(ours, pmf) per seat in ``seats`` (ordered from mano) of pares or flor values."""
        values, size = (HAND_PARES, V_PARES) if kind == "pares" else (HAND_FLOR, V_FLOR)
        mine = v.my_pares() if kind == "pares" else v.my_flor()
        entries = []
        cache = {}
        for r in seats:
            if r == 0:
                entries.append((True, _point(mine, size)))
                continue
            sena = v.partner_sena(r) if (v.ours(r) and self.cfg.use_partner_senas) else -1
            known = _bits(v.known_cards(r))
            excluded = self._excluded_for(v, r)
            key = (excluded, known, sena)
            if key not in cache:
                pmf = _seat_pmf(values, size, excluded, known, sena, kind == "flor")
                cache[key] = pmf if pmf is not None else np.full(size, 1.0 / size)
            entries.append((v.ours(r), cache[key]))
        return entries

    def pares_prob(self, v: View) -> float:
        """P(a player of my team shows the best pares), among the players still in the mano."""
        seats = [r for r in v.order_from_mano() if v.in_mano(r)]
        return _team_best_prob(self._value_entries(v, "pares", seats))

    def flor_prob(self, v: View) -> float:
        """P(my team's best sung flor beats the rivals' sung flores); I count as a singer."""
        seats = [r for r in v.order_from_mano() if v.in_mano(r) and (r == 0 or v.sang(r))]
        if not any(not v.ours(r) for r in seats):
            return 1.0
        return _team_best_prob(self._value_entries(v, "flor", seats))

    def flor_prob_of_seat(self, v: View, r: int) -> float:
        """P(relative seat r holds flor) from what the bot knows."""
        excluded = self._excluded_for(v, r)
        pmf = _seat_pmf(HAND_FLOR, V_FLOR, excluded, _bits(v.known_cards(r)), -1, False)
        return 0.0 if pmf is None else float(1.0 - pmf[0])

    def _unseen_cards(self, v: View):
        if "unseen" not in v.cache:
            v.cache["unseen"] = self._read_unseen_cards(v)
        return list(v.cache["unseen"])  # a copy: callers may keep or change it

    @staticmethod
    def _read_unseen_cards(v: View):
        seen = set(v.dealt)
        for r in range(1, v.n):
            seen.update(v.known_cards(r))
        return [c for c in range(NUM_CARDS) if c not in seen]

    @staticmethod
    def _level_cdf(cards) -> np.ndarray:
        """P(power <= x) for x = 0..17 of a card drawn from ``cards``."""
        if not len(cards):
            return np.ones(N_LEVELS)
        counts = np.bincount(POWER[np.asarray(cards, dtype=np.int64)], minlength=N_LEVELS)[:N_LEVELS]
        return np.cumsum(counts) / counts.sum()

    def truco_prob(self, v: View) -> float:
        """P(my team wins the truque) from here, by simulation (see ``simulate_truque``)."""
        if "truco" not in v.cache:
            d = _decided(v.baza_results())
            v.cache["truco"] = d if d is not None else max(self.truco_by_card(v).values())
        return v.cache["truco"]

    def truco_by_card(self, v: View) -> dict:
        """P(my team wins the truque) for each card I may play now (key -1: I have played here)."""
        if "truco_by_card" in v.cache:
            return v.cache["truco_by_card"]
        n = v.n
        # per relative seat, as lists (numpy item writes are slow), made arrays for the kernel
        left = [0] * 8
        in_truque = [0] * 8
        table = [-1] * 8
        known = [-1] * 8
        weak = [0] * 8
        unseen = self._unseen_cards(v)
        for r in range(n):
            in_truque[r] = v.in_truque(r)
            left[r] = len(v.hand) if r == 0 else 3 - len(v.played_by(r))
            table[r] = v.card_in_baza(r, v.baza)
            if r > 0 and v.ours(r) and self.cfg.use_partner_senas:
                sena = v.partner_sena(r)
                if 0 <= sena < len(SENA_CARDS) and SENA_CARDS[sena] in unseen:
                    known[r] = SENA_CARDS[sena]
                weak[r] = sena in (SENA_FLOR, SENA_CIEGA)
        held = set(known)
        pool = np.array([c for c in unseen if c not in held], dtype=np.int64)
        results = [-1] * 3
        for b, ch in enumerate(v.baza_results()):
            results[b] = "WLP".index(ch)
        turn = self._turn_holder(v)
        mano = (n - v.position) % n
        seed = self._random_seed()
        hand = np.array(sorted(v.hand), dtype=np.int64)
        candidates = [-1] if table[0] >= 0 or not v.hand else list(v.hand)
        # the same deals for every card (common random numbers), simulated in one call
        i64 = np.int64
        odds = simulate_truque_cards(n, hand, np.array(left, dtype=i64), np.array(in_truque, dtype=i64),
                                     np.array(table, dtype=i64), np.array(known, dtype=i64),
                                     np.array(weak, dtype=i64), pool, np.array(results, dtype=i64), v.baza,
                                     turn, mano, np.array(candidates, dtype=i64), self.cfg.samples, seed)
        out = {c: float(p) for c, p in zip(candidates, odds, strict=True)}
        v.cache["truco_by_card"] = out
        return out

    @staticmethod
    def _turn_holder(v: View) -> int:
        """Relative seat to play next in the current baza (me, unless I am answering a bet)."""
        if v.phase != "answer":
            return 0
        lead = v.leader(v.baza)
        for k in range(v.n):
            r = (lead + k) % v.n
            if v.in_truque(r) and v.card_in_baza(r, v.baza) < 0:
                return r
        return 0

    # -- señas ---------------------------------------------------------------------------------
    def _sena(self, v: View, mask) -> int | None:
        """Honest seña, once per mano, at the first chance, with probability ``sena_rate``."""
        if len(v.dealt) != 3 or v.my_sena_count() > 0:
            return None
        a = A.SENA_BASE + honest_sena(v.dealt)
        if not mask[a] or int(v.s["senas_left"][0]) <= 0:
            return None
        if self._coin(v, 1) >= self.cfg.sena_rate:
            return None
        return a

    # -- blind round ---------------------------------------------------------------------------
    def _blind(self, v: View, mask) -> int:
        if mask[A.LUEGO]:
            return A.LUEGO  # 7.2, 15.2: answer once the cards are seen
        if v.ex_kind not in (EX_NONE, -1) and mask[A.PASO]:
            return A.PASO  # a partner already answered (or deferred) this blind bet
        if v.ex_kind not in (EX_NONE, -1):
            return A.NO_QUIERO if mask[A.NO_QUIERO] else None
        u = self._random()
        cfg = self.cfg
        envite = A.PARES_BASE + cfg.blind_envite_pares - 1
        if u < cfg.blind_envite and mask[envite]:
            return envite
        if u < cfg.blind_envite + cfg.blind_truco and mask[A.TRUCO]:
            return A.TRUCO
        return A.PASO

    # -- answers -------------------------------------------------------------------------------
    def _answer(self, v: View, mask) -> int | None:
        if v.ex_blind and mask[A.LUEGO]:
            return A.LUEGO
        if v.ex_blind and mask[A.PASO]:
            return A.PASO
        if v.ex_kind == EX_PARES:
            return self._answer_pares(v, mask)
        if v.ex_kind == EX_TRUCO:
            return self._answer_truco(v, mask)
        if v.ex_kind == EX_FLORES:
            return self._answer_flores(v, mask)
        if v.ex_kind == EX_FALTA:
            return self._answer_falta_ciegas(v, mask)
        return None

    @staticmethod
    def _give(mask, choice: int, rank: int, standing: int) -> int:
        """Say ``choice`` only if it is larger than the standing answer (17.8), else ``paso``."""
        if standing > ANS_NONE and rank <= standing and mask[A.PASO]:
            return A.PASO
        if mask[choice]:
            return choice
        return A.PASO if mask[A.PASO] else choice

    def _raise_options(self, mask, base: int, count: int, unit: int, v: View):
        """Legal raises as (action, stake in chinas): N pares/flores and la falta."""
        out = [(base + k, min(unit * (k + 1), v.falta)) for k in range(count) if mask[base + k]]
        if mask[A.FALTA]:
            out.append((A.FALTA, v.falta))
        return out

    def _choose_stake(self, v: View, p: float, options, gates) -> tuple[int, float]:
        """Best equity among raise ``options`` [(action, chinas)], each gated by a probability."""
        best, best_eq = None, -1.0
        for action, chinas in options:
            if p < gates(action, chinas):
                continue
            eq = self._eq_bet(v, p, chinas)
            if eq > best_eq:
                best, best_eq = action, eq
        return best, best_eq

    def _pares_gate(self, action, chinas):
        cfg = self.cfg
        return cfg.pares_falta if action == A.FALTA else cfg.pares_raise

    def _team_shift(self, v: View, raiser: int, singers_only: bool = False) -> float:
        """Shift of my win probability for answering as one of several (ruling 4, 17.8).

        Any member's acceptance stands, so a member with partners still to answer accepts only
        clearly (``defer``), and a member whose partners declined before him counts their hands
        as weaker (``defer / 2`` each).
        """
        if raiser < 0 or v.team_size == 1:
            return 0.0
        members = [r for r in range(0, v.n, 2)
                   if v.in_mano(r) and (r == 0 or not singers_only or v.sang(r))]
        mine = (0 - raiser) % v.n
        after = sum(1 for r in members if (r - raiser) % v.n > mine)
        before = sum(1 for r in members if (r - raiser) % v.n < mine)
        shift = -self.cfg.defer if after else 0.0
        if v.ex_standing == ANS_NO:
            shift -= self.cfg.defer / 2 * before
        return shift

    def _answer_pares(self, v: View, mask) -> int:
        p = self.pares_prob(v)
        prev = v.pares_stake_chinas("previous")
        p_eff = p - self.cfg.respect * (2 if prev else 1)
        p_eff = min(1.0, max(0.0, p_eff + self._team_shift(v, _onehot(v.s["pares.raiser"]))))
        stake = min(v.pares_stake_chinas("stake"), v.falta)
        refuse_pay = min(prev, v.falta) if prev else 1
        eq_accept = self._eq_bet(v, p_eff, stake)
        eq_refuse = self._eq_lottery(v, [(1.0, 0, refuse_pay)])
        raises = self._raise_options(mask, A.PARES_BASE, A.MAX_PARES_N, 2, v)
        # a sensible revoque: the first one at least doubling the stake, or la falta
        double = [o for o in raises if o[0] != A.FALTA and o[1] >= 2 * stake][:1]
        options = double + [o for o in raises if o[0] == A.FALTA]
        raise_a, eq_raise = self._choose_stake(v, p_eff, options, self._pares_gate)
        standing = v.ex_standing
        if raise_a is not None and eq_raise > eq_accept:
            return self._give(mask, raise_a, ANS_RAISE, standing)
        if eq_accept >= eq_refuse + self.cfg.accept_margin:
            return self._give(mask, A.QUIERO, ANS_QUIERO, standing)
        return self._give(mask, A.NO_QUIERO, ANS_NO, standing)

    def _answer_truco(self, v: View, mask) -> int:
        p = self.truco_prob(v) - self.cfg.respect + self._team_shift(v, _onehot(v.s["truco.raiser"]))
        p = min(1.0, max(0.0, p))
        level = v.truco_level()
        stake = 3 * level
        refuse_pay = {1: 1, 2: 3, 3: 6}.get(level, 1)
        eq_accept = self._eq_bet(v, p, stake)
        eq_refuse = self._eq_lottery(v, [(1.0, 0, refuse_pay)])
        standing = v.ex_standing
        nxt = A.TRUCO + level  # retruco after truco, panueve after retruco
        if level < 3 and mask[nxt] and p >= self.cfg.truco_raise:
            return self._give(mask, nxt, ANS_RAISE, standing)
        if eq_accept >= eq_refuse + self.cfg.accept_margin:
            return self._give(mask, A.QUIERO, ANS_QUIERO, standing)
        return self._give(mask, A.NO_QUIERO, ANS_NO, standing)

    def _flores_counts(self, v: View):
        us = sum(1 for r in range(0, v.n, 2) if v.sang(r) and v.in_mano(r))
        them = sum(1 for r in range(1, v.n, 2) if v.sang(r) and v.in_mano(r))
        return max(us, 1), them

    def _flor_gate(self, action, chinas):
        cfg = self.cfg
        return cfg.flor_falta if action == A.FALTA else cfg.flor_raise

    def _answer_flores(self, v: View, mask) -> int:
        p = self.flor_prob(v) - self.cfg.respect + self._team_shift(v, _onehot(v.s["flor.raiser"]), True)
        p = min(1.0, max(0.0, p))
        us, them = self._flores_counts(v)
        table = 3 * (us + them)
        stake = min(v.flor_stake_chinas("stake"), v.falta)
        prev = v.flor_stake_chinas("previous")
        # refusing: 3 per flor they sang + 1 de derribe (11.5), or the revoque's pay (11.9)
        refuse = [(1.0, 0, 3 * them + 1)] if not prev else [(1.0, 0, table + prev)]
        eq_refuse = self._eq_lottery(v, refuse)
        eq_accept = self._eq_lottery(v, [(p, table + stake, 0), (1 - p, 0, table + stake)])
        options = self._raise_options(mask, A.FLORES_BASE, A.MAX_FLORES_N, 3, v)
        options = [o for o in options if o[0] != A.FALTA][:1] + [o for o in options if o[0] == A.FALTA]
        best_raise, best_eq = None, eq_accept
        for action, chinas in options:
            if p < self._flor_gate(action, chinas):
                continue
            eq = self._eq_lottery(v, [(p, table + chinas, 0), (1 - p, 0, table + chinas)])
            if eq > best_eq:
                best_raise, best_eq = action, eq
        standing = v.ex_standing
        if best_raise is not None:
            return self._give(mask, best_raise, ANS_RAISE, standing)
        if eq_accept >= eq_refuse + self.cfg.accept_margin:
            return self._give(mask, A.QUIERO, ANS_QUIERO, standing)
        return self._give(mask, A.NO_QUIERO, ANS_NO, standing)

    def _answer_falta_ciegas(self, v: View, mask) -> int:
        """Answer la falta a ciegas with the cards (Art. 12.5-12.7; 18.2 d, l-p)."""
        F = v.falta
        rivals = [r for r in range(1, v.n, 2) if v.in_mano(r)]
        p_no_flor = 1.0
        for r in rivals:
            p_no_flor *= 1.0 - self.flor_prob_of_seat(v, r)
        p_flor_a = 1.0 - p_no_flor  # roughly one flor when they have any
        prev = v.pares_stake_chinas("previous")
        refuse_pay = min(prev, F) if prev else 1
        p_pares = self.pares_prob(v)
        options = {
            A.NO_QUIERO: [(1.0, 0, refuse_pay)],
            # 18.2 d / p; a reservada is sung at the end against their flor (12.13)
            A.QUIERO: [(p_no_flor * p_pares, F, 0), (p_no_flor * (1 - p_pares), 0, F)]
            + ([(p_flor_a, 3 * 2 + F, 0)] if v.my_reservada() else [(p_flor_a, 0, 3)]),
        }
        if v.my_flor() > 0 and not v.my_reservada():
            pf = self._flor_vs_rivals(v, rivals)
            options[A.CON_FLOR_NO_QUIERO] = [(p_no_flor, 3, 0), (p_flor_a, 0, 4)]  # 18.2 n, l
            options[A.CON_FLOR_QUIERO] = [(p_no_flor, 3, 0), (p_flor_a * pf, 6 + F, 0),
                                          (p_flor_a * (1 - pf), 0, 6 + F)]  # 18.2 o, m
        rank = {A.NO_QUIERO: 1, A.CON_FLOR_NO_QUIERO: 2, A.QUIERO: 3, A.CON_FLOR_QUIERO: 4}
        scored = sorted(((self._eq_lottery(v, o), rank[a], a) for a, o in options.items()), reverse=True)
        standing = v.ex_standing
        for _, _, a in scored:
            if mask[a]:
                if standing == ANS_QUIERO and a == A.QUIERO:
                    return A.PASO if mask[A.PASO] else a
                if standing == ANS_NO and a == A.NO_QUIERO:
                    return A.PASO if mask[A.PASO] else a
                return a
        return A.PASO if mask[A.PASO] else None

    def _flor_vs_rivals(self, v: View, rivals) -> float:
        """P(my flor beats one rival flor), rivals assumed to hold exactly one."""
        seats = [r for r in v.order_from_mano() if r == 0 or r == rivals[0]] if rivals else [0]
        if len(seats) < 2:
            return 1.0
        entries = self._value_entries(v, "flor", seats)
        return _team_best_prob(entries)

    # -- cante, flores -------------------------------------------------------------------------
    def _wants_to_sing(self, v: View) -> bool:
        if v.my_flor() <= 0:
            return False
        return not (v.my_reservada() and self.cfg.hide_reservada)

    def _cante(self, v: View, mask) -> int:
        if mask[A.FLOR] and self._wants_to_sing(v):
            return A.FLOR
        return A.CANTO_PARES

    def _flor_round(self, v: View, mask) -> int:
        # somebody sang: the pares are void (10.5), so a reservada is sung too (10.16)
        if mask[A.FLOR] and v.my_flor() > 0:
            return A.FLOR
        return A.PASO

    def _flor_envite(self, v: View, mask) -> int:
        """Speak in the envite de flores (Art. 11.3): bet with a strong flor, else pass."""
        if not v.sang(0):
            return A.PASO
        p = self.flor_prob(v)
        us, them = self._flores_counts(v)
        table = 3 * (us + them)
        cfg = self.cfg
        options = [(A.FLORES_BASE, 3)]
        if p >= cfg.flor_raise:
            options.append((A.FLORES_BASE + 1, 6))
        if p >= cfg.flor_falta:
            options.append((A.FALTA, v.falta))
        if p < cfg.flor_bet:
            return A.PASO
        best, best_eq = A.PASO, -1.0
        for a, chinas in options:
            if not mask[a]:
                continue
            eq = self._eq_lottery(v, [(p, table + min(chinas, v.falta), 0), (1 - p, 0, table + min(chinas, v.falta))])
            if eq > best_eq:
                best, best_eq = a, eq
        return best

    def _reservada(self, v: View, mask) -> int:
        """12.13: sing the reservada at the end if it likely beats their flor."""
        rivals = [r for r in range(1, v.n, 2) if v.in_mano(r)]
        pf = self._flor_vs_rivals(v, rivals) if rivals else 1.0
        F = v.falta
        eq_sing = self._eq_lottery(v, [(pf, 6 + F, 0), (1 - pf, 0, 6 + F)])
        eq_pass = self._eq_lottery(v, [(1.0, 0, 3)])
        return A.FLOR if eq_sing > eq_pass and mask[A.FLOR] else A.PASO

    # -- play ----------------------------------------------------------------------------------
    def _play(self, v: View, mask) -> int | None:
        if mask[A.DE_LA_MIA]:
            return A.DE_LA_MIA  # 12.8: declare the flor against "con flor, no quiero"
        if mask[A.FLOR] and self._sing_in_play(v):
            return A.FLOR
        envite = self._envite(v, mask)
        if envite is not None:
            return envite
        challenge = self._challenge(v, mask)
        if challenge is not None:
            return challenge
        cards = [c for c in v.hand if mask[A.PLAY_BASE + c]]
        if not cards:
            return A.PASO if mask[A.PASO] else None  # 14.10: the truque is over, cards face up
        return A.PLAY_BASE + self._choose_card(v, cards)

    def _sing_in_play(self, v: View) -> bool:
        """Sing unless hiding a reservada, or unless a pares bet we are winning is worth more."""
        if not self._wants_to_sing(v):
            return False
        if v.pares_state() == 3:  # an accepted envite: singing voids it (6.8, 10.5)
            p = self.pares_prob(v)
            stake = min(v.pares_stake_chinas("stake"), v.falta)
            return 3 >= (2 * p - 1) * stake
        return True

    def _envite(self, v: View, mask) -> int | None:
        """Open the envite de pares (Art. 6) by P(team wins), a falso now and then (17.13)."""
        if not mask[A.PARES_BASE]:
            return None
        if v.my_flor() > 0 and self._wants_to_sing(v) and mask[A.FLOR]:
            return None
        p = self.pares_prob(v)
        cfg = self.cfg
        if p < cfg.pares_bet:
            if self._coin(v, 2) < cfg.bluff_envite:
                # envío N pares de falso; la falta when it is less than N pares (6.16)
                n_pares = A.PARES_BASE + cfg.bluff_envite_pares - 1
                return n_pares if mask[n_pares] else A.FALTA if mask[A.FALTA] else A.PARES_BASE
            return None
        options = [(A.PARES_BASE, 2)]
        if p >= cfg.pares_raise:
            options.append((A.PARES_BASE + 2, min(6, v.falta)))
        if p >= cfg.pares_falta and mask[A.FALTA]:
            options.append((A.FALTA, v.falta))
        best, best_eq = None, -1.0
        for a, chinas in options:
            eq = self._eq_bet(v, p, chinas)
            if mask[a] and eq > best_eq:
                best, best_eq = a, eq
        return best

    def _challenge(self, v: View, mask) -> int | None:
        """Truco / retruco / panueve (Art. 14) when the truque looks won, or de falso."""
        action = next((a for a in (A.TRUCO, A.RETRUCO, A.PANUEVE) if mask[a]), None)
        if action is None:
            return None
        if action == A.TRUCO and v.baza == 0 and self._pares_flor_pending(v, mask):
            return None  # 6.13, 10.12: talk pares and flores before challenging
        p = self.truco_prob(v)
        if action == A.TRUCO:
            if p >= self.cfg.truco_challenge:
                return action
            if p < 0.5 and self._coin(v, 3) < self.cfg.bluff_truco:
                return action
            return None
        return action if p >= self.cfg.truco_raise else None

    def _pares_flor_pending(self, v: View, mask) -> bool:
        """True while I could still sing flor or envidar later in this baza."""
        return bool(mask[A.FLOR] and v.my_flor() > 0)

    # -- card play -----------------------------------------------------------------------------
    def _choose_card(self, v: View, cards) -> int:
        """The rules' card, unless the look-ahead finds a card clearly better for the truque."""
        rule = self._rule_card(v, cards)
        if len(cards) == 1 or not self.cfg.lookahead:
            return rule
        odds = self.truco_by_card(v)
        best = max(odds[c] for c in cards)
        if best <= odds[rule] + self.cfg.lookahead_margin:
            return rule
        good = [c for c in cards if odds[c] >= best - self.cfg.lookahead_margin]
        return min(good, key=lambda c: (POWER[c], c))

    def _rule_card(self, v: View, cards) -> int:
        """Win cheaply, else throw the lowest; don't overtake a partner; keep the top for last."""
        cards = sorted(cards, key=lambda c: (POWER[c], c))
        if len(cards) == 1:
            return cards[0]
        b = v.baza
        ours_best, theirs_best = 0, 0
        rivals_after, partners_after = [], 0
        for r in range(1, v.n):
            if not v.in_truque(r):
                continue
            c = v.card_in_baza(r, b)
            if c >= 0:
                if v.ours(r):
                    ours_best = max(ours_best, int(POWER[c]))
                else:
                    theirs_best = max(theirs_best, int(POWER[c]))
            elif v.ours(r):
                partners_after += 1
            else:
                rivals_after.append(3 - len(v.played_by(r)))
        cdf = self._level_cdf(self._unseen_cards(v))

        def holds(power: int) -> float:
            p = 1.0
            for left in rivals_after:
                p *= cdf[power] ** left
            return p

        res = v.baza_results()
        lowest = cards[0]
        if ours_best > theirs_best:
            return lowest  # a partner is winning the baza: don't overtake him
        beating = [c for c in cards if POWER[c] > theirs_best]
        if theirs_best == 0 and ours_best == 0:  # I lead the baza
            return self._lead(v, cards, res, holds)
        if beating:
            for c in beating:
                if holds(int(POWER[c])) >= self.cfg.hold_threshold:
                    return c
            if not rivals_after:
                return beating[0]
            if partners_after == 0:
                return beating[-1]  # the best chance of the team, it is on me
            return lowest
        tying = [c for c in cards if POWER[c] == theirs_best]
        useless_parda = res[:1] == "L" and b >= 1  # a parda now leaves the truque to them (13.11)
        if tying and partners_after == 0 and not useless_parda:
            return tying[0]  # parda rather than a lost baza (after winning the first: a win)
        return lowest

    def _lead(self, v: View, cards, res: str, holds) -> int:
        """The first card of a baza: low after winning the first (the top waits for the last)."""
        if v.baza == 1 and res == "W":
            return cards[0]
        if v.baza == 1 and res in ("L", "P"):
            return cards[-1]  # this baza decides (or must be won)
        for c in cards:  # the first baza: the cheapest card likely to hold
            if POWER[c] < TOP_POWER and holds(int(POWER[c])) >= self.cfg.hold_threshold:
                return c
        return cards[-1] if holds(int(POWER[cards[-1]])) >= self.cfg.hold_threshold else cards[0]
