"""fixcarry70: carried defects, fixed.

1. The dice tray (``companion play --mode dice --dice camera``) whose dice camera is a
   folder of pictures or a video that ran out said "The dice camera gives no picture
   カメラ映像なし: the camera stopped giving frames before the dice were read" and offered
   to try the camera again: the source knew it was the folder's pictures, or the video,
   that ran out, and at which throw (``CameraDiceSource._ran_out``), but the play session
   handed it its frames without naming them.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import pytest

from companion.app.commands.play.table_modes import camera_rolls
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.mode import RollAsk
from companion.app.session.rolls import RAN_OUT, CameraRolls
from companion.hw.buttons import Button
from tests.app.test_fixdice66 import Hands
from tests.dice_scenes import still_scene


class Now:
    """The test's clock for :class:`Hands`: the real one, as camera_rolls's frames run on it."""

    @property
    def now(self) -> float:
        return time.monotonic()


def tray_rolls(source: Path, hands: Hands) -> CameraRolls:
    """The tray's camera rolls as ``companion play`` builds them, its dice camera ``source``
    set in config.toml (dice.camera_source)."""
    config = load_config(env={}, overrides={"dice.camera_source": str(source),
                                            "input.poll_seconds": 0.01})
    return camera_rolls(config, Controls([hands]))


def a_folder_of(tmp_path: Path, frames: int) -> Path:
    """A folder of ``frames`` pictures of one still 2D6 throw (a camera's frames of it)."""
    folder = tmp_path / "throws"
    folder.mkdir()
    image = still_scene(600, 2).image
    for n in range(frames):
        cv2.imwrite(str(folder / f"f{n:02}.png"), image)
    return folder


def said_on_running_out(hands: Hands) -> str:
    (prompt,) = [p for p, _ in hands.shown if p.startswith("The dice camera")]
    return " ".join(prompt.split())


def test_a_folder_that_runs_out_in_the_tray_is_named_not_a_camera_giving_no_picture(
        tmp_path: Path) -> None:
    """The folder is named, with the advice the CLI gives, the picture to go where the
    tray's camera is chosen (the tray has no --source); Back fails the roll with it."""
    folder = a_folder_of(tmp_path, 1)  # one picture: no 4 frames in a row of it
    hands = Hands([("The dice camera", [Button.FLEE])], Now())  # type: ignore[arg-type]
    rolls = tray_rolls(folder, hands)
    try:
        throw = rolls.next_throw(RollAsk("Roll 2D6", 2, 6), hands.show)
    finally:
        rolls.close()
    said = said_on_running_out(hands)
    assert said.startswith(f"The dice camera's pictures ran out 画像切れ: {folder}: its "
                           "pictures ran out before the dice lay still in 4 of them in a row")
    assert ("give one picture of the throw as dice.camera_source for a single roll" in said)
    assert "gives no picture" not in said and "camera stopped" not in said
    assert said.endswith("Type the dice you throw for this session?")
    assert throw.failure is not None and throw.failure.startswith(f"{folder}: its pictures")
    assert rolls.instead is None  # Back: not typed for the session


def test_the_tray_names_the_throw_a_folder_ran_out_at_and_offers_no_retry(
        tmp_path: Path) -> None:
    """A folder of one throw's frames: the first throw is read and accepted; the second
    waits for the dice to move and the pictures run out: "throw 2 (2D6)", one throw read
    from it. Trying the camera again gives no more pictures: the choice is Back; typing
    goes on with the keypad, under why."""
    folder = a_folder_of(tmp_path, 8)
    hands = Hands([("Read 読み取り 2D6", [Button.ATTACK]),
                   ("The dice camera", [Button.ATTACK])], Now())  # type: ignore[arg-type]
    options: list[tuple[str, ...]] = []

    def show(prompt: str, **kwargs: object) -> None:
        hands.show(prompt, **kwargs)
        if prompt.startswith("The dice camera"):
            options.append(tuple(o.label for o in kwargs["options"]))  # type: ignore[attr-defined]
        if prompt.startswith("Type the D6"):  # the keypad: stop there
            raise KeyboardInterrupt

    rolls = tray_rolls(folder, hands)
    try:
        first = rolls.next_throw(RollAsk("Roll 2D6", 2, 6), show)
        assert first.values
        with pytest.raises(KeyboardInterrupt):
            rolls.next_throw(RollAsk("Again 2D6", 2, 6), show)
    finally:
        rolls.close()
    said = said_on_running_out(hands)
    assert (f"{folder}: its pictures ran out before the dice of throw 2 (2D6) lay still in 4 "
            "of them in a row") in said
    assert "1 throw was read from it" in said
    assert options == [("Type the dice 手入力で続ける", "Back 戻る")]
    assert rolls.instead is not None and rolls.instead.why == RAN_OUT


def test_a_video_that_ends_in_the_tray_is_named(tmp_path: Path) -> None:
    video = tmp_path / "throw.avi"
    image = still_scene(600, 2).image
    height, width = image.shape[:2]
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (width, height))
    for _ in range(2):
        writer.write(image)
    writer.release()
    hands = Hands([("The dice camera", [Button.FLEE])], Now())  # type: ignore[arg-type]
    rolls = tray_rolls(video, hands)
    try:
        throw = rolls.next_throw(RollAsk("Roll 2D6", 2, 6), hands.show)
    finally:
        rolls.close()
    said = said_on_running_out(hands)
    assert said.startswith(f"The dice camera's pictures ran out 画像切れ: {video}: the video "
                           "ended before the dice lay still for 4 frames in a row")
    assert throw.failure == (f"{video}: the video ended before the dice lay still for 4 "
                             "frames in a row")
