"""The poison list and the used recovery rooms, changed by two programs at once (concurrency
audit 58 F2): each change read the file, changed it and wrote it back, and a change another
program wrote between that read and that write was written over, nothing said.

The interleaving is driven, not timed: the disk's rename of the first change's write
(``os.replace``, the edge of the world) starts the second program, a real ``companion
events`` command, and lets the write go on only once that one has written its change or
says it waits for the first.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import file_locks
from companion.app import poisons, recovery_rooms
from companion.app.cli import main
from companion.dice import SimulatedDice
from companion.systems.events.rules import Mode
from companion.systems.events.run import run_event
from tests.companion_process import ROOT


def interleaved(monkeypatch: pytest.MonkeyPatch, name: str, argv: list[str]
                ) -> list[subprocess.Popen[bytes]]:
    """At the first rename onto the file ``name``, ``companion <argv>`` is run, and the
    rename waits until it has ended or says it waits for the file; the command, once run."""
    real_replace = os.replace
    second: list[subprocess.Popen[bytes]] = []

    def replace(source: Any, target: Any, **kwargs: Any) -> None:
        if not second and Path(target).name == name:
            command = subprocess.Popen([sys.executable, "-m", "companion", *argv], cwd=ROOT,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            second.append(command)
            assert command.stderr is not None
            os.set_blocking(command.stderr.fileno(), False)
            said = b""
            deadline = time.monotonic() + 60
            while b"waiting for it" not in said and command.poll() is None:
                assert time.monotonic() < deadline, said
                said += command.stderr.read() or b""
                time.sleep(0.02)
        real_replace(source, target, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return second


def listed(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def ended_well(second: list[subprocess.Popen[bytes]]) -> Callable[[], None]:
    def check() -> None:
        assert len(second) == 1
        _, err = second[0].communicate(timeout=60)
        assert second[0].returncode == 0, err
    return check


def test_a_poison_tracked_while_the_list_is_changed_is_kept(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`events end-block` read the list (Ann's poison); `events poison --who Zed` tracked
    Zed's meanwhile; the end-block then wrote the list it had read: Zed's poison gone. Now
    Zed's waits for the end-block, then reads its list and adds to it."""
    assert main(["events", "poison", "--who", "Ann", "--seed", "1"]) == 0
    before = listed(capsys, ["events", "poisoned"])["poisoned"]["Ann"]["hours_left"]
    second = interleaved(monkeypatch, "poisoned.toml",
                         ["events", "poison", "--who", "Zed", "--seed", "2"])
    assert main(["events", "end-block"]) == 0
    ended_well(second)()
    poisoned = listed(capsys, ["events", "poisoned"])["poisoned"]
    assert sorted(poisoned) == ["Ann", "Zed"]
    assert poisoned["Ann"]["hours_left"] == before - 1  # the end-block's hour is kept too


def test_a_room_marked_while_the_rooms_are_changed_is_kept(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The same for the used recovery rooms: room B, marked while room A's mark was being
    written, was lost."""
    second = interleaved(monkeypatch, "recovery_rooms.toml",
                         ["events", "recovery", "--room", "B", "--seed", "2"])
    assert main(["events", "recovery", "--room", "A", "--seed", "1"]) == 0
    ended_well(second)()
    assert sorted(listed(capsys, ["events", "rooms"])["used_rooms"]) == ["A", "B"]


#: A program that holds ``argv[1]`` as ``argv[2]`` changing it until its standard input
#: closes: a change that hangs (a card that stopped answering).
HOLDER = """
import sys
from pathlib import Path
from companion.file_locks import holding
with holding(Path(sys.argv[1]), sys.argv[2]):
    print("held", flush=True)
    sys.stdin.read()
"""


@contextlib.contextmanager
def held_by_another(path: Path, changer: str) -> Iterator[int]:
    """``path`` held by another program as ``changer`` while the block runs; its pid."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), changer],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield holder.pid
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)


