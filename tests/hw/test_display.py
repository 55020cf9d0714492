"""Screen (pygame, SDL dummy driver), terminal (rich) and no display, all rendering a View."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from rich.cells import cell_len
from rich.console import Console

from companion.app.session.controls import menu_press
from companion.errors import DeviceError
from companion.hw.buttons import Button, Pick
from companion.hw.display import open_display
from companion.hw.display import screen as screen_layout_module
from companion.hw.display.fonts import without_cjk
from companion.hw.display.keys import back_button, option_key
from companion.hw.display.screen import BACKGROUND, TEXT, ScreenDisplay, pick_layout
from companion.hw.display.terminal import MENU_LEGEND, TerminalDisplay
from companion.hw.display.view import (
    DiceView,
    Name,
    Option,
    TileView,
    example_view,
    message_view,
)
from tests.hw.screen_layout_helpers import spy_text


@pytest.fixture(params=["800x480", "1024x600"])
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    display = ScreenDisplay(request.param)
    yield display
    display.close()


def test_layouts() -> None:
    assert pick_layout("auto") == (800, 480)
    assert pick_layout("1024x600") == (1024, 600)
    assert pick_layout("800x480") == (800, 480)


def test_screenshot_at_each_size(screen: ScreenDisplay, tmp_path: Path) -> None:
    surface = screen.render(example_view())
    path = tmp_path / f"screen-{screen.width}x{screen.height}.png"
    screen.save_png(path)
    saved = pygame.image.load(str(path))
    assert saved.get_size() == (screen.width, screen.height)
    # The first room tile's picture sits top-left of the room panel: ivory tile body.
    body = surface.get_at((screen.m(14), screen.m(38) + screen.m(40)))
    assert body.r > 200 and body.g > 200
    # The HP bar is 9/14 full: its left end is coloured, its right end is not.
    bar_y = screen.m(19)
    left = surface.get_at((screen.width - screen.m(205), bar_y))
    right = surface.get_at((screen.width - screen.m(15), bar_y))
    assert left != right


@pytest.mark.needs_japanese_font
def test_japanese_glyphs_render(screen: ScreenDisplay) -> None:
    """A missing glyph draws the same box for every character; real glyphs differ."""
    assert screen.has_cjk
    a = pygame.surfarray.array_alpha(screen._text("大", 20))
    b = pygame.surfarray.array_alpha(screen._text("蛇", 20))
    assert a.shape == b.shape and (a != b).any()
    assert a.sum() > 0


def test_without_cjk_font_english_only(tmp_path: Path) -> None:
    display = ScreenDisplay("800x480", find_font=False)
    assert not display.has_cjk
    display.render(example_view())
    display.save_png(tmp_path / "fallback.png")
    assert display._text("大蛇 snake", 16).get_width() == display._text("snake", 16).get_width()
    display.close()
    assert without_cjk("回復薬 healing potion") == "healing potion"


def _click(pos: tuple[int, int]) -> None:
    """A mouse click: a tap picks when it lifts (where it went down)."""
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))


def _finger(screen: ScreenDisplay, x: float, y: float) -> None:
    """A touch at (``x``, ``y``) px, down and up: SDL gives a finger's place in 0..1."""
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(
            kind, x=x / screen.width, y=y / screen.height, touch_id=0, finger_id=0, dx=0,
            dy=0, pressure=1))


def test_taps_and_keys_pick_options(screen: ScreenDisplay) -> None:
    screen.render(example_view())
    second = screen._targets[1][0]
    _click(second.center)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, unicode="a", mod=0))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="\x1b",
                                         mod=0))
    fourth = screen._targets[3][0]
    _finger(screen, *fourth.center)
    assert screen.poll() == [Pick(1), Button.ATTACK, Button.FLEE, Pick(3)]


def test_a_tap_outside_options_is_nothing(screen: ScreenDisplay) -> None:
    screen.render(example_view())
    _click((5, 200))
    assert screen.poll() == []


