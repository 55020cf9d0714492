"""The dice tray's note of a stale dice enrolment on its screen; '1 die' enrolled.

fixdice71b, two follow-ups of dicecam71. 1: the dice tray says on its screen, once at
start, that the player's enrolled dice are not used (a stale enrolment): it said so on
stderr only, which the player at the Pi never sees. 2: a stopped enrolment speaks of one die
enrolled before as "1 die", not "1 dice"."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.calibrate.dice import EnrolRun
from companion.app.modes.dice_tray import QUIT_PROMPT, DiceTrayMode
from companion.app.session.mode import ChoiceAsk
from companion.hw.dice.calibrate import enrol
from companion.hw.dice.enrol import ENROL_FILE, Enrolment
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.render import SceneKind, Table, render_scene
from companion.hw.display.screen import ScreenDisplay
from tests.app.dice_tray_helpers import MENU
from tests.app.play_pty_helpers import Terminal
from tests.hw.screen_layout_helpers import spy_text

NOTICE_START = "dice read without your enrolled dice 登録ダイスなし: "


@pytest.fixture(scope="module")
def three() -> tuple[np.ndarray, Enrolment]:
    """A rendered throw of three dice and the enrolment made of it."""
    scene = render_scene(703, kind=SceneKind.LOOSE, count=3, table=Table.FELT)
    made = enrol([(scene.image, [d.value for d in scene.dice])], ReaderConfig.load())
    assert made.enrolment is not None and made.enrolment.dice() == 3
    return scene.image, made.enrolment


def words(text: str) -> str:
    """The terminal's text without its colours and boxes, one space between words."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", plain).split())


def test_the_dice_tray_shows_a_stale_enrolment_on_its_screen_at_start(
        tmp_path: Path, three: tuple[np.ndarray, Enrolment]) -> None:
    """`companion play --mode dice` with the dice camera, the dice enrolled by another dice
    model: the words stderr says are on the tray's screen at start, and gone once the
    player has answered (Tables, then Back to the menu)."""
    image, enrolment = three
    config = tmp_path / "config"
    config.mkdir()
    replace(enrolment, judge="some-older-judge").save(config / ENROL_FILE)
    picture = tmp_path / "three.png"
    cv2.imwrite(str(picture), image)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(config),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100",
           "COMPANION_DICE_CAMERA_SOURCE": str(picture)}
    term = Terminal(["--mode", "dice", "--display", "terminal", "--choices", "keyboard"], env)
    term.answer(MENU, 1, b"3")  # Tables
    first = words(term.text())
    term.answer("Which table?", 1, b"b")  # Back to the menu
    term.answer(MENU, 2, b"b")
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0
    err = term.proc.stderr.read().decode("utf-8") if term.proc.stderr else ""
    (said,) = [line.removeprefix("companion: ") for line in err.splitlines()
               if NOTICE_START in line]
    assert said.startswith(NOTICE_START + "the enrolled dice were taught to another dice model")
    assert said in first  # the same words, whole, on the menu the player sees first
    after = words(term.text())[len(first):]
    assert MENU in after and NOTICE_START.strip() not in after  # once


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_the_tray_s_start_notice_is_drawn_whole_on_the_pi_screen(size: str) -> None:
    """On the SDL screen the notice is the menu's status line, every word drawn, none cut."""
    notice = (NOTICE_START + "the enrolled dice were taught to another dice model than this "
              "one (the companion was updated since); run `companion calibrate dice --enrol` "
              "again")
    mode = DiceTrayMode(("1D6", "2D6"), "camera カメラ", notice=notice)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    screen = ScreenDisplay(size)
    try:
        drawn = spy_text(screen)
        view = mode.view(ask.prompt, options=ask.options, highlight=0)
        screen.render(view)
    finally:
        screen.close()
    assert view.status == notice and not view.guidance  # drawn as trouble, beside its ⚠
    rows = [d for d in drawn if d.text and d.text in notice]
    assert all(d.shown == d.text for d in rows)  # no row cut
    assert " ".join(d.shown for d in rows) == notice


def test_the_tray_s_start_notice_waits_behind_a_status_until_it_is_shown() -> None:
    """A wait's own status (a table taken up at its throw) hides the notice: it is shown
    when nothing else is said, and gone after the answer that follows."""
    mode = DiceTrayMode(("2D6",), "camera カメラ", notice="enrolled dice not used")
    assert mode.view("throw", status="waiting for the dice").status == "waiting for the dice"
    mode.answer(1)  # Tables: the notice never shown yet, kept
    assert mode.view("which table?").status == "enrolled dice not used"
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    mode.answer(len(ask.options) - 1)  # Back
    assert mode.view("menu").status == ""


def test_a_stopped_enrolment_says_one_die_enrolled_before(
        tmp_path: Path, three: tuple[np.ndarray, Enrolment]) -> None:
    """dicecam71 note: one die enrolled before was "the 1 dice enrolled before are kept"."""
    _, enrolment = three
    target = tmp_path / ENROL_FILE
    one = Enrolment(enrolment.embeddings[:1], enrolment.values[:1], enrolment.judge)
    assert EnrolRun(target, one).kept() == f"the 1 die enrolled before is kept in {target}"
    assert EnrolRun(target, enrolment).kept() == (
        f"the 3 dice enrolled before are kept in {target}")
    run = EnrolRun(target, one)
    run.add(enrolment, [1, 2, 3])
    assert run.kept() == (f"the 1 throw taken now and the die enrolled before (3 in all) are "
                          f"kept in {target}")
