"""`genso` gear on the body: readied weapons, armour, shields and magic rings
(GM-EQUIP-1/2/3, GM-ITEM-3); GM-EQUIP-1's Default ``two_hands_no_shield``: no shield with
a weapon held in two hands."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalAction
from companion.systems.genso.character.core import Character, Hand, rings_work
from companion.systems.genso.rules import GensoRules, Grip, Item, Slot


def _set(character: Character, attr: str, value: Any, **more: Any) -> Character:
    """``replace`` with a field chosen at run time (armour or shield, left or right hand)."""
    changes: dict[str, Any] = {attr: value, **more}
    return replace(character, **changes)


class NoHandFree(IllegalAction):
    """GM-EQUIP-1 Default ``two_hands_no_shield``: a two-handed weapon and a shield, refused
    in game words; ``items``, the keys of those to take off first, one for each readied
    (r77genso: of two two-handed weapons only the first was named), for a caller that names
    how (a77gensotown NIT 10: the refusal gave `genso gear SHEET shield --off`, a
    placeholder, where every other gear hint gives the program and the sheet). ``first``
    ends on what to do first, where that hint goes, before ``why``, the setting
    (r77genso: put after the setting's own parenthesis, the hint read as the setting's)."""

    def __init__(self, first: str, items: tuple[str, ...], why: str) -> None:
        super().__init__(f"{first}; {why}")
        self.first, self.items, self.why = first, items, why


def drop_one(items: tuple[str, ...], key: str) -> tuple[str, ...]:
    """``items`` without the first ``key`` in it."""
    index = items.index(key)
    return items[:index] + items[index + 1:]


def equip(rules: GensoRules, character: Character, key: str) -> Character:
    """GM-EQUIP-1/2/3: ready a carried weapon, or wear carried armour or a shield.

    A weapon readied becomes weapon 0, the one a fight strikes with unless told another
    (``fight attack --weapon``): GM-EQUIP-1 names no weapon first, and a player who buys a
    sword and readies it means to strike with it. Those held before follow it in their
    order; a sheet keeps its order as written and a fight keeps the sheet it began with
    (:class:`.combat.entrants.Entrant`), so neither changes meaning.
    The armour or shield taken off goes back into the pack. A weapon readied already, and
    none of its kind in the pack, moves to the front, as weapon 0 (a77gensotown DEFECT 4:
    `gear Ben knife` said Ben carried no knife, while Ben held it as weapon 1).
    """
    item = rules.item(key)
    if item.key not in character.equipment:
        if item.slot is Slot.WEAPON and item.key in character.weapons:
            if character.weapons[0] == item.key:
                raise IllegalAction(f"{character.name} already has {item.name} readied as "
                                    "weapon 0: nothing to change (the sheet is left as it "
                                    "was)")
            return replace(character, weapons=(item.key,
                                               *drop_one(character.weapons, item.key)))
        raise IllegalAction(f"{character.name} carries no {item.name} to equip")
    pack = drop_one(character.equipment, item.key)
    _no_shield_with_two_hands(rules, character, item)
    if item.slot is Slot.WEAPON:
        return replace(character, equipment=pack, weapons=(item.key, *character.weapons))
    if item.slot in (Slot.ARMOR, Slot.SHIELD):
        attr = "armor" if item.slot is Slot.ARMOR else "shield"
        old = getattr(character, attr)
        return _set(character, attr, item.key, equipment=pack + ((old,) if old else ()))
    raise IllegalAction(f"{item.name} cannot be equipped: only weapons, armour, shields and "
                        "magic rings (worn on a hand) are")


def two_handed(rules: GensoRules, character: Character) -> list[Item]:
    """The readied weapons held in two hands (使用法 両手, GM-EQUIP-1)."""
    return [rules.item(k) for k in character.weapons if rules.item(k).grip is Grip.TWO_HANDS]


def _no_shield_with_two_hands(rules: GensoRules, character: Character, item: Item) -> None:
    """GM-EQUIP-1 Default ``two_hands_no_shield`` (rules.toml): a weapon held in two hands
    (両手) leaves no hand for a shield, so neither is put on while the other is."""
    if not rules.default("GM-EQUIP-1", "two_hands_no_shield"):
        return
    setting = ("GM-EQUIP-1 Default: a weapon held in two hands (両手) leaves no hand for a "
               "shield (--set GM-EQUIP-1.two_hands_no_shield=false allows both)")
    if item.slot is Slot.WEAPON and item.grip is Grip.TWO_HANDS and character.shield:
        shield = rules.item(character.shield)
        raise NoHandFree(f"{character.name} wears {shield.name}, so {item.name} cannot be "
                         f"readied: take {shield.name} off first", (shield.key,), setting)
    if item.slot is Slot.SHIELD and (held := two_handed(rules, character)):
        names = ", ".join(w.name for w in held)
        raise NoHandFree(f"{character.name} has {names} readied, held in two hands, so "
                         f"{item.name} cannot be worn: put {names} in the pack first",
                         tuple(w.key for w in held), setting)


def unequip(rules: GensoRules, character: Character, key: str) -> Character:
    """Put a readied weapon, worn armour or shield back into the pack."""
    item = rules.item(key)
    if item.key in character.weapons:
        return replace(character, weapons=drop_one(character.weapons, item.key),
                       equipment=(*character.equipment, item.key))
    for attr in ("armor", "shield"):
        if getattr(character, attr) == item.key:
            return _set(character, attr, None, equipment=(*character.equipment, item.key))
    raise IllegalAction(f"{character.name} has no {item.name} readied or worn")


def storage_capacity(rules: GensoRules, character: Character) -> int:
    """GM-ITEM-3 蓄積の指輪/Ring of Storage 「５ＭＰを蓄積できる指輪。」: the most MP the worn
    Rings of Storage hold, 5 for each one worn, one on each hand at most while rings work.

    ``storage_mp`` is the MP they hold together, one pool: the seed does not say which of two
    rings a spell's MP comes from, and ``fight cast --ring`` pays from what they hold. A ring
    stopped by a second ring on its hand counts too: it keeps what it holds, which is not
    to be spent while it is stopped (a fight counts none, :func:`.combatants.from_character`).
    """
    worn = (*character.rings_left, *character.rings_right).count("ring_storage")
    return worn * int(rules.num("GM-ITEM-3", "storage"))


def ring_hands(character: Character, key: str) -> tuple[Hand, ...]:
    """The hands ``key`` is worn on, left first (a ring of a kind on each hand is both)."""
    return tuple(hand for hand, worn in ((Hand.LEFT, character.rings_left),
                                         (Hand.RIGHT, character.rings_right)) if key in worn)


def moved_from(rules: GensoRules, character: Character, key: str, hand: Hand) -> Hand | None:
    """The hand a ring put on ``hand`` moves from: None when one is in the pack (it goes on
    from there), the other hand when it is worn there only, not in the pack; refused when
    it is neither carried nor worn, or worn on ``hand`` already, whatever the other hand
    wears (genso67 RISK 1: that said "carries no magic ring" of a ring worn; reviewg67
    RISK 1: with one on each hand, it moved the other hand's onto ``hand``, its MP lost and
    every ring stopped, for a hand named by a slip)."""
    item = rules.item(key)
    if item.key in character.equipment:
        return None
    hands = ring_hands(character, item.key)
    if not hands:
        raise IllegalAction(f"{character.name} carries no magic ring {item.name}")
    if hand in hands:
        raise IllegalAction(f"{character.name} wears {item.name} on the {hand.text} hand "
                            "already, and carries none in the pack to put on")
    return hands[0]


@dataclass(frozen=True)
class RingPutOn:
    """A ring put on (:func:`ring_put_on`): the hand it moved from (None: from the pack),
    the character once it is off that hand (the character as it was, from the pack), and
    once it is on."""

    moved_from: Hand | None
    off: Character
    on: Character


def put_on_ring(rules: GensoRules, character: Character, key: str, hand: Hand) -> Character:
    """GM-ITEM-3: wear a carried magic ring, or move one worn on the other hand
    (:func:`ring_put_on`, whose character once it is on this gives)."""
    return ring_put_on(rules, character, key, hand).on


def ring_put_on(rules: GensoRules, character: Character, key: str, hand: Hand) -> RingPutOn:
    """GM-ITEM-3: wear a carried magic ring; a Ring of Storage absorbs up to 5 MP at once.

    「指輪をつけた時点で５ＭＰをつけた生物から吸収する。」: each Ring of Storage takes its own 5
    (MP the wearer has), added to what the rings already worn hold (:func:`storage_capacity`),
    so one on each hand (「片手に２個以上」 is what stops them) take 10 and hold 10.
    MP taken below 1 leaves the wearer incapacitated (GM-COMBAT-8, shown by the tracker).
    A Ring of Storage put on where no ring works (two on one hand) absorbs nothing: 「全ての
    魔法の指輪が機能しなくなる」 takes in its own absorbing, which happens 「指輪をつけた時点で」,
    so it holds no MP until it is put on again where rings work. A second ring put on over
    a Ring of Storage that holds MP stops it and takes nothing from it: the MP stays stored,
    not to be spent while it is stopped.

    A ring of ``key`` not in the pack but worn on the other hand is moved to ``hand``
    (genso67 RISK 1): the seed forbids no move, which is a take-off and a put-on
    (:func:`take_off_ring`, then the put-on), so a Ring of Storage empties and absorbs again
    (readings.toml "GM-ITEM-3 (storage)"). One worn on ``hand`` already is refused as so
    (:func:`moved_from`). The move is here only (reviewg67 NIT 6): the command says it
    from the steps this gives.
    """
    item = rules.item(key)
    if item.slot is not Slot.RING:
        raise IllegalAction(f"{item.name} is no magic ring (指輪, GM-ITEM-3) to put on a hand")
    moved = moved_from(rules, character, item.key, hand)
    off = character if moved is None else take_off_ring(rules, character, item.key, moved)
    attr = "rings_left" if hand is Hand.LEFT else "rings_right"
    worn = _set(off, attr, (*getattr(off, attr), item.key),
                equipment=drop_one(off.equipment, item.key))
    if item.key == "ring_storage" and rings_work(rules, worn):
        taken = min(rules.num("GM-ITEM-3", "storage"), max(off.mp, 0))
        worn = replace(worn, mp=off.mp - taken, storage_mp=off.storage_mp + taken)
    return RingPutOn(moved, off, worn)


def take_off_ring(rules: GensoRules, character: Character, key: str,
                  hand: Hand | None = None) -> Character:
    """GM-ITEM-3: take a ring off (from ``hand``, else the first hand it is worn on); a Ring
    of Storage keeps no MP once off, and fills again only as it is put on.

    The seed is silent on a ring taken off; 「指輪をつけた時点で５ＭＰ…吸収する」, 5 each time
    it goes on, reads as a ring that goes on empty, so what it held is lost as it comes off
    (readings.toml "GM-ITEM-3 (storage)", listed by ``genso defaults``; the MP lost is
    :func:`storage_lost`, which the command names, genso67 RISK 1).

    With two Rings of Storage worn, the one taken off takes away only what the other cannot
    hold (:func:`storage_capacity`): of their one pool, the MP spent is counted against the
    ring taken off, so the ring still worn keeps up to its 5. That is the most the player
    could have kept by paying from that ring first, and the sheet needs no MP per ring.
    """
    item = rules.item(key)
    for side, attr in ((Hand.LEFT, "rings_left"), (Hand.RIGHT, "rings_right")):
        worn: tuple[str, ...] = getattr(character, attr)
        if item.key in worn and hand in (None, side):
            changed = _set(character, attr, drop_one(worn, item.key),
                           equipment=(*character.equipment, item.key))
            return replace(changed, storage_mp=min(changed.storage_mp,
                                                   storage_capacity(rules, changed)))
    where = f" on the {hand.text} hand" if hand is not None else ""
    raise IllegalAction(f"{character.name} wears no {item.name}{where}")


def storage_lost(before: Character, after: Character) -> int:
    """GM-ITEM-3: the stored MP a take-off (or a move) lost, before any put-on absorbed
    again: what the Rings of Storage held less what they hold once it is off."""
    return max(before.storage_mp - after.storage_mp, 0)


def held_or_worn(character: Character) -> tuple[str | None, ...]:
    """The items ``character`` holds or wears (readied weapons, armour, shield, rings)."""
    return (*character.weapons, character.armor, character.shield, *character.rings_left,
            *character.rings_right)
