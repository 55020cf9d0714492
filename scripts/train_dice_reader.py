r"""Train the dice reader's finder and judge; export models/dice_{finder,judge}.onnx (train extra).

    .venv/bin/pip install -e '.[train]'    # torch 2.13.0 and onnx: the pyproject's train extra
    .venv/bin/python scripts/make_dice_data.py --scenes 3000 --out /tmp/dice-data
    .venv/bin/python scripts/train_dice_reader.py --only finder --data /tmp/dice-data \
        --finder-steps 5000 --out /tmp/dice/m0
    .venv/bin/python scripts/make_dice_data.py --scenes 3000 --start 100 --out /tmp/dice-data \
        --marks models
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice-data \
        --judge-steps 6000 --out /tmp/dice/m0
    # --out is required; --out models replaces the shipped models, on purpose only

Fine-tuning on the real photos too (issue 23): the train part of the shared
real photos, with the finder's own marks as boxes (scripts/make_dice_real_data.py),
mixed with rendered shards, starting from the exported networks (``--init``),
colours shuffled, blurred and JPEG-encoded as a webcam's (``--real-look``), and
the former judge's answers on the renders kept (``--keep``):

    .venv/bin/python scripts/make_dice_data.py --scenes 200 --start 3000 --out /tmp/dice/r1 --jobs 1
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/real1
    .venv/bin/python scripts/train_dice_reader.py --data /tmp/dice/r1 /tmp/dice/real1 \
        --favour /tmp/dice/real1 --init models --lr 1e-3 --finder-steps 300 \
        --judge-steps 500 --out /tmp/dice/m1
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/real2 --models /tmp/dice/m1
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/real2 \
        --favour /tmp/dice/real2 --init models --keep models --lr 7e-4 --real-look \
        --judge-steps 500 --seed 2 --out /tmp/dice/m3

The committed finder is m1's. The committed judge (issue 23, nineteenth stop) is M,
fine-tuned from m3's in two rounds of pseudo-labels: make_dice_real_data.py now takes
the reader's own marks (its size search, so a die's window is cut as the reader cuts
it: 230 of 236 train photos kept, where the finder's look at the label's die_px kept
164 to 176 and cut the windows larger than the reader does), gives every die of a
photo a value of its label in the pairing likeliest as a whole (``_settle``: a clear
die's glare read as pips, an emblem 1 taken for no die are taught their value) and
keeps photos with die-like hot marks when the judge reads the label surely on other
marks (``_matched``: the keyboard's keys, a die's side seen in perspective are then
NOTHING). The first round's judge (K) labels the second round's photos; M also sees
more catalogue renders (its former answers kept) and the side-on shards, which hold
it to calling a leaning die's open side COCKED. models/dice_reader.json records the
runs back to the renders-only networks (kept in models/dice_v1/). Every shard these
runs used was made before commit 14640de5, which drew the companion's mat mirrored in
make_dice_data.py's mat scenes (a third of them): rerun now, the recipes here draw
that mat the right way round, so they do not remake the same data, and the figures
recorded here are of networks that learned the mirrored mat (reviewd71 RISK 2):

    .venv/bin/python scripts/make_dice_data.py --scenes 800 --start 3010 --out /tmp/dice/r2
    .venv/bin/python scripts/make_dice_data.py --scenes 200 --start 1530 --tilted-only --side-on \
        --out /tmp/dice/side
    .venv/bin/python scripts/make_dice_data.py --scenes 200 --start 1532 --tilted-only --side-on \
        --marks models --out /tmp/dice/sidem
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realR      # with m1 + m3
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/realR \
        --favour /tmp/dice/realR --init models --keep models --lr 7e-4 --real-look \
        --judge-steps 1000 --seed 11 --out /tmp/dice/K
    cp models/dice_finder.onnx /tmp/dice/K/
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realR2 --models /tmp/dice/K
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/r2 \
        /tmp/dice/side /tmp/dice/sidem /tmp/dice/realR2 --favour /tmp/dice/realR2 \
        --init models --keep models --lr 7e-4 --real-look --judge-steps 1200 --seed 11 \
        --out /tmp/dice/M

Chosen on the train part (eval_dice_reader.py --part train: frames fully right /
dice right / ``ok`` but wrong, one of which is always mp_Valid_valid_9.jpg, labelled
one die and showing two): m3 53.4% / 74.3% / 1 (a black die's 4 read 5 by its glare);
K 59.3% / 80.8% / 2; L (K's recipe on realR2) 61.9% / 82.6% / 2; M 58.1% / 80.5% / 2
(the other: a clear die's 1 read 3 by its glare, which the labels leave out as
ambiguous beside a blue 3). K and L read a leaning die's open side as its value on
the benched renders (seed 110023: a 6, 0.97 sure, a roll would take it); M does not:
catalogue renders 99.73% -> 99.67% of dice right, 0 wrong either way, and the tests'
rendered seeds pass. Held out, read once (eval_dice_reader.py --part test --large):
m3 56.3% / 73.9% / 2, M 57.3% / 79.9% / 1 (the die in the player's fingers). A third
round (M's labels, realR3, M's recipe otherwise) read the train part 59.7% / 80.5% / 2:
four frames more, no die more, so it was not benched nor read held out. Tried
on the way and not kept: H and I (labels from the finder's die_px look, with _matched
and then _settle) read more but kept the emblem die NOTHING at the reader's size; J (I
with 400 painted scenes of glossy dice, ``--paints any``) still read both glare dice
wrong; a count of the pips by their look (round blobs of one size, a second opinion
beside the judge) caught one glare die on the train part at one setting of its
circle and none at the others, and miscounted 1 to 4 of 100 rendered faces.

Two more rounds on M (issue 23, twentieth stop), neither committed; scored with the
reader of that stop, whose train part M reads 58.1% / 80.5% / 2 (before its rules for a
flat die's own side). A wider judge: M's last three convolutions widened to 96, 128 and
128 channels with its function kept (the new channels' outgoing weights zero), 4,000
steps on r1, r2, side, sidem, any1-3, anyG, any1m-3m and realR2 (the painted and real
favoured, lr 7e-4, real-look): 53.8% / 80.3% / 3, and it fitted realR2's own windows no
better (89.5% of values read right at the reader's thresholds, M 89.3%): the judge's
size is not what holds it back; the widening code was not kept. P1: M's recipe with 600
painted scenes of the renderer's clear dice showing their hidden faces' pips (the real
tray's smoke-black dice), and the committed finder's marks on 300 more:

    .venv/bin/python scripts/make_dice_data.py --scenes 600 --start 4300 --out /tmp/dice/any4 \
        --paints any
    .venv/bin/python scripts/make_dice_data.py --scenes 300 --start 4400 --out /tmp/dice/any4m \
        --paints any --marks models
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/r2 \
        /tmp/dice/side /tmp/dice/sidem /tmp/dice/realR2 /tmp/dice/any4 /tmp/dice/any4m \
        --favour /tmp/dice/realR2 /tmp/dice/any4 /tmp/dice/any4m --init models \
        --keep models --lr 7e-4 --real-look --judge-steps 1200 --seed 11 --out /tmp/dice/P1

read 55.1% / 81.5% / 2 (the tray's dice 71.4% -> 73.3% right, its frames 32.6% ->
30.3%): within what a training seed moves, so M stays.

A longer round (issue 23, not committed): the judge only, 900 steps on the pseudo-boxes
of the committed networks (make_dice_real_data.py keeping photos with hot marks the
judge is sure are no die, 164 of 236 train photos). Beside the committed judge, with
the reader's faces then read up to 350 px and min_nothing 0.8: train part 55.5% -> 61.0%
of frames fully right but 2 -> 5 frames ``ok`` but wrong (one a photo labelled one die
that shows two); held out, dice right 74.7% -> 78.8%, frames 55.2% -> 56.3%, 2 ``ok``
but wrong either way. Not better enough at never being wrong to replace it:

    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice-w/real3
    .venv/bin/python scripts/train_dice_reader.py --only judge \
        --data /tmp/dice/r1 /tmp/dice-w/real3 \
        --favour /tmp/dice-w/real3 --init models --keep models --lr 1e-3 --real-look \
        --judge-steps 900 --out /tmp/dice-w/j1

A longer round still (not committed): 1,000 more steps from j1, the reader then with
the rule against a die-like mark taken for no die (reader.toml, hot_share). On the train
part it read 147 of 236 frames fully right (the committed judge 127, j1 140), and with
min_nothing_hot 0.98 (at 0.95 it let the emblem die j1 doubted 0.92 through, now 0.96
nothing) 2 ``ok`` but wrong, as j1 (a 1 read as 3; the photo labelled one die that shows
two). Held out, frames fully right 56.3% -> 62.5%, dice right 73.9% -> 80.1%, but ``ok``
but wrong 2 -> 4 frames (a flat die's side seen in perspective read as a die of its own,
a 1 read as 6), and on the renders (bench_dice.py, seeds 110000..) 99.73% -> 99.40% of
dice right with one read wrong: so neither is it committed.

    .venv/bin/python scripts/train_dice_reader.py --only judge \
        --data /tmp/dice/r1 /tmp/dice-w/real3 \
        --favour /tmp/dice-w/real3 --init /tmp/dice-w/j1 --keep models --lr 7e-4 \
        --real-look --judge-steps 1000 --seed 3 --out /tmp/dice-w/j2
    cp models/dice_finder.onnx /tmp/dice-w/j2/  # the finder as committed
    printf '[reader]\nmin_nothing_hot = 0.98\n' > /tmp/hot98.toml
    .venv/bin/python scripts/eval_dice_reader.py --part test --large --models /tmp/dice-w/j2 \
        --config /tmp/hot98.toml

1,200 steps more from j2 (``--init /tmp/dice-w/j2 --lr 5e-4 --judge-steps 1200 --seed 4
--out /tmp/dice-w/j3``, the rest as j2's) read 150 of 236 train frames fully right, 2
``ok`` but wrong (the emblem die now read); held out 63.5% fully right, dice right 81.4%,
but 5 frames ``ok`` but wrong (three with a die too many, one a flat die's side read),
renders 99.47% with one wrong. The longer the judge learns the pseudo-labels, the more
frames it reads and the more of them wrongly: not committed either.

Dice the renders lacked (issue 23, eighteenth stop): on the real photos' tray the judge
doubted marbled green dice with yellow pips, black dice with red pips and clear dice, and
read a clear die's glare as pips. The renderer now paints dice of any colours (``--paints
any``: marbled and clear bodies, glare, an emblem on the 1, square pips) and a camera up to
``--max-tilt`` degrees from straight down. The judge rounds, scored with the committed
finder (eval_dice_reader.py --part train; held out read once; bench_dice.py renders):

    .venv/bin/python scripts/make_dice_data.py --scenes 200 --start 3000 --out /tmp/dice/r1
    # any1 and any2 were rendered at commit a69a4a4 (before glare; git worktree add ...):
    .venv/bin/python scripts/make_dice_data.py --scenes 600 --start 4000 --out /tmp/dice/any1 \
        --paints any
    .venv/bin/python scripts/make_dice_data.py --scenes 600 --start 4010 --out /tmp/dice/any2 \
        --paints any --max-tilt 50
    .venv/bin/python scripts/make_dice_data.py --scenes 600 --start 4020 --out /tmp/dice/any3 \
        --paints any --max-tilt 40
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/real0
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/any1 \
        /tmp/dice/real0 --favour /tmp/dice/any1 /tmp/dice/real0 --init models --keep models \
        --lr 1e-3 --real-look --judge-steps 2000 --threads 1 --out /tmp/dice/A
    cp models/dice_finder.onnx /tmp/dice/A/
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/real1 --models /tmp/dice/A
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/any1 \
        /tmp/dice/any3 /tmp/dice/real1 --favour /tmp/dice/any1 /tmp/dice/any3 /tmp/dice/real1 \
        --init /tmp/dice/A --keep models --lr 7e-4 --real-look --judge-steps 1500 \
        --threads 1 --seed 6 --out /tmp/dice/C

Train part, frames fully right / dice right / ``ok`` but wrong (one of them is always
mp_Valid_valid_9.jpg, labelled one die, showing two): the committed judge 53.8% / 74.4% /
1; A 60.6% / 80.5% / 3 (two clear dice's 1s read 3 and 2); C 63.1% / 81.7% / 2, and with
min_confidence 0.93 61.0% / 79.5% / 1. Held out, C with 0.93: 56.3% / 78.2% / 2 (the
committed 56.3% / 73.9% / 2), large white dice 64.7% / 87.0% / 0 (84.8%), nell-byler's
tray dice missed 1 (4). Renders of any colours (bench_dice.py's 100 painted scenes): 44.3%
-> 67.3% of dice right, wrong 1.58% -> 1.32%. But on the catalogue's renders C read
99.07% (99.73%), one die wrong where there was none before, a roll that would take it:
not committed. B (from A, 2,000 steps, seed 5: any1 to any3, the committed finder's
marks on 400, 400 and 300 more painted scenes (``--marks models``, ``--start`` 4100, 4110,
4120, tilted as any1 to any3), and real1) read fewer: 50.9% / 75.8% / 3. A
finder fine-tuned on the same scenes (800 steps, lr 1e-3) marked every painted die (91% ->
100% of 93) but also the tray's screw holes, which made 94% of the tray's frames unsure.

To hold the judge to its catalogue answers, more catalogue renders kept (r2: ``--scenes
800 --start 3010``), the painted any3 and real1 favoured, from C: E (``--lr 5e-4
--judge-steps 1000 --threads 2 --seed 9``) read the train part 64.0% / 82.9% / 1 and, held
out, 58.3% / 81.0% / 2 (nell-byler 33.3% / 74.5%), renders of any colours 67% of dice right.
But on the tests' renders it read a flat die's side, seen in a steep view, as a 6 (0.94 of
the values; a min_confidence of 0.95 hides it, for 5 train frames) and, worse, a leaning
die's open side as its value (seed 8's 6, the case the judge learned side-on shards for).
G, from E with two more side-on shards kept (``--tilted-only --side-on --start 1530`` and
their marks, ``--start 1532``; 800 steps, seed 10), read that flat die's side 0.98 sure and
2 train frames ok but wrong. The painted dice and steep views teach the judge to read any
face that shows pips, a top or not: neither is committed. What the next round needs is
renders whose steep, painted dice label the open sides of flat dice NOTHING as surely as
the side-on shards label a leaning die's COCKED, or a judge trained from the start on all.

The webcam's own boxes and steep views (issue 23, twenty-sixth stop), neither committed.
On the webcam frames the reader leaves unsure, the finder marks a flat die's front side
and the judge calls it COCKED (0.6 to 0.8), as the side-on shards teach it to call a
leaning die's open side. JP is M's recipe on this stop's pseudo-labels (realP: the
committed networks', counter included), a control; JS adds the webcam photos' boxes
(realW, make_dice_real_data.py ``--boxes scripts/data/dice_boxes_webcam.csv``) and the
committed finder's marks on 400 renders seen up to 60 degrees from straight down, whose
flat dice's sides are NOTHING, both favoured:

    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realP
    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realW \
        --boxes scripts/data/dice_boxes_webcam.csv
    .venv/bin/python scripts/make_dice_data.py --scenes 400 --start 3400 --max-tilt 60 \
        --marks models --out /tmp/dice/steepm
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/r2 \
        /tmp/dice/side /tmp/dice/sidem /tmp/dice/realW /tmp/dice/steepm \
        --favour /tmp/dice/realW /tmp/dice/steepm --init models --keep models --lr 7e-4 \
        --real-look --judge-steps 1200 --seed 11 --out /tmp/dice/JS

Frames fully right / dice right / ``ok`` but wrong, train part: committed 78.4% / 93.2% /
1, JP 79.2% / 94.3% / 1, JS 79.2% / 93.5% / 1 (webcam frames 88.4%, 87.1%, 87.8%); held
out: 67.7% / 91.4% / 0, 68.8% / 92.9% / 0, 68.8% / 91.8% / 0. Renders (bench_dice.py
--first-seed 3000000 --scenes 300 --repeats 1), committed / JP: catalogue 99.39% of dice
right either way, 0 wrong, 291 / 290 frames OK; mat 99.23% either way; painted 46.2% /
48.0%, frames OK with a die missed 11 / 12.
The boxes bore the pseudo-labels out (no webcam die window of realP is off its box), and
the steep renders did not teach the judge the webcam's sides: what the reader leaves
unsure there is not the judge's labels. JP, one frame more held out, also broke two of
the tests' webcam and tray frames, so M stays. Nor is it the finder's: fine-tuned as m1
(300 steps, lr 1e-3) on r1, 400 steep renders (``--max-tilt 60 --start 3500``) and realW's
scenes, it read the train part 77.1% / 92.9% / 2, and on r1 and realP 78.4% / 93.3% / 3.

A wider light (issue 23, twenty-ninth stop; commit 6117e36, reverted): photometric
with exposure ±40%, white balance ±25%, contrast ±30%, a gamma of 1/1.9 to 1.9, a tenth
of the images grey and noise up to σ 10 (``--camera-looks``), to cover the LOOKS of
eval_dice_reader.py, which the committed networks' light (±25%, ±10%, ±20%, σ 5) falls
short of. Each network was trained alone (the scripts as at 6117e36; the renders as
named above) and read with the other two as committed:

    .venv/bin/python scripts/make_dice_real_data.py --out /tmp/dice/realP
    .venv/bin/python scripts/train_dice_reader.py --only finder \
        --data /tmp/dice/r1 /tmp/dice/realP \
        --init models --lr 1e-3 --finder-steps 300 --camera-looks --out /tmp/dice/F1
    .venv/bin/python scripts/train_dice_reader.py --only judge --data /tmp/dice/r1 /tmp/dice/r2 \
        /tmp/dice/side /tmp/dice/sidem /tmp/dice/realP --favour /tmp/dice/realP \
        --init models --keep models --lr 7e-4 --real-look --camera-looks \
        --judge-steps 1200 --seed 11 --out /tmp/dice/J1
    .venv/bin/python scripts/train_dice_counter.py --data /tmp/dice/r1 /tmp/dice/r2 /tmp/dice/any1 \
        /tmp/dice/any3 /tmp/dice/any4 /tmp/dice/any1m /tmp/dice/any4m --real /tmp/dice/realP \
        --steps 5000 --camera-looks --out /tmp/dice/K1

F0 is F1 without --camera-looks, a control. eval_dice_reader.py --part train --looks,
as taken (frames fully right / dice right / ``ok`` but wrong) and over the 2,596 frames
of all looks (fully right / dice right / ``ok`` but wrong / dice missed): committed 78.4% /
93.2% / 1, 72.3% / 90.5% / 32 / 106; F0 77.1% / 93.2% / 2, 74.8% / 91.1% / 29 / 44; F1
76.3% / 92.9% / 1, 71.7% / 91.2% / 22 / 24; J1 78.0% / 94.0% / 1, 73.6% / 92.0% / 37 /
100; K1 79.2% / 93.5% / 1, 72.8% / 90.2% / 34 / 106; F1 with J1 74.6% / 93.8% / 1, 68.9% /
92.3% / 21 / 19. The wider light makes the finder mark the washed-out and darkened dice
it missed and the reader hand out fewer wrong rolls, but for as many frames left unsure
as stricter thresholds cost (min_counted 0.97: 27 wrong, 69.1% fully right). Trained
in it, the judge and the counter hand out no fewer wrong rolls (37 and 34).
None is committed; the held-out photos were not read.

scripts/eval_dice_reader.py scores the reader on the held-out real photos;
scripts/bench_dice.py on rendered seeds.

The training set of the networks before that was rendered only
(scripts/make_dice_data.py); the reader is scored on other seeds by
scripts/bench_dice.py. See companion/hw/dice/networks.py
for what each network is shown and what it answers.

The committed models: the finder saw 13,000 scenes for 12,000 steps (32
minutes on 2 cores): shards 200-229, 500-529 and 700-729 of the script as it
is, and 4,000 scenes (seeds 2,000,000-2,003,999) of an earlier version that had
no companion mat; the judge saw the windows of shards 200-229, 500-529,
1000-1029, 1100-1129 (``--tilted-only``) and 1500-1514 (``--tilted-only
--side-on``), and the committed finder's marks on shards 600-629, 900-929,
1200-1229 (``--tilted-only``) and 1515-1529 (``--tilted-only --side-on``):
297,060 windows, 20,000 steps (48 minutes on 2 cores), the side-on shards and
marks (45,321 windows) in a folder of their own, given to ``--favour``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
sys.path.insert(0, str(Path(__file__).resolve().parent))  # torch_extra, beside this script
from torch_extra import seed_and_threads, without_torch

from companion.hw.dice.networks import (
    CLASSES,
    COCKED,
    CROP_PX,
    CROP_SIDES,
    JUDGE_PX,
    JUDGE_SIDES,
    MOVING,
    NOTHING,
    STRIDE,
)

MODELS = Path(__file__).resolve().parents[1] / "models"
FINDER_CROP = (128, 192)  # finder training windows (rows, columns) of the shrunk scenes
# How much more often the judge sees --favour windows: the committed judge saw the side-on
# leaning dice (make_dice_data.py --side-on) three times as often, 37% of its windows
# instead of 18%, so it reads fewer of their sides as a flat die's top.
FAVOUR = 3.0
# With --keep: how much the judge is held to its former answers on the renders (a KL term).
KEEP = 1.0


def arguments_parser() -> argparse.ArgumentParser:
    """The command line, built before torch is imported: without torch, --help still
    lists it (torch_extra.py)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, nargs="+", default=[], metavar="DIR",
                        help="folders of make_dice_data.py's shards and marks")
    parser.add_argument("--finder-steps", type=int, default=3000,
                        help="the finder's training steps (default %(default)s)")
    parser.add_argument("--judge-steps", type=int, default=3000,
                        help="the judge's training steps (default %(default)s)")
    parser.add_argument("--favour", type=Path, nargs="+", default=[], metavar="DIR",
                        help=f"folders of --data whose judge windows are drawn {FAVOUR:g} "
                             "times as often as the others of their class")
    parser.add_argument("--only", choices=("finder", "judge"),
                        help="train and write only this network (default: both)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="the folder dice_finder.onnx, dice_judge.onnx and "
                             "dice_reader.json are written to "
                             "(required: models/ holds the shipped models, so a trial "
                             "run never replaces them; give --out models to replace them "
                             "on purpose)")
    seed_and_threads(parser)
    parser.add_argument("--init", type=Path, metavar="DIR",
                        help="fine-tune the networks exported in DIR (e.g. models/) instead of "
                             "training new ones")
    parser.add_argument("--lr", type=float, default=3e-3, help="the peak learning rate (default "
                                                               "%(default)s)")
    parser.add_argument("--real-look", action="store_true",
                        help="shuffle colours, blur and JPEG-encode the training images "
                             "(see real_look)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep the answers of the judge exported in DIR on the windows "
                             "not in --favour (the renders), while learning the favoured ones")
    parser.add_argument("--add-embedding", type=Path, metavar="ONNX",
                        help="only give an exported judge the embedding output, in place")
    return parser


