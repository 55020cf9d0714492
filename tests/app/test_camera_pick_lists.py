"""The tile camera's pick lists in play: their status, the touch box, classify --mat frames.

fixcam71d: the tile camera's picks in play (reviewc71b, fixcam71c).

NIT 2: the status beside the list "Other tile…" opens was the read's problem + PICK_HINT, cut
at 800x480 and 1024x600; it is one short row now, as beside the two-rejects list.

NIT 4: `classify a.png --mat b.png c.png` was refused ("unrecognized arguments: c.png"): --mat
takes every frame after it now, read in the command line's order with the IMAGEs before it.

fixcam71c "Still open": a touch-only screen (no buttons, no keyboard) had no way to give a tile
the camera reads as an empty slot; with the hint after EMPTY_HINT_SECONDS a tappable "Other
tile… 他の牌" box comes too, and nothing before the hint.

RISK 1: while every legal tile is up to pick ("Other tile…" opened, or a read rejected twice),
a flicker of the camera's read of the tile (a settled 3m read as "uncertain" a moment, and
back) closed the list back to four picks and dropped the highlight: a buttons-only player
some I presses in lost their place. The list, its highlight and "opened" now last until the
tile is lifted (the slot reads empty a settled while) or a pick is made.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.cli import main
from companion.app.modes.jongrogue import JongRogueMode
from companion.app.session.reads import (
    EMPTY_HINT,
    EMPTY_HINT_SECONDS,
    LIFTED_SECONDS,
    MISREAD_HINT,
    OPENED_HINT,
    OPENED_STATUS,
    OTHER,
    READS_EMPTY,
    pick_option,
)
from companion.hw.buttons import Button, Pick, Press
from companion.hw.camera.sim_scene import render_scene
from companion.hw.display.screen import ScreenDisplay
from companion.hw.ports import Slot, SlotReading
from companion.systems.jongrogue.game import Game
from companion.systems.jongrogue.tiles import ALL_KINDS, BACK, EMPTY, Tile
from companion.systems.jongrogue.wall import Place, TileLedger
from tests.app.camera_pick_list_helpers import Shown, on, run
from tests.hw.screen_layout_helpers import spy_text


def lit_tile(shown: Shown) -> str | None:
    return None if shown[3] is None else shown[2][shown[3]]


def flicker(start: float, a: SlotReading, b: SlotReading, times: int = 4) -> list[
        tuple[float, SlotReading]]:
    """The read flips to ``b`` and back to ``a``, every 0.3 s."""
    return [(start + 0.3 * i, b if i % 2 == 0 else a) for i in range(times)]


def fifth_copy_ledger() -> TileLedger:
    ledger = TileLedger()
    for _ in range(4):
        ledger.draw(Tile.from_notation("3m"), Place.TABLE)
    return ledger


def test_other_tile_s_list_and_its_highlight_outlast_a_flicker_of_the_read() -> None:
    """A 5th 3m (every copy out) read "uncertain" a moment, and back: the player opened
    "Other tile…" and moved 6 down the 34; the flicker sent the list back to the four picks
    with nothing lit, and A, pressed after it, picked nothing."""
    fifth, unsure = on("3m", "3m", "6m", "9m"), on(None, "3m", "6m", "9m")
    plan = [(0.5, fifth), *flicker(4.0, fifth, unsure)]
    moved: list[str | None] = []

    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, _ = last
        if 1.5 <= now < 1.6 and OTHER in picks:
            return [Button.ITEM] * (picks.index(OTHER) + 1) + [Button.ATTACK]
        if 3.0 <= now < 3.1 and len(picks) > 4:
            return [Button.ITEM] * 6
        if 3.5 <= now < 3.6:
            moved.append(lit_tile(last))
        if 6.0 <= now < 6.1:
            return [Button.ATTACK]
        return []

    tile, shown = run(plan, act, fifth_copy_ledger())
    assert moved[0] is not None
    assert str(tile) == moved[0]
    after = [s for s in shown if 3.5 <= s[0] <= 6.0]
    assert all(len(s[2]) > 4 and lit_tile(s) == moved[0] for s in after)


def test_the_list_after_two_rejects_and_its_highlight_outlast_a_flicker_of_the_read() -> None:
    """A 3m rejected twice (the camera's misread): every legal tile is up to pick. The read
    flips to "uncertain" and back: the four picks of an unsure read replaced the list."""
    read, unsure = on("3m", "3m", "8m"), on(None, "3m", "8m")
    empty = SlotReading(Slot.DRAW, EMPTY, 1.0)
    plan = [(0.5, read), (2.0, empty), (3.0, read), *flicker(7.0, read, unsure)]
    moved: list[str | None] = []

    def act(now: float, last: Shown) -> Sequence[Press]:
        if 1.0 <= now < 1.1 or 3.5 <= now < 3.6:
            return [Button.FLEE]  # B: rejects the read on offer
        if 5.0 <= now < 5.1:
            return [Button.ITEM] * 5
        if 6.0 <= now < 6.1:
            moved.append(lit_tile(last))
        if 9.0 <= now < 9.1:
            return [Button.ATTACK]
        return []

    tile, shown = run(plan, act)
    assert moved[0] is not None and moved[0] != "3m"
    assert str(tile) == moved[0]
    after = [s for s in shown if 6.0 <= s[0] <= 9.0]
    assert all(len(s[2]) > 4 and lit_tile(s) == moved[0] for s in after)


def test_a_lift_that_settles_closes_the_list_and_a_read_empty_a_moment_does_not() -> None:
    """"Opened" is the tile's: a read of an empty slot for a moment (a flicker) keeps it,
    and the highlight; a lift (empty LIFTED_SECONDS and more) ends it, so the tile laid
    next gets its own four picks first."""
    unsure = on(None, "6m", "9m", "1p")
    empty = SlotReading(Slot.DRAW, EMPTY, 1.0)
    relay = 6.0 + LIFTED_SECONDS + 0.5
    plan = [(0.5, unsure), (4.0, empty), (4.2, unsure), (6.0, empty), (relay, unsure)]
    moved: list[str | None] = []

    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, _ = last
        if 1.5 <= now < 1.6:
            return [Pick(picks.index(OTHER))]
        if 3.0 <= now < 3.1:
            return [Button.ITEM] * 3
        if 3.5 <= now < 3.6 or 5.0 <= now < 5.1:
            moved.append(lit_tile(last))
        if relay + 1.0 <= now < relay + 1.1:
            moved.append(str(picks))
            return [Pick(0)]
        return []

    tile, _ = run(plan, act)
    assert moved[0] is not None and moved[1] == moved[0]
    assert moved[2] == str(("6m", "9m", "1p", OTHER))  # the next tile's own picks
    assert str(tile) == "6m"


@pytest.mark.parametrize("times", [1, 3])
def test_a_flicker_does_not_restart_the_guard_of_the_full_list(times: int) -> None:
    """The 0.4 s guard is for the list's first showing: a press made 0.1 s after a flicker
    brought the same tiles back is a deliberate one, and takes the lit tile."""
    fifth, unsure = on("3m", "3m", "6m", "9m"), on(None, "3m", "6m", "9m")
    flips = flicker(4.0, fifth, unsure, times)
    back = flips[-1][0]
    plan = [(0.5, fifth), *flips]
    lit: list[str | None] = []

    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, _ = last
        if 1.5 <= now < 1.6 and OTHER in picks:
            return [Pick(picks.index(OTHER))]
        if 3.0 <= now < 3.1:
            return [Button.ITEM] * 2
        if back + 0.1 <= now < back + 0.2:
            lit.append(lit_tile(last))
            return [Button.ATTACK]
        return []

    tile, _ = run(plan, act, fifth_copy_ledger(), limit=back + 0.5)
    assert lit[0] is not None and str(tile) == lit[0]


# --- NIT 2: after "Other tile…", the status beside every legal tile is one short row -----------


def status_rows(size: str, status: str, picks: tuple[str, ...]) -> list[tuple[str, bool]]:
    """The rows ``status`` is drawn in beside ``picks`` on the JongRogue screen, and whether
    each is cut (as test_bilingual_statuses.fits draws it)."""
    screen = ScreenDisplay(size)
    mode = JongRogueMode(Game("plus"))
    ask = mode.ask()
    assert ask is not None
    options = tuple(pick_option(p if p == OTHER else Tile.from_notation(p)) for p in picks)
    view = mode.view(ask.prompt, status=status, prompt_tile="back", options=options)
    drawn = spy_text(screen)
    screen.render(view)
    return [(d.text, d.cut) for d in drawn if not d.label and d.text and d.text in status]


CASES = {
    "unsure": (on(None, "3m", "6m", "9m"), TileLedger),
    "face-down": (on(BACK), TileLedger),
    "5th-copy": (on("3m", "3m", "6m", "9m"), fifth_copy_ledger),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_status_beside_the_list_other_tile_opens_is_one_whole_row(case: str) -> None:
    """It was the read's problem + PICK_HINT, cut at 800x480 and 1024x600 ("…表にして; or
    pick: item mo…"): what A does was lost. Now one short row, as the two-rejects list's."""
    reading, ledger = CASES[case]

    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, _ = last
        if 1.5 <= now < 1.6 and OTHER in picks:
            return [Pick(picks.index(OTHER))]
        if 3.0 <= now < 3.1 and len(picks) > 4:
            return [Pick(picks.index("8m"))]
        return []

    tile, shown = run([(0.5, reading)], act, ledger())
    assert str(tile) == "8m"
    status, picks = next((s[1], s[2]) for s in shown if len(s[2]) > 4)
    assert status == OPENED_STATUS + OPENED_HINT
    for size in ("800x480", "1024x600"):
        rows = status_rows(size, status, picks)
        assert rows == [(status, False)], (size, rows)


# --- NIT 4: `classify a.png --mat b.png c.png` reads all three, in that order ---------------


def test_classify_takes_frames_after_mat_behind_an_image_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An IMAGE before --mat and more after its FRAME were refused ("unrecognized arguments:
    c.png"), though the help says IMAGEs with --mat are frames read in the command line's
    order: every word after --mat up to the next option is a frame now."""
    frames = []
    for n, placed in enumerate(({Slot.DRAW: "4s"}, {Slot.DRAW: "9m"}, {Slot.DRAW: "7z"})):
        frames.append(tmp_path / f"scene_{n:03}.png")
        cv2.imwrite(str(frames[-1]), render_scene(placed, np.random.default_rng(n), vary=False))
    a, b, c = map(str, frames)
    for argv in ([a, "--mat", b, c], [b, "--mat", a, c, "--json"], ["--mat", c, b, a],
                 [c, "--mat", b, "--mat", a]):
        assert main(["classify", "--json", *argv]) == 0, argv
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        order = list(dict.fromkeys(r["frame"] for r in records))
        assert order == [arg for arg in argv if arg.endswith(".png")], argv
        assert {r["tile"] for r in records if r["slot"] == "draw"} <= {"4s", "9m", "7z"}


# --- fixcam71c "Still open": a touch-only screen can give a tile the camera reads as empty ---


def test_a_touch_only_player_taps_other_tile_once_the_empty_slot_hint_shows() -> None:
    """With no buttons and no keyboard there was no MENU (the long press of item) to open the
    picks of a slot read empty (a blank White taken for bare paper): the player waited for
    ever. With the hint (EMPTY_HINT_SECONDS), a tappable "Other tile…" box comes too; none
    before it."""
    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, _ = last
        if picks == (OTHER,):
            return [Pick(0)]
        if "5z" in picks and now >= opened[0] + 1.0:
            return [Pick(picks.index("5z"))]
        return []

    opened = [99.0]

    def watch(now: float, last: Shown) -> Sequence[Press]:
        if len(last[2]) > 1 and opened[0] == 99.0:
            opened[0] = now
        return act(now, last)

    tile, shown = run([], watch, limit=30.0)
    assert str(tile) == "5z"
    first = next(s for s in shown if s[2])
    assert first[0] >= EMPTY_HINT_SECONDS and first[1] == EMPTY_HINT and first[2] == (OTHER,)
    full = next(s for s in shown if len(s[2]) > 1)
    assert full[1] == READS_EMPTY + MISREAD_HINT and sorted(full[2]) == sorted(
        map(str, ALL_KINDS))


def test_the_long_press_still_opens_the_picks_beside_the_other_tile_box() -> None:
    """The hint says to hold item: MENU then opens every legal tile, as before the box came
    (it no longer moved onto the box alone)."""
    def act(now: float, last: Shown) -> Sequence[Press]:
        _, _, picks, _ = last
        if picks == (OTHER,):
            return [Button.MENU]
        if "5z" in picks and now >= EMPTY_HINT_SECONDS + 1.5:
            return [Pick(picks.index("5z"))]
        return []

    tile, shown = run([], act, limit=30.0)
    assert str(tile) == "5z"
    assert [len(s[2]) > 1 for s in shown if s[2]][:2] == [False, True]


@pytest.mark.parametrize("size", ["800x480", "1024x600"])
def test_the_empty_slot_hint_fits_beside_the_other_tile_box(size: str) -> None:
    rows = status_rows(size, EMPTY_HINT, (OTHER,))
    assert rows and not any(cut for _, cut in rows), rows
