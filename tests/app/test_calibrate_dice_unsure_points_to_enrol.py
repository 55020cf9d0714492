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
