"""`genso` recovery: days of rest and a night's sleep (GM-HEAL-1/2)."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalAction
from companion.systems.genso.character.core import Character, derive, rates, refuse_dead
from companion.systems.genso.money import NotEnoughMoney, Purse
from companion.systems.genso.rules import GensoRules


class FeeNotPaid(NotEnoughMoney):
    """GM-HEAL-1: a healer's fee the purse cannot pay, with ``days``, the days in a healer's
    care it pays for (0 for none), and ``alone_days``, the days alone that heal 1 HP, for a
    caller that names the rests it can take (a77gensotown NIT 7: the refusal named neither
    the fee nor what could be paid)."""

    def __init__(self, message: str, days: int, alone_days: int) -> None:
        super().__init__(message)
        self.days = days
        self.alone_days = alone_days


def rest(rules: GensoRules, character: Character, days: int, healer: bool) -> tuple[Character,
                                                                                    int]:
    """GM-HEAL-1: 1 HP a day in a healer's care at 1 silver per HP (Default), else 1 HP per
    2 days.

    「医者の手当てを受けない場合は２日で１ＨＰ回復する」: days rested without a healer add up
    on the sheet (``rest_days``) until they make an HP, so four single days heal as one
    four-day rest. Returns the character and the fee paid. HP never rises above the
    maximum (and days rested at full HP are not banked); a purse that cannot pay the
    healer refuses the care; the dead (GM-COMBAT-8) do not rest back to life.
    """
    if days < 1:
        # As `events rest --hours 0` is: a rest of no time heals nothing and would only be
        # written to the sheet as if one had been taken.
        raise IllegalAction(f"GM-HEAL-1: a rest lasts 1 day or more, found {days}")
    refuse_dead(rules, character, "rest")
    heal = rules.source["GM-HEAL-1"]
    maximum = derive(rules, character).max_hp.total
    missing = max(0, maximum - character.hp)
    carried = character.rest_days
    if healer:
        gained = min(days // heal["healer_days_per_hp"], missing)
    else:
        whole, carried = divmod(character.rest_days + days, heal["alone_days_per_hp"])
        gained = min(whole, missing)
    if character.hp + gained >= maximum:
        carried = 0
    per_hp = rules.default("GM-HEAL-1", "fee_silver")
    fee = gained * per_hp if healer else 0
    if fee > character.purse.value(rates(rules)):
        paid_for = character.purse.value(rates(rules)) // per_hp
        raise FeeNotPaid(
            f"GM-HEAL-1 healer's fee: {gained} HP × {Purse(silver=per_hp).text()} = "
            f"{Purse(silver=fee).text()} is more than the purse holds "
            f"({character.purse.text()})", paid_for * heal["healer_days_per_hp"],
            heal["alone_days_per_hp"])
    purse = character.purse.pay(fee, rates(rules), Purse(silver=fee))
    return replace(character, hp=character.hp + gained, purse=purse, rest_days=carried), fee


def sleep(rules: GensoRules, character: Character) -> Character:
    """GM-HEAL-2: a night's sleep (``sleep_hours``, 8) restores MP in full (not a dead
    character's, GM-COMBAT-8)."""
    refuse_dead(rules, character, "sleep")
    return replace(character, mp=derive(rules, character).max_mp.total)
