"""Shared by the coc command's tests: a character sheet's characteristics, as TOML to format."""

from __future__ import annotations

#: A sheet's name, characteristics and the [skills] heading, its skills to follow.
CHARACTERISTICS = """name = "{name}"
[characteristics]
STR = 13
CON = 12
POW = 10
DEX = {dex}
APP = 10
SIZ = 13
INT = 12
EDU = 12
[skills]
"""
