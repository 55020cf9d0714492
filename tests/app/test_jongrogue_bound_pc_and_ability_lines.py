"""JongRogue's bound PC (拘束, JR-PC-3), rust and mimic lines, gold_min, rules rate.

rules70: the JongRogue rules core's audit findings, fixed.

- DEFECT 1 (rules revision 11): a bound PC (拘束) no monster attacks, its binder dead, was
  asked what to do while bound; with a potion or a ring, drinking it or taking the ring off
  was the only way to its next break-free check (JR-PC-3 stops moving and fleeing only). Its
  break-free checks now run on their own, as a frozen PC's thaw checks do (JR-AB-FREEZE),
  and it is asked once free. A game of revision 10 plays on, and replays, as it was played.
- DEFECT 2: the rust line (鎧弱体化, JR-AB-RUST) says what the armour went down to; the mimic
  line (擬態, JR-AB-MIMIC) names the tile drawn, and the item it became.
- NIT 5: gold's floor, 0, is the profile's pc.gold_min [DEFAULT], listed in
  ``companion rules defaults``.
- NIT 6: ``companion rules rate`` refuses a level past the level table (JR-LVL-1) and a
  strength below the profile's pc.strength_min (JR-PC-2), naming the limits.
- RISK 3 (the engine's part): a preset names EZ with some EZ Plus options on, each switched
  on separately (``ez+sleep_check``), checked and named one way; ``rules sleep`` takes it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.save import SaveGame
from companion.errors import DataError
from companion.systems.jongrogue.actions import ChoiceRequest, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import RULES_REVISION, Game
from companion.systems.jongrogue.narration import describe
from companion.systems.jongrogue.profile import (
    DEFAULT_PROFILE,
    Option,
    load_profile,
    preset_name,
    preset_options,
)
from companion.systems.jongrogue.state import PCState
from companion.systems.jongrogue.tables import TABLES
from tests.app.jongrogue_bound_pc_helpers import (
    BOUND_ALONE,
    bound_with_a_potion,
    flytrap,
    give,
)
from tests.systems.jongrogue.script import feed, of, options


def bound_wearing_a_ring(revision: int = RULES_REVISION) -> Game:
    game = flytrap(revision)
    ring = give(game, "8p")  # a ring of armour protection (鎧保護の指輪)
    game.pc.spare_rings.append(ring)
    game._wear_ring(ring)
    feed(game, BOUND_ALONE)  # no potion: the ring is all there is to do while bound
    return game


def test_jr_pc_3_a_bound_pc_with_no_monster_left_is_not_made_to_drink_its_potion() -> None:
    """The repro (rules70 DEFECT 1): no choice is asked while bound; the next break-free
    check is drawn for, and once it succeeds the potion is still held and offered beside
    the moves."""
    game = bound_with_a_potion()
    assert isinstance(game.pending, TileRequest), game.pending
    assert "break free" in game.pending.prompt
    events = feed(game, "2p")  # 2 < 5: still bound, and still not asked
    checks = of(events, Kind.CHECK)
    assert [c["what"] for c in checks] == ["break free (拘束)"] and not checks[0]["success"]
    assert isinstance(game.pending, TileRequest)
    feed(game, "7m")  # 7 ≥ 5: free
    assert PCState.BOUND not in game.pc.states
    assert [str(t) for t in game.pc.potions] == ["1p"]
    offered = options(game)
    assert "use:1p" in offered and any(o.startswith("move:") for o in offered)


def test_jr_pc_3_a_bound_pc_wearing_a_ring_is_not_made_to_take_it_off() -> None:
    game = bound_wearing_a_ring()
    assert isinstance(game.pending, TileRequest), game.pending
    feed(game, "9m")
    assert PCState.BOUND not in game.pc.states
    assert [str(t) for t in game.pc.rings] == ["8p"]
    assert "unequip:8p" in options(game) and "move:4" in options(game)


def test_jr_pc_3_a_bound_pc_fought_still_chooses_while_bound() -> None:
    """Only a PC no monster attacks passes its turns: bound by a living flytrap, it is asked
    (fight, defend, the potion), with no move and no flight."""
    game = flytrap()
    game.pc.potions.append(give(game, "1p"))
    feed(game, "fight:1 1m 3m 3m | 1m")
    assert PCState.BOUND in game.pc.states and game.room_monsters()
    offered = options(game)
    assert {"fight:1", "defend", "use:1p"} <= set(offered)
    assert "flee" not in offered and not any(o.startswith("move:") for o in offered)


def test_revision_10_asks_as_it_did_so_its_journals_still_resolve() -> None:
    """A game begun by revision 10 plays on by it: the bound PC is asked, with the potion
    its only choice, and the answer its journal holds (use:1p) is taken."""
    game = bound_with_a_potion(revision=10)
    assert isinstance(game.pending, ChoiceRequest) and options(game) == ["use:1p"]
    events = feed(game, "use:1p")
    assert game.pc.potions == [] and of(events, Kind.HEAL)[0]["why"] == "potion"
    assert isinstance(game.pending, TileRequest) and "break free" in game.pending.prompt
    ringed = bound_wearing_a_ring(revision=10)
    assert options(ringed) == ["unequip:8p"]


def _revision_10_save(inputs: int) -> SaveGame:
    """Plus cautious seed 0 by revision 10, its first ``inputs`` inputs: a game whose PC is
    later asked, bound with its binder dead, and drinks (test_golden_games, rev10 file)."""
    game = Game("plus", revision=10)
    player = HeadlessPlayer(0, "cautious")
    mode = JongRogueMode(game, player)
    while len(mode.journal) < inputs:
        mode.push(player.answer(game))
    return SaveGame(seed=0, preset="plus", inputs=list(mode.journal), events=len(game.events),
                    strategy="cautious", input_kind="sim", rules=10)


def test_a_revision_10_headless_game_resumed_plays_and_replays_as_revision_10(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Resumed, the save plays on by revision 10 to the game the rev10 golden file holds
    (death on floor 19 after 1171 inputs; revision 11 plays it to floor 20), its log says
    rules 10, and ``companion replay`` of that log matches it event for event."""
    state, log = tmp_path / "save.json", tmp_path / "game.jsonl"
    state.write_text(_revision_10_save(40).to_json(), encoding="utf-8")
    assert main(["play", "--headless", "--resume", "--state", str(state), "--log", str(log)]) == 0
    capsys.readouterr()
    saved = SaveGame.from_json(state.read_text(encoding="utf-8"))
    assert saved.rules == 10 and len(saved.inputs) == 1171
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["rules"] == 10
    over = json.loads(lines[-1])
    assert over["kind"] == "game_over" and over["floor"] == 19
    assert main(["replay", str(log)]) == 0
    assert "events match" in capsys.readouterr().out


