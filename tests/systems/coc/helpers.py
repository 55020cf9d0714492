"""Sheets and scripted dice for the coc tests."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.errors import IllegalAction
from companion.systems.coc.combat import Attack, EndTurn, Fall, Fight, Side
from companion.systems.coc.rules import CocRules, Profile, load_rules
from companion.systems.coc.sheet import Sheet, sheet_from_mapping


def sheet(rules: CocRules, name: str, dex: int = 10, weapons: tuple[str, ...] = ("fist",),
          armour: list[dict[str, Any]] | None = None, **skills: int) -> Sheet:
    return sheet_from_mapping(rules, {
        "name": name,
        "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": dex, "APP": 10,
                            "SIZ": 13, "INT": 12, "EDU": 12},
        "skills": skills, "weapons": [{"key": w} for w in weapons], "armour": armour or []})


def person(rules: CocRules, name: str, dex: int, weapons: tuple[Any, ...] = ("fist",),
           armour: list[dict[str, Any]] | None = None, siz: int = 13, **skills: int) -> Sheet:
    """A sheet whose weapons are keys or whole weapon tables."""
    return sheet_from_mapping(rules, {
        "name": name,
        "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": dex, "APP": 10,
                            "SIZ": siz, "INT": 12, "EDU": 12},
        "skills": skills, "armour": armour or [],
        "weapons": [w if isinstance(w, dict) else {"key": w} for w in weapons]})


def duel(profile: Profile, ann: dict[str, Any], cult: dict[str, Any] | None = None,
         settings: dict[str, Any] | None = None, third: dict[str, Any] | None = None,
         legacy: bool = False) -> Fight:
    """Ann (DEX 14) against Cult (DEX 10); Bob (DEX 12) joins Ann's side if asked;
    ``legacy`` plays it as fight files before the format number did."""
    rules = load_rules(profile).with_overrides(settings or {})
    entrants = [(person(rules, "Ann", 14, **ann), Side.INVESTIGATORS),
                (person(rules, "Cult", 10, **(cult or {})), Side.FOES)]
    if third is not None:
        entrants.append((person(rules, "Bob", 12, **third), Side.INVESTIGATORS))
    if legacy:
        return Fight(rules, entrants, ScriptedDice([]), legacy=True)
    return Fight(rules, entrants, ScriptedDice([]))


def push(f: Fight, action: Any, *dice: tuple[int, int]) -> str:
    """Play ``action`` with exactly ``dice``; its text."""
    source = ScriptedDice(dice)
    entry = f.push(action, source)
    assert source.remaining == [], entry.text
    return entry.text


#: The engine revision before revision 4's fixes (tests/systems/coc/test_*_fixes.py).
OLD = 3


def replays(f: Fight) -> None:
    """``f`` saved and loaded gives the same journal and state; so does the file as a
    format-2 file written before revision 4 (no ``engine`` on its entries) when every
    entry was played by revision 3."""
    data = json.loads(json.dumps(f.to_json()))
    again = Fight.from_json(load_rules(), data)
    assert again.to_json() == data and again.state == f.state
    if all(e.engine == OLD for e in f.journal):
        data["engine"] = OLD
        for entry in data["journal"]:
            entry.pop("engine", None)
        assert Fight.from_json(load_rules(), data).state == f.state


def at(engine: int, f: Fight) -> Fight:
    """``f`` played from now on by engine revision ``engine``."""
    f.engine = engine
    return f


def hurt(f: Fight, name: str, by: int = 5) -> None:
    """The Keeper's 3 m fall (CO-BASE-11) takes ``by`` HP from ``name``, a journal entry, so a
    treatment has something to treat (engine revision 21 refuses First Aid or Medicine on
    one unhurt)."""
    f.push(Fall(name, 3), ScriptedDice([(6, by)]))


def patch(f: Fight, name: str, **changes: Any) -> None:
    """Set ``name``'s state in the fight's latest state, as earlier rounds or a Keeper's
    ruling would have left it."""
    s = f.states[-1]
    f.states[-1] = replace(s, combatants=tuple(replace(c, **changes) if c.name == name else c
                                               for c in s.combatants))


def held_roll(engine: int) -> tuple[tuple[int, int], ...]:
    """003's held one's STR roll at the start of its turn, failed (CO-GRAP-2, from revision
    10; before, breaking free was an action)."""
    return ((100, 90),) if engine >= 10 else ()


def pass_to(f: Fight, name: str, *dice: tuple[int, int]) -> None:
    """End turns until it is ``name``'s; ``dice`` are the turn starts' rolls on the way (003's
    held one's STR, CO-GRAP-2), in order."""
    source = ScriptedDice(dice)
    while f.state.current is not None and f.state.current.name != name:
        f.push(EndTurn(f.state.current.name), source)
    assert source.remaining == [], f.journal[-1].text if f.journal else ""


class Told(ScriptedDice):
    """Scripted dice that keep what each roll was asked for (its purpose)."""

    def __init__(self, rands: Any) -> None:
        super().__init__(rands)
        self.purposes: list[str] = []

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        self.purposes.append(purpose)
        return super().roll(count, sides, purpose=purpose)


#: A fighter of martial arts (MA 80) with bare fists.
MA = {"weapons": ("fist",), "fist": 80, "martial_arts": 80}


def refused(f: Fight, action: object, match: str) -> None:
    """``action`` is refused before any die (none is scripted) and changes nothing."""
    before = (f.state, len(f.journal))
    with pytest.raises(IllegalAction, match=match):
        f.push(action, ScriptedDice([]))  # type: ignore[arg-type]
    assert (f.state, len(f.journal)) == before


def kill_then_dying_roll_003() -> Fight:
    """003: Cult, the round's last, shoots Bob dying, then kills Ann with its DEX/2 shot;
    the round's end brings Bob's CON×5 (CO-DEATH-1) and round 2 before Zed's turn."""
    rules = load_rules(Profile.P003)
    f = Fight(rules, [(person(rules, "Ann", 14), Side.INVESTIGATORS),
                      (person(rules, "Bob", 12, siz=4), Side.INVESTIGATORS),
                      (person(rules, "Zed", 11), Side.INVESTIGATORS),
                      (person(rules, "Cult", 10, ("revolver",), handgun=90), Side.FOES)],
              ScriptedDice([]))
    for name in ("Ann", "Bob", "Zed"):
        f.push(EndTurn(name), ScriptedDice([]))
    for target, damage in (("Bob", 9), ("Ann", 10)):
        f.push(Attack("Cult", target), ScriptedDice([(100, 31), (10, damage)]))
    f.push(Attack("Cult", "Ann"), ScriptedDice([]))  # the third shot waits for DEX/2
    f.push(Attack("Cult", "Ann"), ScriptedDice([(100, 31), (10, 10), (100, 20)]))
    return f


SWORD = {"weapons": ("japanese_sword",), "japanese_sword": 90}
