"""What the fight commands of every system (``coc fight new``, ``genso fight new``) check of
the names their combatants bring: an ACTOR or TARGET is typed by name, so each must tell
one combatant apart."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable

from companion.errors import DataError


def _one_sheet(where: str, other: str) -> bool:
    """Are ``where`` and ``other`` one sheet or preset given twice (the same words, or two
    paths to one file)?"""
    if where == other:
        return True
    try:
        return os.path.samefile(where, other)
    except OSError:  # a preset's key, or no file there: not one file
        return False


def names_apart(named: Iterable[tuple[str, str]]) -> None:
    """Refuse, of ``(where, name)`` pairs (``where`` the sheet file or preset that brought
    the name), two of one name (the same file on both sides, say), naming both, and two
    whose names are one name typed in full and half width (Ann and Ａｎｎ): ACTOR and
    TARGET fold full width, so a typed Ａｎｎ meant for Ann found the other one. Checked
    when a fight begins, not when one is loaded, so a fight saved with such names still
    opens. One sheet given twice is said as that (the copies of a preset are told apart
    before this: ``--party pc1:2``)."""
    seen: dict[str, tuple[str, str]] = {}
    for where, name in named:
        folded = unicodedata.normalize("NFKC", name)
        if folded in seen and seen[folded][0] == name and _one_sheet(where, seen[folded][1]):
            # one sheet typed twice, not two sharing a name: renaming "one of them" renamed
            # both (a78gensofight item 6)
            raise DataError(f"{where} is given twice ({name!r}): a sheet fights once, so "
                            "give it once (for two fighters of it, save a copy with another "
                            "name = … in it)")
        if folded in seen and seen[folded][0] == name:
            raise DataError(f"{where}: {name!r} is also the name in {seen[folded][1]}; "
                            "every combatant needs a name of its own: give one of them "
                            "another name (name = … in its sheet)")
        if folded in seen:
            other, there = seen[folded]
            raise DataError(f"{where}: {name!r} and {other!r} ({there}) differ only in "
                            "full- and half-width letters, so a typed name cannot tell them "
                            "apart: give one of them another name")
        seen.setdefault(folded, (name, where))
