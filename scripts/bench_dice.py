r"""Benchmark the camera dice reader on rendered scenes and print what it does.

    .venv/bin/python scripts/bench_dice.py        # 400 varied scenes (seeds 110000..)
    .venv/bin/python scripts/bench_dice.py --scenes 100 --first-seed 0
    # a candidate's networks, or thresholds:
    .venv/bin/python scripts/bench_dice.py --first-seed 3000000 --models /tmp/new-models
    .venv/bin/python scripts/bench_dice.py --first-seed 3000000 --config /tmp/reader.toml
    .venv/bin/python scripts/bench_dice.py --max-tilt 60 --first-seed 3300000 --scenes 300 \
        --mat-scenes 0 --painted-scenes 0 --special 0   # a webcam beside the table
    .venv/bin/python scripts/bench_dice.py --count  # told each throw's number, as in play

Prints, for scenes of still dice (loose, touching, one tilted against another),
the share of dice read right, read wrong, reported unsure and missed, per kind
and per table; the share handled by the cocked-die rule (read right, or leaning
on another die and reported unsure, so the player re-rolls it); how many frames
were reported OK and how many of those were not all right (a die missed, a
wrong value), and how many a roll would take (as many dice as thrown, but a
value wrong: a roll waits for its number of dice, so a die short never reaches
the player); the same for ``--mat-scenes`` more scenes on the companion's own
printed mat (markers, slots, tiles), the table the companion is set up on; the
same for ``--painted-scenes`` scenes of dice of any colours (marbled, clear, an
emblem on the 1, square pips: what real dice show that the catalogue lacks); the
time per 1280x720 frame on one core; and what the reader says on frames with no
dice and on blurred throws. ``--count`` tells the reader each scene's number of dice, as
the play session tells it the number thrown, and adds how many frames the session would
ask the player to type a die's value for (``DiceRead.to_type``), and of those how many
have another die read wrong.

The default seeds are held out: keep them so by choosing between versions of
the reader on other scenes (``--first-seed`` 3000000 up, ``--models`` for a
candidate's networks), and running this only to report. The seeds used
before (10000 up) were consulted to choose between versions for several
stops, and came to read about 0.8 points better than fresh seeds; so were
the ranges 30000 to 100000 up, each reported on once first.

The timing leaves out two warm-up reads (OpenCV and numpy set themselves up on
the first calls; the reader runs on a stream of frames). Each frame is read
``--repeats`` times: the first read's CPU time is the figure; the fastest of
them is printed beside it, the reader's own work without the interruptions a
shared machine adds to a single read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import existing_file, non_negative_int, positive_int
from companion.errors import CompanionError
from companion.hw.dice.grading import Grade, grade, outcomes
from companion.hw.dice.networks import DiceNetworks
from companion.hw.dice.reader import DiceReader
from companion.hw.dice.reader_config import ReaderConfig
from companion.hw.dice.readings import DiceRead, ReadStatus
from companion.hw.dice.render import (
    MAX_TILT,
    Paints,
    Scene,
    SceneKind,
    Table,
    render_scene,
)
from companion.hw.dice.source import CameraDiceSource

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_stats import number_from, percentile  # a script beside this one

TARGET_MS = 20.0  # issue 6: at most 20 ms per 1280x720 frame on one core
STILL_KINDS = (SceneKind.LOOSE, SceneKind.TOUCHING, SceneKind.TILTED)


def _line(name: str, g: Grade) -> str:
    total = g.dice
    if not total:
        return f"{name:<10} no dice"
    return (f"{name:<10} dice {total:4d}  right {100 * g.right / total:6.2f}%  "
            f"wrong {100 * g.wrong / total:5.2f}%  unsure {100 * g.unsure / total:5.2f}%  "
            f"missed {100 * g.missed / total:5.2f}%")


def _spread(times: list[float]) -> str:
    """The spread of ``times`` (ms); p95 and p99 by nearest rank (scripts/bench_stats.py)."""
    return (f"mean {statistics.mean(times):.1f} ms, median {statistics.median(times):.1f} ms, "
            f"p95 {percentile(times, 0.95):.1f} ms, "
            f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms; "
            f"over {TARGET_MS:g} ms: {sum(t > TARGET_MS for t in times)}")


def main(argv: list[str] | None = None) -> None:
    # --help shows the whole docstring: what is measured, how to run it, the targets.
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=non_negative_int, default=400,
                        help="scenes of still dice (default %(default)s)")
    parser.add_argument("--first-seed", type=non_negative_int, default=110000,
                        help="the first scene's seed; the others follow it (default %(default)s)")
    parser.add_argument("--mat-scenes", type=non_negative_int, default=100,
                        help="scenes of still dice on the companion's printed mat (default "
                             "%(default)s)")
    parser.add_argument("--painted-scenes", type=non_negative_int, default=100,
                        help="scenes of still dice of any colours (render.Paints.ANY: marbled, "
                             "clear, emblems, square pips), laid out as the catalogue's (default "
                             "%(default)s)")
    parser.add_argument("--special", type=non_negative_int, default=20,
                        help="scenes with no dice, and blurred throws, of each (default "
                             "%(default)s)")
    parser.add_argument("--models", type=Path, metavar="DIR",
                        help="the folder of the networks to score (default: models/)")
    # a missing file is refused: ReaderConfig.load falls back to the packaged thresholds,
    # and a mistyped path measured them as the candidate's (audit scripts68 R3)
    parser.add_argument("--config", type=existing_file, metavar="TOML",
                        help="a thresholds file over the packaged ones (as calibrate saves)")
    parser.add_argument("--max-tilt", type=number_from(0, below=90), default=MAX_TILT,
                        metavar="DEG",
                        help="how far from straight down the camera may look, for the scenes "
                             "of still dice (render.MAX_TILT unless given): a webcam beside the "
                             "table sees the dice's sides (default %(default)s)")
    parser.add_argument("--count", action="store_true",
                        help="tell the reader each scene's number of dice, as the play "
                             "session does")
    parser.add_argument("--repeats", type=positive_int, default=3,
                        help="reads of each frame, for the fastest read's time (default "
                             "%(default)s)")
    args = parser.parse_args(argv)
    if not args.scenes + args.mat_scenes + args.painted_scenes + args.special:
        # no frame read, no time to report (audit scripts68 D1: a StatisticsError)
        parser.error("--scenes, --mat-scenes, --painted-scenes and --special are all 0: "
                     "give one scene or more")
    cv2.setNumThreads(1)
    try:
        reader = DiceReader(ReaderConfig.load(args.config), DiceNetworks(args.models))
    except CompanionError as exc:  # a missing or broken model, named with its file
        parser.error(str(exc))
    times: list[float] = []  # CPU time of this single-threaded process: one core's work
    fastest: list[float] = []  # the least of each frame's reads
    wall: list[float] = []

    def timed_read(image: np.ndarray, count: int | None = None) -> DiceRead:
        spent = []
        for _ in range(args.repeats):
            start, start_wall = time.process_time(), time.perf_counter()
            read = reader.read(image, count)
            spent.append(1000 * (time.process_time() - start))
            if len(spent) == 1:
                wall.append(1000 * (time.perf_counter() - start_wall))
        times.append(spent[0])
        fastest.append(min(spent))
        return read

    warm = render_scene(args.first_seed - 1, kind=SceneKind.LOOSE).image
    for _ in range(2):
        reader.read(warm)

    def score(title: str, scenes: Iterator[Scene]) -> None:
        """Read still scenes and print how their dice came out, overall and by group."""
        flat, tilted = Grade(), Grade()
        by_kind: dict[str, Grade] = defaultdict(Grade)
        by_table: dict[str, Grade] = defaultdict(Grade)
        ok_frames = ok_but_not_right = rollable_wrong = count = typable = typable_wrong = 0
        for scene in scenes:
            count += 1
            read = timed_read(scene.image, len(scene.dice) if args.count else None)
            if read.to_type(len(scene.dice)):
                typable += 1
                typable_wrong += bool(Counter(read.values)
                                      - Counter(d.value for d in scene.dice))
            found = [(d.value, d.centre) for d in read.dice]
            g = grade(scene, found)
            by_kind[scene.kind.value] += g
            by_table[scene.table.value] += g
            result, phantoms = outcomes(scene, found)
            if read.status is ReadStatus.OK:
                ok_frames += 1
                ok_but_not_right += int(phantoms > 0 or any(r != "right" for r in result))
                # A roll of N dice takes only a read of N dice: these would reach the player.
                rollable_wrong += int(len(read.dice) == len(scene.dice)
                                      and read.values != sorted(d.value for d in scene.dice))
            for die, outcome in zip(scene.dice, result, strict=True):
                one = Grade(**{outcome: 1})
                if die.tilted:
                    tilted += one
                else:
                    flat += one
            flat += Grade(wrong=phantoms)
        print(title)
        every = sum(by_kind.values(), Grade())
        print(_line("all", every))
        total = every.dice
        if total:
            print(f"{'by rule':<10} dice {total:4d}  right, or a leaning die sent back to be "
                  f"re-rolled (the cocked-die rule): "
                  f"{100 * (every.right + tilted.unsure) / total:6.2f}%")
        print(_line("flat", flat) + "   (every die lying on a face, in all scene kinds)")
        print(_line("leaning", tilted) + "   (the die tilted against another: right or unsure)")
        for name, g in sorted(by_kind.items()):
            print(_line(name, g))
        if len(by_table) > 1:
            for name, g in sorted(by_table.items()):
                print(_line(name, g))
        print(f"Frames reported OK: {ok_frames} of {count}; of those, with a die missed "
              f"or a wrong value: {ok_but_not_right}; with as many dice as thrown but "
              f"another value (a roll would take it): {rollable_wrong}")
        if args.count:
            print(f"Frames the player would type a die of: {typable}; of those, with "
                  f"another die read wrong: {typable_wrong}")

    view = "" if args.max_tilt == MAX_TILT else f", camera up to {args.max_tilt:g} deg from above"
    first, last = args.first_seed, args.first_seed + args.scenes - 1
    score(f"Still dice: {args.scenes} scenes, seeds {first}..{last}{view}",
          (render_scene(first + i, kind=STILL_KINDS[i % len(STILL_KINDS)],
                        max_tilt=args.max_tilt)
           for i in range(args.scenes)))
    first = args.first_seed + args.scenes + args.special
    last = first + args.mat_scenes - 1
    if args.mat_scenes:
        score(f"Still dice on the companion mat: {args.mat_scenes} scenes, seeds {first}..{last}"
              f"{view}",
              (render_scene(first + i, kind=STILL_KINDS[i % len(STILL_KINDS)],
                            table=Table.COMPANION_MAT, max_tilt=args.max_tilt)
               for i in range(args.mat_scenes)))
    first = last + 1
    last = first + args.painted_scenes - 1
    if args.painted_scenes:
        score(f"Still dice of any colours: {args.painted_scenes} scenes, seeds {first}..{last}"
              f"{view}",
              (render_scene(first + i, kind=STILL_KINDS[i % len(STILL_KINDS)],
                            paints=Paints.ANY, max_tilt=args.max_tilt)
               for i in range(args.painted_scenes)))

    empty: Counter[str] = Counter()
    blurred: Counter[str] = Counter()
    confident_on_blur = 0
    for i in range(args.special):
        seed = args.first_seed + args.scenes + i
        read = timed_read(render_scene(seed, kind=SceneKind.EMPTY).image)
        empty[read.status.value] += 1
        scene = render_scene(seed, kind=SceneKind.BLURRED)
        read = timed_read(scene.image)
        blurred[read.status.value] += 1
        if read.status is ReadStatus.OK:
            confident_on_blur += 1
    print(f"No dice:   {args.special} frames -> " + ", ".join(
        f"{k}: {v}" for k, v in empty.most_common()))
    print(f"Blurred:   {args.special} throws -> " + ", ".join(
        f"{k}: {v}" for k, v in blurred.most_common())
          + f" (a confident read on a blur: {confident_on_blur})")
    # A throw seen by the camera source: blurred frames, then the dice at rest.
    early = right_after = unsure_after = wrong_after = 0
    for i in range(args.special):
        seed = args.first_seed + args.scenes + i
        throw = render_scene(seed, kind=SceneKind.BLURRED, count=2).image
        rest = render_scene(seed, kind=SceneKind.LOOSE, count=2)
        frames = [throw, throw, throw, *([rest.image] * 8)]
        taken = 0

        def stream(frames: list = frames):  # type: ignore[no-untyped-def,type-arg]
            nonlocal taken
            for frame in frames:
                taken += 1
                yield frame

        try:
            values = CameraDiceSource(frames=stream(), config=reader.config,
                                      networks=reader.networks).roll(2, 6)
        except CompanionError:
            unsure_after += 1  # the frames ran out while the reader was still unsure
            continue
        if taken <= 3:
            early += 1
        elif sorted(values) == sorted(d.value for d in rest.dice):
            right_after += 1
        else:
            wrong_after += 1
    print(f"Throw via CameraDiceSource: {args.special} throws (3 blurred frames, then still): "
          f"values given during the blur {early}, right values once still {right_after}, "
          f"still unsure at rest (no value given) {unsure_after}, wrong values {wrong_after}")
    print(f"CPU time per 1280x720 frame, one core (cv2.setNumThreads(1)), {len(times)} frames: "
          f"{_spread(times)}")
    print(f"The same frames, the fastest of {args.repeats} reads each: {_spread(fastest)}")
    print(f"Wall time per frame (shared machine, for reference): median "
          f"{statistics.median(wall):.1f} ms")


if __name__ == "__main__":
    main()
