"""System `genso`: 幻想迷宮冒険譚 Ver2.5 (seed 002, spec §2) as data plus a pure engine.

No I/O, no clock, no global random: dice come from an injected DiceSource.
"""
