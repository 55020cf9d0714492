"""The coc table's screen says a fighter's square last in its row: the board beside the
rows draws it, and a row cut short loses what the board does not show. Four fighters on 003's
board at 800x480 with a hold that may choke or throw, a pin to come and a stun next round
read "e4 SW · 行動不能/no ac…" and "may choke/throw 締め上げ/投げ · …", the acting one's stun
lost (r77coc RISK on b6b3c9b2)."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from companion.app.modes.coc import CocFightMode
from companion.dice import ScriptedDice
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import FighterView
from companion.systems.coc.combat import Condition, Fight, Place, Timed
from tests.app.coc_table_helpers import new_fight
from tests.systems.coc.helpers import patch


def held_pinned_and_stunned() -> Fight:
    """003 on the board: Ann (acting) holds Cult by a full MA success and is stunned, Bob's
    knock-down pins Deep next round, Cult and Deep have no action next round."""
    f = new_fight("003")
    for name, square, facing in (("Ann", "d3", "NE"), ("Bob", "b6", "E"),
                                 ("Cult", "e4", "SW"), ("Deep", "f5", "W")):
        f.push(Place(name, square, facing), ScriptedDice([]))
    next_round = (Timed(Condition.NO_ACTION, 2, 2),)
    patch(f, "Ann", grappling="Cult", grapple_options=True, stun=1)
    patch(f, "Cult", held_by="Ann", conditions=next_round)
    patch(f, "Bob", pinning="Deep")
    patch(f, "Deep", conditions=next_round, stun=2)
    return f


def test_the_square_comes_after_what_is_on_the_fighter() -> None:
    rows = {row.name.ja: row.conditions
            for row in CocFightMode(held_pinned_and_stunned()).fight_view().fighters}
    assert rows["A Ann"][0] == "AP 3" and rows["A Ann"][-1] == "d3 NE"
    assert rows["A Ann"][1] == "holds Cult 組み付き"
    assert "stun 朦朧 1" in rows["A Ann"]
    assert rows["B Bob"] == ("pins Deep next round 押さえ込み", "b6 E")
    assert rows["C Cult"][-1] == "e4 SW" and rows["D Deep"][-1] == "f5 W"
    # What comes next round after what is on them now (f78panels item 2)
    assert rows["C Cult"][:2] == ("held by Ann 組み付かれ", "行動不能/no action next round 次R")
    assert rows["D Deep"][:2] == ("stun 朦朧 2", "行動不能/no action next round 次R")


def test_at_800x480_the_acting_ones_stun_is_drawn() -> None:
    """The rows are short of room at 800x480: the lines the acting row is given end with its
    stun whole, and the others with what is on them, not their squares; Deep's stun is drawn,
    where its row read "+3 more 他3件" alone (f78panels item 2)."""
    screen = ScreenDisplay("800x480")
    drawn: list[list[str]] = []
    fighter = screen._fighter

    def seen(f: FighterView, index: int, rect: pygame.Rect, two_lines: bool,
             second: Sequence[str] = ()) -> None:
        drawn.append(list(second))  # the lines under the name, as drawn (cut with "…")
        fighter(f, index, rect, two_lines, second)

    screen.__dict__["_fighter"] = seen
    try:
        mode = CocFightMode(held_pinned_and_stunned())
        screen.render(mode.view("Ann (3 AP): what now? 行動は？"))
    finally:
        screen.close()
    ann, bob, cult, deep = drawn
    assert any(line.startswith("stun 朦朧 1") for line in ann), ann
    assert bob[0].startswith("pins Deep") and cult[0].startswith("held by Ann")
    assert deep[0].startswith("stun 朦朧 2 · +2 more"), deep
