"""`companion play` as the player meets it: keys in a terminal, the screen, bad saves, flags."""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.config import load_config
from companion.app.history import History
from companion.app.session.host import Session
from companion.app.session.save import (
    CorruptSave,
    SaveGame,
    default_save_path,
    write_save,
)
from companion.errors import DataError
from companion.systems.jongrogue.game import RULES_REVISION
from tests.app.power_cuts import cut_after_saves, cut_short

SEED = 2
#: A player confirming the highlighted choice as fast as the game goes, a and Space in
#: turn: the same key every 0.05 s is a held key's auto-repeat, one press (keys68).
CONFIRMS = (b"a", b" ")


def test_keyboard_game_in_a_terminal(tmp_path: Path) -> None:
    """Keys on a pty drive the game and the terminal shows each step; Ctrl-C stops it saved,
    and --resume plays it on to the end."""
    master, slave = os.openpty()
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "COLUMNS": "100"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--input", "sim", "--choices", "keyboard",
         "--display", "terminal", "--seed", str(SEED)],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    seen = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    save_path = tmp_path / "data" / "save.json"
    deadline = time.monotonic() + 30
    confirms = itertools.cycle(CONFIRMS)
    while time.monotonic() < deadline and proc.poll() is None:
        os.write(master, next(confirms))  # attack / confirm: the highlighted choice
        time.sleep(0.05)
        if save_path.exists() and len(SaveGame.from_json(save_path.read_text()).inputs) > 30:
            break
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130, proc.stderr.read() if proc.stderr else b""
    assert proc.stderr is not None
    # Said where it is kept and how to go on (it ended in silence).
    assert proc.stderr.read().decode().endswith(
        f"companion: stopped; the game is saved in {save_path}: companion play --resume "
        "--input sim --choices keyboard --display terminal carries on\n")  # journey71 D1
    os.close(master)
    reader.join(timeout=5)
    text = seen.decode("utf-8", errors="replace")
    assert "Floor 1 1階" in text and "Fight 戦う" in text and "Lv 1" in text
    saved = SaveGame.from_json(save_path.read_text())
    assert len(saved.inputs) > 30 and not saved.finished and saved.input_kind == "sim"

    done = subprocess.run(
        [sys.executable, "-m", "companion", "play", "--resume", "--choices", "auto",
         "--display", "none"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    finished = SaveGame.from_json(save_path.read_text())
    assert finished.finished and finished.game_id == saved.game_id
    assert finished.inputs[: len(saved.inputs)] == saved.inputs
    runs = History(tmp_path / "data" / "history.sqlite3").runs()
    assert [r.game_id for r in runs] == [saved.game_id]


def test_screen_game_with_auto_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DISPLAY_FULLSCREEN", "false")
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "screen",
                 "--seed", str(SEED)]) == 0
    saved = load_game(default_save_path())
    assert saved is not None and saved.finished
    assert History().totals().games == 1