try:
    import torch
    from torch import nn
    from torch.nn import functional as F
except ModuleNotFoundError as missing:  # the `train` extra is not installed
    without_torch(missing, __name__, arguments_parser())


# Set by --init: the exported networks have their batch norms folded into the convolutions,
# so a network fine-tuned from them is built with biased convolutions and no batch norm.
FOLDED = False


def conv(c_in: int, c_out: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    if FOLDED:
        return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, dilation, dilation),
                             nn.ReLU(inplace=True))
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, dilation, dilation, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


def load_onnx(model: nn.Module, path: Path) -> None:
    """Start ``model`` (built FOLDED) from an exported network's weights.

    The export names the head's weights after the module and the folded convolutions
    ``onnx::Conv_<n>`` in the order of the layers; the model's own order is the same.
    """
    import onnx
    from onnx import numpy_helper

    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    state = model.state_dict()
    named = {name: next((w for w in weights if w.split(".", 1)[-1] == name), None)
             for name in state}
    if all(named.values()):  # exported from a FOLDED model: every tensor by its own name
        model.load_state_dict({name: torch.from_numpy(weights[w].copy())
                               for name, w in named.items() if w is not None})
        return
    convs = sorted((name for name in weights if name.startswith("onnx::Conv_")),
                   key=lambda name: int(name.rsplit("_", 1)[1]))
    state = model.state_dict()
    body = [name for name in state if not name.startswith("head.")]
    if len(body) != len(convs):
        raise SystemExit(f"{path}: {len(convs)} convolution tensors, the model has {len(body)}")
    loaded = {name: torch.from_numpy(weights[c].copy()) for name, c in zip(body, convs,
                                                                           strict=True)}
    for name in state:
        if name.startswith("head."):
            loaded[name] = torch.from_numpy(weights[next(w for w in weights
                                                         if w.endswith(name))].copy())
    model.load_state_dict(loaded)


