"""What the JongRogue mode puts on the screen: the room panel and the PC sheet, as the view
the mode builds over a real game played by the seeded auto-player (the screen audit's games:
seed 0 cautious, seed 31 reckless)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion.app.modes.jongrogue import JongRogueMode, monster_detail, options_for
from companion.hw.display.fonts import without_cjk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from companion.systems.jongrogue.actions import ChoiceRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.state import MonsterOnMap
from tests.hw.screen_layout_helpers import spy_text


def played(seed: int, inputs: int, strategy: str = "cautious") -> View:
    """The screen after ``inputs`` answers of the auto-player's game on seed ``seed``."""
    game = Game("plus")
    player = HeadlessPlayer(seed, strategy)
    mode = JongRogueMode(game, player)
    while len(game.inputs) < inputs:
        mode.push(player.answer(game))
    return mode.view("")


def details(view: View) -> list[str]:
    return [tile.detail for tile in view.room_tiles]


def monsters(seed: int, inputs: int) -> list[MonsterOnMap]:
    """The monsters of seed ``seed``'s game after ``inputs`` answers."""
    game = Game("plus")
    player = HeadlessPlayer(seed, "cautious")
    while len(game.inputs) < inputs:
        game.push(player.answer(game))
    return list(game.monsters)


def test_spare_rings_are_grouped_by_kind_and_worn_ones_counted() -> None:
    """Seed 0 holds 14 spare rings at its 1031st answer: the Items line listed each one,
    "飾りの指輪 ring of adornment (spare)" fourteen times over; now each kind once, ×n."""
    sheet = played(0, 1031).sheet
    assert sheet is not None
    assert sheet.items[-1] == ("予備の指輪 spare rings: 飾り adornment ×4, 増強 strength ×4, "
                               "隠密 stealth ×4, 鎧保護 armour protection ×2")
    assert not any("(spare)" in item for item in sheet.items)
    # the worn ones by their kind too, under the line's "Rings 指輪" (screen66 RISK 1)
    assert [str(ring) for ring in sheet.rings] == ["鎧保護 armour protection ×2"]


def test_a_monster_s_state_and_flags_fit_its_detail_line() -> None:
    """The sleep state first, then each flag, all English first with the Japanese term beside
    it (the state was Japanese first, the flags English first: "眠 asleep, hasted 倍速")."""
    view = played(0, 75)
    assert details(view)[1] == "asleep 眠, haste 倍速"
    assert "awake 起, sealed 封魔" in details(played(0, 363))
    kestrel = next(m for m in monsters(0, 75) if m.alive and m.hasted)
    every = replace(kestrel, invisible=True, sealed=True, on_gold=2)
    detail = monster_detail(every, extended=True)
    assert detail == "asleep 眠, haste 倍速, invisible 透明, sealed 封魔, on gold 金塊の上"
    assert without_cjk(detail) == "asleep, haste, invisible, sealed, on gold"


def test_a_thief_gone_with_its_loot_is_shown_vanished_not_defeated() -> None:
    """Seed 3 (reckless): a nymph vanished with what it stole (JR-AB-STEALITEM); its spot
    read "(no tile) defeated 撃破"."""
    view = played(3, 548, "reckless")
    assert details(view) == ["", "vanished 消えた", "defeated 撃破", "90 gold"]
    assert [str(tile.meaning) for tile in view.room_tiles[1:3]] == ["空き (no tile)"] * 2


def test_an_empty_spot_says_taken_or_defeated_in_both_languages() -> None:
    view = played(0, 70)
    assert details(view) == ["taken 取得", "defeated 撃破", "taken 取得", "taken 取得"]
    assert all(str(tile.meaning) == "空き (no tile)" for tile in view.room_tiles)


