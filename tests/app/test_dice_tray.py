"""The dice tray mode of the play session: menus, simulated and camera dice, the event tables.

Presses come in as keys on a pty (the real KeyboardInput) and as gpiozero MockFactory
button presses; the screen is pygame on the SDL dummy driver; camera dice are rendered
scenes fed through the real CameraDiceSource.
"""

from __future__ import annotations

import io
import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from rich.console import Console

from companion.app.cli import main
from companion.app.modes.dice_tray import QUIT_PROMPT, DiceTrayMode, parse_expressions
from companion.app.session.controls import DOUBLE_PRESS_SECONDS, Controls
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk
from companion.app.session.rolls import TAKEN, CameraFrames, CameraRolls, SimRolls
from companion.dice import ScriptedDice, SimulatedDice
from companion.errors import DataError
from companion.hw.buttons import ButtonPanel, ButtonPins
from companion.hw.dice.render import SceneKind, render_scene
from companion.hw.dice.source import CameraDiceSource, Motion
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import DiceStep, View
from companion.systems.events.run import run_event
from tests.app.dice_tray_helpers import (
    MENU,
    Keys,
    Recorded,
    menu,
    outcome,
    quitting,
    shown_read,
    tables,
    tray,
)
from tests.app.play_pty_helpers import Terminal
from tests.app.table import Buttons
from tests.dice_scenes import still_scene


def test_trap_table_with_simulated_dice_on_the_screen(tmp_path: Path) -> None:
    """EV-TRAP-1 from the tray: the screen shows the same roll and walk as `companion events`
    with the same dice (docs/screen-dice-800x480.png is this tray at the same outcome, drawn
    by scripts/bench_display.py --screenshots)."""
    screen = ScreenDisplay("800x480")
    display = Recorded(screen)
    keys = Keys(display, [(menu, b"3"), (tables, b"3"), (outcome, b"f"), (menu, b"f"),
                          (quitting, b"2")])
    session = tray(SimRolls(SimulatedDice.seeded(7)), Controls([keys.keyboard, display]),
                   display, "simulated 仮想", ("1D6", "2D6"), keys.sleep)
    try:
        session.run()
        shot = next(v for v in display.views if v.dice is not None and v.dice.steps
                    and outcome(v))
        surface = screen.render(shot)
        screen.save_png(tmp_path / "screen-dice-800x480.png")
        # The die is drawn top-left of the dice panel: an ivory face.
        face = surface.get_at((screen.m(20), screen.m(130)))
        assert face.r > 200 and face.g > 200 and face.b > 200
    finally:
        keys.close()
        screen.close()
    assert not keys.script  # every key was used: the tray went menu → trap → outcome → quit
    # Simulated dice are thrown at once: no screen asks the player to throw them (one
    # flashed up for each roll).
    assert not [v.prompt for v in display.views if "dice area" in v.prompt]
    from companion.app.session.rolls import Rolled

    class Recorded7:
        """The seeded dice, each roll recorded as the tray lists it (what it was for)."""

        def __init__(self) -> None:
            self.dice, self.rolled = SimulatedDice.seeded(7), list[Rolled]()

        def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
            values = self.dice.roll(count, sides)
            self.rolled.append(Rolled(count, sides, tuple(values), purpose))
            return values

    dice = Recorded7()
    expected = run_event("trap", dice)
    assert shot.dice is not None
    assert [s.text for s in shot.dice.steps] == [s.text for s in expected.steps]
    # Every roll of the walk, as `companion events` rolls them, with what each was for.
    assert shot.dice.rolls == tuple(r.line() for r in dice.rolled)
    assert [r.split(":")[0] for r in shot.dice.rolls][:1] == [
        s.roll.text for s in expected.steps if s.roll][:1]
    assert shot.dice.title == "罠 Trap (EV-TRAP-1)" and shot.dice.faces


def test_expression_roll_with_gpio_buttons() -> None:
    """The four buttons drive the tray: ATTACK rolls the highlighted 2D6, FLEE goes back;
    Quit asks first, Back lit: item onto Quit, then ATTACK, closes the tray."""
    factory = MockFactory()
    pins = ButtonPins()
    panel = ButtonPanel(pins, bounce_time=None, pin_factory=factory)
    console = Console(file=io.StringIO(), width=100)
    display = Recorded(TerminalDisplay(console))
    presses = [(menu, "attack"), (outcome, "flee"), (menu, "flee"), (quitting, "item"),
               (quitting, "attack")]

    def sleep(_: float) -> None:
        if presses and presses[0][0](display.views[-1]):
            pin = factory.pin(getattr(pins, presses.pop(0)[1]))
            pin.drive_low()
            pin.drive_high()

    session = tray(SimRolls(ScriptedDice([(6, 3), (6, 5)])), Controls([panel, display]), display,
                   "simulated 仮想", ("2D6>=9",), sleep)
    try:
        session.run()
    finally:
        panel.close()
        factory.reset()
    result = next(v for v in display.views if outcome(v))
    assert result.dice is not None and result.dice.rolls == ("(2D6>=9) ＞ 8[3,5] ＞ 失敗/failure",)
    assert result.dice.faces == (3, 5)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "⚂ 3  ⚄ 5" in text and "(2D6>=9) ＞ 8[3,5] ＞ 失敗/failure" in text


