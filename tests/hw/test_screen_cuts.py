"""What the screen does with text longer than its place: a log line longer than the log, a
message longer than one line, a long status, similar long names, a long fight result, no
Japanese font. Nothing a player needs may vanish silently: a cut ends (or starts) with ``…``.

Real views are drawn through :class:`ScreenDisplay` on SDL's dummy driver; what was drawn
is read back from the text it fitted (the spy of ``tests/hw/test_screen_layout.py``).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from pathlib import Path

import pygame
import pygame.freetype
import pytest

from companion.hw.buttons import Button
from companion.hw.display.fonts import FontFile, find_cjk_font, without_cjk
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    FighterView,
    Name,
    Option,
    PieceView,
    View,
    example_fight_view,
    example_view,
    message_view,
)
from tests.hw.screen_layout_helpers import RING_MENU, Drawn, at_own_text_size, spy_text, texts_drawn
from tests.hw.screen_view_helpers import TROUBLE, cultists, fight_of

# ---- the newest log line longer than the log box -----------------------------------------

LONG_LOG = "R1 initiative: " + ", ".join(
    f"Cultist of the Esoteric Order {i} (DEX 11, 1D100={10 * i})" for i in range(1, 9))


@pytest.mark.parametrize("board", [False, True])
def test_a_log_line_longer_than_the_log_shows_its_start_not_a_blank_log(
        screen: ScreenDisplay, board: bool) -> None:
    """Whose action it is opens the entry: cut from the front, a CoC entry read
    "…決定的成功/スペシャル" (display audit 56, item 6)."""
    view = example_fight_view()
    fight = replace(fight_of(view), log=(*fight_of(view).log, LONG_LOG))
    if board:
        fight = replace(fight, board=BoardView(8, 8, (PieceView(1, 1, "P"),)))
    drawn = spy_text(screen)
    screen.render(replace(view, fight=fight))
    rows = [d for d in drawn if d.text.rstrip("…") and d.text.rstrip("…") in LONG_LOG]
    assert rows, "the log is blank"
    assert rows[0].text.startswith("R1 initiative: ") and rows[-1].text.endswith("…")


# ---- a message screen: its whole question, in the body -----------------------------------

QUESTION = ("the save could not be read (/home/pi/.local/share/companion/save.json: not valid "
            "JSON (Expecting property name enclosed in double quotes: line 1 column 14)); it "
            "was kept as /home/pi/.local/share/companion/save.json.corrupt-20261204-1651. "
            "Start a new game?")


@pytest.mark.needs_japanese_font
def test_a_message_screen_shows_its_whole_question_and_no_empty_game_panels(
        screen: ScreenDisplay) -> None:
    options = (Option("new", "New game 新しいゲーム", Button.ATTACK),
               Option("quit", "Quit 終了", Button.FLEE))
    drawn = spy_text(screen)
    screen.render(message_view(QUESTION, options))
    shown = " ".join(d.shown for d in drawn if not d.label)
    assert "…" not in shown
    assert "".join(QUESTION.split()) in "".join(shown.split())  # (a path wraps anywhere)
    assert not [d for d in drawn if d.text.startswith(("Room", "Log", "Last check"))]


def test_each_line_of_a_message_starts_a_row_of_its_own(screen: ScreenDisplay) -> None:
    """Settings notices, one a line, were run together with a box for each line end."""
    lines = ("Settings 設定: config.toml: input.kind must be one of camera, rfid, sim; found "
             "'RFID'; using the default 'camera'", "config.toml: unknown setting 'input.knd'")
    drawn = spy_text(screen)
    screen.render(message_view("\n".join(lines), (Option("ok", "OK 了解", Button.ATTACK),)))
    rows = [d.text for d in drawn if not d.label]
    assert not [row for row in rows if "\n" in row]
    assert rows[-1] == lines[1] and any(row.startswith("Settings 設定") for row in rows)


# ---- the status: the footer's free rows, and a cut that says so ------------------------


def _status_rows(drawn: list[Drawn], status: str = TROUBLE) -> list[Drawn]:
    log = example_view().log  # its wrapped rows may be words of the status too ("1")
    return [d for d in drawn if not d.label and d.text and d.text in status
            and not any(d.text in line for line in log)]


def test_a_fight_waiting_for_a_throw_gives_the_status_the_footer_beside_back(
        screen: ScreenDisplay) -> None:
    at_own_text_size(screen)
    view = replace(example_fight_view(), prompt="Throw 2D6 in the dice area 2D6を振って",
                   options=(Option("back", "Back 戻る", Button.FLEE),), highlight=None,
                   status=TROUBLE)
    drawn = spy_text(screen)
    screen.render(view)
    rows = _status_rows(drawn)
    assert not [d for d in rows if d.cut]
    assert "".join(" ".join(d.text for d in rows).split()) == "".join(TROUBLE.split())


def test_a_status_longer_than_its_rows_ends_with_an_ellipsis(screen: ScreenDisplay) -> None:
    """(Beside options the footer gives a long status up to five rows more from the body:
    four troubles are longer than that.)"""
    drawn = spy_text(screen)
    status = " · ".join([TROUBLE] * 4)
    screen.render(replace(example_view(), status=status))
    rows = _status_rows(drawn, status)
    assert len(rows) >= 2 and rows[-1].cut
    assert not [d for d in rows[:-1] if d.cut]


BUSY = ("read 5p 五筒, counts in 8 s 8秒で確定; cannot open /dev/ttyACM0: another program is "
        "using it (the companion service jongrogue-companion, a game, `companion rfid monitor` "
        "or `calibrate rfid`); stop that one first, e.g. sudo systemctl stop "
        "jongrogue-companion 他のプログラムが使用中")


def test_a_reader_fault_beside_a_read_on_offer_reads_whole(screen: ScreenDisplay) -> None:
    """Beside a read on offer and its Accept and Reject, the longest reader fault (the port
    busy, rfid/link.py) was cut after three rows at 800x480, its remedy lost (display audit
    54, item 3): the footer takes rows from the body for it, and the tile's picture does not
    grow with them."""
    view = replace(example_view(), prompt="Draw a tile and put it on the draw slot",
                   prompt_tile="5p", status=BUSY, highlight=None,
                   options=(Option("accept", "Accept 確定", Button.ATTACK),
                            Option("reject", "Reject やり直し", Button.FLEE)))
    drawn = spy_text(screen)
    screen.render(view)
    rows = _status_rows(drawn, BUSY)
    assert rows and not [d.shown for d in rows if d.cut]
    assert "".join(" ".join(d.text for d in rows).split()) == "".join(BUSY.split())


# ---- similar long names: the end that tells them apart stays ----------------------------


@pytest.mark.parametrize("board", [False, True])
@pytest.mark.needs_japanese_font
def test_similar_long_names_keep_the_end_that_tells_them_apart(
        screen: ScreenDisplay, board: bool) -> None:
    view = cultists(board)
    drawn = spy_text(screen)
    screen.render(view)
    # (``label`` here: fitted by ``_fit_middle``, as option labels are)
    names = [d for d in drawn if "狂信者" in d.text and d.size == screen.m(16)
             and d.text.startswith(("C", "▶"))]
    # (with larger text, a window of the rows around the acting one: each still told apart)
    first = int(names[0].shown[-1]) if screen.text_scale != 1.0 else 1
    assert [d.shown[-1] for d in names] == [str(i) for i in range(first, 9)][:len(names)]
    assert len({d.shown for d in names}) == len(names) >= (8 if first == 1 else 4)
    assert all(d.width >= screen.m(90) for d in names)  # beside the board too
    turn = [d for d in drawn if "Order 6" in d.text and not d.text.startswith("[")]
    assert turn and turn[0].shown.endswith("Order 6")  # the heading: whose turn it is


def test_beside_the_board_a_short_name_keeps_all_its_pools(screen: ScreenDisplay) -> None:
    at_own_text_size(screen)
    view = cultists(True)
    party = Name("味方", "party")
    fighters = (FighterView(Name("A Ann", "A Ann"), party, 11, 11, 12, 12, ("d3 NE",), san=60),
                *fight_of(view).fighters[:3])
    drawn = spy_text(screen)
    screen.render(replace(view, fight=replace(fight_of(view), fighters=fighters)))
    under = [d.text for d in drawn if d.text.endswith(("d3 NE", "c3 N"))]
    # Ann's pools all beside her name, her square alone under it; a cultist's name needs
    # the room: its MP and SAN go under, before its square.
    assert under[0] == "d3 NE" and under[1].startswith("MP 10/10")


# ---- a fight's result longer than its panel -----------------------------------------------

def _result(count: int) -> View:
    view = example_fight_view()
    order = ", ".join(f"Cultist of the Order of Dagon {i} {i * 7}(DEX 11, 1D100={i * 11})"
                      for i in range(1, count + 1))
    fight = replace(fight_of(view), result=(DiceStep("CO-BASE-5", f"initiative 行動順: {order}"),))
    return replace(view, fight=fight)


def _result_rows(drawn: list[Drawn], view: View) -> list[Drawn]:
    text = fight_of(view).result[0].text
    return [d for d in drawn if d.text.rstrip("…") and d.text.rstrip("…") in text]


@pytest.mark.needs_japanese_font
def test_a_long_fight_result_shrinks_then_ends_with_an_ellipsis(screen: ScreenDisplay) -> None:
    at_own_text_size(screen)
    # Too long at the result's own row step (at 800x480), whole with its rows closer, at
    # 14 px still (accessibility audit M2: it went to 12 px; eight fitted so, nine before
    # the menu's taller boxes, audit H2).
    view = _result(7)
    drawn = spy_text(screen)
    screen.render(view)
    rows = _result_rows(drawn, view)
    assert rows[-1].text.endswith("1D100=77)") and not [d for d in rows if d.cut]
    assert min(d.size for d in rows) >= screen.m(14)
    drawn.clear()
    view = _result(14)  # does not fit at any size: the last row says so
    screen.render(view)
    rows = _result_rows(drawn, view)
    assert rows[-1].text.endswith("…") or rows[-1].cut


# ---- every word on the screen in both languages ------------------------------------------

@pytest.mark.needs_japanese_font
def test_the_empty_room_and_the_next_page_are_said_in_japanese_too(
        screen: ScreenDisplay) -> None:
    texts = texts_drawn(screen)
    screen.render(replace(example_view(), room_tiles=()))
    assert any("revealed" in t and "部屋" in t for t in texts)
    texts.clear()
    screen.render(replace(example_view(), options=RING_MENU, highlight=0))
    assert any(t.startswith("[M") and "次へ ▶" in t for t in _rows_joined(texts))


@pytest.mark.needs_japanese_font
def test_the_page_box_says_which_page_is_shown_and_that_it_turns_to_the_next(
        screen: ScreenDisplay) -> None:
    """It read "more 次へ ▶ 2/2" on page 1 and "▶ 1/2" on page 2: the page it turns to,
    read as the page shown. The label may take two rows of the box, each drawn alone (the
    screen renders only the text shown), so the texts drawn are read joined. With larger
    text it is shorter, never cut: cut in the middle at 1024x600 (``[M×11]…next`` over
    ``次へ ▶``), it lost the page (stop 63)."""
    texts = texts_drawn(screen)
    for highlight, page in ((0, "1/2"), (len(RING_MENU) - 1, "2/2")):
        texts.clear()
        screen.render(replace(example_view(), options=RING_MENU, highlight=highlight))
        label = rf"\[M[^\]]*\] (page )?{page}( · next)? 次へ ▶"
        assert any(re.fullmatch(label, t) for t in _rows_joined(texts)), texts
        assert not any("…" in t and "次へ" in t for t in _rows_joined(texts)), texts
        if screen.text_scale == 1.0:  # at its own size it reads whole
            assert any(f"page {page} · next 次へ ▶" in t for t in _rows_joined(texts)), texts


def _rows_joined(texts: list[str]) -> list[str]:
    """Each text drawn, and each joined with the next: a label of two rows reads whole."""
    return [*texts, *(f"{a} {b}" for a, b in itertools.pairwise(texts))]


def test_without_cjk_an_english_name_keeps_its_bracketed_cost() -> None:
    assert without_cjk("Sleep 睡眠 (MP)") == "Sleep (MP)"
    assert without_cjk("ジャバウォック (jabberwock)") == "jabberwock"


def test_without_cjk_the_example_fight_names_who_acts_and_whom() -> None:
    display = ScreenDisplay("800x480", find_font=False)
    drawn = spy_text(display)
    display.render(example_fight_view())
    display.close()
    shown = [d.shown for d in drawn]
    assert any("turn" in s and s.endswith("Orc 1") for s in shown)
    assert any(s.startswith("PC 1 attacks") and "Orc 2" in s for s in shown)
    assert any(s.startswith("R2 PC 1 attacks Orc 2") for s in shown)


# ---- beside a name: a few words, or nothing ------------------------------------------

def test_a_row_shows_no_useless_fragment_of_the_english_name(screen: ScreenDisplay) -> None:
    """Names of every length leave every width of room beside them: what is drawn there is
    at least four characters of the English (``Gian…``), never ``G…``."""
    view = example_fight_view()
    enemy = Name("敵", "enemy")
    beside: list[str] = []
    for n in range(4, 22):
        fighters = tuple(FighterView(Name("ア" * n + str(i), f"Giant Ant Soldier {i}"), enemy,
                                     12, 12, 8, 8, ally=False) for i in range(9))
        drawn = spy_text(screen)
        screen.render(replace(view, fight=replace(fight_of(view), fighters=fighters)))
        beside += [d.shown for d in drawn if d.text.startswith("Giant Ant Soldier")]
    assert beside and all(len(s.rstrip("…")) >= 4 for s in beside)


# ---- a configured font with no Japanese in it -------------------------------------------

def test_a_font_without_japanese_is_not_taken_for_one_with_it() -> None:
    """``display.font`` naming a font with no Japanese drew every name as boxes: the screen
    now sees the font has no glyph for 牌 and draws the English halves."""
    plain = FontFile(Path(pygame.__file__).parent / pygame.freetype.get_default_font())
    display = ScreenDisplay("800x480", font=plain, find_font=False)
    display.render(example_fight_view())
    display.close()
    assert not display.has_cjk
    drawn = [text for text, _, _ in display._text_cache]  # every text rendered, as rendered
    assert drawn and not [t for t in drawn if without_cjk(t) != t.strip()]
    found = find_cjk_font()
    if found is not None:  # (a machine with a Japanese font: it is taken as one)
        display = ScreenDisplay("800x480", font=found, find_font=False)
        display.close()
        assert display.has_cjk


# ---- an option's verb ---------------------------------------------------------------------

@pytest.mark.parametrize("size", ["800x480", "1024x600"])
@pytest.mark.needs_japanese_font
def test_a_label_cut_in_a_grid_box_keeps_its_key_and_its_verb(size: str) -> None:
    """A grid of twelve (boxes 123 px wide at 800x480): what no size from 15 to 14 px holds
    is cut, and a cut in its middle kept the key and too little after it: "[9] D…dornment",
    "[A] Fi…onster TR", "[B×2]…f stealth" (label audit 54). The verb is what the box does;
    a target's name says nothing of it (Fight and Fire are offered at the same monster)."""
    long = [("Doff adornment", "飾りを外す"), ("Fight venus flytrap", "虫取り草と戦う"),
            ("Fire ice monster TR", "氷の怪物を射撃"), ("Doff armour protection", "鎧保護を外す")]
    options = tuple(Option(f"o{n}", f"{en} {ja}") for n, (en, ja) in enumerate(long * 3))
    screen = ScreenDisplay(size)
    drawn = spy_text(screen)
    screen.render(replace(example_view(), options=options, highlight=0))
    screen.close()
    cut = [d for d in drawn if d.label and d.cut and d.text.startswith("[")]
    assert cut  # (at 14 px these are wider than their boxes)
    for d in cut:
        key, verb, target = d.text.split(" ", 2)
        # The target is cut at its end (read from its start), its spot kept.
        assert d.shown.startswith(f"{key} {verb} {target[0]}") and "…" in d.shown, d.shown
        assert d.shown.endswith(" TR") == d.text.endswith(" TR"), d.shown
