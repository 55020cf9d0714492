"""The events system's sw recovery with no rating table; the tray's throw count; footer.

The findings of the reviewe70 review of the events70 and carry70 fixes.

DEFECT 1: in sw mode with no --ratings at all, a named recovery spot (EV-REC-1) was spent,
every gain "?", nothing recovered; once the table was given, coming back gave nothing.
RISK 2: the dice tray's folder that ran out named "throw N" by every read since the tray
opened: a table's first die after two plain rolls was "throw 3".
NIT 1: a bracket left open in dice.expressions was named as the first still open, one the
user had closed: the ( of `2D6 attack (sword [left)`.
NIT 4: `config --show`'s footer said `found " "` of a value of two spaces.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.config import exact_wrap
from companion.app.dice_expressions import parse_expressions
from companion.app.help_format import cell_len
from companion.app.modes.dice_tray import DiceTrayMode
from companion.app.party_hp import party_hp_path
from companion.app.paths import config_dir
from companion.app.session.mode import RollAsk, Throw
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.hw.buttons import Button
from companion.systems.events.rules import NoParty, load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import Member, load_rating_table
from tests.app.dice_camera_helpers import Hands, Now, a_folder_of, said_on_running_out, tray_rolls
from tests.systems.events.helpers import PARTY_FILE

AKI = Member("Aki", adventurer=3, thief=3, dexterity=3, hp=20, max_hp=25, mp=10, max_mp=12)

#: Rating 15 (DM Lv 3 × 5): every base power 3.
RATINGS = "rating,2,3,4,5,6,7,8,9,10,11,12\n15,3,3,3,3,3,3,3,3,3,3,3\n"


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("overrides", "rating"), [
    ({}, "rating 15 (DM Lv 3 × 5, EV-CORE-3)"),
    ({"EV-REC-2": {"enabled": True}},
     "rating 10 (fixed, EV-REC-2 option; plus 2 each: DM Lv − 1, at least 1, EV-CORE-3)"),
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


# --- RISK 2: the throw a folder ran out at is the roll's or table's, not the folder's -----


def test_the_tray_asks_a_table_s_follow_up_as_its_second_throw() -> None:
    """The tray says which throw of its table each RollAsk is (the camera names it if the
    pictures run out); a plain roll asked again is its own first throw."""
    mode = DiceTrayMode(("1D6",), "typed 入力")
    mode.answer(1)  # Tables
    mode.answer(3)  # Monster
    first = mode.ask()
    assert isinstance(first, RollAsk) and first.throw == 1
    mode.answer(Throw((2,)))  # a level+1 row: how many, 1/2D, is the next throw
    second = mode.ask()
    assert isinstance(second, RollAsk) and second.throw == 2 and "roll 2" in second.prompt
    plain = DiceTrayMode(("1D6",), "typed 入力")
    plain.answer(0)
    plain.answer(Throw((4,)))
    plain.answer(0)  # Again
    again = plain.ask()
    assert isinstance(again, RollAsk) and again.throw == 1


def test_a_folder_that_runs_out_at_a_second_plain_roll_names_no_throw_2(
        tmp_path: Path) -> None:
    """RISK 2: two plain rolls from a folder of one throw's frames: the first is read and
    accepted; the pictures run out in the second, which is that roll's only throw. It said
    "the dice of throw 2 (2D6)", read as the roll's second throw; the folder's own count is
    said apart: one throw read from it."""
    folder = a_folder_of(tmp_path, 8)
    hands = Hands([("Read 読み取り 2D6", [Button.ATTACK]),
                   ("The dice camera", [Button.FLEE])], Now())  # type: ignore[arg-type]
    rolls = tray_rolls(folder, hands)
    try:
        assert rolls.next_throw(RollAsk("Roll 2D6", 2, 6), hands.show).values
        throw = rolls.next_throw(RollAsk("Again 2D6", 2, 6), hands.show)
    finally:
        rolls.close()
    said = said_on_running_out(hands)
    assert f"{folder}: before the dice lay still in 4 of them in a row" in said
    assert "throw 2" not in said and "1 throw was read from it" in said
    assert throw.failure.startswith(f"{folder}: its pictures ran out before the dice lay")


# --- NIT 1: the bracket named as never closed is the one left open ------------------------


@pytest.mark.parametrize(("text", "bracket", "at"), [
    ("2D6 attack (sword [left), 1D6", "[", 19),  # the review's: the ( is closed by the )
    ("2D6 attack (sword ［left）, 1D6", "［", 19),  # full width, as the parser folds it
    ("2D6 ((a [b), 1D6", "[", 9),
    ("2D6 (x], 1D6", "(", 5),  # events70 DEFECT 4's: the ] closes nothing
    ("2D6 (a [b) c], 1D6", "(", 5),  # crossed: each has its closer; the first is named
])
def test_the_bracket_named_never_closed_is_one_left_open(text: str, bracket: str,
                                                          at: int) -> None:
    with pytest.raises(DataError, match=rf"the bracket {re.escape(bracket)} at character "
                                        rf"{at} of .* is never closed"):
        parse_expressions(text)


# --- NIT 4: config --show's footer quotes the value refused as it is ----------------------


@pytest.mark.parametrize("value", ["  ", "　", " \t "])
def test_the_footer_quotes_a_spaces_only_value_as_the_file_has_it(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The notice under the listing said `found " "` of `camera_source = "  "`: the
    wrapping squeezed the spaces that are the whole point of the refusal. It says what
    stderr says, as the file has it (a tab TOML-escaped, as stderr has it too)."""
    config_dir().mkdir(parents=True, exist_ok=True)
    path = config_dir() / "config.toml"
    path.write_text(f'[dice]\ncamera_source = "{value}"\n', encoding="utf-8")
    assert main(["config", "--show"]) == 1
    out, err = capsys.readouterr()
    found = f'found "{value.replace(chr(9), chr(92) + "t")}"'
    assert found in err
    footer = out[out.index("problem with the settings"):]
    assert found in " ".join(line.removeprefix("#").strip() for line in footer.splitlines())


def test_the_footer_still_wraps_at_single_spaces() -> None:
    """Only the spaces kept are kept: the words still wrap to the width."""
    text = "a notice " * 12 + 'found "  " at the end'
    lines = exact_wrap(text, 30)
    assert all(cell_len(line) <= 30 for line in lines) and len(lines) > 3
    assert " ".join(lines).endswith('found "  " at the end')


def test_ev_rec_2_s_bonus_is_said_added_to_each_gain_not_to_the_rating() -> None:
    """events74 NIT 6: "rating 10 (fixed rating 10 + bonus 2 (EV-REC-2 option))" read as a
    rating of 12, and the member's "HP +8" under a base power of 6 said the sum nowhere."""
    rules = load_rules().with_overrides({"EV-REC-2": {"enabled": True}})
    table = load_rating_table("rating,2,3,4,5,6,7,8,9,10,11,12\n10,1,2,3,4,5,6,7,8,9,10,11\n",
                              "r.csv")
    report = run_event("recovery", ScriptedDice([(6, 3), (6, 4), (6, 1), (6, 1)]), rules=rules,
                       dm_level=3, rating_table=table)
    head, *_, gains = [s.text for s in report.find("EV-REC-1")][:2]
    assert head.startswith("回復/Recovery spot: poison cured; HP and MP recover base power at "
                           "rating 10 (fixed, EV-REC-2 option; plus 2 each: DM Lv − 1, at "
                           "least 1);")
    assert gains == "each member: HP +8 (6 + 2), MP +3 (1 + 2)"
