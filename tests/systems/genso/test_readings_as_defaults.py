"""`genso` readings of seed 002 the spec makes Defaults, each settable with ``--set`` and in
the user's ``genso.toml`` and labelled "(default)" while packaged (spec §0.1; audit
defaults57 F3–F6)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.overrides import user_rules
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.defaults import Settings, fixed_readings
from companion.systems.genso.combat import Cast, Fight, Wait, entrants_for
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset

FAIRY, MAGE_M, MAGE_F = "一般的な森妖精の冒険者", "一般的な魔術師（男性）", "一般的な魔術師（女性）"
NEW = ("new", "Aki", "--body", "6", "--perception", "5", "--magic", "4", "--skill", "search",
       "--seed", "7", "--force")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["genso", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["genso", *argv]) == 0
    return capsys.readouterr().out


def user_file(user_dirs: Path, body: str) -> None:
    (user_dirs / "config").mkdir(exist_ok=True)
    (user_dirs / "config" / "genso.toml").write_text(body, encoding="utf-8")


def test_starting_money_is_a_default(user_dirs: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHAR-7: 4 gold + 20 large silver is the spec's Default (sample PC 1 holds 20 large
    silver alone), so a GM may set it; it was kept as the book's rule and refused."""
    packaged = run(capsys, *NEW)
    assert packaged["sheet"]["money"] == {"gold": 4, "large_silver": 20, "silver": 0}
    assert ("所持金/starting money 金貨4枚 (4 gold)、大銀貨20枚 (20 large silver) (default)"
            in text(capsys, *NEW))
    poorer = run(capsys, *NEW, "--set", "GM-CHAR-7.gold=0")
    assert poorer["sheet"]["money"] == {"gold": 0, "large_silver": 20, "silver": 0}
    user_file(user_dirs, '[defaults."GM-CHAR-7"]\ngold = 1\nsilver = 3\n')
    shown = text(capsys, *NEW)
    assert "所持金/starting money" in shown and "(default)" not in shown.split("所持金/starting")[1]
    assert run(capsys, *NEW)["sheet"]["money"] == {"gold": 1, "large_silver": 20, "silver": 3}
    assert main(["genso", *NEW, "--set", "GM-CHAR-7.gold=-1"]) == 2
    assert "GM-CHAR-7.gold must be 0 or more, found -1" in capsys.readouterr().err
    assert main(["genso", *NEW, "--set", "GM-CHAR-7.kit=[]"]) == 2
    assert "GM-CHAR-7.kit is the book's rule" in capsys.readouterr().err


