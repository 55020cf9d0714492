"""``--dice typed``: real dice at a table with no dice camera, each die typed on a keypad
menu (companion/app/session/keypad.py), in the dice tray and the fights."""

from __future__ import annotations

import argparse
import json
import os
import select
import time
from pathlib import Path

import pytest

from companion.app.commands.play.table_modes import run_coc
from companion.app.config import load_config
from companion.app.modes.dice_tray import QUIT_PROMPT
from companion.app.modes.fight_file import write_fight_file
from companion.app.session.controls import Controls
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack as CocAttack
from companion.systems.genso.combat import Attack
from tests.app.dice_tray_helpers import MENU
from tests.app.genso_table_helpers import PC1, PC2, genso_table_in_a_terminal, new_fight
from tests.app.play_pty_helpers import Terminal
from tests.app.table import PlayerAtTheScreen
from tests.systems.coc.scripted_fight_helpers import fight_003


def test_the_dice_tray_takes_the_dice_the_player_types(tmp_path: Path) -> None:
    """2D6 thrown by hand and typed 4 then 5: the roll is 9, each die's menu says which it
    is and why it is typed, and the tray names its dice as typed."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "160"}
    term = Terminal(["--mode", "dice", "--dice", "typed", "--display", "terminal",
                     "--choices", "keyboard"], env)
    term.answer(MENU, 1, b"2")  # 2D6
    term.answer("Type the D6 you threw (1 of 2) 1D6の出目を入力", 1, b"4")
    term.answer("Type the D6 you threw (2 of 2, so far 4 入力済) 1D6の出目を入力", 1, b"5")
    term.answer("Again もう一度", 1, b"b")
    term.answer(MENU, 2, b"b")
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0, term.proc.stderr.read() if term.proc.stderr else b""
    text = term.text()
    assert "your own dice, typed 手持ちのダイスを入力" in text
    assert "typed 入力" in text
    after = text[text.rindex("(2 of 2, so far 4"):]
    assert "(2D6) ＞ 9[4,5]" in after and "2D6: total 合計 9" in after, after[-1500:]


class Threes:
    """Dice that always show 3: what the player typed for every die."""

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return [3] * count


def test_a_genso_fight_takes_every_die_typed(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """pc1 attacks with every die typed as 3 (no dice camera): the fight file holds the
    attack the engine makes of those dice, and no die was asked of a camera."""
    fight, term = genso_table_in_a_terminal(tmp_path, monkeypatch, ["--dice", "typed"])
    term.answer(f"{PC1} PC 1: what now", 1, b"a")
    term.answer("Attack whom", 1, b"a")
    term.answer("With which weapon", 1, b"a")
    typed = 0
    deadline = time.monotonic() + 30
    while f"{PC2} PC 2: what now" not in term.text():  # a 3 for each die asked
        assert time.monotonic() < deadline and term.proc.poll() is None, term.text()[-2000:]
        if term.text().count("1D6の出目を入力") > typed:
            typed += 1
            term.answer("1D6の出目を入力", typed, b"3")
        elif select.select([term.master], [], [], 0.1)[0]:
            term.seen.extend(os.read(term.master, 65536))
    term.proc.terminate()
    term.finish()
    assert typed >= 2 and "Throw" not in term.text()  # typed, never awaited from a camera
    expected = new_fight()
    expected.push(Attack(PC1, "オーク1", 0), Threes())
    saved = json.loads(fight.read_text(encoding="utf-8"))
    assert saved["journal"][0] == expected.journal[0].to_json()


KICK = "Ann キック/Kick+MA (1D100<=60,50) to hit 命中 — Ann 攻撃 attacks → Cult [MA]"


def test_a_coc_fight_takes_the_d100_and_every_other_die_typed(tmp_path: Path) -> None:
    """Ann's kick with martial arts, every die typed (no dice camera): the d100 as tens 5 and
    units 5, the 1D6 and the 1D4 on their keypads; the fight is the engine's with those
    dice, and nothing asked a camera."""
    fight = tmp_path / "fight.json"
    write_fight_file(fight, fight_003()[0])
    screen = PlayerAtTheScreen([
        ("Ann (3 AP): what", "attack"), ("Attack whom", "t:Cult"), ("How?", "h:ma"),
        ("How does Cult defend", "d:none"),
        # The roll's own words first, then the typing (screen64 NIT 7).
        (f"{KICK}: type the D100, tens 十の位", "5"),
        (f"{KICK}: type the D100, units", "5"),
        ("Type the D6 you threw", "6"), ("Type the D4 you threw", "4")])
    args = argparse.Namespace(fight=fight, state=tmp_path / "table.json", resume=False, seed=7,
                              mode=None, headless=False)
    typed = load_config(env={}, overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    with pytest.raises(KeyboardInterrupt):
        run_coc(args, typed, screen, Controls([screen]), None)
    assert not screen.script
    keypads = [v for v in screen.views
               if v.prompt.startswith("Type the D") or "type the D" in v.prompt]
    assert keypads and all(v.status == "your own dice, typed 手持ちのダイスを入力"
                           for v in keypads)
    expected = fight_003()[0]
    expected.push(CocAttack("Ann", "Cult", ma=True), ScriptedDice([(100, 55), (6, 6), (4, 4)]))
    assert json.loads(fight.read_text(encoding="utf-8")) == json.loads(
        json.dumps(expected.to_json()))


def test_a_dice_camera_that_cannot_be_opened_offers_typed_dice(tmp_path: Path) -> None:
    """Buttons-only audit F3: an unplugged dice camera stopped the table, and under the boot
    service the Stopped screen came back at every start. The screen says why and offers to
    type the dice for this session; the tray then names its dice as typed."""
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "160",
           "COMPANION_DICE_CAMERA_SOURCE": str(tmp_path / "unplugged.png")}
    term = Terminal(["--mode", "dice", "--dice", "camera", "--display", "terminal",
                     "--choices", "keyboard"], env)
    term.answer("The dice camera cannot be used カメラが使えません", 1, b"a")  # type instead
    term.answer(MENU, 1, b"1")  # 1D6
    term.answer("Type the D6 you threw 1D6の出目を入力", 1, b"4")
    term.answer("Again もう一度", 1, b"b")
    term.answer(MENU, 2, b"b")
    term.answer(QUIT_PROMPT, 1, b"2")
    assert term.finish() == 0
    assert "unplugged.png" in term.text() and "typed 入力" in term.text()
    quits = Terminal(["--mode", "dice", "--dice", "camera", "--display", "terminal",
                      "--choices", "keyboard"], env)
    quits.answer("The dice camera cannot be used", 1, b"b")
    assert quits.finish() != 0  # Quit: the camera's error, as before
