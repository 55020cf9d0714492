"""Tuning the dice reader to the player's light, table and dice.

The player lays ``count`` dice still in view; a few frames are read at each
of a few finder thresholds (how sure the finder must be that a die is there).
The threshold that reads all the dice steadily in the most frames wins (ties
go to the one nearest the one saved before), and the face-size limits are
fitted afresh around the dice actually seen. The dice lie on the table for this, so one
much larger than the others is of the player's set, not held nearer the camera: they
are read without the ``held_size`` bound, which is then set above the spread of their
sizes (HELD_MARGIN), so a throw of that set is read. The judge's and the counter's thresholds
(``min_top``, ``min_confidence``, ``min_side``, ``min_crowded``, ``min_counted``,
``min_alone``) are never changed here: they are what keeps the reader from guessing.
The caller saves the result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.hw.dice.enrol import Enrolment, normalised, pair_values
from companion.hw.dice.networks import TURNS, DiceNetworks, Spot
from companion.hw.dice.placement import larger_than_others
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import ReadStatus, dice_count

FIND_THRESHOLDS = (0.15, 0.2, 0.3, 0.4, 0.5)
# A thrown die lands elsewhere in view than where it was laid, its size changed a little by
# the view's perspective: held_size is set this much above the laid dice's spread of sizes.
HELD_MARGIN = 1.15


@dataclass(frozen=True, slots=True)
class Tuning:
    """The outcome of a calibration: tuned thresholds and how well they read."""

    config: ReaderConfig
    frames_read: int  # frames where every die was read with the chosen thresholds
    frames_seen: int
    values: list[int]  # what the dice showed in the chosen setting's reads
    message: str

    @property
    def ok(self) -> bool:
        """Good enough to save: most frames read all the dice."""
        return self.frames_seen > 0 and self.frames_read >= 0.8 * self.frames_seen


def tune(frames: Sequence[np.ndarray], count: int, base: ReaderConfig) -> Tuning:
    """Find thresholds that read ``count`` still dice in ``frames``.

    ``base`` is what was saved before; its size limits are not searched with but fitted
    afresh (from the packaged ones), as the camera may have moved or the dice changed
    since: dice smaller or larger than last time would be left out before being measured."""
    results = []
    networks = DiceNetworks()
    packaged = ReaderConfig.load()
    base = replace(base, min_face_px=packaged.min_face_px, max_face_px=packaged.max_face_px,
                   held_size=packaged.held_size)
    for threshold in FIND_THRESHOLDS:
        config = replace(base, find_threshold=threshold, held_size=math.inf)
        reader = DiceReader(config, networks)
        reads = [reader.read(f) for f in frames]
        good = [r for r in reads if r.status is ReadStatus.OK and len(r.dice) == count]
        agreed = max((sum(1 for r in good if r.values == g.values) for g in good), default=0)
        seen = Counter(len(r.dice) for r in reads).most_common(1)[0][0] if reads else 0
        results.append((agreed, -abs(threshold - base.find_threshold), config, good, seen))
    agreed, _, config, good, seen = max(results, key=lambda r: (r[0], r[1]))
    if not good:
        return Tuning(base, 0, len(frames), [],
                      f"could not read {dice_count(count)} in any setting ({found(seen, count)}"
                      "): check the light, that the dice are in view and lie apart, and try "
                      "again")
    sides = [d.side_px for r in good for d in r.dice]
    spread = max(max(larger_than_others(r.dice)) for r in good)
    config = replace(config, min_face_px=round(max(12.0, 0.6 * min(sides)), 1),
                     max_face_px=round(1.6 * max(sides), 1),
                     held_size=max(base.held_size, round(HELD_MARGIN * spread, 2)))
    values = good[0].values
    mixed = (f"; dice up to {spread:.2f} times the others' size, read up to "
             f"{config.held_size:g} times" if config.held_size > base.held_size else "")
    return Tuning(config, agreed, len(frames), values,
                  f"read {dice_count(count)} ({', '.join(map(str, values))}) in {agreed} of "
                  f"{len(frames)} frames; finder threshold {config.find_threshold:g}, faces "
                  f"{config.min_face_px:g}-{config.max_face_px:g} px{mixed}")


def found(seen: int, count: int) -> str:
    """How many dice the reader found, against the ``count`` the player gave (review 56,
    finding 13: "could not read 3 dice" hid that 2 were in view)."""
    if seen == count:
        return f"{dice_count(seen)} found, not all read surely"
    return f"{seen or 'no'} {'die' if seen == 1 else 'dice'} found, --count says {count}"


@dataclass(frozen=True)
class Enrolled:
    """The outcome of an enrolment: the player's dice, and what was learned from each throw."""

    enrolment: Enrolment | None  # None: no throw could be used
    throws_used: int
    message: str


def enrol(throws: Sequence[tuple[np.ndarray, list[int]]], config: ReaderConfig,
          networks: DiceNetworks | None = None,
          earlier: Enrolment | None = None) -> Enrolled:
    """Enrol the player's dice from ``throws``: a frame of each throw and the values the
    player says it shows (any order).

    A throw counts when the reader finds as many dice as the player named (read or
    not: the dice it is unsure of are the ones to learn); each die is paired with a
    value named (the judge's surest pairing first) and its window's embedding, in all
    TURNS turns, is kept with it, after those of an ``earlier`` enrolment (unless another
    judge made that one: then it is started again).
    """
    networks = networks or DiceNetworks()
    networks.enrol(None)  # the judge's own answers pair the values
    reader = DiceReader(config, networks)
    used, notes = 0, []
    if earlier is not None and earlier.judge != networks.judge_id:
        notes.append("the dice enrolled before were taught to an older dice model: "
                     "enrolled again from these throws")
        earlier = None
    embeddings = [] if earlier is None else [earlier.embeddings]
    values = [] if earlier is None else [earlier.values]
    for number, (frame, named) in enumerate(throws, 1):
        read = reader.read(frame)
        if len(read.dice) != len(named):
            notes.append(f"throw {number}: {dice_count(len(read.dice))} found, {len(named)} named; "
                         "left out")
            continue
        spots = [Spot(d.centre[0], d.centre[1], d.side_px, 1.0) for d in read.dice]
        probs, embedded = networks.embed(frame, spots)
        mean = probs.reshape(TURNS, len(spots), -1).mean(axis=0)
        given = pair_values(mean, named)
        for turn in range(TURNS):
            rows = embedded[turn * len(spots):(turn + 1) * len(spots)]
            embeddings.append(normalised(rows))
            values.append(np.array(given, dtype=np.int64))
        used += 1
    if not used:
        return Enrolled(earlier, 0, "no throw could be used: " + "; ".join(notes))
    enrolment = Enrolment(np.concatenate(embeddings), np.concatenate(values),
                          networks.judge_id)
    dice = len(enrolment.values) // TURNS
    return Enrolled(enrolment, used, f"enrolled {dice_count(dice)} from {used} of {len(throws)} "
                                     "throws" + ("; " + "; ".join(notes) if notes else ""))