def test_strength_reads_as_body_a_fixed_reading(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-CHECK-5 (PG 2-3 arm-wrestling, 筋力 vs 筋力): 筋力 is no PC ability; the spec's Default
    reads it as Body (Appendix B pairs the two), said on each side as the Default it is. No
    setting reads it as Perception or Magic, which neither the spec nor the seed offers
    (review57a F3): `--set` and the user's genso.toml are refused."""
    argv = ("check", "opposed", "--sheet", "pc1", "--vs", "pc2", "--ability", "strength",
            "--no-active", "--seed", "1")
    packaged = run(capsys, *argv)
    assert [packaged[side]["total"] for side in ("a", "b")] == [13, 9]  # Body 6 and 5
    assert "体力/Body (筋力/strength, GM-CHECK-5 (default)) 6" in packaged["text"]
    assert main(["genso", *argv, "--set", "GM-CHECK-5.strength_reads_as=magic"]) == 2
    assert "GM-CHECK-5" in capsys.readouterr().err
    user_file(user_dirs, '[defaults."GM-CHECK-5"]\nstrength_reads_as = "perception"\n')
    assert main(["genso", *argv]) == 2
    assert "GM-CHECK-5" in capsys.readouterr().err


def dispel_over_a_stronger_casters_spell(rules: GensoRules) -> tuple[str, list[str]]:
    """A Dispel by 一般的な魔術師（女性） on herself, whose oldest spell (the forest fairy's
    Protection) is of a caster with higher Magic: what it says and the spells left."""
    hider = replace(preset(rules, "mage_m"), spells=("concealment",))
    fight = Fight(rules, entrants_for(rules, [preset(rules, "forest_fairy"), hider,
                                              preset(rules, "mage_f")], [("orc", 1)]))
    for action in (Cast(FAIRY, "protection", (MAGE_F,)), Wait(MAGE_M), Wait(MAGE_F),
                   Wait("オーク"), Wait(FAIRY), Cast(MAGE_M, "concealment", (MAGE_F,))):
        fight.push(action, ScriptedDice([]))
    entry = fight.push(Cast(MAGE_F, "dispel", (MAGE_F,)), ScriptedDice([]))
    return entry.text, [e.spell for e in fight.state.get(MAGE_F).effects]


def test_dispel_over_an_oldest_it_cannot_cancel_follows_the_default(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MAGIC-4: when the oldest spell cannot be cancelled (a caster with higher Magic),
    the spec's Default cancels the oldest that can be, and says so; "cancel_none", the
    other reading, cancels nothing."""
    text, left = dispel_over_a_stronger_casters_spell(load_rules())
    assert left == ["protection"] and "the next is (cancel_next (default))" in text
    user_file(user_dirs, '[defaults."GM-MAGIC-4"]\noldest_cannot_be_cancelled = "cancel_none"\n')
    rules = user_rules(load_rules(), "genso.toml", [], "")
    text, left = dispel_over_a_stronger_casters_spell(rules)
    assert left == ["protection", "concealment"] and "so none is (cancel_none)" in text
    rules = user_rules(load_rules(), "genso.toml",
                       ["GM-MAGIC-4.oldest_cannot_be_cancelled=cancel_next"], "")
    assert dispel_over_a_stronger_casters_spell(rules)[1] == ["protection"]
    assert main(["genso", "defaults", "--set",
                 "GM-MAGIC-4.oldest_cannot_be_cancelled=newest"]) == 2
    assert 'must be one of cancel_next, cancel_none; found "newest"' in capsys.readouterr().err


def test_rest_help_names_the_fee_by_its_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """GM-HEAL-1: `rest --help` said "1 silver/HP", the fee's packaged Default, which is wrong
    once GM-HEAL-1.fee_silver is set: it names the rule's setting instead."""
    with pytest.raises(SystemExit):
        main(["genso", "rest", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "1 silver/HP" not in shown and "the GM-HEAL-1 fee per HP" in shown
    assert "HEAL-1.fee_silver" in shown  # argparse may break the line at its hyphen


def test_shield_protection_is_a_default(user_dirs: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """GM-EQUIP-2: the shield protects 2 by PG 6-3's table (the spec's Default) or 4 as the
    sample stat blocks print it; it lived in the packaged items.toml alone. A sample NPC
    keeps its printed 4 either way, and Shield+1 (GM-EQUIP-3) stays as printed."""
    def protection(*argv: str) -> tuple[int, int]:
        shields = {r["key"]: r["protection"] for r in run(capsys, "list", "items", *argv)["items"]}
        assert shields["shield_plus1"] == 3
        priest = run(capsys, "sheet", "priest_m", *argv)["derived"]["protection"]["total"]
        return shields["shield"], priest

    assert protection() == (2, 6)  # leather 4 + shield 2
    assert "防御点/protection 2 (default)" in text(capsys, "list", "items")
    assert protection("--set", "GM-EQUIP-2.shield_protection=4") == (4, 8)
    user_file(user_dirs, '[defaults."GM-EQUIP-2"]\nshield_protection = 4\n')
    assert protection() == (4, 8)
    assert "防御点/protection 4 (default)" not in text(capsys, "list", "items")
    assert run(capsys, "sheet", "knight_m")["derived"]["protection"]["total"] == 12
    assert main(["genso", "sheet", "pc1", "--set", "GM-EQUIP-2.shield_protection=3"]) == 2
    assert "GM-EQUIP-2.shield_protection must be one of 2, 4; found 3" in \
        capsys.readouterr().err


def test_enemy_detection_and_the_orc_warrior_are_labelled_defaults(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Spec §0.1 "the UI must label it as a default": `check enemy`'s difficulty 12 is
    GM-CHECK-6's Default, the Orc Warrior's numbers GM-MON-7's; neither was labelled."""
    argv = ("check", "enemy", "--sheet", "pc1", "--seed", "1")
    assert "> 12 (default) (P = 15/36)" in text(capsys, *argv)
    assert "> 11 (P = " in text(capsys, *argv, "--set", "GM-CHECK-6.difficulty=11")
    assert "> 12 (P = " in text(capsys, *argv, "--difficulty", "12")
    # The Orc Warrior's row with the lines it goes on in (genso61: 100 columns).
    orc = text(capsys, "list", "monsters").rstrip().split("\norc_warrior ")[1]
    assert "体力 7" in orc and orc.endswith("GM-MON-7 orc_warrior = gm (default)")
    orc = text(capsys, "list", "monsters", "--set",
               "GM-MON-7.orc_warrior=wg").rstrip().split("\norc_warrior ")[1]
    assert "体力 8" in orc and orc.endswith("GM-MON-7 orc_warrior = wg")


#: In the spec's order of its rules, a rule's part beside the rule (review60a N2).
GENSO_READINGS = ("GM-CORE-4", "GM-CHECK-5", "GM-COMBAT-1 (order)", "GM-COMBAT-6",
                  "GM-COMBAT-7 (armour)", "GM-MON-4", "GM-MON-5", "GM-MON-7 (abilities)",
                  "GM-GROW-2", "GM-MAGIC-1 (casting)", "GM-MAGIC-10",
                  "GM-ITEM-2", "GM-ITEM-3 (storage)", "GM-LORE-3")


def test_the_fixed_readings_are_listed_after_the_settings(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Spec §0.1: the ten genso Defaults the companion plays as fixed readings (no key)
    were listed nowhere; `genso defaults` lists them, from data/readings.toml, in the text
    and as "fixed_readings" in JSON. A rule given a setting here is no longer among them."""
    data = run(capsys, "defaults")
    assert tuple(data["fixed_readings"]) == GENSO_READINGS
    assert all(line and "\n" not in line for line in data["fixed_readings"].values())
    keyed = {r["rule"] for r in data["defaults"]}
    assert {"GM-CHAR-7", "GM-MAGIC-4", "GM-EQUIP-2"} <= keyed
    order = list(dict.fromkeys(r["rule"] for r in data["defaults"]))
    assert order[order.index("GM-MOVE-1") + 1] == "GM-MOVE-2"  # it was listed first
    assert not keyed & set(data["fixed_readings"])
    shown = text(capsys, "defaults").split("Fixed readings")[1]
    # Aligned past the longest "RULE-ID (part)" (review60a N2: they overflowed 12 columns).
    assert "\nGM-MON-4             a drain (HP/MP吸収) takes exactly the listed HP and MP" in shown
    assert "\nGM-COMBAT-7 (armour) damage subtracts armour points only" in shown
    rows = shown.splitlines()[1:len(GENSO_READINGS) + 1]
    assert [row[:20].rstrip() for row in rows] == list(GENSO_READINGS)
    assert all(row[20] == " " and row[21] != " " for row in rows)


def test_a_rule_both_a_setting_and_a_fixed_reading_is_refused() -> None:
    rules = load_rules()
    with pytest.raises(DataError, match=r"GM-MON-4 keeps a setting \(\[defaults\]\), so it is "
                                        r"no fixed reading"):
        fixed_readings("companion.systems.genso",
                       Settings({**rules.settings.values, "GM-MON-4": {"x": 1}}))


def test_the_defaults_played_in_code_are_listed_or_set(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Spec §0.1 (rules60g risk 5): the Defaults the engine played with no label are listed:
    GM-MON-2's attack spells on the immune and GM-MOVE-2's begun turn as settings; GM-COMBAT-1's
    order within a side, GM-COMBAT-7's armour only and floor, GM-MAGIC-1's roll-less casting,
    GM-ITEM-3's "up to 5 MP" and GM-MON-7's 筋力 as readings of the part no setting changes,
    keyed "RULE-ID (part)" beside the rule's settings."""
    data = run(capsys, "defaults")
    keys = {(r["rule"], r["key"]) for r in data["defaults"]}
    assert {("GM-MON-2", "attack_spells_harm_immune"), ("GM-MOVE-2", "begun_turn_counts"),
            ("GM-MON-3", "living_side_uses_magic")} <= keys
    readings = data["fixed_readings"]
    assert "up to 5 MP" in readings["GM-ITEM-3 (storage)"]
    assert "never below 0" in readings["GM-COMBAT-7 (armour)"]
    assert "no roll" in readings["GM-MAGIC-1 (casting)"]
    assert "筋力" in readings["GM-MON-7 (abilities)"]
    assert "order they entered" in readings["GM-COMBAT-1 (order)"]


def test_travel_labels_its_rounding_and_can_round_down(
        capsys: pytest.CaptureFixture[str]) -> None:
    """GM-MOVE-2, §0.3: a turn begun counts whole (100 m is 1 turn), labelled as the Default;
    set off, §0.3's round down (100 m takes no time, 1,500 m two turns)."""
    assert main(["genso", "travel", "100"]) == 0
    assert capsys.readouterr().out.strip() == (
        "100 m: 1 ターン turn (GM-MOVE-2; 端数切り上げ a turn begun counts whole (default))")
    down = ("--set", "GM-MOVE-2.begun_turn_counts=false")
    assert run(capsys, "travel", "100", *down)["turns"] == 0
    assert run(capsys, "travel", "1500", *down)["turns"] == 2
    assert main(["genso", "travel", "1500", *down]) == 0
    assert "2 ターン turns (GM-MOVE-2; 端数切り捨て rounded down)" in capsys.readouterr().out
