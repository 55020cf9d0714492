"""Hands over the camera's mat, for the tests of tiles counted while a hand is over them: the
boxes a hand covers, the hand's skin drawn over a slot (HandMat), a table of them, the picks
and statuses shown since a time, and a player who picks from what is offered (Picker)."""

from __future__ import annotations

import numpy as np

from companion.hw.buttons import Pick, Press
from companion.hw.camera.classifier import TileClassifier
from companion.hw.ports import Slot
from companion.systems.jongrogue.wall import TileLedger
from tests.app.camera_table_helpers import StillMat, Table

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of the frame
DRAW_LOWER = (0.2, 0.5, 0.35, 0.7)  # the lower half of the draw slot's tile and below
DRAW_WHOLE = (0.2, 0.35, 0.35, 0.65)  # the whole draw slot
SKIN = np.array([95, 130, 190], np.float32)  # BGR


def skin(frame: np.ndarray, box: Box, frame_no: int, moving: bool) -> np.ndarray:
    """A hand over ``box``: skin, shaded, with dark gaps between the fingers; a ``moving``
    hand is a little elsewhere in each frame (a real hand is never quite still)."""
    height, width = frame.shape[:2]
    dx = int(0.012 * width * np.sin(frame_no * 1.7)) if moving else 0
    dy = int(0.012 * height * np.cos(frame_no * 1.3)) if moving else 0
    y0, y1 = int(box[1] * height) + dy, int(box[3] * height) + dy
    x0, x1 = int(box[0] * width) + dx, int(box[2] * width) + dx
    h, w = y1 - y0, x1 - x0
    yy, xx = np.mgrid[0:h, 0:w]
    shade = 0.75 + 0.35 * (xx / w) + 0.08 * np.sin(yy / 9.0)
    patch = SKIN * shade[..., None]
    for k in range(4):
        cx = int(w * (0.2 + 0.2 * k))
        patch[:, max(cx - 2, 0):cx + 2] *= 0.55
    frame[y0:y1, x0:x1] = np.clip(patch, 0, 255)
    return frame


class HandMat(StillMat):
    """The still mat, with a hand over part of it (``hand``), or no picture at all while the
    camera is unplugged (``dead``), darker by the factor ``shadow`` left of a hard edge
    through the draw slot's middle (``shadow``: a lamp's arm, the camera's stand)."""

    def __init__(self, tiles: dict[Slot, str]) -> None:
        super().__init__(tiles)
        self.shadow: float | None = None
        self.hand: tuple[Box, bool] | None = None
        self.dead = False
        self.frame_no = 0

    def read(self) -> np.ndarray | None:
        if self.dead:
            self.message = "camera:0 stopped sending pictures (unplugged?); retrying"
            return None
        self.message = "ok"
        frame = super().read()
        self.frame_no += 1
        if frame is not None and self.shadow is not None:
            edge = int(frame.shape[1] * (DRAW_WHOLE[0] + DRAW_WHOLE[2]) / 2)
            frame = frame.copy()
            frame[:, :edge] = (frame[:, :edge] * self.shadow).astype(np.uint8)
        if frame is None or self.hand is None:
            return frame
        return skin(frame.copy(), self.hand[0], self.frame_no, self.hand[1])


def table_of(classifier: TileClassifier, ledger: TileLedger) -> Table:
    table = Table(classifier, {}, ledger)
    table.source = HandMat({})
    table.reader.source = table.source
    return table


def hand(table: Table, at: float, seconds: float, box: Box, moving: bool = False) -> None:
    """A hand over ``box`` from ``at`` game seconds on, for ``seconds``."""
    source = table.source
    assert isinstance(source, HandMat)
    table.at(at, lambda: setattr(source, "hand", (box, moving)))
    table.at(at + seconds, lambda: setattr(source, "hand", None))


def picks_since(table: Table, start: int) -> set[tuple[str, ...]]:
    return {picks for _, _, tile, picks in table.shown[start:] if tile == "back" and picks}


def statuses_since(table: Table, start: int) -> list[str]:
    return [status for _, status, _, _ in table.shown[start:]]


COVERED_AT_START = ("the draw slot was covered or in shadow when the companion started: lift "
                    "the tile and lay it again to count it 起動時に枠が隠れていた(影?): 置き直して")


RELAID_PICK = ("5m 五萬 on the draw slot: pick it if you lifted it and laid it again; if not, "
               "take it off 置き直したなら選んで・違えば取って; pick: item moves, A takes "
               "選ぶ: I移動 A決定")


class Picker:
    """The player, who picks the first tile offered to pick (a tap on it), once on."""

    def __init__(self, table: Table) -> None:
        self.table, self.on = table, True

    def poll(self) -> list[Press]:
        last = self.table.shown[-1] if self.table.shown else None
        return [Pick(0)] if self.on and last and last[2] == "back" and last[3] else []
