"""The RFID tray's printable body: writes hardware/tray.stl (millimetres).

    .venv/bin/python scripts/make_tray.py                     # hardware/tray.stl
    .venv/bin/python scripts/make_tray.py --out /tmp/tray.stl

One plate, printed upside down (its top on the bed, no supports). From the top: five
tile pockets, the draw slot on the left and the room's 2x2 on the right, in the
firmware's slot order (firmware/board.py CS_PINS: draw, top-left, top-right,
bottom-left, bottom-right), as the player sees them with the USB notch towards them:
the room's top row is the one away from the notch (hardware/README.md, step 1). From
the bottom: under each pocket a bay for an MFRC522 board, antenna up against a ROOF
thick roof; a channel joining the bays for the ribbon cable; and a bay for the Pico,
whose USB end looks out through a notch in the front wall. The readers sit READER_GAP
apart (hardware/bom.md: an MFRC522 board is 40x60 mm; neighbouring antennas too close
disturb each other), so the tray's slots are further apart than the printed mat's. Glue
or tape the boards in; the tray stands on the table on its rim.

Every part is a box, so the body is a grid of cells, each solid or not, and the mesh is
the faces between solid and empty cells: closed and watertight by construction
(tests/hw/test_tray_model.py checks it, and the pockets' places).
"""

from __future__ import annotations

import argparse
import struct
import sys
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import cannot_write_file

OUT = Path(__file__).resolve().parents[1] / "hardware" / "tray.stl"

# A 26 mm riichi tile face up (about 20x26 mm) with slack, so faces up to about 21x27 mm;
# depth. A 28 mm set needs a larger pocket (hardware/bom.md).
POCKET = (22.0, 28.0, 2.0)
READER = (41.0, 61.0)  # an MFRC522 board (40x60 mm) with slack
READER_GAP = 9.0  # between neighbouring reader bays
# From the bottom: the board and the wires soldered to its pads. No room for a pin header
# (board 1.6 + plastic 2.5 + pins 6 mm), whose tips would stand below the rim.
BAY_HEIGHT = 10.0
ROOF = 3.0  # plastic between a board's antenna and the floor of its pocket
PICO = (22.0, 52.0, 6.0)  # a Raspberry Pi Pico with slack; height from the bottom
USB_NOTCH = (12.0, 6.0)  # through the front wall at the Pico's micro-USB end: width, height
CHANNEL = (10.0, 6.0)  # the ribbon cable's channel: width, height from the bottom
WALL = 4.0  # outer rim


@dataclass(frozen=True, slots=True)
class Box:
    low: tuple[float, float, float]
    high: tuple[float, float, float]

    def holds(self, point: tuple[float, float, float]) -> bool:
        return all(lo < p < hi for lo, p, hi in zip(self.low, point, self.high, strict=True))


@dataclass(frozen=True, slots=True)
class Tray:
    body: Box
    cuts: tuple[Box, ...]
    pockets: tuple[Box, ...]  # in the firmware's slot order

    def solid(self, point: tuple[float, float, float]) -> bool:
        return self.body.holds(point) and not any(c.holds(point) for c in self.cuts)


def design() -> Tray:
    """The tray, its bottom at z = 0, the draw slot on the left."""
    rx, ry = READER
    height = BAY_HEIGHT + ROOF + POCKET[2]
    pico_x = WALL
    draw_x = pico_x + PICO[0] + READER_GAP
    room_x = draw_x + rx + READER_GAP
    depth = 2 * WALL + 2 * ry + READER_GAP
    width = room_x + 2 * rx + READER_GAP + WALL
    bays = [(draw_x, WALL + (ry + READER_GAP) / 2)]  # draw: between the room's two rows
    bays += [(room_x + col * (rx + READER_GAP), WALL + row * (ry + READER_GAP))
             for row, col in product((1, 0), (0, 1))]  # top-left, top-right, bottom-left, ...
    cuts = [Box((x, y, -1.0), (x + rx, y + ry, BAY_HEIGHT)) for x, y in bays]
    px, py, ph = POCKET
    pockets = tuple(Box((x + (rx - px) / 2, y + (ry - py) / 2, height - ph),
                        (x + (rx + px) / 2, y + (ry + py) / 2, height + 1.0)) for x, y in bays)
    middle, pico_mid = depth / 2, pico_x + PICO[0] / 2
    cuts.append(Box((pico_x, WALL, -1.0), (pico_x + PICO[0], WALL + PICO[1], PICO[2])))
    nw, nh = USB_NOTCH  # the Pico's USB end faces the front wall
    cuts.append(Box((pico_mid - nw / 2, -1.0, -1.0), (pico_mid + nw / 2, WALL + 1.0, nh)))
    cw, ch = CHANNEL  # Pico → along the middle → between the room's columns
    cuts.append(Box((pico_mid - cw / 2, WALL + PICO[1] - 1.0, -1.0),
                    (pico_mid + cw / 2, middle + cw / 2, ch)))
    cuts.append(Box((pico_mid - cw / 2, middle - cw / 2, -1.0),
                    (room_x + rx, middle + cw / 2, ch)))
    cuts.append(Box((room_x + rx - 1.0, WALL, -1.0),
                    (room_x + rx + READER_GAP + 1.0, depth - WALL, ch)))
    return Tray(Box((0.0, 0.0, 0.0), (width, depth, height)), (*cuts, *pockets), pockets)