def test_one_flee_too_many_after_an_outcome_does_not_close_the_tray() -> None:
    """Buttons-only audit F5: after an outcome B is Menu, and a second B was Quit 終了: the
    tray closed. Quit asks first, Back lit: B there goes back to the menu, and A too (a double
    A on a highlighted Quit closed it: keys75 D1); only A on its Quit quits."""
    buttons = Buttons()
    display = Recorded(TerminalDisplay(Console(file=io.StringIO(), width=100)))
    presses = [(menu, "attack"), (outcome, "flee"), (menu, "flee"), (quitting, "flee"),
               (menu, "flee"), (quitting, "item"), (quitting, "item"), (quitting, "item"),
               (quitting, "attack")]
    asked: list[View] = []

    def sleep(_: float) -> None:
        view = display.views[-1]
        if presses and presses[0][0](view) and view not in asked[-1:]:
            asked.append(view)
            buttons.press(presses.pop(0)[1])

    session = Session(DiceTrayMode(("2D6",), "simulated 仮想"), rolls=SimRolls(
        ScriptedDice([(6, 3), (6, 5)])), display=display, choices=buttons.choices(display, sleep))
    buttons.run(session)
    assert not presses
    question = [v for v in display.views if quitting(v)]
    assert [(o.label, o.button.name if o.button else None) for o in question[0].options] == [
        ("Back 戻る", "FLEE"), ("Quit 終了", None)]
    assert question[0].highlight == 0
    # Roll, Menu, Quit?, Back, Quit?, then item three times there (the highlight onto Quit,
    # back to Back and onto Quit again) and A: the tray closed on the question's Quit alone.
    assert session.mode.ask() is None
    assert session.mode.journal == ["0", "3,5", "1", "2", "0", "2", "1"]


def test_camera_read_is_shown_rejected_and_thrown_again() -> None:
    """Camera dice go through the tile reads' flow: the still read is shown, B rejects it,
    the same dice lying there are not read again, the next throw is read and A accepts it."""
    first, second = still_scene(600, 2), still_scene(700, 2)
    console = Console(file=io.StringIO(), width=100)
    display = Recorded(TerminalDisplay(console))
    reads: list[View] = []

    def read_shown(view: View) -> bool:
        if shown_read(view) and (not reads or view.dice != reads[-1].dice):
            reads.append(view)
            return True
        return False

    keys = Keys(display, [(menu, b"1"), (read_shown, b"b"), (read_shown, b"a"),
                          (outcome, b"f"), (menu, b"f"), (quitting, b"2")])
    controls = Controls([keys.keyboard, display])
    # The first throw lies still for a while, then the second throw lands (and stays).
    stream: Iterator[np.ndarray] = itertools.chain([first.image] * 30,
                                                   itertools.repeat(second.image, 60))
    frames = CameraFrames(stream, controls, Motion().moving)
    camera = CameraDiceSource(frames=frames)
    rolls = CameraRolls(camera, frames, controls, accept_seconds=30.0, poll_seconds=0.0,
                        sleep=keys.sleep)
    try:
        tray(rolls, controls, display, "camera カメラ", ("2D6",), keys.sleep).run()
    finally:
        keys.close()
    assert not keys.script
    assert [sorted(v.dice.faces) for v in reads if v.dice] == [
        sorted(d.value for d in first.dice), sorted(d.value for d in second.dice)]
    result = next(v for v in display.views if outcome(v))
    assert result.dice is not None and sorted(result.dice.faces) == sorted(
        d.value for d in second.dice)
    assert any("rejected" in v.status for v in display.views)
    assert "B rejects, A accepts" in console.file.getvalue()  # type: ignore[attr-defined]


