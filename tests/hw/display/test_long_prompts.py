"""Every long prompt the app puts in the footer reads whole, on every view it comes over,
at each screen size (800x480, 1024x600, and the 720x1280 portrait panel, turned) and text
scale (1.0, 1.25): the System menu's outcomes (a shutdown that failed or left the Pi on,
not safe to unplug yet, the questions), a fight's own prompts (its menus, a throw awaited,
a read to judge) and the keypad's for the dice the player types (a d100's tens, a D6 of a
throw). Over a fight the footer gave the prompt two rows, one over a keypad's grid, and the
rest was cut in the middle of the last: "The Pi did not power off … (systemctl poweroff
was t…to unplug now", a d100's "Ann キック/Kick+MA (1D100<=60…t [MA]" lost its target and
threshold (fixt65c RISK, review64s NIT 3).

The prompts are the app's own, made by its code (the System menu driven to its outcomes
with the shutdown command's answers as systemctl gives them, seeded fights walked through
their menus); they are drawn through :class:`ScreenDisplay` on SDL's dummy driver, and
what was drawn is read back from the texts it fitted (``spy_text``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from companion.app.modes.dice_tray import (
    TABLE_STALE,
    TABLE_UNREADABLE,
    TABLE_UNREADABLE_LEFT,
    TABLE_UNWRITTEN,
    UNREADABLE_LEFT_WHY,
    DiceTrayMode,
)
from companion.app.modes.fight import HELD, FightMode
from companion.app.poisons import PoisonList
from companion.app.session.host import SHORT_REASONS
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.dice import SimulatedDice
from companion.hw.buttons import Button
from companion.hw.display import screen as screen_module
from companion.hw.display.option_buttons import TAP_GAP
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import Option, View, example_view
from tests.app.genso_ring_table_helpers import PC1, ringed_table
from tests.app.table import asked, played_keys
from tests.hw.display.prompt_fit_helpers import (
    SCALES,
    SIZES,
    Said,
    coc_board_mode,
    fight_said,
    genso_mode,
    ink_on_borders,
    keypad_said,
    recorded_system_menu,
    status_unread,
    system_said,
    unread,
)
from tests.hw.screen_layout_helpers import spy_text

# ---- the views ------------------------------------------------------------------------------


#: Bob's burst at Cult, dodged, from the fight's start (coc_board_mode).
BOB_BURST = ("end?", "end", "attack", "t:Cult", "w:0", "h:burst", "d:dodge")
#: Fights whose action is held (:data:`~companion.app.modes.fight.HELD` asked), by name:
#: the fight, and the journal that holds it. A coc burst keeps a roll a bullet: the question
#: naming each was cut with "…" at 800x480 and 1024x600 with four or more (reviewf67
#: DEFECT 1); 5 kept (to hit, hits, the dodge, two bullets' damage) and 20 (twenty hits).
HELD_WALKS: dict[str, tuple[Callable[[], FightMode], tuple[str, ...]]] = {
    "genso held 1": (genso_mode, ("attack", "t:オーク1", "w:0", "6,4", "hold")),
    "coc held 1": (coc_board_mode, (*BOB_BURST, "55", "hold")),
    "coc held 5": (coc_board_mode, (*BOB_BURST, "55", "3", "90", "1", "1", "hold")),
    "coc held 20": (lambda: coc_board_mode(tough=True),
                    (*BOB_BURST, "55", "20", *["1"] * 18, "hold")),
}


#: Defence menus whose parry labels run long, by name: the walk to each from the fight's
#: start (coc_board_mode). Deep's Iai parry and Ann's martial arts parry were cut in their
#: middle in the grid at 800x480 and 1024x600 ("日本刀 p…y 居合で受け流し",
#: "マーシャ…ーツで受け流し"), a third of the row left empty beside them (fixprompts73).
DEFENCE_WALKS: dict[str, tuple[str, ...]] = {
    "Deep parries with Iai 居合": ("attack", "t:Deep", "h:plain"),
    "Ann parries with martial arts": ("end?", "end", "end?", "end", "attack", "t:Ann",
                                      "h:plain"),
}


def defence_said() -> tuple[Said, ...]:
    """The defence menus of :data:`DEFENCE_WALKS`, over the coc fight."""
    said = []
    for name, journal in DEFENCE_WALKS.items():
        mode = coc_board_mode()
        for text in journal:
            mode.restore(text)
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk) and "defend" in ask.prompt, name
        assert any(o.choice.startswith("d:parry") for o in ask.options), name
        said.append(Said(f"defence ({name})", ask.prompt, ask.options, over="coc"))
    return tuple(said)


def _held_modes() -> dict[str, FightMode]:
    """Each fight of :data:`HELD_WALKS`, its action held: the question over its Result
    panel, which lists every roll kept as "so far 途中"."""
    modes = {}
    for name, (make, journal) in HELD_WALKS.items():
        mode = make()
        for text in journal:
            mode.restore(text)
        modes[name] = mode
    return modes


def _modes() -> dict[str, Any]:
    """Each view a prompt comes over, by name: a mode whose ``view`` draws it."""
    class Game:
        @staticmethod
        def view(prompt: str, **kwargs: Any) -> View:
            return replace(example_view(), prompt=prompt, **kwargs)

    return {"game": Game(), "dice": DiceTrayMode(("1D6", "2D6", "1D100"), "typed 手入力"),
            "genso": genso_mode(), "coc": coc_board_mode()}


def tray_said() -> tuple[Said, ...]:
    """The dice tray's keypad for a d100 and for the second D6 of two."""
    return (replace(keypad_said(RollAsk("d100 1D100, roll 1 1投目", 1, 100)), over="dice"),
            replace(keypad_said(RollAsk("2D6, roll 1 1投目", 2, 6), (4,)), over="dice"))


