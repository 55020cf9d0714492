"""The coc engine's refusals: misspelt option words, weapons, shots; SAN loss readings.

coc67's findings in the coc rules engine (seeds 003/004, spec §3):

- D1: a misspelt ``ma_option`` (``follow-up``) or ``fumble`` (``brake``), or an ma_option
  without ma, is refused before any die, naming the words there are, from engine revision
  15; an entry revision 14 played still replays as it was played.
- N1: a called shot in 004 (CO-CALL-1 off) says the rule is off, not that "head" is no part.
- N2: a dropped or broken weapon, and too many shots, are refused with their rule IDs and a
  way out.
- N3: a SAN loss with CO-BASE-13 off says so. N4: a loss past SAN 0 says what was left to
  lose, and asks INT×5 for what it cost (revision 15).
- N5: the surprise's Luck roll shows how its target is reached. N6: a burst's 1D20 past
  the rounds loaded says it is capped (004 l.57).
- N7: a wrong tackle option lists the ones there are, or says the option is off.
- N8: a sheet whose CON and SIZ give no HP is refused, as a printed max_hp of 0 is.
"""

from __future__ import annotations

import json

import pytest

from companion.errors import DataError
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Condition,
    Fight,
    SanLoss,
    Tackle,
)
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping
from tests.systems.coc.helpers import MA, at, duel, push, refused

P003, P004 = Profile.P003, Profile.P004


# --- D1: ma_option and fumble words (CO-MA-3, CO-MA-4, CO-MELEE-4) ---------------------------

@pytest.mark.parametrize("word", ["follow-up", "followup", "Follow_up", "forcd", "xyz"])
def test_d1_a_misspelt_ma_option_is_refused_naming_the_words(word: str) -> None:
    f = duel(P004, MA)
    refused(f, Attack("Ann", "Cult", ma=True, ma_option=word),
            rf"^ma_option '{word}': write one of forced \(必中, CO-MA-3\), follow_up "
            r"\(追撃, CO-MA-4\)$")


def test_d1_an_ma_option_without_ma_is_refused() -> None:
    f = duel(P004, MA)
    refused(f, Attack("Ann", "Cult", ma_option="follow_up"),
            r"^ma_option follow_up is an MA option \(追撃, CO-MA-4\): declare it with "
            r"ma=true$")


@pytest.mark.parametrize("word", ["brake", "Fall", "falls", "xyz"])
def test_d1_a_misspelt_fumble_is_refused_naming_the_words(word: str) -> None:
    """003 (CO-MELEE-4 on); 004, where it is off, is reviewcoc67 NIT 1
    (test_option_words_follow_profile)."""
    f = duel(P003, {"weapons": ("knife",), "knife": 50})
    refused(f, Attack("Ann", "Cult", fumble=word),
            rf"^fumble '{word}': write fall \(転倒\) or break \(武器破損\) \(CO-MELEE-4\), or "
            r"leave it out for the automatic choice$")


def test_d1_the_right_words_still_play() -> None:
    """follow_up plays its follow-up (CO-MA-4); fumble=break breaks the knife (CO-MELEE-4)."""
    f = duel(P004, MA)
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="follow_up"), (100, 10),
                (3, 1), (3, 1), (4, 1), (3, 1), (3, 1), (4, 1))
    assert "(CO-MA-4)" in text and "follow-up" in text
    g = duel(P003, {"weapons": ("knife",), "knife": 50})
    assert "fumble: ナイフ/Knife breaks (CO-MELEE-4)" in push(
        g, Attack("Ann", "Cult", fumble="break"), (100, 99))


def test_d1_revision_14s_entry_with_a_misspelt_word_still_replays() -> None:
    """A fight file's entry played by revision 14 with ``ma_option=xyz`` (stored, as coc67
    found) loads and replays as it was played: the word was taken for none."""
    f = at(14, duel(P004, MA))
    text = push(f, Attack("Ann", "Cult", ma=True, ma_option="xyz"), (100, 10),
                (3, 1), (3, 1), (4, 1))
    assert "follow-up" not in text
    data = json.loads(json.dumps(f.to_json()))
    again = Fight.from_json(load_rules(), data)
    assert again.state == f.state and again.journal[-1].engine == 14 < ENGINE


