"""What the JongRogue screen and terminal say of the rules in play (rules72).

- RISK 3: the PC sheet's last line names the preset and each EZ Plus option it switches
  on, with the book's Japanese name of its rule (a preset in config.toml's game.preset
  switched them on unseen), on the screen and the terminal.
- NIT 4 (JR-STATE-2 (stairs)): Stairs chosen from the door of a room whose monsters sleep
  steps in and wakes them; the status line says the stairs were not taken and why.
- DEFECT 1 (JR-ITEM-1 (kinds)): the sheet counts potions and shuriken by kind, and a kind of
  shuriken readied is named on its button.
- reviewr72 DEFECT 1: the Rules line gives way first, never cutting the Items; NIT 5: a
  revision-11 potion button names the potion drunk; NIT 6: the kind of shuriken readied
  is marked on the sheet.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from companion.app.cli import main
from companion.app.modes.jongrogue import JongRogueMode, choice_label, sheet
from companion.app.session.mode import ChoiceAsk
from companion.hw.buttons import Button
from companion.hw.display import screen as screen_module
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import render
from companion.hw.display.view import Name, Option, View
from companion.systems.jongrogue.actions import Choice, TileRequest, input_from_notation
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import load_profile
from companion.systems.jongrogue.reference import FIXED_READINGS
from tests.hw.display.prompt_fit_helpers import status_unread
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


# reviewr72 DEFECT 1: the Rules line gives way to the game

# Start room 5: a snake, a healing potion and shuriken; the snake falls, both are taken, and
# the PC walks on to room 2 (an emu asleep).
_HOLDING = ("5m | 1m 1p 2p 1z | fight:1 2s fight:1 2s fight:1 2s fight:1 2s fight:1 9s take "
            "move:2 | 3m 1z 2z 3z")
FIVE = "ez+sleep_check+extended_states+strength+pc_states+drops"


def _shown_text(view: View, size: str, scale: float) -> Counter[str]:
    """Every text the screen draws for ``view`` but the buttons', as drawn (cut or not)."""
    screen = ScreenDisplay(size, text_scale=scale)
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    return Counter(d.shown for d in drawn if not d.label)


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("preset", ["ez+drops", FIVE])
def test_the_rules_line_never_pushes_the_items_off_the_sheet(
        preset: str, scale: float, size: str) -> None:
    """At text 1.25 (800x480) the Rules line's two rows took the Items line's second, and
    the healing potion held was on screen nowhere; a five-option preset was cut mid-word
    at 1.0. The rules stay the same all game: the line gives way first (its options'
    names, its rows, then itself), so every sheet, log and room text drawn without it is
    drawn with it, whole as it was."""
    game = Game(preset)
    feed(game, _HOLDING)
    view = shown(JongRogueMode(game))
    assert view.sheet is not None
    assert view.sheet.items == ("手裏剣 shuriken ×5 (+2)", "回復薬 healing potion ×1")
    bare = replace(view, sheet=replace(view.sheet, rules="", rules_named=""))
    with_rules, without = _shown_text(view, size, scale), _shown_text(bare, size, scale)
    assert without - with_rules == Counter()
    assert any(text.endswith("healing potion ×1") for text in with_rules)
    # what the Rules line adds: the preset's start at least, where there is a row for it
    added = list((with_rules - without).elements())
    assert not added or added[0].startswith("Rules ルール: ") or added[0] == "Rules ルール:"


def test_the_rules_line_names_the_options_where_there_is_room() -> None:
    """At 1.0 the sheet has room for ez+drops's option by name; at 1.25 the preset alone."""
    game = Game("ez+drops")
    feed(game, _HOLDING)
    view = shown(JongRogueMode(game))
    roomy = _shown_text(view, "800x480", 1.0)
    assert "Rules ルール: ez+drops (drops" in roomy and "アイテムのドロップ・ルール)" in roomy
    assert "Rules ルール: ez+drops" in _shown_text(view, "800x480", 1.25)
    assert view.sheet is not None and view.sheet.lines(brief=True)[-1] == "Rules ルール: ez+drops"


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


#: The layouts the stairs status is drawn at: the two windows, the smallest taken, and the
#: Touch Display 2's portrait panel (drawn turned).
STAIRS_SIZES = {"800x480": (800, 480), "1024x600": (1024, 600), "640x384": (640, 384),
                "720x1280": (720, 1280)}


