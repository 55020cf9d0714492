"""Dice for tabletop systems: BCDice-style notation, rollers, sources and system tables.

Pure: no I/O, no clock, no global random. Dice come from an injected DiceSource.
"""

from companion.dice.notation import (
    Command,
    D66Order,
    DiceCommand,
    DiceSyntaxError,
    Rounding,
    parse,
)
from companion.dice.result import DieRoll, Result, RollKind
from companion.dice.roll import RollOptions, roll
from companion.dice.sources import DiceSource, ManualDice, ScriptedDice, SimulatedDice

__all__ = [
    "Command",
    "D66Order",
    "DiceCommand",
    "DiceSource",
    "DiceSyntaxError",
    "DieRoll",
    "ManualDice",
    "Result",
    "RollKind",
    "RollOptions",
    "Rounding",
    "ScriptedDice",
    "SimulatedDice",
    "parse",
    "roll",
]
