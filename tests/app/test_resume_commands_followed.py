"""journey71: a laptop's player follows the resume commands the companion says.

The edges: the player at a terminal (a pty, a child process, as they type), or the
player's presses scripted (:class:`~tests.app.table.Player`) where a save is only made.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play import jongrogue_mode
from companion.app.commands.play.saves import load_game, log_header, resuming
from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.session.host import Session
from companion.app.session.save import SaveGame, profile_hash, write_save
from companion.systems.jongrogue.autoplay import find_strategy
from companion.systems.jongrogue.profile import load_played_profile
from tests.app.play_pty_helpers import Terminal
from tests.app.power_cuts import cut_after_saves
from tests.app.system_menu_helpers import SEED, SYSTEM, before_the_first_choice
from tests.app.table import Player

ARGS = {"mode": None, "headless": False, "resume": True, "input": None, "choices": None,
        "display": None, "rfid_kind": None, "rfid_port": None, "dice": None, "d100": None,
        "fight": None, "state": None, "log": None, "profile": None, "preset": None,
        "strategy": None, "seed": None}


def players_sim_save(path: Path) -> SaveGame:
    """A player's unfinished game on the simulated wall, saved at ``path`` after its first
    choice (the player stopped there: a power cut)."""
    _, _, first = before_the_first_choice()
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious", input_kind="sim",
                    player_chose=True)
    mode = jongrogue_mode(save, None, "sim")
    assert mode.sim is not None
    session = Session(mode, choices=Player([first]), tiles=SimTiles(mode.game, mode.sim),
                      save=save, save_path=path)
    session.keep_saved(starting=True)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    saved = load_game(path)
    assert saved is not None and saved.inputs and not saved.finished
    return saved


def laptop(tmp_path: Path) -> dict[str, str]:
    """A laptop's environment: no config.toml, so the tiles are the default's, the camera
    (none here). No input kind is named: one named, by config.toml or the environment, is
    kept for the run's new games (reviewj71 DEFECT 1)."""
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_INPUT_KIND"}
    return {**env, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
            "COMPANION_DATA_DIR": str(tmp_path / "data"), "SDL_VIDEODRIVER": "dummy",
            "COLUMNS": "100"}


def new_game_from_the_system_menu(tmp_path: Path, env: dict[str, str]
                                  ) -> tuple[Terminal, SaveGame, Path]:
    """A player's sim game resumed with `play --resume --choices keyboard --display
    terminal`, as the Ctrl-C line of a laptop said, then s → New game → Yes → OK."""
    save = tmp_path / "data" / "save.json"
    save.parent.mkdir(parents=True)
    old = players_sim_save(save)
    term = Terminal(["--resume", "--choices", "keyboard", "--display", "terminal"], env)
    asked = "\n"  # any screen of the resumed game: it waits for the player's choice
    term.answer(asked, 1, b"s")
    term.answer(SYSTEM, 1, b"2")  # New game
    term.answer("Leave this game for a new one?", 1, b"2", pause=1.0)  # Yes
    term.answer("(a) OK", 1, b"\r", pause=1.0)  # OK: the old game kept as …replaced-…
    return term, old, save


def test_a_resumed_simulated_wall_game_plays_its_new_game_on_the_simulated_wall(
        tmp_path: Path) -> None:
    """journey71 DEFECT 1: `play --resume --choices keyboard --display terminal`, as the
    Ctrl-C line said, carried the sim game on; its System menu's New game then took
    default camera (no config.toml), and the run ended in "Picamera2 is not installed",
    exit 1."""
    term, old, save = new_game_from_the_system_menu(tmp_path, laptop(tmp_path))
    # The new game's first choice, answered as it is lit: a move its save then holds.
    term.answer("▶", term.text().count("▶") + 1, b"\r", pause=1.0)
    new: SaveGame | None = None
    for _ in range(300):
        new = load_game(save)
        if new is not None and new.game_id != old.game_id:
            break
        term.answer("", 0, b"")
    term.proc.terminate()
    code = term.finish()
    err = term.proc.stderr.read().decode() if term.proc.stderr else ""
    assert new is not None and new.game_id != old.game_id, err
    assert new.input_kind == "sim"
    assert "Picamera2" not in err and "camera" not in err.lower(), err
    assert code == 130, err
    assert [p.name.startswith("save.json.replaced-") for p in save.parent.iterdir()
            if p.name != "save.json"] == [True]
    # The stop's line carries the run's tiles too: the simulated wall, said.
    assert err.splitlines()[-1].endswith(
        "play --resume --input sim --choices keyboard --display terminal carries on"), err


