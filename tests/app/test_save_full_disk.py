"""A save the disk refuses (full, read-only) does not end the game: told, retried, whole again.

The disk's refusal is the world's edge: ``os.replace`` raising ENOSPC for the save, or a
real read-only folder in a child process without root's override of file modes.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play import jongrogue_mode
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.sim_sources import AutoChoices, SimTiles
from companion.app.session.host import Session
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.autoplay import find_strategy
from tests.app.fight_file_disk_helpers import EIO, TiredCard
from tests.app.session_helpers import RecordingDisplay
from tests.disk import NO_SPACE, refuse_writes, without_root_override

SEED = 2


def test_a_full_disk_mid_game_is_told_and_the_save_is_whole_once_it_can_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Writes 5 to 9 fail (the start's save, then moves 1 to 3 were saved): one line says so
    and how far the game is safe, play goes on, the next write that succeeds says so, and
    the game ends saved whole, the same game as with room on the disk."""
    reference = tmp_path / "reference.json"
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(reference)]) == 0
    save = tmp_path / "save.json"
    refuse_writes(save, monkeypatch, range(5, 10))
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        # setup64 NIT 3: the folder named, as the history's line names its file
        f"companion: cannot save ({NO_SPACE}): free space or fix the folder {tmp_path}; the "
        "game is safe up to move 3",
        "companion: saved again: the save holds the whole game again (move 9)",
    ]
    assert "Result:" in out
    saved, whole = load_game(save), load_game(reference)
    assert saved is not None and whole is not None and saved.finished
    assert (saved.inputs, saved.events) == (whole.inputs, whole.events)


