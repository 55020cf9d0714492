"""The screen's layout under load: long menus, long labels, long sheet lines and room
details, many combatants, long table walks, long titles, no Japanese font, a lost game,
the System menu's hint.

Real views are drawn through :class:`ScreenDisplay` on SDL's dummy driver; what was drawn
is read back from the text it fitted (a spy on ``_fit`` and ``_fit_middle``), from the
combatants' rows (a spy on ``_fighter``) and from pixels.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pygame
import pytest

from companion.app.session.controls import menu_press
from companion.hw.buttons import Button, Pick
from companion.hw.display.fonts import without_cjk
from companion.hw.display.game_panels import SYSTEM_HINT
from companion.hw.display.option_buttons import MENU_LEGEND
from companion.hw.display.screen import BACKGROUND, ScreenDisplay
from companion.hw.display.view import (
    DiceStep,
    DiceView,
    FighterView,
    Name,
    Option,
    SheetView,
    TileView,
    View,
    example_fight_view,
    example_view,
    message_view,
)
from tests.hw.screen_layout_helpers import (
    RING_MENU,
    TILE_PROMPT,
    Drawn,
    _big_fight,
    _fight,
    at_own_text_size,
    spy_text,
    texts_drawn,
)

# ---- 1. a long menu outside a fight: pages, every option readable and reachable ---------


_KEYS = {Button.ATTACK: "A", Button.FLEE: "B", Button.RANGED: "R", Button.ITEM: "I",
         Button.MENU: "M"}


def _keys_drawn(drawn: list[Drawn]) -> list[str]:
    """The ``[key]`` each option box was drawn with, in the order drawn."""
    return [d.text[1:d.text.index("]")] for d in drawn if d.label and d.text.startswith("[")]


def _sheet() -> SheetView:
    sheet = example_view().sheet
    assert sheet is not None
    return sheet


def _press_key(key: str, count: int, highlight: int, shortcuts: dict[Button, int]) \
        -> tuple[int | None, int]:
    """Press what a drawn key says, as a player would: a number, a button, or MENU n times
    and then A."""
    if key.isdigit():
        return menu_press(Pick("1234567890".index(key)), count, highlight, shortcuts)
    if key.startswith("M"):
        for _ in range(int(key.split("×")[1]) if "×" in key else 1):
            _, highlight = menu_press(Button.MENU, count, highlight, shortcuts)
        key = "A"
    button = {v: k for k, v in _KEYS.items()}[key]
    return menu_press(button, count, highlight, shortcuts)


def test_a_long_menu_is_two_rows_of_readable_pages_with_its_own_keys(
        screen: ScreenDisplay) -> None:
    """17 options (JongRogue, a room of four monsters and rings to swap): two rows of boxes
    wide enough to read, 11 to a page and a "more" box keyed with the MENU presses that
    turn the page; every box's key is its own, and pressing what it says picks it."""
    m = screen.m
    view = replace(example_view(), options=RING_MENU, highlight=0)
    count = len(RING_MENU)
    shortcuts = {o.button: i for i, o in enumerate(RING_MENU) if o.button is not None}
    seen: set[int] = set()
    highlight = 0
    for _page in range(2):
        drawn = spy_text(screen)
        screen.render(replace(view, highlight=highlight))
        boxes = [rect for rect, _ in screen._targets]
        assert all(rect.w >= m(110) for rect in boxes)
        assert screen._more is not None
        assert len({rect.y for rect in [*boxes, screen._more[0]]}) == 2  # two rows
        keys = _keys_drawn(drawn)
        assert len(keys) == len(set(keys)), keys  # no two boxes say the same key
        assert keys[-1] == f"M×{screen._more[1]}"
        for (_, index), key in zip(screen._targets, keys, strict=False):
            assert _press_key(key, count, highlight, shortcuts)[0] == index, key
            seen.add(index)
        # A tap on "more" turns the page: the MENU presses it names.
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=screen._more[0].center, button=1))
        for press in screen.poll():
            highlight = menu_press(press, count, highlight, shortcuts)[1]
        screen = _fresh(screen)
    assert seen == set(range(count))
    assert highlight == 0  # the last page's "more" goes back to the first


def _fresh(screen: ScreenDisplay) -> ScreenDisplay:
    """The same screen with its spies taken off."""
    for name in ("_text", "_fit", "_fit_middle"):
        screen.__dict__.pop(name, None)
    return screen