def tray_table_said() -> tuple[Said, ...]:
    """The dice tray's table file statuses (reviewd67 DEFECT 5: "saved table unreadable
    保存した表を読めず: tray.json kept asi…" at every size, "table not saved 表の途中は未保存:
    read-only 読み取り専用; a power cut loses it 電源断で…" in the System menu at 800x480,
    text_scale 1.25), each with every reason it gives: over the tray's menu (an unreadable
    file kept aside), over its System menu and its keypad (the table not saved)."""
    menus: list[ChoiceAsk] = []
    with tempfile.TemporaryDirectory() as folder:  # the tray's menu as a run has it, Tick
        # beside its plain rolls (1D6, 2D6 by default: config_defaults.toml), one to three;
        # the status shares a row with four options, a row of its own with more
        for expressions in (("1D6",), ("1D6", "2D6"), ("1D6", "2D6", "1D100")):
            tray = DiceTrayMode(expressions, "typed 手入力",
                                poisons=PoisonList(Path(folder) / "poisoned.toml"))
            menu = tray.ask()
            assert isinstance(menu, ChoiceAsk)
            menus.append(menu)
    system, show, shown = recorded_system_menu((Button.FLEE,), "dice")
    system.table_unsaved = lambda: True
    system.choose_until_done(system.with_left(show), "", new_game=True)
    prompt, kwargs = next((p, k) for p, k in shown if k.get("options"))
    keypad = keypad_said(RollAsk("how many monsters 何体 (1/2D) — モンスター Monster "
                                 "(EV-MON-1), roll 2 2投目", 1, 6))
    said = [Said(f"unreadable ({len(menu.options)} options)", menu.prompt, menu.options,
                 status, over="dice")
            for menu in menus for status in (TABLE_UNREADABLE, TABLE_UNREADABLE_LEFT)]
    for why in (*SHORT_REASONS.values(), UNREADABLE_LEFT_WHY):
        for text in (TABLE_UNWRITTEN, TABLE_STALE):
            status = text.format(why=why)
            said += [Said("System menu", prompt, tuple(kwargs["options"]), status,
                          over="dice"),
                     replace(keypad, name="keypad", status=status, over="dice")]
    return tuple(said)


