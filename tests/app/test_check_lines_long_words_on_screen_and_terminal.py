"""The check lines as the log and the Last check 判定 panel now write them, with the seed's
words (melee 近接攻撃, defend 防御, ranged 遠隔攻撃, the rate's 攻撃力 − レベル − 強さ − 武器),
some 30 cells longer than before, and a check's tile prompt with its 近接攻撃, drawn from a
played game on each screen layout and on the terminal (review61c F5): the check's start and
verdict and its outcome read whole, what is left out is marked, and the terminal's frame
keeps to its size."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace

import pytest
from rich.cells import cell_len

from companion.app.modes.jongrogue import JongRogueMode
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.jongrogue.game import Game
from tests.hw.display.terminal_frame_helpers import frame
from tests.hw.screen_layout_helpers import RING_MENU, Drawn, spy_text
from tests.systems.jongrogue.script import feed

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
TITLES = ("PC", "Log 記録", "Room 部屋")

#: Plus, floor 1, played to a check: its script, its check's head, the tile prompt's end.
SNAKE_ROOM = "9m 5m 8p 8m 5z"  # a snake (awake) and an emu in room 9
CHASE = "5m 2z 2z 2z 2z move:2 1z 4m 3z 3z move:1 1m 6z 6z 6z"  # a snake at room 1's door
PLAYS = {
    "melee hit": (f"{SNAKE_ROOM} fight:1 8s fight:2", "melee 近接攻撃 vs 大蛇 (snake)",
                  "melee 近接攻撃 vs 大うずら emu (判定 1d9 >= 4)"),
    "ranged miss": (f"{CHASE} shoot:2 9p 1p", "ranged 遠隔攻撃 (arrows) vs 大蛇 (snake)",
                    "ranged combat goes on 遠隔戦闘の継続 (判定 1d9 >= 3)"),
    "melee miss": (f"{CHASE} fight:2 1m fight:2", "melee 近接攻撃 vs 大蛇 (snake)",
                   "melee 近接攻撃 vs 大蛇 snake (判定 1d9 >= 3)"),
    "defend miss": (f"{CHASE} defend 1m defend", "defend 防御 vs 大蛇 (snake)",
                    "defend 防御 vs 大蛇 snake (判定 1d9 >= 3)"),
}


def played(name: str) -> View:
    """The game's screen as the table shows it, asking for the next check's tile."""
    script, _, _ = PLAYS[name]
    game = Game("plus")
    game.pc.hp = game.pc.max_hp = 200
    mode = JongRogueMode(game)
    feed(game, script)
    ask = mode.ask()
    assert ask is not None
    return mode.view(ask.prompt)


def panel_rows(drawn: list[Drawn], lines: tuple[str, ...]) -> list[str]:
    """The rows the Last check panel drew, as shown: those after its title up to the next
    panel's title ("PC", a piece of "hits the PC" too) that are pieces of ``lines``."""
    start = next(i for i, d in enumerate(drawn) if d.text == "Last check 判定")
    rows = []
    for d in drawn[start + 1:]:
        pieces = [p.strip() for p in d.shown.split("…") if p.strip()]
        if d.label or d.text in TITLES or not pieces \
                or not all(any(p in line for line in lines) for p in pieces):
            break
        rows.append(d.shown)
    return rows


@pytest.fixture(params=[("800x480", 1.0), ("1024x600", 1.0), ("800x480", 1.25),
                        ("1024x600", 1.25)],
                ids=["800x480", "1024x600", "800x480-text1.25", "1024x600-text1.25"])
def layout(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    """Each screen layout at its own text size and a quarter larger (display.text_scale)."""
    size, scale = request.param
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


@pytest.mark.parametrize("menu", [(), RING_MENU], ids=["no menu", "ring menu"])
@pytest.mark.parametrize("name", list(PLAYS))
@pytest.mark.needs_japanese_font
def test_the_long_check_lines_keep_start_verdict_and_outcome_on_the_screen(
        layout: ScreenDisplay, name: str, menu: tuple[object, ...]) -> None:
    """As tests/hw/display/test_last_check.py, with the lines a played game writes: the
    outcome whole, the check's start and verdict kept, a cut marked; a ranged miss, a
    check alone, keeps its verdict too (it was cut at its end under the ring menu's grid).
    The tile prompt's check, 近接攻撃 and all, ends the footer whole."""
    view = played(name)
    _, head, asked = PLAYS[name]
    lines = view.last_check
    assert lines[0].strip().startswith(head) and len(lines[0]) > 100, lines
    view = replace(view, options=menu, highlight=0 if menu else None)
    drawn = spy_text(layout)
    layout.render(view)
    rows = panel_rows(drawn, tuple(line.strip() for line in lines))
    assert rows, [d.shown for d in drawn]
    shown = " ".join(rows)
    outcome = lines[-1].strip() if len(lines) > 1 else lines[0][lines[0].rindex("→"):]
    assert shown.endswith(outcome) and not rows[-1].endswith("…"), rows
    if shown != " ".join(line.strip() for line in lines):
        assert "…" in shown, rows
    verdict = lines[0][lines[0].rindex("→"):]
    if not (layout.text_scale > 1 and shown.lstrip("… ") == lines[-1].strip()):
        assert shown.startswith(head.split(" ")[0]) and verdict in shown, rows
    if menu:
        return  # (a tile prompt is never asked over a menu)
    prompt = [d.shown for d in drawn if d.text in view.prompt and not d.label
              and not any(d.text in line for line in (*view.log, *lines))]
    assert " ".join(prompt).endswith(asked if layout.text_scale == 1.0
                                     else asked[asked.rindex("("):]), prompt


@pytest.mark.parametrize("name", list(PLAYS))
@pytest.mark.parametrize(("width", "height"), [(80, 24), (100, 30)])
def test_the_long_check_lines_fit_the_terminal(name: str, width: int, height: int) -> None:
    """80x24 (the last check gives way before the room, the PC and the prompt do) and the
    Pi's console, 100x30 (the last check shown, wrapped, start, verdict and outcome whole):
    no row wider than the terminal, the frame within its rows, the prompt whole."""
    view = played(name)
    _, head, asked = PLAYS[name]
    rows = frame(view, width, height)
    assert len(rows) <= height - 1 and rows[0].startswith("Floor 1 1階")
    assert max(map(cell_len, rows)) <= width
    text = " ".join(" ".join(row.strip(" │").split()) for row in rows)
    assert asked in text
    lines = view.last_check
    if "Last check 判定" in text:
        verdict = lines[0][lines[0].rindex("→"):]
        assert head in text and verdict in text and lines[-1].strip() in text
    else:
        assert (width, height) == (80, 24)
