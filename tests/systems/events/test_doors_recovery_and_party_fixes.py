"""The events system's doors, recovery spots, party reset, dice.expressions and shields.

The findings of the events70 audit of the `events` system and the dice tray's rolls.

DEFECT 1: with the lock tried first (EV-DOOR-2 trap_first=false), a door with no trap said
"The trap is left armed" when the lock held (EV-DOOR-4).
DEFECT 2: a recovery spot (EV-REC-1) whose rating the rating table lacks was spent, every
gain "?", and once the row was added, coming back gave nothing.
DEFECT 3: `events party --reset aki` did not find Aki, as `--who aki` does.
DEFECT 4: `dice.expressions` closed a bracket with any closer: `choice[a,(b]` was refused.
DEFECT 5: a full-width comma did not separate `dice.expressions`.
DEFECT 6: the party file took a negative shield, which EV-TRAP-5's evasion roll then used.
NIT 7: EV-MON-1 said "the species from your list" when the list had none of the level.
NIT 8: `events defaults` did not say that a check's fixed roll of 0 is DM Lv + bonus.
NIT 9: the rating table read ５ but not ＊, and read 1_0 as 10.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.dice_expressions import parse_expressions
from companion.app.party_hp import PartyHP, party_hp_path
from companion.dice import ScriptedDice
from companion.errors import DataError
from companion.systems.events.lists import load_lists
from companion.systems.events.rules import load_rules
from companion.systems.events.run import run_event
from companion.systems.events.sword_world import (
    Member,
    RatingTable,
    load_party,
    load_rating_table,
)
from tests.systems.events.helpers import PARTY_FILE
from tests.systems.events.walk_helpers import d6, sw, texts

AKI = Member("Aki", adventurer=3, thief=3, dexterity=3, hp=20, max_hp=25, mp=10, max_mp=12)
BEN = Member("Ben", adventurer=2, sage=2, hp=14, max_hp=16, mp=18, max_mp=21)
LOCK_FIRST = load_rules().with_overrides({"EV-DOOR-2": {"trap_first": False}})
HEADER = "rating,2,3,4,5,6,7,8,9,10,11,12\n"
#: Ratings 5 and 10 (DM Lv 1 and 2 at the Default 5 per level); every base power is 3.
RATINGS = HEADER + "5,3,3,3,3,3,3,3,3,3,3,3\n10,3,3,3,3,3,3,3,3,3,3,3\n"


def _door(face: int, party: tuple[Member, ...]) -> list[tuple[str, str]]:
    """The door's steps with the lock tried first and holding (a １ゾロ when rolled)."""
    dice = ScriptedDice([(6, face), *([(6, 1), (6, 1)] if party[0].thief else [])])
    report = run_event("door", dice, rules=LOCK_FIRST, mode="sw", party=party)
    assert dice.remaining == []
    return [(step.rule, step.text) for step in report.steps]


@pytest.mark.parametrize("face", [2, 3, 4, 5])
@pytest.mark.parametrize("party", [(AKI, BEN), (BEN,)], ids=["thief", "no thief"])
def test_ev_door_4_a_door_with_no_trap_leaves_none_armed(
        face: int, party: tuple[Member, ...]) -> None:
    """DEFECT 1: 鍵 only (faces 2–5): the lock holds, the party goes home, and that is all."""
    steps = _door(face, party)
    assert steps[-1][0] == "EV-DOOR-4" and "帰れ！/Go home!" in steps[-1][1]
    assert not any("trap" in text.lower() or "罠" in text for _, text in steps[1:])