def test_back_while_waiting_for_the_dice_returns_to_the_menu() -> None:
    """B while the camera waits for a throw gives up the roll, not the tray."""
    empty = render_scene(602, kind=SceneKind.EMPTY).image
    display = Recorded(TerminalDisplay(Console(file=io.StringIO(), width=100)))
    def throwing(view: View) -> bool:
        return "Throw 2D6" in view.prompt

    keys = Keys(display, [(menu, b"1"), (throwing, b"b"), (menu, b"f"), (quitting, b"2")])
    # On the table's clock: the menu's f comes a glance after B left the wait, not as its
    # double (which the menu drops, reviewf67 RISK 1).
    controls = Controls([keys.keyboard, display], clock=keys.time_at_the_table)

    def camera() -> Iterator[np.ndarray]:
        """An empty dice area, while the player acts between frames."""
        while True:
            keys.sleep(0.0)
            yield empty

    frames = CameraFrames(camera(), controls, Motion().moving)
    source = CameraDiceSource(frames=frames, timeout_s=20)
    rolls = CameraRolls(source, frames, controls, accept_seconds=1.0, poll_seconds=0.0,
                        sleep=keys.sleep)
    try:
        tray(rolls, controls, display, "camera カメラ", ("2D6",), keys.sleep).run()
    finally:
        keys.close()
    assert not keys.script
    assert not any(outcome(v) for v in display.views)  # nothing was rolled
    assert any("none in view" in v.status for v in display.views)


@pytest.mark.parametrize("text", ["1D6, 2D6+", "3X"])
def test_bad_expression_setting_names_the_key(text: str) -> None:
    with pytest.raises(DataError, match=r"dice\.expressions"):
        parse_expressions(text)
    assert parse_expressions("1D6, 2D6>=9 ") == ("1D6", "2D6>=9")


def test_the_tray_keeps_a_count_of_its_answers_not_every_one() -> None:
    """The tray saves nothing, yet held every throw and choice of the run in memory (~70 B
    an answer, soak 57 #6): it counts them, and keeps only the last ones."""
    from companion.app.session.mode import Throw

    mode = DiceTrayMode(("2D6",), "simulated 仮想")
    for n in range(400):
        mode.answer(0)  # Roll 2D6, or Again
        mode.answer(Throw((n % 6 + 1, 2)))
    assert mode.progress() == 800
    assert len(mode.journal) <= 100
    assert mode.journal[-4:] == ["0", "3,2", "0", "4,2"]  # n = 398, 399


@pytest.mark.parametrize(("argv", "message"), [
    (["--mode", "dice", "--headless"], "--headless plays with --mode game"),
    (["--mode", "dice", "--display", "terminal", "--choices", "auto"],
     "the dice tray needs a display and a player"),
])
def test_dice_tray_needs_a_display_and_a_player(argv: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *argv]) != 0
    assert message in capsys.readouterr().err


def test_headless_plays_a_game_whatever_the_config_mode(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_PLAY_MODE", "dice")
    assert main(["play", "--headless", "--seed", "3"]) == 0
    assert "Result:" in capsys.readouterr().out


def test_play_mode_dice_in_a_terminal_with_simulated_dice(tmp_path: Path) -> None:
    """`companion play --mode dice --dice sim`: the explore table (EV-EXP-1) in a terminal."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100"}
    term = Terminal(["--mode", "dice", "--dice", "sim", "--seed", "4", "--display", "terminal",
                     "--choices", "keyboard"], env)
    term.answer(MENU, 1, b"3")
    term.answer("Which table?", 1, b"5")
    term.answer("Again もう一度", 1, b"b")
    term.answer(MENU, 2, b"b")
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0, term.proc.stderr.read() if term.proc.stderr else b""
    first = run_event("explore", SimulatedDice.seeded(4)).steps[0]
    assert first.roll is not None and first.roll.text in term.text()
    assert "EV-EXP-1" in term.text() and "simulated 仮想" in term.text()


def test_the_tray_picks_the_species_from_the_lists_in_the_config_folder(
    tmp_path: Path
) -> None:
    """The monster table in the tray said only "the GM picks the species": the tray had no
    way to the player's lists (--lists is the command's). It reads events_lists.toml in the
    config folder, as every `companion events` does."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "events_lists.toml").write_text(
        "".join(f"[[monster]]\nname = 'Slime {level}'\nlevel = {level}\n\n"
                for level in range(1, 13)), encoding="utf-8")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(config),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100"}
    term = Terminal(["--mode", "dice", "--dice", "sim", "--seed", "4", "--display", "terminal",
                     "--choices", "keyboard"], env)
    term.answer(MENU, 1, b"3")
    term.answer("Which table?", 1, b"4")  # Monster
    term.answer("Again もう一度", 1, b"b")
    term.answer(MENU, 2, b"b")
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0, term.proc.stderr.read() if term.proc.stderr else b""
    assert re.search(r"種類/species \(level (\d+)\): Slime \1 \(the only one in your list\)",
                     term.text()), term.text()[-1500:]


