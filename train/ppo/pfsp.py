"""Prioritised fictitious self-play (``league = true`` in ``train.ppo.loop``): who holds the other team.

A table's opponent is drawn when a juego starts and kept until it ends (the learner keeps its
team too), so every juego is the learner against one entry of the league, and its result is
that entry's. The league's entries: index 0 the pool of past snapshots (the one drawn for the
update), then each bot of ``bot_opponents`` (the heuristic, the style bots, exploiters saved as
checkpoints...). A juego is self-play (the learner on both teams) with probability ``p_latest``;
otherwise its entry is drawn with

    P(entry) = (1 - pfsp_mix) * f(w_entry) / sum f + pfsp_mix / entries,    f(w) = (1 - w) ** pfsp_power,

``w`` the learner's recent win rate against the entry (AlphaStar's "hard" weighting, Vinyals et
al. 2019): the opponents it loses to are met most, and the ``pfsp_mix`` share keeps every entry
in play, so a weakness it had fixed cannot come back unseen. With targets (``pfsp_targets``: a
win rate the learner should reach against an entry) the loss rate is measured against the loss
rate the target allows, f(w) = ((1 - w) / (1 - target)) ** pfsp_power: losing 7% of juegos to
``random`` with a target of 97% weighs more than losing 45% to the heuristic with a target of
60%, although plain PFSP would draw the heuristic 40 times as often. One policy meets every
opponent without knowing which it plays, so a gain against one may cost against another; the
targets say which shortfall matters. The win rates are counts decayed
by ``pfsp_decay`` per update, with one win and one loss as the prior (an entry never met counts
as 50%).

``LeagueTables`` (one per ``Sampler``) holds each table's draw, the league's generator and each
table's learner return in the juego so far; ``LeagueStats`` (the learner's) holds the counts.
Both go in the checkpoint: a league run resumes exactly. A resumed run may append bots to
``bot_opponents`` (an exploiter, ``train.studies.exploiter``, trained against the run's policy as
``truque train export`` writes it): they join the league unmet, at the prior, at every team size.
"""

from __future__ import annotations

import numpy as np

SNAPSHOT_ENTRY = 0


def entry_names(bot_opponents) -> tuple[str, ...]:
    return ("snapshot", *bot_opponents)