class Finder(nn.Module):
    """Heat map of top-face centres, offset in the cell, log of the face side (input pixels)."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(conv(3, 16, 2), conv(16, 32, 2), conv(32, 32), conv(32, 32, 1, 2),
                                  conv(32, 32, 1, 4), conv(32, 32))
        self.head = nn.Conv2d(32, 4, 1)
        nn.init.constant_(self.head.bias[:1], -2.2)  # start from "no die anywhere" (CenterNet)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x / 255.0 - 0.5))


class Judge(nn.Module):
    """Which face is up at the window's centre: nothing, 1..6, or moving.

    The last layers keep where things are (no global pooling): the die in the
    middle is judged, not the dice around it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(conv(3, 16), nn.MaxPool2d(2), conv(16, 32), nn.MaxPool2d(2),
                                  conv(32, 64), nn.MaxPool2d(2), conv(64, 64), conv(64, 64, 2),
                                  nn.Flatten())
        cells = -(-JUDGE_PX // 16)
        self.head = nn.Linear(64 * cells * cells, len(CLASSES))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x / 255.0 - 0.5))


class FinderExport(nn.Module):
    def __init__(self, finder: Finder) -> None:
        super().__init__()
        self.finder = finder

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.finder(x)
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], dim=1)


class JudgeExport(nn.Module):
    def __init__(self, judge: Judge) -> None:
        super().__init__()
        self.judge = judge

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.judge.body(x / 255.0 - 0.5)
        return torch.softmax(self.judge.head(features), dim=1), features


