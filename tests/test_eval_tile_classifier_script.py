"""scripts/eval_tile_classifier.py (audit scripts73): its time per crop is CPU time, as
bench_camera's (R2), and a photo folder that is not there is a usage error, as the dice
scripts' (R3)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hw.camera.classifier import default_model_path
from tests.scripts import load_script

#: The key --write-metadata stores the crop time under (CPU time, fixcarry74).
STORED_CROP_KEY = "crop_ms_cpu"


def _clock(step: float) -> Iterator[float]:
    """A clock read twice a call (before, after): each call takes ``step`` seconds."""
    now = 0.0
    while True:
        yield now
        now += step


def test_the_crop_time_is_cpu_time_and_is_what_is_stored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R2: the crop time was wall time, which on a shared machine mostly measures the queue
    for a core (1.15 to 4.62 ms for one model in one session), and --write-metadata stored it
    as crop_ms. The clocks stand in for a core shared with another process: each 5-crop call
    takes 2.5 ms of CPU over 25 ms of wall time."""
    script = load_script("eval_tile_classifier")
    cpu, wall = _clock(0.0025), _clock(0.025)
    monkeypatch.setattr(script.time, "process_time", lambda: next(cpu))
    monkeypatch.setattr(script.time, "perf_counter", lambda: next(wall))
    measured: dict[str, object] = {}
    line = script.crop_figures(default_model_path(), measured)
    assert line.startswith("crop time: 0.50 ms CPU per crop, median (5.00 ms wall; one thread,"
                           " 5 crops a call; target <= 2 ms CPU); model ")
    assert measured[STORED_CROP_KEY] == 0.5
    assert {key for key in measured if key.startswith("crop_")} == {STORED_CROP_KEY}
    assert measured["model_mb"] == round(default_model_path().stat().st_size / 1e6, 2)


def test_the_shipped_models_crop_time_is_the_one_the_eval_stores() -> None:
    """fixcarry74: models/tile_classifier.json kept crop_ms, 1.08 ms of wall time, while the
    eval prints and --write-metadata stores the CPU time as crop_ms_cpu (1.01 ms the run
    that stored it): the model's figures hold the crop time as the eval measures it. Read
    from the metadata alone, no timing pass (reviewa74 N4): the test above holds the eval
    to storing STORED_CROP_KEY and no other crop key."""
    import json

    shipped = json.loads(default_model_path().with_suffix(".json").read_text())["measured"]
    assert {key for key in shipped if key.startswith("crop_")} == {STORED_CROP_KEY}
    assert isinstance(shipped[STORED_CROP_KEY], float) and 0 < shipped[STORED_CROP_KEY] <= 2


@pytest.mark.parametrize("given", [False, True])
def test_a_photo_folder_that_is_not_there_is_a_usage_error(
        given: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """R3: a missing folder (--sources, or the default ones in a clone not beside ../shared)
    printed 'skipped' and the run ended with exit 0, its held-out photo figures simply
    missing. It is refused before anything is read; --sources alone reads renders only."""
    script = load_script("eval_tile_classifier")
    missing = tmp_path / "tile-photos"
    if given:
        argv = ["--sources", str(missing)]
    else:
        monkeypatch.setattr(script, "SOURCES", (missing,))
        argv = []
    read: list[object] = []
    monkeypatch.setattr(script, "TileClassifier", lambda *a, **k: read.append(a))
    with pytest.raises(SystemExit) as exit_:
        script.main([*argv, "--renders-per-class", "1", "--scenes", "1"])
    assert exit_.value.code == 2
    assert (f"{missing / 'labels.csv'} not found: the tile photos are not in the repository; "
            "give --sources DIR ..., or --sources alone for renders only"
            ) in capsys.readouterr().err
    assert read == []
