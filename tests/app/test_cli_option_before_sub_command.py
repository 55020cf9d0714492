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
