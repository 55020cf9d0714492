"""What the JongRogue screen and terminal say of the rules in play (rules72).

- RISK 3: the PC sheet's last line names the preset and each EZ Plus option it switches
  on, with the book's Japanese name of its rule (a preset in config.toml's game.preset
  switched them on unseen), on the screen and the terminal.
- NIT 4 (JR-STATE-2 (stairs)): Stairs chosen from the door of a room whose monsters sleep
  steps in and wakes them; the status line says the stairs were not taken and why.
- DEFECT 1 (JR-ITEM-1 (kinds)): the sheet counts potions and shuriken by kind, and a kind of
  shuriken readied is named on its button.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from companion.app.modes.jongrogue import JongRogueMode, choice_label, sheet
from companion.app.session.mode import ChoiceAsk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import render
from companion.hw.display.view import View
from companion.systems.jongrogue.actions import Choice, TileRequest, input_from_notation
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import load_profile
from companion.systems.jongrogue.reference import FIXED_READINGS
from tests.hw.screen_layout_helpers import spy_text
from tests.systems.jongrogue.script import feed, options


def shown(mode: JongRogueMode) -> View:
    """The view the session shows for the mode's ask, with no status of the session's."""
    ask = mode.ask()
    assert ask is not None
    if isinstance(ask, ChoiceAsk):
        return mode.view(ask.prompt, options=ask.options, highlight=ask.highlight)
    return mode.view(ask.prompt)


def terminal_text(view: View) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render(view, rows=40))
    return console.export_text()


# RISK 3: the rules in play


def test_the_sheet_names_the_preset_and_its_options_with_their_rules() -> None:
    """From the start screen on, the PC sheet's last line, on the screen and the terminal."""
    mode = JongRogueMode(Game("ez+pc_states+drops"))
    said = ("Rules ルール: ez+pc_states+drops (pc_states PCの状態ルール, "
            "drops アイテムのドロップ・ルール)")
    for _ in range(2):
        view = shown(mode)
        assert view.sheet is not None and view.sheet.lines()[-1] == said
        assert said in terminal_text(view)
        mode.push(input_from_notation("5m"))


@pytest.mark.parametrize(("preset", "said"), [
    ("ez", "Rules ルール: ez (EZ, no options オプションなし)"),
    ("plus", "Rules ルール: plus (all six options 全オプション)"),
])
def test_plain_ez_and_plus_are_named_too(preset: str, said: str) -> None:
    view = shown(JongRogueMode(Game(preset)))
    assert view.sheet is not None and view.sheet.lines()[-1] == said
    assert view.status == ""  # the status line is the reader's and the next step's


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_the_screen_draws_the_rules_line_whole(size: str) -> None:
    view = shown(JongRogueMode(Game("ez+sleep_check+pc_states")))
    screen = ScreenDisplay(size)
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    said = [d for d in drawn if d.text.startswith("Rules ルール: ez+sleep_check+pc_states")]
    assert said and not any(d.cut for d in said)


# NIT 4: the stairs not taken


def test_jr_state_2_stairs_beside_a_sleeping_monster_say_why_the_pc_stays() -> None:
    """The rules72 repro: EZ, start room 5 with a sleeping snake (1m) and the stairs (5z).
    Stairs steps in and wakes the snake; the PC stays, and the status line says so."""
    game = Game("ez")
    feed(game, "5m | 1m 5z 1z 2z")
    assert "stairs" in options(game)
    mode = JongRogueMode(game)
    mode.push(Choice.from_notation("stairs"))
    assert game.floor == 1 and options(game)[0] == "fight:1"
    view = shown(mode)
    assert view.status.startswith("The stairs were not taken: stepping in woke the room's "
                                  "monsters; defeat them first")
    assert "階段へ進めない" in view.status
    mode.push(Choice.from_notation("fight:1"))
    assert shown(mode).status == ""  # said until the next answer


def test_stairs_taken_say_nothing_of_it() -> None:
    game = Game("ez")
    feed(game, "5m | 5z 1z 2z 3z")
    mode = JongRogueMode(game)
    mode.push(Choice.from_notation("stairs"))
    assert game.floor == 2 and isinstance(game.pending, TileRequest)
    assert "stairs" not in shown(mode).status


def test_jr_state_2_the_stairs_reading_is_listed() -> None:
    readings = {d.rule: d.text for d in FIXED_READINGS}
    assert "the table's screen says the stairs were not taken" in readings["JR-STATE-2 (stairs)"]


# DEFECT 1: items by kind on the sheet and the buttons

_CLEARED = "5m | 1m {a} {b} 1z | fight:1 2s fight:1 2s fight:1 2s fight:1 2s fight:1 9s take"


def _game(tmp_path: Path, item: str, a: str, b: str) -> Game:
    path = tmp_path / "kinds.toml"
    path.write_text(item, encoding="utf-8")
    game = Game("ez", load_profile(path))
    feed(game, _CLEARED.format(a=a, b=b))
    return game


def test_jr_item_1_the_sheet_counts_potions_by_kind(tmp_path: Path) -> None:
    """A weak potion (2p) held after a healing one: "回復薬 healing potion ×2" named it a
    second healing potion (rules72 DEFECT 1); each button names its own potion."""
    game = _game(tmp_path, '[items.2]\nname_ja = "弱い回復薬"\nname_en = "weak potion"\n'
                           'kind = "potion"\nheal = 3\n', "1p", "2p")
    assert sheet(game).items == ("回復薬 healing potion ×1", "弱い回復薬 weak potion ×1")
    labels = [choice_label(game, c) for c in game.legal_actions() if c.verb.value == "use"]
    assert labels == ["Use healing potion 回復薬を使う", "Use weak potion 弱い回復薬を使う"]


def test_jr_item_1_the_sheet_counts_shuriken_by_kind(tmp_path: Path) -> None:
    game = _game(tmp_path, '[items.4]\nname_ja = "重い手裏剣"\nname_en = "heavy shuriken"\n'
                           'kind = "shuriken"\ncount = 3\nattack = 5\n', "2p", "4p")
    assert sheet(game).items == ("手裏剣 shuriken ×5 (+2)", "重い手裏剣 heavy shuriken ×3 (+5)")
    assert choice_label(game, Choice.from_notation("ready:4p")) == \
        "Ready heavy shuriken 重い手裏剣を構える"
