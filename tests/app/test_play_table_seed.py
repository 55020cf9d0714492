"""``companion play --mode dice|genso|coc --seed`` with no simulated die is refused, as
``companion roll --dice typed --seed`` is (stop 63): the table took the seed and ignored it,
and the seed promised a fight it does not repeat. A mode switched to from the System menu
does not take the home mode's seed; the mode the run comes back to does not throw its seed's
dice again."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import uuid
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.options import switched
from companion.app.commands.play.table_modes import forget_sim_dice, run_dice_tray
from companion.app.config import load_config
from companion.app.history import History
from companion.app.session.controls import Controls
from companion.app.session.save import default_save_path
from companion.app.session.system_menu import ModeSwitch, SystemMenu
from companion.hw.buttons import Button, Press
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import Game
from tests.app.play_pty_helpers import Terminal
from tests.app.system_menu_helpers import SYSTEM
from tests.app.table import PlayerAtTheScreen

TABLE = ["play", "--display", "terminal", "--choices", "keyboard"]


@pytest.mark.parametrize("mode", ["dice", "genso", "coc"])
@pytest.mark.parametrize("dice", ["typed", "camera"])
def test_a_table_seed_with_thrown_dice_is_refused_before_anything_opens(
        mode: str, dice: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TABLE, "--mode", mode, "--dice", dice, "--seed", "9"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"--dice {dice} dice are thrown, not seeded; leave --seed out" in " ".join(
        err.split())


def test_the_setting_names_the_dice_as_the_flag_does(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (user_dirs / "config").mkdir()
    (user_dirs / "config" / "config.toml").write_text('[dice]\nsource = "typed"\n')
    assert main([*TABLE, "--mode", "dice", "--seed", "9"]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert (f"dice.source ({user_dirs / 'config' / 'config.toml'}): typed dice are thrown, "
            "not seeded") in said
    assert "--dice typed" not in said  # the player gave no --dice (review63a N4)


def test_coc_camera_dice_with_simulated_d100_keep_the_seed() -> None:
    """The d100 the camera cannot read are the seeded ones: nothing to refuse."""
    from companion.app.commands.play.options import effective_config, refuse_idle_table_seed

    args = argparse.Namespace(**{**vars(_parsed("coc")), "dice": "camera", "d100": "sim"})
    refuse_idle_table_seed(args, effective_config(args, tell=False))


def test_a_mode_switched_to_does_not_take_the_home_modes_seed() -> None:
    first = _parsed("game")
    assert switched(first, "game", "dice").seed is None
    assert switched(first, "game", "game").seed == 9


def _parsed(mode: str) -> argparse.Namespace:
    from companion.app.cli import build_parser

    return build_parser("play").parse_args([*TABLE, "--mode", mode, "--seed", "9"])


def test_a_game_over_met_back_home_draws_a_new_wall(user_dirs: Path) -> None:
    """modes74 DEFECT 3: the run's first game, begun on ``--seed 9``, is saved at its start;
    back home from another mode, the seed carried made the new game after a game over the
    same dungeon again (Game over's own New game draws a new wall). The save there is
    resumed as it is (its own seed); with none yet, nothing was played on the seed: kept."""
    first = _parsed("game")
    assert switched(first, "game", "game").seed == 9  # no save yet
    save = default_save_path()
    save.parent.mkdir(parents=True, exist_ok=True)
    save.write_text("{}", encoding="utf-8")  # a game saved there, whatever it holds
    assert switched(first, "game", "game").seed is None
    assert switched(first, "game", "dice").seed is None


def test_a_game_played_to_its_end_then_a_switch_and_back_plays_a_new_wall(
        user_dirs: Path) -> None:
    """reviewm74 NIT 5, end to end: a game of ``--seed 7`` resumed 4 inputs from its end
    (its first key ends it), Game over, System -> Dice tray, System -> JongRogue: the new
    game back home is on a new wall, not seed 7's again (modes74 DEFECT 3), and the history
    keeps the game over with its seed. Stopped there, its resume line says no ``--mode
    game`` nobody typed (reviewm74 NIT 6)."""
    save = default_save_path()
    save.parent.mkdir(parents=True, exist_ok=True)
    assert main(["play", "--headless", "--seed", "7", "--state", str(save)]) == 0
    whole = json.loads(save.read_text(encoding="utf-8"))
    inputs = whole["inputs"][:-4]
    played = Game.replay([input_from_notation(i) for i in inputs], whole["preset"], None,
                         revision=whole["rules"])
    whole.update(inputs=inputs, finished=False, events=len(played.events),
                 game_id=uuid.uuid4().hex)
    save.write_text(json.dumps(whole), encoding="utf-8")
    term = Terminal(["--resume", "--input", "sim", "--choices", "keyboard", "--display",
                     "terminal", "--seed", "7"], {**os.environ, "COMPANION_DICE_SOURCE": "sim"})
    over = "Game over ゲームオーバー"
    term.answer("What next?", 1, b"a")  # Fight: seed 7's game ends there
    term.answer(over, 1, b"s")
    term.answer(SYSTEM, 1, b"2")  # Dice tray (no New game here: Game over's own)
    term.answer("Roll or table?", 1, b"s")
    term.answer(SYSTEM, 2, b"2")  # JongRogue, home
    term.answer("What next?", 1, b"", pause=0.5)
    new = json.loads(save.read_text(encoding="utf-8"))
    term.proc.send_signal(signal.SIGTERM)
    assert term.finish() == 130
    assert not new["finished"] and new["seed"] != 7, new["seed"]
    assert new["inputs"][:3] != whole["inputs"][:3]
    assert {run.seed for run in History().runs()} == {7}  # the headless one, and this one
    err = " ".join((term.proc.stderr.read().decode() if term.proc.stderr else "").split())
    line = re.search(r"stopped; the game is saved in \S+: (.*?) carries on", err)
    assert line is not None, err
    assert "play --resume --input sim" in line[1] and "--mode" not in line[1], line[1]


R = "Dice tray ダイストレイ: roll dice"  # the tray's first menu


def _throws(script: list[tuple[str, str | Press]]) -> list[str]:
    """The dice tray on simulated dice seeded 5 (``--seed 5``) played by ``script``, then
    left (the System menu's switch, or the script run out): the totals it showed."""
    screen = PlayerAtTheScreen(script)
    controls = Controls([screen], clock=screen.time_at_the_table)
    config = load_config(env=dict(os.environ),
                         overrides={"dice.source": "sim", "input.poll_seconds": 0.005})
    with pytest.raises((ModeSwitch, KeyboardInterrupt)):
        run_dice_tray(config, screen, controls, 5, SystemMenu(controls, "dice", 0.0, ""))
    shown = [v.prompt for v in screen.views if v.prompt.startswith("2D6: total")]
    return [p for i, p in enumerate(shown) if i == 0 or shown[i - 1] != p]


def test_the_trays_simulated_dice_go_on_when_the_run_comes_back_to_it(
        user_dirs: Path) -> None:
    """modes74 DEFECT 4: back at the tray from another mode, its simulated dice were seeded
    from --seed again and threw the same rolls again; they go on, as a genso table's do."""
    forget_sim_dice()
    unswitched = _throws([(R, "1"), ("2D6", "0"), ("2D6", "0"), ("2D6", "0"), ("2D6", "1")])
    forget_sim_dice()  # a new run
    before = _throws([(R, "1"), ("2D6", "0"), ("2D6", "1"), (R, Button.SYSTEM),
                      (SYSTEM, "mode:game")])
    after = _throws([(R, "1"), ("2D6", "0"), ("2D6", "1")])  # back at the tray
    assert len(unswitched) == 4
    assert before + after == unswitched
