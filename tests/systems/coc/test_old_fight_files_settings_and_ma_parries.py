"""Defects a re-audit of `companion coc` found after the format-2 fixes: old (format-1)
fight files that crashed or would not open, lost a setting, or went on under the old rules;
and rules of seeds 003/004 still wrong (dodge checks in bursts and grapples, MA parries the
sheet lacks, the MA follow-up through a parry)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.dice.sources import ScriptExhausted
from companion.errors import DataError, IllegalAction
from companion.systems.coc.combat import Attack, ClearJam, Defence, EndTurn, Fight
from companion.systems.coc.combat.step import _Step
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping
from tests.systems.coc.helpers import duel, pass_to, push

P003, P004 = Profile.P003, Profile.P004
GUN = {"weapons": ("automatic",), "handgun": 60}


def _format1(f: Fight, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """``f`` saved as the code before the format number saved it."""
    data = json.loads(json.dumps(f.to_json()))
    del data["format"]
    data.pop("opening_engine", None)
    for entry in data["journal"]:
        entry.pop("engine", None)
    if settings is not None:
        data["settings"] = settings
    return data


# --- old files ----------------------------------------------------------------------------

@pytest.mark.parametrize("settings", [{"CO-BASE-7": 5}, {"CO-BASE-7": [1]}, [1, 2]])
def test_a_format_1_file_with_a_malformed_setting_is_a_data_error(settings: Any) -> None:
    with pytest.raises(DataError, match=r"settings|saved coc fight"):
        Fight.from_json(load_rules(), _format1(duel(P003, {"fist": 60}, legacy=True),
                                               settings))


@pytest.mark.parametrize("value", ["2", 2.0, True, 3, 0])
def test_a_format_that_is_not_a_whole_number_this_code_reads_is_an_error(value: Any) -> None:
    data = duel(P003, {"fist": 60}).to_json()
    data["format"] = value
    with pytest.raises(DataError, match="fight file format"):
        Fight.from_json(load_rules(), data)


def test_a_format_1_fight_begun_with_an_out_of_range_setting_still_opens() -> None:
    """The old code took ``CO-BASE-8.wake_hp=0``; the fight opens with it (noted) and keeps
    it when saved again."""
    f = duel(P003, {"fist": 60}, legacy=True)
    push(f, Attack("Ann", "Cult"), (100, 90))
    old = Fight.from_json(load_rules(), _format1(f, {"CO-BASE-8": {"wake_hp": 0}}))
    assert old.rules.default("CO-BASE-8", "wake_hp") == 0
    assert any("CO-BASE-8.wake_hp must be above 2 (CO-BASE-8.unconscious_max), found 0; kept"
               in n for n in old.notes)
    again = json.loads(json.dumps(old.to_json()))
    assert again["settings"] == {"CO-BASE-8": {"wake_hp": 0}}
    assert Fight.from_json(load_rules(), again).state == old.state


def test_an_unconscious_character_may_not_wake_inside_the_unconscious_range() -> None:
    """CO-BASE-8: HP 1-2 is unconscious ([BASE 6e], ``unconscious_max``), so waking at HP 2
    would wake a character the same rule keeps unconscious; the range of ``wake_hp``
    follows ``unconscious_max`` (it was only "1 or more")."""
    rules = load_rules()
    assert rules.with_overrides({"CO-BASE-8": {"wake_hp": 3}}, "--set")
    for low in (1, 2):
        with pytest.raises(DataError, match=r"wake_hp must be above 2 "
                                            r"\(CO-BASE-8.unconscious_max\), found "):
            rules.with_overrides({"CO-BASE-8": {"wake_hp": low}}, "--set")


def test_an_old_zero_divisor_refuses_the_action_instead_of_crashing() -> None:
    f = duel(P003, {"fist": 60}, legacy=True)
    old = Fight.from_json(load_rules(), _format1(f, {"CO-BASE-10": {"damage_divisor": 0}}))
    assert old.rules.default("CO-BASE-10", "damage_divisor") == 0
    step = _Step(old.rules, old.state, ScriptedDice([]))  # the knockout's divisor
    with pytest.raises(IllegalAction, match="damage_divisor is 0"):
        step.divisor("CO-BASE-10", "damage_divisor")


def test_a_setting_format_1_never_read_is_kept_shown_and_read_by_new_actions() -> None:
    """``CO-BASE-12.full_refill=false`` in an old file: its past replays as played (a full
    refill), but the setting is not dropped on the next save and holds from now on."""
    f = duel(P003, {"fist": 60}, legacy=True)
    old = Fight.from_json(load_rules(), _format1(
        f, {"CO-BASE-12": {"full_refill": False}}))
    assert old.rules.default("CO-BASE-12", "full_refill") is False
    assert ("CO-BASE-12", "full_refill", False, False) in old.rules.entries()
    assert old.format1.default("CO-BASE-12", "full_refill") is True
    assert old.to_json()["settings"] == {"CO-BASE-12": {"full_refill": False}}
    assert any("full_refill = false was not read" in n for n in old.notes)


def test_new_actions_in_an_old_fight_follow_the_fixed_rules_while_its_past_replays() -> None:
    """A jam in an old fight: format 1 cleared it in the same round, the fixed CO-FIRE-4
    clears it from the next; each entry keeps the revision that played it."""
    f = duel(P003, GUN, legacy=True)
    push(f, Attack("Ann", "Cult"), (100, 96))
    data = _format1(f)
    old = Fight.from_json(load_rules(), data)
    assert [e.engine for e in old.journal] == [1] and old.notes
    with pytest.raises(IllegalAction, match="clear it from the next round"):
        old.push(ClearJam("Ann"), ScriptedDice([]))
    played_then = Fight.from_json(load_rules(), data)
    played_then.push(ClearJam("Ann"), ScriptedDice([(100, 10)]), engine=1)  # format 1 let it
    saved = json.loads(json.dumps(played_then.to_json()))
    assert [e.get("engine") for e in saved["journal"]] == [1, 1]
    reloaded = Fight.from_json(load_rules(), saved)
    assert reloaded.state == played_then.state and reloaded.notes == []


# --- rules ---------------------------------------------------------------------------------

SMG = {"weapons": ("smg",), "smg": 60}


@pytest.mark.parametrize("legacy", [False, True])
def test_a_burst_refuses_a_second_dodge_before_the_dice_or_as_format_1_did(
        legacy: bool) -> None:
    """CO-DODGE-4: Cult has dodged Ann's burst; Bob's burst cannot be dodged too. A new
    action is refused before any die; format 1 refused it after the burst's dice."""
    f = duel(P004, SMG, third=SMG, legacy=legacy)
    push(f, Attack("Ann", "Cult", burst=True, defence=Defence.DODGE), (100, 30), (20, 1),
         (100, 10))  # one hit, dodged
    assert f.state.get("Cult").dodges == 1
    bob = Attack("Bob", "Cult", burst=True, defence=Defence.DODGE)
    if legacy:
        with pytest.raises(ScriptExhausted):
            f.push(bob, ScriptedDice([]))
        with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
            f.push(bob, ScriptedDice([(100, 30), (20, 2)]))
    else:
        with pytest.raises(IllegalAction, match="Cult cannot dodge now"):
            f.push(bob, ScriptedDice([]))