def test_a_tap_on_the_header_opens_the_system_menu(screen: ScreenDisplay) -> None:
    """The System menu's way on a touch screen with no buttons (buttons-only audit F1): the
    header, where its hint is drawn."""
    screen.render(replace(example_view(), system=True))
    _click((5, 5))
    _finger(screen, 0.9 * screen.width, 10)
    assert screen.poll() == [Button.SYSTEM, Button.SYSTEM]


def test_closing_the_window_stops(screen: ScreenDisplay) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    with pytest.raises(KeyboardInterrupt):
        screen.poll()


def test_prompt_only_view_and_tile_prompt(screen: ScreenDisplay) -> None:
    view = replace(example_view(), options=(), room_tiles=(), sheet=None,
                   prompt="Draw a tile and put it on the draw slot 牌を引いて置いてください",
                   prompt_tile="back", status="read 5p: place the tile again")
    surface = screen.render(view)
    footer_y = screen.height - screen.m(96) + screen.m(20)
    assert surface.get_at((screen.m(20), footer_y)) != BACKGROUND


def test_terminal_shows_the_same_content() -> None:
    out = io.StringIO()
    TerminalDisplay(Console(file=out, width=100)).show(example_view())
    text = out.getvalue()
    for expected in ("Floor 3 3階", "Room 5 部屋5", "大うずら emu", "asleep 眠", "HP", "9/14",
                     "メイス mace", "rate 2 = 7 atk", "大はやぶさ kestrel defeated",
                     "(a) Fight 戦う", "隠密の指輪 ring of stealth"):
        assert expected in text, expected


def test_the_terminal_tray_draws_only_a_d6_as_pips() -> None:
    """A poison walk's D4 of 1 was printed ⚀, a D6 face (table audit gc #8's terminal)."""
    out = io.StringIO()
    tray = DiceView("毒 Poison (EV-POI-4)", faces=(6, 1, 1, 3), sides=(6, 6, 4, 6))
    TerminalDisplay(Console(file=out, width=100)).show(
        replace(message_view("Throw 1D6"), dice=tray))
    assert "⚅ 6  ⚀ 1  D4 1  ⚂ 3" in out.getvalue()


def test_terminal_marks_a_highlighted_option() -> None:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system="standard")
    view = replace(example_view(), highlight=2,
                   room_tiles=(TileView("9m", Name("オーク", "orc"), "on gold"),))
    TerminalDisplay(console).show(view)
    assert "\x1b[7m▶(r) Shoot 射撃 \x1b[0m" in out.getvalue()
    assert "オーク orc" in out.getvalue()


def test_open_display_by_name() -> None:
    assert open_display("none").poll() == []
    assert isinstance(open_display("terminal"), TerminalDisplay)
    with pytest.raises(ValueError, match="choose one of screen, terminal, none"):
        open_display("hologram")


def test_message_screen_between_games(tmp_path: Path) -> None:
    view = message_view("The save could not be read. Start a new game?",
                        (Option("new", "New game 新しいゲーム", Button.ATTACK),
                         Option("quit", "Quit 終了", Button.FLEE)))
    out = io.StringIO()
    TerminalDisplay(Console(file=out, width=100)).show(view)
    text = out.getvalue()
    assert "雀ローグEZプラス" in text and "(a) New game" in text and "Room" not in text
    display = ScreenDisplay("800x480")
    display.render(view)
    display.save_png(tmp_path / "message.png")
    assert [index for _, index in display._targets] == [0, 1]
    display.close()


def test_pygame_does_not_greet_our_users() -> None:
    """pygame prints a banner on import unless told not to; the companion tells it."""
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    done = subprocess.run([sys.executable, "-c", "import companion, pygame"],
                          capture_output=True, text=True, check=True, env=env)
    assert "pygame" not in done.stdout


