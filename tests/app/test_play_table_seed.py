"""``companion play --mode dice|genso|coc --seed`` with no simulated die is refused, as
``companion roll --dice typed --seed`` is (stop 63): the table took the seed and ignored it,
and the seed promised a fight it does not repeat. A mode switched to from the System menu
does not take the home mode's seed."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.options import switched

TABLE = ["play", "--display", "terminal", "--choices", "keyboard"]


@pytest.mark.parametrize("mode", ["dice", "genso", "coc"])
@pytest.mark.parametrize("dice", ["typed", "camera"])
def test_a_table_seed_with_thrown_dice_is_refused_before_anything_opens(
        mode: str, dice: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TABLE, "--mode", mode, "--dice", dice, "--seed", "9"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"--dice {dice} dice are thrown, not seeded; leave --seed out" in " ".join(
        err.split())


def test_the_setting_names_the_dice_as_the_flag_does(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "config.toml").write_text('[dice]\nsource = "typed"\n')
    assert main([*TABLE, "--mode", "dice", "--seed", "9"]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert (f"dice.source ({user_dirs / 'config' / 'config.toml'}): typed dice are thrown, "
            "not seeded") in said
    assert "--dice typed" not in said  # the player gave no --dice (review63a N4)


def test_coc_camera_dice_with_simulated_d100_keep_the_seed() -> None:
    """The d100 the camera cannot read are the seeded ones: nothing to refuse."""
    from companion.app.commands.play.options import effective_config, refuse_idle_table_seed

    args = argparse.Namespace(**{**vars(_parsed("coc")), "dice": "camera", "d100": "sim"})
    refuse_idle_table_seed(args, effective_config(args, tell=False))


def test_a_mode_switched_to_does_not_take_the_home_modes_seed() -> None:
    first = _parsed("game")
    assert switched(first, "game", "dice").seed is None
    assert switched(first, "game", "game").seed == 9


def _parsed(mode: str) -> argparse.Namespace:
    from companion.app.cli import build_parser

    return build_parser("play").parse_args([*TABLE, "--mode", mode, "--seed", "9"])
