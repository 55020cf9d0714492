"""keys71 DEFECT 1 (and setup71 DEFECT 1): ``companion config --show`` runs the checks
``play`` stops on at its start (two parts on one pin, the System hold not the longer, a
font or profile that is not there), says every one at once naming where its value came
from, marks its line and exits 1; ``play`` says them all at once too, not one per start."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from tests.app.config_and_pins_helpers import write_config


def test_config_show_says_every_setting_play_stops_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_config('[buttons]\nflee_pin = 17\nlong_press_seconds = 3.5\n'
                        '[game]\nprofile = "mine.toml"\n'
                        '[display]\nkind = "screen"\nfont = "none.ttf"\n')
    monkeypatch.setenv("COMPANION_BUTTONS_LED_PIN", "23")
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    said = [line.removeprefix("companion: ") for line in err.splitlines()]
    folder = path.parent
    assert said == [
        f"buttons.flee_pin ({path}) and buttons.attack_pin (built in) are both GPIO17; "
        "give each part its own pin",
        # From the environment: no config.toml the player reads holds it.
        "buttons.led_pin (COMPANION_BUTTONS_LED_PIN) and buttons.item_pin (built in) are "
        "both GPIO23; give each part its own pin",
        f"buttons.system_press_seconds (built in) is 3 s, not longer than "
        f"buttons.long_press_seconds ({path}) (3.5 s): the System menu needs the longer hold",
        f"display.font ({path}): {folder / 'none.ttf'}: no such file (the relative path "
        "none.ttf is taken from config.toml's folder)",
        f"game.profile ({path}): {folder / 'mine.toml'}: no such file (the relative path "
        "mine.toml is taken from config.toml's folder); a new game, rules and simulate "
        "stop on it",
    ]
    marked = [line.split()[0] for line in out.splitlines()
              if line.endswith("(play stops on it プレイが止まります)")]
    # Both settings of a clash (reviewk71 NIT 1).
    assert marked == ["display.font", "buttons.attack_pin", "buttons.flee_pin",
                      "buttons.item_pin", "buttons.system_press_seconds", "buttons.led_pin",
                      "game.profile"]
    assert "# 5 problems with the settings" in out


def test_config_checks_the_buttons_only_when_play_uses_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    """With the keyboard the pins are not opened, and play does not stop on them."""
    write_config('[choices]\nkind = "keyboard"\n[buttons]\nflee_pin = 17\n'
                 '[display]\nkind = "terminal"\nfont = "none.ttf"\n')
    assert main(["config", "--show"]) == 0
    assert capsys.readouterr().err == ""


def test_play_says_every_setting_it_stops_on_at_once(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """It said the first clash; mended, the next start said the next (three starts)."""
    path = write_config("[buttons]\nflee_pin = 17\nled_pin = 23\nlong_press_seconds = 3.5\n")
    monkeypatch.setenv("COMPANION_BUTTONS_RANGED_PIN", "17")
    assert main(["play", "--input", "sim", "--choices", "gpio", "--display", "terminal"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "companion: error: 4 problems with the settings: "
        f"(1) buttons.flee_pin ({path}) and buttons.attack_pin (built in) are both GPIO17; "
        "give each part its own pin; "
        "(2) buttons.ranged_pin (COMPANION_BUTTONS_RANGED_PIN) and buttons.attack_pin "
        "(built in) are both GPIO17; give each part its own pin; "
        f"(3) buttons.led_pin ({path}) and buttons.item_pin (built in) are both GPIO23; "
        "give each part its own pin; "
        "(4) buttons.system_press_seconds (built in) is 3 s, not longer than "
        f"buttons.long_press_seconds ({path}) (3.5 s): the System menu needs the longer "
        "hold (mend them, then check with ")
    assert err.rstrip().endswith("config --show)")