def add_embedding(path: Path) -> None:
    """Give an exported judge of before the ``embedding`` output (the features its last
    layer weighs: the enrolment's nearest-neighbour layer compares them) in place."""
    import onnx

    model = onnx.load(str(path))
    if any(o.name == "embedding" for o in model.graph.output):
        return
    flatten = next(n for n in model.graph.node if n.op_type == "Flatten")
    model.graph.node.append(onnx.helper.make_node("Identity", [flatten.output[0]],
                                                  ["embedding"]))
    model.graph.output.append(onnx.helper.make_tensor_value_info(
        "embedding", onnx.TensorProto.FLOAT, ["n", None]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def load(folders: list[Path], favoured: list[Path]) -> tuple[
        np.ndarray, list[np.ndarray], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shrunk scenes, their dice, judge windows, their labels, which windows the finder
    marked, and which came from the ``favoured`` folders."""
    small, dice, crops, labels, marked, favour = [], [], [], [], [], []
    for pattern, by_finder in (("shard_*.npz", False), ("marks_*.npz", True)):
        for data in folders:
            for path in sorted(data.glob(pattern)):
                part = np.load(path)
                if not by_finder:  # a shard also holds its scenes, for the finder
                    rows = part["dice"]
                    for i in range(len(part["small"])):
                        dice.append(rows[rows[:, 0] == i, 1:])
                    small.append(part["small"])
                crops.append(part["crops"])
                labels.append(part["labels"])
                marked.append(np.full(len(part["labels"]), by_finder))
                favour.append(np.full(len(part["labels"]), data in favoured))
    return (np.concatenate(small), dice, np.concatenate(crops), np.concatenate(labels),
            np.concatenate(marked), np.concatenate(favour))


def photometric(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Exposure, white balance, contrast and sensor noise, per image (float32 0..255)."""
    n = len(images)
    out = images.astype(np.float32)
    gain = rng.uniform(0.75, 1.25, (n, 1, 1, 1)) * rng.uniform(0.9, 1.1, (n, 1, 1, 3))
    mean = out.mean(axis=(1, 2, 3), keepdims=True)
    contrast = rng.uniform(0.8, 1.2, (n, 1, 1, 1))
    out = (mean + (out - mean) * contrast) * gain
    out += rng.standard_normal(out.shape, dtype=np.float32) * rng.uniform(0, 5, (n, 1, 1, 1))
    out = np.clip(out, 0, 255)
    if REAL_LOOK:
        out = real_look(out, rng)
    return out.astype(np.float32)


# Set by --real-look: what real cameras show that the renders lack (the shared real photos):
# dice of any colour, defocus and motion blur of a webcam, and JPEG blocks.
REAL_LOOK = False


def real_look(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Per image: the colour channels shuffled (half the images), a defocus or motion
    blur (a third), JPEG at quality 30 to 90 (half)."""
    out = images.astype(np.uint8)
    for i in range(len(out)):
        image = out[i]
        if rng.random() < 0.5:
            image = image[:, :, rng.permutation(3)]
        if rng.random() < 0.33:
            side = max(image.shape[:2])
            if rng.random() < 0.5:
                image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 0.02 * side + 0.5))
            else:
                length = int(rng.integers(3, max(4, side // 12)))
                kernel = np.zeros((length, length), np.float32)
                kernel[length // 2] = 1.0 / length
                turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                               rng.uniform(0, 180), 1.0)
                kernel = cv2.warpAffine(kernel, turn, (length, length))
                image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
        if rng.random() < 0.5:
            _ok, code = cv2.imencode(".jpg", np.ascontiguousarray(image),
                                    [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 91))])
            image = cv2.imdecode(code, cv2.IMREAD_COLOR)
        out[i] = image
    return out.astype(np.float32)


def finder_batch(small: np.ndarray, dice: list[np.ndarray], scale: float, batch: int,
                 rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Windows of shrunk scenes with their targets: heat (Gaussian per die), offset, log side."""
    rows, cols = FINDER_CROP
    cells = (rows // STRIDE, cols // STRIDE)
    images = np.empty((batch, rows, cols, 3), np.uint8)
    heat = np.zeros((batch, *cells), np.float32)
    box = np.zeros((batch, 4, *cells), np.float32)  # dx, dy, log side, is-a-centre
    yy, xx = np.mgrid[0:cells[0], 0:cells[1]]
    for b in range(batch):
        k = int(rng.integers(len(small)))
        y0 = int(rng.integers(small.shape[1] - rows + 1))
        x0 = int(rng.integers(small.shape[2] - cols + 1))
        image = small[k, y0:y0 + rows, x0:x0 + cols]
        flip_x, flip_y = rng.random() < 0.5, rng.random() < 0.5
        if flip_x:
            image = image[:, ::-1]
        if flip_y:
            image = image[::-1]
        images[b] = image
        for x, y, side, _value, _moving in dice[k]:
            cx, cy = x * scale - x0, y * scale - y0
            if flip_x:
                cx = cols - cx
            if flip_y:
                cy = rows - cy
            gx, gy = cx / STRIDE, cy / STRIDE
            ix, iy = int(np.floor(gx)), int(np.floor(gy))
            if not (0 <= ix < cells[1] and 0 <= iy < cells[0]):
                continue
            side_cells = side * scale / STRIDE
            sigma = 0.12 * side_cells + 0.25
            blob = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma ** 2))
            heat[b] = np.maximum(heat[b], blob)
            box[b, :, iy, ix] = (gx - ix, gy - iy, np.log(side * scale), 1.0)
    x = torch.from_numpy(photometric(images, rng)).permute(0, 3, 1, 2).contiguous()
    return x, torch.from_numpy(heat), torch.from_numpy(box)


def finder_loss(out: torch.Tensor, heat: torch.Tensor, box: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heat map, L1 on offset and size at the centres."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    centre = box[:, 3]
    pos = -((1 - p) ** 2) * torch.log(p) * centre
    neg = -((1 - heat) ** 4) * (p ** 2) * torch.log(1 - p) * (1 - centre)
    count = centre.sum().clamp(min=1)
    regress = (torch.abs(out[:, 1:4] - box[:, :3]) * centre[:, None]).sum() / count
    return (pos.sum() + neg.sum()) / count + regress


def judge_batch(crops: np.ndarray, labels: np.ndarray, marked: np.ndarray, weights: np.ndarray,
                batch: int, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor,
                                                                np.ndarray]:
    """Judge windows with the finder's errors in them: shift, size, any turn, mirror, blur.

    Windows the finder marked already hold its errors, so they move only a little.
    """
    picks = rng.choice(len(crops), batch, p=weights)
    scale_px = JUDGE_PX / JUDGE_SIDES  # pixels per face side in the judge's window
    out = np.empty((batch, JUDGE_PX, JUDGE_PX, 3), np.uint8)
    stored = CROP_PX / CROP_SIDES
    for b, k in enumerate(picks):
        angle = rng.uniform(0, 360)
        error = 0.25 if marked[k] else 1.0
        zoom = (1 + error * rng.uniform(-0.3, 0.3)) * scale_px / stored
        shift = error * rng.uniform(-0.2, 0.2, 2) * scale_px
        m = cv2.getRotationMatrix2D((CROP_PX / 2, CROP_PX / 2), angle, zoom)
        m[:, 2] += JUDGE_PX / 2 - CROP_PX / 2 + shift
        crop = crops[k][:, ::-1] if rng.random() < 0.5 else crops[k]
        image = cv2.warpAffine(np.ascontiguousarray(crop), m, (JUDGE_PX, JUDGE_PX),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.3:
            image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.0))
        out[b] = image
    x = torch.from_numpy(photometric(out, rng)).permute(0, 3, 1, 2).contiguous()
    return x, torch.from_numpy(labels[picks].astype(np.int64)), picks


def class_weights(labels: np.ndarray, marked: np.ndarray, favour: np.ndarray) -> np.ndarray:
    """Sampling weights: 25% nothing, 10% moving, 15% cocked, 50% the six values.

    Half of each class's share goes to the windows the finder marked (its own
    errors of place and size, and what it takes for a die), half to the windows
    cut where the truth says. Within each, a favoured window is drawn FAVOUR times
    as often as another.
    """
    share = {NOTHING: 0.25, MOVING: 0.1, COCKED: 0.15}
    weights = np.zeros(len(labels))
    each = np.where(favour, FAVOUR, 1.0)
    for c in range(len(CLASSES)):
        groups = [m for m in ((labels == c) & marked, (labels == c) & ~marked) if m.any()]
        for mask in groups:
            weights[mask] = share.get(c, 0.5 / 6) / len(groups) * each[mask] / each[mask].sum()
    return weights / weights.sum()


def train(model: nn.Module, steps: int, lr: float, step_fn, name: str) -> None:  # type: ignore[no-untyped-def]
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=steps,
                                                   pct_start=0.1 if FOLDED else 0.3)
    model.train()
    start, running = time.time(), 0.0
    for step in range(steps):
        loss = step_fn()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        value = loss.item()
        running = 0.98 * running + 0.02 * value if step else value
        if step % 100 == 0 or step == steps - 1:
            print(f"{name} step {step:5d}/{steps} loss {running:.4f} "
                  f"({time.time() - start:.0f} s)", flush=True)
    model.eval()


def main() -> None:
    parser = arguments_parser()
    args = parser.parse_args()
    if args.add_embedding is not None:
        add_embedding(args.add_embedding)
        return
    global FOLDED, REAL_LOOK
    FOLDED = args.init is not None
    REAL_LOOK = args.real_look
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    unknown = [str(f) for f in args.favour if f not in args.data]
    if unknown:
        parser.error(f"--favour {' '.join(unknown)}: not among the --data folders")
    if not args.data:
        parser.error("--data is required")
    small, dice, crops, labels, marked, favour = load(args.data, args.favour)
    scale = small.shape[2] / 1280  # the renderer's frames are 1280 wide
    print(f"{len(small)} scenes, {sum(len(d) for d in dice)} dice, {len(crops)} judge windows "
          f"({np.bincount(labels, minlength=len(CLASSES)).tolist()}), {favour.sum()} favoured",
          flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.only != "judge":
        finder = Finder()
        if args.init is not None:
            load_onnx(finder, args.init / "dice_finder.onnx")

        def finder_step() -> torch.Tensor:
            x, heat, box = finder_batch(small, dice, scale, 32, rng)
            return finder_loss(finder(x), heat, box)

        train(finder, args.finder_steps, args.lr, finder_step, "finder")
        torch.onnx.export(FinderExport(finder), torch.zeros(1, 3, 180, 320),
                          str(args.out / "dice_finder.onnx"), input_names=["frame"],
                          output_names=["heat"], dynamo=False,
                          dynamic_axes={"frame": {2: "rows", 3: "columns"},
                                        "heat": {2: "cell_rows", 3: "cell_columns"}})
    if args.only != "finder":
        judge = Judge()
        if args.init is not None:
            load_onnx(judge, args.init / "dice_judge.onnx")
        weights = class_weights(labels, marked, favour)
        teacher = None
        if args.keep is not None:  # the judge it was, whose answers on renders are kept
            teacher = Judge()
            load_onnx(teacher, args.keep / "dice_judge.onnx")
            teacher.eval()

        def judge_step() -> torch.Tensor:
            x, y, picks = judge_batch(crops, labels, marked, weights, 128, rng)
            logits = judge(x)
            loss = F.cross_entropy(logits, y)
            kept = torch.from_numpy(~favour[picks])
            if teacher is not None and kept.any():
                with torch.no_grad():
                    target = torch.softmax(teacher(x[kept]), dim=1)
                loss = loss + KEEP * F.kl_div(torch.log_softmax(logits[kept], dim=1), target,
                                              reduction="batchmean")
            return loss

        train(judge, args.judge_steps, args.lr, judge_step, "judge")
        torch.onnx.export(JudgeExport(judge), torch.zeros(1, 3, JUDGE_PX, JUDGE_PX),
                          str(args.out / "dice_judge.onnx"), input_names=["windows"],
                          output_names=["classes", "embedding"], dynamo=False,
                          dynamic_axes={"windows": {0: "n"}, "classes": {0: "n"},
                                        "embedding": {0: "n"}})
    # What each network was trained on; a run of one network keeps the other's entry.
    info_path = args.out / "dice_reader.json"
    info = json.loads(info_path.read_text()) if info_path.exists() else {}
    info.update({"format": 1, "classes": list(CLASSES)})
    if args.only != "judge":
        info["finder"] = {"scenes": len(small), "steps": args.finder_steps, "seed": args.seed}
    if args.only != "finder":
        info["judge"] = {"windows": len(crops), "favoured_windows": int(favour.sum()),
                         "steps": args.judge_steps, "seed": args.seed}
    info_path.write_text(json.dumps(info, indent=2) + "\n")


if __name__ == "__main__":
    main()