def test_the_screen_says_the_save_is_behind_until_it_is_whole_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the table the player reads it on the screen: every screen while the disk refuses
    (before any other status), then once the line that it is saved again, drawn as good
    news is, not in the trouble colour."""
    save_path = tmp_path / "save.json"
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious")
    mode = jongrogue_mode(save, None, "sim")
    assert mode.sim is not None
    screen = RecordingDisplay()  # the display: every view shown is kept
    session = Session(mode, choices=AutoChoices(mode.game, find_strategy("cautious")),
                      tiles=SimTiles(mode.game, mode.sim), display=screen, save=save,
                      save_path=save_path)
    refuse_writes(save_path, monkeypatch, range(3, 6))
    session.keep_saved(starting=True)
    session.run()
    statuses = [view.status for view in screen.views]
    # Short and in both languages on the screen: the OS's words and the path are stderr's.
    trouble = "保存できません cannot save: disk full 空き容量なし; safe to move 1 1手目まで保存済"
    told = [n for n, status in enumerate(statuses) if status.startswith(trouble)]
    again = statuses.index("saved again 保存再開: the whole game, move 5 5手目まで")
    assert len(told) == 3 and told == list(range(told[0], again))
    assert "cannot save" not in " ".join(statuses[again:])
    # The trouble is drawn as trouble; the good news as guidance, not in the trouble colour.
    assert not any(screen.views[n].guidance for n in told)
    assert screen.views[again].guidance
    saved = load_game(save_path)
    assert saved is not None and saved.finished and saved.inputs == mode.journal


def test_a_read_only_folder_at_the_boot_services_resume_does_not_stop_the_game(
        tmp_path: Path) -> None:
    """The boot service (`play --resume`, restarted whenever it stops) finds its folder
    read-only: the game goes on from its save to its end, told that it cannot be saved,
    instead of failing at its first write for ever; the save is left as it was."""
    data = tmp_path / "data"
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(data)}
    save = data / "save.json"
    cut = subprocess.Popen([sys.executable, "-m", "companion", "play", "--headless", "--seed",
                            str(SEED), "--resume", "--pace", "0.1"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not save.exists() or len(json.loads(save.read_text())["inputs"]) < 4:
        assert time.monotonic() < deadline and cut.poll() is None
        time.sleep(0.05)
    cut.kill()  # the power goes
    cut.wait()
    before = save.read_bytes()
    moves = len(json.loads(before)["inputs"])
    data.chmod(0o555)
    try:
        resumed = subprocess.run([*without_root_override(), sys.executable, "-m", "companion",
                                  "play", "--headless", "--resume"], env=env,
                                 capture_output=True, text=True, timeout=120)
    finally:
        data.chmod(0o755)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr.splitlines() == [
        f"companion: cannot save ({os.strerror(errno.EACCES)}): free space or fix the folder "
        f"{data}; the game is safe up to move {moves}",
        # The history is in that folder too; the save's line said the game is not kept.
        f"companion: the game could not be put in the history: {data / 'history.sqlite3'}: "
        "cannot be opened (a missing or read-only folder?)",
        # hist65 RISK 2: how far the save holds the game, and the resume that finishes it
        f"companion: the save holds this game only up to move {moves} (the disk refused the "
        "rest): free space or fix the folder, then `companion play --resume --headless` "
        "plays it again to its end and puts it in the history"]
    assert "Result:" in resumed.stdout
    assert save.read_bytes() == before


class LogDisk:
    """The disk under a ``--log`` file, as a small card fills: at the log's ``fills_at``-th
    write (os.write; 1 is the first) only ``room`` bytes are left, so a write takes what
    fits and the next is refused (ENOSPC); cutting the file frees what it cut; at the
    ``frees_at``-th write there is room again."""

    def __init__(self, log: Path, monkeypatch: pytest.MonkeyPatch, fills_at: int = 0,
                 frees_at: int = 0, room: int = 40) -> None:
        self.log, self.fills_at, self.frees_at, self.room = log, fills_at, frees_at, room
        self.writes = 0
        self.free: int | None = None  # None: room enough
        self.real_write, self.real_ftruncate = os.write, os.ftruncate
        monkeypatch.setattr(os, "write", self.write)
        monkeypatch.setattr(os, "ftruncate", self.ftruncate)

    def ours(self, fd: int) -> bool:
        return os.readlink(f"/proc/self/fd/{fd}") == str(self.log)

    def write(self, fd: int, data: Any) -> int:
        if not self.ours(fd):
            return self.real_write(fd, data)
        self.writes += 1
        if self.writes == self.fills_at:
            self.free = self.room
        if self.writes == self.frees_at:
            self.free = None
        if self.free is None:
            return self.real_write(fd, data)
        if self.free == 0:
            raise OSError(errno.ENOSPC, NO_SPACE)
        taken = self.real_write(fd, bytes(data)[:self.free])
        self.free -= taken
        return taken

    def ftruncate(self, fd: int, length: int) -> None:
        if self.ours(fd) and self.free is not None:
            self.free += max(0, os.fstat(fd).st_size - length)
        self.real_ftruncate(fd, length)


def test_a_full_disk_under_the_log_does_not_end_the_game_and_the_log_is_whole_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With --log, a full disk ended the game (exit 1) though a refused save does not, and
    left half a line, for which `replay` refused the whole file; then a rewrite of the game's
    lines the disk cut short left half a line too. The game goes on; the log never keeps
    half a line, and is written whole once the disk takes it."""
    reference = tmp_path / "reference.jsonl"
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(reference)]) == 0
    log = tmp_path / "game.jsonl"
    disk = LogDisk(log, monkeypatch, fills_at=4, frees_at=16)
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--state",
                 str(tmp_path / "save.json"), "--log", str(log)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"companion: cannot write the log {log} ({NO_SPACE}): the game goes on, and the log "
        "is written whole again once it can be",
        f"companion: the log {log} holds the whole game again",
    ]
    assert "Result:" in out and disk.writes > 16
    lines, whole = log.read_text().splitlines(), reference.read_text().splitlines()
    assert [json.loads(line) for line in lines[1:]] == [json.loads(line) for line in whole[1:]]
    monkeypatch.undo()
    assert main(["replay", str(log)]) == 0