def test_a_new_game_takes_the_input_config_toml_names_not_the_resumed_games_sim(
        tmp_path: Path) -> None:
    """reviewj71 DEFECT 1: the Pi's service (`play --resume`, config.toml's camera) resumed
    a game someone played on the simulated wall; its New game stayed on the simulated wall
    and was saved so, and every later boot carried it on, the table's camera never opened
    again from the buttons. config.toml's kind is the new game's: the camera is opened
    (none here: its refusal, as before journey71)."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('[input]\nkind = "camera"\n', encoding="utf-8")
    term, old, save = new_game_from_the_system_menu(tmp_path, laptop(tmp_path))
    code = term.finish()
    err = term.proc.stderr.read().decode() if term.proc.stderr else ""
    assert code == 1, err
    assert "Picamera2 is not installed" in err, err
    # No game was saved on the simulated wall: the one set aside is back, as it was.
    assert "the new game stopped before its first move: the unfinished game is back in" \
        in err, err
    assert load_game(save) == old, err


def test_the_laptop_hint_for_a_simulated_wall_save_says_input_sim(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey71 DEFECT 1: no buttons here, the hint's resume leaves the run's new games on
    the simulated wall (config.toml's camera, none here, stopped them)."""
    for key, value in laptop(tmp_path).items():
        monkeypatch.setenv(key, value)
    save = tmp_path / "data" / "save.json"
    save.parent.mkdir(parents=True)
    players_sim_save(save)
    capsys.readouterr()
    assert main(["play", "--resume", "--display", "terminal", "--choices", "gpio"]) != 0
    err = capsys.readouterr().err
    assert ("no camera, buttons or screen here (a laptop)? companion play --resume --input "
            "sim --choices keyboard --display terminal plays the saved game on with the "
            "keys") in err, err


def test_a_headless_resume_names_a_players_set_aside_game_with_a_command_that_plays_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey71 DEFECT 2: `play --headless --resume` finding only a player's game set aside
    (``save.json.replaced-…``, the System menu's New game) named it with `--resume
    --headless --state …`, which refuses a player's game (exit 2). The command said plays
    it on, with the keys at a terminal."""
    env = laptop(tmp_path)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    kept = tmp_path / "data" / "save.json.replaced-20261207T000000Z"
    kept.parent.mkdir(parents=True)
    players_sim_save(kept)
    capsys.readouterr()
    assert main(["play", "--headless", "--resume"]) == 0
    err = capsys.readouterr().err
    said = f"companion play --mode game --resume --input sim --choices keyboard --display " \
           f"terminal --state {kept} plays it on; starting a new one"
    assert said in err, err
    words = said.split(" plays it on")[0].split()
    assert words[:2] == ["companion", "play"] and "--headless" not in words
    term = Terminal(words[2:], env)  # as the player types it
    term.answer("▶", 1, b"")  # the game, waiting for the player's choice
    term.proc.terminate()
    code = term.finish()
    err = term.proc.stderr.read().decode() if term.proc.stderr else ""
    assert code == 130 and "error" not in err, err
    assert err.splitlines()[-1].endswith(f"--state {kept} carries on"), err


def test_every_kept_copys_command_is_one_its_game_takes(tmp_path: Path) -> None:
    """The copies a headless run names (``.unwritten-``, ``.newer-``, ``.corrupt-``, and the
    set-aside games) share :func:`resuming`: a player's game is never given `--headless`;
    an auto-player's game, or one that cannot be read, keeps the run's own flags."""
    players = tmp_path / "save.json.unwritten-20261207T000000Z"
    players_sim_save(players)
    headless = argparse.Namespace(**{**ARGS, "headless": True})
    assert "--headless" not in resuming(headless, players)
    auto = tmp_path / "auto.json"
    auto.write_text(SaveGame(seed=1, preset="plus", input_kind="sim").to_json(),
                    encoding="utf-8")
    assert resuming(headless, auto) == f"companion play --resume --headless --state {auto}"
    unread = tmp_path / "save.json.corrupt-20261207T000000Z"
    unread.write_bytes(b"\0" * 10)
    assert resuming(headless, unread) == f"companion play --resume --headless --state {unread}"


def test_a_save_set_aside_for_its_edited_profile_says_it_plays_on_once_the_profile_is_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey71 item 4: the save whose profile was edited is kept as ``.corrupt-…``, and
    said with no word that it is whole: it plays on with the profile put back, by the
    command said."""
    for key, value in laptop(tmp_path).items():
        monkeypatch.setenv(key, value)
    mine = tmp_path / "mine.toml"
    mine.write_text("[combat]\nthaw = 1\n", encoding="utf-8")
    save = tmp_path / "data" / "save.json"
    save.parent.mkdir(parents=True)
    played = SaveGame(seed=SEED, preset="plus", strategy="cautious", input_kind="sim",
                      profile_path=str(mine), profile_hash=profile_hash(mine))
    mode = jongrogue_mode(played, load_played_profile(mine)[0], "sim")
    assert mode.sim is not None
    session = Session(mode, choices=AutoChoices(mode.game, find_strategy("cautious")),
                      tiles=CutTiles(SimTiles(mode.game, mode.sim), 5), save=played,
                      save_path=save)
    session.keep_saved(starting=True)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    mine.write_text("[combat]\nthaw = 2\n", encoding="utf-8")  # edited meanwhile
    capsys.readouterr()
    assert main(["play", "--headless", "--resume"]) == 0
    err = capsys.readouterr().err
    kept = next(save.parent.glob("save.json.corrupt-*"))
    assert (f"companion: the save {save} cannot be resumed (the profile {mine} changed since "
            "this game was saved (the file, or a packaged value it leaves out)); it was kept "
            f"as {kept}; it plays on once that profile is back, with `companion play "
            f"--resume --headless --state {kept}`; starting a new game\n") in err, err
    mine.write_text("[combat]\nthaw = 1\n", encoding="utf-8")  # put back
    assert main(["play", "--resume", "--headless", "--state", str(kept)]) == 0
    assert "--- resumed from" in capsys.readouterr().out