def tray_poisons_said() -> tuple[Said, ...]:
    """The tray's Poisons menu (POISONS_PROMPT: End block, Rest, Back), reached by its menu's
    Tick, and a roll's outcome menu (Again, Menu), with one to three plain rolls: their
    footer counted the prompt a row too few, as the tray's menu did, leaving boxes 28 px
    tall at 800x480 (reviews68 NIT 2)."""
    said = []
    with tempfile.TemporaryDirectory() as folder:
        for expressions in (("1D6",), ("1D6", "2D6", "1D100")):
            tray = DiceTrayMode(expressions, "typed 手入力",
                                poisons=PoisonList(Path(folder) / "poisoned.toml"))
            menu = tray.ask()
            assert isinstance(menu, ChoiceAsk)
            tray.answer(next(n for n, o in enumerate(menu.options) if o.label.startswith("Tick")))
            poisons = tray.ask()
            assert isinstance(poisons, ChoiceAsk) and poisons.prompt.startswith("Poisons"), poisons
            said.append(Said(f"poisons ({len(expressions)} rolls)", poisons.prompt,
                             poisons.options, over="dice"))
            tray.answer(len(poisons.options) - 1)  # Back
            tray.answer(0)  # the first roll, thrown
            tray.answer(Throw((4,)))
            outcome = tray.ask()
            assert isinstance(outcome, ChoiceAsk), outcome
            said.append(Said(f"outcome ({len(expressions)} rolls)", outcome.prompt,
                             outcome.options, over="dice"))
    return tuple(said)


def held_said() -> tuple[Said, ...]:
    """The question of each held fight (:data:`HELD_WALKS`), over that fight."""
    said = []
    for name, mode in _held_modes().items():
        ask = mode.ask()
        assert isinstance(ask, ChoiceAsk) and ask.prompt.startswith(HELD), name
        said.append(Said("held question", ask.prompt, ask.options, over=name))
    return tuple(said)


#: The genso payment question (GM-ITEM-1/3) with the ways it leaves out said, pc2 with 1 MP,
#: a Ring of Storage of 2 and three stones of 1 casting Healing (4 MP): five ways cannot
#: pay, and the three ring-then-stone labels, "蓄積の指輪 Ring of Storage (2), then 魔力石
#: mana stone 1 (1)" as they were, were cut in their boxes at 1024x600 under the longer
#: question (reviewcarry75 NIT 3).
PAYMENT_WALK = ("wait", "cast", "s:healing", f"t:{PC1}")


#: The casters of the payment question: pc2 as above, then with 1 MP in the ring and five,
#: then eight, stones of which all but the first hold 1 (ten and sixteen ways left out):
#: said one by one, the question was cut mid-text at text size 1.25, and with eight
#: stones at 1.0 too (r76genso DEFECT 2); then eight stones unlike, past three groups.
PAYMENT_CASTERS = {
    "five ways left out": {"storage_mp": 2, "mana_stones": (1, 1, 1)},
    "five stones": {"storage_mp": 1, "mana_stones": (3, 1, 1, 1, 1)},
    "eight stones": {"storage_mp": 1, "mana_stones": (3, 1, 1, 1, 1, 1, 1, 1)},
    "eight stones unlike": {"storage_mp": 1, "mana_stones": (2, 1, 2, 1, 2, 1, 2, 1)},
}


def payment_said() -> tuple[Said, ...]:
    """The payment question of :data:`PAYMENT_WALK` for each of :data:`PAYMENT_CASTERS`,
    over a genso fight."""
    said = []
    for name, caster in PAYMENT_CASTERS.items():
        mode = ringed_table(mp=1, **caster)
        played_keys(mode, PAYMENT_WALK, SimulatedDice.seeded(1))
        ask = asked(mode)
        assert "cannot pay 払えない" in ask.prompt, name
        said.append(Said(f"payment, {name}", ask.prompt, ask.options, over="genso"))
    return tuple(said)


