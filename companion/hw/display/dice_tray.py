"""The dice tray: a throw as dice faces (a d6 seen from above, pips; any other die its
number in a shape of its own) with its BCDice lines, and the dice table's walk beside it.
"""

from __future__ import annotations

import math

import pygame

from companion.hw.display.canvas import ACCENT, DIM, TEXT_MIN, Color
from companion.hw.display.game_panels import GamePanels
from companion.hw.display.view import TO_TYPE, DiceView

# A D6's red ace: darker than BAD (lightened for text), so that on the ivory die it keeps
# 3.3:1, as a mark must.
_ACE_PIP: Color = (220, 80, 70)
#: Between a rule's ID and its step's text (at 800x480).
_RULE_GAP = 8
#: The smallest dice face drawn (at 800x480): a D6's pips, a D20's number, still read.
_FACE_MIN = 28
#: The largest side of dice faces in rows: one die past a row of them (8D6 after 7D6's
#: 28 px) went to 64 px in three rows, twice the size, and pushed the Roll lines down; the
#: faces grew and shrank from throw to throw (reviews70 NIT 3).
_FACE_ROWS_MAX = 40
#: A Table panel's row: its x, the rule ID beside it (a step's first row), its text, its
#: width, and its colour (None: the text's own).
_Row = tuple[int, str, str, int, Color | None]
#: A walk laid out in a Table panel: its heading, the rule IDs' column's width, the text's
#: size, the rows' step, and the rows.
_Walk = tuple[str, int, int, int, list[_Row]]