class CutTiles:
    """The simulated wall, until the power goes before draw number ``cut``."""

    def __init__(self, inner: SimTiles, cut: int) -> None:
        self.inner, self.left = inner, cut

    def next_tile(self, ask: Any, show: Any) -> Any:
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return self.inner.next_tile(ask, show)

    def ready(self) -> bool:
        return True

    def close(self) -> None:
        return None


@pytest.mark.parametrize("mode", ["genso", "coc", "dice"])
def test_a_tables_resume_command_keeps_the_input_its_system_menus_game_plays_by(
        mode: str) -> None:
    """reviewm74 RISK 1: a table's run given ``--input sim`` (a laptop's) was resumed by a
    command without it, and the resumed run's System menu -> JongRogue stopped on the
    camera it wanted. A game's resume takes its input from its save, as before."""
    from companion.app.commands.play.telling import resume_command

    table = argparse.Namespace(**{**ARGS, "mode": mode, "input": "sim",
                                  "choices": "keyboard", "display": "terminal"})
    assert resume_command(table, mode).endswith(
        f"play --mode {mode} --resume --input sim --choices keyboard --display terminal")
    game = argparse.Namespace(**{**ARGS, "input": "camera"})
    assert "--input" not in resume_command(game)


def kept_aside_notice(err: str) -> list[str]:
    """The words of the command the ``.replaced-`` notice in ``err`` says plays the kept
    game on, ``companion`` first."""
    line = next(line for line in err.splitlines() if "To play that one on later" in line)
    return line.split("To play that one on later, ", 1)[1].split(": ", 1)[1].split()


