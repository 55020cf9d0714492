"""Dice for tabletop systems: BCDice-style notation, rollers, sources and system tables.

Pure: no I/O, no clock, no global random. Dice come from an injected DiceSource.
"""

from companion.dice.notation import DiceCommand, DiceSyntaxError, Rounding, parse
from companion.dice.result import DieRoll, Result
from companion.dice.roll import RollOptions, roll
from companion.dice.sources import DiceSource, ManualDice, ScriptedDice, SimulatedDice

__all__ = [
    "DiceCommand",
    "DiceSource",
    "DiceSyntaxError",
    "DieRoll",
    "ManualDice",
    "Result",
    "RollOptions",
    "Rounding",
    "ScriptedDice",
    "SimulatedDice",
    "parse",
    "roll",
]
