"""The findings of the reviewe70 review of the events70 and carry70 fixes.

DEFECT 1: in sw mode with no --ratings at all, a named recovery spot (EV-REC-1) was spent,
every gain "?", nothing recovered; once the table was given, coming back gave nothing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.party_hp import party_hp_path
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.events.rules import NoParty, load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member

AKI = Member("Aki", adventurer=3, thief=3, dexterity=3, hp=20, max_hp=25, mp=10, max_mp=12)

PARTY_FILE = """
[[member]]
name = "Aki"
thief = 3
hp = 20
max_hp = 25
mp = 5
max_mp = 12
"""
#: Rating 15 (DM Lv 3 × 5): every base power 3.
RATINGS = "rating,2,3,4,5,6,7,8,9,10,11,12\n15,3,3,3,3,3,3,3,3,3,3,3\n"


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("overrides", "rating"), [
    ({}, "rating 15 (DM Lv 3 × 5, EV-CORE-3)"),
    ({"EV-REC-2": {"enabled": True}},
     "rating 10 (fixed rating 10 + bonus 2 (EV-REC-2 option), EV-CORE-3)"),
])
def test_sw_recovery_with_no_rating_table_is_refused_before_a_die(
        overrides: dict[str, dict[str, object]], rating: str) -> None:
    """DEFECT 1: no die is asked (the scripted source has none), and the refusal names
    --ratings, the rating it would read, and why: the spot is given once."""
    rules = load_rules().with_overrides(overrides)
    with pytest.raises(DataError) as caught:
        run_event("recovery", ScriptedDice([]), rules=rules, mode="sw", party=(AKI,),
                  dm_level=3, room="C")
    said = str(caught.value)
    assert said.startswith("the recovery spot's HP and MP are its base power read off your "
                           f"rating table at {rating}, and none was given: sw mode keeps "
                           "them and the spot gives them once (EV-REC-1)")
    assert "Give your rating table with --ratings FILE, a CSV whose first line is " in said
    assert said.endswith("; nothing was rolled; room C is not used")


def test_sw_recovery_without_a_party_still_asks_for_the_party_first() -> None:
    """The party is what sw mode lacks first: asked for before the table, as before."""
    with pytest.raises(NoParty, match="sw mode needs the party"):
        run_event("recovery", ScriptedDice([]), mode="sw", dm_level=3)


def test_a_used_room_needs_no_table() -> None:
    """Coming back to a used spot rolls nothing, so nothing is read and nothing refused."""
    report = run_event("recovery", ScriptedDice([]), mode="sw", party=(AKI,), room="C",
                       used_rooms={"C"})
    assert report.steps[0].data["used_before"] is True


def test_the_review_s_repro_then_given_ratings_recovers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DEFECT 1's repro: refused (exit 2), room C not used and no HP kept; the same command
    run again with the --ratings it asks for recovers in room C, which is then used."""
    party = _write(tmp_path, "party.toml", PARTY_FILE)
    args = ["events", "recovery", "--mode", "sw", "--party", party, "--seed", "2",
            "--level", "3", "--room", "C"]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "give your rating table with --ratings FILE" in err.replace("Give", "give")
    assert err.rstrip().endswith("nothing was rolled; room C is not used")
    assert main(["events", "rooms"]) == 0
    assert capsys.readouterr().out == "No recovery spot used yet\n"
    assert not party_hp_path().exists()

    ratings = _write(tmp_path, "r.csv", RATINGS)
    assert main([*args, "--ratings", ratings]) == 0
    out = capsys.readouterr().out
    assert "Aki: HP +3, MP +3" in out and "HP 20 → 23/25, MP 5 → 8/12" in out
    assert "room C now used" in out
    assert main(["events", "party", "--party", party]) == 0
    assert capsys.readouterr().out == "Aki: HP 23/25, MP 8/12\n"


def test_typed_dice_ask_nothing_before_the_refusal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--dice typed: the refusal comes before the first die is asked for, so the player
    throws nothing for it."""
    party = _write(tmp_path, "party.toml", PARTY_FILE)
    monkeypatch.setattr("sys.stdin", io.StringIO("3 4\n" * 4))
    assert main(["events", "recovery", "--mode", "sw", "--party", party, "--dice", "typed",
                 "--room", "C"]) == 2
    out, err = capsys.readouterr()
    assert "出目を入力" not in out + err and "Roll 2D6" not in out + err
    assert "nothing was rolled; room C is not used" in err


def test_generic_mode_with_no_table_walks_as_before() -> None:
    """Generic mode: the GM applies the gains by hand, so "?" and the spot used, as before."""
    report = run_event("recovery", ScriptedDice([(6, 3)] * 4), mode="generic", dm_level=3,
                       room="C")
    assert [s.data["value"] for s in report.find("EV-CORE-3")] == [None, None]
    assert report.steps[-2].data == {"room": "C", "room_used": True}
