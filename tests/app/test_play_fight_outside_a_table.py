"""setup71 NIT 8: ``play --fight FILE`` outside a fight table (a game, --headless, the dice
tray) is refused before anything runs; it was ignored, the game played, and the resume
command the game then said carried the --fight on."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.paths import config_dir, data_dir

SAID = "companion: error: --fight goes with --mode genso or coc, the fight tables, "


def test_a_game_refuses_fight(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "none",
                 "--seed", "3", "--fight", "/nonexist"]) == 2
    assert capsys.readouterr() == ("", SAID + "not game (play.mode's default): leave it out, "
                                   "or add --mode genso or --mode coc\n")
    assert not data_dir().exists()  # no game was played, nor saved


def test_the_mode_config_toml_chose_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    config_dir().mkdir(parents=True)
    (config_dir() / "config.toml").write_text('[play]\nmode = "dice"\n')
    assert main(["play", "--choices", "keyboard", "--display", "terminal",
                 "--fight", "/nonexist"]) == 2
    assert capsys.readouterr().err == (
        SAID + f"not dice (set by play.mode, {config_dir() / 'config.toml'}): leave it out, "
        "or add --mode genso or --mode coc\n")


def test_headless_refuses_fight(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--headless", "--fight", "/nonexist"]) == 2
    assert capsys.readouterr() == ("", SAID + "and --headless plays a game: leave --fight "
                                   "out\n")
