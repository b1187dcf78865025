"""The juego's public record (``truque_env.engine.record``): scripted manos of both traditions,
each checked on the engine's ``Table`` and on the plain-Python reference, the observation's
``juego_record`` slice as each team sees it, and the resets (a won juego, a new partida).

The differential drivers (tests/differential.py, tests/traditions/argentino/differential_argentino.py)
compare the record with the references' at every decision under steered random play.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.reference.argentino_ref import RefTable as ArgentinoRef
from tests.reference.moteno_ref import RefTable as MotenoRef
from truque_env import Table
from truque_env.engine import header as H
from truque_env.engine.record import OBS_RECORD_MAX
from truque_env.traditions.argentino import batch as ArgentinoBatch
from truque_env.traditions.argentino import layout as ArgentinoLayout
from truque_env.traditions.argentino import observation as ArgentinoObs
from truque_env.traditions.moteno import batch as MotenoBatch
from truque_env.traditions.moteno import layout as MotenoLayout
from truque_env.traditions.moteno import observation as MotenoObs

STRONG, WEAK = "1E 1B 4C", "3O 2C 5B"  # Moteño 1v1: seat 0 wins the first two bazas leading its matas


def record_of(t) -> dict:
    """The record of an engine ``Table`` or of a reference table, in the Table's form."""
    return t.juego_record if isinstance(t, Table) else t.record.as_dict()


def expect(manos=0, raises=(0, 0), accept=(0, 0), refuse=(0, 0), leave=(0, 0)) -> dict:
    return {"manos": manos, "raise": raises, "accept": accept, "refuse": refuse, "leave": leave}


def both(make_table, make_ref):
    return [make_table(), make_ref()]


# -- Truque Moteño -------------------------------------------------------------------------------
def _moteno_tables():
    kwargs = dict(team_size=1, target=30, seed=0, senas_per_mano=0, p_intercept=0.1)
    return both(lambda: Table(**kwargs), lambda: MotenoRef(**kwargs))


@pytest.mark.parametrize("impl", ["engine", "reference"])
def test_moteno_record_counts_raises_answers_and_leaves_over_the_juego_and_clears_when_it_is_won(impl):
    t = _moteno_tables()[0 if impl == "engine" else 1]
    # mano 1 (seat 0 mano): nothing a ciegas (paso is not counted), truco, no quiero (14.14: one china)
    t.deal(hands=[STRONG, WEAK], dealer=1)
    t.act("paso")
    t.act("paso")
    t.act("truco")
    assert record_of(t) == expect(raises=(1, 0))
    t.act("no quiero")
    t.act("paso")  # 14.10: the first round is completed for the pares, cards face up
    t.act("paso")
    assert t.done and t.scores == (1, 0)
    assert record_of(t) == expect(manos=1, raises=(1, 0), refuse=(0, 1))
    # mano 2 (seat 1 mano): seat 1 goes a baraja at once (13.14)
    t.deal(hands=[STRONG, WEAK], dealer=0)
    t.act("paso")
    t.act("paso")
    t.act("me voy a baraja")
    assert t.done
    assert record_of(t) == expect(manos=2, raises=(1, 0), refuse=(0, 1), leave=(0, 1))
    # mano 3, two chinas short of the target: truco, quiero, and seat 0's matas win the juego
    t.deal(hands=[STRONG, WEAK], dealer=1, scores=(28, 5))
    t.act("paso")
    t.act("paso")
    t.act("truco")
    t.act("quiero")
    assert record_of(t) == expect(manos=2, raises=(2, 0), accept=(0, 1), refuse=(0, 1), leave=(0, 1))
    for card in ("1E", "3O", "1B", "2C"):
        t.act(f"juego {card}")
    assert t.done and t.juegos == (1, 0)
    assert record_of(t) == expect()  # a new juego starts with an empty record


