"""The coc engine's grapple, tackle and pin (engine revision 19).

coc71 (grapple, tackle and pin audit), fixed in engine revision 19; entries played by
revision 18 replay as they were played.

DEFECT 1 (CO-GRAP-5, CO-PARRY-2, CO-DODGE-2): seed 004 l.24 「組み付き技能は、近接戦闘技能や
長身の火器で受け流されてしまう」: a grapple is parried by melee combat skills, so bare hands,
MA and Budo parry it where they parry a humanoid's punch (l.20-21), and Grapple with two
successes (l.25); revision 18 took a melee weapon or long gun only.

DEFECT 2 (CO-TACKLE-2, CO-GRAP-1): seed 003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられ
ひと固まりとして考える」: a blown-back pair moves as one, as CO-MELEE-2's knockback already
did; revision 18 slid the target alone.

DEFECT 3 (CO-TACKLE-3, CO-GRAP-1): the pin becomes 003's grapple (004 l.177 「次のラウンドに
押さえ込み処理が発生しその時《組み付き》のルールに派生する」), so the pinned one is pulled into the
tackler's square from next to it (003 l.33); farther apart the pin lapses, said. Revision 18
pinned at any distance and moved nobody.

DEFECT 4 (CO-TACKLE-3): a pin that cannot be made (its target already held, the tackler
holding or held or out) is said in the log, and the knock-down's 転倒/prone mark goes when the
pin is made or lapses; one knock-down at a time. Revision 18 dropped it unsaid and left the
mark to the fight's end.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Condition,
    Defence,
    EndTurn,
    Fight,
    Grapple,
    Move,
    Place,
    Tackle,
)
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.defaults import fixed_readings
from tests.app.coc_table_helpers import FOE, INV, at_the_table, offered, people
from tests.systems.coc.helpers import at, duel, pass_to, patch, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before these fixes.
OLD = 18
ANN = {"weapons": ("fist",), "grapple": 60, "fist": 60}
CULT = {"weapons": ("fist",), "fist": 60, "martial_arts": 60, "grapple": 60}


def test_the_revision_is_new() -> None:
    """Revision 19 brought these fixes; later revisions (20, coc72) keep them."""
    assert ENGINE >= OLD + 1


# --- DEFECT 1: a grapple parried bare-handed, with MA, Budo or Grapple -----------------------

@pytest.mark.parametrize(("way", "label"), [("hands", "こぶし(パンチ)/Fist/Punch"),
                                            ("ma", "マーシャルアーツ/Martial Arts")])
def test_a_grapple_is_parried_barehanded_or_with_ma_004(way: str, label: str) -> None:
    """004 l.24 with l.20-21: Cult (bare fists, MA) parries Ann's grapple as it would her
    punch; the grapple holds nobody."""
    f = duel(P004, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with=way), (100, 20), (100, 10))
    assert f"Cult 受け流し/parry {label} (1D100<=60) ＞ 10" in text
    assert text.endswith("the grapple is parried (CO-GRAP-5)")
    assert not f.state.get("Ann").grappling and not f.state.get("Cult").held_by
    assert f.state.get("Cult").parries == 1
    replays(f)


def test_a_grapple_parry_that_fails_holds_004() -> None:
    f = duel(P004, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="hands"),
                (100, 20), (100, 90))
    assert "Ann restrains Cult" in text and f.state.get("Cult").held_by == "Ann"


def test_a_grapple_parried_by_grapple_needs_two_successes_004() -> None:
    """l.25 「組み付き技能は近接戦闘技能を受け流す場合"技能を2回成功"させなければならない」."""
    f = duel(P004, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="grapple"),
                (100, 20), (100, 10), (100, 10))
    assert "parry 組み付き/Grapple 2/2" in text and text.endswith("parried (CO-GRAP-5)")
    f = duel(P004, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="grapple"),
                (100, 20), (100, 10), (100, 90))
    assert f.state.get("Cult").held_by == "Ann"


def test_the_003_ma_parry_parries_a_grapple() -> None:
    """003 l.97 「＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回」 (CO-DODGE-2)."""
    f = duel(P003, ANN, CULT)
    text = push(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="ma"), (100, 20), (100, 10))
    assert "Cult 受け流し/parry マーシャルアーツ/Martial Arts" in text and "parried" in text


def test_no_bare_parry_of_a_monster_s_grapple_004() -> None:
    """l.20 「"相手が人型"」: bare hands parry no inhuman grappler, before any die."""
    f = duel(P004, ANN, CULT)
    patch(f, "Ann", sheet=replace(f.state.get("Ann").sheet, humanoid=False))
    refused(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="hands"),
            r"Cult cannot parry now: no hands parry against this attack \(CO-PARRY-2\)")


def test_a_grapple_parry_word_is_checked_before_any_die() -> None:
    f = duel(P004, ANN, CULT)
    refused(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="sword"),
            r"no parry_with 'sword' against a grapple")
    refused(f, Grapple("Ann", "Cult", Defence.DODGE, parry_with="ma"),
            r"parry_with goes with defence=parry")


def test_revision_18_parried_a_grapple_with_a_weapon_only() -> None:
    """A fight saved under revision 18 replays as played: its fist is no parrying weapon,
    and it knew no parry_with."""
    old = at(OLD, duel(P004, ANN, CULT))
    refused(old, Grapple("Ann", "Cult", Defence.PARRY, parry_weapon=0),
            r"Cult cannot parry now: its こぶし\(パンチ\)/Fist/Punch is no parrying weapon")
    refused(old, Grapple("Ann", "Cult", Defence.PARRY, parry_with="hands"),
            r"by revision 18: leave out parry_with")
    text = push(old, Grapple("Ann", "Cult", Defence.DODGE), (100, 20), (100, 90))
    assert old.journal[-1].engine == OLD and "Ann restrains Cult" in text
    replays(old)


def test_the_table_offers_the_bare_parry_of_a_grapple(tmp_path: Path) -> None:
    """The grapple's defence menu offers bare hands, MA and Grapple (Cult has no Budo), and
    the bare-handed one played is the engine's."""
    make = people(P004, ("Ann", 14, ("fist",), INV, {"grapple": 60}),
                  ("Cult", 10, ("fist",), FOE, {"martial_arts": 60}))
    _, player = at_the_table(tmp_path, make, [], ["grapple", "t:Cult", "h:plain", "d:parry:hands"],
                             [Grapple("Ann", "Cult", Defence.PARRY, parry_with="hands")])
    menus = offered(player, "How does Cult defend?")
    assert menus and {"d:parry:hands", "d:parry:ma", "d:parry:grapple"} <= set(menus[0])
    assert "d:parry:budo" not in menus[0] and "d:parry:0" not in menus[0]


