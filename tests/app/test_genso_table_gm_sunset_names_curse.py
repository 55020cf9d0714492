"""screen68 (fixg67b "The table's GM → Sunset", genso67 NIT 2, reviewg67 RISK 3): the
table's *GM → Sunset* names a 呪殺呪/Death Curse (GM-MAGIC-13) due at that sunset, as
`genso fight sunset` does (one text, :func:`sunset_curse_text`); it said none, only the
row's ``呪殺呪 curse 今日 today``. None due, none named.

fixscreen68b (reviews68 RISK 2): the curses due are recorded when the sunset is pushed, in
the journal's answer, and a resume replays them: worked out again from the calendar, a table
taken up after `genso calendar pass 1` named the next day's curse at that sunset. A save from
before the record (a plain ``sunset``) names none. RISK 3: at the table the target comes first
and the CLI's command (`… genso calendar pass 1` records it) is left out: two curses due at
one sunset at text scale 1.25 cut the first before its target, named nowhere then."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.genso import GensoFightMode
from companion.app.modes.questions import ASK_UNDO
from companion.app.session.host import replay
from companion.hw.display import screen as screen_module
from companion.systems.genso.combat import Fight, entrants_for
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.table import choices
from tests.hw.display.fight_result_helpers import result_shown

RULES = load_rules()
PC1, PC2 = "駆け出し冒険者１", "駆け出し冒険者２"


def calendar(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    assert main(["genso", "calendar", *words]) == 0
    capsys.readouterr()


def new_mode(*pcs: str) -> GensoFightMode:
    return GensoFightMode(RULES, Fight(RULES, entrants_for(
        RULES, [preset(RULES, pc) for pc in pcs or ("pc1", "pc2")], [("orc", len(pcs) or 1)])))


def press(mode: GensoFightMode, choice: str) -> None:
    """The GM picks ``choice`` at the table (an answer, not a save's replay)."""
    mode.answer(choices(mode).index(choice))


def result(mode: GensoFightMode) -> list[tuple[str, str]]:
    return [(step.rule, step.text) for step in mode.fight_view().result]


def gm_sunset(mode: GensoFightMode) -> list[tuple[str, str]]:
    """GM → Sunset at the table: the Result's steps then shown (rule ID, text)."""
    press(mode, "gm")
    press(mode, "sunset")
    return result(mode)


def curses_named(shown: list[tuple[str, str]]) -> list[str]:
    return [text for rule, text in shown if rule == "GM-MAGIC-13"]


def test_the_tables_gm_sunset_names_the_curse_due_as_fight_sunset_does(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mode = new_mode()
    calendar(capsys, "curse", "Mio", PC1)
    assert [rule for rule, _ in gm_sunset(mode)] == ["GM-MON-5"]  # not due yet: none
    calendar(capsys, "pass", "366")  # day 367: PC 1 dies at sunset today
    shown = gm_sunset(mode)
    assert shown[0] == ("GM-MON-5", "sunset 日没: nobody killed by a Wight or Wraith rises")
    curse = curses_named(shown)
    assert curse == [f"{PC1} PC 1 dies at this sunset, day 367: 呪殺呪/Death Curse, Mio's "
                     "(cast on day 1), unless Mio lifts it first"], shown
    # `genso fight sunset`'s line keeps its words: the same curse, day and caster, and the
    # command that records the death
    assert main(["genso", "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc"]) == 0
    capsys.readouterr()
    assert main(["genso", "fight", "sunset"]) == 0
    said = unwrapped(capsys.readouterr().out)
    cli = next(line for line in said.splitlines() if line.startswith("GM-MAGIC-13  "))
    assert cli.startswith(f"GM-MAGIC-13  呪殺呪/Death Curse: {PC1} PC 1 dies at this sunset, day "
                          "367, of Mio's curse (cast on day 1), unless Mio lifts it first (`")
    assert " genso calendar pass 1` records it)" in cli, cli


def test_a_resumed_sunset_names_the_curses_due_when_it_was_pushed(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """reviews68 RISK 2 (its sunset.py): PC 1 dies on day 367, PC 2 on day 368; GM → Sunset
    on day 367, then `genso calendar pass 1` (as the line says), then the table resumed
    (its save's answers replayed on the fight as the table took it up): the Result still
    names PC 1's death on day 367, and not PC 2's."""
    calendar(capsys, "curse", "Mio", PC1)  # cast day 1: dies day 367
    calendar(capsys, "pass", "1")
    calendar(capsys, "curse", "Mio", PC2)  # cast day 2: dies day 368
    calendar(capsys, "pass", "365")  # day 367
    mode = new_mode()
    taken_up = mode.fight.to_json()
    at_sunset = curses_named(gm_sunset(mode))
    assert len(at_sunset) == 1 and at_sunset[0].startswith(f"{PC1} PC 1 dies"), at_sunset
    calendar(capsys, "pass", "1")  # day 368: PC 1's death recorded, PC 2's curse due
    resumed = GensoFightMode(RULES, Fight.from_json(RULES, taken_up))
    replay(resumed, list(mode.journal), mode.progress())
    assert resumed.journal == mode.journal
    assert curses_named(result(resumed)) == at_sunset
    # and it is saved so again: a second resume names the same
    again = GensoFightMode(RULES, Fight.from_json(RULES, taken_up))
    replay(again, list(resumed.journal), resumed.progress())
    assert curses_named(result(again)) == at_sunset


def test_a_save_from_before_the_record_names_no_curse_at_its_sunset(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A table save from before the curses were recorded has a plain ``sunset``: it does not
    say the sunset's day, so no curse is named (the calendar now may be days on); the rows
    still show the calendar's curses."""
    calendar(capsys, "curse", "Mio", PC1)
    calendar(capsys, "pass", "366")
    mode = new_mode()
    replay(mode, ["gm", "sunset"], 1)
    assert [rule for rule, _ in result(mode)] == ["GM-MON-5"]
    assert mode.journal == ["gm", "sunset"]
    assert "呪殺呪 curse 今日 today" in mode.fight_view().fighters[0].conditions
    with pytest.raises(Exception, match="cannot be read"):
        replay(new_mode(), ["gm", 'sunset {"curses": 3}'], 1)


def test_an_undone_sunset_pushed_again_records_the_calendar_then(
        user_dirs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calendar(capsys, "curse", "Mio", PC1)
    calendar(capsys, "pass", "365")  # day 366: not due yet
    mode = new_mode()
    assert curses_named(gm_sunset(mode)) == []
    assert mode.journal[-1] == "sunset"
    press(mode, "gm")
    press(mode, ASK_UNDO)
    press(mode, "undo")
    assert not mode.fight.journal
    calendar(capsys, "pass", "1")  # day 367
    assert len(curses_named(gm_sunset(mode))) == 1
    assert mode.journal[-1].startswith('sunset {"curses": [["駆け出し冒険者１", "Mio", 1, 367]]')


@pytest.mark.needs_japanese_font
@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", ["800x480", "1024x600", "720x1280"])
def test_two_curses_due_at_one_sunset_name_both_targets(
        user_dirs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        size: str, scale: float) -> None:
    """reviews68 RISK 3 (its sunset_png.py): Mio curses PC 1 and Ken PC 2, 366 days pass,
    three PCs and three orcs: at GM → Sunset each curse's target is on the screen in the
    Result (at 1.25 the first curse was cut to "GM-MAGIC-13 呪殺呪/Death Curse:…", and PC 1's
    row to "呪殺呪 curse …": PC 1's death named nowhere)."""
    monkeypatch.setitem(screen_module.LAYOUTS, "720x1280", (720, 1280))
    calendar(capsys, "curse", "Mio", PC1)
    calendar(capsys, "curse", "Ken", PC2)
    calendar(capsys, "pass", "366")
    mode = new_mode("pc1", "pc2", "knight_m")
    gm_sunset(mode)
    ask = mode.ask()
    assert ask is not None and hasattr(ask, "options")
    rows = result_shown(size, scale,
                        mode.view(ask.prompt, options=ask.options, highlight=0))
    for target in (f"{PC1}PC1diesatthissunset", f"{PC2}PC2diesatthissunset"):
        assert target in rows, rows
