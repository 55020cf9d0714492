"""review61h N1, N2: the genso table's Death Curse (呪殺呪, GM-MAGIC-13) in a fighter's row
gives the spell an English word (``呪殺呪 curse 366d``: ``呪殺呪 366 days`` had none), and a
calendar that cannot be read says so in the status line bilingual part first, so the
800x480 screen's one-line status, cut at its end, keeps 呪殺呪の表示なし (it showed the
file's path and the error and lost the Japanese)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.session.mode import ChoiceAsk
from companion.systems.genso.sheet import preset
from tests.app.genso_death_curse_helpers import kept_before
from tests.app.genso_table_curse_helpers import (
    PARTY,
    RULES,
    curse_all,
    frame,
    on_screen,
    the_fight,
)

ORCS = ("オーク1", "オーク2")
STATUS = "resumed fight: it plays on by engine revision 9, the one it was saved under"


def curse_everyone(capsys: pytest.CaptureFixture[str]) -> None:
    """Every PC, and the orcs by a calendar kept before `calendar curse` refused a monster's
    name (calendar73 NIT 8): such a file still marks them, the most rows a curse can fill."""
    kept_before(", ".join(f'{{target = "{name}", caster = "Mio", cast_on = 1, dies_on = 367}}'
                          for name in (*(preset(RULES, key).name for key in PARTY), *ORCS)))


def test_every_fighter_cursed_with_a_status_fits_80x24(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """4 PCs and 2 orcs, each with its curse on its own line, and a status line."""
    curse_everyone(capsys)
    mode, _ = the_fight()
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    view = mode.view(ask.prompt, options=ask.options, highlight=0, status=STATUS)
    rows = frame(view, 80, 24)
    assert len(rows) <= 23  # and the cursor's row
    assert sum("呪殺呪 curse 366d" in row for row in rows) == len(PARTY) + len(ORCS)
    assert any(STATUS[:40] in row for row in rows)


@pytest.mark.needs_japanese_font
def test_each_row_shows_the_spell_in_english_and_its_days_on_the_800x480_screen(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each PC and the orc with no other condition; the hit orc, which also wants to flee
    (逃走 wants to flee · 呪殺呪 curse 366d), is cut, as its days were before."""
    curse_everyone(capsys)
    _, view = the_fight()
    shown = [d.shown for d in on_screen(view) if d.text == "呪殺呪 curse 366d"]
    assert shown == ["呪殺呪 curse 366d"] * (len(PARTY) + 1)


@pytest.mark.needs_japanese_font
def test_a_damaged_calendar_keeps_its_japanese_on_the_800x480_screen(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With 4 PCs the status is one line on the screen, cut at its end."""
    curse_all(capsys)
    path = user_dirs / "data" / "genso" / "calendar.toml"
    path.write_text("day =\n", encoding="utf-8")
    _, view = the_fight()
    assert view.status.startswith("呪殺呪の表示なし Death Curses not shown: ")
    assert f"{path}: not TOML" in view.status
    status = [d for d in on_screen(view) if d.text and view.status.startswith(d.text)]
    assert status[0].shown.startswith("呪殺呪の表示なし Death Curses not shown"), status
    assert len(frame(view, 80, 24)) <= 23
