"""The coc fight mode of the play session (`companion play --mode coc`, issue 26).

The fights of `tests/systems/coc/test_scripted_fights.py` (as `companion coc fight new` makes
them) are played at the table: keys on a pty (the real KeyboardInput) and gpiozero
MockFactory buttons pick the actions, the companion throws the dice (seeded) or a camera
stand-in shows d6 faces while the d100 is typed; the screen is pygame on the SDL dummy
driver and the terminal rich to a StringIO. The engine itself, pushed directly with the
same dice, is the reference.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from companion.app.cli import main
from companion.app.modes.coc import CocFightMode, describe, steps, table_session
from companion.app.modes.fight_save import FightSave
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.mode import ChoiceAsk, RollAsk, Show, Throw
from companion.app.session.save import SaveGame
from companion.dice import ScriptedDice, SimulatedDice
from companion.errors import DataError
from companion.hw.display.screen import BAD, GOOD, TEXT, ScreenDisplay
from companion.hw.display.terminal import TerminalDisplay
from companion.hw.display.view import View
from companion.systems.coc.combat import (
    Attack,
    Burn,
    Cast,
    Choke,
    Defence,
    EndTurn,
    Face,
    Fall,
    Fight,
    Grapple,
    Jump,
    Move,
    PickUp,
    Place,
    Sheathe,
    Side,
    Spot,
    Tackle,
)
from companion.systems.coc.combat import Throw as ThrowDown
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import (
    CHOICES,
    FOE,
    INV,
    SCRIPT_003,
    SEED,
    Script,
    at_the_table,
    fight_file,
    new_fight,
    offered,
    people,
    pick,
    play,
)
from tests.app.dice_tray_helpers import PtyPlayer, Recorded
from tests.app.table import Buttons, CutRolls, Player
from tests.systems.coc.scripted_fight_helpers import entrant, fight_003


class PtyKeys(PtyPlayer[tuple[str, str]]):
    """A player at a terminal: once the screen shows the prompt, types the number of the
    option with that key (the real KeyboardInput reads it from a pty). The clock for the
    controls, PtyPlayer's time_at_the_table, reads the next key after its screen (Close
    table, then its Yes: both 2), not as the last one's double."""

    def sleep(self, _: float) -> None:
        self.ticks += 1
        view = self.display.views[-1]
        assert self.ticks < 5000, (f"stuck at {view.prompt} {[o.choice for o in view.options]}"
                                   f" waiting for {self.script[:1]}")
        if not (self.script and view.prompt.startswith(self.script[0][0])):
            self.glanced = None  # a screen came between: glance at the next one afresh
        elif self.glanced != view:
            # Typed a glance after the screen came up, looking the same a poll later, not at
            # once: a key read by a poll whose poll before came as the screen did may have
            # come then (came_at), and a question's Yes under the key that asked it is then
            # its double (review64f).
            self.glanced = view
        else:
            self.glanced = None
            keys = [o.choice for o in view.options]
            index = keys.index(self.script.pop(0)[1])
            assert index < 9, keys
            os.write(self.master, str(index + 1).encode())


ACTIONS_003: list[Any] = [
    Attack("Ann", "Cult", ma=True), EndTurn("Ann"),
    Attack("Bob", "Deep", burst=True, defence=Defence.DODGE),
    Attack("Cult", "Ann", defence=Defence.DODGE), "undo", EndTurn("Cult")]


def reference(profile: str, actions: Sequence[Any], seed: int = SEED) -> Fight:
    """The same fight pushed straight into the engine with the same seeded dice."""
    fight, dice = new_fight(profile), SimulatedDice.seeded(seed)
    for action in actions:
        if action == "undo":
            fight.pop()
        else:
            fight.push(action, dice)
    return fight


def test_a_003_fight_at_the_table_with_keys_on_the_screen(tmp_path: Path) -> None:
    """Profile 003 with keys: the table ends where the engine does; the screen marks whose
    turn it is with its AP, shows each result with its terms and rule IDs; both files are
    saved, and the fight file is what `companion coc fight log` reads."""
    screen = ScreenDisplay("800x480")
    display = Recorded(screen)
    keys = PtyKeys(display, SCRIPT_003)
    path, state = fight_file(tmp_path, "003"), tmp_path / "table.json"
    session = table_session(path, state, resume=False, seed=SEED,
                            choices=MenuChoices(Controls([keys.keyboard, display],
                                                         clock=keys.time_at_the_table),
                                                0.0, keys.sleep), display=display)
    try:
        session.show_next()
        session.run()
        shot = next(v for v in display.views if v.prompt.startswith("Bob (3 AP): what"))
        screen.render(shot)
    finally:
        keys.close()
        screen.close()
    assert not keys.script
    # The first frame is the first menu with its keys (show_next), as each later one is.
    first = display.views[0]
    assert first.prompt.startswith(SCRIPT_003[0][0]) and first.options
    expected = reference("003", ACTIONS_003)
    mode = session.mode
    assert isinstance(mode, CocFightMode) and mode.done
    assert mode.fight.to_json() == expected.to_json()
    assert mode.fight.state == expected.state
    assert shot.fight is not None and shot.fight.turn == "Bob"
    assert [f.acting for f in shot.fight.fighters] == [False, True, False, False]
    assert "AP 3" in shot.fight.fighters[1].conditions
    assert "SAN" in shot.fight.fighters[1].pools()
    # Every action's lines were on the screen, each with a rule ID; the kick's combination
    # roll with its terms.
    results = {(s.rule, s.text) for v in display.views if v.fight for s in v.fight.result}
    for entry in expected.journal:
        assert {line for _, line in results} >= set(entry.lines)
    kick = mode.fight.journal[0].lines[0]
    assert "キック/Kick+MA (1d100<=60,50) ＞" in kick
    assert ("CO-MA-1", kick) in results
    assert all(rule for rule, text in results if "1D100<=" in text.upper())
    saved = FightSave.from_json(state.read_text(encoding="utf-8"))
    assert saved.finished and saved.inputs == mode.journal and saved.preset == "coc"
    assert json.loads(path.read_text(encoding="utf-8")) == expected.to_json()


#: Profile 004 on the buttons: Ann cuts at Cult with the sword, Bob grapples Boss, Cult ends
#: its turn (FLEE, the End turn button, then ATTACK on its question), the Keeper closes the
#: table on Deep's turn.
SCRIPT_004: Script = [
    ("Ann: what", "attack"), ("Attack whom", "t:Cult"), ("With which weapon", "w:0"),
    ("How?", "h:plain"), ("How does Cult defend", "d:none"),
    ("Bob: what", "grapple"), ("Grapple whom", "t:Boss"), ("How?", "h:plain"),
    ("How does Boss defend", "d:none"),
    ("Cult: what", "end?"), ("Cult: end the turn", "end"), ("Deep: what", "keeper"),
    ("Keeper: which", "close?"), ("Close the table", "close")]


def test_a_004_fight_on_the_buttons_in_the_terminal(tmp_path: Path) -> None:
    """The four buttons: an option with a button is that button (ATTACK attacks, FLEE asks
    to end the turn and ATTACK ends it); any other is reached with ITEM (the highlight moves
    on) and taken with ATTACK. The terminal shows every result line with its terms and rule IDs."""
    buttons = Buttons()
    console = Console(file=io.StringIO(), width=220)
    display = Recorded(TerminalDisplay(console))
    script = list(SCRIPT_004)
    ticks = [0]

    def sleep(_: float) -> None:
        ticks[0] += 1
        view = display.views[-1]
        assert ticks[0] < 5000, f"stuck at {view.prompt}"
        if not (script and view.prompt.startswith(script[0][0])):
            return
        keys = [o.choice for o in view.options]
        index = keys.index(script.pop(0)[1])
        button = view.options[index].button
        names = [button.value] if button is not None else (
            ["item"] * (index - (view.highlight or 0)) + ["attack"])
        buttons.press(*names)

    session = table_session(fight_file(tmp_path, "004"), tmp_path / "table.json",
                            resume=False, seed=SEED, choices=buttons.choices(display, sleep),
                            display=display)
    buttons.run(session)
    assert not script
    expected = reference("004", [Attack("Ann", "Cult"), Grapple("Bob", "Boss"),
                                 EndTurn("Cult")])
    assert isinstance(session.mode, CocFightMode)
    assert session.mode.fight.to_json() == expected.to_json()
    text = console.file.getvalue()  # type: ignore[attr-defined]
    for entry in expected.journal:
        for line in entry.lines:
            assert line in text
    assert "(1D100<=80) ＞ 42 ＞ 成功/success" in text and "CO-CORE-1" in text
    assert "Result 結果" in text and "▶" in text and "SAN" in text


