"""Where `coc --help`'s example sheets are, and its example run from there.

setup69 NIT 4: `companion coc --help` and `coc fight --help` name ann.toml and
cultist.toml bare, which are in the checkout's docs/examples/; copied from the checkout, the
example said "cannot read the sheet ann.toml" and no more. The help and that error now say
where the sheets are, and from there the example runs as written."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from companion.app.cli import main

ROOT = Path(__file__).resolve().parents[2]


def helped(words: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([*words, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("words", [["coc"], ["coc", "fight"]])
def test_the_help_says_where_its_sheets_are_and_its_example_runs_there(
        words: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    shown = helped(words, capsys)
    assert "are in the checkout's docs/examples/: run the examples there" in " ".join(
        shown.split())
    example = next(line.strip() for line in shown.splitlines()
                   if line.strip().startswith("companion coc fight new"))
    monkeypatch.chdir(ROOT / "docs" / "examples")
    assert main([*shlex.split(example)[1:], "--file", str(tmp_path / "fight.json")]) == 0


def test_a_sheet_not_there_says_where_the_examples_are(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["coc", "fight", "new", "--investigators", "ann.toml", "--foes",
                 "cultist.toml"]) == 2
    err = capsys.readouterr().err
    assert "cannot read the sheet ann.toml: No such file or directory (ann.toml, bob.toml " \
        "and cultist.toml are in the checkout's docs/examples/: run the examples there, or " \
        "give the sheets' paths (docs/sheets.md))" in err