def test_co_melee_3_an_ma_parry_counts_only_for_a_sheet_with_ma_003() -> None:
    """Bob (a fist, no MA skill) has dodged Ann's blow; Cult's critical knife finds him
    unable to defend, so its damage doubles (CO-MELEE-3): no MA parry he never learnt."""
    f = duel(P003, {"fist": 60}, {"weapons": ("knife",), "knife": 80},
             third={"dodge": 50})
    push(f, Attack("Ann", "Bob", defence=Defence.DODGE), (100, 10), (100, 10))
    pass_to(f, "Cult")
    text = push(f, Attack("Cult", "Bob"), (100, 3), (4, 4), (4, 4), (4, 1))  # impales
    assert "=13 (impale, CO-BASE-2) ×2 (CO-MELEE-3) = 26" in text, text


def test_co_ma_4_no_follow_up_after_a_parry_that_held_004() -> None:
    """004 line 158: the follow-up comes 「相手にヒットした時」. Cult's knife parries (line 19,
    受け流した): only CO-PARRY-3's forced half, 2, gets past, and no second doubled roll."""
    f = duel(P004, {"fist": 80, "martial_arts": 80}, {"weapons": ("knife",), "knife": 50})
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="follow_up",
                          defence=Defence.PARRY),
                (100, 10), (3, 2), (3, 2), (4, 1), (100, 10))
    assert "no follow-up (CO-MA-4" in text
    cult = f.state.get("Cult")
    assert cult.hp == cult.sheet.max_hp - 2


