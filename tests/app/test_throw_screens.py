"""What the screen says while the dice are awaited at the table, at 800x480 and 1024x600: the
throw's purpose first and whole, a die to type said to be typed, the throws already made,
and the session's trouble short, in both languages, apart from the next step's guidance.

Views are the modes' own, drawn by the real :class:`ScreenDisplay` (SDL's dummy driver) and
read back from the text it fitted (``spy_text``).
"""

from __future__ import annotations

import errno
import re
from pathlib import Path

import pygame
import pytest

from companion.app.modes.coc.table_rolls import CocTableRolls
from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.modes.genso import table_session
from companion.app.session.controls import Controls
from companion.app.session.host import Session
from companion.app.session.mode import RollAsk, Show, Throw
from companion.app.session.rolls import TAKEN, WAIT_OPTIONS, CameraRolls, throw_prompt
from companion.dice import ScriptedDice
from companion.hw.buttons import Pick, Press
from companion.hw.display.canvas import ACCENT, BAD, TEXT, Color
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import View
from tests.app.camera_roll_helpers import session_rolls
from tests.app.genso_table_helpers import RULES, SEED, fight_file
from tests.app.session_helpers import RecordingDisplay
from tests.app.table import Player
from tests.app.throw_helpers import damage_awaited
from tests.dice_scenes import still_scene
from tests.disk import refuse_writes
from tests.hw.screen_layout_helpers import (
    Drawn,
    screen,  # noqa: F401  (a fixture)
    spy_text,
)

CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def monster_tray_after_first_throw() -> DiceTrayMode:
    """The Monster table (EV-MON-1) picked, its first 1D6 thrown: a 5 asks 1D6 more."""
    tray = DiceTrayMode(("1D6",), "camera カメラ")
    tray.answer(1)  # Event table
    tray.answer(3)  # Monster
    tray.answer(Throw((5,)))
    assert isinstance(tray.ask(), RollAsk)
    return tray


def footer_text(screen: ScreenDisplay, drawn: list[Drawn], view: View) -> list[Drawn]:  # noqa: F811
    """The rows of the prompt (at its size: a panel's title may be a part of it) and of the
    status, as drawn; a prompt's last row that runs on is fitted as a label is, cut in its
    middle, and counts (review59c: the D3 note cut there went unseen)."""
    return [d for d in drawn if d.text
            and ((d.size == screen.m(17) and d.text in view.prompt)
                 or (not d.label and d.text in view.status))]


def test_a_follow_up_throw_shows_the_throws_so_far() -> None:
    """While the table's next roll was awaited the Dice and Table panels were empty: the 5
    just read, and what it was for, were shown nowhere."""
    dice = monster_tray_after_first_throw().view("…").dice
    assert dice is not None and dice.faces == (5,)
    assert dice.rolls == ("(1D6) ＞ 5: the Monsters モンスター table (EV-MON-1)",)


def test_a_follow_up_throw_prompt_is_drawn_whole(screen: ScreenDisplay) -> None:  # noqa: F811
    """"Throw 1D6 in the dice area 1D6を振って: モンスター Monster (EV-MON-1), throw 2 (the
    table's next roll 追加): how many monsters 何体" was one line, cut before what the throw
    decides. The purpose comes first, and the prompt has a second row over the Back box."""
    tray = monster_tray_after_first_throw()
    ask = tray.ask()
    assert isinstance(ask, RollAsk)
    assert ask.prompt.startswith("how many monsters 何体")
    view = tray.view(throw_prompt(ask), options=WAIT_OPTIONS, status=TAKEN)
    drawn = spy_text(screen)
    screen.render(view)
    rows = footer_text(screen, drawn, view)
    assert not [d for d in rows if d.cut], [d.shown for d in rows]
    assert "".join(d.text for d in rows if d.text in view.prompt).replace(" ", "") \
        == view.prompt.replace(" ", "")


