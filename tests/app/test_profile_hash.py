"""The profile hash a save, a log and simulate's JSON keep covers the profile played: a
file of the user's holds only what it changes and is read over the packaged profile, so
the packaged values it leaves out are part of the game. A log of an older version holds
the SHA-256 of the file's bytes, and still replays while the file is unchanged."""

from __future__ import annotations

import hashlib
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.session.save import profile_hash, profile_unchanged
from companion.systems.jongrogue import profile as profile_module


def _packaged_text() -> str:
    return (files("companion.systems.jongrogue") / "data" / "profile.toml").read_text("utf-8")


def _new_packaged_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """An update of the companion that gives pc.max_hp_base another packaged value."""
    load = profile_module.load_packaged

    def updated(name: str) -> tuple[str, dict[str, Any]]:
        source, table = load(name)
        if name == "profile.toml":
            table["pc"]["max_hp_base"] = 30
        return source, table

    monkeypatch.setattr(profile_module, "load_packaged", updated)


def test_the_hash_covers_the_packaged_values_a_partial_profile_leaves_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JR-AB-FREEZE with thaw = 1 alone in the file: the hash was the file's bytes, blind to
    the packaged profile the rest of the game comes from. A new packaged value changes it;
    a comment, which plays nothing, does not."""
    path = tmp_path / "mine.toml"
    path.write_text("[combat]\nthaw = 1\n", encoding="utf-8")
    before = profile_hash(path)
    path.write_text("# my house rule\n[combat]\nthaw = 1  # the book: 8\n", encoding="utf-8")
    assert profile_hash(path) == before
    _new_packaged_value(monkeypatch)
    assert profile_hash(path) != before
    assert not profile_unchanged(path, before)


def test_an_older_saves_hash_of_the_files_bytes_still_matches(tmp_path: Path) -> None:
    """Saves and logs written before hold the SHA-256 of a whole copy's bytes: unchanged,
    the file plays as it did and is taken; edited, it is not."""
    path = tmp_path / "mine.toml"
    path.write_text(_packaged_text(), encoding="utf-8")
    older = hashlib.sha256(path.read_bytes()).hexdigest()
    assert older != profile_hash(path)
    assert profile_unchanged(path, older) and profile_unchanged(path, profile_hash(path))
    path.write_text(_packaged_text().replace("max_hp_base = 12", "max_hp_base = 30"))
    assert not profile_unchanged(path, older)


def _logged(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> Path:
    profile = tmp_path / "mine.toml"
    profile.write_text(text, encoding="utf-8")
    log = tmp_path / "games.jsonl"
    assert main(["play", "--headless", "--seed", "11", "--profile", str(profile), "--log",
                 str(log)]) == 0
    capsys.readouterr()
    return log


def test_a_partial_profiles_game_replays_and_a_new_packaged_value_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game logged with a one-key profile replays; after an update that changes a value
    the file leaves out, the replay is refused naming the profile, not a bare DIFFERS."""
    log = _logged(tmp_path, capsys, "[combat]\nthaw = 1\n")
    assert main(["replay", str(log)]) == 0
    assert "events match" in capsys.readouterr().out
    _new_packaged_value(monkeypatch)
    assert main(["replay", str(log)]) == 2
    assert ("changed since this game was logged (the file, or a packaged value it leaves "
            "out)") in capsys.readouterr().err


def test_a_log_with_the_older_hash_of_the_files_bytes_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log an older version wrote (its header's hash that of the profile's bytes) replays
    while the file is unchanged, and is refused once it is edited."""
    text = _packaged_text()
    log = _logged(tmp_path, capsys, text)
    header, *events = log.read_text(encoding="utf-8").splitlines()
    older = json.loads(header)
    profile = Path(older["profile"])
    older["profile_hash"] = hashlib.sha256(profile.read_bytes()).hexdigest()
    log.write_text("\n".join([json.dumps(older), *events]) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    profile.write_text(text.replace("max_hp_base = 12", "max_hp_base = 30", 1))
    assert main(["replay", str(log)]) == 2
    assert "changed since this game was logged" in capsys.readouterr().err
