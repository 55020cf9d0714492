r"""Render the dice reader's training set: scenes for the finder, face crops for the judge.

    .venv/bin/python scripts/make_dice_data.py --scenes 3000 --out /tmp/dice-data --jobs 2
    .venv/bin/python scripts/make_dice_data.py --scenes 3000 --start 100 --out /tmp/dice-data \
        --marks models

Scenes come from the dice renderer (companion/hw/dice/render.py) with seeds
from 2,000,000 up, far from the seeds the benchmark and the tests score the
reader on (below 100,000); shard k holds seeds 2,000,000 + 100k onwards, so
``--start`` keeps a new run's scenes apart from an earlier one's. A third of
the scenes lie on the companion's own printed mat, with its markers and tiles.
Shards made before commit 14640de5 drew that mat mirrored (its markers and tiles
mirror images, its dice area never found): the shipped finder and judge learned
from such shards, so a recipe rerun now draws the mat scenes' pixels otherwise
than the shards they learned from (the same dice, labels and other scenes;
reviewd71 RISK 2). No switch draws it mirrored again.
With ``--tilted-only`` every scene has a die leaning on another, the judge's
hardest case (in a mixed run, a third of the scenes, and one die in twelve).
With ``--side-on`` too, only the scenes whose leaning die shows the camera a
side more squarely than its top (one leaning die in twenty): the side looks
like a flat die's top, and the judge must learn to call it COCKED. Such a
shard scans SIDE_ON_SCAN times as many seeds (shard k: seeds 2,000,000 +
2,000k onwards) and keeps the scenes that qualify, about a hundred.
Each shard (100 scenes; a ``--side-on`` one about as many) is one .npz holding:

- ``small``: every scene shrunk to the finder's width, uint8 BGR;
- ``dice``: one row per die, ``scene, x, y, side, value, moving`` (full-frame pixels);
- ``crops``/``labels``: windows of CROP_SIDES face sides, CROP_PX pixels square,
  around each die's top face (its value, or MOVING in a blurred throw), around
  every open side of a die leaning on another (COCKED), and around places that
  are no die's face (NOTHING); see ``_label`` for the rules.

With ``--marks DIR`` (and a ``--start`` past the shards' scenes) each
``marks_*.npz`` holds only judge windows: every place the finder in DIR
marks, cut where and as big as it marked it, labelled by the truth (``_label``). These are
the judge's hard cases: the finder's own errors of place and size, and what it
takes for a die (the open side of a leaning die, a pip-like dot on the table).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import cannot_make_folder, non_negative_int, positive_int
from companion.hw.dice.networks import (
    COCKED,
    CROP_PX,
    CROP_SIDES,
    MOVING,
    NOTHING,
    TRAINED_FACE_PX,
    DiceNetworks,
    shrink,
    window,
)
from companion.hw.dice.render import (
    MAX_TILT,
    Paints,
    Scene,
    SceneKind,
    Table,
    TrueDie,
    render_scene,
    scene_dice,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stats import number_from  # a script beside this one

FIRST_SEED = 2_000_000
SHARD = 100
KINDS = ([SceneKind.LOOSE] * 3 + [SceneKind.TOUCHING] * 3 + [SceneKind.TILTED] * 4
         + [SceneKind.BLURRED, SceneKind.EMPTY])
MARK_THRESHOLD = 0.1  # marks this faint are judged too: the reader's threshold may be tuned down
FAR = 0.55  # a window centred this many face sides from every top face shows no top face
GRAZING = 0.34  # a top seen at more than 70 degrees from square-on is too flat to read
OPEN = 0.26  # a leaning die's side turned this far to the camera (< 75 degrees) shows its pips
ON_FACE = 0.45  # a window within this many face sides of a face's centre is on that face
SIDE_ON_SCAN = 20  # a --side-on shard's seeds per scene of an ordinary shard


def _side_on(dice: tuple[TrueDie, ...]) -> bool:
    """True when a leaning die shows the camera one of its sides more squarely than its top."""
    return any(f.facing > d.facing for d in dice if d.tilted for f in d.open_faces)


def _scenes(shard: int, kinds: list[SceneKind], side_on: bool, paints: Paints,
            max_tilt: float) -> Iterator[Scene]:
    """The shard's scenes; with ``side_on``, those of its (more) seeds that qualify."""
    scan = SIDE_ON_SCAN if side_on else 1
    for index in range(shard * SHARD * scan, (shard + 1) * SHARD * scan):
        table = Table.COMPANION_MAT if index % 3 == 0 else None
        kind = kinds[index % len(kinds)]
        if side_on and not _side_on(scene_dice(FIRST_SEED + index, kind=kind, table=table,
                                               paints=paints, max_tilt=max_tilt)):
            continue
        yield render_scene(FIRST_SEED + index, kind=kind, table=table, paints=paints,
                           max_tilt=max_tilt)


