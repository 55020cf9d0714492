"""Train the tile classifier; export models/tile_classifier.onnx + .json (`train` extra).

    /work/venv/bin/pip install torch==2.13.0 onnx    # or: pip install -e .[train]
    nohup python scripts/train_tile_classifier.py > train.log 2>&1 &
    python scripts/eval_tile_classifier.py --write-metadata   # adds measured accuracy

The data: synthetic slot crops from companion.hw.camera.render (art styles,
font-drawn characters and honours, ink and body colours, turns incl. upside
down, leftover perspective, light, glare, blur, noise, JPEG, background, a
finger at the edge) plus the training split of the real photos (see
companion.hw.camera.photos), heavily augmented and oversampled. The network is
a small depthwise-separable CNN trained from scratch; the ONNX file has two
outputs, ``logits`` and an L2-normalised ``embedding`` for enrolment.
Everything follows ``--seed``; about 30-35 minutes on one shared CPU thread.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from companion.hw.camera.photos import load_photos
from companion.hw.camera.render import (
    camera_effects,
    find_cjk_fonts,
    paste,
    render_crop,
    slot_background,
)
from companion.systems.jongrogue.tiles import READER_LABELS

ROOT = Path(__file__).resolve().parent.parent
INPUT_SIZE = (64, 64)  # (w, h) the network sees
CROP_SIZE = (72, 96)  # (w, h) a synthetic slot crop is drawn at: the mat slot's 3:4
MEAN, STD = 0.5, 0.25
EMBEDDING = 128


def separable(c_in: int, c_out: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_in, 3, stride, 1, groups=c_in, bias=False),
        nn.BatchNorm2d(c_in),
        nn.ReLU(inplace=True),
        nn.Conv2d(c_in, c_out, 1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class TileNet(nn.Module):
    """64x64 RGB -> (logits over READER_LABELS, unit-length embedding)."""

    def __init__(self, classes: int, widths: tuple[int, ...] = (20, 40, 80, 144, 224)) -> None:
        super().__init__()
        w = widths
        self.features = nn.Sequential(
            nn.Conv2d(3, w[0], 3, 2, 1, bias=False), nn.BatchNorm2d(w[0]), nn.ReLU(inplace=True),
            separable(w[0], w[1], 1),
            separable(w[1], w[2], 2), separable(w[2], w[2], 1),
            separable(w[2], w[3], 2), separable(w[3], w[3], 1),
            separable(w[3], w[4], 2), separable(w[4], w[4], 1),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.project = nn.Linear(w[4], EMBEDDING)
        self.dropout = nn.Dropout(0.2)
        self.head = nn.Linear(EMBEDDING, classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        z = self.project(self.features(x))
        embedding = nn.functional.normalize(z, dim=1)
        return self.head(self.dropout(z)), embedding


def to_input(bgr: np.ndarray) -> np.ndarray:
    """BGR crop -> HxWx3 RGB uint8 at INPUT_SIZE (the ONNX metadata repeats these steps)."""
    small = cv2.resize(bgr, INPUT_SIZE, interpolation=cv2.INTER_AREA)
    out: np.ndarray = small[..., ::-1]
    return out


def augment_photo(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A real tile photo as the camera might show it: tight or on a slot, turned, re-lit."""
    h, w = image.shape[:2]
    if rng.random() < 0.5:  # tight framing, like the photo itself, cropped a little
        s = rng.uniform(0.85, 1.0)
        ch, cw = int(h * s * rng.uniform(0.95, 1.05)), int(w * s)
        y0, x0 = int(rng.integers(0, max(h - ch, 0) + 1)), int(rng.integers(0, max(w - cw, 0) + 1))
        crop = image[y0 : y0 + ch, x0 : x0 + cw]
        if rng.random() < 0.5:
            crop = crop[::-1, ::-1]
        angle = rng.normal(0, 4)
        matrix = cv2.getRotationMatrix2D((cw / 2, ch / 2), angle, 1.0)
        crop = cv2.warpAffine(crop, matrix, (cw, ch), borderMode=cv2.BORDER_REFLECT)
        canvas = cv2.resize(crop, CROP_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    else:
        canvas = paste(slot_background(rng, CROP_SIZE), image, rng, fill=(0.6, 0.95))
    if rng.random() < 0.5:  # another set's ink: shift the hue
        hsv = cv2.cvtColor(np.clip(canvas, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(int) + int(rng.normal(0, 12))) % 180).astype(np.uint8)
        canvas = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    return camera_effects(canvas, rng)


def synthetic_set(per_class: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    fonts = find_cjk_fonts()
    images, labels = [], []
    for index, label in enumerate(READER_LABELS):
        for _ in range(per_class):
            images.append(to_input(render_crop(label, rng, size=CROP_SIZE, fonts=fonts)))
            labels.append(index)
    return np.stack(images), np.array(labels)


def real_epoch(photos: list[tuple[np.ndarray, int]], repeats: int,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    images = [to_input(augment_photo(img, rng)) for img, _ in photos for _ in range(repeats)]
    labels = [lab for _, lab in photos for _ in range(repeats)]
    return np.stack(images), np.array(labels)


def to_tensor(images: np.ndarray) -> torch.Tensor:
    x = torch.from_numpy(images).permute(0, 3, 1, 2).float() / 255.0
    return (x - MEAN) / STD


def desaturate(x: torch.Tensor, share: float = 0.2) -> torch.Tensor:
    """Wash the colour out of ``share`` of a batch: sets differ in ink colours, shapes don't."""
    grey = x.mean(dim=1, keepdim=True)
    amount = torch.rand(len(x), 1, 1, 1) * 0.5 + 0.5
    amount = amount * (torch.rand(len(x), 1, 1, 1) < share)
    return x * (1 - amount) + grey * amount


def export(model: TileNet, path: Path) -> None:
    model.eval()
    dummy = torch.zeros(1, 3, INPUT_SIZE[1], INPUT_SIZE[0])
    torch.onnx.export(
        model, (dummy,), str(path), input_names=["image"],
        output_names=["logits", "embedding"], opset_version=17,
        dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}, "embedding": {0: "batch"}},
        dynamo=False,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path,
                        default=ROOT.parent / "shared" / "datasets" / "mahjong-photos")
    parser.add_argument("--out", type=Path, default=ROOT / "models" / "tile_classifier")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--synthetic-per-class", type=int, default=700)
    parser.add_argument("--real-repeats", type=int, default=30,
                        help="augmented copies of each training photo per epoch")
    parser.add_argument("--epochs", type=int, default=22)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch CPU threads (1 is fastest on a shared machine)")
    args = parser.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    start = time.monotonic()

    photos = [p for p in load_photos(args.photos) if p.split == "train"]
    index = {label: i for i, label in enumerate(READER_LABELS)}
    real: list[tuple[np.ndarray, int]] = []
    for photo in photos:
        image = cv2.imread(str(photo.path))
        if image is None:
            print(f"skipping unreadable photo {photo.path}", file=sys.stderr)
            continue
        real.append((image, index[photo.label]))
    print(f"{len(real)} training photos; rendering {args.synthetic_per_class} per class ...",
          flush=True)
    syn_x, syn_y = synthetic_set(args.synthetic_per_class, rng)
    print(f"synthetic set {syn_x.shape} in {time.monotonic() - start:.0f}s", flush=True)

    model = TileNet(len(READER_LABELS))
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    batch = 128
    per_epoch = len(syn_y) + len(real) * args.real_repeats
    steps = args.epochs * (per_epoch // batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps,
                                                   pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
    step = 0
    for epoch in range(args.epochs):
        real_x, real_y = real_epoch(real, args.real_repeats, rng)
        x_all = np.concatenate([syn_x, real_x])
        y_all = np.concatenate([syn_y, real_y])
        order = rng.permutation(len(y_all))
        model.train()
        total, correct, loss_sum = 0, 0, 0.0
        for b in range(len(order) // batch):
            if step >= steps:
                break
            pick = order[b * batch : (b + 1) * batch]
            x, y = desaturate(to_tensor(x_all[pick])), torch.from_numpy(y_all[pick])
            logits, _ = model(x)
            loss = loss_fn(logits, y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            step += 1
            loss_sum += loss.item() * len(pick)
            correct += int((logits.argmax(1) == y).sum())
            total += len(pick)
            if b % 50 == 49:
                print(f"  batch {b + 1}: loss {loss_sum / total:.3f} "
                      f"({time.monotonic() - start:.0f}s)", flush=True)
        print(f"epoch {epoch + 1}/{args.epochs}: loss {loss_sum / total:.3f} "
              f"train acc {correct / total:.4f} ({time.monotonic() - start:.0f}s)", flush=True)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx_path = args.out.with_suffix(".onnx")
    export(model, onnx_path)
    metadata = {
        "format": 1,
        "classes": list(READER_LABELS),
        "input": {
            "name": "image", "width": INPUT_SIZE[0], "height": INPUT_SIZE[1],
            "channels": "RGB", "layout": "NCHW", "resize": "area",
            "scale": 1 / 255, "mean": [MEAN] * 3, "std": [STD] * 3,
        },
        "outputs": {"logits": "logits", "embedding": "embedding"},
        "reader": {"stable_frames": 3, "min_confidence": 0.6, "top_k": 5},
        "enrolment": {"weight": 0.5, "temperature": 0.05},
        "training": {
            "script": "scripts/train_tile_classifier.py",
            "seed": args.seed,
            "epochs": args.epochs,
            "synthetic_per_class": args.synthetic_per_class,
            "real_photos": len(real),
            "real_repeats_per_epoch": args.real_repeats,
            "data": "synthetic slot crops (packaged CC0 art + CJK-font characters/honours, "
                    "random inks, bodies, backs, turns incl. upside down, perspective, light, "
                    "glare, blur, noise, JPEG, backgrounds, finger) + the 'train' split of "
                    "mahjong-photos (Camerash mahjong-dataset, MIT), augmented",
            "parameters": sum(p.numel() for p in model.parameters()),
            "wall_clock_s": round(time.monotonic() - start),
        },
        "measured": {},
    }
    onnx_path.with_suffix(".json").write_text(json.dumps(metadata, indent=2) + "\n")
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB) and its .json "
          f"in {time.monotonic() - start:.0f}s; now run scripts/eval_tile_classifier.py "
          "--write-metadata", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
