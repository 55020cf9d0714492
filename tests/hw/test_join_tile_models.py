"""scripts/join_tile_models.py: a joint tile model reads each crop with all its members."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from companion.hw.camera.classifier import TileClassifier, default_model_path
from tests.scripts import load_script

pytest.importorskip("torch")
pytest.importorskip("onnx")


def crops() -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [rng.integers(0, 256, (96, 72, 3), dtype=np.uint8) for _ in range(6)]


def test_a_joint_model_gives_its_members_mean_probabilities_and_cosines(tmp_path: Path) -> None:
    import torch

    training = load_script("train_tile_classifier")
    join = load_script("join_tile_models")
    first, second = tmp_path / "first.onnx", tmp_path / "second.onnx"
    for seed, path in ((1, first), (2, second)):  # two networks that read otherwise
        torch.manual_seed(seed)
        net = training.TileNet(len(training.READER_LABELS))
        with torch.no_grad():  # batch norms as after training (the export folds them)
            for norm in net.modules():
                if isinstance(norm, torch.nn.BatchNorm2d):
                    norm.bias.uniform_(-0.5, 0.5)
                    norm.running_var.uniform_(0.5, 2.0)
        training.export(net, path)
        shutil.copy(default_model_path().with_suffix(".json"), path.with_suffix(".json"))

    assert join.main([str(first), str(second), "--out", str(tmp_path / "joint")]) == 0

    reads = [TileClassifier(path).raw(crops()) for path in (first, second)]
    joint_probs, joint_embeddings = TileClassifier(tmp_path / "joint.onnx").raw(crops())
    assert not np.allclose(reads[0][0], reads[1][0], atol=1e-3)
    np.testing.assert_allclose(joint_probs, (reads[0][0] + reads[1][0]) / 2, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(joint_embeddings, axis=1), 1.0, atol=1e-5)
    cosines = [e @ e.T for _, e in reads]
    np.testing.assert_allclose(joint_embeddings @ joint_embeddings.T,
                               (cosines[0] + cosines[1]) / 2, atol=1e-5)


def test_joining_one_model_is_refused(tmp_path: Path) -> None:
    join = load_script("join_tile_models")
    with pytest.raises(SystemExit):
        join.main([str(default_model_path()), "--out", str(tmp_path / "joint")])