def test_a_menu_keyed_with_m_says_what_m_is(screen: ScreenDisplay) -> None:
    """``[M×8]`` asks for eight presses of a button the box does not have: the footer says M
    is a long press of item (or the m key), beside the prompt and clear of it; a short menu,
    keyed by numbers and buttons alone, has no legend."""
    at_own_text_size(screen)
    texts = texts_drawn(screen)
    drawn = spy_text(screen)
    screen.render(replace(example_view(), options=RING_MENU, highlight=3))
    assert MENU_LEGEND in texts and "hold I 長押し" in MENU_LEGEND
    prompt = next(d for d in drawn if d.text == example_view().prompt)
    legend_w = screen._text(MENU_LEGEND, screen.m(13)).get_width()
    assert prompt.width + legend_w < screen.width - screen.m(20)  # the prompt keeps clear
    assert not prompt.cut  # and still reads whole beside it
    texts = texts_drawn(_fresh(screen))
    screen.render(example_view())
    assert MENU_LEGEND not in texts


@pytest.mark.parametrize(("buttons", "legend"), [
    ((None, None, None), "I next 次 · B/R prev 前へ · A ok 決定"),
    ((Button.ITEM, None, None), "hold I next 次 · B/R prev 前へ · A ok 決定"),
    ((Button.FLEE, Button.RANGED, None), "I next 次 · A ok 決定"),
    ((Button.FLEE, Button.ITEM, Button.RANGED), "hold I next 次 · A ok 決定")])
def test_the_footer_says_how_the_buttons_move(screen: ScreenDisplay,
                                              buttons: tuple[Button | None, ...],
                                              legend: str) -> None:
    """Buttons-only audit F4: the boxes show number keys, which a player with the four
    buttons has not, and nothing said I moves on, B or R back (unless an option is theirs:
    then I's long press moves on) and A takes the one highlighted."""
    options = (*(Option(str(n), f"Option {n}", b) for n, b in enumerate(buttons)),
               Option("last", "Last 最後"))
    texts = texts_drawn(screen)
    screen.render(replace(example_view(), prompt="What next? 次は？", options=options,
                          highlight=None))
    assert legend in texts


@pytest.mark.needs_japanese_font
def test_the_button_legend_gives_way_to_a_prompt_it_would_cut(screen: ScreenDisplay) -> None:
    """The prompt reads whole first: beside a short prompt the legend is drawn; a prompt
    the legend would cut is wrapped whole on the rows it needs, the legend beside it only
    where they fit (else left out, the prompt on the footer's width)."""
    options = (Option("a", "Fight 戦う"), Option("b", "Defend 防御"))
    whole = screen.width - screen.m(20)
    for prompt, legend in (("What next? 次は？", True),
                           ("Found 武器 weapon (2): equip it instead of メイス mace (2)? "
                            "装備を替える？ Found 武器 weapon (2): equip it instead", False)):
        drawn = spy_text(_fresh(screen))
        screen.render(replace(example_view(), prompt=prompt, options=options))
        rows = [d for d in drawn if d.text and d.text in prompt]
        assert " ".join(d.shown for d in rows) == prompt
        if legend:
            (row,) = rows
            assert row.width < whole, prompt


def test_a_short_menu_stays_one_row(screen: ScreenDisplay) -> None:
    screen.render(example_view())
    assert len({rect.y for rect, _ in screen._targets}) == 1
    assert screen._more is None