def test_a_typed_die_says_type_it_where_the_screen_shows_it(
        screen: ScreenDisplay) -> None:  # noqa: F811
    """A 1D3 of the player's list (the camera reads D6 only) read "Throw 1D3 in the dice area
    1D3を振って: …", its "type the D3 … 出目を入力" cut off the end; and that menu has no
    timeout, so a player who threw the die in the dice area waited for ever."""
    ask = RollAsk("種類/species (level 1) from your list — モンスター Monster (EV-MON-1), "
                  "roll 3 3投目", 1, 3)
    tray = monster_tray_after_first_throw()
    drawn = spy_text(screen)
    views: list[View] = []

    class Player:
        """Types a 2 once the keypad is on the screen."""

        def show(self, prompt: str, **kwargs: object) -> None:
            view = tray.view(prompt, options=kwargs.get("options", ()),  # type: ignore[arg-type]
                             status=str(kwargs.get("status", "")))
            views.append(view)
            screen.render(view)

        def poll(self) -> list[Press]:
            return [Pick(1)] if views else []

    player = Player()
    rolls = session_rolls(iter([still_scene(600, 1).image]), player)  # type: ignore[arg-type]
    assert rolls.next_throw(ask, player.show) == Throw((2,))
    view = views[0]
    assert view.prompt.startswith("Type the D3 you threw 1D3の出目を入力: 種類/species")
    assert "in the dice area" not in view.prompt
    rows = footer_text(screen, drawn, view)
    assert not [d for d in rows if d.cut], [d.shown for d in rows]


def test_coc_says_a_d3_is_a_d6_halved_first() -> None:
    """coc's D3 from the camera, a D6 halved: the note was last, cut off the prompt."""
    asked: list[RollAsk] = []

    class Camera:
        def next_throw(self, ask: RollAsk, show: Show) -> Throw:
            asked.append(ask)
            return Throw((5,))

    rolls = CocTableRolls(Camera(), Controls([]), 0.0)
    ask = RollAsk("Bob 拳/Fist damage ダメージ 1D3+1D4 — Bob 攻撃 attacks", 1, 3)
    throw = rolls.next_throw(ask, lambda prompt, **kwargs: None)
    assert throw == Throw((3,))
    assert asked[0].prompt.startswith("1D3 = 1D6 halved 1D6で代用 — Bob 拳/Fist damage")


def test_a_fight_shows_the_to_hit_roll_while_damage_is_awaited() -> None:
    """The to-hit 2D6 just read was shown nowhere while its damage die was asked for: the
    Result panel showed the action before."""
    mode = damage_awaited()
    assert isinstance(mode.ask(), RollAsk)  # the damage die
    shown = mode.view("…").fight
    assert shown is not None and shown.result_title.endswith("→ オーク Orc 攻撃 attack")
    assert [(step.rule, step.text) for step in shown.result] == [
        ("so far 途中", "(2D6) ＞ 12[6,6]: to hit 命中")]
    mode.answer(Throw((3,)))  # the action whole: its own lines, with their rule IDs, again
    shown = mode.view("…").fight
    assert shown is not None and shown.result[0].rule == "GM-COMBAT-2"


