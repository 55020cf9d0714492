"""a77dice NIT 4: ``roll --dice camera`` on a live camera, a die it cannot read lying still,
ended after its wait with "no steady read of 2 dice in 120 s 読み取れず": no cause named,
and no word of ``--dice typed``, as every other camera failure of ``roll`` has. r77dice:
"re-roll the dice" had no Japanese beside it."""

from __future__ import annotations

import argparse
import itertools

import cv2
import pytest

from companion.app.command_name import companion_line
from companion.app.commands.roll import run_with_source
from companion.dice import DiceSource
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.readings import RE_ROLL
from companion.hw.dice.source import CameraDiceSource, DiceReadTimeout
from tests.app.camera_roll_helpers import Clock
from tests.hw.dice_photo_helpers import PHOTOS

#: Two dice, the one in the middle of the view smoke-black, its value unclear.
UNCLEAR = PHOTOS / "nb_IMG_20191208_112714.jpg"


def camera(_: argparse.Namespace) -> CameraDiceSource:
    """A camera watching the two dice lie still, for ever; its wait gives up in 5 s."""
    photo = cv2.imread(str(UNCLEAR))
    return CameraDiceSource(frames=itertools.repeat(photo), clock=Clock(),
                            sleep=lambda _: None, timeout_s=5.0)


def test_the_wait_that_gives_up_names_the_unclear_die_and_typed_dice() -> None:
    args = argparse.Namespace(dice="camera", seed=None, source=None)

    def body(source: DiceSource) -> int:
        source.roll(2, 6)
        return 0

    with pytest.raises(DiceReadTimeout) as raised:
        run_with_source(args, body, camera)
    said = " ".join(str(raised.value).split())  # within 80 columns
    assert said == ("no steady read of 2 dice in 5 s 読み取れず: the dice lay still, but a "
                    "die's value is unclear in the middle; re-roll the dice 振り直し; if the "
                    "light is good, teach the reader your dice: "
                    f"`{companion_line('calibrate', 'dice', '--enrol')}`; or throw your own "
                    "dice and type them in with --dice typed")


def test_the_cause_is_the_reads_own_doubts_not_cut_out_of_its_sentence() -> None:
    """r77dice NIT on ca5f76b9: the cause was cut out of the unsure sentence with
    removeprefix/removesuffix, which broke silently with its wording; the read keeps it."""
    read = DiceReader().read(cv2.imread(str(UNCLEAR)), 2)
    assert read.doubts == "a die's value is unclear in the middle"
    assert read.message == f"unsure ({read.doubts}){RE_ROLL}"
