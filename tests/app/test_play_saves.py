"""Saves `companion play` must not lose or misread: finished games the history could not
take, kept files resumed, files that are no save, and saves that cannot be kept aside."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.session import jongrogue_mode
from companion.app.history import History
from companion.app.session.host import replay
from companion.app.session.save import (
    SAVE_LIMIT,
    SaveGame,
    default_save_path,
    profile_hash,
    write_save,
)
from companion.systems.jongrogue.game import RULES_REVISION
from tests.disk import left_by_a_cut

SEED = 2


def history_unavailable() -> None:
    """A folder where the history file goes: SQLite cannot use it (left as it is)."""
    History().path.parent.mkdir(parents=True, exist_ok=True)
    History().path.mkdir()


def history_back() -> None:
    History().path.rmdir()


def finished_unrecorded(capsys: pytest.CaptureFixture[str]) -> tuple[Path, SaveGame]:
    """A finished game kept as save.json.unrecorded-…, as two games with no history leave."""
    history_unavailable()
    for seed in (SEED, SEED):
        assert main(["play", "--headless", "--seed", str(seed), "--state",
                     str(default_save_path())]) == 0
    [kept] = default_save_path().parent.glob("save.json.unrecorded-*")
    saved = load_game(kept)
    assert saved is not None and saved.finished
    history_back()
    capsys.readouterr()
    return kept, saved


def finished_with_own_profile(tmp_path: Path) -> tuple[Path, Path]:
    """A game played to its end on a copy of the packaged profile while the history could
    not take it: that profile and the save, marked finished, not recorded."""
    profile = tmp_path / "mine.toml"
    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    profile.write_text(packaged.read_text("utf-8"))
    save = default_save_path()
    history_unavailable()
    assert main(["play", "--headless", "--seed", str(SEED), "--profile", str(profile),
                 "--state", str(save)]) == 0
    return profile, save

def test_a_finished_game_whose_profile_changed_is_kept_not_overwritten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The history could not take the finished game, and its profile was edited since: the
    next game used to overwrite it; it is kept aside as save.json.unrecorded-…, told."""
    profile, save = finished_with_own_profile(tmp_path)
    first = load_game(save)
    assert first is not None and first.finished
    profile.write_text(profile.read_text().replace("max_hp_base = 12", "max_hp_base = 30"))
    history_back()
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    [kept] = save.parent.glob("save.json.unrecorded-*")
    assert (f"companion: the finished game is kept as {kept}: once that is put right, "
            f"`companion play --resume --headless --state {kept}` puts it in the history "
            "and removes that file\n") in err
    assert "changed since this game was saved" in err
    assert load_game(kept) == first


