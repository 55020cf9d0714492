"""What a player sees on the attached screen and the terminal that no other display test
pinned down (mutation round 9): the trouble colour against guidance, the sheet's XP, a
fight's outcome and a combatant with no HP, the lit option of a message screen, the
header's tap area, the dice faces, the HP bars' colours, the rows' sides, the board's
coordinates and pieces, a long message's cut, and the terminal's log, board, legend and
HP bar.

Real views are drawn through :class:`ScreenDisplay` on SDL's dummy driver and read back
from the text it rendered (with its colour), from where it blitted it, and from pixels.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import replace

import pygame
import pytest
from rich.console import Console

from companion.hw.buttons import Button
from companion.hw.display.canvas import ACCENT, BAD, DIM, GOOD, HIGHLIGHT, TEXT, Color
from companion.hw.display.screen import HEADER_HEIGHT, ScreenDisplay
from companion.hw.display.terminal import MENU_LEGEND, TerminalDisplay, board_text, hp_bar
from companion.hw.display.view import (
    BoardView,
    DiceStep,
    DiceView,
    FighterView,
    FightView,
    Name,
    Option,
    PieceView,
    SheetView,
    View,
    example_fight_view,
    example_view,
    message_view,
)
from tests.hw.screen_layout_helpers import RING_MENU, spy_text, texts_drawn


@pytest.fixture
def screen() -> Iterator[ScreenDisplay]:
    """800x480, the smallest screen, of its own (each test may spy on it or close it)."""
    display = ScreenDisplay("800x480")
    yield display
    display.close()


@pytest.fixture(params=["800x480", "1024x600"])
def both(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    """Each layout."""
    display = ScreenDisplay(request.param)
    yield display
    display.close()


def colours_drawn(screen: ScreenDisplay) -> list[tuple[str, Color]]:
    """Every text fitted (and so drawn) from now on, with its colour."""
    drawn: list[tuple[str, Color]] = []
    for name in ("_fit", "_fit_middle"):
        fit = getattr(screen, name)

        def spy(value: str, size: int, width: int, color: Color = TEXT,
                fit: Callable[..., pygame.Surface] = fit) -> pygame.Surface:
            drawn.append((value, color))
            return fit(value, size, width, color)

        screen.__dict__[name] = spy
    return drawn


def _plain(screen: ScreenDisplay) -> ScreenDisplay:
    """The screen with its spies taken off."""
    for name in ("_text", "_fit", "_fit_middle", "_fighter", "_die", "_fighters"):
        screen.__dict__.pop(name, None)
    return screen


def _at(surface: pygame.Surface, pos: tuple[int, int]) -> Color:
    """The colour drawn at ``pos``."""
    r, g, b, _ = surface.get_at(pos)
    return r, g, b


def _fight(view: View) -> FightView:
    assert view.fight is not None
    return view.fight


def _sheet() -> SheetView:
    sheet = example_view().sheet
    assert sheet is not None
    return sheet


def _terminal(view: View, width: int = 120) -> str:
    out = io.StringIO()
    TerminalDisplay(Console(file=out, width=width)).show(view)
    return out.getvalue()


# ---- the status: trouble in its own colour, guidance as the prompt ----------------------

STATUS = "save behind: the disk is full 保存できません"


def _status_colour(screen: ScreenDisplay, guidance: bool) -> Color:
    drawn = colours_drawn(screen)
    screen.render(replace(example_view(), status=STATUS, guidance=guidance))
    _plain(screen)
    (colour,) = {c for t, c in drawn if t and t in STATUS}
    return colour


def test_trouble_is_drawn_in_a_red_other_than_guidance_and_guidance_as_the_prompt(
        both: ScreenDisplay) -> None:
    """Trouble (a save behind) and guidance (the next step) differ by more than a mark:
    trouble in a red, guidance in the prompt's own colour."""
    drawn = colours_drawn(both)
    both.render(example_view())
    (prompt,) = {c for t, c in drawn if t == example_view().prompt}
    _plain(both)
    trouble, guidance = _status_colour(both, False), _status_colour(both, True)
    assert guidance == prompt
    assert trouble != guidance
    r, g, b = trouble
    assert r > 200 and r > g + 100 and r > b + 100  # a red, as trouble reads


# ---- what the view's words say ----------------------------------------------------------