@pytest.mark.parametrize("cut", [1, 2, 5])
def test_a_resume_after_a_cut_equals_an_uninterrupted_fight(tmp_path: Path, cut: int) -> None:
    """A power cut between two throws of one attack (after its d100, before its damage), or
    between actions: `--resume` replays the table's journal, the half-thrown attack too, and
    the fight goes on with the dice it would have had; it ends exactly as an uninterrupted
    fight, and so do the save and the fight file."""
    whole = tmp_path / "whole"
    whole.mkdir()
    fight_file(whole, "003")
    uninterrupted = play(whole, CHOICES)
    assert uninterrupted.done
    cut_dir = tmp_path / "cut"
    cut_dir.mkdir()
    fight_file(cut_dir, "003")
    first = play(cut_dir, CHOICES, rolls=CutRolls(SEED, cut))
    assert not first.done
    saved = FightSave.from_json((cut_dir / "table.json").read_text(encoding="utf-8"))
    assert saved.inputs == first.journal and not saved.finished
    on_file = json.loads((cut_dir / "fight.json").read_text(encoding="utf-8"))
    assert on_file == first.fight.to_json()
    rest = CHOICES[sum(1 for i in first.journal if not i[0].isdigit()):]
    resumed = play(cut_dir, rest, resume=True)
    assert resumed.done
    assert resumed.fight.to_json() == uninterrupted.fight.to_json()
    assert resumed.journal == uninterrupted.journal
    for name in ("table.json", "fight.json"):
        a = json.loads((whole / name).read_text(encoding="utf-8"))
        b = json.loads((cut_dir / name).read_text(encoding="utf-8"))
        if name == "table.json":
            for key in ("game_id", "fight_path", "input_kind", "fight_sha"):
                a.pop(key), b.pop(key)
        assert a == b


class CameraStandIn:
    """The dice camera's side of the table: the d6 faces it would read, in order; it is asked
    only for d6 (a d100 never reaches it)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        self.asked.append((ask.count, ask.sides))
        assert ask.sides == 6
        return Throw(tuple(self.faces.pop(0) for _ in range(ask.count)))


def test_camera_dice_read_the_d6_and_the_d100_is_typed(tmp_path: Path) -> None:
    """--dice camera: Ann's kick+MA needs a d100 (typed on the keypad: tens 5, units 5), a
    1D6 (the camera: 6) and a 1D4 (typed: 4): the engine given 55, 6, 4 does the same; the
    screen says the d100 is typed because the camera reads d6 only."""
    screen = ScreenDisplay("800x480")
    display = Recorded(screen)
    keys = PtyKeys(display, [
        ("Ann (3 AP): what", "attack"), ("Attack whom", "t:Cult"), ("How?", "h:ma"),
        ("How does Cult defend", "d:none"),
        # The roll's own words first, then the typing (screen64 NIT 7).
        ("Ann キック/Kick+MA (1D100<=60,50) to hit 命中 — Ann 攻撃 attacks → Cult [MA]: type the "
         "D100, tens 十の位", "5"),
        ("Ann キック/Kick+MA (1D100<=60,50) to hit 命中 — Ann 攻撃 attacks → Cult [MA]: type the "
         "D100, units 一の位", "5"),
        ("Type the D4 you threw", "4"), ("Ann (2 AP): what", "keeper"), ("Keeper: which", "close?"),
        ("Close the table", "close")])
    camera = CameraStandIn([6])
    controls = Controls([keys.keyboard, display], clock=keys.time_at_the_table)
    session = table_session(fight_file(tmp_path, "003"), tmp_path / "table.json",
                            resume=False, seed=SEED, choices=MenuChoices(controls, 0.0,
                                                                         keys.sleep),
                            display=display, camera=camera, controls=controls,
                            poll_seconds=0.0, sleep=keys.sleep,
                            source_name="camera カメラ (d6) · d100 typed 入力")
    try:
        session.show_next()
        session.run()
    finally:
        keys.close()
        screen.close()
    assert not keys.script and camera.asked == [(1, 6)]
    first = display.views[0]  # the first menu, shown with its keys (show_next)
    assert first.prompt.startswith("Ann (3 AP): what") and first.options
    expected = new_fight("003")
    expected.push(Attack("Ann", "Cult", ma=True), ScriptedDice([(100, 55), (6, 6), (4, 4)]))
    assert isinstance(session.mode, CocFightMode)
    assert session.mode.fight.to_json() == expected.to_json()
    typed = [v for v in display.views if "type the D100" in v.prompt]
    assert typed and all("camera reads D6 only" in v.status for v in typed)
    saved = FightSave.from_json((tmp_path / "table.json").read_text(encoding="utf-8"))
    assert saved.input_kind == "camera" and saved.inputs[4:7] == ["55", "6", "4"]


def test_play_mode_coc_needs_a_fight_and_a_player(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    assert main(["play", "--mode", "coc", "--display", "terminal", "--choices", "auto"]) != 0
    assert "a coc fight needs a display and a player" in capsys.readouterr().err
    assert main(["play", "--mode", "coc", "--display", "screen", "--choices", "keyboard",
                 "--dice", "sim"]) != 0
    assert "companion coc fight new" in capsys.readouterr().err


def test_the_view_has_room_for_every_result(tmp_path: Path) -> None:
    """Sanity of the data the displays draw: a view of a fight over, and its closing."""
    fight = new_fight("003")
    mode = CocFightMode(fight, "simulated 仮想")
    view: View = mode.view("x")
    assert view.fight is not None and view.fight.title.endswith("profile 003")
    assert view.fight.result and view.fight.result[0].rule == "CO-TURN-1"


# --- the actions beyond attack and grapple: each at the table, against the engine -------------

#: End turn, and its question's yes (buttons-only audit F5).
END = ("end?", "end")


def shown_rules(mode: CocFightMode) -> set[str]:
    """The rule IDs of every result line the screen showed for the table's actions."""
    return {s.rule for e in mode.fight.journal for s in steps(e.lines)}


def fight_iai() -> Fight:
    """003: Ann (kick) and Bob against Deep, whose Japanese sword draws with Iai 70%."""
    rules = load_rules(Profile.P003)
    return Fight(rules, [
        entrant(rules, "Ann", 14, ("kick",), Side.INVESTIGATORS, kick=60),
        entrant(rules, "Bob", 12, ("kick",), Side.INVESTIGATORS, kick=50, max_hp=30),
        entrant(rules, "Deep", 8, ("japanese_sword",), Side.FOES, japanese_sword=60, iai=70),
    ], ScriptedDice([]))


def test_iai_draw_sheathe_and_pommel_strike_at_the_table(tmp_path: Path) -> None:
    """Profile 003 (CO-IAI-1..4): Deep draws and strikes with Iai (no AP), then only a plain
    cut is offered that round, not Iai again nor sheathing; next round it sheathes (CO-IAI-3),
    and the round after it strikes Bob with the pommel (CO-IAI-4)."""
    ends = [*END, *END]
    mode, player = at_the_table(tmp_path, fight_iai, [], [
        *ends, "attack", "t:Ann", "h:iai", "d:none", *END,
        *ends, "sheathe", *END,
        *ends, "attack", "t:Bob", "h:pommel", "d:none"], [
        EndTurn("Ann"), EndTurn("Bob"), Attack("Deep", "Ann", iai=True), EndTurn("Deep"),
        EndTurn("Ann"), EndTurn("Bob"), Sheathe("Deep"), EndTurn("Deep"),
        EndTurn("Ann"), EndTurn("Bob"), Attack("Deep", "Bob", iai=True, pommel=True)])
    deep = offered(player, "Deep (3 AP): what")
    assert "sheathe" not in deep[0] and "sheathe" not in deep[1] and "sheathe" in deep[2]
    hows = offered(player, "How?")
    assert "h:iai" in hows[0] and "h:pommel" in hows[0]
    assert {"CO-IAI-2", "CO-IAI-3"} <= shown_rules(mode)
    last = mode.fight.journal[-1]
    assert describe(last.action) == "Deep 攻撃 attacks → Bob [Iai 居合] [pommel 柄打ち]"
    assert last.lines[1].startswith("Deep 居合/Iai (1D100<=70) ＞")
    assert "tackle" not in deep[0] and "cast" not in deep[0]  # CO-TACKLE-1, CO-SPELL-1: 004


def test_tackle_at_the_table(tmp_path: Path) -> None:
    """Profile 004 (CO-TACKLE-1..3): Bob tackles Boss to knock it down, Boss dodging; the four
    tackles (damage, blow back, into a wall, knock down) and only a dodge are offered (and
    *More 状況*, from behind, off the board)."""
    mode, player = at_the_table(tmp_path, fight_004_only, [], [
        *END, "tackle", "t:Boss", "o:knock_down", "d:dodge"], [
        EndTurn("Ann"), Tackle("Bob", "Boss", "knock_down", defence=Defence.DODGE)])
    assert offered(player, "Tackle to do what?") == [
        ["o:damage", "o:blow_back", "o:wall", "o:knock_down", "back"]]
    assert offered(player, "How does Boss defend?") == [["d:none", "d:dodge", "m:more", "back"]]
    assert "CO-TACKLE-1" in shown_rules(mode)
    assert describe(mode.fight.journal[-1].action) == (
        "Bob タックル tackles → Boss (dodge) [Knock down 押し倒し]")
    # Into a wall, as its menu offered it, not as the engine's key (screen72 NIT 4).
    assert describe(Tackle("Bob", "Boss", "blow_back", obstacle=True)) == (
        "Bob タックル tackles → Boss [Blow back into a wall 壁へ吹き飛ばし]")


