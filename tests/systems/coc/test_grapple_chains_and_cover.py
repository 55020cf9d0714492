"""The coc engine's grapple chains blown back, and a restrained one taking no cover.

reviewcoc71 (the review of engine revision 19), fixed within revision 19, which was never
released; entries played by revision 18 replay as they were played.

DEFECT 1 (CO-GRAP-6, CO-DODGE-7): a 004 restrained one takes no cover either, Hide as Dodge:
cover is a reaction, as the dodge and parry revision 19 already refused it.

DEFECT 2 (CO-TACKLE-2, CO-GRAP-1): seed 003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられ
ひと固まりとして考える」: a blow back moves every partner sharing the target's square, the one
it holds and the one holding it (a chain of grapples); revision 19 as first made moved the
held one only, and a holder on the square stayed behind, holding from 4 squares away.

RISK 1 (CO-TACKLE-3, CO-GRAP-1): the pin on 003's board pulls the pinned one into the
tackler's square with the one it holds (l.33 「ひと固まり」: the pair is one unit), rather
than lapse, which would bar a pin where a grapple of a holder is allowed; revision 19 as first
made pulled the holder away and left the one it held on the old square.

RISK 2 (CO-GRAP-5, CO-PARRY-2): seed 004 l.24 「組み付き技能は、近接戦闘技能や長身の火器で受け流
されてしまう」: the table's defence menu offers a long gun's parry where the engine takes it;
it listed melee weapons only.

NIT 2 (CO-GRAP-5, CO-PARRY-2, CO-DODGE-2): a grapple parry naming a fist as its
``parry_weapon`` is told to write parry_with=hands (003: parry_with=ma). Seed 003 l.97
「1ラウンド中に＜回避＞を1回、＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回それぞれ
行う事ができる。」 lists Iai among the round's parries beside MA and a weapon, which parry a 003
grapple, so from revision 19 an Iai parries a 003 grapple too (the round's one Iai, drawing the
blade, CO-IAI-2/3); revision 19 as first made refused it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice import ScriptedDice
from companion.systems.coc.combat import (
    ENGINE,
    Attack,
    Defence,
    EndTurn,
    Fight,
    Grapple,
    Place,
    Side,
    Tackle,
)
from companion.systems.coc.rules import Profile, load_rules
from tests.app.coc_table_helpers import FOE, INV, at_the_table, offered, people
from tests.systems.coc.helpers import at, duel, patch, person, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before revision 19.
OLD = 18


# --- DEFECT 1: the restrained (004) take no cover, Hide or Dodge -----------------------------

def shot_at_the_restrained(engine: int = ENGINE) -> Fight:
    """004: Ann restrains Cult (CO-GRAP-6); Bob, with a revolver, to shoot it."""
    f = at(engine, duel(P004, {"grapple": 90},
                        {"dodge": 50, "hide": 50, "weapons": ("knife",)},
                        third={"weapons": ("revolver",), "handgun": 80}))
    push(f, Grapple("Ann", "Cult"), (100, 10))
    assert f.state.get("Cult").held_by == "Ann"
    return f


@pytest.mark.parametrize("cover", ["hide", "dodge"])
def test_the_restrained_take_no_cover_004(cover: str) -> None:
    """004 l.163 「組み付いた相手を行動不能にする」, as readings.toml's CO-GRAP-6 says: "a
    restrained target acts only to break free": Cult takes cover from Bob's shot neither by
    Hide nor by Dodge (CO-DODGE-7), refused before any die and said why."""
    f = shot_at_the_restrained()
    refused(f, Attack("Bob", "Cult", cover=cover),
            r"^Cult cannot take cover now: Cult is restrained by Ann: it acts only to break "
            r"free, no dodge, cover, parry or counter \(CO-GRAP-6\)$")
    text = push(f, Attack("Bob", "Cult"), (100, 30), (10, 2))
    assert "takes cover" not in text and "Cult takes 2" in text
    replays(f)


def test_revision_18_let_the_restrained_hide_004() -> None:
    f = shot_at_the_restrained(OLD)
    text = push(f, Attack("Bob", "Cult", cover="hide"), (100, 30), (100, 10))
    assert "Cult takes cover: 隠れる/Hide" in text
    replays(f)


def test_the_table_offers_the_restrained_no_cover(tmp_path: Path) -> None:
    make = people(P004, ("Ann", 14, ("fist",), INV, {"grapple": 90}),
                  ("Bob", 12, ("revolver",), INV, {"handgun": 80}),
                  ("Cult", 10, ("knife",), FOE, {"knife": 50, "dodge": 50, "hide": 50}))
    _, player = at_the_table(tmp_path, make, [(Grapple("Ann", "Cult"), [10])],
                             ["attack", "t:Cult", "h:plain", "d:none"],
                             [Attack("Bob", "Cult")])
    assert offered(player, "How does Cult defend?") == [["d:none", "m:more", "back"]]


# --- DEFECT 2: a blow back moves every partner on the target's square ------------------------

#: 003's optional tackle rules, switched on.
TACKLES = {f"CO-TACKLE-{n}": {"p003": "optional_on"} for n in (1, 2, 3)}


class Faces(ScriptedDice):
    """The edge of the world: each D100 from ``d100`` in turn (then 90, a failure for
    every roll these fights ask); every other die shows 2."""

    def __init__(self, d100: list[int]) -> None:
        super().__init__([])
        self.queue = list(d100)

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        if sides == 100:
            return [self.queue.pop(0) if self.queue else 90 for _ in range(count)]
        return [min(2, sides)] * count


def play(f: Fight, action: object, *d100: int) -> str:
    return f.push(action, Faces(list(d100))).text


def pass_on(f: Fight, name: str) -> None:
    """Every turn ends, each roll failing (90), until ``name``'s turn."""
    while f.state.current.name != name:
        play(f, EndTurn(f.state.current.name))


