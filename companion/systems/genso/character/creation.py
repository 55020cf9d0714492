"""Making a new `genso` PC by the seed's tables (GM-CHAR-1 to GM-CHAR-7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.dice import DiceSource, Result
from companion.errors import IllegalAction
from companion.systems.defaults import DEFAULT_TAG, refuse_control
from companion.systems.genso.character.core import Character, Kind
from companion.systems.genso.money import Purse
from companion.systems.genso.rules import ABILITIES, GensoRules, Slot


@dataclass(frozen=True)
class Creation:
    """A new PC and the rolls that made it (GM-CHAR-1/2/3), each with its table and row."""

    character: Character
    rolls: tuple[tuple[str, Result, str], ...]


def create_character(
    rules: GensoRules,
    source: DiceSource,
    *,
    name: str,
    sex: str,
    age: int,
    abilities: Mapping[str, int],
    skill: str,
) -> Creation:
    """GM-CHAR-1 to GM-CHAR-7: a PC by the seed's tables, every roll from ``source``.

    Birth, want and dislike are rolled on 1D tables; age is 15–17; 6, 5 and 4 go to
    Body, Perception and Magic one each; one starting skill is chosen; the basic kit is
    free and the purse holds the starting money (:func:`starting_money`).
    """
    low, high = rules.num("GM-CHAR-4", "age_min"), rules.num("GM-CHAR-4", "age_max")
    if not low <= age <= high:
        raise IllegalAction(f"GM-CHAR-4: a PC's age must be from {low} to {high} (１５～１７才), "
                            f"found {age}")
    if not name.strip():
        raise IllegalAction("GM-CHAR-4: a PC needs a name")
    # Both are printed on the sheet, and the name names its file too.
    refuse_control(name, "name")
    refuse_control(sex, "sex")
    wanted = sorted(rules.num("GM-CHAR-5", "ability_values"), reverse=True)
    if set(abilities) != set(ABILITIES) or sorted(abilities.values(), reverse=True) != wanted:
        raise IllegalAction(
            "GM-CHAR-5: give Body, Perception and Magic (体力・知覚力・魔力) the values "
            f"{', '.join(map(str, wanted))}, one each; got "
            + ", ".join(f"{rules.abilities.get(k, {}).get('en', k)} {v}"
                        for k, v in abilities.items())
        )
    skills = rules.num("GM-CHAR-6", "skills")
    if skill not in skills:
        raise IllegalAction(f"GM-CHAR-6: choose one starting skill of {', '.join(skills)}")
    rolls = []
    picked: dict[str, str] = {}
    for key in ("birth", "want", "dislike"):
        table = rules.tables[key]
        result, row = table.roll_on(source)
        picked[key] = row["ja"]
        rolls.append((table.rule, result, f"{table.title}: {row['ja']}/{row['en']}"))
    kit = [rules.item(k) for k in rules.num("GM-CHAR-7", "kit")]
    money = starting_money(rules)
    body, magic = abilities["body"], abilities["magic"]
    character = Character(
        name=name.strip(), kind=Kind.PC, body=body, perception=abilities["perception"],
        magic=magic, hp=body * rules.num("GM-CORE-3", "hp_per_body"),
        mp=magic * rules.num("GM-CORE-3", "mp_per_magic"), sex=sex, age=age,
        birth=picked["birth"], want=picked["want"], dislike=picked["dislike"],
        combat=1 if skill == "combat" else 0, search=1 if skill == "search" else 0,
        spells=(rules.num("GM-CHAR-6", "magic_spell"),) if skill == "magic" else (),
        weapons=tuple(i.key for i in kit if i.slot is Slot.WEAPON),
        equipment=tuple(i.key for i in kit if i.slot is not Slot.WEAPON),
        purse=money,
    )
    return Creation(character, tuple(rolls))


#: The coins of GM-CHAR-7's starting money, each a Default.
MONEY_KEYS = ("gold", "large_silver", "silver")


def starting_money(rules: GensoRules) -> Purse:
    """GM-CHAR-7's starting money: a Default (the rule's 金貨４枚、大銀貨２０枚, where sample
    PC 1 holds 大銀貨２０枚 alone)."""
    return Purse(*(int(rules.default("GM-CHAR-7", coin)) for coin in MONEY_KEYS))


def starting_money_tag(rules: GensoRules) -> str:
    """" (default)" while the user has set none of the starting coins."""
    tags = {rules.settings.tag("GM-CHAR-7", coin) for coin in MONEY_KEYS}
    return DEFAULT_TAG if tags == {DEFAULT_TAG} else ""
