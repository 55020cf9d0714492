"""screen64's nits, measured on the drawn surface (SDL dummy): the board's panel and the log's
under it part by the usual gap (NIT 3); the option grid reaches the right edge on a screen
wider than 5:3 (NIT 4); a stop is drawn as trouble, over no empty footer (NIT 5); "empty" in
an empty slot stays clear of its dashes with larger text (NIT 6); a typed d100's prompt
reads whole on a fight's keypad (NIT 7, fixs66)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace

import pygame
import pytest
from rich.console import Console

from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk
from companion.hw.buttons import Button
from companion.hw.display import screen as screen_module
from companion.hw.display.canvas import ACCENT, BACKGROUND, BAD, DIM, PANEL
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import TROUBLE_MARK, TerminalDisplay
from companion.hw.display.view import (
    BoardView,
    Name,
    Option,
    PieceView,
    TileView,
    View,
    example_fight_view,
    example_view,
    message_view,
)
from tests.app.boot_stop_hold_helpers import HELD, SYSTEM, stopped_under_the_service
from tests.hw.screen_layout_helpers import Drawn, spy_text

SIZES = ("800x480", "1024x600", "1280x720")


@pytest.fixture(autouse=True)
def _wide_screen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A 1280x720 window besides the two layouts (full screen takes a panel's own size)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "1280x720", (1280, 720))
    yield


def _board_view() -> View:
    view = example_fight_view()
    assert view.fight is not None
    return replace(view, fight=replace(view.fight, board=BoardView(
        8, 8, (PieceView(0, 0, "A"), PieceView(5, 6, "C", ally=False)))))


def _runs(flags: list[bool]) -> list[tuple[bool, int]]:
    """``flags`` as runs: (the flag, how many in a row)."""
    runs: list[tuple[bool, int]] = []
    for flag in flags:
        if runs and runs[-1][0] == flag:
            runs[-1] = (flag, runs[-1][1] + 1)
        else:
            runs.append((flag, 1))
    return runs


def _is(surface: pygame.Surface, at: tuple[int, int], color: tuple[int, int, int]) -> bool:
    return tuple(surface.get_at(at))[:3] == color


# ---- NIT 3: the board's panel and the log's -------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_the_board_panel_and_the_log_under_it_part_by_the_usual_gap(size: str) -> None:
    """Down the middle column (clear of the panels' rounded corners), the board's panel, a
    gap of the screen's m(6), then the log's: they overlapped at 800x480 and 1280x720, and
    parted by 3 px at 1024x600."""
    screen = ScreenDisplay(size)
    surface = screen.render(_board_view())
    m = screen.m
    x = screen.width * 34 // 100 + m(3) + m(8)  # the middle column's left, inside its panels
    body = range(m(38), screen.height)
    runs = _runs([_is(surface, (x, y), BACKGROUND) for y in body])
    # The body's margin, the board's panel, the gap, the log's panel.
    assert [flag for flag, _ in runs[:4]] == [True, False, True, False]
    assert runs[2][1] == m(6)
    screen.close()


# ---- NIT 4: the option grid to the right edge -------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view", [example_view(), example_fight_view()],
                         ids=["game screen", "fight grid"])
def test_the_options_reach_the_right_margin(size: str, view: View) -> None:
    """Four boxes a row end at the footer's right margin (m(10)), give or take a pixel a
    box: at 1280x720 the last stopped 74 px short, its width capped by the height's scale."""
    screen = ScreenDisplay(size)
    screen.render(view)
    right = max(rect.right for rect, _ in screen._targets)
    assert 0 <= screen.width - screen.m(10) - right <= 4
    screen.close()


def test_two_options_keep_their_width_cap_on_a_wide_screen() -> None:
    """One or two options are not stretched into banners: the cap grows with the width only
    as far as the screen is wider than 800x480's share."""
    screen = ScreenDisplay("1280x720")
    screen.render(replace(example_view(), options=example_view().options[:2], highlight=0))
    assert {rect.w for rect, _ in screen._targets} == {round(190 * 1280 / 800)}
    screen.close()


# ---- NIT 5: a stop drawn as trouble, no empty footer ------------------------------------------


@pytest.mark.parametrize("size", SIZES[:2])
def test_a_stop_is_drawn_as_trouble_and_a_question_is_not(size: str) -> None:
    """The error that stopped the run is in the trouble colour after a warning mark, as the
    status's trouble is; a question's message stays as it was (ACCENT)."""
    screen = ScreenDisplay(size)
    body = pygame.Rect(0, screen.m(38), screen.width, screen.height // 2)

    def counts(view: View) -> tuple[int, int]:
        pixels = pygame.surfarray.pixels3d(screen.render(view).subsurface(body))
        bad = ((pixels[:, :, 0] == BAD[0]) & (pixels[:, :, 1] == BAD[1])
               & (pixels[:, :, 2] == BAD[2])).sum()
        accent = ((pixels[:, :, 0] == ACCENT[0]) & (pixels[:, :, 1] == ACCENT[1])
                  & (pixels[:, :, 2] == ACCENT[2])).sum()
        return int(bad), int(accent)

    ok = (Option("ok", "OK 了解", Button.ATTACK),)
    bad, accent = counts(message_view("Stopped 停止: the camera is unplugged", ok,
                                      trouble=True))
    assert bad > 100 and accent == 0
    # The mark: a solid BAD triangle where the first row starts, as tall as its capitals.
    m = screen.m
    x, y, side = m(16), m(38) + m(14), round(m(24) * 0.9)
    bottom = y + round(m(24) * 0.3) + side
    assert _is(screen.surface, (x + side // 4, bottom - 2), BAD)
    bad, accent = counts(message_view("Start a new game? 新しいゲーム？", ok))
    assert bad == 0 and accent > 100
    screen.close()


@pytest.mark.parametrize("size", SIZES[:2])
def test_a_message_with_nothing_to_choose_has_no_empty_footer(size: str) -> None:
    """A stop starting again shortly, or Shutting down: the footer is a band m(12) tall, not
    a fifth of the screen of PANEL with nothing in it."""
    screen = ScreenDisplay(size)
    surface = screen.render(message_view("Shutting down 電源を切っています: unplug once the "
                                         "Pi's green light stays off"))
    column = [_is(surface, (screen.width // 2, y), PANEL) for y in range(screen.height)]
    assert _runs(column)[-1] == (True, screen.m(12))
    # With an option, the footer holds it as before.
    screen.render(message_view("Stopped 停止: x", (Option("ok", "OK 了解", Button.ATTACK),)))
    assert screen._targets and screen._targets[0][0].bottom <= screen.height
    screen.close()


def test_show_stop_draws_its_stop_as_trouble_and_the_system_menu_as_it_is(
        monkeypatch: pytest.MonkeyPatch) -> None:
    screen, _ = stopped_under_the_service(
        [("Stopped 停止: camera", Button.ATTACK), (HELD, Button.SYSTEM), (SYSTEM, "back")],
        monkeypatch)
    stops = [v for v in screen.views if v.prompt.startswith("Stopped 停止")]
    menus = [v for v in screen.views if v.prompt.startswith(SYSTEM)]
    assert len(stops) == 3 and all(v.trouble for v in stops)
    assert menus and not any(v.trouble for v in menus)


def test_the_terminal_marks_a_stop_as_trouble() -> None:
    """On the terminal too, the stop reads as trouble: after the "!" NO_COLOR keeps."""
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, no_color=True)
    TerminalDisplay(console).show(message_view("Stopped 停止: camera unplugged", trouble=True))
    TerminalDisplay(console).show(message_view("Start a new game? 新しいゲーム？"))
    shown = out.getvalue()
    assert f"{TROUBLE_MARK}Stopped 停止: camera unplugged" in shown
    assert f"{TROUBLE_MARK}Start" not in shown


# ---- NIT 6: "empty" clear of the dashes ---------------------------------------------------


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", SIZES[:2])
def test_the_word_in_an_empty_slot_stays_clear_of_its_dashes(size: str, scale: float) -> None:
    """In the room's empty slot the word's ink is at least m(4) from the dashed outline on
    either side, and the word is whole: at text scale 1.25 "empty" was 2 px from it,
    antialiased into it, at 800x480, and cut to "e…" at 1024x600 (review64s NIT 1)."""
    screen = ScreenDisplay(size, text_scale=scale) if scale != 1.0 else ScreenDisplay(size)
    view = example_view()
    tiles = (TileView("empty", Name("", "")), *view.room_tiles[1:])
    drawn = spy_text(screen)
    surface = screen.render(replace(view, room_tiles=tiles))
    words = ["空き", "empty"] if screen.has_cjk else ["empty"]
    assert [text.shown for text in drawn if text.text in words] == words  # whole, not "e…"
    m = screen.m
    # The slot: the room panel's first cell, the tile's back as tall as the cell allows.
    top = m(38) + m(4) + m(24)
    cell_h = (m(190) - m(24)) // 2
    slot = screen._tile("back", cell_h - m(8)).get_rect(topleft=(m(6) + m(6), top))
    inner = slot.inflate(-2 * m(3), -2 * m(3))
    dash = max(1, m(2))
    # The word's ink: anything not BACKGROUND strictly inside the dashed outline.
    inside = pygame.Rect(inner.x + dash, inner.y + dash, inner.w - 2 * dash,
                         inner.h - 2 * dash)
    ink = [x for x in range(inside.left, inside.right) for y in range(inside.top, inside.bottom)
           if not _is(surface, (x, y), BACKGROUND)]
    assert ink, "the word is drawn"
    assert min(ink) - inside.left >= m(4) - dash
    assert inside.right - 1 - max(ink) >= m(4) - dash
    assert _is(surface, (inner.x, inner.y), DIM)  # the outline is where it was measured
    screen.close()


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", SIZES)
def test_the_word_in_an_empty_slot_is_never_cut(size: str, scale: float) -> None:
    """At 1280x720 (the Touch Display 2 turned) with text 1.25 the slot read "空き" over
    "e…" (a76screen NIT 5): every word drawn in it is whole; where "empty" fits no size,
    空き alone says it (with a Japanese font), never nothing."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        # The room of `companion play --choices auto --seed 11`, frame 83: a bat deeply
        # asleep, whose rows make the slots smaller.
        tiles = (TileView("empty", Name("空き", "(no tile)"), "defeated 撃破"),
                 TileView("6p", Name("隠密の指輪", "ring of stealth")),
                 TileView("1z", Name("床", "empty floor")),
                 TileView("9m", Name("大こうもり", "bat"), "deeply asleep 熟睡"))
        slot = screen._empty_slot
        drawn: list[Drawn] = []

        def spy(rect: pygame.Rect) -> None:  # only the texts drawn in the slot
            start = len(seen)
            slot(rect)
            drawn.extend(seen[start:])

        seen = spy_text(screen)
        screen.__dict__["_empty_slot"] = spy
        screen.render(replace(example_view(), room_tiles=tiles))
        words = drawn
        assert words and all(not text.cut for text in words), words
        assert ("空き" in [text.text for text in words]) == screen.has_cjk, words
    finally:
        screen.close()


# ---- NIT 7: a typed d100's prompt keeps its skill -----------------------------------------


KICK = "Ann キック/Kick+MA (1D100<=60,50) to hit 命中 — Ann 攻撃 attacks → Cult [MA]"


class _Shown(Exception):
    """The keypad's first menu, shown: what it asked and with what."""

    def __init__(self, prompt: str, kwargs: dict[str, object]) -> None:
        super().__init__(prompt)
        self.prompt, self.kwargs = prompt, kwargs


def _keypad_view() -> View:
    """The real keypad's tens menu for the kick's d100, over a fight with a board."""
    def show(prompt: str, **kwargs: object) -> None:
        raise _Shown(prompt, kwargs)

    keypad = Keypad(Controls([]), 0.01, "the camera reads D6 only カメラはD6のみ",
                    sleep=lambda _: None)
    with pytest.raises(_Shown) as shown:
        keypad.die(RollAsk(KICK, 1, 100), show)
    kwargs = shown.value.kwargs
    options = kwargs["options"]
    assert isinstance(options, tuple)
    return replace(_board_view(), prompt=shown.value.prompt, options=options, highlight=0,
                   status=str(kwargs["status"]), guidance=bool(kwargs["guidance"]))


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", SIZES)
def test_a_typed_d100s_prompt_reads_whole_over_the_keypad(size: str, scale: float) -> None:
    """The fight's keypad gave its prompt one row, cut in the middle: the roll's own words
    first kept whose roll and which skill (Kick+MA), and the place typed (tens) at its end,
    but with larger text lost the threshold and the target (review64s NIT 3). It takes the
    rows it needs (fixs66): whole, the roll first and the place typed last."""
    view = _keypad_view()
    assert view.prompt.startswith(KICK)
    screen = ScreenDisplay(size, text_scale=scale) if scale != 1.0 else ScreenDisplay(size)
    drawn = spy_text(screen)
    screen.render(view)
    rows = [text.shown for text in drawn
            if text.size == screen.m(17) and text.text and text.text in view.prompt]
    assert not any("…" in row for row in rows), rows
    assert " ".join(rows) == view.prompt
    assert rows[0].startswith("Ann キック/Kick+MA") and rows[-1].endswith("tens 十の位")
    screen.close()
