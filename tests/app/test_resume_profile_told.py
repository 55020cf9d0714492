"""Resuming an unfinished game played under a house-rule profile tells the house rule once
(``resumed_mode``'s ``told_profile``): the game played on is that profile's, so its house
rules are said as they were when it began. The tests of a new and a finished game never
reached that branch (review 3, item 5)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from companion.app.cli import main
from companion.app.commands.play.saves import load_game
from companion.app.commands.play.session import jongrogue_mode
from companion.app.history import default_history_path
from companion.app.session.host import replay
from companion.app.session.save import profile_hash, write_save
from companion.systems.jongrogue.profile import load_profile

SEED = 4
CUT_AFTER = 40  # inputs: the game is cut short well before its end


def test_resuming_an_unfinished_house_rule_game_tells_the_house_rule_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JR-AB-FREEZE with thaw = 1 (the book: 8): a headless game played with it, saved
    again as if the power went after 40 inputs, resumes from the save alone (no
    --profile given) and says the house rule once, then plays to its end."""
    house = tmp_path / "house.toml"
    house.write_text("[combat]\nthaw = 1\n", encoding="utf-8")
    save = tmp_path / "save.json"
    play = ["play", "--headless", "--state", str(save)]
    assert main([*play, "--seed", str(SEED), "--profile", str(house)]) == 0
    played = load_game(save)
    assert played is not None and played.finished and played.profile_path == str(house)
    assert len(played.inputs) > CUT_AFTER

    # The same game cut short: replayed under its own profile to where the power went.
    mode = jongrogue_mode(played, load_profile(house), "sim")
    replay(mode, played.inputs[:CUT_AFTER], None)
    write_save(save, replace(played, inputs=played.inputs[:CUT_AFTER],
                             events=mode.progress(), finished=False))
    # As if the power went: the whole game is not in the history (review65h RISK 1: an
    # unfinished save of a game in the history is over, and a new game is played).
    default_history_path().unlink()
    capsys.readouterr()

    assert main([*play, "--resume"]) == 0
    err = capsys.readouterr().err
    said = f"companion: {house}: house rule: combat.thaw = 1 (the book: 8, JR-AB-FREEZE)"
    assert err.count(said) == 1, err
    assert not list(tmp_path.glob("save.json.corrupt-*")), err
    resumed = load_game(save)
    assert resumed is not None and resumed.game_id == played.game_id and resumed.finished
    assert resumed.inputs == played.inputs  # the same game, carried on to its end


def test_a_game_begun_before_blank_names_were_refused_plays_on_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A profile with a blank item name (JR-ITEM-1) is refused to a new game since
    42818b26; a game begun with it before then resumes and replays as it was played. Its
    save keeps only the profile's hash: refused, it was kept aside as unreadable with the
    advice to resume it once the profile was back (it was), and mending the name made it a
    changed profile: it could never be played on (reviewb74 D4)."""
    blank = tmp_path / "blank.toml"
    blank.write_text('[items.1]\nname_en = "x"\n', encoding="utf-8")
    save, log = tmp_path / "save.json", tmp_path / "game.jsonl"
    play = ["play", "--headless", "--state", str(save)]
    assert main([*play, "--seed", str(SEED), "--profile", str(blank), "--log", str(log)]) == 0
    played = load_game(save)
    assert played is not None and played.finished
    mode = jongrogue_mode(played, load_profile(blank), "sim")
    replay(mode, played.inputs[:CUT_AFTER], None)
    # The save and log as the version before 42818b26 wrote them with the blank name: the
    # save holds it only in the profile's hash, the log in its hash and the found events.
    blank.write_text('[items.1]\nname_en = " "\n', encoding="utf-8")
    played = replace(played, profile_hash=profile_hash(blank))
    write_save(save, replace(played, inputs=played.inputs[:CUT_AFTER],
                             events=mode.progress(), finished=False))
    header, *events = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text(json.dumps({**json.loads(header), "profile_hash": played.profile_hash})
                   + "\n" + "".join(events).replace('"name_en": "x"', '"name_en": " "'),
                   encoding="utf-8")
    default_history_path().unlink()
    capsys.readouterr()

    assert main([*play, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "cannot be resumed" not in err and not list(tmp_path.glob("save.json.*")), err
    resumed = load_game(save)
    assert resumed is not None and resumed.game_id == played.game_id and resumed.finished
    assert resumed.inputs == played.inputs
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    # A new game is still refused the blank name.
    assert main(["play", "--headless", "--seed", str(SEED), "--profile", str(blank)]) == 2
    assert capsys.readouterr().err == (f"companion: error: {blank}: field items.1.name_en must "
                                       "be a name (text), found ' '\n")
