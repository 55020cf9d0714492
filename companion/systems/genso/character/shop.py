"""The `genso` shop: prices, buying and selling, mana stones (GM-EQUIP, GM-ITEM-1/2/3,
GM-ECON-1/2); the coins themselves are :mod:`companion.systems.genso.money`."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.genso.character.core import Character, rates
from companion.systems.genso.character.gear import drop_one, held_or_worn
from companion.systems.genso.money import Purse, times
from companion.systems.genso.rules import GensoRules, Item, Slot


class HeldNotInPack(IllegalAction):
    """A sale of an item the character holds or wears (only the pack's goods are sold):
    ``item`` is its key, for a caller that names how it is taken off."""

    def __init__(self, message: str, item: str) -> None:
        super().__init__(message)
        self.item = item


def _set_price(item: Item, price: int) -> int:
    """GM-EQUIP-3: a price the GM sets for an おおよそ (about) one, or for ordinary goods
    sold (no buy-back in the seed); the seed bounds it no further, but a price is 1 silver
    or more: the seed has no gift in its shop (GM-ECON), and 0 bought a Sword+1 for nothing
    and unsaid (a76gensofight RISK 2). A thing given or thrown away is taken off the sheet
    by hand."""
    if price < 1:
        raise IllegalAction(f"{item.name}: a price the GM sets is 1 silver (銀貨) or more, "
                            f"found {price}; the shop has no gift (GM-ECON): to give it or "
                            "throw it away, edit equipment in the sheet")
    return price


def listed_about(item: Item, sold: bool = False) -> tuple[int, Purse] | None:
    """GM-EQUIP-3: the おおよそ (about) price the seed lists for ``item``, in silver and in
    its coins (the sale's, or the buy-back's when ``sold``), that a price the GM sets is
    told beside; None when the item has no such price."""
    if not item.price_about:
        return None
    silver, coins = (item.buyback, item.buyback_coins) if sold else (item.price,
                                                                   item.price_coins)
    if silver is None or coins is None:
        return None
    return silver, coins


def price_of(rules: GensoRules, item: Item, price: int | None = None,
             take_back: bool = False) -> int:
    """GM-EQUIP, GM-ECON-2: an item's price in silver; a "～" price may be set higher, an
    おおよそ (about) one higher or lower (GM-EQUIP-3: 販売はおおよそ金貨１００枚). A
    ``take_back`` buy of goods with no buy-back price undoes a sale at the price the GM set
    for it (:func:`sale`), so that price is taken: the warning of a sale far below the list
    gives that buy (a77gensotown DEFECT 2: it was refused, and iron armour sold for 24
    silver by mistake came back only by editing the sheet)."""
    if item.price is None:
        raise IllegalAction(f"{item.name} is not for sale in the price tables")
    if price is None:
        return item.price
    if item.price_about or (take_back and item.buyback is None):
        return _set_price(item, price)
    if price < item.price or (price != item.price and not item.price_from):
        written = f"{item.price_coins.text()}, that is " if item.price_coins else ""
        raise IllegalAction(f"{item.name} costs {written}{item.price} silver"
                            + (" or more (～)" if item.price_from else ""))
    return price


def price_coins(rules: GensoRules, item: Item, price: int | None = None,
                take_back: bool = False) -> Purse:
    """GM-ECON-2: what :func:`price_of` charges, in the coins the seed writes the price in;
    a price set otherwise ("～", おおよそ, a take-back's) is given in silver, so it is shown
    in silver."""
    silver = price_of(rules, item, price, take_back)
    if silver == item.price and item.price_coins is not None:
        return item.price_coins
    return Purse(silver=silver)


def is_mana_stone(rules: GensoRules, name: str) -> bool:
    """Is ``name`` the mana stone (魔力石), by key or by its Japanese or English name?"""
    stone = rules.mana_stone
    return name in ("mana_stone", stone["ja"]) or name.lower() == str(stone["en"]).lower()


def buy(rules: GensoRules, character: Character, key: str, price: int | None = None,
        take_back: bool = False) -> Character:
    """GM-EQUIP-1/2/3, GM-ITEM-2/3, GM-ECON-1/2: pay for an item and put it in the pack;
    ``take_back`` as :func:`price_of` takes it.

    Services are paid and leave nothing in the pack. Money never goes below zero.
    """
    item = rules.item(key)
    purse = character.purse.pay(price_of(rules, item, price, take_back), rates(rules),
                                price_coins(rules, item, price, take_back))
    if item.slot is Slot.SERVICE:
        return replace(character, purse=purse)
    return replace(character, purse=purse, equipment=(*character.equipment, item.key))


def mana_stone_price(rules: GensoRules, mp: int) -> tuple[int, Purse]:
    """GM-ITEM-1: a mana stone of ``mp`` MP's price, in silver and in the coins the seed
    prices it in (PG 6-4: the shop's 4 MP stone 大銀貨２枚, else 2 silver per MP)."""
    stone = rules.mana_stone
    if mp == stone["shop_mp"]:
        return stone["shop_price"], stone["coins"]["shop_price"]
    return mp * stone["sale_per_mp"], times(stone["coins"]["sale_per_mp"], mp)


def buy_mana_stone(rules: GensoRules, character: Character, mp: int | None = None) -> Character:
    """GM-ITEM-1: a mana stone of 1–5 MP at 2 silver per MP (PG 6-4: 4 MP for 2 large silver)."""
    stone = rules.mana_stone
    mp = stone["shop_mp"] if mp is None else mp
    if not stone["min_mp"] <= mp <= stone["max_mp"]:
        raise IllegalAction(f"GM-ITEM-1: a mana stone holds {stone['min_mp']}–"
                            f"{stone['max_mp']} MP, found {mp}")
    cost, coins = mana_stone_price(rules, mp)
    purse = character.purse.pay(cost, rates(rules), coins)
    return replace(character, purse=purse, mana_stones=(*character.mana_stones, mp))


def mana_stone_index(rules: GensoRules, character: Character, key: str) -> int | None:
    """Which carried mana stone ``key`` names (``mana_stone:N``, N counted from 0, or just
    ``mana_stone`` when there is one), or None when ``key`` is no mana stone."""
    name, sep, number = key.partition(":")
    if not is_mana_stone(rules, name):
        return None
    stones = character.mana_stones
    listed = ", ".join(f"mana_stone:{i} ({mp} MP)" for i, mp in enumerate(stones))
    if not stones:
        raise IllegalAction(f"{character.name} carries no mana stone (魔力石)")
    if not sep:
        if len(stones) == 1:
            return 0
        raise IllegalAction(f"{character.name} carries {len(stones)} mana stones; name one: "
                            f"{listed}")
    if not number.strip().isdecimal():
        raise IllegalAction(f"{key!r}: a mana stone is sold as mana_stone:N, N its number "
                            f"from 0 ({listed})")
    index = int(number)
    if index >= len(stones):
        raise IllegalAction(f"{character.name} has no mana stone {index} ({listed})")
    return index


def sale(rules: GensoRules, character: Character, key: str,
         price: int | None = None) -> tuple[Character, int, Purse]:
    """GM-EQUIP-3, GM-ITEM-1/2/3: sell an item the rules give a buy-back price for.

    Returns the character, the silver received and that sum in the coins the seed prices
    it in. A mana stone is ``mana_stone`` (or 魔力石) when only one is carried, else
    ``mana_stone:N`` (N counted from 0); it fetches 1 silver per MP left, or 1 silver used.
    A used magic stone is ``used:KEY``. ``price`` (silver) is the GM's: for an おおよそ
    buy-back (GM-EQUIP-3: 買取はおおよそ金貨５０枚), and for ordinary goods, which have no
    buy-back price in the seed (only magic weapons, armour, shields, stones and rings do), so
    they sell only at a price the GM sets. Every other buy-back is the seed's own number.
    """
    index = mana_stone_index(rules, character, key)
    own = ("the seed's buy-back for {} is its own number, not an おおよそ (about) one the "
           "GM sets: sell it without a price")
    if index is not None:
        if price is not None:
            raise IllegalAction(own.format(f"{rules.mana_stone['ja']}/{rules.mana_stone['en']}"))
        left = character.mana_stones[index]
        stone = rules.mana_stone
        paid = left * stone["buyback_per_mp"] if left else stone["used_buyback"]
        coins = (times(stone["coins"]["buyback_per_mp"], left) if left
                 else stone["coins"]["used_buyback"])
        stones = character.mana_stones[:index] + character.mana_stones[index + 1:]
        return replace(character, mana_stones=stones,
                       purse=character.purse.receive(paid, rates(rules))), paid, coins
    used = key.startswith("used:")
    item = rules.item(key.removeprefix("used:"))
    # What is carried is asked before any price: a sale of what the character does not have
    # asked for a price first, then said it was not there.
    carried = f"used:{item.key}" if used else item.key
    if carried not in character.equipment:
        if not used and item.key in held_or_worn(character):
            raise HeldNotInPack(f"{character.name} holds {item.name} (readied or worn, not in "
                                "the pack): take it off first, then sell it", item.key)
        raise IllegalAction(f"{character.name} carries no {'used ' if used else ''}"
                            f"{item.name} in the pack")
    paid_or_none = item.used_buyback if used else item.buyback
    coins_or_none = item.used_buyback_coins if used else item.buyback_coins
    if paid_or_none is None or coins_or_none is None:
        if price is None:
            raise IllegalAction(f"the seed gives no buy-back price for {item.name}: give the "
                                "price the GM sets (the silver received)")
        paid_or_none, coins_or_none = _set_price(item, price), Purse(silver=price)
    elif price is not None:
        if used or not item.price_about:
            raise IllegalAction(own.format(("used " if used else "") + item.name))
        paid_or_none, coins_or_none = _set_price(item, price), Purse(silver=price)
    return (_printed_kept(replace(character, equipment=drop_one(character.equipment, carried),
                                  purse=character.purse.receive(paid_or_none, rates(rules)))),
            paid_or_none, coins_or_none)


def _printed_kept(character: Character) -> Character:
    """An NPC's printed striking power and protection (Appendix A.3) belong to its own item:
    sold, the item takes its printed number with it, and one bought again is the shop's.
    Kept, the sheet would name an item it no longer has and not load."""
    owned = {*character.weapons, *character.equipment, character.armor, character.shield}
    return replace(character,
                   printed_power={k: v for k, v in character.printed_power.items()
                                  if k in owned},
                   printed_protection={k: v for k, v in character.printed_protection.items()
                                       if k in owned})


def sell(rules: GensoRules, character: Character, key: str) -> tuple[Character, int]:
    """:func:`sale` without the coins: the character and the silver received."""
    after, paid, _ = sale(rules, character, key)
    return after, paid