def test_moteno_observation_shows_the_record_from_each_teams_side_and_saturates():
    t = Table(team_size=1, seed=0, senas_per_mano=0)
    t.deal(hands=[STRONG, WEAK], dealer=1)
    for word in ("paso", "paso", "truco", "no quiero", "paso", "paso"):
        t.act(word)
    hist = np.zeros(MotenoObs.HISTORY_SIZE, dtype=np.int16)
    out = np.zeros(MotenoObs.OBS_SIZE, dtype=np.int8)
    mine = {}
    for seat in (0, 1):
        MotenoObs.observe(t.state, hist, seat, out)
        d = MotenoObs.decode(out)
        mine[seat] = (int(d["juego_record.manos"]), d["juego_record.mine"].tolist(), d["juego_record.rival"].tolist())
    assert mine[0] == (1, [1, 0, 0, 0], [0, 0, 1, 0])  # I raised, the rival refused
    assert mine[1] == (1, [0, 0, 1, 0], [1, 0, 0, 0])
    # the record is the observation's last slice, after the history (older networks read the prefix)
    start, (width,) = MotenoObs.SLICES["juego_record"]
    assert start == MotenoObs.SLICES["history"][0] + 2 * MotenoObs.HISTORY_IN_OBS and start + width == MotenoObs.OBS_SIZE
    t.state[MotenoLayout.REC_MANOS + 1] = 300  # team 0's raises, past what an int8 holds
    MotenoObs.observe(t.state, hist, 0, out)
    assert MotenoObs.decode(out)["juego_record.mine"][0] == OBS_RECORD_MAX


@pytest.mark.parametrize("batch, layout", [(MotenoBatch, MotenoLayout), (ArgentinoBatch, ArgentinoLayout)])
def test_a_new_partida_starts_with_an_empty_record(batch, layout):
    row = np.zeros(layout.STATE_SIZE, dtype=layout.STATE_DTYPE)
    row[layout.REC_MANOS : layout.REC_MANOS + H.RECORD_SIZE] = np.arange(1, H.RECORD_SIZE + 1)
    batch.new_partida(row)
    assert not row[layout.REC_MANOS : layout.REC_MANOS + H.RECORD_SIZE].any()
    # the record is the last field of the row: a row from before it is a prefix (train.ppo.rollout)
    assert layout.REC_MANOS + H.RECORD_SIZE == layout.STATE_SIZE


# -- truco argentino -----------------------------------------------------------------------------
def _argentino_tables():
    kwargs = dict(team_size=1, target=30, seed=1, todo_dicho=False)
    return both(lambda: Table(tradition="argentino", **kwargs), lambda: ArgentinoRef(**kwargs))


@pytest.mark.parametrize("impl", ["engine", "reference"])
def test_argentino_record_counts_truco_answers_and_the_mazo_and_clears_when_the_juego_is_won(impl):
    t = _argentino_tables()[0 if impl == "engine" else 1]
    # mano 1 (seat 0 mano): truco, quiero, a baza, and seat 1 goes al mazo (A30): the truco's 2 tantos
    t.deal(hands=["1E 4C 5C", "1B 7C 6B"], dealer=1)
    for word in ("truco", "quiero", "juego 1E", "juego 1B", "juego 5C", "me voy al mazo"):
        t.act(word)
    assert t.done and t.scores == (2, 0)
    assert record_of(t) == expect(manos=1, raises=(1, 0), accept=(0, 1), leave=(0, 1))
    # mano 2 (seat 1 mano): truco, no quiero (1 tanto to team 1)
    t.deal(hands=["1E 4C 5C", "1B 7C 6B"], dealer=0)
    for word in ("truco", "no quiero"):
        t.act(word)
    assert t.done and t.scores == (2, 1)
    assert record_of(t) == expect(manos=2, raises=(1, 1), accept=(0, 1), refuse=(1, 0), leave=(0, 1))
    # mano 3, one tanto short: truco, no quiero wins the juego for team 0
    t.deal(hands=["1E 4C 5C", "1B 7C 6B"], dealer=1, scores=(29, 1))
    t.act("truco")
    assert record_of(t)["raise"] == (2, 1)
    t.act("no quiero")
    assert t.done and t.juegos == (1, 0)
    assert record_of(t) == expect()


def test_argentino_observation_shows_the_record_from_each_teams_side():
    t = Table(tradition="argentino", team_size=1, seed=1, todo_dicho=False)
    t.deal(hands=["1E 4C 5C", "1B 7C 6B"], dealer=1)
    for word in ("truco", "quiero", "juego 1E", "juego 1B", "juego 5C", "me voy al mazo"):
        t.act(word)
    hist = np.zeros(ArgentinoObs.HISTORY_SIZE, dtype=np.int16)
    out = np.zeros(ArgentinoObs.OBS_SIZE, dtype=np.int8)
    at = ArgentinoObs.SLICES["juego_record"][0]
    ArgentinoObs.observe(t.state, hist, 1, out)
    assert out[at:].tolist() == [1, 0, 1, 0, 1, 1, 0, 0, 0]  # seat 1: manos; accepted, left; the rival raised
    ArgentinoObs.observe(t.state, hist, 0, out)
    assert out[at:].tolist() == [1, 1, 0, 0, 0, 0, 1, 0, 1]
