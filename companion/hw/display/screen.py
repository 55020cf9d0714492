"""The attached screen (pygame): one full picture of the game after every step.

Layouts are drawn for 800x480 and 1024x600 (the common Pi touch screens) and
scale between them. On the Pi, ``SDL_VIDEODRIVER=kmsdrm`` draws straight to
the display with no desktop running; tests use ``SDL_VIDEODRIVER=dummy`` and
save PNGs.

Text goes through one cache of rendered surfaces, and tile pictures are
scaled once per size, so a redraw is mostly blits (``scripts/bench_display.py``
measures it). Japanese needs a CJK font (:mod:`.fonts`); without one the
screen shows the English half of every name.

Taps (touch, or the mouse's primary button) on an option pick it, exactly like its
button: when the finger lifts inside the box it went down on (a finger that slides off
takes nothing back with it), and the pressed box is lit meanwhile.

A portrait panel (the official Touch Display 2 is 720x1280) is drawn on turned a quarter:
the landscape layout is drawn offscreen and shown rotated (``display.rotate``), and taps
are turned back. A screen smaller than :data:`MIN_SIZE` is said to be too small, on stderr
and on the screen until the player presses on; the game plays on it all the same.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pygame
import pygame.freetype

from companion.errors import DeviceError
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.canvas import (
    ACCENT,
    BACKGROUND,
    BAD,
    DIM,
    GOOD,
    HIGHLIGHT,
    ON_HIGHLIGHT,
    PANEL,
    TEXT,
    TEXT_MIN,
    TEXT_SCALES,
    Color,
    _Metrics,
)
from companion.hw.display.fonts import (
    JAPANESE_PROBE,
    FontError,
    FontFile,
    find_cjk_font,
    say_no_japanese,
)
from companion.hw.display.game_panels import system_hint
from companion.hw.display.option_buttons import OptionButtons
from companion.hw.display.view import Option, View
from companion.hw.key_runs import EnterEndsLine, Key
from companion.hw.keyboard import press_for_key

__all__ = [
    "ACCENT",
    "BACKGROUND",
    "BAD",
    "DIM",
    "GOOD",
    "HIGHLIGHT",
    "LAYOUTS",
    "MIN_SIZE",
    "ON_HIGHLIGHT",
    "PANEL",
    "ROTATIONS",
    "TEXT",
    "UNSEEN_DRIVERS",
    "Color",
    "ScreenDisplay",
    "pick_layout",
    "small_screen_note",
]

LAYOUTS: dict[str, tuple[int, int]] = {"800x480": (800, 480), "1024x600": (1024, 600)}
#: The least layout the text reads on: 0.8 of 800x480, where the least text (TEXT_MIN, 14 px
#: at 800x480) is still 11 px and a tap target 35 px. Below it (a 3.5" 480x320 panel: 8 px
#: text, 26 px boxes) the screen is said to be too small (screen64 DEFECT 1); a layout of its
#: own for such screens is not drawn. 最小の画面サイズ。
MIN_SIZE = (640, 384)
#: ``display.rotate``: ``auto`` turns a portrait panel a quarter clockwise; else the
#: degrees the picture is turned clockwise on the panel.
ROTATIONS = ("auto", "0", "90", "180", "270")

_SPECIAL_KEYS = {pygame.K_RETURN: "\r", pygame.K_KP_ENTER: "\r", pygame.K_ESCAPE: "\x1b",
                 pygame.K_BACKSPACE: "\x7f"}
_ARROW_KEYS = {pygame.K_LEFT: Button.PREVIOUS, pygame.K_UP: Button.PREVIOUS,
               pygame.K_RIGHT: Button.MENU, pygame.K_DOWN: Button.MENU}

HEADER_HEIGHT = 38  # at 800x480: the header over every screen, where a tap opens System
_MOUSE = ("mouse", 0, 0)  # the one mouse pointer, beside each touch's (touch id, finger id)
# A pressed box is lit by this over it: a step lighter in every colour vision, label and all.
_PRESSED = (255, 255, 255, 56)

#: SDL's video drivers that draw into memory only: nothing a player can see.
UNSEEN_DRIVERS = frozenset({"offscreen", "dummy"})
_WHAT_TO_DO = ("set up the screen (on the Pi: the console, SDL_VIDEODRIVER=kmsdrm and the Pi's "
               "own python3-pygame; see 'On the Pi' in docs/playing.md) or play with "
               "--display terminal")


def _asked_drivers() -> set[str]:
    """The video drivers the user named in ``SDL_VIDEODRIVER`` (SDL takes a comma list)."""
    named = os.environ.get("SDL_VIDEODRIVER", "")
    return {part.strip().lower() for part in named.split(",") if part.strip()}


def _start_display() -> None:
    """Start pygame's display, or raise :class:`DeviceError` saying why there is no screen.

    With no display to draw on, pip's pygame falls back to SDL's ``offscreen`` driver
    (``dummy`` draws nowhere either): the game would play with nothing shown. Such a
    driver is kept only when ``SDL_VIDEODRIVER`` asked for it (the tests ask for dummy).
    """
    try:
        pygame.display.init()
    except pygame.error as exc:  # e.g. "kmsdrm not available"
        raise DeviceError(f"the screen cannot be opened ({exc}): {_WHAT_TO_DO}") from exc
    driver = (pygame.display.get_driver() or "").lower()
    if driver in UNSEEN_DRIVERS and driver not in _asked_drivers():
        pygame.display.quit()
        raise DeviceError(f"no screen found: SDL could only open its {driver!r} driver, "
                          f"which shows nothing; {_WHAT_TO_DO}")


@dataclass(frozen=True)
class _Hit:
    """What a tap at one place would do, and the box that place is in."""

    box: pygame.Rect
    presses: tuple[Press, ...]


@dataclass(frozen=True)
class _Lit:
    """A pressed box drawn lit: what it covered, to put back, on the frame it was drawn on."""

    frame: int
    box: pygame.Rect
    under: pygame.Surface


def small_screen_note(width: int, height: int) -> str | None:
    """What a layout of ``width`` x ``height`` (after any rotation) too small to read is told
    (on stderr, with ``companion: note:`` before it): None when it is :data:`MIN_SIZE` or
    larger."""
    if width >= MIN_SIZE[0] and height >= MIN_SIZE[1]:
        return None
    least = f"{MIN_SIZE[0]}x{MIN_SIZE[1]}"
    return (f"the screen is {width}x{height}, smaller than the {least} the companion's layout "
            f"needs: its text is too small to read; attach a 7\" 800x480 screen (or larger), "
            f"or play with --display terminal 画面が小さすぎます")


def _small_screen_status(width: int, height: int) -> str:
    """:func:`small_screen_note` as the screen's status says it, in both languages: the
    Japanese early, so that a status cut to one row (over a grid) still has it."""
    least = f"{MIN_SIZE[0]}x{MIN_SIZE[1]}"
    return (f"screen {width}x{height} too small, {least} at least 画面が小さすぎます: "
            f"a 7\" 800x480 screen, or --display terminal")


@functools.cache
def _say_small_screen(width: int, height: int) -> None:
    """:func:`small_screen_note` on stderr, once a run for a size: the screen is opened
    again by each mode switched to."""
    note = small_screen_note(width, height)
    if note is not None:
        print(f"companion: note: {note}", file=sys.stderr)


def _rotation(rotate: str, width: int, height: int) -> int:
    """The degrees (clockwise) a ``rotate`` setting turns the picture on a panel ``width``
    x ``height``: ``auto`` a quarter on a portrait panel, none on a landscape one."""
    if rotate == "auto":
        return 90 if height > width else 0
    return int(rotate)


def pick_layout(size: str) -> tuple[int, int]:
    """The window's size for a ``display.size`` setting (``auto``: 800x480). Full screen
    takes the screen's own size, and the layout scales to it."""
    return LAYOUTS.get(size, LAYOUTS["800x480"])


