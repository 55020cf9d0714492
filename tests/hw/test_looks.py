"""The other cameras' looks the readers are judged under (companion/hw/looks.py)."""

from __future__ import annotations

import numpy as np

from companion.hw.looks import LIGHT_AND_LENS, LOOKS


def test_each_look_changes_the_photo_the_same_way_every_run() -> None:
    rng = np.random.default_rng(5)
    photo = rng.integers(40, 200, (48, 64, 3), dtype=np.uint8)
    other = rng.integers(40, 200, (48, 64, 3), dtype=np.uint8)
    for name, look in LOOKS.items():
        seen = look(photo.copy())
        assert seen.dtype == np.uint8 and seen.shape[2] == 3, name
        if seen.shape == photo.shape:
            assert not np.array_equal(seen, photo), name
        assert np.array_equal(seen, look(photo.copy())), name
    assert LOOKS["quarter turn"](photo).shape == (64, 48, 3)
    assert LOOKS["larger x1.6"](photo).shape == (77, 102, 3)
    assert LOOKS["darker"](photo).mean() < photo.mean()
    assert LOOKS["brighter"](photo).mean() > photo.mean()
    warmer = LOOKS["warmer"](photo).astype(float)
    red_over_blue = [p[..., 2].mean() - p[..., 0].mean() for p in (photo, warmer)]
    assert red_over_blue[1] > red_over_blue[0]
    # The noise is the picture's own: another picture gets other noise.
    noisier = LOOKS["noisier"]
    noise = [noisier(p).astype(int) - p for p in (photo, other)]
    assert not np.array_equal(*noise)


def test_the_light_and_lens_looks_keep_a_crop_upright_and_its_size() -> None:
    crop = np.random.default_rng(1).integers(40, 200, (96, 72, 3), dtype=np.uint8)
    assert all(LOOKS[name](crop).shape == crop.shape for name in LIGHT_AND_LENS)
