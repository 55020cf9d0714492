"""screen70 fixes: the attached screen and its four buttons (audit /tmp/audit/screen70.md).

- DEFECT 1: a D20 typed with the buttons: after ``2_ (20)`` the units were 21–29 and 20, the
  highlight on the 21 the die has not (companion/app/session/keypad.py). They open on the
  20 (reviews70 DEFECT 1: not cut to it, so that a number key stays its digit).
- DEFECT 2: the dice tray's Roll panel lost values of a large throw (a word wrapped at an
  estimated cut ran past its row, and the row was cut with an ellipsis: canvas.py), and its
  dice faces were one row, 5 px dots at 20D6 and drawn over one another from 33 dice
  (dice_tray.py).
- NIT 3: a one-line fighter row at text_scale 1.25 drew a stub of its side stripe, a "!";
  NIT 4: the acting fighter's long name kept only "▶ …rsity" (fight_panels.py).
- NIT 5: with no Japanese font the header's hint lost its "/" (fonts.py).
- NIT 6: "No genso fight yet" ended in "genso fight new …": cut text, no command to type
  (companion/app/commands/play/options.py).
- NIT 7: hardware/wiring.svg did not say the item button's 3 s hold for the System menu.
"""

from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.app.cli import main
from companion.app.commands.play import session as play_session
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config, load_specs
from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.controls import Controls
from companion.app.session.keypad import place_digits
from companion.app.session.mode import ChoiceAsk, Throw
from companion.dice import SimulatedDice
from companion.hw.buttons import Button
from companion.hw.display import canvas, dice_tray
from companion.hw.display.fonts import without_cjk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import FighterView, Name, View
from tests.app.table import PlayerAtTheScreen

SYSTEM = "System 設定"
TENS = "Dice tray ダイストレイ: type the D20, tens 十の位"
UNITS = "Dice tray ダイストレイ: type the D20, units 一の位"


@pytest.mark.parametrize(("typed", "after", "sides", "digits"), [
    ((), 1, 20, [1, 2, 0]), ((2,), 0, 20, [0]), ((1,), 0, 20, [*range(1, 10), 0]),
    ((0,), 0, 20, [*range(1, 10)]), ((1,), 0, 12, [1, 2, 0]), ((0,), 0, 100,
                                                               [*range(1, 10), 0]),
    ((2,), 1, 200, [0]), ((2, 0), 0, 200, [0]), ((0, 0), 0, 200, [*range(1, 10)])])
def test_each_place_knows_the_digits_that_lead_to_a_face(
        typed: tuple[int, ...], after: int, sides: int, digits: list[int]) -> None:
    """A D20's units after 2 are its 0 alone (20), after 0 they are 1–9 (no 00); a D12's
    after 1 are 1, 2, 0; a d100's 00 is its 100 and stays; a D200's 2 goes on to 200 only."""
    assert place_digits(typed, after, sides) == digits


def test_a_d20_typed_with_the_buttons_takes_20_with_a(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice tray's 1D20, typed at the buttons: I onto ``2_ (20)``, A, and A again is 20.
    The units were 21–29 then 20, the highlight on 21: A was refused ("21 is not on a
    1D20"), and the 20 took two presses of R first. They open on the 20."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})
    screen = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", Button.ATTACK),
                                (TENS, Button.ITEM), (TENS, Button.ATTACK),
                                (UNITS, Button.ATTACK), ("1D20: total 合計 20", Button.FLEE)])
    config = load_config(env={}, overrides={"dice.source": "typed", "dice.expressions": "1D20",
                                            "input.poll_seconds": 0.005})
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, Controls([screen], clock=screen.time_at_the_table), 1,
                      None)
    assert not screen.script
    # The units are the ten digits, keyed by their digits (reviews70 DEFECT 1), opened on
    # the 20.
    units = next(v for v in screen.views if v.prompt == UNITS)
    assert units.options[units.highlight].label == "20" and units.highlight == 9
    after = screen.views[screen.views.index(units) + 1]
    assert after.dice is not None and after.dice.faces == (20,), after
    assert any("(1D20) ＞ 20" in line for line in after.dice.rolls), after.dice.rolls


def thrown(expression: str) -> tuple[View, list[int]]:
    """The dice tray's screen after ``expression`` thrown by seeded dice, and the values."""
    mode = DiceTrayMode((expression,), "simulated 仮想")
    dice, values = SimulatedDice.seeded(4), []
    mode.answer(0)
    while not isinstance(ask := mode.ask(), ChoiceAsk):
        throw = dice.roll(ask.count, ask.sides)
        values.extend(throw)
        mode.answer(Throw(tuple(throw)))
    view = mode.view(ask.prompt, options=ask.options, highlight=ask.highlight)
    return replace(view, system=True), values