def test_the_tray_starts_over_a_poison_list_grown_past_its_read_limit(tmp_path: Path) -> None:
    """A list of unticked poisons the tray itself wrote, past 256 KiB, stopped every
    `companion play --mode dice` at its start ("larger than 256 KiB, so not a list of
    poisons"), the boot service's at every restart (soak 57 #1). It is kept aside as any
    unreadable list is, tracking starts afresh, and the Poisons view says where it went."""
    data = tmp_path / "data"
    (data / "events").mkdir(parents=True)
    grown = "".join(f'["victim {n}"]\nface = 2\nrule = "EV-POI-6"\ntoxicity = 8\n'
                    "hours_left = 3\n\n" for n in range(2, 5000))
    (data / "events" / "poisoned.toml").write_text(grown, encoding="utf-8")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(data), "COLUMNS": "200"}
    term = Terminal(["--mode", "dice", "--dice", "sim", "--seed", "4", "--display", "terminal",
                     "--choices", "keyboard"], env)
    term.answer(MENU, 1, b"4")  # Poisons 毒の経過
    term.answer("No poison tracked", 1, b"b")
    term.answer(MENU, 2, b"b")
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0, term.proc.stderr.read() if term.proc.stderr else b""
    # (Read with the panel's borders and line breaks gone: a long TMPDIR wraps the line.)
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", term.text()).split())
    assert "is not a list of poisons (larger than 256 KiB)" in said
    (kept,) = (data / "events").glob("poisoned.toml.corrupt-*")
    assert kept.read_text(encoding="utf-8") == grown


def test_play_mode_dice_with_the_camera_on_a_picture(tmp_path: Path) -> None:
    """`--dice camera` with `dice.camera_source` set to a photo of two still dice: the read is
    shown, A accepts it, and the 2D6 roll is those dice. Again asks for a new throw (it
    used to read the same picture at once), which a picture never gives: it says so, and
    B goes back."""
    scene = still_scene(600, 2)
    picture = tmp_path / "throw.png"
    cv2.imwrite(str(picture), scene.image)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100",
           "COMPANION_DICE_CAMERA_SOURCE": str(picture)}
    term = Terminal(["--mode", "dice", "--display", "terminal", "--choices", "keyboard"], env)
    term.answer(MENU, 1, b"2")  # Roll 2D6
    term.answer("B rejects, A accepts", 1, b"a")
    # Read, then pressed: an A sooner after a read accepted with A is a double tap's second.
    term.answer("Again もう一度", 1, b"a", pause=DOUBLE_PRESS_SECONDS + 0.2)
    term.answer(TAKEN, 1, b"b")  # waiting for a throw that a picture never gives
    # B again on the menu, read past the first's double (dropped: reviewf67 RISK 1).
    term.answer(MENU, 2, b"b", pause=DOUBLE_PRESS_SECONDS + 0.2)
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0, term.proc.stderr.read() if term.proc.stderr else b""
    assert term.text().count("Read 読み取り 2D6") == 1
    assert "a still picture never moves" in term.text()
    faces = [d.value for d in scene.dice]
    shown = {f"(2D6) ＞ {sum(faces)}[{a},{b}]" for a, b in (faces, faces[::-1])}
    assert any(line in term.text() for line in shown), term.text()[-1500:]
    assert "camera カメラ" in term.text()


def test_a_tables_follow_up_throw_says_so_and_every_throw_is_pictured() -> None:
    """EV-MON-1's 1D6 of 2, then its 1/2D: the second wait says it is the table's next roll
    (it repeated 'Throw 1D6' as if the first was not taken) and what it decides, how many
    monsters (it did not say), and the outcome pictures both dice (it pictured the last
    alone, beside the first roll's line)."""
    from companion.app.session.mode import RollAsk, Throw
    from companion.app.session.rolls import throw_prompt

    mode = DiceTrayMode(("1D6", "2D6"), "simulated 仮想")
    mode.answer(2)  # Event table
    mode.answer(3)  # Monster
    first = mode.ask()
    assert isinstance(first, RollAsk)
    assert throw_prompt(first) == ("Throw 1D6 in the dice area 1D6を振って: "
                                   "モンスター Monster (EV-MON-1)")
    mode.answer(Throw((2,)))
    second = mode.ask()
    # ... and what it decides, first: the row's count, from the events data (1/2D monsters).
    assert isinstance(second, RollAsk) and second.prompt == (
        "how many monsters 何体 (1/2D) — モンスター Monster (EV-MON-1), roll 2 2投目")
    mode.answer(Throw((3,)))
    assert mode.dice.faces == (2, 3) and mode.dice.rolls == (
        "(1D6) ＞ 2: the Monsters モンスター table (EV-MON-1)",
        "(1D6) ＞ 3: how many monsters 何体 (1/2D)")  # the count's die too (audit gc #8)


