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


def _ascii_word_edge(char: str) -> bool:
    return char.isascii() and char.isalnum()


#: Kanji (with 々) and katakana (with ー, but not the ・ and ゠ that join words): the letters
#: a Japanese word is made of, where hiragana after a name is most often its particle (剣の).
_WORD_LETTER = "[\u3005\u30a1-\u30fa\u30fc-\u30ff\u4e00-\u9fff]"


def _whole(name: str) -> str:
    """The pattern of ``name`` as a whole word on a side where it begins or ends with an
    ASCII letter or digit: a PC named Bo is not found inside 体力/Body (review59c D4).
    Japanese runs on with no spaces (山田太郎左衛門の), so a Japanese edge takes none,
    except for a name of one kanji or katakana: that one letter is far more often a part of
    a word than the name (a PC named 剣 inside 長剣, 鬼 inside 鬼火), so it is matched only
    with no kanji or katakana beside it."""
    if len(name) == 1 and re.fullmatch(_WORD_LETTER, name):
        return f"(?<!{_WORD_LETTER}){re.escape(name)}(?!{_WORD_LETTER})"
    return ((r"(?<![A-Za-z0-9])" if _ascii_word_edge(name[0]) else "") + re.escape(name)
            + (r"(?![A-Za-z0-9])" if _ascii_word_edge(name[-1]) else ""))


def add_english(text: str, english: Mapping[str, str]) -> str:
    """``text`` with each name of ``english`` (name → its English) followed by its English:
    ``一般的な神官（男性） NPC 3 flees``. A name already followed by its English is left as it
    is, so a text may go through twice; the longest name is taken where names overlap. A
    name edged by an ASCII letter or digit is matched only as a whole word there
    (:func:`_whole`)."""
    pairs = {name: en for name, en in english.items() if name and en and en != name}
    # Every place of every name, then the longest taken first: one alternation would take a
    # shorter name starting sooner (山田 in 山田中太郎 over 田中太郎).
    found = sorted(((m.start(), m.start() + len(name)) for name in pairs
                    for m in re.finditer(f"(?={_whole(name)})", text)),
                   key=lambda span: (span[0] - span[1], span[0]))
    taken: list[tuple[int, int]] = []
    for start, end in found:
        if all(end <= s or start >= e for s, e in taken):
            taken.append((start, end))
    parts, at = [], 0
    for start, end in sorted(taken):
        parts += [text[at:start], _named(text, start, end, pairs[text[start:end]])]
        at = end
    return "".join(parts) + text[at:]


def _named(text: str, start: int, end: int, en: str) -> str:
    """The name at ``text[start:end]`` with its English ``en`` after it, unless it is there
    already."""
    name = text[start:end]
    after = text[end:].lstrip(" (")
    if after.startswith(en) and not after[len(en):len(en) + 1].isalnum():
        return name
    # Japanese run on after the name (山田太郎左衛門の防御は？) is kept off the English: a
    # screen that drops the Japanese would take the number ending it along (its 4の).
    nxt = text[end:end + 1]
    apart = " " if nxt and not nxt.isspace() and not (nxt.isascii() and not nxt.isalnum()) \
        else ""
    return f"{name} {en}{apart}"