def fight_004_only() -> Fight:
    return new_fight("004")


def test_disarm_and_picking_up_at_the_table(tmp_path: Path) -> None:
    """Profile 004 (CO-DISARM-1): Ann knocks Cult's blackjack away; once it is on the ground
    (Ann's disarm with a 10), Cult is offered to pick it up and does."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    mode, player = at_the_table(tmp_path / "a", fight_004_only, [], [
        "attack", "t:Cult", "w:0", "h:disarm", "d:none"], [Attack("Ann", "Cult", disarm=True)])
    assert "h:disarm" in offered(player, "How?")[0]
    assert "CO-DISARM-1" in shown_rules(mode)
    mode, player = at_the_table(tmp_path / "b", fight_004_only, [
        (Attack("Ann", "Cult", disarm=True), [10])], [*END, "pickup"], [
        EndTurn("Bob"), PickUp("Cult", 0)])
    assert "pickup" not in offered(player, "Bob: what")[0]
    assert not mode.fight.state.get("Cult").sheet.weapons[0].dropped
    assert mode.fight.journal[-1].lines[-1].startswith("Cult picks up")
    assert "CO-DISARM-1" in shown_rules(mode)


def test_a_body_part_at_the_table(tmp_path: Path) -> None:
    """Profile 004 (CO-BODY-1..6): Ann's sword cuts at Deep's arm; the ways and the parts are
    those the engine takes (a sword cannot blow a part off, and no eye is cut off)."""
    mode, player = at_the_table(tmp_path, fight_004_only, [], [
        "attack", "t:Deep", "w:0", "h:body", "b:cut", "p:arm", "d:none"], [
        Attack("Ann", "Deep", body="cut", part="arm")])
    assert offered(player, "Lose it how?") == [["b:cut", "b:gouge", "back"]]
    parts = offered(player, "Cut off 切断: which part?")[0]
    assert "p:arm" in parts and "p:eye" not in parts
    assert "CO-BODY-2" in shown_rules(mode)
    assert describe(mode.fight.journal[-1].action) == "Ann 攻撃 attacks → Deep [cut arm]"


def test_a_spell_under_attack_at_the_table(tmp_path: Path) -> None:
    """Profile 004 (CO-SPELL-1/2): Cult begins a chanted 3 MP spell; next round Ann cuts at
    it, and the table plays what the engine does with the chant."""
    mode, player = at_the_table(tmp_path, fight_004_only, [], [
        *END, *END, "cast", "n:3", "k:chant", *END, *END,
        "attack", "t:Cult", "w:0", "h:plain", "d:none"], [
        EndTurn("Ann"), EndTurn("Bob"), Cast("Cult", "呪文 spell", 3), EndTurn("Deep"),
        EndTurn("Boss"), Attack("Ann", "Cult")])
    assert offered(player, "How is it cast?") == [["k:chant", "k:silent", "k:auto", "back"]]
    assert "n:10" in offered(player, "Cult casts for how many MP?")[0]
    assert "CO-SPELL-1" in shown_rules(mode)
    assert describe(mode.fight.journal[2].action) == "Cult 呪文 casts 呪文 spell 3 MP"


def test_first_strike_fire_and_a_fall_from_the_keeper(tmp_path: Path) -> None:
    """Profile 004: before the round's first action the Keeper lets Bob shoot first at Deep
    (CO-FIRE-7); then Boss is burned for 15 (CO-BURN-1, half its HP: it loses CON) and Cult
    falls 6 m (CO-BASE-11); a first strike is no longer offered once the round opened."""
    mode, player = at_the_table(tmp_path, fight_004_only, [], [
        "keeper", "first", "t:Bob", "t:Deep", "h:plain", "d:none",
        "keeper", "burn", "t:Boss", "n:15", "l:CON", "keeper", "fall", "t:Cult", "m:6",
        "attack", "t:Cult", "w:0", "h:plain", "d:none", "keeper"], [
        Attack("Bob", "Deep", first_strike=True), Burn("Boss", 15, lose="CON"),
        Fall("Cult", 6), Attack("Ann", "Cult")])
    keeper = offered(player, "Keeper: which step?")
    assert "first" in keeper[0] and "first" not in keeper[-1]
    assert {"CO-FIRE-7", "CO-BURN-1", "CO-BASE-11"} <= shown_rules(mode)


def test_turning_and_jumping_on_the_board(tmp_path: Path) -> None:
    """Profile 003's board (CO-TURN-5, CO-SKILL-6): Ann, placed facing Deep, turns east (no
    AP) and jumps over Deep to the square beyond (2 AP); only Deep, next to her, is offered."""
    mode, player = at_the_table(tmp_path, fight_iai, [
        (Place("Ann", "d4", "N"), []), (Place("Deep", "d5", "S"), []),
        (Place("Bob", "a1", "N"), [])], ["face", "face:E", "jump", "t:Deep"], [
        Face("Ann", "E"), Jump("Ann", "Deep")])
    assert offered(player, "Jump over whom?") == [["t:Deep", "back"]]
    assert offered(player, "Face which way?") == [
        ["face:NE", "face:E", "face:SE", "face:S", "face:SW", "face:W", "face:NW", "back"]]
    assert {"CO-TURN-5", "CO-SKILL-6"} <= shown_rules(mode)


# --- the rest of the engine at the table: Spot Hidden, surprise, circumstances, defences ------


def test_spot_hidden_then_an_attack_in_the_same_round_003(tmp_path: Path) -> None:
    """Profile 003 (CO-SKILL-5): Ann looks Deep over with Spot Hidden 目星 (1 AP), and the
    attack is still offered and played in the same round."""
    mode, player = at_the_table(tmp_path, fight_iai, [], [
        "spot", "t:Deep", "attack", "t:Deep", "h:plain", "d:none"], [
        Spot("Ann", "Deep"), Attack("Ann", "Deep")])
    menus = offered(player, "Ann (")
    assert "spot" in menus[0] and "attack" in menus[1]
    assert offered(player, "Spot Hidden on whom?") == [["t:Deep", "t:Bob", "back"]]
    assert "CO-SKILL-5" in shown_rules(mode)
    assert describe(mode.fight.journal[0].action) == "Ann 目星 spots → Deep"


def test_a_surprise_attack_from_hiding_in_the_dark_004(tmp_path: Path) -> None:
    """Profile 004 (CO-SURP-1..3): from the defence menu *More 状況* opens the circumstances:
    Ann sneaks up (Sneak 忍び歩き) on Cult, the Keeper rates her hidden at −30%, in the dark;
    the defence prompt lists what was picked, and each is offered once."""
    make = people(Profile.P004, ("Ann", 14, ("japanese_sword",), INV,
                                 {"japanese_sword": 80, "sneak": 95}),
                  ("Cult", 10, ("blackjack",), FOE, {"club": 50}))
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Cult", "h:plain", "m:more", "m:surprise", "v:sneak",
        "m:more", "m:hidden", "v:30", "m:more", "m:dark", "d:none"], [
        Attack("Ann", "Cult", surprise="sneak", hidden=-30, dark=True)])
    more = offered(player, "What else?")
    assert more[0] == ["m:behind", "m:dark", "m:surprise", "back"]
    assert "m:hidden" in more[1] and "m:surprise" not in more[1]
    assert offered(player, "Surprise 奇襲: which?") == [
        ["v:hide", "v:conceal", "v:sneak", "back"]]
    last = [p for p, _ in player.seen if p.startswith("How does Cult defend?")][-1]
    assert last.endswith("[surprise 奇襲 sneak] [hidden -30%] [dark 暗闇]")
    assert {"CO-SURP-1", "CO-SURP-3"} <= shown_rules(mode)


def test_distances_at_the_table_are_the_weapon_s_bands_004(tmp_path: Path) -> None:
    """Profile 004 (CO-FIRE-9, CO-RANGE-2): the distances offered are a shotgun's printed
    bands (10/20/50 m, the Default) and a revolver's base range 15 m ×1…×4."""
    make = people(Profile.P004, ("Ann", 14, ("shotgun", "revolver"), INV, {"shotgun": 60}),
                  ("Cult", 10, ("knife",), FOE, {}))
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Cult", "w:0", "h:plain", "m:more", "m:dist", "v:20", "d:none"], [
        Attack("Ann", "Cult", distance_m=20)])
    assert offered(player, "Distance 距離: which?") == [["v:10", "v:20", "v:50", "back"]]
    assert "CO-FIRE-9" in shown_rules(mode)
    assert any("damage 2D6 up to 20 m" in line for line in mode.fight.journal[-1].lines)
    (tmp_path / "b").mkdir()
    _, player = at_the_table(tmp_path / "b", make, [], [
        "attack", "t:Cult", "w:1", "h:plain", "m:more", "m:dist", "v:45", "d:none"], [
        Attack("Ann", "Cult", 1, distance_m=45)])
    assert offered(player, "Distance 距離: which?") == [["v:15", "v:30", "v:45", "v:60", "back"]]


