"""scripts/eval_dice_reader.py's rows (audit scripts73): a row of no frames or of reads never
timed shows no figure for them (NIT 6, eval_dice_calibration's 'calibrated' and 'packaged'
rows), and the 'all photos' row says which lines it sums (NIT 7)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.hw.dice.readings import DiceRead, ReadStatus
from tests.scripts import load_script


def test_a_row_of_no_frames_or_untimed_reads_shows_no_figure_for_them() -> None:
    """NIT 6: `eval_dice_calibration.py --limit 1` printed 'calibrated frames 0 fully right
    0.00% ... ms median 0.0' (nothing was saved) and 'packaged ... ms median 0.0' for reads
    never timed."""
    script = load_script("eval_dice_reader")
    none = script.Tally()
    assert none.line("calibrated") == "calibrated   frames    0  no reads: no figures"
    untimed = script.Tally()
    untimed.add((3, 4), DiceRead((), ReadStatus.NO_DICE, "none seen"), None)
    line = untimed.line("packaged")
    assert line.startswith("packaged     frames    1  fully right   0.00%")
    assert line.endswith("ms not timed") and "median" not in line
    timed = script.Tally()
    timed.add((3, 4), DiceRead((), ReadStatus.NO_DICE, "none seen"), 12.0)
    assert timed.line("read").endswith("ms median  12.0 p95  12.0")


def test_the_all_photos_row_says_what_it_sums(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """NIT 7: 'all photos' summed the sources' own frames and left the large-white copies
    (--large) out without saying so; each line's frame size is shown too (the 20 ms target
    is per 1280x720 frame, which these photos are not)."""
    rows = ["image,dice,die_px,n_dice,source,origin,note"]
    for name, size, source in (("a.jpg", (48, 64), "matteop65/x"),
                               ("b.jpg", (64, 64), "nell-byler/y")):
        cv2.imwrite(str(tmp_path / name), np.full((*size, 3), 90, np.uint8))
        rows.append(f"{name},3 4,30,2,{source},o,")
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    load_script("eval_dice_reader").main(["--photos", str(tmp_path), "--large"])
    out = capsys.readouterr().out.splitlines()
    assert [line[:line.index("  fully right")] for line in out if " frames " in line] == [
        "large-white  frames    1", "matteop65    frames    1", "nell-byler   frames    1",
        "all photos (matteop65 + nell-byler; not large-white) frames    2"]
    assert ("frames (w x h): large-white 282x211, matteop65 64x48, nell-byler 64x64; the 20 ms "
            "target is per 1280x720 frame: bench_dice.py times it") in out
