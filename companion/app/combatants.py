"""What the fight commands of every system (``coc fight new``, ``genso fight new``) check of
the names their combatants bring: an ACTOR or TARGET is typed by name, so each must tell
one combatant apart."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from companion.errors import DataError


def names_apart(named: Iterable[tuple[str, str]]) -> None:
    """Refuse, of ``(where, name)`` pairs (``where`` the sheet file or preset that brought
    the name), two of one name (the same file on both sides, say), naming both, and two
    whose names are one name typed in full and half width (Ann and Ａｎｎ): ACTOR and
    TARGET fold full width, so a typed Ａｎｎ meant for Ann found the other one. Checked
    when a fight begins, not when one is loaded, so a fight saved with such names still
    opens."""
    seen: dict[str, tuple[str, str]] = {}
    for where, name in named:
        folded = unicodedata.normalize("NFKC", name)
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
