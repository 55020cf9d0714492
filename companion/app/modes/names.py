"""Combatants' names for the fight modes' screens, where a name may be Japanese only.

The engines name a combatant as its sheet does (一般的な神官（男性）, 山田太郎左衛門), and a
screen without a Japanese font drops the Japanese (:func:`~companion.hw.display.fonts.
without_cjk`): "GM-COMBAT-1 一般的な神官（男性） flees" would read "GM-COMBAT-1 flees". A
mode cannot know which screen draws its text, so, as everywhere else in the companion, a
Japanese name keeps its English beside it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping


def add_english(text: str, english: Mapping[str, str]) -> str:
    """``text`` with each name of ``english`` (name → its English) followed by its English:
    ``一般的な神官（男性） NPC 3 flees``. A name already followed by its English is left as it
    is, so a text may go through twice; the longest name is taken where names overlap."""
    pairs = {name: en for name, en in english.items() if name and en and en != name}
    if not pairs:
        return text
    pattern = re.compile("|".join(re.escape(n) for n in sorted(pairs, key=len, reverse=True)))

    def named(match: re.Match[str]) -> str:
        name, en = match.group(0), pairs[match.group(0)]
        after = match.string[match.end():].lstrip(" (")
        if after.startswith(en) and not after[len(en):len(en) + 1].isalnum():
            return name
        # Japanese run on after the name (山田太郎左衛門の防御は？) is kept off the English: a
        # screen that drops the Japanese would take the number ending it along (its 4の).
        nxt = match.string[match.end():match.end() + 1]
        apart = " " if nxt and not nxt.isspace() and not (nxt.isascii() and not nxt.isalnum()) \
            else ""
        return f"{name} {en}{apart}"

    return pattern.sub(named, text)
