"""Tuning the dice reader to the player's light, table and dice.

The player lays ``count`` dice still in view; a few frames are read under a
small grid of flood tolerances and pip contrasts. The setting that reads all
the dice steadily in the most frames wins (ties go to the packaged default's
neighbourhood, the middle of the working range), and the face-size limits are
fitted around the dice actually seen. The caller saves the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.hw.dice.reader import DiceReader, ReaderConfig, ReadStatus

TOLERANCES = (14.0, 17.0, 20.0, 24.0, 28.0)
CONTRASTS = (28.0, 40.0, 52.0)


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
    """Find thresholds that read ``count`` still dice in ``frames``."""
    results = []
    for tol in TOLERANCES:
        for contrast in CONTRASTS:
            config = replace(base, flood_tolerance=tol, pip_contrast=contrast)
            reader = DiceReader(config)
            reads = [reader.read(f) for f in frames]
            good = [r for r in reads if r.status is ReadStatus.OK and len(r.dice) == count]
            agreed = max((sum(1 for r in good if r.values == g.values) for g in good), default=0)
            # Prefer settings near the packaged ones when several read every frame.
            distance = abs(tol - base.flood_tolerance) / 10 + abs(
                contrast - base.pip_contrast) / 10
            results.append((agreed, -distance, config, good))
    agreed, _, config, good = max(results, key=lambda r: (r[0], r[1]))
    if not good:
        return Tuning(base, 0, len(frames), [],
                      f"could not read {count} dice in any setting: check the light, "
                      "that the dice are in view and lie apart, and try again")
    sides = [d.side_px for r in good for d in r.dice]
    config = replace(config, min_face_px=round(max(12.0, 0.6 * min(sides)), 1),
                     max_face_px=round(1.6 * max(sides), 1))
    values = good[0].values
    return Tuning(config, agreed, len(frames), values,
                  f"read {count} dice ({', '.join(map(str, values))}) in {agreed} of "
                  f"{len(frames)} frames; flood tolerance {config.flood_tolerance:g}, "
                  f"pip contrast {config.pip_contrast:g}, faces "
                  f"{config.min_face_px:g}-{config.max_face_px:g} px")
