"""`genso` characters: the sheet and what is derived from it (:mod:`.core`), and one module
each for creation, gear, the shop, recovery and growth.

The package names the functions the `genso` commands call as ``chars.buy``,
``chars.rest``, …; other code imports the modules.
"""

from companion.systems.genso.character.core import condition
from companion.systems.genso.character.creation import create_character
from companion.systems.genso.character.gear import (
    equip,
    put_on_ring,
    storage_capacity,
    take_off_ring,
    unequip,
)
from companion.systems.genso.character.growth import (
    GROWTH_CHOICES,
    award_experience,
    spend_experience,
)
from companion.systems.genso.character.recovery import rest, sleep
from companion.systems.genso.character.shop import (
    HeldNotInPack,
    buy,
    buy_mana_stone,
    is_mana_stone,
    price_coins,
    sale,
)

__all__ = [
    "GROWTH_CHOICES",
    "HeldNotInPack",
    "award_experience",
    "buy",
    "buy_mana_stone",
    "condition",
    "create_character",
    "equip",
    "is_mana_stone",
    "price_coins",
    "put_on_ring",
    "rest",
    "sale",
    "sleep",
    "spend_experience",
    "storage_capacity",
    "take_off_ring",
    "unequip",
]
