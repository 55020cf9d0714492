"""The dice camera's folder or video that ran out, the command named, an empty camera_source.

fixcarry70: carried defects, fixed.

1. The dice tray (``companion play --mode dice --dice camera``) whose dice camera is a
   folder of pictures or a video that ran out said "The dice camera gives no picture
   カメラ映像なし: the camera stopped giving frames before the dice were read" and offered
   to try the camera again: the source knew it was the folder's pictures, or the video,
   that ran out, and at which throw (``CameraDiceSource._ran_out``), but the play session
   handed it its frames without naming them.
2. ``companion events`` (or coc, genso) whose walk asked a second throw of a still picture
   was pointed to ``companion roll 2D6``: the command run is named.
3. ``camera_source = ""`` (input's or dice's) was taken without a word, and refused only as
   the camera was opened: it is refused as the settings are read, as other bad values are.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.app import cli, command_name
from companion.app.command_name import companion_line
from companion.app.config import load_config
from companion.app.paths import config_dir
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.rolls import RAN_OUT, CameraRolls
from companion.hw.buttons import Button
from tests.app.config_and_pins_helpers import setting_lines
from tests.app.dice_camera_helpers import Hands, Now, a_folder_of, said_on_running_out, tray_rolls
from tests.dice_scenes import still_scene


def backed_out_of_2d6(source: Path) -> tuple[Throw, str, CameraRolls]:
    """A 2D6 the tray reads from ``source`` until it runs out, answered with Back: the
    throw failed, what the question said, on one line, and the tray's rolls after it."""
    hands = Hands([("The dice camera", [Button.FLEE])], Now())  # type: ignore[arg-type]
    rolls = tray_rolls(source, hands)
    try:
        throw = rolls.next_throw(RollAsk("Roll 2D6", 2, 6), hands.show)
    finally:
        rolls.close()
    return throw, said_on_running_out(hands), rolls


def test_a_folder_that_runs_out_in_the_tray_is_named_not_a_camera_giving_no_picture(
        tmp_path: Path) -> None:
    """The folder is named, with the advice the CLI gives, the picture to go where the
    tray's camera is chosen (the tray has no --source); Back fails the roll with it."""
    folder = a_folder_of(tmp_path, 1)  # one picture: no 4 frames in a row of it
    throw, said, rolls = backed_out_of_2d6(folder)
    assert said.startswith(f"The dice camera's pictures ran out 画像切れ: {folder}: before "
                           "the dice lay still in 4 of them in a row")
    assert said.count("ran out") == 1  # maker75 NIT 4: "ran out: …: its pictures ran out"
    assert ("give one picture of the throw as dice.camera_source for a single roll" in said)
    assert "gives no picture" not in said and "camera stopped" not in said
    assert said.endswith("Type the dice you throw for this session?")
    assert throw.failure is not None and throw.failure.startswith(f"{folder}: its pictures")
    assert rolls.instead is None  # Back: not typed for the session


def test_the_tray_names_the_throw_a_folder_ran_out_at_and_offers_no_retry(
        tmp_path: Path) -> None:
    """A folder of one throw's frames: a table's first throw is read and accepted; its
    second waits for the dice to move and the pictures run out: "throw 2 (2D6)", one throw
    read from it. Trying the camera again gives no more pictures: the choice is Back; typing
    goes on with the keypad, under why. (The throw named is the table's: reviewe70 RISK 2,
    tests/systems/events/test_recovery_without_rating_table.py.)"""
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
            rolls.next_throw(RollAsk("Table, roll 2 2投目", 2, 6, throw=2), show)
    finally:
        rolls.close()
    said = said_on_running_out(hands)
    assert (f"{folder}: before the dice of throw 2 (2D6) lay still in 4 of them in a row"
            ) in said
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
    throw, said, _ = backed_out_of_2d6(video)
    assert said.startswith(f"The dice camera's pictures ran out 画像切れ: {video}: before "
                           "the dice lay still for 4 frames in a row")
    assert "the video ended" not in said  # the tray said its pictures ran out
    assert throw.failure == (f"{video}: the video ended before the dice lay still for 4 "
                             "frames in a row")


# -- 2: a still picture's second throw names the command run -------------------------------

def widest(text: str) -> int:
    """The widest line of ``text`` that could be wrapped (a path alone on its line cannot)."""
    return max(len(line) for line in text.splitlines() if " " in line.strip())


