"""reviews71 RISK 1: genso's and coc's ``fight … --file ""`` (a shell variable unset) is
refused as an empty file name, as play's --log, --state and --fight are (setup71 NIT 10),
by the one shared check, ``arg_types.file_name``. It was taken as not given, so ``fight new``
wrote over the default fight.json; a name of spaces only wrote a fight into a file named
with spaces in the folder the command ran in."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
COMMANDS = {
    "coc new": ["coc", "fight", "new", "--investigators", str(EXAMPLES / "ann.toml"),
                "--foes", str(EXAMPLES / "cultist.toml")],
    "coc show": ["coc", "fight", "show"],
    "coc roll": ["coc", "roll", "1d100"],
    "genso new": ["genso", "fight", "new", "--party", "pc1", "--monsters", "orc"],
    "genso show": ["genso", "fight", "show"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("name", "said"), [("", "the file name is empty: give one"),
                                            ("  ", "the file name is empty (only spaces: "
                                                   "'  '): give one")])
def test_an_empty_fight_file_name_is_refused_as_empty(
        command: str, name: str, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    here, data = tmp_path / "here", tmp_path / "data"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    with pytest.raises(SystemExit) as stopped:
        main([*COMMANDS[command], "--file", name])
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    prog = " ".join(COMMANDS[command][:3 if command != "coc roll" else 2])
    assert err.splitlines()[-1] == f"companion {prog}: error: argument --file: {said}"
    assert out == ""
    assert list(here.iterdir()) == []  # no file of spaces
    assert not data.exists() or not any(data.rglob("fight.json"))  # the default untouched


@pytest.mark.parametrize("command", ["coc new", "genso new"])
def test_a_fight_file_named_with_a_leading_space_is_still_a_file(
        command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Only an empty or all-space name is a slip; " x" is a name someone may mean."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert main([*COMMANDS[command], "--file", " x.json"]) == 0
    capsys.readouterr()
    assert (tmp_path / " x.json").is_file()
