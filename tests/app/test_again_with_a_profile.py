"""A headless game's seed offered again (door62b) with a profile of the user's: rules
revision 12 (items told apart by kind, rules72 DEFECT 1) plays a profile with two potion or
shuriken kinds another way, so a revision-11 game played with a profile is not offered
again by its seed, while one of the packaged profile still is."""

from __future__ import annotations

from companion.app.commands.play.telling import next_steps_line
from companion.app.session.save import SaveGame

AGAIN = "; this game again: "
NOT_AGAIN = "cannot be played again from its seed"


def _line(rules: int, profile: str | None) -> str:
    return next_steps_line(SaveGame(seed=3, preset="ez", profile_path=profile,
                                    strategy="cautious", rules=rules))


def test_a_revision_11_game_with_a_profile_is_not_offered_again() -> None:
    line = _line(11, "/home/pi/mine.toml")
    assert NOT_AGAIN in line and AGAIN not in line
    assert "this game, of rules revision 11," in line


def test_a_revision_11_game_of_the_packaged_profile_and_a_revision_12_one_are() -> None:
    assert AGAIN in _line(11, None) and NOT_AGAIN not in _line(11, None)
    line = _line(12, "/home/pi/mine.toml")
    assert line.endswith("--strategy cautious --profile /home/pi/mine.toml")