#: JongRogue's What next? with two rings to doff, seven in one row: on the portrait panel
#: "[7] Doff" / "strength" / "増強を外す" took three rows of a 78-px box, and at text size
#: 1.0 their ink touched its border (screen74 NIT 3).
GAME_MENU = (Said("what next, two rings worn", "What next? どうする？", (
    Option("take", "Take 拾う"),
    *(Option(f"move:{n}", f"Room {n} 部屋{n}へ") for n in (2, 4, 6, 8)),
    Option("unequip:6p", "Doff stealth 隠密を外す"),
    Option("unequip:7p", "Doff strength 増強を外す")), over="game"),)


GROUPS: dict[str, Callable[[], tuple[Said, ...]]] = {
    "system": system_said, "coc": lambda: fight_said("coc"),
    "genso": lambda: fight_said("genso"), "dice": tray_said, "held": held_said,
    # a fight's defence menus with a long parry label (fixprompts73)
    "coc defence": defence_said,
    # the tray's menus of four to six options (one to three plain rolls) under their
    # statuses: their prompts whole over boxes a fingertip tall, their labels whole. Four
    # options read "[A]…振る" beside the status, and the footer, counting the prompt one row
    # wide of its legend, left every tray menu's boxes 28 px tall (fixd67b "Left", screen68)
    "tray table": tray_table_said,
    "tray menu": lambda: tuple(replace(said, name=said.name.replace("unreadable", "menu"),
                                       status="")
                               for said in tray_table_said()
                               if said.status == TABLE_UNREADABLE),
    # the tray's Poisons menu and a roll's outcome menu (reviews68 NIT 2)
    "tray poisons": tray_poisons_said,
    "genso payment": payment_said}
#: The groups whose labels' ink is measured (test_no_option_label_ink_touches_a_border): the
#: game's menu too, whose labels are cut at text size 1.25 as docs/playing.md says.
INK_GROUPS = {**GROUPS, "game menu": lambda: GAME_MENU}
#: The statuses drawn whole (test_every_long_status_reads_whole_on_every_view), by group.
STATUS_GROUPS: dict[str, Callable[[], tuple[Said, ...]]] = {"tray table": tray_table_said}


# ---- drawing them ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _portrait_panel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The portrait panel's window (full screen takes the panel's own size)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    yield


