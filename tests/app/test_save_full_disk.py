"""A save the disk refuses (full, read-only) does not end the game: told, retried, whole again.

The disk's refusal is the world's edge: ``os.replace`` raising ENOSPC for the save, or a
real read-only folder in a child process without root's override of file modes.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands.play import jongrogue_mode
from companion.app.commands.play.saves import load_game
from companion.app.modes.jongrogue import AutoChoices, SimTiles
from companion.app.session.host import Session
from companion.app.session.save import SaveGame
from companion.systems.jongrogue.autoplay import find_strategy
from tests.app.test_session import RecordingDisplay

SEED = 2
NO_SPACE = os.strerror(errno.ENOSPC)


def disk_full_for(save: Path, monkeypatch: pytest.MonkeyPatch, failing: range) -> None:
    """The disk refuses the save's writes numbered ``failing`` (1 is the first)."""
    real = os.replace
    writes = 0

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        nonlocal writes
        if Path(dst) == save:
            writes += 1
            if writes in failing:
                raise OSError(errno.ENOSPC, NO_SPACE)
        real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)


def test_a_full_disk_mid_game_is_told_and_the_save_is_whole_once_it_can_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Writes 5 to 9 fail (the start's save, then moves 1 to 3 were saved): one line says so
    and how far the game is safe, play goes on, the next write that succeeds says so, and
    the game ends saved whole, the same game as with room on the disk."""
    reference = tmp_path / "reference.json"
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(reference)]) == 0
    save = tmp_path / "save.json"
    disk_full_for(save, monkeypatch, range(5, 10))
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"companion: cannot save ({NO_SPACE}): free space or fix the folder; the game is safe "
        "up to move 3",
        "companion: saved again: the save holds the whole game again (move 9)",
    ]
    assert "Result:" in out
    saved, whole = load_game(save), load_game(reference)
    assert saved is not None and whole is not None and saved.finished
    assert (saved.inputs, saved.events) == (whole.inputs, whole.events)


def test_the_screen_says_the_save_is_behind_until_it_is_whole_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the table the player reads it on the screen: every screen while the disk refuses
    (before any other status), then once the line that it is saved again."""
    save_path = tmp_path / "save.json"
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious")
    mode = jongrogue_mode(save, None, "sim")
    assert mode.sim is not None
    screen = RecordingDisplay()  # the display: every view shown is kept
    session = Session(mode, choices=AutoChoices(mode.game, find_strategy("cautious")),
                      tiles=SimTiles(mode.game, mode.sim), display=screen, save=save,
                      save_path=save_path)
    disk_full_for(save_path, monkeypatch, range(3, 6))
    session.keep_saved(starting=True)
    session.run()
    statuses = [view.status for view in screen.views]
    trouble = (f"cannot save ({NO_SPACE}): free space or fix the folder; the game is safe up "
               "to move 1")
    told = [n for n, status in enumerate(statuses) if status.startswith(trouble)]
    again = statuses.index("saved again: the save holds the whole game again (move 5)")
    assert len(told) == 3 and told == list(range(told[0], again))
    assert "cannot save" not in " ".join(statuses[again:])
    saved = load_game(save_path)
    assert saved is not None and saved.finished and saved.inputs == mode.journal


def without_root_override() -> list[str]:
    """The command prefix that makes a read-only folder read-only to this user: root ignores
    file modes unless it drops that capability."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only folder is not read-only")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--"]


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
        f"companion: cannot save ({os.strerror(errno.EACCES)}): free space or fix the folder; "
        f"the game is safe up to move {moves}",
        # The history is in that folder too; the save's line said the game is not kept.
        f"companion: the game could not be put in the history: {data / 'history.sqlite3'}: "
        "cannot be opened (a missing or read-only folder?)"]
    assert "Result:" in resumed.stdout
    assert save.read_bytes() == before


class LogDisk:
    """The disk under a ``--log`` file. It counts the log's writes: an append (os.write), or
    a rewrite of the game's lines (seen at its os.fsync). Of those numbered ``failing`` (1
    is the first) an append gets half its bytes written, then ENOSPC; a rewrite, ENOSPC."""

    def __init__(self, log: Path, monkeypatch: pytest.MonkeyPatch,
                 failing: range = range(0)) -> None:
        self.log, self.failing = log, failing
        self.writes = 0
        self.refusing = False
        self.real_write, self.real_fsync = os.write, os.fsync
        monkeypatch.setattr(os, "write", self.write)
        monkeypatch.setattr(os, "fsync", self.fsync)

    def ours(self, fd: int) -> bool:
        return os.readlink(f"/proc/self/fd/{fd}") == str(self.log)

    def write(self, fd: int, data: Any) -> int:
        if not self.ours(fd):
            return self.real_write(fd, data)
        if self.refusing:
            self.refusing = False
            raise OSError(errno.ENOSPC, NO_SPACE)
        self.writes += 1
        if self.writes in self.failing:
            self.refusing = True
            return self.real_write(fd, bytes(data)[:len(data) // 2])
        return self.real_write(fd, data)

    def fsync(self, fd: int) -> None:
        # An append's own fsync (the last step's) is part of its write, counted there.
        if self.ours(fd) and not fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND:
            self.writes += 1
            if self.writes in self.failing:
                raise OSError(errno.ENOSPC, NO_SPACE)
        self.real_fsync(fd)


def test_a_full_disk_under_the_log_does_not_end_the_game_and_the_log_is_whole_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With --log, a full disk ended the game (exit 1) though a refused save does not, and
    left half a line, for which `replay` refused the whole file. The game goes on; the log
    gets no half line, and is written whole once the disk takes it."""
    reference = tmp_path / "reference.jsonl"
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(reference)]) == 0
    log = tmp_path / "game.jsonl"
    LogDisk(log, monkeypatch, range(4, 7))
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--state",
                 str(tmp_path / "save.json"), "--log", str(log)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"companion: cannot write the log {log} ({NO_SPACE}): the game goes on, and the log "
        "is written whole again once it can be",
        f"companion: the log {log} holds the whole game again",
    ]
    assert "Result:" in out
    lines, whole = log.read_text().splitlines(), reference.read_text().splitlines()
    assert [json.loads(line) for line in lines[1:]] == [json.loads(line) for line in whole[1:]]
    monkeypatch.undo()
    assert main(["replay", str(log)]) == 0


def test_a_log_the_disk_refuses_at_the_games_end_keeps_whole_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The last step's lines cannot be written: said, and the log keeps whole lines, the
    game up to its last step."""
    reference = tmp_path / "reference.jsonl"
    counted = LogDisk(reference, monkeypatch)
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(reference)]) == 0
    log = tmp_path / "game.jsonl"
    LogDisk(log, monkeypatch, range(counted.writes, counted.writes + 1))
    capsys.readouterr()
    assert main(["play", "--headless", "--seed", str(SEED), "--log", str(log)]) == 0
    assert capsys.readouterr().err == (f"companion: cannot write the log {log} ({NO_SPACE}): "
                                       "it stops before the game's end\n")
    lines, whole = log.read_text().splitlines(), reference.read_text().splitlines()
    assert log.read_bytes().endswith(b"\n") and lines[1:] == whole[1:len(lines)]
    assert len(whole) > len(lines) > 1