# --- DEFECT 2: the blow back moves a grappled pair together ----------------------------------

#: 003's optional tackle rules, switched on.
TACKLES = {f"CO-TACKLE-{n}": {"p003": "optional_on"} for n in (1, 2, 3)}


def held_on_the_board(engine: int = ENGINE) -> Fight:
    """003's board: Cult (d3) holds Ann, pulled into d3 (CO-GRAP-1); Bob (d2) to act."""
    f = at(engine, duel(P003, {}, {"grapple": 60}, third={"tackle": 60, "fist": 60},
                        settings=TACKLES))
    push(f, Place("Ann", "d4", "S"))
    push(f, Place("Cult", "d3", "S"))
    push(f, Place("Bob", "d2", "N"))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Ann"), (100, 30), (100, 90))  # Ann's STR roll fails (CO-GRAP-2)
    pass_to(f, "Bob")
    assert (f.state.get("Ann").square, f.state.get("Cult").held_by) == ("d3", "")
    return f


@pytest.mark.parametrize(("target", "mate"), [("Cult", "Ann"), ("Ann", "Cult")])
def test_a_blown_back_pair_moves_as_one_003(target: str, mate: str) -> None:
    """003 l.33 「対象は探索者のマスに引き寄せられひと固まりとして考える」 (CO-GRAP-1): whichever
    of the pair Bob's tackle blows back 3 squares (CO-TACKLE-2), the other goes along, and
    the grapple goes on from one square."""
    f = held_on_the_board()
    text = push(f, Tackle("Bob", target, "blow_back"), (100, 20), (4, 2), (4, 2), (100, 10))
    assert f"{target} is blown back to d6" in text
    assert f"{mate} goes with {target} to d6: one unit (CO-GRAP-1)" in text
    assert {f.state.get(n).square for n in ("Ann", "Cult")} == {"d6"}
    assert f.state.get("Ann").held_by == "Cult"
    replays(f)


