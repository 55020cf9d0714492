"""The dice tray's outcome of a walk with follow-ups (table audit gc #7, #8): where the
tray says a table another sets off is, every roll of the walk under *Roll 出目*, and a die
that is not a D6 drawn as its number in its own shape rather than as a D6's pips."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.session.mode import ChoiceAsk, Throw
from companion.hw.display.canvas import BAD
from companion.hw.display.screen import ScreenDisplay
from tests.hw.screen_layout_helpers import spy_text, texts_drawn


def _poison_walk() -> DiceTrayMode:
    """EV-POI-4 row 6 (EV-POI-9): the table's D6, the duration's D6, which ability (a D4)
    and its sign (a D6), typed 6, 1, 1, 3 as the audit did."""
    mode = DiceTrayMode(("1D6", "2D6"), "typed 入力")
    mode.answer(2)  # Event table
    mode.answer(6)  # Poison
    for face in (6, 1, 1, 3):
        mode.answer(Throw((face,)))
    return mode


def test_every_roll_of_a_poison_walk_is_listed_under_roll() -> None:
    """The outcome listed only the steps' own rolls, ``(1D6) ＞ 6`` and ``(1D6) ＞ 1``:
    the D4 for which ability and the ± die were in the walk alone. Every roll is listed,
    as while the next was awaited, with what it was for."""
    mode = _poison_walk()
    assert mode.dice.rolls == (
        "(1D6) ＞ 6: the Poison / status ailment 毒・状態異常 table (EV-POI-4)",
        "(1D6) ＞ 1: duration 効果持続時間 (hours)",
        "(1D4) ＞ 1: which ability 能力値",
        "(1D6) ＞ 3: plus or minus ± (odd −, even +)")
    assert mode.dice.faces == (6, 1, 1, 3) and mode.dice.sides == (6, 6, 4, 6)


def test_a_walk_of_d6_alone_gives_no_sides() -> None:
    """A walk of D6 throws draws pips as before: ``sides`` left empty."""
    mode = DiceTrayMode(("1D6",), "typed 入力")
    mode.answer(1)  # Event table
    mode.answer(2)  # Trap
    mode.answer(Throw((4,)))
    assert mode.dice.faces == (4,) and mode.dice.sides == ()


def test_an_expression_s_d4_keeps_its_sides() -> None:
    """A plain ``1D4+1D6`` showed the D6 alone (a D4 was dropped for want of pips)."""
    mode = DiceTrayMode(("1D4+1D6",), "typed 入力")
    mode.answer(0)
    mode.answer(Throw((3,)))
    mode.answer(Throw((5,)))
    assert mode.dice.faces == (3, 5) and mode.dice.sides == (4, 6)


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_d4_is_drawn_as_its_number_not_as_pips(size: str, tmp_path: Path) -> None:
    """The D4's 1 was drawn as a D6's one red pip, the same as the duration's D6 beside it.
    It is drawn as its number with ``D4`` under it, in a triangle: near the top edge, a
    quarter across, is the panel, where a square face is ivory; its middle has no red ace.
    The D6 beside it keeps its red ace."""
    mode = _poison_walk()
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    screen = ScreenDisplay(size)
    faces: list[pygame.Rect] = []
    die = screen._die

    def spy(face: int, rect: pygame.Rect, *args: int) -> None:
        faces.append(rect.copy())
        die(face, rect, *args)

    screen.__dict__["_die"] = spy
    try:
        drawn = texts_drawn(screen)
        surface = screen.render(mode.view(ask.prompt, options=ask.options, highlight=0))
        screen.save_png(tmp_path / f"tray-d4-{size}.png")
        d6_one, d4 = faces[1], faces[2]
        top_edge = (d4.x + d4.w // 4, d4.y + screen.m(3))
        colours = {name: tuple(surface.get_at(at))[:3] for name, at in (
            ("d6 ace", d6_one.center), ("d4 middle", d4.center), ("d4 top", top_edge))}
    finally:
        screen.close()
    assert len(faces) == 4
    assert "D4" in drawn and "1" in drawn
    assert colours["d6 ace"] == (220, 80, 70)  # the D6's red ace, as before
    assert colours["d4 middle"] != BAD
    assert colours["d4 top"][0] < 100, "the D4 is drawn as a square face"


def test_the_poison_needle_names_the_menu_path_to_the_poison_table() -> None:
    """EV-TRAP-4: "pick Poison 毒 from the menu", but the main menu's poison item is the
    tracking list (Poisons 毒の経過); the table is under Tables → Poison. The hint
    names that path in both languages, and the path is the menus' own."""
    mode = DiceTrayMode(("2D6",), "simulated 仮想")
    mode.answer(1)  # Event table
    mode.answer(2)  # Trap
    mode.answer(Throw((4,)))  # EV-TRAP-1 row 4: a poison needle
    (hint,) = [s.text for s in mode.dice.steps if "failed check" in s.text]
    assert hint == ("On a failed check roll Menu → Tables → Poison "
                    "失敗したらメニュー→表→毒")
    outcome = mode.ask()
    assert isinstance(outcome, ChoiceAsk)
    assert [o.label for o in outcome.options][1] == "Menu メニュー"
    mode.answer(1)  # Menu
    main = mode.ask()
    assert isinstance(main, ChoiceAsk)
    labels = [o.label for o in main.options]
    assert "Tables 表" in labels
    mode.answer(labels.index("Tables 表"))
    tables = mode.ask()
    assert isinstance(tables, ChoiceAsk)
    assert "Poison 毒" in [o.label for o in tables.options]


