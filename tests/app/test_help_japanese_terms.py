"""setup71 NIT 9: the help says each rules term in the Japanese its output and
docs/playing.md say it by: rules rate's level レベル and weapon 武器, rules damage's armour
鎧, and --preset's six options each with its rule's name (睡眠判定ルール …)."""

from __future__ import annotations

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
