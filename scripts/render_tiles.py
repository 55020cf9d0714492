"""Write synthetic tile pictures to a folder, to look at what the classifier trains on.

    .venv/bin/python scripts/render_tiles.py --out /tmp/tiles              # 3 slot crops per label
    .venv/bin/python scripts/render_tiles.py --out /tmp/frames --scenes 5  # whole mat frames

Crops are named ``<label>_<n>.png``, the naming ``companion calibrate camera
--enrol-from`` reads; ``companion classify /tmp/tiles/*.png`` reads them
back. Scenes are 1280x720 camera frames with random tiles on every slot and
their truth in ``scenes.csv``, for ``companion classify --mat``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import cannot_make_folder, non_negative_int, positive_int
from companion.hw.camera.augment import render_crop
from companion.hw.camera.mat import MatGeometry
from companion.hw.camera.sim_scene import render_scene
from companion.hw.camera.tile_faces import find_cjk_fonts
from companion.systems.jongrogue.tiles import READER_LABELS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="folder to write into (created if missing)")
    # -1 wrote "wrote -36 crops" (audit scripts68 N5)
    parser.add_argument("--per-class", type=positive_int, default=3,
                        help="crops of each label (default %(default)s)")
    parser.add_argument("--scenes", type=non_negative_int, default=0,
                        help="write this many mat frames instead of crops")
    parser.add_argument("--seed", type=non_negative_int, default=1,
                        help="the pictures' random seed (default %(default)s)")
    args = parser.parse_args(argv)
    trouble = cannot_make_folder(args.out)
    if trouble:  # a usage error, not a traceback (camera75 NIT 7)
        parser.error(f"argument --out: {args.out}: {trouble}")
    rng = np.random.default_rng(args.seed)
    fonts = find_cjk_fonts()
    if args.scenes:
        slots = [s.slot for s in MatGeometry.load().slots]
        lines = ["frame," + ",".join(s.value for s in slots)]
        for n in range(args.scenes):
            tiles = {s: str(rng.choice(READER_LABELS)) for s in slots}
            name = f"scene_{n:03d}.png"
            cv2.imwrite(str(args.out / name), render_scene(tiles, rng, fonts=fonts))
            lines.append(name + "," + ",".join(tiles[s] for s in slots))
        (args.out / "scenes.csv").write_text("\n".join(lines) + "\n")
        print(f"wrote {args.scenes} frames and scenes.csv to {args.out}")
        return 0
    for label in READER_LABELS:
        for n in range(args.per_class):
            crop = render_crop(label, rng, fonts=fonts)
            cv2.imwrite(str(args.out / f"{label}_{n}.png"), crop)
    print(f"wrote {args.per_class * len(READER_LABELS)} crops to {args.out} "
          f"({len(fonts)} CJK fonts found)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