class DiceTray(GamePanels):
    """The dice tray, and the die faces a fight's result shows too."""

    def _dice(self, dice: DiceView, left: pygame.Rect, right: pygame.Rect) -> None:
        """The dice tray: the throw as dice faces and BCDice lines; the table's walk. A walk
        the Table panel cannot hold takes the Dice panel's room too (its title in the Table
        panel's heading): each step says its own roll (``(1D6) ＞ 1``), and at text_scale
        1.25 a trapped and locked door's walk lost its lock check (a76events DEFECT 1)."""
        m = self.m
        walk = self._walk_rows(dice, right, "Table 表")
        if walk[0] is not None:
            wide = left.union(right)
            whole = self._walk_rows(dice, wide, "Table 表" + (f" · {dice.title}"
                                                              if dice.title else ""))
            if whole[0] is None or whole[1] > walk[1]:
                self._draw_walk(dice, wide, whole[2])
                return
        top = self._panel(left, "Dice ダイス" + (f" · {dice.source}" if dice.source else ""))
        if dice.title:
            self.surface.blit(self._fit(dice.title, m(18), left.w - m(16), ACCENT),
                              (left.x + m(8), top))
        rolls_top = top + m(30)
        if dice.faces:
            # The faces have the room the Roll lines leave: those say every value.
            # (As _lines draws them: TEXT_MIN rows m(19) apart, under the panel's title.)
            roll_rows = sum(len(self._indented(line, m(TEXT_MIN), left.w - m(24), m(12)))
                            for line in dice.rolls)
            roll_h = m(24) + roll_rows * self._step(m(19)) + m(12)
            rolls_top = self._faces(dice, pygame.Rect(left.x + m(10), rolls_top,
                                                      left.w - m(18),
                                                      left.bottom - rolls_top - roll_h))
        self._lines("Roll 出目", dice.rolls,
                    pygame.Rect(left.x + m(4), rolls_top, left.w - m(8),
                                left.bottom - rolls_top - m(4)))
        self._draw_walk(dice, right, walk[2])

    def _walk_rows(self, dice: DiceView, rect: pygame.Rect, title: str) \
            -> tuple[int | None, int, _Walk]:
        """The walk laid out in a Table panel ``rect`` headed ``title``: how many steps it
        leaves out (None: none), how many it shows whole, and the layout to draw. A long
        walk has its rows set closer, then closer again (never smaller than TEXT_MIN),
        before any of it is left out (:meth:`_table_rows`)."""
        m = self.m
        y = rect.y + m(24)  # under the panel's title (_panel)
        rule_w = self._rule_column(dice, rect.w)
        size = m(TEXT_MIN)
        for step in (self._step(m(19)), self._step(m(17)), self._step(m(16))):
            wrapped: list[list[_Row]] = []
            for entry in dice.steps:
                x = rect.x + m(8) + m(10) * entry.depth
                width = rect.right - x - rule_w - m(8)
                wrapped.append([(x, "" if n else entry.rule, row, width, None)
                                for n, row in enumerate(self._wrap(entry.text, size, width))])
            capacity = self._rows_fit(y, rect.bottom, step, size)
            if sum(map(len, wrapped)) <= capacity:
                break
        rows, left_out = self._table_rows(dice, wrapped, capacity,
                                          (rect.x + m(8), rect.right - rule_w - m(16)))
        return left_out, len(dice.steps) - (left_out or 0), (title, rule_w, size, step, rows)

    def _draw_walk(self, dice: DiceView, rect: pygame.Rect, walk: _Walk) -> None:
        """The Table panel ``rect`` with the walk :meth:`_walk_rows` laid out in it."""
        m = self.m
        title, rule_w, size, step, rows = walk
        y = self._panel(rect, title)
        for x, rule, row, width, color in rows:
            if rule:
                self.surface.blit(self._fit(rule, m(12), rule_w - m(_RULE_GAP), DIM),
                                  (x, y + m(2)))
            self.surface.blit(self._fit(row, size, width, *((color,) if color else ())),
                              (x + rule_w, y))
            y += step

    @staticmethod
    def _table_rows(dice: DiceView, wrapped: list[list[_Row]], capacity: int,
                    marker: tuple[int, int]) -> tuple[list[_Row], int | None]:
        """The Table panel's rows, ``capacity`` at most, from each step's ``wrapped`` rows.
        A walk longer than the panel leaves out its :attr:`~DiceStep.aside` steps first
        (rules said again for reference), from its end, then its last steps, each step
        whole, and its last row says how many steps are not shown, in both languages
        (``+3 reminders not shown 注意書き3件は省略``); ``marker``: that row's x and width.

        The walk was cut at its end with an ellipsis: at text_scale 1.25 a trapped and
        locked door (EV-DOOR-3 on) lost its lock check under the disarm's reminders, a
        poison its tracking line, and nothing said what or how much (a76events DEFECT 1)."""
        if sum(map(len, wrapped)) <= capacity:
            return [row for rows in wrapped for row in rows], None
        if capacity < 1:
            return [], len(wrapped)
        room = capacity - 1  # the last row says what is left out
        kept = list(range(len(wrapped)))

        def used() -> int:
            return sum(len(wrapped[n]) for n in kept)

        for n in reversed(range(len(wrapped))):
            if used() <= room:
                break
            if dice.steps[n].aside:
                kept.remove(n)
        while len(kept) > 1 and used() > room:
            kept.pop()
        rows = [row for n in kept for row in wrapped[n]]
        if len(rows) > room:  # one step longer than the panel: cut in it, said so
            rows = rows[:room]
            if rows:
                x, rule, text, width, color = rows[-1]
                rows[-1] = (x, rule, text.rstrip() + "…", width, color)
        left_out = [n for n in range(len(wrapped)) if n not in kept]
        count = len(left_out)
        if all(dice.steps[n].aside for n in left_out):
            said = f"+{count} reminder{'s' * (count > 1)} not shown 注意書き{count}件は省略"
        else:
            said = f"+{count} more not shown 他{count}件は表示しきれず"
        return [*rows, (marker[0], "", said, marker[1], DIM)], count

    def _faces(self, dice: DiceView, room: pygame.Rect) -> int:
        """The throw's dice faces in ``room`` (what the Roll lines under them leave): one
        row, each at most m(64); too many for a row of dice :data:`_FACE_MIN` wide, in rows,
        each as large as lets them all fit, at most :data:`_FACE_ROWS_MAX` and never smaller
        than :data:`_FACE_MIN`; dice past those that fit are said ``+12 more 他12個`` at the last
        row's end, and with no room for a row there are none: the Roll line gives every
        value. Returns the y under them.

        They were one row, each ``(width // count) - 8`` wide: 20D6 were 5 px dots, and from
        33 dice a side of 0 or less drew them over one another (screen70 DEFECT 2)."""
        m = self.m
        gap, count = m(8), len(dice.faces)
        under = any(dice.sides_of(i) in _LABEL_UNDER for i in range(count))
        # One row while its dice are no smaller than _FACE_MIN, as they always were drawn.
        side, per_row, rows = min(m(64), (room.w + m(2)) // count - gap), count, 1
        if side < m(_FACE_MIN):
            for side in range(m(_FACE_ROWS_MAX), m(_FACE_MIN) - 1, -1):
                per_row = max(1, (room.w + gap) // (side + gap))
                rows = room.h // self._face_row(side, under)
                if per_row * rows >= count:
                    break
            if rows < 1:  # no room for a row of them: the Roll lines say the values
                return room.y
        row_h = self._face_row(side, under)
        shown, label = count, None
        if per_row * rows < count:  # the label takes the last row's last slots
            # The count in Japanese too, as the Rules line's and the Table's (a76screen NIT
            # 3), in the fewest slots that hold the label drawn, of the dice it leaves out:
            # counted for the whole throw's count, 100D6 kept room for "+100 more 他100個"
            # and drew "+98 more 他98個" with a die's room spare (r76screen NIT 1).
            def said(more: int) -> str:
                return f"+{more} more 他{more}個" if self.has_cjk else f"+{more} more"

            slots = next((slots for slots in range(1, per_row * rows) if self._text_width(
                said(count - per_row * rows + slots), m(13)) + gap <= slots * (side + gap)),
                per_row * rows)
            shown = per_row * rows - slots
            label = self._fit(said(count - shown), m(13), slots * (side + gap) - gap, DIM)
        for i, face in enumerate(dice.faces[:shown]):
            row, col = divmod(i, per_row)
            self._die(face, pygame.Rect(room.x + col * (side + gap), room.y + row * row_h,
                                        side, side), dice.sides_of(i))
        if label is not None:
            row, col = divmod(shown, per_row)
            self.surface.blit(label, label.get_rect(
                midleft=(room.x + col * (side + gap), room.y + row * row_h + side // 2)))
        used = -(-(shown + (1 if label is not None else 0)) // per_row)
        return room.y + used * row_h

    def _face_row(self, side: int, label_under: bool) -> int:
        """The height of a row of faces ``side`` tall, with its gap (and a D10's name under
        its kite)."""
        m = self.m
        return side + m(10) + (self._die_label(side, 10).get_height() + m(2) if label_under
                               else 0)

    def _rule_column(self, dice: DiceView, width: int) -> int:
        """The width of the rule IDs' column, the steps' text hanging beside it: the widest
        ID drawn and a gap, at least m(74) (what it was at every text scale) and at most a
        third of the Table panel (a longer ID is cut). A fixed m(74) held "EV-DOOR-1" at
        text_scale 1.0; at 1.25 the IDs, drawn larger, ran into the text beside them
        ("EV-DOOR-1扉、宝箱…", screen66 DEFECT 1)."""
        m = self.m
        widest = max((self._text_width(step.rule, m(12)) for step in dice.steps if step.rule),
                     default=0)
        return min(max(m(74), widest + m(_RULE_GAP)), width // 3)

    def _die(self, face: int, rect: pygame.Rect, sides: int = 6) -> None:
        """A white d6 seen from above, with its pips (a red ace, as on Japanese dice); any
        other die (a D4, a D10) its number in a shape of its own, so it is not read as a D6
        thrown. A die still to be typed (:data:`TO_TYPE`) has "?" for its pips or number."""
        m = self.m
        if sides != 6:
            self._other_die(face, rect, sides)
            return
        pygame.draw.rect(self.surface, (236, 234, 226), rect, border_radius=m(8))
        if face == TO_TYPE:  # still to be typed, as the question says it
            mark = self._text("?", max(m(9), round(rect.h * 0.6)), (20, 20, 24))
            self.surface.blit(mark, mark.get_rect(center=rect.center))
            return
        spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
                 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
                 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
                 6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}.get(face, [])
        cell = rect.w / 4
        radius = max(2, round(rect.w / (7 if face == 1 else 11)))
        for col, row in spots:
            centre = (round(rect.x + cell * (col + 1)), round(rect.y + cell * (row + 1)))
            pygame.draw.circle(self.surface, _ACE_PIP if face == 1 else (20, 20, 24), centre,
                               radius)

    def _other_die(self, face: int, rect: pygame.Rect, sides: int) -> None:
        """A die not a D6: its number in the die's outline, seen from above (a D4 a
        triangle, a D8 a diamond, a D10 a kite, a D12 a pentagon, a D20 a hexagon, any
        other a disc), and which die under the number, small (``D4``)."""
        m = self.m
        ivory = _IVORY
        corners = _OUTLINE.get(sides)
        if corners is None:
            pygame.draw.circle(self.surface, ivory, rect.center, rect.w // 2)
        else:
            pygame.draw.polygon(self.surface, ivory, [
                (round(rect.x + rect.w * x), round(rect.y + rect.h * y)) for x, y in corners])
        # Where the number and the die's name sit, down the shape: a triangle's room is low
        # in it, narrowing to the top; every other shape's is about its middle.
        number_y, label_y = (0.56, 0.82) if sides == 4 else (0.45, 0.77)
        number = self._text("?" if face == TO_TYPE else str(face),
                            max(m(9), round(rect.h * (0.34 if sides == 4 else 0.4))),
                            (20, 20, 24))
        label = self._die_label(rect.h, sides)
        self.surface.blit(number, number.get_rect(
            center=(rect.centerx, round(rect.y + rect.h * number_y))))
        if sides in _LABEL_UNDER:
            self.surface.blit(label, label.get_rect(midtop=(rect.centerx, rect.bottom + m(2))))
        else:
            self.surface.blit(label, label.get_rect(
                center=(rect.centerx, round(rect.y + rect.h * label_y))))

    def _die_label(self, side: int, sides: int) -> pygame.Surface:
        """Which die (``D10``), small, for a die ``side`` tall: inside its outline, or under
        it (:data:`_LABEL_UNDER`) in the die's own ivory."""
        size = max(self.m(8), round(side * 0.16))
        return self._text(f"D{sides}", size, _IVORY if sides in _LABEL_UNDER else (90, 90, 96))


def _regular(corners: int, turn: float = 0.0) -> tuple[tuple[float, float], ...]:
    """A regular polygon's corners in a unit square, the first at the top (``turn``
    radians on), for a die's outline."""
    return tuple((0.5 + 0.5 * math.sin(turn + 2 * math.pi * k / corners),
                  0.5 - 0.5 * math.cos(turn + 2 * math.pi * k / corners))
                 for k in range(corners))


_IVORY = (236, 234, 226)
#: The dice whose name goes under the outline, not in it: a D10's kite narrows below its
#: number to a point, and its ``D10`` touched the edges, with six dice at 800x480 ran over
#: them (display audit 54, item 5).
_LABEL_UNDER = frozenset({10})

#: A die's outline seen from above, in a unit square, by its sides (a disc for any other).
_OUTLINE: dict[int, tuple[tuple[float, float], ...]] = {
    4: ((0.5, 0.0), (1.0, 0.95), (0.0, 0.95)),
    8: _regular(4),
    10: ((0.5, 0.0), (0.95, 0.42), (0.5, 1.0), (0.05, 0.42)),
    12: _regular(5),
    20: _regular(6),
}