@pytest.mark.parametrize("party", [(AKI, BEN), (BEN,)], ids=["thief", "no thief"])
def test_ev_door_4_a_trapped_door_still_leaves_its_trap_armed(
        party: tuple[Member, ...]) -> None:
    """DEFECT 1's counterpart: 罠＋鍵 (face 1) still says its trap is left armed."""
    assert _door(1, party)[-1] == ("EV-DOOR-4", "罠はそのまま/The trap is left armed: the "
                                                "party goes home")


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_ev_rec_1_a_rating_the_table_lacks_is_refused_before_the_room_is_spent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DEFECT 2: at DM Lv 3 the rating is 15, which the table lacks: refused, naming the
    file and the rating, with nothing rolled, no HP changed and room B not used; once the
    row is added, room B recovers."""
    party = _write(tmp_path, "party.toml", PARTY_FILE)
    ratings = _write(tmp_path, "r.csv", RATINGS)
    args = ["events", "recovery", "--mode", "sw", "--party", party, "--ratings", ratings,
            "--seed", "2", "--level", "3", "--room", "B"]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert (f"{ratings} has no line for rating 15 (DM Lv 3 × 5), which the recovery spot's "
            "base power is read from (EV-REC-1): add it, the rating, then the values for 2D6 "
            "totals 2 to 12 (EV-CORE-3); nothing was rolled; room B is not used") in err
    assert main(["events", "rooms"]) == 0
    assert capsys.readouterr().out == "No recovery spot used yet\n"
    assert not party_hp_path().exists()

    _write(tmp_path, "r.csv", RATINGS + "15,3,3,3,3,3,3,3,3,3,3,3\n")
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Aki: HP +3, MP +3" in out and "HP 20 → 23/25, MP 5 → 8/12" in out
    assert "room B now used" in out


def test_ev_rec_2_the_option_s_rating_is_the_one_checked() -> None:
    """DEFECT 2 with EV-REC-2 on: its fixed rating 10 is the one read, whatever DM Lv."""
    table = load_rating_table(RATINGS, "r.csv")
    rules = load_rules().with_overrides({"EV-REC-2": {"enabled": True}})
    dice = ScriptedDice([(6, 3), (6, 4)] * 2)
    report = run_event("recovery", dice, rules=rules, mode="sw", party=(AKI,), dm_level=9,
                       rating_table=table)
    assert [s.data["value"] for s in report.find("EV-CORE-3")] == [3, 3]
    with pytest.raises(DataError, match=r"^r\.csv has no line for rating 15 \(DM Lv 3 × 5\)"):
        run_event("recovery", ScriptedDice([]), mode="sw", party=(AKI,), dm_level=3,
                  rating_table=table)


@pytest.mark.parametrize(("mode", "table"), [
    ("generic", load_rating_table(RATINGS)), ("generic", None)])
def test_ev_rec_1_the_gm_reads_the_book_as_before(mode: str, table: RatingTable | None) -> None:
    """DEFECT 2's fix leaves generic mode, where the GM applies the gains by hand: "?", and
    the spot is used. (sw mode with no table at all is refused as a missing row is since
    reviewe70 DEFECT 1: tests/systems/events/test_recovery_without_rating_table.py.)"""
    report = run_event("recovery", ScriptedDice([(6, 3)] * 4), mode=mode, party=(AKI,),
                       dm_level=3, room="B", rating_table=table)
    assert [s.data["value"] for s in report.find("EV-CORE-3")] == [None, None]
    assert report.steps[-2].data == {"room": "B", "room_used": True}


@pytest.mark.parametrize("typed", ["aki", "ＡＫＩ", "ａｋｉ", " Aki "])
def test_party_reset_finds_a_name_whatever_its_width_and_case(
        typed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DEFECT 3: `--reset aki` forgets Aki's HP, as `--who aki` finds Aki."""
    party = _write(tmp_path, "party.toml", PARTY_FILE)
    PartyHP(party_hp_path()).keep(load_party(PARTY_FILE), {"Aki": {"hp": -4}})
    assert main(["events", "party", "--party", party]) == 0
    assert capsys.readouterr().out == "Aki: HP 16/25, MP 5/12\n"
    assert main(["events", "party", "--party", party, "--reset", typed]) == 0
    assert capsys.readouterr().out == ("Forgot the HP and MP kept for Aki: the party file's "
                                       "values are taken\nAki: HP 20/25, MP 5/12\n")
    assert PartyHP(party_hp_path()).kept == {}


def test_party_forget_leaves_the_others() -> None:
    """DEFECT 3: folding finds the name asked, not everyone."""
    pools = PartyHP(party_hp_path())
    pools.keep((AKI, BEN), {"Aki": {"hp": -1}, "Ben": {"hp": -1}})
    assert pools.forget(["ＢＥＮ"]) == ["Ben"]
    assert list(PartyHP(party_hp_path()).kept) == ["Aki"]


@pytest.mark.parametrize(("text", "expressions"), [
    # DEFECT 4: a choice's list ends at its own closer; the other kind is an item's
    ("choice[a,(b], 1D6", ("choice[a,(b]", "1D6")),
    ("choice[:),:(], 1D6", ("choice[:),:(]", "1D6")),
    ("choice(a,[b), 2D6", ("choice(a,[b)", "2D6")),
    ("Schoice2［a,(,b］, x2 choice[(,)], 1D6", ("Schoice2［a,(,b］", "x2 choice[(,)]", "1D6")),
    ("((1D6+1)*2), 1D6", ("((1D6+1)*2)", "1D6")),
    # DEFECT 5: a full-width comma separates as a comma does, outside brackets only
    ("２Ｄ６，１Ｄ６", ("２Ｄ６", "１Ｄ６")),
    ("choice［赤，青］，1D6", ("choice［赤，青］", "1D6")),
])
def test_dice_expressions_split_as_the_parser_reads_a_choice(
        text: str, expressions: tuple[str, ...]) -> None:
    """DEFECT 4 and 5: each part is one roll `companion roll` takes."""
    assert parse_expressions(text) == expressions


def test_a_closer_of_another_kind_closes_no_bracket() -> None:
    """DEFECT 4: outside a choice, `]` does not close `(`: the `(` is named as open."""
    with pytest.raises(DataError, match=r"the bracket \( at character 5 of '2D6 \(x\], 1D6' "
                                        "is never closed"):
        parse_expressions("2D6 (x], 1D6")


