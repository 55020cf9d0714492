"""a78journey NIT 6: `companion help`, a new user's first guess, was refused with no pointer
to ``--help``; and simulate, history, classify and rfid had no description under their
usage, where every other command has one."""

from __future__ import annotations

import pytest

from companion.app.cli import main


@pytest.mark.parametrize(("words", "said"), [
    (["help"], "; for help: companion --help, or companion COMMAND --help"),
    (["help", "play"], "; for help: companion play --help"),
    (["genso", "help"], "; for help: companion genso --help, or companion genso SUB --help"),
])
def test_help_typed_as_a_command_points_to_the_help_option(
        words: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(words)
    assert done.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(said)


@pytest.mark.parametrize(("command", "described"), [
    ("simulate", "Play --games headless games on the simulated wall"),
    ("history", "List the finished games"),
    ("classify", "Name the tile in each picture"),
    ("rfid", "Watch the RFID tray or reader"),
])
def test_each_command_describes_itself_under_its_usage(
        command: str, described: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    page = capsys.readouterr().out
    description = page.split("\n\n")[1]  # after the usage, before the arguments
    assert " ".join(description.split()).startswith(described)