def test_a_long_fight_menu_shows_every_option_and_its_key(screen: ScreenDisplay) -> None:
    """Thirteen options (a keypad, orc:10): a page of eleven and a "more" box, the tenth
    keyed 0, the ones past it by the MENU presses that reach them; the page with the
    highlight is drawn, so MENU brings the rest into view (they were never drawn)."""
    from companion.hw.display.view import example_fight_view

    options = tuple(Option(str(i), f"Orc {i}") for i in range(1, 14))
    view = replace(example_fight_view(), options=options, highlight=1)
    screen.render(view)
    assert [i for _, i in screen._targets] == list(range(11))
    assert screen._more is not None and screen._more[1] == 10  # MENU ×10: 1 → 11
    names = {Button.ATTACK: "A", Button.MENU: "M"}
    keys = [option_key(o, i, 1, names, len(options)) for i, o in enumerate(options)]
    assert keys[8:] == ["9", "0", "M×9", "M×10", "M×11"] and keys[1] == "A"
    screen.render(replace(view, highlight=12))
    assert [i for _, i in screen._targets] == [11, 12]
    console = Console(file=io.StringIO(), width=400)
    TerminalDisplay(console).show(view)  # the terminal keys them alike
    text = console.file.getvalue()  # type: ignore[attr-defined]
    # Past the tenth, the shorter way: back steps from the highlight (Orc 2) round to Orc 13
    # in two, where the menu button takes eleven (buttons-only audit F6); no m key is left
    # to explain. On the terminal back is ←, not f (keys73 NIT 1): f chooses, so f f
    # quickly counted once, and Enter after it only ended its line.
    assert "(←×4) Orc 11" in text and "(←×2) Orc 13" in text and MENU_LEGEND not in text
    back = [option_key(o, i, 1, {**names, Button.FLEE: "B"}, len(options), Button.FLEE)
            for i, o in enumerate(options)]
    assert back[10:] == ["B×4", "B×3", "B×2"]
    # With flee an option's own, ranged steps back instead on the screen; ← still on the
    # terminal, as with flee and ranged both options' own.
    options = (*options, Option("flee", "Flee 逃げる", Button.FLEE))
    assert option_key(options[10], 10, 1, {**names, Button.RANGED: "R"}, len(options),
                      back_button(options)) == "R×5"
    TerminalDisplay(console).show(replace(view, options=options))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "(←×5) Orc 11" in text and MENU_LEGEND not in text
    options = (*options, Option("fire", "Fire 射撃", Button.RANGED))
    TerminalDisplay(console).show(replace(view, options=options))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "(←×6) Orc 11" in text and MENU_LEGEND not in text


def test_the_terminal_explains_m_only_where_it_keys_an_option() -> None:
    console = Console(file=io.StringIO(), width=400)
    TerminalDisplay(console).show(example_view())
    assert "m×3 = press m" not in console.file.getvalue()  # type: ignore[attr-defined]


def test_only_the_option_attack_picks_says_a() -> None:
    """With the highlight moved off Attack 攻撃 (an option whose own button is attack),
    both it and the highlighted option said [A], and A took the highlighted one: a player
    pressing the A by Attack dodged. Only the highlighted option says A now."""
    options = (Option("attack", "Attack 攻撃", Button.ATTACK),
               Option("dodge", "Dodge 全力回避"), Option("flee", "Flee 逃走", Button.FLEE))
    names = {Button.ATTACK: "A", Button.FLEE: "B", Button.MENU: "M"}
    assert [option_key(o, i, 0, names, 3) for i, o in enumerate(options)] == ["A", "2", "B"]
    assert [option_key(o, i, 1, names, 3) for i, o in enumerate(options)] == ["1", "A", "B"]
    assert [option_key(o, i, None, names, 3) for i, o in enumerate(options)] == ["A", "2", "B"]
    shortcuts = {o.button: i for i, o in enumerate(options) if o.button is not None}
    assert menu_press(Button.ATTACK, 3, 1, shortcuts) == (1, 1)  # what A does: the dodge
    console = Console(file=io.StringIO(), width=160)
    TerminalDisplay(console).show(replace(message_view("Your move", options), highlight=1))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "(1) Attack 攻撃" in text and "(a) Dodge 全力回避" in text


