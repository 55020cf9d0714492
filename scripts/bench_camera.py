"""Benchmark the camera path: per-crop latency, a full frame to every slot, and memory.

    .venv/bin/python scripts/bench_camera.py            # onnxruntime and OpenCV on 1 thread
    .venv/bin/python scripts/bench_camera.py --frame shot.png

Targets (issue 3): median per crop <= 2 ms; a 1280x720 frame -> all slots
<= 30 ms; process RSS <= 200 MB. The frame is a rendered mat scene unless a
real one is given.

Each step prints its median CPU time (this process's, one core's work: onnxruntime and
OpenCV run on the calling thread) beside its median wall time, and the targets are
judged on the CPU figure: on a shared machine the wall clock mostly measures the
queue for a core, as the other benches say. "Model only" runs the model the way the
reader does: on the crop at every quarter turn in the model's ``input.turns`` (as it
lies and upside down for the shipped model), in one batch.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.app.arg_types import existing_file
from companion.errors import CompanionError
from companion.hw.camera.classifier import TileClassifier, default_model_path
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.reader import frame_readings
from companion.hw.camera.sim_scene import render_scene
from companion.hw.pictures import read_picture
from companion.hw.ports import Slot


def median_ms(run: object, repeats: int) -> tuple[float, float]:
    """(wall, CPU) medians of ``repeats`` calls, in ms."""
    assert callable(run)
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def medians(times: tuple[float, float], digits: int = 3) -> str:
    wall, cpu = times
    return f"median {cpu:.{digits}f} ms CPU, {wall:.{digits}f} ms wall"


def turned_batch(classifier: TileClassifier, crop: np.ndarray) -> np.ndarray:
    """The model's input for one crop as ``TileClassifier.raw`` builds it: the crop at every
    quarter turn in the metadata's ``input.turns``, one batch."""
    x = classifier.preprocess([crop])
    turns = classifier.info.turns
    if len(turns) > 1:
        x = np.concatenate([np.rot90(x, -t, axes=(2, 3)) for t in turns])
    return np.ascontiguousarray(x)


def rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MB: VmRSS and VmHWM. VmHWM starts
    afresh at exec; ``ru_maxrss`` starts at the forking parent's high-water mark, so a bench
    started from a large process printed that process's (as bench_rules says, review65w
    N4), and is kept only where /proc is missing."""
    current = peak = 0.0
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    current = int(line.split()[1]) / 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    if not peak:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return current, peak


def main(argv: list[str] | None = None) -> int:
    # --help shows the whole docstring: what is measured, how to run it, the targets.
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=existing_file, default=default_model_path(),
                        help="the tile classifier to time (default: the packaged one)")
    parser.add_argument("--frame", type=existing_file,
                        help="a 1280x720 camera picture of the mat")
    parser.add_argument("--repeats", type=int, default=200,
                        help="calls timed of each step, 4 or more: a frame's steps are "
                             "timed a quarter as often (default 200)")
    args = parser.parse_args(argv)
    if args.repeats < 4:  # a quarter of fewer is no call, and no median
        parser.error(f"--repeats must be 4 or more, not {args.repeats}")
    cv2.setNumThreads(1)
    try:
        # An unusable model or picture, named as the game names it, not a traceback; the
        # frame read as the game reads a picture (a cut-short JPEG refused, its EXIF turn
        # and its alpha taken) (a78tilecam DEFECT 3).
        classifier = TileClassifier(args.model, threads=1)
        frame = read_picture(args.frame) if args.frame is not None else None
    except CompanionError as exc:
        parser.error(str(exc))
    detector = MatDetector()
    if frame is None:
        tiles = {Slot.DRAW: "5p", Slot.ROOM_TL: "1z", Slot.ROOM_TR: "9s",
                 Slot.ROOM_BL: "back", Slot.ROOM_BR: "7m"}
        frame = render_scene(tiles, np.random.default_rng(1))
    detection = detector.detect(frame)
    if not detection.found:
        print(f"bench_camera: {detection.message}", file=sys.stderr)
        return 1
    crops = detector.slot_crops(frame, detection)
    crop = crops[Slot.DRAW]
    batch = turned_batch(classifier, crop)
    session = classifier._session  # the bare model call, to separate it from our steps
    feed = {session.get_inputs()[0].name: batch}
    for _ in range(20):
        classifier.predict([crop])
    print(f"model {args.model} ({args.model.stat().st_size / 1e6:.2f} MB), "
          f"onnxruntime 1 thread, OpenCV 1 thread")
    turns = len(classifier.info.turns)
    ms = median_ms(lambda: session.run(None, feed), args.repeats)
    print(f"per crop, model only ({turns} turn{'s' if turns > 1 else ''}, as predict runs it): "
          f"{medians(ms)}")
    ms = median_ms(lambda: classifier.predict([crop]), args.repeats)
    print(f"per crop, resize+normalise+model+top-k: {medians(ms)}  (target <= 2 ms CPU)")
    all_crops = list(crops.values())
    ms = median_ms(lambda: classifier.predict(all_crops), args.repeats)
    print(f"{len(all_crops)} crops in one batch: {medians(ms)}")
    ms = median_ms(lambda: detector.detect(frame), args.repeats // 4)
    print(f"marker detection + homography ({frame.shape[1]}x{frame.shape[0]}): {medians(ms, 2)}")
    ms = median_ms(lambda: frame_readings(frame, classifier, detector), args.repeats // 4)
    print(f"full frame -> all {len(all_crops)} slots: {medians(ms, 2)}  (target <= 30 ms CPU)")
    current, peak = rss_mb()
    print(f"process RSS: {current:.0f} MB now, {peak:.0f} MB peak  (target <= 200 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
