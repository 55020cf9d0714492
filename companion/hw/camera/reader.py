"""Stable camera reads: the camera's :class:`~companion.hw.ports.TileReader`.

Each frame, every slot crop is classified. A slot *settles* on a label once
``stable_frames`` consecutive frames agree on it with at least
``min_confidence``; frames below that count as "uncertain", and a slot that
stays uncertain settles on ``None`` so the player is asked to adjust the tile.
A settled tile goes through the wall's check (JR-WALL-1): if its best label
would be a 5th copy, the next best legal candidate is taken instead, when one
is sure enough (else the slot settles on ``None``, its candidates saying what it
looked like). The check is made once, when the tile settles: a tile lying on a
slot stays what it was read as while it lies there, even when counting another
copy of its kind (the 4th) makes its kind impossible to draw.
Both numbers come from the model's metadata and can be overridden by the
camera calibration; nothing here is a hidden constant.

Every slot of every frame polled is classified: a blank White (5z) laid on an empty slot,
or lifted off one, changes its crop too little for a cheap difference to be sure of
(review57b). What keeps a waiting table cheap is the wait polling a :attr:`quiet` reader
a few times a second (soak57 F2: every slot twenty times a second kept a core busy while
the player talked); quiet is every slot settled and its crop as before
(:func:`companion.hw.camera.change.changed`: sensor noise does not count). The same look
per slot says whether a slot is :meth:`~CameraTileReader.still`: a hand moving over a slot
reads "uncertain" as a tile the classifier cannot settle on does, but does not lie still.

Whether a slot is empty is not left to the face alone: each crop is also
compared with the slot's look when empty (:mod:`companion.hw.camera.occupancy`:
the printed mat, then the slot as last seen bare). A covered slot cannot read
``empty`` (a blank White is then a White); a bare one reads ``empty``.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from companion.errors import ImpossibleRead
from companion.hw.camera.capture import FileSource, FrameSource, frame_problem, may_be_drawn
from companion.hw.camera.change import changed, shrink
from companion.hw.camera.classifier import Prediction, TileClassifier
from companion.hw.camera.mat import MatDetector, MatGeometry, MatStatus
from companion.hw.camera.occupancy import INSET_MM, Occupancy, SlotLooks
from companion.hw.ports import SLOT_NAMES, Candidate, ReaderStatus, Slot, SlotReading
from companion.systems.jongrogue.tiles import BACK, EMPTY, Tile
from companion.systems.jongrogue.wall import TileLedger


def slot_words(slots: tuple[Slot, ...] | list[Slot]) -> str:
    """``slots`` as a prompt names them: "the draw slot", "the top-left room and draw
    slots"."""
    names = [SLOT_NAMES[s] for s in slots]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"the {listed} slot{'' if len(names) == 1 else 's'}"


# The paper under a shadow keeps the paper's colour, only darker: grey, as the crops are
# balanced so the mat's paper is (white_balance.py). A flat palm over a tile's face hides its
# outline and shows no straight sides of its own, so occupancy calls it covered with no
# outline as it does that paper (reviewc67b DEFECT 1), but skin is not grey. A pixel is
# tinted when a channel's share of its brightness is more than PAPER_TINT from a third; the
# slot's inside is no paper when more than PAPER_TINTED_SHARE of it is. Measured on the
# rendered mat (reviewc67b's probes, fixc67c): the still look of the shadowed paper in
# every lift (shadows 0.5, 0.75, 0.85 over half the slot, 0.7 over a third, 0.6 with no
# hand) had a tinted share of 0.000; a flat palm, smooth or textured, alone or with its
# forearm, in plain light or under a 0.75 shadow, 0.969 to 1.000 (its mean colour 0.118 to
# 0.125 from grey: the stand-in's skin, B, G, R 95, 130, 190, has a red share of 0.46).
# PAPER_TINT still takes for paper a shadow lit by a light about a quarter bluer or redder
# in one channel than the lamp the crops were balanced by; a shadow tinted more (a window's
# daylight in the shadow of a warm lamp) is not, and its lift is not offered (real light and
# skin were not measured).
PAPER_TINT = 0.05
PAPER_TINTED_SHARE = 0.5


