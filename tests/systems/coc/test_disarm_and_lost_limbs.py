"""The coc engine's Disarm, lost arms/hands/fingers and their badges (engine revision 18).

reviewc70's findings on the coc70 fixes (engine revision 18): a table save that revision 17
wrote replays (DEFECT 1: the Disarm menu had a filter of its own, not gated by the revision);
a disarm aimed at a weapon already dropped or broken is refused before any die (RISK 2,
CO-DISARM-1); both arms lost take the hands and fingers on them (RISK 3, CO-BODY-5's
``within``); "no attack this turn 攻撃不可" only while that turn lasts (NIT 5); a refusal that
says "no weapon to lose" once and a part lost twice shown once with its count (NIT 7)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.coc_badges import badges
from companion.app.commands import coc as coc_command
from companion.app.modes.coc import CocFightMode, table_session
from companion.app.modes.fight_file import write_fight_file
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.coc.combat import Attack, Delay, EndTurn, Fight, Side
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.defaults import packaged_text
from tests.app.coc_table_helpers import FOE, INV, SEED, people
from tests.app.table import Player
from tests.systems.coc.helpers import at, duel, pass_to, patch, person, push, refused, replays

#: The revision before revision 18 (coc70's fixes).
OLD = 17
P004 = Profile.P004
SWORD = {"weapons": ("japanese_sword",), "japanese_sword": 90}
KNIFE = {"weapons": ("knife",), "knife": 90}


class Low:
    """Dice that hit (a d100 of 5) and roll every other die at 1: a blow that lands, whatever
    the dice it asks for on the way (damage, the part's losses, bleeding)."""

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        return [5 if sides == 100 else 1] * count


def until(f: Fight, name: str) -> None:
    """End turns until it is ``name``'s (the round's bleeding rolled at 1)."""
    while f.state.current is not None and f.state.current.name != name:
        f.push(EndTurn(f.state.current.name), Low())


# --- DEFECT 1: a revision-17 table save replays -------------------------------------------

@pytest.mark.parametrize(("ann", "script"), [
    # Ann's fist alone: revision 17 offered Disarm (at the fist), so How? was asked
    (("fist",), ["attack", "t:Ann", "h:plain"]),               # saved mid-action
    (("fist",), ["attack", "t:Ann", "h:plain", "d:none"]),
    # a fist and a blackjack: revision 17 asked which, the fist among them
    (("fist", "blackjack"), ["attack", "t:Ann", "h:disarm", "x:0", "d:none"]),
], ids=["mid-action", "plain", "disarm-the-fist"])
def test_a_revision_17_table_save_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          ann: tuple[str, ...], script: list[str]) -> None:
    """A table begun under revision 17 plays on by it (docs/playing.md: "a table save plays
    on by its revision"), its menus offering what 17 took: Cult's knife attack on Ann asked
    How? and Knock which weapon? with her fist among the choices. Resumed under 18, the
    save replays; the Disarm menu's own filter, not gated, refused 'h:plain' and called the
    save corrupt (reviewc70 DEFECT 1)."""
    make = people(P004, ("Cult", 16, ("knife",), FOE, {"knife": 60}),
                  ("Ann", 10, ann, INV, {"fist": 50, "club": 50}))
    told: list[str] = []

    def run(choices: list[str], resume: bool) -> CocFightMode:
        s = table_session(tmp_path / "fight.json", tmp_path / "table.json", resume=resume,
                          seed=SEED, choices=Player(choices), tell=told.append)
        try:
            s.run()
        except KeyboardInterrupt:  # the script ran out: the table stops, its save kept
            pass
        assert isinstance(s.mode, CocFightMode)
        return s.mode

    with monkeypatch.context() as old:
        old.setattr("companion.systems.coc.combat.fight.ENGINE", OLD)
        write_fight_file(tmp_path / "fight.json", make())
        first = run(script, resume=False)
    assert first.fight.engine == OLD
    mode = run([], resume=True)
    assert not any("does not replay" in t for t in told), told
    assert mode.fight.engine == OLD
    assert mode.fight.state == first.fight.state
    assert [e.text for e in mode.fight.journal] == [e.text for e in first.fight.journal]
    assert not (tmp_path / "table.json").with_name("table.json.corrupt").exists()
    assert not list(tmp_path.glob("table.json.corrupt-*"))


