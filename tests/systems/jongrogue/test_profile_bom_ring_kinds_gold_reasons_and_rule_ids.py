"""Audit jr68 (rules core): a profile saved with a byte-order mark, a ring stolen named by its
kind, the reasons for gold changes in Japanese too, the bound PC on the door listed as a
reading, and every rule ID the companion names being one the spec has."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest

from companion.errors import DataError
from companion.systems.jongrogue import datafiles
from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import read_profile_file
from companion.systems.jongrogue.reference import FIXED_READINGS
from companion.systems.jongrogue.state import PCState
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place
from tests.systems.jongrogue.script import feed, of, options

SPEC = Path(__file__).resolve().parents[4] / "shared" / "spec" / "jongrogue.md"
COMPANION = Path(__file__).resolve().parents[3] / "companion"
PROFILE = "[combat]\nthaw = 7\n\n[pc]\nmax_hp_base = 30\n"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


# RISK 1: a profile saved with a UTF-8 byte-order mark (Windows Notepad)

def test_a_profile_with_a_byte_order_mark_plays_as_the_same_file_without_it(
        tmp_path: Path) -> None:
    """The BOM is no part of the text: it was refused as "not valid TOML: Invalid statement
    (at line 1, column 1)", a column that looks right to the player."""
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(PROFILE, encoding="utf-8")
    marked.write_bytes(codecs.BOM_UTF8 + PROFILE.encode())
    assert read_profile_file(marked).played == read_profile_file(plain).played
    assert read_profile_file(marked).given == {"combat": {"thaw": 7}, "pc": {"max_hp_base": 30}}


def test_a_profile_with_windows_line_ends_and_a_bom_reads_as_it_was_written(
        tmp_path: Path) -> None:
    marked = tmp_path / "notepad.toml"
    marked.write_bytes(codecs.BOM_UTF8 + PROFILE.replace("\n", "\r\n").encode())
    assert read_profile_file(marked).given == {"combat": {"thaw": 7}, "pc": {"max_hp_base": 30}}