def test_the_sheet_says_the_xp_the_next_level_needs(screen: ScreenDisplay) -> None:
    """Example: 27 XP, the next level at 40: ``XP 27/40`` on the screen and the terminal."""
    texts = texts_drawn(screen)
    screen.render(example_view())
    _plain(screen)
    assert any("XP 27/40" in t for t in texts)
    assert "XP 27/40" in _terminal(example_view())
    top = replace(_sheet(), xp_next=None)
    assert "XP 27/max" in _terminal(replace(example_view(), sheet=top))


def test_a_name_the_same_in_both_languages_is_written_once() -> None:
    """A name with no English of its own (``Name("山田", "山田")``) is not doubled."""
    assert str(Name("山田", "山田")) == "山田"
    assert str(Name("大蛇", "snake")) == "大蛇 snake"
    ghost = FighterView(Name("ゴースト", "ゴースト"), Name("敵", "enemy"), 5, 5, ally=False)
    fight = replace(_fight(example_fight_view()), fighters=(ghost,))
    out = _terminal(replace(example_fight_view(), fight=fight))
    assert "ゴースト" in out and "ゴースト ゴースト" not in out


def test_a_fight_over_says_how_it_ended(screen: ScreenDisplay) -> None:
    """Once won, the heading says so where whose turn it was."""
    fight = replace(_fight(example_fight_view()), turn="", outcome="勝利 the party won")
    view = replace(example_fight_view(), fight=fight)
    texts = texts_drawn(screen)
    screen.render(view)
    _plain(screen)
    assert any(t.endswith("勝利 the party won") and t.startswith("Round 2") for t in texts)
    assert "勝利 the party won" in _terminal(view)


def test_a_combatant_with_no_hp_says_so(screen: ScreenDisplay) -> None:
    """An incorporeal monster has no HP: its row says ``HP –``, not nothing."""
    ghost = FighterView(Name("ゴースト", "Ghost"), Name("敵", "enemy"), None, None, ally=False)
    fight = _fight(example_fight_view())
    view = replace(example_fight_view(), fight=replace(fight, fighters=(*fight.fighters, ghost)))
    texts = texts_drawn(screen)
    screen.render(view)
    _plain(screen)
    assert "HP –" in texts
    assert "HP –" in _terminal(view)


# ---- a message screen's lit option --------------------------------------------------------

def _box_colours(screen: ScreenDisplay, box: pygame.Rect) -> set[Color]:
    inner = box.inflate(-screen.m(12), -screen.m(12))
    return {_at(screen.surface, (x, y))
            for x in range(inner.x, inner.right, 2) for y in range(inner.y, inner.bottom, 2)}


def test_a_message_screen_lights_its_first_option_for_a(screen: ScreenDisplay) -> None:
    """A question before a game (two answers, no buttons of their own): the first is lit and
    keyed ``[A]``, so that A takes it, as the legend says."""
    view = message_view("Start a new game? 新しいゲーム？",
                        (Option("new", "New game 新しいゲーム"), Option("quit", "Quit 終了")))
    assert view.highlight == 0
    drawn = spy_text(screen)
    screen.render(view)
    _plain(screen)
    labels = [d.text for d in drawn if d.label and d.text.startswith("[")]
    assert labels[0].startswith("[A] New game") and labels[1].startswith("[2] Quit")
    (first, _), (second, _) = screen._targets
    assert HIGHLIGHT in _box_colours(screen, first)
    assert HIGHLIGHT not in _box_colours(screen, second)


# ---- the header's tap area ----------------------------------------------------------------

def _tap(screen: ScreenDisplay, pos: tuple[int, int]) -> None:
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(
            kind, x=pos[0] / screen.width, y=pos[1] / screen.height, touch_id=0, finger_id=0,
            dx=0, dy=0, pressure=1))


