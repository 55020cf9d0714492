"""The game's panels: the header over every screen (the view's ``where``, the PC's HP bar),
the room's 2x2 tiles with their text (an empty slot dashed), the PC sheet, and a titled
list of lines (the last check, the log; the dice tray's rolls).
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from companion.hw.display.canvas import (
    ACCENT,
    BACKGROUND,
    BAD,
    DIM,
    GOOD,
    PANEL,
    TEXT,
    TEXT_MIN,
    Canvas,
)
from companion.hw.display.fonts import holds_japanese
from companion.hw.display.view import SheetView, TileView, View


def system_hint(hold_seconds: float | None) -> str:
    """The header's word on the System menu (a new game, another mode, shutting down): a
    tap on the header, and the four buttons' way to it, the item button held
    ``hold_seconds`` (``buttons.system_press_seconds``; let go sooner, it is an item
    press, or a menu press once held ``buttons.long_press_seconds``); None where there are
    no buttons, and the S key opens it."""
    if hold_seconds is None:
        return "tap / s: System 設定"
    return f"tap / hold I {hold_seconds:g} s: System 設定"


#: The hint with the item button's default hold (3 s).
SYSTEM_HINT = system_hint(3.0)
HP_BAR_W = 200  # (at 800x480) the HP bar's width, where the header has room for it
HP_BAR_MIN = 72  # (at 800x480) the least it gives way to, its fill still read at a glance


class GamePanels(Canvas):
    """The header, and the panels of the screen outside a fight and the dice tray."""

    def _header(self, view: View, rect: pygame.Rect) -> None:
        m = self.m
        where = self._text(view.where, m(20), ACCENT)
        self.surface.blit(where, (m(10), m(7)))
        hint, bar_w = self._header_places(view, rect)
        if view.sheet is not None:
            self._hp_bar(view.sheet, pygame.Rect(rect.w - m(10) - bar_w, m(10), bar_w, m(18)))
        if hint is not None:
            pygame.draw.rect(self.surface, DIM, hint, width=1, border_radius=m(4))
            label = self._text(self.system_hint, m(14), DIM)
            self.surface.blit(label, label.get_rect(center=hint.center))

    def _header_places(self, view: View, rect: pygame.Rect) -> tuple[pygame.Rect | None, int]:
        """Where the System menu's hint (:func:`system_hint`) goes, a small box at the
        header's right as though a button (a tap anywhere on the header opens it), and how
        wide the HP bar is. The bar gives way, down to :data:`HP_BAR_MIN`, so that the hint
        reads whole: with text a quarter larger (``display.text_scale`` 1.25) the title,
        the hint and the HP label left no room at 800x480 and the hint was dropped. The hint
        is left out (None) only where the header has no room even so."""
        m = self.m
        bar_w = m(HP_BAR_W)
        if not view.system:
            return None, bar_w
        label = self._text(self.system_hint, m(14), DIM)
        hint_w = label.get_width() + m(12)
        left = m(10) + self._text(view.where, m(20), ACCENT).get_width() + m(12)
        right = rect.w - m(10)
        if view.sheet is not None:
            # From the hint's right: a gap, the HP label, its gap to the bar, the bar.
            label_w = self._hp_label(view.sheet).get_width()
            room = right - (left + hint_w + m(6) + m(14) + label_w + m(8))
            bar_w = max(m(HP_BAR_MIN), min(bar_w, room))
            right -= bar_w + m(8) + label_w
        box = label.get_rect(midright=(right - m(14) - m(6), rect.centery)).inflate(m(12), m(6))
        if box.left < left:
            return None, m(HP_BAR_W)
        return box, bar_w

    def _hp_label(self, sheet: SheetView) -> pygame.Surface:
        # HP below 0 (a game lost) reads as 0; the log keeps how far below it went.
        return self._text(f"HP {max(0, sheet.hp)}/{sheet.hp_max}", self.m(16))

    def _hp_bar(self, sheet: SheetView, rect: pygame.Rect) -> None:
        """The PC's HP bar in ``rect``, its label on the left."""
        m = self.m
        fraction = max(0.0, min(1.0, sheet.hp / sheet.hp_max)) if sheet.hp_max else 0.0
        color = GOOD if fraction > 0.5 else ACCENT if fraction > 0.25 else BAD
        pygame.draw.rect(self.surface, PANEL, rect, border_radius=m(4))
        filled = rect.copy()
        filled.w = round(rect.w * fraction)
        if filled.w:
            pygame.draw.rect(self.surface, color, filled, border_radius=m(4))
        # The bar's whole length outlined: its empty part alone is PANEL on BACKGROUND (1.2:1).
        pygame.draw.rect(self.surface, DIM, rect, width=1, border_radius=m(4))
        label = self._hp_label(sheet)
        self.surface.blit(label, label.get_rect(midright=(rect.x - m(8), rect.centery)))

    def _room(self, tiles: Sequence[TileView], rect: pygame.Rect) -> None:
        m = self.m
        top = self._panel(rect, "Room 部屋 (2x2)")
        cell_w = rect.w // 2
        heights = self._room_rows(tiles, rect.w, rect.bottom - top)
        for i, tile in enumerate(tiles[:4]):
            cell_h = heights[i // 2]
            x = rect.x + (i % 2) * cell_w + m(6)
            y = top + sum(heights[:i // 2])
            picture = self._tile("back" if tile.tile == "empty" else tile.tile, cell_h - m(8))
            if tile.tile == "empty":
                self._empty_slot(picture.get_rect(topleft=(x, y)))
            else:
                self.surface.blit(picture, (x, y))
            tx = x + picture.get_width() + m(6)
            text_w = cell_w - picture.get_width() - m(14)
            self._tile_text(tile, pygame.Rect(tx, y + m(2), text_w, cell_h - m(2)))
        if not tiles:
            hint = self._text("no room revealed yet まだ部屋なし", m(15), DIM)
            self.surface.blit(hint, (rect.x + m(10), top + m(10)))

    def _room_needs(self, tiles: Sequence[TileView], width: int, height: int) -> list[int]:
        """How tall each row of the room's cells (``width`` the panel's, ``height`` its two
        rows' as drawn at first) must be for its tiles' names and whole states."""
        m = self.m
        cell_w, tile_h = width // 2, height // 2 - m(8)
        needs = []
        for row in (tiles[:2], tiles[2:4]):
            text_w = [cell_w - self._tile("back" if t.tile == "empty" else t.tile,
                                          tile_h).get_width() - m(14) for t in row]
            needs.append(max((self._tile_text_need(t, w) + m(2) for t, w in zip(row, text_w,
                                                                            strict=True)),
                             default=0))
        return needs

    def _room_rows(self, tiles: Sequence[TileView], width: int, height: int) -> list[int]:
        """The two rows' heights in ``height``: halves, as always, where each row's tiles
        read whole in them; else each row what it needs, the rest shared (a row whose tile
        has a long state, ``asleep 眠, haste 倍速``, taller than one of stairs and gold)."""
        half = height // 2
        needs = self._room_needs(tiles, width, height)
        if max(needs) <= half or sum(needs) > height:
            return [half, half]
        spare = height - sum(needs)
        return [needs[0] + spare // 2, height - needs[0] - spare // 2]

    def _room_height(self, tiles: Sequence[TileView], width: int, height: int, limit: int) \
            -> int:
        """The room panel's height: ``height`` (m(190)), or taller, up to ``limit``, where
        its tiles' states need more rows than it has (text a quarter larger: "asleep 眠,
        ha…", "deeply aslee…" were cut, screen66 RISK 1)."""
        top = self.m(24)
        needs = self._room_needs(tiles, width, height - top)
        return max(height, min(limit, top + sum(needs)))

    def _tile_text_need(self, tile: TileView, width: int) -> int:
        """How tall :meth:`_tile_text` needs its rect for the tile's names (a row each) and
        its state whole, the code beside the names."""
        m = self.m
        both = bool(tile.meaning.ja) and self.has_cjk
        names = [m(16), m(14)] if both and tile.meaning.en else [m(16)]
        details = self._wrap(tile.detail, m(14), width) if tile.detail else []
        return sum(self._font_size(size) + m(5) for size in names) \
            + len(details) * self._step(m(19))

    def _pursuers_min(self, count: int) -> int:
        """The least height the Pursuing panel (:meth:`_pursuers`) of ``count`` pursuers
        keeps under the room: its title, the first one's name and a row of its state, and
        with more than one the row naming the others. The room grows into the rows under it
        only down to this (reviewscreen66 DEFECT 1: grown to the last check's least, it left
        the pursuers none, and they were drawn over the prompt)."""
        m = self.m
        step = self._step(m(19))
        return m(24) + m(4) + self._font_size(m(15)) + m(4) + step + (step if count > 1 else 0)

    def _pursuers(self, pursuers: Sequence[TileView], rect: pygame.Rect, keep: int) -> int:
        """The monsters following the PC (JR-FLEE-2, 追跡) in a panel of their own at
        ``rect``'s top, under the room's: a row each, its tile's picture, its name and code,
        and under them its state (``awake 起, haste 倍速``) wrapped whole. The panel is as
        tall as its rows, leaving ``keep`` under it (the last check's title and a row) when
        both fit; else the pursuers go first and take ``rect`` down to its bottom: their
        state is what the player fights or flees by, the check is in the log too. Pursuers
        with no room left for their rows are named on a last row where it fits in ``rect``
        (else the title's count says them), the first one's state rows, where even they do
        not fit, joined and cut on its last; nothing is drawn under ``rect``. Returns the
        panel's bottom."""
        m = self.m
        name_size, detail_size, step = m(15), m(14), self._step(m(19))
        name_h = self._font_size(name_size) + m(4)
        x, width = rect.x + m(8), rect.w - m(16)
        rows: list[tuple[TileView, pygame.Surface, list[str]]] = []
        for tile in pursuers:
            picture = self._tile(tile.tile, name_h + step - m(4))  # beside name and state
            text_w = width - picture.get_width() - m(6)
            rows.append((tile, picture,
                         self._wrap(tile.detail, detail_size, text_w) if tile.detail else [""]))
        frame = m(24) + m(4)  # the title above the rows, the margin under them
        need = frame + sum(name_h + len(details) * step for _, _, details in rows)
        bottom = rect.bottom - keep if need <= rect.h - keep else rect.bottom
        shown: list[tuple[TileView, pygame.Surface, list[str]]] = []
        used = frame
        for n, (tile, picture, details) in enumerate(rows):
            more = step if n + 1 < len(rows) else 0  # the row naming those left out
            height = name_h + len(details) * step
            if shown and rect.y + used + height + more > bottom:
                break
            if not shown and rect.y + used + height + more > bottom:  # the first, squeezed
                room = bottom - rect.y - used - name_h
                if more and room - more < step:
                    more = 0  # its state before the others' names (the title counts them)
                fit = max(0, (room - more) // step)
                details = [*details[:fit - 1], " ".join(details[fit - 1:])] if fit else []
                height = name_h + len(details) * step
            shown.append((tile, picture, details))
            used += height
        rest = pursuers[len(shown):]
        # The row naming those left out only where it ends in the panel's place (its margin
        # under the rows given up to it): drawn past it, it ran over the prompt
        # (reviewscreen66 DEFECT 1); else the title says how many.
        named = bool(rest) and used - m(4) + step <= rect.h
        panel = pygame.Rect(rect.x, rect.y, rect.w, min(rect.h, used + (step if named else 0)))
        y = self._panel(panel, f"Pursuing 追跡 ({len(pursuers)})" if len(pursuers) > 1
                        else "Pursuing 追跡")
        for tile, picture, details in shown:
            self.surface.blit(picture, (x, y))
            tx = x + picture.get_width() + m(6)
            code = self._text(tile.tile, m(13), DIM)
            self.surface.blit(code, code.get_rect(topright=(rect.right - m(8), y + m(2))))
            name = str(tile.meaning) if self.has_cjk else tile.meaning.en
            self.surface.blit(self._fit(name, name_size, rect.right - m(14) - code.get_width()
                                        - tx), (tx, y))
            for n, row in enumerate(details):
                self.surface.blit(self._fit(row, detail_size, rect.right - m(8) - tx, ACCENT),
                                  (tx, y + name_h + n * step))
            y += name_h + len(details) * step
        if named:
            names = ", ".join(f"{tile.meaning} ({tile.detail})" if tile.detail
                              else str(tile.meaning) for tile in rest)
            self.surface.blit(self._fit(f"+{len(rest)}: {names}", detail_size, width), (x, y))
        return panel.bottom

    def _tile_text(self, tile: TileView, rect: pygame.Rect) -> None:
        """Beside a tile's picture: its name (Japanese), its English under it (without a
        Japanese font, the English takes the name's place), its detail (``awake 起, haste
        倍速``) in as many rows as the cell has left, then the tile's code. A detail that
        needs the code's row takes it, and the code moves beside the last name row. A name
        too long for the cell (``ring of armour protection``) wraps in two rows where the
        cell has them to spare beside its detail; else it is cut."""
        m = self.m
        both = bool(tile.meaning.ja) and self.has_cjk
        names = [(tile.meaning.ja if both else tile.meaning.en, m(16), TEXT)]
        if both and tile.meaning.en:
            names.append((tile.meaning.en, m(14), DIM))
        code = "" if tile.tile in ("back", "empty") else tile.tile
        detail_step = self._step(m(19))
        details = self._wrap(tile.detail, m(14), rect.w) if tile.detail else []
        wrapped = [(row, size, color) for text, size, color in names
                   for row in self._name_rows(text, size, rect.w)]
        if sum(self._font_size(size) + m(5) for _, size, _ in wrapped) \
                + len(details) * detail_step <= rect.h:
            names = wrapped  # (else the detail keeps its rows, and a long name is cut)
        used = sum(self._font_size(size) + m(5) for _, size, _ in names)
        if tile.detail and len(details) > max(1, (rect.h - used) // detail_step):
            # A detail of two states too long for its rows is said shorter, in whole words,
            # before the English name gives up its row: cut, "deeply asleep 熟睡, invi…"
            # lost "invisible" and the name "phantom" with it (a78screen item 6).
            details = self._detail_rows(tile.detail, rect.w,
                                        max(1, (rect.h - used) // detail_step)) or details
        beside = ""  # the English name, moved beside the Japanese one
        if len(names) == 2 and len(details) > max(1, (rect.h - used) // detail_step):
            # A state too long for its rows (``asleep 眠, haste 倍速`` with text a quarter
            # larger) takes the English name's row, which goes beside the Japanese name:
            # cut at its end there, it is still in the menu and the log, where a state cut
            # ("asleep 眠, ha…") was nowhere else (screen66 RISK 1).
            beside = names.pop()[0]
            used = self._font_size(names[0][1]) + m(5)
        room = max(1, (rect.h - used) // detail_step)
        if len(details) > room:  # the rest on the last row, cut there with an ellipsis
            details = [*details[:room - 1], " ".join(details[room - 1:])]
        code_below = bool(code) and used + len(details) * detail_step + self._step(m(18)) \
            <= rect.h
        # (beside the names, unless they share a row: the tile's picture is beside them)
        code_beside = self._text(code, m(13), DIM) if code and not code_below and not beside \
            else None
        y = rect.y
        for n, (text, size, color) in enumerate(names):
            width = rect.w
            if code_beside is not None and n == len(names) - 1:
                width -= code_beside.get_width() + m(6)
                self.surface.blit(code_beside, code_beside.get_rect(
                    topright=(rect.right, y + (size - m(13)))))
            if beside:  # both names whole where a smaller Japanese name lets them
                size = next((at for at in (size, m(14)) if self._text_width(text, at) + m(6)
                             + self._text_width(beside, m(14)) <= width), m(14))
            elif self._text_width(text, size) > width >= self._text_width(text, m(14)):
                size = m(14)  # whole a step smaller, rather than "ファン…" (a78screen item 6)
            name = self._fit(text, size, width, color)
            self.surface.blit(name, (rect.x, y))
            if beside and name.get_width() + m(6) + min(self._text_width(beside, m(14)),
                                                         self._text_width("ab…", m(14))) <= width:
                self.surface.blit(self._fit(beside, m(14), width - name.get_width() - m(6),
                                            DIM),
                                  (rect.x + name.get_width() + m(6), y + (size - m(14))))
            y += self._font_size(names[n][1]) + m(5)
        for row in details:
            self.surface.blit(self._fit(row, m(14), rect.w, ACCENT), (rect.x, y))
            y += detail_step
        if code_below:
            self.surface.blit(self._text(code, m(13), DIM), (rect.x, y))

    def _detail_rows(self, detail: str, width: int, rows: int) -> list[str] | None:
        """A tile's detail (its states, ``deeply asleep 熟睡, invisible 透明``) in at most
        ``rows`` rows of ``width``, no word broken: as it is; else each state by its
        Japanese words (``熟睡, 透明``: the English is in the menu and the log); else its
        first states, the rest counted (``deeply asleep 熟睡 +1``). None where no form fits."""
        m = self.m
        states = detail.split(", ")
        japanese = [" ".join(word for word in state.split(" ") if holds_japanese(word))
                    or state for state in states] if self.has_cjk else states
        forms = [detail, ", ".join(japanese)]
        for kept in range(len(states) - 1, 0, -1):
            forms += [f"{', '.join(states[:kept])} +{len(states) - kept}",
                      f"{', '.join(japanese[:kept])} +{len(states) - kept}"]
        for form in forms:
            wrapped = self._wrap(form, m(14), width)
            if len(wrapped) <= rows and all(self._text_width(word, m(14)) <= width
                                            for word in form.split(" ")):
                return wrapped
        return None

    def _name_rows(self, name: str, size: int, width: int) -> list[str]:
        """A name in the rows it takes in ``width``: one, or two (the rest of a longer one
        on the second, cut there)."""
        if self._text(name, size).get_width() <= width:
            return [name]
        rows = self._wrap(name, size, width)
        return [rows[0], " ".join(rows[1:])] if len(rows) > 2 else rows

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
        # Clear of the dashes by a margin: fitted to 2 px from them, with text a quarter
        # larger "empty" touched them (screen64 NIT 6); it goes a step or two smaller first.
        # Where "empty" fits no size (a 1280x720 layout's slot at text 1.25), 空き alone
        # says it, as the name beside does: it read "空き / e…" (a76screen NIT 5).
        room = inner.w - 2 * m(5)

        def fitting(texts: tuple[str, ...]) -> int | None:
            return next((size for size in (m(12), m(11), m(10))
                         if all(self._text_width(text, size) <= room for text in texts)), None)

        texts = ("空き", "empty") if self.has_cjk else ("empty",)
        size = fitting(texts)
        if size is None and self.has_cjk:
            texts = ("空き",)
            size = fitting(texts)
        size = m(10) if size is None else size
        words = [self._fit(text, size, room, DIM) for text in texts]
        y = inner.centery - sum(w.get_height() for w in words) // 2
        for word in words:
            self.surface.blit(word, word.get_rect(midtop=(inner.centerx, y)))
            y += word.get_height()

    def _sheet(self, sheet: SheetView | None, rect: pygame.Rect, limit: int,
               last: int | None = None, whole: int | None = None) -> int:
        """The PC sheet in ``rect``; returns the panel's bottom. A line too long for the
        panel (two rings, the potions after the shuriken) wraps, its rows hanging under its
        label: first into the panel's spare rows (closer together), then down as far as
        ``limit`` (from the log under it), its rows closer again; then down to ``last``
        (the log giving way down to its title and newest row: with text a quarter larger
        the Items line lost the spare rings, screen66 RISK 1, and the log gone whole lost
        every event that is no check, reviewscreen66 RISK 1). The Rules line, the same all
        game, gives way first: its options' names left out, its rows cut, then the line
        itself (at text 1.25 it took the Items line's second row, and the potion held went
        unseen, reviewr72 DEFECT 1). Only a line that still does not fit is cut, the
        longest first (the Items). ``whole``: the log may give way whole, down to there
        (:meth:`ScreenDisplay.render` under a status of two rows), the panel then reaching
        it, only where a line other than the Rules would be cut (reviewy74 RISK 1)."""
        m = self.m
        if sheet is None:
            self._panel(rect, "PC")
            return rect.bottom
        size, indent, width = m(15), m(14), rect.w - m(16)
        frame = m(24) + m(4)  # the title above the rows, the margin under them
        took_log = False
        for brief in (False, True):
            texts = sheet.lines(brief)
            lines = [[line] if self._text(line, size).get_width() <= width
                     else self._wrap(line, size, width - indent) for line in texts]
            if sheet.rules and len(lines[-1]) > 1:  # the preset broken at a +, not mid-word
                lines[-1] = self._rules_rows(texts[-1], size, width - indent)
            total = sum(len(rows) for rows in lines)
            step = self._step(m(22)) if frame + total * self._step(m(22)) <= rect.h \
                else self._step(m(19))
            capacity = 0  # (set at ``limit``, never None, before ``whole`` is reached)
            for bottom, closest in ((limit, m(19)), (limit, m(17)), (last, m(17)),
                                    (whole, m(17))):
                if bottom is None:
                    continue
                if bottom == whole and total - (len(lines[-1]) if sheet.rules else 0) \
                        <= capacity:
                    # The log gives way whole only where the Rings, Items or States would
                    # be cut: for the Rules line alone (the same all game) a fresh game's
                    # log lost its newest event under any status of two rows, a save
                    # trouble's turn after turn (reviewy74 RISK 1).
                    break
                took_log = bottom == whole
                step = min(step, self._step(closest))
                capacity = (max(rect.h, bottom - rect.y) - frame) // step
                if total <= capacity:
                    break
            if total <= capacity or not sheet.rules_named:
                break
        rules = bool(sheet.rules)  # still shown, the last line
        while total > capacity:  # the Rules line gives up its rows, then the longest one
            if rules and len(lines[-1]) < 2:
                del lines[-1]  # the rules, the same all game, left out for the items
                rules = False
                total -= 1
                continue
            rows = lines[-1] if rules else max(lines, key=len)
            if len(rows) < 2:
                break
            rows[-2:] = [" ".join(rows[-2:])]
            total -= 1
        if rules and len(lines[-1]) == 1 and self._text(lines[-1][0], size).get_width() > width:
            # Its rows joined in one past its width (the preset alone, its options' names
            # left out first): the options left out counted, not cut in a name.
            lines[-1] = [self._rules_shortened(sheet.rules, size, width)]
        height = max(rect.h, frame + total * step)
        if took_log and whole is not None:
            height = whole - rect.y  # the log's place taken: no strip left blank under it
        panel = pygame.Rect(rect.x, rect.y, rect.w, height)
        y = self._panel(panel, "PC")
        for rows in lines:
            for n, row in enumerate(rows):
                x = panel.x + m(8) + (indent if n else 0)
                self.surface.blit(self._fit(row, size, panel.right - m(8) - x), (x, y))
                y += step
        return panel.bottom

    def _rules_rows(self, text: str, size: int, width: int) -> list[str]:
        """The Rules line wrapped at its spaces, as any, but its preset's word, where wider
        than a row, broken after a ``+`` rather than inside an option's name (``…+pc_stat``
        over ``es+drops`` at text 1.0, reviewr72)."""
        lines: list[str] = []
        line = ""
        for word in text.split(" "):
            candidate = f"{line} {word}" if line else word
            if self._text_width(candidate, size) <= width:
                line = candidate
                continue
            if self._text_width(word, size) <= width or "+" not in word:
                if line:
                    lines.append(line)
                line = word
                continue
            pieces = [f"{piece}+" for piece in word.split("+")]
            pieces[-1] = pieces[-1][:-1]
            line = f"{line} " if line else ""
            for piece in pieces:
                if line.strip() and self._text_width(line + piece, size) > width:
                    lines.append(line.rstrip())
                    line = ""
                line += piece
        lines.append(line)
        if any(self._text_width(row, size) > width for row in lines):
            return self._wrap(text, size, width)  # a name wider than a row: as any line
        return lines

    def _rules_shortened(self, rules: str, size: int, width: int) -> str:
        """The Rules line in one row ``width`` wide, where it does not fit: its preset's
        first options, whole, and how many more, ``Rules ルール: ez+sleep_check+extended_
        states (+3 more 他3件)``, rather than cut in an option's name (``…+extende…`` at
        text 1.25, finala72); as it is where even that does not fit (then cut with …). The
        count in Japanese too, as the line's head is (finala73 NIT 6)."""
        head, _, preset = rules.rpartition(" ")
        options = preset.split("+")
        for kept in range(len(options) - 1, 0, -1):
            left = len(options) - kept
            text = f"{head} {'+'.join(options[:kept])} (+{left} more 他{left}件)"
            if self._text_width(text, size) <= width:
                return text
        return rules

    def _message(self, text: str, rect: pygame.Rect, trouble: bool = False) -> None:
        """A message with no game around it (a save that cannot be read, and the question
        what to do): all of it, large, in the body, each of its lines from a row of its own.
        A message too long for the body goes a step smaller, twice, before its last row
        shown is cut with an ellipsis. ``trouble`` (the error that stopped the run) is drawn
        as the status's trouble is, in BAD after a warning mark: in ACCENT, it read as any
        question (screen64 NIT 5)."""
        m = self.m
        box = rect.inflate(-2 * m(16), -2 * m(14))
        color = BAD if trouble else ACCENT
        for size, step in ((m(24), self._step(m(34))), (m(20), self._step(m(28))),
                           (m(17), self._step(m(23)))):
            indent = self._warning_mark_w(size) if trouble else 0
            rows: list[str] = []
            for line in text.split("\n"):
                rows += self._wrap(line, size, box.w) if rows or not indent \
                    else self._hanging(line, size, box.w, indent)
            capacity = max(1, self._rows_fit(box.y, box.bottom, step, size))
            if len(rows) <= capacity:
                break
        if len(rows) > capacity:
            rows = [*rows[:capacity - 1], " ".join(rows[capacity - 1:])]
        if trouble:
            self._warning_mark(box.x, box.y, size, BAD, BACKGROUND)
        y = box.y
        for n, row in enumerate(rows):
            at = indent if n == 0 else 0
            self.surface.blit(self._fit(row, size, box.w - at, color), (box.x + at, y))
            y += step

    def _hanging(self, text: str, size: int, width: int, indent: int) -> list[str]:
        """``text`` wrapped in ``width``, its first row ``indent`` narrower (beside a mark)."""
        if not indent:
            return self._wrap(text, size, width)
        first = self._wrap(text, size, width - indent)[0]
        rest = text[len(first):].lstrip() if text.startswith(first) else ""
        if not rest:
            return self._wrap(text, size, width - indent)
        return [first, *self._wrap(rest, size, width)]

    def _newest(self, wrapped: Sequence[list[tuple[int, str]]], capacity: int, size: int,
                width: int) -> list[tuple[int, str]]:
        """The rows of the newest wrapped lines that fit whole in ``capacity`` rows (see
        :meth:`_lines`), each row with its indent; a newest line longer than them all, its
        first rows, cut at the end with ``…``: a fight log's entry starts with whose action
        it is, and cut from the front it read "…決定的成功/スペシャル" (display audit 56,
        item 6)."""
        rows: list[tuple[int, str]] = []
        for parts in reversed(wrapped):
            if len(rows) + len(parts) <= capacity:
                rows = parts + rows
                continue
            if not rows and capacity:
                rows = parts[:capacity]
                left, row = rows[-1]
                rows[-1] = (left, row.rstrip() + "…")
            break
        return rows

    def _indented(self, line: str, size: int, width: int, indent: int) \
            -> list[tuple[int, str]]:
        """``line`` wrapped in ``width``, each row after its first ``indent`` in."""
        return [(indent if i else 0, part)
                for i, part in enumerate(self._wrap(line, size, width - indent))]

    def _first_and_last(self, wrapped: Sequence[list[tuple[int, str]]],
                        lines: Sequence[str], capacity: int, size: int, width: int,
                        indent: int) -> list[tuple[int, str]]:
        """The rows of the first wrapped lines that fit whole in ``capacity`` rows, and the
        last line (a check's outcome: "大うずら (emu) #33 defeated: +2 XP → 88", "killed by
        ケンタウロス (centaur)") whole when it fits (display audit 56, item 4). Where the
        first line itself does not fit whole above the last, its middle (the terms) is cut
        (:meth:`_middle_rows`), keeping whose check it is and its ``→ 成功/失敗`` verdict: cut
        at its end it lost the verdict (review 56, finding 2). Lines left out between them
        are marked by a ``…`` opening the last line, never dropped silently. A check alone
        (a miss that set off nothing) longer than the panel has its middle cut as well: with
        the seed's words a ranged miss lost its verdict under a two-row grid at text scale
        1.25 (review61c F5). Any other last line longer than the panel gives way to the
        first rows, cut at the end with ``…``."""
        rows = [row for parts in wrapped for row in parts]
        if len(rows) <= capacity or capacity <= 0:
            return rows[:max(0, capacity)]
        marked = self._indented("…" + lines[-1], size, width, indent)
        if len(wrapped) > 1:
            kept: list[tuple[int, str]] = []
            shown = 0  # whole lines kept, from the first
            while shown < len(wrapped) - 1 and len(kept) + len(wrapped[shown]) \
                    + len(wrapped[-1] if shown == len(wrapped) - 2 else marked) <= capacity:
                kept += wrapped[shown]
                shown += 1
            last = wrapped[-1] if shown == len(wrapped) - 1 else marked
            if shown == 0:  # the first line, its middle cut, over the last
                last = wrapped[-1] if len(wrapped) == 2 else marked
                kept = self._middle_rows(lines[0], capacity - len(last), size, width, indent)
            if kept:
                return [*kept, *last]
        if len(wrapped) > 1 and len(marked) <= capacity:  # the outcome alone, after a …
            return marked
        if len(wrapped) == 1 and "→" in lines[0].split(" "):
            kept = self._middle_rows(lines[0], capacity, size, width, indent)
            if kept:
                return kept
        rows = rows[:capacity]
        rows[-1] = (rows[-1][0], rows[-1][1].rstrip() + "…")
        return rows

    def _following(self, rows: list[tuple[int, str]], tail: Sequence[list[tuple[int, str]]],
                   capacity: int, size: int, width: int) -> list[tuple[int, str]]:
        """The rows of the wrapped lines ``tail`` that fit whole, in order, under ``rows``
        in ``capacity`` rows; where one does not, ``(1 more line 他1行)`` counts it and those
        after it, left out: after the last row when it has the room, else on a row of its
        own when there is one (:meth:`_lines`' ``after``), in English alone only where
        neither has the room for both: "(1 more line)" ended the damage row over an empty
        row (r77carry). A count, not a ``…``: after the damage row, whole, "→ HP 5 …" read
        as the damage cut (f77carry item 2); in brackets, for "HP 5 +1 more" read as HP 5
        plus one."""
        added: list[tuple[int, str]] = []
        more = len(tail)  # the lines left out
        for parts in tail:
            if len(rows) + len(added) + len(parts) > capacity:
                break
            added += parts
            more -= 1
        else:
            return added
        said = f"{more} more line{'s' if more > 1 else ''}"
        marks = [f"({said} 他{more}行)", f"({said})"] if self.has_cjk else [f"({said})"]
        shown = rows + added
        spare = len(shown) < capacity  # a row of its own for the count
        for mark in marks:
            if shown:
                left, row = shown[-1]
                if self._text_width(f"{row} {mark}", size) <= width - left:
                    if added:
                        added[-1] = (left, f"{row} {mark}")
                    else:
                        rows[-1] = (left, f"{row} {mark}")
                    return added
            if spare and self._text_width(mark, size) <= width:
                return [*added, (0, mark)]
        return [*added, (0, marks[-1])] if spare else added

    def _middle_rows(self, line: str, capacity: int, size: int, width: int,
                     indent: int) -> list[tuple[int, str]]:
        """``line`` wrapped in at most ``capacity`` rows by leaving out words from its
        middle, marked ``…``: its subject (up to its colon: whose check, against what) and
        its end from the last ``→`` (the verdict, 成功/失敗) stay, the terms between them
        going first, from their middle out; then the subject's last words. A check's roll
        (from ``drew``: the tile drawn, its number against the rate, ``drew 4m → 4 ≥ 4``)
        stays with the verdict while the rate's terms go, then all but its last tile, then
        the subject's last words; only then does it go too: cut with the terms, one row at
        text scale 1.25 read "melee 近接攻撃 vs … → success 成功", the target and the roll the
        player checks against the tile gone (reviewscreen66 NIT 2). Empty when even its
        first word and that end do not fit."""
        words = line.split(" ")
        verdict = max((i for i, w in enumerate(words) if w == "→"), default=len(words) - 1)
        subject = next((i + 1 for i, w in enumerate(words[:verdict]) if w.endswith(":")), 1)
        drew = next((i for i in range(subject, verdict) if words[i] == "drew"), verdict)
        head, rate, roll, end = words[:subject], words[subject:drew], words[drew:verdict], \
            words[verdict:]
        tile = roll.index("→") - 1 if "→" in roll else 0  # the last tile drawn
        last_tile = [roll[0], *roll[tile:]] if tile > 1 else roll
        shortened = [[*head, *rate[:(len(rate) - drop) // 2], "…",
                      *rate[(len(rate) - drop) // 2 + drop:], *roll, *end]
                     for drop in range(1, len(rate) + 1)]
        if roll:  # (with none, the rate's terms are all the terms)
            shortened += [[*head, "…", *last_tile, *end]]
            shortened += [[*words[:keep], "…", *last_tile, *end]
                          for keep in range(subject - 1, 0, -1)]
            terms = words[subject:verdict]  # the roll with them, where even that is too long
            shortened += [[*head, *terms[:(len(terms) - drop) // 2], "…",
                           *terms[(len(terms) - drop) // 2 + drop:], *end]
                          for drop in range(1, len(terms) + 1)]
        shortened += [[*words[:keep], "…", *end] for keep in range(subject - 1, 0, -1)]
        for kept in shortened:
            rows = self._indented(" ".join(kept), size, width, indent)
            if len(rows) <= capacity:
                return rows
        return []

    def _lines(self, title: str, lines: Sequence[str], rect: pygame.Rect,
               newest_last: bool = False, size: int | None = None,
               step: int | None = None, after: Sequence[str] = ()) -> None:
        """A panel of lines, each wrapped with its next rows indented, so that each line's
        start stands out; the first that fit and the last (:meth:`_first_and_last`), or
        with ``newest_last`` (a log) the newest
        that fit whole, oldest first: an older line that does not fit whole is left out, not
        shown as its last rows alone (a check's verdict ends its line: 成功/失敗). A newest
        line longer than the whole panel shows its start (whose it is, what was done),
        marked ``…`` where it is cut, rather than leaving the log blank. Lines ``after``
        ``lines`` only follow from their last (the gold a monster's hit took, after its
        damage): where not all fit, ``lines`` are shown as above and those of ``after`` that
        still fit whole, in order, the rest counted (:meth:`_following`; r76jr DEFECT 2: the
        gold line was kept as the outcome and the 2d9 damage dropped)."""
        m = self.m
        y = self._panel(rect, title)
        size, step = size or m(TEXT_MIN), self._step(step or m(19))
        width = rect.w - m(16)
        capacity = self._rows_fit(y, rect.bottom, step, size, m(4))
        indent = m(12)
        wrapped = [self._indented(line, size, width, indent) for line in lines]
        tail = [self._indented(line, size, width, indent) for line in after]
        if newest_last:
            rows = self._newest(wrapped, capacity, size, width)
        elif sum(len(parts) for parts in [*wrapped, *tail]) <= capacity:
            rows = [row for parts in [*wrapped, *tail] for row in parts]
        else:
            rows = self._first_and_last(wrapped, lines, capacity, size, width, indent)
            rows += self._following(rows, tail, capacity, size, width)
        for left, row in rows:
            self.surface.blit(self._fit(row, size, width - left), (rect.x + m(8) + left, y))
            y += step
