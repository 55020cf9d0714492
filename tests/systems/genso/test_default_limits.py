"""The ranges of genso's numeric Defaults (``[limits]`` in data/rules.toml): an override
outside one is refused where it is set (the config-folder file or ``--set``), naming the
setting, the value and the range: GM-CHECK-6, GM-COMBAT-8, GM-MAGIC-3."""

from __future__ import annotations

import json
import shutil
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.genso.combat import Fight, Wait, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset

ROOT = Path(__file__).resolve().parents[3]
AKI = str(ROOT / "docs" / "examples" / "aki.toml")


def _aki_copy(user_dirs: Path) -> str:
    """A copy of the example sheet to fight with: ``fight new`` refuses the checkout's own
    examples, which its ``fight apply`` would change (664aaa99)."""
    copy = user_dirs / "aki.toml"
    shutil.copyfile(AKI, copy)
    return str(copy)


@pytest.mark.parametrize(("rule", "key", "value", "message"), [
    # GM-COMBAT-8: above 1 a PC with HP left is dead (20 showed Aki at 8/8 DEAD; 5 is a slip)
    ("GM-COMBAT-8", "pc_death_below", 20, "must be 1 or less, found 20"),
    ("GM-COMBAT-8", "pc_death_below", 5, "must be 1 or less, found 5"),
    ("GM-COMBAT-8", "pc_death_below", 2, "must be 1 or less, found 2"),
    # GM-CHECK-6: a difficulty of the general-check table, easy 8 to extremely hard 20
    ("GM-CHECK-6", "difficulty", -3, "must be from 8 to 20, found -3"),
    ("GM-CHECK-6", "difficulty", 7, "must be from 8 to 20, found 7"),
    ("GM-CHECK-6", "difficulty", 21, "must be from 8 to 20, found 21"),
    # GM-MAGIC-3: extra damage of an enchanted weapon, none by Default, never negative
    ("GM-MAGIC-3", "enchanted_extra_damage", -4, "must be 0 or more, found -4"),
])
def test_a_default_out_of_its_range_is_refused_naming_it(rule: str, key: str, value: int,
                                                         message: str) -> None:
    with pytest.raises(DataError, match=f"^--set: {rule}.{key} {message}$"):
        load_rules().with_overrides({rule: {key: value}}, "--set")


@pytest.mark.parametrize(("rule", "key", "value"), [
    ("GM-COMBAT-8", "pc_death_below", 1),      # PG 4-6 read strictly, as strict_4_6
    ("GM-COMBAT-8", "pc_death_below", -20),    # a lenient GM's glossary
    ("GM-CHECK-6", "difficulty", 8), ("GM-CHECK-6", "difficulty", 20),
    ("GM-MAGIC-3", "enchanted_extra_damage", 0), ("GM-MAGIC-3", "enchanted_extra_damage", 3),
])
def test_a_default_at_the_ends_of_its_range_is_taken(rule: str, key: str, value: int) -> None:
    assert load_rules().with_overrides({rule: {key: value}}).default(rule, key) == value


def test_every_packaged_default_is_in_its_range() -> None:
    settings = load_rules().settings
    assert settings.out_of_range() == []
    assert settings.range_of("GM-COMBAT-8", "pc_death_below") == "1 or less"


