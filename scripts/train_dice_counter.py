r"""Train the dice reader's counter, which tells a die's value from a close look at its top;
export models/dice_counter.onnx (`train` extra).

    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realC
    .venv/bin/python scripts/train_dice_counter.py --data /tmp/dice/r1 /tmp/dice/r2 /tmp/dice/any1 \
        /tmp/dice/any3 /tmp/dice/any4 /tmp/dice/any1m /tmp/dice/any4m \
        --real /tmp/dice/realC --steps 5000 --out /tmp/dice/C2
    # --out is required; --out models replaces the shipped counter, on purpose only

The counter sees the middle of the judge's window, COUNT_PX of its JUDGE_PX pixels
(companion/hw/dice/networks.py): the top face alone, without the dice around it, which
the judge needs to tell a leaning die's side but which crowd its reading of the value.
It is asked only which of the six values the face shows; whether a top is there at all
stays the judge's question. It learns from the judge windows of renders labelled with a
value (make_dice_data.py's shards and marks) and from the real photos' train part
(make_dice_real_data.py), the real windows making up REAL_SHARE of every batch.

``--check-every N`` holds out every N-th train photo and prints how well the counter and
the judge (the mean of eight turns each) read its dice, to choose the counter's thresholds
on photos it did not see.

The rendered folders are those of scripts/train_dice_reader.py's docstring (catalogue
dice r1 and r2, painted dice any1, any3 and any4, the finder's marks on painted dice
any1m and any4m). The committed counter (issue 23, twenty-first stop) is C3, of two
rounds of pseudo-labels:

    .venv/bin/python scripts/train_dice_counter.py ... --real /tmp/dice/realC --steps 3000 \
        --check-every 5 --out /tmp/dice/C1          # a trial, the fifth photos held out
    # C2: as at the top, every train photo
    cp models/dice_finder.onnx models/dice_judge.onnx /tmp/dice/C2/
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realD --models /tmp/dice/C2
    .venv/bin/python scripts/train_dice_counter.py ... --real /tmp/dice/realD --steps 5000 \
        --out /tmp/dice/C3

On the held-out fifth's 207 dice windows, C1 read 99.0% of the values right (its surest
value), 97.1% at least 0.9 sure with one of those wrong; the committed judge 96.6%, and
88.9% at 0.9 with none wrong. In the reader, on the 48 photos of that fifth
(eval_dice_reader.py's train part), frames fully right went 60.4% -> 66.7% and dice right
81.7% -> 90.2%, no frame more ``ok`` but wrong. realD's labels weigh the judge's values
by C2's (``_opinions`` in make_dice_real_data.py): 1,028 dice windows, 12 left out as
ambiguous, where realC's (the judge alone) had 964 and 76. On the whole train part
(frames fully right / dice right / ``ok`` but wrong; the wrong one is mp_Valid_valid_9,
labelled one die and showing two): the judge alone 64.8% / 81.8% / 2, C2 75.8% / 92.2%
/ 1, C3 76.7% / 93.0% / 1; C3 with the reader's rule that the counter must confirm a
value the judge read less than surely (reader.py, ``_counted``) 75.0% / 92.5% / 1 (on the
trial's unseen fifth, with C1, that rule cost no frame). Those counted the mean of eight
turns of each face; the reader's one look (networks.py, ``count``) reads 76.7% / 93.2% / 1,
and the unseen fifth with C1 66.7% -> 68.8% of frames fully right, 90.2% -> 91.5% of dice.

Every tray die labelled at its own box (issue 23, twenty-third stop): C1's recipe on

    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realB --models /tmp/dice/C2 \
        --boxes scripts/data/dice_boxes.csv       # 1,161 dice windows, none left out
    .venv/bin/python scripts/train_dice_counter.py ... --real /tmp/dice/realB --steps 3000 \
        --check-every 5 --out /tmp/dice/B1

checks on all 246 dice of the held-out fifth: 99.2% right by the surest value, 93.9% at
least 0.9 sure with none wrong (C1's 97.1% at 0.9 was of the 207 dice realC could label,
the hard tray dice left out). In the reader, B1 read no more of the fifth's frames fully
right than C1 and took a black die's 4 for a 5 by its glare (0.94 sure); a counter twice
as wide (32, 64, 128 channels) did the same. The judge and the finder fine-tuned on these
windows and scenes (as the committed ones, without the fifth) read the fifth no better
either. So what the counter lacks on the tray is not labels of its hard dice; none of
these networks is committed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
sys.path.insert(0, str(Path(__file__).resolve().parent))  # torch_extra, beside this script
from torch_extra import seed_and_threads, without_torch

from companion.hw.dice.networks import (
    COUNT_PX,
    CROP_PX,
    CROP_SIDES,
    JUDGE_PX,
    JUDGE_SIDES,
    DiceNetworks,
    count_windows,
)
from companion.hw.onnx_session import open_session

MODELS = Path(__file__).resolve().parents[1] / "models"
REAL_SHARE = 0.4  # of each batch, windows of the real photos


def arguments_parser() -> argparse.ArgumentParser:
    """The command line, built before torch is imported: without torch, --help still
    lists it (torch_extra.py)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, nargs="+", required=True, metavar="DIR",
                        help="folders of make_dice_data.py's shards and marks")
    parser.add_argument("--real", type=Path, required=True, metavar="DIR",
                        help="make_dice_real_data.py's folder")
    parser.add_argument("--steps", type=int, default=3000, help="training steps (default "
                                                                "%(default)s)")
    parser.add_argument("--lr", type=float, default=3e-3,
                        help="the peak learning rate (default %(default)s)")
    parser.add_argument("--check-every", type=int, default=0, metavar="N",
                        help="hold out every Nth real photo and score on it (0: none held "
                             "out; default %(default)s)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="the folder dice_counter.onnx and dice_reader.json are written to "
                             "(required: models/ holds the shipped models, so a trial "
                             "run never replaces them; give --out models to replace them "
                             "on purpose)")
    seed_and_threads(parser)
    return parser


