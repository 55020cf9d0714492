"""Shared by the events system's rule tests: the sw-mode party Aki and Ben, a rating table, and
one event walked with scripted dice (walk, sw, d6, texts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.dice import ScriptedDice
from companion.systems.events.report import EventReport
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member, load_rating_table

AKI = Member("Aki", adventurer=3, thief=3, dexterity=3, agility=2, intelligence=1, vitality=2,
             evasion=2, armor=2, hp=20, max_hp=25, mp=10, max_mp=12)


BEN = Member("Ben", adventurer=2, sage=2, sorcerer=2, intelligence=3, vitality=1, shield=1)


PARTY = (AKI, BEN)


RATINGS = load_rating_table(
    "rating,2,3,4,5,6,7,8,9,10,11,12\n"
    "0,*,0,0,0,1,2,2,3,3,4,4\n"
    "5,*,0,1,1,2,3,4,4,5,5,6\n"
    "10,*,1,2,3,3,4,5,5,6,7,8\n"
)


def d6(*values: int) -> list[tuple[int, int]]:
    return [(6, v) for v in values]


def walk(
    table: str,
    rands: Sequence[tuple[int, int]],
    *,
    overrides: dict[str, dict[str, Any]] | None = None,
    **kw: Any,
) -> EventReport:
    """Run one event with scripted dice and check every scripted die was used."""
    rules = load_rules().with_overrides(overrides or {})
    source = ScriptedDice(rands)
    report = run_event(table, source, rules=rules, **kw)
    assert source.remaining == [], report.text
    return report


def texts(report: EventReport, rule: str) -> list[str]:
    return [s.text for s in report.find(rule)]


def sw(table: str, rands: Sequence[tuple[int, int]], **kw: Any) -> EventReport:
    kw.setdefault("party", PARTY)
    return walk(table, rands, mode="sw", **kw)
