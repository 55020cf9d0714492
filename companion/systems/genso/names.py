"""How a typed name finds a name the GM or a sheet gave (a combatant, a cursed one).

A name typed as most keyboards give it (駆け出し冒険者1) is the preset's 駆け出し冒険者１:
full-width and half-width letters and digits are folded alike (NFKC), and the spaces at its
ends dropped. Case is kept: Ben and ben may be two people. Only the lookup folds; a file
keeps the name as it was given.
"""

from __future__ import annotations

import unicodedata


def fold_name(name: str) -> str:
    """``name`` as it is compared: NFKC-folded and stripped (Ｂｅｎ → Ben)."""
    return unicodedata.normalize("NFKC", name).strip()
