"""Audit jr64: the corridor caps that change nothing (RISK 2) and two log lines (NIT 1).

JR-MULTI-1's corridor caps (「通路 通常 1体」, 「前後1体ずつ（計2体）」) are the book's, but the
PC never stands in a corridor: a flight goes through it and ends at the door of the room the
PC came from (JR-FLEE-1), whose caps apply. Setting combat.attackers_corridor or
pincer_attackers_corridor otherwise was said to be a house rule, though the game was the
same; it is said to have no effect in the companion instead, and is no house rule (a log's
header lists none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.cli import main
from companion.systems.jongrogue.autoplay import play
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import load_profile

CORRIDOR = "[combat]\nattackers_corridor = 4\npincer_attackers_corridor = 4\n"
NO_EFFECT = ("has no effect in the companion: the PC never stands in a corridor (通路): a "
             "flight ends at the door (ドアの上) of the room it came from, whose caps apply")


def corridor_profile(tmp_path: Path) -> Path:
    path = tmp_path / "corridor.toml"
    path.write_text(CORRIDOR, encoding="utf-8")
    return path


def test_jr_multi_1_the_corridor_caps_are_no_house_rule(tmp_path: Path) -> None:
    """The corridor caps set to 4 are read (the keys are known) but are no house rule: each
    is said to have no effect, naming the book's value and the rule."""
    profile = load_profile(corridor_profile(tmp_path))
    assert profile.attackers[("corridor", False)] == profile.attackers[("corridor", True)] == 4
    assert profile.house_rules == ()
    assert profile.unplayed == (
        f"combat.attackers_corridor = 4 {NO_EFFECT} (the book: 1, JR-MULTI-1)",
        f"combat.pincer_attackers_corridor = 4 {NO_EFFECT} (the book: 2, JR-MULTI-1)",
    )


@pytest.mark.parametrize(("preset", "strategy"), [("plus", "cautious"), ("ez", "reckless")])
def test_jr_multi_1_the_corridor_caps_change_no_game(tmp_path: Path, preset: str,
                                                     strategy: str) -> None:
    """What the note says: a game with the corridor caps at 4 is the packaged profile's,
    event for event, and no turn of it is fought in a corridor (plus cautious flees)."""
    profile = load_profile(corridor_profile(tmp_path))
    positions = set()
    for seed in range(6):
        ours = play(seed, preset, strategy, profile)
        book = play(seed, preset, strategy)
        assert [e.to_json() for e in ours.events] == [e.to_json() for e in book.events]
        positions |= {e.data["position"] for e in ours.events if e.kind is Kind.TURN}
    assert positions <= {"door", "room"}


@pytest.mark.parametrize("argv", [
    ["rules", "level", "--xp", "0"],
    ["simulate", "--games", "1", "--jobs", "1"],
])
def test_rules_and_simulate_say_the_corridor_caps_have_no_effect(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`companion rules/simulate --profile` said "house rule: combat.attackers_corridor = 4";
    they say it has no effect, once each, and call nothing a house rule."""
    path = corridor_profile(tmp_path)
    assert main([*argv, "--profile", str(path)]) == 0
    err = capsys.readouterr().err
    for key, book in (("attackers_corridor", 1), ("pincer_attackers_corridor", 2)):
        said = (f"companion: {path}: combat.{key} = 4 {NO_EFFECT} "
                f"(the book: {book}, JR-MULTI-1)")
        assert err.count(said) == 1, err
    assert "house rule" not in err


def test_the_packaged_profile_says_the_corridor_caps_have_no_effect() -> None:
    """profile.toml says so beside each key, and seed_values.toml holds why."""
    from importlib.resources import files

    data = files("companion.systems.jongrogue") / "data"
    profile = data.joinpath("profile.toml").read_text(encoding="utf-8")
    for key in ("attackers_corridor = 1 ", "pincer_attackers_corridor = 2 "):
        line = next(n for n, text in enumerate(profile.splitlines()) if text.startswith(key))
        assert "no effect" in " ".join(profile.splitlines()[line:line + 3]), key
    seeds = data.joinpath("seed_values.toml").read_text(encoding="utf-8")
    assert seeds.count("\nunplayed = ") == 2


def turn(action: str) -> str:
    return describe(Event(Kind.TURN, {
        "turn": 2, "action": action, "target": 0, "attackers": [1], "cap": 1, "floor": 3,
        "room": 2, "position": "room", "pincer": False}))


def test_a_frozen_turn_reads_as_english() -> None:
    """JR-AB-FREEZE: a frozen PC's turn is logged with the action "frozen"; its line read
    "the PC will frozen"."""
    assert turn("frozen") == ("  -- turn 2 ターン2: the PC will stay frozen (凍結中) (floor 3 "
                              "room 2, in the room); may attack: #1 (at most 1)")
    assert "the PC will defend (floor 3" in turn("defend")


@pytest.mark.parametrize(("what", "said"), [
    ("arrows", "arrows (矢)"), ("shuriken", "shuriken (手裏剣)"),
    ("potions", "healing potion (回復薬)"),
    ("6p", "隠密の指輪 (ring of stealth) [6p]"),  # its ring, found by the tile (reviewj68)
])
def test_jr_ab_stealitem_what_was_stolen_is_named_in_both_languages(what: str,
                                                                     said: str) -> None:
    """JR-AB-STEALITEM: "Stolen 盗まれた: arrows" named no Japanese for what was taken; the
    item names are the profile's (a ring by the profile's item of its tile, the tile beside)."""
    assert describe(Event(Kind.ITEM, {"action": "stolen", "what": what})) == \
        f"  Stolen 盗まれた: {said}"
