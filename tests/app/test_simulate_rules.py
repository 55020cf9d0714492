"""``companion simulate`` names the rules revision that played its games (review 56 #3)."""

from __future__ import annotations

import json

import pytest

from companion.app.cli import main
from companion.systems.jongrogue.game import RULES_REVISION


def test_simulate_says_the_rules_revision_that_played_its_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same seed plays another game under another revision (revision 6 puts each
    gold-lover on its own pile), so a saved result without it could not be compared with
    another or played again."""
    assert main(["simulate", "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == RULES_REVISION
    assert main(["simulate", "--games", "2"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"2 games, preset plus, strategy cautious, rules revision {RULES_REVISION}"