def test_the_whole_header_height_opens_system(both: ScreenDisplay) -> None:
    """The System hint is a box in the middle of the header's height: a tap anywhere down
    to the header's bottom edge opens the menu, just under it does not."""
    both.render(replace(example_view(), system=True))
    both.poll()
    bottom = both.m(HEADER_HEIGHT) - 2
    _tap(both, (both.width // 2, bottom))
    assert both.poll() == [Button.SYSTEM]
    _tap(both, (both.width // 2, both.m(HEADER_HEIGHT) + 2))
    assert both.poll() == []


# ---- the dice tray's faces ----------------------------------------------------------------

def _dice_drawn(screen: ScreenDisplay, tray: DiceView) -> list[tuple[pygame.Rect, int]]:
    """The tray drawn with ``tray``: each die's rect and sides, as ``_die`` was asked."""
    dice: list[tuple[pygame.Rect, int]] = []
    die = screen._die

    def spy(face: int, rect: pygame.Rect, sides: int = 6) -> None:
        dice.append((rect.copy(), sides))
        die(face, rect, sides)

    screen.__dict__["_die"] = spy
    screen.render(replace(message_view("Throw 6D6", (Option("back", "Back 戻る"),)), dice=tray))
    _plain(screen)
    return dice


def _spots(surface: pygame.Surface, rect: pygame.Rect, colour: Color) -> int:
    """How many separate spots of ``colour`` are drawn in ``rect``."""
    mask = pygame.mask.from_threshold(surface.subsurface(rect), colour, (12, 12, 12, 255))
    return len(mask.connected_components(minimum=3))


def test_each_d6_face_shows_its_number_of_pips_and_the_ace_is_red(both: ScreenDisplay) -> None:
    """A throw of 1 to 6 with no sides given (every die a D6): each face drawn with as many
    pips as it shows, black on ivory, the ace a single red pip as on Japanese dice."""
    dice = _dice_drawn(both, DiceView("6D6", faces=(1, 2, 3, 4, 5, 6)))
    assert [sides for _, sides in dice] == [6] * 6
    black, red = (20, 20, 24), (220, 80, 70)
    surface = both.surface
    assert [_spots(surface, rect, black) for rect, _ in dice] == [0, 2, 3, 4, 5, 6]
    assert [_spots(surface, rect, red) for rect, _ in dice] == [1, 0, 0, 0, 0, 0]


def test_a_d4_is_a_triangle_not_a_d6_face(both: ScreenDisplay) -> None:
    """A D4's 1 drawn as a D6's one pip reads as a D6 thrown: it is a triangle, its top
    corners the panel, with its number in it."""
    dice = _dice_drawn(both, DiceView("1D4+1D6", faces=(1, 1), sides=(4, 6)))
    (d4, _), (d6, _) = dice
    surface = both.surface
    ivory = (236, 234, 226)
    assert _at(surface, (d4.x + 1, d4.y + 1)) != ivory  # the triangle's top corner
    assert _at(surface, (d4.centerx, d4.y + d4.h * 3 // 4)) == ivory
    assert _spots(surface, d4, (220, 80, 70)) == 0  # no red ace on it
    assert _spots(surface, d6, (220, 80, 70)) == 1


@pytest.mark.needs_japanese_font
def test_the_tray_says_where_its_dice_come_from(screen: ScreenDisplay) -> None:
    texts = texts_drawn(screen)
    screen.render(replace(message_view("Throw 1D6"),
                          dice=DiceView("1D6", faces=(3,), source="camera カメラ")))
    _plain(screen)
    assert "Dice ダイス · camera カメラ" in texts


WALK_LONG = ("a vitality check vs toxicity 8 (default: DM Lv 1 + 7), and is still at −1 "
             "(−1 in all: does not stack)")


@pytest.mark.needs_japanese_font
def test_the_walk_indents_a_follow_up_and_names_each_rule_once(screen: ScreenDisplay) -> None:
    """A step's follow-up hangs further in than the step it follows; a step's rule ID
    heads its first row alone, not each row it wraps to."""
    from tests.hw.screen_layout_helpers import spy_blits

    steps = (DiceStep("EV-POI-1", "poisoned 毒"), DiceStep("EV-POI-2", WALK_LONG, 1))
    blits = spy_blits(screen)
    screen.render(replace(message_view("Throw 1D6"),
                          dice=DiceView("毒 Poison", faces=(1,), steps=steps)))
    _plain(screen)
    first = next(b for b in blits if b.text == "poisoned 毒")
    follow = next(b for b in blits if b.text and WALK_LONG.startswith(b.text))
    assert follow.rect.x >= first.rect.x + screen.m(8)
    assert len([b for b in blits if b.text and b.text in WALK_LONG]) >= 2  # it wraps
    assert [b.text for b in blits].count("EV-POI-2") == 1


# ---- HP bars: their colour says how hurt ------------------------------------------------

def test_the_header_hp_bar_turns_amber_then_red_as_hp_falls(both: ScreenDisplay) -> None:
    m = both.m
    colours = []
    most = _sheet().hp_max
    for hp in (most - 1, most // 4 + 1, 1):  # over a half, over a quarter, under it
        surface = both.render(replace(example_view(), sheet=replace(_sheet(), hp=hp)))
        bar_x = both.width - m(10) - m(200)  # the bar's left end (no System hint)
        colours.append(_at(surface, (bar_x + m(5), m(10) + m(9))))
    assert colours == [GOOD, ACCENT, BAD]


def _rows(screen: ScreenDisplay, view: View) -> list[tuple[FighterView, pygame.Rect]]:
    """The view drawn: each combatant's row drawn and its rect."""
    rows: list[tuple[FighterView, pygame.Rect]] = []
    fighter = screen._fighter

    def spy(f: FighterView, index: int, rect: pygame.Rect, *args: object) -> None:
        rows.append((f, rect.copy()))
        fighter(f, index, rect, *args)  # type: ignore[arg-type]

    screen.__dict__["_fighter"] = spy
    screen.render(view)
    _plain(screen)
    return rows


def _three(hp: tuple[int, int, int]) -> View:
    party, enemy = Name("味方", "party"), Name("敵", "enemy")
    fighters = (FighterView(Name("アン", "Ann"), party, hp[0], 12),
                FighterView(Name("ボブ", "Bob"), party, hp[1], 12),
                FighterView(Name("オーク", "Orc"), enemy, hp[2], 12, ally=False))
    return replace(example_fight_view(),
                   fight=replace(_fight(example_fight_view()), fighters=fighters))


def test_a_combatant_s_hp_bar_turns_amber_then_red_and_its_stripe_shows_its_side(
        both: ScreenDisplay) -> None:
    """11, 5 and 2 of 12 HP: a green, an amber and a red bar; the party's rows striped
    green, the foe's red."""
    m = both.m
    rows = _rows(both, _three((11, 5, 2)))
    assert len(rows) == 3
    surface = both.surface
    bars, stripes = [], []
    for _, rect in rows:
        bar_y = rect.y + both._step(m(28)) + m(4)
        bars.append(_at(surface, (rect.right - m(6) - m(110) + m(4), bar_y)))
        stripes.append(_at(surface, (rect.x + m(5), rect.bottom - m(5))))
    assert bars == [GOOD, ACCENT, BAD]
    assert stripes == [GOOD, GOOD, BAD]


def test_a_down_foe_in_a_one_line_row_says_why_in_red(screen: ScreenDisplay) -> None:
    """Thirteen combatants take one-line rows: a dead ant's ``DEAD 死亡`` stands beside its
    name in the trouble red, not in the accent of a living one's conditions."""
    from tests.hw.screen_layout_helpers import _big_fight

    drawn = colours_drawn(screen)
    screen.render(_big_fight(0))
    _plain(screen)
    dead = {c for t, c in drawn if t == "DEAD 死亡"}
    dodge = {c for t, c in drawn if t == "全力回避 full dodge"}
    assert dead == {BAD} and dodge == {ACCENT}


@pytest.mark.needs_japanese_font
def test_the_acting_combatant_is_marked_with_an_arrow(screen: ScreenDisplay) -> None:
    view = example_fight_view()
    (acting,) = [f for f in _fight(view).fighters if f.acting]
    drawn = spy_text(screen)
    screen.render(view)
    _plain(screen)
    names = [d.text for d in drawn if d.size == screen.m(16) and d.text.endswith(acting.name.ja)]
    assert names == [f"▶ {acting.name.ja}"]


# ---- the board: coordinates, where each piece stands and faces ---------------------------

def _board_view(*pieces: PieceView, title: str = "Fight") -> View:
    fighters = tuple(FighterView(Name("", p.mark), Name("", "side"), 5, 9, ally=p.ally)
                     for p in pieces)
    return replace(message_view("?", (Option("go", "Go"),)),
                   fight=FightView(title, 1, "", fighters, board=BoardView(8, 8, pieces)))


def test_the_board_is_lettered_a_to_h_along_the_bottom_and_numbered_1_to_8_up(
        both: ScreenDisplay) -> None:
    from tests.hw.screen_layout_helpers import spy_blits

    blits = spy_blits(both)
    both.render(_board_view(PieceView(0, 0, "AA")))
    _plain(both)
    at = {b.text: b.rect for b in blits if len(b.text) == 1}
    assert set("abcdefgh12345678") <= set(at) and "0" not in at and "i" not in at
    assert at["1"].y > at["8"].y  # 1 at the bottom, north up
    assert at["a"].x < at["h"].x and at["a"].y > at["1"].y - both.m(4)


def _shapes(screen: ScreenDisplay, view: View) -> dict[Color, tuple[float, float, int]]:
    """``view`` drawn with no text and no rows: for GOOD, BAD, DIM and TEXT, the centre
    of their pixels above the footer and how many there are."""
    blank = pygame.Surface((1, 1), pygame.SRCALPHA)
    screen.__dict__["_text"] = lambda *_: blank
    screen.__dict__["_fighters"] = lambda *_: None
    surface = screen.render(view)
    _plain(screen)
    footer = screen._targets[0][0].y - screen.m(40)
    found: dict[Color, tuple[float, float, int]] = {}
    for colour in (GOOD, BAD, DIM, TEXT):
        mask = pygame.mask.from_threshold(surface.subsurface((0, 0, screen.width, footer)),
                                          colour, (1, 1, 1, 255))
        if mask.count():
            x, y = mask.centroid()
            found[colour] = (x, y, mask.count())
    return found


def test_a_piece_stands_on_its_square_north_up(both: ScreenDisplay) -> None:
    """An ally on a1 (bottom left), a foe on h8 (top right)."""
    found = _shapes(both, _board_view(PieceView(0, 0, "A"), PieceView(7, 7, "O", ally=False)))
    (ax, ay, _), (fx, fy, _) = found[GOOD], found[BAD]
    assert ax < fx and ay > fy


def test_a_piece_s_arrow_points_where_it_faces(both: ScreenDisplay) -> None:
    for facing, north in (((0, 1), True), ((0, -1), False)):
        found = _shapes(both, _board_view(PieceView(3, 3, "A", facing=facing)))
        (_, y, _), (_, arrow_y, _) = found[GOOD], found[TEXT]
        assert (arrow_y < y - both.m(4)) if north else (arrow_y > y + both.m(4))


def test_two_in_one_square_are_both_seen(both: ScreenDisplay) -> None:
    """A grapple: an ally and a foe on one square, each drawn apart from the other."""
    found = _shapes(both, _board_view(PieceView(3, 3, "A"), PieceView(3, 3, "O", ally=False)))
    (ax, ay, _), (fx, fy, _) = found[GOOD], found[BAD]
    assert abs(ax - fx) >= both.m(6) and abs(ay - fy) >= both.m(6)


def test_a_down_piece_is_grey_not_its_side_s_colour(both: ScreenDisplay) -> None:
    standing = _shapes(both, _board_view(PieceView(3, 3, "A")))
    down = _shapes(both, _board_view(PieceView(3, 3, "A", down=True)))
    assert GOOD in standing and GOOD not in down
    assert down[DIM][2] > standing[DIM][2] + both.m(20)  # the grey disc


@pytest.mark.needs_japanese_font
def test_beside_the_board_the_heading_shortens_the_round_before_cutting_the_name(
        screen: ScreenDisplay) -> None:
    """A long name's turn beside a board: ``R2 · turn 手番:``, its round shortened, not
    ``Round 2 第2ラ…``."""
    from tests.hw.screen_view_helpers import cultists

    drawn = spy_text(screen)
    screen.render(cultists(True))
    _plain(screen)
    heads = [d.shown for d in drawn if d.text.startswith(("Round", "R2"))]
    assert heads and heads[0] == "R2 · turn 手番:"


# ---- the room, a long message, a long menu's second page ---------------------------------

@pytest.mark.needs_japanese_font
def test_every_tile_of_the_room_is_named_in_both_languages(screen: ScreenDisplay) -> None:
    """The room's four tiles each have their name, and under it its English."""
    texts = texts_drawn(screen)
    screen.render(example_view())
    _plain(screen)
    for tile in example_view().room_tiles:
        assert tile.meaning.ja in texts and tile.meaning.en in texts, tile


def test_a_message_longer_than_the_body_ends_its_last_row_with_an_ellipsis(
        screen: ScreenDisplay) -> None:
    """What does not fit even at the message's smallest size is never dropped silently."""
    words = " ".join(f"notice{n} 通知{n} about the settings file" for n in range(80))
    drawn = spy_text(screen)
    screen.render(message_view(words, (Option("ok", "OK 了解", Button.ATTACK),)))
    _plain(screen)
    rows = [d for d in drawn if not d.label and d.text and d.text.split()[0] in words]
    assert rows and rows[-1].cut and not [d for d in rows[:-1] if d.cut]


@pytest.mark.needs_japanese_font
def test_a_prompt_alone_reads_whole_on_three_rows(screen: ScreenDisplay) -> None:
    """A throw's prompt with no option and no status under it has the footer's three rows:
    a prompt of three rows is read whole, not cut in its middle."""
    prompt = ("Throw 2D6 in the dice area for the attack of オーク1 Orc 1 on 駆け出し冒険者１ PC 1 "
              "with the great sword of the old kings, then take the dice up again when they are "
              "read, and put them back beside the tray for the next throw "
              "2D6を振って、読み終えたら取ってください")
    view = replace(example_fight_view(), prompt=prompt, options=(), highlight=None)
    assert len(screen._wrap(prompt, screen.m(17), screen.width - screen.m(20))) == 3
    drawn = spy_text(screen)
    screen.render(view)
    _plain(screen)
    rows = [d for d in drawn if d.text and d.text in prompt and d.size == screen.m(17)]
    assert len(rows) == 3 and not [d for d in rows if d.cut]
    assert " ".join(d.shown for d in rows) == prompt


def test_a_fight_menu_of_more_than_four_takes_two_rows(both: ScreenDisplay) -> None:
    """Four options are one row beside the status's room; a fifth makes the fight's grid
    of two rows, its boxes wide enough for a target's name."""
    options = example_fight_view().options
    for count, rows in ((4, 1), (5, 2)):
        both.render(replace(example_fight_view(), options=options[:count]))
        assert len({box.y for box, _ in both._targets}) == rows, count


def test_on_a_long_menu_s_second_page_the_highlighted_option_is_lit(
        both: ScreenDisplay) -> None:
    last = len(RING_MENU) - 1
    both.render(replace(example_view(), options=RING_MENU, highlight=last))
    lit = [index for box, index in both._targets if HIGHLIGHT in _box_colours(both, box)]
    assert lit == [last]


def test_the_page_box_is_edged_in_the_accent_and_the_options_are_not(
        both: ScreenDisplay) -> None:
    """The box that turns the page is not an option: its edge (and label) in the accent."""
    both.render(replace(example_view(), options=RING_MENU, highlight=0))
    assert both._more is not None
    page = both._more[0]
    surface = both.surface
    assert _at(surface, (page.centerx, page.y + 1)) == ACCENT
    box = both._targets[1][0]  # not the lit one
    assert _at(surface, (box.centerx, box.y + 1)) == DIM


# ---- the terminal ------------------------------------------------------------------------

def test_the_terminal_log_shows_the_newest_entries() -> None:
    log = tuple(f"entry {n:02d}" for n in range(1, 13))
    out = _terminal(replace(example_view(), log=log))
    assert "entry 12" in out and "entry 05" in out and "entry 04" not in out
    fight = replace(_fight(example_fight_view()), log=log)
    out = _terminal(replace(example_fight_view(), fight=fight))
    assert "entry 12" in out and "entry 07" in out and "entry 06" not in out


def test_the_terminal_board_is_north_up() -> None:
    board = BoardView(8, 8, (PieceView(0, 0, "A"), PieceView(7, 7, "O", ally=False)))
    lines = board_text(board).plain.splitlines()
    assert lines[0].startswith("8 ") and "o" in lines[0]
    assert lines[7].startswith("1 ") and "A" in lines[7]
    assert lines[8].split() == list("abcdefgh")


def test_the_terminal_explains_m_where_an_option_is_keyed_with_it() -> None:
    """Thirteen options, flee and ranged each an option's own, the highlight on the tenth:
    the thirteenth is reached by m, three presses (← takes ten), and the terminal says what
    ``(m×3)`` asks. Highlighted on the first, ← reaches it in one (keys73 NIT 1: on the
    terminal ← steps back, Flee offered or not), and no m is left to explain."""
    options = (*(Option(str(n), f"Option {n}") for n in range(10)),
               Option("flee", "Flee 逃げる", Button.FLEE),
               Option("shoot", "Shoot 射撃", Button.RANGED),
               Option("far", "Far 遠く"))
    out = _terminal(replace(example_view(), options=options, highlight=9), width=400)
    assert "(m×3) Far 遠く" in out and MENU_LEGEND in out
    out = _terminal(replace(example_view(), options=options, highlight=0), width=400)
    assert "(←×1) Far 遠く" in out and MENU_LEGEND not in out


def test_the_terminal_hp_bar_turns_yellow_then_red() -> None:
    def colour(hp: int) -> str:
        bar = hp_bar(replace(_sheet(), hp=hp, hp_max=20))
        return str(bar.spans[0].style)

    assert [colour(hp) for hp in (15, 8, 3)] == ["green", "yellow", "red"]