# --- RISK 2: no disarm at a weapon already out of the hands -------------------------------

def test_a_disarm_at_a_weapon_on_the_ground_is_refused_before_any_die_004() -> None:
    """CO-DISARM-1: Cult's blackjack, knocked away, is no longer in its hands: a second
    disarm aimed at it is refused before any die. Revision 17 threw the d100, spent the
    attack and only then said "already out of its hands"; its fight replays as played."""
    again = Attack("Ann", "Cult", disarm=True, disarm_weapon=1)
    f = duel(P004, KNIFE, {"weapons": ("fist", "blackjack")})
    push(f, again, (100, 10))
    pass_to(f, "Ann")
    refused(f, again, r"^Cult's ブラックジャック\(靴下と石\)/Sock-and-stone Blackjack is "
                      r"already on the ground, out of its hands \(CO-DISARM-1\); Cult holds "
                      r"no weapon to lose$")
    replays(f)
    old = at(OLD, duel(P004, KNIFE, {"weapons": ("fist", "blackjack")}))
    push(old, again, (100, 10))
    pass_to(old, "Ann")
    assert "is already out of its hands (CO-DISARM-1)" in push(old, again, (100, 10))
    replays(old)


def test_a_disarm_at_a_broken_weapon_names_the_one_to_aim_at_004() -> None:
    """CO-DISARM-1: a broken weapon (CO-PARRY-1/4) is out of the hands too; the refusal
    names the weapon still held."""
    f = duel(P004, KNIFE, {"weapons": ("fist", "blackjack", "knife")})
    cult = f.state.get("Cult")
    arms = list(cult.sheet.weapons)
    arms[1] = replace(arms[1], broken=True)
    patch(f, "Cult", sheet=replace(cult.sheet, weapons=tuple(arms)))
    refused(f, Attack("Ann", "Cult", disarm=True, disarm_weapon=1),
            r"^Cult's ブラックジャック\(靴下と石\)/Sock-and-stone Blackjack is already broken, "
            r"out of its hands \(CO-DISARM-1\); aim at disarm_weapon=2 ナイフ/Knife$")


def test_the_bare_hands_refusal_says_no_weapon_to_lose_once_004() -> None:
    """reviewc70 NIT 7: "…is bare hands, no weapon to lose: … Cult holds no weapon to lose"."""
    f = duel(P004, KNIFE)
    refused(f, Attack("Ann", "Cult", disarm=True),
            r"^Cult's こぶし\(パンチ\)/Fist/Punch is bare hands, which a disarm cannot knock "
            r"away \(CO-DISARM-1\); Cult holds no weapon to lose$")


# --- RISK 3: a hand is on an arm, a finger on a hand ---------------------------------------

def cut(part: str) -> Attack:
    return Attack("Ann", "Cult", body="cut", part=part)


def test_both_arms_lost_take_the_hands_and_fingers_on_them_004() -> None:
    """CO-BODY-5 (004 l.95 「対象の生物学的弱点がない場合は行えない」): Cult loses both arms;
    a hand and a finger are then refused before any die, as each is on what is gone
    (``within``/``per`` in rules.toml). Revision 17 cut a hand off a body with no arm, STR
    and DEX lost anew."""
    f = duel(P004, SWORD)
    for _ in range(2):
        f.push(cut("arm"), Low())
        until(f, "Ann")
    refused(f, cut("hand"), r"^Cult has no hand left to lose: a body has 2 hands, 1 on each "
                            r"arm, and no arm is left \(CO-BODY-5\)$")
    refused(f, cut("finger"), r"^Cult has no finger left to lose: a body has 10 fingers, 5 on "
                              r"each hand, and no hand is left \(CO-BODY-5\)$")
    assert f.state.get("Cult").lost == ("arm", "arm")
    replays(f)
    old = at(OLD, duel(P004, SWORD))
    for _ in range(2):
        old.push(cut("arm"), Low())
        until(old, "Ann")
    old.push(cut("hand"), Low())
    assert old.state.get("Cult").lost == ("arm", "arm", "hand")
    replays(old)


