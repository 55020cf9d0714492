"""hardware/: the wiring table and diagram agree with the configured default pins."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from companion.app.config import load_specs
from companion.app.pin_numbers import header_pin_of, wired_pins

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


def test_the_wiring_the_header_pin_warning_knows_is_the_tables() -> None:
    """pi_header.toml's [wiring] (keys75 RISK 2's warning of header pins written for its
    GPIOs) is wiring.md's table: each part's setting, its GPIO and that GPIO's header pin."""
    table = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    parts = {key.removeprefix("buttons.").removesuffix("_pin") for key in load_specs()
             if key.startswith("buttons.") and key.endswith("_pin")}
    assert set(wired_pins()) == parts
    for part, gpio in wired_pins().items():
        assert f"`buttons.{part}_pin = {gpio}`" in table, part
        assert f"GPIO{gpio} [{header_pin_of(gpio)}]" in table, part


def test_no_pi_header_pin_is_given_two_wires() -> None:
    """The RDM6300 was put on 5V [2] and GND [6], where the DSI screen's own power leads
    go: two Dupont wires for one header pin. Every Pi header pin a table wires to (the
    columns between the part and the notes) is one part's; the Pico's pins are its own."""
    text = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    wired: dict[int, str] = {}
    for section in text.split("\n## "):
        if section.startswith("RFID tray (Raspberry Pi Pico"):
            continue
        for row in section.splitlines():
            cells = row.strip("|").split("|")
            if not row.startswith("| ") or len(cells) < 3:
                continue
            part = f"{section.splitlines()[0]}: {cells[0].strip()}"
            for pin in map(int, re.findall(r"\[(\d+)\]", "|".join(cells[1:-1]))):
                assert pin not in wired, f"[{pin}] is wired twice: {wired[pin]}; {part}"
                wired[pin] = part
    # Where Raspberry Pi's Touch Display guide puts the screen's red and black leads.
    screen = 'Camera and screen: Official 7" touch screen'
    assert (wired.get(2), wired.get(6)) == (screen, screen)


def test_bom_has_prices_for_both_readers() -> None:
    bom = (HARDWARE / "bom.md").read_text(encoding="utf-8")
    for part in ("Raspberry Pi", "Camera Module 3", "MFRC522", "Pico", "NTAG213", "buzzer"):
        assert part in bom, part
    assert "USD" in bom


def test_the_led_is_drawn_with_its_polarity() -> None:
    """Maker audit 56 #9: the LED was a plain circle. Its anode (+) is marked on the
    resistor's side of it, its cathode (-) and flat side on the ground's."""
    root = ET.parse(HARDWARE / "wiring.svg").getroot()
    by_id = {element.get("id"): element for element in root.iter() if element.get("id")}
    led = next(c for c in root.iter() if c.tag.endswith("circle")
               and c.get("fill") == "#f5c542")
    centre, radius = float(led.get("cx", 0)), float(led.get("r", 0))
    assert by_id["led-anode"].text == "+" and float(by_id["led-anode"].get("x", 0)) < centre
    assert by_id["led-cathode"].text == "−"
    assert float(by_id["led-cathode"].get("x", 0)) > centre
    flat = float(by_id["led-flat-side"].get("x1", 0))
    assert centre < flat < centre + radius
