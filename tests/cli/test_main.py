"""The ``truque`` command: one CLI whose help lists every command, and a user's mistake as one
line ``error: ...`` with exit status 2 (issue 15: a user's first hour)."""

from __future__ import annotations

import pytest

from truque_cli.main import main


def _fails(capsys, argv) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.err
    return lines[0]


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for command in ("simulate", "play", "evaluate", "league", "train"):
        assert command in text
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = capsys.readouterr().out
    for command in ("ppo", "cfr", "mccfr", "mccfr-export", "export"):
        assert command in text


def test_train_ppo_help_shows_the_config_file_and_the_settings(capsys):
    with pytest.raises(SystemExit):
        main(["train", "ppo", "--help"])
    text = capsys.readouterr().out
    assert "--config FILE.toml" in text and "--num-envs" in text and "--tradition" in text
    assert "bookkeeping" not in text


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--manos", "0"], "manos: input should be greater than or equal to 1 (got 0)"),
    (["evaluate", "--juegos", "0"], "juegos: input should be greater than or equal to 1"),
    (["league", "--policies", "random,random", "--p-intercept", "2"], "p_intercept: input should be less than"),
    (["play", "--seat", "-1"], "seat: input should be greater than or equal to 0"),
    (["simulate", "--tradition", "nope"], "unknown tradition 'nope'; known: argentino, moteno"),
    (["evaluate", "--a", "heuristic", "--b", "random", "--team-size", "5"], "team_size must be 1..4"),
    (["evaluate", "--a", "nobot", "--b", "random"], "unknown policy 'nobot'"),
    (["train", "ppo", "--config", "nope.toml"], "--config 'nope.toml': no such file"),
    (["simulate", "--config", "x.toml"], "--config is for truque train ppo|cfr|mccfr"),
    (["evaluate", "--a", "cfr", "--b", "random", "--team-size", "3"], "the bot 'cfr' plays 1 contra 1 only"),
    (["league", "--policies", "random,cfr", "--team-size", "2"], "the bot 'cfr' plays 1 contra 1 only"),
    (["play", "--rivals", "cfr", "--team-size", "2"], "the bot 'cfr' plays 1 contra 1 only"),
    (["evaluate", "--out", "README.md/report.json"], "cannot write 'README.md/report.json'"),
    (["simulate", "--json-out", "docs"], "'docs' is a folder"),
    (["evaluate", "--num-envs", "3"], "num_envs: input should be a multiple of 2 (got 3)"),
    (["league", "--policies", "random,random", "--num-envs", "5"], "num_envs: input should be a multiple of 2"),
])
def test_a_users_mistake_is_one_error_line(capsys, argv, message):
    assert message in _fails(capsys, argv)


