"""Review reviewj68 of fixj68 (rules core and the systems' data readers): a stolen ring named
from its tile, as logs have always had it (DEFECT 1); a packaged table that is gone is a
DataError (RISK 1) and one with an old Mac's line ends reads (NIT 1)."""

from __future__ import annotations

import codecs
import json
import shutil
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.jongrogue import datafiles
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import load_profile

#: Seed 3, Plus, reckless, played by the companion of 8709c21f (before the ``ring`` key) up
#: to just after a nymph (ニンフ) took the worn ring of adornment (9p): log version 2.
OLD_LOG = Path(__file__).parent / "data" / "stolen_ring_log_v2.jsonl"


def _old_theft() -> Event:
    lines = OLD_LOG.read_text(encoding="utf-8").splitlines()
    found = [json.loads(line) for line in lines if '"action": "stolen"' in line]
    assert json.loads(lines[0])["version"] == 2 and len(found) == 1
    return Event.from_json(found[0])


# DEFECT 1: the ring's kind is no key of the event; the narration finds it by the tile

def test_a_ring_stolen_in_a_log_of_before_is_named_by_its_tile() -> None:
    """The event as logs have always had it, ``{"action": "stolen", "what": "9p"}``: its
    line names the ring (it was "Stolen 盗まれた: 9p" without the key fixj68 added)."""
    event = _old_theft()
    assert event.data == {"action": "stolen", "what": "9p"}
    assert describe(event) == "  Stolen 盗まれた: 飾りの指輪 (ring of adornment) [9p]"


def test_the_ring_is_the_one_the_games_profile_puts_on_the_tile(tmp_path: Path) -> None:
    """JR-ITEM-1: a profile may give a rank another ring; the line names that one."""
    mine = tmp_path / "rings.toml"
    mine.write_text('[items.9]\nring = "strength"\n', encoding="utf-8")
    assert describe(_old_theft(), load_profile(mine)) == (
        "  Stolen 盗まれた: 増強の指輪 (ring of strength) [9p]")
    # ammunition and potions as before; a potion's tile (revision 12, reviewr72 DEFECT 2)
    # by its item; what is no tile by itself
    for what, said in (("arrows", "arrows (矢)"), ("potions", "healing potion (回復薬)"),
                       ("1p", "healing potion (回復薬) [1p]"), ("9x", "9x")):
        assert describe(Event(Kind.ITEM, {"action": "stolen", "what": what})) == (
            f"  Stolen 盗まれた: {said}")


# RISK 1 and NIT 1: JongRogue's packaged tables

def _tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the packaged tables, read in their place."""
    shutil.copytree(Path(datafiles.__file__).parent / "data", tmp_path / "data")
    monkeypatch.setattr(datafiles, "files", lambda package: tmp_path)
    return tmp_path / "data"


def test_a_packaged_table_that_is_gone_is_a_data_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """It was a FileNotFoundError and 40 lines of traceback from every command."""
    (_tables(tmp_path, monkeypatch) / "sleep.toml").unlink()
    with pytest.raises(DataError) as told:
        datafiles.load_packaged("sleep.toml")
    assert str(told.value) == ("companion/systems/jongrogue/data/sleep.toml: cannot read: "
                               "No such file or directory")


def test_a_packaged_table_with_bare_carriage_returns_reads_as_it_did(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An old Mac's line ends (\\r alone) were read as line ends before fixj68 decoded the
    bytes itself; then "not valid TOML: Found invalid character '\\r'"."""
    want = datafiles.load_packaged("seed_values.toml")
    table = _tables(tmp_path, monkeypatch) / "seed_values.toml"
    table.write_bytes(codecs.BOM_UTF8 + table.read_bytes().replace(b"\n", b"\r"))
    assert datafiles.load_packaged("seed_values.toml") == want
