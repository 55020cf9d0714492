"""The dice tray's table part-thrown (dice/tray.json): a tray, none held, a monster table
part-thrown and its second roll."""

from __future__ import annotations

import pytest

from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.host import Session
from companion.app.session.system_menu import (
    SystemMenu,
)
from companion.hw.buttons import Press
from tests.app.power_cuts import cut_after_saves
from tests.app.table import PlayerAtTheScreen

#: The tray's menu → Tables → Monster (EV-MON-1: its species, then how many), the first D6
#: typed: three steps, the table's roll 2 awaited.
MONSTER_PART_THROWN: list[tuple[str, str | Press]] = [
    ("Dice tray ダイストレイ: roll dice", "2"), ("Which table?", "3"), ("Type the D6", "2")]


ROLL_2 = "roll 2 2投目"


@pytest.fixture(autouse=True)
def no_tray_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """No tray table held in memory by another test's run: what a new process has."""
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})


def tray(script: list[tuple[str, str | Press]], *, power_cut_after: int = 0,
         monkeypatch: pytest.MonkeyPatch | None = None,
         service: str = "") -> PlayerAtTheScreen:
    """A run of the dice tray (typed dice) played by ``script``; the power goes when the
    script runs out or, with ``power_cut_after``, once that many steps are saved
    (:func:`cut_after_saves`, the shared stand-in), whatever the script says next."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen(script)
    controls = Controls([screen])
    with pytest.MonkeyPatch.context() as patch:
        if power_cut_after:
            patch.setattr(Session, "_commit", cut_after_saves(power_cut_after))
        with pytest.raises(KeyboardInterrupt):
            run_dice_tray(config, screen, controls, 1,
                          SystemMenu(controls, "dice", 0.0, "", service=service))
    return screen
