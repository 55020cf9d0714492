"""``play --log FILE``'s rotation (review61b D1, R1, N1, N4): only a regular file is moved,
never a symbolic link (``--log /dev/stdout`` renamed /dev/stdout) nor what it leads to; two
games beginning on one log at once rotate it once; a log is moved only past the limit, as
``--help`` says; and a resume never moves it."""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.session import log as log_module
from companion.app.session.host import Session
from companion.app.session.log import GameLog, older_log, rotate_limit
from companion.errors import DataError
from tests.app.power_cuts import cut_after_saves

HEADER = '{"game_id": "%s", "log": "jongrogue-companion"}\n'
BIG = HEADER % "a" + '{"e": 1}\n' * 8  # past the 64 bytes the tests set


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_module, "ROTATE_AT", 64)


@pytest.mark.usefixtures("small_limit")
def test_a_link_to_a_big_log_is_neither_moved_nor_is_its_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The link was renamed to FILE.1 and a new FILE made in the link's folder (the SD
    card, not the USB stick it led to), the log itself never moved. Now nothing moves, the
    game goes on at the log's end, and stderr says why it is not bounded."""
    (tmp_path / "usb").mkdir()
    (tmp_path / "sd").mkdir()
    target = tmp_path / "usb" / "big.jsonl"
    target.write_text(BIG)
    link = tmp_path / "sd" / "game.jsonl"
    link.symlink_to(target)
    log = GameLog.begin(link)
    assert log.start == len(BIG)
    log.rewrite([HEADER.strip() % "b"])
    assert link.is_symlink() and link.readlink() == target
    assert target.read_text() == BIG + HEADER % "b"
    # held while its game lasts, beside the file the link leads to (hist68 RISK 2)
    assert (tmp_path / "usb" / "big.jsonl.lock").exists()
    log.close()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["big.jsonl", "game.jsonl",
                                                           "sd", "usb"]
    assert capsys.readouterr().err == (
        f"companion: the log {link} is past 64 bytes but is not moved to game.jsonl.1: it is "
        "a symbolic link, and only a regular file is moved, so this log is not bounded; give "
        "--log the file it leads to, to bound it\n")


@pytest.mark.usefixtures("small_limit")
def test_a_link_through_proc_to_a_big_log_is_never_renamed(tmp_path: Path) -> None:
    """``--log /dev/stdout >> games.jsonl``: /dev/stdout leads through /proc/self/fd/1 to
    the file the shell appends to. A link so made stands in for /dev/stdout here."""
    big = tmp_path / "games.jsonl"
    big.write_text(BIG)
    with big.open("ab") as stdout:
        (tmp_path / "so").mkdir()
        out = tmp_path / "so" / "out"
        out.symlink_to(f"/proc/self/fd/{stdout.fileno()}")
        log = GameLog.begin(out)
        assert log.start == len(BIG)
        assert out.is_symlink() and os.listdir(tmp_path / "so") == ["out"]
        assert big.read_text() == BIG and not older_log(big, 1).exists()


@pytest.mark.usefixtures("small_limit")
@pytest.mark.parametrize("kind", ["fifo", "null"])
def test_a_link_to_a_pipe_or_a_device_is_refused_and_nothing_moves(tmp_path: Path,
                                                                   kind: str) -> None:
    """No log: refused before any rotation, the link and what it leads to as they were."""
    if kind == "fifo":
        target = tmp_path / "pipe"
        os.mkfifo(target)
    else:
        target = Path(os.devnull)
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    with pytest.raises(DataError, match="a device or a pipe, not a log"):
        GameLog.begin(link)
    assert link.is_symlink() and link.readlink() == target
    assert not older_log(link, 1).exists()
    assert target.is_fifo() if kind == "fifo" else target.is_char_device()


def test_a_log_of_exactly_the_limit_is_not_past_it_and_stays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--help`` says "past 8 MiB": a log of exactly 8 MiB was moved; now only a larger
    one is."""
    path = tmp_path / "games.jsonl"
    path.write_text(BIG)
    monkeypatch.setattr(log_module, "ROTATE_AT", len(BIG))
    assert GameLog.begin(path).start == len(BIG) and not older_log(path, 1).exists()
    monkeypatch.setattr(log_module, "ROTATE_AT", len(BIG) - 1)
    assert GameLog.begin(path).start == 0 and older_log(path, 1).read_text() == BIG


def test_play_help_names_the_limit(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert f"with FILE past {rotate_limit()} first moves it to FILE.1" in (
        " ".join(capsys.readouterr().out.split()))
    assert rotate_limit() == "8 MiB"


@pytest.mark.usefixtures("small_limit")
def test_a_game_beginning_while_another_rotates_the_log_waits_and_does_not_rotate_again(
        tmp_path: Path) -> None:
    """Two `play` on one big log: both found it past the limit and both moved it, the older
    FILE.1 lost and the first game's lines parted between FILE.1 and FILE. The second now
    waits for the first's hold on the log (the test holds it, as the first game's begin
    does), then finds the first's new log, and adds its game to it."""
    path = tmp_path / "games.jsonl"
    path.write_text(BIG)
    older = HEADER % "old" + "\n"
    older_log(path, 1).write_text(older)
    began: list[GameLog] = []
    with path.open("rb+") as first:
        fcntl.flock(first.fileno(), fcntl.LOCK_EX)
        second = threading.Thread(target=lambda: began.append(GameLog.begin(path)))
        second.start()
        second.join(0.5)
        assert second.is_alive() and not began  # waiting for the first game's begin
        assert log_module._rotate(path)  # the first game's begin moves the log on
        path.write_text(HEADER % "first")
    second.join(10)
    assert [log.start for log in began] == [len(HEADER % "first")]
    assert path.read_text() == HEADER % "first"
    assert older_log(path, 1).read_text() == BIG
    assert older_log(path, 2).read_text() == older


@pytest.mark.usefixtures("small_limit")
def test_a_filesystem_keeping_no_locks_still_rotates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """NFS without its lock manager refuses flock (ENOLCK): the log is used unlocked."""
    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    path = tmp_path / "games.jsonl"
    path.write_text(BIG)
    monkeypatch.setattr(fcntl, "flock", no_locks)
    assert GameLog.begin(path).start == 0
    assert older_log(path, 1).read_text() == BIG


def test_a_resumed_game_past_the_limit_goes_on_in_the_same_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A game stopped with its log past the limit is resumed into that log, never moved: only
    a new game's beginning rotates. The game is whole in FILE alone and replays."""
    log, state = tmp_path / "games.jsonl", tmp_path / "save.json"
    monkeypatch.setattr(log_module, "ROTATE_AT", 64)
    with monkeypatch.context() as patch:
        patch.setattr(Session, "_commit", cut_after_saves(6))
        assert main(["play", "--headless", "--seed", "41", "--state", str(state),
                     "--log", str(log)]) == 130
    stopped = log.read_bytes()
    assert len(stopped) > 64
    assert main(["play", "--headless", "--resume", "--state", str(state),
                 "--log", str(log)]) == 0
    saved = load_game(state)
    assert saved is not None and saved.finished and saved.log_start == 0
    assert log.read_bytes().startswith(stopped) and not older_log(log, 1).exists()
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "game 1 (seed 41, plus)" in out and "game 2" not in out
