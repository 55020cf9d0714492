"""Profile keys each in its own range but at odds with another or with the rules
(defaults57 F8): a start strength below JR-PC-2's floor, a floor below the book's, where
the poison and the drain stop whatever it says, and an armour floor for rust
(JR-AB-RUST) below 0, where rusted armour would add to a hit's damage (JR-DMG-1). A new
game is refused them by name, as a value out of its range is; a game saved or logged
with such a profile was played so and replays so."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.jongrogue.profile import load_played_profile, load_profile


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[pc]\nstrength = -10\n",
         "mine.toml: field pc.strength must be pc.strength_min (-3) or more, found -10 "
         "(JR-PC-2: strength never drops below it)"),
        ("[pc]\nstrength = -1\nstrength_min = 2\n",
         "mine.toml: field pc.strength must be pc.strength_min (2) or more, found -1"),
        ("[pc]\nstrength_min = 5\n",
         "mine.toml: field pc.strength_min must be pc.strength (0) or less, found 5 "
         "(JR-PC-2: the floor strength never drops below)"),
        ("[pc]\nstrength = -4\nstrength_min = -5\n",
         "mine.toml: field pc.strength_min must be -3 or more, found -5 (JR-AB-POISON, "
         "JR-AB-DRAINSTR: the book's poison and drain stop at -3 whatever the profile says)"),
        ("[combat]\narmour_min = -5\n",
         "mine.toml: field combat.armour_min must be a whole number 0 or more, found -5 "
         "(JR-AB-RUST: below 0, rusted armour would add to a monster's damage, JR-DMG-1)"),
    ],
)
def test_jr_pc_2_jr_ab_rust_keys_at_odds_are_refused_by_name(
    tmp_path: Path, text: str, message: str
) -> None:
    """JR-PC-2, JR-AB-RUST: `strength = -10` and `armour_min = -5` were taken silently, and
    `strength_min = 5` only as a house rule; each names file, key, what is wrong and value,
    the key the file set first."""
    path = _file(tmp_path, text)
    with pytest.raises(DataError) as refused:
        load_profile(path)
    assert str(refused.value).startswith(str(tmp_path / message.split(": ", 1)[0]))
    assert message.split(": ", 1)[1] in str(refused.value)
    played, faults = load_played_profile(path)
    assert faults == [] and played.source == str(path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[pc]\nstrength = -3\n", (-3, -3, 0)),
        ("[pc]\nstrength = -2\nstrength_min = -3\n", (-2, -3, 0)),
        ("[pc]\nstrength = 2\nstrength_min = 2\n", (2, 2, 0)),
        ("[combat]\narmour_min = 0\n", (0, -3, 0)),
        ("[combat]\narmour_min = 2\n", (0, -3, 2)),
    ],
)
def test_keys_that_agree_are_taken(
    tmp_path: Path, text: str, expected: tuple[int, int, int]
) -> None:
    """JR-PC-2, JR-AB-RUST: strength at its floor, and a floor of 0 or more, play: the
    values the file gives are the profile's (the others the book's: strength 0, floor -3,
    armour floor 0), and no fault is told of them (a77jrrules NIT 4: the test asserted
    nothing, and a loader that dropped the keys passed it)."""
    path = _file(tmp_path, text)
    profile = load_profile(path)
    assert (profile.strength, profile.strength_min, profile.armour_min) == expected
    played, faults = load_played_profile(path)
    assert faults == []
    assert (played.strength, played.strength_min, played.armour_min) == expected