def test_a_bad_byte_after_the_bom_is_counted_in_the_file(tmp_path: Path) -> None:
    """The byte named is the file's, the BOM counted (as every reader of the app says it)."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(codecs.BOM_UTF8 + b"[combat]\xff\n")
    with pytest.raises(DataError) as told:
        read_profile_file(bad)
    assert str(told.value) == f"the profile {bad} is not UTF-8 text (byte 12 cannot be read)"


def test_a_packaged_table_saved_with_a_bom_is_read(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """README points the player at data/, so an edited table is read as a profile is."""
    (tmp_path / "data").mkdir()
    packaged = Path(datafiles.__file__).parent / "data" / "levels.toml"
    (tmp_path / "data" / "levels.toml").write_bytes(codecs.BOM_UTF8 + packaged.read_bytes())
    want = datafiles.load_packaged("levels.toml")
    monkeypatch.setattr(datafiles, "files", lambda package: tmp_path)
    assert datafiles.load_packaged("levels.toml") == want


# NIT 1: a stolen ring named by its tile alone

def test_a_stolen_spare_ring_is_named_by_its_kind_with_its_tile() -> None:
    """JR-AB-STEALITEM: a nymph (ニンフ, floor 10, 6m) with no arrows to take takes the
    spare ring of stealth (6p): it was "Stolen 盗まれた: 6p"."""
    game = Game("ez")
    feed(game, "5m 1z 2z 3z 4z")
    game.floor = 10
    game.pc.arrows = 0
    ring = Tile.from_notation("6p")
    game.ledger.move(ring, Place.WALL, Place.PC)
    game.pc.spare_rings.append(ring)
    feed(game, "move:2 1z 6m 2z 3z")
    events = feed(game, "fight:1 1m")
    stolen = next(e for e in events if e.kind is Kind.ITEM and e.data["action"] == "stolen")
    assert stolen.data == {"action": "stolen", "what": "6p"}  # as logs have it (reviewj68)
    assert describe(stolen) == "  Stolen 盗まれた: 隠密の指輪 (ring of stealth) [6p]"
    assert game.pc.spare_rings == []


def test_a_stolen_worn_adornment_ring_is_named_too() -> None:
    """A worn ring of adornment (9p) goes first (JR-AB-STEALITEM): taken off, then stolen,
    both lines naming it."""
    game = Game("ez")
    game.floor = 10
    feed(game, "5m 6m 1z 1z 1z")  # a nymph (ニンフ) in the start room
    ring = Tile.from_notation("9p")
    game.ledger.move(ring, Place.WALL, Place.PC)
    game.pc.spare_rings.append(ring)
    game._wear_ring(ring)
    events = feed(game, "fight:1 1m")
    lines = [describe(e) for e in events if e.kind is Kind.ITEM]
    assert lines[-2:] == ["  Took off 飾りの指輪 (ring of adornment) [9p]",
                          "  Stolen 盗まれた: 飾りの指輪 (ring of adornment) [9p]"]


# NIT 2: the reasons for gold changes in English alone

@pytest.mark.parametrize(("why", "said"), [
    ("poison", "poison 毒攻撃"), ("held", "held 拘束"), ("stolen", "stolen 金塊盗み"),
    ("gaze", "gaze 睨み"), ("strength drain", "strength drain 強さドレイン"),
    ("leprechaun's gold", "leprechaun レプラコーン"),  # one row at 800x480 (reviewj68)
    ("gold pile 4s", "gold pile 金塊の牌 4s"),
])
def test_each_reason_for_a_gold_change_has_the_seeds_word_beside(why: str, said: str) -> None:
    """The seed's names of the abilities (l.231-327) beside the logged English, which the
    event keeps as it was."""
    event = Event(Kind.ITEM, {"action": "gold", "amount": -10, "gold": 90, "why": why})
    assert describe(event) == f"  Gold 金塊 -10 ({said}) → 90"
    assert event.data["why"] == why


def test_every_gold_line_of_played_games_gives_its_reason_in_japanese() -> None:
    """Whole EZ and Plus games, where poison, holds, thefts and gazes cost gold: every
    reason the rules log is said with its Japanese."""
    reasons = set()
    for seed in (100, 104, 105):
        for preset in ("ez", "plus"):
            game = play(seed, preset, "cautious")
            for event in game.events:
                if event.kind is Kind.ITEM and event.data["action"] == "gold":
                    line = describe(event)
                    reason = line[line.index("(") + 1:line.rindex(")")]
                    assert JAPANESE.search(reason), line
                    reasons.add(event.data["why"].split()[0])
    assert len(reasons) >= 3  # more than gold piles were met


# NIT 3: a bound PC on the door, and the reading it plays

def _bound_on_the_door() -> Game:
    """Room 2: a sleeping emu (大うずら, 3m) and gold (5s); the PC on its door, bound."""
    game = Game("plus")
    feed(game, "5m 1z 2z 3z 4z move:2 1z 3m 5s")
    return game


def test_a_bound_pc_on_the_door_neither_strikes_nor_shoots_a_sleeper() -> None:
    """The reading kept (the seed does not say what 拘束 stops): free, the PC on the door
    may strike, shoot, step in or take; bound, none of these, and its turns pass with
    break-free checks until one succeeds."""
    free = _bound_on_the_door()
    feed(free, "2z")
    assert {"fight:1", "shoot:1", "enter", "take"} <= set(options(free))
    bound = _bound_on_the_door()
    bound.pc.states.add(PCState.BOUND)
    events = feed(bound, "2z 1m")
    assert [c["what"] for c in of(events, Kind.CHECK)] == ["break free (拘束)"]
    feed(bound, "5m")  # 1d9 >= 5: free
    assert PCState.BOUND not in bound.pc.states
    assert {"fight:1", "shoot:1", "enter", "take"} <= set(options(bound))


def test_the_bound_pc_on_the_door_is_a_reading_listed_in_rules_defaults() -> None:
    """`companion rules defaults` lists it (it did not): no step in, no take, and no blow or
    shot at a monster not awake, with the seed's 拘束状態 beside."""
    door = next(d for d in FIXED_READINGS if d.rule == "JR-PC-3 (door)")
    for words in ("bound (拘束) PC on the door (ドアの上)", "cannot step into the room",
                  "nor take (拾う) from the door", "from revision 3",
                  "from revision 5, strike (攻撃) or shoot (遠隔攻撃) a monster not awake",
                  "拘束状態 (l.275)", "break-free checks"):
        assert words in door.text, words
    assert re.search(r"^- JR-PC-3 ", SPEC.read_text(encoding="utf-8"), re.MULTILINE)


# NIT 4: a rule ID that does not exist

#: A rule ID, glued to its number too ("JR-PC3": ``\\b`` after the family missed it,
#: reviewj68 NIT 6); one ending "-*" names a family ("JR-AB-*") and is left out.
ID = re.compile(r"\bJR-[A-Z0-9]+(?:-[A-Z0-9]+)*(-\*)?")
ROOT = COMPANION.parent


def _ids(text: str) -> set[str]:
    return {m.group(0) for m in ID.finditer(text) if not m.group(1)}


def test_a_rule_id_glued_to_its_number_is_found_and_a_family_is_not() -> None:
    assert _ids("JR-PC3, JR-AB-*, JR-MELEE-1/2 and JR-PC-1..4 (JR-RATE-1)") == {
        "JR-PC3", "JR-MELEE-1", "JR-PC-1", "JR-RATE-1"}


def test_every_rule_id_the_companion_names_is_one_the_spec_has() -> None:
    """rules.py named "JR-MELEE", which the spec does not have (JR-MELEE-1/2, JR-RATE-1);
    the code, README and docs are read."""
    known = _ids(SPEC.read_text(encoding="utf-8"))
    paths = [path for path in sorted(COMPANION.rglob("*.py")) if "_compiled" not in path.parts]
    paths += [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    unknown = [f"{path.relative_to(ROOT)}: {found}" for path in paths
               for found in sorted(_ids(path.read_text(encoding="utf-8")) - known)]
    assert unknown == []