def test_a_pick_list_with_nothing_highlighted_keys_each_option_past_the_tenth_apart() -> None:
    """a76tilecam DEFECT 1: the list of every legal tile opens with nothing highlighted, and
    each option past the tenth read "M" (or "m" on the terminal), beside the legend "m×3 =
    press m three times": counted from where the first press lands (MENU onto the first,
    back onto the last, as reads._picked moves), they read apart."""
    options = tuple(Option(f"t{i}", f"Tile {i}") for i in range(13))
    names = {Button.ATTACK: "A", Button.MENU: "M", Button.FLEE: "B"}
    keys = [option_key(o, i, None, names, len(options)) for i, o in enumerate(options)]
    assert keys[9:] == ["0", "M×11", "M×12", "M×13"]
    back = [option_key(o, i, None, names, len(options), Button.FLEE)
            for i, o in enumerate(options)]
    assert back[10:] == ["B×3", "B×2", "B×1"]


def test_a_fight_view_on_the_screen_and_the_terminal(screen: ScreenDisplay) -> None:
    """FightView (genso today, a CoC tracker next): the acting row is highlighted, the menu
    of a fight sits in two rows of taps, and the terminal prints the rows and the result."""
    from companion.hw.display.screen import HIGHLIGHT
    from companion.hw.display.view import example_fight_view

    view = example_fight_view()
    surface = screen.render(view)
    m = screen.m
    row_y = m(38 + 4 + 24 + 24) + 2 * m(44) + m(22)  # the third row: オーク1, acting
    assert surface.get_at((m(250), row_y))[:3] == HIGHLIGHT
    targets = sorted({rect.y for rect, _ in screen._targets})
    assert len(targets) == 2 and len(screen._targets) == len(view.options)
    console = Console(file=io.StringIO(), width=160)
    TerminalDisplay(console).show(view)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert view.fight is not None
    assert "▶" in text and "オーク1 Orc 1" in text and "HP 5/12  MP 8/8" in text
    assert "(2D6+7>13) ＞ 11[5,6]+7=18 ＞ 成功/success" in text and "GM-COMBAT-7" in text


@pytest.mark.parametrize(("text", "english"), [
    ("Floor 1 1階 · Room 9 部屋9", "Floor 1 · Room 9"),  # no stray "1" of 1階
    ("  Found 鎧保護の指輪 (ring of armour protection) [8p]",
     "Found ring of armour protection [8p]"),
    ("大うずら (emu) #2 defeated: +2 XP → 4", "emu #2 defeated: +2 XP -> 4"),
    ("ranged (arrows) vs 大蛇 snake (1d9 >= 4)", "ranged (arrows) vs snake (1d9 >= 4)"),
    ("Throw 1D6 in the dice area 1D6を振って: x", "Throw 1D6 in the dice area 1D6: x"),
])
def test_without_cjk_leaves_the_english_whole(text: str, english: str) -> None:
    assert without_cjk(text) == english


def test_header_without_cjk_font_has_no_stray_number() -> None:
    display = ScreenDisplay("800x480", find_font=False)
    where = replace(example_view(), floor=1, room=9).where
    assert display._text(where, 20).get_width() == display._text("Floor 1 · Room 9", 20) \
        .get_width()
    display.close()


def _ivory_share(surface: pygame.Surface, rect: pygame.Rect) -> float:
    pixels = pygame.surfarray.array3d(surface)[rect.left:rect.right, rect.top:rect.bottom]
    return float((pixels > 200).all(axis=2).mean())


