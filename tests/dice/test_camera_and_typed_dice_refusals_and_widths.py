"""Camera and typed dice: coc's refused before a throw, 80 columns, re-prompts, a D20's 00.

The rest of audit dice62 (fix62d2): coc's camera dice refused before a throw, the camera's
and typed dice's lines within 80 columns, the typed re-prompt's purpose, `2 D6`, a D20's
00 on the keypad, --seed with thrown dice, and dashes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.app.commands import coc
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk
from companion.dice import ManualDice, roll
from companion.dice.notation import DiceSyntaxError, parse
from companion.dice.sources import _read_values
from tests.app.keypad_helpers import Keys, keypad

ABSENT = "/dev/video9"


def fits(err: str) -> bool:
    return all(len(line) <= 80 for line in err.splitlines())


def said(err: str) -> str:
    """The words of ``err`` with its line breaks and indents as single spaces."""
    return " ".join(err.split())


# coc's camera dice (D3): a plain-dice roll with a die the camera cannot read is refused
# before any throw, naming the part, by roll's own check.

class Camera:
    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        self.asked.append((count, sides))
        return [5] * count


@pytest.mark.parametrize(("expression", "part"), [
    ("2D6+1D4", "1D4 throws a D4"), ("1D3+1D20", "1D20 throws a D20"),
    ("x2 1D6+1D8", "1D8 throws a D8")])
def test_coc_camera_dice_refuse_a_part_it_cannot_read_before_any_throw(
        expression: str, part: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    camera = Camera()
    monkeypatch.setattr(coc, "camera_source", lambda args: camera)
    assert main(["coc", "roll", expression, "--dice", "camera"]) == 2
    err = capsys.readouterr().err
    assert f"the camera reads D6, D3, D2 only: {part};\n  add --d100 typed or --d100 sim" in err
    assert camera.asked == []  # no throw was read, and lost
    assert fits(err)


def test_coc_camera_dice_still_roll_d6_based_dice_and_others_with_d100(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    camera = Camera()
    monkeypatch.setattr(coc, "camera_source", lambda args: camera)
    assert main(["coc", "roll", "1D6+1D3+1D2", "--dice", "camera"]) == 0
    assert main(["coc", "roll", "2D6+1D4", "--dice", "camera", "--d100", "sim",
                 "--seed", "4"]) == 0  # the D4 is simulated: the seed is used
    assert camera.asked == [(1, 6), (1, 6), (1, 6), (2, 6)]
    capsys.readouterr()


# N1: the camera's and typed dice's lines within 80 columns.

@pytest.mark.skipif(Path(ABSENT).exists(), reason=f"{ABSENT} is there")
def test_an_unplugged_camera_is_said_within_80_columns(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "1D6", "--dice", "camera", "--source", ABSENT]) == 1
    err = capsys.readouterr().err
    assert fits(err), err
    assert said(err).startswith(f"companion: error: no camera at {ABSENT}: check the cable")
    assert said(err).endswith("throw your own dice and type them in with --dice typed")


def test_a_picture_with_no_dice_is_said_within_80_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    picture = Path("a-picture-with-a-rather-long-name-of-the-mat.png")
    cv2.imwrite(str(picture), np.full((480, 640, 3), 255, np.uint8))
    assert main(["roll", "2D6", "--dice", "camera", "--source", str(picture)]) == 1
    err = capsys.readouterr().err
    assert fits(err), err
    assert f"the picture {picture} shows no dice, 2 were asked for" in said(err)


def test_typed_dice_reprompt_and_end_of_input_are_within_80_columns(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("11\n"))
    assert main(["roll", "2D6", "--dice", "typed"]) == 1
    err = capsys.readouterr().err
    # Each prompt ends where the player types: the lines as a terminal shows them, the
    # player's Enter after the first.
    lines = err.replace("出目を入力: ", "出目を入力: 11\n", 1).splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    assert "11 is not on a D6 その目はありません: type each die on its own, a space " \
           "between (3 5, not their total 8 nor 35); type 2 values for 2D6 出目を入力: " \
           in said(err) + " "
    assert "companion: error: the input ended before the 2D6 was typed: nothing was saved, " \
           "and any dice typed before it are dropped; run the command again" in said(err)


# N2: after a typo, the re-prompt still says what the roll is for.

def test_the_typed_reprompt_keeps_the_purpose() -> None:
    prompts: list[str] = []
    typed = iter(["7", "3"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    assert roll("1D6", ManualDice(ask), purpose="the Door table").values == [3]
    assert prompts[1] == ("7 is not on a D6 その目はありません; type 1 value for 1D6, for the Door "
                          "table 出目を入力: ")


def test_the_typed_reprompt_after_part_of_a_roll_keeps_the_purpose() -> None:
    prompts: list[str] = []
    typed = iter(["3", "9", "4"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    assert roll("2D6", ManualDice(ask), purpose="trap damage").values == [3, 4]
    assert prompts[2] == "9 is not on a D6 その目はありません; 3 so far 入力済; type 1 more " \
                         "value for 2D6, for trap damage 出目を入力: "


# N3: `2 D6` says the space ended the command.

def test_a_space_before_the_die_is_said_to_end_the_command() -> None:
    with pytest.raises(DiceSyntaxError) as err:
        parse("2 D6")
    assert err.value.position == 0
    assert err.value.reason == ("the expression rolls no dice (a space ends the command: "
                                "'D6' after it is a comment)")
    with pytest.raises(DiceSyntaxError) as plain:
        parse("3+4")
    assert plain.value.reason == "the expression rolls no dice"


# N4: a D20 has no 00: typed dice and the keypad refuse it alike (the keypad where the 0 is
# typed, and the units are typed again: reviews70 DEFECT 1).

def test_a_d20s_00_is_refused_on_the_keypad_as_on_the_command_line() -> None:
    pressed = Keys("0" "0" "9")  # 0_, then 0: refused; then 9, its 09
    assert keypad(pressed).die(RollAsk("to hit", 1, 20), pressed.show) == 9
    assert pressed.menus[2][2] == "00 is not on a 1D20: type again その目はありません"
    assert [o.label for o in pressed.menus[0][1]][::9] == ["1_ (10–19)", "0_ (1–9)"]
    assert [o.label for o in pressed.menus[1][1]][:10] == [
        *(f"0{d}" for d in range(1, 10)), "00"]
    assert _read_values("00", 20)[0] == "0 is not on a D20 その目はありません"
    # Percentile dice show 00: it is their 100, on both.
    d100 = Keys("00")
    assert keypad(d100).die(RollAsk("to hit", 1, 100), d100.show) == 100
    assert _read_values("00", 100) == ("", [100])


def test_a_d20s_01_is_still_its_1() -> None:
    pressed = Keys("01")
    assert isinstance(keypad(pressed), Keypad)
    assert keypad(pressed).die(RollAsk("to hit", 1, 20), pressed.show) == 1


# N5: --seed with thrown dice is refused by roll, coc and genso, as by events.

@pytest.mark.parametrize("argv", [
    ["roll", "1D6"], ["coc", "roll", "CC<=50"], ["genso", "check", "simple"],
    ["events", "poison"]])
@pytest.mark.parametrize("dice", ["typed", "camera"])
def test_a_seed_with_thrown_dice_is_refused(
        argv: list[str], dice: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_dice(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the dice were made")

    monkeypatch.setattr("companion.app.commands.roll.dice_source", no_dice)
    monkeypatch.setattr(coc, "dice_source", no_dice)
    assert main([*argv, "--dice", dice, "--seed", "9"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert fits(err)
    assert f"--dice {dice} dice are thrown, not seeded; leave --seed out" in said(err)


# N6: a dash is refused, with what to type.

@pytest.mark.parametrize("dash", ["–", "‐", "—"])
def test_a_dash_is_refused_with_what_to_type(dash: str) -> None:
    with pytest.raises(DiceSyntaxError) as err:
        parse(f"2D6{dash}1")
    assert err.value.position == 3
    assert err.value.reason == f"unexpected {dash!r} (a dash; type - for a minus)"
