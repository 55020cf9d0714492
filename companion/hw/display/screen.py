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
from companion.hw.display.keys import menu_key, menu_presses, option_key
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
_ONE_ROW_MIN_W = 110  # (at 800x480) an option box narrower than this takes the two-row grid
_LABEL_MIN = 11  # (at 800x480) the smallest size an option's label shrinks to


def _line_step(size: int) -> int:
    """From one wrapped row to the next: the font's own line height (Noto CJK's is 1.45 em)
    is too loose for two rows in a button."""
    return round(size * 1.15)

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
        # A long menu's "more" box, and how many MENU presses it stands for.
        self._more: tuple[pygame.Rect, int] | None = None

    # ---- drawing -------------------------------------------------------------

    def show(self, view: View) -> None:
        self.render(view)
        pygame.display.flip()

    def render(self, view: View) -> pygame.Surface:
        """Draw ``view`` onto the screen surface (without flipping) and return it."""
        m, w, h = self.m, self.width, self.height
        self.surface.fill(BACKGROUND)
        # A fight's menu, or any menu too long for one row, gets a footer with two rows.
        header_h = m(38)
        footer_h = m(118) if view.fight is not None or self._needs_grid(view) else m(96)
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
        # The sheet takes a row or two from the log when its lines wrap.
        sheet_bottom = self._sheet(view.sheet, pygame.Rect(right.x, right.y, right.w, m(198)),
                                   right.bottom - m(3 * 19 + 34))
        log_box = pygame.Rect(right.x, sheet_bottom + m(6), right.w,
                              right.bottom - sheet_bottom - m(6))
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
        rule_w = m(74)  # the rule ID in a column of its own, the text hanging beside it
        # A long walk is set a step smaller, then smaller again, before any of it is cut;
        # then its last row shown ends with an ellipsis, so the cut is never silent.
        for size, step in ((m(14), m(19)), (m(13), m(17)), (m(12), m(15))):
            rows: list[tuple[int, str, str, int]] = []  # x, rule (on a step's first row)
            for entry in dice.steps:
                x = right.x + m(8) + m(10) * entry.depth
                width = right.right - x - rule_w - m(8)
                rows.extend((x, "" if n else entry.rule, row, width)
                            for n, row in enumerate(self._wrap(entry.text, size, width)))
            capacity = max(0, (right.bottom - y) // step)
            if len(rows) <= capacity:
                break
        if len(rows) > capacity and capacity:
            x, rule, row, width = rows[capacity - 1]
            rows[capacity - 1] = (x, rule, row.rstrip() + "…", width)
        for x, rule, row, width in rows[:capacity]:
            if rule:
                self.surface.blit(self._text(rule, min(m(12), size - m(1)), DIM),
                                  (x, y + m(2)))
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
        self._fighters(fight.fighters, pygame.Rect(left.x + m(4), top + m(24), left.w - m(8),
                                                   left.bottom - top - m(28)))
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

    def _fighters(self, fighters: Sequence[FighterView], rect: pygame.Rect) -> None:
        """A row per combatant: two lines each when all fit so, else one (its conditions
        beside its name). Rows never shrink below their text: when even one-line rows do
        not all fit, a window of them around the acting one is shown, with how many more
        are above and below it."""
        m = self.m
        count = len(fighters)
        two_lines = count * m(44) <= rect.h
        row_h = m(44) if two_lines else m(26)
        first, shown = 0, count
        if count * row_h > rect.h:
            mark_h = m(18)
            one_mark = max(1, (rect.h - mark_h) // row_h)
            two_marks = max(1, (rect.h - 2 * mark_h) // row_h)
            acting = next((i for i, f in enumerate(fighters) if f.acting), 0)
            if acting - two_marks // 2 <= 0:
                shown = one_mark
            elif acting - two_marks // 2 + two_marks >= count:
                first, shown = count - one_mark, one_mark
            else:
                first, shown = acting - two_marks // 2, two_marks
        y = rect.y
        if first:
            self._more_rows(f"▲ {first} more", pygame.Rect(rect.x, y, rect.w, m(18)))
            y += m(18)
        for i in range(first, first + shown):
            self._fighter(fighters[i], i, pygame.Rect(rect.x, y, rect.w, row_h - m(2)),
                          two_lines)
            y += row_h
        if first + shown < count:
            self._more_rows(f"▼ {count - first - shown} more",
                            pygame.Rect(rect.x, y, rect.w, m(18)))

    def _more_rows(self, text: str, rect: pygame.Rect) -> None:
        """``▲ 3 more`` over a window of rows (``▼`` under it), centred in ``rect``."""
        label = self._fit(text, self.m(13), rect.w, DIM)
        self.surface.blit(label, label.get_rect(center=rect.center))

    def _fighter_name(self, f: FighterView, index: int) -> tuple[str, str]:
        """The name a combatant's row leads with, and the English beside it (if another).
        Without a Japanese font the English leads; a name with no English at all is shown
        as its place in the list, ``#6``, rather than as nothing."""
        if self.has_cjk and f.name.ja:
            return f.name.ja, (f.name.en if f.name.en != f.name.ja else "")
        name = without_cjk(f.name.en) if not self.has_cjk else f.name.en
        return name or f"#{index + 1}", ""

    def _fighter(self, f: FighterView, index: int, rect: pygame.Rect, two_lines: bool) -> None:
        """One combatant: side stripe, name (ja, en), HP/MP and a bar, conditions. A narrow
        row (beside a board) has smaller pools and bar, and leaves the side to the stripe.
        A one-line row shows the conditions (``DEAD``, ``full dodge``) in the English
        name's place, so a greyed row still says why."""
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
        name_text, en = self._fighter_name(f, index)
        conditions = " · ".join(f.conditions)
        beside, beside_color = (conditions, BAD if f.down else ACCENT) \
            if conditions and not two_lines else (en, DIM)
        room = pools_x - x - m(8)
        name_w = room
        if beside and beside is conditions and not narrow:
            # The name keeps at least half the room, the conditions the rest; a narrow row
            # (beside a board) is the name's, its conditions only in what is left.
            name_w = max(room // 2, room - self._text(beside, m(13)).get_width() - m(6))
        # A one-line row is as short as its text: the text is centred in it.
        y = rect.y + m(3) if two_lines else rect.centery - m(11)
        name = self._fit(marker + name_text, m(16), name_w, ACCENT if f.acting else color)
        self.surface.blit(name, (x, y))
        beside_x = x + name.get_width() + m(6)
        if beside and pools_x - beside_x > m(30):
            self.surface.blit(self._fit(beside, m(13), pools_x - beside_x - m(8), beside_color),
                              (beside_x, y + m(3)))
        self.surface.blit(pools, (pools_x, y))
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
        if not self.has_cjk:  # cut what is drawn, not the Japanese that is not
            text = without_cjk(text)
        surface = self._text(text, size, color)
        while surface.get_width() > width and len(text) > 1:
            text = text[: max(1, len(text) * width // surface.get_width() - 1)]
            surface = self._text(text + "…", size, color)
        return surface

    def _fit_middle(self, text: str, size: int, width: int, color: Color = TEXT) \
            -> pygame.Surface:
        """The text, cut in the middle if it is wider than ``width``: its start (an option's
        key) and more of its end (where ``Giant Ant 1`` and ``Giant Ant 2`` differ) stay."""
        if not self.has_cjk:
            text = without_cjk(text)
        surface = self._text(text, size, color)
        keep = len(text) * width // max(1, surface.get_width())
        while surface.get_width() > width and keep > 2:
            head = keep * 2 // 5
            surface = self._text(text[:head].rstrip() + "…" + text[len(text) - (keep - head):]
                                 .lstrip(), size, color)
            keep -= 1
        return surface if surface.get_width() <= width else self._fit(text, size, width, color)

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
        self.surface.blit(self._fit(title, m(13), rect.w - m(16), DIM),
                          (rect.x + m(8), rect.y + m(4)))
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
        # HP below 0 (a game lost) reads as 0; the log keeps how far below it went.
        label = self._text(f"HP {max(0, sheet.hp)}/{sheet.hp_max}", m(16))
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
            self._tile_text(tile, pygame.Rect(tx, y + m(2), text_w, cell_h - m(2)))
        if not tiles:
            hint = self._text("no room revealed yet", m(15), DIM)
            self.surface.blit(hint, (rect.x + m(10), top + m(10)))

    def _tile_text(self, tile: TileView, rect: pygame.Rect) -> None:
        """Beside a tile's picture: its name (Japanese), its English under it (without a
        Japanese font, the English takes the name's place), its detail (``起 awake, haste
        加速``) in as many rows as the cell has left, then the tile's code. A detail that
        needs the code's row takes it, and the code moves beside the last name row."""
        m = self.m
        both = bool(tile.meaning.ja) and self.has_cjk
        names = [(tile.meaning.ja if both else tile.meaning.en, m(16), TEXT)]
        if both and tile.meaning.en:
            names.append((tile.meaning.en, m(14), DIM))
        code = "" if tile.tile in ("back", "empty") else tile.tile
        used = sum(size + m(5) for _, size, _ in names)
        detail_step = m(19)
        details = self._wrap(tile.detail, m(14), rect.w) if tile.detail else []
        room = max(1, (rect.h - used) // detail_step)
        if len(details) > room:  # the rest on the last row, cut there with an ellipsis
            details = [*details[:room - 1], " ".join(details[room - 1:])]
        code_below = bool(code) and used + len(details) * detail_step + m(18) <= rect.h
        code_beside = self._text(code, m(13), DIM) if code and not code_below else None
        y = rect.y
        for n, (text, size, color) in enumerate(names):
            width = rect.w
            if code_beside is not None and n == len(names) - 1:
                width -= code_beside.get_width() + m(6)
                self.surface.blit(code_beside, code_beside.get_rect(
                    topright=(rect.right, y + (size - m(13)))))
            self.surface.blit(self._fit(text, size, width, color), (rect.x, y))
            y += size + m(5)
        for row in details:
            self.surface.blit(self._fit(row, m(14), rect.w, ACCENT), (rect.x, y))
            y += detail_step
        if code_below:
            self.surface.blit(self._text(code, m(13), DIM), (rect.x, y))

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

    def _sheet(self, sheet: SheetView | None, rect: pygame.Rect, limit: int) -> int:
        """The PC sheet in ``rect``; returns the panel's bottom. A line too long for the
        panel (two rings, the potions after the shuriken) wraps, its rows hanging under its
        label: first into the panel's spare rows (closer together), then down as far as
        ``limit`` (from the log under it). Only a line that still does not fit is cut."""
        m = self.m
        if sheet is None:
            self._panel(rect, "PC")
            return rect.bottom
        size, indent, width = m(15), m(14), rect.w - m(16)
        lines = [[line] if self._text(line, size).get_width() <= width
                 else self._wrap(line, size, width - indent) for line in sheet.lines()]
        frame = m(24) + m(4)  # the title above the rows, the margin under them
        total = sum(len(rows) for rows in lines)
        step = m(22) if frame + total * m(22) <= rect.h else m(19)
        capacity = (max(rect.h, limit - rect.y) - frame) // step
        while total > capacity:  # the longest line gives up its last row, cut instead
            rows = max(lines, key=len)
            if len(rows) < 2:
                break
            rows[-2:] = [" ".join(rows[-2:])]
            total -= 1
        panel = pygame.Rect(rect.x, rect.y, rect.w, max(rect.h, frame + total * step))
        y = self._panel(panel, "PC")
        for rows in lines:
            for n, row in enumerate(rows):
                x = panel.x + m(8) + (indent if n else 0)
                self.surface.blit(self._fit(row, size, panel.right - m(8) - x), (x, y))
                y += step
        return panel.bottom

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

    def _needs_grid(self, view: View) -> bool:
        """Whether a menu outside a fight needs the fight's grid (two rows, pages): when one
        row would give its options boxes narrower than a short label reads in."""
        count = len(view.options)
        if count <= 1:
            return False
        m = self.m
        share = (self.width - m(20)) * (3 if view.status else 5) // 5
        return (share - m(8) * (count - 1)) // count < m(_ONE_ROW_MIN_W)

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
        self._more = None
        grid = bool(view.options) and (view.fight is not None or self._needs_grid(view))
        # Below the prompt: the options, then the status (a read to confirm, a problem).
        row = pygame.Rect(x, rect.y + m(36), rect.right - x - m(10), rect.h - m(44))
        if grid and view.status:
            row.y, row.h = rect.y + m(50), rect.h - m(58)  # the status between prompt and menu
        gap = m(8)
        if grid:
            self._option_grid(view, row)
        elif view.options:
            count = len(view.options)
            share = row.w * 3 // 5 if view.status else row.w
            box_w = min(m(190), (share - gap * (count - 1)) // count)
            boxes = [pygame.Rect(row.x + i * (box_w + gap), row.y, box_w, row.h)
                     for i in range(count)]
            self._options(view, list(range(count)), boxes, m(16))
            row.x = boxes[-1].right + gap
            row.w = rect.right - m(10) - row.x
        if view.status and (grid or view.fight is not None):
            # Under two rows of options, the status has the line under the prompt.
            size = m(13)
            text = self._fit(view.status, size, rect.w - x - m(10), BAD)
            self.surface.blit(text, (x, rect.y + m(29)))
        elif view.status:
            size, step = m(14), m(18)
            lines = self._wrap(view.status, size, row.w)[: max(1, row.h // step)]
            for i, line in enumerate(lines):
                self.surface.blit(self._fit(line, size, row.w, BAD), (row.x, row.y + i * step))

    def _options(self, view: View, indices: Sequence[int], boxes: Sequence[pygame.Rect],
                 size: int, more: tuple[str, int] | None = None) -> None:
        """Options ``indices`` in ``boxes``, each with its key, and a tap on it picks it; then
        ``more`` (a label and the MENU presses that turn the page) in the last box. The
        labels share one size, the one the tightest needs but at most a step below ``size``
        (a longer label alone goes smaller), so that a menu does not read as some options
        shouted and others whispered."""
        count = len(view.options)
        texts = [f"[{option_key(view.options[i], i, view.highlight, _BUTTON_KEYS, count)}] "
                 f"{view.options[i].label}" for i in indices]
        if more is not None:
            label, presses = more
            texts.append(f"[{menu_key(_BUTTON_KEYS, presses)}] {label}")
        m = self.m
        own = [self._label_rows(text, size, box.w - m(12), box.h - m(4))[1]
               for text, box in zip(texts, boxes, strict=True)]
        # One long label takes its own smaller size rather than shrinking every other.
        common = max(min(own), size - m(2))
        for n, (text, box) in enumerate(zip(texts, boxes, strict=True)):
            index = indices[n] if n < len(indices) else None
            lit = index is not None and view.highlight == index
            pygame.draw.rect(self.surface, HIGHLIGHT if lit else BACKGROUND, box,
                             border_radius=m(8))
            pygame.draw.rect(self.surface, ACCENT if index is None else DIM, box,
                             width=max(1, m(1)), border_radius=m(8))
            width = box.w - m(12)
            rows, at = self._label_rows(text, min(common, own[n]), width, box.h - m(4))
            surfaces = [self._fit_middle(line, at, width, TEXT if index is not None else ACCENT)
                        for line in rows]
            step = _line_step(at)
            y = box.centery - (step * (len(rows) - 1) + surfaces[0].get_height()) // 2
            for surface in surfaces:
                self.surface.blit(surface, surface.get_rect(midtop=(box.centerx, y)))
                y += step
            if index is not None:
                self._targets.append((box.copy(), index))
            elif more is not None:
                self._more = (box.copy(), more[1])

    def _label_rows(self, text: str, size: int, width: int, height: int) -> tuple[list[str], int]:
        """An option's label in the rows it is drawn in, and their size, the first that fits
        whole: one row at ``size``; two rows (a name and its Japanese on the second,
        ``Remove ring of armour protection 鎧保護の指輪``) at ``size``, a step smaller, or
        the smallest size; else the smallest size in as many rows as the box holds, the
        last to be cut in the middle by the caller, so that the end of a label (where
        targets differ: ``… Ant 3``) stays in view."""
        if not self.has_cjk:  # wrapped as it is drawn, with no Japanese to take a row
            text = without_cjk(text)
        m = self.m
        sizes = sorted({size, max(m(_LABEL_MIN), size - m(2)), min(size, m(_LABEL_MIN))},
                       reverse=True)
        for at in sizes:
            if self._text(text, at).get_width() <= width:
                return [text], at
            rows = self._wrap(text, at, width)
            if len(rows) == 2 and _line_step(at) + at <= height:
                return rows, at
        smallest = sizes[-1]
        if _line_step(smallest) + smallest > height:
            return [text], smallest
        rows = self._wrap(text, smallest, width)
        return [rows[0], " ".join(rows[1:])], smallest

    def _option_grid(self, view: View, row: pygame.Rect) -> None:
        """A long menu (a fight's; any that one row squeezes): up to six options a row, two
        rows. Longer than twelve, it is drawn in pages: the page that holds the highlight,
        and in its last box the key that turns to the next page (MENU, as many times as it
        takes the highlight there; a tap on it does the same). Number keys still pick the
        first ten anywhere, and MENU walks the highlight through every option."""
        m = self.m
        gap = m(6)
        count = len(view.options)
        per_row = count if count <= 4 else min(6, (count + 1) // 2)
        rows = 1 if count <= 4 else 2
        slots = per_row * rows
        per_page = slots if count <= slots else slots - 1
        highlight = view.highlight or 0
        first = highlight // per_page * per_page
        indices = list(range(first, min(count, first + per_page)))
        more: tuple[str, int] | None = None
        if count > slots:
            pages = -(-count // per_page)
            turn_to = first + per_page if first + per_page < count else 0
            more = (f"more ▶ {turn_to // per_page + 1}/{pages}",
                    menu_presses(highlight, turn_to, count))
        box_w = min(m(190), (row.w - gap * (per_row - 1)) // per_row)
        box_h = (row.h - gap * (rows - 1)) // rows
        boxes = [pygame.Rect(row.x + (at % per_row) * (box_w + gap),
                             row.y + (at // per_row) * (box_h + gap), box_w, box_h)
                 for at in range(len(indices) + (more is not None))]
        self._options(view, indices, boxes, m(15) if rows == 2 else m(16), more)

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
        presses: list[Press] = [Pick(index) for rect, index in self._targets
                                if rect.collidepoint(pos)]
        if self._more is not None and self._more[0].collidepoint(pos):
            # The page's "more" box: the MENU presses it names, as if its button were held.
            presses.extend([Button.MENU] * self._more[1])
        return presses

    def save_png(self, path: Path) -> None:
        pygame.image.save(self.surface, os.fspath(path))

    def close(self) -> None:
        pygame.display.quit()
