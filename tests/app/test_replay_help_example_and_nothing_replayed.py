"""setup69 DEFECT 2: `companion replay --help`'s example logs a game the replay can play
again, and a log none of whose games could be replayed says "nothing was replayed" and
exits 2 (it exited 0, which the help calls "all match")."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.app.cli import main


def test_the_helps_example_logs_a_game_that_replays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Its `play --input sim` took the choices from the buttons (or keys): "not replayed"."""
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    example = re.search(r"Example: companion (.+?), then companion replay (\S+)", helped)
    assert example, helped
    play, log = shlex.split(example[1]), example[2]
    assert "--headless" in play  # the auto-player's game, the one kind replayed
    monkeypatch.chdir(tmp_path)
    assert main([*play, "--seed", "7"]) == 0
    capsys.readouterr()
    assert main(["replay", log]) == 0
    assert re.fullmatch(r"game 1 \(seed 7, \w+\): \d+ events match\n", capsys.readouterr().out)


def test_a_log_with_no_game_to_replay_says_nothing_was_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.app.commands.play import log_header
    from companion.app.session.save import SaveGame

    log = tmp_path / "table.jsonl"
    chose = log_header(SaveGame(seed=4, preset="plus", player_chose=True))
    camera = log_header(SaveGame(seed=5, preset="plus", input_kind="camera"))
    log.write_text("\n".join([*chose, '{"floor": 1, "kind": "floor"}', *camera]) + "\n")
    assert main(["replay", str(log)]) == 2
    shown = capsys.readouterr()
    assert shown.out.splitlines() == [
        "game 1 (seed 4, plus): not replayed: a player made its choices, not the auto-player",
        "game 2 (seed 5, plus): not replayed: its tiles came from the camera, not the simulated "
        "wall"]
    assert f"{log}: nothing was replayed: no game in this log was played by the auto-player" \
        in shown.err
    assert "play --headless --log FILE" in shown.err
