"""Measure the tile classifier: held-out renders and real photos, mat scenes, enrolment.

    python scripts/eval_tile_classifier.py                   # print the figures
    python scripts/eval_tile_classifier.py --write-metadata  # also store them in the .json

The renders and scenes come from seeds the training script never uses; the
real photos are the fixed 'test' split of companion.hw.camera.photos (skipped,
with a note, when the photo folder is absent).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.hw.camera.classifier import Enrolment, TileClassifier, default_model_path
from companion.hw.camera.mat import MatDetector
from companion.hw.camera.photos import load_photos
from companion.hw.camera.reader import frame_readings
from companion.hw.camera.render import Camera, find_cjk_fonts, render_crop, render_scene
from companion.systems.jongrogue.tiles import READER_LABELS

ROOT = Path(__file__).resolve().parent.parent
RENDER_SEED = 777_001  # never the training seed
SCENE_SEED = 777_002


def accuracy(classifier: TileClassifier, images: list[np.ndarray], labels: list[str],
             batch: int = 64) -> tuple[float, list[str]]:
    guesses: list[str] = []
    for i in range(0, len(images), batch):
        guesses += [p.best.label for p in classifier.predict(images[i : i + batch])]
    right = sum(g == t for g, t in zip(guesses, labels, strict=True))
    return right / max(len(labels), 1), guesses


def held_out_renders(per_class: int) -> tuple[list[np.ndarray], list[str]]:
    rng = np.random.default_rng(RENDER_SEED)
    fonts = find_cjk_fonts()
    images, labels = [], []
    for label in READER_LABELS:
        for _ in range(per_class):
            images.append(render_crop(label, rng, fonts=fonts))
            labels.append(label)
    return images, labels


def scene_accuracy(classifier: TileClassifier, scenes: int) -> tuple[float, int, int]:
    """Share of slots read right in random mat scenes; also how many scenes lost the mat."""
    rng = np.random.default_rng(SCENE_SEED)
    detector = MatDetector()
    slots = [s.slot for s in detector.geometry.slots]
    fonts = find_cjk_fonts()
    right = total = lost = 0
    for _ in range(scenes):
        tiles = {s: str(rng.choice(READER_LABELS)) for s in slots}
        camera = Camera(blur=float(rng.uniform(0.3, 1.2)), noise=float(rng.uniform(1, 5)),
                        brightness=float(rng.uniform(0.7, 1.1)))
        frame = render_scene(tiles, rng, camera=camera, fonts=fonts)
        predictions, _ = frame_readings(frame, classifier, detector)
        if not predictions:
            lost += 1
            total += len(slots)
            continue
        for slot in slots:
            right += predictions[slot].best.label == tiles[slot]
            total += 1
    return right / total, total, lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=default_model_path())
    parser.add_argument("--photos", type=Path,
                        default=ROOT.parent / "shared" / "datasets" / "mahjong-photos")
    parser.add_argument("--renders-per-class", type=int, default=60)
    parser.add_argument("--scenes", type=int, default=40)
    parser.add_argument("--write-metadata", action="store_true")
    args = parser.parse_args(argv)
    classifier = TileClassifier(args.model)
    measured: dict[str, object] = {}

    images, labels = held_out_renders(args.renders_per_class)
    acc, _ = accuracy(classifier, images, labels)
    print(f"held-out renders: {acc:.4f} top-1 on {len(labels)} crops (seed {RENDER_SEED})")
    measured["held_out_renders_top1"] = round(acc, 4)
    measured["held_out_renders_n"] = len(labels)

    acc, total, lost = scene_accuracy(classifier, args.scenes)
    print(f"rendered mat scenes end to end: {acc:.4f} of {total} slots "
          f"({args.scenes} scenes, mat lost in {lost})")
    measured["mat_scenes_slot_top1"] = round(acc, 4)
    measured["mat_scenes_slots_n"] = total

    if (args.photos / "labels.csv").exists():
        photos = load_photos(args.photos)
        test = [p for p in photos if p.split == "test"]
        images = [cv2.imread(str(p.path)) for p in test]
        labels = [p.label for p in test]
        acc, guesses = accuracy(classifier, images, labels)
        print(f"held-out real photos: {acc:.4f} top-1 on {len(labels)} photos")
        measured["held_out_photos_top1"] = round(acc, 4)
        measured["held_out_photos_n"] = len(labels)
        per_class: dict[str, list[int]] = {}
        for g, t in zip(guesses, labels, strict=True):
            per_class.setdefault(t, []).append(int(g == t))
        print("  per class: " + " ".join(
            f"{c}={sum(v)}/{len(v)}" for c, v in sorted(per_class.items())))
        confusions = Counter((t, g) for g, t in zip(guesses, labels, strict=True) if g != t)
        for (t, g), n in confusions.most_common(5):
            print(f"  confused: {t} read as {g} x{n}")
        for p, g in zip(test, guesses, strict=True):
            if g != p.label:
                print(f"  wrong: {p.path.name} is {p.label}, read {g}")
        # What enrolment adds: one training photo per kind stands in for the player's set.
        enrolment = Enrolment()
        first = {}
        for p in photos:
            if p.split == "train" and p.label not in first:
                first[p.label] = p
        for label, p in first.items():
            image = cv2.imread(str(p.path))
            enrolment.add(label, classifier.predict([image])[0].embedding)
        enrolled = TileClassifier(args.model, enrolment=enrolment)
        acc_e, _ = accuracy(enrolled, images, labels)
        print(f"held-out real photos with enrolment ({len(enrolment)} pictures, one per kind "
              f"from the training split): {acc_e:.4f} top-1")
        measured["held_out_photos_top1_enrolled"] = round(acc_e, 4)
    else:
        print(f"real photos not found at {args.photos}; skipped")

    if args.write_metadata:
        meta_path = args.model.with_suffix(".json")
        meta = json.loads(meta_path.read_text())
        meta["measured"] = measured
        meta_path.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"wrote the figures into {meta_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