def test_a_kept_games_command_carries_it_on_in_its_own_log_not_the_new_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey75 DEFECT 1: a game begun with --log A.jsonl, set aside by a new game with
    --log B.jsonl, was said to play on with --log B.jsonl: followed, the old game's lines
    stayed cut short in A and the whole game went into the new game's B. The command takes
    the kept game's own log; followed, A holds that game whole and B the new one alone."""
    state, own, new = tmp_path / "s.json", tmp_path / "A.jsonl", tmp_path / "B.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(state), "--log",
                     str(own)]) == 130
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(state), "--log",
                 str(new)]) == 0
    words = kept_aside_notice(capsys.readouterr().err)
    kept = next(tmp_path.glob("s.json.replaced-*"))
    assert words == ["companion", "play", "--resume", "--headless", "--state", str(kept),
                     "--log", str(own)]
    assert main(words[1:]) == 0
    capsys.readouterr()
    assert main(["replay", str(own)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("(seed 8, plus): 1501 events match")
    assert main(["replay", str(new)]) == 0
    assert [line.split(":")[0] for line in capsys.readouterr().out.splitlines()] == [
        f"game 1 (seed {SEED}, plus)"]


@pytest.mark.parametrize("log_there", [True, False])
def test_a_kept_players_games_command_names_its_own_log_while_it_is_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], log_there: bool) -> None:
    """journey75 DEFECT 1, the keyboard case: a player's game begun with --log, set aside
    by a headless run without one, was said with no --log at all; its own log is said while
    that file is there (a gone one holds nothing to carry on: none is said)."""
    save, log = tmp_path / "save.json", tmp_path / "l.jsonl"
    saved = players_sim_save(save)
    saved.log_path = str(log)
    write_save(save, saved)
    if log_there:  # its lines there begin with its header (own_log reads it)
        log.write_text(log_header(saved)[0] + "\n", encoding="utf-8")
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    words = kept_aside_notice(capsys.readouterr().err)
    kept = next(tmp_path.glob("save.json.replaced-*"))
    assert words[-4:] == (["--state", str(kept), "--log", str(log)] if log_there
                          else ["--display", "terminal", "--state", str(kept)])
    assert "--headless" not in words


def test_the_hint_for_a_log_not_carried_on_says_the_game_as_its_stop_line_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """journey75 NIT 4: a game on the simulated wall begun with --preset ez and --log,
    resumed without --log, was hinted at as `play --resume --choices … --log …`, dropping
    the --input sim and --preset ez the stop line says: a run started from the hint gave
    its New game config.toml's tiles and rules. The hint is the stop line's, with --log."""
    log = tmp_path / "l.jsonl"
    table = ["--choices", "auto", "--display", "none"]
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--input", "sim", *table, "--preset", "ez", "--seed", "8",
                     "--log", str(log)]) == 130
    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(5))
        assert main(["play", "--resume", *table]) == 130
    err = capsys.readouterr().err.splitlines()
    stop = err[-1].split(": ", 2)[2].removesuffix(" carries on")
    assert stop.startswith("companion play --resume --input sim --preset ez "), err
    assert (f"companion: this game's log {log} is not carried on (no --log); `{stop} --log "
            f"{log}` carries the game on with its log, written whole") in err, err


def killed_logged_game(state: Path, log: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    """The auto-player's game of seed 8 saved in ``state`` and logged in ``log``, stopped
    after 20 saves (a power cut)."""
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(20))
        assert main(["play", "--headless", "--seed", "8", "--state", str(state), "--log",
                     str(log)]) == 130
    capsys.readouterr()


@pytest.mark.parametrize("there", ["another game's log", "notes", "a named pipe"])
def test_a_kept_games_command_names_its_log_only_while_that_file_holds_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], there: str) -> None:
    """reviewjourney75 RISK 4: the kept game's log was named because a file was there: its
    log moved away and another game's log made under its name, the notice said the kept
    game carries on "in its own log", another's; notes there, the command said was refused
    ("not a log `companion play --log` wrote"). A pipe there is not waited on. The log is
    named only when the game's header is where its save says its lines begin."""
    state, log = tmp_path / "s.json", tmp_path / "A.jsonl"
    killed_logged_game(state, log, monkeypatch, capsys)
    log.rename(tmp_path / "A.old.jsonl")
    if there == "another game's log":
        assert main(["play", "--headless", "--seed", "5", "--state", str(tmp_path / "z.json"),
                     "--log", str(log)]) == 0
    elif there == "notes":
        log.write_text("my notes\n", encoding="utf-8")
    else:
        os.mkfifo(log)
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(state)]) == 0
    words = kept_aside_notice(capsys.readouterr().err)
    kept = next(tmp_path.glob("s.json.replaced-*"))
    assert words == ["companion", "play", "--resume", "--headless", "--state", str(kept)]