# --- N1: called shots off in 004 (CO-CALL-1) -------------------------------------------------

def test_n1_a_called_shot_in_004_says_the_rule_is_off() -> None:
    f = duel(P004, {"weapons": ("revolver",), "handgun": 50})
    for part in ("head", "foot"):
        refused(f, Attack("Ann", "Cult", called=part),
                r"^called shots are CO-CALL-1, off in this profile; a blow at a body part is "
                r"body=cut, gouge or blow_off with part=")


def test_n1_a_wrong_part_in_003_is_named() -> None:
    f = duel(P003, {"weapons": ("revolver",), "handgun": 50})
    refused(f, Attack("Ann", "Cult", called="foot"),
            r"^called=foot: a called shot is CO-CALL-1: head, arm or leg$")


# --- N2: dropped, broken, too many shots -----------------------------------------------------

@pytest.mark.parametrize(("profile", "cost"), [(P003, "1 AP, CO-FIRE-4"),
                                              (P004, "one action, CO-DISARM-1")])
def test_n2_a_dropped_weapon_says_its_rule_and_how_to_pick_it_up(profile: Profile,
                                                                 cost: str) -> None:
    """The rule named is picking it up's (reviewcoc67 DEFECT 1: not why it fell)."""
    f = duel(profile, {"weapons": ("knife", {"key": "revolver", "dropped": True}),
                       "handgun": 50})
    refused(f, Attack("Ann", "Cult", weapon=1),
            rf"^拳銃\(リボルバー\)/Revolver is dropped 落とした: pick it up first \({cost}; "
            r"act pick_up Ann --with weapon=1\)$")


def test_n2_a_broken_weapon_says_its_rules_and_the_way_out() -> None:
    f = duel(P003, {"weapons": ({"key": "knife", "broken": True},), "knife": 50})
    refused(f, Attack("Ann", "Cult"),
            r"^ナイフ/Knife is broken \(CO-MELEE-4, CO-PARRY-1, CO-PARRY-4, CO-WEAP-1\): "
            r"attack with another weapon$")


def test_n2_too_many_shots_say_the_weapons_attacks_and_its_rule() -> None:
    f = duel(P004, {"weapons": ("revolver", "knife"), "handgun": 50, "knife": 50})
    refused(f, Attack("Ann", "Cult", shots=5),
            r"^拳銃\(リボルバー\)/Revolver makes 1 to 3 attacks an action \(攻撃回数, "
            r"CO-BASE-5\), found shots=5$")
    refused(f, Attack("Ann", "Cult", weapon=1, shots=2),
            r"^ナイフ/Knife makes 1 attack an action \(攻撃回数, CO-BASE-5\), found shots=2$")


# --- N3, N4: SAN losses (CO-BASE-13) ---------------------------------------------------------

def test_n3_a_san_loss_with_co_base_13_off_says_it_is_off() -> None:
    f = duel(P004, {}, settings={"CO-BASE-13": {"p004": "off"}})
    refused(f, SanLoss("Ann", 3), r"^SAN losses are CO-BASE-13, off in this profile$")
    g = duel(P004, {})
    refused(g, SanLoss("Ann", -2), r"^a SAN loss of 0 or more \(CO-BASE-13\), found -2$")


def test_n4_a_loss_past_san_0_says_what_was_left_and_asks_int_for_what_it_cost() -> None:
    """SAN 50: 999 costs 50 (INT×5 asked, 5 or more); at SAN 0 a loss of 5 costs nothing:
    no INT×5 (no die scripted), no new temporary insanity."""
    f = duel(P004, {})
    text = push(f, SanLoss("Ann", 999), (100, 90))
    assert "Ann loses 999 SAN (50 left to lose): SAN 50 → 0 (CO-BASE-13)" in text
    assert "INT×5" in text and not f.state.get("Ann").has(Condition.TEMPORARY_INSANITY, 1)
    text = push(f, SanLoss("Ann", 5))
    assert text == "Ann loses 5 SAN (0 left to lose): SAN 0 → 0 (CO-BASE-13)"
    assert not f.state.get("Ann").has(Condition.TEMPORARY_INSANITY, 1)
    # A loss SAN covers reads as before.
    g = duel(P004, {})
    assert push(g, SanLoss("Ann", 3)) == "Ann loses 3 SAN: SAN 50 → 47 (CO-BASE-13)"


