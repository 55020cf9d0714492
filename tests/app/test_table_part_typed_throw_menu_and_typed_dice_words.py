"""review65t's findings on the tables65 fixes: the System menu's heading over a throw
part-typed on the keypad is short and reads whole on the screen, its detail on the status
line (D1); ``orc1`` names オーク1 beside a lone オーク (D2); a Ctrl-C at a die typed beside
the camera says "typed" (NIT 1); the end of typed input lists the dice taken (NIT 2); the
``--d100`` refusal of a setting reads as a sentence (NIT 3); "safe to unplug now" after a
failed shutdown says the part-typed throw (NIT 4); the no-docs hint and ``play --d100`` with
the camera from a setting (NIT 5); the no-fight message reads whole at text_scale 1.25
(NIT 6)."""

from __future__ import annotations

import argparse
import io
import json
import shlex
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import build_parser, main
from companion.app.commands import coc as coc_command
from companion.app.commands.play.options import effective_config, refuse_idle_table_d100
from companion.app.commands.roll import (
    TAKEN_SO_FAR,
    CameraThrows,
    D100NotUsed,
    run_with_source,
)
from companion.app.modes import coc
from companion.app.modes.coc import CocFightMode
from companion.app.modes.coc.table import EXAMPLES, start_hint
from companion.app.modes.genso.action_menu import GensoFightMode
from companion.app.session.controls import Controls
from companion.app.session.keypad import Keypad
from companion.app.session.mode import RollAsk, Throw
from companion.app.session.system_menu import SystemMenu
from companion.dice import ManualDice, ScriptedDice
from companion.errors import DataError
from companion.hw.buttons import Button, Pick, Press
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import message_view
from companion.hw.keyboard import press_for_key
from tests.app.coc_table_helpers import new_fight as coc_fight
from tests.app.genso_table_helpers import RULES
from tests.app.genso_table_helpers import new_fight as genso_fight
from tests.app.typed_terminal_helpers import Terminal
from tests.hw.screen_layout_helpers import Drawn, spy_text

SIZES = [("800x480", 1.0), ("1024x600", 1.0), ("800x480", 1.25), ("1024x600", 1.25)]
SIZE_IDS = ["800x480", "1024x600", "800x480-text1.25", "1024x600-text1.25"]


@pytest.fixture(params=SIZES, ids=SIZE_IDS)
def screen(request: pytest.FixtureRequest) -> Iterator[ScreenDisplay]:
    size, scale = request.param
    display = ScreenDisplay(size, text_scale=scale)
    yield display
    display.close()


class PlayerAtTheScreen:
    """Presses one press each time a menu is shown, in turn, each view drawn on ``screen``
    through ``mode``'s view as the session draws it; the texts fitted are kept by view."""

    def __init__(self, screen: ScreenDisplay, mode: Any, *presses: Press) -> None:
        self.screen = screen
        self.mode = mode
        self.presses = list(presses)
        self.pending: list[Press] = []
        self.drawn = spy_text(screen)
        self.shown: list[tuple[str, str, list[Drawn]]] = []  # prompt, status, fitted

    def poll(self) -> list[Press]:
        out, self.pending = self.pending, []
        return out

    def show(self, prompt: str, **kwargs: Any) -> None:
        guidance = kwargs.pop("guidance", False)
        view = self.mode.view(prompt, **kwargs)
        self.drawn.clear()
        self.screen.render(replace(view, guidance=guidance or view.guidance))
        self.shown.append((prompt, kwargs.get("status", ""), list(self.drawn)))
        if kwargs.get("options"):
            assert self.presses, f"no press left for {prompt!r}"
            self.pending.append(self.presses.pop(0))