class ScreenDisplay(OptionButtons):
    """A pygame window (or the whole screen) showing :class:`~companion.hw.display.view.View`."""

    def __init__(
        self,
        size: str = "auto",
        fullscreen: bool = False,
        font: FontFile | None = None,
        find_font: bool = True,
        system_seconds: float | None = 3.0,
        text_scale: float = 1.0,
        rotate: str = "auto",
    ) -> None:
        """``system_seconds``: how long the item button is held for the System menu, which
        the header's hint says (None: no buttons; the hint names the S key).
        ``text_scale``: every font that much larger (``display.text_scale``), within
        :data:`~companion.hw.display.canvas.TEXT_SCALES`; the layout stays.
        ``rotate`` (``display.rotate``, :data:`ROTATIONS`): the degrees the picture is
        turned clockwise on the panel; ``auto`` turns a portrait panel's a quarter, so that
        the landscape layout fills it rather than its top third."""
        low, high = TEXT_SCALES
        if not low <= text_scale <= high:
            raise ValueError(f"text_scale {text_scale:g}: between {low:g} and {high:g}")
        if rotate not in ROTATIONS:
            raise ValueError(f"rotate {rotate!r}: choose one of {', '.join(ROTATIONS)}")
        # An Enter typed right after a number or letter key ends that key's line, as at a
        # terminal, not the next menu's confirm (input audit 67 D1, reviewi67 RISK 3); the
        # window's keys are timed as its events are pumped. (pygame sends no repeats.)
        self._line = EnterEndsLine()
        _start_display()
        pygame.freetype.init()
        try:
            if fullscreen:
                # (0, 0): keep the screen's own mode; the layout scales to it.
                self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)  # a touch screen needs no pointer
            else:
                self.window = pygame.display.set_mode(pick_layout(size))
        except pygame.error as exc:
            pygame.display.quit()
            raise DeviceError(f"the screen cannot be opened ({exc}): {_WHAT_TO_DO}") from exc
        pygame.display.set_caption("JongRogue Companion 雀ローグ")
        panel_w, panel_h = self.window.get_size()
        #: Degrees the layout is turned clockwise on the panel: the layout is then drawn on
        #: a surface of its own, landscape, and shown turned (:meth:`_present`).
        self.rotation = _rotation(rotate, panel_w, panel_h)
        self.surface = self.window if not self.rotation else pygame.Surface(
            (panel_h, panel_w) if self.rotation in (90, 270) else (panel_w, panel_h),
            0, self.window)
        self.width, self.height = self.surface.get_size()
        # A screen too small to read is said so (once on the screen: the status of the views
        # without one of their own, until a press on it or the next ask); the game plays on.
        _say_small_screen(self.width, self.height)
        self._small_note: str | None = _small_screen_status(self.width, self.height) \
            if small_screen_note(self.width, self.height) else None
        self._small_shown = False
        self.system_hint = system_hint(system_seconds)
        self.text_scale = text_scale
        self.m = _Metrics(min(self.width / 800, self.height / 480))
        font = font if font is not None or not find_font else find_cjk_font()
        try:
            self._font = (
                pygame.freetype.Font(str(font.path), 16, font_index=font.index)
                if font is not None
                else pygame.freetype.Font(None, 16)
            )
        except (OSError, pygame.error) as exc:
            pygame.display.quit()
            assert font is not None  # pygame's own font is always there
            raise FontError(f"{font.path}: not a font the screen can draw with ({exc})") \
                from None
        self._font.pad = True
        # A configured font file may have no Japanese in it: trusted, every name would be
        # drawn as boxes. Without the glyphs the English halves are drawn instead, and the
        # maker who set it is told why the Japanese is gone (a78screen RISK 3).
        self.has_cjk = font is not None \
            and self._font.get_metrics(JAPANESE_PROBE)[0] is not None
        if font is not None and not self.has_cjk:
            say_no_japanese(font.path)
        self._text_cache: dict[tuple[str, int, Color], pygame.Surface] = {}
        self._width_cache: dict[tuple[str, int], int] = {}
        self._glyph_cache: dict[tuple[str, int], tuple[int, ...]] = {}
        self._picture_cache: dict[str, pygame.Surface] = {}
        self._label_cache: dict[tuple[str, int, int, int, float, int],
                                tuple[list[str], int]] = {}
        self._inked_cache: dict[tuple[str, int, int, int, float],
                                tuple[list[str], int, int]] = {}
        self._tile_cache: dict[tuple[str, int], pygame.Surface] = {}
        self._targets: list[tuple[pygame.Rect, int]] = []
        # A long menu's "more" box, and how many MENU presses it stands for.
        self._more: tuple[pygame.Rect, int] | None = None
        # What each pointer (the mouse, a finger) went down on, until it lifts.
        self._down: dict[tuple[str, int, int], _Hit] = {}
        self._lit: _Lit | None = None
        self._frame = 0  # rendered so far: a lit box is put back only on its own frame
        self._asking: tuple[str, tuple[Option, ...]] | None = None  # the menu last drawn
        self._system = False  # the screen last drawn offers the System menu (its header)

    # ---- drawing -------------------------------------------------------------

    def show(self, view: View) -> None:
        self.render(view)
        for hit in list(self._down.values())[-1:]:  # still pressed, on the menu drawn again
            self._light(hit.box)
        self._present()

    def _present(self, boxes: list[pygame.Rect] | None = None) -> None:
        """Put the layout drawn on the panel (turned, on a rotated one) and show it.
        ``boxes``: only these parts of the layout changed since it was last put (a pressed
        box lit or put back): on a turned panel only they are turned again, not the whole
        layout (a 1280x720 turn is most of a frame's cost: scripts/bench_display.py)."""
        if self.rotation and boxes is not None:
            for box in boxes:
                self.window.blit(pygame.transform.rotate(self.surface.subsurface(box),
                                                         -self.rotation),
                                 self._on_panel(box))
        elif self.rotation:
            self._turn_onto_panel()
        pygame.display.flip()

    def _turn_onto_panel(self) -> None:
        """The whole layout turned onto the panel, pixel for pixel into the window's own
        (it is drawn in the window's format): a third quicker than turning it onto a new
        surface and putting that (scripts/bench_display.py), and no 3.7 MB surface a frame
        at 720x1280."""
        try:
            panel = pygame.surfarray.pixels2d(self.window)
            layout = pygame.surfarray.pixels2d(self.surface)
        except (ValueError, pygame.error):  # a 24-bit window has no such view of its pixels
            self.window.blit(self._turned(), (0, 0))
            return
        # The arrays are [x, y]; a quarter clockwise puts the layout's (x, y) at the panel's
        # (height - 1 - y, x) (:meth:`_unturned` undoes it).
        if self.rotation == 90:
            panel[...] = layout.T[::-1, :]
        elif self.rotation == 180:
            panel[...] = layout[::-1, ::-1]
        else:
            panel[...] = layout.T[:, ::-1]
        del panel, layout  # the surfaces stay locked while their arrays are held

    def _on_panel(self, box: pygame.Rect) -> pygame.Rect:
        """Where a box of the layout is on the panel, turned with it."""
        w, h = self.width, self.height
        if self.rotation == 90:
            return pygame.Rect(h - box.bottom, box.x, box.h, box.w)
        if self.rotation == 180:
            return pygame.Rect(w - box.right, h - box.bottom, box.w, box.h)
        if self.rotation == 270:
            return pygame.Rect(box.y, w - box.right, box.h, box.w)
        return box.copy()

    def _turned(self) -> pygame.Surface:
        """The layout as the panel shows it: turned :attr:`rotation` degrees clockwise
        (pygame turns counterclockwise; a quarter's turn moves pixels, nothing is
        resampled)."""
        return pygame.transform.rotate(self.surface, -self.rotation) if self.rotation \
            else self.surface

    def _unturned(self, pos: tuple[float, float]) -> tuple[float, float]:
        """A point on the panel (a tap) at its place on the layout: the rotation undone."""
        x, y = pos
        if self.rotation == 90:
            return y, self.height - 1 - x
        if self.rotation == 180:
            return self.width - 1 - x, self.height - 1 - y
        if self.rotation == 270:
            return self.width - 1 - y, x
        return pos

    def render(self, view: View) -> pygame.Surface:
        """Draw ``view`` onto the layout's surface (without showing it) and return it."""
        if self._small_shown and (view.prompt, view.options) != self._asking:
            # Said, and the game asks something else: the player pressed on, on whatever
            # they press with. The GPIO buttons and an SSH keyboard reach the session through
            # Controls, never this screen's poll, and the note stayed all the run (review64s
            # DEFECT 2). A redraw of the same ask (a countdown, a read) says it again.
            self._small_note = None
        if self._small_note is not None and not view.status:
            view = replace(view, status=self._small_note, guidance=False)
            self._small_shown = True  # said: a press, or the next ask, ends the saying
        m, w, h = self.m, self.width, self.height
        self._frame += 1
        self._system = view.system
        if (view.prompt, view.options) != self._asking:
            # A finger down on the last menu lifts on this one: it picks nothing here.
            self._down.clear()
            self._asking = (view.prompt, view.options)
        self.surface.fill(BACKGROUND)
        # A fight's menu, any menu too long for one row, or a prompt of two rows gets a
        # taller footer (:meth:`_footer_height`).
        header_h = m(HEADER_HEIGHT)
        footer_h = self._footer_height(view)
        self._header(view, pygame.Rect(0, 0, w, header_h))
        body = pygame.Rect(0, header_h, w, h - header_h - footer_h)
        left = pygame.Rect(body.x + m(6), body.y + m(4), body.w // 2 - m(9), body.h - m(8))
        right = pygame.Rect(body.centerx + m(3), body.y + m(4), body.w // 2 - m(9),
                            body.h - m(8))
        self._footer(view, pygame.Rect(0, h - footer_h, w, footer_h))
        if view.fight is not None:
            # The combatants; the result (the log under it); with a board, the board and
            # the log between them (:meth:`_fight_columns`, which the footer's rows ask too).
            self._fight(view.fight, *self._fight_columns(view.fight, body))
            return self.surface
        if view.dice is not None:
            # The table's walk needs the width; the dice need a third of it.
            split = body.x + body.w * 36 // 100
            self._dice(view.dice, pygame.Rect(left.x, left.y, split - left.x - m(3), left.h),
                       pygame.Rect(split + m(3), right.y, right.right - split - m(3), right.h))
            return self.surface
        if view.message:
            self._message(view.prompt, body, view.trouble)
            return self.surface
        check_min = m(24) + self._step(m(19)) + m(8)  # the last check's title and a row
        # The room takes rows from the last check where its tiles' states need them, down
        # to the check's title and a row, or the pursuers' least where they are shown.
        under = self._pursuers_min(len(view.pursuers)) if view.pursuers else check_min
        limit = left.h - m(6) - under
        room_base = m(190)
        if limit < room_base and not view.pursuers:
            # A footer taller than its own (a status of two rows over a grid, screen74
            # DEFECT 2): the room gives up the rows its tiles do not need, their pictures a
            # little smaller, before the last check loses its one row. (The pursuers' panel
            # is laid out for the room's own height, and takes the check's rows anyway.)
            room_base = max(limit, m(24) + sum(self._room_needs(view.room_tiles, left.w,
                                                                limit - m(24))))
        room_h = self._room_height(view.room_tiles, left.w, room_base, limit)
        self._room(view.room_tiles, pygame.Rect(left.x, left.y, left.w, room_h))
        check_top = left.y + room_h + m(6)
        if view.pursuers:
            # The monsters following the PC, under the room it came to (screen66 RISK 2),
            # their panel taking the last check's rows, all of them where it must.
            check_top = self._pursuers(
                view.pursuers, pygame.Rect(left.x, check_top, left.w, left.bottom - check_top),
                check_min + m(6)) + m(6)
        if not view.pursuers or left.bottom - check_top >= check_min:
            check = pygame.Rect(left.x, check_top, left.w, left.bottom - check_top)
            lines = view.last_check[:len(view.last_check) - view.last_check_after]
            self._lines("Last check 判定", self._check_lines(lines, check), check,
                        after=view.last_check[len(lines):])
        # The sheet takes rows from the log when its lines wrap, down to the log's last two
        # (its newest entry): under a two-row grid, three kept for the log cut the Items
        # line, and ring kinds the player carries were shown nowhere (display audit 56,
        # item 10); then closer, down to the log's title and its newest row, never further:
        # an event that is no check (the stairs, a room laid, a monster's wake-up, an
        # ability) is on the screen nowhere else, and the last check is not the newest event
        # (reviewscreen66 RISK 1). The sheet's longest line (the Items) is cut first.
        log_min = m(24) + self._step(m(19)) + m(4)  # its title, a row, the margin under it
        # A body shorter than the sheet's own height and the log's least (a long status over
        # the pick boxes took rows at text 1.25) shrinks the sheet, not the log: the log was
        # dropped, and its rows left blank under the sheet (reviews72 RISK 1).
        sheet_h = max(0, min(m(198), right.bottom - m(6) - log_min - right.y))
        # A status of two rows over the grid (screen74 DEFECT 2) may take the log whole,
        # only where the sheet would otherwise cut its Rings, Items or States (its Items
        # count at 1.25, reviewscreen74 RISK 1); never for the Rules line alone. The
        # status is not always the answer to the log's newest event (a save or camera
        # trouble stays up turn after turn: reviewy74 RISK 1), so the log is lost only
        # where a line the game changes would be.
        whole = right.bottom if self._grid(view) and self._grid_status_rows(view) > 1 \
            else None
        sheet_bottom = self._sheet(view.sheet, pygame.Rect(right.x, right.y, right.w, sheet_h),
                                   right.bottom - m(2 * 19 + 34),
                                   right.bottom - m(6) - log_min, whole)
        log_box = pygame.Rect(right.x, sheet_bottom + m(6), right.w,
                              right.bottom - sheet_bottom - m(6))
        if log_box.h >= log_min:  # (else a sheet with no room to give took its rows)
            self._lines("Log 記録", view.log, log_box, newest_last=True)
        return self.surface

    def _check_lines(self, lines: Sequence[str], rect: pygame.Rect) -> Sequence[str]:
        """The last check's lines for its panel ``rect``: where the panel holds one row and
        the check is followed by its outcome, the outcome alone after a ``…`` (the rule's
        own preference, :meth:`_first_and_last`), its middle cut where it is wider than the
        row, rather than the check's first row cut at its end, which said neither the
        verdict nor what came of it (reviews72 RISK 1: ``ranged 遠隔攻撃 (arrows) vs 大う
        ずら…`` under a status over the pick boxes at text 1.25)."""
        m = self.m
        rows = self._rows_fit(rect.y + m(24), rect.bottom, self._step(m(19)), m(TEXT_MIN),
                              m(4))
        if rows != 1 or len(lines) < 2 or "→" not in lines[-1].split(" "):
            return lines
        return ["…" + lines[-1]]

    # ---- input and lifetime ----------------------------------------------------

    def poll(self) -> list[Press]:
        """Keys and taps since the last call; closing the window stops the session."""
        presses: list[Press] = []
        events = pygame.event.get()
        now = time.monotonic()
        for event in events:
            if event.type == pygame.QUIT:
                raise KeyboardInterrupt
            if event.type == pygame.KEYDOWN and event.key in _ARROW_KEYS:
                self._line.keep(Key(f"key {event.key}", _ARROW_KEYS[event.key], now))
                presses.append(_ARROW_KEYS[event.key])
            elif event.type == pygame.KEYDOWN:
                char = _SPECIAL_KEYS.get(event.key, event.unicode)
                press = press_for_key(char)
                # A key with no text (Shift, Ctrl) is no key between a line and its Enter.
                if char and self._line.keep(Key(char.lower(), press, now)) \
                        and press is not None:
                    presses.append(press)
            # (A touch screen sends each touch as a mouse click too, marked ``touch``: the
            # finger's own events have it.) Only the primary button taps: pygame sends the
            # wheel as buttons 4 and 5 (a scroll over a box picked it), and a middle or right
            # click means paste or a context menu on a desktop, never a game action.
            elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) \
                    and not getattr(event, "touch", False) \
                    and event.button == pygame.BUTTON_LEFT:
                presses.extend(self._touched(self._touch(
                    _MOUSE, self._unturned(event.pos), event.type == pygame.MOUSEBUTTONDOWN)))
            elif event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
                # A finger's place is a fraction of the panel (the window), not the layout.
                panel_w, panel_h = self.window.get_size()
                at = self._unturned((event.x * panel_w, event.y * panel_h))
                presses.extend(self._touched(self._touch(
                    ("finger", event.touch_id, event.finger_id), at,
                    event.type == pygame.FINGERDOWN)))
        if presses and self._small_shown:
            self._small_note = None  # the screen's size was said, and the player went on
        return presses

    def _touched(self, presses: list[Press]) -> list[Press]:
        """A tap's presses: an Enter after it confirms (no line was typed)."""
        if presses:
            self._line.interrupt()
        return presses

    def _touch(self, pointer: tuple[str, int, int], pos: tuple[float, float],
               down: bool) -> list[Press]:
        """A pointer going down (its box is lit) or lifting: it picks only when it lifts in
        the box it went down on, so that a finger resting on one box, or sliding from it,
        picks nothing.

        With several fingers down one box is lit, the last pressed of those still down: the
        first to lift in its box takes its option and the menu moves on (the others then
        pick nothing), so several lit would read as several chosen. When the last pressed
        lifts, the box of a finger still down is lit again: it went dark, as though that
        finger's press was gone, while its lift would still pick (display audit 54, item
        6)."""
        hit = self._hit(pos)
        put_back = self._unlight()
        changed = [put_back] if put_back is not None else []
        if down and hit is not None:
            self._down[pointer] = hit
        pressed = None if down else self._down.pop(pointer, None)
        for held in list(self._down.values())[-1:]:
            changed.append(self._light(held.box))
        if changed:
            self._present(changed)
        if down:
            return []
        return list(hit.presses) if hit is not None and hit == pressed else []

    def _hit(self, pos: tuple[float, float]) -> _Hit | None:
        """What a tap at ``pos`` does, and the box it is in; None off every target."""
        if pos[1] < self.m(HEADER_HEIGHT):
            # The header: the System menu (its hint is there), where the screen offers it;
            # elsewhere (a question before play, the menu itself) it is no button.
            if not self._system:
                return None
            return _Hit(pygame.Rect(0, 0, self.width, self.m(HEADER_HEIGHT)), (Button.SYSTEM,))
        for rect, index in self._targets:
            if rect.collidepoint(pos):
                return _Hit(rect.copy(), (Pick(index, tap=True),))
        if self._more is not None and self._more[0].collidepoint(pos):
            # The page's "more" box: the MENU presses it names, as if its button were held.
            return _Hit(self._more[0].copy(), (Button.MENU,) * self._more[1])
        return None

    def _light(self, box: pygame.Rect) -> pygame.Rect:
        """Show ``box`` pressed: a step lighter, until its pointer lifts or a redraw; the
        part of the layout it changed."""
        box = box.clip(self.surface.get_rect())
        self._lit = _Lit(self._frame, box, self.surface.subsurface(box).copy())
        overlay = pygame.Surface(box.size, pygame.SRCALPHA)
        pygame.draw.rect(overlay, _PRESSED, overlay.get_rect(), border_radius=self.m(8))
        self.surface.blit(overlay, box.topleft)
        return box

    def _unlight(self) -> pygame.Rect | None:
        """Put back what a pressed box covered, unless the screen was drawn again since;
        the part of the layout put back, None when nothing was."""
        lit, self._lit = self._lit, None
        if lit is None or lit.frame != self._frame:
            return None
        self.surface.blit(lit.under, lit.box.topleft)
        return lit.box

    def save_png(self, path: Path) -> None:
        """The screen as the panel shows it (a rotated layout turned) saved as a PNG."""
        pygame.image.save(self._turned(), os.fspath(path))

    def close(self) -> None:
        pygame.display.quit()
