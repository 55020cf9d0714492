"""What a display shows after every step (spec §9), as plain data.

Displays (screen, terminal) render a :class:`View` and nothing else, so they
never depend on the rules engine's internals; the session builds the view from
the game. (The display backends in ``companion.hw.display`` name these types
for type checking only; at run time they just read attributes.) Every name
the player reads has its Japanese and English form.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hw.buttons import Button


@dataclass(frozen=True, slots=True)
class Name:
    """A name in both languages, e.g. ``Name("大蛇", "snake")``."""

    ja: str
    en: str

    def __str__(self) -> str:
        if not self.ja or self.ja == self.en:
            return self.en
        return f"{self.ja} {self.en}"


@dataclass(frozen=True, slots=True)
class TileView:
    """One tile on the table and what it means on this floor (JR-MAP-2)."""

    tile: str  # MPSZ, "back" or "empty"
    meaning: Name  # "大蛇 snake", "回復薬 healing potion", "階段 stairs"
    detail: str = ""  # "asleep 眠", "defeated", "gold 30"


@dataclass(frozen=True, slots=True)
class SheetView:
    """The PC sheet (JR-PC-1). ``strength`` is None when the rule is off (EZ)."""

    level: int
    xp: int
    xp_next: int | None  # None at the top level
    hp: int
    hp_max: int
    gold: int
    weapon: Name
    weapon_attack: int
    ranged: Name
    ranged_attack: int
    ammo: int
    armour: Name
    armour_defence: int
    strength: int | None = None
    rings: tuple[Name, ...] = ()
    states: tuple[Name, ...] = ()


@dataclass(frozen=True, slots=True)
class Option:
    """A choice the player can make now, and the button that makes it."""

    choice: str  # what the engine is given, e.g. "attack"
    label: str  # what the player reads, e.g. "Fight 戦う"
    button: Button | None = None


@dataclass(frozen=True, slots=True)
class View:
    """One screenful. ``prompt_tile`` is a tile picture to show beside the prompt."""

    floor: int
    room: int | None
    room_tiles: tuple[TileView, ...]
    sheet: SheetView | None
    prompt: str
    options: tuple[Option, ...] = ()
    prompt_tile: str | None = None
    last_check: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    highlight: int | None = None  # the option a menu cursor is on
    status: str = ""  # reader trouble, a rejected read
    title: str = "雀ローグEZプラス JongRogue EZ Plus"

    def option_for(self, button: Button) -> Option | None:
        """The option a button press selects now, if any."""
        return next((o for o in self.options if o.button is button), None)
