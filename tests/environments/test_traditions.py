"""The registry of traditions (truque_env.traditions) and the valuations API every tradition shares."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import truque_env
from tests.reference import moteno_ref as R
from truque_env.cards import card_str
from truque_env.traditions import TraditionSpec, get


def test_moteno_and_argentino_are_registered():
    assert truque_env.traditions() == ("argentino", "moteno")
    spec = get("moteno")
    assert isinstance(spec, TraditionSpec) and spec.name == "moteno" and spec.team_sizes == (1, 2, 3, 4)
    assert spec.env_name == truque_env.raw_env(team_size=1).metadata["name"]


def test_an_unknown_tradition_is_a_clear_error_naming_the_known_ones():
    for bad in ("uruguayo", "Moteno", "", None):
        with pytest.raises(ValueError, match="unknown tradition .*known: argentino, moteno"):
            truque_env.valuations(bad)


def test_moteno_valuations_take_strings_and_ids():
    v = truque_env.valuations("moteno")
    assert v.hand_values("7E 6E 3B") == {"pares": 33, "flor": 0}  # 20 + 7 + 6 (Art. 5.5)
    assert v.hand_values("7C 6C 1C") == {"pares": 33, "flor": 34}  # Art. 9.3: 20 + 7 + 6 + 1
    assert v.hand_values([38, 26, 12]) == v.hand_values("11B 7E 3C")
    assert v.power("11B") > v.power("10O") > v.power("11O") > v.power("1E")  # Art. 2: the piezas, la espada
    assert v.power("3O") == v.power("3C")  # ruling 2: the same row ties
    with pytest.raises(ValueError, match="no muestra"):
        v.power("3O", turnup="4C")
    with pytest.raises(ValueError, match="no muestra"):
        v.hand_values("3O 4O 5O", turnup=0)
    for bad in ("13C 1E 2E", "1E 1E 2E", "1E 2E", [0, 1, 40]):
        with pytest.raises(ValueError):
            v.hand_values(bad)
    with pytest.raises(ValueError):
        v.power("14B")


def test_moteno_valuations_agree_with_the_reference_on_every_hand():
    """All C(40, 3) = 9,880 hands, as strings, against the plain-Python reference (Arts. 2, 5, 9)."""
    v = truque_env.valuations("moteno")
    for hand in itertools.combinations(range(40), 3):
        text = " ".join(card_str(c) for c in hand)
        expected = {"pares": R.pares_value(hand), "flor": R.flor_value(hand) if R.has_flor(hand) else 0}
        assert v.hand_values(text) == expected, text
    ours = np.array([v.power(c) for c in range(40)])
    theirs = np.array([R.truque_power(c) for c in range(40)])
    assert (np.sign(ours[:, None] - ours[None, :]) == np.sign(theirs[:, None] - theirs[None, :])).all()


@pytest.mark.parametrize("make", [
    lambda **kw: truque_env.Table(team_size=1, **kw),
    lambda **kw: truque_env.VectorEnv(2, team_size=1, **kw),
    lambda **kw: truque_env.raw_env(team_size=1, **kw),
    lambda **kw: truque_env.make_gym(seat=0, team_size=1, **kw),
])
def test_every_environment_takes_tradition_and_refuses_an_unknown_one(make):
    env = make(tradition="moteno")
    assert (env.aec if hasattr(env, "aec") else env).tradition == "moteno"  # the Gymnasium env wraps an AEC env
    with pytest.raises(ValueError, match="unknown tradition 'uruguayo'; known: argentino, moteno"):
        make(tradition="uruguayo")
    with pytest.warns(DeprecationWarning, match="variant= is deprecated"):
        make(variant="moteno")  # the old keyword, for one release
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="unknown variant 'uruguayo'"):
        make(variant="uruguayo")


def test_tradition_and_variant_must_agree():
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="disagree"):
        truque_env.Table(tradition="argentino", variant="moteno")
    t = truque_env.Table("moteno", team_size=2)  # positional, as variant was
    assert t.tradition == t.variant == "moteno"


def test_the_old_module_paths_are_deprecated_aliases_of_the_moved_ones():
    """The Moteño modules moved into truque_env/traditions/moteno/ (the family seam); the old
    names stay one release as the same module objects, with a DeprecationWarning."""
    import importlib
    import sys
    import warnings

    moved = {"truque_env.engine.kernels": "kernels", "truque_env.engine.layout": "layout",
             "truque_env.engine.actions": "actions", "truque_env.engine.observation": "observation",
             "truque_env.engine.batch": "batch", "truque_env.engine.vector_kernels": "vector_kernels",
             "truque_env.engine.metadata": "metadata", "truque_env.rules.moteno": "rules",
             "truque_env.render": "render"}
    for old, new in moved.items():
        sys.modules.pop(old, None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = importlib.import_module(old)
        assert module is importlib.import_module(f"truque_env.traditions.moteno.{new}")
        assert any(issubclass(w.category, DeprecationWarning) and old in str(w.message) for w in caught), old


def test_match_settings_check_every_field_and_the_traditions_options():
    from truque_env.settings import MatchSettings, check_made_for, settings_from

    s = MatchSettings(team_size=2)
    assert (s.tradition, s.target, s.juegos, s.p_intercept_permille) == ("moteno", 30, 3, 100)
    assert s.to_dict()["obs_size"] == 1279 and s.to_dict()["num_actions"] == 91
    for kwargs, message in [({"tradition": "nope"}, "unknown tradition 'nope'; known: argentino, moteno"),
                            ({"team_size": 5}, "team_size must be 1..4"),
                            ({"target": 1}, "target must be an integer 2..100"),
                            ({"juegos": 2}, "juegos must be an odd number"),
                            ({"p_intercept": 0.0005}, "p_intercept must be a probability in steps of 0.001"),
                            ({"senas_per_mano": 9}, "senas_per_mano must be 0..2 for team_size 3")]:
        with pytest.raises(ValueError, match=message):
            MatchSettings(**kwargs)
    with pytest.raises(ValueError, match="unknown option 'flor' for moteno; known options: none"):
        settings_from(flor=True)
    with pytest.raises(ValueError, match="made for other settings .team_size: 2 there, 3 here"):
        MatchSettings().check_same(s.to_dict(), "this checkpoint")
    MatchSettings(team_size=2).check_same(s.to_dict(), "this checkpoint")
    check_made_for(None, "moteno", "an old file")  # files from before the family are Moteño's
    with pytest.raises(ValueError, match="has obs_size 99, moteno has 1279"):
        check_made_for({"tradition": "moteno", "obs_size": 99, "num_actions": 91}, "moteno", "f")
    # made before the juego's record was appended to the observation: its prefix, still readable
    check_made_for({"tradition": "moteno", "obs_size": 1270, "num_actions": 91}, "moteno", "f")
    check_made_for({"tradition": "argentino", "obs_size": 1301, "num_actions": 77}, "argentino", "f")
    with pytest.raises(ValueError, match="has obs_size 1278, moteno has 1279"):
        check_made_for({"tradition": "moteno", "obs_size": 1278, "num_actions": 91}, "moteno", "f")
