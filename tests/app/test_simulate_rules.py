"""``companion simulate`` names the rules revision that played its games (review 56 #3)."""

from __future__ import annotations

import json
import os
from pathlib import Path

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


def test_rules_and_simulate_play_the_config_preset_and_name_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """setup73 DEFECT 2: game.preset in config.toml was read by play alone, and `rules
    sleep` answered a player whose config plays EZ by Plus's sleep check, naming no
    preset; simulate played Plus. A --preset typed still wins, and is not named again."""
    folder = Path(os.environ["COMPANION_CONFIG_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text('[game]\npreset = "ez"\n', encoding="utf-8")
    named = f"companion: preset ez, from game.preset ({folder / 'config.toml'})\n"
    lookup = ["rules", "sleep", "--floor", "2", "--monster-tile", "1m", "--corner-tile", "3p"]
    assert main(lookup) == 0
    assert capsys.readouterr() == ("大蛇 (snake): asleep (睡眠) (EZ column)\n", named)
    assert main([*lookup, "--preset", "plus"]) == 0
    assert capsys.readouterr() == ("大蛇 (snake): awake (起) (by the sleep check)\n", "")
    assert main(["simulate", "--games", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert (json.loads(out)["preset"], err) == ("ez", named)