def views(group: str) -> Iterator[tuple[str, View]]:
    """Each prompt of ``group`` over each view it comes over."""
    modes = {**_modes(), **(_held_modes() if group == "held" else {})}
    for said in {**INK_GROUPS, **STATUS_GROUPS}[group]():
        for over in [said.over] if said.over else list(modes):
            view = modes[over].view(said.prompt, options=said.options, highlight=0,
                                    status=said.status)
            yield (f"{said.name} over {over}: {said.prompt}",
                   replace(view, guidance=said.guidance, system=True))


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("group", list(STATUS_GROUPS))
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_long_status_reads_whole_on_every_view(size: str, scale: float,
                                                     group: str) -> None:
    """Each status of ``group`` is drawn whole, with every reason it gives, on every view
    it comes over: the tray's table file's (reviewd67 DEFECT 5)."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        problems = [f"{name}\n    {wrong}" for name, view in views(group)
                    if (wrong := status_unread(screen, view))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("group", list(GROUPS))
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_long_prompt_reads_whole_on_every_view(size: str, scale: float,
                                                     group: str) -> None:
    """Every row of the prompt is drawn uncut, together the whole prompt, and the option
    boxes stand under its last row, a fingertip tall, their labels whole (coc's "[M] More
    状況… (distance, surprise, dark…)" was cut in its grid at text_scale 1.25, screen68)."""
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        problems = [f"{name}\n    {wrong}" for name, view in views(group)
                    if (wrong := unread(screen, view))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)


#: The sizes an option label's ink is measured at: the long prompts', and the 640x384 window
#: whose grid boxes are a fingertip tall at 35 px.
INK_SIZES = {**SIZES, "640x384": (640, 384)}


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("group", list(INK_GROUPS))
# 1.1: a text size between the two is taken (config's display.text_scale), and its labels
# reach into their borders where 1.0's are clear (screen74 RISK 4).
@pytest.mark.parametrize("scale", [*SCALES, 1.1])
@pytest.mark.parametrize("size", list(INK_SIZES))
def test_no_option_label_ink_touches_a_border(size: str, scale: float, group: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Every option box's label, in the grid and in one row, keeps its ink inside its
    border with the box's fill between; with text a quarter larger (the boxes as tall), two
    rows of it at their least size are taller than a 44-px box's inside, and their ink may
    reach into the border, never over it nor under the box. The grid widened for a coc
    defence menu's long parry ("[4] Iai Japanese Sword" over "日本刀 parry 居合で受け流し")
    kept a label size at text size 1.25 whose second row ran over and under the box's
    bottom border (720x1280, 640x384: finala73 RISK 1), and a one-row menu's two-row labels
    touched their borders (the System menu's at 720x1280)."""
    monkeypatch.setitem(screen_module.LAYOUTS, size, INK_SIZES[size])
    screen = ScreenDisplay(size, text_scale=scale)
    # The portrait panel's game menu at 1.0 takes "[7] Doff" / "strength" / "増強を外す"
    # in three rows at the labels' floor, 14 px at 800x480, into its border: a pixel
    # smaller cleared it but broke the floor (reviewy74 NIT 2), the floor kept.
    into = scale > 1 or (size, group) == ("720x1280", "game menu")
    try:
        problems = [f"{name}\n    {touched}" for name, view in views(group)
                    if (touched := ink_on_borders(screen, screen.render(view),
                                                  into_border=into))]
    finally:
        screen.close()
    assert not problems, "\n".join(problems)


@pytest.mark.needs_japanese_font
def test_a_long_game_label_keeps_its_rows_apart_and_its_floor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On the portrait panel at text 1.0 "[7] Doff" / "strength" / "増強を外す" takes three
    rows of its 78-px box; set 1.08 em apart to clear the lit border, the rows touched each
    other, the g of "strength" on 増 (reviewscreen74 NIT 1), and drawn a pixel smaller to
    clear it, the label went under the labels' floor (reviewy74 NIT 2). The floor is kept:
    the ink may reach into the border, never over it, and no pixel of a row's ink is on or
    beside the next's."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", SIZES["720x1280"])
    (said,) = GAME_MENU
    label = "[7] " + said.options[-1].label
    view = next(view for _, view in views("game menu"))
    screen = ScreenDisplay("720x1280", text_scale=1.0)
    placed: list[tuple[pygame.Surface, tuple[int, int]]] = []

    class Placing(pygame.Surface):
        """The screen's surface, each text's place on it kept."""

        def blit(self, source: pygame.Surface, dest: Any, *args: Any,
                 **kwargs: Any) -> pygame.Rect:
            placed.append((source, tuple(dest)[:2]))
            return super().blit(source, dest, *args, **kwargs)

    screen.surface = Placing(screen.surface.get_size(), 0, screen.surface)
    try:
        rows: dict[int, str] = {}
        sizes: dict[int, int] = {}
        fit = screen._fit_middle

        def kept(text: str, *args: Any) -> pygame.Surface:
            surface = fit(text, *args)
            rows[id(surface)] = text
            sizes[id(surface)] = args[0]
            return surface

        screen.__dict__["_fit_middle"] = kept
        surface = screen.render(view)
        assert ink_on_borders(screen, surface, into_border=True) == []
        floor = screen.m(14)
    finally:
        screen.close()
    labels = [(source, at, rows[id(source)]) for source, at in placed if id(source) in rows]
    mine = next(labels[n:n + k] for k in (1, 2, 3) for n in range(len(labels))
                if " ".join(text for _, _, text in labels[n:n + k]) == label)
    assert all(sizes[id(source)] >= floor for source, _, _ in mine), [
        (text, sizes[id(source)]) for source, _, text in mine]
    masks = []
    for source, (x, y), _ in mine:  # each row's ink where it was drawn
        mask = pygame.mask.Mask(surface.get_size())
        mask.draw(pygame.mask.from_surface(source, 60), (x, y))
        masks.append(mask)
    touching = [(mine[n][2], mine[n + 1][2]) for n in range(len(masks) - 1)
                if any(masks[n].overlap(masks[n + 1], (dx, dy)) for dx in (-1, 0, 1)
                       for dy in (-1, 0, 1))]
    assert touching == []


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("size", list(INK_SIZES))
def test_a_fights_grid_keeps_its_boxes_from_menu_to_menu(size: str, scale: float,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two defence menus of one coc fight, of six and five options, draw their boxes in the same
    places: Deep's kept 190-px boxes and Ann's, with a long parry label, took 254 at
    800x480, so the boxes under a finger moved from one turn to the next (finala73 NIT 7).
    Each fills its row."""
    monkeypatch.setitem(screen_module.LAYOUTS, size, INK_SIZES[size])
    screen = ScreenDisplay(size, text_scale=scale)
    try:
        drawn = []
        for _, view in views("coc defence"):
            screen.render(view)
            drawn.append([box for box, _ in screen._targets])
    finally:
        screen.close()
    deep, ann = drawn  # six options (None, Dodge, two parries, More, Back) and five
    assert len(deep) == 6 and ann == deep[:len(ann)], drawn
    # three a row, filling it to the footer's margin (but for the pixels a share rounds off)
    assert 0 <= screen.width - screen.m(10) - deep[2].right < 3, deep
    assert deep[1].left - deep[0].right == screen.m(TAP_GAP)


def save_pngs(folder: Path) -> None:
    """Every view of the test saved as a PNG in ``folder`` (to look at), with a list of
    what reads whole and what does not."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for size in SIZES:
        screen_module.LAYOUTS[size] = SIZES[size]
        for scale in SCALES:
            screen = ScreenDisplay(size, text_scale=scale)
            for group in GROUPS:
                for n, (name, view) in enumerate(views(group)):
                    wrong = unread(screen, view)
                    path = folder / f"{group}-{n:02d}-{size}-{scale}.png"
                    screen.save_png(path)
                    lines.append(f"{'CUT' if wrong else 'ok '} {path.name} {name} {wrong}")
            screen.close()
    (folder / "index.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import sys

    save_pngs(Path(sys.argv[1]))


@pytest.mark.needs_japanese_font
def test_a_label_takes_no_third_row_where_two_held_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fitted by a three-row step of 1.08 em, the coc defence's "With which weapon?" at
    640x384, text 1.25, put its [A] key alone on a row over "儀式の短剣/Ritual" / "Dagger"
    (reviewscreen74 NIT 2): the rows a label takes are fitted at the one step they are
    drawn at, 1.15 em, and two rows held it."""
    monkeypatch.setitem(screen_module.LAYOUTS, "640x384", INK_SIZES["640x384"])
    view = coc_board_mode().view("With which weapon? 武器は？", options=(
        Option("w:0", "儀式の短剣/Ritual Dagger"), Option("w:1", "こぶし(パンチ)/Fist/Punch"),
        Option("back", "Back 戻る", Button.FLEE)), highlight=0)
    screen = ScreenDisplay("640x384", text_scale=1.25)
    try:
        drawn = spy_text(screen)
        screen.render(view)
    finally:
        screen.close()
    labels = [d.shown for d in drawn if d.label]
    first = labels.index(next(text for text in labels if text.startswith("[A]")))
    assert labels[first:first + 2] == ["[A] 儀式の短剣/Ritual", "Dagger"], labels