def four_on_the_board(engine: int = ENGINE) -> Fight:
    """003's board: Dan (c2, tackle), Ann (d2), Cult (d3) and Bob (d4)."""
    rules = load_rules(P003).with_overrides(TACKLES)
    f = at(engine, Fight(rules, [
        (person(rules, "Dan", 16, tackle=60), Side.INVESTIGATORS),
        (person(rules, "Ann", 14, grapple=60, tackle=60), Side.INVESTIGATORS),
        (person(rules, "Cult", 10, grapple=60), Side.FOES),
        (person(rules, "Bob", 12), Side.INVESTIGATORS)], ScriptedDice([])))
    for name, square, facing in (("Dan", "c2", "E"), ("Ann", "d2", "S"), ("Cult", "d3", "N"),
                                 ("Bob", "d4", "N")):
        push(f, Place(name, square, facing))
    return f


def chain(engine: int = ENGINE) -> Fight:
    """Cult grapples Bob; then Ann grapples Cult, pulled into d2 (CO-GRAP-1): Cult holds Bob
    and is held by Ann, who shares its square; Dan to act."""
    f = four_on_the_board(engine)
    pass_on(f, "Cult")
    play(f, Grapple("Cult", "Bob"), 20)
    pass_on(f, "Ann")
    play(f, Grapple("Ann", "Cult"), 20)
    pass_on(f, "Dan")
    assert (f.state.get("Cult").grappling, f.state.get("Cult").held_by) == ("Bob", "Ann")
    assert f.state.get("Ann").square == f.state.get("Cult").square == "d2"
    return f


def test_a_blow_back_takes_the_targets_holder_along_003() -> None:
    """003 l.33 「ひと固まりとして考える」: Dan blows Cult back (CO-TACKLE-2); Ann, who holds
    it from its square, goes along, though Cult holds Bob too, so the grapple holds from
    one square, not across the board. From revision 21 Bob, pulled onto d2 with Cult when
    Ann grappled it (the Default "CO-GRAP-1 (chain)"), goes along too: the chain is one unit."""
    f = chain()
    text = play(f, Tackle("Dan", "Cult", "blow_back"), 20)
    assert "Cult is blown back to g2 (CO-TACKLE-2, 1 m = 1 square, CO-TURN-2)\n" \
           "Bob goes with Cult to g2: one unit (CO-GRAP-1)\n" \
           "Ann goes with Cult to g2: one unit (CO-GRAP-1)" in text
    assert f.state.get("Ann").square == f.state.get("Cult").square == "g2"
    assert f.state.get("Cult").held_by == "Ann"
    replays(f)


