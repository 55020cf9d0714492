"""The profile keys whose value the book fixes ([SEED]: combat.thaw, ranged_continue, the
JR-MULTI-1 attacker caps, pc.strength_min), declared once in data/seed_values.toml. The
packaged profile holds each at the book's value, tagged [SEED] with the book's words; a
profile that sets another plays it (a house rule is the player's right) and says so as
`companion play`, `simulate` and `rules` load it. Before, a copy could change them
silently (audit of seed 000, F4)."""

from __future__ import annotations

import json
import re
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.systems.jongrogue.events import Kind
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.profile import DEFAULT_PROFILE, SEED_VALUES, load_profile
from tests.systems.jongrogue.script import feed, of

#: Seed 000 lies in shared/ beside the checkout, a developer's and CI's alike (CI's clone
#: has a copy of shared/ beside it, not /work/shared), so its words are always checked.
SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "000_9bd58e979b74ead1.txt"


def _packaged() -> str:
    return (files("companion.systems.jongrogue") / "data" / "profile.toml").read_text(
        encoding="utf-8")


def _house(tmp_path: Path, **changes: int) -> Path:
    """The packaged profile with each ``key = value`` of ``changes`` written in."""
    text = _packaged()
    for key, value in changes.items():
        text, n = re.subn(rf"^{key} = -?\d+", f"{key} = {value}", text, flags=re.MULTILINE)
        assert n == 1, key
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_seed_value_is_the_books_and_tagged_seed_in_the_profile() -> None:
    """JR-AB-FREEZE, JR-RANGED-1, JR-MULTI-1, JR-PC-2 [SEED]: the thaw target, the ranged
    check, the attacker caps (pincered too) and the strength floor are the book's numbers,
    but attackers_door/corridor and the pincer caps bore no [SEED] tag, and nothing said
    which profile keys the book fixes. Each is declared once, tagged [SEED] on its line with
    the book's words, and the packaged profile holds the book's value (no house rule)."""
    keys = {(s.table, s.key) for s in SEED_VALUES}
    assert keys >= {("combat", k) for k in (
        "thaw", "ranged_continue", "attackers_room", "attackers_door", "attackers_corridor",
        "pincer_attackers_door", "pincer_attackers_corridor")}
    text = _packaged()
    raw = tomllib.loads(text)
    for seed in SEED_VALUES:
        assert raw[seed.table][seed.key] == seed.book, seed
        line = re.search(rf"^{seed.key} = .*$", text, re.MULTILINE)
        assert line is not None and "[SEED]" in line.group(), seed.key
        assert seed.rule.startswith("JR-") and seed.words
    assert DEFAULT_PROFILE.house_rules == ()


def test_the_books_words_are_the_seeds() -> None:
    """Each [SEED] value's words are quoted from the seed (the parts in 「」 or outside the
    companion's own parenthesis), so the book's value can be checked against its text."""
    seed = re.sub(r"\s+", "", SEED.read_text(encoding="utf-8"))
    for value in SEED_VALUES:
        words = re.sub(r"\s*\(.*\)$", "", value.words)
        for part in words.split():
            assert part in seed, (value.key, part)
        assert str(abs(value.book)) in words, value.key


def test_a_profile_that_changes_a_seed_value_plays_it_and_says_so(tmp_path: Path) -> None:
    """JR-AB-FREEZE [SEED] 1d9>=8: a profile with thaw = 1 used to play it without a word;
    it is still played (not refused), and the profile names each house rule, its value and
    the book's."""
    profile = load_profile(_house(tmp_path, thaw=1, attackers_door=4, strength_min=-2))
    assert profile.thaw == 1 and profile.attackers[("door", False)] == 4
    assert profile.house_rules == (
        "house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)",
        "house rule: combat.attackers_door = 4 (the book: 1, JR-MULTI-1)",
        "house rule: pc.strength_min = -2 (the book: -3, JR-PC-2)",
    )
    game = Game("ez", profile)
    game.floor = 2
    game.pc.hp = game.pc.max_hp = 200
    game.pc.level = 1  # the freeze target is 9 − 1 = 8
    feed(game, "5m 7m 1z 1z 1z | fight:1 1m 1m 9m")  # an ice monster: hit, frozen, lives
    events = feed(game, "1m")  # the thaw: 1 >= 1 with the house rule
    assert of(events, Kind.CHECK)[0]["what"] == "thaw (凍結)"
    assert of(events, Kind.CHECK)[0]["success"] is True


