"""The RFID tray's printable body (scripts/make_tray.py, hardware/tray.stl): closed, the
size of a print bed, a pocket over each reader in the firmware's slot order."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
make_tray = load_script("make_tray")


def test_the_body_is_closed_and_its_volume_is_the_solid_it_models() -> None:
    tray = make_tray.design()
    mesh = make_tray.triangles(tray)
    edges = Counter((tuple(t[i]), tuple(t[(i + 1) % 3])) for t in mesh.tolist()
                    for i in range(3))
    # Watertight and wound one way: each edge once in each direction, never more.
    assert all(count == 1 and edges[(b, a)] == 1 for (a, b), count in edges.items())
    volume = np.einsum("ij,ij->i", mesh[:, 0], np.cross(mesh[:, 1], mesh[:, 2])).sum() / 6
    low, high = np.array(tray.body.low), np.array(tray.body.high)
    points = low + np.random.default_rng(3).random((20000, 3)) * (high - low)
    sampled = np.mean([tray.solid(tuple(p)) for p in points]) * np.prod(high - low)
    assert volume > 0 and abs(volume - sampled) < 0.02 * volume


def test_a_pocket_over_each_reader_in_slot_order_on_a_print_bed() -> None:
    tray = make_tray.design()
    size = np.subtract(tray.body.high, tray.body.low)
    assert size[0] <= 210 and size[1] <= 210  # a 220 mm bed with a margin
    centres = [((p.low[0] + p.high[0]) / 2, (p.low[1] + p.high[1]) / 2) for p in tray.pockets]
    draw, top_left, top_right, bottom_left, bottom_right = centres  # firmware/board.py order
    assert draw[0] < top_left[0] == bottom_left[0] < top_right[0] == bottom_right[0]
    assert top_left[1] == top_right[1] > bottom_left[1] == bottom_right[1]
    gaps = [np.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(centres)
            for b in centres[i + 1:]]
    assert min(gaps) >= make_tray.READER[0] + make_tray.READER_GAP  # antennas apart
    floor = tray.pockets[0].low[2]
    assert floor - make_tray.BAY_HEIGHT == make_tray.ROOF  # plastic over each antenna
    assert not tray.solid((draw[0], draw[1], floor - make_tray.ROOF - 1))  # the bay below


def test_the_committed_model_is_the_scripts(tmp_path: Path) -> None:
    make_tray.write_stl(tmp_path / "tray.stl", make_tray.triangles(make_tray.design()))
    assert (tmp_path / "tray.stl").read_bytes() == (ROOT / "hardware" / "tray.stl").read_bytes()
