"""review65h: a save behind a game the history took, and what the end and the stop say.

RISK 1, an unfinished save whose game is in the history is over (the companion puts only a
finished game there: its last writes were refused): the next game's save replaces it, and
``--resume`` does not play the ended game on; the game's end says so. RISK 2, the stop's
note looks the game up in the history without listing it (a listing set a history with a
zeroed page aside unsaid) and says what the history said of itself. NIT 1, a player told
the resume of a save behind the game hears that New game sets it aside first; NIT 2, the
headless footer offers no ``--seed`` copy as "this game again" after that resume; NIT 3, a
player at a screen reads the older-revision note once, "1 game", and a save of zero bytes
among blanks is not said to be all zero bytes.
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

import companion.app.commands.play.session as play_session
from companion.app.cli import main
from companion.app.commands.play.options import stopped_note
from companion.app.commands.play.saves import load_game
from companion.app.history import History, default_history_path
from companion.app.session.save import SaveGame, write_save
from companion.errors import DataError
from companion.hw.buttons import Pick
from companion.systems.jongrogue.actions import input_from_notation
from companion.systems.jongrogue.game import RULES_REVISION, Game
from tests.app.history_damage_helpers import a_run, older_note, three_games_zeroed
from tests.app.play_again_helpers import begun
from tests.disk import refuse_writes

SEED = 2


def behind_the_history(save: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A headless game whose save's writes are refused from the 5th on: it holds 3 moves."""
    with monkeypatch.context() as patch:
        refuse_writes(save, patch, range(5, 10**9))
        assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 0


# -- RISK 1 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("then", [["--seed", "3"], ["--resume"]], ids=["new game", "resume"])
def test_a_save_behind_a_game_the_history_took_is_neither_resumed_nor_kept_as_unfinished(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        then: list[str]) -> None:
    """The save holds 3 moves, unfinished; the history holds the game. Its end says the
    next game replaces the save; the next start, new or resumed, says the game is over and
    plays a new one in that file, nothing set aside and the ended game not played on."""
    save = tmp_path / "save.json"
    behind_the_history(save, monkeypatch)
    out, err = capsys.readouterr()
    behind = load_game(save)
    assert behind is not None and not behind.finished and len(behind.inputs) == 3
    assert [run.game_id for run in History().runs()] == [behind.game_id]
    assert (f"companion: the game is in the history (companion history); its save {save} "
            "holds it only up to move 3 (the disk refused the rest), and the next game "
            "replaces it") in err.splitlines()
    # In the history: its seed's copy is offered as "this game again", as for any game.
    assert "; this game again: " in out.splitlines()[-1]

    assert main(["play", "--headless", "--state", str(save), *then]) == 0
    out, err = capsys.readouterr()
    assert "unfinished game is kept" not in err
    assert "--- resumed from" not in out
    assert (f"companion: the game in {save} is over and in the history (companion history): "
            "its save was behind it (the disk refused its last moves); starting a new one"
            ) in err.splitlines()
    assert not list(tmp_path.glob("save.json.replaced-*"))
    ids = [run.game_id for run in History().runs()]
    assert len(ids) == 2 and ids.count(behind.game_id) == 1
    after = load_game(save)
    assert after is not None and after.finished and after.game_id == ids[1]


