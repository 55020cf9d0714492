"""``companion rules`` and ``companion simulate`` from the command line."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import build_parser, main
from companion.app.commands.simulate import (
    Tally,
    game_seed,
    run_chunk,
    simulate,
    summary,
    wilson_ci95,
)
from companion.app.session.save import profile_hash

#: The spec lies in shared/ beside the checkout, for a developer and in CI alike.
SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "jongrogue.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_encounter_json(capsys: pytest.CaptureFixture[str]) -> None:
    """JR-ENC-1 on paper: floor 12, tile 8m is the venus flytrap."""
    code, out, _ = run(capsys, "rules", "encounter", "--floor", "12", "--tile", "8m", "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "F" and data["name_ja"] == "虫取り草"
    assert data["damage"] == "2d9" and data["ability_en"] == "holds"


def test_rules_sleep_by_preset(capsys: pytest.CaptureFixture[str]) -> None:
    """JR-SLEEP-1/3 on paper: the same tiles, EZ asleep, Plus awake by the check."""
    args = ["rules", "sleep", "--floor", "1", "--monster-tile", "1m", "--corner-tile", "3p"]
    assert json.loads(run(capsys, *args, "--json")[1])["state"] == "awake"
    assert json.loads(run(capsys, *args, "--preset", "ez", "--json")[1])["state"] == "asleep"
    text = run(capsys, *args, "--rings", "1")[1]
    assert "asleep (睡眠)" in text and "sleep check" in text


def test_rules_rate_damage_level(capsys: pytest.CaptureFixture[str]) -> None:
    """JR-RATE-1, JR-DMG-1, JR-LVL-1 on paper."""
    rate = json.loads(run(capsys, "rules", "rate", "--monster", "D", "--level", "3",
                          "--weapon", "4", "--strength", "-1", "--json")[1])
    assert rate == {"monster": "D", "name_ja": "ドラゴン", "name_en": "dragon", "rate": 9,
                    "raw": 19, "clamped": True,
                    "terms": [["attack", 25], ["level", -3], ["strength", 1], ["weapon", -4]],
                    "always_succeeds": "7z", "always_fails": "5z"}
    text = run(capsys, "rules", "rate", "--monster", "s", "--level", "1", "--weapon", "2")[1]
    assert text.strip() == ("大蛇 (snake): rate 3 = 6 attack 攻撃力 − 1 level レベル − 2 weapon "
                            "武器 (success on 1d9 >= 3; 中 7z always succeeds, 白 5z always "
                            "fails)")
    dmg = json.loads(run(capsys, "rules", "damage", "--monster", "L", "--armour", "3",
                         "--json")[1])
    assert dmg["damage"] == 0
    level = json.loads(run(capsys, "rules", "level", "--xp", "2600", "--json")[1])
    assert level["level"] == 10 and level["next_level_xp"] == 5200


def test_rules_damage_writes_the_sum_it_did(capsys: pytest.CaptureFixture[str]) -> None:
    """JR-DMG-1's floor of 1 was written as the sum's answer: "4 − 10 armour = 1 (at least
    1)", arithmetic that is wrong on paper; the sum is written, then the floor. A sum of 1
    or more, and table damage 0, read as before."""
    for monster, armour, said in (
            ("S", "10", "大蛇 (snake): 4 − 10 armour = -6, at least 1 → 1"),
            ("S", "3", "大蛇 (snake): 4 − 3 armour = 1 (at least 1)"),
            ("D", "3", "ドラゴン (dragon): 25 − 3 armour = 22 (at least 1)"),
            ("L", "3", "レプラコーン (leprechaun): 0 − 3 armour = 0 (table damage 0: no damage)")):
        assert run(capsys, "rules", "damage", "--monster", monster, "--armour", armour) == (
            0, said + "\n", "")


@pytest.mark.parametrize("name", ["S", "s", "snake", "Snake", "ｓｎａｋｅ", "大蛇"])
def test_rules_takes_a_monster_by_its_letter_or_either_name(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """JR-MON-1: `--monster snake` (or 大蛇) was refused, "'snake' is not a monster id": a
    player with the book reads names. The letter, the English or the Japanese name is
    taken, in any case and full-width letters too."""
    assert run(capsys, "rules", "rate", "--monster", name, "--level", "1", "--weapon", "2")[:2] \
        == (0, "大蛇 (snake): rate 3 = 6 attack 攻撃力 − 1 level レベル − 2 weapon 武器 "
                "(success on 1d9 >= 3; "
                "中 7z always succeeds, 白 5z always fails)\n")


def test_an_unknown_monster_is_refused_listing_every_monster(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """JR-MON-1: the refusal listed the letters alone (ABC…Z); it lists each monster as a
    player may name it, letter, Japanese and English."""
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "damage", "--monster", "snaek", "--armour", "3"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert ("argument --monster: 'snaek' is not a monster: give its letter, English or "
            "Japanese name, one of\nA 水苔の怪物 (aquator)\nB 大こうもり (bat)\n") in err
    assert "\nS 大蛇 (snake)\n" in err and err.rstrip().endswith("Z ゾンビ (zombie)")


def test_every_lookup_names_the_monster_in_japanese_and_english(
    capsys: pytest.CaptureFixture[str]
) -> None:
    """`rate` did not name the monster and `damage` named it in Japanese alone; each names
    it as `encounter` does, ドラゴン (dragon), and its JSON carries both names."""
    lookups = (["encounter", "--floor", "26", "--tile", "9m"],
               ["sleep", "--floor", "26", "--monster-tile", "9m", "--corner-tile", "1m"],
               ["monsters", "--monster", "D"],
               ["rate", "--monster", "D", "--level", "1", "--weapon", "2"],
               ["damage", "--monster", "D", "--armour", "7"])
    for argv in lookups:
        assert "ドラゴン (dragon)" in run(capsys, "rules", *argv)[1], argv
        data = json.loads(run(capsys, "rules", *argv, "--json")[1])
        named = data["monsters"][0] if "monsters" in data else data
        assert (named["name_ja"], named["name_en"]) == ("ドラゴン", "dragon"), argv


def test_a_rules_table_alone_prints_the_whole_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """README: `companion rules …` prints the tables, but each one asked for a cell
    (`rules encounter`: "the following arguments are required: --floor, --tile"). With
    nothing to look up, encounter (JR-ENC-1), sleep (JR-SLEEP-3), monsters (JR-MON-1) and
    level (JR-LVL-1) print their whole table, as text and as JSON."""
    code, out, _ = run(capsys, "rules", "encounter")
    lines = out.splitlines()
    assert code == 0 and lines[1] == "floor   1  2  3  4  5  6  7  8  9"
    assert lines[2] == "    1   S  K  E  B  S  H  K  E  B"
    assert lines[27] == "   26   M  V  G  J  M  V  G  J  D"
    assert "H ホブゴブリン (hobgoblin)" in lines and len(lines) == 28 + 1 + 26
    floors = json.loads(run(capsys, "rules", "encounter", "--json")[1])["floors"]
    assert len(floors) == 26 and "".join(floors["12"]) == "ZLCQANYFO"

    out = run(capsys, "rules", "sleep")[1]
    assert out.count("corner  1 2 3 4 5 6 7 8 9\n") == 3
    assert "\n     1  A . A . A . A . A\n" in out and "tile: asleep (the companion's" in out
    sleep = json.loads(run(capsys, "rules", "sleep", "--json")[1])
    assert sleep["rings"]["2"][2] == "..A......" and list(sleep["rings"]) == ["0", "1", "2"]

    out = run(capsys, "rules", "monsters")[1]
    assert len(out.splitlines()) == 1 + 26
    assert ("S 大蛇 (snake): attack 6, damage 4, XP 2, drops 0, floors 1–9, EZ asleep (睡眠), "
            "Plus asleep or awake (眠/起)\n") in out
    assert ", 炎ブレス (fire breath)\n" in out
    assert len(json.loads(run(capsys, "rules", "monsters", "--json")[1])["monsters"]) == 26

    profile = tmp_path / "mine.toml"
    profile.write_text("[pc]\nmax_hp_base = 30\n", encoding="utf-8")
    out = run(capsys, "rules", "level", "--profile", str(profile))[1]
    assert "\n    1       0      30\n" in out and out.endswith("\n   15   80000      44\n")
    levels = json.loads(run(capsys, "rules", "level", "--json")[1])["levels"]
    assert levels[9] == {"level": 10, "xp": 2600, "max_hp": 21} and len(levels) == 15


def test_a_rules_table_prints_the_part_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    """JR-ENC-1, JR-SLEEP-3: a floor alone is its row, a tile alone its column, a count of
    rings alone its table; a sleep lookup given in part says what it lacks."""
    out = run(capsys, "rules", "encounter", "--floor", "30")[1].splitlines()
    assert out[2:4] == ["   30   M  V  G  J  M  V  G  J  D",
                        "Floors past 26 play floor 26's row."]
    out = run(capsys, "rules", "encounter", "--tile", "6m")[1].splitlines()
    assert out[1] == "floor   6" and out[2] == "    1   H" and out[-1] == "V バンパイア (vampire)"
    assert run(capsys, "rules", "encounter", "--tile", "6p")[0] == 2
    out = run(capsys, "rules", "sleep", "--rings", "1")[1]
    assert "1 ring of stealth (隠密の指輪) worn:\n" in out and out.count("\ncorner  ") == 1
    assert run(capsys, "rules", "sleep", "--floor", "1", "--monster-tile", "1m") == (
        2, "", "companion: error: rules sleep: give --corner-tile too to look up a monster "
        "met, or none of --floor, --monster-tile, --corner-tile for the sleep check's tables\n")


def test_rules_takes_the_profile_before_or_after_the_table_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rules level --xp 0 --profile FILE` was refused (unrecognized arguments): --profile
    went only before the table name, where play and simulate take it after theirs."""
    profile = tmp_path / "mine.toml"
    text = (files("companion.systems.jongrogue") / "data" / "profile.toml").read_text("utf-8")
    profile.write_text(text.replace("max_hp_base = 12", "max_hp_base = 30", 1))
    for argv in (["level", "--xp", "0", "--profile", str(profile)],
                 ["--profile", str(profile), "level", "--xp", "0"]):
        assert run(capsys, "rules", *argv) == (
            0, "0 XP: level 1, max HP 30, next level at 10 XP\n", "")
    assert "max HP 12" in run(capsys, "rules", "level", "--xp", "0")[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "encounter", "--floor", "0", "--tile", "1m"],
        ["rules", "encounter", "--floor", "1", "--tile", "0z"],
        ["rules", "rate", "--monster", "Q9", "--level", "1", "--weapon", "2"],
        ["simulate", "--games", "-3"],
        ["simulate", "--games", "5", "--preset", "hard"],
        ["simulate", "--games", "5", "--profile", "/nonexistent.toml"],
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_rules_refuses_a_tile_that_is_not_a_monster(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rules", "encounter", "--floor", "1", "--tile", "3p")
    assert code == 2 and "3p is not a monster tile in this profile (it is item)" in err


def test_rules_sleep_refuses_more_rings_than_a_pc_wears(
        capsys: pytest.CaptureFixture[str]) -> None:
    """JR-PC-4: two rings at once, so no third ring of stealth to look up (the book's sleep
    check has tables for 0 to 2)."""
    args = ["rules", "sleep", "--floor", "1", "--monster-tile", "1m", "--corner-tile", "3p"]
    code, out, err = run(capsys, *args, "--rings", "3")
    assert code == 2 and out == ""
    assert err == ("companion: error: --rings 3: a PC wears at most 2 rings at once "
                   "(JR-PC-4, the profile's pc.ring_slots)\n")
    assert run(capsys, *args, "--rings", "2")[0] == 0


def test_simulate_json_keys_and_same_result_whatever_the_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """JR-BAL-1 is measured with this command (20,000 games); here its contract: the keys,
    and game i gets the same seed whatever --jobs is."""
    code, out, _ = run(capsys, "simulate", "--games", "16", "--seed", "3", "--json")
    data = json.loads(out)
    assert code == 0
    for key in ("games", "wins", "survival_rate", "ci95", "mean_floor", "deaths_by",
                "games_per_second", "rules_build"):
        assert key in data
    assert data["rules_build"] in ("pure", "compiled")
    # the games lost: by a death, or with none (the empty wall: ended_by)
    assert data["games"] == 16 and (sum(data["deaths_by"].values())
                                    + sum(data["ended_by"].values())) == 16 - data["wins"]
    one, _ = simulate(16, seed=3, jobs=1)
    two, _ = simulate(16, seed=3, jobs=2)
    assert summary(one, 1.0) == summary(two, 1.0)
    assert one.floors / 16 == pytest.approx(data["mean_floor"])
    assert game_seed(3, 5) != game_seed(5, 3)


SIMULATE_JSON = ["preset", "strategy", "seed", "profile", "profile_hash", "house_rules", "rules",
                 "games", "wins", "survival_rate", "ci95", "mean_floor", "deepest_floor",
                 "floor_reached", "deaths_by", "ended_by", "cause_names", "inputs_per_game",
                 "seconds", "games_per_second", "rules_build"]


def test_simulate_json_says_what_it_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """The JSON held the figures alone: a result saved for later could not say which preset,
    strategy, base seed or profile it measured, and named causes of death by bare ids ("D",
    "frozen") where the text output names them."""
    profile = tmp_path / "mine.toml"
    profile.write_bytes((files("companion.systems.jongrogue") / "data" / "profile.toml")
                        .read_bytes())
    argv = ["simulate", "--games", "6", "--seed", "3", "--preset", "ez", "--strategy",
            "reckless", "--profile", str(profile)]
    code, out, _ = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == SIMULATE_JSON
    assert data["preset"] == "ez" and data["strategy"] == "reckless" and data["seed"] == 3
    assert data["profile"] == str(profile.resolve())
    assert data["profile_hash"] == profile_hash(profile)
    assert list(data["cause_names"]) == [*data["deaths_by"], *data["ended_by"]]
    text = run(capsys, *argv)[1]
    for cause, count in data["deaths_by"].items():
        assert f"  {count:7d}  {data['cause_names'][cause]}\n" in text
    data = json.loads(run(capsys, "simulate", "--games", "1", "--json")[1])
    assert (data["seed"], data["profile"], data["profile_hash"]) == (0, None, None)


def test_simulate_takes_only_base_seeds_whose_games_play_takes_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`simulate --seed 99999999999999999999999` was taken, though its games' seeds,
    (S << 32) | i, were past the 2**63 `play --seed` takes: no game of the run could be
    played again alone. A base seed is below 2**31 in size now, and every game's seed of
    the widest ones is one play takes."""
    for seed in (str(2**31), "99999999999999999999999"):
        with pytest.raises(SystemExit) as exit_:
            main(["simulate", "--games", "1", "--seed", seed])
        assert exit_.value.code == 2
        assert (f"argument --seed: {seed} is too large: a seed is below 2**31 here, so that "
                "each game's seed, (S << 32) | i, is one `companion play --seed` takes"
                ) in capsys.readouterr().err
    for base, index in ((2**31 - 1, 2**32 - 1), (0, 0)):
        assert main(["simulate", "--games", "1", "--seed", str(base), "--json"]) == 0
        capsys.readouterr()
        seed = game_seed(base, index)
        assert build_parser("play").parse_args(["play", "--seed", str(seed)]).seed == seed


def test_simulate_refuses_a_negative_base_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """Its games' seeds were negative, each playing the game of its size (abs in
    random.Random) under another name."""
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--games", "1", "--seed", "-1"])
    assert exit_.value.code == 2
    assert "argument --seed: -1 is negative: a seed is 0 or more" in capsys.readouterr().err


def test_simulate_plays_the_reference_games_in_simulation_mode() -> None:
    """companion simulate runs the simulation mode; its tallies are the reference mode's."""
    chunk = (7, 0, 12, "plus", "cautious", None)
    assert run_chunk(chunk) == run_chunk(chunk, simulation=False)