def test_revision_18_blew_back_one_of_the_pair_003() -> None:
    f = held_on_the_board(OLD)
    text = push(f, Tackle("Bob", "Cult", "blow_back"), (100, 20), (4, 2), (4, 2), (100, 10))
    assert "goes with" not in text
    assert (f.state.get("Ann").square, f.state.get("Cult").square) == ("d3", "d6")
    replays(f)


# --- DEFECT 3: 003's pin pulls the pinned one in, from next to the tackler only --------------

def knocked_down(engine: int = ENGINE) -> Fight:
    """003's board: Ann (d3) tackles Cult (d4) down (CO-TACKLE-3); Cult's turn next."""
    f = at(engine, duel(P003, {"weapons": ("fist",), "tackle": 60, "fist": 60},
                        {"weapons": ("knife",), "knife": 50}, settings=TACKLES))
    push(f, Place("Cult", "d4", "N"))
    push(f, Place("Ann", "d3", "N"))
    text = push(f, Tackle("Ann", "Cult", "knock_down"), (100, 30))
    assert "Ann pins it from the next round (CO-TACKLE-3)" in text
    pass_to(f, "Cult")
    return f


def test_the_pin_pulls_the_pinned_one_into_the_tacklers_square_003() -> None:
    """004 l.177 「次のラウンドに押さえ込み処理が発生しその時《組み付き》のルールに派生する」
    with 003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられひと固まり」: Cult, next to Ann,
    is pulled into d3 when the pin takes hold, one unit as any 003 grapple."""
    f = knocked_down()
    text = push(f, EndTurn("Cult"))
    assert "Ann pins Cult: the grapple rules take over (CO-TACKLE-3, CO-GRAP-1)\n" \
           "Cult is pulled into d3 (CO-GRAP-1)" in text
    assert (f.state.get("Ann").grappling, f.state.get("Cult").square) == ("Cult", "d3")
    replays(f)


def test_a_pin_of_one_who_got_away_lapses_003() -> None:
    """Cult walks 3 squares off before the round ends: no pin across the board, said."""
    f = knocked_down()
    text = push(f, Move("Cult", to="d7"))  # its 3 AP: the round ends
    assert "Ann's pin of Cult lapses: Cult is on d7, not next to Ann on d3 " \
           "(CO-TACKLE-3, CO-GRAP-1)" in text
    assert not f.state.get("Ann").grappling and not f.state.get("Cult").held_by
    replays(f)


def test_revision_18_pinned_at_any_distance_003() -> None:
    f = knocked_down(OLD)
    text = push(f, Move("Cult", to="d7"))
    assert "Ann pins Cult" in text and "pulled" not in text
    assert (f.state.get("Cult").held_by, f.state.get("Cult").square) == ("Ann", "d7")
    replays(f)


# --- DEFECT 4: a pin that cannot be made is said, and the knock-down ends with it -----------

def pinned_while_held(engine: int = ENGINE) -> tuple[Fight, int]:
    """004: Cult restrains Ann; then Bob tackles Ann down (CO-TACKLE-3), and play goes on
    to the next round, where the pin would be made. The fight, and the tackle's entry."""
    f = at(engine, duel(P004, {}, {"grapple": 60}, third={"tackle": 60, "fist": 60}))
    pass_to(f, "Cult")
    push(f, Grapple("Cult", "Ann"), (100, 30))
    pass_to(f, "Bob")
    text = push(f, Tackle("Bob", "Ann", "knock_down"), (100, 20))
    assert "Ann is knocked down, no damage; Bob pins it from the next round" in text
    tackled = len(f.journal)
    pass_to(f, "Bob")
    return f, tackled


