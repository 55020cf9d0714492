"""The burst read again against its seed lines (engine revision 4): its one roll is a single
shot's, with every to-hit modifier, the range refusal and the range damage divisor (CO-FIRE-6,
CO-FIRE-8 with CO-RANGE-1/2/3, CO-FIRE-5, CO-DODGE-5); its grade is every bullet's, a critical
ignoring the armour and a special impaling (CO-FIRE-3, CO-BASE-2); it takes no parry, refused
before any die (CO-FIRE-6); it comes after no first strike (CO-FIRE-7, CO-FIRE-8). Entries
played by revision 3 replay as they were played."""

from __future__ import annotations

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import ENGINE, Attack, Defence, Fight
from companion.systems.coc.rules import Profile
from tests.systems.coc.helpers import OLD, duel, pass_to, push, replays

P003, P004 = Profile.P003, Profile.P004
VEST = [{"name": "vest", "value": 2, "durability": 20}]
MACHINE_PISTOL = {"key": "machine_pistol", "ja": "マシンピストル", "en": "Machine pistol",
                  "kind": "firearm", "skill": "handgun", "damage": "1D10", "db": "none",
                  "attacks": 3, "burst": 20, "magazine": 20, "range_m": 15}


# --- D1: a shot's skill, range refusal and range damage (CO-FIRE-6/8, CO-RANGE, CO-FIRE-5) ---

def test_a_burst_at_3x_range_rolls_at_a_third_and_each_bullet_does_a_third_004() -> None:
    """004 「2倍の距離を打つ場合に…技能値を「半分」…3倍では1/3」 and 「距離による弾丸の減衰
    ダメージも同様に"3倍では1/3"」 (CO-RANGE-2): an AK47 (90 m) at 270 m bursts at 60/3 = 20,
    as a single shot does, and the two bullets' 26 is 8, 4 a bullet (rounded once on the
    burst's damage through the armour from revision 22). Revision 3 rolled at 60, full damage."""
    def fight(engine: int) -> Fight:
        f = duel(P004, {"weapons": ("ak47",), "rifle": 60})
        f.engine = engine
        return f

    burst = Attack("Ann", "Cult", burst=True, distance_m=270)
    f = fight(ENGINE)
    text = push(f, burst, (100, 15), (20, 2), (6, 6), (6, 6), (6, 6), (6, 6))
    assert "base 60 ×1/3 (270 m, 3× range, CO-RANGE-2) = 20" in text
    assert "(1D100<=20)" in text and text.count("= 13 ÷3 = 13/3 exactly") == 2
    assert "the burst's damage through so far 26/3, rounded 8 (§0.3): this bullet's part 4" \
        in text
    assert f.state.get("Cult").hp == 13 - 8
    shot = fight(ENGINE)
    assert "(1D100<=20)" in push(shot, Attack("Ann", "Cult", distance_m=270), (100, 99))
    old = fight(OLD)
    text = push(old, burst, (100, 15), (20, 1), (6, 1), (6, 1))
    assert "(1D100<=60)" in text and old.state.get("Cult").hp == 13 - 3
    replays(f)
    replays(old)


def test_a_burst_beyond_4x_range_is_refused_before_any_die_004() -> None:
    """CO-RANGE-2's Default: beyond 4× the base range the attack is not possible, a burst as
    a single shot (400 m with a 90 m AK47)."""
    f = duel(P004, {"weapons": ("ak47",), "rifle": 60})
    for attack in (Attack("Ann", "Cult", distance_m=400),
                   Attack("Ann", "Cult", burst=True, distance_m=400)):
        with pytest.raises(IllegalAction, match=r"beyond 4× the base range 90 m \(CO-RANGE-2\)"):
            f.push(attack, ScriptedDice([]))


def test_a_burst_after_dodging_is_at_minus_50_as_a_shot_004() -> None:
    """004 「"回避した後の攻撃"は"-50％の下方補正"」 (CO-DODGE-5): Cult dodged Ann's punch and,
    the Keeper allowing, bursts at 60−50 = 10 (30 misses), as its single shot would."""
    def fight() -> Fight:
        f = duel(P004, {"fist": 60}, {"weapons": ("smg",), "smg": 60})
        push(f, Attack("Ann", "Cult", defence=Defence.DODGE), (100, 10), (100, 10))
        return f

    f = fight()
    text = push(f, Attack("Cult", "Ann", burst=True, after_dodge=True), (100, 30))
    assert "base 60 -50 (after dodging, CO-DODGE-5) = 10" in text and "(1D100<=10)" in text
    assert f.state.get("Ann").hp == 13
    shot = fight()
    assert "(1D100<=10)" in push(shot, Attack("Cult", "Ann", after_dodge=True), (100, 30))


def test_an_adjacent_burst_gets_the_adjacent_shot_s_plus_15_003() -> None:
    """003 「隣接状態での射撃の場合、命中率+15％してよい」 (CO-FIRE-5): an adjacent SMG burst rolls
    at 50+15 = 65 (60 hits), as an adjacent pistol shot does."""
    f = duel(P003, {"weapons": ("smg",), "smg": 50})
    text = push(f, Attack("Ann", "Cult", burst=True, adjacent=True), (100, 60), (20, 1),
                (10, 3))
    assert "base 50 +15 (adjacent, CO-FIRE-5) = 65" in text and "(1D100<=65)" in text
    assert f.state.get("Cult").hp == 13 - 5
    pistol = duel(P003, {"weapons": ("automatic",), "handgun": 50})
    assert "(1D100<=65)" in push(pistol, Attack("Ann", "Cult", adjacent=True), (100, 99))


# --- D2: the burst's grade (CO-FIRE-3, CO-BASE-2, CO-CORE-4) --------------------------------

