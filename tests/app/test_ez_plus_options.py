"""The six EZ Plus options switched on one at a time, in the app (rules70 RISK 3, fixr70b).

The engine takes ``ez+sleep_check+drops`` (profile.preset_options, fixr70's 38bc3092);
``play --preset``, ``simulate --preset``, config.toml's game.preset (file, environment,
``--set``), replay of a log whose header names such a preset, the fight-save check and the
history take exactly what it takes, and refuse anything else naming the six options."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.session import jongrogue_mode
from companion.app.config import default_config_path, load_config
from companion.app.history import default_history_path
from companion.app.modes.fight_save import refuse_another_modes
from companion.app.session.host import replay
from companion.app.session.save import AnotherModesSave, write_save
from companion.errors import DataError
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import Option

SIX = [o.value for o in Option]


def _said_the_six(text: str) -> None:
    for name in SIX:
        assert name in text, (name, text)


def _play(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["play", "--headless", *args]) == 0
    return capsys.readouterr().out


def test_a_headless_game_with_one_option_plays_resumes_replays_and_is_in_the_history(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ez+pincer plays with that option alone; its save, stopped half-way, resumes as that
    preset and its log then replays event for event; the history keeps the preset."""
    save, log = tmp_path / "save.json", tmp_path / "game.jsonl"
    out = _play(capsys, "--seed", "3", "--preset", "ez+pincer", "--state", str(save),
                "--log", str(log))
    assert "preset ez+pincer, seed 3" in out
    assert "--preset ez+pincer" in out.splitlines()[-1]  # "this game again" plays it
    whole = json.loads(save.read_text(encoding="utf-8"))
    assert whole["preset"] == "ez+pincer"
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["preset"] == "ez+pincer"
    assert main(["replay", str(log)]) == 0
    replayed = capsys.readouterr().out
    assert replayed == f"game 1 (seed 3, ez+pincer): {whole['events']} events match\n"

    assert main(["history", "--json"]) == 0
    [run] = json.loads(capsys.readouterr().out)["runs"]
    assert run["preset"] == "ez+pincer"

    # Stopped half-way (the save of its first half of inputs), not in the history yet, and
    # played on into a log of its own.
    default_history_path().unlink()
    played = load_game(save)
    assert played is not None
    half = len(played.inputs) // 2
    mode = jongrogue_mode(played, None, "sim")
    replay(mode, played.inputs[:half], None)
    write_save(save, replace(played, inputs=played.inputs[:half], events=mode.progress(),
                             finished=False, log_path=None, log_start=0))
    on = tmp_path / "on.jsonl"
    resumed = _play(capsys, "--resume", "--state", str(save), "--log", str(on))
    assert f"--- resumed from {save}: {half} inputs replayed ---" in resumed
    assert out.splitlines()[-3:] == resumed.splitlines()[-3:]  # the same end, preset and all
    again = load_game(save)
    assert again is not None and again.finished and again.inputs == played.inputs
    assert again.preset == "ez+pincer"
    assert main(["replay", str(on)]) == 0
    assert capsys.readouterr().out == replayed


def test_each_option_alone_is_played_with_only_that_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    """ez+sleep_check plays another game than ez and than plus on the same seed: the option
    reaches the engine, rather than a preset read as ez or plus."""
    ends = {preset: _play(capsys, "--seed", "7", "--preset", preset).splitlines()[-2]
            for preset in ("ez", "ez+sleep_check", "plus")}
    assert "preset ez+sleep_check, seed 7" in ends["ez+sleep_check"]
    assert len({end.split(";")[0] for end in ends.values()}) > 1


def test_play_says_a_preset_by_its_one_name(capsys: pytest.CaptureFixture[str]) -> None:
    out = _play(capsys, "--seed", "4", "--preset", "EZ+Pincer+sleep_check")
    assert "preset ez+sleep_check+pincer, seed 4" in out


@pytest.mark.parametrize("command", [["play", "--headless", "--seed", "1"],
                                     ["simulate", "--games", "1"]])