def test_revision_18_blew_the_holder_out_of_the_chain_003() -> None:
    f = chain(OLD)
    text = play(f, Tackle("Dan", "Cult", "blow_back"), 20)
    assert "goes with" not in text
    assert (f.state.get("Ann").square, f.state.get("Cult").square) == ("d2", "g2")
    replays(f)


# --- RISK 1: the pin pulls a holder in with the one it holds --------------------------------

def pinned_holder(engine: int = ENGINE) -> tuple[Fight, str]:
    """Ann (d2) knocks Cult (d3) down (CO-TACKLE-3); Cult then grapples Bob, pulled into d3;
    the round ends, and the pin is made. The fight, and the round's start text."""
    f = four_on_the_board(engine)
    pass_on(f, "Ann")
    assert "Ann pins it from the next round" in play(f, Tackle("Ann", "Cult", "knock_down"), 20)
    pass_on(f, "Cult")
    text = play(f, Grapple("Cult", "Bob"), 20)  # its 1 AP (CO-GRAP-3): the round ends
    assert "Bob is pulled into d3 (CO-GRAP-1)" in text
    assert f.state.round == 2
    return f, text


def test_the_pin_pulls_a_holder_in_with_the_one_it_holds_003() -> None:
    """003 l.33 「＜組みつき＞対象は探索者のマスに引き寄せられひと固まりとして考える」: Cult and
    Bob are one unit, so Ann's pin pulls both into d2; then Dan's blow back of Cult takes
    all three along (DEFECT 2), the chain one unit."""
    f, text = pinned_holder()
    assert "Ann pins Cult: the grapple rules take over (CO-TACKLE-3, CO-GRAP-1)\n" \
           "Cult is pulled into d2 (CO-GRAP-1)\n" \
           "Bob goes with Cult to d2: one unit (CO-GRAP-1)" in text
    assert {f.state.get(n).square for n in ("Ann", "Cult", "Bob")} == {"d2"}
    assert (f.state.get("Cult").held_by, f.state.get("Bob").held_by) == ("Ann", "Cult")
    pass_on(f, "Dan")
    blown = play(f, Tackle("Dan", "Cult", "blow_back"), 20, 10)  # 10: Cult's CON×5
    assert "Bob goes with Cult to g2" in blown and "Ann goes with Cult to g2" in blown
    assert {f.state.get(n).square for n in ("Ann", "Cult", "Bob")} == {"g2"}
    replays(f)


def test_revision_18_pinned_the_holder_where_it_lay_003() -> None:
    f, text = pinned_holder(OLD)
    assert "Ann pins Cult" in text
    assert "Cult is pulled" not in text and "Bob goes with" not in text
    assert (f.state.get("Cult").square, f.state.get("Bob").square) == ("d3", "d3")
    replays(f)


# --- RISK 2: the table offers a long gun's parry --------------------------------------------

def test_the_table_offers_a_long_guns_parry_of_a_grapple_004(tmp_path: Path) -> None:
    """004 l.24 「長身の火器で受け流されてしまう」: Cult's rifle parries Ann's grapple at the
    table, as the engine takes it (CO-GRAP-5); a revolver, no long gun, is not offered."""
    make = people(P004, ("Ann", 14, ("fist",), INV, {"grapple": 60}),
                  ("Bob", 12, ("fist",), INV, {"fist": 80}),
                  ("Cult", 10, ("rifle", "revolver"), FOE, {"rifle": 50, "dodge": 50}))
    mode, player = at_the_table(tmp_path, make, [],
                                ["grapple", "t:Cult", "h:plain", "d:parry:0"],
                                [Grapple("Ann", "Cult", Defence.PARRY, 0)])
    [menu] = offered(player, "How does Cult defend?")
    assert "d:parry:0" in menu and "d:parry:1" not in menu
    assert "Cult 受け流し/parry ライフル" in mode.fight.journal[-1].text


