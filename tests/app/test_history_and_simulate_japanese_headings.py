"""newfix61: `companion history` and `simulate` say their headings in Japanese too, within
80 columns (newuser61 N11)."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.app.help_format import cell_len
from tests.app.history_table_helpers import table_at


def test_the_history_tables_title_and_headings_have_their_japanese(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The title "Finished games" and every heading were English only."""
    for columns in (80, 120):
        out = table_at(columns, monkeypatch, capsys)
        assert "Finished games 終わったゲーム" in out
        headings = " ".join(line for line in out.splitlines() if line.startswith("┃"))
        for ja in ("終了", "結果", "階", "金塊"):  # kept at any width (金塊 as the sheet says)
            assert ja in headings, out
        assert all(cell_len(line) <= columns for line in out.splitlines()), out
    assert all(ja in headings for ja in ("版", "レベル", "シード", "規則"))  # at 120


def test_simulates_headings_have_their_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    """Only "survival (生還率)" had it: not the floors, the causes of death or the speed."""
    assert main(["simulate", "--games", "3", "--jobs", "1", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "mean floor reached (平均到達階): " in out
    assert "causes of death (死因):" in out
    assert " games per second (毎秒のゲーム数; 1 process, " in out
    assert all(cell_len(line) <= 80 for line in out.splitlines()), out
