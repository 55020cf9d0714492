"""events74 RISK 2: a value the player's events.toml sets wrong (``EV-DOOR-3.enabled =
"yes"``) stops only what reads that rule, with the file, key and value named; it stopped
every ``companion events`` action and the whole dice tray (a switch to it from a game
ended ``companion play``), and ``config --show`` with ``play.mode = "dice"`` said nothing."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.commands.events import OVERRIDES_NAME, load_user_rules
from companion.app.commands.play import table_modes
from companion.app.commands.play.table_modes import run_dice_tray
from companion.app.config import load_config
from companion.app.modes.dice_tray import RULES_REFUSED, DiceTrayMode
from companion.app.paths import config_dir
from companion.app.poisons import PoisonList, poisons_path
from companion.app.session.controls import Controls
from companion.app.session.mode import ChoiceAsk, Throw
from companion.app.session.system_menu import SystemMenu
from companion.systems.defaults import RuleRefused
from tests.app.table import PlayerAtTheScreen
from tests.systems.events.helpers import VITALITY_DAMAGE, _events

BAD = '[defaults."EV-DOOR-3"]\nenabled = "yes"\n'
TABLES, TICK, DOOR = 1, 2, 0  # the menu with one roll: Roll 1D6, Tables, Tick; door first


@pytest.fixture
def bad_events_toml() -> str:
    """events.toml with EV-DOOR-3.enabled = "yes"; the error as it names file, key, value."""
    path = config_dir() / OVERRIDES_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(BAD + '[defaults."EV-POI-2"]\nhours_per_tick = 2\n', encoding="utf-8")
    return f'{path}: EV-DOOR-3.enabled must be true or false, found "yes"'


@pytest.fixture(autouse=True)
def no_tray_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_modes, "_TRAY_LEFT", {})


def test_the_actions_that_read_no_door_rule_go_on_and_say_the_file_s_error(
        bad_events_toml: str, capsys: pytest.CaptureFixture[str]) -> None:
    """end-block (its other rules from the file kept: 2 h a tick), party, rooms, poisoned
    and a monster table: each exited 2 on the door's option."""
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")
    for words in (["end-block"], ["party"], ["rooms"], ["poisoned"],
                  ["monster", "--seed", "1"]):
        code, _, err = _events(capsys, *words)
        assert code == 0, words
        assert err == (f"companion: {bad_events_toml}: what reads EV-DOOR-3 waits until it "
                       "is mended\n")
    assert main(["events", "end-block"]) == 0
    assert "poisons tick once (2 h)" in capsys.readouterr().out


def test_a_table_that_reads_the_rule_stops_naming_file_key_and_value(
        bad_events_toml: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The door's trap (face 1 or 6) reads EV-DOOR-3; defaults lists every rule."""
    code, _, err = _events(capsys, "door", "--seed", "2")
    assert code == 2
    assert err.splitlines()[-1] == (f"companion: error: {bad_events_toml}; what reads "
                                    "EV-DOOR-3 waits until it is mended, the rest goes on")
    code, _, err = _events(capsys, "defaults")
    assert code == 2 and err == f"companion: error: {bad_events_toml}\n"


def test_a_file_that_is_not_toml_keeps_out_every_rule_not_the_party_actions(
        capsys: pytest.CaptureFixture[str]) -> None:
    (config_dir() / OVERRIDES_NAME).parent.mkdir(parents=True, exist_ok=True)
    (config_dir() / OVERRIDES_NAME).write_text("[defaults\n", encoding="utf-8")
    rules = load_user_rules([])
    with pytest.raises(RuleRefused, match="not TOML"):
        rules.settings["EV-POI-2", "hours_per_tick"]
    code, _, err = _events(capsys, "party")
    assert code == 0 and "not TOML" in err


@pytest.mark.usefixtures("bad_events_toml")
def test_the_tray_starts_rolls_and_ticks_and_a_door_stops_with_its_throw_kept() -> None:
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")
    mode = DiceTrayMode(("1D6",), "typed 入力", load_user_rules([]),
                        PoisonList(poisons_path()))
    assert mode.dice.steps[0].text.startswith("events.toml refused 設定に誤り: ")
    mode.answer(0)
    mode.answer(Throw((4,)))
    assert mode.reading.endswith("4")
    mode.answer(1)  # Menu
    mode.answer(TICK)
    mode.answer(0)  # End block
    assert any("1 HP lost (1/3)" in s.text for s in mode.dice.steps)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    mode.answer([o.label for o in ask.options].index("Back 戻る"))
    mode.answer(TABLES)
    mode.answer(DOOR)
    mode.answer(Throw((6,)))  # TRAPPED (no lock): EV-DOOR-3 is read
    assert "EV-DOOR-3.enabled must be true or false" in mode.note
    assert mode.throws == [(6,)] and mode.resume  # Again walks it again: no free reroll


@pytest.mark.usefixtures("bad_events_toml")
def test_play_mode_dice_starts_and_says_it_on_its_status_line() -> None:
    """run_dice_tray exited 2 before its first screen (from a game's System menu it ended
    the run)."""
    screen = PlayerAtTheScreen([("Dice tray ダイストレイ: roll dice", "0"),
                                ("Type the D6", "3"), ("1D6: total", "1")])
    config = load_config(overrides={"dice.source": "typed", "input.poll_seconds": 0.005,
                                    "dice.expressions": "1D6"})
    controls = Controls([screen])
    with pytest.raises(KeyboardInterrupt):
        run_dice_tray(config, screen, controls, None, SystemMenu(controls, "dice", 0.0, ""))
    assert screen.views[0].status == RULES_REFUSED
    assert "1D6: total 合計 3" in screen.prompts()


def test_config_show_with_the_tray_marks_the_file_s_error(
        bad_events_toml: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "--show", "--set", "play.mode=dice"]) == 1
    out, err = capsys.readouterr()
    assert (f"{bad_events_toml}: what reads EV-DOOR-3 waits until it is mended; the dice "
            "tray (play --mode dice) starts, and its tables that read it stop") in err
    assert "events.toml refused: tables reading it stop" in out
    assert main(["config", "--show"]) == 0  # the game reads no events.toml
