"""What the screen showed, drawn by drawn (input audit 67's tests and the terminal keys';
tidy72c: no test module imports another)."""

from __future__ import annotations

from tests.app.session_helpers import StepClock


class Shown:
    """Every prompt shown, with the clock's time."""

    def __init__(self, clock: StepClock) -> None:
        self.clock = clock
        self.prompts: list[tuple[float, str]] = []

    def __call__(self, prompt: str, **_: object) -> None:
        self.prompts.append((round(self.clock.now, 3), prompt))

    def when(self, start: str) -> list[float]:
        return [at for at, prompt in self.prompts if prompt.startswith(start)]
