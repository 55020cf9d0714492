"""The commands `companion play` prints for a save it found are run as printed, and do what
they say: the copy a cut write left beside a save that does not replay, another mode's save
found where a table saves, and the next game after a finished one keep this run's flags."""

from __future__ import annotations

import contextlib
import itertools
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

import companion.files
from companion.app.cli import main
from companion.app.commands.play import session
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.session import jongrogue_mode
from companion.app.history import History
from companion.app.modes.coc import table_session
from companion.app.modes.fight_file import write_fight_file
from companion.app.modes.fight_save import FightSave
from companion.app.paths import config_dir, data_dir
from companion.app.session.host import replay
from companion.app.session.save import SaveGame, default_save_path, write_save
from tests.app.coc_table_helpers import CHOICES, new_fight
from tests.app.coc_table_helpers import SEED as COC_SEED
from tests.app.table import Player
from tests.disk import left_by_a_cut

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


def on_a_terminal(argv: list[str], save: Path, inputs: int,
                  read: Callable[[str], SaveGame] = SaveGame.from_json) -> tuple[int, str]:
    """``argv`` (a command line as printed, ``companion`` first) run on a pty, the
    highlighted choice pressed until ``save`` (a game's, or as ``read`` reads it) holds more
    than ``inputs`` inputs (or the run ends), then stopped with Ctrl-C: its exit code and
    stderr."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", *argv], stdin=slave, stdout=slave,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "100"})
    os.close(slave)
    os.set_blocking(master, False)
    try:
        deadline = time.monotonic() + 30
        # a and Space in turn: the same key every 0.05 s is a held key's auto-repeat, one
        # press (keys68).
        confirms = itertools.cycle((b"a", b" "))
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(OSError):
                os.write(master, next(confirms))
            time.sleep(0.05)
            with contextlib.suppress(OSError):
                os.read(master, 65536)  # what was drawn, so that the terminal never fills
            with contextlib.suppress(OSError, ValueError):  # read while it is written
                if len(read(save.read_text()).inputs) > inputs:
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


def plays_on_as_printed(err: str, save: Path, short: SaveGame) -> None:
    """The command ``err`` printed last, run on a terminal, plays the game ``short`` (its 10
    inputs) on in ``save``."""
    code, err = on_a_terminal(shlex.split(printed_command(err)), save, 10)
    assert code == 130, err
    played_on = load_game(save)
    assert played_on is not None and played_on.game_id == short.game_id
    assert played_on.inputs[:10] == short.inputs and len(played_on.inputs) > 10


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
    left_by_a_cut(save, whole.to_json().encode("utf-8"), monkeypatch)
    write_save(save, replace(whole, events=whole.events + 5))  # reads, does not replay
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
    command = shlex.join(["companion", "play", "--mode", "game", "--resume", "--choices",
                          "keyboard", "--display", "terminal", "--state", str(save)])
    assert err.replace("\n", " ").endswith(f"; carry that game on with `{command}` ")
    plays_on_as_printed(err, save, short)


def test_the_next_game_after_a_finished_one_keeps_this_runs_profile_preset_and_strategy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C on Game over with the history away: the command said to start the next game
    (which puts this one in the history) repeated --input but not --profile, --preset or
    --strategy, so that game took config.toml's. It repeats them; not --seed."""
    house = tmp_path / "house.toml"
    house.write_text("[combat]\nthaw = 1\n", encoding="utf-8")

    def stopped_on_game_over(*args: object, **kwargs: object) -> bool:
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


def six_choices_at_the_table(fight: Path, state: Path) -> FightSave:
    """A coc table of ``fight`` saved in ``state`` after six choices (then stopped, the
    player's presses run out): its save."""
    table = table_session(fight, state, resume=False, seed=COC_SEED,
                          choices=Player(CHOICES[:6]))
    with contextlib.suppress(KeyboardInterrupt):
        table.run()
    return FightSave.from_json(state.read_text(encoding="utf-8"))