def test_corrupt_save_is_kept_and_a_new_game_starts(capsys: pytest.CaptureFixture[str]) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "seed": ')
    assert main(["play", "--headless", "--resume", "--seed", str(SEED)]) == 0
    err = capsys.readouterr().err
    assert "the save could not be read" in err and "starting a new game" in err
    assert "Traceback" not in err
    kept = list(path.parent.glob("save.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == '{"version": 1, "seed": '
    saved = load_game(path)
    assert saved is not None and saved.finished


def test_resume_without_a_save_starts_a_new_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--headless", "--resume", "--seed", str(SEED)]) == 0
    assert "no saved game" in capsys.readouterr().err


def test_a_new_game_keeps_an_unfinished_save_aside(capsys: pytest.CaptureFixture[str]) -> None:
    unfinished = SaveGame(seed=SEED, preset="plus", inputs=["4m"], events=3)
    write_save(default_save_path(), unfinished)
    assert main(["play", "--headless", "--state", str(default_save_path()),
                 "--seed", str(SEED)]) == 0
    err = capsys.readouterr().err
    assert "is kept as save.json.replaced-" in err
    kept = list(default_save_path().parent.glob("save.json.replaced-*"))
    assert SaveGame.from_json(kept[0].read_text()) == unfinished
    # How to take it up again is said (nothing said it): the command resumes it.
    command = f"companion play --resume --headless --state {kept[0]}"
    assert f"To play that one on later, on the simulated wall (no table needed): {command}" \
        in err
    assert main(shlex.split(command)[1:]) == 0
    assert len(SaveGame.from_json(kept[0].read_text()).inputs) > 1


def test_a_game_cut_before_its_first_step_resumes(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The save written as a game starts already counts its opening event (floor 1)."""
    def power_cut(self: Session) -> None:
        raise KeyboardInterrupt

    saved = cut_short("run", power_cut, SEED, monkeypatch)
    assert saved.inputs == [] and saved.events == 1
    assert main(["play", "--headless", "--resume"]) == 0
    assert "cannot be resumed" not in capsys.readouterr().err
    finished = load_game(default_save_path())
    assert finished is not None and finished.finished and finished.game_id == saved.game_id


def test_finished_save_is_recorded_once_then_a_new_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--headless", "--state", str(default_save_path()),
                 "--seed", str(SEED)]) == 0
    first = load_game(default_save_path())
    assert first is not None and first.finished and History().totals().games == 1
    assert main(["play", "--headless", "--resume", "--seed", "7"]) == 0
    assert "the saved game is over; starting a new one" in capsys.readouterr().err

    runs = History().runs()
    assert len(runs) == 2 and runs[0].game_id == first.game_id


def test_a_finished_save_missing_from_the_history_is_recorded_by_a_new_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A cut between a game's last save and its history entry: the next game records it,
    resumed or not."""
    assert main(["play", "--headless", "--state", str(default_save_path()),
                 "--seed", str(SEED)]) == 0
    first = load_game(default_save_path())
    assert first is not None and first.finished
    History().path.unlink()  # the entry the cut lost
    assert main(["play", "--headless", "--state", str(default_save_path()), "--seed", "7"]) == 0
    runs = History().runs()
    assert len(runs) == 2 and runs[0].game_id == first.game_id


@pytest.mark.parametrize("change, why", [("gone", "which is missing"),
                                         ("edited", "changed since this game was saved")])
def test_a_finished_save_that_no_longer_replays_does_not_stop_the_next_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, why: str) -> None:
    """What the boot service's --resume finds when the profile of the finished game (not
    in the history: cut off before it) was since deleted or edited."""
    profile = tmp_path / "mine.toml"
    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    profile.write_text(packaged.read_text("utf-8"))
    assert main(["play", "--headless", "--state", str(default_save_path()), "--seed", str(SEED),
                 "--profile", str(profile)]) == 0
    History().path.unlink()
    if change == "gone":
        profile.unlink()
    else:
        profile.write_text(profile.read_text().replace("max_hp_base = 12", "max_hp_base = 30"))
    assert main(["play", "--headless", "--resume", "--seed", "7"]) == 0
    err = capsys.readouterr().err
    assert "could not be put in the history" in err and why in err
    assert "the saved game is over; starting a new one" in err
    assert len(History().runs()) == 1


def test_headless_output_and_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == "=== Floor 1 (第1階層) ==="  # after who plays it
    assert "Result: died on floor" in out or "Result: 生還" in out
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["log"] == "jongrogue-companion" and lines[0]["seed"] == SEED
    assert lines[1]["kind"] == "floor" and lines[-1]["kind"] == "game_over"
    assert not default_save_path().exists()  # headless saves only when asked
    assert History().runs() == []  # nor does it go into the player's history


def test_a_headless_game_asked_to_save_goes_into_the_history() -> None:
    assert main(["play", "--headless", "--seed", str(SEED), "--state",
                 str(default_save_path())]) == 0
    assert [r.seed for r in History().runs()] == [SEED]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--headless", "--input", "camera"], "--headless plays with --input sim"),
        (["--headless", "--pace", "-1"], "--pace must be 0 or more"),
        (["--input", "sim", "--choices", "keyboard", "--display", "none"],
         "with --display none nothing shows the choices"),
        # NaN passes every bound; keys piped in would leave the game waiting for ever.
        (["--headless", "--pace", "nan"], "--pace: game.pace_seconds must be a number, found nan"),
        (["--input", "sim", "--choices", "keyboard", "--display", "terminal"],
         "--choices keyboard reads keys from a terminal, and standard input is not one"),
    ],
)
def test_bad_arguments_exit_2(argv: list[str], message: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *argv]) == 2
    assert message in capsys.readouterr().err


