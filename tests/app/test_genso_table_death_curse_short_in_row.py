"""review61e D1, R1, R2: a Death Curse (呪殺呪, GM-MAGIC-13) in the genso table's fighter row
is short, the days first (``呪殺呪 curse 366d``): the sentence ("呪殺呪 Death Curse: あと366日
dies at sunset in 366 days") took three lines a fighter at 80 columns, so a 4-PC party
cursed ran the frame past 24 rows, and the 800x480 screen's one-line rows cut it before the
number. A calendar that cannot be read is said once in the status line, naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.session.mode import ChoiceAsk
from companion.dice import ScriptedDice
from companion.systems.genso.combat import Wait
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_table_curse_helpers import PARTY, curse_all, frame, on_screen, the_fight

RULES = load_rules()
PC1 = "駆け出し冒険者１"


@pytest.mark.parametrize("keys", [PARTY, PARTY[:2]], ids=["4 PCs", "2 PCs"])
def test_a_fight_with_every_pc_cursed_fits_80x24(user_dirs: Path, keys: tuple[str, ...],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    curse_all(capsys, keys)
    _, view = the_fight(keys)
    rows = frame(view, 80, 24)
    assert len(rows) <= 23 and rows[0] == "幻想迷宮冒険譚 Fight 戦闘"  # and the cursor's row
    for key in keys:
        ja = preset(RULES, key).name
        row = next(row for row in rows if ja[:4] in row and "HP " in row)
        assert "呪殺呪 curse 366d" in row, row  # the curse on the fighter's own line
    text = "\n".join(rows)
    for kept in ("▶(a) Attack 攻撃", "(f) Flee 逃亡", "GM-MON-1"):  # the menu, the newest result
        assert kept in text, kept
    wide = frame(view, 100, 30)  # the Pi's console
    assert len(wide) <= 29
    assert sum("呪殺呪 curse 366d" in row for row in wide) == len(keys)


@pytest.mark.needs_japanese_font
def test_on_the_800x480_screen_each_cursed_row_shows_its_days(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Six fighters: one-line rows, the conditions beside the name; each PC's curse whole."""
    curse_all(capsys)
    _, view = the_fight()
    curses = [d.shown for d in on_screen(view) if d.text == "呪殺呪 curse 366d"]
    assert curses == ["呪殺呪 curse 366d"] * len(PARTY)


def test_today_and_a_past_sunset_are_short_too(user_dirs: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    curse_all(capsys, PARTY[:1])
    assert main(["genso", "calendar", "pass", "365"]) == 0
    mode, _ = the_fight(PARTY[:1])
    assert "呪殺呪 curse 1d" in mode.fight_view().fighters[0].conditions
    assert main(["genso", "calendar", "pass", "1"]) == 0
    mode.fight.push(Wait(mode.fight.state.current.name), ScriptedDice([]))
    assert "呪殺呪 curse 今日 today" in mode.fight_view().fighters[0].conditions
    path = user_dirs / "data" / "genso" / "calendar.toml"
    path.write_text(f'day = 400\ndeath_curses = [{{target = "{PC1}", caster = "Mio", '
                    'cast_on = 1, dies_on = 367}]\n', encoding="utf-8")
    mode, _ = the_fight(PARTY[:1])
    assert "呪殺呪 curse 死亡 died" in mode.fight_view().fighters[0].conditions


def test_a_damaged_calendar_is_said_once_in_the_status(user_dirs: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """It showed no curse and said nothing: "no curse" read as "calendar damaged"."""
    curse_all(capsys, PARTY[:2])
    path = user_dirs / "data" / "genso" / "calendar.toml"
    path.write_text("day =\n", encoding="utf-8")
    mode, view = the_fight(PARTY[:2])
    assert str(path) in view.status and "not TOML" in view.status
    assert "Death Curses not shown" in view.status
    assert len(frame(view, 80, 24)) <= 23
    assert not any("呪殺呪" in c for f in view.fight.fighters for c in f.conditions)
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    mode.answer(next(i for i, o in enumerate(ask.options) if "Wait" in o.label))
    assert len(mode.fight.journal) == 2  # the fight plays on; said once, not again
    ask = mode.ask()
    assert isinstance(ask, ChoiceAsk)
    assert "calendar" not in mode.view(ask.prompt, options=ask.options).status
