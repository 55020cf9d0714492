"""setup71 NIT 9: the help says each rules term in the Japanese its output and
docs/playing.md say it by: rules rate's level レベル and weapon 武器, rules damage's armour
鎧, and --preset's six options each with its rule's name (睡眠判定ルール …)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.help_format import cell_len
from companion.systems.jongrogue.profile import Option


def help_of(command: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    out = capsys.readouterr().out
    assert all(cell_len(line) <= 80 for line in out.splitlines()), out
    return " ".join(out.split())


def test_every_option_has_its_rules_name() -> None:
    assert all(option.rule_name.endswith("ルール") for option in Option)


def test_rate_and_damage_say_their_terms_in_japanese(
        capsys: pytest.CaptureFixture[str]) -> None:
    rate = help_of(["rules", "rate"], capsys)
    assert "--level LEVEL the PC's level (レベル)" in rate
    assert "--weapon WEAPON the weapon's attack (武器)" in rate
    assert "--armour ARMOUR the armour's defence (鎧)" in help_of(["rules", "damage"], capsys)
    assert main(["rules", "rate", "--monster", "S", "--level", "3", "--weapon", "2"]) == 0
    said = capsys.readouterr().out
    assert "level レベル" in said and "weapon 武器" in said  # the words the help now uses


@pytest.mark.parametrize("command", [["play"], ["simulate"], ["rules", "sleep"]])
def test_preset_names_each_option_with_its_rule(
        command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    said = help_of(command, capsys)
    assert ("(options: sleep_check 睡眠判定ルール, extended_states 拡張状態ルール, strength "
            "強さルール, pc_states PCの状態ルール, drops アイテムのドロップ・ルール, pincer "
            "挟み撃ちルール)") in said


def test_config_game_preset_names_each_option_with_its_rule(
        capsys: pytest.CaptureFixture[str]) -> None:
    """setup73 NIT 8: --preset's help named the rules since setup71, config's game.preset
    help, the setting the player writes, gave the six bare."""
    assert main(["config", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)["settings"]["game.preset"]["help"]
    options = ", ".join(f"{option.value} {option.rule_name}" for option in Option)
    assert f"(options: {options})" in said


def test_genso_and_play_mode_name_the_game_in_japanese(
        capsys: pytest.CaptureFixture[str]) -> None:
    """setup73 NIT 8: genso --help named neither 幻想迷宮冒険譚 (the command list does) nor the
    Death Curses' 呪殺呪 (calendar's help does) nor the coins' Japanese; play's --mode
    said "a genso fight" alone."""
    genso = help_of(["genso"], capsys)
    assert genso.startswith("usage: companion genso [-h] SUB ... 幻想迷宮冒険譚, seed 002's")
    assert "gold (金貨), large silver (大銀貨) and silver (銀貨)" in genso
    assert "calendar the game day and its Death Curses (呪殺呪, GM-MAGIC-13)" in genso
    assert "a genso fight (幻想迷宮冒険譚) or a coc fight (Call of Cthulhu; --fight)" in \
        help_of(["play"], capsys)


@pytest.mark.parametrize("columns", [80, 60])
def test_the_command_list_lays_each_help_beside_its_command(
        columns: int, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """setup73 NIT 8: argparse counted a sub-command two columns short, and `calibrate`,
    the longest, had its help on the next line; roll's example x3 2D6 was split."""
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit):
        main(["--help"])
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("    calibrate  set up a camera") for line in lines)
    assert any("'x3 2D6'" in line for line in lines)


def test_install_pi_help_is_its_text_without_comment_marks() -> None:
    """setup73 NIT 8: install-pi.sh --help printed its lines with their leading '# ', as
    bootstrap.sh's no longer does."""
    script = Path(__file__).parents[2] / "scripts" / "install-pi.sh"
    out = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("Install JongRogue Companion on a Raspberry Pi")
    assert not any(line.startswith("#") for line in out.splitlines())
    assert "  bash scripts/install-pi.sh --dry-run     # print what would be done" in out
