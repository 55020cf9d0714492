"""A session's tile reads through the real camera reader: the rendered mat, the real classifier
and the session's TableTiles; the player's hands move tiles on a timeline of game time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from pytest_mock import MockerFixture

from companion.app.commands.play.readers import open_reader
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.controls import Controls
from companion.app.session.mode import TileAsk
from companion.app.session.reads import TableTiles
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.capture import RenderedSource
from companion.hw.camera.classifier import TileClassifier
from companion.hw.camera.pace import IDLE_AFTER_S, IDLE_PERIOD_S
from companion.hw.ports import Slot
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_table_helpers import ACCEPT, POLL, StillMat, Table


def test_tiles_on_the_mat_when_a_game_resumes_are_not_counted_again(
    classifier: TileClassifier,
) -> None:
    """A power cut after the start room's 1d9 (5m, counted: the save holds it) and with 3p
    laid on the top-left room slot but not yet counted. On `--resume` both still lie there:
    neither is counted by itself; the screen says to lift the tile and lay it again, and
    3p laid again counts."""
    game = Game("plus")
    mode = JongRogueMode(game)
    mode.restore("5m")  # the save's journal
    ask = mode.ask()
    assert isinstance(ask, TileAsk) and ask.slot is Slot.ROOM_TL
    table = Table(classifier, {Slot.DRAW: "5m", Slot.ROOM_TL: "3p"}, game.ledger)
    assert table.read(ask, limit=6.0) is None  # left alone for 6 s: nothing counted
    assert table.last_status() == ("a tile lay on the top-left room slot at start-up: "
                                   "lift it and lay it again to count it "
                                   "起動時から部屋の左上にあった牌: 置き直して")
    assert all(tile in (None, "back") and not picks for _, _, tile, picks in table.shown)
    table.at(0.0, lambda: table.source.remove(Slot.ROOM_TL))
    table.at(1.0, lambda: table.source.place(Slot.ROOM_TL, "3p"))
    assert str(table.read(ask)) == "3p"


def test_a_tile_left_on_the_draw_slot_from_the_last_game_is_not_a_new_game_s_first_tile(
    classifier: TileClassifier,
) -> None:
    """A new game asks for its start room's 1d9 on the draw slot, where the last game's tile
    still lies: it is not counted; the tile laid in its place once the slot was seen bare
    is. One swapped in without the slot ever seen bare (here within a frame; a hand over
    the slot as the tiles change) is held as the start-up tile, the screen saying to lift
    it and lay it again: the camera cannot tell it from a hand over the start-up tile
    that reads as another tile (review65c2 RISK 1)."""
    game = Game("plus")
    ask = JongRogueMode(game).ask()
    assert isinstance(ask, TileAsk) and ask.slot is Slot.DRAW
    table = Table(classifier, {Slot.DRAW: "7p"}, game.ledger)
    assert table.read(ask, limit=4.0) is None
    assert "draw slot at start-up" in table.last_status()
    table.at(0.0, lambda: table.source.place(Slot.DRAW, "2s"))  # swapped, never seen bare
    assert table.read(ask, limit=3.0) is None
    # reviewc66 RISK 1: the slot read another tile (7p) at start-up than it reads now: as
    # for a still hand over it then (read 5z), or a shadow, no "a tile lay there" is said
    assert table.last_status() == ("the draw slot was covered or in shadow when the companion "
                                   "started: lift the tile and lay it again to count it "
                                   "起動時に枠が隠れていた(影?): 置き直して")
    table.at(0.0, lambda: table.source.remove(Slot.DRAW))
    table.at(0.5, lambda: table.source.place(Slot.DRAW, "2s"))
    assert str(table.read(ask)) == "2s"


def test_counting_the_4th_copy_leaves_the_copies_on_the_mat_as_they_were(
    classifier: TileClassifier,
) -> None:
    """5m laid and counted on three room slots, then the 4th on the draw slot: the copies
    still on the mat stay counted tiles (no new read, nothing to pick). A 5th 5m laid after
    is said to be a 5th copy; the tile laid instead counts."""
    ledger = TileLedger()
    five_m = Tile.from_notation("5m")
    table = Table(classifier, {}, ledger)
    for slot in (Slot.ROOM_TL, Slot.ROOM_TR, Slot.ROOM_BL, Slot.DRAW):
        table.at(0.5, lambda slot=slot: table.source.place(slot, "5m"))  # type: ignore[misc]
        assert table.read(TileAsk("lay", slot, ledger)) == five_m
        ledger.draw(five_m, Place.TABLE)  # what the game does with the tile counted
    start = len(table.shown)
    for slot in (Slot.DRAW, Slot.ROOM_TL):  # the next prompts, the old tiles still there
        assert table.read(TileAsk("lay", slot, ledger), limit=3.0) is None
    assert {(status, tile, picks) for _, status, tile, picks in table.shown[start:]} == {
        ("", "back", ())}
    table.at(0.0, lambda: table.source.remove(Slot.DRAW))
    table.at(1.0, lambda: table.source.place(Slot.DRAW, "5m"))  # a 5th copy
    assert table.read(TileAsk("lay", Slot.DRAW, ledger), limit=3.0) is None
    assert table.last_status().startswith(
        "5m 五萬 on the draw slot: a 5th copy, lay it again 5枚目: 置き直して")
    table.at(0.0, lambda: table.source.place(Slot.DRAW, "9p"))
    assert str(table.read(TileAsk("lay", Slot.DRAW, ledger))) == "9p"


def test_a_tile_laid_while_the_camera_settles_at_start_up_counts(
    classifier: TileClassifier,
) -> None:
    """The start-up picture is what the camera's first agreeing frames show: a tile laid on
    the empty draw slot while they settle is a new tile, offered and counted."""
    game = Game("plus")
    ask = JongRogueMode(game).ask()
    assert isinstance(ask, TileAsk)
    table = Table(classifier, {}, game.ledger)
    table.at(0.05, lambda: table.source.place(Slot.DRAW, "4s"))
    assert str(table.read(ask)) == "4s"


def test_one_picture_as_the_camera_is_read_and_said_to_never_change(
        tmp_path: Path) -> None:
    """input.camera_source = a photo of the mat: the game waited for ever on "draw.png: no
    more pictures", the 5p in it never read (one frame never settles a read)."""
    frame = RenderedSource({Slot.DRAW: "5p"}, seed=3).read()
    assert frame is not None
    cv2.imwrite(str(tmp_path / "draw.png"), frame)
    reader = open_reader("camera", str(tmp_path / "draw.png"), "", TileLedger())
    readings = {}
    for _ in range(6):
        readings.update({r.slot: r.label for r in reader.poll()})
    assert readings[Slot.DRAW] == "5p"
    status = reader.status()
    assert not status.ok and status.message.endswith(
        "draw.png is one picture, which never changes: play counts tiles as they are laid; "
        "give a camera, a folder of pictures or a video 写真1枚では進まない")
    reader.close()


