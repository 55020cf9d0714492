"""What the player sees where mutation round 10 found no test looking: the closing words of a
lost game, the second room's panel, a refused throw on the status line, a covered slot at
calibration, a tile slid during RFID enrolment, the blank White enrolled from a picture, and a
folder where the save goes in the middle of a game."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.calibrate.camera import learn_empty_slots
from companion.app.calibrate.rfid import Enroller, Waiting
from companion.app.camera_settings import ENROLMENT_FILE
from companion.app.cli import main
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.paths import config_dir
from companion.app.session.host import Session
from companion.app.session.mode import ChoiceAsk, RollAsk, Show, Throw
from companion.app.session.save import SaveGame
from companion.hw.camera.classifier import Enrolment, TileClassifier
from companion.hw.camera.mat import MatDetector
from companion.hw.ports import Slot
from companion.hw.rfid.events import TagAction, TagEvent
from companion.hw.rfid.tagmap import TagMap
from companion.systems.jongrogue.actions import Purpose, TileRequest
from companion.systems.jongrogue.autoplay import HeadlessPlayer
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from tests.app.calibrate_camera_helpers import empty_mat, in_frame, rect_corners
from tests.app.coc_table_helpers import coc_mode_at_the_first_roll
from tests.app.session_helpers import RecordingDisplay, Stop, StopAfter, sim_session


def test_a_lost_game_closes_with_game_over_not_survived() -> None:
    """Mutant J10 (``outcome.won`` read the wrong way round) told a dead PC "生還! You left
    floor 5 alive." No test read the closing words at the end of a real game."""
    game, player = Game("plus"), HeadlessPlayer(7, "cautious")  # dies on floor 5
    mode = JongRogueMode(game, player)
    while game.pending is not None:
        mode.push(player.answer(game))
    outcome = game.outcome()
    assert outcome is not None and not outcome.won
    assert mode.closing() == "Game over ゲームオーバー on floor 5 (5階)"


def test_the_second_room_being_laid_shows_its_own_tiles() -> None:
    """Mutant J9 (the tiles laid kept after a room's 4th) showed the first room's four tiles
    as laid while the second room was laid (JR-MAP-2), with no spot to lay next."""
    game, player = Game("plus"), HeadlessPlayer(0, "cautious")
    mode = JongRogueMode(game, player)
    rooms_laid = 0
    while True:
        request = game.pending
        tile = player.answer(game)
        mode.push(tile)
        if isinstance(request, TileRequest) and request.purpose is Purpose.ROOM:
            if mode.room_spot == 0:
                rooms_laid += 1
            elif rooms_laid == 1:
                break
    assert [t.tile for t in mode.view("").room_tiles] == [str(tile), "back", "empty", "empty"]


class Rolls:
    """Dice thrown at the table, one throw per ask, shown as the session shows its ask."""

    def __init__(self, throws: list[Throw]) -> None:
        self.throws = throws

    def next_throw(self, ask: RollAsk, show: Show) -> Throw:
        show(ask.prompt)
        if not self.throws:
            raise Stop
        return self.throws.pop(0)


class Leaves:
    def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
        show(ask.prompt, options=ask.options)
        raise Stop


def test_a_refused_throw_is_said_on_the_next_screen_and_gone_after_a_good_one() -> None:
    """Mutants H9 (the refusal not put on the status line: the same ask again with no word of
    why) and H10 (the status line not cleared: the refusal stayed on every later screen)."""
    display = RecordingDisplay()
    session = Session(coc_mode_at_the_first_roll(), choices=Leaves(),
                      rolls=Rolls([Throw((101,)), Throw((42,))]), display=display)
    with pytest.raises(Stop):
        session.run()
    statuses = [view.status for view in display.views]
    assert "was wanted" not in statuses[0]
    assert "1D100 was wanted, the throw was [101]" in statuses[1]
    assert len(statuses) > 2 and all("was wanted" not in s for s in statuses[2:])


def test_a_slot_half_covered_at_calibration_is_not_learnt_as_empty() -> None:
    """Mutant CC2 (the shade no longer counted): a dark sleeve over part of a slot, where the
    classifier is unsure, was saved as the slot's empty look, misreading it in every game."""
    frame = empty_mat()
    detector = MatDetector()
    spec = next(s for s in detector.geometry.slots if s.slot is Slot.ROOM_TR)
    points = in_frame(frame, rect_corners(spec.rect))
    (x0, y0), (x1, y1) = points.min(axis=0).astype(int), points.max(axis=0).astype(int)
    frame[y0 - 30:y1 + 30, x0:x0 + int((x1 - x0) * 0.6)] = 40  # a dark sleeve over 3/5 of it
    _, learnt, covered = learn_empty_slots(frame, detector.detect(frame), detector,
                                           TileClassifier(), 0.6)
    assert Slot.ROOM_TR in covered and Slot.ROOM_TR not in learnt


def test_the_tile_to_lift_slid_onto_another_slot_is_that_tile_moved() -> None:
    """Mutant RF3: a tile slid from Draw to the next slot (the tray reads it there before it
    misses it on Draw) was told "One tile at a time" about itself, and its lift swallowed."""
    out = io.StringIO()
    enroller = Enroller(TagMap(), Path("/nonexistent-never-written"), out)
    enroller.tag_map.save = lambda path: None  # type: ignore[method-assign]  # the disk
    enroller.enrol([Tile.from_notation("5p")], copies=2)
    enroller.on_event(TagEvent(TagAction.PLACED, Slot.DRAW, "04AA", None))
    assert enroller.waiting is Waiting.LIFT
    enroller.on_event(TagEvent(TagAction.PLACED, Slot.ROOM_TL, "04AA", None))
    enroller.on_event(TagEvent(TagAction.REMOVED, Slot.DRAW, "04AA", None))
    waiting: Waiting = enroller.waiting  # read afresh, not as narrowed above
    assert "One tile at a time" not in out.getvalue() and waiting is Waiting.TILE


def test_a_picture_of_the_blank_white_is_enrolled_as_the_white(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant CC8: 5z.png, the blank White (白), was skipped as bare paper, and the player told
    to photograph a face the tile does not have."""
    folder = tmp_path / "set"
    folder.mkdir()
    cv2.imwrite(str(folder / "5z.png"), np.full((320, 240, 3), 235, np.uint8))
    assert main(["calibrate", "camera", "--enrol-from", str(folder)]) == 0
    assert "5z.png skipped" not in capsys.readouterr().out
    assert Enrolment.load(config_dir() / ENROLMENT_FILE).labels == ["5z"]


def test_a_folder_where_the_save_goes_mid_game_does_not_stop_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Mutant H16: an error not the disk's (here EISDIR) in the middle of a game ended it with
    a traceback, not "cannot save …; the game goes on"."""
    save_path = tmp_path / "save.json"

    class FolderMadeThere(StopAfter):
        """Plays on a few choices once a folder took the save's name, then leaves."""

        def next_choice(self, ask: ChoiceAsk, show: Show) -> int:
            if save_path.is_file():  # something makes a folder of the save's name
                save_path.unlink()
                save_path.mkdir()
                self.n = 5
            return super().next_choice(ask, show)

    session = sim_session(SaveGame(seed=2, preset="plus", strategy="cautious"), save_path,
                          tmp_path / "log.jsonl", FolderMadeThere(None))
    with pytest.raises(Stop):  # the player's leaving, not the folder, ends it
        session.run()
    assert save_path.is_dir() and session.save_trouble
    assert "cannot save" in capsys.readouterr().err