def test_rust_says_what_the_armour_went_down_to() -> None:
    """JR-AB-RUST (EZ floor 9, an aquator 水苔の怪物): its hit takes ring mail's 3 to 2."""
    game = Game("ez")
    game.floor = 9
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 5m 1z 1z 1z")
    events = feed(game, "fight:1 1m")
    rust = [e for e in events if e.kind is Kind.ABILITY]
    assert [describe(e) for e in rust] == ["  鎧弱体化 (rusts armour): armour 鎧 3 → 2"]


@pytest.mark.parametrize(("preset", "tile", "said"), [
    ("plus", "1p", "drew 1p → item アイテム: healing potion (回復薬)"),
    ("plus", "2z", "drew 2z → sealed 封魔"),
    ("ez", "2z", "drew 2z → no item なし"),
])
def test_the_mimic_line_names_the_tile_drawn(preset: str, tile: str, said: str) -> None:
    """JR-AB-MIMIC (floor 16, a xeroc ゼロック): the first hit draws a tile."""
    game = Game(preset)
    game.floor = 16
    game.pc.hp = game.pc.max_hp = 200
    feed(game, "5m 3m 1z 1z 1z")
    events = feed(game, f"fight:1 9m {tile}")
    mimic = [describe(e) for e in events if e.kind is Kind.ABILITY]
    assert mimic == [f"  擬態 (mimic): {said}"]


def test_an_ability_line_of_an_older_log_is_still_said() -> None:
    """Events are logged as before (a log replays event for event): the line is made from
    them, so an ability with neither armour nor tile says its effect as it did."""
    line = describe(Event(Kind.ABILITY, {"ability": "gold_lover", "uid": 1,
                                         "effect": "off the gold, sealed"}))
    assert line.endswith(": off the gold 金塊から降ろし, sealed 封魔")