def test_a_newer_companions_kept_save_is_named_with_its_own_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewjourney75 RISK 5: a save a newer companion wrote (rules 17), kept as
    ``.newer-…``, was named with no --log, though the run said its own, the game's: once
    updated, the command played it on unlogged. Its log is read from its JSON, which this
    companion cannot read as a save."""
    state, log = tmp_path / "s.json", tmp_path / "A.jsonl"
    killed_logged_game(state, log, monkeypatch, capsys)
    raw = json.loads(state.read_text(encoding="utf-8"))
    raw["rules"] = 17
    state.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(state), "--log",
                 str(tmp_path / "B.jsonl")]) == 0
    err = capsys.readouterr().err
    kept = next(tmp_path.glob("s.json.newer-*"))
    assert (f"(update this companion (git pull, then bash scripts/install-pi.sh) to carry it "
            f"on: then `companion play --resume --headless --state {kept} --log {log}` does)"
            ) in err, err


def followed_from_another_folder(words: list[str], tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> Path:
    """Runs the command ``words`` (``companion`` first) from tmp_path/elsewhere, a new
    folder, and checks that it carried killed_logged_game's game on into w/A.jsonl whole.
    Gives that folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(words[1:]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "w" / "A.jsonl")]) == 0
    assert capsys.readouterr().out == "game 1 (seed 8, plus): 1501 events match\n"
    return elsewhere


def test_a_kept_games_command_given_a_relative_state_works_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewjourney75 RISK 2: the command said --state as this run was given it (w/s.json…,
    relative) beside the kept game's --log, absolute: run from another folder it found no
    save there, started a new random game and logged it in the kept game's log. --state is
    said absolute; followed from another folder, the kept game plays on in its log."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    killed_logged_game(Path("w/s.json"), Path("w/A.jsonl"), monkeypatch, capsys)
    assert main(["play", "--headless", "--seed", str(SEED), "--state", "w/s.json", "--log",
                 "w/B.jsonl"]) == 0
    words = kept_aside_notice(capsys.readouterr().err)
    kept = next((tmp_path / "w").glob("s.json.replaced-*"))
    assert words[words.index("--state") + 1] == str(kept)
    elsewhere = followed_from_another_folder(words, tmp_path, monkeypatch, capsys)
    assert not any(elsewhere.iterdir())


def test_the_hint_for_a_log_not_carried_on_says_an_absolute_state(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewjourney75 RISK 2, the "(no --log)" hint: it said a relative --state beside the
    game's absolute log. Its --state is absolute, and it carries the game on from another
    folder, into its log."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    killed_logged_game(Path("w/s.json"), Path("w/A.jsonl"), monkeypatch, capsys)
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(5))
        assert main(["play", "--headless", "--resume", "--state", "w/s.json"]) == 130
    hint = next(line for line in capsys.readouterr().err.splitlines()
                if "is not carried on (no --log)" in line)
    words = hint.split("`")[1].split()
    assert words[words.index("--state") + 1] == str(tmp_path / "w" / "s.json")
    followed_from_another_folder(words, tmp_path, monkeypatch, capsys)


def test_a_game_whose_log_is_gone_is_said_to_go_on_unlogged_with_no_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewjourney75 RISK 6: a game logged on a USB stick, the stick taken out, resumed
    without --log: the hint said `… --log /media/…/A.jsonl` carries it on; followed, the
    stick's folder was made anew on the SD card. A gone log is said to be gone, no command
    naming it; the game goes on unlogged and nothing is made where the stick was."""
    state, usb = tmp_path / "s.json", tmp_path / "usb"
    usb.mkdir()
    killed_logged_game(state, usb / "A.jsonl", monkeypatch, capsys)
    usb.rename(tmp_path / "usb.away")
    assert main(["play", "--headless", "--resume", "--state", str(state)]) == 0
    err = capsys.readouterr().err
    assert (f"companion: this game's log {usb / 'A.jsonl'} is not there (a disk taken out, or "
            "the file moved): the game goes on unlogged (with the log back, a resume without "
            "--log says the command that writes it whole)\n") in err, err
    assert "--log" not in err.replace("without --log", "")
    assert not usb.exists()


def test_a_resume_of_a_kept_copy_that_is_not_there_begins_no_game_under_its_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped stamp (or a copy resumed and finished before): `--resume --state
    save.json.replaced-…` began a new game in that name, a kept copy's, which the next new
    game set aside as ….replaced-….replaced-…. It is refused, naming the copies there."""
    kept = tmp_path / "save.json.replaced-20261201T101010Z"
    (tmp_path / "save.json.replaced-20261130T090000Z").write_text("{}", encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: {kept}: no such file, so no game kept in it to resume (no new game "
        "is begun under a kept copy's name); the copies kept beside it: "
        "save.json.replaced-20261130T090000Z\n")
    assert not kept.exists()
