"""The world guide, the glossary and the scenario structure of seed 002 (GM-LORE-1 to 3).

Flavour for the GM and the players, summarised in ``data/lore.toml``; no rule reads it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass

from companion.errors import DataError
from companion.systems.genso.rules import data_text

LORE_FILE = "lore.toml"


@dataclass(frozen=True, slots=True)
class Lore:
    """One page of lore: its rule ID, its title in both languages, its lines."""

    key: str
    rule: str
    title_ja: str
    title_en: str
    lines: tuple[str, ...]

    @property
    def title(self) -> str:
        return f"{self.title_ja} {self.title_en}"


def load_lore(text: str | None = None) -> dict[str, Lore]:
    """GM-LORE-1 (world), GM-LORE-2 (glossary), GM-LORE-3 (scenario), by key."""
    if text is None:
        text = data_text(LORE_FILE)  # a BOM dropped, a bad byte a DataError (reviewj68)
    try:
        pages = tomllib.loads(text)["lore"]
    except (tomllib.TOMLDecodeError, KeyError) as exc:
        raise DataError(f"{LORE_FILE}: no [lore] pages ({exc})") from exc
    lore: dict[str, Lore] = {}
    for key, page in pages.items():
        try:
            lore[key] = Lore(key, str(page["rule"]), str(page["title_ja"]),
                             str(page["title_en"]), tuple(str(line) for line in page["lines"]))
        except (KeyError, TypeError) as exc:
            raise DataError(f"{LORE_FILE}: lore.{key} lacks {exc}") from exc
    return lore