def test_gold_stops_at_the_profiles_gold_min(tmp_path: Path) -> None:
    """NIT 5: 0 by default, as before; a profile's pc.gold_min is where it stops."""
    assert DEFAULT_PROFILE.gold_min == 0
    game = Game("ez")
    game.pc.gold = 4
    game._gold(-10, "held")
    assert game.pc.gold == 0
    mine = tmp_path / "p.toml"
    mine.write_text("[pc]\ngold = 50\ngold_min = 20\n", encoding="utf-8")
    game = Game("ez", load_profile(mine))
    game._gold(-100, "gaze")
    assert game.pc.gold == 20
    mine.write_text("[pc]\ngold_min = 20\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"pc\.gold_min must be pc\.gold \(0\) or less"):
        load_profile(mine)


def test_rules_defaults_lists_gold_min(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "defaults"]) == 0
    text = capsys.readouterr().out
    assert "pc.gold_min  0: gold (金塊) lost to an ability" in text
    assert main(["rules", "defaults", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [k["rule"] for k in data["profile_keys"]] == ["pc.gold_min"]


@pytest.mark.parametrize(("args", "said"), [
    (["--monster", "D", "--level", "16", "--weapon", "2"],
     f"--level 16: the highest level is {TABLES.max_level} (JR-LVL-1"),
    (["--monster", "S", "--level", "1", "--weapon", "2", "--strength", "-5"],
     "--strength -5: strength never drops below -3 (JR-PC-2, the profile's pc.strength_min)"),
])
def test_rules_rate_refuses_a_pc_that_cannot_be(
        args: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "rate", *args]) != 0
    assert said in capsys.readouterr().err


def test_rules_rate_takes_the_limits_themselves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "rate", "--monster", "S", "--level", str(TABLES.max_level),
                 "--weapon", "2", "--strength", "-3"]) == 0
    assert "rate 1 =" in capsys.readouterr().out


@pytest.mark.parametrize("option", list(Option))
def test_each_plus_option_is_switched_on_alone_over_ez(option: Option) -> None:
    """RISK 3 (the engine's part): ``ez+NAME`` is EZ with that one option on, and a game
    begun by that preset keeps it, so a save or log that keeps the preset replays with it."""
    preset = f"ez+{option.value}"
    assert preset_options(preset) == {option}
    assert preset_name(preset_options(preset)) == preset
    game = Game(preset)
    assert game.options == {option} and game.preset == preset
    player = HeadlessPlayer(3, "reckless")
    while game.pending is not None and len(game.inputs) < 300:
        game.push(player.answer(game))
    again = Game.replay(list(game.inputs), preset)
    assert again.options == {option}
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]


def test_presets_of_options_are_named_once_and_refused_when_wrong() -> None:
    assert preset_name(preset_options("EZ+pincer+sleep_check")) == "ez+sleep_check+pincer"
    assert preset_name(frozenset(Option)) == "plus" and preset_name(frozenset()) == "ez"
    with pytest.raises(DataError, match="'sleepcheck' is not an EZ Plus option; the options "
                                        "are sleep_check, extended_states, strength"):
        preset_options("ez+sleepcheck")
    with pytest.raises(DataError, match="pincer is named twice"):
        preset_options("ez+pincer+pincer")
    assert preset_name(preset_options("Drops+EZ+pincer")) == "ez+drops+pincer"  # reviewz70
    for wrong in ("plus+drops", "ez+", "hard", "drops+ez+ez", "drops++ez"):
        with pytest.raises(DataError, match="unknown preset"):
            preset_options(wrong)


def test_rules_sleep_takes_ez_with_the_sleep_check_alone(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The sleep check (睡眠判定ルール) on over EZ: a hobgoblin met decided by the check,
    not EZ's column; a preset naming no option is refused with the six."""
    look = ["rules", "sleep", "--floor", "2", "--monster-tile", "6m", "--corner-tile", "3p",
            "--json", "--preset"]
    assert main([*look, "ez+sleep_check"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sleep_check"] is True and data["preset"] == "ez+sleep_check"
    assert main([*look, "ez+drops"]) == 0
    assert json.loads(capsys.readouterr().out)["sleep_check"] is False
    with pytest.raises(SystemExit):
        main([*look, "ez+sleepcheck"])
    assert "the options are sleep_check, extended_states" in capsys.readouterr().err