def test_an_empty_spot_is_not_drawn_as_a_white_dragon(screen: ScreenDisplay,
                                                      tmp_path: Path) -> None:
    """A defeated or taken spot has no tile: a dashed outline with a word, not the blank
    tile body that the 5z 白 White dragon is drawn with."""
    m = screen.m
    inside = pygame.Rect(m(16), m(70), m(36), m(50))  # within the top-left tile's picture
    shares = {}
    for tile in ("5z", "empty"):
        tiles = (TileView(tile, Name("", "(no tile)"), "defeated 撃破"),
                 *example_view().room_tiles[1:])
        surface = screen.render(replace(example_view(), room_tiles=tiles))
        screen.save_png(tmp_path / f"room-{tile}-{screen.width}.png")
        shares[tile] = _ivory_share(surface, inside)
    assert shares["5z"] > 0.9
    assert shares["empty"] < 0.1


@pytest.mark.parametrize("cjk", [True, False])
def test_a_long_option_label_wraps_instead_of_being_cut(screen: ScreenDisplay,
                                                         cjk: bool) -> None:
    if cjk and not screen.has_cjk:
        pytest.skip("no Japanese font (apt-get install fonts-noto-cjk)")
    screen.has_cjk = cjk
    cut: list[str] = []
    fit = screen._fit

    def spy(text: str, size: int, width: int, color: tuple[int, int, int] = TEXT) \
            -> pygame.Surface:
        surface = fit(text, size, width, color)
        if surface.get_width() > 0 and fit(text, size, 10 ** 6, color).get_width() > width:
            cut.append(text)
        return surface

    screen._fit = spy  # type: ignore[method-assign]
    view = replace(example_view(), options=(
        Option("stairs", "Stairs 階段"), Option("move:6", "Room 6 部屋6へ"),
        Option("move:8", "Room 8 部屋8へ"),
        Option("unequip:8p", "Remove ring of armour protection 鎧保護の指輪")), highlight=0)
    screen.render(view)
    assert not [text for text in cut if "Remove" in text or "鎧保護" in text]


def test_a_room_tile_without_cjk_font_names_it_in_english_in_the_name_line() -> None:
    display = ScreenDisplay("800x480", find_font=False)
    drawn: list[tuple[str, int]] = []
    fit = display._fit

    def spy(text: str, size: int, width: int, color: tuple[int, int, int] = TEXT) \
            -> pygame.Surface:
        drawn.append((text, size))
        return fit(text, size, width, color)

    display._fit = spy  # type: ignore[method-assign]
    display.render(example_view())  # its first room tile: 大うずら emu
    display.close()
    assert ("emu", display.m(16)) in drawn


# ---- no screen to draw on: refused, not played unseen --------------------------------


@pytest.fixture
def unseen_driver(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """pygame's display started, reporting the driver the test puts in the list; nothing
    is opened for real (SDL itself stays on the tests' dummy driver)."""
    driver = ["offscreen"]
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: driver[0])
    yield driver
    pygame.display.quit()