class WarmingMat(StillMat):
    """A camera still starting (on a Pi the camera and the first ONNX run take seconds): no
    frames until ``now()`` reaches ``up``."""

    def __init__(self, now: Callable[[], float], up: float) -> None:
        super().__init__({})
        self.now, self.up = now, up

    def read(self) -> np.ndarray | None:
        return super().read() if self.now() >= self.up else None


def test_the_first_tile_laid_when_the_screen_asks_for_it_counts(
    classifier: TileClassifier,
) -> None:
    """Table audit F2: the new game's first ask was on the screen before the camera's first
    frames; the tile the player laid at once was in them and refused as "lay at start-up".
    Until the reader is up the screen says to wait, and the tile laid when it asks counts."""
    game = Game("plus")
    ask = JongRogueMode(game).ask()
    assert isinstance(ask, TileAsk) and ask.prompt.startswith("Draw a tile")
    table = Table(classifier, {}, game.ledger)
    table.source = WarmingMat(lambda: table.now, up=1.5)
    table.reader.source = table.source
    shown = table.show

    def player(prompt: str, **kwargs: object) -> None:
        """Lays 4s on the draw slot as soon as the screen asks for a tile."""
        shown(prompt, **kwargs)
        if prompt.startswith("Draw a tile") and Slot.DRAW not in table.source.tiles:
            table.source.place(Slot.DRAW, "4s")

    table.show = player  # type: ignore[method-assign]
    assert str(table.read(ask)) == "4s"
    waiting = table.prompts[:table.prompts.index(ask.prompt)]
    assert waiting and set(waiting) == {
        "Starting the tile reader: lay no tile yet 読み取り準備中、まだ牌を置かないで"}
    # Meanwhile the status says why the reader is not up yet (here: no picture yet).