def test_a_table_found_where_a_game_saves_is_named_with_its_own_fight_file(
        tmp_path: Path) -> None:
    """A coc table played on `--fight "o dir.json"`, its save given to a game: the command
    said to play that fight on had no --fight, so it took up the default fight file (the
    table's save set aside for it) or, with none, stopped. It names the save's fight file,
    and that plays the same fight on from its save."""
    own = tmp_path / "o dir.json"
    write_fight_file(own, new_fight("003"))
    default = data_dir() / "coc" / "fight.json"
    default.parent.mkdir(parents=True)
    write_fight_file(default, new_fight("004"))
    state = tmp_path / "t.json"
    before = six_choices_at_the_table(own, state)
    code, err = on_a_terminal(["companion", "play", "--resume", "--input", "sim", "--choices",
                               "keyboard", "--display", "terminal", "--state", str(state)],
                              state, len(before.inputs), FightSave.from_json)
    assert code == 2, err
    command = shlex.join(["companion", "play", "--mode", "coc", "--resume", "--choices",
                          "keyboard", "--display", "terminal", "--fight", str(own),
                          "--state", str(state)])
    assert err.replace("\n", " ").endswith(f"; play that fight on with `{command}` ")
    code, err = on_a_terminal(shlex.split(printed_command(err)), state, len(before.inputs),
                              FightSave.from_json)
    assert code == 130, err
    assert f"stopped; the coc table is saved in {state}" in err
    played_on = FightSave.from_json(state.read_text(encoding="utf-8"))
    assert (played_on.game_id, played_on.fight_path) == (before.game_id, str(own))
    assert played_on.inputs[:len(before.inputs)] == before.inputs
    assert len(played_on.inputs) > len(before.inputs)
    assert not list(tmp_path.glob("t.json.*"))


def test_a_game_found_by_the_table_config_toml_plays_is_named_with_its_mode(
        tmp_path: Path) -> None:
    """config.toml's play.mode a genso table: the command said to carry a game found at
    --state on had no --mode, so config.toml's genso table opened again in its place (and
    said, falsely, that it saved the table there). It says --mode game, and the game plays
    on."""
    save = tmp_path / "g dir" / "s.json"
    save.parent.mkdir()
    short = cut_short(save, 10)
    config_dir().mkdir(parents=True, exist_ok=True)
    (config_dir() / "config.toml").write_text('[play]\nmode = "genso"\n', encoding="utf-8")
    code, err = on_a_terminal(["companion", "play", "--resume", "--dice", "sim", "--choices",
                               "keyboard", "--display", "terminal", "--state", str(save)],
                              save, 10)
    assert code == 2, err
    assert "not a genso table's save" in err
    plays_on_as_printed(err, save, short)


def test_a_tables_copy_a_cut_left_is_named_with_its_mode_its_fight_and_this_runs_keys(
        tmp_path: Path) -> None:
    """A coc table's save that does not read, and beside it the whole save a cut write left:
    the copy was named bare, with no command, and `--resume --state <copy>` alone opened a
    game of JongRogue. Found by a table of another fight (`--fight`), it is named with
    --mode coc, the copy's own fight file (this run's would set the copy aside) and this
    run's keys and terminal, and that plays the copy's fight on."""
    own, other = tmp_path / "o dir.json", tmp_path / "other.json"
    write_fight_file(own, new_fight("003"))
    write_fight_file(other, new_fight("004"))
    state = tmp_path / "t.json"
    whole = six_choices_at_the_table(own, state)
    left_by_a_cut(state, state.read_bytes())  # the run that finds it starts after
    state.write_text(state.read_text(encoding="utf-8")[:200], encoding="utf-8")  # cut short
    code, err = on_a_terminal(["companion", "play", "--mode", "coc", "--resume", "--dice",
                               "sim", "--choices", "keyboard", "--display", "terminal",
                               "--fight", str(other), "--state", str(state)], state, 0,
                              FightSave.from_json)
    assert code == 130, err
    [copy] = tmp_path.glob("t.json.unwritten-*")
    command = shlex.join(["companion", "play", "--mode", "coc", "--resume", "--choices",
                          "keyboard", "--display", "terminal", "--dice", "sim", "--fight",
                          str(own.resolve()), "--state", str(copy)])
    said = err.replace("\n", " ")
    assert f"was kept as {copy}: `{command}` takes it up; taking up the fight file" in said
    code, err = on_a_terminal(shlex.split(command), copy, len(whole.inputs),
                              FightSave.from_json)
    assert code == 130, err
    played_on = FightSave.from_json(copy.read_text(encoding="utf-8"))
    assert (played_on.game_id, played_on.fight_path) == (whole.game_id, str(own.resolve()))
    assert played_on.inputs[:len(whole.inputs)] == whole.inputs
    assert len(played_on.inputs) > len(whole.inputs)