def test_a_critical_burst_ignores_the_armour_of_every_bullet_003() -> None:
    """003 「クリティカル(01～05)が出た場合、敵の装甲値を無視してダメージを与える」 (CO-FIRE-3):
    05 at SMG 20 is a critical (not a special, 20/5 = 4): both bullets, 7 and 3, ignore the
    vest, whose durability stays 20. Revision 3 let the vest stop 2 of each."""
    f = duel(P003, {"weapons": ("smg",), "smg": 20}, {"armour": VEST})
    text = push(f, Attack("Ann", "Cult", burst=True), (100, 5), (20, 2), (10, 5), (10, 1))
    assert "critical: the armour is ignored for every bullet (CO-FIRE-3)" in text
    assert "vest stops" not in text
    cult = f.state.get("Cult")
    assert cult.hp == 13 - 10 and cult.sheet.armour[0].durability == 20
    old = duel(P003, {"weapons": ("smg",), "smg": 20}, {"armour": VEST})
    old.engine = OLD
    push(old, Attack("Ann", "Cult", burst=True), (100, 5), (20, 2), (10, 5), (10, 1))
    assert old.state.get("Cult").hp == 13 - 5 - 1
    replays(f)


def test_a_special_burst_impales_every_bullet_003_and_is_a_success_004() -> None:
    """CO-BASE-2 (on in 003): a special (08 at SMG 50, ≤ 10) with an impaling gun rolls each
    bullet's damage twice, the one roll's grade being every bullet's; in 004 a special is a
    normal success (CO-CORE-4, 「そもそも処理しない」)."""
    f = duel(P003, {"weapons": ("smg",), "smg": 50})
    text = push(f, Attack("Ann", "Cult", burst=True), (100, 8), (20, 2),
                (10, 1), (10, 1), (10, 1), (10, 1))
    assert text.count("(impale, CO-BASE-2) = 6") == 2 and f.state.get("Cult").hp == 13 - 12
    g = duel(P004, {"weapons": ("smg",), "smg": 50})
    text = push(g, Attack("Ann", "Cult", burst=True), (100, 8), (20, 1), (10, 1))
    assert "(special: no special table, a normal success, CO-CORE-4) = 3" in text
    assert g.state.get("Cult").hp == 13 - 3


# --- D3: no parry against a burst (CO-FIRE-6, CO-FIRE-5) ------------------------------------

def test_an_adjacent_burst_takes_no_parry_refused_before_any_die_003() -> None:
    """003 「判定の順序は、命中判定⇒命中数判定⇒回避判定⇒ダメージ判定」, 「敵の回避判定は＜回避＞ -
    命中数で行う」 (CO-FIRE-6): the burst's defence is the dodge; the parry that 「隣接状態での
    射撃」 opens (CO-FIRE-5) is a single shot's. A declared parry is refused before any die,
    not taken and dropped; the adjacent pistol shot is still parried."""
    cult = {"weapons": ("knife",), "knife": 50}
    f = duel(P003, {"weapons": ("smg",), "smg": 50}, cult)
    with pytest.raises(IllegalAction, match=r"a burst is dodged, not parried: Cult declares "
                                            r"a dodge or none \(CO-FIRE-6\)"):
        f.push(Attack("Ann", "Cult", burst=True, adjacent=True, defence=Defence.PARRY),
               ScriptedDice([]))
    text = push(f, Attack("Ann", "Cult", burst=True, adjacent=True, defence=Defence.DODGE),
                (100, 60), (20, 1), (100, 99), (10, 3))
    assert "Dodge − 1 hits, CO-FIRE-6" in text and f.state.get("Cult").hp == 13 - 5
    pistol = duel(P003, {"weapons": ("automatic",), "handgun": 50}, cult)
    text = push(pistol, Attack("Ann", "Cult", adjacent=True, defence=Defence.PARRY),
                (100, 40), (10, 1), (100, 10))
    assert "(CO-FIRE-5)" in text and pistol.state.get("Ann").no_more_shots


# --- D4: no burst after a first strike (CO-FIRE-7, CO-FIRE-8) -------------------------------

def test_no_burst_after_a_first_strike_004() -> None:
    """004 「攻撃回数が1回の武器ならそのラウンドは攻撃できない」 and 「"連射"を使用する場合、
    "重火器先制"のルールは使えない」: after Ann's first strike with a 1-attack SMG, no burst that
    round; with a 3-attack machine pistol her 2 shots are left, but still no burst. A burst
    the next round is played."""
    f = duel(P004, {"weapons": ("smg",), "smg": 50})
    push(f, Attack("Ann", "Cult", first_strike=True), (100, 99))
    pass_to(f, "Ann")
    with pytest.raises(IllegalAction, match=r"Ann struck first this round: no burst "
                                            r"\(CO-FIRE-7, CO-FIRE-8\)"):
        f.push(Attack("Ann", "Cult", burst=True), ScriptedDice([]))
    with pytest.raises(IllegalAction, match="first strike"):
        f.push(Attack("Ann", "Cult"), ScriptedDice([]))
    g = duel(P004, {"weapons": (MACHINE_PISTOL,), "handgun": 50})
    push(g, Attack("Ann", "Cult", first_strike=True), (100, 99))
    pass_to(g, "Ann")
    with pytest.raises(IllegalAction, match="no burst"):
        g.push(Attack("Ann", "Cult", burst=True), ScriptedDice([]))
    push(g, Attack("Ann", "Cult", shots=2), (100, 99), (100, 99))
    pass_to(g, "Ann")
    assert g.state.round == 2
    assert "fires a burst" in push(g, Attack("Ann", "Cult", burst=True), (100, 99))