def test_a_table_where_nothing_moves_is_looked_at_a_few_times_a_second(
    classifier: TileClassifier, mocker: MockerFixture,
) -> None:
    """soak57 F2: the camera was read and every slot classified 20 times a second (here
    every POLL) for as long as the player talked. Once nothing has changed for some
    seconds the camera is looked at (and every slot classified) every IDLE_PERIOD_S, and
    a tile laid after a minute of talk still counts as soon as it settles."""
    game = Game("plus")
    ask = JongRogueMode(game).ask()
    assert isinstance(ask, TileAsk) and ask.slot is Slot.DRAW
    table = Table(classifier, {}, game.ledger)
    frames = mocker.spy(table.source, "read")
    predict = mocker.spy(classifier, "predict")
    table.at(60.0, lambda: table.source.place(Slot.DRAW, "4s"))
    assert str(table.read(ask, limit=70.0)) == "4s"
    laid_for = table.now - 60.0
    stable = classifier.info.stable_frames
    crops = sum(len(call.args[0]) for call in predict.call_args_list)
    # every POLL for the first IDLE_AFTER_S, then every IDLE_PERIOD_S: not 600 frames
    assert frames.call_count <= IDLE_AFTER_S / POLL + 60.0 / IDLE_PERIOD_S + 20
    assert crops == frames.call_count * len(table.reader.trackers)
    assert laid_for <= IDLE_PERIOD_S + (stable + 1) * POLL + ACCEPT + POLL


class Hands:
    """The player's buttons on the Table's game time: presses made due by ``Table.at``."""

    def __init__(self) -> None:
        self.pressed: list[Press] = []

    def poll(self) -> list[Press]:
        out, self.pressed = self.pressed, []
        return out


def test_a_read_rejected_twice_is_picked_on_the_tile_laid_again_never_counted(
    classifier: TileClassifier,
) -> None:
    """reviewc71 DEFECT 1: a tile the camera reads as 3m (standing in for an 8m it misreads).
    The player rejects each offer with B a second after it comes, lifts the tile 0.6 s later
    and lays it again 0.6 s after that, as the status says. The real reader's slot is still
    only some polls after a read settles, and the misread branch waited for stillness: the
    tile laid again after the second reject was offered as 3m with a countdown, and counted.
    After the second reject the status says to pick the tile laid, the tile laid again gets
    every legal tile to pick and never the countdown; the player's pick (8m) counts."""
    table = Table(classifier, {}, TileLedger())
    hands = Hands()
    table.tiles = TableTiles(table.reader, Controls([hands], clock=lambda: table.now),
                             accept_seconds=3.0, poll_seconds=POLL, sleep=table.sleep,
                             clock=lambda: table.now)
    rejects = [0]
    shown = table.show

    def player(prompt: str, **kwargs: object) -> None:
        was = table.shown[-1][2] if table.shown else None
        shown(prompt, **kwargs)
        _, _, tile, picks = table.shown[-1]
        if tile == "3m" and was != "3m" and rejects[0] < 2:  # a new offer of 3m
            rejects[0] += 1
            table.at(1.0, lambda: hands.pressed.append(Button.FLEE))
            table.at(1.6, lambda: table.source.remove(Slot.DRAW))
            table.at(2.2, lambda: table.source.place(Slot.DRAW, "3m"))
        if "8m" in picks and table.source.tiles.get(Slot.DRAW) == "3m" and rejects[0] == 2:
            at = picks.index("8m")  # the tile laid again, picked a second later
            table.at(1.0, lambda: hands.pressed.append(Pick(at)))

    table.show = player  # type: ignore[method-assign]
    table.at(0.5, lambda: table.source.place(Slot.DRAW, "3m"))
    assert str(table.read(TileAsk("Draw a tile", Slot.DRAW, TileLedger()), limit=20.0)) == "8m"
    assert rejects[0] == 2
    tiles = [tile for _, _, tile, _ in table.shown]
    starts = [n for n in range(len(tiles)) if tiles[n] == "3m" and (n == 0 or tiles[n - 1] != "3m")]
    end = next(n for n in range(starts[1], len(tiles)) if tiles[n] != "3m")
    after = table.shown[end:]  # from the second reject on
    assert after[0][1].startswith(
        "read 3m 三萬 again: pick the tile laid 置いた牌を選んで")
    assert all(tile != "3m" for _, _, tile, _ in after)  # no countdown on 3m again
    assert any(picks for _, _, _, picks in after)