def test_the_sheet_command_refuses_a_death_threshold_above_1(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-COMBAT-8: ``--set GM-COMBAT-8.pc_death_below=20`` showed Aki at 8/8 HP as DEAD."""
    assert main(["genso", "sheet", AKI, "--set", "GM-COMBAT-8.pc_death_below=20"]) == 2
    err = capsys.readouterr().err
    assert "--set: GM-COMBAT-8.pc_death_below must be 1 or less, found 20" in err, err
    assert main(["genso", "sheet", AKI]) == 0 and "DEAD" not in capsys.readouterr().out


def test_the_config_file_is_refused_a_difficulty_below_easy(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-CHECK-6: a difficulty of −3 in genso.toml made `check enemy` roll against ">-3"."""
    (user_dirs / "config").mkdir()
    config = user_dirs / "config" / "genso.toml"
    config.write_text('[defaults."GM-CHECK-6"]\ndifficulty = -3\n', encoding="utf-8")
    assert main(["genso", "check", "enemy", "--sheet", AKI]) == 2
    err = capsys.readouterr().err
    assert f"{config}: GM-CHECK-6.difficulty must be from 8 to 20, found -3" in err, err


def test_a_range_names_a_whole_number_default_of_the_data() -> None:
    """The ranges are data checked at load: one for no Default is refused."""
    text = files("companion.systems.genso").joinpath("data", "rules.toml").read_text(
        encoding="utf-8") + '\n[limits."GM-MON-1"]\nflee_flag = { min = 0 }\n'
    with pytest.raises(DataError, match=r"rules.toml: limits GM-MON-1.flee_flag: no "
                                        r"whole-number Default GM-MON-1.flee_flag to bound"):
        load_rules({"rules.toml": text})


def test_a_fight_saved_with_a_setting_now_out_of_range_still_opens_as_played() -> None:
    """A fight file keeps the settings it was played with, checked or not when it began:
    it replays with them (a fight is never lost to a range added since), in its own
    settings and in a journal entry's ``--set``; a new ``--set`` is checked."""
    old_rules = load_rules().with_overrides(
        {"GM-COMBAT-8": {"pc_death_below": 5}}, limits=False)
    party = [preset(old_rules, "pc1")]
    fight = Fight(old_rules, entrants_for(old_rules, party, [("orc", 1)]))
    fight.push(Wait(fight.state.order[0].name), ScriptedDice([]),
               {"GM-CHECK-6": {"difficulty": 30}}, limits=False)
    saved = json.loads(json.dumps(fight.to_json()))
    again = Fight.from_json(load_rules(), saved, "fight.json")
    assert again.rules.default("GM-COMBAT-8", "pc_death_below") == 5
    assert again.rules.default("GM-CHECK-6", "difficulty") == 30
    assert again.to_json() == saved
    with pytest.raises(DataError, match=r"--set: GM-CHECK-6\.difficulty must be from 8 to 20"):
        again.push(Wait(again.state.order[0].name), ScriptedDice([]),
                   {"GM-CHECK-6": {"difficulty": 31}})


def test_a_genso_toml_value_now_out_of_range_does_not_stop_a_fight_in_progress(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pc_death_below = 5`` in genso.toml was taken until GM-COMBAT-8's range: after the
    upgrade every genso command stopped on it, the saved fight and the table's too, though a
    fight plays under the settings its own file keeps. The fight shows and plays on; a new
    fight and a check still refuse the file, naming it, and an action's --set is checked."""
    aki = _aki_copy(user_dirs)
    assert main(["genso", "fight", "new", "--party", aki, "--monsters", "orc"]) == 0
    (user_dirs / "config").mkdir()
    config = user_dirs / "config" / "genso.toml"
    config.write_text('[defaults."GM-COMBAT-8"]\npc_death_below = 5\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["genso", "fight", "show"]) == 0
    assert "round 1" in capsys.readouterr().out
    assert main(["genso", "fight", "dodge", "Aki"]) == 0
    assert main(["genso", "fight", "log"]) == 0 and "Aki" in capsys.readouterr().out
    assert main(["genso", "fight", "wait", "オーク", "--set",
                 "GM-CHECK-6.difficulty=30"]) == 2
    assert "--set: GM-CHECK-6.difficulty must be from 8 to 20, found 30" in capsys.readouterr().err
    refused = f"{config}: GM-COMBAT-8.pc_death_below must be 1 or less, found 5"
    for argv in (["check", "enemy", "--sheet", AKI],
                 ["fight", "new", "--force", "--party", aki, "--monsters", "orc"]):
        assert main(["genso", *argv]) == 2
        assert refused in capsys.readouterr().err


def test_a_fight_keeping_an_out_of_range_setting_takes_another_set_for_its_own_faults() -> None:
    """An action's --set in a fight begun with ``pc_death_below = 5`` was refused for that
    kept value ("--set: GM-COMBAT-8.pc_death_below must be 1 or less, found 5"), a value the
    player did not pass: no setting could be changed in the very fights kept playable. The
    --set is checked for what it sets."""
    old_rules = load_rules().with_overrides(
        {"GM-COMBAT-8": {"pc_death_below": 5}}, limits=False)
    fight = Fight(old_rules, entrants_for(old_rules, [preset(old_rules, "pc1")], [("orc", 1)]))
    again = Fight.from_json(load_rules(), json.loads(json.dumps(fight.to_json())), "fight.json")
    first = again.state.order[0].name
    again.push(Wait(first), ScriptedDice([]), {"GM-CHECK-6": {"difficulty": 10}})
    assert again.rules.default("GM-CHECK-6", "difficulty") == 10
    assert again.rules.default("GM-COMBAT-8", "pc_death_below") == 5
    with pytest.raises(DataError, match=r"^--set: GM-COMBAT-8\.pc_death_below must be 1 or "
                                        r"less, found 3$"):
        again.push(Wait(again.state.order[1].name), ScriptedDice([]),
                   {"GM-COMBAT-8": {"pc_death_below": 3}})


def test_a_word_genso_never_took_in_genso_toml_still_stops_a_saved_fight(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Saved-fight commands read genso.toml without the ranges added since, but genso always
    refused a word none of a setting's choices: it would be kept in the fight for good."""
    assert main(["genso", "fight", "new", "--party", _aki_copy(user_dirs), "--monsters",
                 "orc"]) == 0
    (user_dirs / "config").mkdir()
    config = user_dirs / "config" / "genso.toml"
    config.write_text('[defaults."GM-MON-7"]\norc_warrior = "xx"\n', encoding="utf-8")
    assert main(["genso", "fight", "show"]) == 2
    assert f'{config}: GM-MON-7.orc_warrior must be one of gm, wg; found "xx"' in \
        capsys.readouterr().err