def test_sigterm_stops_a_game_saved(tmp_path: Path) -> None:
    """systemd's stop: the game ends as with Ctrl-C (exit 130) and the save is whole."""
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--headless", "--seed", "11",
         "--state", str(tmp_path / "s.json"), "--pace", "0.02"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not (tmp_path / "s.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 130
    saved = load_game(tmp_path / "s.json")
    assert saved is not None and saved.inputs and not saved.finished


def test_corrupt_save_asks_before_a_new_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the table the player is asked: A starts a new game, B quits."""
    from companion.app.commands import play as play_command
    from companion.app.session.controls import Controls
    from companion.hw.buttons import Button

    class Screen:
        def __init__(self, presses: list[Button]) -> None:
            self.presses = presses
            self.prompts: list[str] = []

        def show(self, view: object) -> None:
            self.prompts.append(getattr(view, "prompt", ""))

        def poll(self) -> list[Button]:
            # The player presses once the question is on the screen.
            return [self.presses.pop(0)] if self.presses and self.prompts else []

        def close(self) -> None:
            return None

    for press, answer in ((Button.ATTACK, True), (Button.FLEE, False)):
        screen = Screen([press])
        assert play_command.tell("the save could not be read. Start a new game?", screen,
                             Controls([screen]), ask=True) is answer
        assert screen.prompts == ["the save could not be read. Start a new game?"]


def test_no_gpio_here_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Off a Pi the buttons cannot work: one line saying why (it was gpiozero's "Unable to
    load any default pin factory!") and the setting that plays without them for good, no
    traceback."""
    assert main(["play", "--input", "sim", "--display", "terminal"]) == 1
    err = capsys.readouterr().err
    assert ("companion: error: the buttons cannot be used: no GPIO here: this is not a "
            "Raspberry Pi; without them, play with --choices keyboard, or set kind = "
            f'"keyboard" under [choices] in {load_config().path}\n') in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("argv", "hint"), [
    # The environment wins over config.toml: the hint names the variable (a77setup DEFECT 1).
    ([], "play with --choices keyboard, or set COMPANION_CHOICES_KIND=keyboard (the "
         "environment sets choices.kind, over config.toml; or unset it)\n"),
    # A flag typed wins over both: the hint is the flag.
    (["--choices", "gpio"], "play with --choices keyboard\n"),
])
def test_no_gpio_here_names_where_the_buttons_were_chosen(
        argv: list[str], hint: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """config.toml already said ``kind = "keyboard"``, and the hint sent the player there."""
    path = load_config().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[choices]\nkind = "keyboard"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_CHOICES_KIND", "gpio")
    assert main(["play", "--input", "sim", "--display", "terminal", *argv]) == 1
    err = capsys.readouterr().err
    first = err.splitlines(keepends=True)[0]
    assert first.startswith("companion: error: the buttons cannot be used: no GPIO here")
    assert first.endswith(hint) and "config.toml\n" not in first


@pytest.mark.parametrize("argv", [
    ["--display", "terminal"],  # the buttons fail first, off a Pi
    ["--choices", "auto", "--display", "terminal"],  # then the Pi camera
])
def test_a_device_missing_tells_how_to_play_with_none(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A laptop's player met the screen, the buttons and the camera refused one run after
    another, and no message said how to play without them."""
    assert main(["play", *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: error: ") and err.count("companion: error") == 1
    assert err.endswith("companion: no camera, buttons or screen here (a laptop)? companion "
                        "play --input sim --choices keyboard --display terminal plays the "
                        "simulated wall with the keys\n")


def test_a_device_missing_at_a_dice_table_gives_no_game_hint(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The hint is a JongRogue game's: at the dice tray the buttons' error stands alone."""
    assert main(["play", "--mode", "dice", "--choices", "gpio", "--display", "terminal"]) == 1
    assert "a laptop" not in capsys.readouterr().err


def test_the_terminal_reads_the_keys_it_shows_beside_the_buttons(tmp_path: Path) -> None:
    """With the buttons (choices.kind = "gpio", as install-pi.sh writes it) the terminal
    showed "(a) Fight" and read no key: a game played over SSH looked frozen."""
    master, slave = os.openpty()
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "COLUMNS": "100",
           "GPIOZERO_PIN_FACTORY": "mock"}  # buttons that work, and nobody presses
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--input", "sim", "--choices", "gpio",
         "--display", "terminal", "--seed", str(SEED)],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env)
    os.close(slave)
    os.set_blocking(master, False)
    save_path = tmp_path / "data" / "save.json"
    inputs = 0
    try:
        deadline = time.monotonic() + 20
        confirms = itertools.cycle(CONFIRMS)
        while time.monotonic() < deadline and proc.poll() is None and inputs <= 10:
            os.write(master, next(confirms))
            time.sleep(0.05)
            with contextlib.suppress(OSError, ValueError):  # read while it is written
                inputs = len(SaveGame.from_json(save_path.read_text()).inputs)
            with contextlib.suppress(OSError):
                os.read(master, 65536)  # what was drawn, so that the terminal never fills
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        os.close(master)
    assert inputs > 10, proc.stderr.read() if proc.stderr else b""


def test_a_camera_source_that_is_no_camera_names_its_key_and_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """[input] camera_source = "webcam" said only "webcam: no such camera ...". A path not
    there is a setting to mend, said at play's start as config --show says it, with no
    "no camera, buttons or screen here (a laptop)?" after it (setup75 RISK 3)."""
    path = load_config().path
    path.parent.mkdir(parents=True)
    path.write_text('[input]\ncamera_source = "webcam"\n', encoding="utf-8")
    assert main(["play", "--input", "camera", "--choices", "auto", "--display", "none"]) == 2
    err = capsys.readouterr().err
    assert err == (f"companion: error: input.camera_source ({path}): {path.parent / 'webcam'}: "
                   "no such picture, folder or video (the relative path webcam is taken from "
                   "config.toml's folder); cameras are camera:0, /dev/video0 or picamera (mend "
                   "it, then check with companion config --show)\n")


