"""The tracked poisons' list (EV-POI-2): what a roll costs as it grows, and that it still
reads every change made beside it (soak audit 57 #1)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

import companion.app.poisons as app_poisons
import companion.systems.events.poisoned as poisoned
from companion.app.poisons import PoisonList
from companion.dice import SimulatedDice
from companion.systems.events.poisoned import Poison
from companion.systems.events.report import EventReport
from companion.systems.events.rules import Mode
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import folded_name

GENDER_SWAP = Poison(face=2, rule="EV-POI-6", toxicity=8, hours_left=3)


def _walks(count: int) -> list[EventReport]:
    """Poison table walks that give a poison to nobody named, as the tray's do."""
    return [run_event("poison", SimulatedDice.seeded(seed), mode=Mode.GENERIC)
            for seed in range(count)]


def _tracked(path: Path, count: int) -> PoisonList:
    """A list of ``count`` poisons written by the list itself, read as the tray reads it."""
    written = PoisonList(path)
    written.poisons = {("victim" if n == 1 else f"victim {n}"): GENDER_SWAP
                       for n in range(1, count + 1)}
    written.save()
    return PoisonList(path)


def test_a_roll_reads_the_list_again_only_when_another_program_changed_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each roll that gave a poison reread the whole file and wrote it again as a tomlkit
    document: 380 ms of CPU at 838 poisons on a PC, seconds on a Pi, more with every roll
    (the figures: scripts/bench_poisons.py). Now the file is read only when another program
    changed it: after the first roll, the tray's own writes are not read back."""
    path = tmp_path / "poisoned.toml"
    poisons = _tracked(path, 1000)
    walks = _walks(6)
    poisons.track(walks[0])
    real_open, reads = os.open, []

    def counting_open(file: str | os.PathLike[str], flags: int, *args: Any,
                      **kwargs: Any) -> int:
        if os.fspath(file) == os.fspath(path):
            reads.append(file)
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_open)
    for walk in walks[1:]:
        poisons.track(walk)
    assert reads == []
    monkeypatch.undo()
    assert len(PoisonList(path).poisons) == 1006


def test_a_list_edited_in_place_is_read_before_the_next_change(tmp_path: Path) -> None:
    """A file rewritten where it is (an editor that keeps the inode), not replaced as the
    companion writes it: its new size (or time) says it changed, and the roll keeps the edit."""
    path = tmp_path / "poisoned.toml"
    poisons = _tracked(path, 2)
    with path.open("r+", encoding="utf-8") as handle:
        text = handle.read().replace("toxicity = 8", "toxicity = 11", 1)
        handle.seek(0)
        handle.write(text)
    poisons.track(_walks(1)[0])
    assert poisons.poisons["victim"].toxicity == 11
    assert PoisonList(path).poisons["victim"].toxicity == 11
    assert list(poisons.poisons) == ["victim", "victim 2", "victim 3"]


def test_a_list_replaced_beside_the_tray_is_read_even_at_the_same_size_and_time(
        tmp_path: Path) -> None:
    """Another program's write is a new file (written whole, then renamed over the list):
    its inode tells it apart, whatever its size and time (a Pi's clock may be set back)."""
    path = tmp_path / "poisoned.toml"
    poisons = _tracked(path, 2)
    before = path.stat()
    other = tmp_path / "other.toml"
    other.write_text(path.read_text(encoding="utf-8").replace("victim 2", "victim 9"),
                     encoding="utf-8")
    other.replace(path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert list(poisons.reload()) == ["victim", "victim 9"]


def test_a_change_the_disk_refused_is_not_kept_as_if_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A poison the disk refused to record is in the list held, not the file; the next
    change reads the file again, so the list does not carry a poison the file never had."""
    path = tmp_path / "poisoned.toml"
    poisons = _tracked(path, 1)

    def refused(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(tempfile, "mkstemp", refused)
        unsaved: list[str] = []
        poisons.track(_walks(1)[0], unsaved.append)
    assert unsaved and list(poisons.poisons) == ["victim", "victim 2"]
    assert list(poisons.reload()) == ["victim"]


def test_a_poison_given_to_nobody_named_folds_each_tracked_name_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding a free `victim N` folded every tracked name again for each N it tried: at
    1000 unnamed poisons a roll folded a million names, 120 ms of CPU, where the rest of it
    took 2.5 (hist63 F4). Each name is folded a few times a roll, whatever the list's
    length; counted, not timed, so a loaded machine cannot fail it."""
    path = tmp_path / "poisoned.toml"
    poisons = _tracked(path, 1000)
    walk = _walks(1)[0]
    folds: list[str] = []

    def counted(name: str) -> str:
        folds.append(name)
        return folded_name(name)

    monkeypatch.setattr(poisoned, "folded_name", counted)
    monkeypatch.setattr(app_poisons, "folded_name", counted, raising=False)
    poisons.track(walk)
    monkeypatch.undo()
    assert list(poisons.poisons)[-1] == "victim 1001"
    assert len(folds) < 5 * 1000