def test_both_hands_lost_take_the_fingers_not_the_arms_004() -> None:
    """CO-BODY-5: with both hands lost no finger is left, but the arms are."""
    f = duel(P004, SWORD)
    for _ in range(2):
        f.push(cut("hand"), Low())
        until(f, "Ann")
    refused(f, cut("finger"), r"no hand is left \(CO-BODY-5\)$")
    f.push(cut("arm"), Low())
    assert f.state.get("Cult").lost == ("hand", "hand", "arm")
    replays(f)


def test_a_hand_then_an_arm_may_leave_a_hand_004() -> None:
    """CO-BODY-5: the sides are not kept, so a hand lost and then an arm (perhaps the bare
    one) leave a hand to lose; only when none can be left is a part refused."""
    f = duel(P004, SWORD)
    for part in ("hand", "arm", "hand"):
        f.push(cut(part), Low())
        until(f, "Ann")
    assert f.state.get("Cult").lost == ("hand", "arm", "hand")
    refused(f, cut("hand"), r"^Cult has no hand left to lose: a body has 2 hands, all lost")


BODY5 = '[source."CO-BODY-5".'


def rules_with(old: str, new: str) -> str:
    text = packaged_text("companion.systems.coc", "rules.toml")
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(("old", "new", "said"), [
    ('within = "arm"\nper = 1\n', 'within = "arm"\n',
     r'\[source\."CO-BODY-5"\.hand\] needs within and per together'),
    ('within = "arm"', 'within = "wing"',
     r"\[source\.\"CO-BODY-5\"\.hand\] within must name another part of "
     r"\[source\.\"CO-BODY-5\"\] \(eye, tongue, arm, hand, finger, leg, torso, head\), "
     r"found 'wing'"),
    (BODY5 + "arm]\ncount = 2\n", BODY5 + 'arm]\ncount = 2\nwithin = "finger"\nper = 1\n',
     r"within goes round in a circle"),
    ("count = 10\nwithin", "count = 12\nwithin",
     r"\[source\.\"CO-BODY-5\"\.finger\] count must be 10 \(per 5 × the hand's count 2\), "
     r"found 12"),
    (BODY5 + "arm]\ncount = 2\n", BODY5 + 'arm]\ncount = 2\nwithin = "arm"\nper = 1\n',
     r"\[source\.\"CO-BODY-5\"\.arm\] within names the part itself, found 'arm'"),
    ("per = 5", "per = 0", r"per .*1 or more"),
])
def test_within_is_checked_when_the_rules_load(old: str, new: str, said: str) -> None:
    """CO-BODY-5's ``within`` and ``per`` in rules.toml: a part it names, no circle, both
    given, ``count`` = ``per`` × that part's count; the packaged data loads."""
    parts = load_rules(P004).source["CO-BODY-5"]
    assert {(k, v.get("within"), v.get("per")) for k, v in parts.items() if "within" in v} == {
        ("hand", "arm", 1), ("finger", "hand", 5)}
    with pytest.raises(DataError, match=r"^rules\.toml: .*" + said):
        load_rules(texts={"rules.toml": rules_with(old, new)})



def test_within_a_part_with_no_count_is_named_not_read_as_none() -> None:
    """A part ``within`` one that has no ``count`` (yet to be refused, later in the table)
    said "count 2 is not per 2 × the head's count None" (reviewcg70b NIT 3)."""
    text = rules_with(BODY5 + "eye]\ncount = 2\n",
                      BODY5 + 'eye]\ncount = 2\nwithin = "head"\nper = 2\n')
    text = text.replace(BODY5 + "head]\ncount = 1\n", BODY5 + "head]\n", 1)
    with pytest.raises(DataError, match=r"^rules\.toml: \[source\.\"CO-BODY-5\"\.eye\] "
                                        r"within 'head', a part with no count \(CO-BODY-5\)$"):
        load_rules(texts={"rules.toml": text})

# --- NIT 5 and NIT 7: the badges -----------------------------------------------------------

