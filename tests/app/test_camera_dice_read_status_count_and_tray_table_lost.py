"""dice66's last findings, fixed: the camera's read status in both languages (NIT 3), the
wrong number of dice in view said with what to do (NIT 4), and the dice tray's table
part-thrown, held in memory while the run is in another mode, said to be lost to a power
cut or Quit to console by that mode's System menu (D3 follow-up) while the disk refuses its
file (dice/tray.json; saved, nothing is lost: test_dice_tray_table_part_thrown_saved). The dice are
rendered throws; the player is a scripted screen (tests.app.table)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.session.controls import Controls
from companion.app.session.system_menu import (
    TABLE_NOT_SAVED,
    TRAY_NOT_SAVED,
    UNPLUG_LOSES_TABLE,
    UNPLUG_LOSES_TRAY,
    ConsoleAsked,
    ModeSwitch,
    SystemMenu,
)
from companion.hw.buttons import Button, Press
from companion.hw.dice.readings import dice_count, guidance
from companion.hw.dice.source import CameraDiceSource, NewThrowNeeded
from tests.app.dice_tray_file_helpers import game_with_its_menu, refuse_the_tray_s_file
from tests.app.system_menu_helpers import first_choice
from tests.app.table import PlayerAtTheScreen
from tests.dice_scenes import still_scene

SYSTEM = "System 設定"
SERVICE = "jongrogue-companion"


# -- NIT 3 and NIT 4: what the camera says while it reads -------------------------------------

def test_the_read_status_says_read_in_japanese_too() -> None:
    """dice66 NIT 3: the steady read's status "read 5, 5", seen on every throw, was English
    only. It is still guidance (drawn as the prompt is, not as trouble)."""
    scene = still_scene(600, 2)
    read = CameraDiceSource(frames=[]).read_frame(scene.image, 2)
    assert read.message == "read 読み取り " + ", ".join(str(d.value) for d in read.dice)
    assert sorted(read.values) == sorted(d.value for d in scene.dice)
    assert guidance(read.message)


@pytest.mark.parametrize(("thrown", "asked", "to_do"), [
    (2, 1, ": take 1 away 1個どけて"),  # the to-hit's dice still there for the damage 1D6
    (1, 3, ": add 2 もう2個"),
    (3, 1, ": take 2 away 2個どけて"),
], ids=["2-for-1D6", "1-for-3D6", "3-for-1D6"])
def test_too_many_or_too_few_dice_in_view_says_what_to_do(thrown: int, asked: int,
                                                          to_do: str) -> None:
    """dice66 NIT 4: "waiting for 1 die, 2 in view ダイス待ち（2個）" said the count, not that
    a die is to be taken away (or added)."""
    read = CameraDiceSource(frames=[]).read_frame(still_scene(600, thrown).image, asked)
    assert read.message == (f"waiting for {asked} {'die' if asked == 1 else 'dice'}, "
                            f"{thrown} in view ダイス待ち（{thrown}個）{to_do}")
    assert guidance(read.message)


@pytest.mark.parametrize("asked", [1, 3])
def test_a_still_picture_is_not_told_to_take_dice_away_or_add_any(tmp_path: Path,
                                                                  asked: int) -> None:
    """A picture file cannot have a die taken away or added: its stop says what it shows,
    as before (as a picture's unsure read says no "please re-roll")."""
    photo = tmp_path / "throw.png"
    cv2.imwrite(str(photo), still_scene(600, 2).image)
    now = iter(range(10_000))
    source = CameraDiceSource(source=str(photo), timeout_s=30, clock=lambda: float(next(now)))
    with pytest.raises(NewThrowNeeded) as stop:
        source.roll(asked, 6)
    assert str(stop.value).endswith(f"waiting for {dice_count(asked)}, 2 in view ダイス待ち（2個）")


# -- D3 follow-up: the tray's table held while the run is in another mode --------------------

@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The run's own folders, and no tray table held by another test's run; the disk full
    for the tray's table file (dice/tray.json), so the table is held in memory only."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})
    refuse_the_tray_s_file(monkeypatch)
    return tmp_path


TABLE_PART_THROWN: list[tuple[str, str | Press]] = [
    ("Dice tray ダイストレイ: roll dice", "2"), ("Which table?", "3"), ("Type the D6", "2"),
    ("Type the D6", Button.SYSTEM)]  # EV-MON-1's first roll typed, its roll 2 awaited


def leave_the_tray_part_thrown(folders: Path) -> None:
    """The tray's Monster table, its first roll taken; System → JongRogue."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([*TABLE_PART_THROWN, (SYSTEM, "mode:game")])
    controls = Controls([screen])
    with pytest.raises(ModeSwitch):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert not screen.script


def unplugged_in_the_game(said: str, shutdown: str = "") -> PlayerAtTheScreen:
    """System → Unplug (or Shut down, ``shutdown`` the command) over the game's first choice,
    OK on the screen that ``said`` begins; then the power goes."""
    script: list[tuple[str, str | Press]] = [(first_choice(), Button.SYSTEM), (SYSTEM, "off")]
    if shutdown:
        script.append(("Shut the companion down?", "yes"))
    screen = PlayerAtTheScreen([*script, (said, "ok")])
    with pytest.raises(KeyboardInterrupt):
        game_with_its_menu(screen, shutdown).run()
    assert not screen.script
    return screen


def test_another_mode_s_menu_says_the_tray_s_table_is_lost_if_unplugged(
        folders: Path) -> None:
    """dice66 D3 follow-up: with the tray's table part-thrown held for the run, the game's
    System menu said "every step is saved 保存済み" and Unplug "Safe to unplug now": a power
    cut there loses the table when the disk refused its file (it is kept in memory only)."""
    leave_the_tray_part_thrown(folders)
    screen = unplugged_in_the_game(UNPLUG_LOSES_TRAY[:20])
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {TRAY_NOT_SAVED}"
    assert "every step is saved" not in menu.prompt
    assert UNPLUG_LOSES_TRAY in screen.prompts()
    assert not any("Safe to unplug" in v.prompt for v in screen.views)


def test_a_failed_shutdown_in_another_mode_says_the_tray_s_table_is_lost(
        folders: Path) -> None:
    """The same after a shutdown command that failed (it said "every step is saved: safe to
    unplug now")."""
    leave_the_tray_part_thrown(folders)
    said = next(p for p in unplugged_in_the_game("Could not", "false").prompts()
                if p.startswith("Could not"))
    assert said.startswith("Could not shut down 電源を切れません (false: exit status 1)")
    assert said.endswith(UNPLUG_LOSES_TRAY) and "safe to unplug" not in said


def test_with_no_table_held_another_mode_s_menu_says_all_is_saved(folders: Path) -> None:
    """The counter-check: no tray table left part-thrown, every step is saved."""
    screen = unplugged_in_the_game("Safe to unplug")
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: every step is saved 保存済み"
    assert any(p.startswith("Safe to unplug now 電源を抜いても大丈夫") for p in screen.prompts())


def test_quit_to_console_in_another_mode_does_not_say_every_step_is_saved(
        folders: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Quit to console's note on stderr said "every step is saved" with the tray's table
    part-thrown held, its file refused: the run's end loses it."""
    monkeypatch.setenv("COMPANION_SERVICE", SERVICE)
    leave_the_tray_part_thrown(folders)
    capsys.readouterr()
    screen = PlayerAtTheScreen([(first_choice(), Button.SYSTEM), (SYSTEM, "console"),
                                ("Quit to the console?", "yes")])
    with pytest.raises(ConsoleAsked):
        game_with_its_menu(screen).run()
    err = capsys.readouterr().err
    assert "every step is saved" not in err
    assert ("quit to the console from the System menu (saved, but not the dice tray's table "
            f"part-thrown, its file refused: it is lost); sudo systemctl start {SERVICE}") in err


def test_quit_to_console_in_the_tray_does_not_say_every_step_is_saved(
        folders: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same in the tray itself, its table part-thrown on the screen."""
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([*TABLE_PART_THROWN, (SYSTEM, "console"),
                                ("Quit to the console?", "yes")])
    controls = Controls([screen])
    with pytest.raises(ConsoleAsked):
        run_dice_tray(config, screen, controls, 1,
                      SystemMenu(controls, "dice", 0.0, "", service=SERVICE))
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {TABLE_NOT_SAVED}"  # "this table": the tray's own
    assert menu.status.startswith("table not saved 表の途中は未保存: disk full 空き容量なし")
    err = capsys.readouterr().err
    assert "every step is saved" not in err and "dice tray's table part-thrown" in err


def test_back_in_the_tray_its_menu_names_this_table_again(folders: Path) -> None:
    """Carried on in the tray, the table is "this table" again, and Unplug says so."""
    leave_the_tray_part_thrown(folders)
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005})
    screen = PlayerAtTheScreen([("Type the D6", Button.SYSTEM), (SYSTEM, "off"),
                                (UNPLUG_LOSES_TABLE[:20], "ok")])
    controls = Controls([screen])
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, controls, 1, SystemMenu(controls, "dice", 0.0, ""))
    assert not screen.script
    menu = next(v for v in screen.views if v.prompt.startswith(SYSTEM))
    assert menu.prompt == f"{SYSTEM}: {TABLE_NOT_SAVED}"
