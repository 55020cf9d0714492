"""``config --show`` with a file in the data folder's place: play, history and genso stop
on it, and the listing said the folder was fine and exited 0 (a77setup NIT 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


@pytest.mark.parametrize(("below", "why"), [
    ("", "is a file, not a folder"),
    ("/jr", "cannot be made: {file} is a file, not a folder")])
def test_a_file_in_the_data_folder_s_place_is_a_problem(
        below: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "usb"
    file.write_text("")
    monkeypatch.setenv("COMPANION_DATA_DIR", f"{file}{below}")
    assert main(["config"]) == 1
    out, err = capsys.readouterr()
    said = (f"the data folder {file}{below} (COMPANION_DATA_DIR) {why.format(file=file)}; "
            "move it away")
    assert err == f"companion: {said}\n"
    listing = " ".join(line.removeprefix("# ") for line in out.splitlines())
    assert f"camera_check.jpg; {file} is a file, not a folder)" in listing
    assert "1 problem with the settings" in listing


def test_a_data_folder_not_made_yet_is_no_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config"]) == 0
    assert "camera_check.jpg; not created)" in capsys.readouterr().out