@pytest.mark.parametrize("driver", ["offscreen", "dummy"])
def test_a_fallback_driver_that_shows_nothing_is_refused(
        unseen_driver: list[str], driver: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # pip's pygame with no X, Wayland or KMS: SDL falls back to "offscreen" by itself.
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    unseen_driver[0] = driver
    set_mode: list[object] = []
    monkeypatch.setattr(pygame.display, "set_mode", lambda *a, **k: set_mode.append(a))
    with pytest.raises(DeviceError) as caught:
        open_display("screen", "800x480")
    message = str(caught.value)
    assert f"'{driver}'" in message and "--display terminal" in message
    assert "docs/playing.md" in message
    assert not set_mode  # stopped before any window was asked for


def test_a_fallback_driver_is_refused_by_the_cli_as_an_error(
        unseen_driver: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.cli import main

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert main(["play", "--display", "screen", "--input", "sim", "--choices", "auto"]) == 1
    err = capsys.readouterr().err
    assert "companion: error: no screen found" in err and "'offscreen'" in err


@pytest.mark.parametrize("asked", ["offscreen", "dummy", "kmsdrm,offscreen"])
def test_a_driver_asked_for_in_sdl_videodriver_is_used(
        unseen_driver: list[str], asked: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", asked)
    unseen_driver[0] = asked.split(",")[-1]
    monkeypatch.setattr(pygame.display, "set_mode", lambda *a, **k: pygame.Surface(a[0]))
    monkeypatch.setattr(pygame.display, "set_caption", lambda *a: None)
    display = ScreenDisplay("800x480", find_font=False)
    assert display.surface.get_size() == (800, 480)
    display.close()


def test_a_display_sdl_cannot_open_is_a_device_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_kmsdrm() -> None:
        raise pygame.error("kmsdrm not available")

    monkeypatch.setattr(pygame.display, "init", no_kmsdrm)
    with pytest.raises(DeviceError, match=r"kmsdrm not available.*--display terminal"):
        ScreenDisplay("800x480", find_font=False)


@pytest.mark.parametrize("width", [80, 100])
def test_the_terminal_keeps_each_option_on_one_line(width: int) -> None:
    """The table audit's menu (大蛇 attacking, two monsters in the room): at 100 columns
    "(r) Shoot bat BL" ended one line and 大こうもりを射撃 began the next, read as a sixth
    option with no key; at 80 more split. Each "(key) label" is now whole on one line."""
    labels = ("Fight bat BL 大こうもりと戦う", "Fight snake BR 大蛇と戦う",
              "Shoot bat BL 大こうもりを射撃", "Shoot snake BR 大蛇を射撃", "Defend 防御")
    options = tuple(Option(str(i), label) for i, label in enumerate(labels))
    console = Console(file=io.StringIO(), width=width)
    TerminalDisplay(console).show(replace(example_view(), prompt="大蛇 snake attack! Act:",
                                          options=options, highlight=0))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    keys = [option_key(o, i, 0, {Button.ATTACK: "a"}, len(options))
            for i, o in enumerate(options)]
    for key, label in zip(keys, labels, strict=True):
        assert any(f"({key}) {label}" in line for line in lines), (key, label, lines)
    assert all(cell_len(line) <= width for line in lines)


def test_the_terminal_draws_guidance_as_the_prompt_and_trouble_in_red() -> None:
    """The status under a typed die's keypad (why it is typed) was red, as trouble is."""
    def shown(guidance: bool) -> str:
        console = Console(file=io.StringIO(), width=100, force_terminal=True,
                          color_system="standard")
        TerminalDisplay(console).show(replace(example_view(), status="why 理由",
                                              guidance=guidance))
        return console.file.getvalue()  # type: ignore[attr-defined]

    red = "\x1b[1;31m"
    assert f"{red}! why 理由" in shown(False)
    assert "why 理由" in shown(True) and f"{red}" not in shown(True)


def test_the_terminal_header_says_the_system_key_on_one_line_at_80_columns() -> None:
    """"S or hold I: System 設定" beside the HP bar wrapped 設定 onto a line of its own."""
    out = io.StringIO()
    view = replace(example_view(), system=True)
    TerminalDisplay(Console(file=out, width=80)).show(view)
    header = next(line for line in out.getvalue().splitlines() if "HP" in line)
    assert header.rstrip().endswith("s: System 設定")


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_d10_s_name_is_drawn_clear_of_its_kite(size: str) -> None:
    """Six D10s at 800x480 are 35 px kites: their ``D10``, drawn in the kite's narrowing
    lower part, ran over its edges (display audit 54, item 5). It is under the kite now:
    the kite's lower part holds only ivory (and the panel around it), and under it the name
    is drawn."""
    screen = ScreenDisplay(size)
    try:
        dice: list[pygame.Rect] = []
        other_die = screen._other_die

        def spy(face: int, rect: pygame.Rect, sides: int) -> None:
            dice.append(rect.copy())
            other_die(face, rect, sides)

        screen.__dict__["_other_die"] = spy
        tray = DiceView("6D10", faces=(10, 7, 3, 10, 1, 8), sides=(10,) * 6)
        surface = screen.render(replace(message_view("Throw 6D10", (Option("back", "Back"),)),
                                        dice=tray))
        assert len(dice) == 6
        for rect in dice:
            ground = surface.get_at((rect.x, rect.bottom - 1))[:3]  # outside the kite
            lower = {surface.get_at((x, y))[:3] for x in range(rect.x, rect.right)
                     for y in range(rect.y + rect.h * 2 // 3, rect.bottom)}
            assert lower == {ground, (236, 234, 226)}
            under = {surface.get_at((x, y))[:3] for x in range(rect.x, rect.right)
                     for y in range(rect.bottom, rect.bottom + screen.m(12))}
            assert len(under) > 1  # the name
    finally:
        screen.close()


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_dice_past_those_drawn_are_counted_in_japanese_too(
        size: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """40D10 drew 13 faces and ``+27 more`` in English alone, though the Rules line's count
    has its Japanese (``+3 more 他3件``; a76screen NIT 3): ``+27 more 他27個``, whole, its
    counts the same and the dice drawn and not drawn together the throw's."""
    monkeypatch.setitem(screen_layout_module.LAYOUTS, "1280x720", (1280, 720))
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        dice: list[int] = []
        die = screen._die

        def spy(face: int, rect: pygame.Rect, sides: int) -> None:
            dice.append(face)
            die(face, rect, sides)

        screen.__dict__["_die"] = spy
        drawn = spy_text(screen)
        faces = tuple(n % 10 + 1 for n in range(40))
        screen.render(replace(message_view("Throw 40D10", (Option("back", "Back"),)),
                              dice=DiceView("40D10", faces=faces, sides=(10,) * 40)))
        marks = [d for d in drawn if re.match(r"\+\d+ more", d.text)]
        assert len(marks) == 1 and not marks[0].cut, marks
        found = re.fullmatch(r"\+(\d+) more(?: 他(\d+)個)?", marks[0].text)
        assert found is not None, marks[0].text
        assert (found[2] is not None) == screen.has_cjk and found[2] in (None, found[1])
        assert dice and len(dice) + int(found[1]) == len(faces)
    finally:
        screen.close()


@pytest.mark.parametrize("throw", [100, 99])
@pytest.mark.parametrize(("size", "scale"), [("800x480", 1.25), ("640x384", 1.25),
                                             ("800x480", 1.0)])
def test_the_dice_left_out_take_the_fewest_slots_their_count_needs(
        size: str, scale: float, throw: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """100D6 at 800x480, text 1.25, kept room for ``+100 more 他100個``, the whole throw's
    count, and drew ``+98 more 他98個`` with a die's room spare after it: 2 faces where 3
    fit (r76screen NIT 1). The label holds the count it says, and one die more would leave
    no room for it."""
    monkeypatch.setitem(screen_layout_module.LAYOUTS, "640x384", (640, 384))
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        dice: list[pygame.Rect] = []
        die = screen._die

        def spy(face: int, rect: pygame.Rect, sides: int) -> None:
            dice.append(rect.copy())
            die(face, rect, sides)

        screen.__dict__["_die"] = spy
        drawn = spy_text(screen)
        faces = tuple(n % 6 + 1 for n in range(throw))
        screen.render(replace(message_view(f"Throw {throw}D6", (Option("back", "Back"),)),
                              dice=DiceView(f"{throw}D6", faces=faces)))
        marks = [d for d in drawn if re.match(r"\+\d+ more", d.text)]
        assert len(marks) == 1 and not marks[0].cut, marks
        left_out = throw - len(dice)
        assert dice and marks[0].text.startswith(f"+{left_out} more"), marks[0].text
        one_more = marks[0].text.replace(str(left_out), str(left_out - 1))
        slot = dice[0].w + screen.m(8)  # a die and the gap after it
        assert screen._text_width(one_more, marks[0].size) > marks[0].width - slot, \
            (marks[0], len(dice))
    finally:
        screen.close()
