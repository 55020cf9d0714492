"""What a JongRogue player reads of the engine keeps Japanese beside the English (the
project's rule for what reaches the screen): the prompts of its requests and the lines of
its Log panel, taken from seeded games the auto-player plays through the mode; and they still
read at 800x480 (a menu's prompt whole on its one row, beside the M legend of a long menu;
a Log line's Japanese before the panel cuts its end; a check's verdict in the Last check
panel, which wraps it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import pytest

from companion.app.modes.jongrogue import JongRogueMode
from companion.hw.display.fonts import without_cjk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option
from companion.systems.jongrogue.actions import ChoiceRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from tests.hw.screen_layout_helpers import RING_MENU, spy_text

GAMES = [(seed, preset, strategy) for seed in (1, 3, 7) for preset in ("plus", "ez")
         for strategy in ("cautious", "reckless")]


@dataclass
class Shown:
    """What the games put on the screen: each menu's prompt with its options, each tile
    prompt, and each Log line with the kind of its event."""

    menus: dict[str, tuple[Option, ...]] = field(default_factory=dict)
    tile_prompts: set[str] = field(default_factory=set)
    lines: dict[str, Kind] = field(default_factory=dict)


@pytest.fixture(scope="module")
def shown() -> Shown:
    seen = Shown()
    for seed, preset, strategy in GAMES:
        player, game = HeadlessPlayer(seed, strategy), Game(preset)
        mode = JongRogueMode(game)
        while game.pending is not None:
            ask = mode.ask()
            assert ask is not None
            if isinstance(game.pending, ChoiceRequest):
                options = getattr(ask, "options", ())
                if len(options) > len(seen.menus.get(ask.prompt, ())):
                    seen.menus[ask.prompt] = options
            else:
                seen.tile_prompts.add(ask.prompt)
            mode.push(player.answer(game))
        seen.lines.update((mode.describe(e), e.kind) for e in game.events)
    return seen


JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def bilingual(text: str) -> bool:
    """Japanese in it, and English left when the Japanese is taken out."""
    english = without_cjk(text)
    return english != text and re.search(r"[A-Za-z]{2}", english) is not None


def test_every_prompt_and_log_line_of_a_game_holds_both_languages(shown: Shown) -> None:
    assert len(shown.menus) > 20 and len(shown.tile_prompts) > 20 and len(shown.lines) > 500
    for text in [*shown.menus, *shown.tile_prompts, *shown.lines]:
        assert bilingual(text), text


KEY_WORDS = {  # a line's English, and the Japanese the games' lines of it hold
    r"^  -- turn \d+ ": r"ターン\d+",
    r"^  HP \+": "回復",
    r"^  Level \d+": r"レベル\d+",
    r"^  Gold ": "金",
    r"^  Drop check": "ドロップ判定",
    r"^  Ranged combat ends": "遠隔戦闘終了",
    r"stairs down from floor": "階段を下りる",
    r"^The PC is in room (\d+)": r"部屋\d+の中",
    r"^The PC is on the door of room": r"部屋\d+のドア",
    r"^Start room": r"開始部屋\d+",
    r"^Room \d+ revealed": r"部屋\d+",
    r"→ success": "→ success 成功$",
    r"→ failure": "→ failure 失敗$",
}


def test_the_lines_once_english_only_carry_their_japanese(shown: Shown) -> None:
    for english, japanese in KEY_WORDS.items():
        lines = [line for line in shown.lines if re.search(english, line)]
        assert lines, english
        for line in lines:
            assert re.search(japanese, line), line


def test_the_prompts_once_english_only_carry_their_japanese(shown: Shown) -> None:
    menus = list(shown.menus)
    assert "What next? どうする？" in menus
    assert "Ranged combat 遠隔戦闘: act どうする？" in menus
    attacks = [p for p in menus if p.endswith(" attack! 攻撃！")]
    equips = [p for p in menus if p.startswith("Found ")]
    assert attacks and equips and all(p.endswith("? 装備を替える？") for p in equips)
    checks = [p for p in shown.tile_prompts if "判定 1d9 >= " in p]
    drops = [p for p in shown.tile_prompts if re.search(r"Drop check \d+/\d+ \(ドロップ判定\)$", p)]
    assert checks and drops
    # the English a screen without a Japanese font keeps
    assert without_cjk("Ranged combat 遠隔戦闘: act どうする？") == "Ranged combat: act"
    assert without_cjk(attacks[0]).endswith(" attack!")


@pytest.mark.parametrize(("data", "line"), [
    ({"action": "equipped", "tile": "5p", "value": 5}, "  Equipped 装備 5p (5)"),
    ({"action": "ready", "what": "bow"}, "  Readied the bow for ranged attacks (弓を構えた)"),
    ({"action": "ready", "what": "shuriken"},
     "  Readied the shuriken for ranged attacks (手裏剣を構えた)"),
    ({"action": "stolen", "what": "arrows"}, "  Stolen 盗まれた: arrows (矢)"),
    ({"action": "nothing to steal"}, "  Nothing to steal (盗む物なし)"),
    ({"action": "no drop", "tile": "5p"}, "  Drop check ドロップ判定: 5p — no drop なし"),
], ids=["equipped", "bow", "shuriken", "stolen", "nothing to steal", "no drop"])
def test_rarer_item_lines_hold_both_languages(data: dict[str, object], line: str) -> None:
    assert describe(Event(Kind.ITEM, data)) == line


def test_every_menu_prompt_reads_whole_at_800x480(shown: Shown, screen: ScreenDisplay) -> None:
    """A menu's prompt has one row: whole with its own options, and an attack's prompt whole
    beside the M legend of a long menu too (a fight offers rings, ranged and items)."""
    mode = JongRogueMode(Game("plus"))
    drawn = spy_text(screen)
    for prompt, options in shown.menus.items():
        menus = [options, RING_MENU] if prompt.endswith("攻撃！") or "?" not in prompt \
            else [options]
        for menu in menus:
            drawn.clear()
            screen.render(mode.view(prompt, options=menu, highlight=0))
            rows = [d for d in drawn if d.text == prompt]
            assert rows and not any(d.cut for d in rows), (prompt, len(menu))


@pytest.mark.needs_japanese_font
def test_log_lines_read_whole_with_their_japanese_at_800x480(
        shown: Shown, screen: ScreenDisplay) -> None:
    """The Log panel cut a long line's end (half the lines of these games at 800x480), and a
    check lost its verdict (成功, 失敗): a line wraps in it now, nothing cut, and its
    Japanese and a check's verdict are on the screen. Lines that differ only in their
    numbers wrap alike, so each wording is tried by its longest line: 1,544 of the games'
    7,397 lines, where every one took 30 s."""
    view = JongRogueMode(Game("plus")).view("")
    drawn = spy_text(screen)
    longest: dict[str, str] = {}
    for line in shown.lines:
        wording = re.sub(r"\d+", "#", line)
        if len(line) > len(longest.get(wording, "")):
            longest[wording] = line
    assert len(longest) > 1000
    for line in longest.values():
        kind = shown.lines[line]
        drawn.clear()
        screen.render(replace(view, log=(line,), last_check=()))
        titles = [d.text for d in drawn]
        rows = drawn[titles.index("Log 記録") + 1:] if "Log 記録" in titles else []
        assert rows and not any(d.cut for d in rows), line
        assert " ".join(d.shown for d in rows).split() == line.split(), line
        assert any(JAPANESE.search(d.shown) for d in rows), line
        if kind is Kind.CHECK:
            assert rows[-1].shown.endswith(("成功", "失敗")), line
