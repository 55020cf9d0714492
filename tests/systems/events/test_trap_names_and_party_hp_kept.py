"""The events command: Japanese trap and table names, the party's HP kept between commands.

cli59: the events command from a new user's seat: Japanese trap names and table names
(F10), the party's HP kept between commands (F4), and the wording of F11."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.party_hp import PARTY_HP_NAME, PartyHP, party_hp_path
from companion.app.paths import config_dir
from companion.app.poisons import poisons_path
from companion.app.recovery_rooms import RecoveryRooms, rooms_path
from companion.dice.sources import ScriptedDice
from companion.errors import DataError
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member, load_party, load_rating_table
from tests.disk import refuse_writes
from tests.systems.events.helpers import PARTY, RATINGS, VITALITY_DAMAGE, _events


def test_a_trap_is_named_by_its_japanese_name_too() -> None:
    """F10: `events trap --trap 落とし穴` was refused; the kind or the Japanese (with or
    without the table's bracket, any width) names the same row."""
    for name in ("落とし穴", "pit", "ＰＩＴ"):
        report = run_event("trap", ScriptedDice([]), trap=name)
        assert report.steps[0].text.startswith("罠/Trap: 落とし穴/Pit (named, no roll: "
                                               "EV-DOOR-3) — ")
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


# --- F4: the party's HP and MP kept between tables ---------------------------------------


def test_a_recovery_after_poison_damage_caps_from_the_hp_left(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """F4, EV-POI-8 then EV-REC-1: Ben (HP 14/16) loses 3 HP to a poison over a rest; the
    recovery's +4 was capped from the party file's 14 (+2), and a second recovery capped
    from the same 14 again. Now from 11 (+4, to 15), then from 15 (+1, to 16); the party
    file is never written."""
    party, ratings = files
    before = party.read_bytes()
    poisons_path().parent.mkdir(parents=True)
    poisons_path().write_text(VITALITY_DAMAGE, encoding="utf-8")
    code, out, _ = _events(capsys, "rest", "--hours", "3", "--party", str(party))
    assert code == 0 and "3 HP lost (3/3) (HP 14 → 11)" in out
    sw = ("--mode", "sw", "--party", str(party), "--ratings", str(ratings), "--seed", "1")
    _, out, _ = _events(capsys, "recovery", *sw)
    assert ("Ben: HP +4, MP +3 (capped at maximum MP 21 (default)); "
            "HP 11 → 15/16, MP 18 → 21/21") in out
    _, out, _ = _events(capsys, "recovery", *sw)
    assert "Ben: HP +1, MP +0 (capped at maximum HP 16, MP 21 (default)); HP 15 → 16/16" in out
    _, out, _ = _events(capsys, "party", "--party", str(party))
    assert out == "Aki: HP 25/25, MP 12/12\nBen: HP 16/16, MP 21/21\n"
    assert party.read_bytes() == before


def test_trap_damage_is_kept_and_shown_beside_the_member(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F4, EV-TRAP-2/3: an explosion's damage is said with the HP it leaves, and kept: the
    next command starts from it."""
    party, ratings = files
    # Aki fumbles the resistance (1,1) and takes rating 5's 4 in full; Ben resists (6,6):
    # rating 0's 1, less his level 2, is no damage.
    monkeypatch.setattr("sys.stdin", io.StringIO("1 1\n3 3\n6 6\n3 3\n"))
    code, out, _ = _events(capsys, "trap", "--trap", "explosion", "--mode", "sw", "--party",
                           str(party), "--ratings", str(ratings), "--dice", "typed")
    assert code == 0
    assert ("Aki: 4 − armour n/a (energy) − Lv 0 (１ゾロ: no level reduction) ＞ 4 damage; "
            "HP 20 → 16/25") in out
    assert ("Ben: 1 − armour n/a (energy) − Lv 2 (level reduction (default)) ＞ 0 damage; "
            "HP 14/16") in out
    _, out, _ = _events(capsys, "party", "--party", str(party), "--json")
    assert json.loads(out)["party"] == {"Aki": {"hp": 16, "mp": 10}, "Ben": {"hp": 14, "mp": 18}}


def test_the_party_files_new_value_wins_and_is_said_once(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """F4: the GM heals Ben by hand in the party file (hp 14 → 16) after the events kept
    11: the file's 16 is taken, said once on stderr, and kept from then on."""
    party, _ = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Ben": {"hp": -3}})
    _, out, _ = _events(capsys, "party", "--party", str(party))
    assert "Ben: HP 11/16" in out
    party.write_text(PARTY.replace("hp = 14", "hp = 16"), encoding="utf-8")
    _, out, err = _events(capsys, "party", "--party", str(party))
    assert "Ben: HP 16/16" in out
    assert err == ("companion: note: Ben: the party file's hp is 16, not the 14 the kept HP 11 "
                   "came from: the file's 16 is taken\n")
    _, out, err = _events(capsys, "party", "--party", str(party))
    assert "Ben: HP 16/16" in out and err == ""


def test_a_list_that_is_not_one_is_kept_aside_and_the_files_values_used(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    """F4: a kept list that cannot be read is moved aside as the poison list's is, named in
    a notice, and the party file's HP and MP are used."""
    party, _ = files
    party_hp_path().parent.mkdir(parents=True)
    party_hp_path().write_text("[Ben\nhp = ", encoding="utf-8")
    code, out, err = _events(capsys, "party", "--party", str(party))
    assert code == 0 and "Ben: HP 14/16" in out
    assert f"{party_hp_path()} is not a list of the party's HP and MP" in err
    assert "the party file's HP and MP are used" in err
    assert not party_hp_path().exists()
    assert [p.name for p in party_hp_path().parent.iterdir()
            if p.name.startswith(PARTY_HP_NAME)] != []


def test_a_refused_hp_list_is_said_and_the_room_not_spent(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F4: the disk refuses the HP list after a recovery: the roll is shown, stderr says
    which HP was not kept, exit 1, and the room is not marked (its spot not spent)."""
    party, ratings = files
    PartyHP(party_hp_path()).keep(load_party(PARTY), {"Ben": {"hp": -3}})
    refuse_writes(party_hp_path(), monkeypatch)
    code, out, err = _events(capsys, "recovery", "--mode", "sw", "--party", str(party),
                             "--ratings", str(ratings), "--room", "2", "--seed", "1")
    assert code == 1 and "HP 11 → 15/16" in out
    assert err.startswith(f"companion: cannot save the party's HP and MP ({party_hp_path()}")
    assert "Ben HP 11 → 15 not kept" in err and "room 2 not marked used" in err
    assert RecoveryRooms(rooms_path()).used == []
    assert PartyHP(party_hp_path()).kept["Ben"]["hp"].now == 11


def test_a_walk_caps_from_the_hp_it_is_given_and_returns_the_changes() -> None:
    """F4, the pure engine: the walk takes the members' HP as given (the kept values), says
    the HP after each change, and returns the changes (``pool_changes``), writing nothing."""
    hurt = Member("Ben", adventurer=2, hp=11, max_hp=16, mp=18, max_mp=21)
    rating = load_rating_table(RATINGS)
    report = run_event("recovery", ScriptedDice([(6, 1)] * 4), mode="sw", party=(hurt,),
                       rating_table=rating)
    (line,) = [s for s in report.find("EV-REC-1") if s.member]
    assert line.data == {"hp": 4, "mp": 3, "hp_after": 15, "mp_after": 21}
    assert report.pool_changes() == {"Ben": {"hp": 4, "mp": 3}}


def test_sw_mode_with_no_party_names_the_file_the_example_and_the_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    """F11: "…(companion events --party FILE, or saved as events_party.toml in the config
    folder)": now the config folder's full path, the example to copy, and TABLE."""
    assert main(["events", "door", "--mode", "sw", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "`companion events TABLE --party FILE`" in err
    assert str(config_dir() / "events_party.toml") in err
    example = err.split("copy the example ")[1].strip()
    assert Path(example).is_absolute() and Path(example).is_file()
    assert load_party(Path(example).read_text(encoding="utf-8"))