# --- NIT 2: a fist named as the parrying weapon; 003's Iai parry of a grapple ---------------

def test_a_fist_named_as_a_grapples_parrying_weapon_is_told_parry_with() -> None:
    f = duel(P004, {"grapple": 60}, {"weapons": ("fist",), "fist": 60})
    refused(f, Grapple("Ann", "Cult", Defence.PARRY, parry_weapon=0),
            r"^Cult cannot parry now: its こぶし\(パンチ\)/Fist/Punch is no parrying weapon; "
            r"a bare-handed parry of a grapple is parry_with=hands \(CO-PARRY-2\)$")
    f = duel(P003, {"grapple": 60}, {"weapons": ("fist",), "martial_arts": 60})
    refused(f, Grapple("Ann", "Cult", Defence.PARRY, parry_weapon=0),
            r"is no parrying weapon; a bare-handed parry of a grapple is parry_with=ma "
            r"\(CO-DODGE-2\)$")
    old = at(OLD, duel(P004, {"grapple": 60}, {"weapons": ("fist",), "fist": 60}))
    refused(old, Grapple("Ann", "Cult", Defence.PARRY, parry_weapon=0),
            r"is no parrying weapon$")  # revision 18 knew no parry_with


SAMURAI = {"weapons": ("japanese_sword",), "japanese_sword": 60, "iai": 70}


def test_an_iai_parries_a_grapple_003() -> None:
    """003 l.97 「＜マーシャルアーツ＞＜居合＞、武器での受け流しのどれかを1回」: Cult parries
    Ann's grapple by Iai, its round's one Iai, the blade drawn (CO-IAI-2/3)."""
    f = duel(P003, {"grapple": 60}, SAMURAI)
    text = push(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="iai"),
                (100, 20), (100, 10))
    assert "Cult 受け流し/parry 居合/Iai 日本刀/Japanese Sword (1D100<=70) ＞ 10" in text
    assert text.endswith("the grapple is parried (CO-DODGE-2)")
    cult = f.state.get("Cult")
    assert (cult.held_by, cult.iai_used, cult.drawn, cult.parries) == ("", True, True, 1)
    replays(f)


def test_no_iai_parry_of_a_grapple_with_the_blade_out_or_in_004() -> None:
    """CO-IAI-3: with the blade out there is no Iai; 004 has no Iai; revision 18 knew no
    parry_with."""
    f = duel(P003, {"grapple": 60}, SAMURAI)
    patch(f, "Cult", drawn=True)
    refused(f, Grapple("Ann", "Cult", Defence.PARRY, parry_with="iai"),
            r"^Cult cannot parry now: no Iai parry now \(CO-DODGE-2, CO-IAI-2, CO-IAI-3\)$")
    refused(duel(P004, {"grapple": 60}, SAMURAI),
            Grapple("Ann", "Cult", Defence.PARRY, parry_with="iai"),
            r"^Cult cannot parry now: no Iai parry: CO-IAI-2 is not played in profile 004")
    refused(at(OLD, duel(P003, {"grapple": 60}, SAMURAI)),
            Grapple("Ann", "Cult", Defence.PARRY, parry_with="iai"),
            r"by revision 18: leave out parry_with")


def test_the_table_offers_an_iai_parry_of_a_grapple_003(tmp_path: Path) -> None:
    make = people(P003, ("Ann", 14, ("fist",), INV, {"grapple": 60}),
                  ("Bob", 12, ("fist",), INV, {"fist": 60}),
                  ("Cult", 10, ("japanese_sword",), FOE, {"japanese_sword": 60, "iai": 70}))
    mode, player = at_the_table(tmp_path, make, [],
                                ["grapple", "t:Cult", "h:plain", "d:parry:iai0"],
                                [Grapple("Ann", "Cult", Defence.PARRY, parry_with="iai")])
    [menu] = offered(player, "How does Cult defend?")
    assert "d:parry:iai0" in menu and "d:parry:0" in menu
    assert "Cult 受け流し/parry 居合/Iai" in mode.fight.journal[-1].text
