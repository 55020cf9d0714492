"""Scripted coc fights shared by the engine's and the table's tests: one per profile (fight_003,
fight_004) with its steps, the sheets' entrants, dice that give the next faces (Faces), play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.dice import ScriptedDice
from companion.systems.coc.combat import (
    Attack,
    BreakFree,
    Choke,
    Defence,
    EndTurn,
    Fight,
    Grapple,
    Reload,
    Side,
)
from companion.systems.coc.rules import Profile, load_rules
from companion.systems.coc.sheet import sheet_from_mapping

Step = tuple[Any, Sequence[int]]


class Faces:
    """The next faces in order, whatever dice are asked for (each must fit its die)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def roll(self, count: int, sides: int, *, purpose: str = "") -> list[int]:
        out = [self.faces.pop(0) for _ in range(count)]
        assert all(1 <= v <= sides for v in out), (out, sides)
        return out


def entrant(rules: Any, name: str, dex: int, weapons: Sequence[Any], side: Side,
            max_hp: int | None = None, **skills: int) -> tuple[Any, Side]:
    data: dict[str, Any] = {
        "name": name, "foe": side is Side.FOES,
        "characteristics": {"STR": 13, "CON": 12, "POW": 10, "DEX": dex, "APP": 10,
                            "SIZ": 13, "INT": 12, "EDU": 12},
        "skills": skills,
        "weapons": [w if isinstance(w, dict) else {"key": w} for w in weapons]}
    if max_hp:
        data["max_hp"] = max_hp
    return sheet_from_mapping(rules, data, name), side


def fight_003() -> tuple[Fight, list[Step]]:
    rules = load_rules(Profile.P003)
    fight = Fight(rules, [
        entrant(rules, "Ann", 14, ("kick",), Side.INVESTIGATORS, kick=60, martial_arts=50,
                grapple=70),
        entrant(rules, "Bob", 12, ("smg", "shinai"), Side.INVESTIGATORS, smg=60,
                japanese_sword=60),
        entrant(rules, "Cult", 10, ("knife",), Side.FOES, knife=50),
        entrant(rules, "Deep", 8, ("japanese_sword",), Side.FOES, japanese_sword=60, dodge=30),
    ], ScriptedDice([]))
    steps: list[Step] = [
        # Round 1. Kick+MA: 55 is under Kick 60, over MA 50: partial, 1D6+1D4 undoubled.
        (Attack("Ann", "Cult", ma=True), (55, 6, 4)),
        # Grapple+MA both succeed: held, choke or throw each round (CO-MA-2) from the next:
        # the grapple was Ann's 1 AP of this one (CO-GRAP-3), her turn ends.
        (Grapple("Ann", "Cult", ma=True), (30,)),
        # Burst (3 AP, the whole magazine): 40 hits, 1D20 → 2 hits, Dodge 30−2 fails at 50;
        # Cult's turn opens with its STR roll against Ann's, 13 vs 13: 90 fails (CO-GRAP-2).
        (Attack("Bob", "Deep", burst=True, defence=Defence.DODGE), (40, 2, 50, 5, 3, 90)),
        (EndTurn("Cult"), ()),  # held: 1 AP (CO-GRAP-3)
        # Deep's sword, 12 damage, parried by the shinai (durability 10): it breaks, 2 to Bob.
        (Attack("Deep", "Bob", defence=Defence.PARRY, parry_weapon=1), (20, 9, 3, 25)),
        (EndTurn("Deep"), ()),
        # Round 2.
        (Choke("Ann"), (5, 3)),  # 8: Cult from 3 to −5, below −2: dead (CO-DEATH-1)
        (Reload("Bob"), ()),  # CO-FIRE-1: 3 AP
        (Attack("Deep", "Bob"), (97, 2)),  # fumble: 1D2 = 2, the sword breaks (CO-MELEE-4)
        (EndTurn("Deep"), ()),
        # Round 3: Deep at HP 1 takes 3: HP −2, unconscious and dying; the foes are down.
        (Attack("Ann", "Deep"), (10, 2, 1)),
    ]
    return fight, steps


def fight_004() -> tuple[Fight, list[Step]]:
    rules = load_rules(Profile.P004)
    worn = {"key": "blackjack", "durability": 2}
    fight = Fight(rules, [
        entrant(rules, "Ann", 14, ("japanese_sword", "fist"), Side.INVESTIGATORS,
                japanese_sword=80, fist=60, martial_arts=50),
        entrant(rules, "Bob", 12, ("smg",), Side.INVESTIGATORS, smg=60, grapple=70),
        entrant(rules, "Cult", 10, (worn,), Side.FOES, club=50),
        entrant(rules, "Deep", 8, ("knife",), Side.FOES, knife=50, dodge=30),
        entrant(rules, "Boss", 5, ("fist",), Side.FOES, max_hp=30),
    ], ScriptedDice([]))
    steps: list[Step] = [
        # Round 1. Fist+MA: 55 under Fist 60, over MA 50: partial, 1D3+1D4 (CO-BASE-6).
        (Attack("Ann", "Cult", weapon=1, ma=True), (55, 2, 3)),
        # Burst (CO-FIRE-8): 30 hits, 1D20 = 3; Deep's dodge (20) stops the first (CO-DODGE-7).
        (Attack("Bob", "Deep", burst=True, defence=Defence.DODGE), (30, 3, 20, 4, 2)),
        (Attack("Cult", "Bob"), (70,)),  # the blackjack wears to 1 (CO-WEAP-1) and misses
        (EndTurn("Deep"), ()),
        (EndTurn("Boss"), ()),
        # Round 2. The sword's 8 is parried by the blackjack: it covers 1, 7 get through, and
        # its last point of durability goes: it breaks (CO-PARRY-4, CO-WEAP-1). Cult at HP 1:
        # unconscious (CO-BASE-8).
        (Attack("Ann", "Cult", defence=Defence.PARRY), (30, 6, 2, 20)),
        (Reload("Bob"), ()),  # CO-BASE-12
        (Attack("Deep", "Bob"), (90,)),
        (EndTurn("Boss"), ()),
        # Round 3. Ann cuts off Deep's arm (54%): 4 damage takes HP 3 to −1 (dying, dies at
        # the end of round 4); STR −2, SIZ −1, DEX −2; max HP 12 so HP −2; bleeding 1D4.
        (Attack("Ann", "Deep", body="cut", part="arm"), (40, 3, 1, 2, 2)),
        (Grapple("Bob", "Boss"), (30,)),  # restrained (CO-GRAP-6)
        # STR 13 vs 13: 50%, 80 fails; round 4 opens with Deep's bleeding (1D4 = 2).
        (BreakFree("Boss"), (80, 2)),
        (EndTurn("Ann"), ()),
        (Choke("Bob"), (20, 4, 2)),  # CO-GRAP-7: a Grapple roll, then 1d6+DB
        (BreakFree("Boss"), (90,)),  # the round ends: Deep dies (CO-BASE-8)
    ]
    return fight, steps


def play(fight: Fight, steps: list[Step]) -> None:
    for action, faces in steps:
        source = Faces(faces)
        fight.push(action, source)
        assert source.faces == [], (action, fight.journal[-1].text)
