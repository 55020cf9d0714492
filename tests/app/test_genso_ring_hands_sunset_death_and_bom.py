"""reviewg67's findings on fixg67, fixed: with a Ring of Storage on each hand, naming a hand
that wears one moved the other hand's onto it, its MP lost (RISK 1); `gear --off --hand
right` took the left ring off (RISK 2); `fight sunset` said a combatant dies of a Death
Curse and the fight played them on, the name without its English (RISK 3); a bad byte in a
file with a BOM was reported 3 bytes early (NIT 5); the ring move was made twice over
(NIT 6); the messages wrote the seed's numbers in (NIT 7); a hint lacked the command's
name (NIT 9)."""

from __future__ import annotations

from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.command_name import companion_command
from companion.app.commands.genso.characters import _ring_on, _storage_lost
from companion.app.modes.fight_file import read_fight_data
from companion.app.modes.genso import GensoFightMode, table_session, write_fight_file
from companion.app.overrides import read_text
from companion.errors import DataError
from companion.systems.genso.character.core import Hand
from companion.systems.genso.character.gear import put_on_ring, ring_put_on, take_off_ring
from companion.systems.genso.rules import load_rules
from companion.systems.genso.sheet import preset
from tests.app.genso_cli_out_helpers import unwrapped
from tests.app.genso_json_helpers import genso
from tests.app.genso_ring_hand_helpers import PC1, STORAGE, ringed, rings
from tests.app.genso_table_helpers import SEED, new_fight, two_actions_then_a_stop
from tests.app.table import Player

RULES = load_rules()


# --- RISK 1 -------------------------------------------------------------------------------


