"""screen70 fixes: the attached screen and its four buttons (audit /tmp/audit/screen70.md).

- DEFECT 1: a D20 typed with the buttons: after ``2_ (20)`` the units were 21–29 and 20, the
  highlight on the 21 the die has not (companion/app/session/keypad.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.keypad import place_digits
from companion.hw.buttons import Button
from tests.app.table import PlayerAtTheScreen

TENS = "Dice tray ダイストレイ: type the D20, tens 十の位"
UNITS = "Dice tray ダイストレイ: type the D20, units 一の位"


@pytest.mark.parametrize(("typed", "after", "sides", "digits"), [
    ((), 1, 20, [1, 2, 0]), ((2,), 0, 20, [0]), ((1,), 0, 20, [*range(1, 10), 0]),
    ((0,), 0, 20, [*range(1, 10)]), ((1,), 0, 12, [1, 2, 0]), ((0,), 0, 100,
                                                               [*range(1, 10), 0]),
    ((2,), 1, 200, [0]), ((2, 0), 0, 200, [0]), ((0, 0), 0, 200, [*range(1, 10)])])
def test_each_place_offers_only_the_digits_that_lead_to_a_face(
        typed: tuple[int, ...], after: int, sides: int, digits: list[int]) -> None:
    """A D20's units after 2 are its 0 alone (20), after 0 they are 1–9 (no 00); a D12's
    after 1 are 1, 2, 0; a d100's 00 is its 100 and stays; a D200's 2 goes on to 200 only."""
    assert place_digits(typed, after, sides) == digits


def test_a_d20_typed_with_the_buttons_takes_20_with_a(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice tray's 1D20, typed at the buttons: I onto ``2_ (20)``, A, and A again is 20.
    The units were 21–29 then 20, the highlight on 21: A was refused ("21 is not on a
    1D20"), and the 20 took two presses of R first."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})
    screen = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", Button.ATTACK),
                                (TENS, Button.ITEM), (TENS, Button.ATTACK),
                                (UNITS, Button.ATTACK), ("1D20: total 合計 20", Button.FLEE)])
    config = load_config(env={}, overrides={"dice.source": "typed", "dice.expressions": "1D20",
                                            "input.poll_seconds": 0.005})
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, Controls([screen], clock=screen.time_at_the_table), 1,
                      None)
    assert not screen.script
    units = next(v for v in screen.views if v.prompt == UNITS)
    assert [o.label for o in units.options] == ["20", "Back 戻る"] and units.highlight == 0
    after = screen.views[screen.views.index(units) + 1]
    assert after.dice is not None and after.dice.faces == (20,), after
    assert any("(1D20) ＞ 20" in line for line in after.dice.rolls), after.dice.rolls