@pytest.mark.parametrize("value", ["choice[a,(b], 1D6", "２Ｄ６，１Ｄ６"])
def test_config_takes_the_audit_s_settings(value: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """DEFECT 4 and 5's repro: `config --set` refused both (exit 2)."""
    assert main(["config", "--set", f"dice.expressions={value}"]) == 0
    assert "error" not in capsys.readouterr().err


def test_a_negative_shield_is_refused() -> None:
    """DEFECT 6: shield is an evasion bonus (EV-TRAP-5): −5 is no shield's."""
    text = '[[member]]\nname = "Aki"\nthief = 1\n[[member]]\nname = "Ben"\nshield = -5\n'
    with pytest.raises(DataError, match=r"^p2\.toml: member 2 \(Ben\): shield must be 0 or "
                                        "more, found -5$"):
        load_party(text, "p2.toml")
    assert load_party(text.replace("-5", "0"), "p2.toml")[1].shield == 0


def test_ev_mon_1_the_species_is_from_the_list_only_when_it_has_the_level() -> None:
    """NIT 7: a list with no level-2 monster: the GM picks, said alike on both lines; a list
    with one still says the species is from it."""
    lists = load_lists('[[monster]]\nname = "G"\nlevel = 7\n', "l.toml")
    report = run_event("monster", ScriptedDice([(6, 3), (6, 3)]), lists=lists)
    first, why = report.find("EV-MON-1")
    assert first.text.endswith("(DM Lv 1 (default) + 1); the GM picks the species")
    assert why.text == "Your list has no level-2 monster: the GM picks the species"
    report = run_event("monster", ScriptedDice([(6, 3), (6, 3)]), lists=lists, dm_level=6)
    first, picked = report.find("EV-MON-1")
    assert first.text.endswith("(DM Lv 6 + 1); the species from your list")
    assert picked.data == {"picked": "G"}


def test_events_defaults_says_what_a_fixed_roll_of_0_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 8: each check's fixed roll (EV-CORE-1) says 0 is DM Lv + fixed_roll_bonus, with
    the target it makes; the DM level and the bonus themselves do not."""
    assert main(["events", "defaults", "--set", "EV-CORE-1.fixed_roll_bonus=5",
                 "--set", "EV-CORE-1.dm_level=2"]) == 0
    rows = {tuple(line.split()[:2]): line for line in capsys.readouterr().out.splitlines()
            if line.startswith("EV-CORE-1 ")}
    for key in ("disarm", "unlock", "search", "unlock_spell", "appraisal", "pharmacology",
                "toxicity", "trap"):
        assert rows["EV-CORE-1", key].endswith(
            "range: from 0 to 200  0: DM Lv + fixed_roll_bonus (7 at DM Lv 2)")
    assert "0: DM Lv" not in rows["EV-CORE-1", "dm_level"] + rows["EV-CORE-1",
                                                                   "fixed_roll_bonus"]


def test_the_rating_table_reads_full_width_cells_and_digits_only() -> None:
    """NIT 9: ＊ is * as ５ is 5; 1_0 (which int() read as 10) is refused."""
    table = load_rating_table(HEADER + "５,＊,０,１,１,２,３,４,４,５,５,６\n")
    assert table.rows == {5: (None, 0, 1, 1, 2, 3, 4, 4, 5, 5, 6)}
    with pytest.raises(DataError, match=r"^b\.csv line 2: rating must be a whole number, "
                                        "found '1_0'$"):
        load_rating_table(HEADER + "1_0,*,0,1,1,2,3,4,4,5,5,6\n", "b.csv")
    with pytest.raises(DataError, match=r"2D6=12 must be a whole number or \*, found '٣'$"):
        load_rating_table(HEADER + "5,*,0,1,1,2,3,4,4,5,5,٣\n", "b.csv")


def test_ev_door_2_disarm_and_lock_say_who_tries_alike_and_a_flat_roll_names_no_thief(
        ) -> None:
    """events74 NIT 6: the disarm said "(best Thief + DEX (default))", the lock in the same
    walk "(best Thief + DEX)", and a flat roll (thief_only off, no Thief) "(best Thief +
    DEX)", a Thief + DEX it does not add."""
    trapped_lock = sw("door", d6(1, 3, 3, 3, 3))  # TRAPPED + LOCKED: disarm, then the lock
    said = texts(trapped_lock, "EV-DOOR-2")
    assert [t.split(" vs ")[0] for t in said if "Aki: " in t] == [
        "Aki: 罠解除（シーフ・器用度）/Disarm trap (best Thief + DEX; Thief only (default))",
        "Aki: 鍵開け（シーフ・器用度）/Open lock (best Thief + DEX; Thief only (default))"]
    flat = sw("door", d6(2, 3, 3), party=(BEN,), overrides={"EV-DOOR-2": {"thief_only": False}})
    (line,) = [t for t in texts(flat, "EV-DOOR-2") if t.startswith("Ben: ")]
    assert line.split(" vs ")[0] == ("Ben: 鍵開け（シーフ・器用度）/Open lock 平目/flat roll "
                                     "(no Thief: anyone may try)")
