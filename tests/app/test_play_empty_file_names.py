"""setup71 NIT 10: ``play --log ""`` (or --state, --fight: a shell variable unset) is refused
as an empty file name; it was read as ``.`` and refused as "a folder, not a log", and a name
of spaces only played a whole game into a file named with spaces where the command ran."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main


@pytest.mark.parametrize("flag", ["--log", "--state", "--fight"])
@pytest.mark.parametrize(("name", "said"), [("", "the file name is empty: give one"),
                                            ("  ", "the file name is empty (only spaces: "
                                                   "'  '): give one")])
def test_an_empty_file_name_is_refused_as_empty(
        flag: str, name: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--headless", flag, name])
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert err.splitlines()[-1] == f"companion play: error: argument {flag}: {said}"
    assert out == ""
    assert list(tmp_path.iterdir()) == []  # no file of spaces, nor any other
