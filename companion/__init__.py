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
# onnxruntime (the camera's models) sends usage events to Microsoft from its official
# builds, Linux and the Pi's included, and keeps a device id and an event database under
# ~/.cache/Microsoft: on a Pi at the table, DNS look-ups at every start and writes to the SD
# card outside the companion's folders. Its documented opt-out, read when onnxruntime
# starts (its Privacy.md), turns it all off; companion/hw/onnx_session.py sets it too.
os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
