"""The commands `companion play` prints for a save it found are run as printed, and do what
they say: the copy a cut write left beside a save that does not replay, another mode's save
found where a table saves, and the next game after a finished one keep this run's flags."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

import companion.files
from companion.app.cli import main
from companion.app.commands.play import session
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.session import jongrogue_mode
from companion.app.history import History
from companion.app.session.host import replay
from companion.app.session.save import SaveGame, default_save_path, write_save

SEED = 2


def cut_short(save: Path, inputs: int) -> SaveGame:
    """A headless game played whole into ``save``, then saved again as if the power went
    after ``inputs`` inputs: the game as it stands there."""
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    played = load_game(save)
    assert played is not None
    mode = jongrogue_mode(played, None, "sim")
    replay(mode, played.inputs[:inputs], None)
    short = replace(played, inputs=played.inputs[:inputs], events=mode.progress(),
                    game_id="cut-short", finished=False)
    write_save(save, short)
    return short


def on_a_terminal(argv: list[str], save: Path, inputs: int) -> tuple[int, str]:
    """``argv`` (a command line as printed, ``companion`` first) run on a pty, the
    highlighted choice pressed until ``save`` holds more than ``inputs`` inputs (or the run
    ends), then stopped with Ctrl-C: its exit code and stderr."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", *argv], stdin=slave, stdout=slave,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "100"})
    os.close(slave)
    os.set_blocking(master, False)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(OSError):
                os.write(master, b"a")
            time.sleep(0.05)
            with contextlib.suppress(OSError):
                os.read(master, 65536)  # what was drawn, so that the terminal never fills
            with contextlib.suppress(OSError, ValueError):  # read while it is written
                if len(SaveGame.from_json(save.read_text()).inputs) > inputs:
                    break
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
        os.close(master)
    return proc.returncode, err


def printed_command(err: str) -> str:
    """The command between the last pair of backquotes in ``err``."""
    return err.replace("\n", " ").rsplit("`", 2)[1]


def test_a_copy_a_cut_left_beside_a_save_that_does_not_replay_is_named_with_this_runs_flags(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that reads but does not replay, and beside it the whole game a cut write left
    (the Pi powered again at once): the copy was named with `companion play --resume
    --state <copy>`, bare, which on a laptop (or for a headless game) opened the screen and
    stopped. It is named with this run's resume, its path quoted, and that plays it on."""
    save = tmp_path / "my saves" / "s.json"
    save.parent.mkdir()
    whole = cut_short(save, 20)
    left = save.parent / ".s.json.k3j9x2.tmp"
    left.write_text(whole.to_json(), encoding="utf-8")
    write_save(save, replace(whole, events=whole.events + 5))  # reads, does not replay
    cut = time.time() - 30
    os.utime(left, (cut, cut))
    monkeypatch.setattr(companion.files, "_STARTED", time.time() - 5)  # a boot just after
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "9", "--resume", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    [copy] = save.parent.glob("s.json.unwritten-*")
    command = shlex.join(["companion", "play", "--resume", "--headless", "--state", str(copy)])
    assert f"the save {save} cannot be resumed" in err
    assert f"was kept as {copy}: `{command}` takes it up" in err
    assert main(shlex.split(printed_command(err.split("; starting")[0]))[1:]) == 0
    assert f"--- resumed from {copy}: 20 inputs replayed ---" in capsys.readouterr().out
    played_on = load_game(copy)
    assert played_on is not None and played_on.game_id == "cut-short" and played_on.finished


def test_copies_a_cut_left_are_each_named_with_the_command_that_takes_it_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two copies were named with `<command> <one of them>`, a command no shell runs."""
    monkeypatch.setattr(companion.files, "_STARTED", time.time() - 5)
    path = tmp_path / "save.json"
    path.write_bytes(b"{")
    for name in (".save.json.a1.tmp", ".save.json.b2.tmp"):
        (tmp_path / name).write_bytes(b"{}")
        os.utime(tmp_path / name, (time.time() - 30,) * 2)
    kept = companion.files.keep_unreadable(path)
    first, second = kept.unwritten
    assert kept.copies(lambda copy: f"take {copy.name}") == (
        "; copies writes cut short left, one of which may hold the last write whole, were "
        f"kept as {first}, {second}: `take {first.name}` or `take {second.name}` takes one "
        "up")


def test_a_game_found_where_a_table_saves_is_named_with_the_keys_of_the_run_that_found_it(
        tmp_path: Path) -> None:
    """`play --mode coc --state "my dir/s.json" --choices keyboard --display terminal` of a
    game's save said to carry it on with `companion play --resume --state my dir/s.json`:
    the path unquoted, and the keys and terminal dropped, so at a laptop it opened the
    screen. Said with them and quoted, it plays the game on at the keys."""
    save = tmp_path / "my dir" / "s.json"
    save.parent.mkdir()
    short = cut_short(save, 10)
    code, err = on_a_terminal(["companion", "play", "--mode", "coc", "--resume", "--dice",
                               "sim", "--choices", "keyboard", "--display", "terminal",
                               "--state", str(save)], save, 10)
    assert code == 2, err
    command = shlex.join(["companion", "play", "--resume", "--choices", "keyboard",
                          "--display", "terminal", "--state", str(save)])
    assert err.replace("\n", " ").endswith(f"; carry that game on with `{command}` ")
    code, err = on_a_terminal(shlex.split(printed_command(err)), save, 10)
    assert code == 130, err
    played_on = load_game(save)
    assert played_on is not None and played_on.game_id == short.game_id
    assert played_on.inputs[:10] == short.inputs and len(played_on.inputs) > 10


def test_the_next_game_after_a_finished_one_keeps_this_runs_profile_preset_and_strategy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C on Game over with the history away: the command said to start the next game
    (which puts this one in the history) repeated --input but not --profile, --preset or
    --strategy, so that game took config.toml's. It repeats them; not --seed."""
    house = tmp_path / "house.toml"
    house.write_text("[combat]\nthaw = 1\n", encoding="utf-8")

    def stopped_on_game_over(*args: object) -> bool:
        raise KeyboardInterrupt  # Ctrl-C (or the service stopped) on the farewell screen

    History().path.parent.mkdir(parents=True, exist_ok=True)
    History().path.mkdir()  # a folder SQLite cannot use: the history is away
    monkeypatch.setattr(session, "farewell", stopped_on_game_over)
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                 "--seed", str(SEED), "--preset", "ez", "--strategy", "reckless",
                 "--profile", str(house)]) == 130
    first = load_game(default_save_path())
    assert first is not None and first.finished
    err = capsys.readouterr().err
    command = shlex.join(["companion", "play", "--resume", "--input", "sim", "--profile",
                          str(house), "--preset", "ez", "--strategy", "reckless",
                          "--choices", "auto", "--display", "none"])
    assert err.endswith(f"when the next game starts ({command})\n")
    History().path.rmdir()
    assert main(shlex.split(command)[1:]) == 130
    second = load_game(default_save_path())
    assert second is not None and second.game_id != first.game_id
    assert (second.preset, second.strategy, second.profile_path) == (
        "ez", "reckless", str(house.resolve()))
    assert first.game_id in [run.game_id for run in History().runs()]