def test_n4_revision_14_still_asked_int_at_san_0() -> None:
    f = at(14, duel(P004, {}))
    push(f, SanLoss("Ann", 999), (100, 90))
    assert "INT×5" in push(f, SanLoss("Ann", 5), (100, 90))


# --- N5: the surprise's Luck (CO-SURP-1, CO-SURP-3) ------------------------------------------

def test_n5_the_surprise_luck_roll_shows_its_terms() -> None:
    f = duel(P004, {"weapons": ("knife",), "knife": 60, "hide": 95})
    text = push(f, Attack("Ann", "Cult", surprise="hide"), (100, 40), (100, 20), (4, 3),
                (4, 2), (100, 70))
    lines = text.splitlines()
    luck = lines.index("Cult 幸運/Luck: base 50 -10 (CO-SURP-1) -30 (hidden, CO-SURP-3) = 10")
    assert lines[luck + 1].startswith("Cult looks for Ann: 幸運/Luck (1D100<=10)")


# --- N6: a burst capped at the rounds loaded (CO-FIRE-8) -------------------------------------

def test_n6_a_bursts_hits_capped_at_the_rounds_loaded_say_so() -> None:
    f = duel(P004, {"weapons": ({"key": "smg", "loaded": 5},), "smg": 60})
    text = push(f, Attack("Ann", "Cult", burst=True), (100, 30), (20, 15),
                *((10, 1),) * 5)
    assert "1D20=15 ＞ 5 hit(s) (only 5 loaded 装填弾数, CO-FIRE-8)" in text
    g = duel(P004, {"weapons": ({"key": "smg", "loaded": 5},), "smg": 60})
    text = push(g, Attack("Ann", "Cult", burst=True), (100, 30), (20, 2), (10, 1), (10, 1))
    assert "1D20=2 ＞ 2 hit(s) (CO-FIRE-8)" in text  # not capped: nothing more


# --- N7: tackle options (CO-TACKLE-1..3) ------------------------------------------------------

def test_n7_a_wrong_tackle_option_lists_the_ones_there_are() -> None:
    f = duel(P004, {"tackle": 70})
    refused(f, Tackle("Ann", "Cult", option="blow"),
            r"^no tackle option 'blow': write blow_back \(吹き飛ばし, CO-TACKLE-2\) or "
            r"knock_down \(押し倒し, CO-TACKLE-3\), or leave it out for 1d6\+db "
            r"\(CO-TACKLE-1\)$")


def test_n7_an_option_switched_off_says_so() -> None:
    f = duel(P004, {"tackle": 70}, settings={"CO-TACKLE-2": {"p004": "off"}})
    refused(f, Tackle("Ann", "Cult", option="blow_back"),
            r"^the tackle option blow_back is CO-TACKLE-2, off in this profile$")
    refused(f, Tackle("Ann", "Cult", option="blow"),
            r"^no tackle option 'blow': write knock_down \(押し倒し, CO-TACKLE-3\), or leave "
            r"it out")


# --- N8: no HP from CON and SIZ (CO-BASE-1) --------------------------------------------------

def _zero(**extra: object) -> dict[str, object]:
    return {"name": "Bob", "characteristics": {"STR": 0, "CON": 0, "POW": 10, "DEX": 10,
                                               "APP": 10, "SIZ": 0, "INT": 10, "EDU": 10},
            **extra}


def test_n8_a_sheet_whose_con_and_siz_give_no_hp_is_refused() -> None:
    rules = load_rules(P004)
    with pytest.raises(DataError, match=r"^bob.toml: CON 0 \+ SIZ 0 gives 0 HP \(CO-BASE-1\): "
                                        r"a sheet needs 1 or more; raise CON or SIZ, or write "
                                        r"max_hp$"):
        sheet_from_mapping(rules, _zero(), "bob.toml")
    assert sheet_from_mapping(rules, _zero(max_hp=3), "bob.toml").max_hp == 3
    # A saved fight's copy opens as it began.
    assert sheet_from_mapping(rules, _zero(), "entrant 1", kept=True).max_hp == 0
