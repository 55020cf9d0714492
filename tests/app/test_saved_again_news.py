"""journey71 NIT 6: "saved again 保存再開" reaches the player on the simulated wall.

The save's writes are refused at the disk's edge (``os.replace``, as a full disk refuses
them: tests.disk), and the player is at the screen, pressing at the menus it shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play import jongrogue_mode
from companion.app.commands.play.sim_sources import SimTiles
from companion.app.session.controls import Controls, MenuChoices
from companion.app.session.host import Session
from companion.app.session.save import SaveGame
from companion.hw.buttons import Button, Press
from companion.hw.display.view import View
from tests.disk import refuse_writes

SEED = 2
AGAIN = "saved again 保存再開"


class PlayerPressingTheLitOption:
    """A screen, and a player before it who presses A on each menu once it has been up a
    glance (half a second on the controls' clock); after ``menus`` menus, the power goes."""

    def __init__(self, menus: int) -> None:
        self.views: list[View] = []
        self.left = menus
        self.glances = 0
        self.polls = 0

    def clock(self) -> float:
        return self.glances * 0.5

    def show(self, view: View) -> None:
        self.views.append(view)
        self.polls = 0

    def poll(self) -> list[Press]:
        self.glances += 1
        self.polls += 1
        if not self.views or not self.views[-1].options or self.polls < 2:
            return []
        if not self.left:
            raise KeyboardInterrupt
        self.left -= 1
        return [Button.ATTACK]

    def close(self) -> None:
        return None


@pytest.mark.parametrize("refused", [range(3, 6), range(2, 4), range(4, 9)])
def test_saved_again_is_on_a_screen_the_player_is_asked_at(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused: range) -> None:
    """The notice was cleared at the next answer, and on the simulated wall the next ask,
    a tile, is answered at once: the draw that said it was overdrawn before the player's
    menu. It stays until a screen that waits for the player has shown it, then goes."""
    save_path = tmp_path / "save.json"
    save = SaveGame(seed=SEED, preset="plus", strategy="cautious", player_chose=True)
    mode = jongrogue_mode(save, None, "sim")
    assert mode.sim is not None
    screen = PlayerPressingTheLitOption(menus=12)
    controls = Controls([screen], clock=screen.clock)
    session = Session(mode, choices=MenuChoices(controls, 0.0, lambda s: None),
                      tiles=SimTiles(mode.game, mode.sim), display=screen, save=save,
                      save_path=save_path)
    refuse_writes(save_path, monkeypatch, refused)
    session.keep_saved(starting=True)
    with pytest.raises(KeyboardInterrupt):
        session.run()
    statuses = [view.status for view in screen.views]
    assert any(s.startswith(AGAIN) for s in statuses)  # the disk took the save again
    asked = [n for n, view in enumerate(screen.views)
             if view.options and view.status.startswith(AGAIN)]
    assert asked, statuses
    # Once the player was asked with it, it goes: not on every screen after.
    assert not screen.views[-1].status.startswith(AGAIN)


def test_saved_again_is_not_on_every_screen_of_an_auto_players_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """reviewj71 NIT 2: with `--choices auto` nothing waits for a player, so "saved again",
    kept until a screen that waits had shown it, sat on every later screen to the game's
    end ("move 5" long after). The auto-player's screen shows it on the step after the
    write that took, and the next answer clears it, as for any status."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "100")
    save_path = tmp_path / "save.json"
    refuse_writes(save_path, monkeypatch, range(3, 6))
    assert main(["play", "--input", "sim", "--choices", "auto", "--display", "terminal",
                 "--seed", str(SEED), "--state", str(save_path)]) == 0
    captured = capsys.readouterr()
    assert "companion: saved again" in captured.err, captured.err  # the disk took it again
    screens = captured.out.count("Log 記録")  # every screen's log panel
    shown = captured.out.count(AGAIN)
    assert screens > 100 and shown == 1, (screens, shown)
