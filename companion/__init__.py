"""JongRogue Companion: play JongRogue EZ Plus (雀ローグEZプラス) with a real mahjong set."""

import os

__version__ = "0.1.0"

# pygame greets on import; our commands (screen, tile renders) should not print it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# numpy's OpenBLAS runs each matrix product on a thread per core, and its threads spin
# between products. Ours are small (an enrolment's vote over the player's own dice or tiles)
# and the Pi's other cores draw the screen and run the camera: with the dice enrolled, a
# read took twice the CPU and no less time (held-out photos' median 21 ms became 47 ms on
# two cores: scripts/eval_dice_reader.py --part test --enrol 4). Set before numpy is first
# imported, which the companion's modules do after this.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