def test_a_hand_named_that_wears_the_ring_is_refused_with_one_on_the_other_hand_too(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One Ring of Storage on each hand, none in the pack: `--hand left` moved the right
    one onto the left (its MP lost, two on one hand stopping every ring); it is refused as
    the same command is with one ring, and the sheet is left as it was."""
    sheet = ringed(tmp_path, capsys, 'rings = {left = ["ring_storage"], right = ["ring_storage"]}'
                                     "\nstorage_mp = 10\n")
    before = sheet.read_bytes()
    assert main(["genso", "gear", str(sheet), "ring_storage", "--hand", "left"]) == 2
    err = capsys.readouterr().err
    assert (f"{PC1} wears {STORAGE} on the 左手/left hand already, and carries none in the "
            "pack to put on") in err
    assert sheet.read_bytes() == before


# --- RISK 2 -------------------------------------------------------------------------------


def test_off_takes_the_ring_from_the_hand_named(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--off --hand right` took the left hand's Ring of Storage off (the default hand),
    leaving every ring stopped on the right's behalf; now the right one comes off."""
    sheet = ringed(tmp_path, capsys, 'rings = {left = ["ring_storage", "ring_striking"], '
                                     'right = ["ring_storage"]}\nstorage_mp = 5\n')
    off = genso(capsys, "gear", str(sheet), "ring_storage", "--off", "--hand", "right")
    assert rings(sheet) == {"left": ["ring_storage", "ring_striking"], "right": []}
    assert off["said"].startswith(f"took off {STORAGE}")
    # The right hand wears none now: the hand named is said, not another's ring taken.
    assert main(["genso", "gear", str(sheet), "ring_storage", "--off", "--hand", "right"]) == 2
    assert f"{PC1} wears no {STORAGE} on the 右手/right hand" in capsys.readouterr().err


def test_off_without_a_hand_asks_which_when_one_is_on_each_hand(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With one on each hand, `--off` alone took the left one unasked; it now names both
    hands and writes nothing. One worn on one hand alone needs no --hand."""
    sheet = ringed(tmp_path, capsys, 'rings = {left = ["ring_storage"], right = ["ring_storage"]}'
                                     "\nstorage_mp = 10\n")
    before = sheet.read_bytes()
    assert main(["genso", "gear", str(sheet), "ring_storage", "--off"]) == 2
    assert (f"{PC1} wears {STORAGE} on both hands, the 左手/left and the 右手/right: name the "
            "one to take off with --hand left or --hand right") in capsys.readouterr().err
    assert sheet.read_bytes() == before
    genso(capsys, "gear", str(sheet), "ring_storage", "--off", "--hand", "left")
    off = genso(capsys, "gear", str(sheet), "ring_storage", "--off")
    assert off["sheet"]["equipment"].count("ring_storage") == 2
    assert not any(rings(sheet).values())


# --- RISK 3 -------------------------------------------------------------------------------


def test_fight_sunset_says_the_fight_does_not_mark_a_cursed_combatants_death(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GM-MAGIC-13 due at this sunset for pc1, in the fight: the line said pc1 dies and the
    fight played pc1 on, unsaid; it says the fight does not mark it and how the GM takes
    pc1 out (a command that runs), with pc1's English beside the name."""
    genso(capsys, "calendar", "curse", "Mio", PC1)
    genso(capsys, "calendar", "pass", "366")
    genso(capsys, "fight", "new", "--party", "pc1", "pc2", "--monsters", "orc")
    assert main(["genso", "fight", "sunset"]) == 0
    line = next(x for x in unwrapped(capsys.readouterr().out).splitlines()
                if x.startswith("GM-MAGIC-13"))
    command = f"{companion_command()} genso fight"
    assert line == (
        f"GM-MAGIC-13  呪殺呪/Death Curse: {PC1} PC 1 dies at this sunset, day 367, of Mio's "
        f"curse (cast on day 1), unless Mio lifts it first (`{companion_command()} genso "
        f"calendar pass 1` records it); {PC1} PC 1 is in this fight, which plays them on "
        f"until the death is recorded: the GM ends the fight (`{command} end`) or, before "
        f"`genso calendar pass 1` records the death, takes them out on their turn with "
        f"`{command} flee '{PC1}'` (said as fled); once it is recorded they act no more, and "
        f"`{command} wait '{PC1}'` skips their turn")
    assert main(["genso", "fight", "flee", PC1]) == 0  # as the line says
    assert f"GM-COMBAT-1  {PC1} PC 1 flees" in capsys.readouterr().out
    assert main(["genso", "fight", "end"]) == 0
    capsys.readouterr()
    # Fled, pc1 is out of the fight: the line names the curse alone.
    assert main(["genso", "fight", "sunset"]) == 0
    line = next(x for x in unwrapped(capsys.readouterr().out).splitlines()
                if x.startswith("GM-MAGIC-13"))
    assert line.endswith("records it)")


# --- NIT 5 --------------------------------------------------------------------------------


def test_a_bad_byte_after_a_byte_order_mark_is_counted_in_the_file(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0xFF is the file's 13th byte, after the 3 of the BOM: it was said to be byte 10."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'\xef\xbb\xbfname = "a\xff"\n')
    assert main(["genso", "sheet", str(bad)]) == 2
    assert f"the sheet {bad} is not UTF-8 text (byte 13 cannot be read)" in \
        capsys.readouterr().err
    bad.write_bytes(b'name = "a\xff"\n')
    assert main(["genso", "sheet", str(bad)]) == 2
    assert "(byte 10 cannot be read)" in capsys.readouterr().err


def test_a_file_read_keeps_its_line_ends_read_as_before(tmp_path: Path) -> None:
    """read_text reads its bytes itself now: \\r\\n reads as \\n, as Path.read_text gave it."""
    crlf = tmp_path / "crlf.toml"
    crlf.write_bytes(b'\xef\xbb\xbfa = 1\r\nb = 2\r\n')
    assert read_text(crlf, "sheet") == "a = 1\nb = 2\n"


# --- NIT 6 and 7 --------------------------------------------------------------------------


def test_the_move_is_made_in_one_place_and_put_on_ring_is_its_end() -> None:
    """gear.ring_put_on gives the move's steps, the command's words and put_on_ring's
    result alike: the hand moved from, the character once off it, and once on."""
    worn = put_on_ring(RULES, replace(preset(RULES, "pc1"), equipment=("ring_storage",)),
                       "ring_storage", Hand.LEFT)
    steps = ring_put_on(RULES, worn, "ring_storage", Hand.RIGHT)
    assert steps.moved_from is Hand.LEFT
    assert steps.off == take_off_ring(RULES, worn, "ring_storage", Hand.LEFT)
    assert steps.on == put_on_ring(RULES, worn, "ring_storage", Hand.RIGHT)
    assert (steps.off.storage_mp, steps.on.storage_mp, steps.on.mp) == (0, 3, 0)


def test_the_ring_messages_read_the_rules_numbers() -> None:
    """"absorbs 5 MP again" and "two or more on one hand" were written in: rules data with
    a Ring of Storage of 4 and two rings to a hand say 4 and 3."""
    text = files("companion.systems.genso").joinpath("data", "rules.toml").read_text("utf-8")
    text = text.replace("rings_per_hand = 1 ", "rings_per_hand = 2 ", 1)
    text = text.replace("storage = 5\n", "storage = 4\n", 1)
    rules = load_rules({"rules.toml": text})
    pc = replace(preset(rules, "pc1"), equipment=("ring_storage", "ring_striking",
                                                  "ring_protection"))
    pc = put_on_ring(rules, put_on_ring(rules, pc, "ring_striking", Hand.LEFT),
                     "ring_protection", Hand.LEFT)
    after, said = _ring_on(rules, pc, "ring_storage", Hand.LEFT)
    assert said.endswith("; put on, it absorbed nothing: no magic ring works with 3 or more "
                         "on one hand")
    assert (after.mp, after.storage_mp, after.rings_left) == (
        pc.mp, 0, ("ring_striking", "ring_protection", "ring_storage"))
    worn = put_on_ring(rules, replace(preset(rules, "pc1"), equipment=("ring_storage",)),
                       "ring_storage", Hand.LEFT)
    off = take_off_ring(rules, worn, "ring_storage")
    assert _storage_lost(rules, "ring_storage", worn, off) == (
        ": its 4 stored MP are lost (GM-ITEM-3 reading: a Ring of Storage keeps no MP off the "
        "hand, and absorbs up to 4 MP again when put on)")


# --- NIT 9 --------------------------------------------------------------------------------


def test_fight_new_names_the_command_in_its_rest_hint_for_the_dead(
    tmp_path: Path, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """"`genso rest` refuses them" lacked the companion's name, the hint beside it has."""
    dead = tmp_path / "x.toml"
    genso(capsys, "sheet", "pc1", "--save-as", str(dead))
    text = dead.read_text(encoding="utf-8")
    dead.write_text(text.replace("hp = 12", "hp = -7"), encoding="utf-8")
    assert main(["genso", "fight", "new", "--party", str(dead), "--monsters", "orc"]) == 2
    assert f"(`{companion_command()} genso rest` refuses them;" in capsys.readouterr().err


# --- RISK 4 -------------------------------------------------------------------------------


def test_the_table_plays_a_fight_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    """`play --mode genso --fight FILE` refused a fight file with a BOM ("Unexpected UTF-8
    BOM") that `genso fight show` read: the table reads it as the command does."""
    path = tmp_path / "fight.json"
    write_fight_file(path, new_fight())
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    session = table_session(RULES, path, tmp_path / "table.json", resume=False, seed=SEED,
                            choices=Player([]))
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == new_fight().to_json()


def test_a_resume_takes_up_its_fight_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    """The table's own fight, given a BOM (saved again by a Windows editor), was "could not
    be read" at a resume: kept aside and written again. It is the table's fight, taken as
    it is, nothing kept aside."""
    first = two_actions_then_a_stop(tmp_path)
    path = tmp_path / "fight.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    told: list[str] = []
    session = table_session(RULES, path, tmp_path / "table.json", resume=True, seed=SEED,
                            choices=Player([]), tell=told.append)
    assert isinstance(session.mode, GensoFightMode)
    assert session.mode.fight.to_json() == first.fight.to_json()
    assert not list(tmp_path.glob("fight.json.corrupt-*"))
    assert not any("could not be read" in line for line in told)


def test_the_tables_fight_reader_counts_a_bad_byte_in_the_file(tmp_path: Path) -> None:
    """The table's reader names the byte as `fight show` does, the BOM counted."""
    path = tmp_path / "fight.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": "\xff"}')
    with pytest.raises(DataError) as told:
        read_fight_data(path, "companion genso fight new")
    assert str(told.value) == f"the fight {path} is not UTF-8 text (byte 11 cannot be read)"