def test_the_room_panel_shows_the_room_being_laid() -> None:
    """While room 7's four tiles are laid the panel said "no room revealed yet": now the tiles
    laid, the spot the next one goes on, the spots still to lay."""
    laying = played(0, 3)
    assert [(t.tile, str(t.meaning), t.detail) for t in laying.room_tiles] == [
        ("9s", "配置済み laid", "room 7 部屋7"), ("3m", "配置済み laid", "room 7 部屋7"),
        ("back", "次に置く lay next", "room 7 部屋7"), ("empty", "未配置 to lay", "")]
    first = played(0, 1)
    assert [t.tile for t in first.room_tiles] == ["back", "empty", "empty", "empty"]
    revealed = played(0, 5)  # all four laid: the room with its meaning
    assert [str(t.meaning) for t in revealed.room_tiles] == [
        "金塊 gold", "大うずら emu", "鎧保護の指輪 ring of armour protection", "床 empty floor"]


def test_game_over_is_said_in_japanese_too() -> None:
    """"Game over on floor 19." was English alone; without a Japanese font it reads so still."""
    closing = JongRogueMode(Game("plus")).closing()
    assert closing == "Game over ゲームオーバー on floor 1 (1階)"
    assert without_cjk(closing) == "Game over on floor 1"


def choosing(seed: int, inputs: int, strategy: str = "cautious",
             prompt: str = "") -> View:
    """The menu of seed ``seed``'s game (``strategy``'s) after ``inputs`` answers, as play
    shows it: the options the mode offers, their highlight, the room and the sheet."""
    game = Game("plus")
    player = HeadlessPlayer(seed, strategy)
    mode = JongRogueMode(game, player)
    while len(game.inputs) < inputs:
        mode.push(player.answer(game))
    request = game.pending
    assert isinstance(request, ChoiceRequest)
    options, highlight = options_for(game, request)
    prompt = prompt or f"Floor {game.floor}, room {game.room_no}: what next?"
    return mode.view(prompt, options=options, highlight=highlight)


@pytest.fixture(params=["800x480", "1024x600"])
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    display = ScreenDisplay(request.param)
    yield display
    display.close()


def test_a_ten_option_menu_with_two_rings_on_reads_whole(screen: ScreenDisplay) -> None:
    """The table audit's room (two rings worn, ten options, a ring in the room) showed
    "[0] Remove ring of armour prote…鎧保護の指輪を外す" and a caption "ring of armour pr…"
    at 1024x600, worse at 800x480. Seed 0 at its 97th answer has ten options, the last
    Remove 鎧保護の指輪; seed 1 at its 92nd has ten options and 鎧保護の指輪 lying in the
    room. Every label and caption is drawn whole, a label broken between its English and its
    Japanese, never inside either. (Accessibility M1: rather than shrink under 14 px to
    stay whole, an English half too long is cut, its key and verb kept: label audit 54.)"""
    worn = choosing(0, 97)
    assert len(worn.options) == 10
    assert worn.options[-1].label == "Doff armour protection 鎧保護を外す"
    lying = choosing(1, 92)
    assert len(lying.options) == 10
    assert "ring of armour protection" in [t.meaning.en for t in lying.room_tiles]
    for view in (worn, lying):
        drawn = spy_text(screen)
        screen.render(view)
        labels = [d for d in drawn if d.label]
        assert all(d.size >= screen.m(14) for d in labels)
        cut = [d for d in labels if d.cut]
        assert all(d.shown.startswith(" ".join(d.text.split(" ")[:2]) + " ")
                   and "…" in d.shown for d in cut)
        assert all(without_cjk(d.text) == d.text for d in cut)  # the Japanese halves whole
        names = {part for tile in view.room_tiles for part in (tile.meaning.ja,
                                                                tile.meaning.en)}
        captions = [d for d in drawn if not d.label and d.text
                    and any(d.text in name for name in names)]
        assert not [d.shown for d in captions if d.cut]
        if view is worn and screen.has_cjk:  # (without it the English alone is drawn)
            # The ring's label: its English (in the rows it takes), then its Japanese whole.
            rows = [d.text for d in labels]
            first = next(n for n, row in enumerate(rows) if row.startswith("[0]"))
            assert rows[first:first + 2] == ["[0] Doff armour protection", "鎧保護を外す"]
    # The ring lying in the room: its English name in two rows, not cut.
    ring = [d.text for d in captions if d.text in "ring of armour protection"]
    assert " ".join(ring) == "ring of armour protection"