class Drawn:
    """What a screen drew: every text, in order, and every die's face and rectangle."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        self.dice: list[tuple[int, pygame.Rect]] = []
        text, die = canvas.Canvas._text, dice_tray.DiceTray._die

        def drawn_text(screen: Any, shown: str, *args: Any, **kwargs: Any) -> Any:
            self.texts.append(shown)
            return text(screen, shown, *args, **kwargs)

        def drawn_die(screen: Any, face: int, rect: pygame.Rect, *args: Any) -> None:
            self.dice.append((face, rect.copy()))
            die(screen, face, rect, *args)

        monkeypatch.setattr(canvas.Canvas, "_text", drawn_text)
        monkeypatch.setattr(dice_tray.DiceTray, "_die", drawn_die)


SCREENS = [("800x480", 1.0), ("800x480", 1.25), ("1024x600", 1.0), ("640x384", 1.0)]


@pytest.fixture
def screens() -> Iterator[list[ScreenDisplay]]:
    shown = [ScreenDisplay(size, text_scale=scale, rotate="0") for size, scale in SCREENS]
    yield shown
    for screen in shown:
        screen.close()


@pytest.mark.parametrize("count", [23, 26, 39, 40])
def test_every_value_of_a_large_throw_is_drawn(count: int, screens: list[ScreenDisplay],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The Roll line of a throw of ``count`` D6 is drawn whole, row after row: at 800x480
    26D6 showed 24 of its 26 values, its 18th and 19th cut out with an ellipsis."""
    view, values = thrown(f"{count}D6")
    listed = f"[{','.join(map(str, values))}]"
    for screen in screens:
        drawn = Drawn(monkeypatch)
        screen.show(view)
        assert listed in "".join(drawn.texts).replace(" ", ""), drawn.texts


def test_a_word_too_long_for_a_row_is_wrapped_in_rows_that_fit(
        screens: list[ScreenDisplay]) -> None:
    """A word longer than its row (the values of a throw, a path) is cut into rows that
    each fit, and together are the word: no character lost."""
    _, values = thrown("40D6")
    words = [",".join(map(str, values)), "/home/pi/.local/share/jongrogue-companion/save.json"]
    for screen in screens:
        for word in words:
            for size in (screen.m(14), screen.m(16)):
                for width in range(60, 400, 7):
                    rows = screen._wrap(word, size, width)
                    assert "".join(rows) == word
                    assert all(screen._text_width(row, size) <= width for row in rows), width