def test_a_pin_of_one_held_by_another_lapses_said_004() -> None:
    """Ann is Cult's already: Bob's pin cannot become a grapple (CO-GRAP-6 holds one by
    one), so the log says it lapses, and Ann is no longer 転倒/prone."""
    f, tackled = pinned_while_held()
    later = "\n".join(e.text for e in f.journal[tackled:])
    assert "Bob's pin of Ann lapses: Ann is already held by Cult (CO-TACKLE-3, CO-GRAP-6)" \
        in later
    ann = f.state.get("Ann")
    assert ann.held_by == "Cult"
    assert Condition.PRONE not in {c.condition for c in ann.conditions}
    replays(f)


def test_the_prone_mark_goes_when_the_pin_is_made_or_lapses_003() -> None:
    f = knocked_down()
    push(f, Move("Cult", to="d7"))
    assert Condition.PRONE not in {c.condition for c in f.state.get("Cult").conditions}


def test_one_knock_down_at_a_time_003() -> None:
    """003's 3 AP: a second knock-down while a pin waits is refused before any die (the pin
    becomes a grapple, and one holds one); revision 18 took it and forgot the first pin. The
    refusal names the reading that holds one to one hold, beside CO-TACKLE-3 (r77coc NIT)."""
    f = duel(P003, {"weapons": ("fist",), "tackle": 60}, {}, settings=TACKLES, third={})
    push(f, Tackle("Ann", "Cult", "knock_down"), (100, 30))
    refused(f, Tackle("Ann", "Bob", "knock_down"),
            r"^Ann already pins Cult from the next round: one knock-down at a time, as one "
            r"hold \(CO-TACKLE-3; the reading CO-GRAP-1 \(one holder\), coc defaults\)$")
    old = at(OLD, duel(P003, {"weapons": ("fist",), "tackle": 60}, {}, settings=TACKLES,
                       third={}))
    push(old, Tackle("Ann", "Cult", "knock_down"), (100, 30))
    push(old, Tackle("Ann", "Bob", "knock_down"), (100, 30))
    assert old.state.get("Ann").pinning == "Bob"


def test_revision_18_dropped_the_pin_unsaid_and_left_it_prone_004() -> None:
    f, tackled = pinned_while_held(OLD)
    later = "\n".join(e.text for e in f.journal[tackled:])
    assert "lapses" not in later
    assert Condition.PRONE in {c.condition for c in f.state.get("Ann").conditions}
    replays(f)


# --- AMBIGUOUS 6: the restrained (004) act only to break free: no dodge, parry or counter ----

def restrained_cult(engine: int = ENGINE) -> Fight:
    """004: Ann restrains Cult (CO-GRAP-6); Bob, with a knife, to act."""
    f = at(engine, duel(P004, {"grapple": 90}, {"dodge": 50, "martial_arts": 60, "knife": 50,
                                                "weapons": ("knife", "kick")},
                        third={"weapons": ("fist",), "fist": 80}))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    assert f.state.get("Cult").held_by == "Ann"
    return f


@pytest.mark.parametrize("defence", [
    {"defence": Defence.DODGE}, {"defence": Defence.PARRY, "parry_weapon": 0},
    {"defence": Defence.PARRY, "parry_with": "ma"},
    {"defence": Defence.COUNTER, "parry_weapon": 1}])
def test_the_restrained_do_not_defend_004(defence: dict[str, object]) -> None:
    """004 l.163 「組み付いた相手を行動不能にする」, as readings.toml's CO-GRAP-6 says: "a
    restrained target acts only to break free": Bob's punch at restrained Cult takes no
    declared dodge, parry or MA counter, refused before any die and said why."""
    f = restrained_cult()
    refused(f, Attack("Bob", "Cult", **defence),  # type: ignore[arg-type]
            r"^Cult cannot \w+ now: Cult is restrained by Ann: it acts only to break free, "
            r"no dodge, cover, parry or counter \(CO-GRAP-6\)$")
    text = push(f, Attack("Bob", "Cult"), (100, 30), (3, 2), (4, 1))
    assert "Cult takes" in text


