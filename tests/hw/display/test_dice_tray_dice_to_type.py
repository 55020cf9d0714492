"""The dice tray's panel shows a "?" die for each die still to be typed, as the question
does: over a read that doubts two of three dice the question read "Type the die at the left
(1 of 2: [?], ?, 2)" and the panel showed the 2 alone (f78panels item 3). The session's own
questions (:meth:`CameraRolls.typed`) are drawn through :class:`ScreenDisplay` on SDL's
dummy driver; the dice drawn are read back from the faces it drew."""

from __future__ import annotations

from typing import Any

import pygame

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.controls import Controls
from companion.app.session.rolls import CameraFrames, CameraRolls
from companion.hw.buttons import Pick, Press
from companion.hw.dice.readings import DiceRead, DieReading, ReadStatus
from companion.hw.dice.source import CameraDiceSource
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import TO_TYPE


class Typist:
    """Types ``picks`` (the faces' options' indices), one a question, once it is shown."""

    def __init__(self, *picks: int) -> None:
        self.picks = list(picks)
        self.asked = 0
        self.typed = 0

    def poll(self) -> list[Press]:
        if self.asked > self.typed and self.picks:
            self.typed += 1
            return [Pick(self.picks.pop(0))]
        return []


def _die(value: int | None, x: float, place: str = "") -> DieReading:
    why = "" if value else "a die's value is unclear"
    return DieReading(value, 0.99 if value else 0.4, (x, 100.0), 40.0, why, place)


def test_the_panel_shows_a_question_mark_for_each_die_still_to_type() -> None:
    read = DiceRead((_die(None, 100, "at the left"), _die(None, 300, "in the middle"),
                     _die(2, 500)), ReadStatus.UNSURE, "unsure")
    typist = Typist(5, 3)  # a 6 for the left die, a 4 for the middle one
    controls = Controls([typist])
    frames = CameraFrames(iter(()), controls, moving=lambda frame: False)
    rolls = CameraRolls(CameraDiceSource(frames=frames), frames, controls, 3.0, 0.0,
                        sleep=lambda s: None)
    mode = DiceTrayMode(("3D6",), "camera カメラ")
    mode.answer(0)  # the tray's 3D6: its throw awaited
    screen = ScreenDisplay("800x480")
    seen: list[tuple[str, list[int | str]]] = []
    die = screen._die

    def die_spy(face: int, rect: pygame.Rect, sides: int = 6) -> None:
        faces.append(face)
        die(face, rect, sides)

    text = screen._text
    marks: list[pygame.Surface] = []

    def text_spy(value: str, size: int, *args: Any) -> pygame.Surface:
        surface = text(value, size, *args)
        if value == "?":
            marks.append(surface)
        return surface

    screen.__dict__["_die"] = die_spy
    screen.__dict__["_text"] = text_spy
    faces: list[int] = []

    def show(prompt: str, **kwargs: Any) -> None:
        if not seen or seen[-1][0] != prompt:  # a question first shown: drawn, then typed
            faces.clear()
            marks.clear()
            screen.render(mode.view(prompt, **kwargs))
            seen.append((prompt, [*faces, len(marks)]))
            typist.asked += 1

    try:
        assert rolls.typed(read, 3, show) == (6, 4, 2)
    finally:
        screen.close()
    (first, drawn_first), (second, drawn_second) = seen
    assert first.endswith("(1 of 2: [?], ?, 2): the camera cannot tell its value 出目を入力")
    # the faces drawn, then how many "?" marks: two dice still to type, each a "?", the 2
    assert drawn_first == [TO_TYPE, TO_TYPE, 2, 2]
    assert "(2 of 2: 6*, [?], 2)" in second
    assert drawn_second == [6, TO_TYPE, 2, 1]