def test_a_poison_s_follow_up_throws_say_what_each_decides() -> None:
    """EV-POI-4 row 6 (EV-POI-9): the duration's 1D6, then which ability and its sign (the
    dice of EV-POI-9's Defaults): each follow-up wait names what it decides."""
    from companion.app.session.mode import RollAsk, Throw

    mode = DiceTrayMode(("1D6",), "simulated 仮想")
    mode.answer(1)  # Event table
    mode.answer(6)  # Poison
    prompts = []
    for face in (6, 4, 4, 1):
        ask = mode.ask()
        assert isinstance(ask, RollAsk)
        prompts.append(ask.prompt)
        mode.answer(Throw((face,)))
    assert prompts[1] == "duration 効果持続時間 (hours) — 毒 Poison (EV-POI-4), roll 2 2投目"
    assert prompts[2] == "which ability 能力値 — 毒 Poison (EV-POI-4), roll 3 3投目"
    assert prompts[3] == ("plus or minus ± (odd −, even +) — 毒 Poison (EV-POI-4), roll 4 "
                          "4投目")


def test_the_table_buttons_name_each_table_english_first() -> None:
    """A button cut short read "[4] モンスタ…": the English first, as the companion's
    buttons do; the tray's title keeps the seed's order, 罠 Trap (EV-TRAP-1)."""
    mode = DiceTrayMode(("1D6",), "simulated 仮想")
    mode.answer(1)  # Event table
    menu = mode.ask()
    assert isinstance(menu, ChoiceAsk)
    assert [o.label for o in menu.options] == [
        "Door 扉", "Chest 宝箱", "Trap 罠", "Monster モンスター", "Explore 探索",
        "Recovery 回復", "Poison 毒", "Back 戻る"]
    mode.answer(2)  # Trap
    assert mode.dice.title == "罠 Trap (EV-TRAP-1)"


def test_the_tray_asks_in_both_languages() -> None:
    """The menu's question, its rolls and the tables' question were English alone."""
    mode = DiceTrayMode(("1D6",), "simulated 仮想")
    menu = mode.ask()
    assert isinstance(menu, ChoiceAsk)
    assert menu.prompt == ("Dice tray ダイストレイ: roll dice, or an event table? "
                           "ダイスかイベント表か")
    assert menu.options[0].label == "Roll 1D6 振る"
    mode.answer(1)  # Event table
    tables = mode.ask()
    assert isinstance(tables, ChoiceAsk) and tables.prompt == "Which table? どの表？"


def test_a_table_runs_in_generic_mode_whatever_events_toml_sets() -> None:
    """The tray has no party file: with `mode = "sw"` in the player's events.toml every table
    said "No roll: sw mode needs the party"; it runs in generic mode, as playing.md says."""
    from companion.app.session.mode import RollAsk, Throw
    from companion.systems.events.rules import load_rules

    rules = load_rules().with_overrides({"§1": {"mode": "sw"}})
    mode = DiceTrayMode(("2D6",), "simulated 仮想", rules)
    mode.answer(1)  # Event table
    mode.answer(0)  # Door
    ask = mode.ask()
    assert isinstance(ask, RollAsk)
    mode.answer(Throw((2,)))  # a lock (EV-DOOR-1 row 2)
    assert "EV-DOOR-1" in {step.rule for step in mode.dice.steps}
    assert not any("party" in step.text for step in mode.dice.steps)