def test_iai_drawing_an_ally_s_blade_003(tmp_path: Path) -> None:
    """Profile 003 (CO-IAI-1): Ann, with no blade of her own, draws Bob's Japanese sword with
    Iai and strikes; the sword is hers afterwards."""
    make = people(Profile.P003, ("Ann", 14, ("kick",), INV, {"kick": 60, "iai": 70}),
                  ("Bob", 12, ("japanese_sword",), INV, {"japanese_sword": 60}),
                  ("Deep", 8, ("knife",), FOE, {"knife": 50}))
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Deep", "h:borrow", "d:none"], [
        Attack("Ann", "Deep", 0, iai=True, borrow="Bob")])
    assert "h:borrow" in offered(player, "How?")[0]
    assert {"CO-IAI-1", "CO-IAI-2"} <= shown_rules(mode)
    assert [w.info.key for w in mode.fight.state.get("Ann").sheet.weapons] == [
        "kick", "japanese_sword"]
    assert describe(mode.fight.journal[-1].action) == (
        "Ann 攻撃 attacks → Deep [Iai 居合] [Bob's blade]")


def test_throw_options_at_the_table(tmp_path: Path) -> None:
    """A throw from a grapple: in 003 (CO-MA-2) at somebody, who may dodge, in the round
    after the grapple (CO-GRAP-3: the grapple was Ann's 1 AP of its round); in 004
    (CO-GRAP-8) from a height, the fall's damage replacing the throw's (CO-BASE-11)."""
    def held_003() -> Fight:
        return fight_003()[0]

    # Cult's turn opens with its STR roll against Ann's: 90 fails (CO-GRAP-2)
    grappled = [(Grapple("Ann", "Cult", ma=True), [30]), (EndTurn("Bob"), [90]),
                (EndTurn("Cult"), []), (EndTurn("Deep"), [])]
    mode, player = at_the_table(tmp_path, held_003, grappled,
                                ["throw", "how:dodge:Deep"], [
        ThrowDown("Ann", at="Deep", at_dodges=True)])
    assert offered(player, "Throw Cult how?") == [[
        "how:plain", "how:at:Deep", "how:dodge:Deep", "how:at:Bob", "how:dodge:Bob", "back"]]
    assert "CO-MA-2" in shown_rules(mode)
    # grapple75 NIT 5: the one thrown (the one held as it was played) after the arrow, not
    # the one thrown at twice; the log names it too
    assert mode.describe(mode.fight.journal[-1].action) == (
        "Ann 投げ throws → Cult [at Deep who dodges]")
    assert mode.fight_view().log[-1].startswith("Ann 投げ throws → Cult [at Deep who dodges] ＞")
    assert describe(mode.fight.journal[-1].action) == "Ann 投げ throws [at Deep who dodges]"
    (tmp_path / "b").mkdir()
    make = people(Profile.P004, ("Ann", 14, ("fist",), INV, {"grapple": 70}),
                  ("Cult", 10, ("fist",), FOE, {}))
    mode, player = at_the_table(tmp_path / "b", make, [(Grapple("Ann", "Cult"), [30])],
                                [*END, "throw", "how:m:6"], [
        EndTurn("Cult"), ThrowDown("Ann", height_m=6)])
    assert offered(player, "Throw Cult how?") == [[
        "how:plain", "how:m:3", "how:m:4", "how:m:6", "how:m:9", "how:m:12", "how:m:15",
        "back"]]
    assert {"CO-GRAP-8", "CO-BASE-11"} <= shown_rules(mode)


def test_co_grap_8_reading_b_throws_an_enemy_nobody_holds_at_the_table_004(
        tmp_path: Path) -> None:
    """CO-GRAP-8 with its option reading b (coc.toml's ``reading = "b"``): Ann, holding
    nobody, is offered Throw (and by Budo, which her sheet has), asked whom, and throws Cult
    as ``coc fight act throw`` would; by the spec's Default (reading a) she is not offered it.
    """
    def make(reading: str) -> Callable[[], Fight]:
        def fight() -> Fight:
            rules = load_rules(Profile.P004).with_overrides(
                {"CO-GRAP-8": {"reading": reading}}, "coc.toml")
            return Fight(rules, [
                entrant(rules, "Ann", 14, ("fist",), INV, grapple=60, budo_grappling=50),
                entrant(rules, "Cult", 10, ("fist",), FOE),
                entrant(rules, "Deep", 8, ("fist",), FOE)], ScriptedDice([]))
        return fight

    mode, player = at_the_table(tmp_path, make("b"), [], ["throw", "how:at:Cult"],
                                [ThrowDown("Ann", at="Cult")])
    assert {"throw", "throw_budo"} <= set(offered(player, "Ann")[0])
    assert offered(player, "Throw whom?") == [["how:at:Cult", "how:at:Deep", "back"]]
    assert "CO-GRAP-8" in shown_rules(mode)
    # holding nobody, the one ``at`` is the one thrown (grapple75 NIT 5)
    assert mode.describe(mode.fight.journal[-1].action) == "Ann 投げ throws → Cult"
    assert "(throw 投げ of Cult, CO-GRAP-8 reading b)" in mode.fight.journal[-1].text
    (tmp_path / "a").mkdir()
    mode, player = at_the_table(tmp_path / "a", make("a"), [], [*END], [EndTurn("Ann")])
    assert not {"throw", "throw_budo"} & set(offered(player, "Ann")[0])


def test_choke_and_throw_by_budo_at_the_table_004(tmp_path: Path) -> None:
    """CO-GRAP-6 (004 「もう一度武道（組技系）を使用」): a grappler whose sheet has Budo
    (grappling) is offered the choke and the throw by Budo beside Grapple's, and each rolls
    it; one without Budo is offered Grapple's only."""
    make = people(Profile.P004, ("Ann", 14, ("fist",), INV,
                                 {"grapple": 70, "budo_grappling": 60}),
                  ("Cult", 10, ("fist",), FOE, {}))
    mode, player = at_the_table(tmp_path, make, [(Grapple("Ann", "Cult"), [30])],
                                [*END, "choke_budo"],
                                [EndTurn("Cult"), Choke("Ann", skill="budo_grappling")])
    menus = offered(player, "Ann")
    assert menus and {"choke", "choke_budo", "throw", "throw_budo"} <= set(menus[-1])
    assert "武道（組技系）/Budo (grappling)" in mode.fight.journal[-1].text
    # grapple75 NIT 5 (engine revision 23): the roll says it is the choke's, of whom
    assert "(choke 締め付け of Cult, CO-GRAP-7)" in mode.fight.journal[-1].text
    assert mode.describe(mode.fight.journal[-1].action) == "Ann 締め付け chokes → Cult"
    (tmp_path / "b").mkdir()
    mode, player = at_the_table(tmp_path / "b", make, [(Grapple("Ann", "Cult"), [30])],
                                [*END, "throw_budo", "how:m:6"],
                                [EndTurn("Cult"),
                                 ThrowDown("Ann", height_m=6, skill="budo_grappling")])
    assert "武道（組技系）/Budo (grappling)" in mode.fight.journal[-1].text
    assert "(throw 投げ of Cult, CO-GRAP-8)" in mode.fight.journal[-1].text
    assert mode.describe(mode.fight.journal[-1].action) == "Ann 投げ throws → Cult [from 6 m]"
    (tmp_path / "c").mkdir()
    plain = people(Profile.P004, ("Ann", 14, ("fist",), INV, {"grapple": 70}),
                   ("Cult", 10, ("fist",), FOE, {}))
    mode, player = at_the_table(tmp_path / "c", plain, [(Grapple("Ann", "Cult"), [30])],
                                [*END, "choke"], [EndTurn("Cult"), Choke("Ann")])
    menus = offered(player, "Ann")
    assert "choke" in menus[-1] and "choke_budo" not in menus[-1]


