"""Write rendered dice scenes (PNG) and their truth (JSON) to a folder.

    .venv/bin/python scripts/render_dice.py out/ --count 12 --seed 0
    .venv/bin/python scripts/render_dice.py out/ --kind tilted --table wood

Each scene NAME.png comes with NAME.json: the kind, the table and each die's
value, colour, centre and size in pixels. Try them with ``companion dice read``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import cannot_make_folder, non_negative_int, positive_int
from companion.hw.dice.render import SceneKind, Table, render_scene


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="folder to write into (created if missing)")
    parser.add_argument("--count", type=positive_int, default=12,
                        help="how many scenes to write, not dice in each (default 12)")
    parser.add_argument("--seed", type=non_negative_int, default=0,
                        help="seed of the first scene (default %(default)s)")
    parser.add_argument("--kind", choices=[k.value for k in SceneKind], default=None,
                        help="every scene of this kind (default: each scene's seed chooses)")
    parser.add_argument("--table", choices=[t.value for t in Table], default=None,
                        help="every scene on this table (default: each scene's seed chooses)")
    args = parser.parse_args(argv)
    trouble = cannot_make_folder(args.out)
    if trouble:  # a usage error, not a FileExistsError traceback (a76maker DEFECT 1)
        parser.error(f"argument out: {args.out}: {trouble}")
    for seed in range(args.seed, args.seed + args.count):
        scene = render_scene(seed, kind=SceneKind(args.kind) if args.kind else None,
                             table=Table(args.table) if args.table else None)
        name = f"dice_{seed:05d}"
        cv2.imwrite(str(args.out / f"{name}.png"), scene.image)
        truth = {
            "kind": scene.kind.value, "table": scene.table.value,
            "dice": [{"value": d.value, "colour": d.colour, "tilted": d.tilted,
                      "centre": [round(c, 1) for c in d.centre], "side_px": round(d.side_px, 1)}
                     for d in scene.dice],
        }
        (args.out / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
        print(f"{name}: {scene.kind.value} on {scene.table.value}, "
              f"{sorted(d.value for d in scene.dice)}")


if __name__ == "__main__":
    main()
