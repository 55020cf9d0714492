"""The dice tray's table part-thrown (dice/tray.json) is read as the game's save and the
genso table's file are (hist68 NIT 1): a byte order mark an editor put first is no part of
it (it was refused, and the table kept aside as corrupt), and one a newer companion wrote
(``"version": 2``) is kept aside as ``tray.json.newer-…`` with how to carry it on, not as
corrupt."""

from __future__ import annotations

import codecs

import pytest

from companion.app.modes.dice_tray import TABLE_UNREADABLE, newer_table_back, table_path
from tests.app.dice_tray_table_file_helpers import part_thrown
from tests.app.dice_tray_table_helpers import ROLL_2, no_tray_held, tray

__all__ = ["no_tray_held"]  # its autouse fixture, for this file's runs too


def test_a_table_file_with_a_byte_order_mark_is_taken_up(
        capsys: pytest.CaptureFixture[str]) -> None:
    table_path().write_bytes(codecs.BOM_UTF8 + part_thrown())
    capsys.readouterr()
    screen = tray([("Type the D6", "4")])
    assert screen.views[0].prompt.startswith("Type the D6") and ROLL_2 in screen.views[0].prompt
    assert capsys.readouterr().err == ""
    assert list(table_path().parent.glob("tray.json.*")) == []


def test_a_newer_companion_s_table_file_is_kept_as_newer_with_how_to_carry_it_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    newer = part_thrown().replace(b'"version": 1', b'"version": 2')
    assert b'"version": 2' in newer
    table_path().write_bytes(newer)
    capsys.readouterr()
    screen = tray([("Dice tray", "2")])
    (kept,) = table_path().parent.glob("tray.json.*")
    assert kept.name.startswith("tray.json.newer-") and kept.read_bytes() == newer
    assert capsys.readouterr().err == (
        f"companion: {table_path()}: the dice tray's table part-thrown was written by a newer "
        f"companion (table version 2; this one reads 1); it was kept as {kept.name} "
        f"({newer_table_back(kept, table_path())}), and the tray starts at its menu\n")
    assert screen.views[0].prompt.startswith("Dice tray ダイストレイ: roll dice")
    assert screen.views[0].status == TABLE_UNREADABLE.format(name="tray.json")


@pytest.mark.parametrize(("table", "found"), [(b"[4]", "a list"), (b'"4"', "text"),
                                              (b"4", "a number"), (b"true", "true")])
def test_a_table_that_is_no_object_is_said_in_jsons_words(
        capsys: pytest.CaptureFixture[str], table: bytes, found: str) -> None:
    """journey73 NIT 7: a table that is no JSON object was "found list" (or "str", "int",
    "bool"), Python's names for JSON's values."""
    table_path().parent.mkdir(parents=True, exist_ok=True)
    table_path().write_bytes(b'{"version": 1, "table": ' + table + b"}")
    capsys.readouterr()
    tray([("Dice tray", "2")])
    assert f"table must be an object, found {found}" in capsys.readouterr().err