@pytest.mark.parametrize(("preset", "said"), [
    ("sleep_check", "unknown preset 'sleep_check'"),
    ("ez+drop", "'drop' is not an EZ Plus option"),
    ("ez+drops+drops", "drops is named twice"),
    ("plus+drops", "unknown preset 'plus+drops'"),
])
def test_a_bad_preset_is_refused_naming_the_six_options(
        capsys: pytest.CaptureFixture[str], command: list[str], preset: str,
        said: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--preset", preset])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err
    if "twice" not in said:
        _said_the_six(err)


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_the_help_says_how_to_switch_options_on(
        capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "ez+sleep_check+drops" in help_text
    _said_the_six(help_text)


def test_simulate_plays_a_preset_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--preset", "ez+drops", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["preset"] == "ez+drops" and result["games"] == 3


def test_config_file_environment_and_set_take_a_preset_with_options(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[game]\npreset = "ez+drops"\n', encoding="utf-8")
    config = load_config()
    assert config.text("game.preset") == "ez+drops" and not config.problems
    assert "preset ez+drops, seed 5" in _play(capsys, "--seed", "5")

    monkeypatch.setenv("COMPANION_GAME_PRESET", "EZ+Pincer+Drops")
    assert load_config().text("game.preset") == "ez+drops+pincer"
    assert load_config(overrides={"game.preset": "ez+strength"}).text("game.preset") \
        == "ez+strength"
    assert main(["config", "--show", "--set", "game.preset=ez+pc_states"]) == 0
    assert 'game.preset                  = "ez+pc_states"' in capsys.readouterr().out


def test_config_refuses_a_bad_preset_naming_the_six_options(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[game]\npreset = "ez+pincers"\n', encoding="utf-8")
    config = load_config()
    assert config.text("game.preset") == "plus"
    [problem] = config.problems
    assert "game.preset: preset 'ez+pincers': 'pincers' is not an EZ Plus option" in problem
    assert problem.endswith('; using the default "plus"')
    _said_the_six(problem)
    monkeypatch.setenv("COMPANION_GAME_PRESET", "ez+nothing")
    _said_the_six(load_config().problems[-1])
    with pytest.raises(DataError) as refused:
        load_config(overrides={"game.preset": "pluss"})
    assert 'did you mean "plus"?' in str(refused.value)
    _said_the_six(str(refused.value))


def test_replay_takes_a_header_the_engine_takes_and_names_a_bad_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    _play(capsys, "--seed", "8", "--preset", "ez+drops", "--log", str(log))
    header, *events = log.read_text(encoding="utf-8").splitlines()

    def with_preset(preset: str) -> None:
        log.write_text("\n".join([json.dumps({**json.loads(header), "preset": preset}),
                                  *events]) + "\n", encoding="utf-8")

    with_preset("EZ+Drops")  # hand-written, as the engine takes it
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.endswith(f"{len(events)} events match\n")
    with_preset("ez+drop")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert f"{log}:1: the game's preset: preset 'ez+drop': 'drop' is not an EZ Plus" in err
    _said_the_six(err)


def test_a_games_save_of_a_preset_with_options_is_known_where_a_table_saves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fight tables' check: a game of ez+pincer left where a table saves is that game's,
    left as it is, not read as a broken table save."""
    save = tmp_path / "save.json"
    _play(capsys, "--seed", "3", "--preset", "ez+pincer", "--state", str(save))
    with pytest.raises(AnotherModesSave) as another:
        refuse_another_modes(save.read_text(encoding="utf-8"), str(save), save,
                             "a genso table's save", "the genso table", "genso/table.json")
    assert "holds a game of JongRogue (ez+pincer)" in str(another.value)


def _encounter(**states: bool) -> Event:
    return Event(Kind.ENCOUNTER, {
        "uid": 4, "monster": "K", "name_ja": "大はやぶさ", "name_en": "kestrel", "spot": 1,
        "sleep": "awake", "sleep_check": None, "on_gold": False, **states})


def test_the_encounter_line_says_a_hasted_or_invisible_monster() -> None:
    """rules70 NIT 4: JR-AB-HASTE and JR-AB-INVISIBLE, the states the seed has marked with a
    post-it (JR-STATE-3), are in the encounter line as on the screen; an event logged without
    the keys, and a monster with neither state, read as before."""
    plain = "Monster #4: 大はやぶさ (kestrel), awake (起)"
    assert describe(_encounter(hasted=True, invisible=False)) == f"{plain}, hasted (倍速)"
    assert describe(_encounter(hasted=False, invisible=True)) == f"{plain}, invisible (透明)"
    assert describe(_encounter(hasted=False, invisible=False)) == plain
    assert describe(_encounter()) == plain


def test_a_played_games_log_names_its_hasted_monster(capsys: pytest.CaptureFixture[str]) -> None:
    """The kestrel (大はやぶさ) of plus reckless seed 7, as the audit found it unnamed."""
    out = _play(capsys, "--seed", "7", "--preset", "plus", "--strategy", "reckless")
    kestrel = next(line for line in out.splitlines() if line.startswith("Monster #4:"))
    assert kestrel.endswith("0 ring(s)), hasted (倍速)")
