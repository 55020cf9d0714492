"""The Last check 判定 panel: the last check and what it set off, nothing that came after
(spec §9; display audit 56 #5: a move into room 2 showed under a check made in room 3)."""

from __future__ import annotations

import re
from functools import partial

import pytest

from companion.app.modes.jongrogue import JongRogueMode, after_the_damage, last_check
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from tests.hw.screen_layout_helpers import Drawn, spy_text
from tests.systems.jongrogue.script import feed

#: Events that are the game going on after a check, never its outcome.
LATER = {Kind.MOVE, Kind.TURN, Kind.RANGED, Kind.ROOM, Kind.ENCOUNTER, Kind.WAKE, Kind.STAIRS,
         Kind.FLOOR, Kind.CHECK}
#: Events a check sets off; the panel must not leave one out.
OUTCOMES = {Kind.DAMAGE, Kind.DEFEAT, Kind.LEVEL}


def check(what: str) -> Event:
    return Event(Kind.CHECK, {
        "what": what, "target": 3, "raw": 3, "terms": [["attack", 3]], "tiles": ["6m"],
        "value": 6, "critical": False, "fumble": False, "success": True, "monster": "L",
        "uid": 4})


def test_a_defeat_s_gold_shows_but_a_gold_pile_taken_and_a_move_after_it_do_not() -> None:
    events = [
        check("melee vs レプラコーン"),
        Event(Kind.DEFEAT, {"uid": 4, "monster": "L", "xp": 5, "total": 30}),
        Event(Kind.ITEM, {"action": "gold", "amount": 20, "gold": 60,
                          "why": "leprechaun's gold"}),
        Event(Kind.ITEM, {"action": "gold", "amount": 30, "gold": 90, "why": "gold pile 3p"}),
        Event(Kind.MOVE, {"room": 2, "position": "room"}),
    ]
    shown = last_check(events, Event.describe)
    assert shown == tuple(e.describe() for e in events[:3])


def test_a_played_game_s_last_check_never_shows_what_came_after_it() -> None:
    game = Game("plus")
    player = HeadlessPlayer(7, "cautious")
    mode = JongRogueMode(game, player)
    left_out = 0  # states where the check was followed by a later event within 4
    while game.outcome() is None:
        mode.push(player.answer(game))
        events = game.events
        checks = [i for i, e in enumerate(events) if e.kind is Kind.CHECK]
        if not checks:
            continue
        first = checks[-1]
        shown = mode.view("").last_check
        end = first + len(shown)
        assert shown == tuple(e.describe() for e in events[first:end])
        assert not any(e.kind in LATER for e in events[first + 1:end])
        if end < len(events):
            assert events[end].kind not in OUTCOMES, shown
            left_out += len(shown) < 4 and len(events) - first >= 4
    assert left_out


#: The count of the lines after a damage left out, ending the panel's last row or on its own
#: (f77carry item 2).
MORE = re.compile(r"\s*\((\d+) more lines?(?: 他\1行)?\)$")


def _panel(drawn: list[Drawn], lines: tuple[str, ...]) -> list[str]:
    """The rows the Last check panel drew, as shown: those after its title that are pieces
    of ``lines`` (split where ``…`` marks a cut), or end with or are a :data:`MORE` count,
    up to the sheet's title."""
    start = next(i for i, d in enumerate(drawn) if d.text == "Last check 判定")
    rows = []
    for d in drawn[start + 1:]:
        pieces = [p.strip() for p in MORE.sub("", d.shown).split("…") if p.strip()]
        if d.label or d.text in ("PC", "Log 記録") \
                or not all(any(p in line for line in lines) for p in pieces):
            break
        rows.append(d.shown)
    return rows


def _flytrap(gold: int, wall: str) -> View:
    """The screen after an EZ venus flytrap (虫取り草, floor 12) hit the PC with a 2d9 that
    drew ``wall``, the PC holding ``gold``: the check, its damage, the gold lost."""
    game = Game("ez")
    game.floor = 12
    game.pc.gold = gold
    feed(game, f"5p 8m 3s 1z 2z fight:1 1m {wall}")
    mode = JongRogueMode(game, None, partial(describe, profile=game.profile,
                                             options=game.options))
    ask = mode.ask()
    assert ask is not None
    return mode.view(ask.prompt, options=getattr(ask, "options", ()))