def test_the_tray_tracks_poisons_and_ticks_them_at_a_block_s_end_or_an_hour_of_rest(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-POI-2's Default: the tray offers "End block" and "Rest 1 hour", each ticking the
    tracked poisons, the same list `companion events` keeps; a poison the tray's table gives
    is tracked (as the victim: the tray has no names), and a recovery spot cures them all."""
    from companion.app.poisons import PoisonList, poisons_path
    from companion.app.session.mode import RollAsk, Throw

    assert main(["events", "poison", "--who", "Aki", "--seed", "1"]) == 0
    capsys.readouterr()
    mode = DiceTrayMode(("1D6",), "simulated 仮想", poisons=PoisonList(poisons_path()))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [o.label for o in ask.options] == [
        "Roll 1D6 振る", "Tables 表", "Tick 毒の経過", "Quit 終了"]
    mode.answer(1)  # Event table
    mode.answer(6)  # Poison
    for face in (1, 3):  # 判定－１/Check −1 for 3 hours
        mode.answer(Throw((face,)))
    assert mode.dice.steps[-1].text == ("Tracking victim's poison: Tick 毒の経過 in the menu "
                                        "ticks it")
    mode.answer(1)  # the outcome's Menu
    mode.answer(2)  # Poisons
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk) and [o.label for o in ask.options] == [
        "End block ブロック終了", "Rest 1 hour 休息1時間", "Back 戻る"]
    assert ask.prompt == ("Poisons 毒の経過: the end of a block, or an hour of rest? "
                          "ブロック終了か休息か (EV-POI-2)")
    listed = [s.text for s in mode.dice.steps]
    assert [line.split(":")[0] for line in listed] == ["Aki", "victim"]
    assert listed[1].endswith("毒性値/toxicity 8; 3 h left")
    mode.answer(0)  # End block
    assert mode.dice.steps[0].text == ("ブロック終了/End of block: poisons tick once "
                                       "(1 h (default))")
    assert "victim: 判定－１/Check −1: 2 h left" in [s.text for s in mode.dice.steps]
    mode.answer(1)  # Rest 1 hour
    mode.answer(1)  # and another
    texts = [s.text for s in mode.dice.steps]
    assert texts[0] == "休息/Rest 1 h: poisons tick every hour"
    assert "victim: 判定－１/Check −1 wears off" in texts
    assert list(PoisonList(poisons_path()).poisons) == ["Aki"]  # 異性化 for 5 h: 2 h left
    assert texts[-1].startswith("Aki: 異性化/Gender swap") and texts[-1].endswith("; 2 h left")
    mode.answer(2)  # Back
    mode.answer(1)  # Event table
    mode.answer(5)  # Recovery
    while isinstance(ask := mode.ask(), RollAsk):
        mode.answer(Throw((3,) * ask.count))
    assert mode.dice.steps[-1].text == ("Poisons cured (EV-REC-1): Aki's 異性化/Gender swap")
    assert PoisonList(poisons_path()).poisons == {}
    mode.answer(1)  # Menu
    mode.answer(2)  # Poisons
    assert [s.text for s in mode.dice.steps] == ["No poison tracked 毒なし"]


@pytest.mark.parametrize("before", [5, 6, 40])
def test_past_a_party_s_worth_of_poisons_the_tray_asks_whether_time_has_passed(
        before: int) -> None:
    """The tray tracks each poison its table gives as another victim (it has no names), and
    only End block, Rest, a cure or a recovery spot ends one: a GM who never opened
    Poisons 毒の経過 had 838 tracked, every roll slower (soak 57 #1). Past six, more than a
    party has with one poison a character (EV-POI-3), the outcome asks whether time has
    passed; every poison is still tracked, as only the GM knows which are over."""
    from companion.app.poisons import PoisonList, poisons_path
    from companion.app.session.mode import Throw
    from companion.systems.events.poisoned import Poison

    written = PoisonList(poisons_path())
    written.poisons = {("victim" if n == 1 else f"victim {n}"):
                       Poison(face=2, rule="EV-POI-6", toxicity=8, hours_left=3)
                       for n in range(1, before + 1)}
    written.save()
    mode = DiceTrayMode(("1D6",), "simulated 仮想", poisons=PoisonList(poisons_path()))
    mode.answer(1)  # Event table
    mode.answer(6)  # Poison
    for face in (1, 3):  # 判定－１/Check −1 for 3 hours
        mode.answer(Throw((face,)))
    count = before + 1
    tracking = f"Tracking victim {count}'s poison: Tick 毒の経過 in the menu ticks it"
    asked = (f"{count} poisons tracked 毒{count}件, more than a party has (one each, "
             "EV-POI-3): has time passed? Tick 毒の経過 → End block or Rest")
    texts = [step.text for step in mode.dice.steps]
    assert texts[-2:] == [tracking, asked] if count > 6 else texts[-1] == tracking
    assert len(PoisonList(poisons_path()).poisons) == count
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    if count <= 6:
        assert ask.prompt == "毒 Poison: the table's outcome 結果"
        assert [o.label for o in ask.options] == ["Again もう一度", "Menu メニュー"]
        return
    # On the screen the walk's last rows are cut: the prompt asks, and a button answers.
    assert ask.prompt == (f"毒 Poison: {count} poisons tracked 毒{count}件 — has time passed? "
                          "時間経過は？")
    assert [(o.label, o.button.name if o.button else None) for o in ask.options] == [
        ("Again もう一度", None), ("Tick 毒の経過", None), ("Menu メニュー", "FLEE")]
    mode.answer(1)  # Poisons
    mode.answer(0)  # End block
    assert len(PoisonList(poisons_path()).poisons) == count  # 3 h, 2 left
    mode.answer(2)  # Back: the menu
    mode.answer(0)  # Roll 1D6
    mode.answer(Throw((4,)))
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert [o.label for o in ask.options] == ["Again もう一度", "Menu メニュー"]


def test_the_tray_and_the_command_beside_it_change_one_poison_list(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """A poison `companion events` tracks while the tray is open is in the tray's list, and
    the tray's End block does not write back its older copy without it."""
    from companion.app.poisons import PoisonList, poisons_path

    mode = DiceTrayMode(("1D6",), "simulated 仮想", poisons=PoisonList(poisons_path()))
    assert main(["events", "poison", "--who", "Aki", "--seed", "1"]) == 0
    capsys.readouterr()
    mode.answer(2)  # Poisons
    assert [s.text.split(":")[0] for s in mode.dice.steps] == ["Aki"]
    assert main(["events", "poison", "--who", "Ben", "--seed", "3"]) == 0  # 異性化 for 5 h
    mode.answer(0)  # End block
    assert list(PoisonList(poisons_path()).poisons) == ["Aki", "Ben"]
    assert [s.text.split(":")[0] for s in mode.dice.steps[1:3]] == ["Aki", "Ben"]


def test_a_poison_list_that_cannot_be_saved_ends_no_roll(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only data folder: the tray quit mid-roll ("companion: error: …/events: no file
    can be made in this folder") and the poison table's outcome was never shown. The outcome
    is shown, and the tray goes on; so does the Poisons view's End block. Why the list was
    not saved, and where, goes to stderr; the screen's status says it short, in both
    languages (it was the walk's last line, in English, the first cut from a long walk)."""
    import tempfile

    from companion.app.poisons import PoisonList, poisons_path
    from companion.app.session.mode import Throw

    assert main(["events", "poison", "--who", "Aki", "--seed", "1"]) == 0
    capsys.readouterr()
    before = poisons_path().read_bytes()
    folder = poisons_path().parent

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    mode = DiceTrayMode(("1D6",), "simulated 仮想", poisons=PoisonList(poisons_path()))
    mode.answer(1)  # Event table
    mode.answer(6)  # Poison
    for face in (1, 3):  # 判定－１/Check −1 for 3 hours
        mode.answer(Throw((face,)))
    assert [r.split(":")[0] for r in mode.dice.rolls] == ["(1D6) ＞ 1", "(1D6) ＞ 3"]
    texts = [s.text for s in mode.dice.steps]
    assert "効果持続時間/duration (1D6) ＞ 3 hours" in texts
    assert not any("poison list" in text for text in texts)
    assert capsys.readouterr().err == (
        f"companion: cannot save the poison list {poisons_path()} ({folder}: no file can be "
        "made in this folder: Permission denied): this poison is not tracked; note it by hand\n")
    assert mode.view("").status == ("poison list not saved 毒リスト保存不可: this poison is not "
                                    "tracked; note it by hand 手で記録を")
    mode.answer(1)  # the outcome's Menu
    assert mode.view("").status == ""
    mode.answer(2)  # Poisons
    mode.answer(0)  # End block
    assert capsys.readouterr().err.startswith(
        f"companion: cannot save the poison list {poisons_path()}")
    assert mode.view("").status == ("poison list not saved 毒リスト保存不可: the time passed is "
                                    "not kept in it 経過は未記録")
    assert poisons_path().read_bytes() == before
    assert isinstance(mode.ask(), ChoiceAsk)  # the tray goes on


@pytest.mark.parametrize(("table", "face", "hint"), [
    (0, 1, "On a failed disarm roll Menu → Tables → Trap "  # a trapped door
           "失敗したらメニュー→表→罠"),
    (2, 4, "On a failed check roll Menu → Tables → Poison "  # a poison needle
           "失敗したらメニュー→表→毒"),
])
def test_a_trap_says_how_the_tray_rolls_what_it_sets_off(table: int, face: int,
                                                         hint: str) -> None:
    """EV-DOOR-2, EV-TRAP-4: a trapped door in the tray said "on failure roll the trap table
    (companion events trap)", and a poison needle "(companion events poison --who NAME)",
    command lines the tray cannot run; each now says what to pick from the menu: the
    whole path, for the main menu's poison item is the tracking list, not the table (table
    audit gc #7)."""
    from companion.app.session.mode import Throw

    mode = DiceTrayMode(("2D6",), "simulated 仮想")
    mode.answer(1)  # Event table
    mode.answer(table)
    mode.answer(Throw((face,)))  # EV-DOOR-1 row 1: trapped and locked; EV-TRAP-1 row 4
    texts = [step.text for step in mode.dice.steps]
    assert hint in texts
    assert not any("companion events" in text for text in texts)


def test_the_tray_s_title_and_outcomes_are_in_both_languages() -> None:
    """The menu's title "Roll or table? どちら？" was cut in the Dice panel
    before its Japanese; the outcomes "罠 Trap: the table's outcome" and "2D6: 5" were
    English alone."""
    from companion.app.session.mode import Throw

    mode = DiceTrayMode(("2D6",), "simulated 仮想")
    assert mode.dice.title == "Roll or table? どちら？"
    mode.answer(0)  # Roll 2D6
    mode.answer(Throw((2, 3)))
    outcome = mode.ask()
    assert isinstance(outcome, ChoiceAsk) and outcome.prompt == "2D6: total 合計 5"
    mode.answer(1)  # Menu
    mode.answer(1)  # Event table
    mode.answer(2)  # Trap
    mode.answer(Throw((4,)))
    outcome = mode.ask()
    assert isinstance(outcome, ChoiceAsk)
    assert outcome.prompt == "罠 Trap: the table's outcome 結果"


def test_the_tray_s_title_fits_its_panel_with_both_halves() -> None:
    from tests.hw.screen_layout_helpers import spy_text

    mode = DiceTrayMode(("2D6",), "simulated 仮想")
    screen = ScreenDisplay("800x480")
    try:
        drawn = spy_text(screen)
        screen.render(mode.view("Dice tray ダイストレイ"))
    finally:
        screen.close()
    (title,) = [d for d in drawn if d.text == "Roll or table? どちら？"]
    assert not title.cut, title


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_a_follow_up_throw_shows_the_table_walked_so_far(size: str) -> None:
    """EV-MON-1 row 5, its count's die awaited: the Table panel was empty, so the player saw
    neither the row the 5 gave (level ±0, 1D6 of them) nor why a second die was asked for.
    It shows the row, and a row marked so far 途中 naming the die awaited; after that die,
    the whole walk as before, the mark gone."""
    from companion.app.session.mode import RollAsk, Throw
    from companion.app.session.rolls import WAIT_OPTIONS, throw_prompt
    from companion.systems.events.rules import load_rules
    from tests.hw.screen_layout_helpers import spy_text, texts_drawn

    so_far = "so far 途中"  # the project's mark of a walk not whole (the fights' too)
    row = load_rules().tables["monster"].row_for(5)["ja"]
    mode = DiceTrayMode(("1D6",), "camera カメラ")
    mode.answer(1)  # Event table
    mode.answer(3)  # Monster
    mode.answer(Throw((5,)))
    ask = mode.ask()
    assert isinstance(ask, RollAsk)
    screen = ScreenDisplay(size)
    try:
        drawn, texts = spy_text(screen), texts_drawn(screen)
        screen.render(mode.view(throw_prompt(ask), options=WAIT_OPTIONS, status=TAKEN))
        assert so_far in texts and "EV-MON-1" in texts  # the rule column: mark, row's ID
        assert mode.dice.steps[0].rule == "EV-MON-1"
        assert mode.dice.steps[-1] == DiceStep(
            so_far, "awaiting roll 2 2投目待ち: how many monsters 何体 (1D6)")
        table = [d for d in drawn if d.text and any(d.text in s.text for s in mode.dice.steps)]
        assert not [d.shown for d in table if d.cut]
        shown = "".join(d.text for d in table).replace(" ", "")
        assert f"モンスター/Monsters:(1D6)＞5＞{row}".replace(" ", "") in shown
        assert "level-1monsters" in shown and "awaitingroll2" in shown

        mode.answer(Throw((4,)))  # the count: the walk is whole
        drawn, texts = spy_text(screen), texts_drawn(screen)
        screen.render(mode.view("…"))
    finally:
        screen.close()
    whole = run_event("monster", ScriptedDice([(6, 5), (6, 4)]), mode="generic")
    assert [(s.rule, s.text) for s in mode.dice.steps] == [(s.rule, s.text)
                                                          for s in whole.steps]
    assert so_far not in texts and "so far" not in "".join(d.text for d in drawn)
    assert "4×level-1monsters" in "".join(d.text for d in drawn).replace(" ", "")


@pytest.mark.parametrize(("expression", "for_what"), [
    *((bare, "Dice tray ダイストレイ")
      for bare in ("2D6", "1d6", "1D6", "d6", "D6", "2D", "3d6", "D20", "D100", "2d10")),
    *((more, more) for more in ("2D6>=9", "1D6+1", "4D6KH3", "D66", "D66S", "3B6", "S2D6",
                                "2D6 attack", "1D6+1D4"))])
def test_a_plain_roll_says_its_dice_once(expression: str, for_what: str) -> None:
    """Display audit 56 #13: "Throw 2D6 in the dice area 2D6を振って: 2D6", and review 56 #7:
    "Throw 1D6 … : d6", "Throw 1D100 … : D100". A bare roll's wait names the tray instead,
    however the dice are written; an expression that says more (a target, a bonus, kept
    dice, D66's reading, a pool, a secret roll, a comment, a second kind of die) stays."""
    from companion.app.session.mode import RollAsk
    from companion.app.session.rolls import throw_prompt

    mode = DiceTrayMode((expression,), "simulated 仮想")
    mode.answer(0)  # Roll <expression>
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt == for_what
    dice = f"{ask.count}D{ask.sides}"
    assert throw_prompt(ask) == f"Throw {dice} in the dice area {dice}を振って: {for_what}"
