"""Engine revision 20 (coc72 DEFECT 1): a first strike (CO-FIRE-7), a burst (CO-FIRE-6/8) and
an Iai (CO-IAI-2) meet the options an attack declares before any die, as an attack of shots
does. Revision 19 went down those three ways before the checks: a pistol's first strike with
MA had MA's doubled damage (CO-BASE-6), and a burst took Iai, a pommel strike, shots, MA
options and a melee fumble and played none of them. An Iai from hiding rolls its Hide first
(CO-SURP-1), and ``stray`` is a thrown weapon's only (CO-THROW-2; reviewcoc72 NIT 6).
Entries played by revision 19 replay as they were played."""

from __future__ import annotations

from typing import Any

from companion.systems.coc.combat import ENGINE, Attack
from companion.systems.coc.combat.attacks import EVERY_WAY_CHECKED
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import at, duel, pass_to, push, refused, replays

P003, P004 = Profile.P003, Profile.P004
#: The revision before these fixes.
OLD = 19
#: Ann: an automatic pistol (weapon 0), a submachine gun (1) and her fist (2), with MA.
ANN: dict[str, Any] = {"weapons": ("automatic", "smg", "fist"), "handgun": 60, "smg": 60,
                       "fist": 60, "martial_arts": 60, "hide": 60}
CULT: dict[str, Any] = {"weapons": ("fist",), "fist": 50}


def test_the_revision_is_new() -> None:
    assert ENGINE >= EVERY_WAY_CHECKED == OLD + 1


def test_a_first_strike_with_ma_is_refused_004() -> None:
    """004 「各種格闘技との組み合わせロール」: MA goes with a bare-hand technique, on a first
    strike as on the pistol's own turn. Revision 19 doubled the pistol's damage."""
    f = duel(P004, ANN, CULT)
    refused(f, Attack("Ann", "Cult", 0, first_strike=True, ma=True),
            r"MA goes with Fist, Kick or Head Butt \(CO-MA-1, CO-BASE-6\)")
    refused(f, Attack("Ann", "Cult", 0, first_strike=True, ma=True, ma_option="forced"),
            r"MA goes with Fist")
    old = at(OLD, duel(P004, ANN, CULT))
    text = push(old, Attack("Ann", "Cult", 0, first_strike=True, ma=True), (100, 30),
                (10, 5), (10, 5))
    assert "Automatic Pistol+MA" in text and "doubled, CO-BASE-6" in text
    replays(old)


def test_a_first_strike_is_one_shot_and_no_surprise_004() -> None:
    """004 「火器の"1Rの間の攻撃回数"を消費して使用」: a first strike is one of the weapon's
    attacks, the rest on its turn; a surprise's Hide comes first only on its turn
    (「それらが成功した場合、戦闘技能を使用できる」). Revision 19 fired one shot of shots=3 and
    rolled no Hide."""
    f = duel(P004, ANN, CULT)
    refused(f, Attack("Ann", "Cult", 0, first_strike=True, shots=3),
            r"shots=3: a first strike is one shot, the weapon's other attacks on its turn "
            r"\(CO-FIRE-7\): leave out shots")
    refused(f, Attack("Ann", "Cult", 0, first_strike=True, surprise="hide"),
            r"a surprise attack is an attack on its turn after Hide, Conceal or Sneak "
            r"\(CO-SURP-1\), not a first strike \(CO-FIRE-7\)")
    text = push(f, Attack("Ann", "Cult", 0, first_strike=True), (100, 90))
    assert "1 of 3 attack(s) (CO-FIRE-7)" in text
    old = at(OLD, duel(P004, ANN, CULT))
    text = push(old, Attack("Ann", "Cult", 0, first_strike=True, shots=3, surprise="hide"),
                (100, 90))
    assert "Hide" not in text and "1 of 3 attack(s)" in text
    replays(old)


def test_a_burst_takes_no_iai_ma_shots_or_melee_fumble_003() -> None:
    """003 「＜居合＞技能はそのスキルに該当する武器を所持していなければ使用できない」 and MA only
    with 「＜拳＞＜キック＞＜頭突き＞＜組みつき＞」: a submachine gun's burst is neither; its
    rounds are its own (CO-FIRE-6) and a gun's fumble jams it (CO-FIRE-4), not a fall."""
    f = duel(P003, ANN, CULT)
    burst = Attack("Ann", "Cult", 1, burst=True)
    for more, said in (({"iai": True}, r"Iai needs a Japanese sword or a bokuto, not "
                                       r"サブマシンガン/Submachine Gun \(CO-IAI-1\)"),
                       ({"iai": True, "pommel": True}, r"Iai needs a Japanese sword"),
                       ({"ma": True}, r"MA goes with Fist"),
                       ({"shots": 2}, r"shots=2: a burst fires its own rounds \(CO-FIRE-6, "
                                      r"CO-FIRE-8\): leave out shots"),
                       ({"fumble": "fall"}, r"fumble 'fall' is a melee fumble \(CO-MELEE-4\): "
                                            r"サブマシンガン/Submachine Gun's fumble jams or is "
                                            r"dropped \(CO-FIRE-4\): leave it out")):
        refused(f, Attack(**{**burst.__dict__, **more}), said)
    old = at(OLD, duel(P003, ANN, CULT))
    text = push(old, Attack("Ann", "Cult", 1, burst=True, iai=True, pommel=True, ma=True,
                            fumble="fall"), (100, 90))
    assert "fires a burst" in text and "Iai" not in text
    replays(old)


