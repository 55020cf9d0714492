"""Spec §0.3, the global rounding Default: how `coc` turns a half, a third or any other
share into a whole number where the rule making it has no rounding of its own.

The spec's Default is "round down (toward zero) everywhere" (切り捨て); the setting
``§0.3.rounding`` in ``data/rules.toml`` also offers "nearest" (四捨五入: a half goes up,
as a Japanese table rounds) and "up" (切り上げ: any part counts as a whole). A rule whose
own Default names another rounding keeps it (CO-BASE-1's maximum HP rounds up, CO-PARRY-3
and CO-RANGE-1 keep settings of their own), and so do BCDice's own commands in `coc roll`
(CC, CCB, CBR, RES…: the special's fifth rounds down, as BCDice's ``CCB`` does).

The arithmetic is the shared :class:`~companion.dice.notation.Rounding` (the dice notation's
and events' EV-CORE-4's); each word of the setting names one of its members. "down" is its
``TOWARD_ZERO``, as §0.3 says; "up" is ``UP``, the ceiling, where a size rounded away from
zero would differ only for a negative share, and every share coc rounds is 0 or more (a
skill, a blow, a DEX).
"""

from __future__ import annotations

from companion.dice.notation import Rounding

#: The rules data's key: §0.3 has no rule ID, so its setting is kept under its section.
GLOBAL_RULE = "§0.3"

#: The setting's words, the spec's Default first: each the rounding it names and its
#: Japanese, which `coc defaults` shows beside it.
SETTING: dict[str, tuple[Rounding, str]] = {
    "down": (Rounding.TOWARD_ZERO, "切り捨て"),
    "nearest": (Rounding.NEAREST, "四捨五入"),
    "up": (Rounding.UP, "切り上げ"),
}

#: What `coc defaults` says beside the setting: its words in Japanese, and what it leaves.
SETTING_NOTE = (", ".join(f"{word} {ja}" for word, (_, ja) in SETTING.items())
                + ": each share whose rule names no rounding of its own; BCDice's CC, CCB, "
                  "RES… in coc roll round down always")
