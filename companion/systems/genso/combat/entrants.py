"""How combatants join a `genso` fight: an :class:`Entrant` (a character sheet or a
monster key, side and name, saved in the fight file) and :func:`entrants_for` a party and
its monsters.

Rules: none of their own; :meth:`Entrant.build` derives the combatant by
:func:`~companion.systems.genso.combat.combatants.from_character` or
:func:`~companion.systems.genso.combat.combatants.from_monster`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import DataError, IllegalAction, refuse_unknown
from companion.systems.defaults import toml_value
from companion.systems.genso.character.core import Character
from companion.systems.genso.combat.combatants import (
    Combatant,
    Side,
    from_character,
    from_monster,
)
from companion.systems.genso.rules import GensoRules
from companion.systems.genso.sheet import character_from_mapping, sheet_mapping

#: The most combatants of one kind a new fight brings (``--monsters orc:N``, ``--npc
#: knight_m:N``): an encounter at a table, each numbered オーク1 to オーク99, two digits a
#: player types (``orc99``) and a menu shows. No bound took ``orc:1000000000`` and ran on for
#: minutes, filling memory (5000 took 30 s and wrote a 3 MB fight file: fixcarry75 item 3).
MOST_OF_ONE_KIND = 99

#: What :meth:`Entrant.to_json` writes, all a fight file's entrant may hold.
ENTRANT_FIELDS = ("name", "side", "monster", "sheet", "as_monster", "origin", "digest")


@dataclass(frozen=True)
class Entrant:
    """How a combatant joined: a character sheet or a monster key, side and name.

    ``origin`` is the sheet file it was read from ("" for a preset) and ``digest`` the
    SHA-256 of that file's text then, so the sheet can be written back after the fight
    only if nobody changed it meanwhile.
    """

    name: str
    side: Side
    monster: str = ""
    sheet: Mapping[str, Any] = field(default_factory=dict)
    as_monster: bool = False
    origin: str = ""
    digest: str = ""

    def build(self, rules: GensoRules) -> Combatant:
        if self.monster:
            return from_monster(rules, rules.monster(self.monster), self.name, self.side)
        return from_character(rules, self.character(rules), self.side, self.as_monster,
                              self.name)

    def character(self, rules: GensoRules) -> Character:
        """The character of a sheet entrant, read as the fight began with it (a check made
        of sheets since must not stop a saved fight opening)."""
        return character_from_mapping(rules, self.sheet, f"fight entrant {self.name}",
                                      kept=True)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "side": self.side.value}
        if self.monster:
            data["monster"] = self.monster
        else:
            data["sheet"] = dict(self.sheet)
            data["as_monster"] = self.as_monster
            if self.origin:
                data["origin"] = self.origin
                data["digest"] = self.digest
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "fight entrant") -> Entrant:
        """An entrant as the fight file keeps it, each field of its type; ``where`` names it
        in an error (``<file>: entrant 2``): a list or a number for a name or a monster key
        was a TypeError at the table (unhashable, no len())."""
        if not isinstance(data, Mapping):
            raise DataError(f"{where}: must be a table, found {data!r}")
        # A slip (``"hp"`` beside ``"sheet"``) is refused by name, as the actions' and the
        # sheet's fields are: dropped, it was lost unsaid at the next write of the file.
        refuse_unknown(data, ENTRANT_FIELDS, where, "field")

        def wrong(key: str, should: str) -> DataError:
            return DataError(f"{where}: {key} must be {should}, found {toml_value(data.get(key))}")

        name, side = data.get("name"), data.get("side")
        if not isinstance(name, str) or not name.strip():
            raise wrong("name", "the combatant's name (text)")
        sides = [s.value for s in Side]
        if not isinstance(side, str) or side not in sides:
            raise wrong("side", " or ".join(repr(s) for s in sides))
        typed: tuple[tuple[str, type, object, str], ...] = (
            ("monster", str, "", "a monster key (text)"),
            ("sheet", Mapping, {}, "a table (a character sheet)"),
            ("as_monster", bool, False, "true or false"),
            ("origin", str, "", "the sheet file's path (text)"),
            ("digest", str, "", "the sheet file's SHA-256 (text)"))
        for key, kind, default, should in typed:
            if not isinstance(data.get(key, default), kind):
                raise wrong(key, should)
        return cls(name, Side(side), data.get("monster", ""), data.get("sheet", {}),
                   data.get("as_monster", False), data.get("origin", ""),
                   data.get("digest", ""))

    @classmethod
    def of_character(cls, character: Character, side: Side = Side.PARTY,
                     as_monster: bool = False, name: str | None = None, origin: str = "",
                     digest: str = "") -> Entrant:
        return cls(name or character.name, side, sheet=sheet_mapping(character),
                   as_monster=as_monster, origin=origin, digest=digest)


def entrants_for(rules: GensoRules, party: Iterable[Character],
                 monsters: Iterable[tuple[str, int]]) -> list[Entrant]:
    """The party's characters and ``count`` monsters of each key, numbered when several; a
    count below 1 is refused rather than adding none, and one above
    :data:`MOST_OF_ONE_KIND` (the key's counts together) too.

    A key given twice is counted once, all its monsters together (``orc:2 orc`` is
    ``orc:3``: オーク1 to オーク3): numbered apart, the lone orc was オーク beside オーク1
    and オーク2, which no name typed without Japanese reached (``orc`` named all three,
    there was no ``orc3``), and ``orc orc`` was refused as two オーク (genso72 DEFECT 1).
    Only a new fight is numbered so; a saved one keeps the names its file holds."""
    entrants = [Entrant.of_character(c) for c in party]
    counts: dict[str, int] = {}
    for key, count in monsters:
        monster = rules.monster(key)
        if count < 1:
            raise IllegalAction(f"{monster.name}: a number of monsters must be 1 or more, "
                                f"found {count}")
        counts[monster.key] = counts.get(monster.key, 0) + count
    for key, count in counts.items():
        if count > MOST_OF_ONE_KIND:
            raise IllegalAction(f"{rules.monster(key).name}: {count} of one kind in all; at "
                                f"most {MOST_OF_ONE_KIND} in a fight 戦闘 {too_many_why()}")
    for key, count in counts.items():
        monster = rules.monster(key)
        for n in range(1, count + 1):
            name = monster.ja if count == 1 else f"{monster.ja}{n}"
            entrants.append(Entrant(name, Side.ENEMY, monster=monster.key))
    return entrants


def too_many_why() -> str:
    """Why a fight brings at most :data:`MOST_OF_ONE_KIND` of one kind, as a refusal says,
    the game's terms in Japanese too (reviewcarry75 NIT 2)."""
    return (f"(an encounter 遭遇 at a table, numbered 1 to {MOST_OF_ONE_KIND}; more would take "
            "minutes to set up and a fight file of megabytes)")