@pytest.mark.parametrize("expression", ["12D6", "20D6", "40D6", "120D6", "30D10", "14D20"])
def test_many_dice_faces_are_drawn_in_rows_apart_and_the_rest_counted(
        expression: str, screens: list[ScreenDisplay],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every face drawn is at least 28 px at 800x480 (scaled with the screen), inside the
    Dice panel and apart from every other; those not drawn are said ``+N more 他N個``, or, with no
    room for a row of them, none are (the Roll line says every value). From 33 dice the
    faces were drawn over one another, at 20D6 as 5 px dots."""
    view, values = thrown(expression)
    for screen in screens:
        drawn = Drawn(monkeypatch)
        screen.show(view)
        rects = [rect for _, rect in drawn.dice]
        assert [face for face, _ in drawn.dice] == values[:len(rects)]
        assert all(rect.w >= screen.m(dice_tray._FACE_MIN) for rect in rects)
        assert all(rect.right < screen.surface.get_width() // 2 for rect in rects)
        assert not any(a.colliderect(b) for n, a in enumerate(rects) for b in rects[n + 1:])
        more = [text for text in drawn.texts if text.startswith("+") and " more" in text]
        if rects and len(rects) < len(values):
            left = len(values) - len(rects)  # in Japanese too (a76screen NIT 3)
            assert more == [f"+{left} more 他{left}個" if screen.has_cjk else f"+{left} more"], \
                more
        else:
            assert not more


def test_dice_faces_do_not_jump_in_size_from_one_throw_to_the_next(
        screens: list[ScreenDisplay], monkeypatch: pytest.MonkeyPatch) -> None:
    """One die past a row of 28 px faces (7D6 at 800x480), 8D6 went to rows of 64 px faces,
    twice the size, and pushed the Roll lines down (reviews70 NIT 3). Faces in rows are no
    larger than _FACE_ROWS_MAX, a little past the one row's smallest; a row of a few dice
    stays as large as it was."""
    for screen in screens:
        sides = {}
        for count in range(1, 14):
            drawn = Drawn(monkeypatch)
            screen.show(thrown(f"{count}D6")[0])
            sides[count] = max(rect.w for _, rect in drawn.dice)
        # A die more never draws them half as large again (8D6 after 7D6: 64 px after 28).
        assert all(sides[count + 1] <= 1.5 * sides[count] for count in range(1, 13)), sides
        assert max(sides[count] for count in range(8, 14)) <= screen.m(
            dice_tray._FACE_ROWS_MAX), sides
        assert sides[1] == screen.m(64), sides  # a few dice: as large as they always were


# -- NITs 3–5: a fight's rows, and a screen with no Japanese font ---------------------------

FOE = FighterView(Name("", "Deep One Hybrid Cultist 1"), Name("敵", "enemy"), 13, 13, 10, 10,
                  ally=False, san=50)
ACTING = replace(FOE, name=Name("", "Professor Henry Armitage of Miskatonic University"),
                 ally=True, acting=True, conditions=("AP 3",))


def test_a_one_line_fighter_row_draws_no_stripe_under_its_token(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At text_scale 1.25 a one-line row is taller, and a 3–4 px stub of the side's stripe
    was drawn under each token: a red "!" beside every foe. A two-line row keeps its
    stripe."""
    screen = ScreenDisplay("800x480", text_scale=1.25, rotate="0")
    stripes: list[pygame.Rect] = []
    draw = pygame.draw.rect

    def drawn(surface: Any, color: Any, rect: Any, *args: Any, **kwargs: Any) -> Any:
        if tuple(color)[:3] == canvas.BAD and not args and not kwargs:
            stripes.append(pygame.Rect(rect))
        return draw(surface, color, rect, *args, **kwargs)

    monkeypatch.setattr(pygame.draw, "rect", drawn)
    row = pygame.Rect(10, 10, 400, screen._step(screen.m(26)))
    screen._fighter(FOE, 2, row, two_lines=False)
    assert stripes == []
    screen._fighter(FOE, 2, pygame.Rect(10, 60, 400, screen.m(52)), two_lines=True)
    assert len(stripes) == 1 and stripes[0].w == screen.m(4)
    screen.close()


def test_the_acting_fighters_long_name_keeps_its_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The marker and the name were cut together in the middle: at 1.25 the head kept was
    "▶ " alone, "▶ …rsity". The marker is kept whole, and the name's start after it."""
    screen = ScreenDisplay("800x480", text_scale=1.25, rotate="0")
    drawn = Drawn(monkeypatch)
    screen._fighter(ACTING, 0, pygame.Rect(10, 10, 400, screen._step(screen.m(26))),
                    two_lines=False)
    name = next(text for text in drawn.texts if "…" in text)
    assert name.startswith(("▶ Pr", "> Pr")) and name.endswith("ty"), drawn.texts
    screen.close()


@pytest.mark.parametrize(("text", "plain"), [
    ("tap / hold I 3 s: System 設定", "tap / hold I 3 s: System"),
    ("tap / s: System 設定", "tap / s: System"),
    ("▶ 体力/Body 6 → (2D6) ＞ 7", "> Body 6 -> (2D6) > 7"),
    ("Body / 体力 6", "Body 6")])
def test_without_a_japanese_font_only_the_slash_joined_to_japanese_goes(
        text: str, plain: str) -> None:
    """The header's hint lost its slash with no Japanese font: "tap hold I 3 s: System"."""
    assert without_cjk(text) == plain


def test_a_fight_table_with_no_fight_says_a_command_that_makes_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The System menu's Genso fight, with no fight made: the message ends in a command
    that, typed on a computer as it is said, makes the fight; the table then opens it."""
    screen = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", Button.SYSTEM),
                                (SYSTEM, "mode:genso"), ("No genso fight yet", "ok"),
                                (SYSTEM, "back")])
    monkeypatch.setattr(play_session, "open_display", lambda *args: screen)
    for key, value in (("CONFIG_DIR", tmp_path / "config"), ("DATA_DIR", tmp_path / "data"),
                       ("DICE_SOURCE", "sim"), ("INPUT_POLL_SECONDS", "0.005")):
        monkeypatch.setenv(f"COMPANION_{key}", str(value))
    main(["play", "--mode", "dice", "--choices", "keyboard", "--display", "screen"])
    said = next(v.prompt for v in screen.views if v.prompt.startswith("No genso fight yet"))
    assert not said.endswith("…"), said
    command = shlex.split(said[said.index("e.g. ") + len("e.g. "):])
    assert command[1:4] == ["genso", "fight", "new"], said
    assert main(command[1:]) == 0
    screen = PlayerAtTheScreen([])  # the table shown, the power goes
    monkeypatch.setattr(play_session, "open_display", lambda *args: screen)
    assert main(["play", "--mode", "genso", "--choices", "keyboard", "--display", "screen"]) \
        == 130
    assert screen.prompts() == ["駆け出し冒険者１ PC 1: what now? 行動は？"]  # pc1's turn


def test_the_wiring_diagram_says_the_system_menus_hold() -> None:
    """hardware/wiring.svg named the item button's menu hold alone; holding it for
    buttons.system_press_seconds opens the System menu, the only way out of a game with
    the buttons (NIT 7)."""
    svg = ET.parse(Path(__file__).resolve().parents[2] / "hardware" / "wiring.svg")
    texts = [t.text or "" for t in svg.iter() if t.tag.endswith("text")]
    hold = load_specs()["buttons.system_press_seconds"].default
    assert any("Item" in text and f"{hold:g} s" in text and "System menu" in text
               for text in texts), texts