@pytest.mark.parametrize(("gold", "wall"), [(50, "6z 7z 5z"), (0, "6z 7z 5z"),
                                            (0, "2z 4s 8m")],
                         ids=["gold, honours", "no gold, honours", "no gold, plain"])
@pytest.mark.needs_japanese_font
def test_a_venus_flytrap_s_damage_stays_in_the_panel_ahead_of_the_gold_it_took(
        screen: ScreenDisplay, gold: int, wall: str) -> None:
    """r76jr DEFECT 2, at 800x480 and text 1.0: an EZ venus flytrap (虫取り草, floor 12)
    missed and hitting with a 2d9 that set an honour aside and drew 中 and 白, or with none
    for gold's loss (所持金なし); the check, the damage and the gold lost were more rows
    than the panel, which kept the gold line as the outcome and dropped the damage and its
    sum (spec §9). The check's verdict and the damage stay whole; the gold line is whole
    or counted, "(1 more line 他1行)": a ``…`` after the damage row, whole, read as the
    damage cut (f77carry item 2)."""
    view = _flytrap(gold, wall)
    made, damage, lost = view.last_check
    assert made.lstrip().startswith("melee 近接攻撃 vs 虫取り草")
    assert damage.lstrip().startswith("虫取り草 (venus flytrap) hits the PC")
    assert lost.lstrip().startswith("Gold 金塊 -10 (held 拘束)")
    drawn = spy_text(screen)
    screen.render(view)
    rows = _panel(drawn, view.last_check)
    shown = " ".join(row.strip() for row in rows)
    assert "→ failure 失敗" in shown and damage.strip() in shown, rows
    more = MORE.search(rows[-1])
    assert (lost.strip() in shown) != bool(more and more.group(1) == "1"), rows
    assert not any(row.endswith("…") for row in rows), rows


@pytest.mark.needs_japanese_font
def test_the_count_of_lines_left_out_takes_a_row_of_its_own_to_say_it_in_both() -> None:
    """r77carry: at 800x480 the count did not fit after the damage row in both languages,
    and "(1 more line)" ended that row in English alone over an empty row; the row of its
    own, there for the count, says it in both."""
    view = _flytrap(0, "2z 4s 8m")
    screen = ScreenDisplay("800x480")
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    rows = _panel(drawn, view.last_check)
    assert rows[-2].endswith("→ HP 3") and rows[-1].strip() == "(1 more line 他1行)", rows


def test_only_what_follows_from_a_hit_gives_way_to_its_damage() -> None:
    """r76jr DEFECT 2: the lines after a monster's damage that only follow from it (the
    gold it took, a state) are counted to give way to the damage on a short panel; a line
    that ends the game (the PC killed) or a fight (a defeat) stays the outcome, and a check
    with no damage keeps its last line as before."""
    damage = Event(Kind.DAMAGE, {"uid": 4, "monster": "L", "table": 10, "rolls": [],
                                 "defence": 3, "amount": 7, "hp": 5, "breath": False})
    gold = Event(Kind.ITEM, {"action": "gold", "amount": -10, "gold": 40, "why": "held"})
    state = Event(Kind.STATE, {"state": "bound"})
    over = Event(Kind.GAME_OVER, {})
    defeat = Event(Kind.DEFEAT, {"uid": 4, "monster": "L", "xp": 5, "total": 30})
    attack = check("melee vs レプラコーン")
    assert after_the_damage([attack, damage, gold]) == 1
    assert after_the_damage([attack, damage, state, gold]) == 2
    assert after_the_damage([attack, damage, gold, over]) == 0
    assert after_the_damage([attack, damage]) == 0
    assert after_the_damage([attack, defeat, gold]) == 0
    assert after_the_damage([attack, damage, gold, Event(Kind.MOVE, {"room": 2})]) == 1
    # r76jr2 DEFECT 1: a thief's hit deals table 0, "no damage = 0": the theft after it is
    # the outcome, kept last, not given way to the zero.
    thief = Event(Kind.DAMAGE, {**damage.data, "table": 0, "amount": 0, "hp": 19})
    assert after_the_damage([attack, thief, gold]) == 0