def test_declared_defences_dodge_assist_luck_and_bare_hands_004(tmp_path: Path) -> None:
    """Profile 004: Ann dodges Cult's punch helped by Navigate (CO-DODGE-6); Deep's punch
    comes once her dodge is spent, and the Keeper allows a second by Luck (CO-DODGE-4); next
    round she parries Cult's punch bare-handed (CO-PARRY-2, unarmed against unarmed:
    CO-PARRY-3)."""
    make = people(Profile.P004, ("Cult", 16, ("fist",), FOE, {"fist": 60}),
                  ("Deep", 15, ("fist",), FOE, {"fist": 60}),
                  ("Ann", 10, ("fist",), INV, {"dodge": 60}))
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Ann", "h:plain", "d:dodge:navigate",
        "attack", "t:Ann", "h:plain", "d:dodge:luck", *END,
        "attack", "t:Ann", "h:plain", "d:parry:hands"], [
        Attack("Cult", "Ann", defence=Defence.DODGE, dodge_assist="navigate"),
        Attack("Deep", "Ann", defence=Defence.DODGE, luck_dodge=True), EndTurn("Ann"),
        Attack("Cult", "Ann", defence=Defence.PARRY, parry_with="hands")])
    defences = offered(player, "How does Ann defend?")
    assert "d:dodge:luck" not in defences[0] and "d:dodge:luck" in defences[1]
    assert {"d:dodge:navigate", "d:dodge:jump", "d:parry:hands"} <= set(defences[0])
    assert {"CO-DODGE-6", "CO-PARRY-3"} <= shown_rules(mode)  # bare hands: nobody hurt


def test_a_grapple_parry_at_the_table_004(tmp_path: Path) -> None:
    """Profile 004 (CO-GRAP-5, 「組み付き技能は近接戦闘技能を受け流す場合"技能を2回成功"」): Ann
    parries Cult's knife with Grapple, offered beside the bare-handed, MA and Budo parries
    and played as the engine plays ``parry_with=grapple``; against Deep's pistol it is not
    offered (no melee skill)."""
    make = people(Profile.P004, ("Cult", 16, ("knife",), FOE, {"knife": 60}),
                  ("Deep", 15, ("automatic",), FOE, {"handgun": 60}),
                  ("Ann", 10, ("fist",), INV, {"grapple": 70, "martial_arts": 50}))
    # Ann holds only her fist, no weapon to disarm (CO-DISARM-1): Cult's knife has the one
    # way, a plain attack, so no "How?" is asked (Deep's pistol still asks: shots)
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Ann", "d:parry:grapple",
        "attack", "t:Ann", "h:plain", "d:none"], [
        Attack("Cult", "Ann", defence=Defence.PARRY, parry_with="grapple"),
        Attack("Deep", "Ann")])
    defences = offered(player, "How does Ann defend?")
    assert {"d:parry:ma", "d:parry:grapple"} <= set(defences[0])
    assert "d:parry:hands" not in defences[0]  # a knife: CO-PARRY-2
    assert not any(k.startswith("d:parry") for k in defences[1])
    assert describe(mode.fight.journal[0].action) == (
        "Cult 攻撃 attacks → Ann (parry Grapple 組み付き ×2)")
    menu = pick(knife_club_and_sword(), "attack", "t:Cult", "h:plain")  # a kick: melee
    assert isinstance(menu, ChoiceAsk)
    labels = {o.choice: o.label for o in menu.options}
    assert labels["d:parry:grapple"].startswith("Grapple parry")  # told apart when cut


def test_a_restraining_grappler_is_offered_no_two_handed_parry_004(tmp_path: Path) -> None:
    """Profile 004 (CO-GRAP-6, engine revision 6): Cult restrains Bob, one hand holding;
    when Ann stabs Cult next round, the defence menu offers the knife's parry and not the
    two-handed sword's, and the knife parry is played as the engine plays it."""
    make = people(Profile.P004, ("Ann", 14, ("knife",), INV, {"knife": 60}),
                  ("Cult", 10, ("japanese_sword", "knife"), FOE,
                   {"grapple": 90, "japanese_sword": 60, "knife": 60}),
                  ("Bob", 8, ("fist",), INV, {}))
    before = [(EndTurn("Ann"), []), (Grapple("Cult", "Bob"), [10]), (EndTurn("Bob"), [])]
    mode, player = at_the_table(tmp_path, make, before, [
        "attack", "t:Cult", "h:plain", "d:parry:1"], [
        Attack("Ann", "Cult", defence=Defence.PARRY, parry_weapon=1)])
    (defences,) = offered(player, "How does Cult defend?")
    assert "d:parry:1" in defences and "d:parry:0" not in defences
    assert mode.fight.state.get("Bob").held_by == "Cult"


def test_the_keeper_s_picks_for_an_attack_003(tmp_path: Path) -> None:
    """Profile 003 off the board: what a melee fumble does (CO-MELEE-4), who stands behind
    the target (CO-MELEE-2), from behind; a point-blank shot (CO-FIRE-5); whom a fumbled
    throw flies at (CO-THROW-2). Each is asked for, and shown on the defence prompt."""
    make = people(Profile.P003, ("Ann", 14, ("knife", "rock", "revolver"), INV,
                                 {"knife": 60, "handgun": 50}),
                  ("Cult", 10, ("fist",), FOE, {}), ("Deep", 8, ("fist",), FOE, {}))
    for sub in "abc":
        (tmp_path / sub).mkdir()
    mode, player = at_the_table(tmp_path / "a", make, [], [
        "attack", "t:Cult", "w:0", "h:plain", "m:more", "m:fumble", "v:break",
        "m:more", "m:knock", "v:Deep", "m:more", "m:behind", "d:none"], [
        Attack("Ann", "Cult", 0, fumble="break", behind="Deep", from_behind=True)])
    more = offered(player, "What else?")
    assert more == [["m:behind", "m:fumble", "m:knock", "back"], ["m:behind", "m:knock", "back"],
                    ["m:behind", "back"]]
    assert offered(player, "If it fumbles ファンブル時: which?") == [
        ["v:fall", "v:break", "back"]]
    assert offered(player, "Behind the target 背後に立つ者: which?") == [["v:Deep", "back"]]
    last = [p for p, _ in player.seen if p.startswith("How does Cult defend?")][-1]
    assert last.endswith("[from behind 背後] [fumble: break] [Deep behind]")
    mode, player = at_the_table(tmp_path / "b", make, [], [
        "attack", "t:Cult", "w:2", "h:plain", "m:more", "m:touch", "d:none"], [
        Attack("Ann", "Cult", 2, adjacent=True)])
    text = "\n".join(line for e in mode.fight.journal for line in e.lines)
    assert "+15 (adjacent, CO-FIRE-5) = 65" in text
    mode, player = at_the_table(tmp_path / "c", make, [], [
        "attack", "t:Cult", "w:1", "h:plain", "m:more", "m:stray", "v:Deep", "d:none"], [
        Attack("Ann", "Cult", 1, stray="Deep")])
    assert offered(player, "A fumble flies at 逸れた先: which?") == [["v:Deep", "back"]]
    assert describe(mode.fight.journal[-1].action) == "Ann 攻撃 attacks → Cult [stray → Deep]"


def test_the_keeper_s_penalties_and_a_staunched_wound_004(tmp_path: Path) -> None:
    """Profile 004: the Keeper's disarm penalty (CO-DISARM-1: −20…−60) and gouging penalty
    (CO-BODY-3: −60…−80), and a wound staunched at once (CO-BODY-6)."""
    make = people(Profile.P004, ("Ann", 14, ("knife",), INV, {"knife": 90}),
                  ("Cult", 10, ("blackjack",), FOE, {"club": 50}))
    mode, player = at_the_table(tmp_path, make, [], [
        "attack", "t:Cult", "h:disarm", "m:more", "m:penalty", "v:50", "d:none", *END,
        "attack", "t:Cult", "h:body", "b:gouge", "p:arm", "m:more", "m:penalty", "v:60",
        "m:more", "m:staunch", "d:none"], [
        Attack("Ann", "Cult", disarm=True, penalty=-50), EndTurn("Cult"),
        Attack("Ann", "Cult", body="gouge", part="arm", penalty=-60, staunched=True)])
    assert offered(player, "Keeper's penalty 補正 (Keeper): which?") == [
        ["v:20", "v:30", "v:40", "v:50", "v:60", "back"], ["v:60", "v:70", "v:80", "back"]]
    text = "\n".join(line for e in mode.fight.journal for line in e.lines)
    assert "-50 (disarm, CO-DISARM-1)" in text and "-60 (gouge the arm, CO-BODY-3)" in text
    assert describe(mode.fight.journal[-1].action).endswith(
        "[gouge arm] [penalty -60%] [staunched 止血]")
    cult = mode.fight.state.get("Cult")
    assert cult.lost == ("arm",) and not cult.bleeding  # staunched: no bleeding (CO-BODY-6)


def test_martial_arts_forced_hit_and_follow_up_004(tmp_path: Path) -> None:
    """Profile 004 (CO-MA-3, CO-MA-4): an MA attack may be a forced hit or a follow-up."""
    mode, player = at_the_table(tmp_path, fight_004_only, [], [
        "attack", "t:Cult", "w:1", "h:ma_forced", "d:none", *END, *END,
        "attack", "t:Ann", "h:plain", "d:none", *END,
        "attack", "t:Cult", "w:1", "h:ma_follow", "d:none"], [
        Attack("Ann", "Cult", 1, ma=True, ma_option="forced"), EndTurn("Bob"),
        EndTurn("Cult"), Attack("Deep", "Ann"), EndTurn("Boss"),
        Attack("Ann", "Cult", 1, ma=True, ma_option="follow_up")])
    assert {"h:ma", "h:ma_forced", "h:ma_follow"} <= set(offered(player, "How?")[0])
    assert describe(mode.fight.journal[0].action) == (
        "Ann 攻撃 attacks → Cult [MA forced]")


