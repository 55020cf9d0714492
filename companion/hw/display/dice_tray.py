"""The dice tray: a throw as dice faces (a d6 seen from above) with its BCDice lines, and
the dice table's walk beside it.
"""

from __future__ import annotations

import pygame

from companion.hw.display.canvas import ACCENT, BAD, DIM
from companion.hw.display.game_panels import GamePanels
from companion.hw.display.view import DiceView


class DiceTray(GamePanels):
    """The dice tray, and the die faces a fight's result shows too."""

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
                                left.bottom - rolls_top - m(4)))
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
