"""How ``companion genso list`` fits a row into :data:`WIDTH` terminal columns.

A row is parts laid side by side, two spaces apart; a part that would run past the edge goes
onto a continuation line indented under the row's own column, and a part longer than a
whole line is broken between its words (a word longer than a line, between its letters).
Nothing is dropped: every part is on screen, as the JSON keeps it (weapon rows ran to 129
columns, the monsters' to 237).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.dice.notation import display_width

#: The columns every line of a `genso list` table fits in.
WIDTH = 100
_GAP = "  "


def fit(parts: Iterable[str], indent: int, lead: str = "") -> list[str]:
    """``parts`` laid out in lines of at most :data:`WIDTH` columns: the first line begins
    with ``lead``, each continuation line with ``indent`` spaces; empty parts are left out."""
    lines = [lead]
    for part in (p for p in parts if p):
        if _fits(lines[-1], part, _GAP):
            lines[-1] = _join(lines[-1], part, _GAP)
        elif lines[-1].strip() and indent + display_width(part) <= WIDTH:
            lines.append(" " * indent + part)
        else:
            for n, word in enumerate(part.split(" ")):
                gap = " " if n else _GAP
                if _fits(lines[-1], word, gap):
                    lines[-1] = _join(lines[-1], word, gap)
                else:
                    lines += _letters(" " * indent, word)
    return lines


def _join(line: str, part: str, gap: str) -> str:
    return line + (gap if line.strip() else "") + part


def _fits(line: str, part: str, gap: str) -> bool:
    return display_width(_join(line, part, gap)) <= WIDTH


def _letters(start: str, word: str) -> list[str]:
    """``word`` on lines beginning ``start``, broken between letters where it is wider."""
    lines = [start]
    for letter in word:
        if display_width(lines[-1] + letter) > WIDTH and lines[-1].strip():
            lines.append(start)
        lines[-1] += letter
    return lines
