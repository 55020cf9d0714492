"""A table whose fight file's write went through but whose folder fsync after the rename
failed (EIO on a tired SD card), and a table whose fight file cannot be read: neither is the
GM's change. The table goes on (told the write may not be on the card) or stops saying the
file cannot be read, and a restart does not ask the player about a change nobody made.

The failures are the world's edge: ``os.fsync`` of the fight file's folder raising EIO
once the rename is done, and the fight file's reads raising EIO.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.table_modes import run_genso, titled
from companion.app.modes.fight_file import FightClosed, FightFileChanged
from companion.app.modes.fight_save import FightSave
from companion.app.modes.genso import GensoFightMode, table_session
from companion.app.session.controls import Controls
from companion.errors import DataError
from companion.hw.buttons import Button
from tests.app.fight_file_disk_helpers import (
    EIO,
    FOUR_ACTIONS,
    AfterTheFirstAction,
    TiredCard,
    on_file,
    saved,
    sha,
)
from tests.app.fight_file_question_helpers import Screen, resumed, sim
from tests.app.genso_table_helpers import CHOICES, RULES, SEED, fight_file, play
from tests.app.session_helpers import RecordingDisplay
from tests.app.table import Player
from tests.disk import record_writes


def test_a_failed_folder_fsync_is_told_and_the_table_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The folder's fsync failed after the first action's write of the fight file was renamed
    into place. The table kept its record of the file from before that write, so the next
    action stopped it with "the fight file … was changed while the table ran", and a restart
    would have asked the player to take up "the GM's" file. The file is the table's write:
    the table plays on, telling the player the write may not be on the card, and says the
    file is whole again once a write of it works."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    screen = RecordingDisplay()
    with monkeypatch.context() as disk:
        card = TiredCard(path, disk, {2})
        session = table_session(RULES, path, tmp_path / "table.json", resume=False,
                                seed=SEED, choices=Player(FOUR_ACTIONS), display=screen)
        with pytest.raises(KeyboardInterrupt):  # the power cut after four actions
            session.run()
    assert card.failed == 1 and card.writes == 5
    assert isinstance(session.mode, GensoFightMode) and len(session.mode.fight.journal) == 4
    assert on_file(tmp_path) == session.mode.fight.to_json()
    assert saved(tmp_path).fight_sha == sha(path)
    # Told, on stderr and on the screen, until the next write of the file worked.
    # As written, not refused: only a power cut before the next write may undo it.
    assert capsys.readouterr().err.splitlines() == [
        f"companion: wrote the fight file {path}, but its folder could not be synced ({EIO}): "
        "a power cut may undo that write; the table's save holds every action, and the file "
        "is written again when it can be",
        f"companion: written again: the fight file {path} is whole again"]
    statuses = [view.status for view in screen.views]
    told = ("戦闘ファイル fight.json may not be on the card 書込未確定: disk error 入出力エラー; "
            "the save holds all 保存は完全")
    assert told in statuses
    assert "戦闘ファイル fight.json written again 書込再開" in statuses
    # The restart the boot service makes goes on from the save, to the fight's end.
    resumed_mode = play(tmp_path, CHOICES[len(FOUR_ACTIONS):], resume=True)
    assert resumed_mode.done and on_file(tmp_path) == resumed_mode.fight.to_json()


def test_a_restart_after_a_failed_folder_fsync_asks_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder's fsync failed after the third action's write of the fight file; the power
    went as the fourth's was written, after its save. The table save kept the SHA of the
    write before the one that failed to sync, so the boot service's restart asked the player
    "戦闘ファイルが変更されました The fight file was changed", though nobody changed it. The
    save has that write's SHA: the restart writes the file forward, asking nothing."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        card = TiredCard(path, disk, {4}, cut=5)
        first = play(tmp_path, FOUR_ACTIONS)
    assert card.failed == 1 and len(first.fight.journal) == 4
    assert len(on_file(tmp_path)["journal"]) == 3 and saved(tmp_path).inputs == first.journal
    screen = Screen([Button.FLEE])  # would quit at the question
    with pytest.raises(KeyboardInterrupt):  # the power goes at the fight's first menu
        run_genso(resumed(tmp_path), sim(), titled(screen, "genso"), Controls([screen]), None)
    assert screen.views and not any(view.message for view in screen.views)
    assert on_file(tmp_path) == first.fight.to_json()
    assert saved(tmp_path).fight_sha == sha(path)


def test_the_gms_undo_after_a_failed_folder_fsync_is_the_gms(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder's fsync failed after the fourth action's write, the last before the power
    went; then the GM undid that action on a computer. The save still had the SHA of the
    write before, the same bytes as the GM's undo, so the restart took the GM's file for the
    table's own, behind it, and wrote the undone action back over it. The save has the SHA
    of the write that went through: the GM's undo is the GM's, and the restart says so."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        card = TiredCard(path, disk, {5})
        first = play(tmp_path, FOUR_ACTIONS)
    assert card.failed == 1 and on_file(tmp_path) == first.fight.to_json()
    assert main(["genso", "fight", "undo", "--file", str(path)]) == 0
    undone = on_file(tmp_path)
    with pytest.raises(FightFileChanged, match="changed since the table saved it"):
        play(tmp_path, [], resume=True)
    assert on_file(tmp_path) == undone and len(undone["journal"]) == 3


class CardFailsToRead(AfterTheFirstAction):
    """Reading the fight file fails (EIO) after the first action."""

    def happen(self) -> None:
        real, target = Path.read_bytes, self.path

        def read_bytes(path: Path) -> bytes:
            if path.resolve() == target:
                raise OSError(errno.EIO, EIO, str(path))
            return real(path)

        self.disk.setattr(Path, "read_bytes", read_bytes)


def test_a_fight_file_that_cannot_be_read_is_not_the_gms_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the fight file failed before the table's write of the second action: the table
    stopped saying the fight command changed it while the table ran. It stops saying the file
    cannot be read, and why, leaving the file as it is; once it reads again, the restart
    goes on from the save."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        session = table_session(RULES, path, tmp_path / "table.json", resume=False,
                                seed=SEED, choices=CardFailsToRead(FOUR_ACTIONS, path, disk))
        with pytest.raises(DataError) as stopped:
            session.run()
    message = str(stopped.value)
    assert message.startswith(f"cannot read {path}: {EIO} 戦闘ファイルを読めません; the table "
                              "stops and leaves it as it is")
    assert "changed" not in message
    assert [entry["action"]["kind"] for entry in on_file(tmp_path)["journal"]] == ["attack"]
    assert isinstance(session.mode, GensoFightMode) and len(session.mode.fight.journal) == 2
    resumed_mode = play(tmp_path, CHOICES[6:], resume=True)
    assert resumed_mode.done and on_file(tmp_path) == resumed_mode.fight.to_json()


def test_a_cut_that_undid_a_write_whose_folder_fsync_failed_asks_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three actions written and synced; the fourth's write of the fight file was renamed into
    place but its folder's fsync failed, and the power cut that followed undid the rename:
    the third action's file came back, with its own time. The save held only the fourth
    write's SHA, so the boot service's restart asked the player about a change of the GM's
    nobody made, and taking the file up would have played on an action behind. The save
    keeps the synced write's SHA too: the restart writes the file forward, asking nothing."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        written = record_writes(path, disk)
        card = TiredCard(path, disk, {5})  # 1: the table's start, 5: the fourth action
        first = play(tmp_path, FOUR_ACTIONS)
    assert card.failed == 1 and len(first.fight.journal) == 4 and len(written) == 5
    assert saved(tmp_path).fight_sha == sha(path)
    assert saved(tmp_path).fight_sha_durable == hashlib.sha256(written[3][0]).hexdigest()
    # The cut: the rename is undone, the third action's file back, with its own time.
    synced, synced_at = written[3]
    path.write_bytes(synced)
    os.utime(path, ns=(synced_at.st_atime_ns, synced_at.st_mtime_ns))
    assert len(on_file(tmp_path)["journal"]) == 3
    screen = Screen([Button.FLEE])  # would quit at the question
    with pytest.raises(KeyboardInterrupt):  # the power goes at the fight's first menu
        run_genso(resumed(tmp_path), sim(), titled(screen, "genso"), Controls([screen]), None)
    assert screen.views and not any(view.message for view in screen.views)
    assert on_file(tmp_path) == first.fight.to_json()
    # Synced this time: the save is again one an older companion reads.
    assert saved(tmp_path).fight_sha == sha(path) and saved(tmp_path).fight_sha_durable is None
    assert "fight_sha_durable" not in json.loads((tmp_path / "table.json").read_text())
    resumed_mode = play(tmp_path, CHOICES[len(FOUR_ACTIONS):], resume=True)
    assert resumed_mode.done and resumed_mode.fight.journal[:4] == first.fight.journal


def test_the_gms_undo_dated_before_the_save_by_a_clock_behind_is_asked_about(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fourth action's write was renamed into place but its folder's fsync failed; the
    table stopped. The Pi started again with its clock behind (it has none of its own), and
    the GM undid the fourth action with the fight command: the same bytes as the third
    action's synced write, dated before the table's save. Taken for a cut's rollback, the
    undo was written over with the fourth action. The cut's file has the synced write's own
    time to the nanosecond; the undo has its own, so the player is asked."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        written = record_writes(path, disk)
        TiredCard(path, disk, {5})  # 5: the fourth action
        play(tmp_path, FOUR_ACTIONS)
    synced, synced_at = written[3]
    assert saved(tmp_path).fight_durable_mtime_ns == synced_at.st_mtime_ns
    undo = tmp_path / "undo.json"
    undo.write_bytes(synced)
    behind = (tmp_path / "table.json").stat().st_mtime_ns - 600 * 10**9
    os.utime(undo, ns=(behind, behind))
    os.replace(undo, path)  # the fight command writes beside and renames
    with pytest.raises(FightFileChanged):
        play(tmp_path, [], resume=True)
    assert len(on_file(tmp_path)["journal"]) == 3


def test_a_save_from_before_the_synced_time_was_kept_goes_by_the_files_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save written before ``fight_durable_mtime_ns`` was kept has only the synced write's
    SHA: a file with it, older than the save, is the cut's, and written forward."""
    fight_file(tmp_path)
    path = (tmp_path / "fight.json").resolve()
    with monkeypatch.context() as disk:
        written = record_writes(path, disk)
        TiredCard(path, disk, {5})
        first = play(tmp_path, FOUR_ACTIONS)
    table = json.loads((tmp_path / "table.json").read_text())
    del table["fight_durable_mtime_ns"]
    (tmp_path / "table.json").write_text(json.dumps(table))
    path.write_bytes(written[3][0])
    before = (tmp_path / "table.json").stat().st_mtime_ns - 10**9
    os.utime(path, ns=(before, before))
    resumed_mode = play(tmp_path, [], resume=True)
    assert on_file(tmp_path) == first.fight.to_json() == resumed_mode.fight.to_json()


