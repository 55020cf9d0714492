"""Shared by the coc command's tests: a character sheet's characteristics, as TOML to format."""

from __future__ import annotations

from pathlib import Path

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


SHEET = CHARACTERISTICS + """kick = 60
martial_arts = 50
dodge = 40
[[weapons]]
key = "kick"
"""


def sheets(folder: Path) -> tuple[str, str]:
    ann, cult = folder / "ann.toml", folder / "cult.toml"
    ann.write_text(SHEET.format(name="Ann", dex=14), encoding="utf-8")
    cult.write_text(SHEET.format(name="Cult", dex=10), encoding="utf-8")
    return str(ann), str(cult)