def test_martial_arts_with_a_called_shot_003(tmp_path: Path) -> None:
    """Profile 003: once a way of attacking is chosen, *More 状況* offers the others the
    engine takes with it: Ann's MA kick (CO-MA-1) called at Deep's head (CO-CALL-1) is one
    attack with both. (A plain attack offers no second way: see the surprise test's menu.)"""
    mode, player = at_the_table(tmp_path, fight_iai, [], [
        "attack", "t:Deep", "h:ma", "m:more", "m:with_head", "d:none"], [
        Attack("Ann", "Deep", ma=True, called="head")])
    [ma] = offered(player, "What else?")
    assert {"m:with_head", "m:with_arm", "m:with_leg"} <= set(ma)
    assert not {"m:with_ma", "m:with_ma_forced", "m:with_iai"} & set(ma)
    assert describe(mode.fight.journal[-1].action) == (
        "Ann 攻撃 attacks → Deep [MA] [called: head]")
    assert {"CO-MA-1", "CO-CALL-1"} <= shown_rules(mode)


def test_a_second_burn_is_the_same_fire_or_a_new_one(tmp_path: Path) -> None:
    """CO-BURN-1 totals fire damage per incident: a second burn asks which fire it is."""
    mode, player = at_the_table(tmp_path, fight_004_only, [], [
        "keeper", "burn", "t:Boss", "n:6", "l:CON",
        "keeper", "burn", "t:Boss", "n:8", "i:fire 2", "l:CON"], [
        Burn("Boss", 6, lose="CON"), Burn("Boss", 8, "fire 2", lose="CON")])
    assert offered(player, "Boss: the same fire?") == [["i:fire", "i:fire 2", "back"]]
    assert dict(mode.fight.state.get("Boss").burns) == {"fire": 6, "fire 2": 8}


# --- 003's board on the screen and the terminal ---------------------------------------------


def test_the_board_of_003_is_drawn_on_the_screen_and_the_terminal() -> None:
    """CO-TURN-2: once the Keeper places somebody, the view carries 003's 8×8 board (each
    placed combatant by its initial, side, facing, whose turn; the unplaced left off); the
    screen draws it in a column of its own between the combatants and the result, the
    terminal as a grid of text. No board in 004, nor before anyone is placed."""
    fight = new_fight("003")
    assert CocFightMode(fight).fight_view().board is None
    fight.push(Place("Ann", "d3", "NE"), ScriptedDice([]))
    fight.push(Place("Cult", "e4", "SW"), ScriptedDice([]))
    mode = CocFightMode(fight, "simulated 仮想")
    board = mode.fight_view().board
    assert board is not None and (board.cols, board.rows) == (8, 8)
    assert {(p.mark, board.square(p.col, p.row), p.facing, p.ally, p.acting, p.down)
            for p in board.pieces} == {("A", "d3", (1, 1), True, True, False),
                                       ("C", "e4", (-1, -1), False, False, False)}
    view = mode.view("Ann (3 AP): what now? 行動は？")
    screen = ScreenDisplay("800x480")
    surface = screen.render(view).copy()  # one pygame window: keep this frame
    m = screen.m
    column = range(m(285), m(485))  # the board's column (the fighters' stripes are left of it)

    def count(color: tuple[int, int, int]) -> int:
        return sum(surface.get_at((x, y))[:3] == color for x in column[::2]
                   for y in range(m(60), m(280), 2))

    assert count(GOOD) > 20 and count(BAD) > 20 and count(TEXT) > 5  # Ann, Cult, Ann's ring
    fight.push(Place("Cult", "a8", "S"), ScriptedDice([]))
    moved = ScreenDisplay("800x480")
    again = moved.render(CocFightMode(fight).view("x"))
    assert any(again.get_at((x, y)) != surface.get_at((x, y)) for x in column[::3]
               for y in range(m(60), m(280), 3))
    screen.close()
    moved.close()
    console = Console(file=io.StringIO(), width=160)
    TerminalDisplay(console).show(view)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Board 盤面" in out and "A↗" in out and "c↙" in out  # (a foe in lower case)
    assert CocFightMode(new_fight("004")).fight_view().board is None


def test_cover_from_gunfire_and_an_iai_parry_at_the_table(tmp_path: Path) -> None:
    """004 (CO-DODGE-7): against a gun the target may take cover, by Hide or by Dodge −50%;
    003 (CO-DODGE-2): a sheathed Iai weapon is offered as a parry."""
    make = people(Profile.P004, ("Ann", 14, ("fist",), INV, {"hide": 60, "dodge": 40}),
                  ("Cult", 10, ("automatic",), FOE, {"handgun": 60}))
    mode, player = at_the_table(tmp_path, make, [], [
        *END, "attack", "t:Ann", "h:shots2", "d:cover:hide"], [
        EndTurn("Ann"), Attack("Cult", "Ann", shots=2, cover="hide")])
    assert ["d:cover:hide", "d:cover:dodge"] == [
        k for k in offered(player, "How does Ann defend?")[0] if k.startswith("d:cover")]
    assert describe(mode.fight.journal[-1].action).startswith("Cult 攻撃 attacks → Ann")
    mode, player = at_the_table(tmp_path, fight_iai, [], [
        "attack", "t:Deep", "h:plain", "d:parry:iai0"], [
        Attack("Ann", "Deep", defence=Defence.PARRY, parry_with="iai", parry_weapon=0)])
    assert "d:parry:iai0" in offered(player, "How does Deep defend?")[0]


def test_iai_after_three_squares_and_an_attack_after_dodging_at_the_table(
        tmp_path: Path) -> None:
    """003 (CO-IAI-2, 「三回移動後に攻撃を行ってもよい」): Sam moves 3 squares (0 AP left) and
    the table still offers Attack, leading to his Iai; 004 (CO-DODGE-5): Ann dodged Cult, and
    on her turn Attack leads to the attack after dodging at −50%, the one way left, and
    Grapple and Tackle are offered the same way (CO-DODGE-4: they are attacks)."""
    make = people(Profile.P003, ("Sam", 16, ("japanese_sword",), INV,
                                 {"japanese_sword": 60, "iai": 70}),
                  ("Cult", 10, ("knife",), FOE, {"knife": 50}))
    mode, player = at_the_table(tmp_path, make, [], [
        "move", "n:3", "attack", "t:Cult", "h:iai", "d:none"], [
        Move("Sam", 3), Attack("Sam", "Cult", iai=True)])
    assert "attack" in offered(player, "Sam (0 AP): what")[0]
    assert "h:plain" not in offered(player, "How?")[0]
    assert describe(mode.fight.journal[-1].action) == "Sam 攻撃 attacks → Cult [Iai 居合]"
    make = people(Profile.P004, ("Ann", 10, ("fist",), INV, {"dodge": 50}),
                  ("Cult", 14, ("knife",), FOE, {"knife": 50}))
    (tmp_path / "b").mkdir()
    mode, player = at_the_table(tmp_path / "b", make, [
        (Attack("Cult", "Ann", defence=Defence.DODGE), [30, 20])], [
        "attack", "t:Cult", "d:none"], [Attack("Ann", "Cult", after_dodge=True)])
    assert {"attack", "grapple", "tackle"} <= set(offered(player, "Ann: what")[0])
    assert describe(mode.fight.journal[-1].action) == (
        "Ann 攻撃 attacks → Cult [after dodging 回避後 −50%]")
    (tmp_path / "c").mkdir()
    mode, player = at_the_table(tmp_path / "c", make, [
        (Attack("Cult", "Ann", defence=Defence.DODGE), [30, 20])], [
        "grapple", "t:Cult", "h:plain", "d:none"], [Grapple("Ann", "Cult", after_dodge=True)])
    assert describe(mode.fight.journal[-1].action) == (
        "Ann 組み付き grapples → Cult [after dodging 回避後 −50%]")


def knife_club_and_sword() -> CocFightMode:
    """004: Ann (Kick 60) against a Cultist carrying a knife, a fire poker and a sword."""
    rules = load_rules(Profile.P004)
    return CocFightMode(Fight(rules, [
        entrant(rules, "Ann", 14, ("kick",), Side.INVESTIGATORS, kick=60, martial_arts=50,
                fist=70),
        entrant(rules, "Cult", 10, ("knife", "fire_poker", "japanese_sword"), Side.FOES,
                knife=50, club=40, japanese_sword=40)], ScriptedDice([])))


