"""CO-DODGE-5's settings in the table's menus, and each optional rule's note in `coc defaults`.

review61e R4, N1, N2, N6 at the coc table (profile 004, CO-DODGE-5): with
``attack_needs_keeper = false`` the How menu has no "After dodging, −50% (Keeper's OK)" beside
the plain attack that already takes the −50 (it played the same); by the Default the attack
after dodging is still the Keeper's OK. The dodge of a blow ruled certainly fatal is offered
only where the engine reads it: never by the Default, nor to one who has not attacked.
`coc defaults` gives each coc62 setting a note in Japanese and English."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.systems.coc.combat import Attack, Defence, Delay, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import at_the_table, offered
from tests.systems.coc.scripted_fight_helpers import entrant


def duel(settings: dict[str, Any]) -> Fight:
    """004: Ann (DEX 14; fist, MA, dodge) against Cult (DEX 10; fist)."""
    rules = load_rules(Profile.P004).with_overrides(settings)
    return Fight(rules, [
        entrant(rules, "Ann", 14, ("fist",), Side.INVESTIGATORS, fist=70, martial_arts=50,
                dodge=60),
        entrant(rules, "Cult", 10, ("fist",), Side.FOES, fist=60)], ScriptedDice([]))


@pytest.mark.parametrize("needs_keeper", [True, False])
def test_one_entry_for_the_attack_after_dodging(tmp_path: Path, needs_keeper: bool) -> None:
    """Ann delays and dodges Cult's punch; at her DEX/2 turn she attacks Cult."""
    settings = {"CO-DODGE-5": {"attack_needs_keeper": needs_keeper}}
    _, player = at_the_table(
        tmp_path, lambda: duel(settings),
        [(Delay("Ann"), []), (Attack("Cult", "Ann", defence=Defence.DODGE), [10, 10])],
        ["attack", "t:Cult", *([] if needs_keeper else ["h:plain"]), "d:none"],
        [Attack("Ann", "Cult", after_dodge=needs_keeper)])
    hows = offered(player, "How?")
    if needs_keeper:  # the one way the engine takes, played with no menu
        assert hows == []
    else:  # a plain attack, MA and the rest; no second entry playing the same −50
        assert "h:plain" in hows[0] and "h:ma" in hows[0]
        assert "h:after_dodge" not in hows[0]


def _punched(settings: dict[str, Any]) -> Fight:
    rules = load_rules(Profile.P004).with_overrides(settings)
    return Fight(rules, [
        entrant(rules, "Ann", 14, ("fist",), Side.INVESTIGATORS, fist=60, dodge=80),
        entrant(rules, "Cult", 10, ("fist",), Side.FOES, fist=60)], ScriptedDice([]))


@pytest.mark.parametrize(("needs_fatal", "ann_attacks"), [(False, True), (True, False)],
                         ids=["by the Default", "Ann has not attacked"])
def test_no_fatal_blow_dodge_where_it_changes_nothing(tmp_path: Path, needs_fatal: bool,
                                                      ann_attacks: bool) -> None:
    """Cult punches Ann: her plain dodge is offered (at −60 if she attacked), the dodge of
    a blow ruled certainly fatal is not."""
    settings = {"CO-DODGE-5": {"dodge_needs_fatal_blow": needs_fatal}}
    before = (Attack("Ann", "Cult"), [90]) if ann_attacks else (Delay("Ann"), [])
    _, player = at_the_table(tmp_path, lambda: _punched(settings), [before],
                             ["attack", "t:Ann", "h:plain", "d:dodge"],
                             [Attack("Cult", "Ann", defence=Defence.DODGE)])
    [defences] = offered(player, "How does Ann defend?")
    assert "d:dodge" in defences and "d:dodge:fatal" not in defences


def test_each_coc62_setting_has_its_note_with_japanese(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """review61e N2: CO-BASE-1.recompute had no note beside it; the others say where they
    are read."""
    assert main(["coc", "defaults", "--json"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)["defaults"]}
    assert rows["CO-BASE-1", "recompute"]["note"] == (
        "false: 最大耐久力 max HP and DB ダメージボーナス stay as the fight began when STR, "
        "CON or SIZ changes by CO-BODY-5 or CO-BURN-1")
    assert rows["CO-BASE-2", "db_twice"]["note"].endswith(
        "; read where CO-BASE-2 is played, profile 003 by Default")
    for key in ("dodge_needs_fatal_blow", "attack_needs_keeper"):
        assert rows["CO-DODGE-5", key]["note"].endswith("; read in profile 004")
    for key in (("CO-BASE-1", "recompute"), ("CO-BASE-2", "db_twice"), ("CO-MA-3", "doubled"),
                ("CO-MA-4", "damage"), ("CO-MA-4", "own_roll"),
                ("CO-DODGE-5", "dodge_needs_fatal_blow"), ("CO-DODGE-5", "attack_needs_keeper")):
        assert any("\u3040" <= ch <= "\u9fff" for ch in rows[key]["note"]), key
