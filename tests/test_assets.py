"""The packaged tile art covers every kind a reader can report."""

from __future__ import annotations

from companion.assets import tile_image_path
from companion.systems.jongrogue.tiles import ALL_KINDS


def test_every_reader_label_has_art() -> None:
    for label in [*ALL_KINDS, "back", "empty"]:
        assert tile_image_path(label).is_file(), label
    assert tile_image_path("5p", red=True).name == "Pin5-Dora.png"
