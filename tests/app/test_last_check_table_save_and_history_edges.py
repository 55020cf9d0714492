"""Mutation round 8 on the work of review 56 (the history's rules column, the commands that
play a kept table save on, the Last check 判定 panel): tests that kill the survivors a user
would see."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.history import default_history_path
from companion.app.modes.genso import table_session
from companion.app.modes.jongrogue import last_check
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.events import Event, Kind
from companion.systems.jongrogue.game import Game
from tests.app.genso_table_helpers import RULES, SEED, two_actions_then_a_stop
from tests.app.history_rules_helpers import old_history
from tests.app.history_run_helpers import _damage_a_table_page
from tests.app.table import Player
from tests.disk import left_by_a_cut, without_root_override


def played(seed: int) -> list[Event]:
    """The events of a headless Plus game of ``seed``, played to its end."""
    game = Game("plus")
    player = HeadlessPlayer(seed, "cautious")
    while game.outcome() is None:
        game.push(player.answer(game))
    return list(game.events)


def after_a_check(events: list[Event], wanted: list[str]) -> tuple[int, int]:
    """The first check followed at once by events of the kinds ``wanted`` (an item's as
    ``item:<action>``): the check's index and the index past them."""
    def kind(e: Event) -> str:
        return f"item:{e.data['action']}" if e.kind is Kind.ITEM else e.kind.value

    for i, e in enumerate(events):
        end = i + 1 + len(wanted)
        if e.kind is Kind.CHECK and [kind(x) for x in events[i + 1:end]] == wanted:
            return i, end
    raise AssertionError(f"no check followed by {wanted}")


def test_last_check_shows_the_ability_a_check_set_off() -> None:
    """A hit on a monster with an ability (JR-AB-*: it flees, it is unseated) is the
    check's outcome: the panel dropped it, ending at the bare check."""
    events = played(1)
    start, end = after_a_check(events, ["ability"])
    assert last_check(events[:end], Event.describe) == tuple(
        e.describe() for e in events[start:end])


def test_last_check_shows_the_gold_a_hit_stole_and_the_ability_that_stole_it() -> None:
    events = played(8)
    start, end = after_a_check(events, ["damage", "item:stolen", "ability"])
    assert last_check(events[:end], Event.describe) == tuple(
        e.describe() for e in events[start:end])


def test_a_lost_game_s_last_check_ends_with_the_game_over() -> None:
    """The blow that ended the run is the last check, and its game over its last line."""
    events = played(1)
    assert events[-1].kind is Kind.GAME_OVER
    shown = last_check(events, Event.describe)
    assert shown[-1] == events[-1].describe() and len(shown) > 1


def test_a_newer_table_save_of_another_fight_is_named_with_its_own_fight(
        tmp_path: Path) -> None:
    """A newer companion's table save of a fight other than the one this run took up: the
    command that plays it on names its own fight file (``fight_of``); this run's would set
    the kept save aside as another fight's."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    own = tmp_path / "my fights" / "cellar.json"
    saved = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps({**saved, "version": 2, "fight_path": str(own)}),
                     encoding="utf-8")
    told: list[str] = []
    table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                  choices=Player([]), tell=told.append)
    (kept,) = tmp_path.glob("table.json.newer-*")
    assert len(told) == 1
    assert f"--state {kept} --fight '{own}'`" in told[0]


def test_a_cut_writes_copy_that_is_not_utf8_is_named_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy a cut write left may be any bytes: a table save that does not read, beside a
    copy that is not UTF-8, is kept aside and the copy named with the command that takes it
    up (this run's fight: the copy does not say its own); reading the copy's fight file out
    of it must not stop the table."""
    two_actions_then_a_stop(tmp_path)
    state = tmp_path / "table.json"
    left_by_a_cut(state, b"\xff\xfe{\"fight_path\": " + bytes(range(128, 200)), monkeypatch)
    state.write_text(state.read_text(encoding="utf-8")[:200], encoding="utf-8")  # cut short
    told: list[str] = []
    table_session(RULES, tmp_path / "fight.json", state, resume=True, seed=SEED,
                  choices=Player([]), tell=told.append)
    (copy,) = tmp_path.glob("table.json.unwritten-*")
    assert copy.read_bytes() == b"\xff\xfe{\"fight_path\": " + bytes(range(128, 200))
    fight = (tmp_path / "fight.json").resolve()
    assert any(f"--state {copy} --fight {fight}` takes it up" in line for line in told), told


def test_a_damaged_read_only_history_from_before_the_rules_column_keeps_its_runs(
        tmp_path: Path) -> None:
    """An old history (no rules column) that is read-only, in a folder that is not, and has
    a bad page: the column cannot be added, so the file kept aside still has the old columns;
    the runs on its other pages go on in the new history, their revision unknown."""
    path = default_history_path()
    old_history(path, 300)
    _damage_a_table_page(path, 1)
    path.chmod(0o444)
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(tmp_path / "config"),
           "COMPANION_DATA_DIR": str(path.parent)}
    done = subprocess.run([*without_root_override(), sys.executable, "-m", "companion",
                           "history", "--json"], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    runs = json.loads(done.stdout)["runs"]
    assert 0 < len(runs) < 300 and "was not a readable history" in done.stderr
    assert runs[0]["game_id"] == "old-0" and {r["rules"] for r in runs} == {None}
