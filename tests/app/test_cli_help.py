"""A command given without the word that picks what it does shows what there is to pick."""

from __future__ import annotations

import pytest

from companion.app.cli import COMMAND_MODULES, main


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_companion_alone_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys)
    assert all(f"    {name}" in err for name in COMMAND_MODULES)
    assert err.endswith("companion: error: choose a COMMAND from the list above\n")


@pytest.mark.parametrize(("argv", "listed", "word"), [
    (("genso",), "presets   the seed's sample characters", "SUB"),
    (("genso", "fight"), "undo", "VERB"),
    (("calibrate",), "rfid      enrol the RFID sticker", "DEVICE"),
    (("events",), "door (EV-DOOR-1)", "TABLE"),
])
def test_a_group_without_its_sub_command_shows_its_help(
        capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], listed: str,
        word: str) -> None:
    err = _refused(capsys, *argv)
    assert listed in err
    assert err.endswith(f"companion {' '.join(argv)}: error: choose a {word} "
                        "from the list above\n")


def test_other_missing_arguments_keep_argparses_own_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, "roll")
    assert err.endswith("companion roll: error: the following arguments are required: EXPR\n")
    assert "positional arguments" not in err