def cult_shook_off_the_stun() -> Fight:
    """Profile 003, Ann, Cult and Zed: Ann's stun gun hits Cult, whose CON×5 at its turn's
    start (10) is made: stun 1 → 0, and no attack in that turn (CO-STUN-1, revision 18)."""
    rules = load_rules(Profile.P003)
    f = Fight(rules, [
        (person(rules, "Ann", 14, ("stun_gun",), fist=90), Side.INVESTIGATORS),
        (person(rules, "Cult", 10, fist=50), Side.FOES),
        (person(rules, "Zed", 8, fist=50), Side.FOES)], ScriptedDice([]))
    push(f, Attack("Ann", "Cult"), (100, 10))
    push(f, EndTurn("Ann"), (100, 10))
    return f


def test_no_attack_this_turn_is_said_only_in_that_turn_003() -> None:
    """CO-STUN-1 (revision 18): Cult shook the stun off at its turn's start; "no attack this
    turn 攻撃不可" is said in Cult's turn, and no longer once the turn passed on to Zed in
    the same round (it spoke of "this turn" in another's, reviewc70 NIT 5)."""
    f = cult_shook_off_the_stun()

    def screen() -> tuple[str, ...]:
        return next(row.conditions for row in CocFightMode(f).fight_view().fighters
                    if row.name.ja == "Cult")

    def show() -> tuple[str, list[str]]:
        """Cult's `coc fight show` line and its --json badges."""
        text, data = coc_command._status(f)
        line = next(x for x in text.splitlines() if x[2:].startswith("Cult "))
        return line, next(r["badges"] for r in data["combatants"] if r["name"] == "Cult")

    cult = f.state.get("Cult")
    assert (f.state.round, cult.stun, cult.stun_round) == (1, 0, 1)
    assert "no attack this turn 攻撃不可" in screen()
    line, row = show()
    assert line.endswith("no attack this turn 攻撃不可") and row == ["no attack this turn 攻撃不可"]
    push(f, EndTurn("Cult"))
    assert (f.state.round, f.state.current.name if f.state.current else "") == (1, "Zed")
    assert not any("攻撃不可" in b for b in screen()), screen()
    line, row = show()
    assert "攻撃不可" not in line and row == [], (line, row)
    assert badges(cult, 1, "Cult") == ("no attack this turn 攻撃不可",)
    assert badges(f.state.get("Cult"), 1, "Zed") == ()


def test_a_part_lost_twice_is_one_badge_with_its_count_004() -> None:
    """reviewc70 NIT 7: two eyes lost were "lost 欠損 eye · lost 欠損 eye" on an 800x480 row."""
    gouge = Attack("Ann", "Cult", body="gouge", part="eye")
    f = duel(P004, KNIFE, {"spot_hidden": 60})
    f.push(gouge, Low())
    until(f, "Ann")
    f.push(gouge, Low())
    shown = badges(f.state.get("Cult"), f.state.round, "Ann")
    assert [b for b in shown if b.startswith("lost")] == ["lost 欠損 eye ×2"]
    screen = {row.name.ja: row.conditions for row in CocFightMode(f).fight_view().fighters}
    assert [b for b in screen["Cult"] if b.startswith("lost")] == ["lost 欠損 eye ×2"]


def test_no_attack_this_turn_stays_while_its_dex_half_part_waits_003() -> None:
    """CO-STUN-1 with CO-TURN-1: Cult, shaken off at its turn's start, delays to DEX/2; the
    turn is still to come in Zed's (and barred from attacking there), so it is still said
    (``slot_pending``), and no longer once that DEX/2 part ends."""
    f = cult_shook_off_the_stun()
    push(f, Delay("Cult"))
    assert f.state.current is not None and f.state.current.name == "Zed"
    said = "no attack this turn 攻撃不可"
    assert badges(f.state.get("Cult"), 1, "Zed") == (said,)
    push(f, EndTurn("Zed"))
    assert f.state.current is not None and f.state.current.name == "Cult"
    refused(f, Attack("Cult", "Ann"), r"cannot attack in that turn")
    assert badges(f.state.get("Cult"), 1, "Cult") == (said,)
    push(f, EndTurn("Cult"))
    assert not f.state.get("Cult").slot_pending
    assert badges(f.state.get("Cult"), 1, "Zed") == ()  # round 1's bar said no more
