"""Save files: atomic writes, shape checks, corrupt saves kept aside."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from companion.app.commands.play.saves import load_game
from companion.app.session.save import (
    CorruptSave,
    SaveGame,
    default_save_path,
    write_save,
)
from companion.errors import DataError
from tests.disk import refuse_moving


def test_round_trip() -> None:
    save = SaveGame(seed=42, preset="plus", inputs=["5p", "fight", "1z"], events=17,
                    strategy="cautious", log_path="/tmp/x.jsonl", log_start=120)
    path = default_save_path()
    write_save(path, save)
    assert load_game(path) == save
    assert not list(path.parent.glob(".*.tmp"))


def test_missing_save_is_none(tmp_path: Path) -> None:
    assert load_game(tmp_path / "nothing.json") is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"version": 1, "seed": 1', "not valid JSON"),
        ("[]", "expected a JSON object, found a list"),
        # JSON's words, not Python's "found NoneType" (journey73 NIT 7)
        ("null", "expected a JSON object, found null"),
        ('"a save"', "expected a JSON object, found text"),
        # (with a save's own field: an object with none is another's file, left as it is)
        ('{"version": "1", "game_id": "4d2f"}', "version is '1'"),
        ('{"version": 1, "seed": "x", "inputs": []}', "seed must be int"),
        ("[" * 100_000, "nested too deeply to read"),
        (SaveGame(seed=1, preset="ez", input_kind="scanner").to_json(),
         "input_kind must be one of camera, rfid, sim, found 'scanner'"),
    ],
)
def test_corrupt_save_kept_aside(text: str, reason: str) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(CorruptSave, match=reason) as info:
        load_game(path)
    assert not path.exists()
    assert info.value.kept_at is not None and info.value.kept_at.read_text() == text
    assert str(info.value.kept_at) in str(info.value)


def test_inputs_must_be_strings() -> None:
    good = SaveGame(seed=1, preset="ez").to_json()
    with pytest.raises(DataError, match="inputs must be a list of strings"):
        SaveGame.from_json(good.replace('"inputs": []', '"inputs": [5]'))
    with pytest.raises(DataError, match="unknown field 'extra'"):
        SaveGame.from_json(good.replace("{", '{"extra": 1, ', 1))


def test_a_corrupt_save_that_cannot_be_kept_aside_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = default_save_path()
    path.parent.mkdir(parents=True)
    path.write_text("{half")

    def read_only(src: object, dst: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(src))

    monkeypatch.setattr(os, "replace", read_only)
    with pytest.raises(DataError, match=r"not valid JSON .*\), nor kept aside: "
                                        r".*/data lets no file in it be renamed "
                                        r"\(Read-only file system\), so nothing can be "
                                        r"saved there; give another file, or fix the folder$"):
        load_game(path)
    assert path.read_text() == "{half"



@pytest.mark.parametrize(("newer", "said"), [
    ({"version": 2}, "written by a newer companion (save version 2; this one reads 1)"),
    ({"rules": 99}, "played by a newer companion (rules revision 99; this one plays 1 to "),
])
def test_a_save_a_newer_companion_wrote_is_kept_whole_with_how_to_carry_it_on(
        newer: dict[str, int], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A save from a newer companion (a checkout rolled back, a card moved to an older Pi)
    was kept aside as corrupt with "version is 2, this companion reads 1", nothing said of
    updating. It is kept as .newer-…, saying how to carry it on once updated; resumed, the
    player is asked whether to start a new game, as for a save that cannot go on."""
    import json

    from companion.app.cli import main

    path = default_save_path()
    path.parent.mkdir(parents=True)
    text = json.dumps({**json.loads(SaveGame(seed=3, preset="ez", inputs=["1m"], events=1)
                                    .to_json()), **newer})
    for resume, then in ((["--resume"], "; starting a new game"),
                         ([], f"; this new game is saved in {path}")):
        path.write_text(text)
        assert main(["play", "--headless", *resume, "--state", str(path)]) == 0
        err = capsys.readouterr().err
        (kept,) = path.parent.glob("save.json.newer-*")
        assert kept.read_text() == text and said in err
        assert (f"it is kept as {kept.name} (update this companion (git pull, then bash "
                "scripts/install-pi.sh) to carry it on: then `companion play --resume "
                f"--headless --state {kept}` does){then}"
                in err)
        # The advice followed before updating: refused, the update said again, left as is.
        assert main(["play", "--headless", "--resume", "--state", str(kept)]) == 2
        err = capsys.readouterr().err
        assert said in err and "update this companion (git pull" in err
        assert kept.read_text() == text
        kept.unlink()


def test_a_newer_save_in_a_folder_that_refuses_renames_says_what_it_is(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A newer companion's save on a read-only card stopped the run with the bare
    "save.json: Read-only file system", nothing said of the newer companion or updating,
    at every start of the boot service. It is named, and left where it is."""
    import json

    from companion.app.cli import main

    path = default_save_path()
    path.parent.mkdir(parents=True)
    text = json.dumps({**json.loads(SaveGame(seed=3, preset="ez", inputs=["1m"], events=1)
                                    .to_json()), "rules": 99})
    path.write_text(text)
    refuse_moving(path, monkeypatch)
    assert main(["play", "--headless", "--resume", "--state", str(path)]) == 2
    err = capsys.readouterr().err
    assert "played by a newer companion (rules revision 99" in err
    assert "update this companion (git pull, then bash scripts/install-pi.sh)" in err
    assert f"{path.parent} lets no file in it be renamed (Read-only file system)" in err
    assert path.read_text() == text
