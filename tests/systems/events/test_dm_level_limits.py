"""events70 NIT 10: a DM level (EV-CORE-1) with no upper bound failed on an expression the
user never typed. ``--level 10**30`` in sw mode built ``2D6+6>=1000…0007`` and the dice
parser's 30-digit limit named that internal text; ``--set`` of EV-CORE-1's numbers and a
party file's levels and bonuses reached the same expression. Now each is refused where it
is read, naming its limit and its key.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import PARTY_NUMBER_MAX, load_party
from tests.systems.events.helpers import PARTY_FILE

HUGE = str(10**30)


def _party(folder: Path, text: str = PARTY_FILE) -> str:
    path = folder / "party.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "digits" not in err and ">=" not in err  # not the internal check expression
    return err


def test_the_packaged_dm_level_limit_is_data() -> None:
    settings = load_rules().settings
    assert settings.range_of("EV-CORE-1", "dm_level") == "from 1 to 100"
    assert settings.out_of_range() == []


def test_level_beyond_the_limit_is_refused_naming_the_limit_and_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, ["events", "door", "--mode", "sw", "--party", _party(tmp_path),
                            "--seed", "1", "--level", HUGE])
    assert f"DM level must be from 1 to 100 (EV-CORE-1.dm_level), found {HUGE}" in err


def test_level_0_keeps_its_wording_with_the_range() -> None:
    with pytest.raises(DataError, match=r"^DM level must be from 1 to 100 "
                                        r"\(EV-CORE-1\.dm_level\), found 0$"):
        run_event("monster", ScriptedDice([]), dm_level=0)


def test_the_limit_is_the_data_s_not_the_code_s() -> None:
    text = files("companion.systems.events").joinpath("data", "events.toml").read_text("utf-8")
    wider = text.replace("dm_level = { min = 1, max = 100 }", "dm_level = { min = 1, max = 200 }")
    assert wider != text
    rules = load_rules(wider, "events.toml")
    report = run_event("monster", ScriptedDice([(6, 1), (6, 1)]), rules=rules, dm_level=150)
    assert report.dm_level == 150


def test_the_top_level_is_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["events", "door", "--mode", "sw", "--party", _party(tmp_path),
                 "--seed", "1", "--level", "100"]) == 0
    assert "DM Lv 100 + 7" in capsys.readouterr().out


@pytest.mark.parametrize(("key", "span"), [
    ("dm_level", "from 1 to 100"), ("fixed_roll_bonus", "from 0 to 100"),
    ("unlock", "from 0 to 200"), ("trap", "from 0 to 200"),
])
def test_set_beyond_the_limit_is_refused_where_it_is_set(
        key: str, span: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, ["events", "door", "--mode", "sw", "--party", _party(tmp_path),
                            "--seed", "1", "--set", f"EV-CORE-1.{key}={HUGE}"])
    assert f"--set: EV-CORE-1.{key} must be {span}, found {HUGE}" in err


@pytest.mark.parametrize("key", ["thief", "dexterity", "shield", "hp"])
def test_a_party_number_beyond_the_limit_is_refused_naming_it(
        key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = PARTY_FILE.replace('name = "Aki"\n', f'name = "Aki"\n{key} = {HUGE}\n')
    text = text.replace("thief = 3\n", "") if key == "thief" else text
    text = text.replace("hp = 20\n", "").replace("max_hp = 25\n", "") if key == "hp" else text
    err = _refused(capsys, ["events", "door", "--mode", "sw", "--party", _party(tmp_path, text),
                            "--seed", "1"])
    assert f"member 1 (Aki): {key} must be {PARTY_NUMBER_MAX} or less, found {HUGE}" in err


def test_a_party_number_at_the_limit_is_kept() -> None:
    text = f'[[member]]\nname = "Aki"\nhp = -{PARTY_NUMBER_MAX}\nmax_hp = {PARTY_NUMBER_MAX}\n'
    assert load_party(text, "p.toml")[0].max_hp == PARTY_NUMBER_MAX
    with pytest.raises(DataError, match=rf"^p\.toml: member 1 \(Aki\): hp must be "
                                        rf"-{PARTY_NUMBER_MAX} or more, found -{HUGE}$"):
        load_party(text.replace(f"-{PARTY_NUMBER_MAX}", f"-{HUGE}"), "p.toml")