def win_rates(wins: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The learner's win rate against each entry, one win and one loss as the prior."""
    return (wins + 1.0) / (games + 2.0)


def allowed_losses(targets: dict[str, float], names) -> np.ndarray:
    """Per entry (``entry_names``' order), the share of juegos its target allows the learner to
    lose: 1 - target, and 1 for an entry without a target."""
    return np.array([1.0 - targets.get(name, 0.0) for name in names])


def pfsp_probs(wins: np.ndarray, games: np.ndarray, power: float, mix: float,
               allowed_loss: np.ndarray | None = None) -> np.ndarray:
    """The draw probability of each entry from its (decayed) wins and games; with ``allowed_loss``
    (``allowed_losses``), each entry's loss rate over the one its target allows."""
    w = win_rates(wins, games)
    loss = 1.0 - w if allowed_loss is None else (1.0 - w) / allowed_loss
    f = loss ** power
    total = f.sum()
    hard = f / total if total > 0 else np.full(len(f), 1.0 / len(f))
    return (1.0 - mix) * hard + mix / len(f)


class LeagueStats:
    """The learner's results against each entry: decayed wins and games."""

    def __init__(self, entries: int):
        self.wins = np.zeros(entries)
        self.games = np.zeros(entries)

    def add(self, entry: np.ndarray, result: np.ndarray) -> None:
        """Finished juegos: the entry met (-1: self-play, not counted) and the learner's result (1, 0)."""
        keep = entry >= 0
        np.add.at(self.games, entry[keep], 1.0)
        np.add.at(self.wins, entry[keep], result[keep])

    def decay(self, factor: float) -> None:
        self.wins *= factor
        self.games *= factor

    def win_rates(self) -> np.ndarray:
        return win_rates(self.wins, self.games)

    def state(self) -> dict:
        return {"wins": self.wins.tolist(), "games": self.games.tolist()}

    def load_state(self, state: dict, groups: int = 1) -> None:
        """The checkpoint's counts; ``groups`` rows of entries (team sizes), each row perhaps shorter
        than this run's: bots appended to ``bot_opponents`` on resume start unmet (the prior)."""
        wins, games = np.asarray(state["wins"], dtype=np.float64), np.asarray(state["games"], dtype=np.float64)
        old, new = len(wins) // groups, len(self.wins) // groups
        if wins.shape != games.shape or len(wins) % groups or old > new:
            raise ValueError(f"checkpoint's league has {old} entries, this run {new}: "
                             "resume with the same bot_opponents, or more appended")
        self.wins, self.games = (np.pad(a.reshape(groups, old), ((0, 0), (0, new - old))).ravel() for a in (wins, games))


class LeagueTables:
    """Per table: the learner's team, self-play or not, the entry (as ``rollout.Tables``: ``bot``
    -2 a snapshot, j >= 0 bot j, -1 self-play); the learner's return in the juego so far."""

    def __init__(self, num_tables: int, seed: int, first_table: int, p_latest: float):
        self.rng = np.random.default_rng(np.random.SeedSequence([seed, first_table, 0x1EA6]))
        self.p_latest = p_latest
        self.learner_team = np.zeros(num_tables, dtype=np.int64)
        self.self_play = np.zeros(num_tables, dtype=np.bool_)
        self.bot = np.full(num_tables, -1, dtype=np.int64)
        self.juego_return = np.zeros(num_tables)
        self.started = False

    def entry(self) -> np.ndarray:
        """Each table's league entry (-1: self-play)."""
        return np.where(self.self_play, -1, np.where(self.bot == -2, SNAPSHOT_ENTRY, self.bot + 1))

    def draw(self, idx: np.ndarray, probs: np.ndarray) -> None:
        """New juegos at tables ``idx``: the learner's team, self-play, else an entry by ``probs``."""
        k = len(idx)
        if not k:
            return
        self.learner_team[idx] = self.rng.integers(2, size=k)
        self.self_play[idx] = self.rng.random(k) < self.p_latest
        e = self.rng.choice(len(probs), size=k, p=probs)
        self.bot[idx] = np.where(self.self_play[idx], -1, np.where(e == SNAPSHOT_ENTRY, -2, e - 1))
        self.juego_return[idx] = 0.0

    def start(self, probs: np.ndarray) -> None:
        """The first draw, at every table (a fresh run's first rollout)."""
        if not self.started:
            self.draw(np.arange(len(self.bot)), probs)
            self.started = True

    def on_step(self, rewards: np.ndarray, terminated: np.ndarray, probs: np.ndarray):
        """After a step: add the learner's rewards; for the tables whose juego ended, their
        (entry, result) and a new draw. ``rewards``: (tables, seats); the learner's team's seats
        share its reward, so seat ``learner_team`` (0 or 1) reads it."""
        rows = np.arange(len(self.bot))
        self.juego_return += rewards[rows, self.learner_team]
        done = np.flatnonzero(terminated)
        if not done.size:
            return None
        entry = self.entry()[done]
        ret = self.juego_return[done]
        result = np.where(ret > 0, 1.0, np.where(ret < 0, 0.0, 0.5))
        self.draw(done, probs)
        return entry, result

    def state(self) -> dict:
        # plain lists: the checkpoint loads with torch.load(weights_only=True), which refuses numpy arrays
        return {"rng": self.rng.bit_generator.state, "learner_team": self.learner_team.tolist(),
                "self_play": self.self_play.tolist(), "bot": self.bot.tolist(), "juego_return": self.juego_return.tolist(),
                "started": self.started}

    def load_state(self, state: dict) -> None:
        self.rng.bit_generator.state = state["rng"]
        for name in ("learner_team", "self_play", "bot", "juego_return"):
            getattr(self, name)[:] = np.asarray(state[name])
        self.started = bool(state["started"])
