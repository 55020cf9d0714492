"""The attached screen (pygame): one full picture of the game after every step.

Layouts are drawn for 800x480 and 1024x600 (the common Pi touch screens) and
scale between them. On the Pi, ``SDL_VIDEODRIVER=kmsdrm`` draws straight to
the display with no desktop running; tests use ``SDL_VIDEODRIVER=dummy`` and
save PNGs.

Text goes through one cache of rendered surfaces, and tile pictures are
scaled once per size, so a redraw is mostly blits (``scripts/bench_display.py``
measures it). Japanese needs a CJK font (:mod:`.fonts`); without one the
screen shows the English half of every name.

Taps (mouse or touch) on an option pick it, exactly like its button.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pygame
import pygame.freetype

from companion.assets import tile_image_path
from companion.errors import DeviceError
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.fonts import FontFile, find_cjk_font, without_cjk
from companion.hw.display.keys import option_key
from companion.hw.display.view import (
    BoardView,
    DiceView,
    FighterView,
    FightView,
    PieceView,
    SheetView,
    TileView,
    View,
)
from companion.hw.keyboard import press_for_key

LAYOUTS: dict[str, tuple[int, int]] = {"800x480": (800, 480), "1024x600": (1024, 600)}

Color = tuple[int, int, int]
BACKGROUND: Color = (18, 22, 28)
PANEL: Color = (32, 38, 48)
TEXT: Color = (232, 232, 226)
DIM: Color = (150, 158, 168)
ACCENT: Color = (240, 190, 80)
GOOD: Color = (96, 196, 120)
BAD: Color = (220, 80, 70)
HIGHLIGHT: Color = (70, 110, 170)

_BUTTON_KEYS = {Button.ATTACK: "A", Button.FLEE: "B", Button.RANGED: "R", Button.ITEM: "I",
                Button.MENU: "M"}
_SPECIAL_KEYS = {pygame.K_RETURN: "\r", pygame.K_KP_ENTER: "\r", pygame.K_ESCAPE: "\x1b",
                 pygame.K_BACKSPACE: "\x7f"}
_TEXT_CACHE_LIMIT = 2048

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


def _load_png(tile: str) -> pygame.Surface:
    path = tile_image_path(tile)
    with path.open("rb") as handle:
        return pygame.image.load(handle, path.name).convert_alpha()


def pick_layout(size: str, screen: tuple[int, int] | None) -> tuple[int, int]:
    """The layout for a ``display.size`` setting; ``auto`` fits the screen (or 800x480)."""
    if size in LAYOUTS:
        return LAYOUTS[size]
    if screen and screen[0] >= 1024 and screen[1] >= 600:
        return LAYOUTS["1024x600"]
    return LAYOUTS["800x480"]


@dataclass(frozen=True, slots=True)
class _Metrics:
    """Every size on the screen, from one scale factor."""

    scale: float

    def __call__(self, value: float) -> int:
        return round(value * self.scale)


class ScreenDisplay:
    """A pygame window (or the whole screen) showing :class:`~companion.hw.display.view.View`."""

    def __init__(
        self,
        size: str = "auto",
        fullscreen: bool = False,
        font: FontFile | None = None,
        find_font: bool = True,
    ) -> None:
        _start_display()
        pygame.freetype.init()
        try:
            if fullscreen:
                # (0, 0): keep the screen's own mode; the layout scales to it.
                self.surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
                pygame.mouse.set_visible(False)  # a touch screen needs no pointer
            else:
                self.surface = pygame.display.set_mode(pick_layout(size, None))
        except pygame.error as exc:
            pygame.display.quit()
            raise DeviceError(f"the screen cannot be opened ({exc}): {_WHAT_TO_DO}") from exc
        pygame.display.set_caption("JongRogue Companion 雀ローグ")
        self.width, self.height = self.surface.get_size()
        self.m = _Metrics(min(self.width / 800, self.height / 480))
        font = font if font is not None or not find_font else find_cjk_font()
        self.has_cjk = font is not None
        self._font = (
            pygame.freetype.Font(str(font.path), 16, font_index=font.index)
            if font is not None
            else pygame.freetype.Font(None, 16)
        )
        self._font.pad = True
        self._text_cache: dict[tuple[str, int, Color], pygame.Surface] = {}
        self._tile_cache: dict[tuple[str, int], pygame.Surface] = {}
        self._targets: list[tuple[pygame.Rect, int]] = []

    # ---- drawing -------------------------------------------------------------

    def show(self, view: View) -> None:
        self.render(view)
        pygame.display.flip()

    def render(self, view: View) -> pygame.Surface:
        """Draw ``view`` onto the screen surface (without flipping) and return it."""
        m, w, h = self.m, self.width, self.height
        self.surface.fill(BACKGROUND)
        # A fight's menu is long: its footer has room for two rows of options.
        header_h, footer_h = m(38), m(118) if view.fight is not None else m(96)
        self._header(view, pygame.Rect(0, 0, w, header_h))
        body = pygame.Rect(0, header_h, w, h - header_h - footer_h)
        left = pygame.Rect(body.x + m(6), body.y + m(4), body.w // 2 - m(9), body.h - m(8))
        right = pygame.Rect(body.centerx + m(3), body.y + m(4), body.w // 2 - m(9),
                            body.h - m(8))
        self._footer(view, pygame.Rect(0, h - footer_h, w, footer_h))
        if view.fight is not None and view.fight.board is not None:
            # Three columns: the combatants; the board with the log under it; the result.
            first = body.x + body.w * 34 // 100
            board_w = m(216)
            self._fight(view.fight, pygame.Rect(left.x, left.y, first - left.x - m(3), left.h),
                        pygame.Rect(first + board_w + m(3), right.y,
                                    right.right - first - board_w - m(3), right.h),
                        pygame.Rect(first + m(3), left.y, board_w, left.h))
            return self.surface
        if view.fight is not None:
            # The combatants need the width of their names and pools; the result wraps.
            split = body.x + body.w * 53 // 100
            self._fight(view.fight, pygame.Rect(left.x, left.y, split - left.x - m(3), left.h),
                        pygame.Rect(split + m(3), right.y, right.right - split - m(3), right.h))
            return self.surface
        if view.dice is not None:
            # The table's walk needs the width; the dice need a third of it.
            split = body.x + body.w * 36 // 100
            self._dice(view.dice, pygame.Rect(left.x, left.y, split - left.x - m(3), left.h),
                       pygame.Rect(split + m(3), right.y, right.right - split - m(3), right.h))
            return self.surface
        room_h = m(190)
        self._room(view.room_tiles, pygame.Rect(left.x, left.y, left.w, room_h))
        self._lines("Last check 判定", view.last_check,
                    pygame.Rect(left.x, left.y + room_h + m(6), left.w, left.h - room_h - m(6)),
                    wrap=True)
        sheet_h = m(198)
        self._sheet(view.sheet, pygame.Rect(right.x, right.y, right.w, sheet_h))
        log_box = pygame.Rect(right.x, right.y + sheet_h + m(6), right.w,
                              right.h - sheet_h - m(6))
        self._lines("Log 記録", view.log, log_box, newest_last=True)
        return self.surface

    def _dice(self, dice: DiceView, left: pygame.Rect, right: pygame.Rect) -> None:
        """The dice tray: the throw as dice faces and BCDice lines; the table's walk."""
        m = self.m
        top = self._panel(left, "Dice ダイス" + (f" · {dice.source}" if dice.source else ""))
        if dice.title:
            self.surface.blit(self._fit(dice.title, m(18), left.w - m(16), ACCENT),
                              (left.x + m(8), top))
        side = min(m(64), (left.w - m(16)) // max(1, len(dice.faces)) - m(8))
        for i, face in enumerate(dice.faces):
            self._die(face, pygame.Rect(left.x + m(10) + i * (side + m(8)), top + m(30),
                                        side, side))
        rolls_top = top + m(30) + (side + m(10) if dice.faces else 0)
        self._lines("Roll 出目", dice.rolls,
                    pygame.Rect(left.x + m(4), rolls_top, left.w - m(8),
                                left.bottom - rolls_top - m(4)), wrap=True)
        y = self._panel(right, "Table 表")
        size, step = m(14), m(19)
        rule_w = m(74)  # the rule ID in a column of its own, the text hanging beside it
        for entry in dice.steps:
            x = right.x + m(8) + m(10) * entry.depth
            width = right.right - x - rule_w - m(8)
            if y + step > right.bottom:
                break
            self.surface.blit(self._text(entry.rule, m(12), DIM), (x, y + m(2)))
            for row in self._wrap(entry.text, size, width):
                if y + step > right.bottom:
                    break
                self.surface.blit(self._fit(row, size, width), (x + rule_w, y))
                y += step

    def _fight(self, fight: FightView, left: pygame.Rect, right: pygame.Rect,
               middle: pygame.Rect | None = None) -> None:
        """A fight: a row per combatant (the acting one marked); the last result; the log.
        With a board, ``middle`` holds it and the log under it, and the result has ``right``
        to itself."""
        m = self.m
        top = self._panel(left, fight.title or "Fight 戦闘")
        heading = m(16) if self._text(fight.heading, m(16)).get_width() <= left.w - m(16) \
            else m(13)  # a narrow column (beside a board): smaller rather than cut
        self.surface.blit(self._fit(fight.heading, heading, left.w - m(16), ACCENT),
                          (left.x + m(8), top - m(2)))
        top += m(24)
        count = len(fight.fighters)
        room = left.bottom - top - m(4)
        two_lines = count * m(44) <= room
        row_h = min(m(44) if two_lines else m(26), room // max(1, count))
        for i, fighter in enumerate(fight.fighters):
            self._fighter(fighter, pygame.Rect(left.x + m(4), top + i * row_h, left.w - m(8),
                                               row_h - m(2)), two_lines)
        log_h = min(m(98), right.h // 3)
        result = pygame.Rect(right.x, right.y, right.w, right.h - log_h - m(6))
        if middle is not None and fight.board is not None:
            result = right
            bottom = self._board(fight.board, middle)
            self._log(fight.log, pygame.Rect(middle.x, bottom + m(6), middle.w,
                                             middle.bottom - bottom - m(6)), m(12), m(15))
        y = self._panel(result, "Result 結果" + (f" · {fight.source}" if fight.source else ""))
        if fight.result_title:
            self.surface.blit(self._fit(fight.result_title, m(15), result.w - m(16), ACCENT),
                              (result.x + m(8), y))
            y += m(22)
        if fight.faces:
            side = min(m(44), (result.w - m(16)) // len(fight.faces) - m(6))
            for i, face in enumerate(fight.faces):
                self._die(face, pygame.Rect(result.x + m(8) + i * (side + m(6)), y, side, side))
            y += side + m(6)
        size, step = m(14), m(18)
        width = result.w - m(16)
        for entry in fight.result:
            # The rule ID in small grey heads the step's first row; the rest hangs under it.
            rows = self._wrap(f"{entry.rule} {entry.text}", size, width)
            for n, row in enumerate(rows):
                if y + step > result.bottom - m(2):
                    break
                x = result.x + m(8)
                if n == 0 and row.startswith(entry.rule):
                    rule = self._text(entry.rule, m(11), DIM)
                    self.surface.blit(rule, (x, y + m(3)))
                    row, x = row[len(entry.rule):].lstrip(), x + rule.get_width() + m(5)
                self.surface.blit(self._fit(row, size, result.right - m(8) - x), (x, y))
                y += step
        if middle is None:
            self._log(fight.log, pygame.Rect(right.x, result.bottom + m(6), right.w, log_h),
                      size, step)

    def _log(self, log: Sequence[str], box: pygame.Rect, size: int, step: int) -> None:
        """A fight's log: the newest actions that fit whole, oldest first."""
        m = self.m
        y = self._panel(box, "Log 記録")
        width = box.w - m(16)
        capacity = max(0, (box.bottom - y - m(4)) // step)
        kept: list[str] = []
        for line in reversed(log):
            wrapped = self._wrap(line, size, width)
            if len(kept) + len(wrapped) > capacity:
                break
            kept = wrapped + kept
        for row in kept:
            self.surface.blit(self._fit(row, size, width), (box.x + m(8), y))
            y += step

    def _board(self, board: BoardView, rect: pygame.Rect) -> int:
        """A fight's board from above, north up: squares in two shades, the columns' letters
        along the bottom and the rows' numbers up the side; each combatant a disc in its
        side's colour (grey when down) with its mark and a notch toward where it faces, the
        one whose turn it is ringed; two on one square (a grapple) share it. Returns the
        bottom of the panel."""
        m = self.m
        top = self._panel(rect, board.title)
        label = m(12)
        side = max(4, min((rect.w - m(14) - label) // max(1, board.cols),
                          (rect.bottom - top - label - m(8)) // max(1, board.rows)))
        x0, y0 = rect.x + m(6) + label, top
        for col in range(board.cols):
            for row in range(board.rows):
                shade = (58, 68, 84) if (col + row) % 2 else (44, 52, 64)
                pygame.draw.rect(self.surface, shade, pygame.Rect(
                    x0 + col * side, y0 + (board.rows - 1 - row) * side, side, side))
            letter = self._text(chr(ord("a") + col), m(11), DIM)
            self.surface.blit(letter, (x0 + col * side + (side - letter.get_width()) // 2,
                                       y0 + board.rows * side + m(1)))
        for row in range(board.rows):
            number = self._text(str(row + 1), m(11), DIM)
            self.surface.blit(number, (x0 - label + (label - number.get_width()) // 2,
                                       y0 + (board.rows - 1 - row) * side
                                       + (side - number.get_height()) // 2))
        squares: dict[tuple[int, int], list[PieceView]] = {}
        for piece in board.pieces:
            if 0 <= piece.col < board.cols and 0 <= piece.row < board.rows:
                squares.setdefault((piece.col, piece.row), []).append(piece)
        for (col, row), pieces in squares.items():
            cx = x0 + col * side + side / 2
            cy = y0 + (board.rows - 1 - row) * side + side / 2
            shared = len(pieces) > 1
            radius = side * (0.3 if shared else 0.4)
            for n, piece in enumerate(pieces[:2]):
                shift = (side * 0.18 * (1 if n else -1)) if shared else 0.0
                self._piece(piece, (cx + shift, cy + shift), radius)
        return y0 + board.rows * side + label + m(4)

    def _piece(self, piece: PieceView, centre: tuple[float, float], radius: float) -> None:
        """One combatant on the board: a disc, its mark, a notch toward its facing."""
        m = self.m
        color = DIM if piece.down else GOOD if piece.ally else BAD
        x, y = centre
        if piece.acting:
            pygame.draw.circle(self.surface, ACCENT, (round(x), round(y)),
                               round(radius) + m(3))
        pygame.draw.circle(self.surface, color, (round(x), round(y)), round(radius))
        dx, dy = piece.facing
        if dx or dy:
            length = (dx * dx + dy * dy) ** 0.5
            ux, uy = dx / length, -dy / length  # y grows downwards on the screen
            tip = (x + ux * radius * 1.35, y + uy * radius * 1.35)
            base = radius * 0.55
            wing = radius * 0.55
            pygame.draw.polygon(self.surface, TEXT, [
                (round(tip[0]), round(tip[1])),
                (round(x + ux * base - uy * wing), round(y + uy * base + ux * wing)),
                (round(x + ux * base + uy * wing), round(y + uy * base - ux * wing))])
        mark = self._text(piece.mark, max(m(9), round(radius * 1.35)), BACKGROUND)
        self.surface.blit(mark, (round(x - mark.get_width() / 2),
                                 round(y - mark.get_height() / 2)))

    def _fighter(self, f: FighterView, rect: pygame.Rect, two_lines: bool) -> None:
        """One combatant: side stripe, name (ja, en), HP/MP and a bar, conditions. A narrow
        row (beside a board) has smaller pools and bar, and leaves the side to the stripe."""
        m = self.m
        narrow = rect.w < m(300)
        if f.acting:
            pygame.draw.rect(self.surface, HIGHLIGHT, rect, border_radius=m(5))
        pygame.draw.rect(self.surface, GOOD if f.ally else BAD,
                         pygame.Rect(rect.x + m(2), rect.y + m(3), m(4), rect.h - m(6)))
        color = DIM if f.down else TEXT
        x = rect.x + m(12)
        pools = self._text(f.pools(), m(13) if narrow else m(15), color)
        pools_x = rect.right - m(6) - pools.get_width()
        marker = "▶ " if f.acting else ""
        name = self._fit(marker + (f.name.ja or f.name.en), m(16), pools_x - x - m(8),
                         ACCENT if f.acting else color)
        self.surface.blit(name, (x, rect.y + m(3)))
        en = f.name.en if f.name.ja and f.name.en != f.name.ja else ""
        en_x = x + name.get_width() + m(6)
        if en and pools_x - en_x > m(30):
            self.surface.blit(self._fit(en, m(13), pools_x - en_x - m(8), DIM),
                              (en_x, rect.y + m(6)))
        self.surface.blit(pools, (pools_x, rect.y + m(3)))
        conditions = " · ".join(f.conditions)
        if not two_lines:
            return
        bar_w = m(60) if narrow else m(110)
        bar = pygame.Rect(rect.right - m(6) - bar_w, rect.y + m(28), bar_w, m(8))
        if f.hp is not None and f.hp_max:
            fraction = max(0.0, min(1.0, f.hp / f.hp_max))
            pygame.draw.rect(self.surface, BACKGROUND, bar, border_radius=m(3))
            filled = bar.copy()
            filled.w = round(bar.w * fraction)
            hue = GOOD if fraction > 0.5 else ACCENT if fraction > 0.25 else BAD
            if filled.w:
                pygame.draw.rect(self.surface, hue, filled, border_radius=m(3))
        line = (conditions or str(f.side)) if narrow else \
            str(f.side) + (f" · {conditions}" if conditions else "")
        self.surface.blit(self._fit(line, m(13), bar.x - x - m(8), BAD if f.down else DIM),
                          (x, rect.y + m(24)))

    def _die(self, face: int, rect: pygame.Rect) -> None:
        """A white d6 seen from above, with its pips (a red ace, as on Japanese dice)."""
        m = self.m
        pygame.draw.rect(self.surface, (236, 234, 226), rect, border_radius=m(8))
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
                 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
                 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
                 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}.get(face, [])
        cell = rect.w / 4
        radius = max(2, round(rect.w / (7 if face == 1 else 11)))
        for col, row in spots:
            centre = (round(rect.x + cell * (col + 1)), round(rect.y + cell * (row + 1)))
            pygame.draw.circle(self.surface, BAD if face == 1 else (20, 20, 24), centre, radius)

    def _text(self, text: str, size: int, color: Color = TEXT) -> pygame.Surface:
        if not self.has_cjk:
            text = without_cjk(text)
        key = (text, size, color)
        surface = self._text_cache.get(key)
        if surface is None:
            if len(self._text_cache) > _TEXT_CACHE_LIMIT:
                self._text_cache.clear()
            # In the screen's own pixel format a cached text blits several times faster.
            surface = self._font.render(text or " ", color, size=size)[0].convert_alpha()
            self._text_cache[key] = surface
        return surface

    def _fit(self, text: str, size: int, width: int, color: Color = TEXT) -> pygame.Surface:
        """The text, cut with an ellipsis if it is wider than ``width``."""
        surface = self._text(text, size, color)
        while surface.get_width() > width and len(text) > 1:
            text = text[: max(1, len(text) * width // surface.get_width() - 1)]
            surface = self._text(text + "…", size, color)
        return surface

    def _wrap(self, text: str, size: int, width: int) -> list[str]:
        """Greedy wrap at spaces (or anywhere, for Japanese without spaces)."""
        words = text.split(" ")
        lines: list[str] = []
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if self._text(candidate, size).get_width() <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = word
            while self._text(line, size).get_width() > width and len(line) > 1:
                cut = max(1, len(line) * width // self._text(line, size).get_width())
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
        return lines

    def _tile(self, tile: str, height: int) -> pygame.Surface:
        key = (tile, height)
        surface = self._tile_cache.get(key)
        if surface is None:
            image = _load_png(tile)
            if tile not in ("back", "empty"):
                # The faces are transparent; lay them on the blank tile body.
                body = _load_png("empty")
                body.blit(image, (0, 0))
                image = body
            width = round(image.get_width() * height / image.get_height())
            surface = pygame.transform.smoothscale(image, (width, height))
            self._tile_cache[key] = surface
        return surface

    def _panel(self, rect: pygame.Rect, title: str | None = None) -> int:
        """Draw a panel; return the y where its content starts."""
        m = self.m
        pygame.draw.rect(self.surface, PANEL, rect, border_radius=m(6))
        if title is None:
            return rect.y + m(6)
        self.surface.blit(self._text(title, m(13), DIM), (rect.x + m(8), rect.y + m(4)))
        return rect.y + m(24)

    def _header(self, view: View, rect: pygame.Rect) -> None:
        m = self.m
        self.surface.blit(self._text(view.where, m(20), ACCENT), (m(10), m(7)))
        if view.sheet is not None:
            self._hp_bar(view.sheet, pygame.Rect(rect.w - m(210), m(10), m(200), m(18)))

    def _hp_bar(self, sheet: SheetView, rect: pygame.Rect) -> None:
        m = self.m
        fraction = max(0.0, min(1.0, sheet.hp / sheet.hp_max)) if sheet.hp_max else 0.0
        color = GOOD if fraction > 0.5 else ACCENT if fraction > 0.25 else BAD
        pygame.draw.rect(self.surface, PANEL, rect, border_radius=m(4))
        filled = rect.copy()
        filled.w = round(rect.w * fraction)
        if filled.w:
            pygame.draw.rect(self.surface, color, filled, border_radius=m(4))
        label = self._text(f"HP {sheet.hp}/{sheet.hp_max}", m(16))
        self.surface.blit(label, label.get_rect(midright=(rect.x - m(8), rect.centery)))

    def _room(self, tiles: Sequence[TileView], rect: pygame.Rect) -> None:
        m = self.m
        top = self._panel(rect, "Room 部屋 (2x2)")
        cell_w, cell_h = rect.w // 2, (rect.bottom - top) // 2
        tile_h = cell_h - m(8)
        for i, tile in enumerate(tiles[:4]):
            x = rect.x + (i % 2) * cell_w + m(6)
            y = top + (i // 2) * cell_h
            picture = self._tile("back" if tile.tile == "empty" else tile.tile, tile_h)
            if tile.tile == "empty":
                self._empty_slot(picture.get_rect(topleft=(x, y)))
            else:
                self.surface.blit(picture, (x, y))
            tx = x + picture.get_width() + m(6)
            text_w = cell_w - picture.get_width() - m(14)
            # The name (Japanese), its English under it; without a Japanese font, the
            # English takes the name's place.
            both = bool(tile.meaning.ja) and self.has_cjk
            lines = (
                (tile.meaning.ja if both else tile.meaning.en, m(16), TEXT),
                (tile.meaning.en if both else "", m(14), DIM),
                (tile.detail, m(14), ACCENT),
                ("" if tile.tile in ("back", "empty") else tile.tile, m(13), DIM),
            )
            ly = y + m(2)
            for text, size, color in lines:
                if text:
                    self.surface.blit(self._fit(text, size, text_w, color), (tx, ly))
                ly += size + m(5)
        if not tiles:
            hint = self._text("no room revealed yet", m(15), DIM)
            self.surface.blit(hint, (rect.x + m(10), top + m(10)))

    def _empty_slot(self, rect: pygame.Rect) -> None:
        """A spot with no tile on it (a monster defeated, an item taken): the slot's outline,
        dashed, with the word, so it is never taken for the blank 5z 白 White dragon tile."""
        m = self.m
        pygame.draw.rect(self.surface, BACKGROUND, rect, border_radius=m(5))
        dash, gap, width = m(6), m(4), max(1, m(2))
        inner = rect.inflate(-2 * m(3), -2 * m(3))
        for x0 in range(inner.x, inner.right, dash + gap):  # top and bottom edges
            x1 = min(x0 + dash, inner.right)
            pygame.draw.line(self.surface, DIM, (x0, inner.y), (x1, inner.y), width)
            pygame.draw.line(self.surface, DIM, (x0, inner.bottom - 1), (x1, inner.bottom - 1),
                             width)
        for y0 in range(inner.y, inner.bottom, dash + gap):  # left and right edges
            y1 = min(y0 + dash, inner.bottom)
            pygame.draw.line(self.surface, DIM, (inner.x, y0), (inner.x, y1), width)
            pygame.draw.line(self.surface, DIM, (inner.right - 1, y0), (inner.right - 1, y1),
                             width)
        words = [self._fit(word, m(12), inner.w - m(4), DIM)
                 for word in (("空き", "empty") if self.has_cjk else ("empty",))]
        y = inner.centery - sum(w.get_height() for w in words) // 2
        for word in words:
            self.surface.blit(word, word.get_rect(midtop=(inner.centerx, y)))
            y += word.get_height()

    def _sheet(self, sheet: SheetView | None, rect: pygame.Rect) -> None:
        m = self.m
        y = self._panel(rect, "PC")
        if sheet is None:
            return
        for row in sheet.lines():
            self.surface.blit(self._fit(row, m(15), rect.w - m(16)), (rect.x + m(8), y))
            y += m(22)

    def _lines(self, title: str, lines: Sequence[str], rect: pygame.Rect, wrap: bool = False,
               newest_last: bool = False) -> None:
        m = self.m
        y = self._panel(rect, title)
        size, step = m(14), m(19)
        width = rect.w - m(16)
        rows = [part for line in lines for part in (self._wrap(line, size, width) if wrap
                                                     else [line])]
        capacity = max(0, (rect.bottom - y - m(4)) // step)
        rows = rows[-capacity:] if newest_last else rows[:capacity]
        for row in rows:
            self.surface.blit(self._fit(row, size, width), (rect.x + m(8), y))
            y += step

    def _footer(self, view: View, rect: pygame.Rect) -> None:
        m = self.m
        pygame.draw.rect(self.surface, PANEL, rect)
        x = m(10)
        if view.prompt_tile:
            picture = self._tile(view.prompt_tile, rect.h - m(12))
            self.surface.blit(picture, (x, rect.y + m(6)))
            x += picture.get_width() + m(10)
        prompt_lines = self._wrap(view.prompt, m(17), rect.w - x - m(10))
        max_prompt = 1 if view.options or view.status else 3
        shown = prompt_lines[:max_prompt]
        if len(prompt_lines) > max_prompt:  # the rest on the last line, cut with an ellipsis
            shown[-1] = " ".join(prompt_lines[max_prompt - 1:])
        for i, line in enumerate(shown):
            self.surface.blit(self._fit(line, m(17), rect.w - x - m(10), ACCENT),
                              (x, rect.y + m(6) + i * m(24)))
        self._targets = []
        # Below the prompt: the options, then the status (a read to confirm, a problem).
        row = pygame.Rect(x, rect.y + m(36), rect.right - x - m(10), rect.h - m(44))
        if view.fight is not None and view.status:
            row.y, row.h = rect.y + m(50), rect.h - m(58)  # the status between prompt and menu
        gap = m(8)
        if view.options and view.fight is not None:
            self._option_grid(view, row)
        elif view.options:
            count = len(view.options)
            share = row.w * 3 // 5 if view.status else row.w
            box_w = min(m(190), (share - gap * (count - 1)) // count)
            box = pygame.Rect(row.x, row.y, box_w, row.h)
            for i in range(count):
                self._option(view, i, box, m(16))
                box.x += box_w + gap
            row.x, row.w = box.x + gap, row.right - box.x - gap
        if view.status and view.fight is not None:
            # Under a fight's two rows of options, the status has the line under the prompt.
            size = m(13)
            text = self._fit(view.status, size, rect.w - x - m(10), BAD)
            self.surface.blit(text, (x, rect.y + m(29)))
        elif view.status:
            size, step = m(14), m(18)
            lines = self._wrap(view.status, size, row.w)[: max(1, row.h // step)]
            for i, line in enumerate(lines):
                self.surface.blit(self._fit(line, size, row.w, BAD), (row.x, row.y + i * step))

    def _option(self, view: View, i: int, box: pygame.Rect, size: int) -> None:
        """One option's box, its key and label; a tap on it picks it."""
        m = self.m
        option = view.options[i]
        color = HIGHLIGHT if view.highlight == i else BACKGROUND
        pygame.draw.rect(self.surface, color, box, border_radius=m(8))
        pygame.draw.rect(self.surface, DIM, box, width=max(1, m(1)), border_radius=m(8))
        key = option_key(option, i, view.highlight, _BUTTON_KEYS)
        text, width = f"[{key}] {option.label}", box.w - m(12)
        rows, size = self._label_rows(text, size, width, box.h - m(6))
        surfaces = [self._fit(row, size, width) for row in rows]
        y = box.centery - sum(s.get_height() for s in surfaces) // 2
        for surface in surfaces:
            self.surface.blit(surface, surface.get_rect(midtop=(box.centerx, y)))
            y += surface.get_height()
        self._targets.append((box.copy(), i))

    def _label_rows(self, text: str, size: int, width: int, height: int) -> tuple[list[str], int]:
        """An option's label in the rows it is drawn in, and their size: one row; else two
        (a name and its Japanese on the second, ``Remove ring of armour protection
        鎧保護の指輪``), smaller if need be; else two with the rest cut. A box one row high
        cuts its label, as ever."""
        if not self.has_cjk:  # wrapped as it is drawn, with no Japanese to take a row
            text = without_cjk(text)
        smaller = size - self.m(2)
        if 2 * self._text("Ag", smaller).get_height() > height:
            return [text], size
        for at in (size, smaller):
            rows = self._wrap(text, at, width)
            if len(rows) == 1 or (len(rows) == 2
                                  and 2 * self._text("Ag", at).get_height() <= height):
                return rows, at
        rows = self._wrap(text, smaller, width)
        return [rows[0], " ".join(rows[1:])], smaller

    def _option_grid(self, view: View, row: pygame.Rect) -> None:
        """A fight's menu: up to six options a row, two rows; a longer one (orc:10) shows the
        page of twelve that holds the highlight, so MENU brings every option into view."""
        m = self.m
        gap = m(6)
        count = len(view.options)
        per_row = count if count <= 4 else min(6, (count + 1) // 2)
        rows = 1 if count <= 4 else 2
        page = per_row * rows
        first = (view.highlight or 0) // page * page
        box_w = min(m(190), (row.w - gap * (per_row - 1)) // per_row)
        box_h = (row.h - gap * (rows - 1)) // rows
        for i in range(first, min(count, first + page)):
            at = i - first
            box = pygame.Rect(row.x + (at % per_row) * (box_w + gap),
                              row.y + (at // per_row) * (box_h + gap), box_w, box_h)
            self._option(view, i, box, m(15) if rows == 2 else m(16))


    # ---- input and lifetime ----------------------------------------------------

    def poll(self) -> list[Press]:
        """Keys and taps since the last call; closing the window stops the session."""
        presses: list[Press] = []
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                raise KeyboardInterrupt
            if event.type == pygame.KEYDOWN:
                press = press_for_key(_SPECIAL_KEYS.get(event.key, event.unicode))
                if press is not None:
                    presses.append(press)
            elif event.type == pygame.MOUSEBUTTONDOWN and not getattr(event, "touch", False):
                presses.extend(self._tap(event.pos))
            elif event.type == pygame.FINGERDOWN:
                presses.extend(self._tap((event.x * self.width, event.y * self.height)))
        return presses

    def _tap(self, pos: tuple[float, float]) -> list[Press]:
        return [Pick(index) for rect, index in self._targets if rect.collidepoint(pos)]

    def save_png(self, path: Path) -> None:
        pygame.image.save(self.surface, os.fspath(path))

    def close(self) -> None:
        pygame.display.quit()
