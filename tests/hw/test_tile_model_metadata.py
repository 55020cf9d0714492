"""A damaged ``tile_classifier.json`` is refused as the model loads, naming the key: each
of these once passed, then crashed the first tile read at the table or read every tile as
one label or as nothing (fuzz audit finding 5)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.errors import DataError
from companion.hw.camera.classifier import TileClassifier, default_model_path

Edit = Callable[[dict[str, Any]], None]


def _set(section: str, key: str, value: object) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data[section][key] = value
    return edit


def _top(key: str, value: object) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data[key] = value
    return edit


def _classes(change: Callable[[list[str]], list[str]]) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["classes"] = change(data["classes"])
    return edit


@pytest.mark.parametrize("edit, named", [
    (_set("input", "width", 0), "'input.width' must be a whole number 1 or more, found 0"),
    (_set("input", "height", -3), "'input.height' must be a whole number 1 or more"),
    (_set("input", "width", 65), "'input.width' is 65, but the model tile_classifier.onnx "
                                 "takes 64"),
    (_set("input", "channels", "CMYK"), "'input.channels' must be \"RGB\" or \"BGR\""),
    (_set("input", "scale", float("nan")), "'input.scale' must be a number above 0"),
    (_set("input", "std", [0, 0, 0]), "'input.std' must be 3 numbers above 0"),
    (_set("input", "mean", [0.5, float("inf"), 0.5]), "'input.mean' must be 3 numbers"),
    (_set("reader", "top_k", 0), "'reader.top_k' must be a whole number from 1 to 36"),
    (_set("reader", "top_k", 37), "'reader.top_k' must be a whole number from 1 to 36"),
    (_set("reader", "min_confidence", 2), "'reader.min_confidence' must be a number above 0"),
    (_set("reader", "picture_confidence", float("nan")), "'reader.picture_confidence'"),
    (_set("reader", "stable_frames", 10**12), "'reader.stable_frames' must be a whole "
                                              "number from 1 to 100, found 1000000000000"),
    (_set("enrolment", "temperature", 0), "'enrolment.temperature' must be a number above 0"),
    (_set("enrolment", "same", 0.4), "'enrolment.same' must be a cosine above "
                                     "'enrolment.alike' (0.5) and at most 1, found 0.4"),
    (_classes(lambda c: [c[0]] * len(c)), "'classes' names 1m more than once"),
    (_classes(lambda c: c[:5]), "'classes' has 5 labels, but the model tile_classifier.onnx "
                                "gives 36 answers"),
    # a78tilecam NIT 5: read by format 1's rules, fed NCHW and resized by INTER_AREA all the
    # same, or said as TypeError("'int' object is not iterable")
    (_top("format", 2), "the model was made by a newer companion (metadata format 2; this "
                        "one reads 1): update the companion"),
    # r78tilecam NIT 7: found values as JSON, as the lines beside them, and the --model hint
    (_top("format", "1"), "'format' must be 1, found \"1\"; check --model's path"),
    (_top("format", True), "'format' must be 1, found true; check --model's path"),
    (_set("input", "layout", "NHWC"), "'input.layout' must be \"NCHW\" (as the reader feeds "
                                      "the model), found \"NHWC\"; check --model's path"),
    (_set("input", "resize", "cubic"), "'input.resize' must be \"area\" (as the reader feeds "
                                       "the model), found \"cubic\"; check --model's path"),
    (_top("classes", 5), "'classes' must be a list of labels, found 5; check --model's path"),
    (_top("enrolment", "x"), "'enrolment' must be a table, found \"x\"; check --model's path"),
])
def test_a_damaged_metadata_value_is_refused_naming_its_key(
        tmp_path: Path, edit: Edit, named: str) -> None:
    good = default_model_path()
    model = tmp_path / good.name
    shutil.copyfile(good, model)
    data = json.loads(good.with_suffix(".json").read_text(encoding="utf-8"))
    edit(data)
    meta = model.with_suffix(".json")
    meta.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataError) as err:
        TileClassifier(model)
    assert str(err.value).startswith(f"{meta}: ")
    assert named in str(err.value)


def test_metadata_nested_thousands_deep_is_malformed_not_a_traceback(tmp_path: Path) -> None:
    model = tmp_path / "tile_classifier.onnx"
    shutil.copyfile(default_model_path(), model)
    model.with_suffix(".json").write_text("[" * 3000 + "]" * 3000, encoding="utf-8")
    with pytest.raises(DataError, match=r"model metadata is malformed.*nested too deeply"):
        TileClassifier(model)


def test_metadata_not_an_object_is_said_as_json_with_the_model_hint(tmp_path: Path) -> None:
    """r78tilecam NIT 7: said as Python's repr (['a', None]) before."""
    model = tmp_path / "tile_classifier.onnx"
    shutil.copyfile(default_model_path(), model)
    model.with_suffix(".json").write_text('["a", null]', encoding="utf-8")
    with pytest.raises(DataError, match=r'must be a JSON object, found \["a", null\]; '
                                        r"check --model's path"):
        TileClassifier(model)


def test_a_model_made_before_enrolment_same_loads_with_the_measured_default(
        tmp_path: Path) -> None:
    """reviewcam73 NIT 2: a model whose metadata the earlier train_tile_classifier.py wrote,
    with no ``enrolment.same``, was refused as "malformed" with advice to check the path;
    it loads, as one without ``input.turns`` does, at the cosine measured on the shipped
    model, and reads its tiles."""
    import numpy as np

    from companion.hw.camera.augment import render_crop
    good = default_model_path()
    model = tmp_path / good.name
    shutil.copyfile(good, model)
    data = json.loads(good.with_suffix(".json").read_text(encoding="utf-8"))
    shipped = data["enrolment"].pop("same")
    del data["enrolment"]["same_why"]
    model.with_suffix(".json").write_text(json.dumps(data), encoding="utf-8")
    older = TileClassifier(model)
    assert older.info.enrol_same == shipped
    crop = render_crop("7p", np.random.default_rng(1))
    assert older.predict([crop])[0].best == TileClassifier().predict([crop])[0].best
