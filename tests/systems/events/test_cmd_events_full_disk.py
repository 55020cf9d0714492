"""``companion events`` tables on a data folder that refuses their lists (full): the roll is
shown, and one line says what was not recorded and what to do.

The disk's refusal is the world's edge: ``os.replace`` raising ENOSPC for one list.
"""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.app.poisons import PoisonList, poisons_path
from companion.app.recovery_rooms import RecoveryRooms, rooms_path
from tests.disk import NO_SPACE, refuse_writes

TRACKING = "Tracking Aki's poison"


def test_a_poison_rolled_on_a_full_disk_is_shown_and_said_not_recorded(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The roll was made, then the poison list refused, and all the player saw was
    "poisoned.toml: No space left on device": the poison rolled (with --dice camera, a real
    throw) was never shown."""
    assert main(["events", "poison", "--who", "Aki", "--seed", "3"]) == 0
    shown = capsys.readouterr().out
    poisons_path().unlink()
    refuse_writes(poisons_path(), monkeypatch)
    assert main(["events", "poison", "--who", "Aki", "--seed", "3"]) == 1
    out, err = capsys.readouterr()
    assert out == shown.split(TRACKING)[0]  # the roll, not that it is tracked
    assert err == (f"companion: cannot save the poison list {poisons_path()} ({NO_SPACE}): "
                   "nothing of this roll is recorded (Aki not tracked as poisoned); free space "
                   "or fix the folder, and note it by hand\n")
    assert not poisons_path().exists()


def test_a_recovery_whose_cure_is_refused_does_not_spend_the_room(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A recovery spot's cure the disk refused: the roll was not shown, and nothing said that
    Aki is still listed as poisoned; the room is not marked either, so its spot is not spent
    on a cure that was not kept."""
    main(["events", "poison", "--who", "Aki", "--seed", "3"])
    refuse_writes(poisons_path(), monkeypatch)
    capsys.readouterr()
    assert main(["events", "recovery", "--room", "5", "--seed", "4"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("EV-REC-1  回復/Recovery spot in room 5: poison cured")
    assert err == (f"companion: cannot save the poison list {poisons_path()} ({NO_SPACE}): "
                   "nothing of this roll is recorded (Aki still listed as poisoned; room 5 not "
                   "marked used); free space or fix the folder, and note it by hand\n")
    assert list(PoisonList(poisons_path()).poisons) == ["Aki"]
    assert RecoveryRooms(rooms_path()).used == []


def test_a_room_the_disk_refuses_to_mark_is_said_beside_the_cure_kept(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The cure written, the used room refused: the command ended on the OS error, the roll
    unseen, and nothing said that the cure was kept but the room not marked."""
    main(["events", "poison", "--who", "Aki", "--seed", "3"])
    refuse_writes(rooms_path(), monkeypatch)
    capsys.readouterr()
    assert main(["events", "recovery", "--room", "5", "--seed", "4"]) == 1
    out, err = capsys.readouterr()
    assert "Poisons cured (EV-REC-1): Aki's 異性化/Gender swap" in out
    assert err == (f"companion: cannot save the used rooms ({rooms_path()}: {NO_SPACE}): room 5 "
                   "is not marked used; the cure is recorded; free space or fix the folder, "
                   "and note it by hand\n")
    assert PoisonList(poisons_path()).poisons == {}
    assert RecoveryRooms(rooms_path()).used == []


def test_a_recovery_the_disk_refused_says_neither_the_cure_nor_the_room_on_stdout(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Review #10: with the poison list refused, stdout still said "room 5 now used" and
    "Poisons cured (EV-REC-1): Aki's …" while stderr said Aki is still listed as poisoned
    and the room not marked. The room's line says it is not recorded, and the cure is not
    said to be in the list."""
    main(["events", "poison", "--who", "Aki", "--seed", "3"])
    capsys.readouterr()
    assert main(["events", "recovery", "--room", "5", "--seed", "4"]) == 0
    kept = capsys.readouterr().out
    assert "room 5 now used: coming back gives nothing\n" in kept
    assert "Poisons cured (EV-REC-1): Aki's" in kept
    main(["events", "new-dungeon"])
    main(["events", "poison", "--who", "Aki", "--seed", "3"])
    refuse_writes(poisons_path(), monkeypatch)
    capsys.readouterr()
    assert main(["events", "recovery", "--room", "5", "--seed", "4"]) == 1
    out = capsys.readouterr().out
    assert "Poisons cured" not in out
    assert "この部屋は使用済み/room 5 now used: coming back gives nothing (not recorded)\n" in out
    assert out == kept.replace("coming back gives nothing\n",
                               "coming back gives nothing (not recorded)\n").split(
                                   "Poisons cured")[0]


def test_a_room_the_disk_refused_is_said_not_recorded_on_stdout_too(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Review #10: the used rooms refused (the cure kept), stdout still said "room 5 now
    used" as if remembered; it says the room is not recorded, and the cure (recorded) is
    still said."""
    main(["events", "poison", "--who", "Aki", "--seed", "3"])
    refuse_writes(rooms_path(), monkeypatch)
    capsys.readouterr()
    assert main(["events", "recovery", "--room", "5", "--seed", "4", "--json"]) == 1
    out = capsys.readouterr().out
    assert "room 5 now used: coming back gives nothing (not recorded)" in out
    assert main(["events", "recovery", "--room", "5", "--seed", "4"]) == 1
    out = capsys.readouterr().out
    assert "room 5 now used: coming back gives nothing (not recorded)\n" in out


def test_a_room_the_disk_refused_is_not_listed_used_in_the_json(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Review 2 #2: the used rooms refused, stderr said "room R7 is not marked used" and the
    step "(not recorded)", yet `--json` listed R7 in "used_rooms": anything reading it took
    the room's spot as spent, though the file did not hold it. It lists what the file holds."""
    main(["events", "recovery", "--room", "R1", "--seed", "3"])
    refuse_writes(rooms_path(), monkeypatch)
    capsys.readouterr()
    assert main(["events", "recovery", "--room", "R7", "--seed", "3", "--json"]) == 1
    out, err = capsys.readouterr()
    assert "room R7 is not marked used" in err
    assert json.loads(out)["used_rooms"] == ["R1"] == RecoveryRooms(rooms_path()).used
