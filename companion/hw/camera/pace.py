"""How often a camera waiting on the player looks: at its full rate while its view changes,
and a few times a second once nothing has changed for a while (soak57 F2).

A player may talk for minutes before laying a tile or throwing the dice. Reading every
frame of a table where nothing moves kept a core of the Pi busy for all that time; a
quarter of a second is soon enough to see a hand come into view, and from the first
change on the camera is looked at at its full rate again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

FRAME_PERIOD_S = 1 / 30  # a camera's frame period at 30 fps: a live camera gives no more
IDLE_AFTER_S = 3.0  # nothing changed for this long: the camera is looked at less often
IDLE_PERIOD_S = 0.25  # ... this often


@dataclass(slots=True)
class Pace:
    """When the view last changed and was last looked at, and so when to look next:
    every ``period_s`` (at least), or every :data:`IDLE_PERIOD_S` once nothing has changed
    for :data:`IDLE_AFTER_S`. Looking starts as though the view had just changed."""

    period_s: float
    clock: Callable[[], float] = time.monotonic
    changed_at: float | None = None
    looked_at: float | None = None

    def changed(self) -> None:
        """The view changed (something moved, a read changed): look at the full rate."""
        self.changed_at = self.clock()

    @property
    def idle(self) -> bool:
        """Nothing has changed for :data:`IDLE_AFTER_S`."""
        return self.changed_at is not None and self.clock() - self.changed_at >= IDLE_AFTER_S

    def due(self) -> bool:
        """Whether to look now, for a loop that runs at the full rate anyway (it polls the
        buttons too): always, unless idle and looked at less than the idle period ago."""
        if not self.idle or self.looked_at is None:
            return True
        return self.clock() - self.looked_at >= IDLE_PERIOD_S

    def looked(self) -> None:
        """The view was looked at now."""
        self.looked_at = self.clock()
        if self.changed_at is None:
            self.changed_at = self.looked_at

    def wait(self, sleep: Callable[[float], None]) -> None:
        """Sleep the rest of the period since the last look, then count this one: a camera
        that does not block (a video, a rendered scene) is not read in a busy loop."""
        if self.looked_at is not None:
            period = IDLE_PERIOD_S if self.idle else self.period_s
            rest = self.looked_at + period - self.clock()
            if rest > 0:
                sleep(rest)
        self.looked()