def test_a_bad_toml_is_one_error_line(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[ppo]\nnum_envs = = 3\n")
    line = _fails(capsys, ["train", "ppo", "--config", str(bad)])
    assert str(bad) in line and "not valid TOML" in line
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("[ppo]\nnum_env = 3\n")
    assert "unknown settings ['num_env']" in _fails(capsys, ["train", "ppo", "--config", str(unknown)])


def test_no_result_is_replaced_without_overwrite(capsys, tmp_path):
    """evaluate, league and simulate refuse an existing result before playing, and replace it when told."""
    report, league, stats = tmp_path / "r.json", tmp_path / "league", tmp_path / "s.json"
    common = ["--team-size", "1", "--no-progress"]
    runs = [["evaluate", "--juegos", "2", "--num-envs", "2", "--out", str(report), *common],
            ["league", "--policies", "random,style_caller", "--juegos", "2", "--num-envs", "2", "--out-dir", str(league),
             *common],
            ["simulate", "--manos", "10", "--tables", "2", "--json-out", str(stats), "--no-progress"]]
    for argv, path in zip(runs, (report, league / "league.json", stats), strict=True):
        main(argv)
        before = path.read_bytes()
        assert "exists: --overwrite to replace it" in _fails(capsys, argv)
        assert path.read_bytes() == before
        main([*argv, "--overwrite"])


def test_a_reader_that_goes_away_is_no_traceback():
    """`truque evaluate --help | head -1`: the pipe closes before the help is written."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "from truque_cli.main import main; main(['evaluate', '--help'])"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # before the child has imported anything: its first write meets a closed pipe
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1 and "Traceback" not in stderr, stderr


def test_debug_shows_the_traceback(monkeypatch):
    with pytest.raises(ValueError, match="manos: input should be greater than or equal to 1"):
        main(["simulate", "--manos", "0", "--debug"])
    monkeypatch.setenv("TRUQUE_DEBUG", "1")
    with pytest.raises(ValueError, match="manos: input should be greater than or equal to 1"):
        main(["simulate", "--manos", "0"])


def test_simulate_gives_the_same_statistics_at_any_number_of_tables(tmp_path, capsys):
    """Issue 15.7: the manos are streams keyed by the seed, so --tables changes the speed only."""
    import json

    results = []
    for tables in (1, 5, 64):
        out = tmp_path / f"sim_{tables}.json"
        main(["simulate", "--manos", "700", "--team-size", "2", "--tables", str(tables), "--seed", "3",
              "--no-progress", "--json-out", str(out)])
        res = json.loads(out.read_text())
        res["config"].pop("tables"), res["config"].pop("json_out")
        results.append(res)
    capsys.readouterr()
    assert results[0]["manos"] == 700
    assert results[1] == results[0] and results[2] == results[0]
    main(["simulate", "--manos", "700", "--team-size", "2", "--seed", "4", "--no-progress",
          "--json-out", str(tmp_path / "other.json")])
    assert json.loads((tmp_path / "other.json").read_text())["decisions_per_mano"] != results[0]["decisions_per_mano"]


def test_simulate_argentino_with_its_options(tmp_path, capsys):
    """``--tradition argentino`` and ``--option NAME=VALUE``: without flor no flor is sung, without
    todo dicho nobody says it."""
    import json

    out = tmp_path / "a.json"
    main(["simulate", "--tradition", "argentino", "--manos", "2000", "--team-size", "2", "--no-progress",
          "--json-out", str(out)])
    plain = json.loads(out.read_text())
    assert plain["manos"] == 2000 and plain["manos_with_flor_sung"] > 0 and plain["manos_with_todo_dicho"] > 0
    out2 = tmp_path / "b.json"
    main(["simulate", "--tradition", "argentino", "--manos", "2000", "--team-size", "2", "--no-progress",
          "--option", "flor=false", "todo_dicho=no", "--json-out", str(out2)])
    capsys.readouterr()
    other = json.loads(out2.read_text())
    assert other["manos_with_flor_sung"] == 0 and other["manos_with_todo_dicho"] == 0
    assert other["tantos_per_mano"]["flor"] == 0


@pytest.mark.parametrize("module, argv, message", [
    ("train.studies.analysis.cli", ["--policy", "nobody"], "error: unknown policy 'nobody'"),
    ("train.studies.exploiter", ["--minutes", "1", "--config", "nope.toml"],
     "error: No such file or directory: nope.toml"),
    ("train.ppo.loop", ["--config", "nope.toml"], "error: No such file or directory: nope.toml"),
])
def test_the_python_m_commands_give_one_error_line_too(module, argv, message, capsys):
    """The modules run as ``python -m`` share the console's handling (truque_env.command.run_command,
    what their ``__main__`` guard calls): a user's mistake is one line, exit status 2; --debug still
    shows the traceback."""
    import importlib

    from truque_env.command import run_command

    main_ = importlib.import_module(module).main
    with pytest.raises(SystemExit) as exit_:
        run_command(main_, argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and err.startswith(message), err
    with pytest.raises((ValueError, FileNotFoundError)):
        run_command(main_, [*argv, "--debug"])


def test_python_m_wires_the_one_line_error():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "train.studies.analysis", "--policy", "nobody"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and done.stderr.startswith("error: unknown policy 'nobody'"), done.stderr
    assert "Traceback" not in done.stderr