def drawn_whole(text: str, drawn: list[Drawn]) -> bool:
    """Whether ``text`` was fitted on the screen whole: found, and not cut with …."""
    rows = [d for d in drawn if d.text == text]
    return bool(rows) and not any(d.cut for d in rows)


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize(("system", "count", "sides", "keys", "typed"), [
    ("genso", 2, 6, ("4",), "4 typed of 2D6"),
    ("genso", 6, 6, ("1", "2", "3", "4", "5"), "1, 2, 3, 4, 5 typed of 6D6"),
    ("coc", 1, 100, ("3",), "3_ typed of 1D100"),
], ids=["genso-2d6", "genso-6d6-five-typed", "coc-d100-tens"])
def test_the_menu_over_a_part_typed_throw_reads_whole_on_the_screen(
    screen: ScreenDisplay, system: str, count: int, sides: int, keys: tuple[str, ...],
    typed: str
) -> None:
    """D1: the heading "every step is saved 保存済み, but not the throw being typed (…): it is
    asked again …" has one row over the menu's buttons, and was cut in its middle at every
    size ("every step is saved 保存…ped (4 typed of 2D6)…"). Drawn now through the System
    menu opened on the keypad: the heading, and the dice typed on the status line under it,
    each whole; after Back the throw is asked from its first die."""
    mode = (GensoFightMode(RULES, genso_fight(), "typed 手入力") if system == "genso"
            else CocFightMode(coc_fight("004"), "typed 手入力"))
    again = ("6",) * count if sides == 6 else ("3", "0")
    player = PlayerAtTheScreen(screen, mode, *map(press_for_key, keys), Button.SYSTEM,
                               Button.FLEE, *map(press_for_key, again))
    controls = Controls([player])
    menu = SystemMenu(controls, system, 0.0, "", sleep=lambda s: None,
                      service="jongrogue-companion")
    pad = Keypad(controls, 0.0, "typed 手入力", sleep=lambda s: None)
    thrown = menu.answering(lambda: pad.next_throw(RollAsk("damage", count, sides), player.show),
                            player.show, lambda: "")
    assert thrown == Throw((6,) * count if sides == 6 else (30,))
    at = next(i for i, (prompt, _, _) in enumerate(player.shown)
              if prompt.startswith("System 設定"))
    heading, status, drawn = player.shown[at]
    assert drawn_whole(heading, drawn), [d.shown for d in drawn if d.text == heading]
    assert "not this throw" in heading and "typed again" in heading
    assert status == f"{typed} 入力済: asked again from its first die 最初のダイスから再入力"
    assert drawn_whole(status, drawn), [d.shown for d in drawn if d.text == status]
    assert f"(1 of {count}" in player.shown[at + 1][0] if count > 1 else True


def test_a_failed_shutdown_says_the_throw_typed_part_way_is_not_saved() -> None:
    """NIT 4: with a throw part-typed, the shutdown command that failed said "every step is
    saved: safe to unplug now"; it says this throw is typed again, its dice under it."""
    shown: list[tuple[str, str]] = []
    presses: list[Press] = [press_for_key("4"), Button.SYSTEM, Pick(4), Pick(1),
                            Button.ATTACK, press_for_key("1"), press_for_key("2")]
    pending: list[Press] = []

    class Player:
        def poll(self) -> list[Press]:
            nonlocal pending
            out, pending = pending, []
            return out

    def show(prompt: str, **kwargs: Any) -> None:
        shown.append((prompt, kwargs.get("status", "")))
        if kwargs.get("options"):
            pending.append(presses.pop(0))

    controls = Controls([Player()])
    menu = SystemMenu(controls, "genso", 0.0, "false", sleep=lambda s: None, service="")
    assert [o.choice for o in menu.options()][4] == "off"
    pad = Keypad(controls, 0.0, "typed 手入力", sleep=lambda s: None)
    assert menu.answering(lambda: pad.next_throw(RollAsk("to hit", 2, 6), show), show,
                          lambda: "") == Throw((1, 2))
    said, status = next((p, s) for p, s in shown if p.startswith("Could not shut down"))
    assert said == ("Could not shut down 電源を切れません (false: exit status 1); saved, but not "
                    "this throw: safe to unplug now 電源を抜いても大丈夫")
    assert status == "4 typed of 2D6 入力済: asked again from its first die 最初のダイスから再入力"


