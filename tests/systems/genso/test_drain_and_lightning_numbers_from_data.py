"""The genso fight engine's GM-MAGIC-7 drain and GM-MAGIC-11 multiplier from rules data.

genso62: the seed's numbers the fight engine used as constants, read from rules data
([source]): GM-MAGIC-7's 「不死族からの攻撃のダメージをー２」 in the drain line's wording (it said a
literal "−2 each"), GM-MAGIC-11's 「魔力値ｘ２」 (``magic * 2`` in the code). The packaged
numbers play as before; a changed number changes the result and the words."""

from __future__ import annotations

from importlib.resources import files

from companion.dice import ScriptedDice
from companion.systems.genso.combat import Attack, Cast, Fight, Wait, entrants_for
from companion.systems.genso.rules import GensoRules, load_rules
from companion.systems.genso.sheet import preset

RULES = load_rules()
KNIGHT, FAIRY = "騎士（男性）", "一般的な森妖精の冒険者"


def rules_with(old: str, new: str) -> GensoRules:
    text = files("companion.systems.genso").joinpath("data", "rules.toml").read_text("utf-8")
    assert old in text
    return load_rules({"rules.toml": text.replace(old, new)})


def d6(*values: int) -> ScriptedDice:
    return ScriptedDice((6, v) for v in values)


def warded_wight_hit(rules: GensoRules) -> tuple[str, int, int]:
    """A Wight's full attack (drain HP −6, MP −6) on a knight under Protection (PG)."""
    fight = Fight(rules, entrants_for(rules, [preset(rules, "knight_m"),
                                              preset(rules, "forest_fairy")], [("wight", 1)]))
    fight.push(Wait(KNIGHT), d6())
    fight.push(Cast(FAIRY, "protection", (KNIGHT,)), d6())
    entry = fight.push(Attack("ワイト", KNIGHT, full=True), d6(1, 1))
    knight = fight.state.get(KNIGHT)
    drained = next(line.text for line in entry.lines if line.rule == "GM-MON-4")
    return drained, knight.hp, knight.mp


def test_gm_magic_7_the_drain_line_says_the_datas_reduction() -> None:
    text, hp, mp = warded_wight_hit(RULES)
    assert "防護呪/Protection −2 each" in text and "HP −4, MP −4" in text
    assert (hp, mp) == (12, 4)
    text, hp, mp = warded_wight_hit(rules_with("undead_damage_reduction = 2",
                                               "undead_damage_reduction = 3"))
    assert "防護呪/Protection −3 each" in text and "HP −3, MP −3" in text
    assert (hp, mp) == (13, 5)


def lightning_line(rules: GensoRules) -> str:
    fight = Fight(rules, entrants_for(rules, [preset(rules, "forest_fairy")], [("orc", 1)]))
    entry = fight.push(Cast(FAIRY, "lightning", ("オーク",)), d6())
    return next(line.text for line in entry.lines if line.rule == "GM-MAGIC-11"
                and "takes" in line.text)


def test_gm_magic_11_lightnings_multiplier_is_read_from_rules_data() -> None:
    """The forest fairy's Magic is 12: 24 damage by the seed's ×2, 36 were the data ×3."""
    assert lightning_line(RULES) == "オーク takes 24 damage"
    assert lightning_line(rules_with("magic_multiplier = 2",
                                     "magic_multiplier = 3")) == "オーク takes 36 damage"
