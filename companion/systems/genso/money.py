"""Money in the seed's three coins (GM-ECON-1): 1 gold = 20 large silver = 80 silver."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import IllegalAction

COIN_NAMES = (("gold", "金貨", "gold"), ("large_silver", "大銀貨", "large silver"),
              ("silver", "銀貨", "silver"))


class NotEnoughMoney(IllegalAction):
    """A purchase or fee the purse cannot pay; money never goes below zero."""


@dataclass(frozen=True, slots=True)
class Rates:
    """GM-ECON-1 exchange: large silver per gold, silver per large silver (the seed's
    numbers, from the rules data: :func:`.character.rates`)."""

    large_per_gold: int
    silver_per_large: int

    @property
    def silver_per_gold(self) -> int:
        return self.large_per_gold * self.silver_per_large


@dataclass(frozen=True, slots=True)
class Purse:
    """Coins held: 金貨 gold, 大銀貨 large silver, 銀貨 silver; none below zero."""

    gold: int = 0
    large_silver: int = 0
    silver: int = 0

    def __post_init__(self) -> None:
        if min(self.gold, self.large_silver, self.silver) < 0:
            raise NotEnoughMoney(f"a purse cannot hold fewer than 0 coins: {self}")

    def value(self, rates: Rates) -> int:
        """GM-ECON-1: what the purse is worth in silver."""
        return (self.gold * rates.silver_per_gold + self.large_silver * rates.silver_per_large
                + self.silver)

    def pay(self, price: int, rates: Rates, shown: Purse | None = None) -> Purse:
        """GM-ECON-1: pay ``price`` silver, smallest coins first, taking change in smaller coins.

        A larger coin is broken only when the smaller ones run out, as a player hands
        over coins at a counter; the change comes back in the next smaller coin.
        ``shown`` is the price in the coins it is written in, for the refusal.
        """
        if price < 0:
            raise ValueError("a price is never negative")
        if price > self.value(rates):
            said = coins_text(shown) if shown is not None else price_text(price, rates)
            raise NotEnoughMoney(f"{said} is more than the purse holds ({self.text()})")
        silver, large, gold = self.silver, self.large_silver, self.gold
        owed = price
        paid = min(silver, owed)
        silver -= paid
        owed -= paid
        if owed:
            # Break as few large silver as needed; their change comes back as silver.
            needed = -(-owed // rates.silver_per_large)
            use = min(large, needed)
            large -= use
            owed -= use * rates.silver_per_large
        if owed > 0:
            needed = -(-owed // rates.silver_per_gold)
            gold -= needed
            owed -= needed * rates.silver_per_gold
        change = -owed
        large += change // rates.silver_per_large
        silver += change % rates.silver_per_large
        return Purse(gold, large, silver)

    def receive(self, amount: int, rates: Rates) -> Purse:
        """Take ``amount`` silver in the largest coins it makes (a shop pays out so)."""
        gold, rest = divmod(amount, rates.silver_per_gold)
        large, silver = divmod(rest, rates.silver_per_large)
        return Purse(self.gold + gold, self.large_silver + large, self.silver + silver)

    def text(self) -> str:
        parts = [f"{ja}{n}枚 ({n} {en})" for (key, ja, en) in COIN_NAMES
                 for n in [getattr(self, key)] if n]
        return "、".join(parts) or "無一文 (no money)"


def price_text(silver: int, rates: Rates) -> str:
    """An amount in silver shown in the largest coins: ``金貨2枚 (2 gold)``."""
    return Purse().receive(silver, rates).text() if silver else "無料 (free)"


def coins_text(coins: Purse) -> str:
    """A price in the coins it is written in, as the seed words it: 普通の宿 is ``銀貨4枚
    (4 silver)``, never changed to 大銀貨1枚 (GM-ECON-1, GM-ECON-2)."""
    return coins.text() if (coins.gold or coins.large_silver or coins.silver) else "無料 (free)"


def times(coins: Purse, count: int) -> Purse:
    """``count`` times a price in its own coins: 3 MP at 銀貨1枚 each is 銀貨3枚 (GM-ITEM-1)."""
    return Purse(coins.gold * count, coins.large_silver * count, coins.silver * count)