@pytest.mark.parametrize("partial", [False, True], ids=["whole copy", "one key"])
@pytest.mark.parametrize("argv", [
    ["rules", "level", "--xp", "0"],
    ["simulate", "--games", "1", "--jobs", "1"],
    ["play", "--headless", "--seed", "3", "--preset", "plus"],
])
def test_play_simulate_and_rules_say_the_house_rules_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], partial: bool
) -> None:
    """JR-RANGED-1 [SEED] 1d9>=3: `companion play/simulate/rules --profile` with
    ranged_continue = 1 played it with no notice; each now says it on stderr, once, naming
    the key, its value and the book's, and goes on. A profile holding that key alone was
    refused ("missing table dice"); it plays and says the same."""
    path = _house(tmp_path, ranged_continue=1)
    if partial:
        path.write_text("[combat]\nranged_continue = 1\n", encoding="utf-8")
    assert main([*argv, "--profile", str(path)]) == 0
    err = capsys.readouterr().err
    said = f"companion: {path}: house rule: combat.ranged_continue = 1 (the book: 3, JR-RANGED-1)"
    assert err.count(said) == 1, err
    assert main(argv) == 0
    assert "house rule" not in capsys.readouterr().err


def test_a_house_rule_is_told_for_the_game_played_and_only_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finished house-rule game in the save was put in the history on the way to a new
    game: its profile was told then, and again for the new one (twice); resumed with no
    --profile, it was told, then a new game began on the packaged profile, which has no
    house rule. It is told for the game played, once; a copy of the packaged profile
    says nothing."""
    path, state = _house(tmp_path, thaw=1), tmp_path / "s.json"
    said = f"companion: {path}: house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)"
    play = ["play", "--headless", "--state", str(state)]
    assert main([*play, "--seed", "4", "--profile", str(path)]) == 0
    assert capsys.readouterr().err.count(said) == 1
    assert main([*play, "--seed", "5", "--profile", str(path)]) == 0  # the last one recorded
    assert capsys.readouterr().err.count(said) == 1
    assert main([*play, "--resume"]) == 0  # finished: recorded, then a packaged-rules game
    assert "house rule" not in capsys.readouterr().err
    copy = tmp_path / "copy.toml"
    copy.write_text(_packaged(), encoding="utf-8")
    assert main([*play, "--profile", str(copy)]) == 0
    assert "house rule" not in capsys.readouterr().err


def test_a_result_names_the_house_rules_that_played_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JR-AB-FREEZE [SEED] 1d9>=8: a house rule was said on stderr alone, so a saved
    `simulate --json` result or a `play --log` game could not tell which rules played it
    without the profile file. Both hold them now (``house_rules``, worded as stderr says
    them); none for the packaged profile."""
    path = _house(tmp_path, thaw=1)
    said = "house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)"
    simulate = ["simulate", "--games", "1", "--json"]
    log = tmp_path / "games.jsonl"
    play = ["play", "--headless", "--seed", "3", "--state", str(tmp_path / "s.json"),
            "--log", str(log)]
    for extra, house in (["--profile", str(path)], [said]), ([], []):
        assert main([*simulate, *extra]) == 0
        assert json.loads(capsys.readouterr().out)["house_rules"] == house
        log.unlink(missing_ok=True)
        assert main([*play, *extra]) == 0
        capsys.readouterr()  # the game, printed
        header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
        assert header["log"] == "jongrogue-companion" and header["house_rules"] == house