@pytest.mark.parametrize(("seed", "strategy", "inputs", "label"), [
    (3, "reckless", 557, "[9] Wear stealth 隠密を装備"),
    (3, "cautious", 1100, "[4] Fire xeroc TR ゼロックスを射撃"),
])
@pytest.mark.needs_japanese_font
def test_a_ring_or_a_shot_in_a_grid_box_reads_whole_at_800x480(
        seed: int, strategy: str, inputs: int, label: str) -> None:
    """A grid of twelve at 800x480 has boxes 123 px wide: "[9] Equip ring of stealth" was
    drawn "[9] Eq…f stealth" and "[4] Shoot xeroc TR" "[4] Sh…xeroc TR" (display audit 54,
    item 1). A ring is named by its kind, worn or doffed, and a shot is fired: both halves
    read whole, each in its row."""
    view = choosing(seed, inputs, strategy, "what next?")
    screen = ScreenDisplay("800x480")
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    rows = [d for d in drawn if d.label]
    first = next(n for n, d in enumerate(rows) if d.text.startswith(label[:4]))
    assert " ".join(d.shown for d in rows[first:first + 2]) == label
    assert not any(d.cut for d in rows[first:first + 2])


@pytest.mark.parametrize(("seed", "strategy", "inputs", "english"), [
    (2, "cautious", 635, "[A] Fight centaur"),
    (1, "cautious", 1409, "[A] Fight dragon"),
])
@pytest.mark.needs_japanese_font
def test_a_monster_alone_of_its_name_is_fought_without_its_spot_and_reads_whole(
        seed: int, strategy: str, inputs: int, english: str) -> None:
    """In a grid box at 800x480 "[A] Fight centaur BL" was drawn "[A] Fi…entaur BL" and
    "[A] Fight dragon TL" "[A] F…dragon TL" (label audit 54): the spot told apart nothing,
    no other centaur or dragon being in the room, and took the room the verb needed."""
    view = choosing(seed, inputs, strategy, "what next?")
    screen = ScreenDisplay("800x480")
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    rows = [d for d in drawn if d.label and d.text.startswith("[A] ")]
    assert [(d.text, d.shown) for d in rows] == [(english, english)]


@pytest.mark.needs_japanese_font
def test_a_label_still_too_long_for_its_box_keeps_its_verb() -> None:
    """Seed 2's ring of adornment, worn, offered off in a grid of twelve at 800x480: "[9]
    Doff adornment" is 127 px in a box that holds 113 px at 14 px, and was drawn "[9]
    D…dornment", the verb lost (label audit 54). Now the key and verb stay whole, and the
    Japanese row under it (飾りを外す) reads whole."""
    view = choosing(2, 39, "cautious", "what next?")
    screen = ScreenDisplay("800x480")
    drawn = spy_text(screen)
    screen.render(view)
    screen.close()
    rows = [d for d in drawn if d.label]
    first = next(n for n, d in enumerate(rows) if d.text == "[9] Doff adornment")
    assert rows[first].shown.startswith("[9] Doff ad") and "…" in rows[first].shown
    if screen.has_cjk:
        assert (rows[first + 1].text, rows[first + 1].cut) == ("飾りを外す", False)


def test_a_gold_pile_a_gold_lover_sits_on_says_so_and_the_free_one_does_not() -> None:
    """Seed 4 at its 508th answer: an orc (JR-AB-GOLDLOVER) sits on the pile at spot 0 of a
    room with two. The monster's line said "on gold" but both piles read "N gold" alike, so
    the player could not tell which one was free to take (rules revision 6)."""
    view = played(4, 508)
    gold = [(spot, tile.detail) for spot, tile in enumerate(view.room_tiles)
            if tile.meaning.en == "gold"]
    assert [spot for spot, _ in gold] == [0, 3]
    assert gold[0][1].endswith(", under orc オークの下")
    assert " under " not in gold[1][1]
    assert without_cjk(gold[0][1]) == gold[0][1].split(",")[0] + ", under orc"