def test_a_camera_source_in_the_home_of_no_user_here_stops_play_with_what_to_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``~pi/pics`` from a config.toml copied off a Pi, where there is no user pi, ended
    play in pathlib's "Could not determine home directory" traceback (reviewsetup75
    DEFECT 1): it is a setting to mend, named as config --show names it."""
    path = load_config().path
    path.parent.mkdir(parents=True)
    path.write_text('[input]\ncamera_source = "~nosuchuser/pics"\n', encoding="utf-8")
    assert main(["play", "--input", "camera", "--choices", "auto", "--display", "none"]) == 2
    assert capsys.readouterr().err == (
        f"companion: error: input.camera_source ({path}): ~nosuchuser/pics: there is no user "
        "nosuchuser here, so ~nosuchuser cannot be expanded: give the full path (mend it, "
        "then check with companion config --show)\n")


def test_a_pi_camera_without_picamera2_stops_the_game_with_what_to_do(
        tmp_path: Path) -> None:
    """The game waited for a tile for ever under "Picamera2 is not installed" (it never
    tried again): only Ctrl-C got out. A camera that cannot ever open ends play, exit 1,
    as calibrate camera does."""
    (tmp_path / "fake" / "picamera2").mkdir(parents=True)  # as on a laptop, or a bare venv
    (tmp_path / "fake" / "picamera2" / "__init__.py").write_text(
        'raise ImportError("No module named picamera2")\n')
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_INPUT_CAMERA_SOURCE": "picamera",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path / "fake"),
                                                       os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, "-m", "companion", "play", "--input", "camera",
                             "--choices", "auto", "--display", "none"], env=env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 1
    assert "companion: error: Picamera2 is not installed" in result.stderr
    assert "bash scripts/install-pi.sh" in result.stderr
    # Set by the environment, which wins over config.toml: the fix is made there (camera75
    # DEFECT 1).
    assert ("use a USB camera: COMPANION_INPUT_CAMERA_SOURCE=camera:0 (the environment sets "
            "input.camera_source, over config.toml; or unset it)") in result.stderr
    assert "Traceback" not in result.stderr


def test_two_parts_on_one_pin_are_refused(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_BUTTONS_LED_PIN", "17")
    assert main(["play", "--input", "sim", "--choices", "gpio", "--display", "terminal"]) == 2
    assert ("buttons.led_pin (COMPANION_BUTTONS_LED_PIN) and buttons.attack_pin (built in) "
            "are both GPIO17") in capsys.readouterr().err


def test_resume_keeps_the_saved_seed(capsys: pytest.CaptureFixture[str]) -> None:
    fresh = SaveGame(seed=SEED, preset="plus", strategy="cautious", events=1)  # no input yet
    write_save(default_save_path(), fresh)
    assert main(["play", "--headless", "--resume", "--seed", "9"]) == 0
    captured = capsys.readouterr()
    assert "--seed ignored: the saved game keeps its own" in captured.err
    assert f"seed {SEED}," in captured.out
    saved = load_game(default_save_path())
    assert saved is not None and saved.finished and saved.game_id == fresh.game_id


@pytest.mark.parametrize("text", ['{"version": 1, "seed": ', '{"version": "2"}'])
def test_a_new_game_keeps_an_unreadable_save_aside(
        text: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A save cut short, or of a version no companion writes, is kept, not overwritten
    unseen by the new game (without --resume, as the table's `companion play` starts)."""
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    assert main(["play", "--headless", "--state", str(path), "--seed", str(SEED)]) == 0
    err = capsys.readouterr().err
    assert "the save could not be read" in err and "this new game is saved in" in err
    kept = list(path.parent.glob("save.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == text


@pytest.mark.parametrize("deleted", [False, True])
def test_resuming_a_logged_game_keeps_the_games_logged_since(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], deleted: bool) -> None:
    """Game A stops, game B is logged to the same file, A is resumed: both stay whole and
    replay, A's lines now after B's. So too when the player deleted the log before B: B's
    lines are not A's to cut at A's old start."""
    def power_cut(self: Session) -> None:
        raise KeyboardInterrupt

    log, state = tmp_path / "games.jsonl", tmp_path / "a.json"
    with monkeypatch.context() as patch:
        patch.setattr(Session, "run", power_cut)
        assert main(["play", "--headless", "--seed", "41", "--state", str(state),
                     "--log", str(log)]) == 130
    if deleted:
        log.unlink()
    assert main(["play", "--headless", "--seed", "21", "--log", str(log)]) == 0
    assert main(["play", "--headless", "--resume", "--state", str(state),
                 "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "game 1 (seed 21, plus)" in out and "game 2 (seed 41, plus)" in out
    saved = load_game(state)
    assert saved is not None and saved.finished
    assert log.read_bytes()[saved.log_start:].startswith(b'{"choices": "auto"')


@pytest.mark.parametrize(("change", "why"), [
    (lambda s: s.inputs.__setitem__(3, "zz"), "does not replay at input 4 ('zz')"),
    (lambda s: setattr(s, "events", s.events + 5),
     f"the save was edited, or this companion plays its rules revision {RULES_REVISION} "
     "differently (a fault: please report it with the kept save)"),
    (lambda s: setattr(s, "preset", "zzz"), "unknown preset 'zzz'"),
    (lambda s: setattr(s, "strategy", "zzz"), "unknown strategy 'zzz'"),
    (lambda s: setattr(s, "profile_path", "/nowhere/mine.toml"), "which is missing"),
])
def test_a_save_that_reads_but_does_not_resume_is_kept_aside_and_a_new_game_starts(
        change: Any, why: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The boot service's `play --resume` on such a save stopped every time (a crash loop,
    the message never on the screen); now it is kept, told, and a new game plays."""
    path = default_save_path()
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(6))
        assert main(["play", "--headless", "--state", str(path), "--seed", str(SEED)]) == 130
    saved = load_game(path)
    assert saved is not None and len(saved.inputs) >= 4
    change(saved)
    write_save(path, saved)
    assert main(["play", "--headless", "--resume", "--seed", "7"]) == 0
    out, err = capsys.readouterr()
    assert f"the save {path} cannot be resumed" in err and why in err
    assert "starting a new game" in err and "resumed from" not in out
    (kept,) = path.parent.glob("save.json.corrupt-*")
    assert SaveGame.from_json(kept.read_text()) == saved
    new = load_game(path)
    assert new is not None and new.finished and new.game_id != saved.game_id


@pytest.mark.parametrize(("argv", "message"), [
    (["--seed", str(2**63)], "argument --seed: 9223372036854775808 is too large"),
    # random.Random shuffles by abs(seed): -5 played 5's game, kept apart in the history.
    (["--seed", "-5"], "argument --seed: -5 is negative: a seed is 0 or more"),
    (["--profile", "none.toml"], "argument --profile: none.toml: no such file"),
])
def test_bad_flags_are_usage_errors(argv: list[str], message: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["play", "--headless", *argv])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_a_save_with_a_seed_the_history_cannot_keep_is_kept_aside(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Such a save (of an earlier companion) would fail every game after it at the history."""
    write_save(default_save_path(), SaveGame(seed=2**63, preset="plus", events=1))
    assert main(["play", "--headless", "--resume", "--seed", str(SEED)]) == 0
    assert "seed 9223372036854775808 is too large" in capsys.readouterr().err
    assert History().totals().games == 1


def test_the_configured_profile_plays_a_new_game(
        tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """config.toml's game.profile is the profile of a new game without --profile."""
    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    mine = tmp_path / "mine.toml"
    mine.write_text(packaged.read_text("utf-8").replace("max_hp_base = 12 ", "max_hp_base = 40 "))
    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[game]\nprofile = "{mine}"\n')
    assert main(["play", "--headless", "--seed", str(SEED)]) == 0
    assert "max HP 41," in capsys.readouterr().out
    config.write_text(f'[game]\nprofile = "{tmp_path / "gone.toml"}"\n')
    assert main(["play", "--headless", "--seed", str(SEED)]) == 2
    assert f"game.profile ({config}): {tmp_path / 'gone.toml'}: no such file" in \
        capsys.readouterr().err


def test_a_relative_profile_in_config_toml_is_found_beside_it_from_any_folder(
        tmp_path: Path, user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """profile = "my.toml" was looked for in the current folder: the game played from the
    config folder and not from another (the boot service runs in $HOME), and the error did
    not say where it had looked."""
    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    (config.parent / "my.toml").write_text(
        packaged.read_text("utf-8").replace("max_hp_base = 12 ", "max_hp_base = 40 "))
    config.write_text('[game]\nprofile = "my.toml"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["play", "--headless", "--seed", str(SEED)]) == 0
    assert "max HP 41," in capsys.readouterr().out
    config.write_text('[game]\nprofile = "gone.toml"\n')
    assert main(["play", "--headless", "--seed", str(SEED)]) == 2
    assert (f"game.profile ({config}): {config.parent / 'gone.toml'}: no such file (the "
            "relative path gone.toml is taken from config.toml's folder)"
            in capsys.readouterr().err)


def prompts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The prompt of every view the screen draws from now on."""
    from companion.hw.display.screen import ScreenDisplay

    shown: list[str] = []
    draw = ScreenDisplay.show
    monkeypatch.setattr(ScreenDisplay, "show",
                        lambda screen, view: (shown.append(view.prompt), draw(screen, view)))
    return shown


@pytest.mark.parametrize(("font", "said"), [
    ("gone.ttf", "no such file (the relative path gone.ttf is taken from config.toml's "
                 "folder)"),
    ("notes.ttf", "not a font the screen can draw with"),
])
def test_a_configured_font_the_screen_cannot_use_is_named(
        tmp_path: Path, user_dirs: Path, font: str, said: str,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """display.font naming no file drew the screen without Japanese and said nothing; one
    that is no font stopped play with "a file: Failed to load font". Each names the
    setting, its file and what is wrong, before anything is played."""

    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    (config.parent / "notes.ttf").write_text("not a font\n")
    config.write_text(f'[display]\nfont = "{font}"\n')
    shown = prompts_drawn(monkeypatch)
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "screen"]) == 2
    err = capsys.readouterr().err
    refused = f"display.font ({config}): {config.parent / font}: {said}"
    assert f"companion: error: {refused}" in err
    assert not (user_dirs / "data" / "save.json").exists()
    # Said on the screen too, drawn with the font the companion finds itself: under the boot
    # service the screen was black and the service started the companion every 3 s.
    assert len(shown) == 1 and shown[0].startswith(f"Stopped 停止: {refused}")


def test_the_error_on_the_screen_is_said_on_stderr_first_and_once(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Stopped screen holds an error up to a minute; on a desktop, or a laptop's dummy
    screen, stderr said it only after that minute of silence. It is said before the screen
    shows it now, and not said again after."""
    from companion.hw.display.screen import ScreenDisplay

    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[display]\nfont = "gone.ttf"\n')
    said_before: list[str] = []
    draw = ScreenDisplay.show
    monkeypatch.setattr(ScreenDisplay, "show", lambda screen, view: (
        said_before.append(capsys.readouterr().err), draw(screen, view)))
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "screen"]) == 2
    assert len(said_before) == 1 and "companion: error: display.font" in said_before[0]
    assert "companion: error" not in capsys.readouterr().err


def test_a_save_path_that_cannot_be_written_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong --state is said in one line at once, nothing played: a folder is no save
    (and is left alone); a path under a file cannot be one (the game does not play on
    unsaved, as it does when the disk refuses a write)."""
    folder = tmp_path / "a folder"
    folder.mkdir()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(folder)]) == 2
    assert capsys.readouterr().err == f"companion: error: {folder}: a folder, not a save\n"
    assert folder.is_dir() and not list(tmp_path.glob(".*.tmp"))  # no stray file beside it
    under_a_file = tmp_path / "notes.txt" / "save.json"
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(under_a_file)]) == 1
    assert capsys.readouterr().err == (
        f"companion: error: {tmp_path / 'notes.txt'}: the folder of the --state file cannot be "
        "made: a file is in its place\n")
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_resume_names_every_flag_the_saved_game_overrides(
        capsys: pytest.CaptureFixture[str]) -> None:
    write_save(default_save_path(), SaveGame(seed=SEED, preset="plus", strategy="cautious",
                                             events=1))
    assert main(["play", "--headless", "--resume", "--strategy", "reckless"]) == 0
    assert "--strategy ignored: the saved game keeps its own" in capsys.readouterr().err


def test_output_cut_short_by_a_pipe_ends_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "play", "--headless", "--seed",
                             str(SEED), "--pace", "0.01"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    assert proc.wait(timeout=60) == 141
    assert proc.stderr.read() == b""


def test_with_no_display_a_missing_tray_is_told_on_stderr(tmp_path: Path) -> None:
    """`--display none` at the table: the game waits for the tray, and says why, once."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "rfid_tags.toml").write_text(  # enrolled: else play is refused
        'version = 1\n[tags]\n"04000000" = "1m"\n', encoding="utf-8")
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"), "COMPANION_INPUT_RFID_PORT": ""}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "play", "--input", "rfid",
                             "--choices", "auto", "--display", "none"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    try:
        line = proc.stderr.readline()
        time.sleep(2)  # the reader retries meanwhile: the same problem is not told again
    finally:
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=30)[1]
    assert line.startswith("companion: no tray found: plug the tray in by USB")
    assert "no tray found" not in rest


# Plus: two awake snakes in room 2; the PC flees from the door and kills the one that
# followed. Under rules revision 1 only that one followed, so the PC then walks on;
# under revision 2 the other follows too and still attacks, so "move:4" is no choice.
FLED_FROM_TWO = ["5m", "1z", "1z", "2z", "2z", "move:2", "1m", "1m", "3m", "1z", "flee", "9m",
                 "fight:1", "9m", "move:4"]


def test_a_save_from_before_rules_revisions_resumes_by_the_rules_it_was_played_with() -> None:
    """A save without "rules" was played by revision 1: it replays by them (the fix to
    JR-FLEE-2 would not fit its journal), and the game goes on by them; a new save says
    the revision that plays it."""
    from companion.app.commands.play import resumed_mode
    from companion.app.config import load_config
    from companion.systems.jongrogue.actions import input_from_notation
    from companion.systems.jongrogue.game import Game

    played = Game.replay([input_from_notation(i) for i in FLED_FROM_TWO], "plus", revision=1)
    raw = json.loads(SaveGame(seed=1, preset="plus", input_kind="camera", inputs=FLED_FROM_TWO,
                              events=len(played.events)).to_json())
    assert raw.pop("rules") == RULES_REVISION
    old = SaveGame.from_json(json.dumps(raw))
    assert old.rules == 1
    mode = resumed_mode(old, "camera", load_config())
    assert mode.game.revision == 1 and mode.game.room_no == 4
    with pytest.raises(CorruptSave, match=r"does not replay at input 15 \('move:4'\)"):
        resumed_mode(SaveGame.from_json(json.dumps({**raw, "rules": 2})), "camera",
                     load_config())


@pytest.mark.parametrize("rules", [0, RULES_REVISION + 1, "2", True])
def test_a_save_of_a_rules_revision_this_companion_does_not_play_is_named(rules: Any) -> None:
    raw = {**json.loads(SaveGame(seed=1, preset="plus").to_json()), "rules": rules}
    with pytest.raises(DataError, match="rules"):
        SaveGame.from_json(json.dumps(raw))


def test_a_new_game_replaces_a_save_with_no_inputs_without_a_copy(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A start that stopped at once (no camera, no tray) leaves a save with no inputs: the
    next game replaces it, and no empty save.json.replaced-* piles up."""
    write_save(default_save_path(), SaveGame(seed=SEED, preset="plus", input_kind="rfid",
                                             events=1))
    assert main(["play", "--headless", "--state", str(default_save_path()),
                 "--seed", str(SEED)]) == 0
    assert "kept as" not in capsys.readouterr().err
    assert not list(default_save_path().parent.glob("save.json.replaced-*"))
    saved = load_game(default_save_path())
    assert saved is not None and saved.finished and saved.input_kind == "sim"


def test_play_help_says_dice_picks_the_dice_of_every_table_mode(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--dice` picks the dice of --mode genso and coc too, not only the dice tray's."""
    monkeypatch.setenv("COLUMNS", "300")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    lines = capsys.readouterr().out.splitlines()
    at = next(n for n, line in enumerate(lines)
              if line.strip().startswith("--dice {camera,typed,sim}"))
    assert "--mode dice, genso and coc" in " ".join(lines[at:at + 2])


def test_play_help_says_where_each_mode_saves_by_default(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--state` said save.json for every mode; a table's save is genso/ or coc/table.json."""
    monkeypatch.setenv("COLUMNS", "300")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    line = next(line for line in capsys.readouterr().out.splitlines()
                if line.strip().startswith("--state FILE"))
    assert "save.json for a game" in line
    assert "genso/table.json or coc/table.json for --mode genso or coc" in line


@pytest.mark.parametrize("script", ["bench_rules", "bench_camera", "bench_dice",
                                    "bench_display", "bench_rfid", "bench_play",
                                    "bench_startup"])
def test_a_bench_scripts_help_says_its_whole_first_paragraph(script: str) -> None:
    """`scripts/bench_rules.py --help` printed the docstring's first line only, cut
    mid-sentence ("... on one core, for the"); every bench script's help now says it whole."""
    import ast

    root = Path(__file__).resolve().parents[2]
    source = root / "scripts" / f"{script}.py"
    doc = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8")))
    assert doc is not None
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "100"}
    shown = subprocess.run([sys.executable, str(source), "--help"], env=env, cwd=root,
                           capture_output=True, text=True, check=True, timeout=120).stdout
    first = " ".join(doc.split("\n\n")[0].split())
    assert first.endswith(".") and first in " ".join(shown.split())


def test_new_game_at_the_end_of_a_game_plays_the_next_one(
        user_dirs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """*New game 新しいゲーム* at a game's end closed the program: only the boot service's
    restart made it a new game, and run by hand the window just went. The next game now
    starts at once, a new one, while the finished one is in the history."""
    import pygame

    from companion.systems.jongrogue.actions import input_from_notation
    from companion.systems.jongrogue.game import Game

    # A game one drawn tile from its end (seed 2 freezes on its last tile), the rest the
    # player's: A on the screen ends it, and A again is the new game.
    finished = tmp_path / "finished.json"
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(finished)]) == 0
    saved = SaveGame.from_json(finished.read_text(encoding="utf-8"))
    inputs = saved.inputs[:-1]
    replayed = Game.replay([input_from_notation(i) for i in inputs], saved.preset)
    save_path = default_save_path()
    save_path.parent.mkdir(parents=True, exist_ok=True)
    save_path.write_text(SaveGame(
        seed=saved.seed, preset=saved.preset, inputs=inputs, events=len(replayed.events),
        strategy=saved.strategy, player_chose=True).to_json(), encoding="utf-8")
    assert History().totals().games == 1  # the headless one
    monkeypatch.setenv("COMPANION_INPUT_ACCEPT_SECONDS", "0")
    stop = threading.Event()
    games: list[str] = []

    def player() -> None:
        """Presses A on the screen until a second game is saved, then closes the window."""
        while not stop.is_set():
            time.sleep(0.005)
            if not pygame.display.get_init():
                continue
            with contextlib.suppress(OSError, ValueError):  # being replaced
                game_id = json.loads(save_path.read_text(encoding="utf-8"))["game_id"]
                if game_id not in games:
                    games.append(game_id)
            if len(games) == 2:
                pygame.event.post(pygame.event.Event(pygame.QUIT))
                return
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="a"))

    pressing = threading.Thread(target=player, daemon=True)
    pressing.start()
    try:
        assert main(["play", "--resume", "--input", "sim", "--choices", "keyboard",
                     "--display", "screen"]) == 130
    finally:
        stop.set()
        pressing.join(5)
    assert History().totals().games == 2
    assert len(games) == 2
    assert load_game(save_path).game_id == games[1] != games[0]


def test_what_is_wrong_in_the_settings_is_shown_on_the_screen_before_play(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad value in config.toml was said on stderr alone: under the boot service the player
    saw only what the companion fell back to (the camera for ``kind = "RFID"``). It is on
    the screen until OK, then the game plays."""
    import pygame

    from companion.hw.display.screen import ScreenDisplay

    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[display]\nsize = "huge"\n[input]\nknd = "rfid"\n')
    shown: list[str] = []
    draw = ScreenDisplay.show

    def show(screen: ScreenDisplay, view: Any) -> None:
        shown.append(view.prompt)
        draw(screen, view)
        key = pygame.K_a if view.prompt.startswith("Settings 設定") else None
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode="a")
                          if key else pygame.event.Event(pygame.QUIT))

    monkeypatch.setattr(ScreenDisplay, "show", show)
    assert main(["play", "--input", "sim", "--choices", "keyboard", "--display", "screen"]) \
        == 130
    assert shown[0].startswith("Settings 設定: ")
    assert f"{config}: display.size must be" in shown[0]
    assert f"{config}: unknown setting 'input.knd'" in shown[0]
    assert not shown[1].startswith("Settings")  # OK pressed, the game went on


def test_a_bug_on_a_screen_says_the_companion_stopped(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An error no one foresaw (a bug) under the boot service was a black screen restarting
    every few seconds: it is on the screen as the errors foreseen are, after its traceback
    on stderr (the journal), and the run ends with status 1."""
    from companion.app.commands.play import session

    def bug(*args: object) -> bool:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(session, "play_game", bug)
    shown = prompts_drawn(monkeypatch)
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "screen"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError: a bug" in err
    assert shown[-1].startswith(
        "Stopped 停止: internal error 内部エラー (ZeroDivisionError: a bug)")


@pytest.mark.parametrize(("service", "details"), [
    ("jongrogue-companion", "Details 詳細: journalctl -u jongrogue-companion"),
    ("", "Details 詳細: the traceback in the terminal it was started from 起動した端末に"),
])
def test_a_bug_on_a_screen_names_where_its_traceback_went(
        user_dirs: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, service: str, details: str) -> None:
    """The stop of a bug named the journal for every run: a `companion play` typed at a
    terminal has its traceback there, and the journal holds nothing (maker73 DEFECT 1). The
    journal is named under the boot service alone (COMPANION_SERVICE, as install-pi.sh's unit
    sets it), and the traceback reaches stderr either way."""
    from companion.app.commands.play import session

    def bug(*args: object) -> bool:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(session, "play_game", bug)
    monkeypatch.setenv("COMPANION_SERVICE", service)
    shown = prompts_drawn(monkeypatch)
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "screen"]) == 1
    assert "ZeroDivisionError: a bug" in capsys.readouterr().err
    assert shown[-1] == ("Stopped 停止: internal error 内部エラー (ZeroDivisionError: a bug); "
                         f"the save on disk is kept. {details}")


def test_a_data_folder_that_cannot_be_made_is_named_before_a_new_game_is_promised(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """COMPANION_DATA_DIR at a folder that cannot be made said "starting a new one", then only
    the OS's words: now the data folder is refused at once, naming the setting and why."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(blocker / "data"))
    assert main(["play", "--headless", "--resume"]) == 1
    err = capsys.readouterr().err
    assert "starting a new one" not in err
    assert err == (f"companion: error: {blocker / 'data'}: the data folder (COMPANION_DATA_DIR) "
                   f"cannot be made: {os.strerror(errno.ENOTDIR)}\n")



def test_a_setting_headless_sets_is_said_to_come_from_headless(user_dirs: Path) -> None:
    """modes74 NIT 7: config.toml's refused play.mode, with `play --headless`, was said to
    be replaced by "game" from --mode, which nobody typed: --headless sets it."""
    from companion.app.cli import build_parser
    from companion.app.commands.play.options import effective_config

    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "config.toml").write_text('[play]\nmode = "jongrogue"\n')
    args = build_parser("play").parse_args(["play", "--headless"])
    for _ in range(2):  # as the run's first look, and again (args then hold what it set)
        notices = " ".join(effective_config(args, tell=False).notices)
        assert 'found "jongrogue"; using "game" from --headless' in notices, notices
    typed = build_parser("play").parse_args(["play", "--headless", "--mode", "game"])
    assert 'using "game" from --mode' in " ".join(effective_config(typed, tell=False).notices)
