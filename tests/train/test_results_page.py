"""docs/make_results_page.py: the results page from league, analysis and exploiter files (tiny ones)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture()
def page(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("make_results_page", ROOT / "docs" / "make_results_page.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, sub in (("RESULTS", "results"), ("LEAGUES", "results/leagues"), ("ANALYSES", "results/analysis"),
                      ("PICTURES", "docs/results")):
        monkeypatch.setattr(mod, name, tmp_path / sub)
    monkeypatch.setattr(mod, "SECTIONS", [("moteno", 1, ["random", "heuristic", "style_folder"]),
                                          ("moteno", 2, ["random", "heuristic"])])
    monkeypatch.setattr(mod, "ANALYSED", [("heuristic", "heuristic", None)])
    monkeypatch.setattr(mod, "ANALYSIS_SIZES", (1,))
    return mod


def test_a_league_becomes_a_table_and_its_picture_and_a_missing_one_says_how_to_make_it(page, tmp_path):
    from agents.base import RandomPolicy
    from agents.heuristic import HeuristicPolicy
    from agents.styles import StylePolicy
    from train.eval.league import run_league

    run_league({"random": RandomPolicy, "heuristic": lambda s: HeuristicPolicy(seed=s),
                "style_folder": lambda s: StylePolicy("folder", seed=s)}, team_size=1, episodes=8, num_envs=8,
               target=10, seed=1, bootstrap=20, out_dir=page.league_dir("moteno", 1))
    text = page.render()
    assert "### moteno, 1 contra 1" in text and "| heuristic | " in text
    league = json.loads((page.league_dir("moteno", 1) / "league.json").read_text())
    w = next(m for m in league["matches"] if m["A"] == "random" and m["B"] == "heuristic")
    assert f"{100 * (1 - w['win_rate_A']):.1f}%" in text.split("| heuristic | ")[1].split("\n")[0]
    assert (tmp_path / "docs/results/league_moteno_1v1.png").read_bytes()[:4] == b"\x89PNG"
    assert "### moteno, 2 contra 2\n\nNot measured yet" in text
    assert "| heuristic | 1v1 | not measured yet" in text  # the falsos and señas: missing too
    assert "## Exploitability" in text and "| not measured yet |" in text


def test_the_analysis_and_exploiter_rows_read_their_files(page, tmp_path):
    from train.studies.analysis import AnalysisConfig
    from train.studies.analysis import run as run_analysis

    run_analysis(AnalysisConfig(policy="heuristic", team_size=1, manos=20, influence_decisions=20, juegos=2,
                                ablation_opponent="random", num_envs=8, bootstrap=10,
                                out=page.ANALYSES / "heuristic_1v1.json"))
    (page.RESULTS / "exploiter_x.json").write_text(json.dumps({
        "target": "agents/checkpoints/x.pt", "tradition": "moteno", "team_size": 3, "exploiter_win_rate": 0.6,
        "wilson95": [0.55, 0.65], "report": {"juegos": {"episodes": 400}}, "training": {"minutes": 30, "decisions": 2e7}}))
    (page.RESULTS / "exploiter_y.json").write_text(json.dumps({
        "target": "agents/checkpoints/y.pt", "tradition": "moteno", "team_size": 1, "exploiter_win_rate": 0.7,
        "wilson95": [0.65, 0.75], "report": {"juegos": {"episodes": 400}}, "training": {"minutes": 25, "decisions": 6e7},
        "config": {"swap_teams_every_update": False, "config": "configs/ppo_br_moteno_1v1_juego.toml"}}))
    (page.RESULTS / "exploiter_z.json").write_text(json.dumps({
        "target": "agents/checkpoints/z.pt", "tradition": "moteno", "team_size": 1, "exploiter_win_rate": 0.6,
        "wilson95": [0.55, 0.65], "report": {"juegos": {"episodes": 400}}, "training": {"minutes": 25, "decisions": 6e7},
        "config": {"swap_teams_every_update": False, "config": "configs/ppo_moteno_1v1.toml"}}))
    text = page.render()
    row = next(line for line in text.splitlines() if line.startswith("| heuristic | 1v1 |"))
    assert "points [" in row and "with," in row  # the señas' worth against the opponent
    # a file from before the exploiter held one side says nothing of it: it swapped
    assert "| x | moteno | 3v3 | 60.0% [55.0, 65.0] | 400 | 30 min, 20M decisions | swapped | not recorded |" in text
    # what it learnt on is the reward of the config file it names (configs/ppo_moteno_1v1.toml has none: points)
    assert "| y | moteno | 1v1 | 70.0% [65.0, 75.0] | 400 | 25 min, 60M decisions | one | the juego |" in text
    assert "| z | moteno | 1v1 | 60.0% [55.0, 65.0] | 400 | 25 min, 60M decisions | one | points |" in text


def test_the_exploiter_rows_sit_beside_their_bot_in_version_order(page):
    """An exploiter trained on the juego's result (exploiter_juego_<bot>) sorts beside the one on points of the
    same bot and size, not before every other file; v9 comes before v10."""
    page.RESULTS.mkdir(parents=True)
    for stem, target in (("exploiter_ppo_x_league_v10_1v1_one_side", "v10"),
                         ("exploiter_juego_ppo_x_league_v9_2v2", "v9_juego_2v2"),
                         ("exploiter_ppo_x_league_v9_2v2_one_side", "v9_points_2v2"),
                         ("exploiter_juego_ppo_x_league_v9_1v1", "v9_juego_1v1")):
        (page.RESULTS / f"{stem}.json").write_text(json.dumps({
            "target": f"agents/checkpoints/{target}.pt", "tradition": "moteno", "team_size": 1,
            "exploiter_win_rate": 0.6, "wilson95": [0.55, 0.65], "report": {"juegos": {"episodes": 400}}}))
    rows = [line.split(" | ")[0][2:] for line in page.render().split("## Exploitability")[1].splitlines()
            if line.startswith("| v")]
    assert rows == ["v9_juego_1v1", "v9_juego_2v2", "v9_points_2v2", "v10"]


def test_a_bot_is_named_by_its_registry_name_its_file_or_its_run_and_piece(page):
    assert page.label("heuristic") == "heuristic"
    assert page.label("agents/checkpoints/ppo_argentino.pt") == "ppo_argentino"
    assert page.label("runs/league_v5/policy.pt") == "league_v5 (run, not shipped)"
    assert page.label("runs/league_v5/policy_piece3.pt") == "league_v5 piece3 (run, not shipped)"
    assert page.label("agents/checkpoints/ppo_argentino.pt+envido") == "ppo_argentino+envido"
    assert page.label("ppo+envido") == "ppo+envido"
    # a run whose policy was shipped is named by the shipped file
    assert page.label("runs/ppo_argentino_league_v7/policy.pt+envido") == "ppo_argentino_v7+envido"


def test_every_exploiter_file_in_the_results_is_an_exploiter_study():
    """The page's exploitability section reads benchmarks/results/exploiter_*.json as the exploiter
    study writes them; a match report saved under that prefix broke it once."""
    paths = sorted((ROOT / "benchmarks" / "results").glob("exploiter_*.json"))
    assert paths
    for path in paths:
        study = json.loads(path.read_text())
        assert {"target", "exploiter_win_rate", "tradition", "team_size", "report"} <= set(study), path.name
        # the page reads what it learnt on from the config file it names
        assert (ROOT / study["config"]["config"]).is_file(), path.name


def test_the_reduced_games_section_reads_the_study_and_says_when_it_is_missing(page, tmp_path):
    from train.studies.reduced_exploitability import ReducedStudyConfig, run

    assert "## Exact exploitability on the reduced games" in page.render()
    assert "Not measured yet: `python -m train.studies.reduced_exploitability" in page.render()
    out = page.RESULTS / "reduced_exploitability.json"
    r = run(ReducedStudyConfig(games=("kuhn_poker",), cfr_iterations=20, cfr_eval_every=10, updates=4, episodes=64,
                               eval_every=2, out=str(out)))
    row = next(line for line in page.render().splitlines() if line.startswith("| kuhn_poker |"))
    assert row.startswith("| kuhn_poker | 0.458 |")  # three significant figures: CFR+ ends near 1e-4
    assert f"{r['games']['kuhn_poker']['final']['cfr_plus']:.3g} (" in row
    assert r["games"]["kuhn_poker"]["final"]["cfr_plus"] < 0.1  # CFR+ after 20 iterations
    with pytest.raises(FileExistsError):
        run(ReducedStudyConfig(games=("kuhn_poker",), out=str(out)))
    with pytest.raises(ValueError, match="unknown games"):
        run(ReducedStudyConfig(games=("go",), out=str(tmp_path / "x.json")))
    with pytest.raises(ValueError, match="magnet_coef must be > 0"):
        run(ReducedStudyConfig(magnet_coef=0.0, out=str(tmp_path / "x.json")))
    with pytest.raises(ValueError, match="magnet_mix must be in"):
        run(ReducedStudyConfig(magnet_mix=1.5, out=str(tmp_path / "x.json")))


def test_the_argentino_falsos_come_from_the_league_matches(page, monkeypatch):
    """The argentino bots' weak bets and their refusals of a strong envido, read from the league's
    matches (their reports count them: train/eval/styles/argentino.py); a league without them says so."""
    from agents.registry import load_policy
    from train.eval.league import run_league

    bots = ["random", "heuristic", "style_raiser"]
    monkeypatch.setattr(page, "SECTIONS", [("argentino", 1, bots), ("argentino", 2, bots)])
    run_league({b: (lambda s, b=b: load_policy(b, seed=s, tradition="argentino")) for b in bots}, tradition="argentino",
               team_size=1, episodes=40, num_envs=40, seed=2, bootstrap=10, out_dir=page.league_dir("argentino", 1))
    text = page.render().split("## Falsos and answers (argentino)")[1].split("## Exploitability")[0]
    league = json.loads((page.league_dir("argentino", 1) / "league.json").read_text())
    m = next(m for m in league["matches"] if {m["A"], m["B"]} == {"heuristic", "style_raiser"})
    side = "A" if m["A"] == "heuristic" else "B"
    strong = [r for r in m["answers"][side]["envido"] if r["bin"] in ("29-30", "31-33")]
    n = sum(r["answered"] for r in strong)
    assert n > 0  # the raiser bets every envido
    row = next(line for line in text.splitlines() if line.startswith("| heuristic | 1v1 |"))
    assert row.endswith(f"| {100 * sum(r['refused']['count'] for r in strong) / n:.1f}% of {n:,} |")
    vs_random = next(m for m in league["matches"] if {m["A"], m["B"]} == {"heuristic", "random"})
    weak = vs_random["bluffs"]["A" if vs_random["A"] == "heuristic" else "B"]["envido"]["bet_when_weak"]["rate"]
    assert row.startswith(f"| heuristic | 1v1 | {100 * weak:.1f}% / ")
    assert "| heuristic | 2v2 | not measured yet (`--run --tradition argentino`) |" in text


def test_run_measures_again_only_the_traditions_asked_for(page, monkeypatch, capsys):
    import train.eval.league as league
    import train.studies.analysis as analysis

    played, analysed = [], []
    monkeypatch.setattr(league, "run", lambda cfg: played.append((cfg.tradition, cfg.team_size)))
    monkeypatch.setattr(analysis, "run", lambda cfg: analysed.append(cfg.policy))
    monkeypatch.setattr(page, "SECTIONS", [("moteno", 1, ["random", "heuristic"]),
                                          ("argentino", 1, ["random", "heuristic"]),
                                          ("argentino", 2, ["random", "heuristic"])])
    page.run_all(10, 10, ("argentino",))
    assert played == [("argentino", 1), ("argentino", 2)] and analysed == []
    page.run_all(10, 10, ("moteno",))
    assert played[2:] == [("moteno", 1)] and analysed == ["heuristic"]
    with pytest.raises(SystemExit):
        page.main(["--tradition", "argentino"])
    assert "give --run too" in capsys.readouterr().err


def test_rerun_measures_again_only_the_leagues_and_analyses_of_the_bots_named(page, monkeypatch, capsys):
    import train.eval.league as league
    import train.studies.analysis as analysis

    played, analysed = [], []
    monkeypatch.setattr(league, "run", lambda cfg: played.append((cfg.tradition, cfg.team_size, cfg.rerun)))
    monkeypatch.setattr(analysis, "run", lambda cfg: analysed.append(cfg.policy))
    monkeypatch.setattr(page, "SECTIONS", [("moteno", 1, ["random", "heuristic", "style_folder"]),
                                          ("moteno", 2, ["random", "heuristic"])])
    page.run_all(10, 10, ("moteno",), ("style_folder",))
    assert played == [("moteno", 1, "style_folder")] and analysed == []  # the heuristic's analysis stays
    for argv, said in ((["--rerun", "style_folder"], "give --run too"),
                       (["--run", "--rerun", "nobody"], "not in any league")):
        with pytest.raises(SystemExit):
            page.main(argv)
        assert said in capsys.readouterr().err
