"""The dice tray's *Undo 取り消し* with typed dice (events72 RISK 3): a die typed wrong on a
table or a roll is taken back with what its walk tracked (a poison, a cure) and typed
again; Undo on a table held by Back takes back the throw before, so a table is corrected
die by die. Thrown dice (the camera's, simulated) get no Undo: it would be a free reroll."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import file_locks
from companion.app import poisons as poisons_module
from companion.app.command_name import companion_line
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.modes import dice_tray as dice_tray_module
from companion.app.modes.dice_tray import (
    TABLE_UNREADABLE,
    TRACK_REFUSED,
    UNDO,
    UNDO_REFUSED,
    UNDO_REFUSED_CURE,
    UNDO_REFUSED_GONE,
    DiceTrayMode,
    Stage,
    table_path,
)
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.controls import Controls
from companion.app.session.mode import ChoiceAsk, RollAsk, Throw
from companion.app.session.system_menu import SystemMenu
from companion.hw.buttons import Button
from companion.systems.events.poisoned import Poison
from tests.app.table import PlayerAtTheScreen

TABLES, RECOVERY, POISON = 2, 5, 6  # the menu's Tables (after 1D6, 2D6), the tables'


def typed_tray(*, typed: bool = True) -> DiceTrayMode:
    return DiceTrayMode(("1D6", "2D6"), "typed 入力", poisons=PoisonList(poisons_path()),
                        typed=typed)


def choice(mode: DiceTrayMode) -> ChoiceAsk:
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk), ask
    return ask


def pick(mode: DiceTrayMode, label: str) -> None:
    labels = [o.label for o in choice(mode).options]
    mode.answer(labels.index(label))


def tracked() -> dict[str, dict[str, object]]:
    return {name: p.to_json() for name, p in PoisonList(poisons_path()).poisons.items()}


def poison_table(mode: DiceTrayMode, *faces: int) -> None:
    mode.answer(TABLES)
    mode.answer(POISON)
    for face in faces:
        mode.answer(Throw((face,)))


def test_undo_takes_back_a_poison_s_last_die_and_its_poison() -> None:
    """The audit's run: Poison, 4 then 3 typed for the maximum: victim's poison tracked.
    Undo takes it back and asks the maximum again; typed 2, it is victim's (not a
    `victim 2` beside the wrong one), with a maximum of 2."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    assert tracked() == {"victim": {"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                                    "damage_max": 3}}
    options = choice(mode).options
    assert [o.label for o in options] == ["Again もう一度", "Menu メニュー", UNDO]
    assert options[1].button is Button.FLEE  # Menu stays the back button's, and index 1
    pick(mode, UNDO)
    assert tracked() == {}
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.throw == 2
    assert "the poison's maximum damage" in ask.prompt
    mode.answer(Throw((2,)))
    assert tracked() == {"victim": {"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                                    "damage_max": 2}}


def test_undo_on_a_table_held_by_back_takes_back_the_die_before() -> None:
    """The first die was wrong (4 for 3): Undo (the last die), Back at the die asked
    again, Undo there takes the table's first die back; typed 3 3, the list holds the
    love potion alone."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    pick(mode, UNDO)
    mode.answer(Throw(back=True))  # held: Again, Menu, and Undo
    assert [o.label for o in choice(mode).options] == ["Again もう一度", "Menu メニュー", UNDO]
    pick(mode, UNDO)
    ask = mode.ask()
    assert ask == RollAsk("毒 Poison (EV-POI-4)", 1, 6)  # the table's first throw
    mode.answer(Throw((3,)))
    mode.answer(Throw((3,)))
    assert list(tracked()) == ["victim"] and tracked()["victim"]["rule"] == "EV-POI-7"


def test_undo_of_a_recovery_puts_the_cured_poison_back() -> None:
    """A recovery spot cures every tracked poison (EV-REC-1); its HP die typed wrong and
    undone, the poison it cured is tracked again until the table ends anew."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    pick(mode, "Menu メニュー")
    mode.answer(TABLES)
    mode.answer(RECOVERY)
    mode.answer(Throw((3, 3)))
    mode.answer(Throw((3, 3)))
    assert tracked() == {}
    pick(mode, UNDO)
    assert list(tracked()) == ["victim"]
    mode.answer(Throw((2, 3)))
    assert tracked() == {}


def test_undo_changes_nothing_when_the_list_changed_since() -> None:
    """`companion events cure` (or a Tick) beside the tray after the outcome: the list is
    not the one the table left, and is not written over; the status says so."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    PoisonList(poisons_path()).cure("victim")
    pick(mode, UNDO)
    assert mode.stage.value == "outcome"
    assert mode.trouble == UNDO_REFUSED_GONE
    assert tracked() == {}


def test_undo_refused_names_a_cure_only_for_a_poison_still_listed() -> None:
    """finala72 NIT 1: victim cured beside the tray since the outcome, the refused Undo
    named `companion events cure --who victim`, which fails ('victim' has no tracked
    poison). Aki's poison tracked beside as well: the list changed, and victim's poison
    is gone; the status says so and names no cure."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    listed = PoisonList(poisons_path())
    listed.cure("victim")
    aki = Poison.from_json({"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                            "damage_max": 5}, "test")
    assert listed.put_back({"Aki": aki}, {})  # as `events poison --who Aki` would
    pick(mode, UNDO)
    assert mode.trouble == UNDO_REFUSED_GONE
    assert "events cure" not in mode.trouble
    assert list(tracked()) == ["Aki"]


def test_undo_refused_names_the_cure_command_on_the_screen() -> None:
    """reviewe72 NIT 5: the status said "use Tick", which cures nothing (the Poisons view
    has End block, Rest and Back); `companion events cure` was on stderr only. Aki's
    poison tracked beside the tray since the outcome, the status names the command that
    ends the poison the table gave."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    listed = PoisonList(poisons_path())
    now = dict(listed.poisons)
    assert listed.put_back({**now, "Aki": now["victim"]}, now)  # as `events poison` would
    pick(mode, UNDO)
    assert mode.trouble.startswith("not undone 取り消せず: the list changed; cure it by "
                                   "hand 手で解除: ")
    assert mode.trouble == UNDO_REFUSED.format(
        cure=companion_line("events", "cure", "--who", "victim"))
    assert list(tracked()) == ["victim", "Aki"]


def test_undo_of_a_cure_refused_says_the_cure_stands() -> None:
    """A recovery's cure undone while the list changed since: no command tracks the poison
    again; the status says the cure stands and to note the poison by hand."""
    mode = typed_tray()
    poison_table(mode, 4, 3)
    pick(mode, "Menu メニュー")
    mode.answer(TABLES)
    mode.answer(RECOVERY)
    mode.answer(Throw((3, 3)))
    mode.answer(Throw((3, 3)))
    listed = PoisonList(poisons_path())
    listed.put_back({"Aki": Poison.from_json({"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                                              "damage_max": 3}, "test")}, {})
    pick(mode, UNDO)
    assert mode.trouble == UNDO_REFUSED_CURE


def test_a_plain_roll_typed_wrong_is_typed_again() -> None:
    mode = typed_tray()
    mode.answer(1)  # 2D6
    mode.answer(Throw((6, 6)))
    pick(mode, UNDO)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.count == 2
    mode.answer(Throw((1, 2)))
    assert mode.reading == "total 合計 3"


def test_thrown_dice_get_no_undo() -> None:
    """Simulated or camera dice: no Undo, the outcome as it was."""
    mode = typed_tray(typed=False)
    poison_table(mode, 4, 3)
    assert [o.label for o in choice(mode).options] == ["Again もう一度", "Menu メニュー"]


def test_a_table_taken_up_ended_after_a_stop_offers_no_undo() -> None:
    """A table that ended as the power went is taken up at its outcome, its poison tracked
    before the stop (or not): this tray did not track it, so an Undo could not take it
    back, and the die typed again would track a second poison. No Undo there."""
    table_path().parent.mkdir(parents=True, exist_ok=True)
    table_path().write_text(json.dumps({"version": 1, "table": {
        "table": "poison", "expression": None, "throws": [[4], [3]], "stage": "outcome",
        "resume": False, "held": False, "note": "", "ended": {"poisons": None}}}),
        encoding="utf-8")
    mode = DiceTrayMode(("1D6",), "typed 入力", poisons=PoisonList(poisons_path()),
                        table_file=table_path(), typed=True)
    mode.take_up_saved()
    assert mode.report is not None
    assert [o.label for o in choice(mode).options] == ["Again もう一度", "Menu メニュー"]


class PowerCut(BaseException):
    """The power going as a file is written: nothing after it runs."""


def cut_at(mode: DiceTrayMode, module: object) -> None:
    """Undo on ``mode``'s outcome, the power going at ``module``'s next file write."""
    def cut(*_args: object, **_kwargs: object) -> None:
        raise PowerCut

    with pytest.MonkeyPatch.context() as patched, pytest.raises(PowerCut):
        patched.setattr(module, "atomic_write_text", cut)
        pick(mode, UNDO)


def tray_with_its_file() -> DiceTrayMode:
    return DiceTrayMode(("1D6", "2D6"), "typed 入力", poisons=PoisonList(poisons_path()),
                        table_file=table_path(), typed=True)


def test_a_power_cut_inside_undo_after_the_table_keeps_its_throws() -> None:
    """reviewe72 RISK 1: the power goes as Undo writes the poison list back, the table
    part-thrown written before it. The start takes the table up at its maximum die, its
    first throw kept (the list was written back first: the start showed the menu, the
    table's first die lost and its poison's die thrown again from the start).

    finala72 RISK 2: the start then finishes the Undo, the list being still the one the
    table left: the wrong poison (maximum 3) is taken back, and the die typed again tracks
    victim's poison with its maximum. The list kept the poison undone, still ticking, and
    the screen said only "list changed; note it by hand": a player who did had both."""
    mode = tray_with_its_file()
    poison_table(mode, 4, 3)
    cut_at(mode, poisons_module)
    assert list(tracked()) == ["victim"]  # the cut came before the list was written
    again = tray_with_its_file()
    again.take_up_saved()
    assert again.throws == [(4,)]
    ask = again.ask()
    assert isinstance(ask, RollAsk) and "the poison's maximum damage" in ask.prompt
    assert tracked() == {}  # the Undo finished
    assert "undo" not in json.loads(table_path().read_text(encoding="utf-8"))["table"]
    again.answer(Throw((5,)))
    assert tracked() == {"victim": {"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                                    "damage_max": 5}}
    assert again.trouble == ""


def test_a_table_file_whose_undo_holds_no_poison_is_kept_aside() -> None:
    """The Undo a table's file holds is checked as the rest of it: a poison it would put
    back that is none (a face of 9) is no table to take up, kept aside, not a list
    written with it."""
    table_path().parent.mkdir(parents=True, exist_ok=True)
    table_path().write_text(json.dumps({"version": 1, "table": {
        "table": "poison", "expression": None, "throws": [[4]], "stage": "throw",
        "resume": False, "held": False, "note": "", "poisons": None,
        "undo": {"after": "0", "before": {"Aki": {"face": 9, "rule": "EV-POI-8",
                                                  "toxicity": 8}}}}}), encoding="utf-8")
    mode = tray_with_its_file()
    mode.take_up_saved()
    assert mode.trouble == TABLE_UNREADABLE and mode.stage is Stage.MENU
    assert tracked() == {}


def test_a_power_cut_inside_undo_with_the_list_changed_since_tracks_nothing() -> None:
    """The cut between Undo's writes, then Aki's poison tracked beside before the start:
    the list is not the one the table left, so the Undo is not finished (it would drop
    Aki's poison); the die typed again tracks nothing, and says so (TRACK_REFUSED)."""
    mode = tray_with_its_file()
    poison_table(mode, 4, 3)
    cut_at(mode, poisons_module)
    listed = PoisonList(poisons_path())
    now = dict(listed.poisons)
    assert listed.put_back({**now, "Aki": now["victim"]}, now)
    again = tray_with_its_file()
    again.take_up_saved()
    assert list(tracked()) == ["victim", "Aki"]
    again.answer(Throw((5,)))
    assert list(tracked()) == ["victim", "Aki"]
    assert again.trouble == TRACK_REFUSED


def test_a_power_cut_as_undo_writes_the_table_undoes_nothing() -> None:
    """The power goes at Undo's first write, the table's: the list is as the outcome
    left it and the table ended, so the start shows the menu with the poison tracked once:
    the Undo did not happen, and no die is asked again."""
    mode = tray_with_its_file()
    poison_table(mode, 4, 3)
    cut_at(mode, dice_tray_module)
    again = tray_with_its_file()
    again.take_up_saved()
    assert again.stage is Stage.MENU and again.throws == []
    assert tracked() == {"victim": {"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                                    "damage_max": 3}}


def test_undo_refused_writes_the_table_back_as_it_was() -> None:
    """Undo refused (the list changed since) leaves the table's file as the outcome left
    it: no table part-thrown that a start would take up."""
    mode = tray_with_its_file()
    poison_table(mode, 4, 3)
    written = table_path().read_text(encoding="utf-8")
    PoisonList(poisons_path()).cure("victim")
    pick(mode, UNDO)
    assert mode.trouble.startswith("not undone 取り消せず")
    assert table_path().read_text(encoding="utf-8") == written
    assert json.loads(written)["table"] is None


def played_poison_table(source: str, script: list[tuple[str, str]]) -> PlayerAtTheScreen:
    """``play --mode dice --dice SOURCE``: Tables, Poison, then ``script``; the power goes
    when it runs out."""
    return played_tray(source, [("Dice tray ダイストレイ: roll dice", "2"),
                                ("Which table?", "6"), *script])


def played_tray(source: str, script: list[tuple[str, str]],
                expressions: str = "1D6, 2D6") -> PlayerAtTheScreen:
    """``play --mode dice --dice SOURCE`` with the tray's rolls ``expressions``: ``script``
    played from its menu; the power goes when it runs out."""
    screen = PlayerAtTheScreen(script)
    config = load_config(overrides={"dice.source": source, "input.poll_seconds": 0.005,
                                    "dice.expressions": expressions})
    controls = Controls([screen])
    with pytest.MonkeyPatch.context() as patched, pytest.raises(KeyboardInterrupt):
        patched.setattr(table_modes, "_TRAY_LEFT", {})  # what a new process has
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    return screen


def test_play_with_typed_dice_offers_undo_and_asks_the_die_again() -> None:
    """reviewe72 RISK 2: play tells the tray its dice are typed (``--dice typed``), so the
    outcome offers Undo, and Undo asks the maximum's die again with the poison taken back.
    The tests above make the tray by hand: play could drop the flag unseen."""
    screen = played_poison_table("typed", [
        ("Type the D6", "4"), ("Type the D6", "3"),
        ("毒 Poison: the table's outcome", "2")])  # Undo
    outcome = next(v for v in reversed(screen.views)
                   if v.prompt.startswith("毒 Poison: the table's outcome"))
    assert [o.label for o in outcome.options] == ["Again もう一度", "Menu メニュー", UNDO]
    assert screen.views[-1].prompt.startswith("the poison's maximum damage")
    assert tracked() == {}


def test_play_with_typed_dice_says_the_first_die_of_a_d66_is_the_tens() -> None:
    """finala72 RISK 1: the keypad marks each throw typed, so the Undo tests pass even when
    play does not tell the tray its dice are typed. The first D66 of a ``--dice typed``
    session knows it only from play: its prompt says the first die typed is the tens (a
    player who typed the units first got 43 for 34)."""
    screen = played_tray("typed", [("Dice tray ダイストレイ: roll dice", "0")],
                         expressions="D66")
    assert screen.views[-1].prompt == "D66: the first die typed is the tens 1個目が十の位"


def test_play_with_simulated_dice_offers_no_undo() -> None:
    """``--dice sim``: an Undo would be a free reroll; the outcome has Again and Menu."""
    screen = played_poison_table("sim", [])
    outcome = screen.views[-1]
    assert outcome.prompt.startswith("毒 Poison: the table's outcome")
    assert [o.label for o in outcome.options] == ["Again もう一度", "Menu メニュー"]


def test_undo_keeps_a_poison_tracked_beside_as_the_table_took_the_list() -> None:
    """reviewe72 NIT 8: the tray read the list to put back before it held it; a poison
    `companion events` tracked between that read and the hold was in the list the table
    left, so Undo passed its check and wrote the list back without it. The list is now
    read for Undo under the hold: Aki's poison stays."""
    real = file_locks.changing  # as the poison list holds its file
    beside = [True]

    @contextlib.contextmanager
    def changing(path: Path, holder: str) -> Iterator[None]:
        if beside:  # `companion events poison --who Aki` just before the tray's hold
            beside.clear()
            other = PoisonList(path)
            aki = Poison.from_json({"face": 4, "rule": "EV-POI-8", "toxicity": 8,
                                    "damage_max": 5}, "test")
            assert other.put_back({**other.poisons, "Aki": aki}, other.poisons)
        with real(path, holder):
            yield

    mode = typed_tray()
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(poisons_module, "changing", changing)
        poison_table(mode, 4, 3)
    assert list(tracked()) == ["Aki", "victim"]
    pick(mode, UNDO)
    assert list(tracked()) == ["Aki"]


def test_a_die_typed_in_a_camera_session_gets_undo_for_that_throw_only() -> None:
    """reviewe72 RISK 3: a die typed on the keypad under the camera (one the camera does
    not read, or the rest of a session whose camera stopped) was offered no Undo, the tray
    knowing typed dice only from `--dice typed`. Its throw is offered Undo now; the
    camera's throw before it is not (there, an Undo would be a free reroll)."""
    mode = typed_tray(typed=False)
    mode.answer(TABLES)
    mode.answer(POISON)
    mode.answer(Throw((4,)))  # read by the camera
    mode.answer(Throw((3,), typed=True))  # the camera stopped: typed from here
    assert [o.label for o in choice(mode).options] == ["Again もう一度", "Menu メニュー", UNDO]
    pick(mode, UNDO)
    assert tracked() == {}
    mode.answer(Throw(back=True))  # held; the throw before is the camera's
    assert [o.label for o in choice(mode).options] == ["Again もう一度", "Menu メニュー"]
    mode.answer(0)  # Again: the maximum asked again
    mode.answer(Throw((2,), typed=True))
    assert tracked()["victim"]["damage_max"] == 2


def test_the_d66_hint_follows_a_d6_typed_since_the_camera_stopped() -> None:
    """A D6 typed on the keypad in a camera session means its camera gave no picture and
    the player types the rest of the session: a D66 then says which die typed is the
    tens, as with `--dice typed`. A D3 typed (the camera reads D6 only) says nothing of it."""
    mode = DiceTrayMode(("1D3", "1D6", "D66"), "camera カメラ")
    hint = ": the first die typed is the tens 1個目が十の位"
    mode.answer(2)  # D66, the camera's
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and hint not in ask.prompt
    mode.answer(Throw(back=True))
    mode.answer(0)  # 1D3, typed: the camera reads D6 only
    mode.answer(Throw((2,), typed=True))
    pick(mode, "Menu メニュー")
    mode.answer(2)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and hint not in ask.prompt
    mode.answer(Throw(back=True))
    mode.answer(1)  # 1D6 typed: the camera gave no picture
    mode.answer(Throw((5,), typed=True))
    pick(mode, "Menu メニュー")
    mode.answer(2)
    ask = mode.ask()
    assert isinstance(ask, RollAsk) and ask.prompt.endswith(hint)