@pytest.mark.parametrize("filled", ["at the last step", "before it, for good"])
def test_a_log_the_disk_refuses_at_the_games_end_keeps_whole_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], filled: str) -> None:
    """The disk fills and stays full: the game ends, the log keeps whole lines (the game up
    to where the disk filled), and the end says the log stops before the game's end (a
    disk full for good said only that the log would be written whole again)."""
    reference = tmp_path / "reference.jsonl"
    counted = LogDisk(reference, monkeypatch)
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(reference)]) == 0
    log = tmp_path / "game.jsonl"
    LogDisk(log, monkeypatch, fills_at=counted.writes if filled == "at the last step" else 20)
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(log)]) == 0
    told = capsys.readouterr().err.splitlines()
    assert told[-1] == f"companion: cannot write the log {log} ({NO_SPACE}): it stops " \
                       "before the game's end"
    lines, whole = log.read_text().splitlines(), reference.read_text().splitlines()
    assert log.read_bytes().endswith(b"\n") and lines[1:] == whole[1:len(lines)]
    assert len(whole) > len(lines) > 1
    monkeypatch.undo()
    assert main(["replay", str(log)]) == 0


def test_a_log_the_kernel_cuts_short_for_good_keeps_whole_lines(tmp_path: Path) -> None:
    """A real refusal, from the kernel: the companion may write no file larger than half the
    game's log (RLIMIT_FSIZE, as a card's filesystem limits a file). The log's rewrite of
    the game's lines was cut part-way and kept half a line, which replay refused, and the
    refusal (EFBIG) ended the game. The game ends whole; the log keeps whole lines."""
    import resource
    import signal

    reference = tmp_path / "reference.jsonl"
    env = {**os.environ, "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    play = [sys.executable, "-m", "companion", "play", "--headless", "--seed", str(SEED)]
    subprocess.run([*play, "--log", str(reference)], env=env, check=True,
                   capture_output=True, timeout=120)
    limit = reference.stat().st_size // 2

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    log = tmp_path / "game.jsonl"
    result = subprocess.run([*play, "--log", str(log)], env=env, capture_output=True,
                            text=True, timeout=120, preexec_fn=small_files)
    assert result.returncode == 0, result.stderr
    assert "Result:" in result.stdout
    too_large = os.strerror(errno.EFBIG)
    assert result.stderr.splitlines()[-1] == (f"companion: cannot write the log {log} "
                                              f"({too_large}): it stops before the game's end")
    lines, whole = log.read_text().splitlines(), reference.read_text().splitlines()
    assert log.read_bytes().endswith(b"\n") and lines[1:] == whole[1:len(lines)]
    assert log.stat().st_size <= limit
    assert main(["replay", str(log)]) == 0


def test_a_save_whose_folder_could_not_be_synced_is_told_as_written_not_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The save was renamed into place and its folder's fsync failed (EIO, a tired card): it
    was said as "cannot save", though it was written; a power cut may undo it, so the moves
    safe are still the ones synced before, and the next write that syncs says so."""
    save = tmp_path / "save.json"
    card = TiredCard(save, monkeypatch, {3})
    screen = RecordingDisplay()
    saved = SaveGame(seed=SEED, preset="plus", strategy="cautious")
    mode = jongrogue_mode(saved, None, "sim")
    assert mode.sim is not None
    session = Session(mode, choices=AutoChoices(mode.game, find_strategy("cautious")),
                      tiles=SimTiles(mode.game, mode.sim), display=screen, save=saved,
                      save_path=save)
    session.keep_saved(starting=True)
    session.run()
    assert card.failed == 1
    statuses = [view.status for view in screen.views]
    assert statuses.count("保存未確定 saved, may not be on the card: disk error 入出力エラー; "
                          "safe to move 1 1手目まで保存済") == 1
    assert "saved again 保存再開: the whole game, move 3 3手目まで" in statuses
    assert capsys.readouterr().err.splitlines() == [
        f"companion: saved, but its folder could not be synced ({EIO}): a power cut may undo "
        "it; it is written again at the next step; the game is safe up to move 1",
        "companion: saved again: the save holds the whole game again (move 3)"]