def grey_inside(crop: np.ndarray, inset_px: int) -> bool:
    """Whether the inside of a (balanced) slot crop, ``inset_px`` in from its edge, is grey
    as paper is, in light or shadow, and not tinted as skin is (see PAPER_TINT). A grey
    camera's crop shows no colour: nothing is told apart by it."""
    if crop.ndim == 2:
        return True
    inside = crop[inset_px:-inset_px, inset_px:-inset_px] if inset_px else crop
    pixels = inside.reshape(-1, inside.shape[-1]).astype(np.float32)
    shares = pixels / np.maximum(pixels.sum(axis=1, keepdims=True), 1.0)
    tinted = np.abs(shares - 1 / 3).max(axis=1) > PAPER_TINT
    return float(tinted.mean()) <= PAPER_TINTED_SHARE


# The Japanese beside the reader's status words, on the game's status line (the words
# themselves are the camera's and the mat's, shared with calibration and the dice).
OUT_OF_VIEW_JA = "枠がカメラの外: マット全体を写して"
ADJUST_JA = "牌を置き直して"
NO_FRAME_JA = "カメラの映像なし"
BAD_FRAME_JA = "カメラの映像が使えない"
MAT_LOST_JA = "マットを読めない"


def out_of_view_message(slots: tuple[Slot, ...]) -> str:
    """What the player is told of slots the frame cuts off (MatDetector.out_of_view)."""
    verb = "is" if len(slots) == 1 else "are"
    return (f"{slot_words(slots)} {verb} outside the camera's view: move the camera so the "
            "whole mat is in the picture")


@dataclass(frozen=True, slots=True)
class ReaderSettings:
    """How sure and how steady a read must be before it counts."""

    stable_frames: int
    min_confidence: float

    @staticmethod
    def from_classifier(classifier: TileClassifier) -> ReaderSettings:
        return ReaderSettings(classifier.info.stable_frames, classifier.info.min_confidence)


def legal_candidate(candidates: tuple[Candidate, ...], ledger: TileLedger | None,
                    min_confidence: float) -> Candidate | None:
    """The best candidate the wall allows (JR-WALL-1), or None if none is sure enough.

    ``back`` and ``empty`` are always allowed. A tile the ledger refuses (every
    copy already out of the wall) is skipped in favour of the next best one.
    """
    for candidate in candidates:
        if candidate.confidence < min_confidence:
            return None
        if ledger is not None and candidate.label not in (BACK, EMPTY):
            try:
                ledger.check_draw(Tile.from_notation(candidate.label))
            except ImpossibleRead:
                continue
        return candidate
    return None


@dataclass(slots=True)
class SlotTracker:
    """The last few frames' labels for one slot and the label it settled on."""

    slot: Slot
    settings: ReaderSettings
    history: deque[str | None] = field(default_factory=deque)
    # whether each of those frames showed the slot covered with no tile's outline, grey
    # (unboxed: the paper under a shadow, not a flat palm; CameraTileReader.poll)
    unboxed: deque[bool] = field(default_factory=deque)
    settled: SlotReading | None = None
    look: str | None = None  # what the frames agreed on when it settled, before the wall's check

    def clear(self) -> None:
        self.history.clear()
        self.unboxed.clear()

    @property
    def steady(self) -> bool:
        """The last ``stable_frames`` frames agreed (what the slot settled on stands)."""
        return len(self.history) == self.settings.stable_frames and len(set(self.history)) == 1

    @property
    def paper(self) -> bool:
        """The slot settled on "uncertain" and its last ``stable_frames`` frames all showed it
        covered with no tile's outline, grey inside (``unboxed``, :func:`grey_inside`: not a
        hand's skin): the paper under a shadow, now, whatever
        the frames the reading settled on showed. A hand moving over a tile settles the slot
        on "uncertain" with the tile's outline in sight, and the shadowed paper left when the
        tile is lifted under it reads "uncertain" too: no new reading comes (reviewc67
        DEFECT 1). Nor does one when a flat hand's outline-free frames turn to its fingers
        resting there: the reading is no flag of the paper, only this is (reviewc67b
        DEFECT 2)."""
        return self.steady and self.history[0] is None and self.settled is not None \
            and self.settled.label is None and all(self.unboxed)

    def update(self, prediction: Prediction, ledger: TileLedger | None,
               unboxed: bool = False) -> SlotReading | None:
        """Add one frame; return the new settled reading when it changes.

        It changes only when the frames agree on another look: the wall's check is made
        as a tile settles, not again while it lies there. Counting the 4th copy of a kind
        must not turn the copies still on the mat into new (unreadable) tiles. ``unboxed``:
        the frame showed the slot covered with no tile's outline, grey inside;
        :attr:`paper` says whether the last frames all did (the readings do not: no reading
        is sent again when only that changes).
        """
        s = self.settings
        best = prediction.best
        self.history.append(best.label if best.confidence >= s.min_confidence else None)
        self.unboxed.append(unboxed)
        while len(self.history) > s.stable_frames:
            self.history.popleft()
        while len(self.unboxed) > s.stable_frames:
            self.unboxed.popleft()
        if len(self.history) < s.stable_frames or len(set(self.history)) != 1:
            return None
        look = self.history[0]
        if self.settled is not None and look == self.look:
            return None  # the same tile, still lying there
        self.look = look
        if look is None:
            chosen = None
        else:
            chosen = legal_candidate(prediction.candidates, ledger, s.min_confidence)
        reading = SlotReading(
            self.slot,
            chosen.label if chosen else None,
            chosen.confidence if chosen else best.confidence,
            prediction.candidates,
        )
        if self.settled is not None and self.settled.label == reading.label:
            return None
        self.settled = reading
        return reading