def test_resuming_a_kept_finished_game_records_it_and_starts_none(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`play --resume --state save.json.unrecorded-…` (as docs/playing.md says) puts the game
    in the history and stops: it used to start a new game in that file, the kept one lost.
    The file, now a copy of what the history holds, is removed, and the message says so."""
    kept, saved = finished_unrecorded(capsys)
    assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"companion: the finished game in {kept} is in the history now (companion "
                   "history); that file is removed\n")
    assert [run.game_id for run in History().runs()] == [saved.game_id]
    assert not kept.exists() and not kept.with_name(kept.name + ".lock").exists()


def test_a_kept_finished_game_the_history_still_cannot_take_stays(
        capsys: pytest.CaptureFixture[str]) -> None:
    kept, saved = finished_unrecorded(capsys)
    history_unavailable()
    assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.endswith(
        f"companion: the finished game stays in {kept}: once that is put right, `companion "
        f"play --resume --headless --state {kept}` tries again\n")
    assert load_game(kept) == saved


def test_a_kept_finished_game_whose_profile_changed_says_what_to_mend_not_to_wait(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A kept game that no longer replays (its profile edited since) is not mended by time:
    the message said "try again later". It names the cause and the command to run once
    the profile is as it was, and that command then puts the game in the history."""
    profile, save = finished_with_own_profile(tmp_path)
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    [kept] = save.parent.glob("save.json.unrecorded-*")
    history_back()
    as_played = profile.read_text()
    profile.write_text(as_played.replace("max_hp_base = 12", "max_hp_base = 30"))
    capsys.readouterr()
    assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 1
    err = capsys.readouterr().err
    assert "changed since this game was saved" in err
    assert "try again later" not in err
    command = f"companion play --resume --headless --state {kept}"
    assert err.endswith(f"once that is put right, `{command}` tries again\n")
    profile.write_text(as_played)
    assert main(shlex.split(command)[1:]) == 0  # as said: a headless run's flags with it
    assert not kept.exists()


def test_a_kept_file_that_cannot_be_read_is_kept_again_and_a_new_game_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A corrupt save kept aside, resumed by name: as any unreadable save, it is kept and a new
    game is offered (the check for a finished kept game stopped the run with an error)."""
    kept = tmp_path / "save.json.corrupt-20261203T120000Z"
    kept.write_text('{"broken', encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 0
    err = capsys.readouterr().err
    assert "cannot be read" in err or "could not be read" in err
    assert "starting a new game" in err
    assert len(list(tmp_path.glob("save.json.corrupt-*.corrupt-*"))) == 1
    resumed = load_game(kept)
    assert resumed is not None and resumed.finished


def test_a_save_cut_short_beside_the_cuts_whole_copy_names_it_and_it_plays_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A cut between a save's fsync and its rename, on a card that also lost save.json's
    tail, and the Pi powered again at once: the companion starts within a minute of it.
    The whole game in the cut's temporary (30 s old) was neither kept nor named, and the
    next start deleted it unread. It is kept as save.json.unwritten-…, the message names
    it with the command that plays it on, and that command does."""
    save = default_save_path()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    played = load_game(save)
    assert played is not None
    mode = jongrogue_mode(played, None, "sim")
    replay(mode, played.inputs[:20], None)
    write_save(save, replace(played, inputs=played.inputs[:20], events=mode.progress(),
                             game_id="cut-short", finished=False))
    whole = save.read_bytes()
    left_by_a_cut(save, whole, monkeypatch)
    save.write_bytes(whole[:len(whole) // 2])
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "9", "--resume", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    [kept] = save.parent.glob("save.json.corrupt-*")
    [copy] = save.parent.glob("save.json.unwritten-*")
    assert copy.read_bytes() == whole
    command = f"companion play --resume --headless --state {copy}"
    assert (f"it was kept as {kept}; a copy a write cut short left, which may hold the last "
            f"write whole, was kept as {copy}: `{command}` takes it up; starting a new "
            "game") in err
    assert main(shlex.split(command)[1:]) == 0
    out = capsys.readouterr().out
    assert f"--- resumed from {copy}: 20 inputs replayed ---" in out
    played_on = load_game(copy)
    assert played_on is not None and played_on.game_id == "cut-short"


def play_with_save(save: str, tmp_path: Path,
                   resume: bool = True) -> subprocess.CompletedProcess[str]:
    """`play --headless [--resume] --state SAVE` in a child process, given 60 s: reading a
    pipe or a device used to wait, or read, for ever."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "companion", "play", "--headless",
                           *(["--resume"] if resume else []), "--state", save], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_a_save_that_is_no_file_is_refused_in_one_line(tmp_path: Path, kind: str) -> None:
    if kind == "pipe":
        save = tmp_path / "save.fifo"
        os.mkfifo(save)
    else:
        save = Path("/dev/zero")
    done = play_with_save(str(save), tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"companion: error: {save}: a device or a pipe, not a save\n"
    assert not (save.parent / f"{save.name}.lock").exists()


def test_a_save_far_larger_than_any_is_kept_aside_unread(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A whole game saves in 13 KiB: a file over the limit (4 MiB) is no save; it is kept
    aside (not read into memory) and a new game starts."""
    save = default_save_path()
    save.parent.mkdir(parents=True)
    save.write_bytes(b" " * (SAVE_LIMIT + 1))
    assert main(["play", "--headless", "--resume", "--seed", str(SEED)]) == 0
    [kept] = save.parent.glob("save.json.corrupt-*")
    assert kept.stat().st_size == SAVE_LIMIT + 1
    assert (f"the save could not be read ({save}: larger than 4096 KiB, so not a save); it was "
            f"kept as {kept}; starting a new game") in capsys.readouterr().err


@pytest.mark.parametrize("resume", [True, False])
def test_a_file_that_is_no_save_in_a_folder_that_takes_no_file_says_so_once(
        tmp_path: Path, resume: bool) -> None:
    """/proc/version is a file, no save, in a folder that takes no renamed or new file: it
    says so in words, once (it said "starting a new game", or "this new game is saved in
    /proc/version", and then stopped on the folder). It is no save of ours, so it is left as
    it is before the folder matters (a damaged save there: test_save)."""
    done = play_with_save("/proc/version", tmp_path, resume)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "companion: error: /proc/version does not look like a save of the companion's (not "
        "JSON, and its name does not end in .json), so it was left as it is: give --state a "
        "new file, or a save companion play wrote"]


def game_with_a_profile_copy(tmp_path: Path) -> tuple[Path, Path, SaveGame]:
    """A finished headless game played with a whole copy of the packaged profile: the
    profile, the save and the game saved."""
    packaged = files("companion.systems.jongrogue") / "data" / "profile.toml"
    profile = tmp_path / "mine.toml"
    profile.write_text(packaged.read_text("utf-8"))
    save = default_save_path()
    assert main(["play", "--headless", "--seed", str(SEED), "--profile", str(profile),
                 "--state", str(save)]) == 0
    played = load_game(save)
    assert played is not None and played.finished
    return profile, save, played


def cut_short(save: Path, played: SaveGame, profile_hash: str, game_id: str) -> None:
    """``played`` saved again as if its power went after 40 inputs, under another id and
    the profile hash given."""
    mode = jongrogue_mode(played, None, "sim")
    replay(mode, played.inputs[:40], None)
    write_save(save, replace(played, inputs=played.inputs[:40], events=mode.progress(),
                             finished=False, profile_hash=profile_hash, game_id=game_id))


def test_a_game_saved_with_a_profile_key_now_refused_resumes_as_it_was_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A profile's misspelt key (``wear_found_ring``) was dropped unread until such keys were
    refused. A game saved with that profile was then set aside as corrupt on the next
    ``--resume``, and mending the profile would change the hash the save checks: the game
    could not go on. It resumes as it was played, with a note; a new game is refused it."""
    profile, save, played = game_with_a_profile_copy(tmp_path)
    # The same game as an older version saved it mid-game: the profile held the misspelt
    # key beside the packaged value it played with (wear_found_rings left to the default).
    text = profile.read_text("utf-8")
    assert "wear_found_rings = true" in text
    profile.write_text(text.replace("wear_found_rings = true", "wear_found_ring = false", 1))
    cut_short(save, played, profile_hash=profile_hash(profile), game_id="cut-short")
    capsys.readouterr()

    assert main(["play", "--headless", "--resume", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    assert (f"companion: note: {profile}: field pc.wear_found_ring is unknown here (did you "
            "mean pc.wear_found_rings?); the saved game was played without it and goes on so, "
            "but a new game needs it mended") in err
    assert not list(save.parent.glob("save.json.corrupt-*")), err
    resumed = load_game(save)
    assert resumed is not None and resumed.finished and resumed.game_id == "cut-short"
    assert resumed.inputs == played.inputs

    assert main(["play", "--headless", "--profile", str(profile),
                 "--state", str(tmp_path / "new.json")]) == 2
    assert "field pc.wear_found_ring is unknown here" in capsys.readouterr().err


def test_a_game_kept_aside_is_told_on_the_screen_until_the_player_presses_ok(
        user_dirs: Path) -> None:
    """"The unfinished game … is kept as …" went to stderr alone: the player at the table,
    who sees only the screen, never learnt where their game went. It stays on the screen
    until a press; with the auto-player choosing, nobody is waited for."""
    import threading

    from companion.app.cli import build_parser
    from companion.app.commands.play.saves import previous_game
    from companion.app.session.controls import Controls
    from companion.hw.display.screen import ScreenDisplay
    from tests.app.dice_tray_helpers import Recorded
    from tests.app.table import Buttons

    save_path = default_save_path()
    save_path.parent.mkdir(parents=True)
    unfinished = SaveGame(seed=3, preset="ez", inputs=["1m"], events=1).to_json()
    save_path.write_text(unfinished, encoding="utf-8")
    screen = Recorded(ScreenDisplay("800x480"))
    buttons = Buttons()
    try:
        press = threading.Timer(0.3, buttons.press, ("attack",))
        press.start()
        new = build_parser("play").parse_args(["play"])
        found = previous_game(save_path, new, screen, Controls([buttons.panel, screen]))
        assert found.saved is None and found.replaced is not None
        press.join()
        told = screen.views[-1]
        # Said in both languages first: the command line after it is for a computer.
        assert told.prompt.startswith("前の冒険は残しました The unfinished game is kept as "
                                      "save.json.replaced-")
        assert f"beside {save_path}; this new game replaces it" in told.prompt
        assert [option.label for option in told.options] == ["OK 了解"]
        save_path.write_text(unfinished, encoding="utf-8")
        shown = len(screen.views)
        assert previous_game(save_path, new, screen, Controls([screen], player=False)).saved \
            is None
        assert len(screen.views) == shown  # the auto-player: stderr alone, no wait
    finally:
        screen.close()
        buttons.panel.close()


def test_headless_does_not_play_the_players_own_game_to_its_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`play --headless --resume` took a game the player had half played with the keys,
    played it to its end with the auto-player and recorded the death: the player's game
    was gone. It is refused now, naming how to resume it, and the save is left as it was."""
    save = default_save_path()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    played = load_game(save)
    assert played is not None
    # Another game than the one the history took (review65h RISK 1: an unfinished save of
    # a game in the history is over, its last writes refused, and a new game is played).
    save.write_text(replace(played, inputs=played.inputs[:15], events=0, finished=False,
                            player_chose=True, game_id="players-own").to_json(),
                    encoding="utf-8")
    before = save.read_bytes()
    capsys.readouterr()
    assert main(["play", "--headless", "--resume", "--state", str(save)]) == 2
    err = capsys.readouterr().err
    assert "played with your own choices" in err and "--choices keyboard" in err
    assert save.read_bytes() == before


def test_a_game_saved_before_profiles_were_read_over_the_packaged_one_resumes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A save written before holds the SHA-256 of the profile file's bytes: unchanged, the
    whole copy plays as it did, so the game resumes rather than being set aside."""
    import hashlib
    profile, save, played = game_with_a_profile_copy(tmp_path)
    cut_short(save, played, profile_hash=hashlib.sha256(profile.read_bytes()).hexdigest(),
              game_id="older")
    capsys.readouterr()
    assert main(["play", "--headless", "--resume", "--state", str(save)]) == 0
    assert not list(save.parent.glob("save.json.corrupt-*")), capsys.readouterr().err
    resumed = load_game(save)
    assert resumed is not None and resumed.game_id == "older" and resumed.finished


@pytest.mark.parametrize("recorded", [True, False])
def test_stopped_on_game_over_says_the_game_is_over_not_that_resume_carries_it_on(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        recorded: bool) -> None:
    """Ctrl-C on the Game over screen said "the game is saved in …: companion play --resume
    carries on", and --resume then started a new game (table audit F6). It says the game is
    over, and where it is: in the history, or (the history could not take it) put there
    when the next game starts."""
    from companion.app.commands.play import session

    def stopped_on_game_over(*args: object, **kwargs: object) -> bool:
        raise KeyboardInterrupt  # Ctrl-C (or the service stopped) on the farewell screen

    if not recorded:
        history_unavailable()
    save = default_save_path()
    with monkeypatch.context() as patch:
        patch.setattr(session, "farewell", stopped_on_game_over)
        assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                     "--seed", str(SEED)]) == 130
    saved = load_game(save)
    assert saved is not None and saved.finished
    err = capsys.readouterr().err
    assert "carries on" not in err
    if recorded:
        assert [run.game_id for run in History().runs()] == [saved.game_id]
        assert err.endswith("companion: stopped; the game is over and in the history "
                            "(companion history)\n")
    else:
        command = "companion play --resume --input sim --choices auto --display none"
        assert err.endswith(f"companion: stopped; the game is over and kept in {save}: it "
                            "goes in the history (companion history) when the next game "
                            f"starts ({command})\n")
        history_back()  # and so it is, by the next game: the one said, which plays it so
        with monkeypatch.context() as patch:
            patch.setattr(session, "farewell", stopped_on_game_over)
            assert main(shlex.split(command)[1:]) == 130
        assert saved.game_id in [run.game_id for run in History().runs()]


def marked_over_after_20(capsys: pytest.CaptureFixture[str]) -> tuple[Path, SaveGame]:
    """save.json holding a game's first 20 inputs, the game running, but marked over (a hand
    edit, a damaged card: the companion marks a game over only at its end)."""
    save = default_save_path()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    played = load_game(save)
    assert played is not None and played.finished
    mode = jongrogue_mode(played, None, "sim")
    replay(mode, played.inputs[:20], None)
    marked = replace(played, inputs=played.inputs[:20], events=mode.progress(),
                     game_id="marked-over", finished=True)
    write_save(save, marked)
    History().path.unlink()
    capsys.readouterr()
    return save, marked


@pytest.mark.parametrize("resume", [False, True])
def test_a_save_marked_over_whose_game_runs_on_is_kept_aside_not_overwritten(
        capsys: pytest.CaptureFixture[str], resume: bool) -> None:
    """Its replay has no end, so nothing went in the history and the next game's save
    replaced it, no copy kept: the game was lost unseen. It is kept as
    ``save.json.unfinished-…``, named, with how to play it on."""
    save, marked = marked_over_after_20(capsys)
    assert main(["play", "--headless", "--seed", "9", *(["--resume"] if resume else []),
                 "--state", str(save)]) == 0
    err = capsys.readouterr().err
    [kept] = save.parent.glob("save.json.unfinished-*")
    assert load_game(kept) == marked
    assert (f"companion: {save} says its game is over, but its inputs replay to floor 1 with "
            f"the game still running; it is kept as {kept}: `companion play --resume --headless "
            f"--state {kept}` plays it on\n") in err
    assert "marked-over" not in [run.game_id for run in History().runs()]
    new = load_game(save)
    assert new is not None and new.game_id != "marked-over"


def test_a_kept_save_marked_over_whose_game_runs_on_plays_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`play --resume --state save.json.unfinished-…`, as the message says, plays the game on
    from its 20 inputs, in that file (it used to be removed as if in the history)."""
    save, marked = marked_over_after_20(capsys)
    assert main(["play", "--headless", "--seed", "9", "--state", str(save)]) == 0
    [kept] = save.parent.glob("save.json.unfinished-*")
    capsys.readouterr()
    assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 0
    out, err = capsys.readouterr()
    assert (f"companion: the game kept in {kept} was marked over, but it replays to floor 1 "
            "still running: it plays on, in that file\n") in err
    assert f"--- resumed from {kept}: 20 inputs replayed ---" in out
    played_on = load_game(kept)
    assert played_on is not None and played_on.game_id == "marked-over"
    assert played_on.inputs[:20] == marked.inputs and len(played_on.inputs) > 20
    assert "marked-over" in [run.game_id for run in History().runs()]


def test_a_finished_save_played_with_gold_past_the_history_is_kept_and_play_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A profile of ``gold = 2**63`` was played to its end; putting that game in the history
    raised OverflowError, there and on every later `play` of that save (fuzz audit 2). Such
    a profile is refused now, so the finished save no longer replays: it is kept as
    ``.unrecorded-…``, said why, and the next game plays."""
    profile, save, played = game_with_a_profile_copy(tmp_path)
    profile.write_text(profile.read_text("utf-8").replace("gold = 0", f"gold = {2**63}", 1))
    write_save(save, replace(played, profile_hash=profile_hash(profile)))
    History().path.unlink()
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    [kept] = save.parent.glob("save.json.unrecorded-*")
    assert load_game(kept) == replace(played, profile_hash=profile_hash(profile))
    assert (f"could not be put in the history: {profile}: field pc.gold must be a whole "
            f"number from 0 to 1,000,000,000, found {2**63}") in err
    assert [run.seed for run in History().runs()] == [3]


def test_a_finished_save_the_history_cannot_store_is_kept_and_play_goes_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game id that is no UTF-8 (a lone surrogate written in a save's JSON) raised
    UnicodeEncodeError as the game went in the history, on every `play` of that save. The
    history says so, the save is kept as ``.unrecorded-…``, and the next game plays."""
    save = default_save_path()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    History().path.unlink()
    played = load_game(save)
    assert played is not None
    save.write_text(save.read_text("utf-8").replace(
        f'"game_id": "{played.game_id}"', '"game_id": "\\ud800"'), "utf-8")
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    err = capsys.readouterr().err
    [kept] = save.parent.glob("save.json.unrecorded-*")
    assert "game_id" in kept.read_text("utf-8") and "\\ud800" in kept.read_text("utf-8")
    assert (f"the game could not be put in the history: {History().path}: the game's game_id "
            "('\\ud800') is text the history cannot hold (not UTF-8)") in err
    assert [run.seed for run in History().runs()] == [3]


def test_a_finished_game_of_an_older_rules_revision_goes_in_the_history_as_played(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game saved under revision 5 and finished after an update went in the history as
    the current revision's: its row's seed and rules then named a game that revision does
    not play. The row keeps the save's revision."""
    save = default_save_path()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    played = load_game(save)
    assert played is not None and played.finished and played.rules == RULES_REVISION
    # Seed SEED meets no two gold-lovers by two piles: revision 5 plays it the same.
    write_save(save, replace(played, rules=5, game_id="rev-5"))
    History().path.unlink()
    assert main(["play", "--headless", "--seed", "9", "--state", str(save)]) == 0
    (run,) = [run for run in History().runs() if run.game_id == "rev-5"]
    assert run.rules == 5
