"""The play command's turn-by-turn lines name a stolen ring by the game's own profile
(fixj68b: ``describe`` takes the profile, but ``play`` gave it none, so a profile that puts
another ring on a rank was told as the packaged ring): the mode's lines on the screen and
the headless run's printed ones alike (JR-ITEM-1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.session import jongrogue_mode
from companion.app.commands.play.telling import print_events
from companion.systems.jongrogue.events import Event
from companion.systems.jongrogue.profile import load_profile

OLD_LOG = Path(__file__).parents[1] / "systems" / "jongrogue" / "data" / "stolen_ring_log_v2.jsonl"
STRENGTH = "  Stolen 盗まれた: 増強の指輪 (ring of strength) [9p]"


def _theft() -> Event:
    """A nymph's theft of the worn 9p, as a log holds it."""
    line = next(line for line in OLD_LOG.read_text(encoding="utf-8").splitlines()
                if '"action": "stolen"' in line)
    return Event.from_json(json.loads(line))


def test_a_stolen_ring_is_the_one_the_games_profile_puts_on_its_tile(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rings = tmp_path / "rings.toml"
    rings.write_text('[items.9]\nring = "strength"\n', encoding="utf-8")
    save = tmp_path / "save.json"
    assert main(["play", "--headless", "--seed", "3", "--state", str(save),
                 "--profile", str(rings)]) == 0
    played = load_game(save)
    assert played is not None
    capsys.readouterr()

    mode = jongrogue_mode(played, load_profile(rings), "sim")
    assert mode.describe(_theft()) == STRENGTH
    print_events([_theft()], mode.game.profile)
    assert capsys.readouterr().out == STRENGTH + "\n"
