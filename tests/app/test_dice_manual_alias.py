"""``manual``, the earlier word for typed dice, is taken by ``companion play --dice/--d100``
and by the settings dice.source and dice.d100, as every ``coc``/``roll``/``genso``/``events``
command's ``--dice``/``--d100`` takes it (sweep53 #15): play refused it as an invalid
choice, and the settings ignored it for their defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import build_parser
from companion.app.config import load_config


@pytest.mark.parametrize("flag", ["--dice", "--d100"])
def test_play_takes_manual_for_typed(flag: str) -> None:
    args = build_parser("play").parse_args(["play", "--mode", "coc", flag, "manual"])
    assert vars(args)[flag.lstrip("-")] == "typed"


def test_play_still_refuses_a_word_that_is_no_dice(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        build_parser("play").parse_args(["play", "--d100", "camera"])
    assert stop.value.code == 2
    assert "argument --d100: invalid choice: 'camera' (choose from 'typed', 'sim')" \
        in capsys.readouterr().err


def test_the_settings_read_manual_as_typed_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[dice]\nsource = "manual"\n')
    config = load_config(path, env={"COMPANION_DICE_D100": "manual"})
    assert (config["dice.source"], config["dice.d100"]) == ("typed", "typed")
    assert config.notices == (
        f'{path}: dice.source = "manual" is read as "typed", its name now; write "typed" to '
        "quiet this",
        'COMPANION_DICE_D100: dice.d100 = "manual" is read as "typed", its name now; write '
        '"typed" to quiet this')
    assert config.problems == ()  # read, not refused: `config --show` exits 0


def test_set_takes_manual_too() -> None:
    config = load_config(Path("/nonexistent/config.toml"), env={},
                         overrides={"dice.d100": "manual"})
    assert config["dice.d100"] == "typed"