class CameraTileReader:
    """Reads the mat's slots from a :class:`FrameSource` (implements ``TileReader``).

    ``poll`` takes one frame. A missing frame, a black frame or a mat out of
    view leaves every settled reading as it was and says why in ``status``; so does a
    slot the frame cuts off (the camera moved): it is not read, and the status is not ok
    while it is out of view.
    """

    def __init__(self, source: FrameSource, classifier: TileClassifier, *,
                 detector: MatDetector | None = None, settings: ReaderSettings | None = None,
                 ledger: TileLedger | None = None, looks: SlotLooks | None = None) -> None:
        self.source = source
        self.classifier = classifier
        self.detector = detector if detector is not None else MatDetector()
        self.looks = looks if looks is not None else SlotLooks(self.detector.geometry)
        self.settings = settings if settings is not None else ReaderSettings.from_classifier(
            classifier
        )
        self.ledger = ledger
        self.trackers = {s.slot: SlotTracker(s.slot, self.settings)
                         for s in self.detector.geometry.slots}
        self._status = ReaderStatus(False, "no frame read yet 映像待ち")
        # A picture shows the tiles that lay there from the start, and none is ever laid
        # anew: say so, or the player waits for a read that cannot come.
        self._still = (f"{source.path.name} is one picture, which never changes: play counts "
                       "tiles as they are laid; give a camera, a folder of pictures or a video "
                       "写真1枚では進まない"
                       if isinstance(source, FileSource) and source.still else "")
        self._picture_file = may_be_drawn(source)
        self._counters = {"frames": 0, "no_frame": 0, "bad_frame": 0, "mat_lost": 0}
        self._seen: dict[Slot, np.ndarray] = {}  # each slot's crop at the last poll, shrunk
        self._quiet = False
        self._still_polls: dict[Slot, int] = {}  # polls each slot has been steady and unchanged
        self._bare: frozenset[Slot] = frozenset()  # slots the last poll saw bare paper on
        self._inset = round(INSET_MM * self.detector.geometry.px_per_mm)  # the slot's outline
        # What the game says on its status line at start of how the tiles are read (the
        # player's enrolled set left out: set by whoever loaded the classifier), "" for nothing.
        self.enrol_notice = ""

    @property
    def quiet(self) -> bool:
        """The last poll found every slot settled and its crop unchanged: nothing on the
        table moved, so it may be polled less often."""
        return self._quiet

    def still(self, slot: Slot) -> bool:
        """``slot`` has read what it settled on, its crop unchanged, for the last
        ``stable_frames`` polls: as long as a read needs to settle, after it settled. A
        hand moving over the slot is not still (its crop changes from frame to frame),
        though the classifier may settle on "uncertain" under it as it does on a tile it
        cannot read (camplay65 RISK 3: the hand's "likeliest tiles" were offered to pick)."""
        return self._still_polls.get(slot, 0) >= self.settings.stable_frames

    def paper(self, slot: Slot) -> bool:
        """``slot``'s last frames showed it as the paper under a shadow: settled "uncertain",
        covered, no tile's outline, grey (:attr:`SlotTracker.paper`, :func:`grey_inside`: a
        flat palm on the tile is not, reviewc67b DEFECT 1), though the reading may have
        settled under a hand (reviewc67 DEFECT 1). False for a slot out of view or after a
        bad frame (its frames cleared)."""
        return self.trackers[slot].paper

    @property
    def bare(self) -> frozenset[Slot]:
        """The slots the last poll's frame showed bare: the paper as it looks empty, read
        ``empty`` surely. One frame, not settled: a tile lifted and laid again faster than an
        empty read settles was still seen gone (camplay65b RISK 1), and a hand over a tile
        is never bare paper (it covers the slot, or leaves the tile in sight)."""
        return self._bare

    def _trouble(self, counter: str, message: str) -> list[SlotReading]:
        self._quiet = False
        self._still_polls.clear()
        self._bare = frozenset()
        self._counters[counter] += 1
        for tracker in self.trackers.values():
            tracker.clear()
        self._status = ReaderStatus(False, message, dict(self._counters))
        return []

    def poll(self) -> list[SlotReading]:
        frame = self.source.read()
        if frame is None:
            return self._trouble("no_frame", f"{self.source.message} {NO_FRAME_JA}")
        self._counters["frames"] += 1
        problem = frame_problem(frame, picture_file=self._picture_file)
        if problem:
            return self._trouble("bad_frame", f"{problem} {BAD_FRAME_JA}")
        detection = self.detector.detect(frame)
        if detection.status is MatStatus.LOST:
            return self._trouble("mat_lost", f"{detection.message} {MAT_LOST_JA}")
        crops = self.detector.slot_crops(frame, detection)
        outside = self.detector.out_of_view(detection)
        for slot in outside:
            self.trackers[slot].clear()
            self._still_polls.pop(slot, None)
        news = []
        bare = set()
        for slot, (prediction, evidence) in self.looks.read(self.classifier, crops).items():
            if evidence.occupancy is Occupancy.BARE and prediction.best.label == EMPTY:
                self.looks.remember(slot, crops[slot])  # follow the light as it changes
                if prediction.best.confidence >= self.settings.min_confidence:
                    bare.add(slot)
            # the paper under a shadow (for paper(), never the reading): covered, no tile's
            # outline, and grey, not a flat palm's skin over the tile (reviewc67b DEFECT 1)
            unboxed = evidence.occupancy is Occupancy.COVERED and not evidence.boxed \
                and grey_inside(crops[slot], self._inset)
            reading = self.trackers[slot].update(prediction, self.ledger, unboxed)
            if reading is not None:
                news.append(reading)
        # After this frame's reads: a slot the classifier alone saw change is not quiet.
        quiet = True
        for slot, crop in crops.items():
            small, seen = shrink(crop), self._seen.get(slot)
            unchanged = self.trackers[slot].steady and seen is not None \
                and not changed(seen, small)
            quiet &= unchanged
            self._still_polls[slot] = self._still_polls.get(slot, 0) + 1 if unchanged else 0
            self._seen[slot] = small
        self._quiet = quiet
        self._bare = frozenset(bare - set(outside))
        uncertain = [s for s, t in self.trackers.items()
                     if s not in outside and t.settled is not None and t.settled.label is None]
        message = f"{out_of_view_message(outside)} {OUT_OF_VIEW_JA}" if outside \
            else detection.message
        if uncertain:
            tiles = "tile" if len(uncertain) == 1 else "tiles"
            message += f"; adjust the {tiles} on {slot_words(uncertain)} {ADJUST_JA}"
        if self._still:
            message += f"; {self._still}"
        self._status = ReaderStatus(not outside and not self._still, message,
                                    dict(self._counters))
        return news

    def readings(self) -> dict[Slot, SlotReading]:
        """Every slot's settled reading so far."""
        return {s: t.settled for s, t in self.trackers.items() if t.settled is not None}

    def status(self) -> ReaderStatus:
        return self._status

    def close(self) -> None:
        self.source.close()


@functools.lru_cache(maxsize=4)
def _printed_looks(geometry: MatGeometry) -> SlotLooks:
    """The slots' printed look, drawn once per mat (one-shot reads never update it)."""
    return SlotLooks(geometry)


def frame_readings(frame: np.ndarray, classifier: TileClassifier,
                   detector: MatDetector | None = None,
                   looks: SlotLooks | None = None) -> tuple[dict[Slot, Prediction], str]:
    """One-shot: every slot of a single frame in view (empty slots judged by the mat under
    them), and what was seen; the message names any slot the frame cuts off. The frame is a
    picture file's (``classify --mat``), which may be a drawing of the mat."""
    detector = detector if detector is not None else MatDetector()
    looks = looks if looks is not None else _printed_looks(detector.geometry)
    problem = frame_problem(frame, picture_file=True)
    if problem:
        return {}, problem
    detection = detector.detect(frame)
    if not detection.found:
        return {}, detection.message
    crops = detector.slot_crops(frame, detection)
    judged = {s: p for s, (p, _) in looks.read(classifier, crops).items()}
    outside = detector.out_of_view(detection)
    return judged, out_of_view_message(outside) if outside else detection.message
