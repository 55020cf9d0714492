"""review59b F8: an option of the command typed, given before the sub-command's name, is
said to go after it: `rules --json encounter` was refused under a usage listing
``[--json]``, with no word of why."""

from __future__ import annotations

import pytest

from companion.app.cli import main


@pytest.mark.parametrize(("words", "said"), [
    (["rules", "--json", "encounter", "--floor", "3", "--tile", "6m"],
     "companion rules encounter: error: unrecognized arguments: --json (--json goes after "
     "'encounter')"),
    (["genso", "--json", "fight", "show"],
     "companion genso fight show: error: unrecognized arguments: --json (--json goes after "
     "'show')")])
def test_an_option_before_its_commands_name_is_said_to_go_after_it(
        words: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(words)
    assert done.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(said)


def test_an_option_no_parser_knows_is_said_as_before(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["rules", "encounter", "--floor", "3", "--tile", "6m", "--bogus"])
    assert capsys.readouterr().err.rstrip().endswith(
        "companion rules encounter: error: unrecognized arguments: --bogus")


@pytest.mark.parametrize(("words", "said"), [
    (["coc", "--profile", "004", "roll", "CC<=50"],
     "companion coc: error: --profile 004 goes after the sub-command: "
     "companion coc roll --profile 004 'CC<=50'"),
    (["rules", "--floor", "3", "encounter"],
     "companion rules: error: --floor 3 goes after the sub-command: "
     "companion rules encounter --floor 3"),
    (["coc", "--file", "/tmp/f.json", "fight", "show"],
     "companion coc: error: --file /tmp/f.json goes after the sub-command: "
     "companion coc fight show --file /tmp/f.json"),
    (["coc", "--profile", "004"],
     "companion coc: error: --profile 004 goes after the sub-command that takes it, e.g. "
     "companion coc roll --profile 004"),
    # r78journey: an option's further values move with it, not left before the sub-command
    (["genso", "fight", "--party", "Aki", "pc2", "new", "--monsters", "orc"],
     "companion genso fight: error: --party Aki goes after the sub-command: "
     "companion genso fight new --party Aki pc2 --monsters orc"),
    # r78journey: before the command itself, its module is loaded to say so
    (["--seed", "3", "play", "--headless"],
     "companion: error: --seed 3 goes after the sub-command: "
     "companion play --seed 3 --headless"),
    (["--profile", "004", "coc", "roll", "CC<=50"],
     "companion: error: --profile 004 goes after the sub-command: "
     "companion coc roll --profile 004 'CC<=50'"),
    (["--headless", "play"],
     "companion play: error: unrecognized arguments: --headless (--headless goes after "
     "'play')")])
def test_an_option_and_its_value_before_the_sub_command_are_said_to_go_after_it(
        words: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    """a78journey NIT 4: the value was taken for the sub-command's name and refused as
    "invalid choice: '004'", with no word that --profile goes after `roll`."""
    with pytest.raises(SystemExit) as done:
        main(words)
    assert done.value.code == 2
    assert capsys.readouterr().err.rstrip().endswith(said)


def test_a_value_no_sub_command_takes_is_refused_as_before(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["coc", "--zzz", "4", "roll"])
    assert capsys.readouterr().err.rstrip().endswith(
        "companion coc: error: argument SUB: invalid choice: '4' (choose from 'roll', "
        "'defaults', 'fight')")
