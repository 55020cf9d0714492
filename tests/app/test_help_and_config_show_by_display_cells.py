"""fix61d: help pages and `config --show` by display cells (review61d R1, N8, N9)."""

from __future__ import annotations

import argparse

import pytest
from rich.cells import cell_len as rich_cell_len

from companion.app.help_format import (
    CellHelpFormatter,
    CellRawDescriptionFormatter,
    cell_len,
    cell_wrap,
)
from tests.app.help_page_helpers import help_pages


def test_a_path_holding_japanese_is_kept_whole() -> None:
    """R1: a folder named in Japanese made the path "Japanese prose", broken between its
    characters: `config --show` sent the player to copy half a data folder."""
    path = "/tmp/データ置き場/とても長いフォルダ名のテスト用ディレクトリ"
    assert cell_wrap(f"data folder: {path} (the save)", 40) == [
        "data folder:", path, "(the save)"]
    url = "https://example.org/遊び方/とても長いページ名のテスト用"
    assert cell_wrap(f"see {url} for more", 30) == ["see", url, "for more"]


def test_config_show_gives_a_data_folder_named_in_japanese_on_one_line(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """R1, the reviewer's case: at 60 columns the path was split after テスト用ディ."""
    from companion.app.cli import main

    data = f"{tmp_path}/データ置き場/とても長いフォルダ名のテスト用ディレクトリ"
    monkeypatch.setenv("COMPANION_DATA_DIR", data)
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["config", "--show"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"# {data}" in lines, lines[:8]


def test_a_combining_mark_takes_no_cell() -> None:
    """N9: a decomposed é (e and U+0301) and a joiner were counted a cell each; the
    measure agrees with rich's, an independent one."""
    for text in ("caf\u00e9", "cafe\u0301", "a\u200bb", "イベント（簡易版）", "か\u3099"):
        assert cell_len(text) == rich_cell_len(text), text


def test_every_help_page_fits_a_terminal_narrower_than_80(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """N8: genso's and coc's descriptions and examples, laid out for 80 columns, ran past
    a 60-column terminal (97 lines); each line now fits, measured by rich's cell count,
    but for a word no line can hold (a path, kept whole to be copied). The usage lines
    are argparse's own, which lines up an option group under the command's name and never
    breaks one."""
    monkeypatch.setenv("COLUMNS", "60")
    wide = []
    for words, parser in help_pages():
        usage = len(parser.format_usage().splitlines())
        wide += [f"{words}: {line}" for line in parser.format_help().splitlines()[usage:]
                 if rich_cell_len(line) > 60 and len(line.split()) > 1]
    assert wide == []


def test_laid_out_text_is_as_written_where_it_fits() -> None:
    """At 80 columns every page's hand-laid descriptions and examples are printed as
    written, as argparse's raw formatter printed them before the refill: a line that fits
    the terminal is never refilled (review61g D1: `coc fight --help`'s 79-cell example was
    split after `--foes`, measured by argparse's width, 2 short of the terminal's). It
    checked genso's page alone."""
    class AsWritten(CellHelpFormatter):
        _fill_text = argparse.RawDescriptionHelpFormatter._fill_text

    pages = [(words, parser) for words, parser in help_pages()
             if parser.formatter_class is CellRawDescriptionFormatter]
    assert len(pages) > 20
    changed = []
    for words, parser in pages:
        shown = parser.format_help()
        parser.formatter_class = AsWritten
        if shown != parser.format_help():
            changed.append(words)
    assert changed == []
    fight = dict(help_pages())["companion coc fight"].format_help()
    assert "\n  companion coc fight new --investigators ann.toml bob.toml --foes " \
           "cultist.toml\n" in fight
