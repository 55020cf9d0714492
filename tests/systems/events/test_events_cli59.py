"""cli59: the events command from a new user's seat: Japanese trap names and table names
(F10), the party's HP kept between commands (F4), and the wording of F11."""

from __future__ import annotations

import pytest

from companion.app.cli import main
from companion.dice.sources import ScriptedDice
from companion.errors import DataError
from companion.systems.events.run import run_event


def test_a_trap_is_named_by_its_japanese_name_too() -> None:
    """F10: `events trap --trap 落とし穴` was refused; the kind or the Japanese (with or
    without the table's bracket, any width) names the same row."""
    for name in ("落とし穴", "pit", "ＰＩＴ"):
        report = run_event("trap", ScriptedDice([]), trap=name)
        assert report.steps[0].text.startswith("罠/Trap: pit (named, no roll: EV-DOOR-3)")
        assert report.steps[0].data["kind"] == "pit"
    for name in ("爆発", "爆発（エネルギー系）"):
        assert run_event("trap", ScriptedDice([]), trap=name).steps[0].data["kind"] == "explosion"
    with pytest.raises(DataError) as err:
        run_event("trap", ScriptedDice([]), trap="穴")
    assert "pit 落とし穴" in str(err.value) and "explosion 爆発" in str(err.value)


def test_the_table_help_gives_each_tables_japanese(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """F10: `events 扉` is refused, so the help says which key is which table."""
    monkeypatch.setenv("COLUMNS", "500")  # no line broken inside "EV-TRAP-1"
    with pytest.raises(SystemExit):
        main(["events", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for words in ("door 扉 (EV-DOOR-1)", "trap 罠 (EV-TRAP-1)", "recovery 回復 (EV-REC-1)",
                  "pit 落とし穴"):
        assert words in help_text
