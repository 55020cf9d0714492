"""setup71 NIT 7: ``companion simulate`` counts in words that agree with the count: 1 game,
1 win, 1 process (it said "1 games" and "1 process(es)"); and the processes it names are
the ones that played, no more than the games (rules74 NIT 5)."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from companion.app.cli import main
from companion.app.commands import simulate
from companion.app.commands.simulate import plural, run_chunk
from companion.systems.jongrogue.game import RULES_REVISION


def first_seed(won: bool) -> int:
    """The first seed whose one game (cautious, plus) is won, or lost, as simulate plays it
    (reviews71 NIT 8: seed 8's win was written in, and a rules revision that changed it
    would fail the test for a reason that is not the wording)."""
    for seed in range(1000):
        if run_chunk((seed, 0, 1, "plus", "cautious", None)).wins == won:
            return seed
    raise AssertionError(f"no seed below 1000 has its one game {'won' if won else 'lost'}")


@pytest.mark.parametrize(("won", "wins"), [(True, "1 win"), (False, "0 wins")])
def test_one_game_is_said_as_one(won: bool, wins: str,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    seed = first_seed(won)
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


@pytest.mark.parametrize(("count", "word", "said"), [
    (0, "win", "0 wins"), (1, "win", "1 win"), (2, "game", "2 games"),
    (1, "process", "1 process"), (4, "process", "4 processes")])
def test_plural_agrees_with_the_count(count: int, word: str, said: str) -> None:
    assert plural(count, word) == said


@pytest.mark.parametrize(("games", "jobs", "pools", "said"), [
    (1, 40, [], "1 process, --jobs 40 capped at the 1 game, "),
    (2, 4, [2], "2 processes, --jobs 4 capped at the 2 games, "),
    (3, 2, [2], "2 processes, "),
])
def test_jobs_start_no_more_processes_than_games(
    games: int, jobs: int, pools: list[int], said: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str]
) -> None:
    """rules74 NIT 5: ``--jobs N`` for fewer games than N started N processes (the pool
    starts every worker asked for), and the figure named processes that played nothing.
    No more than the games are started, one game playing in this process, and the figure
    says the cap. The processes are counted where they are asked of the system."""
    started: list[int] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, max_workers: int | None = None, **kwargs: Any) -> None:
            started.append(max_workers or 0)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(simulate, "ProcessPoolExecutor", Counted)
    assert main(["simulate", "--games", str(games), "--jobs", str(jobs), "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{plural(games, 'game')}, ")
    assert f" games per second (毎秒のゲーム数; {said}" in lines[-1]
    assert started == pools