@pytest.mark.parametrize("typed", ["orc1", "ORC1", "オーク１", "オーク1"])
def test_orc1_names_orc_1_beside_a_lone_orc(
    typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """D2: ``--monsters orc orc:2`` makes オーク, オーク1 and オーク2; the lone オーク's alias
    ``orc1`` made ``orc1`` (and ``オーク１``) refused as "オーク or オーク1"."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc", "orc:2"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "attack", "pc1", typed, "--dice", "sim", "--seed", "1",
                 "--json"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["entry"]["action"]["target"] == "オーク1"


def test_a_lone_orc_is_still_orc1_beside_other_monsters(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """The lone monster's alias, when no one else answers to it."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc",
                 "slime:2"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "attack", "pc1", "orc1", "--dice", "sim", "--seed", "1",
                 "--json"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["entry"]["action"]["target"] == "オーク"


def test_ctrl_c_at_a_d100_typed_beside_the_camera_says_typed(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 1: ``coc … --dice camera --d100 typed``: the d100 is typed on the terminal, and a
    Ctrl-C at it said "was thrown", where the end of input says "was typed"."""
    monkeypatch.setattr(coc_command, "camera_source", lambda args: ScriptedDice([]))
    monkeypatch.setattr("sys.stdin", Terminal())
    assert main(["coc", "roll", "CCB<=50", "--dice", "camera", "--d100", "typed"]) == 130
    said = " ".join(capsys.readouterr().err.split())
    assert "(1D100<=50) was typed: nothing was saved" in said, said
    assert "was thrown" not in said


def test_ctrl_c_at_a_d4_typed_beside_the_camera_says_typed(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """NIT 1, ``CameraThrows`` (roll, events, genso with camera dice): a D4 is typed."""
    def ask(prompt: str) -> str:
        raise KeyboardInterrupt

    throws = CameraThrows(None, lambda message: None, ManualDice(ask))  # type: ignore[arg-type]
    args = argparse.Namespace(dice="camera", seed=None)
    with pytest.raises(KeyboardInterrupt):
        run_with_source(args, lambda source: source.roll(1, 4, purpose="which ability 能力値"),
                        lambda args: throws)
    said = " ".join(capsys.readouterr().err.split())
    assert "stopped before which ability 能力値 (1D4) was typed" in said, said


def test_the_end_of_typed_input_lists_the_dice_taken(
    user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 2: Ctrl-D at the damage die said only that it ended; Ctrl-C there lists the to-hit
    typed too. Both do now, and nothing is saved."""
    assert main(["genso", "fight", "new", "--party", "pc1", "--monsters", "orc:2"]) == 0
    path = user_dirs / "data" / "genso" / "fight.json"
    before = path.read_bytes()
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("4 5\n"))
    assert main(["genso", "fight", "attack", "pc1", "orc1", "--dice", "typed"]) == 1
    err = capsys.readouterr().err
    said = " ".join(err.split())
    assert "the input ended before damage" in said and "nothing was saved" in said
    assert TAKEN_SO_FAR in err and ": 4 5" in said, err
    assert err.index("the input ended") < err.index(TAKEN_SO_FAR)
    said_lines = err[err.index("companion: error:"):].splitlines()
    assert all(len(line) <= 80 for line in said_lines), said_lines
    assert path.read_bytes() == before


def test_the_end_of_input_in_events_says_the_walk_alone(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``events`` says its walk itself: not the dice list beside it."""
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n"))
    assert main(["events", "monster", "--dice", "typed"]) == 1
    err = capsys.readouterr().err
    assert "(awaiting" in err and TAKEN_SO_FAR not in err


def play_args(*argv: str) -> argparse.Namespace:
    return build_parser("play").parse_args(["play", *argv])


@pytest.mark.parametrize("where", ["environment", "config.toml"])
def test_play_refuses_d100_with_typed_dice_from_a_setting_in_a_sentence(
    where: str, user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 3: it read "with dice.source (COMPANION_DICE_SOURCE): typed every die is typed"."""
    if where == "environment":
        monkeypatch.setenv("COMPANION_DICE_SOURCE", "typed")
        origin = "COMPANION_DICE_SOURCE"
    else:
        toml = user_dirs / "config" / "config.toml"
        toml.parent.mkdir(parents=True, exist_ok=True)
        toml.write_text('[dice]\nsource = "typed"\n', encoding="utf-8")
        origin = str(toml)
    args = play_args("--mode", "coc", "--d100", "typed")
    with pytest.raises(D100NotUsed) as refused:
        refuse_idle_table_d100(args, effective_config(args, tell=False))
    said = " ".join(str(refused.value).split())
    assert (f"with dice.source = typed ({origin}), every die is typed; leave --d100 out"
            in said), said


@pytest.mark.parametrize("where", ["environment", "config.toml", "flag"])
def test_play_takes_d100_with_the_camera_from_a_setting(
    where: str, user_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 5: ``--d100`` is the camera's companion, wherever the camera was chosen; a flag
    over a config.toml that says typed too."""
    toml = user_dirs / "config" / "config.toml"
    toml.parent.mkdir(parents=True, exist_ok=True)
    toml.write_text(f'[dice]\nsource = "{"camera" if where == "config.toml" else "typed"}"\n',
                    encoding="utf-8")
    if where == "environment":
        monkeypatch.setenv("COMPANION_DICE_SOURCE", "camera")
    args = play_args("--mode", "coc", "--d100", "typed",
                     *(["--dice", "camera"] if where == "flag" else []))
    config = effective_config(args, tell=False)
    assert config.text("dice.source") == "camera"
    refuse_idle_table_d100(args, config)  # not refused
    args = play_args("--mode", "coc", "--d100", "typed", "--dice", "typed")
    with pytest.raises(D100NotUsed):
        refuse_idle_table_d100(args, effective_config(args, tell=False))


def test_with_no_sample_sheets_the_hint_says_where_they_are(tmp_path: Path) -> None:
    """NIT 5: a package installed without its docs: SHEET.toml, and where the samples are."""
    assert start_hint(tmp_path) == (
        "companion coc fight new --investigators SHEET.toml --foes SHEET.toml (sample "
        "sheets: docs/examples/ of the companion's source)")


@pytest.fixture
def pi_checkout() -> Iterator[Path]:
    """A checkout with the sample sheets, at a path as long as the Pi's
    (/home/pi/jongrogue-companion)."""
    top = Path(tempfile.mkdtemp(prefix="jr", dir="/tmp"))
    root = top / "jongrogue-companion"
    try:
        (root / "docs" / "examples").mkdir(parents=True)
        for sheet in ("ann.toml", "cultist.toml"):
            shutil.copy(EXAMPLES / sheet, root / "docs" / "examples" / sheet)
        yield root
    finally:
        shutil.rmtree(top)


def test_the_no_fight_hint_goes_to_the_checkout_first(
    tmp_path: Path, pi_checkout: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """NIT 6 (and tables65 NIT 5): the sample sheets are found from any folder, the fight file
    named by its whole path; each path short enough for a row of the screen."""
    monkeypatch.setattr("companion.app.modes.coc.table.EXAMPLES", pi_checkout / "docs" / "examples")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DataError) as stopped:
        coc.table_session(Path("my fight.json"), tmp_path / "t.json", resume=True, seed=1,
                          choices=None)  # type: ignore[arg-type]
    words = shlex.split(str(stopped.value).split("端末で: ", 1)[1])
    assert words[:3] == ["cd", str(pi_checkout), "&&"]
    assert words[words.index("--file") + 1] == str(tmp_path / "my fight.json")
    named = [w for w in words if w.endswith(".toml")]
    assert len(named) == 2 and all((pi_checkout / w).is_file() for w in named)


@pytest.mark.needs_japanese_font
def test_the_no_fight_message_reads_whole_on_the_screen(
    screen: ScreenDisplay, pi_checkout: Path
) -> None:
    """NIT 6: at text_scale 1.25 the screen showed ".../docs/examples/cu…t.toml": a sheet's
    whole path was wider than a row. Each word of the message now fits one."""
    hint = start_hint(pi_checkout / "docs" / "examples")
    fight = "/home/pi/fights/my fight.json"
    message = (f"no fight at {fight} yet 戦闘がありません: start one on a computer 端末で: "
               f"{hint} --file {shlex.quote(fight)}")
    drawn = spy_text(screen)
    screen.render(message_view(message, trouble=True))
    shown = [d for d in drawn if d.text and d.text in message]
    assert shown and not any(d.cut for d in shown), [d.shown for d in shown if d.cut]
    assert "".join(d.shown for d in shown).replace(" ", "") == message.replace(" ", "")