def test_the_table_paths_name_the_buttons_and_the_poison_tick_is_no_table(
        tmp_path: Path) -> None:
    """The hints' paths, step by step, are the buttons' own words in each language, each
    naming one button; the first menu's tracked poisons read as no table: "Poisons 毒"
    beside the tables' "Poison 毒" differed by an "s", in Japanese not at all, and the
    hint's 毒表 sent a Japanese reader to it (reviewscreen66 RISK 2); its tables were
    "Events 表" (NIT 1)."""
    from companion.app.modes import dice_tray
    from companion.app.poisons import PoisonList

    mode = DiceTrayMode(("2D6",), "simulated 仮想",
                        poisons=PoisonList(tmp_path / "poisons.toml"))
    main = mode.ask()
    assert isinstance(main, ChoiceAsk)
    main_labels = [o.label for o in main.options]
    mode.answer(main_labels.index(dice_tray.EVENTS))
    tables = mode.ask()
    assert isinstance(tables, ChoiceAsk)
    table_labels = [o.label for o in tables.options]

    def words(label: str) -> tuple[str, str]:
        en, _, ja = label.rpartition(" ")
        return en, ja

    for path, path_ja, table in ((dice_tray.POISON_TABLE_PATH, dice_tray.POISON_TABLE_PATH_JA,
                                  "Poison"),
                                 (dice_tray.TRAP_TABLE_PATH, dice_tray.TRAP_TABLE_PATH_JA,
                                  "Trap")):
        _, first, second = path.split(" → ")
        _, first_ja, second_ja = path_ja.split("→")
        assert [words(label) for label in main_labels if first in words(label)[0]] \
            == [(first, first_ja)], (main_labels, path, path_ja)
        assert [words(label) for label in table_labels if second in words(label)[0]] \
            == [(table, second_ja)], (table_labels, path, path_ja)
    # the tracked poisons' item shares no word with the poison table's
    tick = words(dice_tray.POISONS)
    assert "Poison" not in tick[0] and tick[1] != "毒" and "Poison 毒" in table_labels
    assert dice_tray.POISONS in main_labels


def test_the_outcome_s_roll_list_is_whole_on_the_screen() -> None:
    """The four rolls of the poison walk, each with what it was for, are drawn whole in
    the Roll panel at 800x480 (no roll left out, none cut)."""
    mode = _poison_walk()
    screen = ScreenDisplay("800x480")
    try:
        drawn = spy_text(screen)
        words = texts_drawn(screen)
        screen.render(mode.view("x"))
    finally:
        screen.close()
    assert not [d for d in drawn if d.cut and "(1D" in d.text]
    shown = " ".join(words)
    for line in mode.dice.rolls:
        assert line.split(":")[1].split()[0] in shown