def test_wilson_interval() -> None:
    low, high = wilson_ci95(10, 1000)
    assert 0.005 < low < 0.01 < high < 0.02
    assert wilson_ci95(0, 0) == (0.0, 0.0) and wilson_ci95(0, 100)[0] == 0.0
    assert Tally().games == 0


def test_rules_and_simulate_read_the_profile_config_toml_names(
    user_dirs: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """config.toml's game.profile was read by `play` alone: `rules level` printed the
    packaged max HP and `simulate` played the packaged profile, so a player read tables
    that were not the rules they played (defaults57 F7). Both take it as play does
    (--profile wins), say its house rules, and name it: on stderr, and in simulate's
    result as a --profile is named."""
    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    mine = config.parent / "mine.toml"
    mine.write_text("[pc]\nmax_hp_per_level = 5\n[combat]\nthaw = 1\n", encoding="utf-8")
    config.write_text('[game]\nprofile = "mine.toml"\n', encoding="utf-8")
    named = f"companion: profile {mine}, from game.profile ({config})\n"
    house = f"companion: {mine}: house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)\n"

    assert run(capsys, "rules", "level", "--xp", "10") == (
        0, "10 XP: level 2, max HP 17, next level at 20 XP\n", named + house)
    level = json.loads(run(capsys, "rules", "level", "--json")[1])["levels"]
    assert level[1]["max_hp"] == 17
    other = user_dirs / "other.toml"
    other.write_text("[pc]\nmax_hp_base = 30\n", encoding="utf-8")
    assert run(capsys, "rules", "level", "--xp", "10", "--profile", str(other)) == (
        0, "10 XP: level 2, max HP 31, next level at 20 XP\n", "")

    code, out, err = run(capsys, "simulate", "--games", "4", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and err == named + house
    assert data["profile"] == str(mine.resolve()) and data["profile_hash"] == profile_hash(mine)
    assert data["house_rules"] == [house.split(": ", 2)[2].strip()]
    given = json.loads(run(capsys, "simulate", "--games", "4", "--seed", "2", "--json",
                           "--profile", str(mine))[1])
    for key in ("wins", "mean_floor", "floor_reached", "deaths_by", "inputs_per_game"):
        assert data[key] == given[key], key
    first = run(capsys, "simulate", "--games", "1")[1].splitlines()[0]
    assert first.endswith(f", profile {mine}")

    config.write_text('[game]\nprofile = "gone.toml"\n', encoding="utf-8")
    for argv in (("rules", "level"), ("simulate", "--games", "1"), ("play", "--headless")):
        code, _, err = run(capsys, *argv)
        assert code == 2 and f"game.profile ({config}): {config.parent / 'gone.toml'}: " \
            "no such file" in err
        # what to do, not only what is wrong (review57a F11)
        assert "; give --profile FILE, or make game.profile in config.toml name a profile " \
            "file (empty: the packaged profile)" in err, argv


@pytest.mark.parametrize("argv", [("rules", "level"), ("simulate",)])
def test_profile_help_names_game_profile_as_the_default(
        argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """`rules` and `simulate` read config.toml's game.profile without --profile, as `play`
    does; their --profile help said only "a profile TOML of your own" (review57a F11)."""
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "(default: config.toml's game.profile, else the packaged one)" in shown


def test_rules_sleep_labels_the_honour_corner_as_the_companions_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """JR-SLEEP-3 [DEFAULT]: `rules sleep` stated "a top-left honour tile: asleep" as the
    book's rule; the table and a lookup that it decides say it is the companion's default
    and name its profile key, as `rules level` names pc.max_hp_base (defaults57 F6)."""
    label = "the companion's default, the profile's map.non_number_corner_sleeps"
    out = run(capsys, "rules", "sleep")[1]
    assert f"a top-left honour\ntile: asleep ({label}).\n" in out
    args = ["rules", "sleep", "--floor", "1", "--monster-tile", "1m"]
    assert run(capsys, *args, "--corner-tile", "3z")[1] == (
        f"大蛇 (snake): asleep (睡眠) (by the top-left honour tile: {label})\n")
    assert run(capsys, *args, "--corner-tile", "3p")[1].endswith("(by the sleep check)\n")
    mine = tmp_path / "mine.toml"
    mine.write_text("[map]\nnon_number_corner_sleeps = false\n", encoding="utf-8")
    assert f"tile: awake ({label})." in run(capsys, "rules", "sleep", "--profile", str(mine))[1]
    assert run(capsys, *args, "--corner-tile", "3z", "--profile", str(mine))[1] == (
        f"大蛇 (snake): awake (起) (by the top-left honour tile: {label})\n")


def test_rules_defaults_lists_the_defaults_fixed_in_the_companion(
    user_dirs: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """JR-WALL-1, JR-DICE-1, JR-MAP-1..3, JR-MULTI-1, JR-PC-1, JR-ITEM-1: the README said
    every [DEFAULT] lives in the profile, yet these are code with no key (defaults57 F2).
    `rules defaults` says where the defaults live: the profile read now (config.toml's
    game.profile too), and each fixed one with its rule, each a [DEFAULT] of the spec."""
    from companion.systems.jongrogue.reference import FIXED_DEFAULTS

    code, out, err = run(capsys, "rules", "defaults")
    assert code == 0 and err == ""
    assert "Read now: the packaged profile.\nFixed (not a profile key)" in out
    rules = [d.rule for d in FIXED_DEFAULTS]
    assert rules == ["JR-TILE-1", "JR-WALL-1", "JR-DICE-1", "JR-MAP-1", "JR-MAP-2", "JR-MAP-3",
                     "JR-MULTI-1", "JR-PC-1", "JR-ITEM-1"]
    for d in FIXED_DEFAULTS:
        assert f"  {d.rule:<10}  {d.text}\n" in out
    assert "the last room revealed holds them" in out and "no rings (指輪)" in out
    spec = SPEC.read_text(encoding="utf-8")
    for rule in rules:  # the rule's entry, or its section (§8: [DEFAULT unless marked])
        entry = re.search(rf"^- {rule} .*?(?=^- |^## )", spec, re.MULTILINE | re.DOTALL)
        assert entry is not None, rule
        section = spec[:entry.start()].rsplit("\n## ", 1)[1].split("\n", 1)[0]
        assert "DEFAULT" in entry.group() or "DEFAULT" in section, rule

    config = user_dirs / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    mine = config.parent / "mine.toml"
    mine.write_text("[pc]\ngold = 5\n", encoding="utf-8")
    config.write_text('[game]\nprofile = "mine.toml"\n', encoding="utf-8")
    code, out, err = run(capsys, "rules", "defaults", "--json")
    data = json.loads(out)
    assert code == 0 and data["profile"] == str(mine) and data["fixed"][5] == {
        "rule": "JR-MAP-3", "text": FIXED_DEFAULTS[5].text}
    assert data["packaged_profile"] == "companion/systems/jongrogue/data/profile.toml"
    assert err == f"companion: profile {mine}, from game.profile ({config})\n"


@pytest.mark.parametrize("monster", ["S", "3m"])
def test_rules_sleep_refuses_monster_naming_the_option_it_takes(
        capsys: pytest.CaptureFixture[str], monster: str) -> None:
    """JR-SLEEP-1..3 by the monster tile: `--monster`, which rate, damage and monsters
    take, was read as a prefix of --monster-tile, and `S` refused naming --monster-tile,
    not typed, while `3m` was taken silently (a77jrrules NIT 2). It is an option sleep does
    not take, told with the one it does."""
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "sleep", "--floor", "3", "--monster", monster, "--corner-tile", "2m"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert (f"companion rules sleep: error: unrecognized arguments: --monster {monster} "
            "(did you mean --monster-tile?)") in err
    assert "argument --monster-tile" not in err