@pytest.mark.needs_japanese_font
def test_a_tile_prompt_keeps_what_the_tile_is_for_over_a_status_of_one_row(
        screen: ScreenDisplay) -> None:
    """The tile's purpose ends the prompt: over a status of one row it has a second row, in
    a footer no taller (the room, sheet and log keep the body); a longer status keeps the
    rows it had, and the prompt its end (what the tile is for)."""
    at_own_text_size(screen)
    drawn = spy_text(screen)
    lifted = ("3m 三萬 lifted: it still counts in 2 s — B takes it back "
              "取っても2秒で確定、Bで取り消し")
    view = replace(example_view(), prompt=TILE_PROMPT, options=(), status=lifted,
                   prompt_tile="3m")
    screen.render(view)
    # (A word of the Log's wrapped rows may be in the prompt too: "1".)
    prompt = [d for d in drawn if d.text in TILE_PROMPT
              and not any(d.text in line for line in view.log)]
    assert " ".join(d.shown for d in prompt) == TILE_PROMPT
    assert [d.shown for d in drawn if d.text == lifted] == [lifted]
    assert screen._footer_height(view) == screen._footer_height(replace(view, status=""))
    drawn.clear()
    long_status = " ".join([lifted] * 3)
    screen.render(replace(view, status=long_status))
    prompt = [d for d in drawn if d.text in TILE_PROMPT
              and not any(d.text in line for line in view.log)]
    assert prompt and prompt[-1].shown.endswith("(判定 1d9 >= 3)")
    assert len([d for d in drawn if d.text in long_status and not d.cut]) > 1


@pytest.mark.needs_japanese_font
def test_a_prompt_that_runs_on_keeps_its_end(screen: ScreenDisplay) -> None:
    """Four attackers over a menu of two rows: the prompt's one row was cut at its end,
    losing "attack! 攻撃！", what is asked; it is cut in its middle, among the names."""
    names = ", ".join(["ケンタウロス centaur", "水苔の怪物 aquator", "レプラコーン leprechaun",
                       "グリフォン griffin", "ゼロックス xeroc"])
    prompt = f"{names} attack! 攻撃！"
    drawn = spy_text(screen)
    screen.render(replace(example_view(), prompt=prompt, options=RING_MENU, highlight=0))
    (row,) = [d for d in drawn if d.text == prompt]
    assert "…" in row.shown and row.shown.endswith("attack! 攻撃！")
    assert row.shown.startswith("ケンタウロス centaur")


# ---- 2. fight-menu labels take a second row, and a cut keeps their end -------------------

def test_fight_target_labels_wrap_and_stay_apart(screen: ScreenDisplay) -> None:
    """Targets whose labels start alike (ジャイアント・アント1, …2, …3): each label is drawn
    in two rows, and where it is still cut the cut is in the middle, so the number that
    tells them apart is drawn."""
    options = tuple(Option(f"t:{n}", f"ジャイアント・アント{n} Giant Ant {n}") for n in (1, 2, 3)) \
        + tuple(Option(f"t:{n}", f"アンデッド・コープス{n} Undead Corpse {n}") for n in (1, 2)) \
        + (Option("t:6", "オーク・ウォーリア1 Orc Warrior 1"), Option("t:8", "ゴースト Ghost"),
           Option("back", "Back 戻る", Button.FLEE))
    view = replace(example_fight_view(), options=options, highlight=0)
    drawn = spy_text(screen)
    screen.render(view)
    labels = [d for d in drawn if d.label]
    rows = 2 if screen.has_cjk else 1  # without a Japanese font the English alone fits a row
    lasts = []
    for n, option in enumerate(options[:6]):
        first, last = labels[rows * n], labels[rows * n + rows - 1]
        assert first.text.startswith("[") and (rows == 1 or not last.text.startswith("["))
        assert last.shown.endswith(option.label.split()[-1]), last.shown
        lasts.append(last.shown)
    assert len(set(lasts)) == len(lasts)


# ---- 3. the PC sheet wraps a long line --------------------------------------------------

def test_a_long_sheet_line_wraps_instead_of_being_cut(screen: ScreenDisplay) -> None:
    sheet = replace(_sheet(), rings=(
        Name("鎧保護の指輪", "ring of armour protection"), Name("隠密の指輪", "ring of stealth")),
        items=("手裏剣 shuriken ×18 (+2)", "回復薬 healing potion ×3"))
    drawn = spy_text(screen)
    screen.render(replace(example_view(), sheet=sheet))
    sheet_rows = [d for d in drawn if d.size == screen.m(15)]
    assert not [d.text for d in sheet_rows if d.cut]
    text = " ".join(d.text for d in sheet_rows)
    assert "ring of stealth" in text and "healing potion ×3" in text


# ---- 4. a monster's detail wraps beside its tile ----------------------------------------