def test_a_table_save_names_a_synced_sha_that_is_not_text() -> None:
    """The synced write's SHA, kept while the writes after it are not synced, is checked as
    the other fields are: a save holding another kind of value is named, not a traceback;
    a save from before it was kept reads as one whose writes were all synced."""
    table = {"version": 1, "seed": 1, "preset": "genso", "inputs": [], "events": 0,
             "log_start": 0, "game_id": "g", "finished": False, "fight": {"journal": []},
             "fight_path": "fight.json", "fight_sha": "ab"}
    assert FightSave.from_json(json.dumps(table)).fight_sha_durable is None
    with pytest.raises(DataError, match="table: fight_sha_durable must be str"):
        FightSave.from_json(json.dumps({**table, "fight_sha_durable": 5}), "table")
    with pytest.raises(DataError, match="table: fight_durable_mtime_ns must be int"):
        FightSave.from_json(json.dumps({**table, "fight_durable_mtime_ns": "5"}), "table")


def test_a_cut_that_undid_the_closing_write_leaves_the_fight_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The GM's End fight was the last action; its write of the fight file was renamed into
    place but its folder's fsync failed, the table was closed, and a power cut undid that
    write. The save was finished but its SHA no longer the file's, so `--resume` took the
    file up as a fight to play, the ended fight going on from before its end. It is the
    closed fight: the table says so and waits for the next (FightClosed)."""
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    whole.mkdir()
    cut.mkdir()
    fight_file(whole)
    with monkeypatch.context() as disk:
        counted = record_writes(whole / "fight.json", disk)
        assert play(whole, CHOICES).done
    fight_file(cut)
    path = (cut / "fight.json").resolve()
    with monkeypatch.context() as disk:
        written = record_writes(path, disk)
        card = TiredCard(path, disk, {len(counted)})  # the End fight's write
        ended = play(cut, CHOICES)
    assert card.failed == 1 and ended.done and saved(cut).finished
    assert on_file(cut)["journal"][-1]["action"]["kind"] == "end"
    # The cut: the file before the end comes back, with its own time.
    synced, synced_at = written[-2]
    path.write_bytes(synced)
    os.utime(path, ns=(synced_at.st_atime_ns, synced_at.st_mtime_ns))
    assert sha(path) == saved(cut).fight_sha_durable
    with pytest.raises(FightClosed):
        play(cut, [], resume=True)
