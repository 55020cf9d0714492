"""What a training script does without torch, the pyproject's ``train`` extra (torch and
onnx; the companion itself never needs them).

Not a script: the training scripts import it from beside them (``sys.path`` holds this
folder). Each builds its command line before it imports torch, so that without torch its
``--help`` still lists the options and a bad option is still a usage error; anything else
ends with the line that installs the extra, not a ModuleNotFoundError traceback (audit
scripts68 R4: ``--help`` needed torch, and the install line named a ``/work/venv`` that
does not exist).
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

INSTALL = ".venv/bin/pip install -e '.[train]'"


def without_torch(missing: ModuleNotFoundError, module: str,
                  parser: argparse.ArgumentParser) -> NoReturn:
    """Called where ``import torch`` failed with ``missing`` in the module named ``module``.
    Run as a script, its ``parser`` reads the command line (``--help`` prints and exits
    0, a bad option exits 2), then it ends saying how to install torch. Imported (by
    another training script), or another module missing, the error is raised again."""
    if module != "__main__" or (missing.name or "").split(".")[0] != "torch":
        raise missing
    parser.parse_args()
    sys.exit(f"{parser.prog}: needs torch, the `train` extra: {INSTALL}")


def seed_and_threads(parser: argparse.ArgumentParser) -> None:
    """Add the --seed and --threads options the dice training scripts share
    (train_dice_reader.py, train_dice_counter.py; dedupe73 D5)."""
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the weights and of the batches (default %(default)s)")
    parser.add_argument("--threads", type=int, default=2, help="torch CPU threads (default "
                                                               "%(default)s)")


if __name__ == "__main__":
    sys.exit("torch_extra.py is not a script: the training scripts import it")