def test_each_003_shot_is_its_own_attack() -> None:
    """003 (CO-TURN-6): each shot is an attack of 1 AP, so shots=2 is refused, not played as
    one; revision 19 fired one."""
    f = duel(P003, ANN, CULT)
    refused(f, Attack("Ann", "Cult", 0, shots=2),
            r"shots=2: in 003 each shot is an attack of 1 AP \(CO-TURN-6\): leave out shots")
    old = at(OLD, duel(P003, ANN, CULT))
    push(old, Attack("Ann", "Cult", 0, shots=2), (100, 90))
    assert old.state.get("Ann").sheet.weapons[0].loaded == old.states[0].get(
        "Ann").sheet.weapons[0].loaded - 1
    replays(old)


#: Ann's Japanese sword, with Iai and Hide.
SWORD: dict[str, Any] = {"weapons": ("japanese_sword",), "japanese_sword": 60, "iai": 70,
                         "hide": 60}
#: 003 with its optional surprise attacks (CO-SURP-1) played.
SURPRISE_ON = {"CO-SURP-1": {"p003": "optional_on"}}


def test_an_iai_is_one_blow_003() -> None:
    """CO-IAI-2: an Iai is one draw-and-strike with no AP; a surprise with it needs 003's
    optional CO-SURP-1, refused by name where it is off."""
    f = duel(P003, SWORD, CULT)
    refused(f, Attack("Ann", "Cult", iai=True, surprise="hide"),
            r"surprise attacks are CO-SURP-1, off in this profile")
    refused(f, Attack("Ann", "Cult", iai=True, shots=2), r"shots=2: an Iai is one blow")
    pass_to(f, "Ann")
    text = push(f, Attack("Ann", "Cult", iai=True), (100, 90))
    assert "Iai, no AP (CO-IAI-2)" in text


def test_an_iai_from_hiding_rolls_its_hide_first_003() -> None:
    """reviewcoc72 NIT 6: 004 「それらが成功した場合、戦闘技能を使用できる」: any combat skill
    after the Hide roll, an Iai too: the Hide, the Iai undefended, then the target's Luck
    −10% to spot Ann (CO-SURP-1). Revision 20 had refused it; 19 struck with no Hide, the
    surprise dropped unsaid."""
    f = duel(P003, SWORD, CULT, settings=SURPRISE_ON)
    text = push(f, Attack("Ann", "Cult", iai=True, surprise="hide"), (100, 30), (100, 20),
                (10, 5), (4, 2), (100, 90))
    hide, draw, spot = (text.index(s) for s in (
        "Ann 隠れる/Hide (1D100<=60) ＞ 30", "Ann draws and strikes: Iai",
        "Cult looks for Ann: 幸運/Luck"))
    assert hide < draw < spot and "Cult takes 7" in text
    assert f.state.get("Ann").iai_used and f.state.get("Ann").drawn
    replays(f)
    old = at(OLD, duel(P003, SWORD, CULT, settings=SURPRISE_ON))
    text = push(old, Attack("Ann", "Cult", iai=True, surprise="hide"), (100, 90))
    assert "隠れる/Hide" not in text and "Ann 居合/Iai (1D100<=70) ＞ 90" in text
    replays(old)


def test_a_failed_hide_spends_the_rounds_iai_003() -> None:
    """The Hide failed: no surprise and the action spent (CO-SURP-1), so the round's one Iai
    (CO-IAI-2) with the blade still sheathed."""
    f = duel(P003, SWORD, CULT, settings=SURPRISE_ON)
    text = push(f, Attack("Ann", "Cult", iai=True, surprise="hide"), (100, 90))
    assert "Ann is not hidden: no surprise, the action is spent (CO-SURP-1)" in text
    assert "draws and strikes" not in text
    ann = f.state.get("Ann")
    assert ann.iai_used and not ann.drawn
    refused(f, Attack("Ann", "Cult", iai=True), r"Iai once a round \(CO-IAI-2\)")
    replays(f)


def test_stray_is_a_thrown_weapons_004() -> None:
    """reviewcoc72 NIT 6: ``stray`` names whom a fumbled throw may hit (CO-THROW-2); on a
    pistol, on its turn or striking first, it was taken and did nothing."""
    f = duel(P004, ANN, CULT)
    why = (r"stray=Cult is whom a fumbled throw may hit \(CO-THROW-2\): "
           r"拳銃\(オートマチック\)/Automatic Pistol is not thrown: leave it out")
    refused(f, Attack("Ann", "Cult", 0, stray="Cult"), why)
    refused(f, Attack("Ann", "Cult", 0, first_strike=True, stray="Cult"), why)
    old = at(OLD, duel(P004, ANN, CULT))
    text = push(old, Attack("Ann", "Cult", 0, stray="Cult"), (100, 90))
    assert "Automatic Pistol (1D100<=60) ＞ 90" in text
    replays(old)