def _open_sides(die: TrueDie) -> list[tuple[float, float]]:
    """The centres of a leaning die's faces, other than its top, that show their pips."""
    return [f.centre for f in die.open_faces if die.tilted and f.facing > OPEN]


def _negatives(rng: np.random.Generator, dice: list[tuple[float, float, float]],
               size: tuple[int, int]) -> list[tuple[float, float, float]]:
    """Windows centred away from the top faces: on the table, and beside each die."""
    width, height = size
    typical = float(np.median([s for _, _, s in dice])) if dice else rng.uniform(35, 110)
    wanted = [(rng.uniform(0, width), rng.uniform(0, height), typical * rng.uniform(0.7, 1.3))
              for _ in range(6)]
    for x, y, side in dice:
        for _ in range(2):
            angle, reach = rng.uniform(0, 2 * np.pi), rng.uniform(0.6, 1.1) * side
            wanted.append((x + reach * np.cos(angle), y + reach * np.sin(angle),
                           side * rng.uniform(0.8, 1.2)))
    return wanted


def _label(scene: Scene, x: float, y: float) -> int | None:
    """The judge's answer for a window centred at (x, y), or None where no answer is fair.

    Nearest to a die's top face (within half a face side): its value, MOVING in
    a blurred throw, COCKED if it is seen too edge-on to read. Nearest to the
    open side of a die leaning on another, or anywhere else within a face side
    of such a die's top: COCKED (its top is unclear, so the player re-rolls).
    A leaning die's side can show nearer the camera's eye than its top, and a
    window there shows that side squarely: it must not learn the top's value.
    Far from every top face: NOTHING. In between (the edge of a flat die's top)
    no label is true, and the window is not used.
    """
    faces = []  # (distance in face sides, label) of every face the window is on
    for die in scene.dice:
        gap = np.hypot(x - die.centre[0], y - die.centre[1]) / die.side_px
        if gap < 0.5:
            top = MOVING if scene.kind is SceneKind.BLURRED else die.value
            faces.append((gap, COCKED if die.facing < GRAZING else top))
        for fx, fy in _open_sides(die):
            side_gap = np.hypot(x - fx, y - fy) / die.side_px
            if side_gap < ON_FACE:
                faces.append((side_gap, COCKED))
        if die.tilted and gap < 1:
            faces.append((1.0, COCKED))
    if faces:
        return min(faces)[1]
    if all(np.hypot(x - d.centre[0], y - d.centre[1]) > FAR * d.side_px for d in scene.dice):
        return NOTHING
    return None


def make_marks(args: tuple[int, Path, Path, list[SceneKind], bool, Paints, float]) -> Path:
    shard, out, finder, kinds, side_on, paints, max_tilt = args
    path = out / f"marks_{shard:04d}.npz"
    if path.exists():
        return path
    networks = DiceNetworks(finder)
    crops, labels = [], []
    for scene in _scenes(shard, kinds, side_on, paints, max_tilt):
        for spot in networks.find(scene.image, MARK_THRESHOLD, 4 * TRAINED_FACE_PX):
            label = _label(scene, spot.x, spot.y)
            if label is not None:
                crops.append(window(scene.image, (spot.x, spot.y), spot.side, CROP_SIDES,
                                    CROP_PX))
                labels.append(label)
    np.savez(path, crops=np.stack(crops), labels=np.array(labels, dtype=np.int8))
    return path


