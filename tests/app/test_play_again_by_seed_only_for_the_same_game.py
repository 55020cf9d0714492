"""A headless game's last line offers "this game again" by its seed only when the seed plays
the same game: a game of a rules revision before ``SAME_HEADLESS_GAMES_SINCE``, resumed from
its save, would be played by the current revision, another game (review61c F9: a revision-6
save of seed 893 resumed died on floor 21, while `play --seed 893` plays revision 7 and dies
on floor 22)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.telling import next_steps_line
from companion.systems.jongrogue.game import RULES_REVISION, SAME_HEADLESS_GAMES_SINCE
from tests.app.play_again_helpers import SEED, begun


def test_the_hint_offers_the_seed_again_only_when_the_seed_plays_the_same_game() -> None:
    """From ``SAME_HEADLESS_GAMES_SINCE`` (revision 7) the current rules play a seed's game
    as it was played (door62b: revision 8 changed only an option no strategy takes)."""
    now = next_steps_line(begun(RULES_REVISION))
    assert "this game again: " in now and f"--seed {SEED} --preset plus" in now
    for same in range(SAME_HEADLESS_GAMES_SINCE, RULES_REVISION):
        assert next_steps_line(replace(begun(RULES_REVISION), rules=same)) == now
    older = SAME_HEADLESS_GAMES_SINCE - 1
    old = next_steps_line(replace(begun(RULES_REVISION), rules=older))
    assert "this game again" not in old and "--seed" not in old
    assert old.endswith(f"this game, of rules revision {older}, cannot be played "
                        f"again from its seed: a new game plays revision {RULES_REVISION}, "
                        "another game")
    assert old.startswith(now.split("; this game again")[0])


def test_a_resumed_older_revision_game_is_not_offered_again_by_its_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "save.json"
    state.write_text(begun(6).to_json(), encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(state)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "cannot be played again from its seed" in last and "--seed" not in last
