"""hardware/: the wiring table and diagram agree with the configured default pins."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from companion.app.config import load_specs

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def test_wiring_table_and_diagram_match_default_pins() -> None:
    table = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    svg_text = " ".join(
        t.text or "" for t in ET.parse(HARDWARE / "wiring.svg").iter()
        if t.tag.endswith("text")
    )
    for key, spec in load_specs().items():
        if not key.startswith("buttons.") or not key.endswith("_pin"):
            continue
        assert key in table, key
        if isinstance(spec.default, int) and spec.default >= 0:
            assert f"`{key} = {spec.default}`" in table, key
            assert f"GPIO{spec.default} " in svg_text, key


def test_bom_has_prices_for_both_readers() -> None:
    bom = (HARDWARE / "bom.md").read_text(encoding="utf-8")
    for part in ("Raspberry Pi", "Camera Module 3", "MFRC522", "Pico", "NTAG213", "buzzer"):
        assert part in bom, part
    assert "USD" in bom
