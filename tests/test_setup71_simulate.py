"""setup71 NIT 7: ``companion simulate`` counts in words that agree with the count: 1 game,
1 win, 1 process (it said "1 games" and "1 process(es)")."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.systems.jongrogue.game import RULES_REVISION

WON = 8  # seed 8's one game, cautious, plus: 生還 survived


@pytest.mark.parametrize(("seed", "wins"), [(WON, "1 win"), (1, "0 wins")])
def test_one_game_is_said_as_one(seed: int, wins: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "1", "--jobs", "1", "--seed", str(seed)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"1 game, preset plus, strategy cautious, rules revision {RULES_REVISION}"
    assert f"({wins}; 95% CI " in lines[1]
    assert " games per second (毎秒のゲーム数; 1 process, " in lines[-1]


def test_many_are_said_as_many(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--jobs", "2", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 games, ")
    assert " games per second (毎秒のゲーム数; 2 processes, " in lines[-1]