def test_the_defence_menu_tells_each_parry_apart_in_the_words_it_shows() -> None:
    """A fight's menu cuts a label to a dozen characters or so (800x480 and 480x320 alike):
    "[5] Parry 受け流…" three times over for a knife, a fire poker and a sword, "Dodge + Na…".
    Each label starts with what tells it apart now, the weapon first."""
    mode = knife_club_and_sword()
    menu = pick(mode, "attack", "t:Cult", "h:plain")
    assert isinstance(menu, ChoiceAsk)
    labels = {o.choice: o.label for o in menu.options}
    assert labels["d:parry:0"] == "Knife ナイフ parry 受け流し"
    assert labels["d:parry:1"].startswith("Fire Poker 火かき棒")
    assert labels["d:parry:2"].startswith("Japanese Sword 日本刀")
    assert labels["d:dodge:navigate"].startswith("Navigate")
    assert labels["d:dodge:jump"].startswith("Jump")
    shown = [label[:10] for label in labels.values()]  # what a box holds, give or take
    assert len(set(shown)) == len(shown), shown


def test_every_throw_of_an_attack_says_what_it_is_for() -> None:
    """The throws of one attack parried with the sword: the d100 names the skill and its
    target (to hit 命中), the damage its dice, the parry its weapon and skill; the action
    names the weapon parried with (it said "(parry)"), and so does the keypad's prompt of a
    typed d100 (it said "…, tens 十の位: Ann 攻撃 attacks → Cult")."""
    from companion.app.session.keypad import Keypad as Keys
    from companion.app.session.rolls import throw_prompt
    from companion.hw.keyboard import press_for_key

    mode = knife_club_and_sword()
    pick(mode, "attack", "t:Cult", "h:plain", "d:parry:2")
    action = "Ann 攻撃 attacks → Cult (parry 日本刀/Japanese Sword)"
    shown: list[str] = []

    class Keypad:
        def poll(self) -> list[Any]:
            return [press_for_key("1")] if shown else []

    first = mode.ask()
    assert isinstance(first, RollAsk)
    Keys(Controls([Keypad()]), 0.0, "", sleep=lambda s: None).die(
        first, lambda prompt, **kwargs: shown.append(prompt))
    assert shown[0] == (f"Ann キック/Kick (1D100<=60) to hit 命中 — {action}: type the D100, "
                        "tens 十の位")
    prompts = []
    for faces in ((10,), (3,), (2,), (90,)):
        ask = mode.ask()
        assert isinstance(ask, RollAsk)
        prompts.append(throw_prompt(ask))
        mode.answer(Throw(faces))
    assert prompts == [
        f"Throw 1D100 in the dice area 1D100を振って: Ann キック/Kick (1D100<=60) to hit 命中 "
        f"— {action}",
        f"Throw 1D6 in the dice area 1D6を振って: Ann キック/Kick damage ダメージ 1D6+1D4 — "
        f"{action}",
        f"Throw 1D4 in the dice area 1D4を振って: Ann キック/Kick damage ダメージ 1D6+1D4 — "
        f"{action}",
        f"Throw 1D100 in the dice area 1D100を振って: Cult 受け流し/parry 日本刀/Japanese Sword "
        f"(1D100<=40) — {action}"]
    assert isinstance(mode.ask(), ChoiceAsk)
    assert describe(mode.fight.journal[-1].action) == "Ann 攻撃 attacks → Cult (parry weapon 3)"
    assert mode.describe(mode.fight.journal[-1].action) == action