def test_a_change_held_up_too_long_is_refused_naming_the_file_and_its_holder(
        user_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The wait for the other program's change is bounded: past it, the roll is shown and
    the command says, naming the list and who holds it, that its change was not written;
    the list is as the other left it."""
    monkeypatch.setattr(file_locks, "CHANGE_WAIT_SECONDS", 0.1)  # the card stopped answering
    assert main(["events", "recovery", "--room", "A", "--seed", "1"]) == 0
    rooms, poisoned = (user_dirs / "data" / "events" / name
                       for name in ("recovery_rooms.toml", "poisoned.toml"))
    before = rooms.read_bytes(), b""
    waited = ("still being changed by another companion (pid {}, {}) after 0.1 s: nothing "
              "was changed here; try again once it is done")
    capsys.readouterr()
    with held_by_another(rooms, recovery_rooms.CHANGER) as pid:
        assert main(["events", "recovery", "--room", "B", "--seed", "2"]) == 1
        room = capsys.readouterr()
    assert "EV-REC" in room.out  # the roll is shown all the same
    assert f"{rooms}: {waited.format(pid, recovery_rooms.CHANGER)}" in room.err
    assert rooms.read_bytes() == before[0]
    assert main(["events", "poison", "--who", "Ann", "--seed", "1"]) == 0
    before = rooms.read_bytes(), poisoned.read_bytes()
    capsys.readouterr()
    with held_by_another(poisoned, poisons.CHANGER) as pid:
        assert main(["events", "poison", "--who", "Zed", "--seed", "2"]) == 1
        poison = capsys.readouterr()
        assert main(["events", "cure", "--who", "Ann"]) == 1
        cure = capsys.readouterr().err
    assert "EV-POI-4" in poison.out and "(Zed not tracked as poisoned)" in poison.err
    held = waited.format(pid, poisons.CHANGER)
    assert f"{poisoned} ({held})" in poison.err
    assert cure == (f"companion: {poisoned} is being changed by another companion (pid {pid}, "
                    f"{poisons.CHANGER}): waiting for it\n"
                    f"companion: error: {poisoned}: {held}\n")
    assert (rooms.read_bytes(), poisoned.read_bytes()) == before


def test_a_roll_with_nothing_to_track_makes_no_lock_nor_folder(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review58b N1: every event roll took the poison list's lock, making the events folder
    and a lock file (a write and a removal on the SD card each roll), with nothing to
    track and nobody tracked to cure. A poison, and a spot's cure of it, still are."""
    events = user_dirs / "data" / "events"
    assert main(["events", "recovery", "--seed", "1"]) == 0  # cures poison: nobody has any
    assert not events.exists()
    assert main(["events", "poison", "--who", "Ann", "--seed", "1"]) == 0
    assert sorted(p.name for p in events.iterdir()) == ["poisoned.toml"]
    assert main(["events", "recovery", "--seed", "1"]) == 0
    assert listed(capsys, ["events", "poisoned"])["poisoned"] == {}
    assert sorted(p.name for p in events.iterdir()) == ["poisoned.toml"]


def test_a_cure_of_everyone_cures_a_poison_tracked_since_the_list_was_read(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review58c F2: a recovery spot's cure of everyone (generic mode: ``cured`` None) was
    skipped when the poison was tracked by another command after this list was read (during
    this command's typed dice, or the tray's throw): the check that nobody is poisoned read
    the names as last loaded, not the file. Ann stayed poisoned, the spot said cured."""
    first = poisons.PoisonList(poisons.poisons_path())
    assert first.poisons == {}
    assert main(["events", "poison", "--who", "Ann", "--seed", "1"]) == 0
    assert "Ann" in listed(capsys, ["events", "poisoned"])["poisoned"]
    spot = run_event("recovery", SimulatedDice.seeded(1), mode=Mode.GENERIC)
    assert [step.data["cured"] for step in spot.find("EV-REC-1")
            if step.data.get("cure_poison")] == [None]
    assert list(first.track(spot).cured) == ["Ann"]
    assert listed(capsys, ["events", "poisoned"])["poisoned"] == {}
