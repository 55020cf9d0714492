"""A write into a folder not made yet, with a file in that folder's place: the error names
the file in the way and says to move it, as every other writer does (a77setup DEFECT 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.files import atomic_write_text


def test_genso_new_under_a_data_folder_that_is_a_file_names_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It said "…/genso/characters: Not a directory", a folder that is not there."""
    data = tmp_path / "data"
    data.write_text("")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    assert main(["genso", "new", "Aki", "--body", "6", "--perception", "5", "--magic", "4",
                 "--skill", "magic"]) == 1
    assert capsys.readouterr().err == (
        f"companion: error: {data}: a file where a folder should be (to hold "
        "genso/characters/Aki.toml); move it away\n")
    assert data.read_text() == ""  # left as it is


def test_a_file_in_the_place_of_the_folder_itself_is_named(tmp_path: Path) -> None:
    (tmp_path / "calibration").write_text("x")
    with pytest.raises(NotADirectoryError) as raised:
        atomic_write_text(tmp_path / "calibration" / "dice.toml", "")
    assert raised.value.filename == str(tmp_path / "calibration")
    assert raised.value.strerror == ("a file where a folder should be (to hold dice.toml); "
                                     "move it away")
