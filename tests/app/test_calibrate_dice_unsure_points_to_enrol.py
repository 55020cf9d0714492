"""a77dice NIT 5: dice found but "not all read surely" by ``calibrate dice`` sent the player
to the light only, never to ``calibrate dice --enrol``, the command made for dice the reader
is unsure of (an emblem on the 1, dark pips, odd colours)."""

from __future__ import annotations

import pytest

from companion.app import cli
from companion.app.command_name import companion_line
from tests.hw.dice_photo_helpers import PHOTOS


def test_every_die_found_but_one_unclear_points_to_the_enrolment(
        capsys: pytest.CaptureFixture[str]) -> None:
    # two dice, the smoke-black one in the middle of the view unclear
    photo = PHOTOS / "nb_IMG_20191208_112714.jpg"
    assert cli.main(["calibrate", "dice", "--source", str(photo)]) == 1
    out = capsys.readouterr().out
    assert ("could not read 2 dice in any setting (2 dice found, not all read surely): check "
            "the light, that the dice are in view and lie apart, and try again; if the light "
            "is good, teach the reader your dice: "
            f"`{companion_line('calibrate', 'dice', '--enrol')}`\n") in out
    assert "Not saved" in out


def test_too_few_dice_found_are_not_pointed_to_the_enrolment(
        capsys: pytest.CaptureFixture[str]) -> None:
    photo = PHOTOS / "nb_IMG_20191208_112714.jpg"
    assert cli.main(["calibrate", "dice", "--source", str(photo), "--count", "3"]) == 1
    out = capsys.readouterr().out
    assert "--count says 3" in out and "--enrol" not in out


def test_roll_and_dice_read_of_an_unclear_die_point_to_the_enrolment(
        capsys: pytest.CaptureFixture[str]) -> None:
    """r77dice (left by the a77dice NIT 5 fix): `roll --dice camera` and `dice read` said the
    die unclear, and never named the enrolment, as calibrate now does."""
    photo = PHOTOS / "nb_IMG_20191208_112714.jpg"
    teach = ("if the light is good, teach the reader your dice: "
             f"`{companion_line('calibrate', 'dice', '--enrol')}`")
    assert cli.main(["roll", "2D6", "--dice", "camera", "--source", str(photo)]) == 1
    err = " ".join(capsys.readouterr().err.split())  # within 80 columns
    assert err.endswith(f"1 read surely 読めません; {teach}"), err
    assert cli.main(["dice", "read", str(photo)]) == 0
    assert capsys.readouterr().out == (
        f"{photo}: ? 1 (unsure (a die's value is unclear in the middle): 2 marks that may be "
        f"dice, 1 read surely 読めません; {teach})\n")


def test_dice_read_of_a_die_that_may_be_no_die_is_not_pointed_to_the_enrolment(
        capsys: pytest.CaptureFixture[str]) -> None:
    # three asked, two found: a die is missing, which no enrolment finds
    photo = PHOTOS / "nb_IMG_20191208_112714.jpg"
    assert cli.main(["dice", "read", "--count", "3", str(photo)]) == 0
    assert "--enrol" not in capsys.readouterr().out