@pytest.mark.parametrize("scale", [1.0, 1.1, 1.25])
@pytest.mark.parametrize("size", list(STAIRS_SIZES))
def test_jr_state_2_the_stairs_status_reads_whole_over_a_grid(
        size: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the fight menu of five (two rings to doff), the status had one row: cut after
    "起きた" at 1.0, and at 1.25 all its Japanese and the end of its English gone
    (screen74 DEFECT 2). It takes a second row, the room its spare rows, and the last
    check keeps its line."""
    monkeypatch.setitem(screen_module.LAYOUTS, size, STAIRS_SIZES[size])
    game = Game("ez")
    feed(game, "5m | 1m 5z 1z 2z")
    mode = JongRogueMode(game)
    mode.push(Choice.from_notation("stairs"))
    view = replace(shown(mode), options=(
        Option("fight:1", "Fight 戦う", Button.ATTACK), Option("defend", "Defend 防御"),
        Option("flee", "Flee 逃げる", Button.FLEE), Option("unequip:6p", "Doff stealth 隠密を外す"),
        Option("unequip:8p", "Doff armour protection 鎧保護を外す")),
        last_check=("ranged 遠隔攻撃 … drew 2p → 2 < 3 → failure 失敗",))
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        assert screen._grid(view)
        assert status_unread(screen, view) == ""
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    assert any(d.shown.endswith("failure 失敗") for d in drawn), "the last check's line"


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
    assert sheet(game).items == ("▶手裏剣 shuriken ×5 (+2)", "重い手裏剣 heavy shuriken ×3 (+5)")
    assert choice_label(game, Choice.from_notation("ready:4p")) == \
        "Ready heavy shuriken 重い手裏剣を構える"


def test_jr_item_1_the_sheet_marks_the_kind_of_shuriken_readied(tmp_path: Path) -> None:
    """reviewr72 NIT 6: after ready:4p the sheet read as before it; the kind readied is
    listed first, marked ▶ (as the fighter acting is), and no kind is marked while the bow
    is readied or with one kind held."""
    game = _game(tmp_path, '[items.4]\nname_ja = "重い手裏剣"\nname_en = "heavy shuriken"\n'
                           'kind = "shuriken"\ncount = 3\nattack = 5\n', "2p", "4p")
    feed(game, "ready:4p")
    assert sheet(game).items == ("▶重い手裏剣 heavy shuriken ×3 (+5)", "手裏剣 shuriken ×5 (+2)")
    feed(game, "ready:bow")
    assert sheet(game).items == ("手裏剣 shuriken ×5 (+2)", "重い手裏剣 heavy shuriken ×3 (+5)")
    single = Game("ez")
    feed(single, _CLEARED.format(a="2p", b="1p"))
    assert sheet(single).items == ("手裏剣 shuriken ×5 (+2)", "回復薬 healing potion ×1")


def test_jr_item_1_a_revision_11_potion_button_names_the_potion_drunk(tmp_path: Path) -> None:
    """reviewr72 NIT 5: revision 11 offers the first potion held and drinks the last (its
    games replay so); the sheet lists both kinds, so the button names the one drunk."""
    path = tmp_path / "kinds.toml"
    path.write_text('[items.2]\nname_ja = "弱い回復薬"\nname_en = "weak potion"\n'
                    'kind = "potion"\nheal = 3\n', encoding="utf-8")
    game = Game("ez", load_profile(path), revision=11)
    feed(game, _CLEARED.format(a="1p", b="2p"))
    [use] = [c for c in game.legal_actions() if c.verb.value == "use"]
    assert str(use) == "use:1p"
    assert choice_label(game, use) == "Use weak potion 弱い回復薬を使う"
    assert [e.data["amount"] for e in game.push(use) if e.kind.value == "heal"] == [3]


# reviewr72 NIT 4: the drain's words where strength counts in no rate


@pytest.mark.parametrize(("preset", "seed", "strategy", "said"), [
    ("plus", 108, "cautious", False), ("ez+pc_states", 6, "reckless", True)])
def test_the_headless_drain_line_says_where_strength_counts_only_without_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        preset: str, seed: int, strategy: str, said: bool) -> None:
    """`play --headless` tells its lines with the game's options: under ``plus`` (強さルール
    on) the strength drained counts, and the line said it did only under 強さルール."""
    assert main(["play", "--headless", "--seed", str(seed), "--preset", preset,
                 "--strategy", strategy, "--state", str(tmp_path / "save.json")]) == 0
    drains = [line for line in capsys.readouterr().out.splitlines()
              if "(drains strength): strength " in line]
    assert drains
    assert all(("(in the rate only under 強さルール, the strength rule)" in line) is said
               for line in drains)


@pytest.mark.parametrize("size", ["800x480", "1024x600", "640x384"])
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_a_long_preset_is_broken_and_shortened_at_its_options_never_in_a_name(
        scale: float, size: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The five-option preset's word, wider than a row, was broken inside an option's name
    at 1.0 (``…+pc_stat`` over ``es+drops``), and at 1.25, one row left for it, cut in one
    (``Rules ルール: ez+sleep_check+extende…``): each option drawn is whole, broken after a
    ``+``, and those not drawn are counted in both languages, ``(+4 more 他4件)``
    (finala73 NIT 6: English alone beside the bilingual head)."""
    monkeypatch.setitem(screen_module.LAYOUTS, size, tuple(map(int, size.split("x"))))
    game = Game(FIVE)
    feed(game, _HOLDING)
    view = shown(JongRogueMode(game))
    screen = ScreenDisplay(size, text_scale=scale)
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    options = FIVE.split("+")
    rows = [d for d in drawn if not d.label and (
        d.text.startswith("Rules ルール")
        or any(option in d.text.split("+") for option in options[1:]))]
    assert rows and not [d for d in rows if d.cut], rows
    words = {word for d in rows for word in re.split(r"[+ ]", d.shown)}
    counted = [int(n) for d in rows for n in re.findall(r"\(\+(\d+) more 他\1件\)", d.shown)]
    assert len([o for o in options if o in words]) + sum(counted) == len(options), rows