def test_a_stop_at_the_end_of_a_game_the_history_took_says_it_is_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C on the game's last lines, its save behind it but the history holding it: not
    "carries on from move 3" (the next start finds the game over), but that it is over."""
    save = tmp_path / "save.json"

    def stopped(*args: Any, **kwargs: Any) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(play_session, "farewell", stopped)
    with monkeypatch.context() as patch:
        refuse_writes(save, patch, range(5, 10**9))
        assert main(["play", "--headless", "--seed", str(SEED), "--state", str(save)]) == 130
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        f"companion: stopped; the game is over and in the history (companion history): its "
        f"save {save} is behind it (the disk refused its last moves), and the next game "
        "replaces it")


# -- RISK 2 ----------------------------------------------------------------------------------

def finished_save(path: Path, game_id: str) -> SaveGame:
    saved = SaveGame(seed=1, preset="plus", inputs=["draw 5p"], finished=True,
                     game_id=game_id)
    write_save(path, saved)
    return saved


def args_of(state: Path) -> argparse.Namespace:
    return argparse.Namespace(mode=None, headless=True, state=state)


def test_the_stops_note_does_not_set_a_damaged_history_aside_unsaid(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its cells zeroed, and a game recorded after: the stop's note found the game by
    listing every run, which set the file aside, and the "games that could be read" notice
    went nowhere. The game is looked up by its id now: the file stays for the next listing,
    which keeps it aside saying so."""
    path = default_history_path()
    three_games_zeroed(path)
    assert History().record(a_run("last"))
    state = tmp_path / "save.json"
    finished_save(state, "last")
    assert stopped_note(state, args_of(state)) == \
        "stopped; the game is over and in the history (companion history)"
    assert not list(path.parent.glob("history.sqlite3.corrupt-*"))
    assert capsys.readouterr().err == ""


def test_the_stops_note_says_what_the_history_said_of_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is no history, met as the stop looks the game up: it is kept aside and a
    new history begun, and that is said (it was dropped)."""
    path = default_history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database, a half-copied file" * 200)
    state = tmp_path / "save.json"
    finished_save(state, "gone")
    said = stopped_note(state, args_of(state))
    assert said.startswith(f"stopped; the game is over and kept in {state}: it goes in the "
                           "history")
    (kept,) = path.parent.glob("history.sqlite3.corrupt-*")
    err = capsys.readouterr().err
    assert f"companion: {path} was not a readable history (" in err
    assert f"kept as {kept.name}, starting a new one" in err


def test_the_stops_note_of_an_unfinished_save_of_a_game_in_the_history(
        tmp_path: Path) -> None:
    state = tmp_path / "save.json"
    saved = SaveGame(seed=1, preset="plus", inputs=["draw 5p"])
    write_save(state, saved)
    assert stopped_note(state, args_of(state)) == (
        f"stopped; the game is saved in {state}: companion play --resume --headless --state "
        f"{shlex.quote(str(state))} carries on")
    History().record(a_run(saved.game_id))
    assert stopped_note(state, args_of(state)) == (
        f"stopped; the game is over and in the history (companion history): its save {state} "
        "is behind it (the disk refused its last moves), and the next game replaces it")


# -- NIT 1, NIT 2 ----------------------------------------------------------------------------

def test_the_footer_offers_no_seed_copy_after_the_resume_of_a_save_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The save refused, the history too: the resume said is what plays this game again,
    into the history; the ``--seed`` of a copy saved nowhere, said after it, read as it."""
    save = tmp_path / "save.json"
    default_history_path().parent.mkdir(parents=True, exist_ok=True)
    default_history_path().mkdir()  # the history cannot be written
    behind_the_history(save, monkeypatch)
    out, err = capsys.readouterr()
    assert "plays it again to its end and puts it in the history" in err
    last = out.splitlines()[-1]
    assert last.startswith("To play one yourself: ")
    assert "this game again" not in last and "--seed" not in last


class Player:
    """A player at the screen: picks ``last`` whenever it is offered (its menu, then its
    question), OK on every message, and stops the companion (Ctrl-C) at Game over's New
    game; with ``last`` None, takes the first option ``picks`` times, then stops."""

    def __init__(self, last: str | None = None, picks: int = 0) -> None:
        self.last, self.picks, self.polls = last, picks, 0
        self.views: list[Any] = []

    def show(self, view: Any) -> None:
        self.views.append(view)
        self.polls = 0

    def poll(self) -> list[Pick]:
        self.polls += 1
        choices = [o.choice for o in self.views[-1].options] if self.views else []
        if not choices or self.polls < 2:
            return []
        if choices == ["next"]:
            raise KeyboardInterrupt  # Game over's New game: the player stops there
        if self.last is not None and self.last in choices:
            return [Pick(choices.index(self.last))]
        if self.last is None and choices != ["ok"]:
            if self.picks == 0:
                raise KeyboardInterrupt  # enough played
            self.picks -= 1
        return [Pick(0)]

    def close(self) -> None:
        pass


