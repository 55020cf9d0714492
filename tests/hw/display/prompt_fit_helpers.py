"""Shared helpers for tests that a prompt or status reads whole on the screen: the sizes and
text scales drawn, what a part of the screen drew (read back through ``spy_text``), what is
wrong with a prompt or a status as drawn, and a coc fight on its board to draw."""

from __future__ import annotations

from typing import Any

from companion.app.modes.coc import CocFightMode
from companion.dice import SimulatedDice
from companion.hw.display.option_buttons import TAP_MIN
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.coc.combat import Fight as CocFight
from companion.systems.coc.combat import Side
from companion.systems.coc.rules import Profile
from companion.systems.coc.rules import load_rules as coc_rules
from companion.systems.coc.sheet import Sheet, sheet_from_mapping
from tests.hw.screen_layout_helpers import Drawn, spy_text

#: Each screen: the two windows, and the Touch Display 2's portrait panel (full screen takes
#: its own size; the layout is drawn turned, 1280x720).
SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "720x1280": (720, 1280)}
SCALES = (1.0, 1.25)


def coc_board_mode(tough: bool = False) -> CocFightMode:
    """A coc fight on its board (profile 003): Ann kicks with martial arts, Bob has an SMG.
    ``tough``: Cult has 99 HP (a burst of 20 hits does not fell it)."""
    rules = coc_rules(Profile.P003)

    def sheet(name: str, dex: int, weapons: tuple[str, ...], hp: dict[str, int] | None = None,
              **skills: int) -> Sheet:
        return sheet_from_mapping(rules, {
            "name": name, "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": dex,
                                              "APP": 10, "SIZ": 13, "INT": 12, "EDU": 12},
            "skills": skills, "weapons": [{"key": w} for w in weapons], **(hp or {})}, name)

    fight = CocFight(rules, [
        (sheet("Ann", 14, ("kick",), kick=60, martial_arts=50, grapple=70), Side.INVESTIGATORS),
        (sheet("Bob", 12, ("smg", "shinai"), smg=60, japanese_sword=60), Side.INVESTIGATORS),
        (sheet("Cult", 10, ("knife",), {"max_hp": 99} if tough else None, knife=50),
         Side.FOES),
        (sheet("Deep", 8, ("japanese_sword",), japanese_sword=60, dodge=30), Side.FOES),
    ], SimulatedDice.seeded(3))
    return CocFightMode(fight, "simulated 仮想")


def drawn_in(screen: ScreenDisplay, view: View, part: str) -> list[Drawn]:
    """The texts ``screen`` fits while its method ``part`` (``_footer``, ``_status``) draws
    ``view``: none when it is not drawn."""
    drawn = spy_text(screen)
    marks: list[int] = []  # from, to
    draw = getattr(screen, part)

    def spy(*args: Any) -> None:
        marks.append(len(drawn))
        draw(*args)
        marks.append(len(drawn))

    screen.__dict__[part] = spy
    try:
        screen.render(view)
    finally:
        del screen.__dict__[part]
    return drawn[marks[0]:marks[1]] if marks else []


def unread(screen: ScreenDisplay, view: View) -> str:
    """What is wrong with ``view``'s prompt as drawn ("" when nothing): a row cut, the rows
    not the whole prompt, an option box under a fingertip's height or over the prompt's last
    row, an option's label cut."""
    drawn = drawn_in(screen, view, "_footer")
    # The prompt's rows: the texts of its size (an option's label is smaller, and is fitted
    # by _fit_middle too, as a prompt's row that runs on; a prompt over a fight whose panels
    # cannot give it the rows is set smaller, never under TEXT_MIN).
    rows = [d for d in drawn if d.size == screen._prompt_size(view) and d.text
            and d.text in view.prompt]
    shown = "".join(d.shown for d in rows).replace(" ", "")  # a row may end mid-word
    if any(d.cut or "…" in d.shown for d in rows) or shown != view.prompt.replace(" ", ""):
        return f"drawn as {[d.shown for d in rows]}"
    m = screen.m
    last_row_bottom = screen.height - screen._footer_height(view) + m(6) + len(rows) * m(24)
    low = [box for box, _ in screen._targets
           if box.top < last_row_bottom or box.h < m(TAP_MIN)]
    if low:
        return f"option boxes {low} over the prompt's last row or too low"
    # The options' labels (fitted in their middle, as a prompt's row that runs on): whole
    # (the tray's menu of four beside a status read "[A]…振る  [2]…es 表", reviewd67b RISK 7).
    cut = [d.shown for d in drawn if d.label and d not in rows and d.shown != d.text]
    return f"option labels cut: {cut}" if cut else ""


def status_unread(screen: ScreenDisplay, view: View) -> str:
    """What is wrong with ``view``'s status line as drawn ("" when nothing): a row cut, or
    the rows not the whole status."""
    rows = drawn_in(screen, view, "_status")
    shown = "".join(d.shown for d in rows).replace(" ", "")
    if any(d.cut or "…" in d.shown for d in rows) or shown != view.status.replace(" ", ""):
        return f"status drawn as {[d.shown for d in rows]}"
    return ""