def make_shard(args: tuple[int, Path, list[SceneKind], bool, Paints, float]) -> Path:
    shard, out, kinds, side_on, paints, max_tilt = args
    path = out / f"shard_{shard:04d}.npz"
    if path.exists():
        return path
    rng = np.random.default_rng(shard)
    small, dice_rows, crops, labels = [], [], [], []
    for i, scene in enumerate(_scenes(shard, kinds, side_on, paints, max_tilt)):
        height, width = scene.image.shape[:2]
        small.append(shrink(scene.image))
        moving = scene.kind is SceneKind.BLURRED
        wanted = []
        for die in scene.dice:
            dice_rows.append((i, *die.centre, die.side_px, die.value, int(moving)))
            wanted.append((*die.centre, die.side_px))
            wanted += [(fx, fy, die.side_px) for fx, fy in _open_sides(die)]
        placed = [(d.centre[0], d.centre[1], d.side_px) for d in scene.dice]
        wanted += _negatives(rng, placed, (width, height))
        for x, y, side in wanted:
            label = _label(scene, x, y)
            if label is not None:
                crops.append(window(scene.image, (x, y), side, CROP_SIDES, CROP_PX))
                labels.append(label)
    np.savez(path, small=np.stack(small), dice=np.array(dice_rows, dtype=np.float32),
             crops=np.stack(crops), labels=np.array(labels, dtype=np.int8))
    return path


def shards_said(scenes: int, side_on: bool = False) -> str:
    """What a run of ``--scenes`` renders: whole shards (it rendered 100 for --scenes 4 and
    did not say so: scripts73 NIT 10)."""
    count = -(-scenes // SHARD)
    about = "about " if side_on else ""
    rounded = "" if count * SHARD == scenes else f" (--scenes {scenes} rounded up to whole shards)"
    return (f"rendering {count} shard{'s' if count > 1 else ''} of {about}{SHARD} scenes: "
            f"{about}{count * SHARD} scenes{rounded}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=positive_int, default=3000,
                        help="scenes to render, rounded up to whole shards of 100 (a "
                             "shard's seeds are fixed: --scenes 4 renders 100; default "
                             "%(default)s)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="folder to write the shards into (created if missing)")
    parser.add_argument("--jobs", type=positive_int, default=2,
                        help="processes to render in (default %(default)s)")
    parser.add_argument("--start", type=non_negative_int, default=0, metavar="SHARD",
                        help="the first shard's number (its scenes' seeds follow from it)")
    parser.add_argument("--marks", type=Path, metavar="DIR",
                        help="judge windows where the finder in DIR marks, on new scenes")
    parser.add_argument("--tilted-only", action="store_true",
                        help="every scene has a die leaning on another (the judge's hardest)")
    parser.add_argument("--side-on", action="store_true",
                        help="with --tilted-only: only scenes whose leaning die shows a side "
                             "more squarely than its top")
    parser.add_argument("--paints", choices=[p.value for p in Paints], default="catalogue",
                        help="the dice's looks: the renderer's catalogue, or any colours, "
                             "marbled, clear, with emblems and square pips (default %(default)s)")
    parser.add_argument("--max-tilt", type=number_from(0, below=90), default=MAX_TILT,
                        metavar="DEGREES",
                        help="how far from straight down the camera may look (a webcam beside "
                             "the table: 50; default %(default)s)")
    args = parser.parse_args(argv)
    args.paints = Paints(args.paints)
    if args.side_on and not args.tilted_only:
        parser.error("--side-on goes with --tilted-only")
    trouble = cannot_make_folder(args.out)
    if trouble:  # a usage error, not a FileExistsError traceback (a76maker DEFECT 1)
        parser.error(f"argument --out: {args.out}: {trouble}")
    count = -(-args.scenes // SHARD)
    print(shards_said(args.scenes, args.side_on), flush=True)
    kinds = [SceneKind.TILTED] if args.tilted_only else KINDS
    with Pool(args.jobs) as pool:
        shards = range(args.start, args.start + count)
        if args.marks:
            work = [(k, args.out, args.marks, kinds, args.side_on, args.paints, args.max_tilt)
                    for k in shards]
            done = pool.imap_unordered(make_marks, work)
        else:
            done = pool.imap_unordered(make_shard, [(k, args.out, kinds, args.side_on,
                                                     args.paints, args.max_tilt) for k in shards])
        for path in done:
            print(path, flush=True)


if __name__ == "__main__":
    main()