def test_a_walk_from_a_still_picture_names_events_not_roll(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``companion events monster`` whose walk asks a second throw of one picture was told
    "A picture serves one throw (`companion roll 2D6`, not '2D6+2D6' or 'x2 2D6')": the
    command named is the one run, and what serves a walk (a folder of each throw's frames,
    as --source) is advised, within 80 columns with the command as typed here."""
    picture = tmp_path / "throw.png"
    cv2.imwrite(str(picture), still_scene(600, 1).image)
    assert cli.main(["events", "monster", "--dice", "camera", "--source", str(picture)]) == 1
    err = capsys.readouterr().err
    said = " ".join(err.split())
    assert (f"{picture} is a still picture: it holds one throw, read for the first roll, and "
            "the next roll (1D6) needs a new throw. A picture serves one throw, and "
            f"`{companion_line('events', 'monster')}` asked for another: throw the dice "
            "under a camera, or give as --source a folder holding the frames of each throw "
            "in turn, the dice seen moving between them") in said
    assert "roll 2D6" not in said
    assert widest(err[err.index("companion: error:"):]) <= 80  # (the walk's lines are its own)


def test_a_roll_from_a_still_picture_still_names_roll_within_80_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``companion roll 2D6+2D6`` is said to be 2 throws and given the command of one, as
    its first throw's refusal says it (dicecam75 NIT 5: a fixed `roll 2D6` example was
    given to 2D66 too); the command is named as it can be typed here before the message is
    wrapped (a `companion` made `.venv/bin/companion` after it ran the line past 80
    columns)."""
    monkeypatch.setattr(command_name, "companion_command",
                        lambda where=None: "/opt/a/long/checkout/.venv/bin/companion")
    picture = tmp_path / "throw.png"
    cv2.imwrite(str(picture), still_scene(600, 2).image)
    assert cli.main(["roll", "2D6+2D6", "--dice", "camera", "--source", str(picture)]) == 1
    err = capsys.readouterr().err
    assert ("`2D6+2D6` is 2 throws (2D6, then 2D6), and a picture holds one: give each throw "
            "its own picture (`/opt/a/long/checkout/.venv/bin/companion roll 2D6`), or throw "
            "the dice under a camera") in " ".join(err.split())
    assert widest(err) <= 80


# -- 3: an empty camera source is refused as the settings are read -------------------------

def test_config_show_refuses_an_empty_camera_source_naming_the_key_and_the_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``camera_source = ""`` was shown as the value in use, without a word (it names no
    camera): each is refused as a bad value is, the file named, and the default used."""
    config_dir().mkdir(parents=True, exist_ok=True)
    path = config_dir() / "config.toml"
    path.write_text('[input]\ncamera_source = ""\n[dice]\ncamera_source = "  "\n')
    assert cli.main(["config", "--show"]) == 1  # as for any value refused
    out, err = capsys.readouterr()
    assert (f'companion: {path}: input.camera_source must not be empty, found ""; using the '
            'default "picamera"\n') in err
    assert (f'companion: {path}: dice.camera_source must not be empty, found "  "; using the '
            'default "auto"\n') in err
    # (a mark past the terminal's width is folded below its setting: setting_lines joins it)
    lines = [" ".join(line.split()) for line in setting_lines(out).values()]
    assert 'input.camera_source = "picamera" # default (config.toml\'s "" refused)' in lines
    assert 'dice.camera_source = "auto" # default (config.toml\'s " " refused)' in lines


def test_an_empty_camera_source_from_the_environment_or_the_command_line_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DICE_CAMERA_SOURCE", "")
    config = load_config()
    assert config.text("dice.camera_source") == "auto"
    assert ('COMPANION_DICE_CAMERA_SOURCE: dice.camera_source must not be empty, found ""; '
            "ignored") in config.notices
    assert cli.main(["config", "--show", "--set", "input.camera_source="]) == 2
    assert capsys.readouterr().err == ("companion: error: --set input.camera_source: "
                                       'input.camera_source must not be empty, found ""\n')


def test_a_camera_source_that_names_one_is_taken() -> None:
    """Only an empty one is refused: a source of any other text is the camera's to open."""
    config = load_config(env={}, overrides={"input.camera_source": "camera:1",
                                            "dice.camera_source": "throws"})
    assert config.text("input.camera_source") == "camera:1"
    assert config.text("dice.camera_source") == "throws"


def test_a_folder_of_more_dice_than_asked_runs_out_saying_so(tmp_path: Path) -> None:
    """maker73 NIT 4: a folder whose frames held 2 still dice, given to a 1D6, ran out with
    "before the dice lay still in 4 of them in a row": they lay still in all 8, and the one
    advice of use (the count) was not said. The dice lying still, and the count asked, are."""
    folder = a_folder_of(tmp_path, 8)  # 2 dice, still in every frame
    hands = Hands([("The dice camera", [Button.FLEE])], Now())  # type: ignore[arg-type]
    rolls = tray_rolls(folder, hands)
    try:
        throw = rolls.next_throw(RollAsk("Roll 1D6", 1, 6), hands.show)
    finally:
        rolls.close()
    said = said_on_running_out(hands)
    assert said.startswith(f"The dice camera's pictures ran out 画像切れ: {folder}: 2 dice "
                           "lay still where 1 was asked; give frames of 1 die")
    assert "before the dice lay still" not in said
    assert throw.failure is not None and throw.failure.startswith(
        f"{folder}: its pictures ran out: 2 dice lay still where 1 was asked")


def test_config_show_names_every_kind_of_tile_camera_the_dice_camera_names(
        capsys: pytest.CaptureFixture[str]) -> None:
    """maker75 NIT 5: input.camera_source's line said "picamera, camera:0 (a USB webcam),
    or a folder of pictures", where the dice camera's, playing.md and the refusals name
    /dev/video0, a picture and a video too: each kind the dice camera takes (but auto, the
    tile camera itself) is named for the tiles, and udev's lasting by-id name."""
    from companion.app.config import load_specs

    specs = load_specs()
    dice_kinds = specs["dice.camera_source"].help.split("), ", 1)[1]
    kinds = [kind for part in dice_kinds.split(", ") for kind in part.split(" or ")]
    assert len(kinds) == 6  # camera:0, /dev/video0, picamera, pictures, a folder, a video
    assert cli.main(["config", "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("input.camera_source "))
    above = []  # its help: the comment lines just above it
    while lines[at - 1 - len(above)].startswith("# "):
        above.insert(0, lines[at - 1 - len(above)].removeprefix("# "))
    tiles = " ".join(above)
    assert tiles.startswith("the camera: ")
    assert [kind for kind in kinds if kind not in tiles] == [], tiles
    assert "/dev/v4l/by-id/" in tiles