def triangles(tray: Tray) -> np.ndarray:
    """The body's surface, (n, 3, 3) triangles wound outwards."""
    boxes = (tray.body, *tray.cuts)
    axes = [np.unique([v for b in boxes for v in (b.low[a], b.high[a])]) for a in range(3)]
    # Only the body's span: the cuts poke out of it so their faces never touch its faces.
    axes = [a[(a >= tray.body.low[i]) & (a <= tray.body.high[i])] for i, a in enumerate(axes)]
    shape = tuple(len(a) - 1 for a in axes)
    centres = [(a[:-1] + a[1:]) / 2 for a in axes]
    solid = np.zeros(shape, bool)
    for i, j, k in product(*(range(n) for n in shape)):
        solid[i, j, k] = tray.solid((centres[0][i], centres[1][j], centres[2][k]))
    out = []
    for axis, side in product(range(3), (0, 1)):
        padded = np.pad(solid, [(1, 1) if a == axis else (0, 0) for a in range(3)])
        neighbour = np.take(padded, np.arange(shape[axis]) + (2 if side else 0), axis=axis)
        for cell in zip(*np.nonzero(solid & ~neighbour), strict=True):
            out += _face(axes, cell, axis, side)
    return np.array(out)


def _face(axes: list[np.ndarray], cell: tuple[int, ...], axis: int,
          side: int) -> list[list[list[float]]]:
    """The two triangles of ``cell``'s face across ``axis`` (side 1: the high one)."""
    u, v = (axis + 1) % 3, (axis + 2) % 3

    def corner(du: int, dv: int) -> list[float]:
        point = [0.0, 0.0, 0.0]
        point[axis] = float(axes[axis][cell[axis] + side])
        point[u] = float(axes[u][cell[u] + du])
        point[v] = float(axes[v][cell[v] + dv])
        return point

    a, b, c, d = corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)
    return [[a, b, c], [a, c, d]] if side else [[a, c, b], [a, d, c]]


def write_stl(path: Path, mesh: np.ndarray) -> None:
    """A binary STL of ``mesh`` ((n, 3, 3) triangles)."""
    normals = np.cross(mesh[:, 1] - mesh[:, 0], mesh[:, 2] - mesh[:, 0])
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    with path.open("wb") as out:
        out.write(b"JongRogue Companion RFID tray (scripts/make_tray.py)".ljust(80, b" "))
        out.write(struct.pack("<I", len(mesh)))
        for normal, triangle in zip(normals, mesh, strict=True):
            out.write(struct.pack("<12fH", *normal, *triangle.ravel(), 0))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT, metavar="STL",
                        help="the STL file to write (default: hardware/tray.stl in this "
                             "checkout)")
    args = parser.parse_args(argv)
    trouble = cannot_write_file(args.out)
    if trouble:  # a usage error, not a FileNotFoundError traceback (a76maker DEFECT 1)
        parser.error(f"argument --out: {args.out}: {trouble}")
    tray = design()
    mesh = triangles(tray)
    write_stl(args.out, mesh)
    size = np.subtract(tray.body.high, tray.body.low)
    volume = np.einsum("ij,ij->i", mesh[:, 0], np.cross(mesh[:, 1], mesh[:, 2])).sum() / 6
    print(f"{args.out}: {len(mesh)} triangles, {size[0]:.0f} x {size[1]:.0f} x "
          f"{size[2]:.0f} mm, {volume / 1000:.0f} cm3 solid")


if __name__ == "__main__":
    main()
