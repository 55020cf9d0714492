"""Review reviewj68 of fixj68, from the app: a log written before it replays (DEFECT 1); a
packaged table that is gone is one error line (RISK 1); coc.toml's § hint with a BOM (NIT 2);
the leprechaun's gold in one row of the 800x480 Log (NIT 5); a worn ring a thief takes in
the Last check panel."""

from __future__ import annotations

import codecs
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.jongrogue import last_check
from companion.hw.display.screen import ScreenDisplay
from companion.hw.display.view import example_view
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.hw.screen_layout_helpers import spy_text
from tests.systems.jongrogue.script import feed

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
OLD_LOG = PACKAGE.parent / "tests" / "systems" / "jongrogue" / "data" / "stolen_ring_log_v2.jsonl"


def test_a_log_with_a_ring_theft_written_before_fixj68_replays(
        capsys: pytest.CaptureFixture[str]) -> None:
    """DEFECT 1: fixj68's ``ring`` key made the replay differ at the theft (event 708) and
    exit 1: "DIFFERS: …: ring: log (none), replay "adornment"". The log is cut after the
    theft, which replay says and still counts a match."""
    assert main(["replay", str(OLD_LOG)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game 1 (seed 3, plus): 711 events match; the log ends before the "
                          "game does"), out
    assert "DIFFERS" not in out


def _worn_ring_stolen() -> list[Event]:
    """A nymph (ニンフ, floor 10) takes the worn ring of adornment (9p) in its hit."""
    game = Game("ez")
    game.floor = 10
    feed(game, "5m 6m 1z 1z 1z")
    ring = Tile.from_notation("9p")
    game.ledger.move(ring, Place.WALL, Place.PC)
    game.pc.spare_rings.append(ring)
    game._wear_ring(ring)
    feed(game, "fight:1 1m")
    return list(game.events)


def test_the_last_check_shows_a_worn_ring_taken_off_and_stolen() -> None:
    """The "ring off" ended the check's outcome: the panel showed the nymph's hit and not
    the theft, which a spare ring's theft shows."""
    shown = last_check(_worn_ring_stolen(), describe)
    assert shown[0].startswith("  melee 近接攻撃 vs ニンフ (nymph)")
    assert shown[1].startswith("  ニンフ (nymph) hits the PC: ")
    assert shown[2:] == ("  Took off 飾りの指輪 (ring of adornment) [9p]",
                         "  Stolen 盗まれた: 飾りの指輪 (ring of adornment) [9p]",
                         "  アイテム盗み (steals items): vanished 消えた")


def test_a_ring_the_pc_takes_off_after_a_check_is_no_outcome_of_it() -> None:
    """Only a ring off a theft follows (the PC's own, after the check, is the game going on)."""
    events = _worn_ring_stolen()
    stolen = next(i for i, e in enumerate(events) if e.data.get("action") == "stolen")
    taken_off = events[:stolen]  # as if the PC had taken it off: no theft after it
    assert taken_off[-1].data["action"] == "ring off"
    assert not any("Took off" in line for line in last_check(taken_off, describe))


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_the_leprechauns_gold_is_one_row_of_the_log(size: str) -> None:
    """NIT 5: "Gold 金塊 +260 (leprechaun's gold レプラコーンの金塊) → 5710" took two of the
    Log panel's three rows at 800x480."""
    line = describe(Event(Kind.ITEM, {"action": "gold", "amount": 260, "gold": 5710,
                                      "why": "leprechaun's gold"}))
    assert "レプラコーン" in line
    screen = ScreenDisplay(size)
    try:
        drawn = spy_text(screen)
        screen.render(replace(example_view(), log=(*example_view().log, line)))
    finally:
        screen.close()
    assert drawn[-1].text.strip() == line.strip() and drawn[-1].shown == drawn[-1].text, drawn


def test_a_packaged_table_that_is_gone_is_one_error_line(tmp_path: Path) -> None:
    """RISK 1: a table renamed or deleted under data/ gave a FileNotFoundError traceback."""
    root = tmp_path / "checkout"
    shutil.copytree(PACKAGE, root / "companion",
                    ignore=shutil.ignore_patterns("_compiled", "__pycache__"))
    (root / "companion" / "systems" / "jongrogue" / "data" / "sleep.toml").unlink()
    env = {**os.environ, "PYTHONPATH": str(root), "COMPANION_RULES_BUILD": "pure",
           "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "companion", "rules", "monsters"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.stderr == ("companion: error: companion/systems/jongrogue/data/sleep.toml: "
                           "cannot read: No such file or directory\n")
    assert done.stdout == "" and done.returncode == 2


def test_cocs_section_sign_hint_with_a_byte_order_mark(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 2: with a BOM, `[defaults.§0.3]` on line 1 lost its "quote it" hint."""
    config = user_dirs / "config"
    config.mkdir()
    (config / "coc.toml").write_bytes(
        codecs.BOM_UTF8 + '[defaults.§0.3]\nrounding = "up"\n'.encode())
    assert main(["coc", "defaults"]) == 2
    assert capsys.readouterr().err.rstrip().endswith(
        'TOML takes no § in a bare key; quote it, [defaults."§0.3"]')
