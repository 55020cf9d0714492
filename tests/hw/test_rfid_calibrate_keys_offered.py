"""The keys `calibrate rfid` offers are keys that do something where they are offered
(a77rfid item 2: a re-enrolment answered `s` and `u` with a list offering `s` and `u`)."""

from __future__ import annotations

from companion.app.calibrate.rfid import parse_kinds, run_enrolment
from companion.app.help_format import cell_len
from companion.app.paths import config_dir
from companion.hw.rfid.simulator import TraySimulator
from companion.hw.rfid.tagmap import TAGMAP_FILENAME, TagMap
from companion.hw.rfid.tray import TrayReader
from companion.systems.jongrogue.tiles import Tile
from tests.hw.rfid_calibrate_helpers import (  # noqa: F401 (fixtures asked for as sim and tray)
    calibrate_sim_fixture,
    calibrate_tray_fixture,
    session,
    sticker,
)

FIVE_P = Tile.from_notation("5p")
REENROL_KEYS = "q = stop (the map is saved only with the new sticker)."



def test_a_reenrolment_offers_q_at_its_start_and_only_q_after_s_or_u(
        sim: TraySimulator, tray: TrayReader) -> None:
    full = TagMap({sticker(FIVE_P, c): FIVE_P for c in range(4)})
    enroller, player, keys, out = session(sim, tray, full)
    enroller.reenrol(FIVE_P)
    keys.queue.extend(["s", "u", "q"])
    run_enrolment(enroller, tray, keys, idle=player)
    # The reader's status lines ("  (waiting for the tray …)") come between as they come.
    lines = [line for line in out.getvalue().splitlines() if not line.startswith("  (")]
    assert lines[:2] == [f"Keys (then Enter): {REENROL_KEYS}",
                         "Place the 5p 五筒 (5 of dots) with its new sticker."]
    assert lines[2:4] == [f"  Keys: {REENROL_KEYS}"] * 2
    assert max(cell_len(line) for line in lines[:4]) <= 80  # as the enrolment's (r77rfid NIT)
    assert "s = skip" not in out.getvalue()
    assert lines[4].startswith("Stopped; 4 stickers are saved")
    assert not (config_dir() / TAGMAP_FILENAME).exists()  # stopped: nothing was written


def test_u_before_anything_is_enrolled_says_there_is_nothing_to_undo(
        sim: TraySimulator, tray: TrayReader) -> None:
    enroller, player, keys, out = session(sim, tray)
    enroller.enrol(parse_kinds("5p"), copies=1)
    keys.queue.extend(["u", "q"])
    run_enrolment(enroller, tray, keys, idle=player)
    text = out.getvalue()
    assert "  Nothing to undo in this run.\n" in text
    assert "  Keys: s = skip" not in text