@pytest.mark.parametrize(("field", "value", "said"), [
    ("profile", 5, "profile must be '003' or '004', found 5"),
    ("entrants", 5, "entrants must be a list of tables, each with a sheet and a side"),
    ("entrants", [{"side": "foes"}], "entrants must be a list of tables"),
    ("opening", [[6]], "opening must be a list of [sides, value] dice"),
    ("journal", "x", "journal must be a list of entries, found 'x'"),
    ("settings", [1], "settings must be a table of rule IDs"),
    # A list or a table where a name is wanted was a TypeError traceback (unhashable).
    ("profile", [], "profile must be '003' or '004', found []"),
    ("profile", {"a": 1}, "profile must be '003' or '004', found {'a': 1}"),
    ("entrants", [{"sheet": {}, "side": []}],
     "entrant 1's side must be 'foes' or 'investigators', found []"),
])
def test_a_fight_file_of_the_wrong_shape_says_which_field_in_words(
        field: str, value: object, said: str) -> None:
    """It said "not a saved coc fight ('int' object is not iterable)" or "('profile')"."""
    data = duel(P004, {}).to_json()
    data[field] = value
    with pytest.raises(DataError, match=f"^not a saved coc fight: {re.escape(said)}"):
        Fight.from_json(load_rules(P004), data)


def test_a_fight_keeps_the_sheets_it_began_with_through_checks_made_since() -> None:
    """Until the sheet checks of the last stops, ``durability_left = 12`` on a revolver (full
    10), ``durability_left = 3`` on a kick (which has none) and ``loaded = true`` were taken,
    and a fight keeps its own copy of each sheet: after the upgrade that fight did not open
    ("durability_left must be from 0 to the full durability 10"), and mending the sheet file could
    not help. The copy is read as the fight began with it; a sheet file is still refused."""
    f = duel(P003, {"weapons": ("revolver", "kick")})
    saved = json.loads(json.dumps(f.to_json()))
    revolver, kick = saved["entrants"][0]["sheet"]["weapons"]
    revolver.update(durability_left=12, loaded=True)
    kick["durability_left"] = 3
    opened = Fight.from_json(load_rules(), saved)
    ann = opened.state.get("Ann")
    assert [(w.info.key, w.durability, w.loaded) for w in ann.sheet.weapons] == [
        ("revolver", 12, 1), ("kick", 3, 0)]
    pass_to(opened, "Ann")
    push(opened, EndTurn("Ann"))
    again = opened.to_json()["entrants"][0]["sheet"]["weapons"]
    assert (again[0]["durability_left"], again[1]["durability_left"]) == (12, 3)
    with pytest.raises(DataError, match="durability_left must be from 0 to the full durability 10"):
        sheet_from_mapping(load_rules(), saved["entrants"][0]["sheet"], "sheet")
