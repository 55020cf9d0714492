"""The tests keep to their temporary folders (tests/conftest.py), whatever a test does with
its own ``monkeypatch`` (leak75: a ``monkeypatch.undo()`` midway dropped the conftest's
COMPANION_DATA_DIR, and the test's games went into the player's real history)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app import paths
from companion.app.commands.play import telling
from tests.conftest import _what_is_in


def test_a_tests_monkeypatch_undo_keeps_its_temporary_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.undo()
    assert paths.data_dir() == tmp_path / "data"
    assert paths.config_dir() == tmp_path / "config"
    assert telling.STOP_SHOWN_SECONDS == 0
    assert os.environ["COLUMNS"] == "80"


def test_what_the_guard_compares_tells_a_file_written_changed_or_removed(tmp_path: Path) -> None:
    folder = tmp_path / "jongrogue-companion"
    empty = _what_is_in((folder,))
    assert empty == {}  # not there: nothing to compare, and a folder made is a change
    (folder / "genso").mkdir(parents=True)
    history = folder / "history.sqlite3"
    history.write_bytes(b"one")
    written = _what_is_in((folder,))
    assert str(history) in written and str(folder / "genso") in written
    os.utime(history, ns=(0, 0))
    assert _what_is_in((folder,)) != written
    changed = _what_is_in((folder,))
    history.unlink()
    assert _what_is_in((folder,)).keys() == changed.keys() - {str(history)}