def test_the_table_offers_the_restrained_no_defence(tmp_path: Path) -> None:
    make = people(P004, ("Ann", 14, ("fist",), INV, {"grapple": 90}),
                  ("Bob", 12, ("fist",), INV, {"fist": 80}),
                  ("Cult", 10, ("knife",), FOE, {"knife": 50, "dodge": 50}))
    _, player = at_the_table(tmp_path, make, [(Grapple("Ann", "Cult"), [10])],
                             ["attack", "t:Cult", "h:plain", "d:none"],
                             [Attack("Bob", "Cult")])
    assert offered(player, "How does Cult defend?") == [["d:none", "m:more", "back"]]


def test_revision_18_let_the_restrained_dodge_004() -> None:
    f = restrained_cult(OLD)
    text = push(f, Attack("Bob", "Cult", defence=Defence.DODGE), (100, 30), (100, 10))
    assert "Cult 回避/Dodge" in text
    replays(f)


# --- AMBIGUOUS 5, 7, NIT 8: the choices listed as the Defaults they are ----------------------

def readings() -> dict[str, str]:
    return fixed_readings("companion.systems.coc", load_rules(P004).defaults)


def test_what_knocked_down_does_before_the_pin_is_a_listed_reading() -> None:
    """coc71 item 5: 004 l.177 「強制的に対象を転倒させられる」 says nothing of what the fallen
    one may do before the pin; the engine lets it act as usual, listed under CO-TACKLE-3 with
    the board's pull-in and lapse (DEFECT 3), and CO-GRAP-1 says the blow back moves the pair
    (DEFECT 2)."""
    line = readings()["CO-TACKLE-3"]
    assert "knocked down 転倒 is a mark only: the target acts as usual" in line
    assert "the pin lapses, said" in line and "one knock-down at a time" in line
    assert "a tackle's blow back (CO-TACKLE-2" in readings()["CO-GRAP-1"]


def test_the_tackle_options_damage_instead_is_a_listed_reading() -> None:
    """coc71 item 7: CO-TACKLE-1's "the option's effect instead of 1d6+db" (spec Default,
    004 l.175 read either way) is listed, under a part key: CO-TACKLE-1's ap is a setting."""
    line = readings()["CO-TACKLE-1 (option damage)"]
    assert "replaces its 1d6+db" in line and "knock down deals none" in line
    assert "CO-TACKLE-1" not in readings()


def test_the_tackle_option_replaces_the_damage_as_the_reading_says_004() -> None:
    """The reading is what the engine plays: a blow back rolls 1D4+db, not 1d6+db too."""
    f = duel(P004, {"tackle": 60})
    text = push(f, Tackle("Ann", "Cult", "blow_back"), (100, 20), (4, 2), (4, 2), (100, 10))
    assert "(1D4+1D4)" in text and "1D6+1D4" not in text


def test_the_grapples_follow_up_defaults_are_listed() -> None:
    """coc71 NIT 8: the CO-GRAP-5, CO-GRAP-8 and CO-MA-2 Defaults the engine plays (spec
    §3: "follow-up options … resisted only by opposed STR", "the grapple ends when the
    opponent is thrown", "about 2 m", "Choke and Throw each cost the 1 AP") are listed under
    part keys, as each rule keeps a setting or another part."""
    r = readings()
    assert "opposed STR to break free" in r["CO-GRAP-5 (follow-ups)"]
    assert "a throw ends the grapple" in r["CO-GRAP-8 (throw)"]
    assert "about 2 m" in r["CO-GRAP-8 (throw)"] and "(not checked)" in r["CO-GRAP-8 (throw)"]
    assert "the 1 AP a round that a grapple allows" in r["CO-MA-2 (choke and throw)"]
    assert "a throw ends the grapple" in r["CO-MA-2 (choke and throw)"]