try:
    import torch
    import train_dice_reader as reader_training  # a script beside this one
    from torch import nn
    from torch.nn import functional as F
except ModuleNotFoundError as missing:  # the `train` extra is not installed
    without_torch(missing, __name__, arguments_parser())


class Counter(nn.Module):
    """Which of the six values the face in the middle shows (pooled: any turn alike)."""

    def __init__(self) -> None:
        super().__init__()
        conv = reader_training.conv
        self.body = nn.Sequential(conv(3, 24), conv(24, 24), nn.MaxPool2d(2), conv(24, 48),
                                  conv(48, 48), nn.MaxPool2d(2), conv(48, 64), conv(64, 64),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(64, 6)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x / 255.0 - 0.5))


class CounterExport(nn.Module):
    def __init__(self, counter: Counter) -> None:
        super().__init__()
        self.counter = counter

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.counter(x), dim=1)


def values_of(folders: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The judge windows labelled with a value in ``folders``, and their values 1..6."""
    crops, labels = [], []
    for folder in folders:
        for path in sorted(folder.glob("*.npz")):
            part = np.load(path)
            keep = (part["labels"] >= 1) & (part["labels"] <= 6)
            crops.append(part["crops"][keep])
            labels.append(part["labels"][keep])
    return np.concatenate(crops), np.concatenate(labels).astype(np.int64)


def batch(crops: np.ndarray, labels: np.ndarray, picks: np.ndarray,
          rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """The counter's windows of ``picks``: any turn, mirrored or not, off centre and off
    size by as much as the finder's marks are, sometimes blurred; then photometric."""
    scale_px = JUDGE_PX / JUDGE_SIDES
    stored = CROP_PX / CROP_SIDES
    out = np.empty((len(picks), COUNT_PX, COUNT_PX, 3), np.uint8)
    for b, k in enumerate(picks):
        zoom = (1 + rng.uniform(-0.15, 0.15)) * scale_px / stored
        m = cv2.getRotationMatrix2D((CROP_PX / 2, CROP_PX / 2), rng.uniform(0, 360), zoom)
        m[:, 2] += COUNT_PX / 2 - CROP_PX / 2 + rng.uniform(-0.12, 0.12, 2) * scale_px
        crop = crops[k][:, ::-1] if rng.random() < 0.5 else crops[k]
        image = cv2.warpAffine(np.ascontiguousarray(crop), m, (COUNT_PX, COUNT_PX),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.2:
            image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 0.8))
        out[b] = image
    x = torch.from_numpy(reader_training.photometric(out, rng)).permute(0, 3, 1, 2)
    return x.contiguous(), torch.from_numpy(labels[picks] - 1)