def at_the_screen(monkeypatch: pytest.MonkeyPatch, player: Player) -> None:
    monkeypatch.setattr(play_session, "open_display", lambda *args, **kwargs: player)
    monkeypatch.setenv("COMPANION_INPUT_POLL_SECONDS", "0.005")


def test_a_player_told_the_resume_of_a_save_behind_hears_new_game_sets_it_aside(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A player's game resumed before its last choice, the save and the history refused:
    the end names ``companion play --resume``, which after Game over's New game (the one
    button there) plays the new game; it says that New game keeps the save aside first."""
    save = tmp_path / "save.json"
    assert main(["play", "--headless", "--seed", "3", "--state", str(save)]) == 0
    whole = json.loads(save.read_text(encoding="utf-8"))
    played = whole["inputs"]
    last = max(i for i, notation in enumerate(played) if ":" in notation)
    game = Game.replay([input_from_notation(i) for i in played[:last]], whole["preset"], None,
                       revision=whole["rules"])
    whole.update(inputs=played[:last], finished=False, events=len(game.events),
                 player_chose=True)
    save.write_text(json.dumps(whole), encoding="utf-8")
    default_history_path().unlink()
    default_history_path().mkdir()  # the history cannot be written
    capsys.readouterr()
    player = Player(played[last])
    at_the_screen(monkeypatch, player)
    with monkeypatch.context() as patch:
        refuse_writes(save, patch)
        assert main(["play", "--resume", "--state", str(save), "--input", "sim", "--choices",
                     "keyboard", "--display", "screen"]) == 130
    told = [v.prompt for v in player.views if [o.choice for o in v.options] == ["ok"]]
    said = next(p for p in told if p.startswith("the save holds this game only up to move"))
    assert said.endswith(f"then `companion play --resume --choices keyboard --display screen "
                         f"--state {shlex.quote(str(save))}` plays it on from move {last}, "
                         "into the history at its end (a New game here keeps it aside first, "
                         "and says the command for it then)")


# -- NIT 3 -----------------------------------------------------------------------------------

def test_a_player_at_a_screen_reads_the_older_revision_note_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Held on a screen until OK, which cannot be missed, and not again on the status line
    (cleared at the first answer, a press made at once never showed it)."""
    older = RULES_REVISION - 1
    state = tmp_path / "older.json"
    state.write_text(begun(older).to_json(), encoding="utf-8")
    player = Player(picks=3)
    at_the_screen(monkeypatch, player)
    assert main(["play", "--resume", "--state", str(state), "--input", "sim", "--choices",
                 "keyboard", "--display", "screen"]) == 130
    assert capsys.readouterr().err.count(older_note(older)) == 1
    held = [v for v in player.views if [o.choice for o in v.options] == ["ok"]
            and v.prompt == older_note(older)]
    assert held
    assert not [v for v in player.views if getattr(v, "status", None) == older_note(older)]
    assert len(player.views) > len(held) + 3  # the game was played after it


def test_a_history_begun_anew_with_one_game_says_one_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """"with the 1 games that could be read" (review65h NIT 3)."""
    path = default_history_path()
    three_games_zeroed(path)
    assert History().record(a_run("after"))
    assert main(["history"]) == 0
    err = capsys.readouterr().err
    assert "starting a new one with the 1 game that could be read from it (at least 3 more " \
           "could not be)" in err


@pytest.mark.parametrize(("text", "said"), [
    ("\0" * 512, "all zero bytes"),
    ("\0\0  \0\n", "nothing but zero bytes and blank space (spaces, line ends)"),
])
def test_a_save_of_zero_bytes_among_blanks_is_not_said_to_be_all_zero_bytes(
        text: str, said: str) -> None:
    with pytest.raises(DataError) as info:
        SaveGame.from_json(text, "save.json")
    assert str(info.value) == \
        f"save.json: not valid JSON (the save is {said}: a power cut as it was written?)"
