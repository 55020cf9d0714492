"""reviews71 NIT 7: ``play --fight`` refused outside a fight table says where the mode came
from in words that read: the default as play.mode's default (not "set by play.mode, built
in"), and a --mode typed as the one to change (not "add --mode genso", when --mode was
there)."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.paths import data_dir

SAID = "companion: error: --fight goes with --mode genso or coc, the fight tables, "
GAME = ["--input", "sim", "--choices", "auto", "--display", "none", "--seed", "3"]


def test_the_default_mode_is_said_as_play_mode_s_default(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *GAME, "--fight", "/nonexist"]) == 2
    assert capsys.readouterr() == ("", SAID + "not game (play.mode's default): leave it out, "
                                   "or add --mode genso or --mode coc\n")
    assert not data_dir().exists()


@pytest.mark.parametrize(("mode", "run"), [
    ("dice", ["--choices", "keyboard", "--display", "terminal"]), ("game", GAME)])
def test_a_mode_typed_is_told_to_be_changed(
        mode: str, run: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--mode", mode, *run, "--fight", "/nonexist"]) == 2
    assert capsys.readouterr() == ("", SAID + f"not {mode}: use --mode genso or --mode coc "
                                   f"instead of --mode {mode}, or leave --fight out\n")
    assert not data_dir().exists()