def test_a_long_room_detail_wraps_in_its_cell(screen: ScreenDisplay) -> None:
    at_own_text_size(screen)
    detail = "起 awake, haste 倍速, sealed 封魔"
    tiles = (TileView("5m", Name("メデューサ", "medusa"), detail), *example_view().room_tiles[1:])
    drawn = spy_text(screen)
    screen.render(replace(example_view(), room_tiles=tiles))
    rows = [d for d in drawn if d.text and d.text in detail and d.size == screen.m(14)]
    assert not [d.text for d in rows if d.cut]
    assert " ".join(d.text for d in rows) == detail
    assert len(rows) == 2


# ---- 5. many combatants: rows never overlap, each says its state -------------------------


@pytest.mark.parametrize("acting", [0, 5, 12])
def test_many_combatants_show_a_window_of_whole_rows(screen: ScreenDisplay,
                                                     acting: int) -> None:
    view = _big_fight(acting)
    rows: list[tuple[FighterView, pygame.Rect]] = []
    fighter = screen._fighter

    def spy(*args: Any) -> None:
        rows.append((args[0], next(a for a in args if isinstance(a, pygame.Rect))))
        fighter(*args)

    screen.__dict__["_fighter"] = spy
    drawn = spy_text(screen)
    screen.render(view)
    rects = [rect for _, rect in rows]
    assert all(rect.h >= screen.m(24) for rect in rects)
    assert all(a.bottom <= b.top for a, b in itertools.pairwise(rects))
    assert view.fight is not None
    assert any(f.acting for f, _ in rows)
    more = [d.text for d in drawn if "more" in d.text and d.text[0] in "▲▼"]
    hidden = len(view.fight.fighters) - len(rows)
    assert hidden > 0 and sum(int(t.split()[1]) for t in more) == hidden
    texts = " ".join(d.shown or d.text for d in drawn)
    for f, _ in rows:
        if f.conditions:
            condition = f.conditions[0] if screen.has_cjk else without_cjk(f.conditions[0])
            assert condition.split()[0] in texts


# ---- 6. a long table walk is never cut silently ------------------------------------------

LONG = ("判定−1/−1 to all checks; an active action needs a vitality check vs toxicity 8 "
        "(default: DM Lv 1 + 7), and is still at −1 (−1 in all: does not stack)")
# Too long at the tray's own row step, whole with its rows a step closer (at 14 px: its
# text is set no smaller, accessibility audit M2; seven fitted 12 px rows before).
TRAY_STEPS_FITTING_SMALLER = 6


def _tray(steps: int) -> View:
    dice = DiceView("毒 Poison (EV-POI-4)", (1, 1), ("(1D6) ＞ 1",),
                    tuple(DiceStep(f"EV-POI-{n}", LONG, n % 2) for n in range(steps)))
    return replace(example_view(), dice=dice)


def test_a_long_table_walk_shrinks_then_says_how_many_steps_are_not_shown(
        screen: ScreenDisplay) -> None:
    """Too long at any size, the walk keeps whole steps and its last row counts the rest
    (a76events DEFECT 1: it was cut inside a step, with an ellipsis)."""
    at_own_text_size(screen)
    drawn = spy_text(screen)
    screen.render(_tray(TRAY_STEPS_FITTING_SMALLER))
    walk = [d for d in drawn if d.text.rstrip("…") and d.text.rstrip("…") in LONG]
    assert not [d for d in walk if d.text.endswith("…") or d.cut]
    assert sum(1 for d in walk if d.text.startswith("判定")) == TRAY_STEPS_FITTING_SMALLER
    assert min(d.size for d in walk) >= screen.m(14)
    drawn.clear()
    screen.render(_tray(12))  # does not fit at any size: the last row says so
    shown = sum(1 for d in drawn if d.text.startswith("判定"))
    assert 0 < shown < 12
    assert not [d for d in drawn if d.text.endswith("…") and d.text.rstrip("…") in LONG]
    left = 12 - shown
    assert [d.text for d in drawn if "not shown" in d.text] == [
        f"+{left} more not shown 他{left}件は表示しきれず"]


# ---- 7. panel titles fit their panel --------------------------------------------------------

def test_a_long_panel_title_stays_inside_its_panel(screen: ScreenDisplay) -> None:
    fight = replace(_fight(),
                    title="vs ジャイアント・アント Giant Ant ×3, アンデッド・コープス "
                          "Undead Corpse ×2, オーク・ウォーリア Orc Warrior ×2, ゴースト Ghost")
    surface = screen.render(replace(example_fight_view(), fight=fight))
    m = screen.m
    split = screen.width * 53 // 100  # the gap between the combatants and the result
    gap = range(split - m(2), split + m(2))
    assert all(tuple(surface.get_at((x, y)))[:3] == BACKGROUND
               for x in gap for y in range(m(42), m(60)))