def test_a_save_trouble_on_the_action_menu_is_whole_and_in_japanese_too(
        screen: ScreenDisplay, tmp_path: Path,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk under a genso table, its save and its fight file refused: the action
    menu's grid footer gave the status one line, "cannot save (No space left on device):
    free space or fix the folder; the game is safe up to move 1 · cannot write the fight
    file /t…", English only, the path filling it."""
    path = fight_file(tmp_path)
    state = tmp_path / "table.json"
    refuse_writes(path, monkeypatch, range(2, 99))
    refuse_writes(state, monkeypatch, range(3, 99))
    display = RecordingDisplay()
    session = table_session(RULES, path, state, resume=False, seed=SEED, display=display,
                            choices=Player(["attack", "t:オーク1", "w:0"]))
    try:
        session.run()
    except KeyboardInterrupt:  # the player's script ran out at the next action menu
        pass
    view = display.views[-1]
    assert view.fight is not None and len(view.options) > 4  # the grid
    assert "cannot save" in view.status and "fight.json not written" in view.status
    assert str(tmp_path) not in view.status and CJK.search(view.status)
    drawn = spy_text(screen)
    screen.render(view)
    rows = footer_text(screen, drawn, view)
    assert not [d for d in rows if d.cut], [d.shown for d in rows]
    assert " ".join(d.text for d in rows if d.text in view.status).split() \
        == view.status.split()


def status_colours(screen: ScreenDisplay, view: View) -> set[Color]:  # noqa: F811
    """The colours the status of ``view`` is drawn in."""
    colours: set[Color] = set()
    fit = screen._fit

    def spy(value: str, size: int, width: int, color: Color = TEXT) -> pygame.Surface:
        if value and value in view.status:
            colours.add(color)
        return fit(value, size, width, color)

    screen.__dict__["_fit"] = spy
    screen.render(view)
    del screen.__dict__["_fit"]
    return colours


def test_guidance_is_drawn_as_the_prompt_and_trouble_apart(
        screen: ScreenDisplay, tmp_path: Path) -> None:  # noqa: F811
    """"throw taken: pick the dice up …", the usual next step, was drawn in the trouble
    colour as a camera that stopped is; it is drawn as the prompt is, unless trouble (a save
    behind) is beside it."""
    display = RecordingDisplay()
    session = Session(monster_tray_after_first_throw(), choices=Player([]), display=display)
    session.show("Throw 1D6", options=WAIT_OPTIONS, status=TAKEN, guidance=True)
    session.show("Throw 1D6", options=WAIT_OPTIONS, status="camera 0 stopped")

    def refused() -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    session.keep(refused)
    session.show("Throw 1D6", options=WAIT_OPTIONS, status=TAKEN, guidance=True)
    calm, trouble, behind = display.views
    assert calm.guidance and not trouble.guidance and not behind.guidance
    assert behind.status.startswith("保存できません cannot save: disk full 空き容量なし")
    assert status_colours(screen, calm) == {ACCENT}
    assert status_colours(screen, trouble) == {BAD}
    assert status_colours(screen, behind) == {BAD}


def test_camera_dice_guidance_is_said_as_such() -> None:
    """What the camera rolls say while the dice are awaited (the dice still lying there, the
    countdown to accept) is guidance; the player's answer is not needed to say so."""
    shown: list[tuple[str, bool]] = []

    class Watcher:
        def show(self, prompt: str, **kwargs: object) -> None:
            shown.append((str(kwargs.get("status", "")), bool(kwargs.get("guidance"))))

        def poll(self) -> list[Press]:
            return []

    watcher = Watcher()
    die = still_scene(600, 1)
    rolls: CameraRolls = session_rolls(iter([die.image] * 200), watcher)  # type: ignore[arg-type]
    rolls.next_throw(RollAsk("which monster", 1, 6), watcher.show)
    assert shown and all(calm for status, calm in shown if status)
    assert any("counts in" in status and "秒で確定" in status for status, _ in shown)


def test_coc_dice_the_camera_cannot_read_are_thrown_at_once_or_typed() -> None:
    """``--d100 sim``: a burst's 1D20 is thrown by the companion with no screen flashed up
    (one said "d100 simulated" for it); ``--d100 typed``: the keypad says why it is typed."""
    class NoCamera:
        def next_throw(self, ask: RollAsk, show: Show) -> Throw:
            raise AssertionError("the camera reads d6-based dice only")

    shown: list[tuple[str, dict[str, object]]] = []
    rolls = CocTableRolls(NoCamera(), Controls([]), 0.0, sim=ScriptedDice([(20, 14)]))
    throw = rolls.next_throw(RollAsk("burst 連射", 1, 20),
                             lambda prompt, **kwargs: shown.append((prompt, kwargs)))
    assert throw == Throw((14,)) and shown == []

    class Keys:
        def poll(self) -> list[Press]:
            return [Pick(3)] if shown else []

    typed = CocTableRolls(NoCamera(), Controls([Keys()]), 0.0, sleep=lambda s: None)
    assert typed.next_throw(RollAsk("damage", 1, 4),
                            lambda prompt, **kwargs: shown.append((prompt, kwargs))) \
        == Throw((4,))
    assert shown[0][1]["status"] == "the camera reads D6 only カメラはD6のみ"