@pytest.mark.parametrize("resume", [False, True])
@pytest.mark.parametrize(("name", "text", "error"), [
    ("nonexist.json", None, "no fight at"),
    ("my.toml", 'keeper = "me"\n', "not JSON"),
])
def test_a_fight_file_that_cannot_be_read_sets_no_table_aside(
        tmp_path: Path, resume: bool, name: str, text: str | None, error: str) -> None:
    """`play --mode coc --fight my.toml` while another fight's table stopped unfinished: the
    stopped table's save was set aside before the file failed, its journal lost to --resume."""
    fight_file(tmp_path, "003")
    first = play(tmp_path, CHOICES[:6])
    assert not first.done and first.journal
    wrong = tmp_path / "elsewhere" / name
    wrong.parent.mkdir()
    if text is not None:
        wrong.write_text(text, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    told: list[str] = []
    with pytest.raises(DataError, match=error):
        table_session(wrong, tmp_path / "table.json", resume=resume, seed=SEED,
                      choices=Player([]), tell=told.append)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert not any("kept as" in t for t in told)
    resumed = play(tmp_path, [], resume=True)
    assert resumed.journal == first.journal
    assert resumed.fight.to_json() == first.fight.to_json()


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("where", ["profile", "side"])
def test_a_table_save_with_a_field_of_the_wrong_type_is_kept_aside_not_a_traceback(
        tmp_path: Path, resume: bool, where: str) -> None:
    """Valid JSON, a list for the fight's profile or an entrant's side in the table save:
    every start of the coc table ended in a TypeError traceback (unhashable type: 'list')
    until the save was deleted by hand. It is kept aside with a message."""
    fight_file(tmp_path, "003")
    first = play(tmp_path, CHOICES[:6])
    state = tmp_path / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    if where == "profile":
        saved["fight"]["profile"] = []
    else:
        saved["fight"]["entrants"][0]["side"] = []
    state.write_text(json.dumps(saved), encoding="utf-8")
    told: list[str] = []
    session = table_session(tmp_path / "fight.json", state, resume=resume, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, CocFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    (kept,) = tmp_path.glob("table.json.corrupt-*" if resume else "table.json.replaced-*")
    assert json.loads(kept.read_text(encoding="utf-8")) == saved
    assert any(kept.name in t for t in told)
    if resume:
        assert "must be" in told[0] and "found []" in told[0]


def test_a_fight_file_with_a_field_of_the_wrong_type_is_named(tmp_path: Path) -> None:
    """The fight file itself with a list for a side: an error naming the file and field."""
    path = fight_file(tmp_path, "003")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["entrants"][1]["side"] = ["foes"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(
            f"{path.resolve()}: not a saved coc fight: entrant 2's side must be")):
        table_session(path, tmp_path / "table.json", resume=False, seed=SEED,
                      choices=Player([]))


def test_a_new_table_says_where_an_unreadable_table_save_was_kept(tmp_path: Path) -> None:
    """Without --resume a table save cut short was renamed aside with no word (with --resume
    it is told): now it is told the same."""
    fight_file(tmp_path, "003")
    state = tmp_path / "table.json"
    state.write_text('{"version":1,', encoding="utf-8")
    told: list[str] = []
    session = table_session(tmp_path / "fight.json", state, resume=False, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, CocFightMode)
    (kept,) = tmp_path.glob("table.json.corrupt-*")
    assert kept.read_text(encoding="utf-8") == '{"version":1,'
    assert len(told) == 1 and "the fight save could not be read" in told[0]
    assert f"it was kept as {kept}" in told[0]


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("finished", [False, True])
def test_a_jongrogue_save_given_as_the_tables_state_is_refused_and_left(
        tmp_path: Path, resume: bool, finished: bool) -> None:
    """`play --mode coc --state save.json` (a game of JongRogue's save): it was renamed
    aside without a word and replaced by the table's save, the game found later only by
    chance. It is refused, naming what it holds, and left where it is."""
    fight_file(tmp_path, "003")
    state = tmp_path / "save.json"
    game = SaveGame(seed=3, preset="ez", inputs=["1m", "2m"], events=4, finished=finished)
    state.write_text(game.to_json(), encoding="utf-8")
    before = state.read_bytes()
    with pytest.raises(DataError, match=re.escape(
            f"{state} holds a game of JongRogue (ez), not a coc table's save, so it was "
            "left as it is: give the coc table a --state of its own (by default "
            "coc/table.json in the data folder)")):
        table_session(tmp_path / "fight.json", state, resume=resume, seed=SEED,
                      choices=Player([]))
    assert state.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.json", "save.json"]


@pytest.mark.parametrize("resume", [True, False])
def test_the_other_systems_table_save_given_as_state_is_refused_and_left(
        tmp_path: Path, resume: bool) -> None:
    """A genso table's save given to the coc table as --state is someone's fight: refused,
    named and left, not set aside as unreadable."""
    fight_file(tmp_path, "003")
    first = play(tmp_path, CHOICES[:6])
    assert first.journal
    state = tmp_path / "table.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps({**saved, "preset": "genso"}), encoding="utf-8")
    before = state.read_bytes()
    with pytest.raises(DataError, match=re.escape(f"{state} holds a genso table's save")):
        table_session(tmp_path / "fight.json", state, resume=resume, seed=SEED,
                      choices=Player([]))
    assert state.read_bytes() == before
    assert not list(tmp_path.glob("table.json.*"))


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_a_table_save_given_to_a_game_of_jongrogue_is_refused_and_left(
        tmp_path: Path, resume: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --headless --state coc/table.json`: the game took the table's save for a
    corrupt game of its own and renamed it aside, so `play --mode coc --resume` no longer
    found the fight. It is refused, naming what it holds, and left where it is."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    fight_file(tmp_path, "003")
    assert play(tmp_path, CHOICES[:6]).journal
    state = tmp_path / "table.json"
    before = state.read_bytes()
    assert main(["play", "--headless", "--state", str(state), *resume]) == 2
    err = capsys.readouterr().err
    assert (f"{state} holds a coc table's save, not a game of JongRogue, so it was left as "
            "it is: give the game a --state of its own (by default save.json in the data "
            "folder); play that fight on with `companion play --mode coc --resume --fight "
            f"{tmp_path / 'fight.json'} --state {state}`") in err.replace("\n", " ")
    assert state.read_bytes() == before
    assert not list(tmp_path.glob("table.json.*"))


def test_both_sides_down_at_once_is_told_at_the_table() -> None:
    """A blow and its MA counter put both sides down in one action: the table says nobody
    stands (it said "The fight is over: " with nothing after it)."""
    from companion.app.session.mode import ChoiceAsk
    from companion.dice import SimulatedDice
    from tests.systems.coc.helpers import duel, patch

    fight = duel(Profile.P004, {"fist": 90, "martial_arts": 90},
                 {"fist": 90, "martial_arts": 90})
    patch(fight, "Ann", hp=3)
    patch(fight, "Cult", hp=3)
    fight.push(Attack("Ann", "Cult", ma=True, defence=Defence.COUNTER, parry_weapon=0),
               SimulatedDice.seeded(0))
    ask = CocFightMode(fight).ask()
    assert isinstance(ask, ChoiceAsk)
    assert ask.prompt == "The fight is over 戦闘終了: 全員が倒れた nobody stands"


def behind_003(board: bool = False) -> Callable[[], Fight]:
    """003 with tackles on: Ann (Grapple, Tackle) against Cult (knife, Dodge); on the board
    Ann on d3 faces Cult on d4, who faces north, its back to her."""
    def make() -> Fight:
        rules = load_rules(Profile.P003).with_overrides(
            {"CO-TACKLE-1": {"p003": "optional_on"}})
        fight = Fight(rules, [
            entrant(rules, "Ann", 14, ("fist",), INV, grapple=60, tackle=60),
            entrant(rules, "Cult", 10, ("knife",), FOE, knife=50, dodge=50)],
            ScriptedDice([]))
        if board:
            fight.push(Place("Cult", "d4", "N"), ScriptedDice([]))
            fight.push(Place("Ann", "d3", "N"), ScriptedDice([]))
        return fight
    return make


def test_a_grapple_and_a_tackle_from_behind_at_the_table_003(tmp_path: Path) -> None:
    """003 off the board (CO-DODGE-3, 003 l.99 「回避集中を宣言していない場合、後ろからの攻撃は
    回避行動を行う事が出来ない。」): the grapple's and the tackle's defence menu opens *More
    状況…* with From behind 背後から, as an attack's; picked, it is on the prompt and the
    dodge and the parry the engine then refuses are no longer offered. On the board the
    board says (CO-TURN-2): no *More 状況*, and Cult, its back to Ann, no dodge or parry."""
    for sub in "abcd":
        (tmp_path / sub).mkdir()
    mode, player = at_the_table(tmp_path / "a", behind_003(), [], [
        "grapple", "t:Cult", "h:plain", "m:more", "m:behind", "d:none"], [
        Grapple("Ann", "Cult", from_behind=True)])
    menus = offered(player, "How does Cult defend?")
    assert menus[0] == ["d:none", "d:dodge", "d:parry:0", "m:more", "back"]
    assert menus[1] == ["d:none", "back"]
    assert offered(player, "What else?") == [["m:behind", "back"]]
    last = [p for p, _ in player.seen if p.startswith("How does Cult defend?")][-1]
    assert last.endswith("[from behind 背後]")
    assert describe(mode.fight.journal[-1].action) == (
        "Ann 組み付き grapples → Cult [from behind 背後]")
    mode, player = at_the_table(tmp_path / "b", behind_003(), [], [
        "tackle", "t:Cult", "o:damage", "m:more", "m:behind", "d:none"], [
        Tackle("Ann", "Cult", from_behind=True)])
    assert offered(player, "How does Cult defend?") == [
        ["d:none", "d:dodge", "m:more", "back"], ["d:none", "back"]]
    assert describe(mode.fight.journal[-1].action) == (
        "Ann タックル tackles → Cult [from behind 背後]")
    mode, player = at_the_table(tmp_path / "c", behind_003(board=True), [], [
        "grapple", "t:Cult", "h:plain", "d:none"], [Grapple("Ann", "Cult")])
    assert offered(player, "How does Cult defend?") == [["d:none", "back"]]
    mode, player = at_the_table(tmp_path / "d", behind_003(board=True), [], [
        "tackle", "t:Cult", "o:damage", "d:none"], [Tackle("Ann", "Cult")])
    assert offered(player, "How does Cult defend?") == [["d:none", "back"]]


def test_a_grapple_from_behind_at_the_table_004(tmp_path: Path) -> None:
    """004 has no CO-DODGE-3: from behind is offered, as for an attack, and the dodge and the
    parries stay offered (from revision 19 bare-handed and Grapple too, CO-GRAP-5: coc71)."""
    make = people(Profile.P004, ("Ann", 14, ("fist",), INV, {"grapple": 60}),
                  ("Cult", 10, ("knife",), FOE, {"knife": 50, "dodge": 50}))
    mode, player = at_the_table(tmp_path, make, [], [
        "grapple", "t:Cult", "h:plain", "m:more", "m:behind", "d:dodge"], [
        Grapple("Ann", "Cult", Defence.DODGE, from_behind=True)])
    assert offered(player, "How does Cult defend?") == [
        ["d:none", "d:dodge", "d:parry:0", "d:parry:hands", "d:parry:grapple", "m:more",
         "back"],
        ["d:none", "d:dodge", "d:parry:0", "d:parry:hands", "d:parry:grapple", "back"]]
    assert describe(mode.fight.journal[-1].action) == (
        "Ann 組み付き grapples → Cult [from behind 背後] (dodge)")


def test_the_terminal_board_tells_two_marks_of_one_initial_apart() -> None:
    """CO-TURN-2: Bob and Brute (marks B1, B2 in the roster) were both drawn B↑ on the
    terminal's board, the number cut off."""
    from companion.hw.display.terminal import board_text
    from companion.hw.display.view import BoardView, PieceView

    board = BoardView(8, 8, (PieceView(3, 3, "B1", (0, 1)),
                             PieceView(4, 4, "B2", (0, -1), ally=False),
                             PieceView(0, 0, "C10", (1, 0))))
    text = board_text(board).plain
    assert "B1↑" in text and "b2↓" in text and "C10" in text  # (a foe's in lower case)
    rows = text.splitlines()
    assert len({len(row) for row in rows}) == 1  # the squares line up under a … h


def marked_over_mid_fight(folder: Path) -> tuple[CocFightMode, dict[str, Any]]:
    """A coc table in ``folder`` stopped mid-fight, its save then saying ``finished: true``
    (a hand edit, a damaged card): the mode as it stopped, and that save."""
    fight_file(folder, "003")
    first = play(folder, CHOICES[:6])
    assert not first.done
    state = folder / "table.json"
    saved = {**json.loads(state.read_text(encoding="utf-8")), "finished": True}
    state.write_text(json.dumps(saved), encoding="utf-8")
    return first, saved


def test_a_table_marked_over_while_its_fight_runs_plays_on_at_a_resume(
        tmp_path: Path) -> None:
    """Review 54 #1, on the coc table (the same open_table): under --resume, the boot
    service's start, the table was called "over and closed" (FightClosed), or its save
    replaced by the next fight's with no copy. It plays on, says so, saved unfinished."""
    first, _ = marked_over_mid_fight(tmp_path)
    state = tmp_path / "table.json"
    told: list[str] = []
    session = table_session(tmp_path / "fight.json", state, resume=True, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, CocFightMode)
    assert session.mode.journal == first.journal
    assert told == [f"the table save {state} was marked over, but its fight replays still "
                    "running: it plays on"]
    assert not FightSave.from_json(state.read_text(encoding="utf-8")).finished
    assert not list(tmp_path.glob("table.json.*"))


def test_a_table_marked_over_while_its_fight_runs_is_kept_aside_not_replaced(
        tmp_path: Path) -> None:
    """Fuzz audit 2 on the coc table: a start without --resume keeps that save aside, as an
    unfinished table's is, and says so."""
    first, saved = marked_over_mid_fight(tmp_path)
    told: list[str] = []
    session = table_session(tmp_path / "fight.json", tmp_path / "table.json", resume=False,
                            seed=SEED, choices=Player([]), tell=told.append)
    assert isinstance(session.mode, CocFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    (kept,) = tmp_path.glob("table.json.replaced-*")
    assert json.loads(kept.read_text(encoding="utf-8")) == saved
    assert any("marked over but replaying to a fight still running" in t and kept.name in t
               for t in told)
