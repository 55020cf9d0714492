"""Join exported tile classifiers into one ONNX file that reads each crop with all of them.

    .venv/bin/python scripts/join_tile_models.py A.onnx B.onnx --out /tmp/joint/tile_classifier

The joint model's ``logits`` are the log of the members' mean probabilities (so the
reader's softmax gives that mean), and its ``embedding`` is the members' embeddings side
by side over the square root of their number: unit length, and two crops' cosine in it
is the mean of their cosines in each member, so enrolment works on it as on one model.
The metadata is the first member's, with the members named under ``training.members``.
Every member must have the committed network's widths (``TileNet``'s default).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's companion
from companion.systems.jongrogue.tiles import READER_LABELS


def arguments_parser() -> argparse.ArgumentParser:
    """The command line, built before torch is imported: without torch, --help still
    lists it (torch_extra.py)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("members", type=Path, nargs="+", help="exported .onnx models")
    parser.add_argument("--out", type=Path, required=True,
                        help="the joint model's path, without .onnx")
    return parser


sys.path.insert(0, str(Path(__file__).resolve().parent))
try:
    import torch
    from torch import nn
    from train_tile_classifier import TileNet, export, load_onnx_weights  # beside this one
except ModuleNotFoundError as missing:  # the `train` extra is not installed
    from torch_extra import without_torch

    without_torch(missing, __name__, arguments_parser())


class JointNet(nn.Module):
    """Several TileNets read as one: mean probabilities, embeddings side by side."""

    def __init__(self, members: list[TileNet]) -> None:
        super().__init__()
        self.members = nn.ModuleList(members)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        outputs = [member(x) for member in self.members]
        probs = torch.stack([logits.softmax(dim=1) for logits, _ in outputs]).mean(dim=0)
        embedding = torch.cat([e for _, e in outputs], dim=1) / math.sqrt(len(outputs))
        return probs.log(), embedding


def main(argv: list[str] | None = None) -> int:
    parser = arguments_parser()
    args = parser.parse_args(argv)
    if len(args.members) < 2:
        parser.error("join at least two models")
    members = []
    for path in args.members:
        member = TileNet(len(READER_LABELS))
        load_onnx_weights(member, path)
        members.append(member)
    onnx_path = args.out.with_suffix(".onnx")
    onnx_path.parent.mkdir(parents=True, exist_ok=True)
    export(JointNet(members), onnx_path)
    metadata = json.loads(args.members[0].with_suffix(".json").read_text(encoding="utf-8"))
    metadata["training"] = {
        "script": "scripts/join_tile_models.py",
        "members": [{"file": str(path), "training": json.loads(
            path.with_suffix(".json").read_text(encoding="utf-8")).get("training")}
            for path in args.members],
    }
    metadata["measured"] = {}
    onnx_path.with_suffix(".json").write_text(json.dumps(metadata, indent=2) + "\n")
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1e6:.2f} MB) and its .json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