# ---- 8. no Japanese font ------------------------------------------------------------------

def test_without_cjk_the_north_arrow_is_plain() -> None:
    assert without_cjk("Board 盤面 · N↑ 北") == "Board · N^"
    assert without_cjk("▲ 2 more ▼") == "^ 2 more v"


def test_without_cjk_a_combatant_is_named_in_english_or_by_place() -> None:
    display = ScreenDisplay("800x480", find_font=False)
    fight = example_fight_view().fight
    assert fight is not None
    party = Name("味方", "party")
    fighters = (FighterView(Name("駆け出し冒険者１", "PC 1"), party, 12, 12),
                FighterView(Name("山田太郎左衛門", "山田太郎左衛門"), party, 12, 12),
                *fight.fighters[2:])
    drawn = spy_text(display)
    display.render(replace(example_fight_view(), fight=replace(fight, fighters=fighters)))
    display.close()
    names = [d.text for d in drawn if d.size == display.m(16)]
    assert "PC 1" in names and "#2" in names


def test_without_cjk_every_option_label_is_one_size() -> None:
    display = ScreenDisplay("800x480", find_font=False)
    options = (Option("ok", "OK 了解", Button.ATTACK), Option("no", "No", Button.FLEE),
               Option("x", "Remove ring of armour protection 鎧保護の指輪"))
    drawn = spy_text(display)
    display.render(replace(example_view(), options=options, highlight=0))
    display.close()
    sizes = {d.size for d in drawn if d.label}
    assert len(sizes) == 1


# ---- 9. a lost game's HP --------------------------------------------------------------------

def test_the_header_shows_no_negative_hp(screen: ScreenDisplay) -> None:
    sheet = replace(_sheet(), hp=-12, hp_max=24)
    texts = texts_drawn(screen)
    screen.render(replace(example_view(), sheet=sheet))
    assert "HP 0/24" in texts and "HP -12/24" not in texts


# ---- 10. the System menu's hint ---------------------------------------------------------------

def test_the_header_says_how_the_system_menu_opens_when_it_does(screen: ScreenDisplay) -> None:
    """Buttons-only audit F1: nothing on the screen led to a new game, another mode or a safe
    power-off. The header says how the System menu opens, where a session offers it, beside
    the HP bar and the title, not over them; where it is not offered it says nothing."""
    at_own_text_size(screen)
    for view in (example_view(), example_fight_view()):
        texts = texts_drawn(_fresh(screen))
        screen.render(replace(view, system=True))
        assert SYSTEM_HINT in texts
        texts = texts_drawn(_fresh(screen))
        screen.render(view)
        assert SYSTEM_HINT not in texts
    _fresh(screen).render(replace(example_view(), system=True))
    header = screen.surface.subsurface(pygame.Rect(0, 0, screen.width, screen.m(38))).copy()
    _fresh(screen).render(example_view())
    plain = screen.surface.subsurface(pygame.Rect(0, 0, screen.width, screen.m(38)))
    changed = [x for x in range(screen.width) if any(
        header.get_at((x, y)) != plain.get_at((x, y)) for y in range(header.get_height()))]
    hp_label = screen.width - screen.m(210) - screen.m(8)
    assert changed and max(changed) < hp_label - screen.m(40)  # clear of "HP 12/13"
    title = screen._text(example_view().where, screen.m(20))
    assert min(changed) > screen.m(10) + title.get_width()


@pytest.mark.needs_japanese_font
def test_the_system_hint_gives_way_to_a_long_title(screen: ScreenDisplay) -> None:
    long = replace(message_view("?"), title="雀ローグ " * 30)
    hinted = pygame.image.tobytes(screen.render(replace(long, system=True)), "RGB")
    assert hinted == pygame.image.tobytes(screen.render(long), "RGB")
    short = replace(long, title="雀ローグ")
    hinted = pygame.image.tobytes(screen.render(replace(short, system=True)), "RGB")
    assert hinted != pygame.image.tobytes(screen.render(short), "RGB")
