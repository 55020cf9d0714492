"""``companion events``: tables from the command line, party and rating files, Defaults."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.cli import main

PARTY = """
[[member]]
name = "Aki"
adventurer = 3
thief = 3
dexterity = 3
agility = 2
vitality = 2

[[member]]
name = "Ben"
sage = 2
intelligence = 3
"""

RATINGS = "rating,2,3,4,5,6,7,8,9,10,11,12\n5,*,0,1,1,2,3,4,4,5,5,6\n"


def test_events_text_is_reproducible_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """EV-MON-1 from the command line; the same seed gives the same walk."""
    assert main(["events", "monster", "--seed", "4", "--level", "2"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("EV-MON-1  モンスター/Monsters: (1D6) ＞ ")
    assert main(["events", "monster", "--seed", "4", "--level", "2"]) == 0
    assert capsys.readouterr().out == first


def test_events_sw_json_with_party_and_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-CORE-3: the user's rating CSV is read; sw mode rolls checks for the party file."""
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    ratings = tmp_path / "ratings.csv"
    ratings.write_text(RATINGS, encoding="utf-8")
    for seed in range(8):
        code = main(["events", "recovery", "--mode", "sw", "--party", str(party),
                     "--ratings", str(ratings), "--seed", str(seed), "--json"])
        assert code == 0
        data = json.loads(capsys.readouterr().out)
        assert data["mode"] == "sw" and data["seed"] == seed
        powers = [s for s in data["steps"] if s["rule"] == "EV-CORE-3"]
        assert len(powers) == 4  # HP and MP for each of two members
        assert all(p["data"]["value"] is not None for p in powers)
        assert {p["member"].split()[0] for p in powers} == {"Aki", "Ben"}


def test_events_defaults_listing_and_user_file(
    user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defaults are listed with their origin; the user's events.toml overrides them."""
    assert main(["events", "defaults"]) == 0
    out = capsys.readouterr().out
    assert "EV-DOOR-3  enabled                  false  (default)" in out
    config = user_dirs / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "events.toml").write_text('[defaults."EV-DOOR-3"]\nenabled = true\n', "utf-8")
    assert main(["events", "defaults", "--json", "--set", "EV-TRAP-2.individual=random"]) == 0
    rows = {(r["rule"], r["key"]): r for r in json.loads(capsys.readouterr().out)}
    assert rows["EV-DOOR-3", "enabled"] == {
        "rule": "EV-DOOR-3", "key": "enabled", "value": True, "default": False,
    }
    assert rows["EV-TRAP-2", "individual"]["value"] == "random"
    assert rows["EV-CORE-1", "dm_level"]["default"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["events", "door", "--mode", "sw"], "--party FILE"),
        (["events", "door", "--set", "EV-DOR-3.enabled=true"], "no Default is kept"),
        (["events", "door", "--set", "EV-DOOR-3.enabled=3"], "must be a bool"),
        (["events", "door", "--set", "enabled"], "write RULE.key=value"),
        (["events", "door", "--party", "/nonexistent/party.toml"], "cannot read the party file"),
        (["events", "monster", "--level", "0"], "DM level must be 1 or more"),
    ],
)
def test_events_bad_input_is_a_clear_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_packaged_example_party_plays_every_table(
    capsys: pytest.CaptureFixture[str]
) -> None:
    from importlib.resources import as_file, files

    with as_file(files("companion.systems.events").joinpath("data", "example_party.toml")) as party:
        for table in ("door", "chest", "trap", "monster", "explore", "recovery", "poison"):
            for seed in range(6):
                argv = ["events", table, "--mode", "sw", "--party", str(party),
                        "--seed", str(seed), "--level", "2"]
                assert main(argv) == 0
                assert capsys.readouterr().out.startswith("EV-")


def test_bad_party_file_names_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    party = tmp_path / "party.toml"
    party.write_text('[[member]]\nname = "Aki"\nthief = "three"\n', encoding="utf-8")
    assert main(["events", "door", "--mode", "sw", "--party", str(party)]) == 2
    assert "member 1: thief must be a whole number" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "content", "message"),
    [
        ("--party", b"\xff\xfe[[member]]", "the party file"),
        ("--ratings", b"\xffrating,2", "the rating table"),
        ("--party", b"member = [1]\n", "member 1: must be a [[member]] table"),
    ],
)
def test_unreadable_party_or_rating_files_are_a_clear_error(
    flag: str, content: bytes, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-CORE-3 rating CSV and the sw party file: bad bytes or shapes give exit 2, no traceback."""
    path = tmp_path / "input"
    path.write_bytes(content)
    assert main(["events", "door", "--mode", "sw", flag, str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"defaults = 3\n", "the Defaults must be tables keyed by rule ID"),
        (b"\xff", "is not UTF-8 text"),
        (b'[defaults."EV-POI-1"]\nduration = "1D3"\n', "EV-POI-1.duration is the book's rule"),
        (b'[defaults."EV-DOOR-4"]\nretries = -1\n', "EV-DOOR-4.retries must be at least 0"),
    ],
)
def test_a_bad_user_defaults_file_is_a_clear_error(
    content: bytes, message: str, user_dirs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EV-CORE-1..EV-POI-12 Defaults file in the config folder: named, exit 2, no traceback."""
    config = user_dirs / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "events.toml").write_bytes(content)
    assert main(["events", "monster"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