def check(path: Path, crops: np.ndarray, labels: np.ndarray) -> None:
    """How the exported counter and the committed judge read held-out real windows."""
    def mean_of_turns(model: Path, windows: np.ndarray) -> np.ndarray:
        """The model's answers on ``windows`` in their TURNS turns, averaged."""
        session = open_session(model, "model", "train it again")
        turned = [np.rot90(windows, k, axes=(1, 2)) for k in range(4)]
        turned += [t[:, :, ::-1] for t in turned]
        answers = [session.run(None, {"windows": t.astype(np.float32)
                                      .transpose(0, 3, 1, 2)})[0] for t in turned]
        mean: np.ndarray = np.mean(answers, axis=0)
        return mean

    counted = mean_of_turns(path, count_windows(crops))  # CROP_* are JUDGE_*
    judged = mean_of_turns(MODELS / DiceNetworks.JUDGE, crops)[:, 1:7]
    judged = judged / judged.sum(axis=1, keepdims=True)
    for name, probs in (("counter", counted), ("judge", judged)):
        best = probs.argmax(axis=1) + 1
        sure = probs.max(axis=1)
        line = [f"{name}: argmax {np.mean(best == labels):.1%}"]
        for bar in (0.8, 0.9, 0.95, 0.98):
            taken = sure >= bar
            line.append(f"at {bar}: {taken.mean():.1%} taken, "
                        f"{int((best[taken] != labels[taken]).sum())} wrong")
        print("; ".join(line))


def main() -> None:
    args = arguments_parser().parse_args()
    reader_training.REAL_LOOK = True
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    crops, labels = values_of(args.data)
    real = np.load(args.real / "marks_real.npz")
    is_value = (real["labels"] >= 1) & (real["labels"] <= 6)
    held = (real["photos"] % args.check_every == 0) if args.check_every else \
        np.zeros(len(is_value), bool)
    real_crops, real_labels = real["crops"][is_value & ~held], real["labels"][is_value & ~held]
    print(f"{len(crops)} rendered windows, {len(real_crops)} real "
          f"({int((is_value & held).sum())} held out)", flush=True)
    counter = Counter()
    every = np.concatenate([crops, real_crops])
    values = np.concatenate([labels, real_labels.astype(np.int64)])
    weights = np.concatenate([np.full(len(crops), (1 - REAL_SHARE) / len(crops)),
                              np.full(len(real_crops), REAL_SHARE / len(real_crops))])

    def step() -> torch.Tensor:
        x, y = batch(every, values, rng.choice(len(every), 128, p=weights), rng)
        return F.cross_entropy(counter(x), y)

    reader_training.train(counter, args.steps, args.lr, step, "counter")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / DiceNetworks.COUNTER
    torch.onnx.export(CounterExport(counter), torch.zeros(1, 3, COUNT_PX, COUNT_PX), str(path),
                      input_names=["windows"], output_names=["values"], dynamo=False,
                      dynamic_axes={"windows": {0: "n"}, "values": {0: "n"}})
    info_path = args.out / "dice_reader.json"
    info = json.loads(info_path.read_text()) if info_path.exists() else {}
    info["counter"] = {"windows": len(every), "real_windows": len(real_crops),
                       "steps": args.steps, "seed": args.seed}
    info_path.write_text(json.dumps(info, indent=2) + "\n")
    if args.check_every:
        check(path, real["crops"][is_value & held], real["labels"][is_value & held])


if __name__ == "__main__":
    main()