def _full_sheet_stairs_view() -> View:
    """The stairs status over the fight menu of five, the PC carrying two rings, four kinds
    of item, a state and a preset of two options (reviewscreen74 RISK 1's sheet)."""
    game = Game("ez")
    feed(game, "5m | 1m 5z 1z 2z")
    mode = JongRogueMode(game)
    mode.push(Choice.from_notation("stairs"))
    view = shown(mode)
    assert view.sheet is not None
    full = replace(view.sheet, rings=(Name("隠密の指輪", "ring of stealth"),
                                      Name("鎧保護の指輪", "ring of armour protection")),
                   items=("回復薬 healing potion ×2", "手裏剣 shuriken ×5 (+2)",
                          "巻物 scroll of teleport", "毒消し antidote ×3"),
                   states=(Name("毒", "poisoned"),), rules="Rules ルール: ez+drops+pursuit",
                   rules_named="drops アイテムのドロップ・ルール")
    return replace(view, sheet=full, options=(
        Option("fight:1", "Fight 戦う", Button.ATTACK), Option("defend", "Defend 防御"),
        Option("flee", "Flee 逃げる", Button.FLEE), Option("unequip:6p", "Doff stealth 隠密を外す"),
        Option("unequip:8p", "Doff armour protection 鎧保護を外す")),
        last_check=("rate 2 = 7 atk − 3 lvl − 0 str − 2 wpn (clamped to 1..9)",
                    "ranged 遠隔攻撃 … drew 2p → 2 < 3 → failure 失敗"))


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_jr_state_2_the_stairs_status_takes_its_second_row_from_the_log_not_the_sheet(
        size: str, scale: float) -> None:
    """The stairs status's second row came from the PC sheet: a sheet that fills its panel
    at 1.25 had its Items line cut to its first item, the ×2 with it (reviewscreen74 RISK
    1). The log gives way whole instead, but only there: at 1.0, where only the Rules line
    (the same all game) would go, the log keeps its newest event and the Rules line gives
    way (reviewy74 RISK 1); the Rings, Items and States are drawn as without the status."""
    view = _full_sheet_stairs_view()
    with_status = _shown_text(view, size, scale)
    without = _shown_text(replace(view, status=""), size, scale)
    lost = [text for text in (without - with_status).elements()
            if text != "Log 記録" and "wakes up" not in text and text != "room)"]
    if scale == 1.0:
        assert [text for text in lost if "ルール" not in text] == [], lost
        assert with_status["Log 記録"] == 1
        assert any("wakes up" in text for text in with_status)
    else:
        assert "Items 持ち物: 回復薬 healing potion ×2," in with_status
        assert any(text.startswith("手裏剣 shuriken ×5 (+2)") for text in with_status)
        assert "States 状態: 毒 poisoned" in with_status


SAVE_TROUBLE = ("the save could not be written (No space left on device): your game is not "
                "being kept; free some space on the card")


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_fresh_sheet_keeps_its_log_under_a_trouble_status_of_two_rows(
        size: str, scale: float) -> None:
    """Any status of two rows over a grid took the whole Log panel, a fresh game's sheet
    (no rings, no items) gaining only its Rules line: a save trouble, up turn after turn,
    hid the game's newest event all that time at text 1.25 (reviewy74 RISK 1). The log
    gives way whole only where the Rings, Items or States would be cut."""
    view = replace(_full_sheet_stairs_view(), status=SAVE_TROUBLE)
    assert view.sheet is not None
    view = replace(view, sheet=replace(view.sheet, rings=(), items=(), states=(),
                                       rules="Rules ルール: ez", rules_named=""))
    drawn = _shown_text(view, size, scale)
    assert drawn["Log 記録"] == 1, drawn
    assert any("wakes up" in text for text in drawn), drawn
    assert "Items 持ち物: –" in drawn
